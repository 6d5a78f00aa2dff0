"""The table is heard: each record event it animates asks the mixer for the right sounds."""

from __future__ import annotations

import random

import pytest

from audio.cues import sounds_for, sounds_for_batch
from scenes.app import TICK
from scenes.registry import make_scene, register_scene, unregister_scene
from scenes.scene import Scene
from tests.scenes.test_table import keyboard_play, make_app


class RecordingAudio:
    """Stands in for audio.Audio: remembers what the table asked to hear."""

    def __init__(self):
        self.heard: list[str] = []

    def play_all(self, names, gap=0.0):
        self.heard.extend(names)

    def play(self, name):
        self.heard.append(name)

    def update(self, dt):
        pass

    def stop(self):
        pass

    def preload(self, background=True):
        pass

    def apply_settings(self, settings):
        pass


class _Results(Scene):
    def update(self, dt):
        self.app.stack.pop()


@pytest.fixture
def results_stand_in():
    register_scene("results", lambda app, **p: _Results(app))
    yield
    unregister_scene("results")


@pytest.mark.parametrize(
    "game,players,seed", [("scopa", 2, 5), ("briscola", 2, 6), ("schnapsen", 2, 7), ("cicera", 4, 8)]
)
def test_a_deal_played_at_the_table_asks_for_each_events_sounds(results_stand_in, game, players, seed):
    app = make_app("en", speed="normal")
    audio = RecordingAudio()
    app.audio = audio
    app.open_path("menu")
    scene = make_scene(
        app,
        "table",
        game=game,
        players=players,
        seed=seed,
        ai_level="random",
        threaded=False,
        autoplay_moves=0,
        preselect=False,
    )
    app.stack.push(scene)
    rng = random.Random(seed)
    for _ in range(40000):
        if set(audio.heard) & {"deal_won", "deal_lost", "match_won", "match_lost"} or (
            scene.session.over and scene.motion.idle
        ):
            break
        if app.stack.top is scene and scene.controller.can_act:
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
        app.update(TICK)
    events = scene.session.match.events
    end = next(i for i, e in enumerate(events) if e["event"] == "deal_end")
    heard = audio.heard
    assert heard[:1] == ["shuffle"] and "deal" in heard
    plays = [e for e in events[:end] if e["event"] == "play"]
    placed_or_captured = sum(1 for n in heard if n in ("play", "capture", "sweep", "trick"))
    assert placed_or_captured >= len(plays) // (1 if game in ("scopa", "cicera") else 2)
    expected_sweeps = sum(1 for e in plays if {"scopa", "scua"} & set(e.get("bonuses", [])))
    assert heard.count("sweep") == expected_sweeps
    human_team = scene.session.rules.team_of(scene.session.human_seat)
    teams_of = scene.session.rules.team_of
    # The deal's result (or, when the deal ends the match, the match's) is heard.
    tail = (
        events[end : end + 2]
        if end + 1 < len(events) and events[end + 1]["event"] == "match_end"
        else events[end : end + 1]
    )
    want_end = [n for names in sounds_for_batch(tail, game, human_team, teams_of) for n in names]
    assert (
        set(want_end) & {"deal_won", "deal_lost", "match_won", "match_lost"}
        or sounds_for(events[end], game, human_team, teams_of) == []
    )
    assert all(n in heard for n in want_end)
