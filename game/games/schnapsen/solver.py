"""Exact Schnapsen endgame solver: alpha-beta over a fully known position under the strict rules.

Once the stock is exhausted (or closed, in a determinized deal) both hands are known and every
follow is forced by follow-and-beat, so the remaining game is a small perfect-information
tree: at most 5 leads × 5 follows per trick. The solver works on bit masks (cards are bits
0..19), plays and undoes moves in place and orders moves (marriages, then winners, then the
most points first) so that alpha-beta cuts most of the tree. Values are signed game points
(−3..3) for seat 0; :func:`solve_values` returns them per legal action from the asking seat's
point of view (the hooks' ``solve`` maps them to utilities).

Two rule variants are read off the rules object (the benchmark adapter's engine differs):
``ai_marriage_counts_at_once`` (default True: a declarer who has a trick is credited at once,
and may reach 66 by the marriage) and ``ai_marriage_king_only`` (default False: the marriage
may be led with the King or the Queen).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from game.cards import Card
from game.games.schnapsen.rules import SchnapsenRules, SchnapsenState
from game.rules.base import Action

INF = 100


class Tables:
    """Per rules object: card ↔ bit, suit masks, strengths, points, marriage pairs."""

    def __init__(self, rules: SchnapsenRules):
        cards = list(rules.deck_cards)
        self.cards = cards
        self.bit = {c: i for i, c in enumerate(cards)}
        self.pts = [rules.points[c] for c in cards]
        self.strength = [rules.strength[c] for c in cards]
        self.suit = [c.suit for c in cards]
        self.suit_mask: dict[str, int] = {}
        for i, c in enumerate(cards):
            self.suit_mask[c.suit] = self.suit_mask.get(c.suit, 0) | (1 << i)
        # Cards of the same suit stronger than card i.
        self.higher = [
            sum(1 << j for j, d in enumerate(cards) if d.suit == c.suit and self.strength[j] > self.strength[i])
            for i, c in enumerate(cards)
        ]
        self.partner = [self.bit[rules.partner[c]] if c in rules.partner else -1 for c in cards]
        self.is_king = [c.rank == "K" for c in cards]
        self.marriage_value = rules.marriage_value
        self.trump_marriage_value = rules.trump_marriage_value
        self.win = rules.win_points
        self.schneider = rules.schneider
        self.counts_at_once = bool(getattr(rules, "ai_marriage_counts_at_once", True))
        self.king_only = bool(getattr(rules, "ai_marriage_king_only", False))
        # Lead order: high points first (a cheap, effective ordering for cut-offs).
        self.by_points = sorted(range(len(cards)), key=lambda i: (-self.pts[i], i))


def tables(rules: SchnapsenRules) -> Tables:
    """The rules object's tables (built once; read-only afterwards, so threads may share them)."""
    t = getattr(rules, "_ai_solver_tables", None)
    if t is None:
        t = Tables(rules)
        rules.__dict__["_ai_solver_tables"] = t
    return t


#: Per thread: the transposition tables the solves of one search share (see
#: :func:`shared_tables`), by what the solver's key leaves out (trump, closure).
_shared = threading.local()
#: A search's shared tables are emptied when they hold more entries than this (memory bound).
SHARED_LIMIT = 400_000


@contextmanager
def shared_tables() -> Iterator[None]:
    """Within it, this thread's solves share their transposition tables: the playouts of one
    search solve endgames that overlap, and an entry is an exact bound on a fully known
    position, so it holds for all of them (measured: the same moves on 20 positions, a fifth
    less time). Fresh tables per search keep each decision a function of its own seed."""
    before = getattr(_shared, "tables", None)
    _shared.tables = {}
    try:
        yield
    finally:
        _shared.tables = before


def _table(t: Tables, state: SchnapsenState) -> dict:
    tables = getattr(_shared, "tables", None)
    if tables is None:
        return {}
    if sum(map(len, tables.values())) > SHARED_LIMIT:
        tables.clear()
    key = (id(t), state.trump, state.closed_by, state.closure_points, state.closure_trick)
    tt = tables.get(key)
    if tt is None:
        tt = tables[key] = {}
    return tt


class Solver:
    """One search. ``nodes`` counts visited positions (for the nodes/s figure)."""

    def __init__(self, rules: SchnapsenRules, state: SchnapsenState):
        t = tables(rules)
        self.t = t
        bit = t.bit
        self.hand = [sum(1 << bit[c] for c in state.hands[0]), sum(1 << bit[c] for c in state.hands[1])]
        self.pts = [state.card_points[0] + state.marriage_points[0], state.card_points[1] + state.marriage_points[1]]
        self.pend = list(state.pending)
        self.trick = [bool(state.won[0]), bool(state.won[1])]
        self.trump = state.trump
        self.tmask = t.suit_mask[state.trump]
        self.closed_by = state.closed_by
        self.closure_points = state.closure_points
        self.closure_trick = state.closure_trick
        self.nodes = 0
        #: Transposition table of lead positions → (lower, upper) bound on the value.
        self.tt: dict[tuple, tuple[int, int]] = _table(t, state)
        #: The principal variation per ply, kept only when a list (``line`` asks for it).
        self.pv: list[list[tuple[int, bool]]] | None = None

    # ------------------------------------------------------------------ outcomes
    def _gp(self, loser_points: int, loser_trick: bool) -> int:
        if not loser_trick:
            return 3
        return 1 if loser_points >= self.t.schneider else 2

    def _reached(self, w: int) -> int:
        """Seat ``w`` reached 66: signed game points for seat 0."""
        cb = self.closed_by
        if cb is None:
            gp = self._gp(self.pts[1 - w], self.trick[1 - w])
        elif w == cb:
            gp = self._gp(self.closure_points, self.closure_trick)
        else:
            gp = 2 if self.closure_trick else 3
        return gp if w == 0 else -gp

    def _out_of_cards(self, last: int) -> int:
        cb = self.closed_by
        if cb is not None:
            w = 1 - cb
            gp = 2 if self.closure_trick else 3
        else:
            w, gp = last, 1
        return gp if w == 0 else -gp

    # ------------------------------------------------------------------ search
    def lead(self, p: int, alpha: int, beta: int, ply: int = 0) -> int:
        """Value (seat 0) with seat ``p`` to lead. ``ply`` (half-moves from the search's root)
        indexes the principal variation kept when ``self.pv`` is a list (see :func:`line`)."""
        self.nodes += 1
        # Transposition table: the same hands, leader and scores are reached by playing tricks
        # in another order. Entries are (lower, upper) bounds on the value.
        hand = self.hand
        pts = self.pts
        pend = self.pend
        trick = self.trick
        key = (hand[0], hand[1], p, pts[0], pts[1], pend[0], pend[1], trick[0], trick[1])
        tt = self.tt
        # The root of a line() search always searches: a table entry holds a bound, not the
        # moves, so taking it there would leave the principal variation empty.
        bounds = tt.get(key)
        if bounds is not None and (ply or self.pv is None):
            lo, hi = bounds
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        alpha0, beta0 = alpha, beta
        h = hand[p]
        maximize = p == 0
        best = -INF if maximize else INF
        pv = self.pv
        for i, marry in self._lead_moves(h):
            if pv is not None:
                pv[ply + 1] = []
            v = self.play_lead(p, i, marry, alpha, beta, ply)
            if maximize:
                if v > best:
                    best = v
                    if pv is not None:
                        pv[ply] = [(i, marry), *pv[ply + 1]]
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if pv is not None:
                        pv[ply] = [(i, marry), *pv[ply + 1]]
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        lo, hi = bounds if bounds is not None else (-INF, INF)
        if best <= alpha0:
            hi = min(hi, best)
        elif best >= beta0:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo, hi)
        return best

    def _lead_moves(self, h: int) -> list[tuple[int, bool]]:
        t = self.t
        out: list[tuple[int, bool]] = []
        plain: list[tuple[int, bool]] = []
        for i in t.by_points:
            if not (h >> i) & 1:
                continue
            q = t.partner[i]
            if q >= 0 and (h >> q) & 1 and (t.is_king[i] or not t.king_only):
                out.append((i, True))
            plain.append((i, False))
        # Marriages first (trump marriage first: it is worth most), then high cards.
        out.sort(key=lambda m: t.suit[m[0]] != self.trump)
        return out + plain

    def play_lead(self, p: int, i: int, marry: bool, alpha: int, beta: int, ply: int = 0) -> int:
        """Seat ``p`` leads card bit ``i`` (declaring its marriage if ``marry``)."""
        t = self.t
        added_pend = added_pts = 0
        if marry:
            val = t.trump_marriage_value if t.suit[i] == self.trump else t.marriage_value
            if self.trick[p] and t.counts_at_once:
                self.pts[p] += val
                added_pts = val
                if self.pts[p] >= t.win:
                    v = self._reached(p)
                    self.pts[p] -= val
                    return v
            else:
                self.pend[p] += val
                added_pend = val
        self.hand[p] &= ~(1 << i)
        v = self.follow(1 - p, i, alpha, beta, ply + 1)
        self.hand[p] |= 1 << i
        self.pts[p] -= added_pts
        self.pend[p] -= added_pend
        return v

    def follow(self, f: int, led: int, alpha: int, beta: int, ply: int = 0) -> int:
        """Seat ``f`` answers the lead ``led`` under follow-and-beat."""
        self.nodes += 1
        t = self.t
        h = self.hand[f]
        ls = t.suit[led]
        same = h & t.suit_mask[ls]
        if same:
            allowed = (same & t.higher[led]) or same
        else:
            allowed = (h & self.tmask) or h
        led_trump = ls == self.trump
        lp = t.pts[led]
        st = t.strength
        # Order: winners first (most points), then the cheapest losers.
        moves = []
        m = allowed
        while m:
            b = m & -m
            j = b.bit_length() - 1
            m ^= b
            if t.suit[j] == ls:
                wins = st[j] > st[led]
            else:
                wins = (not led_trump) and t.suit[j] == self.trump
            moves.append((0 if wins else 1, -t.pts[j] if wins else t.pts[j], j, wins))
        moves.sort()
        maximize = f == 0
        best = -INF if maximize else INF
        leader = 1 - f
        pv = self.pv
        for _, _, j, wins in moves:
            if pv is not None:
                pv[ply + 1] = []
            w = f if wins else leader
            gain = lp + t.pts[j]
            # Play the trick.
            self.hand[f] &= ~(1 << j)
            old_pts, old_pend, old_trick = self.pts[w], self.pend[w], self.trick[w]
            self.pts[w] += gain + old_pend
            self.pend[w] = 0
            self.trick[w] = True
            if self.pts[w] >= t.win:
                v = self._reached(w)
            elif not self.hand[f]:
                v = self._out_of_cards(w)
            else:
                v = self.lead(w, alpha, beta, ply + 1)
            self.pts[w], self.pend[w], self.trick[w] = old_pts, old_pend, old_trick
            self.hand[f] |= 1 << j
            if maximize:
                if v > best:
                    best = v
                    if pv is not None:
                        pv[ply] = [(j, False), *pv[ply + 1]]
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if pv is not None:
                        pv[ply] = [(j, False), *pv[ply + 1]]
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        return best


def strict(state: SchnapsenState) -> bool:
    """The solver applies: follow-and-beat rules (closed or exhausted stock), deal not over."""
    return not state.over and (state.closed_by is not None or not state.stock)


def solve_values(rules: SchnapsenRules, state: SchnapsenState, seat: int) -> tuple[dict[Action, int], int]:
    """Exact signed game points for ``seat`` of every legal action, and the nodes searched.

    Every root action gets a full window, so each value is exact (not just a bound)."""
    if not strict(state):
        raise ValueError("the exact solver needs a closed or exhausted stock")
    s = Solver(rules, state)
    t = s.t
    sign = 1 if seat == 0 else -1
    out: dict[Action, int] = {}
    p = state.to_act
    for a in rules.legal_actions(state):
        if state.led is None:
            if a.kind != "play":
                continue  # no exchange or close once the stock is closed or gone
            v = s.play_lead(p, t.bit[a.played], bool(a.arg("marriage", False)), -INF, INF)
        else:
            # Play the follow as a one-move search: restrict the hand to that card.
            j = t.bit[a.played]
            v = _follow_with_rest(s, p, t.bit[state.led], j, s.hand[p] & ~(1 << j))
        out[a] = sign * v
    return out, s.nodes


def _follow_with_rest(s: Solver, f: int, led: int, j: int, rest: int, alpha: int = -INF, beta: int = INF) -> int:
    """Value of follower ``f`` playing bit ``j`` on ``led``, the rest of its hand being ``rest``."""
    t = s.t
    ls = t.suit[led]
    if t.suit[j] == ls:
        wins = t.strength[j] > t.strength[led]
    else:
        wins = ls != s.trump and t.suit[j] == s.trump
    w = f if wins else 1 - f
    saved = (s.hand[f], s.pts[w], s.pend[w], s.trick[w])
    s.hand[f] = rest
    s.pts[w] += t.pts[led] + t.pts[j] + s.pend[w]
    s.pend[w] = 0
    s.trick[w] = True
    if s.pts[w] >= t.win:
        v = s._reached(w)
    elif not rest:
        v = s._out_of_cards(w)
    else:
        v = s.lead(w, alpha, beta)
    s.hand[f], s.pts[w], s.pend[w], s.trick[w] = saved
    return v


def best_action(rules: SchnapsenRules, state: SchnapsenState, legal: list[Action]) -> Action:
    """The solver's move for the seat to act, found with one alpha-beta search (cheaper than
    :func:`solve_values`: only the best move's value is exact). Ties go to the move ordering's
    first choice (marriages, winners, high cards)."""
    s = Solver(rules, state)
    t = s.t
    p = state.to_act
    sign = 1 if p == 0 else -1
    alpha = -INF
    best: tuple[int, bool] | None = None
    if state.led is None:
        for i, marry in s._lead_moves(s.hand[p]):
            # Negamax-style window on seat p's value: v_p = sign * v0.
            v = sign * s.play_lead(p, i, marry, *((alpha, INF) if sign > 0 else (-INF, -alpha)))
            if best is None or v > alpha:
                best, alpha = (i, marry), v
    else:
        led = t.bit[state.led]
        for a in legal:
            j = t.bit[a.played]
            v = sign * _follow_with_rest(
                s, p, led, j, s.hand[p] & ~(1 << j), *((alpha, INF) if sign > 0 else (-INF, -alpha))
            )
            if best is None or v > alpha:
                best, alpha = (j, False), v
    if best is None:
        raise ValueError("the solver found no move")
    card, marry = t.cards[best[0]], best[1]
    for a in legal:
        if a.card is card and a.arg("marriage", False) == marry:
            return a
    return legal[0]


def line(rules: SchnapsenRules, state: SchnapsenState) -> list[tuple[Card, bool]]:
    """Perfect play from ``state`` to the end of the deal, both seats: (card, declares a
    marriage) per half-move, found with one full-window alpha-beta search that keeps its
    principal variation. A playout plays it instead of asking :func:`best_action` before every
    move (which searched the same subtrees again: about 2.4 searches per playout). Where a
    transposition table entry (most often a shared one, :func:`shared_tables`) settled a
    later position, the line stops there, after at least one move: ask again from there."""
    if not strict(state):
        raise ValueError("the exact solver needs a closed or exhausted stock")
    s = Solver(rules, state)
    s.pv = [[] for _ in range(2 * len(state.hands[state.to_act]) + 3)]
    p = state.to_act
    if state.led is None:
        s.lead(p, -INF, INF)
    else:
        s.follow(p, s.t.bit[state.led], -INF, INF)
    cards = s.t.cards
    return [(cards[i], marry) for i, marry in s.pv[0]]


def last_open_trick(state: SchnapsenState) -> bool:
    """The last trick before the stock runs out: one face-down card and the indicator left,
    so who draws which is settled by the trick itself."""
    return len(state.stock) == 2 and state.closed_by is None and not state.over


def _last_open_search(rules: SchnapsenRules, state: SchnapsenState, alpha: int, beta: int) -> tuple[int, Action | None]:
    """Signed game points for seat 0 with perfect play from ``state`` (the last open trick or
    later; exact inside the window (alpha, beta), a bound outside it), and the best move of
    the seat to act while the trick is open (ties: the first legal one)."""
    if state.over:
        gp = rules.deal_result(state).points
        return gp[0] - gp[1], None
    if strict(state):
        s = Solver(rules, state)
        p = state.to_act
        if state.led is None:
            return s.lead(p, alpha, beta), None
        return s.follow(p, s.t.bit[state.led], alpha, beta), None
    maximize = state.to_act == 0
    best, best_move = (-INF, None) if maximize else (INF, None)
    for a in rules.legal_actions(state):
        if a.kind == "close":
            continue
        child = rules.clone(state)
        rules.apply(child, a, check=False)
        v, _ = _last_open_search(rules, child, alpha, beta)
        if (v > best) if maximize else (v < best):
            best, best_move = v, a
            if maximize:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        if alpha >= beta:
            break
    return best, best_move


def last_open_best(rules: SchnapsenRules, state: SchnapsenState, legal: list[Action]) -> Action:
    """The move of the seat to act in the last open trick under perfect play by both (the
    determinization's hands, the draws that follow settled by the trick). Ties keep the
    first legal move in order."""
    _, move = _last_open_search(rules, state, -INF, INF)
    return move if move is not None else legal[0]
