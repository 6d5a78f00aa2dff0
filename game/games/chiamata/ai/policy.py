"""Briscola chiamata AI: the playout policy — epsilon-greedy on :func:`pick`, inlined on the
state's lists for speed (no Action objects, no events), the auction and the call by the
bidding module's rules.

Each seat plays as far as it would know the sides at the table (:func:`mate`): the partner
and a lone caller know them all, everyone knows them once the called card is out; before
that a defender knows only the caller, and the caller nobody. A trick held by a known mate
is loaded with points; any other is taken when it is worth the card, else given nothing.
Whether a card holds a trick is a fixed chance, or with ``sight`` (hard's playouts) read from
the hands still to play to it in the determinized deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import game.games.chiamata.ai.tuning as tuning
from game.cards import Card
from game.games.chiamata.ai.bidding import choose_bid, choose_call, lead_offset
from game.games.chiamata.ai.values import keep_value
from game.games.chiamata.rules import ChiamataRules, ChiamataState
from game.rules.base import Action


def mate(state: ChiamataState, seat: int, other: int) -> bool | None:
    """Whether ``seat`` knows ``other`` plays on its side (True), against it (False), or does
    not know (None), in this state's deal."""
    if seat == other:
        return True
    caller, partner = state.caller, state.partner
    if caller is None or partner is None:
        return False
    if state.revealed or seat == partner:
        side = (caller, partner)
        return (seat in side) == (other in side)
    if seat != caller and other == caller:
        return False  # a defender (he does not hold the called card) knows the caller
    return None


def pick(
    rules: ChiamataRules,
    state: ChiamataState,
    seat: int,
    rand: Callable[[], float],
    noise: float = 0.3,
    sight: bool = False,
) -> Card:
    """The policy's card for ``seat``: lead low, load a known mate's trick, take a trick
    when its points are worth the card, else give nothing (``noise`` × ``rand`` per card).
    Whether a card will hold the trick: a fixed chance (tuning.AHEAD) while others are still
    to play; with ``sight``, read from the hands of the seats still to play that are not
    known mates (in a determinized deal the playout holds them all): sure when none of them
    can beat it, tuning.SIGHT_RISK when one can."""
    hand = state.hands[seat]
    trump = state.trump_suit
    cp = rules.card_points
    trick = state.trick
    best_v = -1e9
    best = hand[0]
    if not trick:
        for x in hand:
            v = -0.8 * cp[x] - keep_value(rules, x, trump) + rand() * noise
            if v > best_v:
                best_v, best = v, x
        return best
    n = state.players
    leader = state.leader
    top, top_seat = trick[0], leader
    on_table = 0
    beats = rules.beats
    for i, x in enumerate(trick):
        on_table += cp[x]
        if i and beats(x, top, trump):
            top, top_seat = x, (leader + i) % n
    ours = mate(state, seat, top_seat)
    last = len(trick) == n - 1
    if sight and not last:
        return _pick_sighted(rules, state, seat, rand, noise, top, ours, on_table)
    for x in hand:
        stake = on_table + cp[x]
        keep = keep_value(rules, x, trump)
        if ours and not (x.suit == trump and top.suit != trump):
            v = (1.0 if last else tuning.AHEAD) * stake - keep
        elif beats(x, top, trump):
            p = 1.0 if last else (tuning.AHEAD_TRUMP if x.suit == trump else tuning.AHEAD)
            v = (2.0 * p - 1.0) * stake - keep
        else:
            v = -stake - keep
        v += rand() * noise
        if v > best_v:
            best_v, best = v, x
    return best


def _pick_sighted(
    rules: ChiamataRules,
    state: ChiamataState,
    seat: int,
    rand: Callable[[], float],
    noise: float,
    top: Card,
    ours: bool | None,
    on_table: int,
) -> Card:
    """:func:`pick`'s follow with sight (some seat still to play after ``seat``): the
    strongest trump and the strongest card of the led suit among the hands of the seats
    after it that it does not know as mates decide whether a card holds the trick."""
    hand = state.hands[seat]
    trump = state.trump_suit
    cp, st = rules.card_points, rules.strength
    beats = rules.beats
    n = state.players
    led = state.trick[0].suit
    top_trump = top_led = -1
    for i in range(1, n - len(state.trick)):
        other = (seat + i) % n
        if mate(state, seat, other):
            continue
        for y in state.hands[other]:
            if y.suit == trump:
                if st[y] > top_trump:
                    top_trump = st[y]
            elif y.suit == led and st[y] > top_led:
                top_led = st[y]

    def holds(c: Card) -> bool:
        if c.suit == trump:
            return st[c] > top_trump
        return top_trump < 0 and st[c] > top_led

    risk = tuning.SIGHT_RISK
    mine = (1.0 if holds(top) else risk) if ours else 0.0
    best_v = -1e9
    best = hand[0]
    for x in hand:
        stake = on_table + cp[x]
        keep = keep_value(rules, x, trump)
        if ours and not (x.suit == trump and top.suit != trump):
            v = (2.0 * mine - 1.0) * stake - keep
        elif beats(x, top, trump):
            p = 1.0 if holds(x) else risk
            v = (2.0 * p - 1.0) * stake - keep
        else:
            v = -stake - keep
        v += rand() * noise
        if v > best_v:
            best_v, best = v, x
    return best


def _play(rules: ChiamataRules, state: ChiamataState, seat: int, c: Card) -> None:
    """The rules' play of ``c``, inlined: no events, no Action."""
    n = state.players
    state.hands[seat].remove(c)
    state.history.append((seat, c))
    if c == state.called:
        state.revealed = True
    trick = state.trick
    trick.append(c)
    if len(trick) < n:
        state.to_act = (seat + 1) % n
        return
    winner = rules.trick_winner(trick, state.leader, state.trump_suit)
    cp = rules.card_points
    state.points[winner] += sum(cp[x] for x in trick)
    state.piles[winner] += trick
    state.trick = []
    state.leader = state.to_act = winner
    if not state.hands[winner]:
        state.phase = "done"
        state.over = True


def policy_action(rules: ChiamataRules, state: ChiamataState, rng: random.Random) -> Action:
    """The policy's decision in the auction or the call (the bidding module's rules)."""
    seat = state.to_act
    return speech(rules, state.hands[seat], state.phase, state.high_rank, state.high_points, seat, state.dealer)


def speech(
    rules: ChiamataRules,
    hand: Sequence[Card],
    phase: str,
    high_rank: str | None,
    high_points: int | None,
    seat: int,
    dealer: int,
) -> Action:
    """The bidding rules' decision of ``seat`` in the auction or the call (from what it knows:
    its hand and the auction)."""
    offset = lead_offset(rules, seat, dealer)
    if phase == "auction":
        return choose_bid(rules, hand, high_rank, high_points, offset)
    if high_rank is None:
        raise ValueError("a call before any bid")
    return choose_call(rules, hand, high_rank, high_points, offset)


def playout(
    rules: ChiamataRules,
    state: ChiamataState,
    rng: random.Random,
    trace: list[object] | None = None,
    epsilon: float | None = None,
    sight: bool = False,
) -> None:
    """Play the deal to its end in place: the auction and the call by the bidding rules, each
    card by :func:`pick`, a random card with chance ``epsilon`` (tuning.EPSILON when None);
    ``sight``: :func:`pick` reads the hands still to play to a trick (hard's playouts).
    ``trace`` (a test's) gets every move made: each bid, pass and call, then each card."""
    eps = tuning.EPSILON if epsilon is None else epsilon
    rand = rng.random
    while not state.over and state.phase in ("auction", "call"):
        spoken = policy_action(rules, state, rng)
        if trace is not None:
            trace.append(spoken)
        rules.apply(state, spoken, check=False)
    while not state.over:
        seat = state.to_act
        hand = state.hands[seat]
        if len(hand) == 1:
            c = hand[0]
        elif eps and rand() < eps:
            c = hand[int(rand() * len(hand))]
        else:
            c = pick(rules, state, seat, rand, sight=sight)
        if trace is not None:
            trace.append(c)
        _play(rules, state, seat, c)


__all__ = ["mate", "pick", "playout", "policy_action", "speech"]
