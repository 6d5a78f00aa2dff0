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
from game.ai.determinize import check_count, hidden_cards, split_hidden
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

#: The levels' settings in Schnapsen (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Normal: the search saturates at a few hundred iterations — hard vs normal was -0.20 ±
    # 0.15 game points per deal at 700 iterations, -0.11 ± 0.15 at 200, +0.03 ± 0.12 without
    # the exact solver (docs/AI.md) — so normal makes small human slips instead: a softmax over
    # the searched values (temperature 0.06 ≈ 0.2 game points), never further than
    # ``blunder_margin`` below the best; its playouts also leave the strict phase to the
    # heuristic (hard solves it exactly).
    "normal": {"playout_kw": {"solved": False}, "temperature": 0.06},
    "easy": {"playout_kw": {"solved": False}},
}


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
    hidden = hidden_cards(view.unseen)
    need = view.opponent_count - len(known)
    stock_hidden = view.stock_count - 1 if view.stock_count else 0
    if need < 0:
        raise ValueError(f"the opponent holds {view.opponent_count} cards but {len(known)} are known")
    check_count(hidden, need + stock_hidden, "the opponent and stock")
    drawn, stock = split_hidden(rng, hidden, need, excluded(rules, view))
    opp_hand = known + drawn
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
                # Sure winner against the (determinized) opponent hand: cash it. (Inlined: the
                # same answer as any(follower_wins) over rules.strict_follows, which costs the
                # heuristic playout about 20 %, measured.)
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
    for a in legal:
        c = a.card
        gain = lp + pts[c]
        if rules.follower_wins(led, c, trump):
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


# ---------------------------------------------------------------------- the suggestion's reason
def reason(rules: SchnapsenRules, view: SchnapsenView, action: Action) -> tuple[str, dict] | None:
    """One line on why a move is good (game.ai.suggest): the exchange, a close, a marriage,
    reaching 66, a sure trick, trumping in, nothing given away; None else."""
    trump, pts = view.trump, rules.points
    if action.kind == "exchange":
        return ("suggest.reason.exchange", {"card": view.indicator.code} if view.indicator else {})
    if action.kind == "close":
        return ("suggest.reason.close", {})
    c = action.card
    if action.kind != "play" or c is None:
        return None
    if action.marriage:
        value = rules.trump_marriage_value if c.suit == trump else rules.marriage_value
        return ("suggest.reason.marriage", {"points": value})
    if evaluate(rules, view, action) >= WIN_BONUS:
        return ("suggest.reason.reaches", {"points": rules.win_points})
    led = view.led
    if led is None:
        return None
    if rules.follower_wins(led, c, trump):
        if c.suit == trump and led.suit != trump:
            return ("suggest.reason.trumps", {"card": led.code, "points": pts[led] + pts[c]})
        return ("suggest.reason.sure_trick", {"points": pts[led] + pts[c]})
    if pts[c] == min(pts[x] for x in view.hand):
        return ("suggest.reason.gives_least", {})
    return None
