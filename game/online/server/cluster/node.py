"""One ``serve`` process in a cluster (docs/ONLINE.md, "The cluster").

Every process may take any client. A table lives in exactly one process at a time, the owner
of its lease (game.online.server.cluster.tables). A ``join``, ``host`` or ``watch`` for a table this
process does not hold is answered:

- the table's lease is free (its process died, or drained): this process takes the table
  (acquire the lease, read the meta and the record stream, replay — today's resume) and
  serves it;
- another live process holds it: the error ``moved`` with that process's address (``url``),
  which the client follows (game.online.client.connection); after a drop the client goes back to
  the address it was given first (a load balancer, or any process).

Why a redirect and not a router: the owner checks every message itself, one hop, no relay of
every frame through a second process or Redis, and no lookup service to keep alive; the
clients already reconnect and rejoin by token.

Every ``TICK`` seconds the process renews its leases (one script per 500 tables) — first,
and whatever else fails: the club's database is read after, and never on the event loop
(game.online.server.cluster.pgclub) —, lets go of a table whose lease another took (its connections
are closed with 1012: they come back and are sent on), takes tables whose lease expired (so
a killed process's tables play again within the lease's 10 s and a tick, whether or not
their clients are back yet), and writes its heartbeat (``cv:node:<id>``: address, tables,
lease state).

Redis that comes back behind (a new run id: a restart or a failover; or an append answered
BEHIND): every table this process holds is checked, and one Redis holds less of is written
again whole from memory (:meth:`ClusterNode.resync`); other processes wait two rounds before
taking tables whose lease Redis forgot, so that their owners put them back first. A table
that cannot be resumed is set aside in ``cv:broken`` and reported (log, status line,
``/health``), never dropped in silence.

A finished match not yet in the database (it is away) waits in the database's outbox
(game.online.server.cluster.pgclub) and in ``cv:unrated`` (code -> what the club needs to rate it
again); when its process dies before storing it, another process rates it from the table in
Redis (:meth:`ClusterNode.rerate`): rated once, whoever stores it.

Quick match across processes: the waiting players are in Redis (``cv:quick:<game>:<preset>``,
a hash of entries with the player's rating and the process and connection that waits); one
process at a time (the ``cv:matchmaker`` lease) pairs them with game.online.server.quick.pair, makes
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
import uuid
from typing import TYPE_CHECKING, Any, cast

from game.online.server.cluster.tables import LEASE_MS, LeaseLost, RedisAway, RedisTableStore
from game.online.server.seats import Conn, Refusal, Table
from game.online.server.store import StoredTable, StoreError, normalised
from game.online.wire import protocol as P
from game.rules.base import Event
from game.rules.vocabulary import JsonObject

if TYPE_CHECKING:
    from game.online.server.cluster.writer import RecordWriter

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
#: Finished matches the database has not stored yet: code -> JSON (node, run, seats).
UNRATED = "cv:unrated"
#: After Redis came back (a new run id), rounds during which no process takes another's
#: tables: their owners write back what Redis lost first.
HOLD_TAKEOVERS = 2


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
        self.writer: RecordWriter | None = None
        self._status_at = time.monotonic()
        self._live: tuple[float, set[str]] | None = None
        #: This run of the process (a restarted process with the same id is another run).
        self.run_id = uuid.uuid4().hex[:12]
        self.resynced = 0
        self.set_aside = 0
        self.broken = 0
        self.rerated = 0
        self._redis_run: str | None = None
        self._hold_until = 0.0
        store.keeper = self
        if hasattr(server.db, "journal"):
            server.db.journal = self

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
                if time.monotonic() < self._hold_until:  # its owner may be putting it back
                    raise Refusal("busy", "the table's server is being replaced: try again in a few seconds")
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
        table: Table | None = None
        try:
            st = self.store.load(code)
            if not (st.meta.get("finished") or st.meta.get("closed")):
                table = srv._rebuild(st)
        except (RedisAway, LeaseLost):
            self._release(code)
            raise
        except (StoreError, ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
            if "already ended" not in str(e):  # kept for the operator, never dropped in silence
                log.error("cluster: table %s cannot be resumed: %s (set aside in %s)", code, e, self.store.BROKEN)
                self.set_aside += 1
                try:
                    self.store.set_aside(code, f"{type(e).__name__}: {e}")
                except StoreError:
                    pass
        if table is None:  # ended, or set aside: out of the directory, counted for nobody
            try:
                self.store._call(self.redis.srem, self.store.OPEN, code)
                srv.quota.release(code)
            except StoreError:
                pass
            self._release(code)
            return None
        self.store.marks[code] = {i: ev["by"] for i, ev in enumerate(st.events) if "by" in ev}
        srv.tables[code] = table
        from game.online.server.store import meta_holders, meta_owner

        table.owner = list(meta_owner(st.meta))
        for address, player in meta_holders(st.meta):
            srv.quota.add(code, address, player)
        self.taken_over += 1
        if table.started:
            srv.play.advance(table)
        return table

    def _release(self, code: str) -> None:
        try:
            self.store.release(code)
        except StoreError:
            pass

    def let_go(self, code: str, why: str = "moved") -> None:
        """This process no longer holds ``code`` (its lease is another's, or it drains): stop
        its timers and close its connections with 1012 (they come back and are sent on)."""
        table = self.server.tables.pop(code, None)
        self.store.marks.pop(code, None)
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
        # The quotas are the cluster's: a table let go is still open and counts on (the
        # process that takes it adds nothing twice).
        for c in list(table.conns()) + list(getattr(table, "watchers", [])):
            c.send(P.error("moved", "the table moves to another server process: reconnecting", url=None))
            c.close(1012, why)

    let_go_count = 0

    # ---- the rounds
    async def run(self) -> None:
        from game.online.server.cluster.writer import RecordWriter

        loop = asyncio.get_running_loop()
        self.writer = RecordWriter(self.server.play, self.store, self.redis_url, resync=self.resync)
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
            # The leases first: nothing before them may fail or wait (the database is read
            # only after, and never on the event loop).
            mine = [c for c, t in self.server.tables.items() if not t.finished]
            lost, back = self.store.renew(mine)
            for code in lost:
                log.warning("cluster: table %s's lease is another's now: let go", code)
                self.let_go(code)
            self._check_redis_run()
            for code in back:
                if code in self.server.tables:
                    log.warning("cluster: table %s's lease was gone from Redis: taken back", code)
                    self.resync(code)
            self._heartbeat()
            if not self.draining and time.monotonic() >= self._hold_until:
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
        for step in (self._publish_rows, self._rerate_orphans, self._forget_marks):
            try:
                step()
            except Exception as e:  # noqa: BLE001 - each on its own: the leases are renewed already
                log.warning("cluster: %s: %s", step.__name__.strip("_").replace("_", " "), e)
        now = time.monotonic()
        if now - self._status_at >= STATUS_EVERY:
            self._status_at = now
            print(self.status_line(), flush=True)

    # ---- Redis behind: the tables written again from memory
    def memory(self, code: str) -> list[Event] | None:
        """Table ``code``'s record as this process holds it (the events Redis should have:
        those written or being written, not the unsaved ones), with the record's marks; None
        when this process does not hold it."""
        table = self.server.tables.get(code)
        if table is None:
            return None
        m = table.match
        if m is None:
            return []
        events = normalised(m.events[: len(m.events) - len(table.unsaved)])
        for i, by in self.store.marks.get(code, {}).items():
            if i < len(events):
                events[i] = {**events[i], "by": by}
        return events

    def resync(self, code: str) -> bool:
        """Write table ``code`` again whole from memory (Redis lost part of it): record,
        meta, directory, lease. False when the table is another process's now. StoreError
        when Redis cannot be reached."""
        table = self.server.tables.get(code)
        events = self.memory(code)
        if table is None or events is None:
            return False
        meta = table.meta()
        try:  # what only Redis's copy says (``reported``) stays
            raw = self.store._call(self.redis.get, self.store.meta_key(code))
            old = json.loads(raw) if raw else {}
            if isinstance(old, dict):
                meta = {**{k: v for k, v in old.items() if k not in meta and k != "format"}, **meta}
        except ValueError:
            pass
        if not self.store.resync(code, events, meta, table.finished):
            log.warning("cluster: table %s is another process's in Redis now: not written again", code)
            return False
        self.resynced += 1
        log.warning(
            "cluster: Redis had lost part of table %s: written again from memory (%d events)", code, len(events)
        )
        return True

    def _check_redis_run(self) -> None:
        """A Redis with a new run id (restarted, or another after a failover) may hold less
        than was written: every table held here is compared with memory and written again
        where Redis lost part of it. Other processes' tables are left alone a few rounds."""
        run = self.store.run_id()
        if self._redis_run is None:
            self._redis_run = run
        if run == self._redis_run:
            return
        self._hold_until = time.monotonic() + HOLD_TAKEOVERS * TICK
        log.warning("cluster: Redis is a new server (%s): checking the tables held here", run[:12])
        self.resync_all()
        self._redis_run = run  # only once every table is checked: else again next round

    def resync_all(self) -> int:
        """Every table held here that Redis holds less of (or lost the lease, meta or place
        in the directory of): written again. The number written."""
        flying = self.writer.flying if self.writer is not None else set()
        codes = [c for c in self.server.tables if c not in flying]
        done = 0
        for start in range(0, len(codes), 200):
            chunk = codes[start : start + 200]
            for code, (n, owner, meta, listed) in zip(chunk, self.store.held(chunk)):
                table = self.server.tables.get(code)
                events = self.memory(code)
                if table is None or events is None:
                    continue
                right = (
                    n == (len(events) if events else None)
                    and meta
                    and listed != table.finished
                    and (table.finished or owner == self.me)
                )
                if not right:
                    if self.resync(code):
                        done += 1
                    elif not table.finished:
                        self.let_go(code)
        return done

    def _forget_marks(self) -> None:
        for code in [c for c in self.store.marks if c not in self.server.tables]:
            del self.store.marks[code]

    def status(self) -> JsonObject:
        tables = [t for t in self.server.tables.values() if not t.finished]
        db = self.server.db
        return {
            "process": self.me,
            "url": self.url,
            "pid": os.getpid(),
            "tables": len(tables),
            "connections": len(self.server.conns),
            "leases": "draining" if self.draining else "held" if self.redis_ok else "unrenewed (Redis unreachable)",
            "redis": self.redis_ok,
            "taken_over": self.taken_over,
            "let_go": self.let_go_count,
            "matchmaker": self.matchmaker,
            "up_seconds": round(time.time() - self.started),
            "broken": self.broken,
            "written_again": self.resynced,
            "database": not getattr(db, "down", False),
            "unrated": len(getattr(db, "outbox", ())),
        }

    def status_line(self) -> str:
        s = self.status()
        return (
            f"cardavia cluster process {s['process']} ({s['url']}): {s['tables']} table(s) owned, "
            f"leases {s['leases']}, {s['connections']} connection(s), {s['taken_over']} taken over"
            + (", matchmaker" if s["matchmaker"] else "")
            + (f", {s['broken']} table(s) set aside as broken (redis {self.store.BROKEN})" if s["broken"] else "")
            + ("" if s["database"] else ", the database is away")
            + (f", {s['unrated']} match(es) waiting to be rated" if s["unrated"] else "")
        )

    def _heartbeat(self) -> None:
        s = self.status()
        info = json.dumps(
            {
                "url": self.url,
                "pid": s["pid"],
                "tables": s["tables"],
                "since": self.started,
                "broken": s["broken"],
                "database": s["database"],
                "unrated": s["unrated"],
            }
        )
        pipe = self.redis.pipeline()
        pipe.set(f"cv:node:{self.me}", info, ex=NODE_TTL_S)
        pipe.hset(NODES, self.me, time.time())
        pipe.hlen(self.store.BROKEN)
        self.broken = int(self.store._call(pipe.execute)[-1])

    def _publish_rows(self) -> None:
        rows = self.server.club.local_rows()
        self.store._call(self.redis.set, f"cv:list:{self.me}", json.dumps(rows), ex=NODE_TTL_S)

    def rows_elsewhere(self) -> list[JsonObject]:
        """The open-table rows the other live processes published (the lobby's list)."""
        others = sorted(n for n in self.live_nodes() if n != self.me)
        if not others:
            return []
        out: list[JsonObject] = []
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
    def tell(self, node: str, conn_number: int, message: JsonObject) -> None:
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

    # ---- finished matches the database has not stored yet (pgclub's outbox)
    def queued(self, code: str) -> None:
        """The match ``code`` is on its way to the database: noted in Redis with what the club
        needs to rate it again (the seats' state at its end), in case this process dies first."""
        table = self.server.tables.get(code)
        if table is None:
            return
        seats = [{"by_ai": bool(s.by_ai), "here": s.conn is not None} for s in table.seats]
        entry = json.dumps({"node": self.me, "run": self.run_id, "at": time.time(), "seats": seats})
        try:
            self.store._call(self.redis.hset, UNRATED, code, entry)
        except StoreError as e:
            log.warning("table %s: its result waits in this process only (%s)", code, e)

    def stored(self, code: str) -> None:
        """The database has match ``code`` (called from the outbox's thread)."""
        try:
            self.store._call(self.redis.hdel, UNRATED, code)
        except StoreError:
            pass  # checked again by whoever finds it: the database rates a code once

    def _rerate_orphans(self) -> None:
        """Matches noted in ``cv:unrated`` by a process that is gone (or an earlier run of this
        one, or this one when the note outlived its outbox entry): rated here, from the table
        in Redis (the database rates a code once, so a second try is harmless)."""
        entries = self.store._call(self.redis.hgetall, UNRATED)
        if not entries:
            return
        live = self.live_nodes()
        waiting = getattr(self.server.db, "outbox", {})
        for raw_code, raw in entries.items():
            code = raw_code.decode("ascii", "replace")
            try:
                entry = json.loads(raw)
                node = entry["node"]
            except (ValueError, KeyError, TypeError):
                self.store._call(self.redis.hdel, UNRATED, raw_code)
                continue
            if code in waiting or (node != self.me and node in live):
                continue  # in a live outbox (this process's or another's)
            mine = json.dumps({**entry, "node": self.me, "run": self.run_id, "taken": time.time()})
            if not self.store._call(self._claim, keys=[UNRATED], args=[raw_code, raw, mine]):
                continue  # another process took it first
            self.rerate(code, entry)

    @property
    def _claim(self) -> Any:
        script = getattr(self, "_claim_script", None)
        if script is None:
            script = self._claim_script = self.redis.register_script(
                "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
                "redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) return 1 end return 0"
            )
        return script

    def rerate(self, code: str, entry: JsonObject) -> bool:
        """Rate the finished match ``code`` whose process died before the database stored it:
        the table is rebuilt from Redis (meta and record, kept a day), its seats as they were
        at its end, and handed to the club as a match just finished."""
        from game.online.server.play import PlayLoop

        try:
            st = self.store.load(code)
            table = self.server._rebuild(StoredTable(code, st.meta, []))
            table.match = PlayLoop.replay(table.rules, st.events)
        except RedisAway:
            raise  # the note stays: tried again next round
        except (StoreError, ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
            log.error("table %s: its result cannot be rated again (%s)", code, e)
            self.stored(code)
            return False
        if not table.match.over:
            log.error("table %s: its record in Redis does not reach the end of the match: not rated", code)
            self.stored(code)
            return False
        marks: dict[int, int] = {}
        for ev in st.events:
            if ev.get("by") == "computer" and isinstance(ev.get("seat"), int):
                marks[ev["seat"]] = marks.get(ev["seat"], 0) + 1
        if hasattr(table, "computer_made"):
            table.computer_made = marks
        table.finished = True
        was_seats = entry.get("seats")
        for seat, was in zip(table.seats, was_seats if isinstance(was_seats, list) else []):
            seat.by_ai = bool(was.get("by_ai"))
            # A stand-in with what the end of a match reads of a connection.
            seat.conn = cast(Conn, _Gone()) if was.get("here") else None
        self.rerated += 1
        log.warning("table %s: its process is gone before the database stored its result: rated here", code)
        self.server.club.on_finished(table)
        if code not in getattr(self.server.db, "outbox", {}):
            self.stored(code)  # stored already, or nothing to rate: the note goes
        return True

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


class _Gone:
    """A seat's player at a match's end, gone since: counted as there, sent nothing."""

    player = None
    closing = True
    name = None

    def send(self, message: JsonObject) -> None:
        pass


__all__ = ["ClusterNode", "LEASE_MS", "LeaseLost", "TICK", "UNRATED"]
