"""Search speed of the AI levels on fixed positions: iterations per second, decision times.

    .venv/bin/python bench/ai_speed.py [--game scopa] [--level hard] [--positions 10] [--repeat 3]

``--level`` also takes a bot setting as bench/ai_strength.py does (``hard:c=0.3``), timed on the
same positions as the shipped levels: what a candidate setting would cost before it ships.

For every game (its first player count, or ``--players``) the same positions are
built from fixed seeds: a deal played some random plies in (chosen by the seed; actions sorted
by their text so the positions do not depend on the order legal_actions lists them). Every
level then decides each position with its full iteration budget and *no* time cap (the
figure is the work a decision costs on this machine, not the cap), one core, one process.

Per game and level it prints the ISMCTS iterations per second (over the decisions that
searched; exact endgame solves are counted apart) and the decision time p50 / p95 over all
decisions. With ``--repeat R`` every figure is the median of R runs (the machine is shared).

``--playouts`` times the playout policy alone instead: playouts per second from determinized
states of the same positions, for the hook's default policy and each level's ``playout_kw``
(the search's inner loop without the tree: a fast ``playout`` where the game has one, else
the rollout through the engine).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai_strength import build_bot, game_options, parse_spec  # noqa: E402
from game.ai.bots import make_bot  # noqa: E402
from game.config import get_config  # noqa: E402
from game.rulesets import make_rules  # noqa: E402

LEVELS = ("hard", "normal", "easy")


def positions(
    game: str, players: int, count: int, seed: int = 1, options: dict | None = None
) -> list[tuple[object, object]]:
    """``count`` (rules, state) pairs with a real choice for the seat to act, from fixed seeds
    (``options``: the house rules in force)."""
    rules = make_rules(game, None, players, options or {})
    out = []
    s = seed
    while len(out) < count:
        rng = random.Random(f"ai_speed:{game}:{players}:{s}")
        s += 1
        state = rules.new_deal(rng, rng.randrange(players), 1)
        plies = rng.randrange(0, 40)
        for _ in range(plies):
            legal = sorted(rules.legal_actions(state), key=str)
            probe = rules.clone(state)
            a = rng.choice(legal)
            rules.apply(probe, a)
            if rules.is_over(probe):
                break
            rules.apply(state, a)
        if len(rules.legal_actions(state)) > 1:
            out.append((rules, state))
    return out


def _play_out(rules, hooks, state, rng, kw: dict) -> None:
    """One playout as the search runs it (game.ai.search.SearchBot._ismcts)."""
    playout = getattr(hooks, "playout", None)
    rollout = getattr(hooks, "rollout", None)
    if playout is not None:
        playout(rules, state, rng, **kw)
    while not rules.is_over(state):
        acts = rules.legal_actions(state)
        if len(acts) == 1:
            a = acts[0]
        elif rollout is not None:
            a = rollout(rules, state, acts, rng, **(kw if playout is None else {}))
        else:
            a = acts[rng.randrange(len(acts))]
        rules.apply(state, a, check=False)


def playout_rates(
    game: str, players: int, count: int, per_position: int = 300, options: dict | None = None
) -> dict[str, float]:
    """Playouts per second, per playout setting (the hook's default and each level's)."""
    from game.ai.search import load_hooks

    variants: list[dict] = [{}]
    for level in LEVELS:
        rules = make_rules(game, None, players, options or {})
        kw = getattr(make_bot(level, rules, 0, 0), "playout_kw", None)
        if kw and kw not in variants:
            variants.append(dict(kw))
    out = {}
    for kw in variants:
        total = 0
        secs = 0.0
        for k, (rules, state) in enumerate(positions(game, players, count)):
            hooks = load_hooks(game)
            seat = rules.to_act(state)
            view = rules.view(state, seat)
            rng = random.Random(k)
            states = [hooks.determinize(rules, view, rng) for _ in range(per_position)]
            t = time.perf_counter()
            for st in states:
                _play_out(rules, hooks, st, rng, kw)
            secs += time.perf_counter() - t
            total += len(states)
        out[",".join(f"{a}={b}" for a, b in kw.items()) or "default"] = total / secs
    return out


def reference_seconds(rounds: int = 3) -> float:
    """CPU seconds of a fixed pure-Python workload (the best of ``rounds``): this machine's
    speed today, printed beside the figures so that runs on different days compare. (The same
    code's search ran at about half the speed on 2 December 2026 as on 1 December, in a
    quiet VM both times: the host, not the load inside it.)"""
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        acc = 0
        for i in range(2_000_000):
            acc += i * i % 7
        best = min(best, time.process_time() - t)
    return best


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(math.ceil(0.95 * len(s))) - 1)]


def run_level(
    game: str, players: int, level: str, count: int, prints: list[str] | None = None, options: dict | None = None
) -> dict[str, float]:
    iters = 0
    search_secs = 0.0
    times: list[float] = []
    cpus: list[float] = []
    exact = 0
    over = 0
    over_cpu = 0
    cap = None
    for k, (rules, state) in enumerate(positions(game, players, count, options=options)):
        seat = rules.to_act(state)
        bot = build_bot(level, rules, seat, 1000 + k)  # at its budget: no time cap
        cap = bot.shipped_cap  # the shipped safety net: counted, not applied
        view, legal = rules.view(state, seat), rules.legal_actions(state)
        t = time.perf_counter()
        a = bot.choose(view, legal)
        dt = time.perf_counter() - t
        if prints is not None:
            prints.append(f"{game} {players}p {level} {k}: {a} {getattr(bot, 'last_stats', {}).get('method')}")
        times.append(dt)
        stats = getattr(bot, "last_stats", {})
        over += int(cap is not None and dt > cap)
        over_cpu += int(cap is not None and stats.get("cpu", 0.0) > cap)
        cpus.append(stats.get("cpu", 0.0))
        if stats.get("method") == "ismcts":
            iters += stats["iterations"]
            search_secs += stats["seconds"]
        elif stats.get("method") == "exact":
            exact += 1
    return {
        "ips": iters / search_secs if search_secs else float("nan"),
        "p50": statistics.median(times) * 1000,
        "p95": p95(times) * 1000,
        "cpu95": p95(cpus) * 1000,
        "exact": exact,
        "n": len(times),
        "over": over,
        "over_cpu": over_cpu,
        "cap": cap,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--players", type=int, help="this player count (default: the game's first)")
    ap.add_argument(
        "--level",
        action="append",
        help="only these levels (repeatable); a setting such as hard:c=0.3 is timed beside them",
    )
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1, help="runs per figure; the median is printed")
    ap.add_argument("--playouts", action="store_true", help="time the playout policy alone (see above)")
    ap.add_argument(
        "--fingerprint",
        metavar="FILE",
        help="write every decision (position, level, action chosen) to FILE: the same code on "
        "the same positions must choose the same actions, so two versions can be compared",
    )
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule / option of the game (repeatable; over the preset's; one game only)",
    )
    ap.add_argument("--preset", metavar="ID", help="one of the game's named option sets (rules.yaml presets)")
    args = ap.parse_args(argv)
    prints: list[str] = []
    config = get_config()
    for level in args.level or ():
        try:  # a bad setting found before any timing starts
            if parse_spec(level)[0] not in LEVELS:
                raise ValueError(f"not a level ({', '.join(LEVELS)})")
            build_bot(level, make_rules(next(iter(config.games)), None, None, {}), 0, 0)
        except ValueError as e:
            print(f"ai_speed: --level {level!r}: {e}", file=sys.stderr)
            return 2
    games = args.game or list(config.games)
    for g in games:
        if g not in config.games:
            print(f"ai_speed: unknown game {g!r} (games: {', '.join(config.games)})", file=sys.stderr)
            return 2
    options: dict = {}
    if args.preset or args.option:
        if len(games) != 1:
            print("ai_speed: --preset and --option need exactly one --game", file=sys.stderr)
            return 2
        try:
            # The preset's player count unless --players names one.
            options, args.players = game_options(games[0], args.preset, args.option, args.players)
        except ValueError as e:
            print(f"ai_speed: {e}", file=sys.stderr)
            return 2
    # As bench/ai_strength.py names them: " [capture=fifteen,re_bello=True]".
    house = f" [{','.join(f'{k}={v}' for k, v in options.items())}]" if options else ""
    print(f"machine: reference workload {reference_seconds():.3f} s CPU (the lower, the faster)", flush=True)
    for game in games:
        counts = [args.players] if args.players else [config.game(game).players[0]]
        for players in counts:
            if players not in config.game(game).players:
                continue
            if args.playouts:
                runs = [
                    playout_rates(game, players, args.positions, options=options) for _ in range(max(1, args.repeat))
                ]
                for name in runs[0]:
                    med = statistics.median(r[name] for r in runs)
                    print(
                        f"{game} {players}p{house} playout {name}: {med:9,.0f} playouts/s (median of {len(runs)})",
                        flush=True,
                    )
                continue
            for level in args.level or LEVELS:
                runs = [
                    run_level(game, players, level, args.positions, prints if i == 0 else None, options)
                    for i in range(max(1, args.repeat))
                ]
                med = {k: statistics.median(r[k] for r in runs) for k in ("ips", "p50", "p95", "cpu95")}
                r0 = runs[0]
                print(
                    f"{game} {players}p{house} {level:6s}: {med['ips']:8,.0f} iterations/s, decision p50 "
                    f"{med['p50']:7.1f} ms, p95 {med['p95']:7.1f} ms (CPU time p95 {med['cpu95']:7.1f} ms; {r0['n']} positions, "
                    f"{r0['exact']} solved exactly, over the shipped {r0['cap']} s cap: {r0['over']} by the clock, "
                    f"{r0['over_cpu']} by CPU time, "
                    f"median of {len(runs)})",
                    flush=True,
                )
    if args.fingerprint:
        Path(args.fingerprint).write_text("\n".join(prints) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
