"""Search hooks for Briscola (2 players): determinize, utility, playout policy, prior.

Briscola has no duty to follow suit or to trump, so play gives no hard clue about a hand.
What a seat knows beyond its hand and the table: the turned trump lies under the stock (drawn
last), and once drawn it is in the drawer's hand until played (``view.opponent_known``).
Determinizations deal the other unseen cards at random into the opponent's hand and the face
down part of the stock. Once the stock is gone the view fixes the state (``complete``) and the
framework's exact solver plays the last three tricks.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import combinations

from game.ai.determinize import check_count, hidden_cards, sample_by_likelihood, split_hidden, without
from game.ai.heuristics_briscola import evaluate, play_value
from game.cards import Card
from game.rules.base import Action
from game.rules.briscola import BriscolaRules, BriscolaState, BriscolaView

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
#: Cards drawn from the stock before it runs out: 34 cards, two per trick, tricks 0–16.
_LAST_DRAW_TRICK = 16


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
    for j in range(len(hist) - 1, -1, -1):
        if hist[j][0] == opp:
            break
    else:
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


def determinize(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """A full state with this view: the unseen cards dealt at random into the opponent's hand
    and the stock, the turned trump at the bottom of the stock (or with its known drawer).
    With CARD_READING the opponent's hand is drawn in proportion to how well it explains his
    last play (see ``_clue_likelihood``)."""
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


def utilities(rules: BriscolaRules, state: BriscolaState) -> list[float]:
    """Per seat: the deal's sign (win / draw / loss) and card-point margin, mixed."""
    u0 = _utility_of_margin(state.points[0] - state.points[1])
    return [u0, -u0]


#: From this stock size down, ``complete`` says yes and ``solve`` averages exact values over
#: every deal of the unseen cards (stock 2: one hidden stock card, so 3 or 4 worlds).
EXACT_STOCK = 2
#: Up to this stock size ``solve`` samples WORLDS deals instead (PIMC with exact play: the
#: last five tricks solved per world, ~2 ms each, beat heuristic playouts there).
SAMPLED_STOCK = 4
WORLDS = 40


def complete(rules: BriscolaRules, view: BriscolaView) -> bool:
    """The stock is gone (the opponent holds exactly the unseen cards), or only the last draw
    remains (3 or 4 possible deals): few enough worlds to solve them all exactly."""
    return view.stock_count <= max(EXACT_STOCK, SAMPLED_STOCK)


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


def solve(rules: BriscolaRules, state: BriscolaState, seat: int) -> dict[Action, float]:
    """Exact values for ``seat`` (to act): with the stock gone the state is the truth; with
    only the last draw left the mean utility over every placement of the unseen cards
    (PIMC over all worlds — only what ``seat`` sees is used, never the sampled state's hidden
    cards)."""
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


def rollout(rules: BriscolaRules, state: BriscolaState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout through the engine (the policy of :func:`_pick`; once the stock
    is gone nothing is worth keeping but a card's strength)."""
    if rng.random() < EPSILON:
        return legal[int(rng.random() * len(legal))]  # as the inlined playout draws it
    trump = state.trump_suit
    keep = _keep_table(rules, trump) if state.stock else _last_keep_table(rules)
    hand = [a.card for a in legal]
    c = _pick(hand, state.led, trump, keep, rules.card_points, rules.beats, rng.random)
    return legal[hand.index(c)]


#: Playouts finish the deal exactly once the stock is gone (double-dummy on the sampled
#: deal: ~20 µs for the last three tricks, and the playout's ending is then perfect play).
EXACT_PLAYOUT = True


def _finish_exact(rules: BriscolaRules, state: BriscolaState) -> None:
    """Stock gone: credit both seats with what perfect play on this (sampled) deal gives them."""
    cp = rules.card_points
    to_act = state.to_act
    led = state.led
    v = _negamax(rules, [list(h) for h in state.hands], to_act, led, [], state.trump_suit)
    rest = sum(cp[c] for h in state.hands for c in h) + (cp[led] if led is not None else 0)
    # gains(to_act) − gains(other) = v and gains(to_act) + gains(other) = rest.
    state.points[to_act] += (rest + v) // 2
    state.points[1 - to_act] += (rest - v) // 2
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
    """Play the deal out in place by the policy of :func:`_pick` (inlined on the state's
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


def _last_keep_table(rules: BriscolaRules) -> dict[Card, float]:
    """What keeping a card is worth once the stock is gone: only its strength (a tiebreak)."""
    table = rules.__dict__.get("_ai_briscola_last_keep")
    if table is None:
        table = rules.__dict__["_ai_briscola_last_keep"] = {c: 0.05 * rules.strength[c] for c in rules.deck_cards}
    return table


def prior(rules: BriscolaRules, view: BriscolaView, action: Action) -> float:
    """The greedy evaluation, scaled; taking a led Ace or Three is obvious (>= 1)."""
    v = evaluate(rules, view, action)
    if view.trick:
        led = view.trick[0]
        if rules.card_points[led] >= 10 and rules.beats(action.card, led, view.trump_suit):
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
