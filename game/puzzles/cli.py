"""``main.py puzzles check|make|daily``: the shipped puzzles checked, more made, the day's one.

- ``puzzles check [--game G]`` — one line per game, ``puzzles: GAME: N shipped, N ok``: each
  puzzle's record prefix verifies with the referee, its line is legal, and where every card
  is known the solver's margin holds (game.puzzles.store.check); the first problems follow
  on stderr. Exit 0 when every puzzle is sound, 1 otherwise, 2 for a damaged data file or
  bad arguments.
- ``puzzles make --game G --count N --seed S --out FILE [--players P] [--hidden-rate R]
  [--max-deals D] [--force]`` — the generator (game.puzzles.make); FILE ending in ``.gz`` is written
  gzip-compressed, as the shipped files are. Prints its figures: deals, positions examined,
  kept, time.
- ``puzzles daily [--date YYYY-MM-DD] --game G`` — the day's puzzle id (game.puzzles.daily).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: The largest --count the command accepts.
MAX_COUNT = 100_000
#: Problems printed per game at most (the count says how many there were).
SHOWN_PROBLEMS = 5


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``puzzles`` sub-command's arguments (game.services.cli builds the parser)."""
    p = sub.add_parser("puzzles", help="card puzzles: check the shipped set, make more, the day's puzzle")
    ps = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    c = ps.add_parser("check", help="check every shipped puzzle (prefix verifies, answer legal, margin holds)")
    c.add_argument("--game", help="one game (default: every game)")
    m = ps.add_parser("make", help="make puzzles from seeded bot deals")
    m.add_argument("--game", required=True)
    m.add_argument("--count", type=int, required=True, help="how many puzzles")
    m.add_argument("--seed", type=int, required=True, help="the first deal's seed (then S+1, S+2, …)")
    m.add_argument("--out", required=True, help="the file to write (.jsonl, or .jsonl.gz compressed)")
    m.add_argument("--players", type=int, help="the player count (default: rules.yaml's puzzles: entry)")
    m.add_argument("--hidden-rate", type=float, help="share of hidden-card decisions valued (0 to 1)")
    m.add_argument("--max-deals", type=int, help="stop after this many deals")
    m.add_argument("--force", action="store_true", help="replace FILE if it exists")
    m.add_argument("--quiet", action="store_true", help="only the figures line")
    d = ps.add_parser("daily", help="the day's puzzle id")
    d.add_argument("--game", required=True)
    d.add_argument("--date", help="YYYY-MM-DD (default today)")


def _game(game: str | None) -> list[str]:
    from game.rulesets import game_ids

    games = game_ids()
    if game is None:
        return list(games)
    if game not in games:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(games)})")
    return [game]


def check(args: argparse.Namespace) -> int:
    from game.puzzles.store import PuzzleDataError, data_path, read_file
    from game.puzzles.store import check as check_one

    worst = 0
    for game in _game(args.game):
        try:
            puzzles = read_file(data_path(game))
        except PuzzleDataError as e:
            print(f"puzzles: {game}: damaged data file: {e}", flush=True)
            worst = 2
            continue
        bad = []
        for p in puzzles:
            if p.game != game:
                bad.append(f"{p.id}: a puzzle of {p.game} in the {game} file")
                continue
            problem = check_one(p)
            if problem:
                bad.append(problem)
        ids = [p.id for p in puzzles]
        if len(set(ids)) != len(ids):
            bad.append("an id appears twice")
        print(f"puzzles: {game}: {len(puzzles)} shipped, {len(puzzles) - len(bad)} ok", flush=True)
        for line in bad[:SHOWN_PROBLEMS]:
            print(f"  {line}", file=sys.stderr)
        if bad:
            worst = max(worst, 1)
    return worst


def make(args: argparse.Namespace) -> int:
    from game.puzzles.make import make as make_puzzles
    from game.puzzles.store import write_file
    from game.services.storage import not_regular

    _game(args.game)
    if not 1 <= args.count <= MAX_COUNT:
        raise ValueError(f"--count must be a whole number from 1 to {MAX_COUNT}, not {args.count}")
    if args.seed < 0:
        raise ValueError("--seed must not be negative")
    if args.hidden_rate is not None and not 0.0 <= args.hidden_rate <= 1.0:
        raise ValueError(f"--hidden-rate must be from 0 to 1, not {args.hidden_rate}")
    if args.max_deals is not None and args.max_deals < 1:
        raise ValueError("--max-deals must be at least 1")
    out = Path(args.out)
    kind = not_regular(out)
    if kind:
        raise ValueError(f"--out {out} is {kind}, not a file")
    if out.is_symlink():
        raise ValueError(f"--out {out} is a symbolic link; nothing is written through one")
    if out.exists() and not args.force:
        raise ValueError(f"--out {out} exists (--force replaces it)")

    def tell(f) -> None:
        if not args.quiet and f.deals % 25 == 0:
            print(f"  {f.deals} deals, {f.examined} examined, {f.kept} kept, {f.seconds:.0f} s", flush=True)

    puzzles, figures = make_puzzles(
        args.game,
        args.count,
        args.seed,
        players=args.players,
        hidden_rate=args.hidden_rate,
        progress=tell,
        max_deals=args.max_deals,
    )
    problem = write_file(out, puzzles, overwrite=True)
    if problem:
        raise ValueError(problem)
    print(figures.line() + f"; written to {out}", flush=True)
    return 0


def daily(args: argparse.Namespace) -> int:
    from game.puzzles.daily import daily_id
    from game.puzzles.store import problems, shipped
    from game.services.daily import parse_day, today

    game = _game(args.game)[0]
    day = parse_day(args.date) if args.date is not None else today()
    if not shipped(game):
        raise ValueError(f"no puzzles of {game} are shipped" + (f" ({problems()[0]})" if problems() else ""))
    print(daily_id(day, game))
    return 0


def run(args: argparse.Namespace) -> int:
    """The ``puzzles`` command; ValueError (one line, exit 2 by game.services.cli) for bad arguments."""
    if args.action == "check":
        return check(args)
    if args.action == "make":
        return make(args)
    return daily(args)


__all__ = ["add_parser", "run"]
