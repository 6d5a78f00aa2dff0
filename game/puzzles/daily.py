"""The puzzle of the day: the same for everyone on a date, by a published rule.

The rule (anyone can check it): the text ``cardavia-puzzle|YYYY-MM-DD|GAME`` (UTF-8), its
SHA-256 digest read as a big-endian number, modulo the number of the game's shipped
puzzles; the day's puzzle is the one at that place in the game's shipped ids sorted as
texts. Two homes with the same program agree on every date; the shipped set is the only
input besides the date and the game, so a new release with more puzzles may pick another.
"""

from __future__ import annotations

import datetime as dt
import hashlib

from game.puzzles.model import Puzzle
from game.puzzles.store import by_id, shipped

PREFIX = "cardavia-puzzle"


def daily_index(day: dt.date, game: str, count: int) -> int:
    """The day's place among ``count`` sorted ids (see the module)."""
    if count < 1:
        raise ValueError(f"no puzzles of {game} to choose from")
    text = f"{PREFIX}|{day.isoformat()}|{game}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest(), "big") % count


def daily_id(day: dt.date, game: str, ids: list[str] | None = None) -> str:
    """The day's puzzle id among ``ids`` (default the game's shipped ones)."""
    pool = sorted(ids if ids is not None else (p.id for p in shipped(game)))
    return pool[daily_index(day, game, len(pool))]


def daily_puzzle(day: dt.date, game: str) -> Puzzle:
    """The day's puzzle of ``game``; ValueError (one line) when the game has none shipped."""
    p = by_id(daily_id(day, game))
    if p is None:  # cannot happen: the id came from the same set
        raise ValueError(f"no puzzle of {game} for {day.isoformat()}")
    return p


__all__ = ["PREFIX", "daily_id", "daily_index", "daily_puzzle"]
