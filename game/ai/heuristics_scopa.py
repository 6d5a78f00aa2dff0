"""Greedy evaluation for Scopa: what a play captures, minus what it leaves to the next player."""
from __future__ import annotations

from game.cards import Card
from game.rules.base import Action

PRIMIERA_WEIGHT = {"7": 1.2, "6": 0.7, "A": 0.4, "5": 0.2}


def card_worth(rules, c: Card) -> float:
    """Rough worth of owning card ``c`` at the end of the deal."""
    w = 1.0 + PRIMIERA_WEIGHT.get(c.rank, 0.0)
    if c.suit == rules.scoring_suit:
        w += 0.6
    if c is rules.settebello:
        w += 4.0
    return w


def evaluate(rules, view, action: Action) -> float:
    final = view.stock_count == 0 and sum(view.hand_counts) == 1
    return play_score(rules, view.table, action.card, action.capture, final)


def play_score(rules, table, c: Card, capture, final: bool = False) -> float:
    """The greedy value of playing ``c`` on ``table`` taking ``capture`` (empty: placed)."""
    score = 0.0
    if capture:
        score += card_worth(rules, c) + sum(card_worth(rules, t) for t in capture)
        left = [t for t in table if t not in capture]
        if not left and not final:
            score += 8.0
    else:
        left = list(table) + [c]
        score -= card_worth(rules, c)
    if left:
        total = sum(rules.values[t] for t in left)
        # The next player sweeps with one card when the whole table adds up to a card value.
        if total <= rules.max_value:
            score -= 5.0
    return score
