"""The record's event kinds, as the games declare them, and one way to handle them: an
:class:`EventHandlers` table per concern, each kind's handler registered by kind.

The kinds are not listed here: each game declares the events its record holds (its rules'
``event_kinds``: game.rules.vocabulary.EventKind, the shared ones in game.rules.common and
the mechanisms'), and :func:`known_kinds` is their union over the registered games.

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

from game import registry
from game.rules.vocabulary import EventKind

_DECLARED: dict[int, dict[str, EventKind]] = {}


def declared_events() -> dict[str, EventKind]:
    """Every event kind a registered game declares, by name, in the order the games (by
    folder, then those registered in code) declare them; the first declaration of a name
    stands for it (a capture game's ``play`` extends the shared one: see its rules)."""
    cached = _DECLARED.get(registry.generation)
    if cached is not None:
        return cached
    out: dict[str, EventKind] = {}
    for gid in registry.folder_game_ids():
        for e in registry.rules_class(gid).event_kinds:
            out.setdefault(e.name, e)
    _DECLARED.clear()
    _DECLARED[registry.generation] = out
    return out


def known_kinds() -> tuple[str, ...]:
    """Every kind of record line a registered game writes."""
    return tuple(declared_events())


#: A concern's handler: it takes what the concern passes (the event, the table model …) and
#: returns what that concern wants (sound names, a narration line …).
Handler = Callable[..., object]


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
            known = known_kinds()
            for kind in kinds:
                if kind not in known:
                    raise ValueError(f"{self.concern}: {kind!r} is not a record event kind")
                if kind in self._by_kind or kind in self.ignores:
                    raise ValueError(f"{self.concern}: {kind!r} is handled twice")
                self._by_kind[kind] = fn
            return fn

        return register

    def handler(self, event: Mapping[str, object] | str | None) -> Handler | None:
        """The handler for an event (or a kind), None when there is none."""
        kind = event.get("event") if isinstance(event, Mapping) else event
        return self._by_kind.get(kind) if isinstance(kind, str) else None

    @property
    def handled(self) -> frozenset[str]:
        return frozenset(self._by_kind)

    def missing(self) -> list[str]:
        """The kinds neither handled nor ignored (the tests want none)."""
        return [k for k in known_kinds() if k not in self._by_kind and k not in self.ignores]


__all__ = ["EventHandlers", "Handler", "declared_events", "known_kinds"]
