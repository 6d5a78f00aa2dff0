"""Knock's hooks for the search AI (game.ai.hooks): a determinization and the deal's value."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from game.cards import Card
from tests.template_game.rules import KnockRules, KnockState, KnockView

LEVELS: Mapping[str, Mapping[str, Any]] = {}


def determinize(rules: KnockRules, view: KnockView, rng: random.Random) -> KnockState:
    """A deal this seat cannot tell from the real one: the cards it has not seen dealt at
    random to the other hands, each its count."""
    seen = set(view.hand) | {c for _, c in view.history}
    hidden = [c for c in rules.cards if c not in seen]
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    for s, count in enumerate(view.hand_counts):
        if s == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(hidden[:count])
            hidden = hidden[count:]
    piles: list[list[Card]] = [[] for _ in range(view.players)]
    return KnockState(
        players=view.players,
        dealer=view.dealer,
        number=1,
        hands=hands,
        to_act=view.to_act,
        piles=piles,
        points=list(view.points),
        trick=list(view.trick),
        leader=(view.to_act - len(view.trick)) % view.players,
        knocked=view.knocked,
        doubled=view.doubled,
        history=list(view.history),
    )


def utilities(rules: KnockRules, state: KnockState) -> list[float]:
    """Each seat's share of the deal's points, centred: in [-1, 1]."""
    total = sum(state.points) or 1
    return [2 * p / total - 1 for p in state.points]
