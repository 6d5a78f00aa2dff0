"""The one list of games, and the one place that finds a game's parts.

A game is registered by two facts that name it once each: its entry under ``games:`` in
rules.yaml and its folder ``game/games/<id>/``, whose ``rules.py`` defines one ``GameRules``
subclass whose ``game_id`` is that id. The folder holds the rest of the game as well, each
part a module found by :func:`game_module` (see :data:`PARTS`). Everything else (records,
verify, the table, results, rules pages, audio, the AI levels) asks the registry and the rules
class; nothing compares game ids. Modules are imported lazily, so one game's module never
slows another's start. ``game.rulesets.game_ids()`` lists the registered games in rules.yaml's
order.

A game may also live outside ``game/games/`` (the tests' template game): :func:`register_game`
names its package and, when rules.yaml does not hold it, its config built in code; the config
(game.config.get_config) then offers it too, until :func:`unregister_game`.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Literal, overload

if TYPE_CHECKING:  # the rules classes import the config, and the config asks this module
    from game.config_types import Config, DeckConfig, GameConfig
    from game.rules.base import GameRules

GAMES_PACKAGE = "game.games"

#: The parts a game's folder may hold, each ``game/games/<id>/<part>.py`` (or a package):
#: only ``rules`` is required; the others are optional and their users say what they do
#: without them.
PARTS: dict[str, str] = {
    "rules": "the GameRules subclass (game.rules.base)",
    "vocabulary": "its declared decisions and record events (game.rules.vocabulary), on the rules class as "
    "decision_kinds and event_kinds",
    "ai": "the search AI's hooks (game.ai.hooks); a package keeps its tuning constants in its tuning module",
    "heuristics": "the greedy bot's move values (game.ai.greedy)",
    "solver": "an exact endgame solver the hooks use",
    "results": "the results screen's sentences about a deal: explain(b, t, rules, deal_end, names)",
    "coach": "the coach's facts and reasons (game.coach.hooks): points per utility, budget, why a move was worse",
}
_CLASSES: dict[str, type] = {}


@dataclass(frozen=True)
class Registered:
    """A game registered in code: its package, and its config where rules.yaml lacks it."""

    package: str
    game: GameConfig | None = None
    decks: tuple[DeckConfig, ...] = ()


_EXTRA: dict[str, Registered] = {}
#: Bumped by every (un)registration: what is derived from the list of games is worked out again.
generation = 0


def register_game(
    game_id: str, package: str, game: GameConfig | None = None, decks: tuple[DeckConfig, ...] = ()
) -> None:
    """Register the game ``game_id`` whose parts are the modules of ``package`` (its
    ``rules``, ``vocabulary``, ``ai`` …), with its config and decks when rules.yaml has none."""
    global generation
    if not game_id.isidentifier():
        raise ValueError(f"a game id must be a name, not {game_id!r}")
    _EXTRA[game_id] = Registered(package, game, tuple(decks))
    _CLASSES.pop(game_id, None)
    generation += 1


def unregister_game(game_id: str) -> None:
    """Forget a game :func:`register_game` registered."""
    global generation
    if _EXTRA.pop(game_id, None) is not None:
        _CLASSES.pop(game_id, None)
        generation += 1


@contextmanager
def registered_game(
    game_id: str, package: str, game: GameConfig | None = None, decks: tuple[DeckConfig, ...] = ()
) -> Iterator[None]:
    """The game registered for the ``with`` block only."""
    register_game(game_id, package, game, decks)
    try:
        yield
    finally:
        unregister_game(game_id)


def registered() -> dict[str, Registered]:
    """The games registered in code, by id."""
    return dict(_EXTRA)


_WITH: dict[int, tuple[int, Config, Config]] = {}


def with_registered(config: Config) -> Config:
    """``config`` offering the games registered in code with a config of their own too (and
    their decks); ``config`` itself when there are none."""
    extra = {g: r for g, r in _EXTRA.items() if r.game is not None and g not in config.games}
    if not extra:
        return config
    cached = _WITH.get(id(config))
    if cached is not None and cached[0] == generation and cached[1] is config:
        return cached[2]
    games = dict(config.games)
    decks = dict(config.decks)
    for g, r in extra.items():
        assert r.game is not None
        games[g] = r.game
        for d in r.decks:
            decks[d.id] = d
    out = replace(config, games=MappingProxyType(games), decks=MappingProxyType(decks))
    _WITH[id(config)] = (generation, config, out)
    return out


def folder_game_ids() -> tuple[str, ...]:
    """Every game with a folder and a rules module under game/games/, by name, then the
    games registered in code: every game whose declarations the program may meet."""
    package = importlib.import_module(GAMES_PACKAGE)
    found = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg and has_part(m.name, "rules"))
    return tuple(found) + tuple(g for g in _EXTRA if g not in found)


def _module_name(game_id: object, part: str) -> str | None:
    """``game.games.<id>.<part>``, or None when ``game_id`` or ``part`` cannot name a module."""
    if not isinstance(game_id, str) or not game_id.isidentifier():
        return None
    if not part.isidentifier():
        return None
    extra = _EXTRA.get(game_id)
    if extra is not None:
        return f"{extra.package}.{part}"
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
    name = _module_name(game_id, part)
    assert name is not None  # has_part said so
    return importlib.import_module(name)


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
