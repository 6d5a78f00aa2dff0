"""Search hooks for Schnapsen: determinize, utility, playout policy, prior, exact endgame.

What a seat knows beyond its hand and the table (all of it is in the view):

- the face-up indicator while the stock lies there;
- cards the opponent is known to hold (a marriage partner shown, the indicator taken by an
  exchange or in the last draw): ``view.known_opponent``;
- under the strict rules (stock closed or exhausted) every follow the opponent made is a clue:
  a card of another suit means no card of the led suit, and — if it was not a trump — no trump
  either; a lower card of the led suit means no card of that suit that beats the lead. After
  the stock is closed or gone the opponent draws nothing, so these clues hold for the rest of
  the deal. The tricks played under the strict rules are the ones after the stock reached its
  current size (closing freezes it; exhaustion empties it).

Determinizations give the opponent a uniformly random hand among those consistent with all
of this; the rest of the unseen cards lie face down in the stock over the indicator.

Once the stock is exhausted the view fixes the whole state (``complete``) and the exact
alpha-beta solver in :mod:`game.ai.schnapsen_solver` decides.
"""
from __future__ import annotations

import random

from game.ai import schnapsen_solver
from game.ai.heuristics_schnapsen import WIN_BONUS, evaluate
from game.cards import Card
from game.rules.base import Action
from game.rules.schnapsen import SchnapsenRules, SchnapsenState, SchnapsenView

#: Card-point tiebreak weight: a deal's game points dominate; among equal outcomes more card
#: points (a better Schneider margin next time, a safer lead) are slightly preferred.
TIEBREAK = 0.03
#: Chance that the playout plays a random card instead of the heuristic's choice.
EPSILON = 0.1
#: Playouts finish the strict phase (closed or exhausted stock) with the exact solver's moves.
SOLVED_PLAYOUTS = True


# ---------------------------------------------------------------------- determinization
def strict_tricks_from(rules: SchnapsenRules, view: SchnapsenView) -> int | None:
    """Index of the first trick played under the strict rules, None while the stock is open."""
    if view.closed_by is None and view.stock_count:
        return None
    initial_stock = len(view.deck) - 10  # five cards each were dealt
    return (initial_stock - view.stock_count) // 2


def excluded(rules: SchnapsenRules, view: SchnapsenView) -> set[Card]:
    """Cards the opponent cannot hold, from its follows under the strict rules."""
    first = strict_tricks_from(rules, view)
    out: set[Card] = set()
    if first is None:
        return out
    opp = 1 - view.seat
    hist = view.history
    trump = view.trump
    strength = rules.strength
    deck = view.deck
    for k in range(first, len(hist) // 2):
        (_leader, led), (follower, f) = hist[2 * k], hist[2 * k + 1]
        if follower != opp:
            continue
        ls = led.suit
        if f.suit == ls:
            if strength[f] < strength[led]:
                # Followed lower: could not beat.
                out.update(c for c in deck if c.suit == ls and strength[c] > strength[led])
        else:
            out.update(c for c in deck if c.suit == ls)
            if f.suit != trump:
                out.update(c for c in deck if c.suit == trump)
    return out


def determinize(rules: SchnapsenRules, view: SchnapsenView, rng: random.Random) -> SchnapsenState:
    """A full state with this view: the opponent's unknown cards drawn at random from the unseen
    cards it may hold, the rest face down in the stock."""
    me = view.seat
    opp = 1 - me
    known = list(view.known_opponent)
    # Sorted first: a frozenset's order is not reproducible, the bot's rng must be.
    hidden = sorted(view.unseen, key=lambda c: c.index)
    need = view.opponent_count - len(known)
    stock_hidden = view.stock_count - 1 if view.stock_count else 0
    if need + stock_hidden != len(hidden) or need < 0:
        raise ValueError(f"the view hides {len(hidden)} cards but the opponent and stock hold {need + stock_hidden}")
    ex = excluded(rules, view)
    if ex:
        allowed = [c for c in hidden if c not in ex]
        forced = [c for c in hidden if c in ex]
        if len(allowed) < need:  # cannot happen in a real deal; never fail a decision over it
            allowed, forced = hidden, []
        rng.shuffle(allowed)
        opp_hand = known + allowed[:need]
        stock = allowed[need:] + forced
        rng.shuffle(stock)
    else:
        rng.shuffle(hidden)
        opp_hand = known + hidden[:need]
        stock = hidden[need:]
    if view.indicator is not None:
        stock.append(view.indicator)
    hands: list[list[Card]] = [[], []]
    hands[me] = list(view.hand)
    hands[opp] = opp_hand
    won = [list(view.won[0]), list(view.won[1])]
    pts = rules.points
    card_points = [sum(pts[c] for c in won[0]), sum(pts[c] for c in won[1])]
    declared = [0, 0]
    for seat, _suit, p in view.marriages:
        declared[seat] += p
    pending = list(view.pending)
    marriage_points = [declared[0] - pending[0], declared[1] - pending[1]]
    # What the opponent knows of this seat's hand (a marriage partner still held).
    partner = rules.partner
    mine_known = [partner[c] for c in view.hand if c in partner and partner[c] in view.hand
                  and any(s == me and su == c.suit for s, su, _ in view.marriages)]
    known_lists: list[list[Card]] = [[], []]
    known_lists[opp] = list(known)
    known_lists[me] = mine_known
    closure = view.closure
    return SchnapsenState(
        dealer=view.dealer, number=1, hands=hands, stock=stock, trump=view.trump,
        # The indicator field only feeds the deal record; once drawn any trump stands in for it.
        indicator=view.indicator if view.indicator is not None else next(c for c in view.deck if c.suit == view.trump),
        leader=view.leader, to_act=view.to_act, led=view.led, closed_by=view.closed_by,
        closure_points=closure[0] if closure else 0, closure_trick=closure[1] if closure else False,
        won=won, card_points=card_points, marriage_points=marriage_points, pending=pending,
        known=known_lists, marriages=list(view.marriages), history=list(view.history),
    )


# ---------------------------------------------------------------------- values
def utilities(rules: SchnapsenRules, state: SchnapsenState) -> list[float]:
    """Per seat: ± game points / 3, plus a small card-point margin tiebreak."""
    gp = rules.deal_result(state).points
    u0 = (gp[0] - gp[1]) / 3.0 + TIEBREAK * (state.points(0) - state.points(1)) / 66.0
    return [u0, -u0]


def utility(rules: SchnapsenRules, state: SchnapsenState, seat: int) -> float:
    return utilities(rules, state)[seat]


def complete(rules: SchnapsenRules, view: SchnapsenView) -> bool:
    """The stock is exhausted: the opponent holds exactly the unseen and known cards."""
    return view.stock_count == 0


def solve(rules: SchnapsenRules, state: SchnapsenState, seat: int):
    """Exact values by alpha-beta (see :mod:`game.ai.schnapsen_solver`)."""
    return schnapsen_solver.solve(rules, state, seat)


# ---------------------------------------------------------------------- playouts
def _worth(rules: SchnapsenRules, c: Card, trump: str) -> float:
    """What spending card ``c`` costs beyond its points: strength, and more for a trump."""
    w = rules.strength[c] * 0.6
    if c.suit == trump:
        w += 7.0
    return w


def rollout(rules: SchnapsenRules, state: SchnapsenState, legal: list[Action], rng: random.Random, *,
            solved: bool | None = None, epsilon: float = EPSILON) -> Action:
    """A fast greedy playout policy on the full (determinized) state: exchange, declare the best
    marriage, lead cheap cards (or sure winners under the strict rules), win valuable tricks
    with the cheapest winner, throw the cheapest card otherwise. It never closes.

    ``solved`` (default SOLVED_PLAYOUTS): play the strict phase with the exact solver's moves;
    False keeps the heuristic there too (the lower levels' weaker playout)."""
    strict = state.closed_by is not None or not state.stock
    if strict and (SOLVED_PLAYOUTS if solved is None else solved):
        # Both hands are fixed in a determinization: play the endgame perfectly (PIMC-style).
        return schnapsen_solver.best_action(rules, state, legal)
    if rng.random() < epsilon:
        a = legal[rng.randrange(len(legal))]
        if a.kind != "close":
            return a
    trump = state.trump
    pts = rules.points
    p = state.to_act
    led = state.led
    if led is None:
        best = None
        best_v = -1e9
        hand = state.hands[p]
        opp = state.hands[1 - p]
        for a in legal:
            k = a.kind
            if k == "exchange":
                return a
            if k != "play":
                continue
            c = a.card
            if a.marriage:
                v = 100.0 + (40 if c.suit == trump else 20) + (0.5 if c.rank == "Q" else 0)
            elif strict:
                # Sure winner against the (determinized) opponent hand: cash it.
                beaten = False
                has_suit = False
                st = rules.strength
                for o in opp:
                    if o.suit == c.suit:
                        has_suit = True
                        if st[o] > st[c]:
                            beaten = True
                            break
                if not beaten and not has_suit and c.suit != trump:
                    beaten = any(o.suit == trump for o in opp)
                v = 20.0 + pts[c] if not beaten else -pts[c] - _worth(rules, c, trump)
            else:
                v = -pts[c] - _worth(rules, c, trump)
                q = rules.partner.get(c)
                if q is not None and q in hand:
                    v -= 12.0  # keep a marriage together
            v += rng.random() * 0.5
            if v > best_v:
                best_v, best = v, a
        return best if best is not None else legal[0]
    # Following.
    need = rules.win_points - state.points(p) - state.pending[p]
    lp = pts[led]
    best = legal[0]
    best_v = -1e9
    ls = led.suit
    st = rules.strength
    for a in legal:
        c = a.card
        if c.suit == ls:
            wins = st[c] > st[led]
        else:
            wins = c.suit == trump
        gain = lp + pts[c]
        if wins:
            if gain >= need:
                v = 1000.0
            elif not strict and c.suit == trump and ls != trump and lp < 10:
                v = -pts[c] - _worth(rules, c, trump)  # not worth a trump
            else:
                v = gain - 0.5 * _worth(rules, c, trump)
        else:
            v = -pts[c] - 0.3 * _worth(rules, c, trump) - lp * 0.2
        v += rng.random() * 0.5
        if v > best_v:
            best_v, best = v, a
    return best


# ---------------------------------------------------------------------- prior
def prior(rules: SchnapsenRules, view: SchnapsenView, action: Action) -> float:
    """The greedy evaluation, scaled; a move that reaches 66 now is obvious (>= 1)."""
    v = evaluate(rules, view, action)
    if v >= WIN_BONUS:
        return 1.5
    return max(-0.9, min(0.9, v / 100.0))
