"""Search hooks for Cìcera (4 players, partners opposite): determinize, utility, playout, prior.

All 52 cards are dealt, so the unseen cards are exactly the other three hands; Cìcera's
optional captures give no hard clue about a hand (placing is always legal), so every split
with the right hand counts is consistent with the view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

from game.ai.determinize import deal_hidden
from game.cards import Card
from game.games.cicera.heuristics import evaluate
from game.games.cicera.rules import CiceraRules, CiceraState, CiceraView
from game.rules.base import Action
from game.rules.capture import capture_play, captured, sums_by_value

#: Deal-point margins are divided by this so utilities sit roughly in [-1, 1].
SCALE = 8.0
#: Chance that the playout policy plays a uniformly random action instead of its greedy choice.
EPSILON = 0.1
#: The search looks only at the 6 root actions the greedy prior likes best (plus obvious ones):
#: against greedy on the same 20 duplicate seeds, +1.6 ± 1.3 points per deal with it (1000
#: iterations) against -1.3 ± 0.9 for the time-capped search over all actions (docs/AI.md).
ROOT_TOP_K = 6

#: The levels' settings in Cìcera (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Hard: the budget that fits its 0.9 s cap on one quiet core (bench/ai_speed.py, CPU p95
    # 1.04 s at 4000 iterations).
    "hard": {"iterations": 3000},
    # Normal: 300 iterations — at 700 hard was only +1.5 ± 0.9 points per deal ahead.
    "normal": {"iterations": 300},
    # Easy: the same slips in points as in Scopa (utilities here are deal points / 8, Scopa's
    # / 4), so temperature and blunder margin are doubled — at Scopa's values easy was within
    # 0.9 ± 0.4 points per deal of normal (docs/AI.md).
    "easy": {"temperature": 0.24, "blunder_margin": 0.9},
}


def determinize(rules: CiceraRules, view: CiceraView, rng: random.Random) -> CiceraState:
    """A full state with this view: the unseen cards dealt at random into the other hands."""
    hands, rest = deal_hidden(view, rng, 0)
    assert not rest  # deal_hidden checked the counts
    return CiceraState(
        players=view.players,
        dealer=view.dealer,
        number=1,
        hands=hands,
        table=list(view.table),
        piles=[list(p) for p in view.piles],
        bonuses=[list(b) for b in view.bonuses],
        to_act=view.to_act,
        last_capture_team=view.last_capture_team,
        last_placed=view.last_placed,
        over=False,
        history=list(view.history),
    )


def utilities(rules: CiceraRules, state: CiceraState) -> list[float]:
    """Per team: its deal points minus the other team's, scaled."""
    a, b = rules.deal_result(state).points
    return [(a - b) / SCALE, (b - a) / SCALE]


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
        rules.__dict__["_ai_cicera_worth"] = cached
    return cached


def _role_table(rules: CiceraRules) -> dict[Card, tuple]:
    """Per card, what the scoring sees of it besides its suit's sameness with other cards:
    its rank and, for a card of the most-cards suit or a special one, the card itself. Two
    cards of one role in suits that score nothing apart (K♣ and K♦) draw the same tie noise
    in a coupled playout. Cached like :func:`_worth_table`."""
    cached = getattr(rules, "_ai_cicera_role", None)
    if cached is None:
        ranks = {r: i for i, r in enumerate(rules.game.ranks)}
        cached = {
            c: (ranks[c.rank], c.code if c.suit == rules.most_suit or c in rules.special_cards else "")
            for c in rules.cards
        }
        rules.__dict__["_ai_cicera_role"] = cached
    return cached


Option = tuple[Card, tuple[Card, ...]]


def _pick(
    options: list[Option],
    n_table: int,
    last: Card | None,
    worth: dict[Card, float],
    qmin: int,
    rand: Callable[[], float],
    noise: dict[Card, float] | None = None,
) -> Option:
    """The playout policy's choice among ``options`` ((card, captured cards) pairs): bonuses
    and valuable cards first; place cheap cards that do not invite a picada or leave a lone
    card for a scùa; a little noise (``rand``) breaks ties at random. The one scoring of both
    :func:`rollout` and :func:`playout`; its arguments are what the playout's loop holds."""
    best = options[0]
    best_v = -1e9
    for o in options:
        c, cap = o
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
            k = len(cap)
            if k == n_table:
                v += 1.0
            elif n_table - k == 1:
                v -= 0.5  # a lone card left: the next seat may sweep it
            if k == 1 and cap[0] is last:
                v += 1.0
            if k >= qmin:
                v += 1.0
        else:
            v = -0.3 - worth[c]
            if n_table == 0:
                v -= 0.6  # alone on the table: any same rank sweeps it
        v += rand() * 0.05 if noise is None else noise[c]  # break ties at random
        if v > best_v:
            best_v, best = v, o
    return best


def rollout(rules: CiceraRules, state: CiceraState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout through the engine (the policy of :func:`_pick`)."""
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    # Every Cìcera action plays a card (the playout's hot path: no check per action).
    options = cast("list[tuple[Card, tuple[Card, ...]]]", [(a.card, captured(a)) for a in legal])
    choice = _pick(options, len(state.table), state.last_placed, _worth_table(rules), rules.quadriglia_min, rng.random)
    return legal[options.index(choice)]


def playout(
    rules: CiceraRules, state: CiceraState, rng: random.Random, trace: list | None = None, coupled: bool = False
) -> None:
    """Play the deal to its end with the same policy as :func:`rollout`, straight on the state.

    The search's hot loop: no Action objects, no events, no history. It follows the rules
    exactly as ``CiceraRules.apply`` does (tests replay ``trace`` through the engine to prove it).

    ``coupled`` (the coach's: game.coach.flat plays every move of a decision with the same
    generator seed) draws the generator in step with the plies: the ties' noise once per
    card at the start, then two draws every ply (the random move's chance and which one),
    whatever the options. Two playouts from positions that differ by one card then make the
    same random choices ply by ply and part ways only where that card matters, instead of
    after the first ply whose count of options differs (same policy, other coupling).
    """
    values = rules.values
    worth = _worth_table(rules)
    hands, table, piles, bonuses = state.hands, state.table, state.piles, state.bonuses
    qmin = rules.quadriglia_min
    n = state.players
    seat = state.to_act
    noise = None
    if coupled:
        role = _role_table(rules)
        by_role = {r: rng.random() * 0.05 for r in sorted(set(role.values()))}
        noise = {c: by_role[role[c]] for c in rules.cards}
        for h in hands:
            h.sort(key=role.__getitem__)
    while True:
        hand = hands[seat]
        # The legal plays, as in CiceraRules.legal_actions: place, same-rank match, numeral sum
        # (inlined: taking the rules' own list of Actions costs the playout about 15 %, measured).
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
                caps = sums.get(values.get(c, 0))  # no set totals 0: a court takes no sum
                if caps:
                    for cap in caps:
                        options.append((c, cap))
        last = state.last_placed
        if noise is not None:
            u, r = rng.random(), rng.random()
            if len(options) == 1:
                c, cap = options[0]
            elif u < EPSILON:
                c, cap = options[int(r * len(options))]
            else:
                c, cap = _pick(options, len(table), last, worth, qmin, rng.random, noise)
        elif len(options) == 1:
            c, cap = options[0]
        elif rng.random() < EPSILON:
            c, cap = options[rng.randrange(len(options))]
        else:
            c, cap = _pick(options, len(table), last, worth, qmin, rng.random)
        if trace is not None:
            trace.append(capture_play(c, cap))
        hand.remove(c)
        if cap:
            team = seat % 2
            for t in cap:
                table.remove(t)
            pile = piles[team]
            pile.append(c)
            pile.extend(cap)
            state.last_capture_team = team
            # The bonuses, as CiceraRules.apply scores them (inlined: rules.capture_bonuses
            # here costs the playout about 10 %, measured).
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
    cap = captured(action)
    if cap:
        c = action.played
        if rules.capture_bonuses(c, cap, view.table, view.last_placed):
            return 1.2
        if any(t in rules.special_cards for t in cap) or c in rules.special_cards:
            return 1.1
    return max(-0.9, min(0.9, evaluate(rules, view, action) / 3.0))


# ---------------------------------------------------------------------- the suggestion's reason
def _sweepable(rules: CiceraRules, view: CiceraView, left: list[Card]) -> bool:
    """Could a card the seat has not seen take all of ``left`` (a scùa for the next player)?"""
    if not left:
        return False
    return any(len(cap) == len(left) for x in view.unseen for cap in rules.captures_for(x, left))


def reason(rules: CiceraRules, view: CiceraView, action: Action) -> tuple[str, dict] | None:
    """One line on why a play is good (game.ai.suggest): its bonuses, a special card, the
    most-cards suit, a table left with no sweep for the next player; None for a plain play."""
    c, cap = action.card, captured(action)
    if action.kind != "play" or c is None:
        return None
    table = list(view.table)
    last = not any(view.hand_counts[s] - (1 if s == view.seat else 0) for s in range(view.players))
    if cap:
        taken = (c, *cap)
        bonuses = rules.capture_bonuses(c, cap, table, view.last_placed)
        if bonuses:
            return ("suggest.reason.bonus", {"bonus": bonuses})
        special = [t for t in taken if t in rules.special_cards]
        if special:
            return ("suggest.reason.special", {"card": max(special, key=lambda t: rules.special_cards[t]).code})
        suited = [t for t in taken if t.suit == rules.most_suit]
        if len(suited) >= 2:
            return ("suggest.reason.suit_cards", {"count": len(suited), "suit": rules.most_suit})
        left = [t for t in table if t not in cap]
        if left and not last and not _sweepable(rules, view, left):
            return ("suggest.reason.takes_safe", {"count": len(taken)})
        return ("suggest.reason.takes", {"count": len(taken)})
    if not last and not _sweepable(rules, view, [*table, c]):
        return ("suggest.reason.no_sweep", {})
    return None
