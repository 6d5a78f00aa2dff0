"""Briscola AI: the playout policy — epsilon-greedy on :func:`_pick` (two players) or
:func:`game.games.briscola.ai.team_policy._pick_team` (four), inlined on the state's lists
for speed, finished exactly once the stock is gone (tuning.EXACT_PLAYOUT); ``rollout`` is the
same policy through the engine."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import game.games.briscola.ai.tuning as tuning
from game.cards import Card
from game.games.briscola.ai.solver import _negamax
from game.games.briscola.ai.team_policy import (
    _finish_team,
    _later,
    _nobody_table,
    _pick_team,
    _playout_team,
    _pool_chance,
    _unplayed_counts,
)
from game.games.briscola.ai.values import _keep_table, _last_keep_table, _team_trick
from game.games.briscola.heuristics import after_me
from game.games.briscola.rules import BriscolaRules, BriscolaState
from game.rules.base import Action


def _pick(
    hand: list[Card],
    led: Card | None,
    trump: str,
    keep: dict[Card, float],
    cp: dict[Card, int],
    beats: Callable[[Card, Card, str], bool],
    rand: Callable[[], float],
) -> Card:
    """The playout policy's card from ``hand``: win valuable tricks cheaply, keep trumps for
    tricks worth them (``keep``: see :func:`_keep_table`), lead low; ``rand`` adds a little
    noise per card. The one scoring of both :func:`rollout` and :func:`playout`; its arguments
    are what the playout's loop already holds (``beats`` is the rules' own)."""
    best = hand[0]
    best_v = -1e9
    for x in hand:
        pts = cp[x]
        if led is not None:
            stake = cp[led] + pts
            v = (stake if beats(x, led, trump) else -stake) - keep[x]
        else:
            v = -0.8 * pts - keep[x]
        v += rand() * 0.3
        if v > best_v:
            best_v, best = v, x
    return best


def rollout(rules: BriscolaRules, state: BriscolaState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout through the engine (the policy of :func:`_pick`, with four
    players :func:`_pick_team`; once the stock is gone nothing is worth keeping but a card's
    strength)."""
    if rng.random() < tuning.EPSILON:
        return legal[int(rng.random() * len(legal))]  # as the inlined playout draws it
    trump = state.trump_suit
    keep = _keep_table(rules, trump) if state.stock else _last_keep_table(rules)
    # Every Briscola action plays a card (the playout's hot path: no check per action).
    hand = cast("list[Card]", [a.card for a in legal])
    if state.players == 2:
        c = _pick(hand, state.led, trump, keep, rules.card_points, rules.beats, rng.random)
    else:
        best, best_seat, count, pts = _team_trick(rules, state)
        seat = state.to_act
        ours = best is not None and rules.team_of(best_seat) == rules.team_of(seat)
        opp_after, mate_after = after_me(rules, seat, count)
        chance = None
        if tuning.POOL_CHANCES and best is not None:
            cnt = _unplayed_counts(rules, state)
            pool = sum(sum(v) for v in cnt.values()) - len(state.hands[seat])
            chance = _pool_chance(
                cnt,
                trump,
                rules.strength,
                state.hands[seat],
                pool,
                _later(rules, state.hands, seat, count),
                _nobody_table(rules),
            )
        c = _pick_team(
            hand,
            best,
            pts,
            ours,
            opp_after,
            mate_after,
            trump,
            keep,
            rules.card_points,
            rules.beats,
            rng.random,
            chance,
        )
    return legal[hand.index(c)]


def _finish_exact(rules: BriscolaRules, state: BriscolaState) -> None:
    """Stock gone: credit both seats (four players: both teams) with what perfect play on this
    (sampled) deal gives them."""
    if state.players != 2:
        _finish_team(rules, state)
        return
    cp = rules.card_points
    to_act = state.to_act
    led = state.led
    v = _negamax(rules, [list(h) for h in state.hands], to_act, led, [], state.trump_suit)
    rest = sum(cp[c] for h in state.hands for c in h) + (cp[led] if led is not None else 0)
    # gains(to_act) − gains(other) = v and gains(to_act) + gains(other) = rest.
    state.points[to_act] += (rest + v) // 2
    state.points[1 - to_act] += (rest - v) // 2
    state.over = True


def playout(
    rules: BriscolaRules,
    state: BriscolaState,
    rng: random.Random,
    trace: list[Card] | None = None,
    *,
    exact: bool | None = None,
    coupled: bool = False,
    epsilon: float | None = None,
) -> None:
    """Play the deal out in place by the playout policy, then (with ``exact``, default
    EXACT_PLAYOUT) finish it exactly: two players :func:`_playout_2p`, four
    :func:`_playout_team`. ``trace`` collects the cards played (the exact finish's are not
    in it: tests replay them with an exact solver).

    ``coupled`` (two players; the coach's, whose game.coach.flat plays every move of a
    decision on the same sampled deal) hands out the sampled stock **by seat** rather than
    by the order of the draws: at each trick seat 0 takes the next pair's first card and
    seat 1 its second, whoever won (the last pair, with the face-up trump, as the rules
    deal it). The stock is a uniform shuffle nobody has seen, so each playout is as likely
    as before; but two moves that change who wins a trick no longer swap every card drawn
    after it, and their playouts stay comparable.

    ``epsilon`` (two players; default tuning.EPSILON) is the chance of a random card at a
    ply: the search's exploration. The coach's playouts name their own (its PLAYOUT_KW)."""
    if state.players == 2:
        _playout_2p(rules, state, rng, trace, exact, coupled, epsilon)
    else:
        _playout_team(rules, state, rng, trace, exact)


def _playout_2p(
    rules: BriscolaRules,
    state: BriscolaState,
    rng: random.Random,
    trace: list[Card] | None,
    exact: bool | None,
    coupled: bool = False,
    epsilon: float | None = None,
) -> None:
    """Two players: play the deal out in place by the policy of :func:`_pick` (inlined on the state's
    lists: no Action objects, no events), then — with ``exact`` (default EXACT_PLAYOUT) — the
    exact finish once the stock is gone. ``exact=False`` plays the last tricks by the policy
    too: the lower levels' weaker playout (the same moves as :func:`rollout` through the
    engine, which the tests check). The finished state carries the right points (piles and
    history are not filled: only the utility reads it). ``trace`` collects the cards played,
    for tests that replay them through the engine."""
    hands = state.hands
    stock = state.stock
    points = state.points
    trump = state.trump_suit
    cp = rules.card_points
    beats = rules.beats
    keep = _keep_table(rules, trump)
    rand = rng.random
    if epsilon is None:
        epsilon = tuning.EPSILON  # read once: the loop is the search's hot path
    to_act = state.to_act
    led = state.led
    while stock:
        hand = hands[to_act]
        if rand() < epsilon:
            c = hand[int(rand() * len(hand))]
        else:
            c = _pick(hand, led, trump, keep, cp, beats, rand)
        hand.remove(c)
        if trace is not None:
            trace.append(c)
        if led is None:
            led = c
            to_act = 1 - to_act
            continue
        w = to_act if beats(c, led, trump) else 1 - to_act
        points[w] += cp[led] + cp[c]
        led = None
        first = 0 if coupled and len(stock) > 2 else w
        hands[first].append(stock[0])
        hands[1 - first].append(stock[1])
        del stock[:2]
        to_act = w
    state.to_act = to_act
    state.led = led
    if tuning.EXACT_PLAYOUT if exact is None else exact:
        _finish_exact(rules, state)
        return
    # The last tricks by the policy: nothing is worth keeping now but a card's strength, and a
    # last card is forced (the engine path asks no policy then, so neither does this).
    keep = _last_keep_table(rules)
    while hands[to_act]:
        hand = hands[to_act]
        if len(hand) == 1:
            c = hand[0]
        elif rand() < epsilon:
            c = hand[int(rand() * len(hand))]
        else:
            c = _pick(hand, led, trump, keep, cp, beats, rand)
        hand.remove(c)
        if trace is not None:
            trace.append(c)
        if led is None:
            led = c
            to_act = 1 - to_act
            continue
        w = to_act if beats(c, led, trump) else 1 - to_act
        points[w] += cp[led] + cp[c]
        led = None
        to_act = w
    state.to_act = to_act
    state.led = None
    state.over = True
