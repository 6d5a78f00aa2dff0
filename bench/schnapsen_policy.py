"""Schnapsen's open-stock playout policy played as a player, one setting against another.

The search's playouts (game/games/schnapsen/ai.py, ``rollout``) play the open stock with a
greedy policy and the strict phase exactly. How good that policy is as a player is cheap to
measure: two copies of it play whole deals, each with its own settings of the policy's tuning
constants, the strict phase solved exactly for both (as in the playouts), no random moves.
The policy never looks at the other hand while the stock is open, so this is a fair game.

Every deal seed is played twice with the seats swapped (duplicate): the figure is A's game
points a deal (the mean of the two seatings), with its standard error over the seeds, and
A's share of the games won.

    .venv-bench/bin/python bench/schnapsen_policy.py --a WIN_SPEND=1.0 --deals 2000 --seed 1
    .venv-bench/bin/python bench/schnapsen_policy.py --a TRUMP_IN=11 --b TRUMP_IN=10 --rules ours

``--rules engine`` (the default) plays the bench package's rules (no closing, marriages
pending until a trick: bench/schnapsen_adapter.py's EngineRules, which needs .venv-bench);
``--rules ours`` the game's own Schnapsen (the policy never closes either way).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game.games.schnapsen import ai as schnapsen_ai  # noqa: E402
from game.games.schnapsen import solver as schnapsen_solver  # noqa: E402
from game.rulesets import make_rules  # noqa: E402


def parse_settings(text: str) -> dict[str, float]:
    """``NAME=VALUE,NAME=VALUE`` of the policy module's existing upper-case constants."""
    out: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or not name.isupper() or not hasattr(schnapsen_ai, name):
            raise ValueError(f"{item!r} is not NAME=VALUE of a constant in game/games/schnapsen/ai.py")
        old = getattr(schnapsen_ai, name)
        try:
            out[name] = type(old)(float(value)) if not isinstance(old, bool) else value.lower() in ("1", "true", "yes")
        except ValueError:
            raise ValueError(f"{value!r} is not a number for {name}") from None
    return out


def make_game_rules(which: str):
    if which == "ours":
        return make_rules("schnapsen", "schnapsen-french")
    import schnapsen_adapter  # exits with a clear message without the bench package

    return schnapsen_adapter.engine_rules()


def play_deal(rules, seed: int, settings: list[dict[str, float]], first: int) -> list[int]:
    """One deal, seat s playing with ``settings[s]``; returns the game points of both seats."""
    rng = random.Random(seed)
    state = rules.new_deal(rng, first, 1)
    move_rng = random.Random(seed * 7 + 1)
    defaults = {name: getattr(schnapsen_ai, name) for s in settings for name in s}
    try:
        with schnapsen_solver.shared_tables():
            while not state.over:
                if schnapsen_solver.strict(state):
                    for c, marry in schnapsen_solver.line(rules, state):
                        a = next(
                            x
                            for x in rules.legal_actions(state)
                            if x.card is c and bool(x.arg("marriage")) == bool(marry)
                        )
                        rules.apply(state, a, check=False)
                    continue
                legal = rules.legal_actions(state)
                for name, value in defaults.items():
                    setattr(schnapsen_ai, name, value)
                for name, value in settings[state.to_act].items():
                    setattr(schnapsen_ai, name, value)
                a = (
                    legal[0]
                    if len(legal) == 1
                    else schnapsen_ai.rollout(rules, state, legal, move_rng, solved=False, epsilon=0.0)
                )
                rules.apply(state, a)
    finally:
        for name, value in defaults.items():
            setattr(schnapsen_ai, name, value)
    return list(rules.deal_result(state).points)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="", help="A's settings, NAME=VALUE,... (the module's constants)")
    ap.add_argument("--b", default="", help="B's settings (default: the module as it is)")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", choices=("engine", "ours"), default="engine")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    try:
        a, b = parse_settings(args.a), parse_settings(args.b)
    except ValueError as e:
        ap.error(str(e))
    rules = make_game_rules(args.rules)
    margins: list[float] = []
    wins = games = 0
    start = time.process_time()
    for k in range(args.deals):
        seed = args.seed + k
        total = 0.0
        for a_seat in (0, 1):
            settings = [a, b] if a_seat == 0 else [b, a]
            gp = play_deal(rules, seed, settings, first=k % 2)
            diff = gp[a_seat] - gp[1 - a_seat]
            total += diff
            games += 1
            wins += diff > 0
        margins.append(total / 2)
    mean = statistics.fmean(margins)
    se = statistics.stdev(margins) / len(margins) ** 0.5 if len(margins) > 1 else float("nan")
    print(
        f"A {args.a or '(as is)'} vs B {args.b or '(as is)'}, {args.rules} rules, seeds {args.seed}.."
        f"{args.seed + args.deals - 1}: A {mean:+.4f} ± {se:.4f} game points a deal "
        f"({args.deals} deals, {games} games; A won {wins / games:.3f}); {time.process_time() - start:.1f} s CPU"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
