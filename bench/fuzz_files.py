"""Fuzz the player's three files: settings.json, match.json (the save) and stats.json.

    .venv/bin/python bench/fuzz_files.py [--mutations 1000] [--seed 1] [--subprocess 10]

For each file, ``--mutations`` damaged copies of a good one (a settings file with game
choices, a save of a match in progress, statistics of several games), each with ONE
mutation: cut, invalid UTF-8, a byte-order mark, nested 100,000 deep, a key given twice,
NaN / Infinity, 5 MB of padding, empty, a top level that is not an object (``[1,2,3]``,
``null``), or a field (or a save's event field) replaced by a hostile value (``[]``,
``true``, ``-0.0``, ``"x"``, 9, ``null``, a zero-width text …), removed or added.

Each mutation is put in a fresh ``CARDAVIA_HOME`` and the game is started in-process as
``main.py`` starts it — settings loaded, the menu built (it reads the save), Continue pressed
when a match is offered, the statistics scene opened, a frame drawn each time, the settings
saved as at exit. The start must raise nothing, and nothing may be lost: either the file was
usable (settings and statistics: the file still holds the same JSON; a save: it was offered
and resumed, or the match was over) or it was moved aside as a ``.bad`` holding exactly the
damaged bytes. ``--subprocess`` more mutations per file are started for real
(``main.py --smoke``, and ``--screenshot`` for settings) with CARDAVIA_HOME set to a temporary
folder: exit 0, no traceback, the damaged file kept aside.

Prints counts per file and outcome; exit 1 on any exception or lost file (each printed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOSTILE = [
    [],
    {},
    True,
    False,
    None,
    -0.0,
    1.5,
    0,
    -1,
    9,
    2**40,
    "",
    "x",
    "\u200b",
    "\x00",
    [[1]],
    {"a": {}},
    "scopa",
    "piacentine",
    [0, 1],
    {"played": "many"},
]
BYTE_KINDS = ("cut", "bad_utf8", "bom", "deep", "duplicate_key", "nan", "padding", "empty", "not_object")
FIELD_KINDS = ("replace", "remove", "add", "replace_nested")
FILES = ("settings.json", "match.json", "stats.json")


# --------------------------------------------------------------------------- good files
def good_files(home: Path) -> dict[str, bytes]:
    """A real settings file, save and statistics, made by the game's own code."""
    os.environ["CARDAVIA_HOME"] = str(home)
    from game.services import saves, stats
    from game.services.session import Session
    from game.services.settings import Settings, save_settings

    s = Settings(language="nl", volume=40, last_deck="piacentine", game_options={"scopa": {"target": 21, "players": 2}})
    save_settings(s)
    session = Session.new("scopa", "piacentine", 2, None, seed=7, human_seat=0, threaded=False)
    session.start()
    for _ in range(10):
        if session.human_to_act:
            session.submit(session.legal_actions()[0])
        else:
            session.poll()
    saves.save_match(session.to_save())
    for game, mode, outcome in (
        ("scopa", "versus", "won"),
        ("briscola", "partners", "lost"),
        ("cicera", "partners", "drawn"),
    ):
        stats.record_result(game, mode, outcome, 3)
    return {name: (home / name).read_bytes() for name in FILES}


def mutate(good: bytes, kind: str, rng: random.Random) -> bytes:
    text = good.decode("utf-8")
    data = json.loads(text)
    if kind == "cut":
        return good[: rng.randrange(1, len(good) - 1)]
    if kind == "bad_utf8":
        at = rng.randrange(len(good))
        return good[:at] + b"\xff\xfe\x80" + good[at:]
    if kind == "bom":
        return b"\xef\xbb\xbf" + good if rng.random() < 0.5 else b"\xff\xfe" + good
    if kind == "deep":
        depth = rng.choice([100, 2000, 100_000])
        return ('{"x": ' + "[" * depth + "]" * depth + "}").encode()
    if kind == "duplicate_key":
        key = rng.choice(sorted(data))
        return (text.rstrip().rstrip("}") + f", {json.dumps(key)}: {json.dumps(data[key])}" + "}").encode()
    if kind == "nan":
        key = rng.choice(sorted(data))
        return text.replace(
            f'"{key}": ', f'"{key}": {rng.choice(["NaN", "Infinity", "-Infinity", "1e999"])}, "x_": ', 1
        ).encode()
    if kind == "padding":
        return good + b" " * (5 * 1024 * 1024)
    if kind == "empty":
        return b""
    if kind == "not_object":
        return rng.choice([b"[1, 2, 3]", b"null", b"7", b'"x"', b"true"])
    if kind == "replace":
        data[rng.choice(sorted(data))] = rng.choice(HOSTILE)
    elif kind == "remove":
        del data[rng.choice(sorted(data))]
    elif kind == "add":
        data[rng.choice(["x_new", "variants", "game_options", "human_seat", "scopa/versus/x"])] = rng.choice(HOSTILE)
    elif kind == "replace_nested":
        _replace_somewhere(data, rng)
    return json.dumps(data, indent=1).encode("utf-8")


def _replace_somewhere(data: object, rng: random.Random) -> None:
    """Replace one value somewhere below the top (a save's event field, a statistic)."""
    node = data
    for _ in range(6):
        if isinstance(node, dict) and node:
            key = rng.choice(sorted(node))
            child = node[key]
            if not isinstance(child, (dict, list)) or not child or rng.random() < 0.3:
                node[key] = rng.choice(HOSTILE)
                return
            node = child
        elif isinstance(node, list) and node:
            i = rng.randrange(len(node))
            child = node[i]
            if not isinstance(child, (dict, list)) or not child or rng.random() < 0.3:
                node[i] = rng.choice(HOSTILE)
                return
            node = child
        else:
            return


# --------------------------------------------------------------------------- the start
class Starter:
    """The game's start, in-process: one App reused, everything else as main.py does it."""

    def __init__(self) -> None:
        from game.config import get_config
        from game.services.i18n import I18n
        from game.services.settings import Settings
        from scenes.app import App

        self.config = get_config()
        self.app = App(self.config, Settings(language="en", animation_speed="instant"), I18n("en"), window=False)

    def start(self, home: Path) -> str:
        """Start in ``home``; returns what happened to the save ("resumed", "offered" …)."""
        from game.services import saves, settings
        from scenes.launch import claim_home_folder, settings_toast

        os.environ["CARDAVIA_HOME"] = str(home)
        settings._BASE.clear()
        lock = claim_home_folder()
        try:
            loaded = settings.load_settings(default_language="en")
            app = self.app
            app.settings = loaded.settings
            app.apply_settings()
            from sprites import tween

            tween.set_animation_speed("instant")  # not a setting change: nothing to save for it
            app.toasts.items = []
            if loaded.problem:
                app.toast(settings_toast(app, loaded.problem))
            deck = loaded.settings.last_deck if loaded.settings.last_deck in self.config.decks else None
            app.open_path("menu", deck=deck or next(iter(self.config.decks)))
            app.settle(2)
            app.render()
            menu = app.stack.top
            outcome = "none"
            if menu.saved is not None:
                outcome = "offered"
                menu._continue()
                app.settle(2)
                app.render()
                if app.stack.top.name == "table":
                    outcome = "resumed"
                    app.shutdown()  # leaving the table saves the match, as closing the window does
                elif not saves.save_path().exists():
                    outcome = "over" if not list(home.glob("match.json*.bad")) else "refused"
            app.open_path("stats")
            app.settle(2)
            app.render()
            app.save_settings()
            return outcome
        finally:
            lock.release()
            saves.read_only = False


def lost(name: str, home: Path, damaged: bytes, outcome: str) -> str | None:
    """Why the damaged file counts as lost (None when it is kept or was usable)."""
    bads = sorted(home.glob(f"{name}*.bad"))
    if bads:
        if any(b.read_bytes() == damaged for b in bads):
            return None
        return f"{name}: a .bad file exists but does not hold the damaged bytes"
    path = home / name
    if name == "match.json":
        if outcome in ("resumed", "over"):
            return None
        if outcome == "none" and not path.exists():
            return "match.json: gone, not kept as .bad"
        if outcome == "none":
            return "match.json: neither offered nor kept aside"
        return f"match.json: {outcome} without a .bad copy"
    if not path.exists():
        return f"{name}: gone, not kept as .bad"
    try:
        same = json.loads(path.read_bytes()) == json.loads(damaged)
    except ValueError:
        same = False
    if name == "settings.json":
        same = same or path.read_bytes() == damaged
    return None if same else f"{name}: the file was rewritten with other content and no .bad copy"


def run_subprocess(name: str, damaged: bytes, work: Path) -> str | None:
    home = Path(tempfile.mkdtemp(prefix="fuzz-home-", dir=work))
    (home / name).write_bytes(damaged)
    env = dict(os.environ, CARDAVIA_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    args = ["--smoke"] if name != "settings.json" else ["--screenshot", str(home / "shot.png")]
    try:
        r = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), *args],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            cwd=str(ROOT),
        )
    except subprocess.TimeoutExpired:
        return f"{name}: main.py {' '.join(args)} did not finish in 300 s"
    if r.returncode != 0 or "Traceback" in r.stderr:
        return f"{name}: main.py {args[0]} exit {r.returncode}: {r.stderr.strip()[-600:]}"
    bads = list(home.glob(f"{name}*.bad"))
    if bads and not any(b.read_bytes() == damaged for b in bads):
        return f"{name}: main.py {args[0]}: the .bad copy differs from the damaged file"
    if not bads and not (home / name).exists() and name != "match.json":
        return f"{name}: main.py {args[0]}: the file is gone and not kept aside"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description="mutate the player's files and start the game on each")
    ap.add_argument("--mutations", type=int, default=1000, help="per file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--subprocess", type=int, default=10, help="mutations per file started as a real process")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="cardavia-fuzz-files-"))
    good = good_files(work / "good")
    starter = Starter()
    kinds = BYTE_KINDS + FIELD_KINDS
    problems: list[str] = []
    outcomes: Counter = Counter()
    for name in FILES:
        for i in range(args.mutations):
            kind = kinds[i % len(kinds)]
            damaged = mutate(good[name], kind, rng)
            home = work / f"{name}-{i:04d}"
            home.mkdir()
            for other in FILES:  # the other two files are good: only one is damaged at a time
                (home / other).write_bytes(damaged if other == name else good[other])
            try:
                outcome = starter.start(home)
            except BaseException:  # noqa: BLE001 - exactly what the fuzzer looks for
                problems.append(f"{name} {kind} #{i}: the start raised\n{traceback.format_exc()}")
                continue
            why = lost(name, home, damaged, outcome)
            if why:
                problems.append(f"{name} {kind} #{i}: {why}")
            kept = "kept as .bad" if list(home.glob(f"{name}*.bad")) else "usable"
            outcomes[(name, kept)] += 1
            if name == "match.json":
                outcomes[(name, "save " + outcome)] += 1
            shutil.rmtree(home, ignore_errors=True)
        for _ in range(args.subprocess):
            damaged = mutate(good[name], kinds[rng.randrange(len(kinds))], rng)
            why = run_subprocess(name, damaged, work)
            outcomes[(name, "subprocess ok" if why is None else "subprocess FAILED")] += 1
            if why:
                problems.append(why)
    shutil.rmtree(work, ignore_errors=True)
    print(
        f"{args.mutations} mutations of each of {', '.join(FILES)}; {args.subprocess} each as a real start; "
        f"{time.monotonic() - t0:.0f} s"
    )
    for name in FILES:
        row = ", ".join(f"{k}: {v}" for (n, k), v in sorted(outcomes.items()) if n == name)
        print(f"  {name:14} {row}")
    print(f"problems: {len(problems)}")
    for p in problems[:30]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
