"""Tressette AI: the exact solver for the end of the deal — with two players from the moment
the stock is gone (both hands are then known), with four in the last tuning.EXACT_TRICKS_4P
tricks, over every deal of the unseen cards consistent with the view (or a fixed sample of
them when there are many: PIMC with exact play). An alpha-beta search over whole tricks with
a transposition table at trick starts, on the deal points themselves (whole points of the
thirds, plus the last trick), so it is exact; within a node budget (never the clock: the
same answer on every machine, however loaded).
"""

from __future__ import annotations

import math
import random
from itertools import combinations

import game.games.tressette.ai.tuning as tuning
from game.ai.determinize import hidden_cards
from game.cards import Card
from game.games.tressette.ai.deal import determinize
from game.games.tressette.rules import TressetteRules, TressetteState, TressetteView
from game.rules.base import Action


class _Solver:
    """Alpha-beta over whole tricks on a fully known deal (no stock), team 0 maximising the
    final deal-point margin (team 0 minus team 1), team 1 minimising it.

    Transposition table at trick starts, keyed by every hand's card set, the leader and each
    team's thirds modulo 3 (only the remainders matter for the whole points still to come;
    the stored value is relative to the whole points already won). Equivalent cards — same
    suit, same thirds, nothing live between them but the player's own — are tried once.
    """

    def __init__(self, rules: TressetteRules, players: int, node_limit: int):
        self.rules = rules
        self.st = rules.strength
        self.th = rules.card_thirds
        self.n = players
        self.team = [rules.team_of(s) for s in range(players)]
        self.last = rules.last_trick_points
        self.limit = node_limit
        self.nodes = 0
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.between = _between_masks(rules)

    # A node: seat to act inside a trick; hands sorted by (suit, strength descending).
    def moves(
        self, hands: list[list[Card]], masks: list[int], seat: int, trick: list[Card], trick_mask: int
    ) -> list[Card]:
        hand = hands[seat]
        if trick:
            suit = trick[0].suit
            cand = [c for c in hand if c.suit == suit] or hand
        else:
            cand = hand
        live = trick_mask
        for s in range(self.n):
            if s != seat:
                live |= masks[s]
        th = self.th
        between = self.between
        kept: list[Card] = []
        prev = None
        for c in cand:
            if (
                prev is not None
                and prev.suit == c.suit
                and th[prev] == th[c]
                and not live & between[prev.index][c.index]
            ):
                prev = c
                continue  # equivalent to the card just kept (or to one equivalent to it)
            kept.append(c)
            prev = c
        if len(kept) < 2:
            return kept
        st = self.st
        if trick:
            suit = trick[0].suit
            best = max((x for x in trick if x.suit == suit), key=st.__getitem__)
            beat = [c for c in kept if c.suit == suit and st[c] > st[best]]
            rest = [c for c in kept if not (c.suit == suit and st[c] > st[best])]
            rest.sort(key=lambda c: (th[c], st[c]))
            return beat + rest  # the strongest winner first, then the cheapest losers
        return sorted(kept, key=lambda c: -st[c])

    def value(self, hands, masks, leader, trick, trick_mask, a0, a1, alpha, beta) -> int:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Budget
        n = self.n
        pos = len(trick)
        seat = (leader + pos) % n
        maximize = self.team[seat] == 0
        hand = hands[seat]
        best = -99 if maximize else 99
        st, th = self.st, self.th
        for c in self.moves(hands, masks, seat, trick, trick_mask):
            i = hand.index(c)
            del hand[i]
            bit = 1 << c.index
            masks[seat] ^= bit
            trick.append(c)
            if pos + 1 < n:
                v = self.value(hands, masks, leader, trick, trick_mask | bit, a0, a1, alpha, beta)
            else:
                suit = trick[0].suit
                bi = 0
                pts = 0
                for k, x in enumerate(trick):
                    pts += th[x]
                    if x.suit == suit and st[x] > st[trick[bi]]:
                        bi = k
                w = (leader + bi) % n
                if self.team[w] == 0:
                    b0, b1 = a0 + pts, a1
                else:
                    b0, b1 = a0, a1 + pts
                if not hands[w]:
                    v = b0 // 3 - b1 // 3 + (self.last if self.team[w] == 0 else -self.last)
                else:
                    v = self.boundary(hands, masks, w, b0, b1, alpha, beta)
            trick.pop()
            masks[seat] ^= bit
            hand.insert(i, c)
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def boundary(self, hands, masks, leader, a0, a1, alpha, beta) -> int:
        """A trick about to be led: the transposition table, then the search."""
        off = a0 // 3 - a1 // 3
        key = (*masks, leader, a0 % 3, a1 % 3)
        entry = self.tt.get(key)
        if entry is not None:
            lo, hi = entry[0] + off, entry[1] + off
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a_in, b_in = alpha, beta
        v = self.value(hands, masks, leader, [], 0, a0, a1, alpha, beta)
        lo, hi = (entry[0], entry[1]) if entry is not None else (-99, 99)
        if v <= a_in:
            hi = min(hi, v - off)
        elif v >= b_in:
            lo = max(lo, v - off)
        else:
            lo = hi = v - off
        self.tt[key] = (lo, hi)
        return v


class _Budget(Exception):
    """The solve went over its node budget."""


def _between_masks(rules: TressetteRules) -> list[list[int]]:
    """``between[a][b]``: the cards of a's suit strictly between a and b in strength (cached
    on the rules object: read-only after the first, idempotent write)."""
    cache = rules.__dict__.get("_ai_tressette_between")
    if cache is not None:
        return cache
    st = rules.strength
    size = max(c.index for c in rules.cards) + 1
    table = [[0] * size for _ in range(size)]
    for a in rules.cards:
        for b in rules.cards:
            if a.suit == b.suit and a is not b:
                lo, hi = sorted((st[a], st[b]))
                m = 0
                for x in rules.cards:
                    if x.suit == a.suit and lo < st[x] < hi:
                        m |= 1 << x.index
                table[a.index][b.index] = m
    rules.__dict__["_ai_tressette_between"] = table
    return table


def exact_margins(
    rules: TressetteRules,
    state: TressetteState,
    seat: int,
    node_limit: int = tuning.NODE_LIMIT,
    solver: _Solver | None = None,
    every_value: bool = False,
) -> dict[Action, float] | None:
    """Final deal-point margin for ``seat``'s team per legal action on a fully known state
    with no stock (perfect play by everyone after it); None over the node budget. Moves
    other than the best are searched with a null window: their value is then only a bound,
    so a move that cannot beat the best found is reported half a point below it.

    ``solver`` reuses another solve's transposition
    table (the positions of one deal: the next move's solve is then nearly free).
    ``every_value``: every move gets its exact value (a full window each), as averaging over
    several deals needs — a bound is no value to average."""
    if state.stock:
        raise ValueError("exact_margins needs a state with the stock gone")
    n = state.players
    if solver is None:
        solver = _Solver(rules, n, node_limit)
    solver.nodes = 0
    solver.limit = node_limit
    st = rules.strength
    order = {c: (c.suit, -st[c]) for h in state.hands for c in h}
    hands = [sorted(h, key=order.__getitem__) for h in state.hands]
    masks = [sum(1 << c.index for c in h) for h in hands]
    trick = list(state.trick)
    trick_mask = sum(1 << c.index for c in trick)
    a0, a1 = state.thirds
    to_act = state.to_act
    sign = 1 if rules.team_of(seat) == 0 else -1
    maximize = rules.team_of(to_act) == 0
    hand = hands[to_act]
    out: dict[Action, float] = {}
    best: int | None = None
    try:
        for a in rules.legal_actions(state):
            c = a.played
            i = hand.index(c)
            del hand[i]
            bit = 1 << c.index
            masks[to_act] ^= bit
            trick.append(c)
            tm = trick_mask | bit

            def search(lo: int, hi: int, tm: int = tm) -> int:
                if len(trick) < n:
                    return solver.value(hands, masks, state.leader, trick, tm, a0, a1, lo, hi)
                return _after_trick(solver, hands, masks, state.leader, trick, a0, a1, lo, hi)

            v: float  # a bound's half point below (or above) the best is no whole number
            if best is None or every_value:
                v = search(-99, 99)
                best = v if best is None else (max(best, v) if maximize else min(best, v))
            elif maximize:
                v = search(best, best + 1)
                if v > best:
                    v = search(v - 1, 99)  # the true value is >= v: a window around it is exact
                    best = v
                elif v == best:
                    v = best - 0.5
            else:
                v = search(best - 1, best)
                if v < best:
                    v = search(-99, v + 1)
                    best = v
                elif v == best:
                    v = best + 0.5
            trick.pop()
            masks[to_act] ^= bit
            hand.insert(i, c)
            out[a] = v * sign
    except _Budget:
        return None
    return out


def _after_trick(solver: _Solver, hands, masks, leader, trick, a0, a1, alpha, beta) -> int:
    """The value once the trick in ``trick`` (complete) is scored."""
    rules = solver.rules
    st, th = solver.st, solver.th
    suit = trick[0].suit
    bi = 0
    pts = 0
    for k, x in enumerate(trick):
        pts += th[x]
        if x.suit == suit and st[x] > st[trick[bi]]:
            bi = k
    w = (leader + bi) % solver.n
    team = rules.team_of(w)
    b0, b1 = (a0 + pts, a1) if team == 0 else (a0, a1 + pts)
    if not hands[w]:
        return b0 // 3 - b1 // 3 + (solver.last if team == 0 else -solver.last)
    return solver.boundary(hands, masks, w, b0, b1, alpha, beta)


def complete(rules: TressetteRules, view: TressetteView) -> bool:
    """Two players: the stock is gone (the opponent holds exactly the unseen and known cards).
    Four: the last EXACT_TRICKS_4P tricks (few enough worlds to solve them one by one)."""
    if view.players == 2:
        return view.stock_count == 0
    return max(view.hand_counts) <= tuning.EXACT_TRICKS_4P


def _worlds(rules: TressetteRules, view: TressetteView, rng: random.Random) -> list[TressetteState]:
    """Every deal of the unseen cards consistent with the view (voids honoured), or WORLDS
    random ones when there are more than ALL_WORLDS."""
    me = view.seat
    others = [s for s in range(view.players) if s != me]
    hidden = hidden_cards(view.unseen)
    caps = [view.hand_counts[s] - len(view.known[s]) for s in others]
    total = math.factorial(len(hidden))
    for c in caps:
        total //= math.factorial(c)
    if total > tuning.ALL_WORLDS:
        return [determinize(rules, view, rng) for _ in range(tuning.WORLDS)]
    base = determinize(rules, view, rng)
    out = []
    for parts in _splits(hidden, caps, [view.voids[s] for s in others]):
        w = rules.clone(base)
        for s, part in zip(others, parts):
            w.hands[s] = list(view.known[s]) + part
        out.append(w)
    return out or [base]


def _splits(cards: list[Card], caps: list[int], forbidden: list[frozenset[str]]):
    """Every way to deal ``cards`` into slots of ``caps`` cards, no slot getting a suit it
    forbids (each split once)."""
    if not caps:
        yield []
        return
    first, rest = caps[0], caps[1:]
    for combo in combinations(range(len(cards)), first):
        part = [cards[i] for i in combo]
        if any(c.suit in forbidden[0] for c in part):
            continue
        chosen = set(combo)
        left = [c for i, c in enumerate(cards) if i not in chosen]
        for tail in _splits(left, rest, forbidden[1:]):
            yield [part, *tail]


def solve(rules: TressetteRules, state: TressetteState, seat: int) -> dict[Action, float] | None:
    """Exact values for ``seat`` (to act). Two players, stock gone: the state is the truth.
    Four players: the mean over the consistent deals of the unseen cards (PIMC with exact
    play) — only what ``seat`` sees is used, never the sampled state's hidden cards."""
    if state.players == 2:
        m = exact_margins(rules, state, seat, node_limit=tuning.SOLVE_NODES)
        return None if m is None else {a: v / 11.0 for a, v in m.items()}
    view = rules.view(state, seat)
    # Seeded from the view alone: the answer cannot depend on the sampled state's hidden cards.
    key = " ".join(c.code for c in view.hand) + "|" + " ".join(c.code for _, c in view.history)
    rng = random.Random(key)
    worlds = _worlds(rules, view, rng)
    rng.shuffle(worlds)  # when the budget runs out, the worlds solved are a fair sample
    totals: dict[Action, float] = {}
    solved = 0
    left = tuning.SOLVE_NODES
    solver = _Solver(rules, state.players, left)
    for w in worlds:
        solver.tt.clear()  # a table per world: another deal's positions are other positions
        m = exact_margins(rules, w, seat, node_limit=left, solver=solver, every_value=True)
        if m is None:
            break
        left -= solver.nodes
        for a, v in m.items():
            totals[a] = totals.get(a, 0.0) + v / 11.0
        solved += 1
    if solved < min(len(worlds), tuning.MIN_WORLDS):
        return None  # too few deals solved within the budget: the search samples instead
    return {a: t / solved for a, t in totals.items()}
