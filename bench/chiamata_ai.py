"""Briscola chiamata's computer player, measured on duplicate deals (the rules from rules.yaml).

    nice -n 10 .venv/bin/python bench/chiamata_ai.py --deals 160 --seed 10000 --jobs 2
    .venv/bin/python bench/chiamata_ai.py --deals 20 --seed 10000 --all-levels
    .venv/bin/python bench/chiamata_ai.py --calibrate 400 --seed 1

Every deal (seed ``--seed`` + k, its dealer the seed mod 5) is played several times from the
same cards; the bidding rules are the same at every level, so every play of a deal has the
same auction, the same caller and the same contract:

- once with all five seats normal, then five times with one seat hard and the four others
  normal: **hard − normal** is that seat's game points against the same seat's in the
  all-normal play, averaged over the five seats of a deal (one paired sample per deal; its
  standard error over the deals). Until the hard seat departs from the all-normal play the
  normal seats' decisions are taken from it (the same seeds would find the same actions);
- the **contract made at the same bids**: by the hard caller (the play where the caller's
  seat is hard) against the normal one (the all-normal play);
- for every defender, once 2, 4 and 6 tricks are complete in the all-normal play (the called
  card still hidden from him), whether its reading (reading.partner_weights) ranks the true
  partner first (shared first place: a share of the credit) — the **card-reading share**,
  against a uniform guess's 1 / candidates;
- the wall and CPU time of every searched decision: their **p95** per level (``--jobs``
  inflates the wall time on a shared machine; the CPU time is what a quiet machine's wall
  time would be);
- with ``--all-levels``, also all five seats easy and all five hard: the contract-made rate
  with every seat at one level.

The budgets are fixed (``time_cap`` off): the figures are the same on every machine but the
times. Seeds of 10000 and above for reported figures, below for tuning. ``--out FILE`` writes
each deal's gains per seat and their mean as ``margin`` (JSON lines): two runs on the same
seeds compare with ``bench/paired_margins.py``.

``--calibrate N`` instead deals N hands to a caller at seat 0 (a random rank, called by the
bidding rules; alone with a held card one deal in four), plays them by the playout policy
and fits the card points the caller's side made on the hand's score (bidding.score): the
tuning.FIT_A/FIT_B and ALONE_A/ALONE_B the auction predicts with. ``--clues N`` plays N
deals at ``--level`` and prints, per kind of play the reading weighs, the partner's rate over
a defender's (tuning.LOAD_BIG_LAST and the others). For tuning: ``--set
hard.iterations=1000`` changes a level's bot setting, ``--hook EPSILON=0.2`` a tuning
constant (for every level).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import game.games.chiamata.ai.tuning as tuning  # noqa: E402
from game.ai.levels import EasyBot, HardBot, NormalBot  # noqa: E402
from game.ai.search import SearchBot  # noqa: E402
from game.games.chiamata.ai import bidding  # noqa: E402
from game.games.chiamata.ai.policy import playout  # noqa: E402
from game.games.chiamata.ai.reading import CLUES, candidates, clues, partner_hit  # noqa: E402
from game.games.chiamata.rules import ChiamataRules, ChiamataState  # noqa: E402
from game.rules.base import Action  # noqa: E402
from game.rulesets import make_rules  # noqa: E402

LEVELS: dict[str, type[SearchBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
READ_AFTER = (2, 4, 6)


def make() -> ChiamataRules:
    """The game's rules from rules.yaml (the piacentine pack, default options)."""
    rules = make_rules("chiamata", "piacentine", 5)
    if not isinstance(rules, ChiamataRules):
        raise SystemExit("rules.yaml's chiamata is not Briscola chiamata's rules")
    return rules


Times = dict[str, list[tuple[float, float]]]


def play_deal(
    rules: ChiamataRules,
    seed: int,
    levels: list[str],
    times: Times,
    reads: dict[int, list[tuple[float, int]]] | None = None,
    settings: dict[str, dict[str, object]] | None = None,
    replay: list[Action] | None = None,
    record: list[Action] | None = None,
) -> ChiamataState:
    """One deal from seed ``seed``, seat s played at ``levels[s]``; searched decisions' (wall,
    CPU) seconds into ``times``; with ``reads``, the defenders' readings (hit, candidates)
    after 2/4/6 tricks. ``record`` gets every action. ``replay``: the actions of a play of
    the same deal whose normal seats' bots are these: until a seat of another level departs
    from it, a normal seat's decision is taken from it, not searched again (each decision's
    randomness comes from the seed, the seat and its number alone, so the search would find
    the same action: the figures are the same, sooner)."""
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
        if replay is not None and number < len(replay) and levels[seat] == "normal":
            action = replay[number]
            number += 1
        else:
            number += 1
            bot.begin_decision(number)
            action = bot.choose(view, legal)
            if bot.last_stats.get("method") == "ismcts":
                times[levels[seat]].append((bot.last_stats["seconds"], bot.last_stats["cpu"]))
            if replay is not None and (number > len(replay) or replay[number - 1] != action):
                replay = None  # the play departs from the replayed one here
        if record is not None:
            record.append(action)
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


@dataclass
class DealResult:
    """What one duplicate deal measured (a worker's answer)."""

    seed: int
    thrown: bool = False
    #: hard's game points minus normal's, per seat (the seat's hand in each level's hands).
    gains: list[int] = field(default_factory=list)
    #: The caller's seat, the contract's points, and whether the caller's side made it when
    #: every seat played normal, and when the caller alone played hard (the same bids).
    caller: int | None = None
    contract: int = 0
    normal_made: bool = False
    hard_caller_made: bool = False
    alone: bool = False
    #: All five seats at one level (--all-levels): made, caller's side card points.
    by_level: dict[str, tuple[bool, int]] = field(default_factory=dict)
    reads: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    times: Times = field(default_factory=dict)


@dataclass(frozen=True)
class Job:
    seed: int
    settings: dict[str, dict[str, object]]
    hooks: dict[str, object]
    all_levels: bool


def play_duplicate(job: Job) -> DealResult:
    """Deal ``job.seed`` played all normal, then five times with one seat hard (each seat in
    turn), and with ``all_levels`` all easy and all hard too."""
    for name, value in job.hooks.items():
        setattr(tuning, name, value)  # a worker process starts from the shipped constants
    rules = make()
    n = rules.players
    times: Times = {lv: [] for lv in LEVELS}
    reads: dict[int, list[tuple[float, int]]] = {k: [] for k in READ_AFTER}
    out = DealResult(job.seed, reads=reads, times=times)
    actions: list[Action] = []
    base = play_deal(rules, job.seed, ["normal"] * n, times, reads, job.settings, record=actions)
    ok = made(rules, base)
    if ok is None or base.caller is None:
        out.thrown = True
        return out
    out.caller, out.normal_made = base.caller, ok
    out.contract = rules.contract(base)
    out.alone = base.partner == base.caller
    normal_points = game_points(rules, base)
    out.by_level["normal"] = (ok, rules.side_points(base))
    for seat in range(n):
        mixed = ["normal"] * n
        mixed[seat] = "hard"
        st = play_deal(rules, job.seed, mixed, times, None, job.settings, replay=actions)
        out.gains.append(game_points(rules, st)[seat] - normal_points[seat])
        if seat == base.caller:
            out.hard_caller_made = bool(made(rules, st))
    if job.all_levels:
        for lv in ("easy", "hard"):
            st = play_deal(rules, job.seed, [lv] * n, times, None, job.settings)
            out.by_level[lv] = (bool(made(rules, st)), rules.side_points(st))
    return out


def bench(
    deals: int,
    seed: int,
    settings: dict[str, dict[str, object]],
    hooks: dict[str, object],
    jobs: int = 1,
    all_levels: bool = False,
    out_path: str | None = None,
) -> None:
    start = time.perf_counter()
    work = [Job(seed + k, settings, hooks, all_levels) for k in range(deals)]
    results: list[DealResult] = []
    out = open(out_path, "w", encoding="utf-8") if out_path else None
    try:
        with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
            done = pool.map(play_duplicate, work, chunksize=1) if pool is not None else map(play_duplicate, work)
            for r in done:  # in seed order, as each finishes: a long run can be watched
                results.append(r)
                if out is not None and not r.thrown:
                    out.write(json.dumps({"seed": r.seed, "margin": statistics.mean(r.gains), "gains": r.gains}) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    wall = time.perf_counter() - start
    report(results, deals, seed, jobs, wall)


def report(results: list[DealResult], deals: int, seed: int, jobs: int, wall: float) -> None:
    played = [r for r in results if not r.thrown]
    thrown = len(results) - len(played)
    print(
        f"chiamata AI bench: {deals} deals from seed {seed} to {seed + deals - 1} ({thrown} thrown in), "
        f"{wall:.0f} s with {jobs} job(s), load {os.getloadavg()[0]:.2f}"
    )
    diffs = [statistics.mean(r.gains) for r in played]
    if diffs:
        mean = statistics.mean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
        print(
            f"hard - normal, game points per seat per deal: {mean:+.3f} +/- {se:.3f}"
            f" ({mean / se if se and se == se else float('nan'):.1f} SE; sd {statistics.stdev(diffs) if len(diffs) > 1 else 0:.3f}, n={len(diffs)})"
        )
        caller_gain = [r.gains[r.caller] for r in played if r.caller is not None]
        print(f"  of which the caller's seat: {statistics.mean(caller_gain):+.3f} game points per deal")
        hm = sum(r.hard_caller_made for r in played)
        nm = sum(r.normal_made for r in played)
        both = sum(r.hard_caller_made and r.normal_made for r in played)
        print(
            f"contract made at the same bids: hard caller {hm}/{len(played)} = {hm / len(played):.2f},"
            f" normal caller {nm}/{len(played)} = {nm / len(played):.2f}"
            f" (hard only {hm - both}, normal only {nm - both};"
            f" mean contract {statistics.mean(r.contract for r in played):.1f}, alone {sum(r.alone for r in played)})"
        )
    for lv in LEVELS:
        m = [r.by_level[lv] for r in played if lv in r.by_level]
        if m and any("hard" in r.by_level for r in played):  # --all-levels
            k = sum(ok for ok, _ in m)
            print(
                f"contract made, all seats {lv:6}: {k}/{len(m)} = {k / len(m):.2f}"
                f"  (caller's side {statistics.mean(p for _, p in m):.1f} card points)"
            )
    for k in READ_AFTER:
        rd = [x for r in played for x in r.reads.get(k, [])]
        if rd:
            share = sum(h for h, _ in rd) / len(rd)
            uniform = sum(1 / c for _, c in rd) / len(rd)
            print(
                f"card reading after {k} tricks (normal's play): true partner first {share:.2f}"
                f" (uniform {uniform:.2f}, n={len(rd)})"
            )
    for lv in LEVELS:
        ts = [t for r in results for t in r.times.get(lv, [])]
        if ts:
            print(
                f"decision time p95 {lv:6}: {p95([w for w, _ in ts]) * 1000:.0f} ms wall,"
                f" {p95([c for _, c in ts]) * 1000:.0f} ms CPU (n={len(ts)})"
            )


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
    times: Times = {lv: [] for lv in LEVELS}
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=10000)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (decision times get inflated)")
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
    ap.add_argument("--all-levels", action="store_true", help="also every seat easy, every seat hard")
    ap.add_argument("--out", metavar="FILE", help="each deal's gains per seat (JSON lines), to pair two runs")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.level not in LEVELS:
        ap.error(f"--level must be one of {', '.join(LEVELS)}")
    settings: dict[str, dict[str, object]] = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        level, dot, name = key.partition(".")
        if not sep or not dot or level not in LEVELS:
            ap.error(f"--set {item!r}: write LEVEL.KEY=VALUE with LEVEL one of {', '.join(LEVELS)}")
        try:
            settings.setdefault(level, {})[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            ap.error(f"--set {item!r}: the value is no Python literal")
    hooks: dict[str, object] = {}
    for item in args.hook:
        name, sep, value = item.partition("=")
        if not sep or not hasattr(tuning, name):
            ap.error(f"--hook {item!r}: no tuning constant {name}")
        try:
            hooks[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            ap.error(f"--hook {item!r}: the value is no Python literal")
        setattr(tuning, name, hooks[name])
    if args.set or args.hook:
        print("settings:", settings, "tuning:", args.hook)
    if args.clues:
        measure_clues(args.clues, args.seed, args.level)
    elif args.calibrate:
        calibrate(args.calibrate, args.seed)
    else:
        bench(args.deals, args.seed, settings, hooks, args.jobs, args.all_levels, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
