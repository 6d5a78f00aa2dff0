"""Briscola chiamata AI: card reading (who holds the called card) and determinization.

Nothing obliges a player to follow suit or to trump, so no play proves a hand lacks a card:
what a view knows for sure is its own hand, every card played (in no hand now), the hands'
counts, and of the partner what its ``partner``/``sides`` say. The one hidden fact that
decides everything is who holds the called card while it is unplayed. :func:`partner_weights`
reads it from the play: the partner plays for the caller, a defender against him, so on a
trick the caller is winning a seat that loads it with points is likely the partner, one that
gives nothing or takes it from him likely a defender (likelihood ratios in :mod:`.tuning`,
multiplied over every trick, on a prior of each seat's card count; a defender also weighs
the caller himself, who may have gone alone). :func:`determinize` gives the called card to a
seat drawn by those weights and deals the other unseen cards at random.
"""

from __future__ import annotations

import random

import game.games.chiamata.ai.tuning as tuning
from game.ai.determinize import check_count, hidden_cards
from game.cards import Card
from game.games.chiamata.ai.bidding import best_call, lead_offset, predicted
from game.games.chiamata.rules import ChiamataRules, ChiamataState, ChiamataView


def candidates(view: ChiamataView) -> list[int]:
    """The seats that may hold the unplayed called card as ``view`` knows: one when it knows
    the partner, else every other seat with a card left (the caller included when the viewer
    is a defender: a lone caller holds it)."""
    if view.called is None or view.called not in view.unseen:
        return []
    if view.partner is not None:
        return [view.partner]
    return [s for s in range(view.players) if s != view.seat and view.hand_counts[s] > 0]


#: The kinds of play the reading weighs (:func:`clues`), each with its tuning constant's name.
CLUES: dict[str, str] = {
    "beat_caller": "BEAT_CALLER",
    "beat_caller_last": "BEAT_CALLER_LAST",
    "load_big": "LOAD_BIG",
    "load_big_last": "LOAD_BIG_LAST",
    "load_small": "LOAD_SMALL",
    "fail_support": "FAIL_SUPPORT",
    "fail_support_last": "FAIL_SUPPORT_LAST",
    "load_against_caller": "LOAD_AGAINST_CALLER",
}


def clues(rules: ChiamataRules, caller: int, trump: str | None, plays: list[tuple[int, Card]]) -> list[tuple[int, str]]:
    """(seat, kind of play) for the plays of one trick (in play order) that tell something
    of the seat's side: on a trick the caller is winning, taking it from him, loading it with
    points, or giving nothing; once the caller is beaten, loading his beater's trick."""
    cp = rules.card_points
    n = rules.players
    top, top_seat = plays[0][1], plays[0][0]
    caller_played = top_seat == caller
    out: list[tuple[int, str]] = []
    for i in range(1, len(plays)):
        s, c = plays[i]
        last = "_last" if i == n - 1 else ""
        beat = rules.beats(c, top, trump)
        if s != caller:
            if top_seat == caller:
                if beat:
                    out.append((s, "beat_caller" + last))
                elif cp[c] >= 10:
                    out.append((s, "load_big" + last))
                elif cp[c] >= 2:
                    out.append((s, "load_small"))
                else:
                    out.append((s, "fail_support" + last))
            elif caller_played and not beat and cp[c] >= 10:
                out.append((s, "load_against_caller"))
        if beat:
            top, top_seat = c, s
        if s == caller:
            caller_played = True
    return out


def partner_weights(rules: ChiamataRules, view: ChiamataView) -> dict[int, float]:
    """P(seat holds the unplayed called card), per candidate seat, as ``view`` reads the play
    (empty when the called card is played, in the viewer's hand, or not called yet)."""
    cands = candidates(view)
    if len(cands) <= 1:
        return dict.fromkeys(cands, 1.0)
    w = {s: float(view.hand_counts[s]) for s in cands}
    if view.caller in w:
        w[view.caller] *= tuning.ALONE_PRIOR
    if tuning.CARD_READING and view.caller is not None:
        hist = view.history
        n = view.players
        for k in range(0, len(hist), n):
            for s, kind in clues(rules, view.caller, view.trump_suit, list(hist[k : k + n])):
                if s in w and s != view.caller:
                    w[s] *= getattr(tuning, CLUES[kind])
    total = sum(w.values())
    if total <= 0:
        return {s: 1.0 / len(cands) for s in cands}
    return {s: v / total for s, v in w.items()}


#: The last view read and its weights: a search determinizes one view thousands of times.
#: One entry, replaced whole (a tuple), so threads searching other views only miss it.
_last: tuple[ChiamataView | None, dict[int, float]] = (None, {})


def _weights_of(rules: ChiamataRules, view: ChiamataView) -> dict[int, float]:
    global _last
    seen, weights = _last
    if seen is view:
        return weights
    weights = partner_weights(rules, view)
    _last = (view, weights)
    return weights


def _draw(rng: random.Random, weights: dict[int, float]) -> int:
    r = rng.random() * sum(weights.values())
    seat = -1
    for seat, v in weights.items():
        r -= v
        if r <= 0:
            return seat
    return seat


def _deal(rules: ChiamataRules, view: ChiamataView, rng: random.Random) -> tuple[list[list[Card]], int | None]:
    """The other hands dealt at random by their counts, the unplayed called card to a seat
    drawn by :func:`partner_weights` (that seat, else None)."""
    n = view.players
    hidden = hidden_cards(view.unseen)
    check_count(hidden, sum(k for s, k in enumerate(view.hand_counts) if s != view.seat), "the other hands")
    called = view.called
    holder: int | None = None
    if called is not None and called in hidden:
        weights = _weights_of(rules, view)
        holder = _draw(rng, weights)
        hidden.remove(called)
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    i = 0
    for s in range(n):
        if s == view.seat:
            hands.append(list(view.hand))
            continue
        k = view.hand_counts[s] - (1 if s == holder else 0)
        hand = hidden[i : i + k]
        i += k
        if s == holder and called is not None:
            hand.append(called)
        hands.append(hand)
    return hands, holder


def bears_the_call(rules: ChiamataRules, view: ChiamataView, hand: list[Card]) -> bool:
    """Whether the caller, holding ``hand`` now (and the cards he has played), would have
    won the auction and called as he did by the bidding rules: the contract's rank within
    his reach and the called card his choice for it. True when there is nothing to check."""
    caller, called, rank = view.caller, view.called, view.high_rank
    if caller is None or called is None or rank is None:
        return True
    dealt = hand + [c for s, c in view.history if s == caller]
    contract = view.high_points or rules.contract_points
    offset = lead_offset(rules, caller, view.dealer)
    if called not in dealt and predicted(rules, dealt, called, offset) < contract + tuning.BID_MARGIN:
        return False  # most deals fail here, at a quarter of best_call's cost
    choice, p = best_call(rules, dealt, rank, contract, offset)
    margin = tuning.ALONE_MARGIN if choice in dealt else tuning.BID_MARGIN
    return choice == called and p >= contract + margin


#: Deals that bear the auction, per view (:func:`determinize` with tuning.AUCTION_WORLDS):
#: one entry, replaced whole, as :data:`_last`.
_worlds: tuple[ChiamataView | None, list[tuple[list[list[Card]], int | None]]] = (None, [])


def _auction_deal(rules: ChiamataRules, view: ChiamataView, rng: random.Random) -> tuple[list[list[Card]], int | None]:
    """A deal in which the caller's hand bears his bid and call (tuning.AUCTION_TRIES tries,
    else the last try), drawn afresh until tuning.AUCTION_POOL of them are kept for the view,
    then one of those again (the check costs a few playouts)."""
    global _worlds
    seen, pool = _worlds
    if seen is not view:
        pool = []
        _worlds = (view, pool)
    if len(pool) >= tuning.AUCTION_POOL:
        hands, holder = pool[rng.randrange(len(pool))]
        return [list(h) for h in hands], holder
    caller = view.caller
    for _ in range(tuning.AUCTION_TRIES):
        hands, holder = _deal(rules, view, rng)
        if caller is None or bears_the_call(rules, view, hands[caller]):
            break
    pool.append(([list(h) for h in hands], holder))
    return hands, holder


def determinize(rules: ChiamataRules, view: ChiamataView, rng: random.Random) -> ChiamataState:
    """A full state consistent with ``view``: its hand, the unseen cards dealt into the other
    hands by their counts, the unplayed called card with the known partner or a seat drawn
    by :func:`partner_weights`; the partner (its holder, or the seat that played it) set.
    With tuning.AUCTION_WORLDS, in the play, the other seats' deals are those in which the
    caller's hand bears his bid and his call (:func:`bears_the_call`)."""
    n = view.players
    called = view.called
    if tuning.AUCTION_WORLDS and view.phase == "play" and view.caller not in (None, view.seat):
        hands, holder = _auction_deal(rules, view, rng)
    else:
        hands, holder = _deal(rules, view, rng)
    partner: int | None = None
    if called is not None:
        if holder is not None:
            partner = holder
        elif called in view.hand:
            partner = view.seat
        else:
            partner = next(s for s, c in view.history if c == called)
    piles: list[list[Card]] = [[] for _ in range(n)]
    hist = view.history
    for k in range(0, len(hist) - len(view.trick), n):
        cards = [c for _, c in hist[k : k + n]]
        piles[rules.trick_winner(cards, hist[k][0], view.trump_suit)] += cards
    return ChiamataState(
        players=n,
        dealer=view.dealer,
        number=1,
        hands=hands,
        to_act=view.to_act,
        phase=view.phase,
        passed=list(view.passed),
        high_seat=view.high_seat,
        high_rank=view.high_rank,
        high_points=view.high_points,
        auction=list(view.auction),
        caller=view.caller,
        called=called,
        trump_suit=view.trump_suit,
        partner=partner,
        revealed=view.revealed,
        leader=view.leader,
        trick=list(view.trick),
        piles=piles,
        points=list(view.points),
        history=list(view.history),
        over=view.phase == "done",
    )


def partner_hit(rules: ChiamataRules, view: ChiamataView, partner: int) -> float | None:
    """How far the view's reading puts ``partner`` (the real holder of the called card) first:
    1 when it alone weighs most, 1/k when k seats share the top weight with it, 0 when another
    seat weighs more (a uniform guess scores 1 / candidates on average); None when the view has
    nothing to read (the card played, in its hand, or its holder known)."""
    w = partner_weights(rules, view)
    if len(w) <= 1 or partner not in w:
        return None
    top = max(w.values())
    if w[partner] < top - 1e-12:
        return 0.0
    return 1.0 / sum(1 for v in w.values() if v >= top - 1e-12)


__all__ = ["CLUES", "bears_the_call", "candidates", "clues", "determinize", "partner_hit", "partner_weights"]
