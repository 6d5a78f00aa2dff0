"""Fuzz ``verify``: mutations of simulated records of every registered game.

    .venv/bin/python bench/fuzz_records.py [--mutations 5000] [--seed 1] [--keep DIR]

Simulates two records per game and player count, then writes ``--mutations`` damaged
copies, spread evenly over the games, each with ONE mutation of a known kind:

- field: a required or extra field of one line replaced (by ``[]``, ``{}``, ``true``,
  ``-0.0``, a number, a text, ``null``, a list of lists, a 20-deep nesting …), removed,
  or an extra field added; the ``event`` itself replaced;
- line: two lines swapped, one doubled or removed;
- byte: a line cut mid-way (the file ends there), invalid UTF-8 inserted, a value nested
  100,000 deep, a key given twice, NaN / Infinity, a line over 1 MB, a blank line.

Each file is verified in-process (``game.services.cli.main(["verify", f])`` under a 20 s alarm) and
must give exactly one verdict line naming it, no exception, and the exit code the
documented meaning gives (docs/DESIGN.md "Command line conventions"): a byte mutation of
line k is damaged (2) with a verdict on line k; a field or line mutation leaves JSON
objects, so it is 0 or 1 — or 2 only when the record no longer ends with its
``match_end`` (cut short). Then one ``main.py verify`` subprocess over all files checks the
same from the outside: one verdict line per file in order, a summary line, no traceback,
the worst code. Non-regular files (a FIFO, /dev/zero, a folder) are checked too.

Prints counts by exit code and by mutation kind; exit 1 on any traceback, hang, wrong code
or wrong verdict line (each printed), else 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.ai.bots import make_bot  # noqa: E402
from game.config import get_config  # noqa: E402
from game.match import Match  # noqa: E402
from game.record import dumps  # noqa: E402
from game.rulesets import game_ids, make_rules  # noqa: E402
from game.services import cli  # noqa: E402

HOSTILE = [
    [],
    {},
    True,
    False,
    None,
    -0.0,
    0.0,
    1.5,
    0,
    1,
    -1,
    7,
    2**40,
    -(2**70),
    "",
    "x",
    "7D",
    "KS",
    [[]],
    [["7D"]],
    ["7D", 3],
    [1, 2, 3],
    {"team": "x"},
    {"a": [1]},
    "\u200b",
    "\x00",
]
FIELD_KINDS = ("replace", "remove", "add_extra", "replace_event")
LINE_KINDS = ("swap", "double", "remove_line")
BYTE_KINDS = ("cut", "bad_utf8", "deep", "duplicate_key", "nan", "long_line", "blank_line")


class Hang(Exception):
    pass


def simulate_records(seed: int) -> list[list[dict]]:
    config = get_config()
    rng = random.Random(seed)
    out = []
    for gid in game_ids():
        game = config.games[gid]
        for players in game.players:
            for _ in range(2):
                rules = make_rules(gid, None, players, None, config=config)
                s = rng.getrandbits(31)
                bots = [make_bot("greedy", rules, seat, s) for seat in range(players)]
                out.append(Match(rules, s, bots).run())
    return out


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def mutate(events: list[dict], kind: str, rng: random.Random) -> tuple[bytes, int, str]:
    """(file bytes, the 1-based line mutated, the mutation's family)."""
    lines = [dumps(e) for e in events]
    k = rng.randrange(len(lines))
    ev = json.loads(lines[k])
    family = "field" if kind in FIELD_KINDS else "line" if kind in LINE_KINDS else "byte"
    if kind == "replace":
        key = rng.choice(sorted(ev))
        ev[key] = rng.choice(HOSTILE + [json.loads(nested(20))])
        lines[k] = dumps(ev)
    elif kind == "remove":
        key = rng.choice(sorted(ev))
        del ev[key]
        lines[k] = dumps(ev)
    elif kind == "add_extra":
        ev["x_extra"] = rng.choice(HOSTILE + [json.loads(nested(20))])
        lines[k] = dumps(ev)
    elif kind == "replace_event":
        ev["event"] = rng.choice(["play", "deal", "match", "trick", "nonsense", 7, None, [], {}])
        lines[k] = dumps(ev)
    elif kind == "swap":
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
        k = min(k, j)
    elif kind == "double":
        lines.insert(k, lines[k])
    elif kind == "remove_line":
        del lines[k]
        k = min(k, len(lines) - 1)
    elif kind == "cut":
        raw = lines[k].encode("utf-8")
        cut = raw[: rng.randrange(1, len(raw) - 1)]
        text = "".join(x + "\n" for x in lines[:k]).encode("utf-8") + cut
        return text, k + 1, family
    elif kind == "bad_utf8":
        raw = lines[k].encode("utf-8")
        at = rng.randrange(len(raw))
        lines[k] = None  # type: ignore[call-overload]
        body = b"".join(
            (x.encode("utf-8") if x is not None else raw[:at] + b"\xff\xfe" + raw[at:]) + b"\n" for x in lines
        )
        return body, k + 1, family
    elif kind == "deep":
        lines[k] = lines[k][:-1] + ', "x_deep": ' + nested(rng.choice([100, 2000, 100_000])) + "}"
    elif kind == "duplicate_key":
        key = rng.choice(sorted(ev))
        lines[k] = lines[k][:-1] + f", {json.dumps(key)}: {json.dumps(ev[key])}" + "}"
    elif kind == "nan":
        lines[k] = lines[k][:-1] + ', "x_value": ' + rng.choice(["NaN", "Infinity", "-Infinity", "1e999"]) + "}"
    elif kind == "long_line":
        lines[k] = lines[k][:-1] + ', "x_long": "' + "a" * (1024 * 1024 + 10) + '"}'
    elif kind == "blank_line":
        lines.insert(k, "")
    return "".join(x + "\n" for x in lines).encode("utf-8"), k + 1, family


def expected_codes(family: str, data: bytes) -> set[int]:
    if family == "byte":
        return {2}
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    try:
        ends = json.loads(last).get("event") == "match_end"
    except (ValueError, AttributeError):
        ends = False
    return {0, 1} if ends else {1, 2}


def verify_in_process(path: Path) -> tuple[int | None, list[str], str | None]:
    """(exit code, output lines, traceback text or None)."""
    out = io.StringIO()

    def alarm(*_):
        raise Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(20)
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main(["verify", str(path)])
        return code, out.getvalue().splitlines(), None
    except Hang:
        return None, out.getvalue().splitlines(), "hang: no verdict within 20 s"
    except BaseException:  # noqa: BLE001 - exactly what the fuzzer looks for
        return None, out.getvalue().splitlines(), traceback.format_exc()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def main() -> int:
    ap = argparse.ArgumentParser(description="mutate simulated records and verify them")
    ap.add_argument("--mutations", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write the mutated files here (default: a temporary folder)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    records = simulate_records(args.seed)
    by_game: dict[str, list[list[dict]]] = {}
    for r in records:
        by_game.setdefault(r[0]["game"], []).append(r)
    kinds = FIELD_KINDS + LINE_KINDS + BYTE_KINDS
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cardavia-fuzz-"))
    folder.mkdir(parents=True, exist_ok=True)
    files: list[tuple[Path, str, str, int, set[int]]] = []
    games = sorted(by_game)
    for i in range(args.mutations):
        gid = games[i % len(games)]
        kind = kinds[(i // len(games)) % len(kinds)]
        data, line, family = mutate(rng.choice(by_game[gid]), kind, rng)
        f = folder / f"m{i:05d}-{gid}-{kind}.jsonl"
        f.write_bytes(data)
        files.append((f, gid, kind, line, expected_codes(family, data)))
    # Files that are not regular files: refused unread, damaged (2).
    specials = []
    fifo = folder / "zz-fifo.jsonl"
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        specials.append(fifo)
    if os.path.exists("/dev/zero"):
        specials.append(Path("/dev/zero"))
    (folder / "zz-folder.jsonl").mkdir(exist_ok=True)
    specials.append(folder / "zz-folder.jsonl")

    bugs: list[str] = []
    codes: Counter = Counter()
    kind_codes: Counter = Counter()
    results: list[int] = []
    for f, _gid, kind, line, want in files:
        code, out, tb = verify_in_process(f)
        if tb:
            bugs.append(f"{f.name}: {tb.strip().splitlines()[-1]}\n{tb}")
            results.append(3)
            continue
        codes[code] += 1
        kind_codes[(kind, code)] += 1
        results.append(code)
        if len(out) != 1 or not out[0].startswith(f"{f}: "):
            bugs.append(f"{f.name}: expected one verdict line, got {out!r}")
        elif code not in want:
            bugs.append(f"{f.name}: exit {code}, expected {sorted(want)}: {out[0]}")
        elif kind in BYTE_KINDS and f"line {line}:" not in out[0]:
            bugs.append(f"{f.name}: the verdict should name line {line}: {out[0]}")
    for f in specials:
        code, out, tb = verify_in_process(f)
        if tb or code != 2 or len(out) != 1:
            bugs.append(f"{f}: expected one damaged verdict (exit 2), got {code} {out!r} {tb or ''}")
        codes[f"special:{code}"] += 1

    # From the outside, all files in one run: one verdict per file in order, then a summary.
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    argv = [sys.executable, str(ROOT / "main.py"), "verify", *(str(f) for f, *_ in files), *map(str, specials)]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=1800, env=env, cwd=str(ROOT))
        lines = r.stdout.splitlines()
        names = [str(f) for f, *_ in files] + [str(s) for s in specials]
        if "Traceback" in r.stderr or "Traceback" in r.stdout:
            bugs.append("subprocess: a traceback\n" + r.stderr[-2000:])
        if len(lines) != len(names) + 1 or any(not ln.startswith(n + ": ") for ln, n in zip(lines, names)):
            bugs.append(f"subprocess: {len(lines)} output lines for {len(names)} files (+1 summary expected)")
        elif " records OK" not in lines[-1]:
            bugs.append(f"subprocess: no summary line: {lines[-1]!r}")
        worst = max(results + [2])
        if r.returncode != worst:
            bugs.append(f"subprocess: exit {r.returncode}, expected the worst verdict {worst}")
        summary = lines[-1] if lines else ""
    except subprocess.TimeoutExpired:
        bugs.append("subprocess: verify of all files did not finish in 30 minutes")
        summary = ""

    print(
        f"{len(files)} mutated records of {len(games)} games ({', '.join(games)}), {len(specials)} special files, "
        f"{time.monotonic() - t0:.0f} s"
    )
    print("exit codes: " + ", ".join(f"{k}: {v}" for k, v in sorted(codes.items(), key=str)))
    for kind in kinds:
        row = ", ".join(f"{c}: {kind_codes[(kind, c)]}" for c in (0, 1, 2) if kind_codes[(kind, c)])
        print(f"  {kind:14} {row}")
    print(f"subprocess summary: {summary}")
    print(f"problems: {len(bugs)}")
    for b in bugs[:40]:
        print("  " + b)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
