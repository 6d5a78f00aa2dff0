"""Headless commands: ``simulate`` (bot-vs-bot matches → records), ``verify`` (the referee),
``daily``, ``analyse`` (the coach: game.coach.cli) and ``puzzles`` (game.puzzles.cli).

Files written here never replace an existing file without ``--force`` and never write
through a symbolic link (game.services.storage.write_bytes: a tempfile-made temporary in the target
folder, then a rename). ``verify`` streams each file and goes on after a damaged one; exit
codes: 0 every record OK, 1 a readable record breaks the format or a rule, 2 a file is
damaged (or a bad command line), 3 verify itself failed on a record (a bug: please report).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Mapping
from pathlib import Path

from game.ai.bots import bot_names, make_bot
from game.config import ConfigError, get_config
from game.match import Match
from game.record import write_record
from game.rules.base import GameRules
from game.rulesets import make_rules
from game.services.storage import not_regular


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit code 2 (no usage dump)."""

    def error(self, message: str):  # noqa: D401
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _choices() -> tuple[str, str, str]:
    """What --help lists, so that nobody needs rules.yaml open to call ``simulate``: the games,
    the decks, and each game's options with their values; blank when rules.yaml cannot be
    read (the command then says why, in one line)."""
    try:
        cfg = get_config()
    except (ConfigError, OSError):
        return "", "", ""
    lines = []
    for gid, game in cfg.games.items():
        opts = [
            f"{k}={'|'.join(str(v) for v in [spec.default, *(a for a in spec.allowed if a != spec.default)])}"
            for k, spec in game.options.items()
            if len(spec.allowed) > 1
        ]
        lines.append(f"  {gid}: {', '.join(opts) if opts else '(none)'}")
    return ", ".join(cfg.games), ", ".join(cfg.decks), "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardavia", description="Cardavia headless commands")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    games, decks, options = _choices()
    s = sub.add_parser(
        "simulate",
        help="bot-vs-bot matches, one record file per match",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="options per game (NAME=VALUE, the first value is the default):\n" + options,
    )
    s.add_argument("--game", required=True, help=f"one of: {games}")
    s.add_argument("--players", type=int, help="the number of players (default: the first the game allows)")
    s.add_argument("--deck", help=f"one of the game's decks: {decks} (default: the game's first)")
    s.add_argument("--matches", type=int, default=1)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument(
        "--bots", help=f"one bot per seat, comma-separated, each one of: {', '.join(bot_names())} (default greedy)"
    )
    s.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. target=21 (repeatable; the values are listed below)",
    )
    s.add_argument("--out", help="folder for the .jsonl records")
    s.add_argument("--force", action="store_true", help="replace records of the same name in --out")
    s.add_argument("--quiet", action="store_true")
    s.add_argument(
        "--duplicate",
        action="store_true",
        help="play each match twice, the second time with every player one seat on (hands swapped)",
    )
    d = sub.add_parser("daily", help="the offline daily deal played by a bot, scored against par")
    d.add_argument("--game", required=True)
    d.add_argument("--preset", help="the preset (default the game's first; 'standard' for a game without)")
    d.add_argument("--date", help="YYYY-MM-DD (default today)")
    d.add_argument("--bot", required=True, help="the bot in the player's seat (easy, normal, hard, …)")
    d.add_argument("--out", help="folder for the record (default the replays folder)")
    from game.coach.cli import add_parser as add_analyse

    add_analyse(sub)
    from game.puzzles.cli import add_parser as add_puzzles

    add_puzzles(sub)
    v = sub.add_parser("verify", help="replay records through the rules core")
    v.add_argument("files", nargs="+")
    v.add_argument("--strict", action="store_true", help="also demand this program's own writing conventions")
    return p


def _parse_option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise ValueError(f"--option {text!r} must look like NAME=VALUE")
    k, v = text.split("=", 1)
    try:
        return k, int(v)
    except ValueError:
        return k, v


def simulate(args: argparse.Namespace) -> int:
    config = get_config()
    if args.game not in config.games:
        raise ValueError(f"unknown game {args.game!r} (games: {', '.join(config.games)})")
    if args.matches < 1:
        raise ValueError("--matches must be at least 1")
    options = config.game(args.game).options_from_text(dict(_parse_option(o) for o in args.option))
    rules = make_rules(args.game, args.deck, args.players, options, config=config)
    names = (args.bots or "greedy").split(",")
    if len(names) == 1:
        names = names * rules.players
    if len(names) != rules.players:
        raise ValueError(f"--bots names {len(names)} bots for {rules.players} seats")
    for n in names:
        if n not in bot_names():
            raise ValueError(f"unknown bot {n!r} (bots: {', '.join(bot_names())})")
    out = Path(args.out) if args.out else None
    if out:
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {out} is a file, not a folder")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"--out {out}: cannot make the folder ({e.strerror or e})") from None
        names_out = [n for i in range(args.matches) for n in _record_names(args, rules.players, i)]
        taken = [n for n in names_out if os.path.lexists(out / n)]
        if taken and not args.force:
            more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
            raise ValueError(f"{out / taken[0]}{more} already exist(s); use --force to replace")
        links = [n for n in taken if os.path.islink(out / n)]
        if links:
            raise ValueError(f"{out / links[0]} is a symbolic link; it is not written through")
        for n in taken:  # --force replaces only a file: never a FIFO, a device, a socket, a folder
            kind = not_regular(out / n)
            if kind:
                raise ValueError(f"{out / n} is {kind}, not a file; it is not replaced")
    seeds = random.Random(args.seed)
    if args.duplicate:
        return _simulate_duplicate(args, rules, options, names, seeds, out)
    wins = [0] * rules.teams
    draws = 0
    for i in range(args.matches):
        seed = seeds.getrandbits(31)
        rules_i = make_rules(args.game, rules.deck.id, rules.players, options, config=config)
        bots = [make_bot(n, rules_i, seat, seed) for seat, n in enumerate(names)]
        m = Match(rules_i, seed, bots)
        events = m.run()
        if m.winner is None:
            draws += 1
        else:
            wins[m.winner] += 1
        if out:
            try:
                write_record(out / _record_name(args, rules.players, i), events, overwrite=args.force)
            except OSError as e:
                raise ValueError(str(e)) from None
        if not args.quiet:
            print(
                f"match {i + 1}: seed {seed}, {m.deal_number} deal(s), totals {m.totals}, "
                f"winner {'draw' if m.winner is None else 'team ' + str(m.winner)}"
            )
    # A winner is a score column: a team's where partners share one, else a seat's.
    team_word = "team" if rules.teams < rules.players else "seat"
    summary = ", ".join(f"{team_word} {t} won {w}" for t, w in enumerate(wins))
    print(
        f"{args.matches} {args.game} match(es) on {rules.deck.id}, {rules.players} players, bots {','.join(names)}: "
        f"{summary}, draws {draws}" + (f"; records in {out}" if out else "")
    )
    return 0


def _record_name(args: argparse.Namespace, players: int, i: int) -> str:
    return f"{args.game}-{players}p-{args.seed}-{i + 1:04d}.jsonl"


def _record_names(args: argparse.Namespace, players: int, i: int) -> list[str]:
    """One record per match; a duplicate match's two halves end in ``a`` and ``b``."""
    if not args.duplicate:
        return [_record_name(args, players, i)]
    base = f"{args.game}-{players}p-{args.seed}-{i + 1:04d}"
    return [f"{base}a.jsonl", f"{base}b.jsonl"]


def _simulate_duplicate(
    args: argparse.Namespace,
    rules: GameRules,
    options: Mapping[str, object],
    names: list[str],
    seeds: random.Random,
    out: Path | None,
) -> int:
    """``simulate --duplicate``: every match seed played twice (game.services.par.play_duplicate), both
    halves written as ordinary records; the score is the first seating's side's margin."""
    from game.services.par import play_duplicate

    total = 0.0
    for i in range(args.matches):
        seed = seeds.getrandbits(31)
        dup = play_duplicate(args.game, rules.deck.id, rules.players, options, seed, names)
        if out:
            for name, events in zip(_record_names(args, rules.players, i), dup.records()):
                try:
                    write_record(out / name, events, overwrite=args.force)
                except OSError as e:
                    raise ValueError(str(e)) from None
        total += dup.margin
        if not args.quiet:
            a, b = dup.halves
            print(
                f"match {i + 1}: seed {seed}, first half totals {a.totals}, second half (hands swapped) "
                f"totals {b.totals}; duplicate margin of {names[0]}'s side {dup.margin:+g}"
            )
    print(
        f"{args.matches} duplicate {args.game} match(es) on {rules.deck.id}, {rules.players} players, bots "
        f"{','.join(names)}: margin of {names[0]}'s side {total:+g} in all, {total / args.matches:+.2f} a match"
        + (f"; records in {out}" if out else "")
    )
    return 0


def daily(args: argparse.Namespace) -> int:
    """``daily``: the day's deal with a bot in the player's seat; prints score, par, the
    difference and where the record went."""
    from game.services.daily import daily_deal, parse_day, play_with_bot
    from game.services.par import over_par

    day = parse_day(args.date) if args.date is not None else None
    if args.bot not in bot_names():
        raise ValueError(f"unknown bot {args.bot!r} (bots: {', '.join(bot_names())})")
    deal = daily_deal(args.game, args.preset, day)
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file, not a folder")
    result = play_with_bot(deal, args.bot)
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ValueError(f"--out {out}: cannot make the folder ({e.strerror or e})") from None
        path = out / f"daily-{deal.day.isoformat()}-{deal.game}-{deal.preset}-{args.bot}.jsonl"
        try:
            write_record(path, result.events, overwrite=True)
        except OSError as e:
            raise ValueError(str(e)) from None
    else:
        from game.services.replays import keep

        head = result.events[0]
        kept, problem = keep(result.events, seats=head["seats"])
        if kept is None:
            raise ValueError(problem or "the record could not be kept")
        path = kept
    print(
        f"daily deal {deal.day.isoformat()} {deal.game} {deal.preset}, {args.bot} in seat {deal.seat}: "
        f"score {result.score}, par {result.par.value:.2f}, difference {over_par(result.score, result.par.value)}; "
        f"record {path}"
    )
    return 0


def damaged(path: str) -> bool:
    """True when ``path`` is not a readable record at all: missing or unreadable, not a
    regular file, not UTF-8, a line that is not one JSON object within the reader's limits
    (cut mid-line, nested too deep, a key given twice), or a record cut short before its
    ``match_end``. A file of JSON objects that breaks the record format or a rule is not
    damaged: it is a record that fails verification. (Reads the whole file, one line at a
    time; ``verify`` itself decides from the first problem it meets.)"""
    from game.record import MAX_LINE, RecordFormatError, parse_line
    from game.safejson import JSONError, iter_lines, open_regular

    try:
        f = open_regular(path)
    except (OSError, JSONError):
        return True
    last = None
    with f:
        try:
            for number, raw in iter_lines(f, max_line=MAX_LINE):
                ev = parse_line(raw, number)
                if not isinstance(ev, dict):
                    return True
                last = ev
        except (JSONError, RecordFormatError, OSError):
            return True
    return last is None or last.get("event") != "match_end"


def verify(args: argparse.Namespace) -> int:
    """One verdict line per file, in order, going on after a damaged one; then (for several
    files) a summary line. The exit code is the worst verdict's: 0 OK, 1 a readable record
    breaks the format or a rule, 2 a file is damaged (unreadable, not a regular file, a line
    that is not one JSON object within the limits, cut short), 3 an internal error."""
    from game.verify import verify_file

    counts = {0: 0, 1: 0, 2: 0, 3: 0}
    for f in args.files:
        verdict = verify_file(f, strict=args.strict)
        print(f"{f}: {verdict}", flush=True)
        counts[verdict.code] += 1
    if len(args.files) > 1:
        parts = [f"{counts[1]} breaking a rule", f"{counts[2]} damaged"] + (
            [f"{counts[3]} internal errors"] if counts[3] else []
        )
        print(f"{counts[0]} of {len(args.files)} records OK ({', '.join(parts)})")
    return max((c for c, n in counts.items() if n), default=0)


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "simulate":
            return simulate(args)
        if args.command == "daily":
            return daily(args)
        if args.command == "analyse":
            from game.coach.cli import analyse

            return analyse(args)
        if args.command == "puzzles":
            from game.puzzles.cli import run as puzzles

            return puzzles(args)
        return verify(args)
    except ConfigError as e:
        print(f"cardavia: {e}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"cardavia {args.command}: {e}", file=sys.stderr)
        return 2
