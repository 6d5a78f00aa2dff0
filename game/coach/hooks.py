"""What the coach asks of a game: its part ``coach`` (``game/games/<id>/coach.py``), found by
:func:`game.registry.game_module`, read into a :class:`CoachHooks` with every member present.

A game's coach module may define:

- ``points_per_utility(rules) -> float`` — how many of the game's own points one unit of the
  search's utility is (the search backs up ``utilities``, scaled to about [-1, 1]); the
  analysis reports values and losses in those points. Default 1.0.
- ``UNITS`` — the locale key naming those points ("points", "card points", "game points").
- ``BUDGET`` — the shipped budget of an analysis: playouts per decision (game.coach.flat).
- ``PLAYOUT_KW`` — keywords for the game's playout policy in the coach's playouts, on top of
  the hard level's (e.g. Cìcera's ``coupled``: game.coach.flat's common random numbers).
- ``MAX_WORLDS`` — the cap on worlds per decision (default game.coach.flat.MAX_WORLDS).
- ``exact(rules, view) -> bool`` — whether the AI's exact values (its ``complete`` and
  ``solve``) are the coach's here too (default: wherever the AI's ``complete`` says so). A
  game whose ``solve`` names a rule's choice rather than values (an auction decided by
  bidding rules) says False there, and the coach plays each move out instead.
- ``apply(rules, state, action)`` — how the move valued is applied to each world before its
  playout (default the rules' own ``apply``): Briscola's deals the next pair by seat, as its
  coupled playouts do.
- ``TIE`` — the resolution of those sampled values, in the game's points: moves whose values
  lie within it of the highest are tied best (game.coach.analysis.tied_best). Default 0.0.
- ``reason(rules, view, played, best) -> (locale key, params) | None`` — one line on why
  ``played`` was worse than ``best`` (card codes under ``card`` / ``best`` / ``cards``, as the
  suggestion's reasons: see game.ai.suggest; a ``loss`` param is filled with the value lost,
  in the game's points); None when no rule of thumb fits, and the values speak instead.

Each is a plain function of the rules and the seat's view: never of a hidden card.
"""

from __future__ import annotations

from collections.abc import Callable

from game.ai.hooks import State, View
from game.ai.levels import HardBot
from game.coach import flat
from game.registry import game_module
from game.rules.base import Action, GameRules

#: Playouts per decision (game.coach.flat) when the game's coach module names no budget: the
#: hard level's iterations (every game names its own: bench/coach.py).
DEFAULT_BUDGET = HardBot.ITERATIONS
#: The locale key of the points when the game's module names none.
DEFAULT_UNITS = "coach.units.points"

Reason = tuple[str, dict[str, object]]


class CoachHooks:
    """One game's coach facts, defaults filled in (built afresh: a test's change is seen)."""

    __slots__ = (
        "game_id",
        "points_per_utility",
        "units",
        "budget",
        "max_worlds",
        "tie",
        "playout_kw",
        "reason",
        "apply",
        "exact",
    )

    def __init__(self, game_id: str):
        module = game_module(game_id, "coach", optional=True)
        self.game_id = game_id
        self.points_per_utility: Callable[[GameRules], float] = getattr(module, "points_per_utility", None) or (
            lambda rules: 1.0
        )
        self.units: str = getattr(module, "UNITS", DEFAULT_UNITS)
        self.budget: int = int(getattr(module, "BUDGET", DEFAULT_BUDGET))
        self.max_worlds: int = int(getattr(module, "MAX_WORLDS", flat.MAX_WORLDS))
        self.tie: float = float(getattr(module, "TIE", 0.0))
        self.playout_kw: dict[str, object] = dict(getattr(module, "PLAYOUT_KW", {}))
        self.reason: Callable[[GameRules, View, Action, Action], Reason | None] | None = getattr(module, "reason", None)
        self.apply: Callable[[GameRules, State, Action], None] | None = getattr(module, "apply", None)
        self.exact: Callable[[GameRules, View], bool] | None = getattr(module, "exact", None)


def load_coach(game_id: str) -> CoachHooks:
    """The game's coach hooks (every member present)."""
    return CoachHooks(game_id)


__all__ = ["CoachHooks", "DEFAULT_BUDGET", "DEFAULT_UNITS", "Reason", "load_coach"]
