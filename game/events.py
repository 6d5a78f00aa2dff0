"""The record's event kinds, as the games declare them.

The kinds are not listed here: each game declares the events its record holds (its rules'
``event_kinds``: game.rules.vocabulary.EventKind, the shared ones in game.rules.common and
the mechanisms'), and :func:`known_kinds` is their union over the registered games. The
table, the narration, the sounds and the replay handle an event by its declared effect
(scenes.table.model ``EFFECTS``), never by its name.

Pure Python: no pygame here.
"""

from __future__ import annotations

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


__all__ = ["declared_events", "known_kinds"]
