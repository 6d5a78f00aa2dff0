"""The greedy baseline: one ply, a simple value of what an action gains and what it leaves.

Each game has its own evaluator ``evaluate(rules, view, action) -> float`` in
the game's folder, ``game/games/<game>/heuristics.py``; ties are broken at random.
"""

from __future__ import annotations

from collections.abc import Callable

from game.ai.base import BaseBot
from game.ai.hooks import View
from game.registry import game_module
from game.rules.base import Action


class GreedyBot(BaseBot):
    name = "greedy"

    def __init__(self, rules, seat, seed=0):
        super().__init__(rules, seat, seed)
        module = game_module(rules.game_id, "heuristics")
        self.evaluate = module.evaluate

    def choose(self, view: View, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action:
        if len(legal) == 1:
            return legal[0]
        scored = [(self.evaluate(self.rules, view, a), a) for a in legal]
        best = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s >= best - 1e-9])
