"""Tressette AI: the playout policy — the greedy values of the heuristics, epsilon-greedy,
inlined on the state's lists (:func:`playout`), optionally finished exactly
(tuning.EXACT_PLAYOUT_TRICKS); ``rollout`` is the same policy through the engine.
"""

from __future__ import annotations

import random

import game.games.tressette.ai.tuning as tuning
from game.cards import Card
from game.games.tressette.ai.solver import _Solver, exact_margins
from game.games.tressette.heuristics import KEEP, PARTNER_LATER, UNSURE_WIN, top_out
from game.games.tressette.rules import TressetteRules, TressetteState
from game.rules.base import Action


def _remaining_by_suit(rules: TressetteRules, state: TressetteState) -> dict[str, list[Card]]:
    """Per suit, the cards not yet played (in hands or the stock), strongest first."""
    st = rules.strength
    out: dict[str, list[Card]] = {"D": [], "C": [], "S": [], "B": []}
    for h in state.hands:
        for c in h:
            out[c.suit].append(c)
    for c in state.stock:
        out[c.suit].append(c)
    for cs in out.values():
        cs.sort(key=lambda c: -st[c])
    return out


def playout(
    rules: TressetteRules,
    state: TressetteState,
    rng: random.Random,
    trace: list | None = None,
    *,
    epsilon: float | None = None,
    exact_tricks: int | None = None,
) -> None:
    """Play the deal out in place by the greedy policy (the heuristics' values, with
    ``epsilon`` random moves), inlined on the state's lists: no Action objects, no events;
    then, with ``exact_tricks`` or fewer tricks left and no stock, perfect play by the exact
    solver. The state ends with the right thirds and last trick (piles, history, known and
    voids are not kept up: only the utilities read the finished state). ``trace`` collects
    the cards played, in order."""
    eps = tuning.EPSILON if epsilon is None else epsilon
    exact_at = tuning.EXACT_PLAYOUT_TRICKS if exact_tricks is None else exact_tricks
    n = state.players
    hands = state.hands
    stock = state.stock
    st = rules.strength
    th = rules.card_thirds
    team = [rules.team_of(s) for s in range(n)]
    rem = _remaining_by_suit(rules, state)
    owner: dict[Card, int] = {c: s for s, h in enumerate(hands) for c in h}
    trick = state.trick
    leader = state.leader
    seat = state.to_act
    rand = rng.random
    while True:
        if not trick and not stock and len(hands[seat]) <= exact_at and hands[seat]:
            state.trick, state.leader, state.to_act = trick, leader, seat
            _finish_exact(rules, state, trace)
            return
        hand = hands[seat]
        if trick:
            suit = trick[0].suit
            legal = [c for c in hand if c.suit == suit] or hand
        else:
            legal = hand
        if len(legal) == 1:
            c = legal[0]
        elif rand() < eps:
            c = legal[int(rand() * len(legal))]
        else:
            # top[suit]: the strongest card of the suit out of this seat's hand (0: none).
            top = {}
            for s, cs in rem.items():
                t = 0
                for x in cs:
                    if owner.get(x) != seat:
                        t = st[x]
                        break
                top[s] = t
            c = legal[0]
            best_v = -1e9
            if trick:
                bi = 0
                for k in range(1, len(trick)):
                    x = trick[k]
                    if x.suit == suit and st[x] > st[trick[bi]]:
                        bi = k
                bc = trick[bi]
                win_seat = (leader + bi) % n
                after = n - 1 - len(trick)
                on_table = 0
                for x in trick:
                    on_table += th[x]
                mate = n == 4 and team[win_seat] == team[seat]
                for x in legal:
                    sx = st[x]
                    if x.suit == suit and sx > st[bc]:
                        p = 1.0 if after == 0 or sx > top[suit] else UNSURE_WIN
                    elif mate:
                        p = 1.0 if after == 0 or st[bc] > top[suit] else UNSURE_WIN
                    elif after == 0 or st[bc] > top[suit]:
                        p = 0.0
                    else:
                        p = PARTNER_LATER if n == 4 and after == 2 else 0.0
                    v = (2.0 * p - 1.0) * (on_table + th[x]) - KEEP * sx + rand() * 0.05
                    if v > best_v:
                        best_v, c = v, x
            else:
                for x in legal:
                    sx = st[x]
                    length = 0
                    for y in hand:
                        if y.suit == x.suit:
                            length += 1
                    if sx > top[x.suit]:
                        v = 1.0 + 0.5 * th[x] + 0.05 * length - KEEP * sx
                    else:
                        v = -th[x] - KEEP * sx + 0.15 * length
                    v += rand() * 0.05
                    if v > best_v:
                        best_v, c = v, x
        hand.remove(c)
        rem[c.suit].remove(c)
        del owner[c]
        if trace is not None:
            trace.append(c)
        trick.append(c)
        if len(trick) < n:
            seat = (seat + 1) % n
            continue
        suit = trick[0].suit
        bi = 0
        pts = 0
        for k, x in enumerate(trick):
            pts += th[x]
            if x.suit == suit and st[x] > st[trick[bi]]:
                bi = k
        w = (leader + bi) % n
        state.thirds[team[w]] += pts
        state.tricks[team[w]] += 1
        trick = []
        leader = seat = w
        if stock:
            a, b = stock[0], stock[1]
            del stock[:2]
            lo = (w + 1) % n
            hands[w].append(a)
            hands[lo].append(b)
            owner[a], owner[b] = w, lo
        elif not hands[w]:
            state.trick, state.leader, state.to_act = trick, leader, seat
            state.last_trick = team[w]
            state.over = True
            return


def _finish_exact(rules: TressetteRules, state: TressetteState, trace: list | None) -> None:
    """Play the rest of the deal by perfect play on this (sampled) deal, through the engine
    (one transposition table for all its moves)."""
    solver = _Solver(rules, state.players, tuning.NODE_LIMIT)
    while not state.over:
        seat = state.to_act
        m = exact_margins(rules, state, seat, solver=solver)
        legal = rules.legal_actions(state)
        if m is None:  # cannot happen with a few tricks left; never fail a playout over it
            a = legal[0]
        else:
            top = max(m.values())
            a = next(x for x in legal if m[x] == top)
        if trace is not None:
            trace.append(a.card)
        rules.apply(state, a, check=False)


def rollout(rules: TressetteRules, state: TressetteState, legal: list[Action], rng: random.Random) -> Action:
    """The playout policy's move through the engine (for tests and tools): the greedy value
    on the full state's outstanding cards, epsilon-random."""
    if rng.random() < tuning.EPSILON:
        return legal[int(rng.random() * len(legal))]
    seat = state.to_act
    out = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
    top = top_out(rules, out)
    from game.games.tressette.heuristics import play_value

    return max(
        legal,
        key=lambda a: play_value(
            rules, a.played, state.hands[seat], state.trick, seat, state.leader, top, state.players
        ),
    )
