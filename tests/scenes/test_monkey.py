"""Monkey test (short, seeded): random keys, clicks, drags, wheel, resizes, focus changes and
text input across every scene and a table for every game — no exception, and the monkey
really got around (every scene received input, moves were played at tables).

The long run is ``.venv/bin/python bench/monkey.py --events 50000``.
"""

from __future__ import annotations

import pytest

from bench.monkey import Monkey, stations
from game.ai.bots import BOTS
from game.config import get_config

EVENTS = 3000


@pytest.fixture
def random_bots(monkeypatch):
    for name in ("greedy", "easy", "normal", "hard"):
        monkeypatch.setitem(BOTS, name, BOTS["random"])


def test_every_scene_is_on_the_monkey_s_route():
    names = {name for name, _ in stations(get_config())}
    assert names >= {"menu", "decks", "games", "settings", "rules", "stats", "results", "table", "pause"}
    tables = {(p["game"], p["players"]) for n, p in stations(get_config()) if n == "table"}
    assert tables == {(g, n) for g, cfg in get_config().games.items() for n in cfg.players}


def test_three_thousand_random_events_raise_nothing(random_bots):
    monkey = Monkey(seed=11)
    assert monkey.run(EVENTS) >= EVENTS  # any exception fails the test with the scene and the events
    assert set(monkey.seen) >= {"menu", "decks", "games", "settings", "rules", "stats", "results", "table", "pause"}
    assert monkey.table_moves >= 10  # it played, not only pressed Escape
    assert monkey.app.frames >= EVENTS // 10  # and the scenes were drawn all along
