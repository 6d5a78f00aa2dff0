"""Search hooks for Briscola (2 players, or 4 in partnerships): determinize, utilities, the
playout policy, the prior, card reading and the exact solver for the end of the deal.

Briscola has no duty to follow suit or to trump, so play gives no hard clue about a hand.
What a seat knows beyond its hand and the table: the turned trump lies under the stock (drawn
last), and once drawn it is in the drawer's hand until played (``view.opponent_known``).
Determinizations deal the other unseen cards at random into the other hands and the face
down part of the stock (the hand of the player who made the last play drawn in proportion to
how well it explains that play: card reading).

The end of the deal is solved exactly (``complete`` / ``solve``). Two players: once the stock
is gone the view fixes the state; with one or two draws left every (or a fixed sample of)
deal of the unseen cards is solved. Four players: once the stock is gone the other three
hands still share the unseen cards, so ``solve`` averages the exact values over the deals of
them (all of them when few, else a fixed sample: PIMC with exact play), within a node budget.
With four players a seat maximises its team's points (seats 0 + 2 against 1 + 3).
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import combinations

from game.ai.determinize import check_count, hidden_cards, last_play_index, sample_by_likelihood, split_hidden, without
from game.cards import Card
from game.games.briscola.heuristics import (
    AHEAD,
    AHEAD_TRUMP,
    BEHIND,
    after_me,
    evaluate,
    follow_value,
    nobody_beats,
    play_value,
    trick_so_far,
)
from game.games.briscola.rules import BriscolaRules, BriscolaState, BriscolaView
from game.rules.base import Action

#: Utility = WIN_WEIGHT · sign(margin) + (1 − WIN_WEIGHT) · margin / 120: winning the deal
#: matters most, but a bigger margin still counts (match play, and a cushion against bad luck).
WIN_WEIGHT = 0.5
#: Chance that the playout plays a random card instead of the greedy one.
EPSILON = 0.1
#: Keeping a trump is worth this plus a little per strength (it wins a trick later).
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.6

#: The levels' settings in Briscola (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Hard: flat Monte Carlo (tree depth 1). The full tree fuses the opponent's replies over
    # all the hands he might hold; the playout policy answers with the hand each sample gives
    # him, a better model of a real player — measured +12.7 ± 3.0 card points per deal against
    # greedy, the full tree +8.1 ± 3.1 on the same 40 seeds (docs/AI.md).
    "hard": {"tree_depth": 1},
    # Normal: a smaller budget and playouts that play the last tricks by the policy (hard
    # finishes them exactly): 700 iterations with exact finishes was only +3.7 ± 2.5 card
    # points per deal below hard (docs/AI.md).
    "normal": {"iterations": 300, "playout_kw": {"exact": False}},
}


#: Card reading: determinizations are weighted by how likely the opponent's last play was
#: from the hand they give him, under a "sensible player" model (a softmax over the greedy
#: evaluation, TEMPERATURE card points wide, mixed with UNIFORM random play). Why: a player
#: who lets your Ace go without trumping it most likely holds no trump; one who leads a Three
#: most likely holds nothing cheaper. Rejection sampling, at most READ_TRIES draws.
CARD_READING = True
TEMPERATURE = 2.5
UNIFORM = 0.15
READ_TRIES = 24
#: Two players: cards drawn from the stock before it runs out: 34 cards, two per trick,
#: tricks 0–16 (four players: 28 cards, four per trick, tricks 0–6 — ``_last_draw_trick``).
_LAST_DRAW_TRICK = 16


def _last_draw_trick(rules: BriscolaRules) -> int:
    """The last trick after which the players draw (counted from 0)."""
    return rules.stock_size // rules.players - 1


def _play_likelihood(rules: BriscolaRules, hand: list[Card], played: Card, led: Card | None, trump: str) -> float:
    """P(the model plays ``played`` from ``hand``) — hand includes the played card."""
    vals = [play_value(rules, x, led, trump) for x in hand]
    top = max(vals)
    z = 0.0
    mine = 0.0
    for x, v in zip(hand, vals):
        e = math.exp((v - top) / TEMPERATURE)
        z += e
        if x is played:
            mine = e
    return (1.0 - UNIFORM) * mine / z + UNIFORM / len(hand)


def _last_clue(view: BriscolaView) -> tuple[Card, Card | None, bool] | None:
    """The opponent's most recent play: (card, the card it answered or None when it led,
    whether it has drawn one card since). None before he has played."""
    opp = 1 - view.seat
    hist = view.history
    j = last_play_index(hist, opp)
    if j is None:
        return None
    led = None if j % 2 == 0 else hist[j - 1][1]
    trick = j // 2
    completed = len(hist) // 2
    drew = trick < completed and trick <= _LAST_DRAW_TRICK
    return hist[j][1], led, drew


def _clue_likelihood(rules: BriscolaRules, view: BriscolaView, clue: tuple[Card, Card | None, bool],
                     opp_hand: list[Card]) -> float:
    """How likely the opponent's last play was had he held ``opp_hand`` now."""
    card, led, drew = clue
    if not drew:
        return _play_likelihood(rules, [card, *opp_hand], card, led, view.trump_suit)
    if view.stock_count == 0 and view.trump_drawn_by == 1 - view.seat and view.trump_card in opp_hand:
        # The last draw gave him the turned trump: the rest of his hand he held before.
        before = [x for x in opp_hand if x is not view.trump_card]
        return _play_likelihood(rules, [card, *before], card, led, view.trump_suit)
    # One of his cards is new, we do not know which: average over the three.
    total = 0.0
    for i in range(len(opp_hand)):
        total += _play_likelihood(rules, [card, *opp_hand[:i], *opp_hand[i + 1:]], card, led, view.trump_suit)
    return total / len(opp_hand)


def _determinize_2p(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """Two players: the opponent's hand drawn by card reading (``_clue_likelihood``), the rest
    of the unseen cards shuffled into the stock."""
    me = view.seat
    opp = 1 - me
    known = list(view.opponent_known)
    hidden = hidden_cards(view.unseen)
    stock_hidden = view.stock_count - 1 if view.stock_count else 0
    need = view.hand_counts[opp] - len(known)
    if need < 0:
        raise ValueError(f"the opponent holds {view.hand_counts[opp]} cards but {len(known)} are known")
    check_count(hidden, need + stock_hidden)
    clue = _last_clue(view) if CARD_READING and need and stock_hidden else None
    if clue is None:
        drawn, stock = split_hidden(rng, hidden, need)
    else:
        drawn = sample_by_likelihood(rng, hidden, need,
                                     lambda pick: _clue_likelihood(rules, view, clue, known + pick), READ_TRIES)
        stock = without(hidden, drawn)
        rng.shuffle(stock)
    opp_hand = known + drawn
    if view.stock_count:
        stock.append(view.trump_card)
    hands = [list(view.hand), opp_hand] if me == 0 else [opp_hand, list(view.hand)]
    return BriscolaState(
        players=view.players, dealer=view.dealer, number=1, hands=hands, stock=stock,
        trump_card=view.trump_card, trump_suit=view.trump_suit, piles=[list(p) for p in view.piles],
        points=list(view.points), to_act=view.to_act, led=view.trick[0] if view.trick else None,
        over=False, trump_drawn_by=view.trump_drawn_by, history=list(view.history),
    )


# ---------------------------------------------------------------------- four players
_read_cache: dict[int, tuple[object, object]] = {}


def _last_clue_team(rules: BriscolaRules, view: BriscolaView) -> tuple | None:
    """Four players: the most recent play by another seat, as (seat, card, the trick's cards
    before it, whether he has drawn a card since) — None before anyone else has played."""
    n = view.players
    hist = view.history
    for j in range(len(hist) - 1, -1, -1):
        if hist[j][0] != view.seat:
            break
    else:
        return None
    p, played = hist[j]
    start = j - j % n
    before = tuple(c for _, c in hist[start:j])
    trick = j // n
    drew = trick < len(hist) // n and trick <= _last_draw_trick(rules)
    return p, played, before, drew


def _clue_values(rules: BriscolaRules, view: BriscolaView, clue: tuple) -> dict[Card, float]:
    """The sensible-player model's value of every card the clue's player may have held, in
    the trick as he found it (heuristics_briscola: play_value leading, follow_value
    following, with the fixed chances). Cached per view: the search asks once per iteration."""
    cached = _read_cache.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]  # type: ignore[return-value]
    p, played, before, _ = clue
    trump = view.trump_suit
    pool = [*view.unseen, *view.opponent_known, played]
    if not before:
        vals = {x: play_value(rules, x, None, trump) for x in pool}
    else:
        leader = (p - len(before)) % view.players
        best, best_seat, on_table = trick_so_far(rules, before, leader, trump)
        ours = rules.team_of(best_seat) == rules.team_of(p)
        opp_after, mate_after = after_me(rules, p, len(before))
        vals = {x: follow_value(rules, x, best, on_table, ours, opp_after, mate_after, trump) for x in pool}
    if len(_read_cache) > 64:
        _read_cache.clear()
    _read_cache[id(view)] = (view, vals)
    return vals


def _model_likelihood(vals: dict[Card, float], hand: list[Card], played: Card) -> float:
    """P(the sensible-player model plays ``played`` from ``hand``) — hand includes it."""
    top = max(vals[x] for x in hand)
    z = 0.0
    mine = 0.0
    for x in hand:
        e = math.exp((vals[x] - top) / TEMPERATURE)
        z += e
        if x is played:
            mine = e
    return (1.0 - UNIFORM) * mine / z + UNIFORM / len(hand)


def _team_clue_likelihood(view: BriscolaView, clue: tuple, vals: dict[Card, float], hand: list[Card]) -> float:
    """How likely the clue's play was had its player held ``hand`` now (a drawn card averaged
    out, as with two players)."""
    p, played, _, drew = clue
    if not drew or not hand:
        return _model_likelihood(vals, [played, *hand], played)
    if view.stock_count == 0 and view.trump_drawn_by == p and view.trump_card in hand:
        held = [x for x in hand if x is not view.trump_card]
        return _model_likelihood(vals, [played, *held], played)
    total = 0.0
    for i in range(len(hand)):
        total += _model_likelihood(vals, [played, *hand[:i], *hand[i + 1:]], played)
    return total / len(hand)


def _team_need(view: BriscolaView) -> tuple[list[list[Card]], list[int], list[Card]]:
    """Four players: (each hand's known cards, the unseen cards each other hand needs besides
    them, the unseen cards in deck order), checked against the view's counts."""
    n = view.players
    known: list[list[Card]] = [[] for _ in range(n)]
    if view.opponent_known:
        known[view.trump_drawn_by].extend(view.opponent_known)
    need = [0 if s == view.seat else view.hand_counts[s] - len(known[s]) for s in range(n)]
    if min(need) < 0:
        raise ValueError(f"a hand holds fewer cards than are known in it ({view.hand_counts})")
    hidden = hidden_cards(view.unseen)
    check_count(hidden, sum(need) + (view.stock_count - 1 if view.stock_count else 0))
    return known, need, hidden


def _team_state(view: BriscolaView, hands: list[list[Card]], stock: list[Card]) -> BriscolaState:
    trick = view.trick
    return BriscolaState(
        players=view.players, dealer=view.dealer, number=1, hands=hands, stock=stock,
        trump_card=view.trump_card, trump_suit=view.trump_suit, piles=[list(p) for p in view.piles],
        points=list(view.points), to_act=view.to_act, led=trick[0] if trick else None,
        over=False, trump_drawn_by=view.trump_drawn_by, history=list(view.history), following=list(trick[1:]),
    )


def _determinize_team(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """Four players: the hand of the seat that played last drawn by card reading, the other
    unseen cards shuffled into the other two hands and the stock (the turned trump last, or in
    its known drawer's hand)."""
    n = view.players
    me = view.seat
    known, need, hidden = _team_need(view)
    hands = [list(view.hand) if s == me else list(known[s]) for s in range(n)]
    pool = hidden
    read = None
    clue = _last_clue_team(rules, view) if CARD_READING else None
    if clue is not None and 0 < need[clue[0]] < len(hidden):
        read = clue[0]
        vals = _clue_values(rules, view, clue)
        base = known[read]
        pick = sample_by_likelihood(rng, hidden, need[read],
                                    lambda pk: _team_clue_likelihood(view, clue, vals, base + pk), READ_TRIES)
        hands[read] = base + pick
        pool = without(hidden, pick)
    else:
        pool = list(hidden)
    rng.shuffle(pool)
    i = 0
    for s in range(n):
        if s != me and s != read:
            hands[s] += pool[i:i + need[s]]
            i += need[s]
    stock = pool[i:]
    if view.stock_count:
        stock.append(view.trump_card)
    return _team_state(view, hands, stock)


def determinize(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """A full state with this view: the unseen cards dealt at random into the other hands and
    the stock, the turned trump at the bottom of the stock (or with its known drawer). With
    CARD_READING the hand of the player who made the last play is drawn in proportion to how
    well it explains that play (``_clue_likelihood``, ``_team_clue_likelihood``)."""
    if view.players == 2:
        return _determinize_2p(rules, view, rng)
    return _determinize_team(rules, view, rng)


def team_points(rules: BriscolaRules, points: list[int]) -> tuple[int, int]:
    """(team 0's card points, team 1's) from the per-seat points."""
    if len(points) == 2:
        return points[0], points[1]
    t = [0, 0]
    for seat, p in enumerate(points):
        t[rules.team_of(seat)] += p
    return t[0], t[1]


def utilities(rules: BriscolaRules, state: BriscolaState) -> list[float]:
    """Per team: the deal's sign (win / draw / loss) and card-point margin, mixed."""
    t0, t1 = team_points(rules, state.points)
    u0 = _utility_of_margin(t0 - t1)
    return [u0, -u0]


#: From this stock size down, ``complete`` says yes and ``solve`` averages exact values over
#: every deal of the unseen cards (stock 2: one hidden stock card, so 3 or 4 worlds).
EXACT_STOCK = 2
#: Up to this stock size ``solve`` samples WORLDS deals instead (PIMC with exact play: the
#: last five tricks solved per world, ~2 ms each, beat heuristic playouts there).
SAMPLED_STOCK = 4
WORLDS = 40


#: Four players: ``complete`` says yes once the stock is gone and at most SOLVE_CARDS_4P
#: cards are left in the hands; ``solve`` then solves every deal of the unseen cards among
#: the three other hands when there are at most ALL_WORLDS_4P of them, else WORLDS_4P sampled
#: ones, within SOLVE_NODES_4P nodes of the alpha-beta search in all (a node budget, not a
#: time: the same answer on every machine); with fewer than MIN_WORLDS_4P deals solved in
#: it, ``solve`` gives up (None) and the search samples instead.
SOLVE_CARDS_4P = 12
ALL_WORLDS_4P = 90
WORLDS_4P = 30
SOLVE_NODES_4P = 60_000
MIN_WORLDS_4P = 8


def complete(rules: BriscolaRules, view: BriscolaView) -> bool:
    """Two players: the stock is gone (the opponent holds exactly the unseen cards), or only
    the last draws remain (few worlds: all solved, or a sample). Four: the stock is gone."""
    if view.players == 2:
        return view.stock_count <= max(EXACT_STOCK, SAMPLED_STOCK)
    return view.stock_count == 0 and sum(view.hand_counts) <= SOLVE_CARDS_4P


def _negamax(rules: BriscolaRules, hands: list[list[Card]], to_act: int, led: Card | None,
             stock: list[Card], trump: str, alpha: int = -999, beta: int = 999) -> int:
    """Card points the side to act gains minus what the other side gains from here on, both
    playing perfectly on the known cards (alpha-beta; small trees: at most 5 tricks)."""
    mine = hands[to_act]
    if led is None:
        if not mine:
            return 0
        if len(mine) == 1 and not stock:
            # The last trick: nothing to choose (a leaf shortcut; most nodes are here).
            c, r = mine[0], hands[1 - to_act][0]
            pts = rules.card_points[c] + rules.card_points[r]
            if r.suit == c.suit:
                return -pts if rules.strength[r] > rules.strength[c] else pts
            return -pts if r.suit == trump else pts
        for i in range(len(mine)):
            c = mine.pop(i)
            v = -_negamax(rules, hands, 1 - to_act, c, stock, trump, -beta, -alpha)
            mine.insert(i, c)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha
    cp = rules.card_points
    st = rules.strength
    leader = 1 - to_act
    led_suit = led.suit
    led_pts = cp[led]
    for i in range(len(mine)):
        c = mine.pop(i)
        # rules.beats, inlined: this solver runs at the end of every hard playout and in
        # ``solve``, and the call costs the whole playout about 5 % (measured).
        if c.suit == led_suit:
            winner = to_act if st[c] > st[led] else leader
        else:
            winner = to_act if c.suit == trump else leader
        pts = led_pts + cp[c]
        # The value for to_act is pts + sub (to_act wins and leads) or −(pts + sub) (the other
        # side wins and leads); translate the window to the next leader's view.
        if winner == to_act:
            lo, hi = alpha - pts, beta - pts
        else:
            lo, hi = -beta - pts, -alpha - pts
        if stock:
            hands[winner].append(stock[0])
            hands[1 - winner].append(stock[1])
            sub = pts + _negamax(rules, hands, winner, None, stock[2:], trump, lo, hi)
            hands[winner].pop()
            hands[1 - winner].pop()
        else:
            sub = pts + _negamax(rules, hands, winner, None, stock, trump, lo, hi)
        mine.insert(i, c)
        v = sub if winner == to_act else -sub
        if v > alpha:
            alpha = v
            if alpha >= beta:
                break
    return alpha


def _exact_margins(rules: BriscolaRules, state: BriscolaState, seat: int) -> dict[Action, int]:
    """Final deal margin (seat minus opponent) per legal action on a fully known state."""
    hands = [list(h) for h in state.hands]
    base = state.points[seat] - state.points[1 - seat]
    to_act = state.to_act
    out: dict[Action, int] = {}
    mine = hands[to_act]
    for a in rules.legal_actions(state):
        i = mine.index(a.card)
        mine.pop(i)
        if state.led is None:
            v = -_negamax(rules, hands, 1 - to_act, a.card, list(state.stock), state.trump_suit)
        else:
            c, led = a.card, state.led
            winner = to_act if rules.beats(c, led, state.trump_suit) else 1 - to_act
            pts = rules.card_points[led] + rules.card_points[c]
            stock = list(state.stock)
            if stock:
                hands[winner].append(stock[0])
                hands[1 - winner].append(stock[1])
            sub = pts + _negamax(rules, hands, winner, None, stock[2:], state.trump_suit)
            if stock:
                hands[winner].pop()
                hands[1 - winner].pop()
            v = sub if winner == to_act else -sub
        mine.insert(i, a.card)
        out[a] = v if to_act == seat else -v
    return {a: base + v for a, v in out.items()}


def _utility_of_margin(m: float) -> float:
    sign = (m > 0) - (m < 0)
    return WIN_WEIGHT * sign + (1.0 - WIN_WEIGHT) * m / 120.0


def solve(rules: BriscolaRules, state: BriscolaState, seat: int) -> dict[Action, float] | None:
    """Exact values for ``seat`` (to act): with the stock gone the state is the truth; with
    only the last draw left the mean utility over every placement of the unseen cards
    (PIMC over all worlds — only what ``seat`` sees is used, never the sampled state's hidden
    cards). Four players: ``_solve_team``."""
    if state.players != 2:
        return _solve_team(rules, state, seat)
    if not state.stock:
        return {a: _utility_of_margin(m) for a, m in _exact_margins(rules, state, seat).items()}
    view = rules.view(state, seat)
    if view.stock_count > EXACT_STOCK:
        # Too many worlds to enumerate: a fixed sample. The rng is seeded from the view alone,
        # so the answer cannot depend on the sampled state's hidden cards.
        key = " ".join(c.code for c in view.hand) + "|" + " ".join(c.code for _, c in view.history)
        rng = random.Random(key)
        totals: dict[Action, float] = {}
        for _ in range(WORLDS):
            w = determinize(rules, view, rng)
            for a, m in _exact_margins(rules, w, seat).items():
                totals[a] = totals.get(a, 0.0) + _utility_of_margin(m)
        return {a: t / WORLDS for a, t in totals.items()}
    known = list(view.opponent_known)
    hidden = hidden_cards(view.unseen)
    opp = 1 - seat
    k = view.hand_counts[opp] - len(known)
    totals = {}
    worlds = 0.0
    clue = _last_clue(view) if CARD_READING and k else None
    for combo in combinations(range(len(hidden)), k):
        chosen = set(combo)
        w = rules.clone(state)
        w.hands[opp] = known + [hidden[j] for j in combo]
        w.stock = [hidden[j] for j in range(len(hidden)) if j not in chosen]
        if view.stock_count:
            w.stock.append(view.trump_card)
        if len(w.stock) > 2:
            # Orderings of a bigger stock would matter; EXACT_STOCK keeps us at one hidden card.
            raise ValueError("solve: more than one hidden stock card")
        # Each world counts as much as it explains the opponent's last play (card reading).
        weight = 1.0 if clue is None else _clue_likelihood(rules, view, clue, w.hands[opp])
        for a, m in _exact_margins(rules, w, seat).items():
            totals[a] = totals.get(a, 0.0) + weight * _utility_of_margin(m)
        worlds += weight
    return {a: t / worlds for a, t in totals.items()}


# ---------------------------------------------------------------------- four players: exact play
def _team_ab(st: dict[Card, int], cp: dict[Card, int], team: list[int], hands: list[list[Card]], seat: int,
             best: Card | None, best_seat: int, count: int, pts: int, trump: str, alpha: int, beta: int,
             nodes: list[int]) -> int:
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


def _team_trick(rules: BriscolaRules, state: BriscolaState) -> tuple[Card | None, int, int, int]:
    """(the trick's best card, its seat, the cards on it, their points) — None, to_act, 0, 0
    before the lead."""
    if state.led is None:
        return None, state.to_act, 0, 0
    cards = [state.led, *state.following]
    best, seat, pts = trick_so_far(rules, cards, (state.to_act - len(cards)) % state.players, state.trump_suit)
    return best, seat, len(cards), pts


def _team_margins(rules: BriscolaRules, state: BriscolaState, seat: int,
                  nodes: list[int] | None = None) -> dict[Action, int]:
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
        c = a.card
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
    if count > ALL_WORLDS_4P:
        return [(determinize(rules, view, rng), 1.0) for _ in range(WORLDS_4P)]
    clue = _last_clue_team(rules, view) if CARD_READING else None
    vals = _clue_values(rules, view, clue) if clue is not None else None
    out = []
    for parts in _team_splits(hidden, caps):
        w = rules.clone(state)
        for s, part in zip(others, parts):
            w.hands[s] = known[s] + part
        weight = 1.0
        if clue is not None and need[clue[0]]:
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
        if nodes[0] > SOLVE_NODES_4P:
            break
        for a, m in _team_margins(rules, w, seat, nodes).items():
            totals[a] = totals.get(a, 0.0) + wt * _utility_of_margin(m)
        weight += wt
        solved += 1
    if solved < min(len(worlds), MIN_WORLDS_4P) or weight <= 0.0:
        return None
    return {a: t / weight for a, t in totals.items()}


def _keep(rules: BriscolaRules, c: Card, trump: str) -> float:
    """What card ``c`` is worth kept in hand beyond the points it carries."""
    if c.suit == trump:
        return TRUMP_BASE + TRUMP_PER_STRENGTH * rules.strength[c] + rules.card_points[c]
    return 0.05 * rules.strength[c]


def _pick(hand: list[Card], led: Card | None, trump: str, keep: dict[Card, float], cp: dict[Card, int],
          beats: Callable[[Card, Card, str], bool], rand: Callable[[], float]) -> Card:
    """The playout policy's card from ``hand``: win valuable tricks cheaply, keep trumps for
    tricks worth them (``keep``: see :func:`_keep_table`), lead low; ``rand`` adds a little
    noise per card. The one scoring of both :func:`rollout` and :func:`playout`; its arguments
    are what the playout's loop already holds (``beats`` is the rules' own)."""
    best = hand[0]
    best_v = -1e9
    for x in hand:
        pts = cp[x]
        if led is not None:
            stake = cp[led] + pts
            v = (stake if beats(x, led, trump) else -stake) - keep[x]
        else:
            v = -0.8 * pts - keep[x]
        v += rand() * 0.3
        if v > best_v:
            best_v, best = v, x
    return best


#: Four players: the playout policy judges who takes a trick from the cards not yet played
#: (heuristics_briscola.side_chance: the chance that no opponent still to come holds a card
#: that beats the trick's best, as the player could judge it); False: the fixed chances.
POOL_CHANCES = True


def _nobody_table(rules: BriscolaRules) -> list[list[list[float]]]:
    """heuristics_briscola.nobody_beats(pool, k, h) for every pool size, beater count and
    hand size of the deal, cached on the rules object (read-only after the first write)."""
    table = rules.__dict__.get("_ai_briscola_nobody")
    if table is None:
        n = len(rules.deck_cards)
        table = [[[nobody_beats(pool, k, h) for h in range(rules.hand_size + 1)] for k in range(pool + 1)]
                 for pool in range(n + 1)]
        rules.__dict__["_ai_briscola_nobody"] = table
    return table


def _pool_chance(cnt: dict[str, list[int]], trump: str, st: dict[Card, int], hand: list[Card], pool: int,
                 later: list[tuple[bool, int]], nobody: list[list[list[float]]]) -> Callable[[bool, Card], float]:
    """The chance function of :func:`_pick_team` for the player holding ``hand``:
    heuristics_briscola.side_chance (its formula inlined on the ``nobody`` table of
    :func:`_nobody_table`: the playout's hot loop), ``cnt`` counting the cards not yet played
    per suit and strength, ``pool`` how many of them he does not hold, ``later`` (is a
    partner, hand size) for the players still to come."""
    trumps = sum(cnt[trump])
    row = nobody[pool]

    def chance(ahead: bool, top: Card) -> float:
        suit = top.suit
        k = sum(cnt[suit][st[top] + 1:])
        if suit != trump:
            k += trumps
        for y in hand:
            # rules.beats, inlined (his own cards are not in the other hands).
            if (st[y] > st[top]) if y.suit == suit else y.suit == trump:
                k -= 1
        q = row[k]
        if ahead:
            p = 1.0
            opp_seen = False
            for mate, h in later:
                if not mate:
                    p *= q[h]
                    opp_seen = True
                elif opp_seen:
                    p += (1.0 - p) * 0.5 * (1.0 - q[h])
            return p
        for mate, h in later:
            if mate:
                return 1.0 - q[h]
        return 0.0

    return chance


def _pick_team(hand: list[Card], best: Card | None, on_table: int, ours: bool, opp_after: bool, mate_after: bool,
               trump: str, keep: dict[Card, float], cp: dict[Card, int], beats: Callable[[Card, Card, str], bool],
               rand: Callable[[], float], chance: Callable[[bool, Card], float] | None = None) -> Card:
    """Four players: the playout policy's card from ``hand`` — heuristics_briscola.follow_value,
    leading as :func:`_pick`, ``rand`` adding the same noise. Inlined here (the playout's hot
    loop; the tests check it ranks the cards as follow_value does): no trump over a partner's
    winning card, points onto a trick the side holds. ``best`` is the trick's best card (None:
    leading), worth ``on_table`` with the others, ``ours`` whether the partner played it;
    ``chance(ahead, top)`` gives the side's chance to take the trick (:func:`_pool_chance`),
    None the fixed chances (AHEAD, AHEAD_TRUMP, BEHIND). The one scoring of :func:`rollout` and
    :func:`playout` with four players."""
    choice = hand[0]
    best_v = -1e9
    on_best = -1.0  # the chance when the trick's best card stays on top (the same for all)
    for x in hand:
        pts = cp[x]
        if best is None:
            v = -0.8 * pts - keep[x]
        else:
            if beats(x, best, trump):
                # A trump over the partner's winning plain card counts as his card: no gain.
                top = best if ours and x.suit == trump and best.suit != trump else x
                ahead = True
            else:
                top = best
                ahead = ours
            if chance is not None:
                if top is best:
                    if on_best < 0.0:
                        on_best = chance(ahead, top)
                    p = on_best
                else:
                    p = chance(ahead, top)
            elif ahead:
                p = (AHEAD_TRUMP if top.suit == trump else AHEAD) if opp_after else 1.0
            else:
                p = BEHIND if mate_after else 0.0
            v = (2.0 * p - 1.0) * (on_table + pts) - keep[x]
        v += rand() * 0.3
        if v > best_v:
            best_v, choice = v, x
    return choice


def _unplayed_counts(rules: BriscolaRules, state: BriscolaState) -> dict[str, list[int]]:
    """Per suit, the cards in the hands and the stock counted by strength (index = strength)."""
    st = rules.strength
    top = max(st.values())
    cnt = {c.suit: [0] * (top + 1) for c in rules.deck_cards}
    for h in state.hands:
        for c in h:
            cnt[c.suit][st[c]] += 1
    for c in state.stock:
        cnt[c.suit][st[c]] += 1
    return cnt


def _later(rules: BriscolaRules, hands: list[list[Card]], seat: int, count: int) -> list[tuple[bool, int]]:
    """(is a partner, hand size) of each player after ``seat`` in a trick with ``count`` cards on it."""
    n = len(hands)
    me = rules.team_of(seat)
    return [(rules.team_of(s) == me, len(hands[s])) for s in ((seat + k) % n for k in range(1, n - count))]


def rollout(rules: BriscolaRules, state: BriscolaState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout through the engine (the policy of :func:`_pick`, with four
    players :func:`_pick_team`; once the stock is gone nothing is worth keeping but a card's
    strength)."""
    if rng.random() < EPSILON:
        return legal[int(rng.random() * len(legal))]  # as the inlined playout draws it
    trump = state.trump_suit
    keep = _keep_table(rules, trump) if state.stock else _last_keep_table(rules)
    hand = [a.card for a in legal]
    if state.players == 2:
        c = _pick(hand, state.led, trump, keep, rules.card_points, rules.beats, rng.random)
    else:
        best, best_seat, count, pts = _team_trick(rules, state)
        seat = state.to_act
        ours = best is not None and rules.team_of(best_seat) == rules.team_of(seat)
        opp_after, mate_after = after_me(rules, seat, count)
        chance = None
        if POOL_CHANCES and best is not None:
            cnt = _unplayed_counts(rules, state)
            pool = sum(sum(v) for v in cnt.values()) - len(state.hands[seat])
            chance = _pool_chance(cnt, trump, rules.strength, state.hands[seat], pool,
                                  _later(rules, state.hands, seat, count), _nobody_table(rules))
        c = _pick_team(hand, best, pts, ours, opp_after, mate_after, trump, keep, rules.card_points, rules.beats,
                       rng.random, chance)
    return legal[hand.index(c)]


#: Playouts finish the deal exactly once the stock is gone (double-dummy on the sampled
#: deal: ~20 µs for the last three tricks, and the playout's ending is then perfect play).
EXACT_PLAYOUT = True


def _finish_exact(rules: BriscolaRules, state: BriscolaState) -> None:
    """Stock gone: credit both seats (four players: both teams) with what perfect play on this
    (sampled) deal gives them."""
    if state.players != 2:
        _finish_team(rules, state)
        return
    cp = rules.card_points
    to_act = state.to_act
    led = state.led
    v = _negamax(rules, [list(h) for h in state.hands], to_act, led, [], state.trump_suit)
    rest = sum(cp[c] for h in state.hands for c in h) + (cp[led] if led is not None else 0)
    # gains(to_act) − gains(other) = v and gains(to_act) + gains(other) = rest.
    state.points[to_act] += (rest + v) // 2
    state.points[1 - to_act] += (rest - v) // 2
    state.over = True


def _finish_team(rules: BriscolaRules, state: BriscolaState) -> None:
    """Four players, stock gone: credit each team with what perfect play on this (sampled)
    deal gives it (on the first seat of the team: only the team totals are read)."""
    st, cp = rules.strength, rules.card_points
    n = state.players
    team = [rules.team_of(s) for s in range(n)]
    best, best_seat, count, pts = _team_trick(rules, state)
    hands = [list(h) for h in state.hands]
    v = _team_ab(st, cp, team, hands, state.to_act, best, best_seat, count, pts, state.trump_suit, -9999, 9999, [0])
    rest = pts + sum(cp[c] for h in hands for c in h)
    # gains(team 0) − gains(team 1) = v and gains(team 0) + gains(team 1) = rest.
    state.points[team.index(0)] += (rest + v) // 2
    state.points[team.index(1)] += (rest - v) // 2
    for h in state.hands:
        h.clear()
    state.led = None
    state.following = []
    state.over = True


def _keep_table(rules: BriscolaRules, trump: str) -> dict[Card, float]:
    """``_keep`` for every card under this trump, cached on the rules object (read-only
    after the first write; the write is idempotent, so threads may race on it harmlessly)."""
    cache = rules.__dict__.setdefault("_ai_briscola_keep", {})
    table = cache.get(trump)
    if table is None:
        table = cache[trump] = {c: _keep(rules, c, trump) for c in rules.deck_cards}
    return table


def playout(rules: BriscolaRules, state: BriscolaState, rng: random.Random,
            trace: list[Card] | None = None, *, exact: bool | None = None) -> None:
    """Play the deal out in place by the playout policy, then (with ``exact``, default
    EXACT_PLAYOUT) finish it exactly: two players :func:`_playout_2p`, four
    :func:`_playout_team`. ``trace`` collects the cards played (the exact finish's are not
    in it: tests replay them with an exact solver)."""
    if state.players == 2:
        _playout_2p(rules, state, rng, trace, exact)
    else:
        _playout_team(rules, state, rng, trace, exact)


def _playout_2p(rules: BriscolaRules, state: BriscolaState, rng: random.Random,
                trace: list[Card] | None, exact: bool | None) -> None:
    """Two players: play the deal out in place by the policy of :func:`_pick` (inlined on the state's
    lists: no Action objects, no events), then — with ``exact`` (default EXACT_PLAYOUT) — the
    exact finish once the stock is gone. ``exact=False`` plays the last tricks by the policy
    too: the lower levels' weaker playout (the same moves as :func:`rollout` through the
    engine, which the tests check). The finished state carries the right points (piles and
    history are not filled: only the utility reads it). ``trace`` collects the cards played,
    for tests that replay them through the engine."""
    hands = state.hands
    stock = state.stock
    points = state.points
    trump = state.trump_suit
    cp = rules.card_points
    beats = rules.beats
    keep = _keep_table(rules, trump)
    rand = rng.random
    to_act = state.to_act
    led = state.led
    while stock:
        hand = hands[to_act]
        if rand() < EPSILON:
            c = hand[int(rand() * len(hand))]
        else:
            c = _pick(hand, led, trump, keep, cp, beats, rand)
        hand.remove(c)
        if trace is not None:
            trace.append(c)
        if led is None:
            led = c
            to_act = 1 - to_act
            continue
        w = to_act if beats(c, led, trump) else 1 - to_act
        points[w] += cp[led] + cp[c]
        led = None
        hands[w].append(stock[0])
        hands[1 - w].append(stock[1])
        del stock[:2]
        to_act = w
    state.to_act = to_act
    state.led = led
    if EXACT_PLAYOUT if exact is None else exact:
        _finish_exact(rules, state)
        return
    # The last tricks by the policy: nothing is worth keeping now but a card's strength, and a
    # last card is forced (the engine path asks no policy then, so neither does this).
    keep = _last_keep_table(rules)
    while hands[to_act]:
        hand = hands[to_act]
        if len(hand) == 1:
            c = hand[0]
        elif rand() < EPSILON:
            c = hand[int(rand() * len(hand))]
        else:
            c = _pick(hand, led, trump, keep, cp, beats, rand)
        hand.remove(c)
        if trace is not None:
            trace.append(c)
        if led is None:
            led = c
            to_act = 1 - to_act
            continue
        w = to_act if beats(c, led, trump) else 1 - to_act
        points[w] += cp[led] + cp[c]
        led = None
        to_act = w
    state.to_act = to_act
    state.led = None
    state.over = True


def _seat_tables(rules: BriscolaRules) -> tuple[list[int], list[list[tuple[bool, bool]]], list[list[list[int]]]]:
    """Per seat its team, per (seat, cards on the trick) ``after_me`` and the seats still to
    play after it — cached on the rules object (read-only after the first, idempotent write)."""
    cached = rules.__dict__.get("_ai_briscola_seats")
    if cached is None:
        n = rules.players
        team = [rules.team_of(s) for s in range(n)]
        after = [[after_me(rules, s, k) for k in range(n)] for s in range(n)]
        order = [[[(s + i) % n for i in range(1, n - k)] for k in range(n)] for s in range(n)]
        cached = rules.__dict__["_ai_briscola_seats"] = (team, after, order)
    return cached


#: Four players: the playout finishes exactly once the stock is gone and at most this many
#: cards are left in the hands (the last two tricks: 16 lines of play, 0.05 ms; the last
#: three take 0.8 ms, measured, more than the rest of a whole playout: the search's hot loop).
EXACT_PLAYOUT_CARDS_4P = 8


def _playout_team(rules: BriscolaRules, state: BriscolaState, rng: random.Random,
                  trace: list[Card] | None, exact: bool | None) -> None:
    """Four players: play the deal out in place by :func:`_pick_team` (inlined on the state's
    lists), a last card forced; with ``exact`` the last EXACT_PLAYOUT_CARDS_4P cards by
    perfect play (:func:`_finish_team`). The same moves as :func:`rollout` through the engine
    with ``exact=False`` (a test checks); the finished state carries the right team points."""
    n = state.players
    hands = state.hands
    stock = state.stock
    points = state.points
    trump = state.trump_suit
    cp = rules.card_points
    beats = rules.beats
    keep = _keep_table(rules, trump) if stock else _last_keep_table(rules)
    rand = rng.random
    team, after, order = _seat_tables(rules)
    seat = state.to_act
    best, best_seat, count, pts = _team_trick(rules, state)
    left = sum(len(h) for h in hands)
    exact_at = EXACT_PLAYOUT_CARDS_4P if (EXACT_PLAYOUT if exact is None else exact) else -1
    st = rules.strength
    cnt = _unplayed_counts(rules, state) if POOL_CHANCES else None
    nobody = _nobody_table(rules)
    unplayed = left + len(stock)
    while True:
        if left <= exact_at and not stock:
            state.to_act = seat
            _finish_team(rules, state)
            return
        hand = hands[seat]
        if len(hand) == 1:
            c = hand[0]
        elif rand() < EPSILON:
            c = hand[int(rand() * len(hand))]
        else:
            opp_after, mate_after = after[seat][count]
            chance = None
            if cnt is not None and best is not None:
                later = [(team[s] == team[seat], len(hands[s])) for s in order[seat][count]]
                chance = _pool_chance(cnt, trump, st, hand, unplayed - len(hand), later, nobody)
            c = _pick_team(hand, best, pts, best is not None and team[best_seat] == team[seat], opp_after, mate_after,
                           trump, keep, cp, beats, rand, chance)
        hand.remove(c)
        left -= 1
        unplayed -= 1
        if cnt is not None:
            cnt[c.suit][st[c]] -= 1
        if trace is not None:
            trace.append(c)
        if best is None or beats(c, best, trump):
            best, best_seat = c, seat
        pts += cp[c]
        count += 1
        if count == 1:
            state.led = c
        else:
            state.following.append(c)
        if count < n:
            seat = (seat + 1) % n
            continue
        # The trick is complete: its winner takes it, draws first and leads.
        points[best_seat] += pts
        seat = best_seat
        best, count, pts = None, 0, 0
        state.led = None
        state.following = []
        if stock:
            for i in range(n):
                hands[(seat + i) % n].append(stock[i])
            del stock[:n]
            left += n
            if not stock:
                keep = _last_keep_table(rules)
        elif not hands[seat]:
            state.to_act = seat
            state.over = True
            return


def _last_keep_table(rules: BriscolaRules) -> dict[Card, float]:
    """What keeping a card is worth once the stock is gone: only its strength (a tiebreak)."""
    table = rules.__dict__.get("_ai_briscola_last_keep")
    if table is None:
        table = rules.__dict__["_ai_briscola_last_keep"] = {c: 0.05 * rules.strength[c] for c in rules.deck_cards}
    return table


def prior(rules: BriscolaRules, view: BriscolaView, action: Action) -> float:
    """The greedy evaluation, scaled; taking an opponent's Ace or Three (10 points or more on
    the trick) with the trick's last card is obvious (>= 1)."""
    v = evaluate(rules, view, action)
    trick = view.trick
    if trick and len(trick) == view.players - 1:
        leader = (view.to_act - len(trick)) % view.players
        best, best_seat, pts = trick_so_far(rules, trick, leader, view.trump_suit)
        if (pts >= 10 and rules.team_of(best_seat) != rules.team_of(view.seat)
                and rules.beats(action.card, best, view.trump_suit)):
            return 1.0 + max(0.0, min(0.5, (v + 20.0) / 80.0))
    return max(-0.9, min(0.9, v / 20.0))


# ---------------------------------------------------------------------- the suggestion's reason
def reason(rules: BriscolaRules, view: BriscolaView, action: Action) -> tuple[str, dict] | None:
    """One line on why a play is good (game.ai.suggest): a sure trick (the last card of the
    trick wins it for the side), a partner's trick loaded, nothing given away; None else."""
    c = action.card
    if action.kind != "play" or c is None:
        return None
    cp = rules.card_points
    n = view.players
    trick = list(view.trick)
    if not trick:
        if cp[c] == 0 and c.suit != view.trump_suit:
            return ("suggest.reason.lead_low", {})
        return None
    leader = (view.to_act - len(trick)) % n
    cards = [*trick, c]
    winner = rules.trick_winner(cards, leader, view.trump_suit)
    points = sum(cp[x] for x in cards)
    mine = rules.team_of(winner) == rules.team_of(view.seat)
    if len(cards) == n:  # the last card: the trick is decided
        if winner == view.seat:
            led = trick[0]
            if cp[led] >= 10 and len(trick) == 1:
                return ("suggest.reason.takes_card", {"card": led.code, "points": points})
            return ("suggest.reason.sure_trick", {"points": points})
        if mine:
            return ("suggest.reason.partner_trick", {"points": points})
    if not mine and cp[c] == 0 and c.suit != view.trump_suit:
        return ("suggest.reason.gives_nothing", {})
    return None
