"""A Redis that comes back behind (a failover to a late replica, a crash that lost its last
writes): the owner of each table holds the whole match in memory and writes it again, so
every record stays valid and nothing a player saw changes; a table that cannot be replayed
is set aside and reported, never dropped in silence (docs/ONLINE.md, "The cluster")."""

from __future__ import annotations

import time

import pytest

from game.online.server.cluster import ClusterConfig
from game.online.server.serving import start_server_in_thread
from game.record import read_record
from game.verify import verify_file
from tests.online.wshelp import Client, Player, create, record_file

pytestmark = pytest.mark.xdist_group("cluster")


def _wait(what, seconds: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(step)
    return bool(what())


def test_a_redis_restored_2_s_behind_leaves_every_record_valid(tmp_path, fresh):
    import redis as redis_py

    from game.online.server.store import normalised, unmarked
    from game.online.wire.redact import seat_events

    r, pg = fresh
    a, b = (
        start_server_in_thread(data_dir=tmp_path / n, cluster=ClusterConfig(r.url, pg.url, process_id=n))
        for n in ("a", "b")
    )
    client = redis_py.Redis.from_url(r.url)
    tables: list[tuple[Client, str, Player]] = []

    def table(seed: int, pace: float) -> None:
        host, created = create(a.url, "briscola", 2, ["friend", "ai:easy"])
        code = created["code"]
        tables.append(
            (
                host,
                code,
                Player(a.url, code, created["tokens"]["0"], f"P{seed}", seed=seed, pace=pace, deadline=45).start(),
            )
        )

    try:
        for seed, pace in enumerate((0.0, 0.02, 0.08, 0.08)):  # the first ones end before Redis is back
            table(seed, pace)
        assert _wait(lambda: all(len(p.events) >= 8 for _, _, p in tables), 15)
        snapshot = r.snapshot()
        saved = time.monotonic()
        for seed, pace in ((10, 0.0), (11, 0.08)):  # made after the snapshot: Redis forgets them whole
            table(seed, pace)
        time.sleep(max(0.0, 2.0 - (time.monotonic() - saved)))
        seen_before = sum(len(p.events) for _, _, p in tables)
        r.restore_behind(snapshot)  # 2 s of writes gone
        lost = seen_before - sum(len(read_record_stream(client, code)) for _, code, _ in tables)
        assert lost > 0, "the restored Redis is behind what the players saw"
        for _, _, p in tables:
            p.join(60)
        for host, code, p in tables:
            record = read_record(record_file(tmp_path, p.record))
            verdict = verify_file(record_file(tmp_path, p.record))
            assert verdict.ok, (code, verdict)
            assert record[-1]["event"] == "match_end"
            rules = a.server.tables[code].rules
            shown = normalised(seat_events(rules, unmarked(record), p.seat))
            assert shown == normalised(p.events), f"{code}: what the seat saw is what the record keeps"
            # within a round of the process (the run id of Redis is new): the stream is the record again
            assert _wait(lambda code=code, record=record: read_record_stream(client, code) == record, 6), code
            host.close()
        assert a.server.node.resynced >= 1
        assert not client.smembers("cv:open") and not client.hlen("cv:broken")
        assert b.server.node.taken_over == 0, "no table played on from Redis's older copy"
    finally:
        client.close()
        for s in (a, b):
            s.stop()


def read_record_stream(client, code: str) -> list[dict]:
    from game.online.server.store import record_event

    return [
        record_event(raw, code)
        for _id, fields in client.xrange(f"cv:record:{code}")
        for raw in (fields.get(b"d") or b"").split(b"\n")
        if raw
    ]


def test_an_append_to_a_record_redis_holds_less_of_is_refused_never_a_gap(fresh):
    import redis as redis_py

    from game.online.server.cluster.tables import BEHIND, Behind, RedisTableStore
    from game.online.wire import protocol as P

    store = RedisTableStore(redis_py.Redis.from_url(fresh[0].url), fresh[0].folder / "probe", "only")
    code = P.new_code()
    events = [{"event": "match", "n": i} for i in range(6)]
    store.write_meta(code, {"code": code})
    store.start_record(code, events[:2])
    store.append(code, events[2:4], 2)
    last = store.redis.xrevrange(store.record_key(code), count=1)[0][0]
    store.redis.xdel(store.record_key(code), last)  # Redis lost the last write
    assert store._guarded(code, events[4:], "append", 4) == BEHIND
    with pytest.raises(Behind):  # a store with nobody holding the match in memory cannot mend it
        store.append(code, events[4:], 4)
    assert store.read_record(code) == events[:2], "nothing written after the hole"

    class Keeper:  # what a cluster process does: the match in memory is written again whole
        def resync(self, code):
            return store.resync(code, events[:4], {"code": code}, False)

    store.keeper = Keeper()
    store.append(code, events[4:], 4)
    assert store.read_record(code) == events
    # Redis forgot the lease too (its copy is older than the lease): the writer of the
    # record's last line takes it back; any other process may not.
    store.redis.delete(store.lease_key(code))
    other = RedisTableStore(store.redis, fresh[0].folder / "probe", "other")
    assert other.resync(code, events[:2], {"code": code}, False) is False
    assert other.renew([code]) == ([code], [])
    assert store.renew([code]) == ([], [code])
    assert store.owner(code) == "only"
