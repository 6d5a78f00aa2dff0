"""Briscola chiamata AI: the auction and the call, from an evaluation of the hand.

For each trump suit and called card the hand gets a score (:func:`score`: its trumps by
strength and by how many stronger ones the defenders hold, its side Aces and Threes, the
partner's called card as a trump of ours), which a linear fit turns into the card points the
caller's side makes (:func:`predicted`, tuning.FIT_A/FIT_B). A seat bids a rank only when,
calling that rank in its best suit (a card it does not hold), the prediction clears the
contract by tuning.BID_MARGIN; it bids the highest such rank the auction still allows (the
least it must promise), a 2 at one point more than the last, or passes. The call: that rank
in the suit that predicts most, its own card (alone) only with an overwhelming hand.

Every function reads the seat's hand and the public auction only, so the same seat decides
the same way from the view (the prior) and from a determinized state (the exact ``solve``).
"""

from __future__ import annotations

from collections.abc import Sequence

import game.games.chiamata.ai.tuning as tuning
from game.cards import Card
from game.games.chiamata.rules import ChiamataRules
from game.games.chiamata.vocabulary import PASS, POINTS_FIELD, RANK_FIELD, bid, call
from game.rules.base import Action


def _card_of(rules: ChiamataRules, rank: str, suit: str) -> Card | None:
    for c in rules.cards:
        if c.rank == rank and c.suit == suit:
            return c
    return None


def suits(rules: ChiamataRules) -> list[str]:
    """The pack's suits, in deck order."""
    out: list[str] = []
    for c in rules.cards:
        if c.suit not in out:
            out.append(c.suit)
    return out


def score(rules: ChiamataRules, hand: Sequence[Card], called: Card) -> float:
    """The hand's strength with ``called``'s suit as trump and ``called`` the called card (its
    holder our partner; none when the hand holds it: alone)."""
    cp, st = rules.card_points, rules.strength
    trump = called.suit
    mine = set(hand)
    alone = called in mine
    ours = mine | {called}
    trumps_out = [c for c in rules.cards if c.suit == trump and c not in ours]
    total = 0.0
    n_trumps = 0
    for c in hand:
        if c.suit == trump:
            n_trumps += 1
            stronger = sum(1 for x in trumps_out if st[x] > st[c])
            total += cp[c] + tuning.TRUMP_TRICK * tuning.TRUMP_DECAY**stronger + tuning.TRUMP_EACH
        elif c.rank == rules.bid_order[0]:
            total += tuning.SIDE_ACE * cp[c]
        elif c.rank == rules.bid_order[1]:
            ace = _card_of(rules, rules.bid_order[0], c.suit)
            total += (tuning.SIDE_THREE_GUARDED if ace in mine else tuning.SIDE_THREE) * cp[c]
        else:
            total += tuning.SIDE_OTHER * cp[c]
    total += tuning.TRUMP_LENGTH * max(0, n_trumps - 2)
    if not alone:
        stronger = sum(1 for x in trumps_out if st[x] > st[called])
        total += cp[called] + tuning.TRUMP_TRICK * tuning.TRUMP_DECAY**stronger + tuning.TRUMP_EACH
        total += tuning.PARTNER_BASE
    return total


def lead_offset(rules: ChiamataRules, seat: int, dealer: int) -> int:
    """``seat``'s place in the first trick were it the caller (0: it leads)."""
    if rules.first_lead == "caller":
        return 0
    return (seat - dealer - 1) % rules.players


def predicted(rules: ChiamataRules, hand: Sequence[Card], called: Card, offset: int | None = None) -> float:
    """The card points the caller's side is expected to make calling ``called``, the caller
    ``offset`` places after the first trick's leader (None: unknown, no correction)."""
    s = score(rules, hand, called)
    extra = tuning.POSITION[offset] if offset is not None else 0.0
    if called in hand:
        return tuning.ALONE_A + tuning.ALONE_B * s + extra
    return tuning.FIT_A + tuning.FIT_B * s + extra


def best_call(
    rules: ChiamataRules, hand: Sequence[Card], rank: str, contract: int, offset: int | None = None
) -> tuple[Card, float]:
    """The card of ``rank`` to call and its prediction: the suit that predicts most among the
    cards the hand does not hold; its own card (alone) only when that clears ``contract`` by
    tuning.ALONE_MARGIN and beats the best call with a partner, or when it holds all four."""
    best: tuple[Card, float] | None = None
    alone: tuple[Card, float] | None = None
    for suit in suits(rules):
        c = _card_of(rules, rank, suit)
        if c is None:
            continue
        p = predicted(rules, hand, c, offset)
        if c in hand:
            if alone is None or p > alone[1]:
                alone = (c, p)
        elif best is None or p > best[1]:
            best = (c, p)
    if alone is not None and (best is None or (alone[1] >= contract + tuning.ALONE_MARGIN and alone[1] > best[1])):
        return alone
    if best is None:
        raise ValueError(f"no card of rank {rank} in the pack")
    return best


def can_make(
    rules: ChiamataRules, hand: Sequence[Card], rank: str, points: int | None, offset: int | None = None
) -> bool:
    """Would the hand bid ``rank`` (at ``points``)? Its best call's prediction clears the
    contract by tuning.BID_MARGIN (a call alone by tuning.ALONE_MARGIN)."""
    contract = points or rules.contract_points
    c, p = best_call(rules, hand, rank, contract, offset)
    margin = tuning.ALONE_MARGIN if c in hand else tuning.BID_MARGIN
    return p >= contract + margin


def choose_bid(
    rules: ChiamataRules,
    hand: Sequence[Card],
    high_rank: str | None,
    high_points: int | None,
    offset: int | None = None,
) -> Action:
    """The seat's speech: the highest rank below the last bid it can make (the least it must
    promise), after a 2 a 2 at one point more, else a pass; ``offset``: its place in the first
    trick were it the caller (:func:`lead_offset`)."""
    order = rules.bid_order
    if high_rank is None:
        ranks = list(order)
    else:
        ranks = list(order[order.index(high_rank) + 1 :])
    for r in ranks:
        if can_make(rules, hand, r, None, offset):
            return bid(r)
    if high_rank == rules.lowest_rank:
        n = (high_points or rules.contract_points) + 1
        if n <= rules.total_points and can_make(rules, hand, rules.lowest_rank, n, offset):
            return bid(rules.lowest_rank, n)
    return PASS


def choose_call(
    rules: ChiamataRules, hand: Sequence[Card], rank: str, points: int | None, offset: int | None = None
) -> Action:
    """The call: the card :func:`best_call` names."""
    c, _ = best_call(rules, hand, rank, points or rules.contract_points, offset)
    return call(c)


def bid_is_sound(rules: ChiamataRules, hand: Sequence[Card], action: Action, offset: int | None = None) -> bool:
    """Whether the hand bears ``action`` (a pass always does): what the tests hold every bid to."""
    rank = action.arg(RANK_FIELD)
    if not isinstance(rank, str):
        return True
    points = action.arg(POINTS_FIELD)
    return can_make(rules, hand, rank, points if isinstance(points, int) else None, offset)


__all__ = [
    "best_call",
    "bid_is_sound",
    "can_make",
    "choose_bid",
    "choose_call",
    "lead_offset",
    "predicted",
    "score",
    "suits",
]
