"""Arenas and Swiss tournaments on the cluster: two server processes on one real Redis and one
real PostgreSQL (the cluster tests' servers).

- An arena whose pairing process (the holder of its lease) is not the one its players are
  connected to: they are told where to sit through their own process, play at the holder's
  table, and the result is in the arena's state. Then the holder dies: the other process
  takes the lease once it expires, pairs them again at a table of its own, and the second
  result is recorded.
- A Swiss tournament with players on both processes: round 1 is paired once (one round,
  each player told one table), whichever process pairs.
- The lease itself: a holder that stops renewing (a process killed) loses it to another
  within the lease's time.
"""

from __future__ import annotations

import datetime as dt
import time
from types import SimpleNamespace

import pytest
import redis as redis_py

from game.online.server.cluster import ClusterConfig
from game.online.server.events.lease import EventLeases, lease_key
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from tests.online.server.cluster.conftest import fresh, services  # noqa: F401 - the cluster's fixtures
from tests.online.server.events.helpers import signed_in, wait_for
from tests.online.wshelp import Player

pytestmark = pytest.mark.xdist_group("cluster")

GAME = "briscola"


def _cluster(tmp_path, r, pg):
    return [
        start_server_in_thread(
            data_dir=tmp_path / name,
            cluster=ClusterConfig(r.url, pg.url, process_id=name),
            limits=ServerLimits(quick_wait=600.0),
        )
        for name in ("a", "b")
    ]


def _play(found: dict, url: str, name: str, seed: int) -> Player:
    return Player(url, found["code"], found["token"], name, seed=seed).start()


def test_an_arena_paired_across_processes_goes_on_when_its_holder_stops(tmp_path, fresh):  # noqa: F811
    r, pg = fresh
    a, b = _cluster(tmp_path, r, pg)
    stopped = False
    try:
        now = dt.datetime.now()
        aid = "arena:cluster-blitz"
        # a pairs the arena: its lease is a's before the arena is listed by either process
        redis_py.Redis.from_url(r.url).set(lease_key(aid), "a", px=3000)
        # two seats; after 3 s two who just met may meet again (the computer never fills here)
        a.server.events.hub.arenas.create(
            None, GAME, "standard", now - dt.timedelta(minutes=1), 1800, 2, 3.0, now, event_id=aid
        )
        anna, _ = signed_in(b.url, "Anna")
        bea, _ = signed_in(b.url, "Bea")
        for c in (anna, bea):
            c.request({"type": "arena_join", "id": aid}, "arena")
        # told through b, where they joined; the table is a's
        found = {"Anna": anna.expect("arena_found"), "Bea": bea.expect("arena_found")}
        code = found["Anna"]["code"]
        assert found["Anna"]["computers"] == 0
        assert found["Bea"]["code"] == code and code in a.server.tables and code not in b.server.tables
        assert aid in a.server.events.arenas.leases.held and aid not in b.server.events.arenas.leases.held
        ask = {"type": "join", "code": code, "name": "Anna", "token": found["Anna"]["token"]}
        moved = anna.request(ask, "error")
        assert moved["code"] == "moved" and moved["url"] == a.url  # b sends its players on to a
        players = [_play(found[n], a.url, n, seed) for seed, n in enumerate(found)]
        for p in players:
            p.join(60)
        first = wait_for(lambda: [m for m in a.server.events.hub.arenas.get(aid).matches().values() if m["result"]])
        assert len(first) == 1 and first[0]["table"] == code
        # the holder dies (as a kill -9: its lease is not given back, it expires): b takes the
        # arena over and pairs the two again, at a table of its own
        a.server.events.arenas.leases.give_back = lambda: None
        a.stop()
        stopped = True
        again = {"Anna": anna.expect("arena_found", timeout=15), "Bea": bea.expect("arena_found", timeout=15)}
        code2 = again["Anna"]["code"]
        assert again["Bea"]["code"] == code2 != code and code2 in b.server.tables and again["Bea"]["computers"] == 0
        assert aid in b.server.events.arenas.leases.held
        players = [_play(again[n], b.url, n, seed) for seed, n in enumerate(again, 7)]
        for p in players:
            p.join(60)
        arena = wait_for(
            lambda: (
                (x := b.server.events.hub.arenas.get(aid))
                and sum(1 for m in x.matches().values() if m["result"]) == 2
                and x
            )
        )
        for v in arena.players().values():
            assert v["games"] == 2 and v["points"] == sum(e["points"] for e in v["history"])
        assert sum(v["wins"] for v in arena.players().values()) <= 2
        for c in (anna, bea):
            c.close()
    finally:
        b.stop()
        if not stopped:
            a.stop()


def test_a_swiss_round_is_paired_once_with_two_processes(tmp_path, fresh):  # noqa: F811
    r, pg = fresh
    a, b = _cluster(tmp_path, r, pg)
    try:
        now = dt.datetime.now()
        sid = a.server.events.hub.swisses.create(None, GAME, "standard", 3, now + dt.timedelta(hours=1), now)
        clients = {}
        for k, name in enumerate(("Anna", "Bea", "Carlo", "Dora", "Emil")):
            clients[name], _ = signed_in((a, b)[k % 2].url, name)
            clients[name].request({"type": "swiss_register", "id": sid, "partner": None}, "swiss")
        later = lambda: dt.datetime.now() + dt.timedelta(hours=2)  # noqa: E731 - past the start
        a.server.events.clock = b.server.events.clock = later
        rounds = {name: c.expect("swiss_round") for name, c in clients.items()}
        time.sleep(1.5)  # several rounds of both loops
        s = a.server.events.hub.swisses.get(sid)
        assert len(s.rounds()) == 1
        tables = s.rounds()[0]
        assert len(tables) == 3 and sum(t["b"] is None for t in tables) == 1  # two tables and a bye
        codes = {t["code"] for t in tables if t["b"] is not None}
        assert {rd["code"] for rd in rounds.values() if rd["code"]} == codes
        assert sum(rd["code"] is None for rd in rounds.values()) == 1
        held = [h for h in (a, b) if sid in h.server.events.swiss.leases.held]
        assert len(held) == 1 and all(c in held[0].server.tables for c in codes)
        for name, c in clients.items():  # nobody was told a second table
            assert not [m for m in c.seen if m.get("type") == "swiss_round" and m is not rounds[name]]
            with pytest.raises(TimeoutError):
                c.expect("swiss_round", timeout=0.2)
            c.close()
    finally:
        for h in (a, b):
            h.stop()


def test_a_holder_that_stops_renewing_loses_the_lease_within_its_time(fresh):  # noqa: F811
    r, _ = fresh
    client = redis_py.Redis.from_url(r.url)
    store = SimpleNamespace(_call=lambda fn, *args, **kw: fn(*args, **kw))
    one, other = (EventLeases(SimpleNamespace(me=me, redis=client, store=store), ms=300) for me in ("one", "other"))
    assert one.hold("arena:x") and not other.hold("arena:x")
    assert one.hold("arena:x") and not other.hold("arena:x")  # renewed
    time.sleep(0.35)  # "one" is killed: it renews no more
    assert other.hold("arena:x") and not one.hold("arena:x")
    other.give_back()
    assert one.hold("arena:x")
