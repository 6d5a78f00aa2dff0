"""The three playing levels: easy, normal, hard — SearchBot settings plus, for easy, human-like
choices.

- hard:   a large budget and the exact endgame solver; plays the most searched move (in
          Briscola with flat Monte Carlo: the root's moves only, then playouts).
- normal: a smaller budget, same search; in Scopa and Schnapsen also a plainer playout
          policy (the search saturates early there, so a budget cut alone does not separate
          the levels — see docs/AI.md).
- easy:   a small flat search whose noisy values it samples with a softmax (a temperature),
          and it sometimes overlooks a sum capture — but never an obvious move (a sweep, the
          settebello, a Cìcera bonus) and never an action far below the best it found.

What a level does differently in one game (a budget, a playout policy, a temperature) is that
game's fact: ``LEVELS[level name]`` in its hooks module (game/games/<game>/ai), applied
here under the caller's own keywords. This module names no game.
"""

from __future__ import annotations

import math
import random
from typing import Any

from game.ai.hooks import OBVIOUS, View, load_hooks
from game.ai.search import SearchBot
from game.rules.base import Action, GameRules
from game.rules.capture import captured


def _per_game(cls: type[SearchBot], rules: GameRules, kw: dict[str, Any]) -> None:
    """Apply this level's settings for the game, its player count and its house rules —
    ``LEVELS[level name]`` of the game's hooks module (game/games/<game>/ai) — under the
    caller's keywords."""
    for k, v in load_hooks(rules.game_id).level_settings(cls.name, rules.players, rules.options).items():
        kw.setdefault(k, v)


class HardBot(SearchBot):
    name = "hard"
    ITERATIONS = 4000
    TIME_CAP = 0.9

    def __init__(self, rules: GameRules, seat: int, seed: int = 0, **kw: Any):
        _per_game(type(self), rules, kw)
        kw.setdefault("iterations", self.ITERATIONS)
        kw.setdefault("time_cap", self.TIME_CAP)
        super().__init__(rules, seat, seed, **kw)


class NormalBot(SearchBot):
    name = "normal"
    ITERATIONS = 700
    TIME_CAP = 0.25
    #: None: play the most searched move. A number: choose by a softmax at this temperature
    #: over the searched values, among moves at most ``blunder_margin`` below the best.
    temperature: float | None = None
    blunder_margin = 0.25

    def __init__(self, rules: GameRules, seat: int, seed: int = 0, **kw: Any):
        _per_game(type(self), rules, kw)
        kw.setdefault("iterations", self.ITERATIONS)
        kw.setdefault("time_cap", self.TIME_CAP)
        temperature = kw.pop("temperature", type(self).temperature)
        super().__init__(rules, seat, seed, **kw)
        self.temperature = temperature

    def pick(self, view: View, legal: list[Action], values: dict[Action, tuple[float, int]]) -> Action:
        if self.temperature is None:
            return super().pick(view, legal, values)
        seen = {a: values[a] for a in legal if values.get(a, (0.0, 0))[1] > 0} or dict(values)
        best_mean = max(m for m, _ in seen.values())
        cands = [a for a in seen if seen[a][0] >= best_mean - self.blunder_margin]
        return softmax_choice(self.rng, cands, seen, self.temperature)


def softmax_choice(
    rng: random.Random, cands: list[Action], seen: dict[Action, tuple[float, int]], temperature: float
) -> Action:
    """One of ``cands``, drawn with weight exp(mean / temperature) (means from ``seen``)."""
    top = max(seen[a][0] for a in cands)
    weights = [math.exp((seen[a][0] - top) / temperature) for a in cands]
    r = rng.random() * sum(weights)
    for a, w in zip(cands, weights):
        r -= w
        if r <= 0:
            return a
    return cands[-1]


class EasyBot(SearchBot):
    """A beginner's opponent: sees the obvious, misses the subtle."""

    name = "easy"
    ITERATIONS = 120
    TIME_CAP = 0.15
    #: Softmax temperature over mean utilities (utility 0.25 = one Scopa point).
    temperature = 0.12
    #: Never choose an action whose mean is further than this below the best found.
    blunder_margin = 0.45
    #: Chance, per decision, of not seeing the sum captures (when something else is legal).
    overlook = 0.35

    def __init__(self, rules: GameRules, seat: int, seed: int = 0, **kw: Any):
        _per_game(type(self), rules, kw)
        for knob in ("temperature", "blunder_margin", "overlook"):
            if knob in kw:
                setattr(self, knob, kw.pop(knob))
        kw.setdefault("iterations", self.ITERATIONS)
        kw.setdefault("time_cap", self.TIME_CAP)
        kw.setdefault("tree_depth", 1)
        # Wide exploration: every action gets a fair share of the small budget, so the softmax
        # below compares rough but unbiased values (UCB would lock onto one action early).
        kw.setdefault("c", 2.0)
        kw.setdefault("exact", False)
        super().__init__(rules, seat, seed, **kw)

    def pick(self, view: View, legal: list[Action], values: dict[Action, tuple[float, int]]) -> Action:
        rng = self.rng
        seen = {a: values[a] for a in legal if values.get(a, (0.0, 0))[1] > 0} or dict(values)
        best_mean = max(m for m, _ in seen.values())
        prior = self.hooks.prior
        if prior is not None:
            # The obvious move, when the search does not find it clearly worse, is always played.
            obvious = [(prior(self.rules, view, a), a) for a in seen]
            obvious = [(p, a) for p, a in obvious if p >= OBVIOUS and seen[a][0] >= best_mean - 0.25]
            if obvious:
                return max(obvious, key=lambda pa: (pa[0], seen[pa[1]][0]))[1]
        cands = [a for a in seen if seen[a][0] >= best_mean - self.blunder_margin]
        if rng.random() < self.overlook:
            simple = [a for a in cands if len(captured(a)) < 2]
            if simple:
                cands = simple
        return softmax_choice(rng, cands, seen, self.temperature)
