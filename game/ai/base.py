"""Bot plumbing: every bot is made per match and seat, and sees only ``view(state, seat)``."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from game.rules.base import Action, GameRules


class BaseBot:
    name = "bot"

    def __init__(self, rules: GameRules, seat: int, seed: int = 0):
        self.rules = rules
        self.seat = seat
        self.rng = random.Random(seed * 7919 + seat)

    def choose(self, view: Any, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action:
        raise NotImplementedError


class RandomBot(BaseBot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: Any, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action:
        return self.rng.choice(legal)
