"""Briscola AI: the exact solver for four players in partnerships (seats 0 + 2 against
1 + 3). Once the stock is gone the other three hands still share the unseen cards, so
``_solve_team`` averages the exact values over the deals of them (all of them when few, else
a fixed sample: PIMC with exact play), within a node budget (tuning.SOLVE_NODES_4P)."""

from __future__ import annotations

import math
import random
from itertools import combinations

import game.games.briscola.ai.tuning as tuning
from game.cards import Card
from game.games.briscola.ai.reading import _clue_values, _last_clue_team, _team_clue_likelihood, _team_need, determinize
from game.games.briscola.ai.values import _team_trick, _utility_of_margin, team_points
from game.games.briscola.rules import BriscolaRules, BriscolaState, BriscolaView
from game.rules.base import Action


def _team_ab(
    st: dict[Card, int],
    cp: dict[Card, int],
    team: list[int],
    hands: list[list[Card]],
    seat: int,
    best: Card | None,
    best_seat: int,
    count: int,
    pts: int,
    trump: str,
    alpha: int,
    beta: int,
    nodes: list[int],
) -> int:
    """Stock gone, every hand known: team 0's card points minus team 1's from here on (the
    trick in progress included: ``count`` cards on it worth ``pts``, ``best`` played by
    ``best_seat`` winning it), team 0 maximising and team 1 minimising (alpha-beta, fail-soft).
    ``nodes[0]`` counts the positions searched."""
    nodes[0] += 1
    hand = hands[seat]
    n = len(hands)
    if count == 0:
        if not hand:
            return 0
        if len(hand) == 1:
            # The last trick: nothing to choose (a leaf shortcut).
            b, bs, p = hand[0], seat, 0
            for k in range(n):
                s = (seat + k) % n
                c = hands[s][0]
                p += cp[c]
                if k and (st[c] > st[b] if c.suit == b.suit else c.suit == trump):
                    b, bs = c, s
            return p if team[bs] == 0 else -p
    maxi = team[seat] == 0
    last = count + 1 == n
    nxt = (seat + 1) % n
    value = -9999 if maxi else 9999
    for i in range(len(hand)):
        c = hand[i]
        if best is None or (st[c] > st[best] if c.suit == best.suit else c.suit == trump):
            b, bs = c, seat
        else:
            b, bs = best, best_seat
        p = pts + cp[c]
        hand.pop(i)
        if last:
            g = p if team[bs] == 0 else -p
            v = g + _team_ab(st, cp, team, hands, bs, None, bs, 0, 0, trump, alpha - g, beta - g, nodes)
        else:
            v = _team_ab(st, cp, team, hands, nxt, b, bs, count + 1, p, trump, alpha, beta, nodes)
        hand.insert(i, c)
        if maxi:
            if v > value:
                value = v
                if v > alpha:
                    alpha = v
        elif v < value:
            value = v
            if v < beta:
                beta = v
        if alpha >= beta:
            break
    return value


def _team_margins(
    rules: BriscolaRules, state: BriscolaState, seat: int, nodes: list[int] | None = None
) -> dict[Action, int]:
    """Four players, stock gone, every hand known: the final card-point margin of ``seat``'s
    team per legal action, every player playing perfectly for his team."""
    nodes = [0] if nodes is None else nodes
    st, cp = rules.strength, rules.card_points
    n = state.players
    team = [rules.team_of(s) for s in range(n)]
    hands = [list(h) for h in state.hands]
    t0, t1 = team_points(rules, state.points)
    sign = 1 if team[seat] == 0 else -1
    best, best_seat, count, pts = _team_trick(rules, state)
    trump = state.trump_suit
    to_act = state.to_act
    mine = hands[to_act]
    out: dict[Action, int] = {}
    for a in rules.legal_actions(state):
        c = a.played
        i = mine.index(c)
        if best is None or (rules.beats(c, best, trump)):
            b, bs = c, to_act
        else:
            b, bs = best, best_seat
        p = pts + cp[c]
        mine.pop(i)
        if count + 1 == n:
            g = p if team[bs] == 0 else -p
            v = g + _team_ab(st, cp, team, hands, bs, None, bs, 0, 0, trump, -9999, 9999, nodes)
        else:
            v = _team_ab(st, cp, team, hands, (to_act + 1) % n, b, bs, count + 1, p, trump, -9999, 9999, nodes)
        mine.insert(i, c)
        out[a] = sign * (t0 - t1 + v)
    return out


def _team_splits(cards: list[Card], caps: list[int]):
    """Every way to deal ``cards`` into slots of ``caps`` cards (each split once)."""
    if not caps:
        yield []
        return
    for combo in combinations(range(len(cards)), caps[0]):
        chosen = set(combo)
        part = [cards[i] for i in combo]
        rest = [c for i, c in enumerate(cards) if i not in chosen]
        for tail in _team_splits(rest, caps[1:]):
            yield [part, *tail]


def _team_worlds(rules: BriscolaRules, state: BriscolaState, view: BriscolaView) -> list[tuple[BriscolaState, float]]:
    """Four players, stock gone: (deal of the unseen cards, weight) — every deal when there
    are at most ALL_WORLDS_4P, weighted by card reading, else WORLDS_4P determinizations
    (card reading already in how they are drawn). Only the view is used."""
    known, need, hidden = _team_need(view)
    others = [s for s in range(view.players) if s != view.seat]
    caps = [need[s] for s in others]
    count = math.factorial(len(hidden))
    for k in caps:
        count //= math.factorial(k)
    # Seeded from the view alone: the answer cannot depend on the sampled state's hidden cards.
    key = " ".join(c.code for c in view.hand) + "|" + " ".join(c.code for _, c in view.history)
    rng = random.Random(key)
    if count > tuning.ALL_WORLDS_4P:
        return [(determinize(rules, view, rng), 1.0) for _ in range(tuning.WORLDS_4P)]
    clue = _last_clue_team(rules, view) if tuning.CARD_READING else None
    vals = _clue_values(rules, view, clue) if clue is not None else None
    out = []
    for parts in _team_splits(hidden, caps):
        w = rules.clone(state)
        for s, part in zip(others, parts):
            w.hands[s] = known[s] + part
        weight = 1.0
        if clue is not None and vals is not None and need[clue[0]]:
            weight = _team_clue_likelihood(view, clue, vals, w.hands[clue[0]])
        out.append((w, weight))
    return out


def _solve_team(rules: BriscolaRules, state: BriscolaState, seat: int) -> dict[Action, float] | None:
    """Four players, stock gone: the weighted mean utility of each action over the deals of
    the unseen cards (``_team_worlds``), each solved exactly, within SOLVE_NODES_4P nodes."""
    if state.stock:
        return None
    view = rules.view(state, seat)
    worlds = _team_worlds(rules, state, view)
    nodes = [0]
    totals: dict[Action, float] = {}
    weight = 0.0
    solved = 0
    for w, wt in worlds:
        if nodes[0] > tuning.SOLVE_NODES_4P:
            break
        for a, m in _team_margins(rules, w, seat, nodes).items():
            totals[a] = totals.get(a, 0.0) + wt * _utility_of_margin(m)
        weight += wt
        solved += 1
    if solved < min(len(worlds), tuning.MIN_WORLDS_4P) or weight <= 0.0:
        return None
    return {a: t / weight for a, t in totals.items()}
