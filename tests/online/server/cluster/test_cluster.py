"""Several server processes on one real Redis and one real PostgreSQL (docs/ONLINE.md,
"The cluster"): a table hosted through one process and joined through another, SIGKILL of
a table's owner mid-match, two processes racing for one lease, quick match across
processes, concurrent rating updates, Redis restarted."""

from __future__ import annotations

import json
import threading

import pytest

from game.online.server.cluster import ClusterConfig
from game.online.server.serving import start_server_in_thread
from game.record import read_record
from game.verify import verify_file
from tests.online.wshelp import Client, create, record_file

pytestmark = pytest.mark.xdist_group("cluster")


def start(tmp_path, services, name: str):
    r, pg = services
    return start_server_in_thread(data_dir=tmp_path / name, cluster=ClusterConfig(r.url, pg.url, process_id=name))


def play(url: str, code: str, token: str | None, seed: int, timeout: float = 60.0) -> tuple[int, object]:
    from game.online.client.client import RemoteSession
    from game.online.client.headless import play_seat
    from tests.online.server.cluster.conftest import Sink

    session = RemoteSession(url, code, f"P{seed}", token=token, retry_for=30.0)
    out, err = Sink(), Sink()
    rc = play_seat(session, "random", seed, timeout=timeout, out=out, err=err)
    return rc, session, out.getvalue() + err.getvalue()


def test_a_table_hosted_on_one_process_is_played_through_another(tmp_path, fresh):
    a, b, c = (start(tmp_path, fresh, n) for n in ("a", "b", "c"))
    try:
        host, created = create(a.url, "briscola", 2, ["friend", "ai:easy"])
        code = created["code"]
        host.request({"type": "publish", "public": True}, "published")
        # a spectator asking c is sent to the owner too (spectators and chat talk to the owner)
        from game.online.client.watchclient import SpectatorFeed

        watcher = SpectatorFeed(c.url, code, "Vera")
        rc, session, said = play(b.url, code, created["tokens"]["0"], 1)
        assert rc == 0, said
        assert session.conn.home == b.url and session.conn.url == a.url  # sent on by b, to the owner a
        record = record_file(tmp_path / "a", session.record_path)  # kept by the owner, a
        verdict = verify_file(record)
        assert verdict.ok, verdict
        assert read_record(record)[-1]["event"] == "match_end"
        # c, asked for the table, sends the client on too
        probe = Client(c.url)
        reply = probe.request({"type": "join", "code": code, "name": "x", "token": created["tokens"]["0"]}, "error")
        assert reply["code"] == "moved" and reply["url"] == a.url
        probe.close()
        watcher.poll()
        assert watcher.conn.home == c.url and watcher.conn.url == a.url and watcher.lobby["code"] == code
        watcher.conn.close()
        host.close()
    finally:
        for s in (a, b, c):
            s.stop()


def _serve(tmp_path, services, name: str):
    from tests.online.server.test_restart import ServeProcess

    r, pg = services
    return ServeProcess(tmp_path / name, "--redis", r.url, "--database", pg.url)


def _stream(services, code: str) -> list[dict]:
    import redis as redis_py

    from game.online.server.cluster.tables import RedisTableStore

    client = redis_py.Redis.from_url(services[0].url)
    return RedisTableStore(client, services[0].folder / "probe", "probe").read_record(code)


def test_the_owner_killed_mid_match_the_match_finishes_on_another_process(tmp_path, fresh):
    import signal
    import time

    a, b = _serve(tmp_path, fresh, "a"), _serve(tmp_path, fresh, "b")
    try:
        assert "cluster process" in a.lines.get(timeout=10)
        host, created = create(a.url, "briscola", 2, ["friend", "ai:easy"])
        code = created["code"]
        box: dict = {}
        # The player comes in through b (sent on to a) and plays slowly enough to be cut off.
        worker = threading.Thread(
            target=lambda: box.update(
                zip(("rc", "session", "said"), play(b.url, code, created["tokens"]["0"], 3, 90.0))
            )
        )
        worker.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum(ev["event"] == "play" for ev in _stream(fresh, code)) < 8:
            time.sleep(0.05)
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait(10)
        killed_at = time.monotonic()
        before = _stream(fresh, code)
        assert 8 <= sum(ev["event"] == "play" for ev in before) < 40, "killed mid-match"
        worker.join(100)
        assert not worker.is_alive()
        assert box["rc"] == 0, box["said"]
        record = record_file(tmp_path / "b", box["session"].record_path)  # finished on b
        after = read_record(record)
        assert after[: len(before)] == before, "nothing lost: the record goes on from the last decision"
        verdict = verify_file(record)
        assert verdict.ok, verdict  # nothing doubled: the rules replay every decision once
        assert after[-1]["event"] == "match_end"
        assert time.monotonic() - killed_at < 60
        host.close()
    finally:
        for p in (a, b):
            if p.proc.poll() is None:
                p.stop()


def _stores(services, *names):
    import redis as redis_py

    from game.online.server.cluster.tables import RedisTableStore

    return [RedisTableStore(redis_py.Redis.from_url(services[0].url), services[0].folder / "probe", n) for n in names]


def test_two_processes_racing_for_one_expired_lease_exactly_one_wins(fresh):
    from game.online.server.store import LeaseLost
    from game.online.wire import protocol as P

    for _ in range(20):
        first, second = _stores(fresh, "first", "second")
        code = P.new_code()
        first.redis.delete(first.lease_key(code), first.record_key(code), first.meta_key(code))
        first.write_meta(code, {"code": code})  # made by "first" …
        first.start_record(code, [{"event": "match_start"}])
        first.redis.delete(first.lease_key(code))  # … whose lease then expired
        barrier, won = threading.Barrier(2), {}

        def race(store, barrier=barrier, code=code, won=won):
            barrier.wait()
            won[store.me] = store.acquire(code)

        threads = [threading.Thread(target=race, args=(s,)) for s in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(5)
        assert sorted(won.values()) == [False, True], won
        loser = first if not won["first"] else second
        length = loser.redis.xlen(loser.record_key(code))
        with pytest.raises(LeaseLost):
            loser.append(code, [{"event": "play"}], 1)
        with pytest.raises(LeaseLost):
            loser.write_meta(code, {"code": code, "finished": True})
        assert loser.redis.xlen(loser.record_key(code)) == length, "the loser never appends"
        winner = second if loser is first else first
        winner.append(code, [{"event": "play"}], 1)
        assert winner.redis.xlen(winner.record_key(code)) == length + 1


def test_an_append_sent_again_after_its_reply_was_lost_is_written_once(fresh):
    """Redis may apply an append and then lose the connection before it answers (a restart):
    the table sends the same events again, with the record's length before them."""
    from game.online.wire import protocol as P

    (store,) = _stores(fresh, "only")
    code = P.new_code()
    events = [{"event": "match", "n": i} for i in range(6)]
    store.start_record(code, events[:2])
    store.append(code, events[2:3], 2)
    store.append(code, events[2:3], 2)  # the same write again: nothing new
    assert store.read_record(code) == events[:3]
    store.append(code, events[2:5], 2)  # again, with the decisions made meanwhile: only those
    assert store.read_record(code) == events[:5]
    store.append(code, events[5:], 5)
    assert store.read_record(code) == events
    store.rewrite_record(code, events[:4])  # a resume's rewrite starts the count again
    store.append(code, events[4:], 4)
    store.append(code, events[4:], 4)
    assert store.read_record(code) == events


def test_the_background_writer_resends_a_batch_redis_applied_without_answering(fresh):
    import asyncio

    from game.online.server.cluster.writer import RecordWriter
    from game.online.wire import protocol as P

    (store,) = _stores(fresh, "only")
    code = P.new_code()
    events = [{"event": "match", "n": i} for i in range(5)]
    store.start_record(code, events[:2])

    class Table:  # what the writer reads of a table
        def __init__(self):
            self.code, self.events, self.unsaved, self.outbox = code, list(events[:2]), [], []

        @property
        def saved_before(self):
            return len(self.events) - len(self.unsaved)

    class Play:
        def __init__(self):
            self.sent, self.stalls, self.lost, self.writer = [], 0, 0, None

        def written(self, t, out):
            self.sent += out

        def _stall(self, t):  # the play loop tries again a little later
            self.stalls += 1
            self.writer.want(t)

        def _lose(self, t):
            self.lost += 1

    async def scenario():
        play, table = Play(), Table()
        writer = play.writer = RecordWriter(play, store, fresh[0].url)
        real_pipeline, cut = writer.aio.pipeline, [1]

        def pipeline(*args, **kwargs):
            pipe = real_pipeline(*args, **kwargs)
            execute = pipe.execute

            async def applied_then_cut(*a, **k):
                result = await execute(*a, **k)  # Redis has run the append …
                if cut[0]:
                    cut[0] -= 1
                    raise ConnectionError("Connection closed by server.")  # … its answer is lost
                return result

            pipe.execute = applied_then_cut
            return pipe

        writer.aio.pipeline = pipeline
        runner = asyncio.ensure_future(writer.run())
        for i in (2, 3, 4):  # three decisions, one at a time, as a table makes them
            table.events.append(events[i])
            table.unsaved.append(events[i])
            table.outbox.append(([events[i]], i))
            writer.want(table)
            for _ in range(200):
                await asyncio.sleep(0.01)
                if not table.unsaved and ([events[i]], i) in play.sent:
                    break
        runner.cancel()
        await writer.close()
        return play

    play = asyncio.run(scenario())
    assert play.stalls == 1 and play.lost == 0
    assert play.sent == [([events[i]], i) for i in (2, 3, 4)], "each decision sent to the seats once, in order"
    assert store.read_record(code) == events, "and written once"


def test_ratings_of_one_player_updated_by_two_processes_at_once_lose_nothing(fresh):
    import time

    from game.online.server.accounts import Rating
    from game.online.server.cluster.pgclub import PgClubStore

    one, two = PgClubStore(fresh[1].url), PgClubStore(fresh[1].url)
    try:
        player = one.create_player("Nina", "s" * 64, "r" * 64)
        assert two.player_by_name("nina") == player
        subject = f"p:{player.id}"

        def finish(store, code):
            def settle(current):
                r = current[subject] or Rating(25.0, 8.0, 0)
                time.sleep(0.05)  # both transactions are open at once
                return (
                    {"code": code},
                    [(player.id, 0, "won", None, None)],
                    {subject: Rating(r.mu + 1, r.sigma, r.matches + 1)},
                )

            assert store.rate_match(code, "briscola", None, True, [subject], settle) is not None

        threads = [
            threading.Thread(target=finish, args=(store, f"M{k}{store is one}"))
            for k in range(6)
            for store in (one, two)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        r = one.rating(subject, "briscola")
        assert r.matches == 12 and r.mu == pytest.approx(25.0 + 12)
        assert len(two.recent_matches(player.id, 50)) == 12
        # a match is rated once
        assert two.rate_match("M0True", "briscola", None, True, [subject], lambda c: ({}, [], {})) is None
        assert one.leaderboard("briscola", 0)[0]["name"] == "Nina"
    finally:
        one.close()
        two.close()


def test_quick_match_pairs_two_players_connected_to_different_processes(tmp_path, fresh):
    from game.online.server.limits import ServerLimits

    r, pg = fresh
    servers = [
        start_server_in_thread(
            data_dir=tmp_path / n,
            limits=ServerLimits(quick_wait=60),
            cluster=ClusterConfig(r.url, pg.url, process_id=n),
        )
        for n in ("a", "b")
    ]
    try:
        people = []
        for server, name in zip(servers, ("Ada", "Bea")):
            c = Client(server.url, name)
            c.request({"type": "account", "name": name, "secret": None}, "account")
            c.request({"type": "quick", "game": "briscola", "preset": None}, "quick_waiting")
            people.append(c)
        found = [c.expect("quick_found", timeout=15) for c in people]
        assert found[0]["code"] == found[1]["code"] and {f["seat"] for f in found} == {0, 1}
        assert not found[0]["filled"]
        code = found[0]["code"]
        from tests.online.wshelp import Player

        owners = set()
        for server, c, f in zip(servers, people, found):  # each asks its own process: one sends it on
            c.send({"type": "join", "code": code, "name": "x", "token": f["token"]})
            reply = c.recv()
            owners.add(reply["url"] if reply["type"] == "error" and reply["code"] == "moved" else server.url)
            c.send({"type": "quick_cancel"})
        assert len(owners) == 1 and owners <= {s.url for s in servers}
        url = owners.pop()
        results = [Player(url, code, f["token"], f"x{f['seat']}", seed=f["seat"]).start() for f in found]
        for p in results:
            p.join(60)
        verdict = verify_file(record_file(tmp_path, results[0].record))
        assert verdict.ok, verdict
        from game.online.server.cluster.pgclub import PgClubStore

        db = PgClubStore(pg.url)
        try:
            names = {row["name"]: row["matches"] for row in db.leaderboard("briscola", 0)}
            assert names == {"Ada": 1, "Bea": 1}
        finally:
            db.close()
        for c in people:
            c.close()
    finally:
        for s in servers:
            s.stop()


def test_redis_restarted_mid_match_pauses_the_table_and_loses_nothing(tmp_path, fresh):
    import time

    from tests.online.wshelp import Player

    a = start(tmp_path, fresh, "a")
    try:
        host, created = create(a.url, "briscola", 2, ["friend", "ai:easy"])
        code = created["code"]
        p = Player(a.url, code, created["tokens"]["0"], "Pia", seed=5, pace=0.15, deadline=90).start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(p.events) < 12:
            time.sleep(0.05)
        fresh[0].restart(down_for=2.0)  # its append-only file keeps what it had
        p.join(90)
        assert a.server.play.stalls >= 1, "the table waited while Redis was away"
        verdict = verify_file(record_file(tmp_path, p.record))
        assert verdict.ok, verdict
        assert read_record(record_file(tmp_path, p.record))[-1]["event"] == "match_end"
        host.close()
    finally:
        a.stop()


def test_health_status_line_and_a_graceful_drain_hand_the_tables_over(tmp_path, fresh):
    import json
    import urllib.request

    a, b = _serve(tmp_path, fresh, "a"), _serve(tmp_path, fresh, "b")
    try:
        status = a.lines.get(timeout=10)
        assert "cluster process" in status and "0 table(s) owned" in status and "leases held" in status
        host, created = create(a.url, "scopa", 2, ["friend", "ai:easy"])
        with urllib.request.urlopen(a.url.replace("ws://", "http://") + "/health", timeout=5) as reply:
            health = json.loads(reply.read())
        assert reply.status == 200 and health["ok"] and health["tables"] == 1 and health["leases"] == "held"
        assert a.stop() == 0  # SIGTERM: drain
        said = "".join(a.lines.get(timeout=5) for _ in range(a.lines.qsize()))
        assert "drained, 1 table(s) handed over" in said
        # b serves the table now: its lease was let go, nobody waits 10 s
        rc, session, out = play(b.url, created["code"], created["tokens"]["0"], 9, 60.0)
        assert rc == 0, out
        assert session.conn.url == b.url and verify_file(record_file(tmp_path, session.record_path)).ok
        host.close()
    finally:
        for p in (a, b):
            if p.proc.poll() is None:
                p.stop()


@pytest.mark.parametrize(
    "args,words",
    [
        (["--redis", "redis://127.0.0.1:1/0"], "--redis needs --database"),
        (["--redis", "http://x", "--database", "postgresql://u@h/d"], "--redis takes"),
        (["--database", "mysql://x"], "--database takes"),
        (["--public-url", "ws://x:1"], "--public-url goes with --redis"),
        (["--redis", "redis://127.0.0.1:1/0", "--database", "postgresql://u@127.0.0.1:1/d"], "cannot reach Redis"),
    ],
)
def test_bad_cluster_arguments_are_one_line_and_exit_2(args, words, capsys, tmp_path):
    from game.online.cli import main as online_main

    assert online_main(["serve", "--port", "0", "--data", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1, err


def test_a_moved_reply_is_followed_only_to_a_table_server_address():
    from game.online.client.connection import MAX_URL, Connection, _Moved

    c = Connection("ws://127.0.0.1:1")
    # another process of the cluster first reached (connection.same_cluster), nothing else
    for url, followed in [
        ("ws://127.0.0.1:7420", True),
        ("ws://10.0.0.2:7420", False),
        ("wss://127.0.0.1:443", False),
        ("wss://club.example:443", False),
        ("http://evil.example/", False),
        ("file:///etc/passwd", False),
        ("ws://" + "x" * MAX_URL, False),
        (None, False),
        (42, False),
    ]:
        c.url = c.home
        with pytest.raises(_Moved):
            c._deliver(json.dumps({"type": "error", "code": "moved", "message": "", "url": url}))
        assert c.url == (url if followed else c.home), url
        assert c.inbox.empty()  # not an error for the session: the connection handles it


def test_a_broken_table_in_redis_is_set_aside_and_the_process_goes_on(tmp_path, fresh, caplog):
    import time

    import redis as redis_py

    from game.online.wire import protocol as P

    client = redis_py.Redis.from_url(fresh[0].url)
    code = P.new_code()
    client.set(f"cv:meta:{code}", b'{"format": 1, "code": "' + code.encode() + b'", "game": "nope"')  # cut short
    client.sadd("cv:open", code)
    a = start(tmp_path, fresh, "a")
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and client.sismember("cv:open", code):
            time.sleep(0.05)
        assert not client.sismember("cv:open", code), "set aside, not tried again and again"
        assert client.exists(f"cv:meta:{code}"), "left where it is for the operator"
        assert b"cannot be read" in client.hget("cv:broken", code), "and reported: listed with why"
        deadline = time.monotonic() + 5  # the next round's heartbeat counts it
        while time.monotonic() < deadline and a.server.node.status()["broken"] != 1:
            time.sleep(0.05)
        assert a.server.node.status()["broken"] == 1
        assert "1 table(s) set aside as broken" in a.server.node.status_line()
        probe = Client(a.url)
        reply = probe.request({"type": "join", "code": code, "name": "x", "token": None}, "error")
        assert reply["code"] in ("no_table", "full")
        probe.close()
        host, created = create(a.url, "scopa", 2, ["friend", "ai:easy"])  # and the process serves on
        assert created["code"]
        host.close()
    finally:
        a.stop()
