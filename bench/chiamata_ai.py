"""Briscola chiamata's computer player, measured on duplicate deals.

    .venv/bin/python bench/chiamata_ai.py --deals 6 --seed 10000
    .venv/bin/python bench/chiamata_ai.py --calibrate 400 --seed 1

Every deal (seed ``--seed`` + k, its dealer the seed mod 5) is played several times from the same cards:

- once with all five seats at each level (easy, normal, hard): the bidding rules are the
  same at every level, so the contract is the same, and the **contract-made rate by level**
  compares the card play alone;
- five more times with one seat hard and the four others normal: **hard − normal** is that
  seat's game points against the same seat's in the all-normal play, averaged over the five
  seats of a deal (one paired sample per deal; its standard error over the deals);
- for every defender, once 2, 4 and 6 tricks are complete in the all-normal play (the called
  card still hidden from him), whether its reading (reading.partner_weights) ranks the true
  partner first (shared first place: a share of the credit) — the **card-reading share**,
  against a uniform guess's 1 / candidates;
- the wall time of every searched decision: its **p95** per level.

The budgets are fixed (``time_cap`` off): the figures are the same on every machine but the
times. Seeds of 10000 and above for reported figures, below for tuning.

``--calibrate N`` instead deals N hands to a caller at seat 0 (a random rank, called by the
bidding rules; alone with a held card one deal in four), plays them by the playout policy
and fits the card points the caller's side made on the hand's score (bidding.score): the
tuning.FIT_A/FIT_B and ALONE_A/ALONE_B the auction predicts with. ``--clues N`` plays N
deals at ``--level`` and prints, per kind of play the reading weighs, the partner's rate over
a defender's (tuning.LOAD_BIG_LAST and the others). For tuning: ``--pair-only`` plays only
hard − normal, ``--set hard.iterations=1000`` changes a level's bot setting, ``--hook
EPSILON=0.2`` a tuning constant.
"""

from __future__ import annotations

import argparse
import ast
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import game.games.chiamata.ai.tuning as tuning  # noqa: E402
from game.ai.levels import EasyBot, HardBot, NormalBot  # noqa: E402
from game.ai.search import SearchBot  # noqa: E402
from game.games.chiamata.ai import bidding  # noqa: E402
from game.games.chiamata.ai.policy import playout  # noqa: E402
from game.games.chiamata.ai.reading import CLUES, candidates, clues, partner_hit  # noqa: E402
from game.games.chiamata.rules import ChiamataRules, ChiamataState  # noqa: E402
from tests.game.test_chiamata import make  # noqa: E402

LEVELS: dict[str, type[SearchBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
READ_AFTER = (2, 4, 6)


def play_deal(
    rules: ChiamataRules,
    seed: int,
    levels: list[str],
    times: dict[str, list[float]],
    reads: dict[int, list[tuple[float, int]]] | None = None,
    settings: dict[str, dict[str, object]] | None = None,
) -> ChiamataState:
    """One deal from seed ``seed``, seat s played at ``levels[s]``; searched decisions' times
    into ``times``; with ``reads``, the defenders' readings (hit, candidates) after 2/4/6 tricks."""
    state = rules.new_deal(random.Random(seed), seed % rules.players)
    extra = settings or {}
    bots = [LEVELS[lv](rules, s, seed, time_cap=None) for s, lv in enumerate(levels)]
    for bot, lv in zip(bots, levels):
        for name, value in extra.get(lv, {}).items():
            if not hasattr(bot, name):
                raise SystemExit(f"no bot setting {name}")
            setattr(bot, name, value)
    number = 0
    while not state.over:
        seat = rules.to_act(state)
        view = rules.view(state, seat)
        legal = rules.legal_actions(state)
        if reads is not None and state.phase == "play" and not state.trick and state.partner is not None:
            done = len(state.history) // rules.players
            if done in READ_AFTER:
                for s in range(rules.players):
                    if s in (state.caller, state.partner):
                        continue
                    v = rules.view(state, s)
                    hit = partner_hit(rules, v, state.partner)
                    if hit is not None:
                        reads[done].append((hit, len(candidates(v))))
        bot = bots[seat]
        number += 1
        bot.begin_decision(number)
        action = bot.choose(view, legal)
        if bot.last_stats.get("method") == "ismcts":
            times[levels[seat]].append(bot.last_stats["seconds"])
        rules.apply(state, action)
    return state


def game_points(rules: ChiamataRules, state: ChiamataState) -> list[int]:
    return rules.deal_result(state).points


def made(rules: ChiamataRules, state: ChiamataState) -> bool | None:
    won = rules.deal_result(state).detail.get("won")
    return won if isinstance(won, bool) else None


def p95(xs: list[float]) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, math.ceil(0.95 * len(s)) - 1)]


def bench(deals: int, seed: int, settings: dict[str, dict[str, object]], pair_only: bool = False) -> None:
    rules = make()
    n = rules.players
    times: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    reads: dict[int, list[tuple[float, int]]] = {k: [] for k in READ_AFTER}
    made_by: dict[str, list[bool]] = {lv: [] for lv in LEVELS}
    side_by: dict[str, list[int]] = {lv: [] for lv in LEVELS}
    diffs: list[float] = []
    thrown = 0
    start = time.perf_counter()
    for k in range(deals):
        s = seed + k
        base: list[int] = []
        for lv in ["normal"] if pair_only else LEVELS:
            st = play_deal(rules, s, [lv] * n, times, reads if lv == "normal" else None, settings)
            ok = made(rules, st)
            if ok is None:
                break
            made_by[lv].append(ok)
            side_by[lv].append(rules.side_points(st))
            if lv == "normal":
                base = game_points(rules, st)
        if not base:
            thrown += 1
            continue
        gain = []
        for seat in range(n):
            mixed = ["normal"] * n
            mixed[seat] = "hard"
            st = play_deal(rules, s, mixed, times, None, settings)
            gain.append(game_points(rules, st)[seat] - base[seat])
        diffs.append(sum(gain) / n)
    wall = time.perf_counter() - start
    print(f"chiamata AI bench: {deals} deals from seed {seed} ({thrown} thrown in), {wall:.0f} s")
    if diffs:
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
        print(
            f"hard - normal, game points per seat per deal: {statistics.mean(diffs):+.3f} +/- {se:.3f} (paired, n={len(diffs)})"
        )
    for lv in LEVELS:
        m = made_by[lv]
        if m:
            print(
                f"contract made, all seats {lv:6}: {sum(m)}/{len(m)} = {sum(m) / len(m):.2f}"
                f"  (caller's side {statistics.mean(side_by[lv]):.1f} card points)"
            )
    for k in READ_AFTER:
        r = reads[k]
        if r:
            share = sum(h for h, _ in r) / len(r)
            uniform = sum(1 / c for _, c in r) / len(r)
            print(f"card reading after {k} tricks: true partner first {share:.2f} (uniform {uniform:.2f}, n={len(r)})")
    for lv in LEVELS:
        print(f"decision time p95 {lv:6}: {p95(times[lv]) * 1000:.0f} ms (n={len(times[lv])})")


def calibrate(hands: int, seed: int) -> None:
    """Fit side points = a + b · score on policy playouts (with a partner and alone)."""
    rules = make()
    rng = random.Random(seed)
    pairs: dict[bool, list[tuple[float, int]]] = {False: [], True: []}
    for _ in range(hands):
        state = rules.new_deal(rng, rng.randrange(rules.players))
        hand = state.hands[0]
        alone = rng.random() < 0.25
        if alone:
            called = rng.choice(hand)
        else:
            rank = rng.choice(rules.bid_order)
            called, _ = bidding.best_call(rules, hand, rank, rules.contract_points)
            if called in hand:
                continue
        state.passed = [s != 0 for s in range(rules.players)]
        state.high_seat, state.high_rank = 0, called.rank
        state.phase = "call"
        state.to_act = 0
        sc = bidding.score(rules, hand, called)
        is_alone = called in hand
        rules.apply(state, bidding.call(called))
        playout(rules, state, rng)
        pairs[is_alone].append((sc, rules.side_points(state)))
    for alone, xy in pairs.items():
        if len(xy) < 3:
            continue
        xs = [x for x, _ in xy]
        ys = [float(y) for _, y in xy]
        mx, my = statistics.mean(xs), statistics.mean(ys)
        b = sum((x - mx) * (y - my) for x, y in xy) / sum((x - mx) ** 2 for x in xs)
        a = my - b * mx
        resid = statistics.stdev([y - (a + b * x) for x, y in xy])
        print(
            f"{'alone' if alone else 'partner'}: points = {a:.1f} + {b:.3f} * score  (resid sd {resid:.1f}, n={len(xy)})"
        )


def measure_clues(deals: int, seed: int, level: str) -> None:
    """The reading's likelihood ratios as the bots' own play shows them: for each kind of
    play (reading.clues), how often the partner makes it per play over how often a defender
    does, in deals played by ``level`` at every seat (a partner alone is no partner)."""
    rules = make()
    n = rules.players
    count: dict[tuple[str, bool], int] = {}
    plays = {True: 0, False: 0}
    times: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    for k in range(deals):
        st = play_deal(rules, seed + k, [level] * n, times)
        if st.caller is None or st.partner is None or st.partner == st.caller:
            continue
        hist = st.history
        # Only the play before the called card shows: after it nobody reads.
        shown = next(j for j, (_, c) in enumerate(hist) if c == st.called)
        for t in range(0, shown - shown % n, n):
            trick = list(hist[t : t + n])
            kinds = dict(clues(rules, st.caller, st.trump_suit, trick))
            for s, _card in trick[1:]:
                if s == st.caller:
                    continue
                partner = s == st.partner
                plays[partner] += 1
                kind = kinds.get(s, "other")
                count[kind, partner] = count.get((kind, partner), 0) + 1
    print(
        f"clues in {deals} deals from seed {seed} at {level}: {plays[True]} partner plays, {plays[False]} defender plays"
    )
    for kind in [*CLUES, "other"]:
        p = count.get((kind, True), 0)
        d = count.get((kind, False), 0)
        if plays[True] and plays[False] and d:
            ratio = (p / plays[True]) / (d / plays[False])
            now = getattr(tuning, CLUES[kind]) if kind in CLUES else 1.0
            print(f"  {kind:20} partner {p:4}  defender {d:4}  ratio {ratio:.2f}  (tuning {now})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=10000)
    ap.add_argument("--calibrate", type=int, default=0, metavar="HANDS")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="LEVEL.KEY=VALUE",
        help="a bot setting over the level's (tuning: hard.iterations=2000); a Python literal",
    )
    ap.add_argument(
        "--hook", action="append", default=[], metavar="NAME=VALUE", help="a tuning constant (tuning: EPSILON=0.2)"
    )
    ap.add_argument("--clues", type=int, default=0, metavar="DEALS", help="measure the reading's ratios")
    ap.add_argument("--level", default="normal", help="the level --clues plays at")
    ap.add_argument("--pair-only", action="store_true", help="only hard - normal (tuning)")
    args = ap.parse_args()
    settings: dict[str, dict[str, object]] = {}
    for item in args.set:
        key, value = item.split("=", 1)
        level, name = key.split(".", 1)
        settings.setdefault(level, {})[name] = ast.literal_eval(value)
    for item in args.hook:
        name, value = item.split("=", 1)
        if not hasattr(tuning, name):
            raise SystemExit(f"no tuning constant {name}")
        setattr(tuning, name, ast.literal_eval(value))
    if args.set or args.hook:
        print("settings:", settings, "tuning:", args.hook)
    if args.clues:
        measure_clues(args.clues, args.seed, args.level)
    elif args.calibrate:
        calibrate(args.calibrate, args.seed)
    else:
        bench(args.deals, args.seed, settings, args.pair_only)


if __name__ == "__main__":
    main()
