"""Headless commands: ``simulate`` (bot-vs-bot matches → records) and ``verify`` (the referee)."""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from game.ai import bot_names, make_bot
from game.config import ConfigError, get_config
from game.match import Match
from game.record import write_record
from game.rules import make_rules


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit code 2 (no usage dump)."""

    def error(self, message: str):  # noqa: D401
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardavia", description="Cardavia headless commands")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("simulate", help="bot-vs-bot matches, one record file per match")
    s.add_argument("--game", required=True)
    s.add_argument("--players", type=int)
    s.add_argument("--deck")
    s.add_argument("--matches", type=int, default=1)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--bots", help="one bot name per seat, comma-separated (default greedy)")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option, e.g. target=21 (repeatable)")
    s.add_argument("--out", help="folder for the .jsonl records")
    s.add_argument("--quiet", action="store_true")
    v = sub.add_parser("verify", help="replay records through the rules core")
    v.add_argument("files", nargs="+")
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
    options = dict(_parse_option(o) for o in args.option)
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
        out.mkdir(parents=True, exist_ok=True)
    seeds = random.Random(args.seed)
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
            write_record(out / f"{args.game}-{rules.players}p-{args.seed}-{i + 1:04d}.jsonl", events)
        if not args.quiet:
            print(f"match {i + 1}: seed {seed}, {m.deal_number} deal(s), totals {m.totals}, "
                  f"winner {'draw' if m.winner is None else 'team ' + str(m.winner)}")
    team_word = "team" if rules.players == 4 else "seat"
    summary = ", ".join(f"{team_word} {t} won {w}" for t, w in enumerate(wins))
    print(f"{args.matches} {args.game} match(es) on {rules.deck.id}, {rules.players} players, bots {','.join(names)}: "
          f"{summary}, draws {draws}" + (f"; records in {out}" if out else ""))
    return 0


def damaged(path: str) -> bool:
    """True when ``path`` is not a readable record at all: missing or unreadable, not UTF-8,
    a line that is not one JSON object (cut mid-line), or a record cut short before its
    ``match_end``. A file of JSON objects that breaks the record format or a rule is not
    damaged: it is a record that fails verification."""
    import json

    from game.record import RecordFormatError, parse_lines

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True
    lines = text.split("\n")
    if lines and not lines[-1].strip():
        lines.pop()  # the final newline
    if not lines:
        return True
    for raw in lines:
        try:
            if not isinstance(json.loads(raw), dict):
                return True
        except ValueError:
            return True
    try:
        events = parse_lines(lines)
    except RecordFormatError:
        return False
    return events[-1].get("event") != "match_end"


def verify(args: argparse.Namespace) -> int:
    """Exit 0 when every record is OK; 2 when a file is damaged (unreadable, not JSON
    lines, truncated); otherwise 1 when a well-formed record breaks the format or a rule."""
    from game.verify import verify_file

    bad = 0
    code = 0
    for f in args.files:
        verdict = verify_file(f)
        print(f"{f}: {verdict}")
        if not verdict.ok:
            bad += 1
            code = max(code, 2 if damaged(f) else 1)
    if len(args.files) > 1:
        print(f"{len(args.files) - bad} of {len(args.files)} records OK")
    return code


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "simulate":
            return simulate(args)
        return verify(args)
    except ConfigError as e:
        print(f"cardavia: {e}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"cardavia {args.command}: {e}", file=sys.stderr)
        return 2
