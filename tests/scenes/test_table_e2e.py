"""Whole matches played through the table scene by key presses alone, headless, to the
results screen (a stand-in here); the record the table produced passes the verifier."""

from __future__ import annotations

import json
import random
import threading
import time

import pygame
import pytest

from game.ai.bots import BOTS
from game.ai.greedy import GreedyBot
from game.verify import verify_events
from scenes.app import TICK
from scenes.registry import make_scene, register_scene, unregister_scene
from scenes.scene import Scene
from tests.scenes.test_table import keyboard_play, make_app


class StandInResults(Scene):
    """The results screen's contract: opened with the session and the deal's events; its
    Continue pops back to the table (done at once here)."""

    def __init__(self, app, log, **params):
        super().__init__(app)
        self.params = params
        log.append(params)

    def update(self, dt):
        self.app.stack.pop()


@pytest.fixture
def results_log():
    log: list[dict] = []
    register_scene("results", lambda app, **p: StandInResults(app, log, **p))
    yield log
    unregister_scene("results")


def play_match(
    game: str, players: int, options: dict, seed: int, deck: str | None = None, lang: str = "en", max_ticks: int = 6000
):
    app = make_app(lang)
    app.open_path("menu")
    scene = make_scene(
        app,
        "table",
        deck=deck,
        game=game,
        players=players,
        options=options,
        seed=seed,
        ai_level="greedy",
        threaded=False,
        autoplay_moves=0,
    )
    app.stack.push(scene)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(max_ticks):
        if scene.controller.final_panel:
            break
        if app.stack.top is scene and scene.controller.can_act:
            action = rng.choice(scene.session.legal_actions())
            keyboard_play(app, scene, action)
            assert scene.controller.submitted[-1] == action
            decisions += 1
        app.update(TICK)
    return app, scene, decisions


def check_match(scene, log, home, decisions):
    events = scene.session.match.events
    assert scene.session.over and scene.controller.final_panel
    verdict = verify_events(events)
    assert verdict.ok, str(verdict)
    deal_ends = [e for e in events if e["event"] == "deal_end"]
    assert [p["deal_end"] for p in log] == deal_ends
    assert all(p["session"] is scene.session for p in log)
    assert log[-1]["match_end"] == events[-1] and all(p["match_end"] is None for p in log[:-1])
    assert decisions >= len(deal_ends)
    # The end: statistics recorded once, the save cleared.
    stats = json.loads((home / "stats.json").read_text())
    assert sum(r["played"] for r in stats.values()) == 1
    assert not (home / "match.json").exists()
    # The model the table built from the events agrees with the record's totals.
    assert scene.model.totals == events[-1]["totals"]


@pytest.mark.parametrize("players,seed", [(2, 21), (4, 22)])
def test_a_whole_scopa_match_by_keyboard(players, seed, results_log, _private_home):
    app, scene, n = play_match("scopa", players, {"target": 11}, seed)
    check_match(scene, results_log, _private_home, n)
    assert len(results_log) >= 2 or scene.session.match.deal_number == 1
    app.render()


def test_a_cicera_deal_by_keyboard(results_log, _private_home):
    app, scene, n = play_match("cicera", 4, {"format": "single"}, 31, deck="bresciane", lang="it")
    check_match(scene, results_log, _private_home, n)
    assert n == 12  # twelve cards, each played by the human's keys


def test_a_briscola_deal_by_keyboard(results_log, _private_home):
    app, scene, n = play_match("briscola", 2, {"format": "single"}, 41, lang="de")
    check_match(scene, results_log, _private_home, n)
    assert n == 20
    assert sum(scene.model.card_points) == 120  # every card point counted by the table from trick events


def test_a_schnapsen_bummerl_by_keyboard(results_log, _private_home):
    app, scene, n = play_match("schnapsen", 2, {}, 51, lang="nl")
    check_match(scene, results_log, _private_home, n)
    assert 0 in scene.model.totals  # a Bummerl ends when someone's seven are gone
    kinds = {e["event"] for e in scene.session.match.events}
    assert "draw" in kinds


def test_without_a_results_screen_the_table_summarises_and_plays_on(_private_home, monkeypatch):
    import scenes.registry as R

    monkeypatch.setitem(R.SCENES, "results", R.SceneSpec("results", "scenes.no_results_here"))
    app, scene, n = play_match("briscola", 2, {"format": "match", "deals_to_win": 2}, 43)
    assert scene.session.over and scene.controller.final_panel
    assert verify_events(scene.session.match.events).ok


# ---------------------------------------------------------------------- a bot that thinks slowly
GATE = threading.Event()


class GatedBot(GreedyBot):
    """Thinks until the test opens the gate: the window must keep running meanwhile."""

    def choose(self, view, legal, should_stop=None):
        GATE.wait(timeout=10)
        return super().choose(view, legal)


def test_the_window_keeps_drawing_while_a_bot_thinks_and_leaving_stops_it(monkeypatch, _private_home):
    monkeypatch.setitem(BOTS, "gated", f"{__name__}:GatedBot")
    GATE.clear()
    app = make_app(speed="instant")
    app.open_path("menu")
    scene = make_scene(
        app, "table", game="briscola", players=2, seed=8, ai_level="gated", threaded=True, autoplay_moves=0
    )
    app.stack.push(scene)
    for _ in range(40):
        app.update(TICK)
        if scene.session.thinking:
            break
    if not scene.session.thinking:  # the human leads first: play, then the bot must answer
        keyboard_play(app, scene, scene.session.legal_actions()[0])
        for _ in range(40):
            app.update(TICK)
            if scene.session.thinking:
                break
    assert scene.session.thinking
    frames = app.frames
    for _ in range(30):
        app.update(TICK)
        app.render()
    assert app.frames == frames + 30 and scene.session.thinking
    assert not scene.controller.can_act
    GATE.set()
    for _ in range(2000):  # give the worker real time to finish (no timing is asserted)
        app.update(TICK)
        if scene.controller.can_act:
            break
        time.sleep(0.002)
    assert scene.controller.can_act
    # Leaving while a bot thinks: Esc, Quit to menu; the match is kept.
    GATE.clear()
    keyboard_play(app, scene, scene.session.legal_actions()[0])
    for _ in range(5):
        app.update(TICK)
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    pause = app.stack.top
    quit_button = next(w for w in pause.ui.widgets if w.name == "quit")
    GATE.set()  # so the worker ends promptly once it is abandoned
    quit_button.activate()
    assert app.stack.top.name == "menu"
    assert (_private_home / "match.json").exists()


def test_an_all_ai_table_plays_itself_and_records_nothing(results_log, _private_home):
    app = make_app()
    app.open_path("menu")
    scene = make_scene(
        app,
        "table",
        game="briscola",
        players=2,
        seed=61,
        ai_level="greedy",
        threaded=False,
        human_seat=None,
        autoplay_moves=0,
    )
    app.stack.push(scene)
    for _ in range(400):
        app.update(TICK)
        if results_log:
            break
    assert results_log and not scene.controller.can_act
    assert verify_events(scene.session.match.events).ok
    assert not (_private_home / "match.json").exists() and not (_private_home / "stats.json").exists()
