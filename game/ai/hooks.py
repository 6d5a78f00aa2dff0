"""What the search AI asks of a game: the hooks interface.

Every game the search plays has a part ``ai`` in its folder, ``game/games/<game_id>/ai.py``
or an ``ai/`` package (found by :func:`game.registry.game_module`, so nothing outside the
game's own modules names the game). :class:`GameHooks` states
what such a module must define; :data:`OPTIONAL` what it may define, and what the search does
without it. :func:`load_hooks` reads a module into a :class:`Hooks` object with every member
present (the defaults filled in), so the search never probes a module with ``getattr``, and
:func:`check_hooks` lists what a module gets wrong (the conformance test runs it for every
registered game).

A hook is a plain function of the shared, read-only rules object and plain data (a view or a
state): the search may call it from a worker thread. Randomness comes only from the ``rng``
argument, the bot's, so the same seed gives the same decisions.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable, Hashable, Mapping
from contextlib import AbstractContextManager
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from game.registry import game_module
from game.rules.base import Action, DealState, GameRules

#: A game's state and a seat's view as the shared search hands them between the game's own
#: hooks: it reads a state only through the rules and never reads a view.
State = DealState
View = object

#: A prior at or above this marks a move a human never overlooks (a sweep, the settebello).
OBVIOUS = 1.0

#: The playing levels whose settings a hooks module's ``LEVELS`` may hold (game.ai.levels).
LEVEL_NAMES = ("easy", "normal", "hard")


@runtime_checkable
class GameHooks(Protocol):
    """The members every game's ``ai`` module defines (plain functions, no ``self``).

    - ``determinize(rules, view, rng)``: a full state consistent with everything ``view``
      shows, the cards the seat has not seen placed at random (drawn with ``rng`` only) —
      the determinizing helpers are in :mod:`game.ai.determinize`;
    - ``utilities(rules, state)``: the finished deal's value for every team (index = team),
      roughly in [-1, 1]: the game's one terminal scoring, used by the search, the exact solver
      and the tests alike;
    - ``LEVELS``: per level name (``LEVEL_NAMES``), the SearchBot settings the level uses in
      this game under its own (e.g. ``{"normal": {"iterations": 300}}``); ``{}`` for none.
    """

    LEVELS: Mapping[str, Mapping[str, Any]]

    def determinize(self, rules: GameRules, view: View, rng: random.Random) -> State: ...

    def utilities(self, rules: GameRules, state: State) -> list[float]: ...


#: The members a hooks module may define, their call shape, and what happens without them.
OPTIONAL: dict[str, str] = {
    "utility": "utility(rules, state, seat) -> float — default: utilities(...)[team of seat]",
    "playout": "playout(rules, state, rng, trace=None, **playout_kw) -> None — plays the deal to its end "
    "in place (the fast path: no Action objects, no events); default: the rollout loop",
    "rollout": "rollout(rules, state, legal, rng, **playout_kw) -> Action — the playout policy's move "
    "through the engine; default: uniform random",
    "prior": "prior(rules, view, action) -> float — root ordering and the obvious moves (>= OBVIOUS) "
    "the easy level never misses; default: none",
    "complete": "complete(rules, view) -> bool — the view fixes the state: solve exactly; default: never",
    "solve": "solve(rules, state, seat) -> dict[Action, float] | None — exact values; default: "
    "search.solve_exact (max-n over the engine)",
    "ROOT_TOP_K": "int | None — search only the k root moves with the best prior (plus obvious ones)",
    "reply_options": "reply_options(rules, state, legal, reply) -> list[Action] — with the search's "
    "opponent model on, the replies an opponent's node weighs: the policy's reply and "
    "those the policy never plays (Schnapsen's close); default: the policy's reply alone",
    "search_scope": "search_scope(rules, view) -> context manager — entered around one search's "
    "iterations (Schnapsen: its solves share their transposition tables); default: none",
    "observation": "observation(rules, state, seat) -> hashable — what ``seat`` sees of a state beyond the "
    "moves played (its hand: the cards it drew); with the search's ``split_own_draws`` on, "
    "the tree keeps the seat's own later decisions apart by it; default: none",
    "perfect_information": "perfect_information(rules, state) -> bool — every seat knows every card from "
    "this state on (Schnapsen: the stock exhausted); with the search's "
    "``perfect_leaves`` on, the tree ends there and the playout values the leaf; "
    "default: none",
    "reason": "reason(rules, view, action) -> (locale key, params) | None — one line on why a suggested "
    "move is good (a sweep, the settebello, a sure trick), for the table's suggestion "
    "(game.ai.suggest); card codes in params under card/led/cards; default: no reason",
}

#: Positional parameters each callable member must accept (checked by check_hooks).
_CALL_SHAPES: dict[str, tuple[str, ...]] = {
    "determinize": ("rules", "view", "rng"),
    "utilities": ("rules", "state"),
    "utility": ("rules", "state", "seat"),
    "playout": ("rules", "state", "rng"),
    "rollout": ("rules", "state", "legal", "rng"),
    "prior": ("rules", "view", "action"),
    "complete": ("rules", "view"),
    "solve": ("rules", "state", "seat"),
    "reason": ("rules", "view", "action"),
    "reply_options": ("rules", "state", "legal", "reply"),
    "observation": ("rules", "state", "seat"),
    "search_scope": ("rules", "view"),
    "perfect_information": ("rules", "state"),
}


class Hooks:
    """One game's hooks with every member present: the module's own, or None / the default.

    Built afresh by :func:`load_hooks` for each bot, so a test or a tuning run that replaces a
    module's function or constant (``--hook briscola.EPSILON=0.2``, set on
    :func:`tuning_module`) is seen by the next bot.
    """

    __slots__ = (
        "game_id",
        "module",
        "determinize",
        "utilities",
        "utility",
        "playout",
        "rollout",
        "prior",
        "complete",
        "solve",
        "root_top_k",
        "levels",
        "reason",
        "reply_options",
        "observation",
        "search_scope",
        "perfect_information",
    )

    def __init__(self, game_id: str, module: ModuleType):
        self.game_id = game_id
        self.module = module
        missing = [m for m in ("determinize", "utilities") if not callable(getattr(module, m, None))]
        if missing:
            raise ValueError(f"the ai module of {game_id} lacks {' and '.join(missing)} (see game/ai/hooks.py)")
        self.determinize: Callable[[GameRules, View, random.Random], State] = module.determinize
        self.utilities: Callable[[GameRules, State], list[float]] = module.utilities
        utility = getattr(module, "utility", None)
        if utility is None:
            utilities = module.utilities

            def utility(rules: GameRules, state: State, seat: int) -> float:
                return utilities(rules, state)[rules.team_of(seat)]

        self.utility: Callable[[GameRules, State, int], float] = utility
        self.playout: Callable[..., None] | None = getattr(module, "playout", None)
        self.rollout: Callable[..., Action] | None = getattr(module, "rollout", None)
        self.prior: Callable[[GameRules, View, Action], float] | None = getattr(module, "prior", None)
        self.complete: Callable[[GameRules, View], bool] | None = getattr(module, "complete", None)
        self.solve: Callable[[GameRules, State, int], dict[Action, float] | None] | None = getattr(
            module, "solve", None
        )
        self.root_top_k: int | None = getattr(module, "ROOT_TOP_K", None)
        self.levels: Mapping[str, Mapping[str, Any]] = getattr(module, "LEVELS", {})
        self.reason: Callable[[GameRules, View, Action], tuple[str, dict[str, object]] | None] | None = getattr(
            module, "reason", None
        )
        self.reply_options: Callable[[GameRules, State, list[Action], Action], list[Action]] | None = getattr(
            module, "reply_options", None
        )
        self.observation: Callable[[GameRules, State, int], Hashable] | None = getattr(module, "observation", None)
        self.search_scope: Callable[[GameRules, View], AbstractContextManager[None]] | None = getattr(
            module, "search_scope", None
        )
        self.perfect_information: Callable[[GameRules, State], bool] | None = getattr(
            module, "perfect_information", None
        )

    def level_settings(
        self, level: str, players: int | None = None, options: Mapping[str, Any] | None = None
    ) -> Mapping[str, Any]:
        """The settings this game gives the level ``level`` (empty when none).

        With ``players``, those of its ``by_players`` entry for that count over them (a budget
        that fits the time cap with four players may not with two). With ``options`` (the
        house rules in force), those of each ``by_option`` entry ``"name=value"`` that is in
        force over those — an entry may hold its own ``by_players`` — and where several set
        ``iterations`` the smallest (house rules that each make a search dearer)."""
        settings, by_option = _resolve(self.levels.get(level, {}), players)
        budgets = []
        for name, value in (options or {}).items():
            entry = by_option.get(f"{name}={_option_text(value)}")
            if entry is None:
                continue
            extra, _ = _resolve(entry, players)
            if "iterations" in extra:
                budgets.append(extra["iterations"])
            settings.update(extra)
        if budgets:
            settings["iterations"] = min(budgets)
        return settings


def _resolve(entry: Mapping[str, Any], players: int | None) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """(an entry's settings with its ``by_players`` entry for ``players`` applied, its
    ``by_option`` table)."""
    settings = dict(entry)
    by_players = settings.pop("by_players", {})
    by_option = settings.pop("by_option", {})
    if players is not None:
        settings.update(by_players.get(players, {}))
    return settings, by_option


def _option_text(value: object) -> str:
    """An option's value as ``by_option`` keys spell it (``true``/``false`` for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def hooks_module(game_id: str) -> ModuleType:
    """The game's hook module, its part ``ai`` (a clear error when there is none)."""
    module = game_module(game_id, "ai", optional=True)
    if module is None:
        raise ValueError(f"the search AI does not play {game_id} yet (no game/games/{game_id}/ai.py)")
    return module


def tuning_module(game_id: str) -> ModuleType:
    """Where the game's AI reads its tuning constants (``EPSILON``, ``CARD_READING``, ...): the
    ``tuning`` module of an ``ai`` package, else the ``ai`` module itself. A tuning run or a
    test sets a constant there as a module attribute; the hooks read it at call time."""
    module = hooks_module(game_id)
    if hasattr(module, "__path__"):  # a package: its parts share one tuning module
        return importlib.import_module(f"{module.__name__}.tuning")
    return module


def load_hooks(game_id: str) -> Hooks:
    """The game's hooks, every member present (see :class:`Hooks`)."""
    return Hooks(game_id, hooks_module(game_id))


def check_hooks(module: ModuleType) -> list[str]:
    """What ``module`` gets wrong against the interface (empty: it conforms)."""
    problems: list[str] = []
    if not isinstance(module, GameHooks):
        missing = [m for m in ("determinize", "utilities", "LEVELS") if not hasattr(module, m)]
        problems.append(f"missing {', '.join(missing)}")
    for member, params in _CALL_SHAPES.items():
        fn = getattr(module, member, None)
        if fn is None:
            continue
        if not callable(fn):
            problems.append(f"{member} is not a function")
            continue
        try:
            inspect.signature(fn).bind(*params)
        except TypeError as e:
            problems.append(f"{member} cannot be called as {member}({', '.join(params)}): {e}")
    top_k = getattr(module, "ROOT_TOP_K", None)
    if top_k is not None and (not isinstance(top_k, int) or top_k < 1):
        problems.append(f"ROOT_TOP_K must be a positive int or None, not {top_k!r}")
    levels = getattr(module, "LEVELS", {})
    if not isinstance(levels, Mapping):
        return problems + ["LEVELS must be a dict of level name -> settings"]
    for level, settings in levels.items():
        if level not in LEVEL_NAMES:
            problems.append(f"LEVELS names an unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
            continue
        kw = settings.get("playout_kw") if isinstance(settings, Mapping) else None
        if kw:
            policy = getattr(module, "playout", None) or getattr(module, "rollout", None)
            if policy is None:
                problems.append(f"LEVELS[{level!r}] sets playout_kw but there is no playout or rollout")
                continue
            base = _CALL_SHAPES["playout" if policy is getattr(module, "playout", None) else "rollout"]
            try:
                inspect.signature(policy).bind(*base, **kw)
            except TypeError as e:
                problems.append(f"LEVELS[{level!r}] playout_kw {dict(kw)} does not fit {policy.__name__}: {e}")
    return problems
