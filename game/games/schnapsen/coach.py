"""Schnapsen's coach facts (game.coach.hooks): values in game points, and why a move was worse —
closing too weak, a marriage or the trump exchange missed, points thrown on a lost trick."""

from __future__ import annotations

from game.games.schnapsen import ai as hooks
from game.games.schnapsen.rules import SchnapsenRules, SchnapsenView
from game.rules.base import Action

UNITS = "coach.units.game_points"
#: The coach's playouts per decision (game.coach.flat): at most about 17 s of one core per deal
#: (bench/coach.py), the most the verdict's stability buys within the issue's 20 s.
BUDGET = 12000
#: Moves whose values lie within this many game points of the highest are tied best
#: (game.coach.analysis.tied_best): the values' resolution at BUDGET, the 90th percentile of how
#: far two analysis seeds put a near-best move below the best (bench/coach.py, three seeds on the
#: tuning deals 201–206), to two figures.
TIE = 0.07


def points_per_utility(rules: SchnapsenRules) -> float:
    """The utility is game points / 3 (plus a win weight, 0 as shipped, and a small card-point
    tiebreak): one utility is 3 / (1 - WIN_WEIGHT) game points."""
    return 3.0 / (1.0 - hooks.WIN_WEIGHT)


def sure_tricks(rules: SchnapsenRules, view: SchnapsenView) -> int:
    """Trumps in the hand that no card the seat has not seen can beat: the top of the trumps
    left (after closing, every other card may be beaten or trumped)."""
    out = rules.strength
    trumps_out = [c for c in view.unseen if c.suit == view.trump]
    strongest_out = max((out[c] for c in trumps_out), default=-1)
    return sum(1 for c in view.hand if c.suit == view.trump and out[c] > strongest_out)


def reason(rules: SchnapsenRules, view: SchnapsenView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if played.kind == "close" and best.kind != "close":
        sure = sure_tricks(rules, view)
        return (
            "coach.reason.closing_weak" if sure else "coach.reason.closing_blind",
            {"points": view.points, "count": sure},
        )
    if best.kind == "close" and played.kind != "close":
        return ("coach.reason.should_close", {"points": view.points})
    if best.kind == "exchange" and played.kind != "exchange":
        return ("coach.reason.missed_exchange", {"card": view.indicator.code if view.indicator else ""})
    if best.arg("marriage", False) and not played.arg("marriage", False) and best.card is not None:
        value = rules.trump_marriage_value if best.card.suit == view.trump else rules.marriage_value
        return ("coach.reason.missed_marriage", {"move": best, "points": value})
    if played.kind == "play" and best.kind == "play" and view.led is not None and played.card is not None:
        lost = not rules.beats(played.card, view.led, view.trump)
        if lost and rules.points[played.card] >= 10 and rules.points[best.played] < rules.points[played.card]:
            return (
                "coach.reason.throws_points",
                {"card": played.card.code, "points": rules.points[view.led] + rules.points[played.card]},
            )
    return None
