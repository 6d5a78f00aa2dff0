"""Tressette's coach facts (game.coach.hooks): values in deal points, and why a move was worse —
a counting card thrown on a trick the other side takes, a trick let go."""

from __future__ import annotations

from game.cards import Card
from game.games.tressette.rules import TressetteRules, TressetteView
from game.rules.base import Action

UNITS = "coach.units.points"
#: The coach's playouts per decision (game.coach.flat): at most about 17 s of one core per deal
#: (bench/coach.py), the most the verdict's stability buys within the issue's 20 s.
BUDGET = 10000
#: Moves whose values lie within this many deal points of the highest are tied best
#: (game.coach.analysis.tied_best): the values' resolution at BUDGET, the 90th percentile of how
#: far two analysis seeds put a near-best move below the best (bench/coach.py, three seeds on the
#: tuning deals 201–206), to two figures.
TIE = 0.23


def points_per_utility(rules: TressetteRules) -> float:
    """The utility is the deal-point margin over 11 (the whole deal's points)."""
    return 11.0


def _thirds(rules: TressetteRules, cards: list[Card]) -> int:
    return sum(rules.card_thirds[c] for c in cards)


def reason(rules: TressetteRules, view: TressetteView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if played.kind != "play" or best.kind != "play" or played.card is None or best.card is None:
        return None
    trick = list(view.trick)
    n = view.players
    if len(trick) != n - 1:
        return None  # only the trick's last card decides it for sure
    mine = rules.team_of(view.seat)

    def side_of(a: Action) -> int:
        return rules.team_of(rules.trick_winner([*trick, a.played], view.leader))

    ct = rules.card_thirds
    if side_of(played) != mine and ct[played.card] > ct[best.card]:
        return ("coach.reason.throws_thirds", {"card": played.card.code})
    if side_of(played) != mine and side_of(best) == mine and _thirds(rules, trick) >= 3:
        return ("coach.reason.lets_trick_go", {"move": best})
    return None
