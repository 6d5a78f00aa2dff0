"""Briscola chiamata's coach facts (game.coach.hooks): values in game points, and why a card
was worse — a trump spent on a trick a known mate had won, an Ace or Three thrown to the
other side, a loaded trick let go, a trump wasted on an empty trick. Only the sides the
seat's view knows count as known (before the called card shows, a defender knows the caller
alone, and the caller nobody)."""

from __future__ import annotations

import game.games.chiamata.ai.tuning as tuning
from game.games.chiamata.rules import ChiamataRules, ChiamataView
from game.rules.base import Action

UNITS = "coach.units.game_points"
#: The coach's playouts per decision (game.coach.flat): a playout of a whole deal costs about
#: 0.13 ms, so this is well under a second per decision.
BUDGET = 4000
#: The coach's playouts play no random card: two moves' playouts part ways less.
PLAYOUT_KW = {"epsilon": 0.0}
#: A trick worth no more than this is "empty" (a trump spent on it is wasted).
EMPTY_TRICK = 2


def points_per_utility(rules: ChiamataRules) -> float:
    """The utility is tuning.WIN_WEIGHT × game points / 4 plus a card-point margin term: read
    as game points, one utility is 4 / WIN_WEIGHT of them."""
    return 4.0 / tuning.WIN_WEIGHT


def reason(rules: ChiamataRules, view: ChiamataView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if played.card is None or best.card is None or not view.trick:
        return None
    cp = rules.card_points
    trump = view.trump_suit
    trick = list(view.trick)
    n = view.players
    leader = view.leader
    top, top_seat, pts = trick[0], leader, 0
    for i, x in enumerate(trick):
        pts += cp[x]
        if i and rules.beats(x, top, trump):
            top, top_seat = x, (leader + i) % n
    last = len(trick) == n - 1
    mine = view.team_of(view.seat)

    def wins(a: Action) -> bool:
        return a.card is not None and rules.trick_winner([*trick, a.card], leader, trump) == view.seat

    def theirs(seat: int) -> bool:
        side = view.team_of(seat)
        return mine is not None and side is not None and side != mine

    mate_has_it = top_seat != view.seat and mine is not None and view.team_of(top_seat) == mine
    if mate_has_it and played.card.suit == trump and wins(played) and not (best.card.suit == trump and wins(best)):
        return ("coach.reason.trumps_partner", {"card": played.card.code})
    if last:
        taken_by = rules.trick_winner([*trick, played.card], leader, trump)
        if theirs(taken_by) and cp[played.card] >= 10 and cp[best.card] < cp[played.card]:
            return ("coach.reason.throws_points", {"card": played.card.code, "points": pts + cp[played.card]})
        if theirs(taken_by) and wins(best) and pts >= 10:
            return ("coach.reason.lets_go", {"points": pts + cp[best.card], "move": best})
        if played.card.suit == trump and wins(played) and pts <= EMPTY_TRICK and best.card.suit != trump:
            return ("coach.reason.wastes_trump", {"card": played.card.code, "points": pts + cp[played.card]})
    return None


__all__ = ["BUDGET", "PLAYOUT_KW", "UNITS", "points_per_utility", "reason"]
