"""Cost of the fishing games' legal_actions: the capture search as it was (the reference kept in
tests/game/test_capture_search.py) against the rules' own, on positions reached by random play.

    .venv/bin/python bench/capture_speed.py [--positions 2000] [--repeat 15] [--seed 1]

For each setting (4- and 2-player Scopa with each capture house rule, Scopone, Cìcera) it plays
whole random deals (seeded) and keeps every position where a seat is to act, up to
``--positions``. Every repeat times one pass of each implementation over all the positions
(chunks of the two alternate, so a busy machine slows both alike; the garbage collector runs as
in play); it prints the median CPU time per call of each and their ratio, and checks on the way
that both give the same actions in the same order. For the settings without house rules it also
times ``captures_for`` (each hand card of each position) and ``sums_by_value`` (each position's
table, up to its highest hand card), the entries the coach and the AIs call.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.cards import Card  # noqa: E402
from game.games.cicera.rules import CiceraRules  # noqa: E402
from game.games.scopa.rules import ScopaRules  # noqa: E402
from game.rules.base import GameRules  # noqa: E402
from game.rules.capture import CaptureState, sums_by_value  # noqa: E402
from game.rulesets import make_rules  # noqa: E402
from tests.game.test_capture_search import (  # noqa: E402
    ref_cicera_captures_for,
    ref_cicera_legal,
    ref_scopa_captures_for,
    ref_scopa_legal,
    ref_sums_by_value,
)

T = TypeVar("T")

#: (label, game, players, options)
SETTINGS: tuple[tuple[str, str, int, dict[str, object]], ...] = (
    ("scopa 4p", "scopa", 4, {}),
    ("scopa 2p", "scopa", 2, {}),
    ("scopa 4p aces take_all", "scopa", 4, {"aces": "take_all"}),
    ("scopa 2p fifteen", "scopa", 2, {"capture": "fifteen"}),
    ("scopa 4p fifteen+take_all", "scopa", 4, {"capture": "fifteen", "aces": "take_all"}),
    ("scopone 4p", "scopa", 4, {"deal": "scopone"}),
    ("cicera 4p", "cicera", 4, {}),
)


def positions(rules: GameRules, n: int, seed: int) -> list[tuple[CaptureState, list[Card], list[Card]]]:
    """Up to ``n`` positions (state copy, hand, table) from whole random deals."""
    rng = random.Random(seed)
    out: list[tuple[CaptureState, list[Card], list[Card]]] = []
    while len(out) < n:
        s = rules.new_deal(rng, rng.randrange(rules.players))
        while not s.over and len(out) < n:
            c = rules.clone(s)
            out.append((c, c.hands[c.to_act], c.table))
            rules.apply(s, rng.choice(rules.legal_actions(s)))
    return out


def time_pair(ref: Callable[[int, int], None], new: Callable[[int, int], None], n: int) -> tuple[float, float]:
    """CPU seconds per call of one pass of each over the ``n`` positions, the two alternating
    chunk by chunk (a busy machine then slows both alike)."""
    spent = [0.0, 0.0]
    clock = time.process_time
    gc.collect()
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        for k, fn in enumerate((ref, new)):
            t0 = clock()
            fn(lo, hi)
            spent[k] += clock() - t0
    return spent[0] / n, spent[1] / n


#: Positions per timed chunk.
CHUNK = 250


def measure(ref: Callable[[T], object], new: Callable[[T], object], items: list[T], repeat: int) -> tuple[float, float]:
    """Median seconds per call of ``ref`` and of ``new`` on each of ``items``, over ``repeat`` passes."""

    def run_new(lo: int, hi: int) -> None:
        for x in items[lo:hi]:
            new(x)

    def run_ref(lo: int, hi: int) -> None:
        for x in items[lo:hi]:
            ref(x)

    before: list[float] = []
    after: list[float] = []
    for _ in range(repeat):
        b, a = time_pair(run_ref, run_new, len(items))
        before.append(b)
        after.append(a)
    return statistics.median(before), statistics.median(after)


def row(label: str, calls: int, per: float | None, b: float, a: float) -> str:
    """One line: the calls timed, the actions per call (legal_actions only), the two medians
    in microseconds and their ratio."""
    actions = "" if per is None else f"{per:.2f}"
    return f"{label:42} {calls:7d} {actions:>8} {b * 1e6:10.2f} {a * 1e6:9.2f} {b / a:6.2f}"


def bench_setting(
    label: str, game_id: str, players: int, opts: dict[str, object], n: int, seed: int, repeat: int
) -> bool:
    """Print the rows of one setting; False (after saying where) when the two disagree."""
    rules = make_rules(game_id, None, players, opts)
    assert isinstance(rules, (ScopaRules, CiceraRules))
    game = cast(GameRules, rules)  # the contract's view: legal_actions of any state
    cicera = game_id == "cicera"
    ref = ref_cicera_legal if cicera else ref_scopa_legal
    ref_caps = ref_cicera_captures_for if cicera else ref_scopa_captures_for
    pos = positions(game, n, seed)
    states = [p[0] for p in pos]
    n_actions = 0
    for s, hand, table in pos:
        new = game.legal_actions(s)
        if new != ref(rules, s):
            print(f"MISMATCH in {label}: hand {hand} table {table}")
            return False
        n_actions += len(new)
    # Both called through a lambda, so neither pays a call layer the other does not.
    b, a = measure(lambda s: ref(rules, s), lambda s: game.legal_actions(s), states, repeat)
    print(row(f"legal_actions  {label}", len(states), n_actions / len(states), b, a))
    if opts:
        return True
    # The other callers' entries: captures_for (coach, hints, AI) and sums_by_value (AI).
    pairs = [(c, table) for _, hand, table in pos for c in hand]
    b, a = measure(lambda p: ref_caps(rules, *p), lambda p: rules.captures_for(*p), pairs, repeat)
    print(row(f"captures_for   {label}", len(pairs), None, b, a))
    values = rules.values
    tops = [(table, max([values.get(c, 0) for c in hand], default=0)) for _, hand, table in pos]
    b, a = measure(
        lambda p: ref_sums_by_value(p[0], values, p[1]), lambda p: sums_by_value(p[0], values, p[1]), tops, repeat
    )
    print(row(f"sums_by_value  {label}", len(tops), None, b, a))
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'call / setting':42} {'calls':>7} {'actions':>8} {'before us':>10} {'after us':>9} {'ratio':>6}")
    for label, game_id, players, opts in SETTINGS:
        if not bench_setting(label, game_id, players, opts, args.positions, args.seed, args.repeat):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
