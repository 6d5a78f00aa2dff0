"""Greedy evaluation for Briscola: win valuable tricks cheaply, keep trumps and aces for tricks
worth them, and lead low non-trumps.

One ply: when following, the trick's outcome is known, so the value is the points won (or
given away) minus what the card would have been worth kept for later. When leading, the value
is minus what the card risks: its points, and its future worth as a trump.
"""
from __future__ import annotations

from game.cards import Card
from game.rules.base import Action

#: What keeping a trump is worth beyond its own points: it wins a later trick of the
#: opponent's choosing. Higher trumps are worth more (they also beat the other trumps).
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.6
#: Tie-breaker: prefer spending weaker cards.
STRENGTH_COST = 0.05


def keep_value(rules, c: Card, trump_suit: str) -> float:
    """What card ``c`` is worth kept in hand, beyond the points it carries into a trick."""
    s = rules.strength[c]
    if c.suit == trump_suit:
        # A trump's points are as good as banked: it wins them later anyway.
        return TRUMP_BASE + TRUMP_PER_STRENGTH * s + rules.card_points[c]
    return STRENGTH_COST * s


def evaluate(rules, view, action: Action) -> float:
    return play_value(rules, action.card, view.trick[0] if view.trick else None, view.trump_suit)


def play_value(rules, c: Card, led: Card | None, trump: str) -> float:
    """The greedy value of playing ``c`` on ``led`` (None: leading) under ``trump``."""
    pts = rules.card_points[c]
    if led is not None:
        at_stake = rules.card_points[led] + pts
        if rules.beats(c, led, trump):
            return at_stake - keep_value(rules, c, trump)
        # Losing: everything on the table goes to the opponent; lose the cheapest card.
        return -at_stake - keep_value(rules, c, trump)
    # Leading: the opponent answers; risk the card's points (scaled: it may still win) and
    # its worth as a trump. Low non-trumps come out best.
    return -0.8 * pts - keep_value(rules, c, trump)
