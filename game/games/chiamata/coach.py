"""Briscola chiamata's coach facts (game.coach.hooks): values in game points, and why a move
was worse. The auction and the call are valued like the play, by playing each move out on
the same worlds (the AI's exact values there are its bidding rules' choice, not values:
``exact``), and explained from the hand: a bid with too few cards for trumps, a pass with a
hand worth bidding, a rank too low or too high, a call of a short suit or of one's own card.
A card was worse for a trump spent on a trick a known mate had won, an Ace or Three thrown
to the other side, a loaded trick let go, a trump wasted on an empty trick. Only the sides
the seat's view knows count as known (before the called card shows, a defender knows the
caller alone, and the caller nobody)."""

from __future__ import annotations

from collections import Counter

import game.games.chiamata.ai.tuning as tuning
from game.games.chiamata.rules import ChiamataRules, ChiamataView
from game.games.chiamata.vocabulary import BID_KIND, CALL_KIND, PASS_KIND, POINTS_FIELD, RANK_FIELD, called_card
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


def exact(rules: ChiamataRules, view: ChiamataView) -> bool:
    """Not in the auction and the call: the AI's ``solve`` there names its bidding rules'
    choice (1 against -1), which is no value a player lost; the coach plays each move out."""
    return view.phase not in ("auction", "call")


def _longest_suit(view: ChiamataView) -> tuple[str, int]:
    """The suit the hand holds most cards of (the trumps it would call), and how many."""
    counts = Counter(c.suit for c in view.hand)
    suit, count = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return suit, count


def _rank_of(action: Action) -> str:
    return str(action.arg(RANK_FIELD))


def _points_of(action: Action) -> int:
    """A bid's points (a plain bid's none: 0, below every points bid)."""
    points = action.arg(POINTS_FIELD)
    return points if isinstance(points, int) else 0


def speech_reason(rules: ChiamataRules, view: ChiamataView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why a bid, a pass or a call was worse than ``best``: the hand's trumps to be (its
    longest suit, or the called suit) and the value lost (``loss``, filled by the analysis)."""
    suit, count = _longest_suit(view)
    bid, passed, called = BID_KIND.name, PASS_KIND.name, CALL_KIND.name
    if played.kind == bid and best.kind == passed:
        params: dict[str, object] = {"ranks": [_rank_of(played)], "count": count, "loss": None}
        if _points_of(played):
            return ("coach.reason.chiamata.overbid_points", {**params, "points": _points_of(played)})
        return ("coach.reason.chiamata.overbid", params)
    if played.kind == passed and best.kind == bid:
        return ("coach.reason.chiamata.underbid", {"count": count, "suit": suit, "move": best, "loss": None})
    if played.kind == bid and best.kind == bid:
        order = rules.bid_order
        lower = order.index(_rank_of(played)) > order.index(_rank_of(best)) or (
            _rank_of(played) == _rank_of(best) and _points_of(played) > _points_of(best)
        )
        key = "coach.reason.chiamata.too_low" if lower else "coach.reason.chiamata.too_high"
        return (key, {"ranks": [_rank_of(played)], "move": best, "loss": None})
    if played.kind == called and best.kind == called:
        mine, other = called_card(played), called_card(best)
        if mine is None or other is None:
            return None
        if mine in view.hand and other not in view.hand:
            return ("coach.reason.chiamata.calls_alone", {"card": mine.code, "move": best, "loss": None})
        held = sum(1 for c in view.hand if c.suit == mine.suit)
        return ("coach.reason.chiamata.calls_short", {"card": mine.code, "count": held, "move": best, "loss": None})
    return None


def reason(rules: ChiamataRules, view: ChiamataView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if view.phase in ("auction", "call"):
        return speech_reason(rules, view, played, best)
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


__all__ = ["BUDGET", "PLAYOUT_KW", "UNITS", "exact", "points_per_utility", "reason", "speech_reason"]
