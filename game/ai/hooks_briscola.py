"""Search hooks for Briscola (2 players): determinize, utility, playout policy, prior.

Briscola has no duty to follow suit or to trump, so play gives no hard clue about a hand.
What a seat knows beyond its hand and the table: the turned trump lies under the stock (drawn
last), and once drawn it is in the drawer's hand until played (``view.opponent_known``).
Determinizations deal the other unseen cards at random into the opponent's hand and the face
down part of the stock. Once the stock is gone the view fixes the state (``complete``) and the
framework's exact solver plays the last three tricks.
"""
from __future__ import annotations

import random

from game.ai.heuristics_briscola import evaluate
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


def determinize(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """A full state with this view: the unseen cards dealt at random into the opponent's hand
    and the stock, the turned trump at the bottom of the stock (or with its known drawer)."""
    me = view.seat
    known = list(view.opponent_known)
    # Sorted first: a frozenset's order is not reproducible, the bot's rng must be.
    hidden = sorted(view.unseen, key=lambda c: c.index)
    stock_hidden = view.stock_count - 1 if view.stock_count else 0
    need = sum(n for s, n in enumerate(view.hand_counts) if s != me) - len(known)
    if need + stock_hidden != len(hidden) or need < 0:
        raise ValueError(f"the view hides {len(hidden)} cards but the hands and stock hold {need + stock_hidden}")
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    i = 0
    for s, n in enumerate(view.hand_counts):
        if s == me:
            hands.append(list(view.hand))
        else:
            k = n - len(known)
            hands.append(known + hidden[i:i + k])
            i += k
            known = []  # two players: the one opponent holds the known trump
    stock = hidden[i:]
    if view.stock_count:
        stock.append(view.trump_card)
    return BriscolaState(
        players=view.players, dealer=view.dealer, number=1, hands=hands, stock=stock,
        trump_card=view.trump_card, trump_suit=view.trump_suit, piles=[list(p) for p in view.piles],
        points=list(view.points), to_act=view.to_act, led=view.trick[0] if view.trick else None,
        over=False, trump_drawn_by=view.trump_drawn_by, history=list(view.history),
    )


def utilities(rules: BriscolaRules, state: BriscolaState) -> list[float]:
    """Per seat: the deal's sign (win / draw / loss) and card-point margin, mixed."""
    m = state.points[0] - state.points[1]
    sign = (m > 0) - (m < 0)
    u0 = WIN_WEIGHT * sign + (1.0 - WIN_WEIGHT) * m / 120.0
    return [u0, -u0]


def utility(rules: BriscolaRules, state: BriscolaState, seat: int) -> float:
    return utilities(rules, state)[seat]


def complete(rules: BriscolaRules, view: BriscolaView) -> bool:
    """The stock is gone: the opponent holds exactly the unseen (and known) cards."""
    return view.stock_count == 0


def _keep(rules: BriscolaRules, c: Card, trump: str) -> float:
    """What card ``c`` is worth kept in hand beyond the points it carries."""
    if c.suit == trump:
        return TRUMP_BASE + TRUMP_PER_STRENGTH * rules.strength[c] + rules.card_points[c]
    return 0.05 * rules.strength[c]


def rollout(rules: BriscolaRules, state: BriscolaState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout (the greedy evaluator's logic on the full state): win valuable
    tricks cheaply, keep trumps for tricks worth them, lead low non-trumps."""
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    trump = state.trump_suit
    cp = rules.card_points
    st = rules.strength
    led = state.led
    best = legal[0]
    best_v = -1e9
    last = not state.stock
    for a in legal:
        c = a.card
        pts = cp[c]
        keep = _keep(rules, c, trump) if not last else 0.05 * st[c]
        if led is not None:
            at_stake = cp[led] + pts
            if c.suit == led.suit:
                wins = st[c] > st[led]
            else:
                wins = c.suit == trump
            v = (at_stake if wins else -at_stake) - keep
        else:
            v = -0.8 * pts - keep
        v += rng.random() * 0.3
        if v > best_v:
            best_v, best = v, a
    return best


def prior(rules: BriscolaRules, view: BriscolaView, action: Action) -> float:
    """The greedy evaluation, scaled; taking a led Ace or Three is obvious (>= 1)."""
    v = evaluate(rules, view, action)
    if view.trick:
        led = view.trick[0]
        if rules.card_points[led] >= 10 and rules.beats(action.card, led, view.trump_suit):
            return 1.0 + max(0.0, min(0.5, (v + 20.0) / 80.0))
    return max(-0.9, min(0.9, v / 20.0))
