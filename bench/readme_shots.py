"""Retake the README's screenshots (docs/screenshots/*.jpg) at 1920×1080, drawn at native
resolution (issue 33).

    .venv/bin/python bench/readme_shots.py [--out docs/screenshots] [--size 1920x1080] [--only table] [--jobs 2]

Each picture is one ``main.py --screenshot … --window WxH`` run (the path a player's F12
takes, at that window's pixels), then saved as JPEG beside the README. The web page's
leaderboard (club-leaderboard-web.jpg) is a browser's picture, not the game's: it is left as
it is. Prints one line per failure; exit 1 if any.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: file stem -> main.py arguments (the README's caption says what each one shows)
PLAN: dict[str, list[str]] = {
    "menu": ["--scene", "menu"],
    "menu-warm": ["--scene", "menu", "--contrast", "70", "--grain", "80", "--temperature", "85"],
    "games": ["--scene", "games", "--deck", "piacentine"],
    "table-scopa": ["--scene", "table", "--game", "scopa", "--players", "4", "--seed", "3"],
    "log": ["--scene", "table", "--game", "scopa", "--players", "4", "--seed", "3", "--overlay", "log"],
    "table-tressette": ["--scene", "table", "--game", "tressette", "--players", "4", "--seed", "5", "--lang", "it"],
    "review": [
        "--scene",
        "table",
        "--game",
        "briscola",
        "--players",
        "2",
        "--seed",
        "4",
        "--overlay",
        "review",
        "--lang",
        "nl",
    ],
    "table-cicera": [
        "--scene",
        "table",
        "--game",
        "cicera",
        "--deck",
        "bresciane",
        "--players",
        "4",
        "--seed",
        "2",
        "--lang",
        "it",
    ],
    "table-schnapsen": ["--scene", "table", "--game", "schnapsen", "--seed", "6"],
    "suggest": ["--scene", "table", "--game", "scopa", "--players", "2", "--seed", "8", "--overlay", "suggest"],
    "results": ["--scene", "results", "--game", "scopa"],
    "rules": ["--scene", "rules", "--game", "tressette", "--lang", "de"],
    "online-lobby": ["--scene", "online_lobby"],
    "online-table": [],  # SPECIAL: a real table server, a friend (a bot client)
    "coach-results": [],  # SPECIAL: the deal's analysis finished
    "coach": ["--scene", "coach", "--game", "briscola"],
    "learn": ["--scene", "learn"],
    "lesson-scopa-it": ["--scene", "lesson", "--game", "scopa", "--overlay", "wrong", "--step", "1", "--lang", "it"],
    "lesson-cicera": ["--scene", "lesson", "--game", "cicera", "--step", "1"],
    "puzzle-wrong": ["--scene", "puzzle", "--game", "schnapsen", "--step", "5", "--overlay", "wrong"],
    "daily-calendar-de": ["--scene", "daily", "--lang", "de", "--seed", "3"],
    "daily-results-en": ["--scene", "daily", "--overlay", "duplicate"],
    "daily-online-it": ["--scene", "online_daily", "--lang", "it"],
    "club-watch": ["--scene", "online_watch", "--game", "briscola", "--players", "2"],
    "club-players": ["--scene", "online_manners"],
    "club-lobby": [],  # SPECIAL: a real club server with a published table
}
#: pictures that need more than one command line: taken in-process (``--special NAME``)
SPECIAL = ("online-table", "coach-results", "club-lobby")
#: settings.json of the home a picture is taken with (what the player had done before)
SETTINGS: dict[str, dict] = {
    "learn": {"lessons_done": ["scopa", "briscola"]},
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="folder for the JPEGs")
    ap.add_argument("--size", default="1920x1080", help="window size (default 1920x1080)")
    ap.add_argument("--only", help="only pictures whose name contains this text")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--special", choices=SPECIAL, help=argparse.SUPPRESS)
    ap.add_argument("--png", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.special:
        w, h = (int(v) for v in args.size.split("x"))
        return special(args.special, Path(args.png), (w, h))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plan = [(s, a) for s, a in PLAN.items() if not args.only or args.only in s]
    scratch = Path(tempfile.mkdtemp(prefix="cardavia-readme-"))
    base_env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}

    def run(item: tuple[str, list[str]]) -> tuple[str, str | None]:
        stem, a = item
        home = scratch / stem
        home.mkdir()
        if stem in SETTINGS:
            (home / "settings.json").write_text(json.dumps(SETTINGS[stem]), encoding="utf-8")
        env = {**base_env, "CARDAVIA_HOME": str(home)}
        png = scratch / f"{stem}.png"
        cmd = [sys.executable, str(ROOT / "main.py"), "--screenshot", str(png), "--force", "--window", args.size, *a]
        if stem in SPECIAL:
            cmd = [sys.executable, __file__, "--special", stem, "--png", str(png), "--size", args.size]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            return stem, (p.stderr.strip().splitlines() or ["?"])[-1]
        conv = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, pygame; pygame.image.save(pygame.image.load(sys.argv[1]), sys.argv[2])",
                str(png),
                str(out / f"{stem}.jpg"),
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        return stem, None if conv.returncode == 0 else (conv.stderr.strip().splitlines() or ["?"])[-1]

    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        failures = [(s, e) for s, e in pool.map(run, plan) if e]
    for stem, err in failures:
        print(f"FAILED {stem}: {err}", file=sys.stderr)
    print(
        f"{len(plan) - len(failures)}/{len(plan)} screenshots at {args.size} in {out} "
        f"({time.perf_counter() - t0:.1f} s)"
    )
    return 1 if failures else 0


# ---------------------------------------------------------------------- taken in-process
def special(stem: str, png: Path, size: tuple[int, int]) -> int:
    sys.path.insert(0, str(ROOT))
    import pygame

    from scenes.online import fields, hosting
    from scenes.snapshot import save_png
    from tests.scenes.test_online_scenes import TICK, make_app, pump, top

    hosting.HEADLESS_NETWORK = True
    hosting.BIND_HOST = "127.0.0.1"
    fields.copy_text = lambda text: False  # no clipboard under the dummy driver
    lang = {"online-table": "it", "club-lobby": "it"}.get(stem, "en")
    app = make_app(lang)
    app.canvas = app.window.offscreen(size)  # drawn at the window's pixels
    app.postfx.resize(app.window.frame.get_size())
    try:
        if stem == "coach-results":
            from scenes.coach import common

            common.HEADLESS_RESULTS = True
            app.open_path("results", game="briscola")
            results = top(app)
            pump(app, lambda: results.coach_job.finished, "the deal's analysis")
            app.settle(90)
        elif stem == "online-table":
            _online_table(app, pygame, pump, top, TICK)
        elif stem == "club-lobby":
            _club_lobby(app, pump, top, TICK, png.parent)
        app.render(1.0)
        problem = save_png(app.picture(), png, overwrite=True)
    finally:
        hosting.stop_server()
        app.shutdown()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


def _online_table(app, pygame, pump, top, tick) -> None:
    """Tressette for two hosted in the window, a friend (a greedy bot client) at the other
    seat, a few tricks in (the friend's drawn cards face up), the quick messages open."""
    import io
    import threading

    from game.online.client import client, headless
    from tests.scenes.test_online_scenes import host_by_keys, press

    lobby = host_by_keys(app, "tressette", "Anna")
    h = lobby.hosted
    bot = client.RemoteSession(f"ws://127.0.0.1:{h.port}", h.code, "Bruno")
    threading.Thread(
        target=headless.play_seat, args=(bot, "greedy", 5, 90.0, io.StringIO(), io.StringIO()), daemon=True
    ).start()
    pump(app, lambda: top(app).name == "table", "the table")
    table = top(app)
    moves = [0]

    def one_move() -> None:
        if top(app) is table and table.controller.can_act:
            press(app, pygame.K_RETURN)
            press(app, pygame.K_RETURN)
            moves[0] += 1

    pump(app, lambda: moves[0] >= 6 and table.controller.can_act, "six tricks", one_move)
    bot.say("well_played")
    pump(app, lambda: any(b[0] == 1 for b in table.online.bubbles), "the friend's message")
    press(app, pygame.K_q)  # the quick messages
    app.settle(20)


def _club_lobby(app, pump, top, tick, folder: Path) -> None:
    """A club server on the loopback with one published table; the player signs in."""
    import pygame

    from game.online.server.limits import ServerLimits
    from game.online.server.serving import start_server_in_thread
    from tests.online.wshelp import create
    from tests.scenes.test_online_scenes import open_online, press, type_text, widget

    limits = ServerLimits(quick_wait=0.5, bot_after=30.0, fill_levels=("easy",))
    h = start_server_in_thread("127.0.0.1", 0, folder / "club-server", workers=1, limits=limits)
    host, _ = create(h.url, "scopa", 2, ["friend", "ai:easy"], name="Host")
    host.request({"type": "publish", "public": True}, "published")
    app.settings.extra.setdefault("online", {})["name"] = "Lucia"
    open_online(app)
    app.open_scene("online_club")
    scene = top(app)
    scene.ui.focus(widget(scene, "server_name"))
    type_text(app, "Il circolo")
    scene.ui.focus(widget(scene, "server_address"))
    type_text(app, f"127.0.0.1:{h.port}")
    press(app, pygame.K_RETURN)
    scene.ui.focus(widget(scene, "server0"))
    press(app, pygame.K_RETURN)
    lobby = top(app)
    pump(app, lambda: lobby.link is not None and lobby.link.signed_in and lobby.link.tables, "signed in, the list")
    app.settle(20)


if __name__ == "__main__":
    sys.exit(main())
