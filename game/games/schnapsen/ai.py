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
alpha-beta solver in :mod:`game.games.schnapsen.solver` decides.
"""

from __future__ import annotations

import math
import random
from contextlib import AbstractContextManager

from game.ai.determinize import check_count, hidden_cards, last_play_index, sample_by_likelihood, split_hidden, without
from game.cards import Card
from game.games.schnapsen import solver as schnapsen_solver
from game.games.schnapsen.heuristics import WIN_BONUS, evaluate
from game.games.schnapsen.rules import SchnapsenRules, SchnapsenState, SchnapsenView
from game.rules.base import Action

#: Card-point tiebreak weight: a deal's game points dominate; among equal outcomes more card
#: points (a better Schneider margin next time, a safer lead) are slightly preferred.
TIEBREAK = 0.03
#: Weight of winning the deal at all beside its game points: the utility of a seat's signed
#: game points g (−3..3) is (1 − WIN_WEIGHT)·g/3 + WIN_WEIGHT·sign(g). Why: a sure 1 against
#: a gamble for 2 or 3 — a deal won is a step to the Bummerl, and a lost one can be worse than
#: the points say. 0 counts game points only. (The solver's minimax is unchanged: the map is
#: monotone.)
WIN_WEIGHT = 0.0
#: Chance that the playout plays a random card instead of the heuristic's choice.
EPSILON = 0.1
#: The open-stock playout policy's knobs (bench/schnapsen_policy.py plays it as a player; docs/AI.md,
#: its measurements: better as a player, not measurably better inside the search, so the
#: four bonuses are off). TRUMP_IN: the least a lead must be worth (card points) for a trump
#: to take it.
TRUMP_IN = 10
#: The open-stock follow policy's bonus for winning the trick while holding a marriage it
#: could declare on the lead it wins; 0 turns it off.
MARRIAGE_LEAD = 0.0
#: The open-stock follow policy's price on losing a trick that brings the leader to 66, and its
#: bonus (per point) for winning a trick while the leader's marriage points wait for a trick of
#: his; 0 turns each off.
DEFEND = 0.0
DENY_PENDING = 0.0
#: The open-stock lead policy's bonus for a lead no unseen card of its suit beats and too cheap
#: for a trump (TRUMP_IN): a trick kept without spending strength. 0 turns it off.
SAFE_LEAD = 0.0
#: Playouts finish the strict phase (closed or exhausted stock) with the exact solver's moves.
SOLVED_PLAYOUTS = True
#: Solved playouts also play the last open trick exactly (stock: one face-down card and the
#: indicator, so the draws that follow are known to the determinization): each move by
#: minimax over that trick, the strict phase after it solved. Off: the rollout's policy.
LAST_OPEN_SOLVED = False

#: Card reading while the stock is open: the opponent's hand is drawn in proportion to how
#: likely his last play was from it, under the rollout's policy as a model of a sensible player
#: (a softmax READ_TEMPERATURE policy points wide, mixed with READ_UNIFORM random play).
#: Why: a player who throws a Jack on your Ace rather than trumping it most likely holds no
#: small trump; one who leads a King without declaring most likely lacks its Queen.
#: Rejection sampling, at most READ_TRIES draws.
CARD_READING = True
READ_TEMPERATURE = 3.0
READ_UNIFORM = 0.15
READ_TRIES = 24

#: The levels' settings in Schnapsen (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Hard: the opponent's nodes reply as the playout policy would with the hand each
    # determinization gives him (plus his close: reply_options), at 1400 iterations, which
    # cost about what the plain tree's 2200 did. Against the plain 2200 in our engine +0.130 ±
    # 0.098 game points a deal (100 seeds, 201) and 18 % less time a decision; against
    # RdeepBot 0.730-0.747 in three fresh runs of 600 games (0.741 pooled), where the plain
    # tree made 0.710-0.723 (bench/schnapsen_adapter.py; docs/AI.md). UCB's
    # exploration c = 0.3 (the search's default 0.5; with the opponent model it acts on my own
    # nodes and his close): against RdeepBot, paired on the same deals, +0.027 ± 0.016 win
    # rate on tuning seeds and +0.000 ± 0.016 on fresh ones; in our engine +0.025 ± 0.080 game
    # points a deal against c = 0.5; the same time. With it 0.724 of 3000 fresh games against
    # RdeepBot (docs/AI.md). The opponent model 0.75 (three
    # replies in four the policy's, the fourth UCB's from the shared statistics): against
    # RdeepBot, paired, +0.017 ± 0.018 win rate on tuning seeds and +0.033 ± 0.015 on fresh
    # ones; in our engine +0.065 ± 0.083 game points a deal against 1.0; the same time; 0.733
    # of 3600 fresh games against RdeepBot. The model at 0.5 (half his replies the policy's):
    # against 0.75, paired, +0.008 ± 0.017 win rate on tuning seeds and +0.007 ± 0.018 on
    # fresh ones; in our engine -0.010 ± 0.088 game points a deal; the same time. The level as
    # shipped: 0.725 of 3000 fresh games against RdeepBot (docs/AI.md;
    # the goal, 0.75, not met).
    "hard": {"iterations": 1400, "opponent_policy": 0.5, "c": 0.3},
    # Normal: the search saturates at a few hundred iterations — hard vs normal was -0.20 ±
    # 0.15 game points per deal at 700 iterations, -0.11 ± 0.15 at 200, +0.03 ± 0.12 without
    # the exact solver (docs/AI.md) — so normal makes small human slips instead: a softmax over
    # the searched values (temperature 0.1 ≈ 0.3 game points), never further than
    # ``blunder_margin`` below the best; its playouts also leave the strict phase to the
    # heuristic (hard solves it exactly). At 0.06 the two levels drew apart by only +0.08 ±
    # 0.24 game points per deal once both read the opponent's cards (20 seeds).
    "normal": {"playout_kw": {"solved": False}, "temperature": 0.1},
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


def _last_clue(rules: SchnapsenRules, view: SchnapsenView) -> tuple[Card, Card | None, bool] | None:
    """The opponent's most recent play while the stock was open: (card, the card it answered or
    None when it led, whether he has drawn a card since). None when there is nothing to read:
    no play yet, a declared marriage, or a play under the strict rules (``excluded`` reads
    those exactly)."""
    opp = 1 - view.seat
    hist = view.history
    j = last_play_index(hist, opp)
    if j is None:
        return None
    trick = j // 2
    first_strict = strict_tricks_from(rules, view)
    if first_strict is not None and trick >= first_strict:
        return None
    card = hist[j][1]
    led = None if j % 2 == 0 else hist[j - 1][1]
    if led is None and card.rank in ("K", "Q") and any(s == opp and su == card.suit for s, su, _ in view.marriages):
        return None  # a declared marriage: its partner is known, nothing more to read
    drew = trick < len(hist) // 2  # the trick is complete, and the stock was open: he drew
    return card, led, drew


def _clue_weights(rules: SchnapsenRules, view: SchnapsenView, clue: tuple) -> dict[Card, float]:
    """Each card's softmax weight exp(value / READ_TEMPERATURE) as the clue's play (the
    rollout's values, shifted so none overflows), for every card he may have held; cached per
    view, since every determinization of one decision reads the same clue."""
    cached = _read_cache.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]
    card, led, _ = clue
    trump = view.trump
    opp = 1 - view.seat
    pool = [card, *view.known_opponent, *hidden_cards(view.unseen)]
    if led is None:
        vals = {x: -rules.points[x] - _worth(rules, x, trump) for x in pool}
    else:
        need = (
            rules.win_points
            - sum(rules.points[c] for c in view.won[opp])
            - sum(p for s, _, p in view.marriages if s == opp)
        )
        vals = {x: _follow_value(rules, led, x, trump, need, False) for x in pool}
    top = max(vals.values())
    # Floored: a play far below the best (beside a card that wins the deal) must not weigh 0,
    # or a hand of such cards divides by zero; the uniform mix dominates there anyway.
    weights = {x: max(math.exp((v - top) / READ_TEMPERATURE), 1e-12) for x, v in vals.items()}
    if len(_read_cache) > 64:
        _read_cache.clear()
    _read_cache[id(view)] = (view, weights)
    return weights


_read_cache: dict[int, tuple[SchnapsenView, dict[Card, float]]] = {}
#: A lead that breaks up a marriage, as a softmax factor (_plain_lead_value's 12 points).
_SPLIT = math.exp(-12.0 / READ_TEMPERATURE)


def _play_likelihood(
    rules: SchnapsenRules,
    view: SchnapsenView,
    weights: dict[Card, float],
    hand: list[Card],
    card: Card,
    led: Card | None,
) -> float:
    """P(the policy model plays ``card`` from ``hand`` — which includes it): a softmax over the
    rollout's values (``weights``), mixed with READ_UNIFORM random play. A lead also weighs
    keeping a marriage together and declaring it, as the rollout does."""
    n = len(hand)
    z = 0.0
    if led is None:
        partner = rules.partner
        mine = 0.0
        declarable = False
        for x in hand:
            w = weights[x]
            q = partner.get(x)
            if q is not None and q in hand:
                w *= _SPLIT
                if x.rank == "K":
                    declarable = True
                    n += 1
            z += w
            if x is card:
                mine = w
        if declarable:
            # Declaring is worth far more to the policy than any plain lead (_marriage_value):
            # the softmax leaves the plain lead he made next to nothing.
            return READ_UNIFORM / n
    else:
        for x in hand:
            z += weights[x]
        mine = weights[card]
    return (1.0 - READ_UNIFORM) * mine / z + READ_UNIFORM / n


def _clue_likelihood(rules: SchnapsenRules, view: SchnapsenView, clue: tuple, opp_hand: list[Card]) -> float:
    """How likely the opponent's last play was had he held ``opp_hand`` now (when he has drawn
    since, one of its cards is new: the likelihood is averaged over which)."""
    card, led, drew = clue
    weights = _clue_weights(rules, view, clue)
    if led is not None:
        # A follow: the softmax over {card} ∪ hand, with one card of opp_hand new when he drew
        # since — each sum is the whole hand's minus that card (linear, not quadratic).
        w_card = weights[card]
        total_w = w_card + sum(weights[x] for x in opp_hand)
        if not drew:
            return (1.0 - READ_UNIFORM) * w_card / total_w + READ_UNIFORM / (len(opp_hand) + 1)
        n = len(opp_hand)
        return (1.0 - READ_UNIFORM) * sum(w_card / (total_w - weights[x]) for x in opp_hand) / n + READ_UNIFORM / n
    if not drew:
        return _play_likelihood(rules, view, weights, [card, *opp_hand], card, led)
    total = 0.0
    for i in range(len(opp_hand)):
        total += _play_likelihood(rules, view, weights, [card, *opp_hand[:i], *opp_hand[i + 1 :]], card, led)
    return total / len(opp_hand)


def _likelihood_bound(
    rules: SchnapsenRules, view: SchnapsenView, clue: tuple, known: list[Card], hidden: list[Card], need: int
) -> float:
    """An upper bound of :func:`_clue_likelihood` over the hands ``known`` + ``need`` of
    ``hidden``: rejection sampling divides by it, so that it accepts often rather than
    running out of tries (many clues' likelihoods stay below 0.1)."""
    card, led, drew = clue
    weights = _clue_weights(rules, view, clue)
    w_card = weights[card]
    # A lead's other cards weigh at least SPLIT times their weight (a marriage kept together);
    # the card's own share only grows with its weight, so w_card bounds it.
    floor = _SPLIT if led is None else 1.0
    lightest = sorted(weights[x] for x in hidden)
    rest = sum(weights[x] for x in known)
    n = len(known) + need
    if not drew:
        least = rest + sum(lightest[:need])
        return (1.0 - READ_UNIFORM) * w_card / (w_card + floor * least) + READ_UNIFORM / (n + 1)
    # Each term leaves one card out: at best the heaviest, so n − 1 of the lightest stay.
    least = sum(sorted([*(weights[x] for x in known), *lightest[:need]])[: n - 1])
    return (1.0 - READ_UNIFORM) * w_card / (w_card + floor * least) + READ_UNIFORM / n


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
    clue = _last_clue(rules, view) if CARD_READING and need and stock_hidden else None
    if clue is None:
        drawn, stock = split_hidden(rng, hidden, need, excluded(rules, view))
    else:
        # The stock is open (a clue is read only then), so nothing is excluded.
        bound = _likelihood_bound(rules, view, clue, known, hidden, need)
        drawn = sample_by_likelihood(
            rng, hidden, need, lambda pick: _clue_likelihood(rules, view, clue, known + pick) / bound, READ_TRIES
        )
        stock = without(hidden, drawn)
        rng.shuffle(stock)
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
    mine_known = [
        partner[c]
        for c in view.hand
        if c in partner and partner[c] in view.hand and any(s == me and su == c.suit for s, su, _ in view.marriages)
    ]
    known_lists: list[list[Card]] = [[], []]
    known_lists[opp] = list(known)
    known_lists[me] = mine_known
    closure = view.closure
    return SchnapsenState(
        dealer=view.dealer,
        number=1,
        hands=hands,
        stock=stock,
        trump=view.trump,
        # The indicator field only feeds the deal record; once drawn any trump stands in for it.
        indicator=view.indicator if view.indicator is not None else next(c for c in view.deck if c.suit == view.trump),
        leader=view.leader,
        to_act=view.to_act,
        led=view.led,
        closed_by=view.closed_by,
        closure_points=closure[0] if closure else 0,
        closure_trick=closure[1] if closure else False,
        won=won,
        card_points=card_points,
        marriage_points=marriage_points,
        pending=pending,
        known=known_lists,
        marriages=list(view.marriages),
        history=list(view.history),
    )


# ---------------------------------------------------------------------- values
def utilities(rules: SchnapsenRules, state: SchnapsenState) -> list[float]:
    """Per seat: ± game points / 3, plus a small card-point margin tiebreak."""
    gp = rules.deal_result(state).points
    u0 = game_point_value(gp[0] - gp[1]) + TIEBREAK * (state.points(0) - state.points(1)) / 66.0
    return [u0, -u0]


def game_point_value(g: int) -> float:
    """The utility of ``g`` signed game points (see WIN_WEIGHT)."""
    w = WIN_WEIGHT
    return (1.0 - w) * g / 3.0 + (w if g > 0 else -w if g < 0 else 0.0)


def complete(rules: SchnapsenRules, view: SchnapsenView) -> bool:
    """The stock is exhausted: the opponent holds exactly the unseen and known cards."""
    return view.stock_count == 0


def solve(rules: SchnapsenRules, state: SchnapsenState, seat: int):
    """Exact values by alpha-beta (see :mod:`game.games.schnapsen.solver`), as utilities."""
    if not schnapsen_solver.strict(state):
        return None
    values, _ = schnapsen_solver.solve_values(rules, state, seat)
    return {a: game_point_value(v) for a, v in values.items()}


# ---------------------------------------------------------------------- playouts
def _worth(rules: SchnapsenRules, c: Card, trump: str) -> float:
    """What spending card ``c`` costs beyond its points: strength, and more for a trump."""
    w = rules.strength[c] * 0.6
    if c.suit == trump:
        w += 7.0
    return w


def _plain_lead_value(rules: SchnapsenRules, c: Card, hand, trump: str) -> float:
    """The policy's value of leading ``c`` with the stock open (no marriage): cheap cards
    first, a marriage kept together."""
    v = -rules.points[c] - _worth(rules, c, trump)
    q = rules.partner.get(c)
    if q is not None and q in hand:
        v -= 12.0
    return v


def _marriage_value(c: Card, trump: str) -> float:
    """The policy's value of declaring the marriage led with ``c``."""
    return 100.0 + (40 if c.suit == trump else 20) + (0.5 if c.rank == "Q" else 0)


def _follow_value(rules: SchnapsenRules, led: Card, c: Card, trump: str, need: int, strict: bool) -> float:
    """The policy's value of answering ``led`` with ``c`` (``need``: points still missing to
    win): take the deal, win valuable tricks cheaply, no trump on a cheap lead, else throw
    the cheapest card."""
    pts = rules.points
    lp = pts[led]
    if rules.beats(c, led, trump):
        if lp + pts[c] >= need:
            return 1000.0
        if not strict and c.suit == trump and led.suit != trump and lp < TRUMP_IN:
            return -pts[c] - _worth(rules, c, trump)  # not worth a trump
        return lp + pts[c] - 0.5 * _worth(rules, c, trump)
    return -pts[c] - 0.3 * _worth(rules, c, trump) - lp * 0.2


def _beaten_in_suit(rules: SchnapsenRules, c: Card, opp_hand: list[Card], stock: list[Card]) -> bool:
    """A card of ``c``'s suit that beats it is still out (in the other hand or the stock: the
    cards the leader has not seen, taken together, so nothing of his hand is peeked at)."""
    st = rules.strength
    s, v = c.suit, st[c]
    return any(o.suit == s and st[o] > v for o in opp_hand) or any(o.suit == s and st[o] > v for o in stock)


def rollout(
    rules: SchnapsenRules,
    state: SchnapsenState,
    legal: list[Action],
    rng: random.Random,
    *,
    solved: bool | None = None,
    epsilon: float | None = None,
) -> Action:
    """A fast greedy playout policy on the full (determinized) state: exchange, declare the best
    marriage, lead cheap cards (or sure winners under the strict rules), win valuable tricks
    with the cheapest winner, throw the cheapest card otherwise. It never closes.

    ``solved`` (default SOLVED_PLAYOUTS): play the strict phase with the exact solver's moves;
    False keeps the heuristic there too (the lower levels' weaker playout)."""
    strict = state.closed_by is not None or not state.stock
    if strict and (SOLVED_PLAYOUTS if solved is None else solved):
        # Both hands are fixed in a determinization: play the endgame perfectly (PIMC-style).
        return schnapsen_solver.best_action(rules, state, legal)
    if epsilon is None:  # read at the call, so that a tuning run's setting takes effect
        epsilon = EPSILON
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
            if c is None:
                raise ValueError("a play without a card")
            if a.arg("marriage", False):
                v = _marriage_value(c, trump)
            elif strict:
                # Sure winner against the (determinized) opponent hand: cash it. (Inlined: the
                # same answer as any(beats) over rules.strict_follows, which costs the
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
                v = _plain_lead_value(rules, c, hand, trump)
                if (
                    SAFE_LEAD
                    and c.suit != trump
                    and pts[c] < TRUMP_IN
                    and not _beaten_in_suit(rules, c, opp, state.stock)
                ):
                    v += SAFE_LEAD
            v += rng.random() * 0.5
            if v > best_v:
                best_v, best = v, a
        return best if best is not None else legal[0]
    # Following.
    need = rules.win_points - state.points(p) - state.pending[p]
    best = legal[0]
    best_v = -1e9
    other = 1 - p
    his = state.points(other) + state.pending[other] + pts[led]
    defend = DEFEND if not strict else 0.0
    deny = DENY_PENDING * state.pending[other] if not strict else 0.0
    want_lead = MARRIAGE_LEAD if not strict else 0.0
    hand = state.hands[p]
    partner = rules.partner
    for a in legal:
        c = a.card
        if c is None:
            raise ValueError("a follow without a card")
        v = _follow_value(rules, led, c, trump, need, strict) + rng.random() * 0.5
        if (defend or deny) and v < 1000.0:
            if rules.beats(c, led, trump):
                v += deny
            elif defend and his + pts[c] >= rules.win_points:
                v -= defend  # losing this trick hands him the deal
        if (
            want_lead
            and v < 1000.0
            and rules.beats(c, led, trump)
            and any(x.rank == "K" and x is not c and partner[x] in hand and partner[x] is not c for x in hand)
        ):
            v += want_lead
        if v > best_v:
            best_v, best = v, a
    return best


def playout(
    rules: SchnapsenRules,
    state: SchnapsenState,
    rng: random.Random,
    trace: list | None = None,
    *,
    solved: bool | None = None,
    epsilon: float | None = None,
) -> None:
    """The deal played to its end in place: the rollout's policy while the stock is open, then
    (``solved``, default SOLVED_PLAYOUTS) the exact solver's line for both seats, found with
    one search (:func:`schnapsen_solver.line`) rather than one per move."""
    solve_strict = SOLVED_PLAYOUTS if solved is None else solved
    apply = rules.apply
    while not state.over:
        legal = rules.legal_actions(state)
        if solve_strict and schnapsen_solver.strict(state):
            for c, marry in schnapsen_solver.line(rules, state):
                a = next(x for x in rules.legal_actions(state) if x.card is c and x.arg("marriage", False) == marry)
                apply(state, a, check=False)
                if trace is not None:
                    trace.append(a)
            continue
        if len(legal) == 1:
            a = legal[0]
        elif solve_strict and LAST_OPEN_SOLVED and schnapsen_solver.last_open_trick(state):
            a = schnapsen_solver.last_open_best(rules, state, legal)
        else:
            a = rollout(rules, state, legal, rng, solved=False, epsilon=epsilon)
        apply(state, a, check=False)
        if trace is not None:
            trace.append(a)


# ---------------------------------------------------------------------- prior
def prior(rules: SchnapsenRules, view: SchnapsenView, action: Action) -> float:
    """The greedy evaluation, scaled; a move that reaches 66 now is obvious (>= 1)."""
    v = evaluate(rules, view, action)
    if v >= WIN_BONUS:
        return 1.5
    return max(-0.9, min(0.9, v / 100.0))


def perfect_information(rules: SchnapsenRules, state: SchnapsenState) -> bool:
    """The stock is exhausted (not closed): each seat holds exactly the cards it has not seen
    played, so both know every card from here on (a closed stock keeps its cards hidden)."""
    return not state.stock and state.closed_by is None and not state.over


def search_scope(rules: SchnapsenRules, view: SchnapsenView) -> AbstractContextManager[None]:
    """One search's playouts share the exact solver's transposition tables."""
    return schnapsen_solver.shared_tables()


def observation(rules: SchnapsenRules, state: SchnapsenState, seat: int) -> frozenset[Card]:
    """What ``seat`` sees at its own decision beyond the moves played: its hand (the cards it
    drew from the stock since the search's root)."""
    return frozenset(state.hands[seat])


#: The opponent model predicts his leads while the stock is open too (False: UCB weighs all
#: those leads, the model only his follows and the strict phase). A tuning knob.
MODEL_LEADS = True


def reply_options(rules: SchnapsenRules, state: SchnapsenState, legal: list[Action], reply: Action) -> list[Action]:
    """The opponent model's replies (game.ai.search, ``opponent_policy``): the playout policy's
    move and, since the policy never closes, his close where it is legal, so that the search
    still weighs the opponent closing the stock on us."""
    if not MODEL_LEADS and state.led is None and state.stock and state.closed_by is None:
        return list(legal)
    return [reply] + [a for a in legal if a.kind == "close" and a != reply]


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
    if action.arg("marriage", False):
        value = rules.trump_marriage_value if c.suit == trump else rules.marriage_value
        return ("suggest.reason.marriage", {"points": value})
    if evaluate(rules, view, action) >= WIN_BONUS:
        return ("suggest.reason.reaches", {"points": rules.win_points})
    led = view.led
    if led is None:
        return None
    if rules.beats(c, led, trump):
        if c.suit == trump and led.suit != trump:
            return ("suggest.reason.trumps", {"card": led.code, "points": pts[led] + pts[c]})
        return ("suggest.reason.sure_trick", {"points": pts[led] + pts[c]})
    if pts[c] == min(pts[x] for x in view.hand):
        return ("suggest.reason.gives_least", {})
    return None
