"""Greedy evaluation for Briscola chiamata: one ply, a simple value of each decision.

- Auction: a hand is worth its card points and its high cards; a bid is worth that minus
  what the bid asks (a lower rank calls a weaker card, a 2 at points asks for more points);
  passing is worth 0. The greedy then bids one step below the last bid while the hand can
  bear it, and passes after.
- Call: the suit where the hand is strongest in trumps; calling its own card (alone) costs
  a partner, so only a very strong suit makes it worth it.
- Play: as in Briscola's greedy, the points at stake won or given away, minus what the card
  would be worth kept; a trick held by a known partner is loaded with points, never trumped.
"""

from __future__ import annotations

from game.cards import Card
from game.games.chiamata.rules import ChiamataRules, ChiamataView
from game.games.chiamata.vocabulary import POINTS_FIELD, RANK_FIELD, called_card
from game.rules.base import Action

#: What a hand must be worth for a plain bid of the highest rank; each rank lower asks this
#: much more (the called card is weaker, so the partner helps less).
BID_BASE = 30.0
BID_PER_RANK = 2.0
#: A high card (A, 3) is worth this beyond its points in the auction: it takes tricks.
HIGH_CARD = 4.0
#: A bid of 2 at points asks this much more hand per point above a plain bid.
PER_POINT = 1.0
#: Calling a card of one's own hand leaves the caller without a partner.
ALONE_COST = 30.0
#: What keeping a trump is worth beyond its own points (it wins a later trick).
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.6
#: Tie-breaker: spend weaker cards first.
STRENGTH_COST = 0.05
#: The chance a trick led by this side's best card stays with it while others are to play.
AHEAD = 0.6
AHEAD_TRUMP = 0.85


def hand_worth(rules: ChiamataRules, hand: tuple[Card, ...]) -> float:
    """What a hand promises in the auction: its card points and its high cards."""
    top = set(rules.bid_order[:2])
    return sum(rules.card_points[c] + (HIGH_CARD if c.rank in top else 0.0) for c in hand)


def bid_value(rules: ChiamataRules, view: ChiamataView, action: Action) -> float:
    rank = action.arg(RANK_FIELD)
    if not isinstance(rank, str):
        return 0.0  # a pass
    points = action.arg(POINTS_FIELD)
    asked = BID_BASE + BID_PER_RANK * rules.bid_order.index(rank)
    if isinstance(points, int):
        asked += PER_POINT * (points - rules.contract_points)
    return hand_worth(rules, view.hand) - asked


def call_value(rules: ChiamataRules, view: ChiamataView, c: Card) -> float:
    """The hand's strength in ``c``'s suit as trumps, less a partner lost when ``c`` is its own."""
    trumps = [x for x in view.hand if x.suit == c.suit]
    value = sum(rules.strength[x] + rules.card_points[x] for x in trumps) + 5.0 * len(trumps)
    return value - (ALONE_COST if c in view.hand else 0.0)


def keep_value(rules: ChiamataRules, c: Card, trump: str | None) -> float:
    """What card ``c`` is worth kept in hand, beyond the points it carries into a trick."""
    s = rules.strength[c]
    if c.suit == trump:
        return TRUMP_BASE + TRUMP_PER_STRENGTH * s + rules.card_points[c]
    return STRENGTH_COST * s


def play_value(rules: ChiamataRules, view: ChiamataView, c: Card) -> float:
    trump = view.trump_suit
    pts = rules.card_points[c]
    if not view.trick:
        # Leading: risk the card's points and its worth as a trump; low non-trumps first.
        return -0.8 * pts - keep_value(rules, c, trump)
    n = view.players
    best, best_seat = view.trick[0], view.leader
    on_table = 0
    for i, x in enumerate(view.trick):
        on_table += rules.card_points[x]
        if i and rules.beats(x, best, trump):
            best, best_seat = x, (view.leader + i) % n
    stake = on_table + pts
    mine = view.team_of(view.seat)
    ours = mine is not None and view.team_of(best_seat) == mine
    last = len(view.trick) == n - 1
    if ours and not (c.suit == trump and best.suit != trump):
        # The partner holds the trick: give it points (surely when last, else likely).
        return (1.0 if last else AHEAD) * stake - keep_value(rules, c, trump)
    if rules.beats(c, best, trump):
        p = 1.0 if last else (AHEAD_TRUMP if c.suit == trump else AHEAD)
        return (2.0 * p - 1.0) * stake - keep_value(rules, c, trump)
    return -stake - keep_value(rules, c, trump)


def evaluate(rules: ChiamataRules, view: ChiamataView, action: Action) -> float:
    """The greedy value of ``action`` for the seat of ``view``."""
    if view.phase == "auction":
        return bid_value(rules, view, action)
    if view.phase == "call":
        c = called_card(action)
        return call_value(rules, view, c) if c is not None else 0.0
    return play_value(rules, view, action.played)


__all__ = ["evaluate", "hand_worth"]
