"""Two real windows on one home folder: two processes, each driving the real scenes
headless (SDL's dummy driver) as a player would — the home folder's lock, the menu, a table
played by key presses, a setting changed, the match's end. Both play and save; nothing is
lost: both matches are in the statistics and in Replays, both settings changes are in the
file, the first window's match in progress is never overwritten, and the second window
says so where it would have overwritten it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game.verify import verify_file

ROOT = Path(__file__).resolve().parents[2]

WINDOW = r"""
import json, random, sys
sys.path.insert(0, sys.argv[1])
import pygame
role, game, seed, setting, value, pause_after = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], \
    int(sys.argv[6]), int(sys.argv[7])
from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import load_settings
from scenes.app import TICK, App
from scenes.launch import claim_home_folder
from scenes.registry import make_scene
from tests.scenes.test_table import keyboard_play

home = claim_home_folder()  # as scenes.launch.main does for a window
loaded = load_settings(default_language="en")
loaded.settings.animation_speed = "instant"  # the same play, in fewer frames
app = App(get_config(), loaded.settings, I18n("en"), window=False, persist=True)
shown = []
real = app.toast
app.toast = lambda m: (shown.append(m), real(m))[1]
if not home.owner:
    app.toast(app.t("toast.second_window"))
app.open_path("menu")
scene = make_scene(app, "table", game=game, players=2, seed=seed, ai_level="greedy", threaded=False,
                   autoplay_moves=0, preselect=False)
app.stack.push(scene)
rng = random.Random(seed)


def play(limit):
    done = 0
    for _ in range(50000):
        if scene.session.over or done >= limit:
            break
        top = app.stack.top
        if top is scene and scene.controller.can_act:
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
            done += 1
        elif top.name == "results" and not top.guarded:  # a deal's result: Continue (Enter)
            for kind in (pygame.KEYDOWN, pygame.KEYUP):
                app.dispatch(pygame.event.Event(kind, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
        app.update(TICK)
    return done


play(pause_after)
app.set_setting(setting, value)
if pause_after < 10 ** 6:
    print("paused", flush=True)  # the other window plays now
    sys.stdin.readline()
play(10 ** 6)
for _ in range(600):  # the end: statistics, Replays, the save cleared
    app.update(TICK)
app.save_settings()  # the window closes
owner = home.owner
home.release()
print(json.dumps({"owner": owner, "over": scene.session.over, "toasts": shown,
                  "events": len(scene.session.match.events)}), flush=True)
"""


def _window(home: Path, *args: object) -> subprocess.Popen:
    env = {**os.environ, "CARDAVIA_HOME": str(home), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [sys.executable, "-c", WINDOW, str(ROOT), *map(str, args)],
        env=env,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _summary(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_two_real_windows_on_one_home_both_play_and_save_and_nothing_is_lost(tmp_path):
    from game.config import get_config

    home = tmp_path / "home"
    games = [g for g in get_config().games if 2 in get_config().games[g].players]
    first = _window(home, "first", games[0], 11, "volume", 11, 6)
    try:
        lines = [first.stdout.readline() for _ in range(1)]
        while lines[-1] and lines[-1].strip() != "paused" and len(lines) < 20:  # pygame's banner may come first
            lines.append(first.stdout.readline())
        assert lines[-1].strip() == "paused", (lines, first.stderr.read())
        saved = (home / "match.json").read_bytes()  # the first window's match in progress
        # The second window starts while the first one is open, plays a whole match and closes.
        second = _window(home, "second", games[1], 12, "contrast", 77, 10**6)
        out, err = second.communicate(timeout=300)
        assert second.returncode == 0, err
        s2 = _summary(out)
        assert (home / "match.json").read_bytes() == saved  # never overwritten, nor cleared at its end
        # The first window plays its match to the end and closes.
        out, err = first.communicate("go\n", timeout=300)
        assert first.returncode == 0, err
        s1 = _summary(out)
    finally:
        for p in (first,):
            if p.poll() is None:
                p.kill()
    from game.services.i18n import I18n

    t = I18n("en").t
    assert s1["owner"] and s1["over"] and not any("saved" in m for m in s1["toasts"])
    assert not s2["owner"] and s2["over"]
    assert s2["toasts"].count(t("toast.second_window")) == 1
    assert s2["toasts"].count(t("table.open_elsewhere")) == 1  # said once, where it would have overwritten
    # Nothing lost: both settings changes, both matches in the statistics and in Replays.
    settings = json.loads((home / "settings.json").read_text(encoding="utf-8"))
    assert settings["volume"] == 11 and settings["contrast"] == 77
    stats = json.loads((home / "stats.json").read_text(encoding="utf-8"))
    assert {k.split("/")[0] for k, r in stats.items() if r["played"] + r["practice"] == 1} == {games[0], games[1]}
    kept = sorted((home / "replays").glob("*.jsonl"))
    assert len(kept) == 2 and all(verify_file(str(p)).ok for p in kept)
    assert {json.loads(p.read_text(encoding="utf-8").splitlines()[0])["game"] for p in kept} == {games[0], games[1]}
    assert not (home / "match.json").exists()  # the first window's match ended: its save went with it
    leftovers = [p.name for p in home.rglob("*") if p.name.endswith((".tmp", ".lock"))]
    assert leftovers == []
