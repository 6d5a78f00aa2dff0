"""The owner's schedule file (checked line by line, applied once however often it is read)
and the events list a player opens (the day's tournaments, arenas running and coming, Swiss
tournaments, their challenges), with no account id and no secret seed in it."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from game.online.server.events.hub import EventsHub, arena_line_json, standing_json
from game.online.server.events.schedule import ScheduleError, apply, parse
from game.online.server.events.store import SqliteEventStore
from tests.online.server.events.helpers import GAME, Clock

NOW = dt.datetime(2026, 12, 7, 19, 0)

SCHEDULE = """
arenas:
  - name: friday-blitz
    game: briscola
    start: 2026-12-07 20:00
    minutes: 45
  - name: yesterday
    game: briscola
    start: 2026-12-06 20:00
    minutes: 30
swiss:
  - name: december-club
    game: scopa
    preset: scopone
    rounds: 5
    start: 2026-12-08 15:00
    round_times: [2026-12-08 15:00, 2026-12-08 16:00]
"""


def test_schedule_parsed_and_applied_once(tmp_path):
    arenas, swiss = parse(SCHEDULE)
    assert [a.name for a in arenas] == ["friday-blitz", "yesterday"]
    assert arenas[0].minutes == 45 and arenas[0].seats == 2 and arenas[0].preset == "standard"
    (s,) = swiss
    assert s.team_size == 2 and s.rounds == 5 and len(s.round_times) == 2
    store = SqliteEventStore(tmp_path)
    hub = EventsHub(store, Clock(NOW), [(GAME, None)], deals=2)
    made = apply(arenas, swiss, hub.arenas, hub.swisses, 30.0, NOW)
    assert made == ["arena:friday-blitz", "arena:yesterday", "swiss:december-club"]
    assert apply(arenas, swiss, hub.arenas, hub.swisses, 30.0, NOW) == []  # read again: nothing new
    assert hub.arenas.get("arena:friday-blitz").end == dt.datetime(2026, 12, 7, 20, 45)
    store.close()


@pytest.mark.parametrize(
    "text, says",
    [
        ("arenas: [{name: Bad Name, game: briscola, start: 2026-12-07 20:00, minutes: 5}]", "name"),
        ("arenas: [{name: a, game: nogame, start: 2026-12-07 20:00, minutes: 5}]", "unknown game"),
        ("arenas: [{name: a, game: briscola, start: tomorrow, minutes: 5}]", "YYYY-MM-DD"),
        ("arenas: [{name: a, game: briscola, start: 2026-12-07 20:00, minutes: 0}]", "minutes"),
        ("swiss: [{name: a, game: chiamata, start: 2026-12-07 20:00, rounds: 3}]", "two sides"),
        ("swiss: [{name: a, game: briscola, start: 2026-12-07 20:00, rounds: -1}]", "rounds"),
        ("arenas: []\nother: 1", "two lists"),
        (
            "arenas: [{name: a, game: briscola, start: 2026-12-07 20:00, minutes: 5}]\n"
            "swiss: [{name: a, game: briscola, start: 2026-12-07 20:00, rounds: 3}]",
            "same name",
        ),
        ("arenas: [{name: a, name: b}]", "twice"),
    ],
)
def test_a_bad_schedule_is_one_clear_line(text, says):
    with pytest.raises(ScheduleError) as e:
        parse(text)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_the_events_list(tmp_path):
    store = SqliteEventStore(tmp_path)
    clock = Clock(NOW)
    hub = EventsHub(store, clock, [(GAME, None)], deals=2)
    apply(*parse(SCHEDULE), hub.arenas, hub.swisses, 30.0, NOW)
    hub.arenas.join("arena:friday-blitz", "p:1", "Anna", NOW)
    hub.swisses.register("swiss:december-club", ["p:1", "p:2"], "Anna and Bea", 1000, NOW)
    hub.challenges.send("p:3", "Cleo", "p:1", "Anna", GAME, None)
    seen = hub.listing("p:1")
    (tour,) = seen["tournaments"]
    assert tour["seed"] is None and tour["me"]["entered"] is False and len(tour["hash"]) == 64
    assert [a["id"] for a in seen["arenas"]] == ["arena:friday-blitz"]  # yesterday's is over
    assert seen["arenas"][0]["joined"] and not seen["arenas"][0]["running"]
    assert seen["swiss"][0]["registered"] and seen["swiss"][0]["open"]
    (ch,) = seen["challenges"]
    assert ch["opponent"] == "Cleo" and not ch["sent"] and ch["seed"] is None and ch["outcome"] is None
    assert "p:3" not in json.dumps(seen)  # names, never account ids
    visitor = hub.listing(None)
    assert visitor["challenges"] == [] and not visitor["arenas"][0]["joined"]
    text = json.dumps(seen)  # JSON as it is: no secret seed of the day in it
    assert str(store.load(tour["id"]).state["seed"]) not in text
    clock.move(hours=2)
    assert hub.listing("p:1")["arenas"] == []
    lines = [arena_line_json(ln) for ln in hub.arenas.standings("arena:friday-blitz")]
    assert lines[0]["name"] == "Anna" and "player" not in lines[0]
    tid = tour["id"]
    hub.tod.enter(tid, "p:1", "Anna", NOW)
    for i in range(2):
        hub.tod.begin(tid, "p:1", i, f"C{i}", NOW)
        hub.tod.finish(tid, "p:1", i, f"C{i}", 40 + i, NOW)
    assert standing_json(hub.tod.standings(tid, "p:1", NOW)[0]) == {
        "rank": 1,
        "name": "Anna",
        "percent": 50.0,
        "played": 2,
        "ended": 2,
    }
    store.close()
