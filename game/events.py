"""The record's event kinds (RECORD.md), and one way to handle them: an
:class:`EventHandlers` table per concern, each kind's handler registered by kind.

The table model applies an event (scenes.table.model), the animation shows it
(scenes.table.animate), the narrator tells it (scenes.table.narrate) and the sound cues
sound it (audio.cues): four concerns, each a table of its own, so each kind is handled in one
place per concern. A concern names the kinds it leaves alone (``ignores``); the tests check
that every kind is either handled or ignored by every concern, so a new kind cannot be
forgotten by one of them.

Pure Python: no pygame here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: Every kind of record line, in the order a deal meets them (RECORD.md): the ones every game
#: writes and those some games add (their rules' ``record_events``).
KINDS = (
    "match",
    "deal",
    "redeal",
    "hands",
    "play",
    "trick",
    "draw",
    "exchange",
    "marriage",
    "close",
    "deal_end",
    "match_end",
)

Handler = Callable[..., Any]


class EventHandlers:
    """The handlers of one concern, by event kind. Register with :meth:`on`; :meth:`handler`
    finds the one for an event (None for a kind the concern ignores or does not know)."""

    def __init__(self, concern: str, ignores: tuple[str, ...] = ()):
        self.concern = concern
        self.ignores = frozenset(ignores)
        self._by_kind: dict[str, Handler] = {}

    def on(self, *kinds: str) -> Callable[[Handler], Handler]:
        """Decorator: ``fn`` handles these kinds (one handler per kind and concern)."""

        def register(fn: Handler) -> Handler:
            for kind in kinds:
                if kind not in KINDS:
                    raise ValueError(f"{self.concern}: {kind!r} is not a record event kind")
                if kind in self._by_kind or kind in self.ignores:
                    raise ValueError(f"{self.concern}: {kind!r} is handled twice")
                self._by_kind[kind] = fn
            return fn

        return register

    def handler(self, event: Mapping[str, Any] | str | None) -> Handler | None:
        """The handler for an event (or a kind), None when there is none."""
        kind = event.get("event") if isinstance(event, Mapping) else event
        return self._by_kind.get(kind) if isinstance(kind, str) else None

    @property
    def handled(self) -> frozenset[str]:
        return frozenset(self._by_kind)

    def missing(self) -> list[str]:
        """The kinds neither handled nor ignored (the tests want none)."""
        return [k for k in KINDS if k not in self._by_kind and k not in self.ignores]


__all__ = ["KINDS", "EventHandlers"]
