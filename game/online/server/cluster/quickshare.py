"""Quick match across the processes of a cluster: the waiting players in Redis, paired by
one process at a time (game.online.server.cluster.node explains the keys). The same pairing as on
one process (game.online.server.quick.pair); only where the waiting players are kept differs."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from game.online.server.quick import Waiting, pair
from game.online.server.store import StoreError
from game.rules.vocabulary import JsonObject

if TYPE_CHECKING:
    from game.online.server.club import Club
    from game.online.server.cluster.node import ClusterNode

KEYS = "cv:quick:keys"
MATCHMAKER = "cv:matchmaker"

# KEYS: matchmaker   ARGV: me, ms  -> 1 when this process is (still) the matchmaker
# KEYS: matchmaker lease, the queues' set   ARGV: me, ms  -> 0 another process pairs; else
# 1 + the number of queues (so that an idle club's round is one round trip)
_MATCHMAKER = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 + redis.call('SCARD', KEYS[2]) end
if not owner then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 + redis.call('SCARD', KEYS[2]) end
return 0
"""
# KEYS: bucket   ARGV: fields  -> 1 when every field was there (and is gone now), else 0 and nothing changes
_TAKE = """
for _, f in ipairs(ARGV) do if redis.call('HEXISTS', KEYS[1], f) == 0 then return 0 end end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1
"""


def bucket_key(key: tuple[str, str]) -> str:
    return f"cv:quick:{key[0]}:{key[1]}"


class SharedQuickQueue:
    """game.online.server.quick.QuickQueue's interface over Redis, plus :meth:`pair_round`."""

    def __init__(self, node: ClusterNode, matchmaker_ms: int = 3000):
        self.node = node
        self.redis = node.redis
        self.store = node.store
        self.matchmaker_ms = matchmaker_ms
        self.mine: dict[int, tuple[str, str]] = {}  # this process's waiting connections: number -> bucket
        self._matchmaker = self.redis.register_script(_MATCHMAKER)
        self._take = self.redis.register_script(_TAKE)

    def _field(self, number: int) -> str:
        return f"{self.node.me}:{number}"

    def add(self, key: tuple[str, str], entry: Waiting) -> None:
        self.remove(entry.conn)
        conn = entry.conn
        data = json.dumps(
            {
                "player": entry.player,
                "mu": entry.mu,
                "since": time.time(),
                "blocked": sorted(entry.blocked),
                "name": conn.name,
                "node": self.node.me,
                "conn": conn.number,
            }
        )
        pipe = self.redis.pipeline()
        pipe.hset(bucket_key(key), self._field(conn.number), data)
        pipe.sadd(KEYS, json.dumps(list(key)))
        self.store._call(pipe.execute)
        self.mine[conn.number] = key

    def remove(self, conn: object) -> bool:
        number = getattr(conn, "number", -1)
        key = self.mine.pop(number, None)
        if key is None:
            return False
        try:
            self.store._call(self.redis.hdel, bucket_key(key), self._field(number))
        except StoreError:
            pass  # the matchmaker drops it when its connection is found gone
        return True

    def waiting(self) -> int:
        try:
            keys = self.store._call(self.redis.smembers, KEYS)
            pipe = self.redis.pipeline()
            for raw in keys:
                pipe.hlen(bucket_key(tuple(json.loads(raw))))
            return sum(self.store._call(pipe.execute))
        except (StoreError, ValueError, TypeError):
            return 0

    @property
    def buckets(self) -> dict:
        return {}  # paired by pair_round, never by the one-process loop

    def pair_round(self, club: Club, now: float) -> int:
        """When this process is the matchmaker: seat every group the shared queue can make
        now (the tables are made here; each player's process tells its connection)."""
        try:
            return self._pair_round(club, now)
        except StoreError:
            return 0  # Redis away: the node's round says so once; the players wait on

    def _pair_round(self, club: Club, now: float) -> int:
        held = self.store._call(self._matchmaker, keys=[MATCHMAKER, KEYS], args=[self.node.me, self.matchmaker_ms])
        if not held:
            self.node.matchmaker = False
            return 0
        self.node.matchmaker = True
        if int(held) == 1:  # nobody waits
            return 0
        from game.online.server.club import quick_setup

        keys = self.store._call(self.redis.smembers, KEYS)
        if not keys:
            return 0
        live = self.node.live_nodes()
        made = 0
        wall = time.time()
        for raw_key in keys:
            try:
                key = tuple(json.loads(raw_key))
                deal, _ = quick_setup(*key)
            except (ValueError, TypeError):
                self.redis.srem(KEYS, raw_key)
                continue
            bucket = bucket_key(key)
            entries = self.store._call(self.redis.hgetall, bucket)
            if not entries:
                self.redis.srem(KEYS, raw_key)
                continue
            waiting, gone = [], []
            for fld, raw in entries.items():
                try:
                    e = json.loads(raw)
                    if e["node"] not in live or (e["node"] == self.node.me and not self._still_here(e["conn"])):
                        gone.append(fld)
                        continue
                    waiting.append(
                        Waiting(
                            _Remote(self.node, e),
                            int(e["player"]),
                            float(e["mu"]),
                            now - max(0.0, wall - float(e["since"])),
                            set(e["blocked"]),
                        )
                    )
                    waiting[-1].entry = fld
                except (ValueError, KeyError, TypeError):
                    gone.append(fld)
            if gone:
                self.redis.hdel(bucket, *gone)
            for group, computers in pair(waiting, deal.players, now, club.limits.quick_wait):
                if not self.store._call(self._take, keys=[bucket], args=[w.entry for w in group]):
                    continue  # one of them left meanwhile: the next round sees the rest
                club.seat_group(key, deal, group, computers)
                made += 1
        return made

    def _still_here(self, number: int) -> bool:
        return any(c.number == number and not c.closing for c in self.node.server.conns)


class _Remote:
    """A waiting player's connection as the pairing sees it (maybe on another process)."""

    def __init__(self, node: ClusterNode, entry: JsonObject):
        self.node, self.entry = node, entry
        name, number, at = entry.get("name"), entry["conn"], entry["node"]
        if not isinstance(number, int) or not isinstance(at, str):
            raise TypeError("a shared queue entry names its connection's number and process")
        self.name = name if isinstance(name, str) else None
        self.closing = False
        self.number = number
        self._at = at

    def send(self, message: JsonObject) -> None:
        self.node.tell(self._at, self.number, message)


__all__ = ["SharedQuickQueue", "bucket_key"]
