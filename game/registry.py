"""The one list of games.

A game is registered by two facts that name it once each: its entry under ``games:`` in
rules.yaml and its rules module ``game/rules/<id>.py``, which defines one ``GameRules``
subclass whose ``game_id`` is that id. Everything else (records, verify, the table, results,
rules pages, audio, the AI levels) asks the registry and the rules class; nothing compares
game ids. Modules are imported lazily, so one game's module never slows another's start.
``game.rules.game_ids()`` lists the registered games in rules.yaml's order.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rules classes import the config, and the config asks this module
    from game.rules.base import GameRules

RULES_PACKAGE = "game.rules"
_NOT_GAMES = frozenset({"base", "capture"})  # shared modules of the rules package
_CLASSES: dict[str, type] = {}


def has_rules_module(game_id: object) -> bool:
    """Whether ``game/rules/<game_id>.py`` exists (without importing it)."""
    if not isinstance(game_id, str) or not game_id.isidentifier() or game_id in _NOT_GAMES:
        return False
    try:
        return importlib.util.find_spec(f"{RULES_PACKAGE}.{game_id}") is not None
    except (ImportError, ValueError):
        return False


def rules_class(game_id: str) -> type[GameRules]:
    """The rules class of a registered game; ValueError naming the problem otherwise."""
    cls = _CLASSES.get(game_id) if isinstance(game_id, str) else None
    if cls is not None:
        return cls
    if not has_rules_module(game_id):
        raise ValueError(f"unknown game {game_id!r}: there is no rules module game/rules/{game_id}.py")
    module = importlib.import_module(f"{RULES_PACKAGE}.{game_id}")
    # The class defined in that module that names this game (its GameRules subclass).
    found = [v for v in vars(module).values()
             if isinstance(v, type) and v.__module__ == module.__name__ and getattr(v, "game_id", None) == game_id]
    if len(found) != 1:
        raise ValueError(f"game/rules/{game_id}.py must define exactly one GameRules class with game_id {game_id!r}")
    _CLASSES[game_id] = found[0]
    return found[0]
