"""A kill -9 of the process running a Swiss tournament, mid-round, on the cluster (real Redis
and PostgreSQL): process a (``main.py serve``, a real subprocess) holds the tournament's lease
and pairs round 1 at tables of its own; its players are connected to process b. a is killed
with SIGKILL before anyone sits. b takes the tables over once their leases expire (the test
expires them at once rather than wait the tables' 10 s), adopts them
for the tournament, takes the tournament's lease, and the players play the round at b: the
results are recorded and the tournament ends."""

from __future__ import annotations

import datetime as dt

import pytest
import redis as redis_py

from game.online.server.cluster import ClusterConfig
from game.online.server.events.common import iso
from game.online.server.events.lease import lease_key
from game.online.server.events.pgstore import PgEventStore
from game.online.server.events.swiss import Swisses
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from tests.online.server.cluster.conftest import fresh, services  # noqa: F401 - the cluster's fixtures
from tests.online.server.events.helpers import signed_in, wait_for
from tests.online.server.test_restart import ServeProcess
from tests.online.wshelp import Player

pytestmark = pytest.mark.xdist_group("cluster")

SID = "swiss:kill9"
NAMES = ("Anna", "Bea", "Carlo", "Dora")


def test_a_swiss_round_goes_on_after_its_process_is_killed(tmp_path, fresh):  # noqa: F811
    r, pg = fresh
    client = redis_py.Redis.from_url(r.url)
    a = ServeProcess(tmp_path / "a", "--redis", r.url, "--database", pg.url)
    b = None
    store = PgEventStore(pg.url)
    try:
        (a_id,) = wait_for(lambda: [k.decode() for k in client.hkeys("cv:nodes")])
        client.set(lease_key(SID), a_id, px=10_000)  # a pairs this tournament (it renews the lease)
        now = dt.datetime.now()
        swisses = Swisses(store)
        swisses.create(None, "briscola", "standard", 1, now + dt.timedelta(days=1), now, event_id=SID)
        b = start_server_in_thread(
            data_dir=tmp_path / "b", cluster=ClusterConfig(r.url, pg.url, process_id="b"), limits=ServerLimits()
        )
        clients = {}
        for name in NAMES:
            clients[name], _ = signed_in(b.url, name)
            clients[name].request({"type": "swiss_register", "id": SID, "partner": None}, "swiss")
        # everyone registered: the owner brings the start forward to now
        swisses._do(SID, lambda t: t.s.update(starts=iso(dt.datetime.now())))
        rounds = {name: c.expect("swiss_round", timeout=15) for name, c in clients.items()}
        codes = {rd["code"] for rd in rounds.values()}
        assert len(codes) == 2 and all(client.get(f"cv:lease:{c}") == a_id.encode() for c in codes)
        a.kill()  # mid-round: its tables are open, nobody sat yet
        # Its leases would expire within 10 s (the tables') and 3 s (the tournament's): the
        # test expires them now (what Redis does at their time), the cluster does the rest.
        client.delete(*[f"cv:lease:{c}" for c in codes], lease_key(SID))
        wait_for(lambda: all(c in b.server.tables for c in codes), timeout=20)  # taken over
        players = [
            Player(b.url, rd["code"], rd["token"], name, seed=k).start() for k, (name, rd) in enumerate(rounds.items())
        ]
        for p in players:
            p.join(60)
        s = wait_for(lambda: (x := swisses.get(SID)).finished and x, timeout=10)
        (tables,) = s.rounds()
        assert all(t["result"] in ("a", "b", "draw") and "forfeit" not in t for t in tables)
        assert SID in b.server.events.swiss.leases.held
        final = clients["Anna"].expect("swiss", timeout=5)  # the standings, sent through b
        assert final["id"] == SID
        for c in clients.values():
            c.close()
    finally:
        store.close()
        if b is not None:
            b.stop()
        if a.proc.poll() is None:
            a.proc.kill()
