"""The paired difference of two ``bench/ai_strength.py --margins`` runs on the same seeds.

    .venv/bin/python bench/ai_strength.py --game briscola --a hard --b greedy --deals 200 --seed 511 --margins new.jsonl
    .venv/bin/python bench/ai_strength.py ... --hook briscola.X=old --margins old.jsonl
    .venv/bin/python bench/paired_margins.py new.jsonl old.jsonl

Both runs deal the same cards to the same B on each seed, so most of the luck of a deal is in
both margins and cancels in their difference: the mean difference per seed (first minus
second) ± its standard error, over the seeds both files hold.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys


def read_margins(path: str) -> dict[int, float]:
    """{seed: margin} of a --margins file; ValueError with the line for anything malformed."""
    found: dict[int, float] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                seed, margin = int(row["seed"]), float(row["margin"])
            except (ValueError, KeyError, TypeError):
                raise ValueError(f'{path}, line {number}: not a {{"seed": ..., "margin": ...}} line') from None
            if not math.isfinite(margin):
                raise ValueError(f"{path}, line {number}: the margin is not a number")
            found[seed] = margin
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first")
    ap.add_argument("second")
    args = ap.parse_args(argv)
    try:
        a, b = read_margins(args.first), read_margins(args.second)
    except OSError as e:
        print(f"paired_margins: cannot read {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"paired_margins: {e}", file=sys.stderr)
        return 2
    seeds = [s for s in a if s in b]
    if len(seeds) < 2:
        print("paired_margins: the two files share fewer than two seeds (same --seed and --deals?)", file=sys.stderr)
        return 2
    diff = [a[s] - b[s] for s in seeds]
    mean = statistics.fmean(diff)
    se = statistics.stdev(diff) / math.sqrt(len(diff))
    sep = [statistics.stdev([x[s] for s in seeds]) / math.sqrt(len(seeds)) for x in (a, b)]
    print(
        f"{len(seeds)} seeds: first {statistics.fmean(a[s] for s in seeds):+.3f} ± {sep[0]:.3f}, "
        f"second {statistics.fmean(b[s] for s in seeds):+.3f} ± {sep[1]:.3f}"
    )
    print(
        f"  paired difference (first − second): {mean:+.3f} ± {se:.3f} per seed"
        + (f" ({abs(mean) / se:.1f} SE)" if se > 0 else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
