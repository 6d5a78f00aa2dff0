"""Several server processes on one real Redis and one real PostgreSQL (docs/ONLINE.md,
"The cluster"): a table hosted through one process and joined through another, SIGKILL of
a table's owner mid-match, two processes racing for one lease, quick match across
processes, concurrent rating updates, Redis restarted."""
from __future__ import annotations

import threading

import pytest

from game.online.cluster import ClusterConfig
from game.online.serving import start_server_in_thread
from game.record import read_record
from game.verify import verify_file
from tests.online.wshelp import Client, create

pytestmark = pytest.mark.xdist_group("cluster")


def start(tmp_path, services, name: str):
    r, pg = services
    return start_server_in_thread(data_dir=tmp_path / name, cluster=ClusterConfig(r.url, pg.url, process_id=name))


def play(url: str, code: str, token: str | None, seed: int, timeout: float = 60.0) -> tuple[int, object]:
    from game.online.client import RemoteSession
    from game.online.headless import play_seat
    from tests.cluster.conftest import Sink

    session = RemoteSession(url, code, f"P{seed}", token=token, retry_for=30.0)
    out, err = Sink(), Sink()
    rc = play_seat(session, "random", seed, timeout=timeout, out=out, err=err)
    return rc, session, out.getvalue() + err.getvalue()


def test_a_table_hosted_on_one_process_is_played_through_another(tmp_path, fresh):
    a, b, c = (start(tmp_path, fresh, n) for n in ("a", "b", "c"))
    try:
        host, created = create(a.url, "briscola", 2, ["friend", "ai:easy"])
        code = created["code"]
        rc, session, said = play(b.url, code, created["tokens"]["0"], 1)
        assert rc == 0, said
        assert session.conn.home == b.url and session.conn.url == a.url  # sent on by b, to the owner a
        record = session.record_path
        assert record.startswith(str((tmp_path / "a").resolve()))
        verdict = verify_file(record)
        assert verdict.ok, verdict
        assert read_record(record)[-1]["event"] == "match_end"
        # c, asked for the table, sends the client on too
        probe = Client(c.url)
        reply = probe.request({"type": "join", "code": code, "name": "x", "token": created["tokens"]["0"]}, "error")
        assert reply["code"] == "moved" and reply["url"] == a.url
        probe.close()
        host.close()
    finally:
        for s in (a, b, c):
            s.stop()


def _serve(tmp_path, services, name: str):
    from tests.online.test_restart import ServeProcess

    r, pg = services
    return ServeProcess(tmp_path / name, "--redis", r.url, "--database", pg.url)


def _stream(services, code: str) -> list[dict]:
    import redis as redis_py

    from game.online.cluster.tables import RedisTableStore

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
        worker = threading.Thread(target=lambda: box.update(zip(("rc", "session", "said"),
                                                                play(b.url, code, created["tokens"]["0"], 3, 90.0))))
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
        record = box["session"].record_path
        assert record.startswith(str((tmp_path / "b").resolve())), "finished on b"
        after = read_record(record)
        assert after[:len(before)] == before, "nothing lost: the record goes on from the last decision"
        verdict = verify_file(record)
        assert verdict.ok, verdict  # nothing doubled: the rules replay every decision once
        assert after[-1]["event"] == "match_end"
        assert time.monotonic() - killed_at < 60
        host.close()
    finally:
        for p in (a, b):
            if p.proc.poll() is None:
                p.stop()
