"""The one list of games, and the one place that finds a game's parts.

A game is registered by two facts that name it once each: its entry under ``games:`` in
rules.yaml and its folder ``game/games/<id>/``, whose ``rules.py`` defines one ``GameRules``
subclass whose ``game_id`` is that id. The folder holds the rest of the game as well, each
part a module found by :func:`game_module` (see :data:`PARTS`). Everything else (records,
verify, the table, results, rules pages, audio, the AI levels) asks the registry and the rules
class; nothing compares game ids. Modules are imported lazily, so one game's module never
slows another's start. ``game.rulesets.game_ids()`` lists the registered games in rules.yaml's
order.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING, Literal, overload

if TYPE_CHECKING:  # the rules classes import the config, and the config asks this module
    from game.rules.base import GameRules

GAMES_PACKAGE = "game.games"

#: The parts a game's folder may hold, each ``game/games/<id>/<part>.py`` (or a package):
#: only ``rules`` is required; the others are optional and their users say what they do
#: without them.
PARTS: dict[str, str] = {
    "rules": "the GameRules subclass (game.rules.base)",
    "ai": "the search AI's hooks (game.ai.hooks); a package keeps its tuning constants in its tuning module",
    "heuristics": "the greedy bot's move values (game.ai.greedy)",
    "solver": "an exact endgame solver the hooks use",
    "results": "the results screen's sentences about a deal: explain(b, t, rules, deal_end, names)",
    "coach": "the coach's facts and reasons (game.coach.hooks): points per utility, budget, why a move was worse",
}
_CLASSES: dict[str, type] = {}


def _module_name(game_id: object, part: str) -> str | None:
    """``game.games.<id>.<part>``, or None when ``game_id`` or ``part`` cannot name a module."""
    if not isinstance(game_id, str) or not game_id.isidentifier():
        return None
    if not part.isidentifier():
        return None
    return f"{GAMES_PACKAGE}.{game_id}.{part}"


def has_part(game_id: object, part: str) -> bool:
    """Whether the game's folder holds ``part`` (without importing the part itself)."""
    name = _module_name(game_id, part)
    if name is None:
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@overload
def game_module(game_id: str, part: str, *, optional: Literal[False] = ...) -> ModuleType: ...
@overload
def game_module(game_id: str, part: str, *, optional: Literal[True]) -> ModuleType | None: ...


def game_module(game_id: str, part: str, *, optional: bool = False) -> ModuleType | None:
    """The module of one part of a game (``game/games/<game_id>/<part>``, see :data:`PARTS`).

    A game without that part: None when ``optional``, else a ValueError naming the file that
    is missing. An import error inside the part is not hidden."""
    if not has_part(game_id, part):
        if optional:
            return None
        raise ValueError(f"unknown {part} of game {game_id!r}: there is no game/games/{game_id}/{part}.py")
    return importlib.import_module(f"{GAMES_PACKAGE}.{game_id}.{part}")


def rules_class(game_id: str) -> type[GameRules]:
    """The rules class of a registered game; ValueError naming the problem otherwise."""
    cls = _CLASSES.get(game_id) if isinstance(game_id, str) else None
    if cls is not None:
        return cls
    if not has_part(game_id, "rules"):
        raise ValueError(f"unknown game {game_id!r}: there is no rules module game/games/{game_id}/rules.py")
    module = game_module(game_id, "rules")
    # The class defined in that module that names this game (its GameRules subclass).
    found = [
        v
        for v in vars(module).values()
        if isinstance(v, type) and v.__module__ == module.__name__ and getattr(v, "game_id", None) == game_id
    ]
    if len(found) != 1:
        raise ValueError(
            f"game/games/{game_id}/rules.py must define exactly one GameRules class with game_id {game_id!r}"
        )
    _CLASSES[game_id] = found[0]
    return found[0]
