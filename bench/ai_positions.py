"""A level scored on fixed positions with known-good moves, in seconds instead of whole matches.

    .venv/bin/python bench/ai_positions.py score --level hard [--game briscola]
    .venv/bin/python bench/ai_positions.py score --level hard:iterations=1800 --vs hard --game scopa
    .venv/bin/python bench/ai_positions.py build --game briscola --count 30 --seed 1 --iterations 16000
    .venv/bin/python bench/ai_positions.py merge /tmp/scopa.json /tmp/cicera.json

``bench/ai_positions.json`` holds, per game, positions from real deals (greedy against greedy
from a deal seed below 10,000, stopped at a drawn ply) and each legal move's value: from the
exact solver where the view fixes the state ("exact"), else from a long search at hard's
settings and a budget several times hard's own ("search:N"). A move is *good* when its value
is within ``tolerance`` of the best (exact: equal; a search: 0.03 utility, its noise), among
the moves the long search visited well (a fifth of the best's visits at least).

``score`` lets a bot (any spec bench/ai_strength.py takes: ``hard``, ``normal:iterations=300``)
choose in every position, at its budget (no time cap: the same figures on a busy machine), and
prints per game the share of good moves and the mean regret (the best value minus the chosen
move's, in the game's utility units: Scopa 0.25 ≈ one point, Briscola 1/120 of a card point
beside the win). ``build`` adds positions: only those where the choice matters (the values
spread by at least ``--spread``), so the set is a set of decisions worth getting right.

``score --vs B`` scores two bots on the same positions and prints, per game, A's mean regret
minus B's with its standard error over the positions (paired: the same decisions, so a budget's
or a setting's worth shows in minutes). ``merge`` adds the positions of other files (e.g. builds
run side by side, one per core, each into its own ``--data``), numbered on and without
repeats (the same game, deal and moves).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import build_bot, parse_spec  # noqa: E402

from game.ai.bots import make_bot  # noqa: E402
from game.ai.levels import HardBot  # noqa: E402
from game.config import get_config  # noqa: E402
from game.rulesets import make_rules  # noqa: E402

DATA = Path(__file__).resolve().parent / "ai_positions.json"
#: Tuning seeds stay below this (docs/AI.md: results are reported on seeds above it).
SEED_LIMIT = 10_000
SEARCH_TOLERANCE = 0.03
MIN_VISIT_SHARE = 0.2


def replay(entry: dict):
    """(rules, state) of a stored position: its deal rebuilt from the seed, its moves replayed."""
    rules = make_rules(entry["game"], None, entry["players"])
    rng = random.Random(entry["deal_seed"])
    state = rules.new_deal(rng, entry["dealer"], 1)
    for text in entry["moves"]:
        by_text = {str(a): a for a in rules.legal_actions(state)}
        if text not in by_text:
            raise ValueError(f"position {entry['id']}: move {text!r} is not legal on replay")
        rules.apply(state, by_text[text])
    return rules, state


def _reference(entry: dict) -> tuple[float, set[str]]:
    """(the reference's best value, the good moves): exact, the highest value and every move
    that reaches it; a long search, the value of its most visited move (its choice: a move it
    visited less can show a higher mean by noise) and the well-visited moves within
    ``SEARCH_TOLERANCE`` of it."""
    values, visits = entry["values"], entry.get("visits") or {}
    if entry["source"] == "exact":
        best = max(values.values())
        return best, {a for a, v in values.items() if v >= best - 1e-9}
    top = max(visits.values())
    seen = {a for a in values if visits.get(a, 0) >= MIN_VISIT_SHARE * top}
    best = values[max(seen, key=lambda a: (visits[a], values[a]))]
    return best, {a for a in seen if values[a] >= best - SEARCH_TOLERANCE}


def good_moves(entry: dict) -> set[str]:
    """The moves within the tolerance of the best (see the module docstring)."""
    return _reference(entry)[1]


def regret(entry: dict, move: str) -> float:
    """The reference's best value minus the value of ``move``, at least 0 (a move the long
    search barely tried counts as the worst stored value: it had no evidence of being good)."""
    best, good = _reference(entry)
    v = entry["values"].get(move)
    if entry["source"] != "exact" and move not in good:
        visits = entry.get("visits") or {}
        if visits.get(move, 0) < MIN_VISIT_SHARE * max(visits.values()):
            v = min(entry["values"].values())
    return max(0.0, best - (v if v is not None else min(entry["values"].values())))


def load(path: Path = DATA) -> list[dict]:
    """The positions stored in ``path`` ([] when there is no file); ValueError (one clear line)
    for a file that is not a positions file."""
    if not path.exists():
        return []
    try:
        positions = json.loads(path.read_text(encoding="utf-8"))["positions"]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"{path} is not a positions file ({type(e).__name__}: {e})") from None
    if not isinstance(positions, list) or not all(
        isinstance(p, dict) and {"id", "game", "players", "deal_seed", "moves", "source", "values"} <= p.keys()
        for p in positions
    ):
        raise ValueError(f"{path} is not a positions file (a position lacks its id, game, deal or values)")
    return positions


def _key(entry: dict) -> tuple:
    return entry["game"], entry["players"], entry["deal_seed"], tuple(entry["moves"])


def merge(positions: list[dict], more: list[dict]) -> tuple[list[dict], int]:
    """``positions`` followed by those of ``more`` it lacks, numbered on from its highest id;
    (the merged list, how many were added)."""
    seen = {_key(p) for p in positions}
    next_id = max((p["id"] for p in positions), default=-1) + 1
    out = list(positions)
    for entry in more:
        if _key(entry) in seen:
            continue
        seen.add(_key(entry))
        out.append({**entry, "id": next_id})
        next_id += 1
    return out, len(out) - len(positions)


def save(positions: list[dict], path: Path = DATA) -> None:
    about = json.dumps("bench/ai_positions.py: positions with known-good moves (deal seeds below 10,000)")
    lines = ",\n".join(json.dumps(p, sort_keys=True, ensure_ascii=False) for p in positions)
    path.write_text(f'{{"about": {about},\n"positions": [\n{lines}\n]}}\n', encoding="utf-8")


def score(spec: str, positions: list[dict]) -> dict[str, dict]:
    """Per game: positions, good moves chosen, mean regret, seconds — the bot at its budget.
    ``regret`` lists each position's regret in the order of ``positions`` (``score --vs``
    pairs two bots' lists)."""
    out: dict[str, dict] = {}
    for entry in positions:
        rules, state = replay(entry)
        seat = rules.to_act(state)
        bot = build_bot(spec, rules, seat, entry["id"] * 7 + 1)
        t = time.process_time()
        move = str(bot.choose(rules.view(state, seat), rules.legal_actions(state)))
        key = f"{entry['game']} {entry['players']}p"
        row = out.setdefault(key, {"n": 0, "good": 0, "regret": [], "cpu": 0.0, "exact_n": 0, "exact_good": 0})
        row["n"] += 1
        ok = move in good_moves(entry)
        row["good"] += ok
        row["regret"].append(regret(entry, move))
        row["cpu"] += time.process_time() - t
        if entry["source"] == "exact":
            row["exact_n"] += 1
            row["exact_good"] += ok
    return out


def build(
    game: str, players: int, count: int, seed: int, iterations: int, spread: float, start_id: int, keep=None
) -> list[dict]:
    """``count`` new positions of ``game`` from deal seeds drawn from ``seed`` (all < 10,000);
    ``keep(made)`` is called after each one (the file is saved as it grows)."""
    rng = random.Random(f"ai_positions:{game}:{players}:{seed}")
    made: list[dict] = []
    tries = 0
    while len(made) < count and tries < count * 20:
        tries += 1
        deal_seed = rng.randrange(SEED_LIMIT)
        rules = make_rules(game, None, players)
        deal_rng = random.Random(deal_seed)
        dealer = rules.first_dealer(random.Random(deal_seed + 1))
        state = rules.new_deal(deal_rng, dealer, 1)
        bots = [make_bot("greedy", rules, s, deal_seed * 5 + s) for s in range(players)]
        choices = []  # (moves so far) at every real choice
        moves: list[str] = []
        while not rules.is_over(state):
            s = rules.to_act(state)
            legal = rules.legal_actions(state)
            if len(legal) > 1:
                choices.append(list(moves))
            a = bots[s].choose(rules.view(state, s), legal)
            moves.append(str(a))
            rules.apply(state, a)
        if not choices:
            continue
        # Half the positions from the last third of the deal, where exact solvers decide.
        pick = rng.randrange(len(choices)) if len(made) % 2 == 0 else rng.randrange(2 * len(choices) // 3, len(choices))
        entry = {
            "id": start_id + len(made),
            "game": game,
            "players": players,
            "deal_seed": deal_seed,
            "dealer": dealer,
            "moves": choices[pick],
        }
        r, st = replay(entry)
        seat = r.to_act(st)
        bot = HardBot(r, seat, deal_seed, iterations=iterations, time_cap=None)
        values = bot.analyse(r.view(st, seat), r.legal_actions(st))
        exact = bot.last_stats["method"] == "exact"
        entry["source"] = "exact" if exact else f"search:{iterations}"
        entry["values"] = {str(a): round(v, 4) for a, (v, n) in values.items() if exact or n > 0}
        if not exact:
            entry["visits"] = {str(a): n for a, (v, n) in values.items() if n > 0}
        vals = list(entry["values"].values())
        if len(vals) < 2 or max(vals) - min(vals) < spread:
            continue
        made.append(entry)
        if keep is not None:
            keep(made)
        print(f"  {game} {players}p #{entry['id']}: {entry['source']}, good {sorted(good_moves(entry))}", flush=True)
    return made


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sc = sub.add_parser("score", help="score a bot on the stored positions")
    sc.add_argument("--level", default="hard", help="a bot spec (as bench/ai_strength.py's --a)")
    sc.add_argument("--game", action="append", help="only these games (repeatable)")
    sc.add_argument("--vs", metavar="SPEC", help="a second bot on the same positions: the paired regret difference")
    sc.add_argument("--data", type=Path, default=DATA)
    mg = sub.add_parser("merge", help="add the positions of other files to the data file")
    mg.add_argument("files", nargs="+", type=Path)
    mg.add_argument("--data", type=Path, default=DATA)
    bd = sub.add_parser("build", help="add positions to the data file")
    bd.add_argument("--game", required=True)
    bd.add_argument("--players", type=int)
    bd.add_argument("--count", type=int, default=20)
    bd.add_argument("--seed", type=int, default=1)
    bd.add_argument("--iterations", type=int, default=4 * HardBot.ITERATIONS, help="the long search's budget")
    bd.add_argument("--spread", type=float, default=0.1, help="keep positions whose move values spread this much")
    bd.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args(argv)
    config = get_config()
    try:
        if args.command == "build":
            if args.game not in config.games:
                raise ValueError(f"unknown game {args.game!r} (games: {', '.join(config.games)})")
            players = args.players or config.game(args.game).players[0]
            if players not in config.game(args.game).players:
                raise ValueError(f"{args.game} is not for {players} players")
            if not 0 < args.seed < SEED_LIMIT:
                raise ValueError(f"--seed must be between 1 and {SEED_LIMIT - 1}: seeds above are for reporting")
            positions = load(args.data)
            start = max((p["id"] for p in positions), default=-1) + 1
            made = build(
                args.game,
                players,
                args.count,
                args.seed,
                args.iterations,
                args.spread,
                start,
                keep=lambda new: save(positions + new, args.data),
            )
            positions += made
            save(positions, args.data)
            print(f"{args.data.name}: {len(positions)} positions")
            return 0
        if args.command == "merge":
            positions = load(args.data)
            added = 0
            for f in args.files:
                if not f.exists():
                    raise ValueError(f"{f}: no such file")
                positions, n = merge(positions, load(f))
                added += n
            save(positions, args.data)
            print(f"{args.data.name}: {len(positions)} positions ({added} added)")
            return 0
        specs = [args.level] + ([args.vs] if args.vs else [])
        for spec in specs:
            parse_spec(spec)
        positions = [p for p in load(args.data) if not args.game or p["game"] in args.game]
        if not positions:
            raise ValueError(f"no positions in {args.data} for that choice")
    except ValueError as e:
        print(f"ai_positions: {e}", file=sys.stderr)
        return 2
    results = [score(spec, positions) for spec in specs]
    for key, row in results[0].items():
        for spec, res in zip(specs, results):
            r = res[key]
            ex = f", exact {r['exact_good']} of {r['exact_n']}" if r["exact_n"] else ""
            print(
                f"{key} {spec}: good moves {r['good']} of {r['n']} ({100.0 * r['good'] / r['n']:.0f} %{ex}), "
                f"mean regret {statistics.fmean(r['regret']):.4f}, {r['cpu']:.1f} s CPU"
            )
        if args.vs:
            diffs = [a - b for a, b in zip(row["regret"], results[1][key]["regret"])]
            se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
            print(
                f"{key} {args.level} minus {args.vs}: regret {statistics.fmean(diffs):+.4f} ± {se:.4f} "
                f"(paired, {len(diffs)} positions; below zero: {args.level} chooses better)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
