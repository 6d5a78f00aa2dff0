"""Search hooks for Tressette (2 players, or 4 in partnerships): determinize, utilities, the
playout policy, the prior, and the exact solver for the end of the deal.

What a seat knows beyond its hand and the cards played:
- with two players every card drawn from the stock is shown to both, so it is known to be in
  the drawer's hand until played (``view.known``); the drawer's *other* cards are the ones
  dealt to him;
- a player who did not follow the led suit holds none of it among those dealt cards
  (``view.voids``; a card drawn later is public anyway).
Determinizations honour both: known cards stay in their hands, and the unseen cards are
dealt so that no hand gets a suit it showed void in.

Once the information is complete the deal is solved exactly (``complete`` / ``solve``): with
two players from the moment the stock is gone (both hands are then known), with four in the
last ``EXACT_TRICKS_4P`` tricks, over every deal of the unseen cards consistent with the
view (or a fixed sample of them when there are many: PIMC with exact play). The solver is an
alpha-beta search over whole tricks with a transposition table at trick starts, on the deal
points themselves (whole points of the thirds, plus the last trick), so it is exact.
"""
from __future__ import annotations

import math
import random
import time
from itertools import combinations

from game.ai.determinize import check_count, hidden_cards, split_hidden
from game.cards import Card
from game.games.tressette.heuristics import KEEP, PARTNER_LATER, UNSURE_WIN, evaluate, top_out
from game.games.tressette.rules import TressetteRules, TressetteState, TressetteView
from game.rules.base import Action

#: The levels' settings in Tressette (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Normal: a smaller budget, no exact solver at the end of the deal, playouts that play
    # the last tricks by the policy (hard solves them exactly), and small human slips: a
    # softmax over the searched values (temperature 0.04 ≈ 0.45 deal points; a move a point
    # worse is chosen about a tenth as often as the best). Measured on duplicate deals: with
    # the solver normal was only +0.35 ± 0.42 points per deal below hard after 20 seeds (2p:
    # both played the last ten tricks perfectly); without it +0.82 ± 0.26 (2p, 50 seeds) but
    # +0.25 ± 0.53 in 4p (20 seeds). With the slips, and hard's playouts no longer solving
    # their last two tricks (EXACT_PLAYOUT_TRICKS), hard vs normal is +1.80 ± 0.23 (2p) and
    # +1.60 ± 0.37 (4p), 50 seeds each; normal vs easy +1.28 ± 0.36 (2p) and +2.03 ± 0.55 (4p).
    "normal": {"iterations": 300, "exact": False, "playout_kw": {"exact_tricks": 0}, "temperature": 0.04},
    "easy": {"playout_kw": {"exact_tricks": 0}},
}

#: Chance that the playout plays a random legal card instead of the greedy one.
EPSILON = 0.1
#: Playouts may finish the deal exactly (double-dummy on the sampled deal) once this many
#: tricks or fewer are left. Off: with the last two tricks solved, 60 % of an iteration's
#: time went to the finish (profiled, 4p), so hard ran 2.5 times fewer iterations — and in
#: four-player play hard was then no better than normal (+0.03 ± 0.45 points per deal, 30
#: seeds). Two players solve the whole deal once the stock is gone anyway.
EXACT_PLAYOUT_TRICKS = 0
#: Four players: ``complete`` says yes in the last this-many tricks; ``solve`` enumerates
#: every consistent deal of the unseen cards up to ALL_WORLDS of them, else samples WORLDS,
#: and solves them exactly one by one (each move's exact value, averaged) within SOLVE_SECONDS.
EXACT_TRICKS_4P = 4
ALL_WORLDS = 150
WORLDS = 40
#: Fewer deals solved than this within SOLVE_SECONDS: ``solve`` gives up (returns None).
MIN_WORLDS = 12
#: Budget of one exact solve, in nodes (about 7 µs each) and seconds — two players with ten
#: tricks left take 20 000 nodes on average, rarely 90 000; above it ``solve`` gives up
#: (returns None) and the search samples instead, in what is left of its time.
NODE_LIMIT = 150_000
SOLVE_SECONDS = 0.6
#: Attempts at a plain uniform deal before the constrained dealer places the void suits.
UNIFORM_TRIES = 6


# --------------------------------------------------------------------------- determinizing
def _feasible(counts: dict[str, int], caps: list[int], forbidden: list[frozenset[str]]) -> bool:
    """Hall's condition: every set of suits has room enough in the slots that accept them."""
    suits = [s for s, n in counts.items() if n]
    for k in range(1, len(suits) + 1):
        for group in combinations(suits, k):
            need = sum(counts[s] for s in group)
            room = sum(c for c, f in zip(caps, forbidden) if any(s not in f for s in group))
            if need > room:
                return False
    return True


def deal_around_voids(rng: random.Random, hidden: list[Card], caps: list[int],
                      forbidden: list[frozenset[str]]) -> list[list[Card]]:
    """``hidden`` dealt at random into slots of ``caps`` cards, no slot getting a suit it
    forbids. A few plain uniform deals are tried first (exactly uniform when one fits);
    otherwise the most constrained slots are filled first, each with a random sample of the
    cards it may hold that leaves the rest dealable (Hall's condition on the suit counts)."""
    if sum(caps) != len(hidden):
        raise ValueError(f"{len(hidden)} hidden cards for slots of {sum(caps)}")
    cards = list(hidden)
    if not any(forbidden):
        rng.shuffle(cards)
        out, i = [], 0
        for n in caps:
            out.append(cards[i:i + n])
            i += n
        return out
    for _ in range(UNIFORM_TRIES):
        rng.shuffle(cards)
        out, i, ok = [], 0, True
        for n, f in zip(caps, forbidden):
            part = cards[i:i + n]
            if f and any(c.suit in f for c in part):
                ok = False
                break
            out.append(part)
            i += n
        if ok:
            return out
    slots = sorted(range(len(caps)), key=lambda j: -len(forbidden[j]))
    out = [[] for _ in caps]
    pool = list(hidden)
    left_caps = list(caps)
    for j in slots:
        left_caps[j] = 0
        allowed = [c for c in pool if c.suit not in forbidden[j]]
        if len(allowed) < caps[j]:
            allowed = list(pool)  # impossible in a real deal: drop the constraint, never fail
        pick = rng.sample(allowed, caps[j])
        for _ in range(20):
            rest = [c for c in pool if c not in set(pick)]
            counts = {s: 0 for s in "DCSB"}
            for c in rest:
                counts[c.suit] += 1
            if _feasible(counts, left_caps, forbidden):
                break
            pick = rng.sample(allowed, caps[j])
        taken = set(pick)
        pool = [c for c in pool if c not in taken]
        out[j] = pick
    return out


def determinize(rules: TressetteRules, view: TressetteView, rng: random.Random) -> TressetteState:
    """A full state with this view: the other hands hold their known cards (public draws)
    and, around them, unseen cards of no suit they showed void in; the rest is the stock."""
    n = view.players
    me = view.seat
    hidden = hidden_cards(view.unseen)
    need = [view.hand_counts[s] - len(view.known[s]) if s != me else 0 for s in range(n)]
    if min(need) < 0:
        raise ValueError(f"a hand holds fewer cards than are known in it ({view.hand_counts}, {view.known})")
    check_count(hidden, sum(need) + view.stock_count)
    hands: list[list[Card]] = [[] for _ in range(n)]
    stock: list[Card] = []
    if n == 2:
        opp = 1 - me
        void = view.voids[opp]
        excluded = [c for c in hidden if c.suit in void] if void else ()
        dealt, stock = split_hidden(rng, hidden, need[opp], excluded)
        hands[opp] = list(view.known[opp]) + dealt
    else:
        others = [s for s in range(n) if s != me]
        parts = deal_around_voids(rng, hidden, [need[s] for s in others], [view.voids[s] for s in others])
        for s, part in zip(others, parts):
            hands[s] = list(view.known[s]) + part
    hands[me] = list(view.hand)
    teams = rules.teams
    piles: list[list[Card]] = [[] for _ in range(teams)]
    # The piles are public: every trick was seen. Rebuild them from the history.
    hist = view.history
    done = len(hist) - len(view.trick)
    leader = None
    for k in range(0, done, n):
        cs = [c for _, c in hist[k:k + n]]
        leader = hist[k][0]
        w = rules.trick_winner(cs, leader)
        piles[rules.team_of(w)] += cs
    return TressetteState(
        players=n, dealer=view.dealer, number=1, hands=hands, stock=stock, leader=view.leader,
        to_act=view.to_act, trick=list(view.trick), piles=piles, thirds=list(view.thirds),
        tricks=list(view.tricks), last_trick=None, over=False, known=[list(k) for k in view.known],
        voids=list(view.voids), history=list(hist),
    )


# --------------------------------------------------------------------------- values
def _points(rules: TressetteRules, state: TressetteState) -> list[int]:
    return rules.deal_points(state.thirds, state.last_trick)


def utilities(rules: TressetteRules, state: TressetteState) -> list[float]:
    """Per team: the deal-point margin over 11 (the whole deal's points)."""
    p = _points(rules, state)
    u0 = (p[0] - p[1]) / 11.0
    return [u0, -u0]


def prior(rules: TressetteRules, view: TressetteView, action: Action) -> float:
    """The greedy evaluation, scaled to (-0.9, 0.9): no Tressette move is "obvious"."""
    return max(-0.9, min(0.9, evaluate(rules, view, action) / 5.0))


# --------------------------------------------------------------------------- the exact solver
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
        self.deadline: float | None = None
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.between = _between_masks(rules)

    # A node: seat to act inside a trick; hands sorted by (suit, strength descending).
    def moves(self, hands: list[list[Card]], masks: list[int], seat: int, trick: list[Card],
              trick_mask: int) -> list[Card]:
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
            if (prev is not None and prev.suit == c.suit and th[prev] == th[c]
                    and not live & between[prev.index][c.index]):
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
        if not self.nodes & 1023 and self.deadline is not None and time.perf_counter() > self.deadline:
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


def exact_margins(rules: TressetteRules, state: TressetteState, seat: int, node_limit: int = NODE_LIMIT,
                  seconds: float | None = None, solver: _Solver | None = None,
                  every_value: bool = False) -> dict[Action, int] | None:
    """Final deal-point margin for ``seat``'s team per legal action on a fully known state
    with no stock (perfect play by everyone after it); None over the node budget. Moves
    other than the best are searched with a null window: their value is then only a bound,
    so a move that cannot beat the best found is reported half a point below it.

    ``seconds`` bounds the time as well; ``solver`` reuses another solve's transposition
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
    solver.deadline = None if seconds is None else time.perf_counter() + seconds
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
    out: dict[Action, int] = {}
    best: int | None = None
    try:
        for a in rules.legal_actions(state):
            c = a.card
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

            if best is None or every_value:
                v = search(-99, 99)
                best = v if best is None else (max(best, v) if maximize else min(best, v))
            elif maximize:
                v = search(best, best + 1)
                if v > best:
                    v = search(v - 1, 99)  # the true value is >= v: a window around it is exact
                    best = v
                elif v == best:
                    v = best - 0.5  # type: ignore[assignment]
            else:
                v = search(best - 1, best)
                if v < best:
                    v = search(-99, v + 1)
                    best = v
                elif v == best:
                    v = best + 0.5  # type: ignore[assignment]
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
    return max(view.hand_counts) <= EXACT_TRICKS_4P


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
    if total > ALL_WORLDS:
        return [determinize(rules, view, rng) for _ in range(WORLDS)]
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
        m = exact_margins(rules, state, seat, seconds=SOLVE_SECONDS)
        return None if m is None else {a: v / 11.0 for a, v in m.items()}
    view = rules.view(state, seat)
    # Seeded from the view alone: the answer cannot depend on the sampled state's hidden cards.
    key = " ".join(c.code for c in view.hand) + "|" + " ".join(c.code for _, c in view.history)
    rng = random.Random(key)
    worlds = _worlds(rules, view, rng)
    rng.shuffle(worlds)  # when time runs out, the worlds solved are a fair sample
    deadline = time.perf_counter() + SOLVE_SECONDS
    totals: dict[Action, float] = {}
    solved = 0
    for w in worlds:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        m = exact_margins(rules, w, seat, seconds=left, every_value=True)
        if m is None:
            break
        for a, v in m.items():
            totals[a] = totals.get(a, 0.0) + v / 11.0
        solved += 1
    if solved < min(len(worlds), MIN_WORLDS):
        return None  # too few deals solved in the time: the search samples instead
    return {a: t / solved for a, t in totals.items()}


# --------------------------------------------------------------------------- the playout
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


def playout(rules: TressetteRules, state: TressetteState, rng: random.Random, trace: list | None = None,
            *, epsilon: float | None = None, exact_tricks: int | None = None) -> None:
    """Play the deal out in place by the greedy policy (heuristics_tressette's values, with
    ``epsilon`` random moves), inlined on the state's lists: no Action objects, no events;
    then, with ``exact_tricks`` or fewer tricks left and no stock, perfect play by the exact
    solver. The state ends with the right thirds and last trick (piles, history, known and
    voids are not kept up: only the utilities read the finished state). ``trace`` collects
    the cards played, in order."""
    eps = EPSILON if epsilon is None else epsilon
    exact_at = EXACT_PLAYOUT_TRICKS if exact_tricks is None else exact_tricks
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
    solver = _Solver(rules, state.players, NODE_LIMIT)
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
    if rng.random() < EPSILON:
        return legal[int(rng.random() * len(legal))]
    seat = state.to_act
    out = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock)
    top = top_out(rules, out)
    from game.games.tressette.heuristics import play_value

    return max(legal, key=lambda a: play_value(rules, a.card, state.hands[seat], state.trick, seat,
                                               state.leader, top, state.players))


# ---------------------------------------------------------------------- the suggestion's reason
def reason(rules: TressetteRules, view: TressetteView, action: Action) -> tuple[str, dict] | None:
    """One line on why a play is good (game.ai.suggest): the last card of a trick that wins
    it for the side, or a partner's trick; nothing given away on a lost one; None else."""
    c = action.card
    if action.kind != "play" or c is None or not view.trick:
        return None
    cards = [*view.trick, c]
    winner = rules.trick_winner(cards, view.leader)
    mine = rules.team_of(winner) == rules.team_of(view.seat)
    if len(cards) == view.players:
        if winner == view.seat:
            return ("suggest.reason.sure_trick_plain", {})
        if mine:
            return ("suggest.reason.partner_trick_plain", {})
    if not mine and rules.card_thirds[c] == 0:
        return ("suggest.reason.gives_nothing", {})
    return None
