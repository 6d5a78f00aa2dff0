"""The table server: asyncio + websockets, authoritative (docs/ONLINE.md).

Each table is a ``Match`` driven here, with ``[None] * players`` as its bots: every
decision, a friend's or a computer's, goes through ``Match.play`` and so through the rules'
check. Computer seats think in worker processes (game.online.worker) — the event loop only
validates, applies, redacts, writes and sends, each a matter of microseconds. Each seat is
sent only ``redact``'s view of the record; the record itself and the table's meta are kept
in the data folder (game.online.store), and a server started on the same folder resumes
every unfinished table where it stood.

Everything a client sends is distrusted: the frame size is websockets' ``max_size``, each
connection has a token bucket, every message passes the strict schema of
game.online.protocol, host actions need the host token, a seat needs its token, and the
numbers of tables and connections are bounded. See docs/ONLINE.md.

Entry points: :func:`run_forever` (``python main.py serve``) and
:func:`start_server_in_thread` (the window's "Host a table", the tests).
"""
from __future__ import annotations

import asyncio
import gc
import ipaddress
import logging
import secrets
import ssl
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from game.match import Match
from game.online import protocol as P
from game.online.redact import SeatRedactor, seat_events
from game.online.seats import Conn, Refusal, Seat, Table
from game.online.store import StoredTable, StoreError, TableStore, normalised
from game.online.worker import choose_action, make_pool, stop_pool, warm_up
from game.rules import make_rules
from game.rules.base import Event, GameRules, IllegalAction

log = logging.getLogger("cardavia.server")

#: The most worker processes ``--workers`` may ask for.
MAX_WORKERS = 16
#: The level of the computer that plays a dropped friend's seat (host's setting "ai").
TAKEOVER_LEVEL = "normal"
#: A finished table stays in memory this long (a player may rejoin to see the end).
FINISHED_KEEP_SECONDS = 600.0
#: A lobby nobody is connected to is closed after this long (its files stay, marked closed).
LOBBY_IDLE_SECONDS = 6 * 3600.0
#: A connection that has not said hello by then is closed.
HELLO_TIMEOUT = 10.0
#: How long stop() waits for connections to close and the loop to end.
STOP_TIMEOUT = 5.0
#: ``serve``'s garbage-collector schedule (TableServer._age_objects), in seconds.
AGE_SECONDS = 10.0
THAW_SECONDS = 1800.0


class ServerError(RuntimeError):
    """The server cannot start (the port is taken, the data folder or a TLS file is bad): one line."""


# ------------------------------------------------------------------------------ the server
class TableServer:
    def __init__(self, data_dir: Path, workers: int = 1):
        self.store = TableStore(Path(data_dir))
        self.workers = workers
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self.pool: ProcessPoolExecutor | None = None
        self.ws_server: Server | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.resumed = 0
        self._numbers = 0
        self._per_address: dict[str, int] = {}
        self._tasks: set[asyncio.Task] = set()
        self._sweeper: asyncio.Task | None = None
        #: ``serve`` (not the window's small server): keep the garbage collector's full passes
        #: short (see :meth:`_age_objects`).
        self.tune_gc = False

    # ---- life cycle
    async def start(self, host: str, port: int, ssl_context: ssl.SSLContext | None = None) -> int:
        """Resume the data folder's tables, start the workers, listen. Returns the port."""
        self.loop = asyncio.get_running_loop()
        self._resume_all()
        try:
            self.ws_server = await serve(
                self.handler, host, port, ssl=ssl_context, max_size=P.MAX_MESSAGE_BYTES, max_queue=16,
                compression=None, open_timeout=10, ping_interval=20, ping_timeout=20, close_timeout=2,
                process_request=self._admit_request, server_header=None)
        except OSError as e:
            self.store.close()
            raise ServerError(f"cannot listen on {host}:{port} ({e.strerror or e})") from None
        self.pool = make_pool(self.workers)
        self._spawn(self._warm())
        self._sweeper = self._spawn(self._sweep())
        if self.tune_gc:
            self._spawn(self._age_objects())
        for table in list(self.tables.values()):
            self._advance(table)
        return self.ws_server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        """Stop listening, close every connection, stop the workers (bounded in time)."""
        if self.ws_server is not None:
            self.ws_server.close()
            try:
                await asyncio.wait_for(self.ws_server.wait_closed(), STOP_TIMEOUT)
            except Exception:  # noqa: BLE001 - stopping goes on whatever a socket does (a timeout too)
                pass
        for table in self.tables.values():
            for s in table.seats:
                if s.timer is not None:
                    s.timer.cancel()
            if table.evict is not None:
                table.evict.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_TIMEOUT)
        self.store.close()
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await asyncio.get_running_loop().run_in_executor(None, stop_pool, pool)

    def _spawn(self, coro: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _warm(self) -> None:
        try:
            await asyncio.get_running_loop().run_in_executor(self.pool, warm_up)
        except Exception as e:  # noqa: BLE001 - a failed warm-up shows again at the first decision
            log.warning("worker warm-up failed: %s", e)

    async def _sweep(self) -> None:
        """Close lobbies nobody has been connected to for LOBBY_IDLE_SECONDS."""
        while True:
            await asyncio.sleep(60)
            now = time.monotonic()
            for table in list(self.tables.values()):
                if not table.started and not table.conns() and now - table.idle_since > LOBBY_IDLE_SECONDS:
                    self._write_meta(table, closed=True)
                    self.tables.pop(table.code, None)

    async def _age_objects(self) -> None:
        """Python's full collections walk every live object — with hundreds of tables a pause
        of a few hundred ms, which was the load test's p99 (bench/server_load.py). So every
        AGE_SECONDS what has survived a young collection is frozen (never walked again), and
        every THAW_SECONDS everything is thawed and collected once: garbage in a cycle among
        frozen objects waits at most that long, and one long pause per THAW_SECONDS is far
        below one in a hundred decisions."""
        since_thaw = 0.0
        while True:
            await asyncio.sleep(AGE_SECONDS)
            since_thaw += AGE_SECONDS
            if since_thaw >= THAW_SECONDS:
                since_thaw = 0.0
                gc.unfreeze()
                gc.collect()
            else:
                gc.collect(1)
            gc.freeze()

    def _admit_request(self, connection: ServerConnection, request: Any) -> Any:
        if len(self.conns) >= P.MAX_CONNECTIONS:
            return connection.respond(503, "The server has as many players as it can take: try again later.\n")
        return None

    # ---- resuming
    def _resume_all(self) -> None:
        stored, problems = self.store.unfinished()
        for line in problems:
            log.warning("table not resumed: %s", line)
        for st in stored:
            try:
                table = self._rebuild(st)
            except (StoreError, ValueError, KeyError, TypeError, IndexError) as e:
                log.warning("table %s not resumed: %s", st.code, e)
                continue
            self.tables[table.code] = table
            self.resumed += 1

    def _rebuild(self, st: StoredTable) -> Table:
        meta = st.meta
        rules = make_rules(meta["game"], meta["deck"], int(meta["players"]), meta["options"])
        seats = []
        for s in meta["seats"]:
            if s["kind"] == "friend":
                seats.append(Seat("friend", token_hash=s["token_sha256"], name=s.get("name")))
            elif s["kind"] == "ai" and s.get("level") in P.AI_LEVELS:
                seats.append(Seat("ai", level=s["level"]))
            else:
                raise ValueError(f"a seat of kind {s.get('kind')!r}")
        if len(seats) != rules.players:
            raise ValueError(f"{len(seats)} seats for {rules.players} players")
        table = Table(st.code, rules, seats, meta["host_token_sha256"], int(meta["pause_seconds"]),
                      bool(meta["ai_takes_over"]), created=float(meta.get("created") or time.time()))
        events = st.events
        if events:
            table.match = self._replay(rules, events)
            full = normalised(table.match.events)
            if full != events:  # the last decision's events were cut short: the rules give the rest
                self.store.rewrite_record(st.code, full)
            self._redact_all(table)
            if table.match.over:
                self._write_meta(table, finished=True)
                raise ValueError("its match had already ended")
            for i, seat in enumerate(table.seats):
                if seat.kind == "friend":
                    self._pause(table, i, announce=False)
        return table

    @staticmethod
    def _replay(rules: GameRules, events: list[Event]) -> Match:
        """The match a record shows, decision by decision (as game.session.Session.from_save)."""
        head = events[0]
        if head.get("event") != "match" or not isinstance(head.get("seed"), int):
            raise ValueError("the record does not begin with its match line")
        m = Match(rules, head["seed"])
        m.start()
        i = len(m.events)
        if normalised(m.events) != events[:i]:
            raise ValueError("the record does not start as its seed deals")
        while i < len(events):
            if events[i].get("event") not in rules.decisions:
                raise ValueError(f"the record is out of step at line {i + 1}")
            produced = m.play(rules.action_from_record(events, i))
            i += len(produced)
        got = normalised(m.events)
        if got[:len(events)] != events:
            raise ValueError("the record does not replay to the same events")
        return m

    def _redact_all(self, table: Table) -> None:
        table.redactors = [SeatRedactor(table.rules, s) for s in range(table.rules.players)]
        events = table.match.events if table.match is not None else []
        for r in table.redactors:
            r.feed(events)  # only to follow the face-up card up to now

    @staticmethod
    def _stream(table: Table, seat: int) -> list[Event]:
        """Seat ``seat``'s whole stream so far (index i = record event i)."""
        return seat_events(table.rules, table.match.events if table.match is not None else [], seat)

    def _write_meta(self, table: Table, **extra: Any) -> None:
        try:
            self.store.write_meta(table.code, {**table.meta(), **extra})
        except StoreError as e:
            log.error("table %s: %s", table.code, e)

    # ---- a connection
    async def handler(self, ws: ServerConnection) -> None:
        address = _counted_address(ws)
        if address is not None:
            if self._per_address.get(address, 0) >= P.MAX_CONNECTIONS_PER_ADDRESS:
                await ws.send(P.encode(P.error("limit", "too many connections from this address")))
                await ws.close(1008, "too many connections")
                return
            self._per_address[address] = self._per_address.get(address, 0) + 1
        try:
            await self._serve_connection(ws)
        finally:
            if address is not None:
                left = self._per_address.get(address, 1) - 1
                if left > 0:
                    self._per_address[address] = left
                else:
                    self._per_address.pop(address, None)

    async def _serve_connection(self, ws: ServerConnection) -> None:
        self._numbers += 1
        conn = Conn(ws, self._numbers)
        self.conns.add(conn)
        writer = asyncio.get_running_loop().create_task(self._writer(conn))
        hello_timer = asyncio.get_running_loop().call_later(
            HELLO_TIMEOUT, lambda: None if conn.hello else conn.close(1008, "no hello"))
        try:
            # The loop ends when the connection closes: the peer's doing, or the writer's
            # after conn.close() (it sends what is queued, then closes).
            async for frame in ws:
                if conn.closing:
                    continue
                if not conn.admit():
                    if conn.excess > P.MAX_EXCESS:
                        conn.send(P.error("rate", "too many messages: the connection is closed"))
                        conn.close(1008, "flooding")
                    else:
                        conn.send(P.error("rate", f"at most {P.RATE:g} messages a second (bursts of {P.BURST})"))
                    continue
                self._receive(conn, frame)
        except ConnectionClosed:
            pass
        finally:
            hello_timer.cancel()
            self.conns.discard(conn)
            conn.closing = True
            self._gone(conn)
            writer.cancel()

    async def _writer(self, conn: Conn) -> None:
        ws = conn.ws
        try:
            while True:
                item = await conn.out.get()
                if isinstance(item, tuple):
                    await ws.close(*item)
                    return
                await ws.send(item)
        except ConnectionClosed:
            return

    def _receive(self, conn: Conn, frame: str | bytes) -> None:
        try:
            data = P.decode_frame(frame)
            if data.get("type") == "hello":
                v = data.get("version")
                if isinstance(v, int) and not isinstance(v, bool) and v != P.PROTOCOL_VERSION:
                    conn.send(P.error("version", f"this server speaks protocol version {P.PROTOCOL_VERSION}, "
                                                 f"the client {v}: use the same version of Cardavia",
                                      server_version=P.PROTOCOL_VERSION))
                    conn.close(1002, "protocol version")
                    return
            msg = P.check_message(data)
            kind = msg["type"]
            if kind != "hello" and not conn.hello:
                raise Refusal("hello", "say hello first: {\"type\": \"hello\", \"version\": 1, \"name\": …}")
            getattr(self, f"_on_{kind}")(conn, msg)
        except P.ProtocolError as e:
            conn.send(P.error(e.code, str(e)))
        except Refusal as e:
            conn.send(P.error(e.code, str(e)))
            if e.close:
                conn.close(1008, e.code)
        except StoreError as e:
            log.error("%s", e)
            conn.send(P.error("server", "the server could not keep the table: try again later"))
        except Exception:  # noqa: BLE001 - a bug here must cost one message, not the server
            log.exception("a %r message could not be handled", frame[:80] if isinstance(frame, str) else "binary")
            conn.send(P.error("server", "the server could not handle that message"))

    def _failed_claim(self, conn: Conn, code: str, message: str) -> Refusal:
        conn.failures += 1
        return Refusal(code, message, close=conn.failures >= P.MAX_FAILED_CLAIMS)

    # ---- messages
    def _on_hello(self, conn: Conn, msg: dict) -> None:
        conn.hello = True
        conn.name = msg["name"]
        conn.send({"type": "welcome", "version": P.PROTOCOL_VERSION, "server": P.SERVER_NAME})

    def _on_ping(self, conn: Conn, msg: dict) -> None:
        conn.send({"type": "pong"})

    def _config(self, msg: dict) -> tuple[GameRules, list[Seat]]:
        """The rules and seats a create/configure asks for; Refusal ``config`` otherwise."""
        try:
            rules = make_rules(msg["game"], msg["deck"], msg["players"], msg["options"])
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        specs = [P.parse_seat(s) for s in msg["seats"]]
        if len(specs) != rules.players:
            raise Refusal("config", f"{len(specs)} seats given for {rules.players} players")
        if not any(kind == "friend" for kind, _ in specs):
            raise Refusal("config", "at least one seat is a friend's")
        return rules, [Seat(kind, level=level) for kind, level in specs]

    def _active_tables(self) -> int:
        return sum(1 for t in self.tables.values() if not t.finished)

    def _on_create(self, conn: Conn, msg: dict) -> None:
        if conn.created >= P.MAX_TABLES_PER_CONNECTION:
            raise Refusal("limit", f"one connection makes at most {P.MAX_TABLES_PER_CONNECTION} tables")
        if self._active_tables() >= P.MAX_TABLES:
            raise Refusal("limit", "the server has as many tables as it can take: try again later")
        if not self.store.has_room():  # a full disk: the tables under way keep what space is left
            raise Refusal("limit", "the server's disk is full: it takes no new table now (those under way play on)")
        rules, seats = self._config(msg)
        code = P.new_code()
        while code in self.tables or self.store.exists(code):
            code = P.new_code()
        host_token = P.new_token()
        tokens = {}
        for i, s in enumerate(seats):
            if s.kind == "friend":
                tokens[str(i)] = token = P.new_token()
                s.token_hash = P.hash_token(token)
        table = Table(code, rules, seats, P.hash_token(host_token), msg["pause_seconds"], msg["ai_takes_over"])
        self.store.write_meta(code, table.meta())
        self.tables[code] = table
        conn.created += 1
        self._set_host(conn, table, host_token)
        conn.send({"type": "created", "code": code, "host_token": host_token, "tokens": tokens})
        self._send_lobby(table)

    def _set_host(self, conn: Conn, table: Table, host_token: str) -> None:
        old = table.host_conn
        if conn.hosting is not None and conn.hosting is not table and conn.hosting.host_conn is conn:
            previous = conn.hosting
            previous.host_conn = None
            self._send_lobby(previous)
        table.host_conn = conn
        conn.hosting = table
        conn.host_token = host_token
        if old is not None and old is not conn:
            old.hosting = None
            old.host_token = None
            if old.table is table:
                self._send_lobby_to(table, old)

    def _table(self, conn: Conn, code: str) -> Table:
        table = self.tables.get(code)
        if table is None:
            raise self._failed_claim(conn, "no_table", f"there is no table {code} on this server")
        return table

    def _on_host(self, conn: Conn, msg: dict) -> None:
        table = self._table(conn, msg["code"])
        if not P.token_matches(msg["host_token"], table.host_hash):
            raise self._failed_claim(conn, "not_host", "that is not this table's host token")
        if table.host_conn is not conn and len(table.conns()) >= P.MAX_CONNECTIONS_PER_TABLE:
            raise Refusal("full", "the table has as many connections as it takes")
        self._set_host(conn, table, msg["host_token"])
        self._send_lobby_to(table, conn)

    def _hosted(self, conn: Conn) -> Table:
        table = conn.hosting
        if table is None or table.host_conn is not conn:
            raise Refusal("not_host", "only the table's host may do this (send 'host' with the host token)")
        if table.started:
            raise Refusal("started", "the match has started: the table can no longer be changed")
        return table

    def _on_configure(self, conn: Conn, msg: dict) -> None:
        table = self._hosted(conn)
        rules, seats = self._config(msg)
        for i, new in enumerate(seats):
            old = table.seats[i] if i < len(table.seats) else None
            if new.kind == "friend" and old is not None and old.kind == "friend" and old.name is not None:
                new.token_hash, new.name, new.conn = old.token_hash, old.name, old.conn
        tokens = {}
        for i, new in enumerate(seats):
            if new.kind == "friend" and new.name is None:
                tokens[str(i)] = token = P.new_token()
                new.token_hash = P.hash_token(token)
        kept = {id(s.conn) for s in seats if s.conn is not None}
        for old in table.seats:
            if old.conn is not None and id(old.conn) not in kept:
                self._kick_out(old.conn, "the host changed the table: your seat is gone")
        table.rules, table.seats = rules, seats
        table.pause_seconds, table.ai_takes_over = msg["pause_seconds"], msg["ai_takes_over"]
        for i, s in enumerate(seats):
            if s.conn is not None:
                s.conn.seat = i
        self._write_meta(table)
        conn.send({"type": "created", "code": table.code, "host_token": conn.host_token, "tokens": tokens})
        self._send_lobby(table)
        self._maybe_start(table)

    def _kick_out(self, target: Conn, why: str) -> None:
        target.send(P.error("kicked", why))
        target.table, target.seat = None, None

    def _on_kick(self, conn: Conn, msg: dict) -> None:
        table = self._hosted(conn)
        i = msg["seat"]
        if i >= len(table.seats) or table.seats[i].kind != "friend":
            raise Refusal("config", f"seat {i} is not a friend's seat")
        seat = table.seats[i]
        if seat.conn is not None:
            self._kick_out(seat.conn, "the host gave your seat to someone else")
        # A fresh token nobody knows: the kicked player cannot come back with the old one.
        seat.conn, seat.name, seat.token_hash = None, None, P.hash_token(P.new_token())
        self._write_meta(table)
        self._send_lobby(table)

    def _on_join(self, conn: Conn, msg: dict) -> None:
        table = self._table(conn, msg["code"])
        token = msg["token"]
        if token is not None:
            i = next((k for k, s in enumerate(table.seats)
                      if s.kind == "friend" and P.token_matches(token, s.token_hash)), None)
            if i is None:
                raise self._failed_claim(conn, "bad_token", "that token is not a seat's at this table")
        else:
            if conn.table is table and conn.seat is not None:
                raise Refusal("already_seated", f"this connection already has seat {conn.seat}")
            i = next((k for k, s in enumerate(table.seats)
                      if s.kind == "friend" and s.name is None and s.conn is None), None)
            if i is None or table.started:
                raise Refusal("full", "every friend's seat at this table is taken")
            token = P.new_token()
        seat = table.seats[i]
        if seat.conn is not conn and len(table.conns()) >= P.MAX_CONNECTIONS_PER_TABLE and conn not in table.conns():
            raise Refusal("full", "the table has as many connections as it takes")
        if conn.table is not None and (conn.table is not table or conn.seat != i):
            self._leave(conn)
        if seat.conn is not None and seat.conn is not conn:
            stale = seat.conn
            stale.send(P.error("replaced", "this seat was taken by a new connection with its token"))
            stale.table, stale.seat = None, None
            stale.close(4000, "replaced")
        changed = seat.name != msg["name"] or msg["token"] is None
        seat.conn, seat.name = conn, msg["name"]
        if msg["token"] is None:
            seat.token_hash = P.hash_token(token)
        conn.table, conn.seat = table, i
        table.idle_since = time.monotonic()
        if changed:
            self._write_meta(table)
        conn.send({"type": "joined", "code": table.code, "seat": i, "token": token})
        self._send_lobby(table)
        if table.started:
            conn.send({"type": "events", "from": 0, "events": self._stream(table, i)})
            for k, other in enumerate(table.seats):
                if k != i and other.paused_until is not None:
                    left = max(0, round(other.paused_until - time.monotonic()))
                    conn.send({"type": "paused", "seat": k, "seconds": left,
                               "then": "ai" if table.ai_takes_over else "wait"})
                elif k != i and other.by_ai:
                    conn.send({"type": "resumed", "seat": k, "by": "ai"})
            if table.finished:
                conn.send({"type": "over", "record": str(self.store.record_path(table.code).resolve())})
            else:
                self._give_back(table, i)
                self._send_turn(table, only=conn)
                self._advance(table, send=False)
        else:
            self._maybe_start(table)

    def _give_back(self, table: Table, i: int) -> None:
        """A friend is back in seat ``i``: no more pause, no more computer in it."""
        seat = table.seats[i]
        was = seat.paused_until is not None or seat.by_ai
        if seat.timer is not None:
            seat.timer.cancel()
        seat.timer, seat.paused_until, seat.by_ai = None, None, False
        thinking = table.thinking
        if thinking is not None and thinking[1] == i and table.seats[i].kind == "friend":
            thinking[2].cancel()
            table.thinking = None
        if was:
            self._broadcast(table, {"type": "resumed", "seat": i})

    def _on_act(self, conn: Conn, msg: dict) -> None:
        table, i = conn.table, conn.seat
        if table is None or i is None:
            raise Refusal("not_seated", "join a table first")
        k = msg["decision"]
        m = table.match
        if m is None or table.finished or m.over:
            conn.send(self._refused(P.NOT_YOUR_TURN, "the match is not being played", k))
            return
        made = len(m.decisions)
        if k != made:
            conn.send(self._refused(P.STALE, f"decision {k} is not the one being made ({made})", k))
            return
        if m.to_act != i or table.seats[i].by_ai:
            conn.send(self._refused(P.NOT_YOUR_TURN, f"it is seat {m.to_act}'s turn, not seat {i}'s", k))
            return
        try:
            action = P.action_from_json(msg["action"])
            events = m.play(action)  # the rules check it first: nothing changes on a refusal
        except IllegalAction as e:
            conn.send(self._refused(e.rule, str(e), k, P.json_safe(e.params)))
            return
        except (ValueError, KeyError, TypeError, IndexError) as e:
            conn.send(self._refused("illegal", f"{e}", k))
            return
        conn.refund()
        self._commit(table, events)

    @staticmethod
    def _refused(rule: str, message: str, k: int, params: dict | None = None) -> dict[str, Any]:
        return {"type": "refused", "rule": rule, "params": params or {}, "decision": k, "message": message}

    def _on_say(self, conn: Conn, msg: dict) -> None:
        table, i = conn.table, conn.seat
        if table is None or i is None:
            raise Refusal("not_seated", "join a table first")
        self._broadcast(table, {"type": "said", "seat": i, "phrase": msg["phrase"]})

    # ---- leaving
    def _gone(self, conn: Conn) -> None:
        if conn.table is not None:
            self._leave(conn)
        table = conn.hosting
        if table is not None and table.host_conn is conn:
            table.host_conn = None
            table.idle_since = time.monotonic()
        conn.hosting = None

    def _leave(self, conn: Conn) -> None:
        table, i = conn.table, conn.seat
        conn.table, conn.seat = None, None
        if table is None or i is None or table.seats[i].conn is not conn:
            return
        table.seats[i].conn = None
        table.idle_since = time.monotonic()
        self._send_lobby(table)
        if table.started and not table.finished:
            self._pause(table, i, announce=True)

    def _pause(self, table: Table, i: int, announce: bool) -> None:
        """Friend seat ``i`` has no player during the match: pause it; after pause_seconds the
        computer plays it (host's setting "ai") or the table goes on waiting ("wait")."""
        seat = table.seats[i]
        if seat.by_ai or seat.paused_until is not None:
            return
        seat.paused_until = time.monotonic() + table.pause_seconds
        if table.ai_takes_over:
            loop = self.loop or asyncio.get_running_loop()
            seat.timer = loop.call_later(table.pause_seconds, self._take_over, table, i)
        if announce:
            self._broadcast(table, {"type": "paused", "seat": i, "seconds": table.pause_seconds,
                                    "then": "ai" if table.ai_takes_over else "wait"})

    def _take_over(self, table: Table, i: int) -> None:
        seat = table.seats[i]
        seat.timer = None
        if seat.conn is not None or table.finished or self.tables.get(table.code) is not table:
            return
        seat.paused_until, seat.by_ai = None, True
        self._broadcast(table, {"type": "resumed", "seat": i, "by": "ai"})
        self._advance(table)

    # ---- the match
    def _maybe_start(self, table: Table) -> None:
        if table.started or any(s.kind == "friend" and s.conn is None for s in table.seats):
            return
        match = Match(table.rules, secrets.randbits(31))
        events = match.start()
        self.store.start_record(table.code, events)  # StoreError: the table stays in its lobby
        table.match = match
        self._write_meta(table)
        self._redact_all(table)
        self._send_lobby(table)
        for i, s in enumerate(table.seats):
            if s.conn is not None:
                s.conn.send({"type": "events", "from": 0, "events": self._stream(table, i)})
        self._advance(table)

    def _commit(self, table: Table, events: list[Event]) -> None:
        """A decision was made: keep its events, send each seat its view of them, go on."""
        table.unsaved += events
        try:
            self.store.append(table.code, table.unsaved)
            table.unsaved = []
        except StoreError as e:  # kept in memory and written, in order, with the next decision
            log.error("table %s: %s", table.code, e)
        start = len(table.match.events) - len(events) if table.match is not None else 0
        for i, seat in enumerate(table.seats):
            out = table.redactors[i].feed(events)
            if seat.conn is not None:
                seat.conn.send({"type": "events", "from": start, "events": out})
        m = table.match
        if m is not None and m.over:
            self._finish(table)
        else:
            self._advance(table)

    def _finish(self, table: Table) -> None:
        if table.unsaved:
            try:
                self.store.append(table.code, table.unsaved)
                table.unsaved = []
            except StoreError as e:
                log.error("table %s: the end of its record is lost: %s", table.code, e)
        table.finished = True
        table.thinking = None
        self.store.finished(table.code)
        self._write_meta(table)
        for s in table.seats:
            if s.timer is not None:
                s.timer.cancel()
            s.timer, s.paused_until = None, None
        record = str(self.store.record_path(table.code).resolve())
        for s in table.seats:
            if s.conn is not None:
                s.conn.send({"type": "over", "record": record})
        loop = self.loop or asyncio.get_running_loop()
        table.evict = loop.call_later(FINISHED_KEEP_SECONDS, self._evict, table)

    def _evict(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]

    def _controller(self, table: Table, i: int) -> str | None:
        """The computer level playing seat ``i`` now, or None when a person does."""
        seat = table.seats[i]
        if seat.kind == "ai":
            return seat.level
        return TAKEOVER_LEVEL if seat.by_ai else None

    def _advance(self, table: Table, send: bool = True) -> None:
        """Ask whoever is to act: a computer (in a worker) or the friend (a ``turn``)."""
        m = table.match
        if m is None or table.finished or m.over:
            return
        seat, k = m.to_act, len(m.decisions)
        level = self._controller(table, seat)
        if level is not None and (table.thinking is None or table.thinking[0] != k):
            task = self._spawn(self._think(table, seat, k, level))
            table.thinking = (k, seat, task)
        if send:
            self._send_turn(table)

    def _send_turn(self, table: Table, only: Conn | None = None) -> None:
        m = table.match
        if m is None or m.over:
            return
        seat, k = m.to_act, len(m.decisions)
        watching: str | None = None
        for i, s in enumerate(table.seats):
            c = s.conn
            if c is None or (only is not None and c is not only):
                continue
            if i == seat and self._controller(table, i) is None:
                c.send({"type": "turn", "seat": seat, "decision": k,
                        "legal": [P.action_to_json(a) for a in m.legal_actions()]})
            else:
                if watching is None:
                    watching = P.encode({"type": "turn", "seat": seat, "decision": k, "legal": []})
                c.send_text(watching)

    async def _think(self, table: Table, seat: int, k: int, level: str) -> None:
        m = table.match
        assert m is not None
        r = m.rules
        args = (r.game_id, r.deck.id, r.players, dict(r.options), m.seed, seat, level,
                [[s, P.action_to_json(a)] for s, a in m.decisions])
        loop = asyncio.get_running_loop()
        result: dict | None = None
        for _attempt in range(2):
            pool = self.pool
            if pool is None:
                return
            try:
                result = await loop.run_in_executor(pool, choose_action, *args)
                break
            except BrokenProcessPool:
                # A worker process died (killed, out of memory): a fresh pool, once.
                log.error("table %s: the worker pool broke; starting a new one", table.code)
                if self.pool is pool:
                    self.pool = make_pool(self.workers)
                    await loop.run_in_executor(None, stop_pool, pool)
            except Exception as e:  # noqa: BLE001 - a bot's bug must not stop the table
                log.error("table %s: the %s computer failed at decision %d in a worker: %s",
                          table.code, level, k, str(e).strip().splitlines()[0] if str(e).strip() else e)
                # The same function in a thread gives the same choice (bots reseed per
                # decision): slower for everyone, but the table goes on as it would have.
                try:
                    result = await loop.run_in_executor(None, choose_action, *args)
                except Exception as e2:  # noqa: BLE001
                    log.error("table %s: the computer failed again (%s): it plays the first legal action",
                              table.code, e2)
                break
        if table.thinking is None or table.thinking[0] != k or table.finished or len(m.decisions) != k:
            return  # the seat was given back, or the table moved on
        table.thinking = None
        if self._controller(table, seat) is None:
            self._advance(table)
            return
        try:
            action = P.action_from_json(result) if result is not None else m.legal_actions()[0]
            events = m.play(action)
        except (IllegalAction, ValueError, KeyError, TypeError) as e:
            log.error("table %s: the computer's choice was refused (%s): it plays the first legal action",
                      table.code, e)
            events = m.play(m.legal_actions()[0])
        self._commit(table, events)

    # ---- lobby
    def _lobby(self, table: Table, conn: Conn) -> dict[str, Any]:
        r = table.rules
        seats = []
        for s in table.seats:
            if s.kind == "friend":
                seats.append({"kind": "friend", "name": s.name, "connected": s.conn is not None, "level": None})
            else:
                seats.append({"kind": "ai", "name": None, "connected": True, "level": s.level})
        you = conn.seat if conn.table is table else None
        return {"type": "lobby", "code": table.code, "game": r.game_id, "deck": r.deck.id, "players": r.players,
                "options": dict(r.options), "seats": seats, "you": you, "host": table.host_conn is conn,
                "started": table.started, "pause_seconds": table.pause_seconds,
                "ai_takes_over": table.ai_takes_over}

    def _send_lobby(self, table: Table) -> None:
        for c in table.conns():
            c.send(self._lobby(table, c))

    def _send_lobby_to(self, table: Table, conn: Conn) -> None:
        conn.send(self._lobby(table, conn))

    def _broadcast(self, table: Table, message: dict[str, Any]) -> None:
        text = P.encode(message)
        for c in table.conns():
            c.send_text(text)


def _counted_address(ws: ServerConnection) -> str | None:
    """The peer's address for the per-address limit; None for loopback (and the unknown)."""
    try:
        host = ws.remote_address[0]
        return None if ipaddress.ip_address(host).is_loopback else str(host)
    except (TypeError, ValueError, IndexError, AttributeError):
        return None



__all__ = ["MAX_WORKERS", "ServerError", "TableServer"]
