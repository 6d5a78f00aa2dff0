"""Greedy evaluation for Schnapsen: one ply, plain card sense.

Declare marriages, take the trump Jack exchange, win valuable tricks with the cheapest card
that does it, keep trumps for later, throw low cards on tricks that cannot be won, and close
only when the points in hand and in tricks make 66 likely.
"""

from __future__ import annotations

from game.cards import Card
from game.rules.base import Action

WIN_BONUS = 1000.0  # reaching 66 now ends the deal in our favour
TRUMP_COST = 6.0  # what spending a trump costs (it is worth more later)


def _card_cost(rules, view, c: Card) -> float:
    """What giving up card ``c`` costs beyond its points: high cards and trumps win tricks later."""
    cost = rules.strength[c] * 0.5
    if c.suit == view.trump:
        cost += TRUMP_COST
    if c in rules.partner and rules.partner[c] in view.hand:
        cost += 8.0  # breaking a marriage we could still declare
    return cost


def _sure_winner(rules, view, c: Card) -> bool:
    """Under follow-and-beat, ``c`` wins if no unseen card beats it."""
    for u in view.unseen | set(view.known_opponent):
        if u.suit == c.suit and rules.strength[u] > rules.strength[c]:
            return False
        if u.suit == view.trump and c.suit != view.trump:
            return False
    return True


def evaluate(rules, view, action: Action) -> float:
    trump = view.trump
    pts = rules.points
    own = view.points
    has_trick = bool(view.won[view.seat])
    if action.kind == "exchange":
        return 200.0  # the indicator is always better than the trump Jack; it does not end the turn
    if action.kind == "close":
        # Close only when the sure tricks in hand would bring us to 66.
        if not has_trick:
            return -50.0
        sure = sum(pts[c] for c in view.hand if c.suit == trump and _sure_winner(rules, view, c))
        # Closing does not end the turn either: do it before the lead when it is worth it.
        return 150.0 if own + sure >= rules.win_points - 6 else -50.0
    c = action.played
    if action.arg("marriage", False):
        value = rules.trump_marriage_value if c.suit == trump else rules.marriage_value
        if has_trick and own + value >= rules.win_points:
            return WIN_BONUS + value
        return 40.0 + value * (1.0 if has_trick else 0.8)
    if view.led is None:
        # Lead: cheap non-trumps; under strict rules a sure winner is a good lead.
        if view.strict and _sure_winner(rules, view, c):
            return 10.0 + pts[c]
        return -_card_cost(rules, view, c) - pts[c] * 0.5
    led = view.led
    if rules.beats(c, led, trump):
        gain = pts[led] + pts[c]
        pending = view.pending[view.seat]
        if own + gain + pending >= rules.win_points:
            return WIN_BONUS + gain
        if gain < 10 and c.suit == trump and led.suit != trump and not view.strict:
            return -_card_cost(rules, view, c)  # not worth a trump
        return gain - _card_cost(rules, view, c) * 0.5
    # Losing the trick: give away as few points and as little strength as possible.
    return -pts[c] - pts[led] * 0.2 - _card_cost(rules, view, c) * 0.3
