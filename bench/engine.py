"""Random-playout speed of the rules core: deals per second, one line per game and player count
— and, for a game with named option sets (rules.yaml ``presets``), one line per preset and
player count it is played with (Scopa classica … Scopa a quindici).

    .venv/bin/python bench/engine.py [--seconds 2] [--game scopa] [--repeat 3]

Each deal: shuffle and deal, play uniformly random legal actions (without re-validating them,
as the search AI does) to the end, score it. One core, one process. The rate is per second of
this process's CPU time, so other work on a shared machine does not slow the figure down
(much: caches and turbo are still shared); ``--repeat R`` prints the median of R runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.config import get_config  # noqa: E402
from game.rulesets import make_rules  # noqa: E402


def deals_per_second(
    game: str, players: int, seconds: float, seed: int = 1, options: Mapping[str, Any] | None = None
) -> float:
    rules = make_rules(game, None, players, options)
    rng = random.Random(seed)
    choice = rng.choice
    legal, apply, over = rules.legal_actions, rules.apply, rules.is_over
    n = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        s = rules.new_deal(rng, n % players, 1)
        while not over(s):
            apply(s, choice(legal(s)), check=False)
        rules.deal_result(s)
        n += 1
        if n % 16 == 0 and clock() >= deadline:
            break
    return n / (clock() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure; the median is printed")
    args = ap.parse_args()
    config = get_config()
    for game in args.game or list(config.games):
        try:
            spec = config.game(game)
            # A game with presets: a line per preset and player count; else per player count.
            runs = [(p.id, dict(p.options), n) for p in spec.presets for n in p.players] or [
                (None, {}, n) for n in spec.players
            ]
            for preset, options, players in runs:
                rate = statistics.median(
                    deals_per_second(game, players, args.seconds, options=options) for _ in range(max(1, args.repeat))
                )
                label = f"{game} {players}p" + (f" {preset}" if preset else "")
                print(f"{label}: {rate:,.0f} deals/s", flush=True)
        except (ImportError, NotImplementedError) as e:
            print(f"{game}: not available ({e})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
