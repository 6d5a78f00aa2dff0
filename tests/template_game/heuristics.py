"""The greedy bot's move values for Knock (game.ai.greedy): knock with two Aces or more,
else win the trick cheaply when the card can, else throw the weakest card."""

from __future__ import annotations

from game.rules.base import Action
from tests.template_game.rules import KnockRules, KnockView


def evaluate(rules: KnockRules, view: KnockView, action: Action) -> float:
    if action.card is None:  # the knock
        return 1.5 if sum(c.rank == "A" for c in view.hand) >= 2 else -1.0
    strength = rules.strength[action.card]
    if view.trick and action.card.suit == view.trick[0].suit:
        best = max(rules.strength[c] for c in view.trick if c.suit == view.trick[0].suit)
        return 1.0 + 0.1 * (4 - strength) if strength > best else -0.1 * strength
    return 0.1 * strength
