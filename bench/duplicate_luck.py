"""How much of the cards' luck duplicate scoring takes out (issue 31).

    .venv/bin/python bench/duplicate_luck.py --game scopa --deals 30 --seed 1

For every deal seed, hard and normal play one deal (hard at seat 0), then the same deal with
the seats swapped (game.services.par.swapped: hard now holds normal's cards). Per deal:

- plain:     hard's points minus normal's in the first half alone (what one ordinary deal says);
- duplicate: the mean of that difference over both halves (same cards for both players).

Both are estimates of the same skill gap; the standard deviation across deals says how much
each hangs on the cards. The ratio plain / duplicate is the luck duplicate removes (an equal
number of plain deals is then that many times noisier). Bots search a fixed number of
iterations with no time cap (``--hard-iterations``, ``--normal-iterations``: default the
normal level's own and 400 for hard), so a run gives the same figures on any machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.match import Match  # noqa: E402
from game.rulesets import make_rules  # noqa: E402
from game.services.par import fixed_bot, margin, sub_seed, swapped  # noqa: E402


def one_deal(job: tuple) -> tuple[float, float]:
    """(plain difference, duplicate difference) of one deal seed."""
    game, players, seed, hard_it, normal_it = job
    diffs = []
    for half, seating in enumerate(
        (["hard", "normal"] * (players // 2), swapped(["hard", "normal"] * (players // 2))), start=1
    ):
        rules = make_rules(game, players=players)
        bots = []
        for s, level in enumerate(seating):
            it = hard_it if level == "hard" else normal_it
            bots.append(fixed_bot(level, rules, s, sub_seed("luck", seed, half, s), it))
        m = Match(rules, seed, bots, deals=1)
        m.run()
        hard_team = rules.team_of(seating.index("hard"))
        diffs.append(margin(rules, m.deal_points, hard_team))
    return diffs[0], (diffs[0] + diffs[1]) / 2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hard-iterations", type=int, default=400)
    ap.add_argument("--normal-iterations", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    if args.deals < 2:
        ap.error("--deals must be at least 2")
    jobs = [
        (args.game, args.players, sub_seed("bench", args.seed, i), args.hard_iterations, args.normal_iterations)
        for i in range(args.deals)
    ]
    t = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one_deal, jobs, chunksize=1))
    else:
        results = [one_deal(j) for j in jobs]
    plain = [p for p, _ in results]
    dup = [d for _, d in results]
    sd_p, sd_d = statistics.stdev(plain), statistics.stdev(dup)
    n = len(results)
    print(
        f"{args.game} {args.players}p, hard vs normal, {n} deal seeds (--seed {args.seed}), "
        f"hard {args.hard_iterations} iterations, normal {args.normal_iterations or 'its level'}s, no time cap:"
    )
    print(f"  plain:     mean {statistics.mean(plain):+.2f} ± {sd_p / n**0.5:.2f}, std dev {sd_p:.2f}")
    print(f"  duplicate: mean {statistics.mean(dup):+.2f} ± {sd_d / n**0.5:.2f}, std dev {sd_d:.2f}")
    ratio = sd_p / sd_d if sd_d else float("inf")
    print(
        f"  std dev ratio plain/duplicate {ratio:.2f} (≈ {ratio**2:.1f}× as many plain deals for the same precision); "
        f"{time.perf_counter() - t:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
