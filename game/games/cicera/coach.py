"""Cìcera's coach facts (game.coach.hooks): values in deal points, and why a move was worse —
a bonus missed (scùa, picada, simili, quadriglia), a table the next opponent may sweep."""

from __future__ import annotations

from game.games.cicera import ai as hooks
from game.games.cicera.rules import CiceraRules, CiceraView
from game.rules.base import Action
from game.rules.capture import captured

UNITS = "coach.units.points"
#: The coach's playouts per decision (game.coach.flat): at most about 17 s of one core per deal
#: (bench/coach.py), the most the verdict's stability buys within the issue's 20 s.
BUDGET = 10000
#: Moves whose values lie within this many deal points of the highest are tied best
#: (game.coach.analysis.tied_best): the values' resolution at BUDGET, the 90th percentile of how
#: far two analysis seeds put a near-best move below the best (bench/coach.py, three seeds on the
#: tuning deals 201–206), to two figures.
TIE = 0.33
#: The coach's playouts keep their random choices in step ply by ply (game.games.cicera.ai.playout):
#: two moves that differ by one card are compared on the same play wherever that card does not matter.
PLAYOUT_KW = {"coupled": True}


def points_per_utility(rules: CiceraRules) -> float:
    """The search's utility is the deal-point margin over ``SCALE``."""
    return float(hooks.SCALE)


def reason(rules: CiceraRules, view: CiceraView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if played.kind != "play" or best.kind != "play" or played.card is None:
        return None
    table = list(view.table)

    def bonuses(a: Action) -> list[str]:
        return list(rules.capture_bonuses(a.played, captured(a), table, view.last_placed)) if captured(a) else []

    missed = [b for b in bonuses(best) if b not in bonuses(played)]
    if missed:
        return ("coach.reason.missed_bonus", {"bonus": missed, "move": best})
    left = [t for t in table if t not in captured(played)] if captured(played) else [*table, played.card]
    last = sum(view.hand_counts) - 1 <= 1
    nxt = (view.seat + 1) % view.players
    if left and not last:
        found = [x for x in view.unseen if any(len(cap) == len(left) for cap in rules.captures_for(x, left))]
        if found:
            return ("coach.reason.leaves_scua", {"count": len(found), "seat": nxt})
    return None
