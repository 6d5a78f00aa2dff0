"""How well two-player Briscola's card reading guesses the opponent's hand, in seconds.

    .venv/bin/python bench/briscola_reading.py --deals 40 --seed 1 --opponent greedy --plays 1 --plays 2

Plays deals between two bots of one kind (``--opponent``: greedy, a noisy greedy that plays a
random card one time in ``--noise``, or a search level) and, at every decision made while the
stock still hides cards and the opponent has played, draws ``--samples`` determinizations
of the view with each reading setting (``--plays K``: tuning.READ_PLAYS, the opponent's last K
plays explained at once; 0: no card reading). For each it prints:

- ``hit``: the share of the opponent's hidden cards the sampled hand holds (a uniform deal
  gets the number of his hidden cards over the number unseen);
- ``trumps``: the mean error in the number of trumps the sampled hand gives him;
- ``points``: the mean error in the card points of his hand;
- the time of a view's first determinization (the reading weighs every hand he may hold
  once per view) and of the others.

The same decisions are scored by every setting (the games are played once), so the
differences between settings are paired. A sharper reading is not by itself a stronger bot:
``bench/ai_strength.py`` confirms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import game.games.briscola.ai.tuning as tuning  # noqa: E402
from game.ai.bots import BOTS, make_bot  # noqa: E402
from game.games.briscola.ai import determinize  # noqa: E402
from game.rulesets import make_rules  # noqa: E402


class NoisyGreedy:
    """Greedy, but one play in ``noise`` is a random legal card: a player the model fits less."""

    def __init__(self, rules, seat: int, seed: int, noise: int) -> None:
        self.greedy = make_bot("greedy", rules, seat, seed)
        self.rng = random.Random(seed * 31 + seat)
        self.noise = noise

    def choose(self, view, legal):
        if len(legal) > 1 and self.rng.randrange(self.noise) == 0:
            return self.rng.choice(legal)
        return self.greedy.choose(view, legal)


def _positions(opponent: str, deals: int, seed: int, noise: int):
    """Yield (rules, view, the opponent's true hand) at every scored decision."""
    rules = make_rules("briscola", None, 2, {})
    for d in range(deals):
        deal_seed = seed * 1000 + d
        rng = random.Random(deal_seed)
        if opponent == "noisy":
            bots = [NoisyGreedy(rules, s, deal_seed, noise) for s in range(2)]
        else:
            bots = [make_bot(opponent, rules, s, deal_seed) for s in range(2)]
        state = rules.new_deal(rng, rules.first_dealer(rng), 1)
        while not rules.is_over(state):
            seat = rules.to_act(state)
            view = rules.view(state, seat)
            legal = rules.legal_actions(state)
            opp = 1 - seat
            if view.stock_count >= 2 and any(p == opp for p, _ in view.history):
                yield rules, view, list(state.hands[opp])
            rules.apply(state, bots[seat].choose(view, legal))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--opponent", default="greedy", help="greedy, noisy, or a bot name (normal, hard, ...)")
    ap.add_argument("--noise", type=int, default=3, help="noisy: one random play in this many")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--plays", type=int, action="append", help="READ_PLAYS settings to compare (0: no reading)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.samples < 1 or args.noise < 1:
        ap.error("--deals, --samples and --noise must be at least 1")
    if args.opponent != "noisy" and args.opponent not in BOTS:
        ap.error(f"unknown bot {args.opponent!r} (noisy, {', '.join(BOTS)})")
    settings = args.plays or [0, 1]
    if min(settings) < 0:
        ap.error("--plays must be 0 or more")
    rows = {k: {"hit": [], "trumps": [], "points": [], "secs": 0.0, "first": 0.0, "n": 0} for k in settings}
    base = []
    old = (tuning.CARD_READING, tuning.READ_PLAYS)
    try:
        for pos, (rules, view, truth) in enumerate(_positions(args.opponent, args.deals, args.seed, args.noise)):
            hidden_truth = set(truth)
            unseen = len(view.unseen) - (1 if view.trump_card in view.unseen else 0)
            base.append(len(truth) / unseen)
            true_trumps = sum(c.suit == view.trump_suit for c in truth)
            true_points = sum(rules.card_points[c] for c in truth)
            opp = 1 - view.seat
            for k in settings:
                tuning.CARD_READING = k > 0
                tuning.READ_PLAYS = max(1, k)
                rng = random.Random(pos * 7919 + 1)
                row = rows[k]
                hit = trumps = points = 0.0
                t0 = time.process_time()
                for i in range(args.samples):
                    hand = determinize(rules, view, rng).hands[opp]
                    if i == 0:
                        row["first"] += time.process_time() - t0
                        t0 = time.process_time()
                    hit += len(hidden_truth.intersection(hand)) / len(truth)
                    trumps += abs(sum(c.suit == view.trump_suit for c in hand) - true_trumps)
                    points += abs(sum(rules.card_points[c] for c in hand) - true_points)
                row["secs"] += time.process_time() - t0
                row["n"] += args.samples - 1
                row["hit"].append(hit / args.samples)
                row["trumps"].append(trumps / args.samples)
                row["points"].append(points / args.samples)
    finally:
        tuning.CARD_READING, tuning.READ_PLAYS = old
    n = len(base)
    print(
        f"{n} decisions from {args.deals} deals ({args.opponent}), {args.samples} hands each; "
        f"a uniform deal's hit {statistics.mean(base):.3f}"
        if n
        else "no decisions to score"
    )
    if not n:
        return 1
    ref = rows[settings[0]]
    for k in settings:
        row = rows[k]
        diff = [a - b for a, b in zip(row["hit"], ref["hit"])]
        se = statistics.stdev(diff) / n**0.5 if n > 1 else 0.0
        label = "no reading" if k == 0 else f"last {k} play{'s' if k > 1 else ''}"
        print(
            f"{label:>14}: hit {statistics.mean(row['hit']):.3f} ({statistics.mean(diff):+.3f} ± {se:.3f} "
            f"vs the first), trumps off by {statistics.mean(row['trumps']):.3f}, points off by "
            f"{statistics.mean(row['points']):.2f}; the first hand of a view {1e3 * row['first'] / n:.1f} ms, "
            f"the others {1e6 * row['secs'] / max(1, row['n']):.0f} µs each"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
