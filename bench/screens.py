"""Render every scene in every language to a folder, for reading the translations by eye.

    .venv/bin/python bench/screens.py [--out /tmp/screens] [--lang de] [--only rules] [--jobs 4]

Each picture is one ``main.py --screenshot`` run (the same path a player's F12 takes), named
``<scene>[-<variant>]-<lang>.png``: menu, decks, games (every deck), settings, rules (every
game), table (every game, mid-deal, with every player count it allows), results (every game,
deal end and match end) and the pause overlay. Prints one line per failure; exit 1 if any.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LANGS = ("en", "nl", "de", "it")
SEED = 7  # a fixed mid-deal table, so pictures can be compared run to run


def shots(langs: tuple[str, ...]) -> list[tuple[str, list[str]]]:
    """(file stem, main.py arguments) for every scene × language."""
    from game.config import get_config

    cfg = get_config()
    plan: list[tuple[str, list[str]]] = [
        ("menu", ["--scene", "menu"]),
        ("decks", ["--scene", "decks"]),
        ("settings", ["--scene", "settings"]),
        ("pause", ["--scene", "pause"]),
    ]
    plan += [(f"games-{d}", ["--scene", "games", "--deck", d]) for d in cfg.decks]
    plan += [(f"rules-{g}", ["--scene", "rules", "--game", g]) for g in cfg.games]
    for g, game in cfg.games.items():
        for n in game.players:
            plan.append(
                (f"table-{g}-{n}p", ["--scene", "table", "--game", g, "--players", str(n), "--seed", str(SEED)])
            )
        plan.append((f"results-{g}-deal", ["--scene", "results", "--game", g]))
        plan.append((f"results-{g}-match", ["--scene", "results", "--game", g, "--match-end"]))
    return [(f"{stem}-{lang}", [*args, "--lang", lang]) for lang in langs for stem, args in plan]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/tmp/screens", help="folder for the PNGs (default /tmp/screens)")
    ap.add_argument("--lang", action="append", choices=LANGS, help="only this language (repeatable)")
    ap.add_argument("--only", help="only pictures whose name contains this text (e.g. rules, table-scopa)")
    ap.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plan = [(s, a) for s, a in shots(tuple(args.lang or LANGS)) if not args.only or args.only in s]
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        # A private home: screenshots never touch the player's settings or saves.
        "CARDAVIA_HOME": str(out / ".home"),
    }

    def run(item: tuple[str, list[str]]) -> tuple[str, str | None]:
        stem, a = item
        cmd = [sys.executable, str(ROOT / "main.py"), "--screenshot", str(out / f"{stem}.png"), *a]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        return stem, None if p.returncode == 0 else (p.stderr.strip().splitlines() or ["?"])[-1]

    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        failures = [(s, e) for s, e in pool.map(run, plan) if e]
    for stem, err in failures:
        print(f"FAILED {stem}: {err}", file=sys.stderr)
    print(f"{len(plan) - len(failures)}/{len(plan)} screenshots in {out} ({time.perf_counter() - t0:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
