"""Briscola chiamata AI: what a finished deal is worth to each seat, and what a card is worth
kept in hand (the playout's and the prior's common measure)."""

from __future__ import annotations

import game.games.chiamata.ai.tuning as tuning
from game.cards import Card
from game.games.chiamata.rules import ChiamataRules, ChiamataState


def utilities(rules: ChiamataRules, state: ChiamataState) -> list[float]:
    """Per seat (every score is a seat's own): its game points of the deal over 4 and the
    card-point margin over the contract from its side, mixed (tuning.WIN_WEIGHT); a thrown-in
    deal is 0 for everyone."""
    n = rules.players
    caller, partner = state.caller, state.partner
    if caller is None or partner is None:
        return [0.0] * n
    side = state.points[caller] + (state.points[partner] if partner != caller else 0)
    contract = rules.contract(state)
    won = side >= contract
    doubled = rules.cappotto and side in (0, rules.total_points)
    gp = rules.game_points(caller, partner, won, doubled)
    margin = (side - contract) / rules.total_points
    w = tuning.WIN_WEIGHT
    return [w * gp[s] / 4.0 + (1.0 - w) * (margin if s in (caller, partner) else -margin) for s in range(n)]


def keep_value(rules: ChiamataRules, c: Card, trump: str | None) -> float:
    """What card ``c`` is worth kept in hand, beyond the points it carries into a trick."""
    if c.suit == trump:
        return tuning.TRUMP_BASE + tuning.TRUMP_PER_STRENGTH * rules.strength[c] + rules.card_points[c]
    return tuning.STRENGTH_COST * rules.strength[c]


__all__ = ["keep_value", "utilities"]
