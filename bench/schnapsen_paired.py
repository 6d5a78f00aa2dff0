"""Two settings of one of our Schnapsen bots against the same opponent on the same deals, paired.

bench/schnapsen_adapter.py plays one bot against RdeepBot; comparing two of its runs leaves
both runs' luck in the difference. This plays both settings on every deal seed (both seatings
each, the opponent's random stream seeded the same way), and prints each setting's win rate
and the paired difference of their wins per deal seed with its standard error:

    .venv-bench/bin/python bench/schnapsen_paired.py --a policy --variant schnapsen.SAFE_LEAD=6 --games 1000 --seed 1

``--base`` and ``--variant`` are comma-separated ``schnapsen.NAME=VALUE`` hook settings (the
base defaults to the module as shipped: every name the variant sets, at its shipped value).
``--variant-a`` gives the variant another bot setting instead of (or beside) hook settings, as
bench/schnapsen_adapter.py takes it:

    .venv-bench/bin/python bench/schnapsen_paired.py --a hard --variant-a hard:perfect_leaves=true --games 300 --jobs 2

Tune on seeds below 10,000 and report above (docs/AI.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import schnapsen_adapter as adapter  # noqa: E402  (exits with a clear message without the package)
from ai_strength import apply_hooks, parse_hooks, wilson  # noqa: E402

from game.ai.hooks import tuning_module  # noqa: E402


def shipped(hooks: list[tuple[str, str, object]]) -> list[tuple[str, str, object]]:
    """The shipped values of the constants ``hooks`` set (read before any is changed)."""
    return [(game, name, getattr(tuning_module(game), name)) for game, name, _value in hooks]


def play_both(args: tuple) -> tuple[list[int], list[int]]:
    """One deal seed under both settings: A's signed game points per game, base then variant."""
    (a_base, a_variant), b_spec, seed, base, variant = args
    results = []
    for a_spec, hooks in ((a_base, base), (a_variant, variant)):
        apply_hooks(hooks)
        out, *_ = adapter.play_pair((a_spec, b_spec, seed, hooks, False, None))
        results.append(out)
    apply_hooks(base)
    return results[0], results[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="policy", help="our bot (as bench/schnapsen_adapter.py takes it)")
    ap.add_argument("--b", default="rdeep")
    ap.add_argument("--base", default="", help="schnapsen.NAME=VALUE,... (default: shipped)")
    ap.add_argument("--variant", default="", help="schnapsen.NAME=VALUE,...")
    ap.add_argument("--variant-a", help="the variant's bot setting (default: --a), e.g. hard:perfect_leaves=true")
    ap.add_argument("--games", type=int, default=300, help="deal seeds, each played twice per setting")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error("--games must be at least 2")
    if not args.variant and not args.variant_a:
        ap.error("give the variant: --variant hook settings, --variant-a a bot setting, or both")
    a_variant = args.variant_a or args.a
    try:
        variant = parse_hooks([x for x in args.variant.split(",") if x])
        base = parse_hooks([x for x in args.base.split(",") if x])
    except ValueError as e:
        ap.error(str(e))
    named = {(g, n) for g, n, _ in base}
    base = base + [h for h in shipped(variant) if (h[0], h[1]) not in named]
    base_names = {(g, n) for g, n, _ in variant}
    variant = variant + [h for h in base if (h[0], h[1]) not in base_names]
    seeds = random.Random(args.seed)
    jobs = [((args.a, a_variant), args.b, seeds.getrandbits(31), base, variant) for _ in range(args.games)]
    start = time.perf_counter()
    pairs: list[tuple[list[int], list[int]]] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            pairs = list(pool.map(play_both, jobs))
    else:
        pairs = [play_both(j) for j in jobs]
    n = 2 * len(pairs)
    wins_b = [sum(x > 0 for x in b) for b, _ in pairs]
    wins_v = [sum(x > 0 for x in v) for _, v in pairs]
    diff = [(v - b) / 2 for b, v in zip(wins_b, wins_v)]
    gp = [(sum(v) - sum(b)) / 2 for b, v in pairs]
    se = statistics.stdev(diff) / len(diff) ** 0.5
    se_gp = statistics.stdev(gp) / len(gp) ** 0.5
    print(f"A={args.a} vs B={args.b}, {args.games} deal seeds ({n} games a setting), seed {args.seed}")
    for label, spec, hooks, wins in (("base", args.a, base, wins_b), ("variant", a_variant, variant, wins_v)):
        w = sum(wins)
        lo, hi = wilson(w / n, n)
        print(
            f"  {label} ({', '.join([spec, *(f'{g}.{k}={v!r}' for g, k, v in hooks)])}): win rate {w / n:.3f} "
            f"(95% Wilson {lo:.3f}–{hi:.3f}; {w} of {n})"
        )
    print(
        f"  variant minus base: win rate {statistics.fmean(diff):+.4f} ± {se:.4f}, "
        f"game points a game {statistics.fmean(gp):+.4f} ± {se_gp:.4f} (paired over the deal seeds)"
    )
    print(f"  wall time {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
