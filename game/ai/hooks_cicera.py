"""Search hooks for Cìcera (4 players, partners opposite): determinize, utility, playout, prior.

All 52 cards are dealt, so the unseen cards are exactly the other three hands; Cìcera's
optional captures give no hard clue about a hand (placing is always legal), so every split
with the right hand counts is consistent with the view.
"""
from __future__ import annotations

import random

from game.ai.heuristics_cicera import evaluate
from game.ai.hooks_scopa import deal_hidden
from game.cards import Card
from game.rules.base import Action
from game.rules.capture import sums_by_value
from game.rules.cicera import CiceraRules, CiceraState, CiceraView

#: Deal-point margins are divided by this so utilities sit roughly in [-1, 1].
SCALE = 8.0
#: Chance that the playout policy plays a uniformly random action instead of its greedy choice.
EPSILON = 0.1
#: The search looks only at the 6 root actions the greedy prior likes best (plus obvious ones):
#: against greedy on the same 20 duplicate seeds, +1.6 ± 1.3 points per deal with it (1000
#: iterations) against -1.3 ± 0.9 for the time-capped search over all actions (docs/AI.md).
ROOT_TOP_K = 6


def determinize(rules: CiceraRules, view: CiceraView, rng: random.Random) -> CiceraState:
    """A full state with this view: the unseen cards dealt at random into the other hands."""
    hands, rest = deal_hidden(view, rng, 0)
    assert not rest  # deal_hidden checked the counts
    return CiceraState(
        players=view.players, dealer=view.dealer, number=1, hands=hands, table=list(view.table),
        piles=[list(p) for p in view.piles], bonuses=[list(b) for b in view.bonuses], to_act=view.to_act,
        last_capture_team=view.last_capture_team, last_placed=view.last_placed, over=False,
        history=list(view.history),
    )


def utilities(rules: CiceraRules, state: CiceraState) -> list[float]:
    """Per team: its deal points minus the other team's, scaled."""
    a, b = rules.deal_result(state).points
    return [(a - b) / SCALE, (b - a) / SCALE]


def utility(rules: CiceraRules, state: CiceraState, seat: int) -> float:
    return utilities(rules, state)[rules.team_of(seat)]


def complete(rules: CiceraRules, view: CiceraView) -> bool:
    """The view fixes the state when at most one other hand still holds cards."""
    return sum(1 for s, n in enumerate(view.hand_counts) if s != view.seat and n) <= 1


def _worth_table(rules: CiceraRules) -> dict[Card, float]:
    """Per card, its rough worth in deal points when owned (cached on the rules object's
    card set: computed once per rules instance and never changed, so threads may share it)."""
    cached = getattr(rules, "_ai_cicera_worth", None)
    if cached is None:
        napula = {"A": 0.9, "2": 0.9, "3": 0.9, "4": 0.4, "5": 0.3, "6": 0.25, "7": 0.2}
        cached = {}
        for c in rules.cards:
            w = 0.1
            if c.suit == rules.most_suit:
                w += 0.12
            w += rules.special_cards.get(c, 0)
            if c in rules.napula_run:
                w += napula.get(c.rank, 0.1)
            cached[c] = w
        rules._ai_cicera_worth = cached  # type: ignore[attr-defined]
    return cached


def rollout(rules: CiceraRules, state: CiceraState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout: bonuses and valuable cards first; place cheap cards that do not
    invite a picada or leave a lone card for a scùa."""
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    worth = _worth_table(rules)
    table = state.table
    n_table = len(table)
    last = state.last_placed
    qmin = rules.quadriglia_min
    best = legal[0]
    best_v = -1e9
    for a in legal:
        c = a.card
        cap = a.capture
        if cap:
            v = worth[c]
            suit = c.suit
            same = True
            for t in cap:
                v += worth[t]
                if t.suit != suit:
                    same = False
            if same:
                v += 1.0
            if len(cap) == n_table:
                v += 1.0
            elif n_table - len(cap) == 1:
                v -= 0.5  # a lone card left: the next seat may sweep it
            if len(cap) == 1 and cap[0] is last:
                v += 1.0
            if len(cap) >= qmin:
                v += 1.0
        else:
            v = -0.3 - worth[c]
            if n_table == 0:
                v -= 0.6  # alone on the table: any same rank sweeps it
        v += rng.random() * 0.05  # break ties at random
        if v > best_v:
            best_v, best = v, a
    return best


def playout(rules: CiceraRules, state: CiceraState, rng: random.Random, trace: list | None = None) -> None:
    """Play the deal to its end with the same policy as :func:`rollout`, straight on the state.

    The search's hot loop: no Action objects, no events, no history. It follows the rules
    exactly as ``CiceraRules.apply`` does (tests replay ``trace`` through the engine to prove it).
    """
    values = rules.values
    worth = _worth_table(rules)
    hands, table, piles, bonuses = state.hands, state.table, state.piles, state.bonuses
    qmin = rules.quadriglia_min
    n = state.players
    seat = state.to_act
    while True:
        hand = hands[seat]
        # The legal plays, as in CiceraRules.legal_actions: place, same-rank match, numeral sum.
        top = 0
        for c in hand:
            v = values.get(c, 0)
            if v > top:
                top = v
        sums = sums_by_value(table, values, top) if top >= 2 and len(table) > 1 else None
        options: list[tuple[Card, tuple[Card, ...]]] = []
        for c in hand:
            options.append((c, ()))
            rank = c.rank
            for t in table:
                if t.rank == rank:
                    options.append((c, (t,)))
            if sums:
                caps = sums.get(values.get(c))
                if caps:
                    for cap in caps:
                        options.append((c, cap))
        last = state.last_placed
        n_table = len(table)
        if len(options) == 1:
            c, cap = options[0]
        elif rng.random() < EPSILON:
            c, cap = options[rng.randrange(len(options))]
        else:
            best_v = -1e9
            for oc, ocap in options:
                if ocap:
                    v = worth[oc]
                    suit = oc.suit
                    same = True
                    for t in ocap:
                        v += worth[t]
                        if t.suit != suit:
                            same = False
                    if same:
                        v += 1.0
                    k = len(ocap)
                    if k == n_table:
                        v += 1.0
                    elif n_table - k == 1:
                        v -= 0.5
                    if k == 1 and ocap[0] is last:
                        v += 1.0
                    if k >= qmin:
                        v += 1.0
                else:
                    v = -0.3 - worth[oc]
                    if n_table == 0:
                        v -= 0.6
                v += rng.random() * 0.05
                if v > best_v:
                    best_v, c, cap = v, oc, ocap
        if trace is not None:
            trace.append(Action("play", c, cap, False))
        hand.remove(c)
        if cap:
            team = seat % 2
            for t in cap:
                table.remove(t)
            pile = piles[team]
            pile.append(c)
            pile.extend(cap)
            state.last_capture_team = team
            counts = bonuses[team]
            if not table:
                counts[0] += 1  # scùa
            if len(cap) == 1 and cap[0] is last and cap[0].rank == c.rank:
                counts[1] += 1  # picada
            suit = c.suit
            for t in cap:
                if t.suit != suit:
                    break
            else:
                counts[2] += 1  # simili
            if len(cap) >= qmin:
                counts[3] += 1  # quadriglia
            state.last_placed = None
        else:
            table.append(c)
            state.last_placed = c
        if not any(hands):
            state.over = True
            return
        seat = (seat + 1) % n
        state.to_act = seat


def prior(rules: CiceraRules, view: CiceraView, action: Action) -> float:
    """The greedy evaluation, scaled; a capture with a bonus or a special card is obvious (>= 1)."""
    cap = action.capture
    if cap:
        if rules.capture_bonuses(action.card, cap, view.table, view.last_placed):
            return 1.2
        if any(t in rules.special_cards for t in cap) or action.card in rules.special_cards:
            return 1.1
    return max(-0.9, min(0.9, evaluate(rules, view, action) / 3.0))
