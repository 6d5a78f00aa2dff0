"""``main.py analyse RECORD --seat N [--budget B] [--json] [--lang L] [--seed S]``: the coach on
the command line.

The record is judged by the referee first (game.verify): a record that is damaged or breaks a
rule, or a seat whose cards it does not show (not a seat of the match), is refused in one
line with exit code 2. Otherwise every decision of the seat is printed — a table (number,
played, best, value lost, class, reason) or, with ``--json``, one JSON object per decision
(``decision``, ``played``, ``best``, ``loss``, ``class``, ``reason``; cards as the record
writes them, the loss in the game's own points, never negative) — then a last summary line
(``seat``, ``decisions``, ``mean_loss``, ``seconds``).
"""

from __future__ import annotations

import argparse
import json
import sys

from game.coach.analysis import COACH_SEED, CoachError, analyse_events, rules_of
from game.coach.hooks import load_coach
from game.coach.words import Words, move_code
from game.config_types import LANGUAGES

#: The largest budget the command accepts (playouts per decision): a day of one core.
MAX_BUDGET = 1_000_000


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``analyse`` sub-command's arguments (game.services.cli builds the parser)."""
    a = sub.add_parser("analyse", help="the coach: every decision of one seat valued, classed and explained")
    a.add_argument("record", help="a record file (.jsonl)")
    a.add_argument("--seat", type=int, required=True, help="the seat whose decisions are analysed (0, 1, …)")
    a.add_argument("--budget", type=int, help="playouts per decision (default: the game's shipped budget)")
    a.add_argument("--json", action="store_true", help="one JSON object per decision, then a summary line")
    a.add_argument("--lang", default="en", help=f"the reasons' language: {', '.join(LANGUAGES)} (default en)")
    a.add_argument("--seed", type=int, default=COACH_SEED, help="the analysis seed (default %(default)s)")


def _fail(message: str) -> int:
    print(f"cardavia analyse: {message}", file=sys.stderr)
    return 2


def analyse(args: argparse.Namespace) -> int:
    from game.record import read_record
    from game.services.i18n import I18n
    from game.verify import verify_file

    if args.budget is not None and not 1 <= args.budget <= MAX_BUDGET:
        return _fail(f"--budget must be a whole number from 1 to {MAX_BUDGET}, not {args.budget}")
    if args.lang not in LANGUAGES:
        return _fail(f"--lang must be one of {', '.join(LANGUAGES)}, not {args.lang!r}")
    verdict = verify_file(args.record)
    if not verdict.ok:
        return _fail(f"{args.record}: not a good record ({verdict})")
    try:
        events = read_record(args.record)
        rules = rules_of(events)
        analysis = analyse_events(events, args.seat, budget=args.budget, seed=args.seed)
    except CoachError as e:
        return _fail(f"{args.record}: {e}")
    except (OSError, ValueError) as e:
        return _fail(f"{args.record}: {e}")
    words = Words(I18n(args.lang).t, rules, args.lang, args.seat)
    if args.json:
        for d in analysis.decisions:
            print(
                json.dumps(
                    {
                        "decision": d.number,
                        "played": move_code(d.played),
                        "best": move_code(d.best),
                        "loss": round(d.loss, 4),
                        "class": d.klass,
                        "reason": words.reason(d.reason),
                    },
                    ensure_ascii=False,
                ),
                flush=True,
            )
        print(
            json.dumps(
                {
                    "seat": analysis.seat,
                    "decisions": len(analysis.decisions),
                    "mean_loss": round(analysis.mean_loss, 4),
                    "seconds": round(analysis.seconds, 3),
                }
            )
        )
        return 0
    units = words.t(load_coach(rules.game_id).units)
    rows = [("#", "played", "best", f"lost ({units})", "class", "reason")]
    rows += [
        (str(d.number), move_code(d.played), move_code(d.best), f"{d.loss:.2f}", d.klass, words.reason(d.reason))
        for d in analysis.decisions
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r[:5], widths)) + "  " + r[5])
    counts = ", ".join(f"{analysis.count(k)} {k}" for k in ("blunder", "mistake", "inaccuracy"))
    print(
        f"seat {analysis.seat}: {len(analysis.decisions)} decisions, mean loss {analysis.mean_loss:.3f} {units} "
        f"({counts}), {analysis.seconds:.1f} s"
    )
    return 0


__all__ = ["MAX_BUDGET", "add_parser", "analyse"]
