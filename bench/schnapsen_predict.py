"""How well does a model of the opponent predict RdeepBot's moves? A diagnostic for card reading.

Card reading weighs each hand he may hold by how likely his plays were from it, under a model
of how he chooses (the playout policy). That can only tell his cards apart as far as his
choices follow from his hand. This plays our hard level against RdeepBot (16, 4) in the
package's engine (see bench/schnapsen_adapter.py) and, at each of RdeepBot's decisions with
more than one legal move, asks:

- the playout policy (no random moves; the most common choice over 5 deals of the unseen
  cards, with his own hand as it is): our search's model of his replies;
- the greedy bot (one ply of card sense);
- a second RdeepBot with another random stream: how often he agrees with himself, the most
  any model of him could reach;
- a uniform random pick (its expected agreement).

and prints the share of his choices each one matched, by kind of decision.

    .venv-bench/bin/python bench/schnapsen_predict.py --games 30 --seed 1
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import schnapsen_adapter as adapter  # noqa: E402  (exits with a clear message without the package)
from schnapsen.bots import RdeepBot  # noqa: E402
from schnapsen.game import SchnapsenGamePlayEngine  # noqa: E402

from game.ai.bots import make_bot  # noqa: E402
from game.games.schnapsen import ai as schnapsen_ai  # noqa: E402

MODELS = ("policy", "greedy", "self", "random")


class Watched(RdeepBot):
    """RdeepBot, whose every choice the models are asked to predict."""

    def __init__(self, rules, tally: dict, seed: int):
        super().__init__(num_samples=16, depth=4, rand=random.Random(seed))
        self.rules = rules
        self.tally = tally
        self.greedy = make_bot("greedy", rules, 0, seed)
        self.seed = seed

    def get_move(self, perspective, leader_move):
        move = super().get_move(perspective, leader_move)
        rules = self.rules
        view = adapter.perspective_view(rules, perspective, leader_move)
        mapping = adapter.move_mapping(rules, perspective)
        legal = list(mapping)
        if len(legal) < 2:
            return move
        chosen = next(a for a, m in mapping.items() if m == move)
        rng = random.Random(self.seed * 1009 + len(view.history))
        votes: collections.Counter = collections.Counter()
        for _ in range(5):
            state = schnapsen_ai.determinize(rules, view, rng)
            votes[schnapsen_ai.rollout(rules, state, legal, rng, epsilon=0.0)] += 1
        again = RdeepBot(num_samples=16, depth=4, rand=random.Random(rng.getrandbits(31)))
        kind = ("lead" if view.led is None else "follow") + (", stock gone" if view.stock_count == 0 else "")
        row = self.tally[kind]
        row["decisions"] += 1
        row["policy"] += votes.most_common(1)[0][0] == chosen
        row["greedy"] += self.greedy.choose(view, legal) == chosen
        row["self"] += again.get_move(perspective, leader_move) == move
        row["random"] += 1 / len(legal)
        return move


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="deals, RdeepBot leading every second one")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1:
        print("schnapsen_predict: --games must be at least 1", file=sys.stderr)
        return 2
    rules = adapter.engine_rules()
    tally: dict = collections.defaultdict(collections.Counter)
    engine = SchnapsenGamePlayEngine()
    seeds = random.Random(args.seed)
    for k in range(args.games):
        seed = seeds.getrandbits(31)
        ours = adapter.build("hard", seed, [], None)
        his = Watched(rules, tally, seed + 77)
        first, second = (ours, his) if k % 2 else (his, ours)
        engine.play_game(first, second, random.Random(seed))
    print(
        f"RdeepBot (16, 4) against our hard, {args.games} deals, seed {args.seed}: "
        "the share of his choices each model matched"
    )
    total: collections.Counter = collections.Counter()
    for kind in sorted(tally):
        row = tally[kind]
        total.update(row)
        print(
            f"  {kind:20s} {row['decisions']:4d} decisions: "
            + ", ".join(f"{m} {row[m] / row['decisions']:.3f}" for m in MODELS)
        )
    print(
        f"  {'all':20s} {total['decisions']:4d} decisions: "
        + ", ".join(f"{m} {total[m] / total['decisions']:.3f}" for m in MODELS)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
