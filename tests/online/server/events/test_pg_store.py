"""The events store in a real PostgreSQL (started here on 127.0.0.1 in a temporary folder, as
the cluster tests do): the same contract as SQLite's, and two stores (two processes of a
cluster) entering the same players in a tournament of the day at once — one entry each."""

from __future__ import annotations

import datetime as dt
import threading

import pytest

from game.online.server.cluster.local import LocalPostgres
from game.online.server.events.common import EventRefusal
from game.online.server.events.pgstore import PgEventStore
from game.online.server.events.tourday import TourOfDay
from tests.online.server.events.helpers import GAME
from tests.online.server.events.test_store import contract

pytestmark = pytest.mark.xdist_group("events-pg")
NOON = dt.datetime(2026, 12, 7, 12, 0)


@pytest.fixture(scope="module")
def pg():
    server = LocalPostgres()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fresh(pg):
    import psycopg

    with psycopg.connect(pg.url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS club_events, club_event_entries")
    return pg.url


def test_a_schema_made_before_the_finished_column_is_migrated(fresh):
    import psycopg

    with psycopg.connect(fresh, autocommit=True) as db:
        db.execute(
            "CREATE TABLE club_events (id TEXT PRIMARY KEY, kind TEXT NOT NULL, creator TEXT, "
            "created TEXT NOT NULL, state JSONB NOT NULL, version BIGINT NOT NULL)"
        )
        db.execute(
            "INSERT INTO club_events VALUES ('swiss:old', 'swiss', NULL, '2026-12-01T12:00:00', '{\"finished\": true}', 7), "
            "('swiss:on', 'swiss', NULL, '2026-12-02T12:00:00', '{\"finished\": false}', 3)"
        )
    for _ in range(2):  # a second process's start finds it done
        s = PgEventStore(fresh)
        try:
            assert [e.id for e in s.events("swiss", unfinished=True)] == ["swiss:on"]
            assert len(s.events("swiss")) == 2 and s.load("swiss:old").version == 7
            assert s.save("swiss:on", {"finished": True}, s.load("swiss:on").version)
            assert s.events("swiss", unfinished=True) == []
            assert s.save("swiss:on", {"finished": False}, s.load("swiss:on").version)
        finally:
            s.close()


def test_pg_store_contract(fresh):
    opened: list[PgEventStore] = []

    def make():
        opened.append(PgEventStore(fresh))
        return opened[-1]

    try:
        contract(make)
    finally:
        for s in opened:
            s.close()


def test_two_processes_one_entry_each(fresh):
    a, b = PgEventStore(fresh), PgEventStore(fresh)
    try:
        tid = TourOfDay(a, deals=2).ensure(NOON.date().isoformat(), GAME, None, NOON)
        assert TourOfDay(b, deals=2).ensure(NOON.date().isoformat(), GAME, None, NOON) == tid
        assert a.load(tid).state["seed"] == b.load(tid).state["seed"]  # one secret for the cluster
        refused: list[str] = []

        def enter(store):
            tod = TourOfDay(store, deals=2)
            for k in range(30):
                try:
                    tod.enter(tid, f"p:{k}", f"P{k}", NOON)
                except EventRefusal as e:
                    refused.append(e.code)

        threads = [threading.Thread(target=enter, args=(s,)) for s in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert refused == ["entered"] * 30
        assert len([e for e in a.entries(tid) if e.item == "entry"]) == 30
    finally:
        a.close()
        b.close()


def test_twelve_players_through_two_processes_standings_equal_the_recompute(fresh):
    """Twelve bot players enter the day's tournament, half through each of two stores (two
    processes of a cluster); the standings either shows equal a recompute from the records."""
    from tests.online.server.events.recompute import recompute
    from tests.online.server.events.test_tourday import play_through

    a, b = PgEventStore(fresh), PgEventStore(fresh)
    try:
        tods = (TourOfDay(a, deals=3), TourOfDay(b, deals=3))
        tid = tods[0].ensure(NOON.date().isoformat(), GAME, None, NOON)
        records: dict[str, str] = {}
        for k in range(1, 13):
            tod = tods[k % 2]
            tod.enter(tid, f"p:{k}", f"Bot {k}", NOON)
            play_through(tod, tid, f"p:{k}", seed=k, records=records)
        entries = [
            {"player": f"p:{k}", "name": f"Bot {k}", "ended": 3, "results": {i: f"T{k}X{i}" for i in range(3)}}
            for k in range(1, 13)
        ]
        want = recompute(entries, records, deals=3)
        for tod in tods:
            got = [(s.rank, s.name, f"{s.percent:.2f}") for s in tod.standings(tid, "p:1", NOON)]
            assert got == want
    finally:
        a.close()
        b.close()
