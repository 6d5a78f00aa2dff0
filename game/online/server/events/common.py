"""What every kind of event shares: the refusal a player is told, the clock, JSON checks."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from game.rules.vocabulary import JsonObject

#: The clock an event service reads (tests pass their own and move it).
Clock = Callable[[], dt.datetime]


class EventRefusal(ValueError):
    """A request an event does not take: ``code`` (one word for the client to say in its own
    words) and a one-line message."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


def iso(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="seconds")


def from_iso(text: object) -> dt.datetime:
    if not isinstance(text, str):
        raise ValueError(f"not a time: {text!r}")
    return dt.datetime.fromisoformat(text)


def number(value: object) -> float:
    """A number read back from a stored state (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"not a number: {value!r}")
    return float(value)


def integer(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"not an integer: {value!r}")
    return value


def text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a text: {value!r}")
    return value


def obj(value: object) -> JsonObject:
    if not isinstance(value, dict):
        raise ValueError(f"not an object: {value!r}")
    return value


def items(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"not a list: {value!r}")
    return value


def percent(part: float, whole: float) -> float:
    """``part`` of ``whole`` as a percentage (50 when there is nothing to compare with)."""
    return 50.0 if whole <= 0 else 100.0 * part / whole
