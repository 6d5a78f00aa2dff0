"""Bots by name: ``make_bot("greedy", rules, seat, seed)``.

Its own module, not the package's door: the game folders import ``game.ai.determinize``, and a
package ``__init__`` naming the bots (which reach the registry) would close an import circle.
"""

from __future__ import annotations

import importlib

from game.ai.base import BaseBot
from game.rules.base import GameRules

#: bot name -> "module:Class"; imported lazily so the search AI costs nothing until used.
BOTS: dict[str, str] = {
    "random": "game.ai.base:RandomBot",
    "greedy": "game.ai.greedy:GreedyBot",
    "easy": "game.ai.levels:EasyBot",
    "normal": "game.ai.levels:NormalBot",
    "hard": "game.ai.levels:HardBot",
}


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(name: str, rules: GameRules, seat: int, seed: int = 0) -> BaseBot:
    try:
        path = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})") from None
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)(rules, seat, seed)


__all__ = ["make_bot", "bot_names", "BOTS"]
