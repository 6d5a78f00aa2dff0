"""The coach measured (issue 30): analysis time per deal, verdict stability, and whether it
measures skill.

    nice .venv/bin/python bench/coach.py [--game G …] [--deals N] [--budget B] [--player-iterations I]

Per game (its first player count), for ``--deals`` deal seeds:

1. **Time**: one deal played by greedy bots, seat 0's decisions analysed at the shipped budget
   (each game's coach.BUDGET playouts per decision: game.coach.flat);
   the analysis thread's CPU seconds per deal (what one core of a quiet machine would take)
   and the wall seconds.
2. **Stability** (``--no-stability`` leaves it out): the same deals analysed with a second analysis seed; the share of decisions
   (with more than one legal move) where both seeds name the same best move (the move the
   coach shows: game.coach.analysis.tied_best); where both seeds' highest-valued move is the
   same (the best as it was shown before the tied best, for comparison); where they agree
   up to ties (each seed's best is within the game's inaccuracy threshold of the other's by
   that other seed's own values: two moves the coach cannot tell apart); and where they give
   the played move the same class. And the values' **resolution**: over the sampled
   (flat) decisions, for every move within the inaccuracy threshold of the best by either
   seed, how far the two seeds' shortfalls (the best value minus the move's) differ; its 90th
   percentile is what each game's coach.TIE is set to (on seeds below 10 000).
3. **Skill**: deals where seat 0 is the random player and deals where it is the hard player
   (searching ``--player-iterations`` with no time cap), the other seats greedy, the same deal
   seeds; seat 0's mean value lost per decision (decisions with a choice), random ÷ hard.

No time cap anywhere: the figures are the same on any machine but the seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai.bots import make_bot  # noqa: E402
from game.coach.analysis import analyse_events  # noqa: E402
from game.coach.hooks import load_coach  # noqa: E402
from game.match import Match  # noqa: E402
from game.rulesets import game_ids, make_rules  # noqa: E402


def deal_record(game: str, seed: int, player: str, player_iterations: int) -> list[dict]:
    """One deal, seat 0 played by ``player``, the others by greedy."""
    rules = make_rules(game)
    bots = []
    for s in range(rules.players):
        bot = make_bot(player if s == 0 else "greedy", rules, s, seed)
        if player == "hard" and s == 0:
            bot.time_cap, bot.iterations = None, player_iterations
        bots.append(bot)
    return Match(rules, seed, bots, deals=1).run()


def choices(analysis) -> list:
    return [d for d in analysis.decisions if len(d.values) > 1]


def top(d) -> object:
    """The decision's highest-valued move (the first legal one of equal values)."""
    return max(d.values, key=lambda m: m.points).action


def shortfall_spread(x, y, near: float) -> list[float]:
    """For each move within ``near`` of the best by either seed's values, how far the two
    seeds' shortfalls to their best differ."""
    tx, ty = max(m.points for m in x.values), max(m.points for m in y.values)
    out = []
    for m in x.values:
        sx, sy = tx - m.points, ty - y.value_of(m.action)
        if min(sx, sy) <= near:
            out.append(abs(sx - sy))
    return out


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[int(q * (len(xs) - 1))] if xs else 0.0


def run_game(
    game: str,
    deals: int,
    budget: int | None,
    player_iterations: int,
    first_seed: int,
    skill: bool = True,
    stability: bool = True,
) -> dict:
    budget = budget or load_coach(game).budget
    cpu, wall, same_best, same_class, near_best, same_top, n_choice = [], [], 0, 0, 0, 0, 0
    spread: list[float] = []
    tie = make_rules(game).game.coach.get("inaccuracy", 0.0)
    loss = {"random": [], "hard": []}
    for k in range(deals):
        seed = first_seed + k
        events = deal_record(game, seed, "greedy", player_iterations)
        a = analyse_events(events, 0, budget=budget, seed=1)
        b = analyse_events(events, 0, budget=budget, seed=2) if stability else a
        cpu.append(a.cpu)
        wall.append(a.seconds)
        for x, y in zip(choices(a), choices(b)) if stability else ():
            n_choice += 1
            same_best += x.best == y.best
            same_top += top(x) == top(y)
            if x.method == "flat":
                spread += shortfall_spread(x, y, tie)
            same_class += x.klass == y.klass
            near_best += (
                x.value_of(y.best) >= x.value_of(x.best) - tie and y.value_of(x.best) >= y.value_of(y.best) - tie
            )
        for player in loss if skill else ():
            rec = deal_record(game, seed, player, player_iterations)
            loss[player] += [d.loss for d in choices(analyse_events(rec, 0, budget=budget, seed=1))]
        print(
            f"  {game} deal {seed}: {a.cpu:.1f} s CPU, {a.seconds:.1f} s wall, {len(a.decisions)} decisions", flush=True
        )
    mean = {p: statistics.fmean(v) if v else 0.0 for p, v in loss.items()}
    return {
        "game": game,
        "budget": budget,
        "cpu": cpu,
        "wall": wall,
        "same_best": same_best,
        "same_class": same_class,
        "near_best": near_best,
        "same_top": same_top,
        "spread": spread,
        "choices": n_choice,
        "loss": mean,
        "n": {p: len(v) for p, v in loss.items()},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", choices=game_ids())
    p.add_argument("--deals", type=int, default=3)
    p.add_argument("--budget", type=int, help="analysis iterations per decision (default: the shipped budget)")
    p.add_argument("--player-iterations", type=int, default=4000, help="the hard player's budget (default 4000)")
    p.add_argument("--seed", type=int, default=101)
    p.add_argument("--no-skill", action="store_true", help="leave out the random vs hard part (the slow one)")
    p.add_argument("--no-stability", action="store_true", help="leave out the second analysis seed")
    args = p.parse_args(argv)
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    rows = [
        run_game(
            g, args.deals, args.budget, args.player_iterations, args.seed, not args.no_skill, not args.no_stability
        )
        for g in args.game or game_ids()
    ]
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        "| game | budget | CPU s per deal: mean (max) | wall s per deal | best agrees (2 seeds) | highest value agrees "
        "| up to ties | class agrees | resolution p90 (TIE) | mean loss per decision: random / hard | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        lr, lh = r["loss"]["random"], r["loss"]["hard"]
        ratio = f"{lr / lh:.1f}" if lh > 0 else "∞" if r["n"]["hard"] else "—"
        print(
            f"| {r['game']} | {r['budget']} | {statistics.fmean(r['cpu']):.1f} ({max(r['cpu']):.1f}) "
            f"| {statistics.fmean(r['wall']):.1f} | {r['same_best']}/{r['choices']} "
            f"({100 * r['same_best'] / max(1, r['choices']):.0f} %) | {r['same_top']}/{r['choices']} "
            f"({100 * r['same_top'] / max(1, r['choices']):.0f} %) | {r['near_best']}/{r['choices']} "
            f"({100 * r['near_best'] / max(1, r['choices']):.0f} %) | {r['same_class']}/{r['choices']} "
            f"({100 * r['same_class'] / max(1, r['choices']):.0f} %) "
            f"| {percentile(r['spread'], 0.9):.3g} ({load_coach(r['game']).tie:g}) | {lr:.3f} / {lh:.3f} "
            f"({r['n']['random']} / {r['n']['hard']} decisions) | {ratio} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
