"""Soak: many simulated deals over every game and player count, each record verified.

    .venv/bin/python bench/soak.py [--deals 10000] [--seed 1] [--bots random,greedy]

Counts deals (not matches): matches are played until the deal count for each game, player
count and option combination is reached; every match record must pass the referee. Only the
combinations a match may use are played: each option's values for that player count
(``OptionSpec.allowed_for``: Scopone only with four) that pass the game's combination rules
(``GameConfig.resolve_options``); the rest are counted apart as skipped, never as failures.
Prints the counts and exits 1 on any exception or failed record.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.ai.bots import make_bot  # noqa: E402
from game.config import get_config  # noqa: E402
from game.match import Match  # noqa: E402
from game.rulesets import make_rules  # noqa: E402
from game.verify import verify_events  # noqa: E402


def option_combinations(config) -> tuple[list[tuple[str, int, list, dict]], int]:
    """(every (game, players, decks, options) a match may be set up with, how many option
    combinations were left out as invalid for their player count)."""
    combos = []
    skipped = 0
    for gid, game in config.games.items():
        decks = config.decks_for(gid)
        names = list(game.options)
        for players in game.players:
            for values in itertools.product(*(game.options[n].allowed for n in names)):
                options = dict(zip(names, values))
                try:
                    # Not offered for this player count, or against a combination rule: a
                    # match cannot be set up this way (make_rules refuses it), so it is no test.
                    if any(v not in game.options[n].allowed_for(players) for n, v in options.items()):
                        raise ValueError("not offered")
                    game.resolve_options(options, players)
                except ValueError:
                    skipped += 1
                    continue
                combos.append((gid, players, decks, options))
    return combos, skipped


def main() -> int:
    ap = argparse.ArgumentParser(description="simulate and verify many deals")
    ap.add_argument("--deals", type=int, default=10000, help="total deals over all games and player counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="random,greedy", help="bot names drawn at random per seat")
    args = ap.parse_args()
    config = get_config()
    combos, skipped = option_combinations(config)
    per_combo = max(1, args.deals // len(combos))
    rng = random.Random(args.seed)
    bots = args.bots.split(",")
    total_deals = total_matches = failures = errors = 0
    start = time.perf_counter()
    for gid, players, decks, options in combos:
        deals = matches = 0
        while deals < per_combo:
            deck = rng.choice(decks).id
            seed = rng.getrandbits(31)
            try:
                rules = make_rules(gid, deck, players, options, config=config)
                m = Match(rules, seed, [make_bot(rng.choice(bots), rules, s, seed) for s in range(players)])
                events = m.run()
                verdict = verify_events(events, config)
            except Exception:  # the soak's whole point is to catch these
                errors += 1
                print(f"EXCEPTION {gid} {players}p {deck} {options} seed {seed}:\n{traceback.format_exc()}")
                break
            if not verdict.ok:
                failures += 1
                print(f"FAILED {gid} {players}p {deck} {options} seed {seed}: {verdict}")
            deals += m.deal_number
            matches += 1
        total_deals += deals
        total_matches += matches
        opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        print(f"{gid} {players}p {opts}: {deals} deals in {matches} matches verified", flush=True)
    secs = time.perf_counter() - start
    print(
        f"soak: {total_deals} deals in {total_matches} matches over {len(combos)} option combinations "
        f"({skipped} invalid ones skipped), {failures} failed records, {errors} exceptions, {secs:.0f} s"
    )
    return 1 if failures or errors else 0


if __name__ == "__main__":
    sys.exit(main())
