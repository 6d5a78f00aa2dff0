"""Bot plumbing: every bot is made per match and seat, and sees only ``view(state, seat)``."""

from __future__ import annotations

import random
from collections.abc import Callable

from game.ai.hooks import View
from game.rules.base import Action, GameRules


class BaseBot:
    name = "bot"

    def __init__(self, rules: GameRules, seat: int, seed: int = 0):
        self.rules = rules
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed * 7919 + seat)

    def begin_decision(self, number: int) -> None:
        """Draw this decision's randomness from (seed, seat, decision number) alone: the match
        calls this before each choice (game.match.Match.bot_turn), so a bot asked decision k of
        a rebuilt match starts from the same state as the original's. (A string seed is hashed
        with SHA-512, the same in every run, unlike ``hash()``.)"""
        self.rng = random.Random(f"{self.seed}:{self.seat}:{number}")

    def choose(self, view: View, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action:
        raise NotImplementedError


class RandomBot(BaseBot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: View, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action:
        return self.rng.choice(legal)
