"""The window's close button (Alt-F4, a polite SIGTERM) at any moment — on every scene,
mid-animation, while a bot thinks — ends the loop at once and keeps the match.

No wall time is measured: the loop runs on a fake clock, and we count the updates and
frames that happen after QUIT (none), and every wait on a bot thread goes through a fake
join that records the timeout asked for (bounded) and never waits longer than we allow.
"""

from __future__ import annotations

import json
import os
import signal
import threading

import pygame
import pytest

from game.ai.bots import BOTS
from game.ai.greedy import GreedyBot
from game.config import get_config
from game.services import saves
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import TICK, App
from scenes.launch import quit_on_sigterm
from scenes.registry import make_scene

GATE = threading.Event()
JOIN_LIMIT = 1.0  # the longest a closing table may wait for its bot (the issue: exit within a second)


class FakeClock:
    def __init__(self, ms: int = 17):
        self.ms = ms
        self.ticks = 0

    def tick(self, framerate: int = 0) -> int:
        self.ticks += 1
        return self.ms


class GatedBot(GreedyBot):
    """Thinks until the test opens the gate (never, while the window closes)."""

    def choose(self, view, legal, should_stop=None):
        GATE.wait(timeout=20)
        return super().choose(view, legal)


def make_app(speed: str = "normal") -> App:
    return App(
        get_config(),
        Settings(language="en", animation_speed=speed),
        I18n("en"),
        clock=FakeClock(),
        window=False,
        persist=False,
    )


def close_window(app: App) -> tuple[int, int]:
    """Post QUIT as the window manager does and run the real loop; returns the (updates,
    frames) that happened after it. A loop that ignored QUIT would run to max_frames."""
    pygame.event.clear()
    updates, frames = app.updates, app.frames
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.run(max_frames=300) == 0
    assert not app.running
    return app.updates - updates, app.frames - frames


def saved_events(home) -> list:
    return json.loads((home / "match.json").read_text(encoding="utf-8"))["events"]


def table(app: App, game: str = "scopa", players: int = 2, **kw):
    app.open_path("menu")
    params = dict(
        game=game, players=players, seed=21, ai_level="greedy", threaded=False, autoplay_moves=4, preselect=False
    )
    params.update(kw)
    scene = make_scene(app, "table", **params)
    app.stack.push(scene)
    return scene


# ---------------------------------------------------------------------- every scene
@pytest.mark.parametrize(
    "name,params",
    [
        ("menu", {}),
        ("decks", {}),
        ("games", {"game": "briscola"}),
        ("settings", {}),
        ("rules", {"game": "scopa"}),
        ("results", {"game": "scopa"}),
        ("stats", {}),
    ],
)
def test_close_on_every_shell_scene_stops_at_once(name, params):
    app = make_app()
    app.open_path(name, deck="piacentine", **params)
    app.settle(3)
    assert close_window(app) == (0, 0)


def test_close_mid_animation_keeps_the_match_with_every_event(_private_home):
    app = make_app("slow")
    scene = table(app)
    for _ in range(200):  # until a move is in flight
        if scene.controller.can_act:
            break
        app.update(TICK)
    assert scene.controller.submit(scene.session.legal_actions()[0])
    app.update(TICK)
    assert not scene.motion.idle  # cards are flying
    (_private_home / "match.json").unlink(missing_ok=True)  # as if the last save had not happened yet
    assert close_window(app) == (0, 0)
    assert saved_events(_private_home) == scene.session.match.events
    session, problem = saves.resume_session(threaded=False)
    assert problem is None and session.to_act == scene.session.to_act


def test_close_while_a_bot_thinks_does_not_wait_for_it_and_keeps_the_match(monkeypatch, _private_home):
    monkeypatch.setitem(BOTS, "gated", f"{__name__}:GatedBot")
    GATE.clear()
    app = make_app("instant")
    scene = table(app, "briscola", 2, ai_level="gated", threaded=True, autoplay_moves=0)
    joins: list[float | None] = []
    try:
        for _ in range(60):
            app.update(TICK)
            if scene.session.thinking:
                break
            if scene.controller.can_act:
                scene.controller.submit(scene.session.legal_actions()[0])
        assert scene.session.thinking
        worker = scene.session.worker
        real_join = worker.join

        def fake_join(timeout=None):
            joins.append(timeout)
            real_join(0.01)  # the fake never really waits: the bot is stuck behind the gate

        worker.join = fake_join
        events = list(scene.session.match.events)
        (_private_home / "match.json").unlink(missing_ok=True)
        assert close_window(app) == (0, 0)
        assert worker.is_alive()  # the app left without waiting for the bot to finish
        assert joins and all(t is not None and t <= JOIN_LIMIT for t in joins), joins
        assert saved_events(_private_home) == events
    finally:
        GATE.set()


@pytest.mark.parametrize("overlay", ["pause", "results"])
def test_close_with_an_overlay_over_the_table_keeps_the_match(overlay, _private_home):
    app = make_app("instant")
    scene = table(app, "scopa", 3)
    app.settle(5)
    if overlay == "pause":
        app.open_scene("pause", table=scene)
    else:
        app.open_scene("results", game="scopa")  # a results screen above the table
    assert app.stack.top.name == overlay
    (_private_home / "match.json").unlink(missing_ok=True)
    assert close_window(app) == (0, 0)
    assert saved_events(_private_home) == scene.session.match.events


def test_events_after_quit_in_the_same_batch_are_ignored(_private_home):
    app = make_app("instant")
    app.open_path("menu")
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    assert app.run(max_frames=300) == 0
    assert app.stack.top.name == "menu"  # Enter (Play) after the close was not acted on


def test_sigterm_leaves_like_the_close_button(_private_home):
    app = make_app("instant")
    scene = table(app)
    app.settle(3)
    (_private_home / "match.json").unlink(missing_ok=True)
    old = signal.getsignal(signal.SIGTERM)
    try:
        quit_on_sigterm(app)
        os.kill(os.getpid(), signal.SIGTERM)
        assert not app.running
    finally:
        signal.signal(signal.SIGTERM, old)
    updates = app.updates
    assert app.run(max_frames=300) == 0 and app.updates == updates
    assert saved_events(_private_home) == scene.session.match.events


def test_a_finished_or_all_ai_table_writes_no_save_on_close(_private_home):
    app = make_app("instant")
    table(app, human_seat=None, autoplay_moves=0)
    app.settle(3)
    assert close_window(app) == (0, 0)
    assert not (_private_home / "match.json").exists()


def test_sigterm_to_the_real_program_ends_it_cleanly(tmp_path):
    """``python main.py`` in a dummy window: once it is up (its first settings are written,
    which happens after the SIGTERM handler is in place), a SIGTERM ends it with exit code 0,
    no traceback, and the saved match left intact."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    from game.services.session import Session

    root = Path(__file__).resolve().parents[2]
    home = tmp_path / "home"
    home.mkdir()
    s = Session.new("scopa", "piacentine", 2, None, seed=9, human_seat=0, threaded=False)
    s.start()
    saved = {"version": 1, **s.to_save()}
    (home / "match.json").write_text(json.dumps(saved), encoding="utf-8")
    env = dict(os.environ, CARDAVIA_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    child = subprocess.Popen(
        [sys.executable, str(root / "main.py")], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        for _ in range(3000):  # wait until it is up (a hang guard, not a timing assertion)
            if (home / "settings.json").exists() or child.poll() is not None:
                break
            time.sleep(0.01)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert "Traceback" not in err
    assert json.loads((home / "match.json").read_text(encoding="utf-8"))["events"] == saved["events"]
