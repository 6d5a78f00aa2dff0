"""The events store: an event made once, compare-and-set changes (a stale version refused,
two writers at once both applied), entries written once, the quotas' count — and a process
killed with SIGKILL mid-round losing nothing it had committed, the event going on from the
store."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.online.server.events.store import SqliteEventStore, change
from game.online.server.events.swiss import Swisses
from game.online.server.events.tourday import TourOfDay
from tests.online.server.events.writer_child import PLAYERS, ROUNDS

ROOT = Path(__file__).resolve().parents[4]
T0 = dt.datetime(2026, 12, 7, 12, 0)


def contract(make) -> None:
    """What every EventStore must do; ``make()`` opens another connection to the same store."""
    s = make()
    assert s.create("e:1", "arena", "p:1", {"n": 0}, T0)
    assert not s.create("e:1", "arena", "p:2", {"n": 5}, T0)
    got = s.load("e:1")
    assert got is not None and got.state == {"n": 0} and got.version == 1 and got.creator == "p:1"
    assert s.load("e:none") is None
    assert s.save("e:1", {"n": 1}, 1)
    assert not s.save("e:1", {"n": 99}, 1)  # another writer's version 1 is gone
    assert s.load("e:1").state == {"n": 1}

    def bump(state):
        state["n"] += 1
        return state, state["n"]

    def writer():
        mine = make()
        for _ in range(40):
            change(mine, "e:1", bump)

    threads = [threading.Thread(target=writer) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert s.load("e:1").state["n"] == 1 + 3 * 40  # no change lost to a race
    assert s.put("e:1", "p:1", "entry", {"name": "A"}, T0)
    assert not s.put("e:1", "p:1", "entry", {"name": "B"}, T0)
    assert s.put("e:1", "p:2", "entry", {"name": "C"}, T0)
    assert s.put("e:1", "p:1", "deal:0", {"score": 3}, T0)
    assert [(e.player, e.item, e.value) for e in s.entries("e:1")] == [
        ("p:1", "entry", {"name": "A"}),
        ("p:2", "entry", {"name": "C"}),
        ("p:1", "deal:0", {"score": 3}),
    ]
    assert [e.item for e in s.entries("e:1", "p:1")] == ["entry", "deal:0"]
    s.create("e:2", "arena", "p:1", {}, T0 + dt.timedelta(hours=1))
    s.create("e:3", "swiss", "p:1", {}, T0 + dt.timedelta(hours=2))
    assert s.count_created("p:1", "arena", T0) == 2
    assert s.count_created("p:1", "arena", T0 + dt.timedelta(minutes=1)) == 1
    assert s.count_created("p:2", "arena", T0) == 0
    assert [e.id for e in s.events("arena")] == ["e:1", "e:2"]
    assert len(s.events()) == 3
    # the loop's list: only the events whose state is not finished (the store's own column)
    assert s.create("e:4", "swiss", None, {"finished": True}, T0 + dt.timedelta(hours=3))
    assert [e.id for e in s.events("swiss", unfinished=True)] == ["e:3"]
    assert [e.id for e in s.events(unfinished=True)] == ["e:1", "e:2", "e:3"]
    change(s, "e:3", lambda state: ({**state, "finished": True}, None))
    change(s, "e:1", lambda state: ({**state, "finished": "no"}, None))  # only true finishes
    assert s.events("swiss", unfinished=True) == [] and len(s.events("swiss")) == 2
    assert [e.id for e in s.events("arena", unfinished=True)] == ["e:1", "e:2"]


OLD_SCHEMA = """
CREATE TABLE events (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, creator TEXT, created TEXT NOT NULL,
    state TEXT NOT NULL, version INTEGER NOT NULL);
CREATE INDEX events_by_creator ON events (creator, kind, created);
INSERT INTO events VALUES ('swiss:old', 'swiss', NULL, '2026-12-01T12:00:00', '{"finished": true}', 7);
INSERT INTO events VALUES ('swiss:on', 'swiss', NULL, '2026-12-02T12:00:00', '{"finished": false}', 3);
INSERT INTO events VALUES ('arena:a', 'arena', NULL, '2026-12-03T12:00:00', '{"matches": {}}', 1);
"""


def test_a_file_made_before_the_finished_column_is_migrated(tmp_path):
    import sqlite3

    from game.online.server.events.store import DB_NAME

    with sqlite3.connect(tmp_path / DB_NAME) as db:
        db.executescript(OLD_SCHEMA)
    for _ in range(2):  # opened again: nothing to do the second time
        s = SqliteEventStore(tmp_path)
        try:
            assert [e.id for e in s.events("swiss", unfinished=True)] == ["swiss:on"]
            assert [e.id for e in s.events(unfinished=True)] == ["swiss:on", "arena:a"]
            assert s.load("swiss:old").version == 7 and len(s.events()) == 3
            plan = s.db.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM events WHERE kind = 'swiss' AND finished = 0 ORDER BY created, id"
            ).fetchall()
            assert any("events_unfinished" in str(row) for row in plan), plan  # the loop's read uses the index
        finally:
            s.close()


def test_sqlite_store_contract(tmp_path):
    opened = []

    def make():
        opened.append(SqliteEventStore(tmp_path))
        return opened[-1]

    try:
        contract(make)
    finally:
        for s in opened:
            s.close()


def test_kill_9_mid_round_loses_nothing_committed(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.online.server.events.writer_child", str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    acks: list[list[str]] = []
    try:
        assert proc.stdout is not None
        ids = proc.stdout.readline().split()
        assert ids[0] == "ids", ids
        sid, tid = ids[1], ids[2]
        for line in proc.stdout:
            words = line.split()
            if words[0] == "done":
                pytest.fail("the writer finished before it was killed")
            acks.append(words[1:])
            if sum(1 for a in acks if a[0] == "result") == 10:  # the first round is under way
                break
        proc.send_signal(signal.SIGKILL)
        rest = proc.stdout.read()  # what it acknowledged between the decision and the kill
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert "done" not in rest
    acks += [ln.split()[1:] for ln in rest.splitlines() if ln.startswith("ack ")]
    store = SqliteEventStore(tmp_path)
    swisses = Swisses(store)
    s = swisses.get(sid)
    kept = {t["match"]: t["result"] for r in s.rounds() for t in r if t["match"]}
    for kind, key, value in acks:
        if kind == "result":
            assert kept.get(key) == value, f"{key} was acknowledged and lost"
        elif kind == "round":
            assert len(s.rounds()) >= int(value)
        elif kind == "entry":
            assert TourOfDay(store).progress(key, value)["entered"]
    # the event goes on from the store: the round under way played out, then the rest
    now = dt.datetime(2026, 12, 8, 0, 0)
    for t in s.rounds()[-1]:
        if t["result"] is None:
            swisses.report(sid, t["match"], "draw", now)
    while (tables := swisses.advance(sid, now)) is not None:
        for t in tables:
            if t["b"] is not None:
                swisses.report(sid, t["match"], "a", now)
    s = swisses.get(sid)
    assert s.finished and len(s.rounds()) == ROUNDS
    pairs = [frozenset((t["a"], t["b"])) for r in s.rounds() for t in r if t["b"]]
    assert len(pairs) == len(set(pairs)) == ROUNDS * PLAYERS // 2
    assert TourOfDay(store).public(tid, now)["hash"]
    store.close()
