"""The shipped puzzles made again, and the check's time (docs/PUZZLES.md).

    nice -n 10 .venv/bin/python bench/puzzles.py [--game G …] [--count 330] [--seed 1] [--out DIR]
    nice -n 10 .venv/bin/python bench/puzzles.py --check-only

Per game: ``main.py puzzles make`` with the shipped settings (rules.yaml's ``puzzles:``; the
shipped set is seed 1 and 330 puzzles a game, Briscola's with 60 more from four players,
seed 5001), into ``--out`` (default a temporary folder: the shipped files are replaced only
by copying them over by hand), then its figures line — deals, positions examined, kept,
seconds — and the CPU seconds. ``--check-only`` times ``store.check`` over the shipped set
(what tests/game/test_puzzles.py runs). No time cap anywhere: the puzzles are the same on
any machine, the seconds are this machine's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.puzzles import store  # noqa: E402
from game.puzzles.make import make  # noqa: E402
from game.rulesets import game_ids  # noqa: E402

#: Extra runs merged into a game's file: (game, players, count, seed, hidden rate).
EXTRA = (("briscola", 4, 60, 5001, 0.5),)


def check_time() -> None:
    for game in game_ids():
        puzzles = store.shipped(game)
        start = time.process_time()
        bad = [p.id for p in puzzles if store.check(p)]
        cpu = time.process_time() - start
        print(
            f"check {game}: {len(puzzles)} puzzles, {len(bad)} bad, {cpu:.2f} s CPU "
            f"({1000 * cpu / max(1, len(puzzles)):.1f} ms each)",
            flush=True,
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="a game (repeatable; default every game)")
    ap.add_argument("--count", type=int, default=330)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="where the files go (default a temporary folder)")
    ap.add_argument("--check-only", action="store_true")
    args = ap.parse_args()
    if args.check_only:
        check_time()
        return 0
    out = Path(args.out or tempfile.mkdtemp(prefix="puzzles-"))
    out.mkdir(parents=True, exist_ok=True)
    for game in args.game or game_ids():
        cpu = time.process_time()
        puzzles, figures = make(game, args.count, args.seed)
        print(figures.line(), f"({time.process_time() - cpu:.0f} s CPU)", flush=True)
        for g, players, count, seed, rate in EXTRA:
            if g == game:
                cpu = time.process_time()
                more, fig = make(game, count, seed, players=players, hidden_rate=rate)
                print(fig.line(), f"({players} players, {time.process_time() - cpu:.0f} s CPU)", flush=True)
                puzzles += more
        path = out / f"{game}{store.SUFFIX}"
        problem = store.write_file(path, puzzles, overwrite=True)
        print(problem or f"  {len(puzzles)} puzzles written to {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
