"""One ``serve`` process in a cluster (docs/ONLINE.md, "The cluster").

Every process may take any client. A table lives in exactly one process at a time, the owner
of its lease (game.online.cluster.tables). A ``join``, ``host`` or ``watch`` for a table this
process does not hold is answered:

- the table's lease is free (its process died, or drained): this process takes the table
  (acquire the lease, read the meta and the record stream, replay — today's resume) and
  serves it;
- another live process holds it: the error ``moved`` with that process's address (``url``),
  which the client follows (game.online.connection); after a drop the client goes back to
  the address it was given first (a load balancer, or any process).

Why a redirect and not a router: the owner checks every message itself, one hop, no relay of
every frame through a second process or Redis, and no lookup service to keep alive; the
clients already reconnect and rejoin by token.

Every ``TICK`` seconds the process renews its leases (one script per 500 tables), lets go of
a table whose lease another took (its connections are closed with 1012: they come back and
are sent on), takes tables whose lease expired (so a killed process's tables play again
within the lease's 10 s and a tick, whether or not their clients are back yet), and writes
its heartbeat (``cv:node:<id>``: address, tables, lease state).

Quick match across processes: the waiting players are in Redis (``cv:quick:<game>:<preset>``,
a hash of entries with the player's rating and the process and connection that waits); one
process at a time (the ``cv:matchmaker`` lease) pairs them with game.online.quick.pair, makes
the table on itself and tells each player's process over pub/sub (``cv:to:<id>``), which
sends ``quick_found`` to the connection. The open-table list is each process's rows under
``cv:list:<id>``, merged by whoever lists.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from typing import Any

from game.online import protocol as P
from game.online.cluster.tables import LEASE_MS, LeaseLost, RedisTableStore
from game.online.seats import Refusal, Table
from game.online.store import StoreError

log = logging.getLogger("cardavia.server")

#: Seconds between rounds of lease renewal, takeover and heartbeat (the lease lasts 10 s).
TICK = 2.0
#: A process's heartbeat key lives this long (a dead process drops out of the cluster
#: before its leases expire: its clients are told to wait, not sent to a dead address).
NODE_TTL_S = 5
#: Tables one process takes over per tick (a big failover spreads over the processes).
TAKE_PER_TICK = 100
#: The matchmaker's lease (ms) and the status line's period (seconds).
MATCHMAKER_MS = 3000
STATUS_EVERY = 30.0
#: Every process's last heartbeat (wall-clock seconds): the cluster's live processes.
NODES = "cv:nodes"
#: The longest URL a process advertises or a client follows.
MAX_URL = 200


class ClusterNode:
    def __init__(self, server: Any, store: RedisTableStore, redis_url: str, public_url: str):
        self.server = server
        self.store = store
        self.redis = store.redis
        self.redis_url = redis_url
        self.me = store.me
        self.url = public_url[:MAX_URL]
        self.draining = False
        self.redis_ok = True
        self.started = time.time()
        self.taken_over = 0
        self.matchmaker = False
        self._pubsub_task: asyncio.Task | None = None
        self._writer_task: asyncio.Task | None = None
        self.writer: Any = None
        self._status_at = time.monotonic()
        self._live: tuple[float, set[str]] | None = None

    # ---- what the lobby and the spectators ask
    def locate(self, code: str) -> Table | None:
        """The table ``code`` when this process holds it or takes it now; Refusal ``moved``
        when another process holds it; None when the cluster has no such table."""
        if self.draining:
            raise Refusal("moved", "this server is shutting down: connect again", url=None)
        try:
            owner = self.store.owner(code)
            if owner is None:
                if not self.store.exists(code):
                    return None
                table = self.take(code)
                if table is not None:
                    return table
                owner = self.store.owner(code)
            if owner is None or owner == self.me:
                return self.server.tables.get(code)
            url = self.node_url(owner)
        except StoreError as e:
            log.error("cluster: %s", e)
            raise Refusal("server", "the server's storage cannot be reached: try again in a moment") from None
        if url is None:  # its process is gone and its lease not yet expired: a few seconds
            raise Refusal("busy", "the table's server is being replaced: try again in a few seconds")
        raise Refusal("moved", f"table {code} is served by another process", url=url)

    def node_url(self, node: str) -> str | None:
        raw = self.store._call(self.redis.get, f"cv:node:{node}")
        if not raw:
            return None
        try:
            info = json.loads(raw)
        except ValueError:
            return None
        url = info.get("url") if isinstance(info, dict) else None
        return url if isinstance(url, str) and url.startswith(("ws://", "wss://")) else None

    # ---- taking and letting go
    def take(self, code: str) -> Table | None:
        """Take a table whose lease is free: exactly one process wins; None for the others
        (and for a table that cannot be resumed: it is closed in the directory)."""
        if self.draining or not self.store.acquire(code):
            return None
        srv = self.server
        try:
            st = self.store.load(code)
            if st.meta.get("finished") or st.meta.get("closed"):
                raise ValueError("it has ended")
            table = srv._rebuild(st)
        except (StoreError, ValueError, KeyError, TypeError, IndexError) as e:
            log.warning("cluster: table %s not taken over: %s", code, e)
            try:
                self.store.redis.srem(self.store.OPEN, code)
                self.store.release(code)
            except self.store.errors:
                pass
            return None
        srv.tables[code] = table
        from game.online.store import meta_owner

        table.owner = list(meta_owner(st.meta))
        srv.quota.add(code, *table.owner)
        self.taken_over += 1
        if table.started:
            srv.play.advance(table)
        return table

    def let_go(self, code: str, why: str = "moved") -> None:
        """This process no longer holds ``code`` (its lease is another's, or it drains): stop
        its timers and close its connections with 1012 (they come back and are sent on)."""
        table = self.server.tables.pop(code, None)
        if table is None:
            return
        self.let_go_count += 1
        for s in table.seats:
            if s.timer is not None:
                s.timer.cancel()
            s.timer = None
        for handle in (table.evict, getattr(table, "silent", None)):
            if handle is not None:
                handle.cancel()
        if table.thinking is not None:
            table.thinking[2].cancel()
            table.thinking = None
        self.server.quota.release(code)
        for c in list(table.conns()) + list(getattr(table, "watchers", [])):
            c.send(P.error("moved", "the table moves to another server process: reconnecting", url=None))
            c.close(1012, why)

    let_go_count = 0

    # ---- the rounds
    async def run(self) -> None:
        from game.online.cluster.writer import RecordWriter

        loop = asyncio.get_running_loop()
        self.writer = RecordWriter(self.server.play, self.store, self.redis_url)
        self.server.play.writer = self.writer
        self._writer_task = loop.create_task(self.writer.run())
        self._pubsub_task = loop.create_task(self._listen())
        while True:
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - one bad round must not stop the cluster's rounds
                log.exception("cluster: the round failed")
            await asyncio.sleep(TICK)

    def tick(self) -> None:
        try:
            self._heartbeat()
            self._publish_rows()
            mine = [c for c, t in self.server.tables.items() if not t.finished]
            for code in self.store.renew(mine):
                log.warning("cluster: table %s's lease is another's now: let go", code)
                self.let_go(code)
            if not self.draining:
                for code in self.store.orphans(TAKE_PER_TICK):
                    if code not in self.server.tables:
                        self.take(code)
            if not self.redis_ok:
                log.warning("cluster: Redis is back")
                self.redis_ok = True
                self.server.play.retry_unsaved()
        except StoreError as e:
            if self.redis_ok:
                log.error("cluster: Redis cannot be reached (%s): the tables pause", e)
            self.redis_ok = False
        now = time.monotonic()
        if now - self._status_at >= STATUS_EVERY:
            self._status_at = now
            print(self.status_line(), flush=True)

    def status(self) -> dict[str, Any]:
        tables = [t for t in self.server.tables.values() if not t.finished]
        return {"process": self.me, "url": self.url, "pid": os.getpid(), "tables": len(tables),
                "connections": len(self.server.conns), "leases": "draining" if self.draining else
                "held" if self.redis_ok else "unrenewed (Redis unreachable)",
                "redis": self.redis_ok, "taken_over": self.taken_over, "let_go": self.let_go_count,
                "matchmaker": self.matchmaker, "up_seconds": round(time.time() - self.started)}

    def status_line(self) -> str:
        s = self.status()
        return (f"cardavia cluster process {s['process']} ({s['url']}): {s['tables']} table(s) owned, "
                f"leases {s['leases']}, {s['connections']} connection(s), {s['taken_over']} taken over"
                + (", matchmaker" if s["matchmaker"] else ""))

    def _heartbeat(self) -> None:
        s = self.status()
        info = json.dumps({"url": self.url, "pid": s["pid"], "tables": s["tables"], "since": self.started})
        pipe = self.redis.pipeline()
        pipe.set(f"cv:node:{self.me}", info, ex=NODE_TTL_S)
        pipe.hset(NODES, self.me, time.time())
        self.store._call(pipe.execute)

    def _publish_rows(self) -> None:
        rows = self.server.club.local_rows()
        self.store._call(self.redis.set, f"cv:list:{self.me}", json.dumps(rows), ex=NODE_TTL_S)

    def rows_elsewhere(self) -> list[dict[str, Any]]:
        """The open-table rows the other live processes published (the lobby's list)."""
        others = sorted(n for n in self.live_nodes() if n != self.me)
        if not others:
            return []
        out: list[dict[str, Any]] = []
        for raw in self.store._call(self.redis.mget, [f"cv:list:{n}" for n in others]):
            try:
                rows = json.loads(raw) if raw else []
            except ValueError:
                continue
            out += [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
        return out

    def live_nodes(self) -> set[str]:
        """The processes whose heartbeat is fresh (read at most once a second: the pairing asks
        four times a second). Gone ones are dropped from the hash on the way."""
        now = time.monotonic()
        if self._live is not None and now - self._live[0] < 1.0:
            return self._live[1]
        beats = self.store._call(self.redis.hgetall, NODES)
        live, dead, wall = set(), [], time.time()
        for node, at in beats.items():
            name = node.decode("ascii", "replace")
            try:
                fresh = wall - float(at) < NODE_TTL_S
            except ValueError:
                fresh = False
            (live.add(name) if fresh else dead.append(node))
        if dead and len(dead) < len(beats):
            self.store._call(self.redis.hdel, NODES, *dead)
        self._live = (now, live)
        return live

    # ---- between processes
    def tell(self, node: str, conn_number: int, message: dict[str, Any]) -> None:
        """Send ``message`` to connection ``conn_number`` of process ``node``."""
        payload = json.dumps({"conn": conn_number, "msg": message})
        if node == self.me:
            self._deliver(payload.encode())
            return
        try:
            self.redis.publish(f"cv:to:{node}", payload)
        except self.store.errors as e:
            log.error("cluster: a message to %s is lost: %s", node, e)

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(self.redis_url, socket_connect_timeout=1.0)
            try:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(f"cv:to:{self.me}")
                async for item in pubsub.listen():
                    if item.get("type") == "message":
                        self._deliver(item["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - Redis went away: subscribe again
                log.warning("cluster: the message channel dropped (%s): subscribing again", e)
                await asyncio.sleep(1.0)
            finally:
                try:
                    await client.aclose()
                except Exception:  # noqa: BLE001
                    pass

    def _deliver(self, data: bytes) -> None:
        try:
            box = json.loads(data)
            number, message = int(box["conn"]), box["msg"]
        except (ValueError, KeyError, TypeError):
            return
        for c in self.server.conns:
            if c.number == number and not c.closing:
                c.send(message)
                if message.get("type") == "quick_found":
                    self.server.club.queue.mine.pop(c.number, None)
                return

    # ---- draining (SIGTERM)
    async def drain(self) -> int:
        """Hand every table over: write what is unsaved, let the lease go (another process
        takes the table at its next tick or when a client comes back), close the table's
        connections with 1012. The number of tables handed over."""
        self.draining = True
        codes = list(self.server.tables)
        for code in codes:
            table = self.server.tables.get(code)
            if table is None:
                continue
            if table.unsaved:
                try:
                    self.store.append(code, table.unsaved, table.saved_before)
                    table.unsaved = []
                except StoreError as e:
                    log.error("table %s: %s", code, e)
            self.let_go(code, "handed over")
            try:
                self.store.release(code)
            except StoreError:
                pass
        try:
            self.store._call(self.redis.delete, f"cv:node:{self.me}")
            self.store._call(self.redis.hdel, NODES, self.me)
        except StoreError:
            pass
        return len(codes)

    async def close(self) -> None:
        for task in (self._pubsub_task, self._writer_task):
            if task is not None:
                task.cancel()
        if self.writer is not None:
            self.server.play.writer = None
            await self.writer.close()


__all__ = ["ClusterNode", "LEASE_MS", "LeaseLost", "TICK"]
