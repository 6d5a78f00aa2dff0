"""PostgreSQL in trouble (stopped, or frozen with SIGSTOP: connections open, nothing answers)
while a cluster plays: the event loop never waits on it, the leases are renewed, and a match
that ends meanwhile is rated once the database is back — by another process when its own
dies first (docs/ONLINE.md, "The cluster")."""

from __future__ import annotations

import time

import pytest

from game.online.server.cluster import ClusterConfig
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from tests.online.wshelp import Client, Player, create

pytestmark = pytest.mark.xdist_group("cluster")


def _wait(what, seconds: float, step: float = 0.1) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(step)
    return bool(what())


def _quick_pair(url: str) -> tuple[list[Client], list[dict], str]:
    """Ada and Bea, new accounts on ``url``, paired by quick match: their clients, their
    ``quick_found`` and the address of the table's process."""
    people = []
    for name in ("Ada", "Bea"):
        c = Client(url, name)
        c.request({"type": "account", "name": name, "secret": None}, "account")
        c.request({"type": "quick", "game": "briscola", "preset": None}, "quick_waiting")
        people.append(c)
    found = [c.expect("quick_found", timeout=15) for c in people]
    assert found[0]["code"] == found[1]["code"] and not found[0]["filled"]
    c = people[0]
    c.send({"type": "join", "code": found[0]["code"], "name": "x", "token": found[0]["token"]})
    reply = c.recv()
    owner = reply["url"] if reply["type"] == "error" and reply["code"] == "moved" else url
    return people, found, owner


def _rated(pg_url: str, code: str) -> dict[str, int] | None:
    """The players' match counts once ``code`` is stored (None before)."""
    from game.online.server.cluster.pgclub import PgClubStore

    db = PgClubStore(pg_url)
    try:
        if not db.finished_match(code):
            return None
        return {row["name"]: row["matches"] for row in db.leaderboard("briscola", 0)}
    finally:
        db.close()


def test_a_frozen_database_holds_no_ping_no_lease_and_the_match_is_rated_after(tmp_path, fresh):
    import redis as redis_py

    r, pg = fresh
    a, b = (
        start_server_in_thread(
            data_dir=tmp_path / n,
            limits=ServerLimits(quick_wait=60),
            cluster=ClusterConfig(r.url, pg.url, process_id=n),
        )
        for n in ("a", "b")
    )
    client = redis_py.Redis.from_url(r.url)
    try:
        people, found, owner = _quick_pair(a.url)
        code = found[0]["code"]
        # Carla sits at a table of her own on a, and pings while the database is frozen.
        host, created = create(a.url, "briscola", 2, ["friend", "ai:easy"], name="Host")
        carla = Client(a.url, "Carla")
        carla.request(
            {"type": "join", "code": created["code"], "name": "Carla", "token": created["tokens"]["0"]}, "joined"
        )
        asker = Client(a.url, "Dan")
        pg.freeze()
        try:
            players = [
                Player(owner, code, f["token"], f"x{f['seat']}", seed=f["seat"], deadline=40).start() for f in found
            ]
            pings = []
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (len(pings) < 30 or any(p.thread.is_alive() for p in players)):
                began = time.monotonic()
                carla.request({"type": "ping"}, "pong")
                pings.append(time.monotonic() - began)
                time.sleep(0.1)
            for p in players:
                p.join(30)  # the match ended with the database frozen
            began = time.monotonic()
            reply = asker.request({"type": "leaderboard", "game": "briscola"}, "error")
            assert time.monotonic() - began < 1.0 and reply["code"] == "server", "answered at once: try again"
            assert max(pings) < 1.0, f"the slowest ping took {max(pings):.2f} s"
            assert client.hexists("cv:unrated", code), "the result waits, noted in Redis"
            for s in (a, b):
                assert s.server.node.let_go_count == 0 and s.server.node.taken_over == 0, "no lease lost"
            assert client.get(f"cv:lease:{created['code']}") == b"a"
        finally:
            pg.thaw()
        counts: dict = {}
        assert _wait(lambda: counts.update(_rated(pg.url, code) or {}) or counts, 15), "rated once the database is back"
        assert counts == {"Ada": 1, "Bea": 1}, "rated once"
        assert _wait(lambda: not client.hlen("cv:unrated"), 5)
        for c in (*people, host, carla, asker):
            c.close()
    finally:
        pg.thaw()
        client.close()
        for s in (a, b):
            s.stop()


def test_a_match_ended_with_the_database_stopped_is_rated_by_another_process_when_its_own_dies(tmp_path, fresh):
    import redis as redis_py

    from tests.online.server.test_restart import ServeProcess

    r, pg = fresh
    client = redis_py.Redis.from_url(r.url)
    a = ServeProcess(tmp_path / "a", "--redis", r.url, "--database", pg.url)  # the matchmaker: the table is made there
    b = None
    try:
        assert _wait(lambda: client.get("cv:matchmaker") is not None, 10)
        b = start_server_in_thread(data_dir=tmp_path / "b", cluster=ClusterConfig(r.url, pg.url, process_id="b"))
        people, found, owner = _quick_pair(a.url)
        code = found[0]["code"]
        assert owner == a.url
        pg.halt()
        try:
            players = [
                Player(owner, code, f["token"], f"x{f['seat']}", seed=f["seat"], deadline=40).start() for f in found
            ]
            for p in players:
                p.join(30)
            assert _wait(lambda: client.hexists("cv:unrated", code), 5), "the result waits, noted in Redis"
            a.kill()  # and with it, its outbox
        finally:
            pg.start()
        counts: dict = {}
        assert _wait(lambda: counts.update(_rated(pg.url, code) or {}) or counts, 20), "rated by b"
        assert counts == {"Ada": 1, "Bea": 1}, "rated once"
        assert b.server.node.rerated == 1
        assert not client.hlen("cv:unrated")
        for c in people:
            c.close()
    finally:
        client.close()
        if a.proc.poll() is None:
            a.kill()
        if b is not None:
            b.stop()


def test_every_database_call_of_the_club_is_kept_off_the_event_loop():
    """A method of the club's store that reads or writes PostgreSQL must be guarded (run in a
    thread with a bounded wait when called on the event loop): a new one included."""
    import inspect

    from game.online.server.accounts import ClubStore
    from game.online.server.cluster.pgclub import PgClubStore

    wanted = {n for n, _ in inspect.getmembers(ClubStore, inspect.isfunction) if not n.startswith("_")}
    public = {n for n, _ in inspect.getmembers(PgClubStore, inspect.isfunction) if not n.startswith("_")}
    unguarded = sorted(
        n
        for n in (wanted | public) - {"close", "migrate"}
        if not getattr(getattr(PgClubStore, n, None), "guarded", False)
    )
    assert not unguarded, f"called on the event loop they would block it: {unguarded}"
