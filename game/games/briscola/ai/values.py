"""Briscola AI: what a deal and a card are worth — the utility of a card-point margin, the
team totals, the trick so far, and the playout's value of keeping a card (cached per trump)."""

from __future__ import annotations

import game.games.briscola.ai.tuning as tuning
from game.cards import Card
from game.games.briscola.heuristics import trick_so_far
from game.games.briscola.rules import BriscolaRules, BriscolaState


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


def _utility_of_margin(m: float) -> float:
    sign = (m > 0) - (m < 0)
    return tuning.WIN_WEIGHT * sign + (1.0 - tuning.WIN_WEIGHT) * m / 120.0


def _team_trick(rules: BriscolaRules, state: BriscolaState) -> tuple[Card | None, int, int, int]:
    """(the trick's best card, its seat, the cards on it, their points) — None, to_act, 0, 0
    before the lead."""
    if state.led is None:
        return None, state.to_act, 0, 0
    cards = [state.led, *state.following]
    best, seat, pts = trick_so_far(rules, cards, (state.to_act - len(cards)) % state.players, state.trump_suit)
    return best, seat, len(cards), pts


def _keep(rules: BriscolaRules, c: Card, trump: str) -> float:
    """What card ``c`` is worth kept in hand beyond the points it carries."""
    if c.suit == trump:
        return tuning.TRUMP_BASE + tuning.TRUMP_PER_STRENGTH * rules.strength[c] + rules.card_points[c]
    return 0.05 * rules.strength[c]


def _keep_table(rules: BriscolaRules, trump: str) -> dict[Card, float]:
    """``_keep`` for every card under this trump, cached on the rules object (read-only
    after the first write; the write is idempotent, so threads may race on it harmlessly)."""
    cache = rules.__dict__.setdefault("_ai_briscola_keep", {})
    table = cache.get(trump)
    if table is None:
        table = cache[trump] = {c: _keep(rules, c, trump) for c in rules.deck_cards}
    return table


def _last_keep_table(rules: BriscolaRules) -> dict[Card, float]:
    """What keeping a card is worth once the stock is gone: only its strength (a tiebreak)."""
    table = rules.__dict__.get("_ai_briscola_last_keep")
    if table is None:
        table = rules.__dict__["_ai_briscola_last_keep"] = {c: 0.05 * rules.strength[c] for c in rules.deck_cards}
    return table
