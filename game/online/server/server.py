"""The table server: asyncio + websockets, authoritative (docs/ONLINE.md).

This module is the server's life cycle, its connections (limits, the hello, dispatching
each checked message) and resuming the data folder's tables. Two parts share its tables:
the lobby actions (game.online.server.lobby: create, host, configure, kick, join, leave) and the
play loop of started tables (game.online.server.play: decisions, computers, pauses, streams).
Each table is a ``Match`` with ``[None] * players`` as its bots: every decision, a friend's
or a computer's, goes through ``Match.play`` and so through the rules' check. Computer seats
think in worker processes (game.online.server.worker) — the event loop only validates, applies,
redacts, writes and sends, each a matter of microseconds. Each seat is sent only its
stream of the record (game.seat_view, from the games' declared event audiences), every
message built through its declaration (game.online.wire.messages); the record itself and
the table's meta are kept in the data folder (game.online.server.store), and a server
started on the same folder resumes every unfinished table where it stood.

Everything a client sends is distrusted: the frame size is websockets' ``max_size``, each
connection has a token bucket, every message passes the strict schema of
game.online.wire.protocol, host actions need the host token, a seat needs its token, and the
numbers of tables and connections are bounded. See docs/ONLINE.md.

Entry points: :func:`run_forever` (``python main.py serve``) and
:func:`start_server_in_thread` (the window's "Host a table", the tests).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import gc
import logging
import ssl
import time
from collections.abc import Coroutine
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from game.online.server.accounts import ClubStore, SqliteClubStore
from game.online.server.club import Club
from game.online.server.cluster import ClusterConfig
from game.online.server.daily import DailyBoard
from game.online.server.handlers import HandlerRegistry
from game.online.server.limits import ServerLimits, TableQuota, client_address
from game.online.server.lobby import Lobby
from game.online.server.play import PlayLoop
from game.online.server.puzzles import PuzzleBoard
from game.online.server.seats import Conn, Flusher, Refusal, Seat, Table
from game.online.server.spectate import Spectators
from game.online.server.store import (
    StoredTable,
    StoreError,
    TableStore,
    computer_marks,
    meta_holders,
    meta_owner,
    normalised,
    unmarked,
)
from game.online.server.web import WebPages
from game.online.server.wsconn import FrameSink, counting_connection
from game.online.wire import protocol as P
from game.rulesets import make_rules

if TYPE_CHECKING:
    from game.online.server.cluster.node import ClusterNode
from game.online.wire import messages as M

log = logging.getLogger("cardavia.server")

#: The most worker processes ``--workers`` may ask for.
MAX_WORKERS = 16
#: A connection that has not said hello by then is closed.
HELLO_TIMEOUT = 10.0
#: What a connection let in on the rejoin reserve may say: back to a seat, nothing else.
REJOIN_MESSAGES = frozenset({"hello", "ping", "account", "join", "act", "say", "pong"})
#: How long stop() waits for connections to close and the loop to end.
STOP_TIMEOUT = 5.0
#: ``serve``'s garbage-collector schedule (TableServer._age_objects), in seconds.
AGE_SECONDS = 10.0
THAW_SECONDS = 1800.0


class ServerError(RuntimeError):
    """The server cannot start (the port is taken, the data folder or a TLS file is bad): one line."""


# ------------------------------------------------------------------------------ the server
class TableServer:
    """The server, built here in one place: its store and database, the quotas and the daily
    deal's board (a cluster's shared ones with Redis), the play loop, the lobby, the club, the
    spectators, the puzzles and the web pages, each given what it works with."""

    def __init__(
        self, data_dir: Path, workers: int = 1, limits: ServerLimits | None = None, cluster: ClusterConfig | None = None
    ):
        data_dir = Path(data_dir)
        self.limits = limits = limits or ServerLimits()
        #: Redis for the tables, PostgreSQL for the club (game.online.server.cluster.node).
        self.cluster = cluster
        redis_url = cluster.redis_url if cluster is not None else None
        self.workers = workers
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        #: TCP connections open now (handshaking or open): what the file descriptors hold.
        self.sockets = 0
        self._tasks: set[asyncio.Task] = set()
        self.store: TableStore
        self.db: ClubStore
        if cluster is not None and redis_url:
            from game.online.server.cluster.tables import RedisTableStore, connect, process_id

            redis_store = RedisTableStore(connect(redis_url), data_dir, cluster.process_id or process_id())
            # The same interface as the files' store (duck-typed: the parts use that one).
            self.store = cast(TableStore, redis_store)
        else:
            self.store = TableStore(data_dir, max_open=limits.max_open_records)
        try:
            if cluster is not None and cluster.database_url:
                from game.online.server.cluster.pgclub import PgClubStore

                self.db = PgClubStore(cluster.database_url)
            else:
                self.db = SqliteClubStore(data_dir)
        except StoreError:
            self.store.close()
            raise
        except Exception as e:  # noqa: BLE001 - sqlite3.Error, OSError: the folder cannot hold it
            self.store.close()
            raise StoreError(f"cannot open the club's database in {data_dir} ({e})") from None
        # A cluster's processes count the quotas and keep the daily deal's seed and its
        # once-per-account list together (one process's own would double them).
        self.node: ClusterNode | None = None
        daily_board: DailyBoard
        if cluster is not None and redis_url:
            from game.online.server.cluster.node import ClusterNode
            from game.online.server.cluster.shared import SharedDailyBoard, SharedQuota

            self.quota: TableQuota = cast(TableQuota, SharedQuota(limits, redis_store))
            daily_board = SharedDailyBoard(redis_store.root, redis_store)
            self.node = node = ClusterNode(self, redis_store, redis_url, cluster.public_url or "")
        else:
            self.quota = TableQuota(limits)
            daily_board = DailyBoard(data_dir)
        daily_board.par_iterations = limits.par_iterations
        locate = node.locate if self.node is not None else None
        # The parts share the tables: the play loop of started tables, the lobby's actions.
        self.play = PlayLoop(
            self.store,
            self.tables,
            self._spawn,
            workers,
            daily_board=daily_board,
            stall_on_error=self.node is not None,
            lost=(lambda table: node.let_go(table.code)) if self.node is not None else None,
        )
        self.play.finished_hooks.append(lambda table: self.quota.release(table.code))
        self.lobby = Lobby(self.store, self.tables, self.play, self.quota, locate)
        # The club: accounts and ratings in the database, quick match, the list, spectators.
        if self.node is not None:
            from game.online.server.cluster.quickshare import SharedQuickQueue

            self.club = Club(self, self.db, SharedQuickQueue(node), node.rows_elsewhere)
        else:
            self.club = Club(self, self.db)
        self.spectators = Spectators(self.tables, locate)
        self.play.commit_hooks.append(self.spectators.on_commit)
        self.web = WebPages(self)
        self.puzzles = PuzzleBoard(data_dir)
        #: What handles each client message type (protocol.CLIENT_MESSAGES), each type once.
        self.handlers = HandlerRegistry()
        self.handlers.register_all(
            {
                "hello": self._on_hello,
                "ping": self._on_ping,
                "create": self.lobby.on_create,
                "host": self.lobby.on_host,
                "configure": self.lobby.on_configure,
                "kick": self.lobby.on_kick,
                "join": self.lobby.on_join,
                "act": self.play.on_act,
                "daily": self.lobby.on_daily,
                "daily_board": self.lobby.on_daily_board,
                "watch": self.spectators.on_watch,
                "unwatch": self.spectators.on_unwatch,
            }
        )
        self.handlers.register_all(self.club.handlers())
        self.handlers.register_all(self.puzzles.handlers())
        from game.online.server.events.wiring import ClubEvents

        self.events = ClubEvents(self, data_dir, limits.tournament_deals, limits.events_file)
        self.handlers.register_all(self.events.handlers())
        self.handlers.complete()
        self.ws_server: Server | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.resumed = 0
        self._numbers = 0
        self._per_address: dict[str, int] = {}
        #: Per address, the sockets it holds and those still opening, counted from the accept.
        self._sockets_of: dict[str, int] = {}
        self._opening_of: dict[str, int] = {}
        self._sweeper: asyncio.Task | None = None
        #: The connections' writes of one turn of the event loop, flushed at its end.
        self._flusher = Flusher()
        #: ``serve`` (not the window's small server): keep the garbage collector's full passes
        #: short (see :meth:`_age_objects`).
        self.tune_gc = False

    # ---- life cycle
    async def start(self, host: str, port: int, ssl_context: ssl.SSLContext | None = None) -> int:
        """Resume the data folder's tables, start the workers, listen. Returns the port."""
        self.loop = self.play.loop = asyncio.get_running_loop()  # resuming sets pause timers
        self._resume_all()
        try:
            self.ws_server = await serve(
                self.handler,
                host,
                port,
                ssl=ssl_context,
                max_size=P.MAX_MESSAGE_BYTES,
                max_queue=16,
                compression=None,
                open_timeout=P.HEADER_TIMEOUT,
                ping_interval=20,
                ping_timeout=20,
                close_timeout=2,
                process_request=self._admit_request,
                server_header=None,
                create_connection=self._counting_connection(),
            )
        except OSError as e:
            self.store.close()
            self.db.close()
            raise ServerError(f"cannot listen on {host}:{port} ({e.strerror or e})") from None
        self.play.start_workers()
        if self.node is not None:
            if not self.node.url:
                self.node.url = P.ws_url(host, self.ws_server.sockets[0].getsockname()[1], ssl_context is not None)
            self.node.tick()  # the heartbeat first: other processes can send clients here at once
            self._spawn(self.node.run())
        self._sweeper = self._spawn(self._sweep())
        self._spawn(self.club.run())
        self.events.start()
        if self.tune_gc:
            self._spawn(self._age_objects())
        for table in list(self.tables.values()):
            self.play.advance(table)
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
        if self.node is not None:
            await self.node.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_TIMEOUT)
        self.store.close()
        self.db.close()
        self.events.close()
        await self.play.stop_workers()

    @property
    def pool(self) -> ProcessPoolExecutor | None:
        """The computers' worker processes (the play loop's)."""
        return self.play.pool

    def _spawn(self, coro: Coroutine[object, object, None]) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _sweep(self) -> None:
        """Close lobbies nobody has been connected to for ``limits.idle_close_seconds``
        (their files stay, marked closed; the maker's quota is freed)."""
        idle = self.limits.idle_close_seconds
        while True:
            await asyncio.sleep(min(60.0, max(0.05, idle / 4)))
            self.close_idle_lobbies(time.monotonic())
            self.close_past_deadline(dt.datetime.now())

    def close_idle_lobbies(self, now: float) -> int:
        closed = 0
        for table in list(self.tables.values()):
            if not table.started and not table.conns() and now - table.idle_since > self.limits.idle_close_seconds:
                self.close_table(table)
                closed += 1
        return closed

    def close_past_deadline(self, now: dt.datetime) -> int:
        """Close the daily tables whose day has reached its deadline (game.online.server.daily): the
        seed is published then, so their cards could be computed; their results are refused."""
        from game.online.server.daily import deadline

        closed = 0
        for table in list(self.tables.values()):
            if table.daily is not None and not table.finished and now >= deadline(table.daily["date"]):
                table.broadcast(
                    P.error("daily", f"the {table.daily['date']} deal has closed: this table ends unscored")
                )
                for c in table.conns():
                    c.table, c.seat = None, None
                self.close_table(table)
                closed += 1
        return closed

    def close_table(self, table: Table) -> None:
        """Put an unfinished table away (its files stay, marked closed; quotas freed; a daily
        deal's table no longer holds its seed back)."""
        for s in table.seats:
            if s.timer is not None:
                s.timer.cancel()
        if table.evict is not None:
            table.evict.cancel()
        self.play.write_meta(table, closed=True)
        self.tables.pop(table.code, None)
        self.quota.release(table.code)
        d = table.daily
        board = self.play.daily_board
        if d is not None and board is not None:
            try:
                board.end(d["date"], d["game"], d["preset"], table.code)
            except OSError as e:
                log.error("table %s: the daily board could not be written: %s", table.code, e)

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

    def _counting_connection(self) -> type[ServerConnection]:
        """websockets' connection class, counting the TCP connections this server holds
        and handing whole text frames to the handler (game.online.server.wsconn)."""
        return counting_connection(self)

    @property
    def reserve(self) -> int:
        """Connections kept for seated players coming back: past ``max_connections - reserve``
        a new connection may only rejoin a seat (a server full of idle or hostile connections
        still lets a dropped player back to their table)."""
        return max(2, self.limits.max_connections // 20)

    def _admit_request(self, connection: ServerConnection, request: Request) -> Response | None:
        opened = getattr(connection, "opened", None)
        if opened is not None:
            opened()  # the request is in: no longer a slow opening
        if self.sockets > self.limits.max_connections or len(self.conns) >= self.limits.max_connections:
            return connection.respond(503, "The server has as many players as it can take: try again later.\n")
        if self.web is not None and request.headers.get("Upgrade", "").lower() != "websocket":
            return self.web.respond(connection, request)
        # A mark on websockets' connection, read back with getattr once it is a player's.
        connection.rejoin_only = len(self.conns) >= self.limits.max_connections - self.reserve  # type: ignore[attr-defined]
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
            table.owner = list(meta_owner(st.meta))
            for address, player in meta_holders(st.meta):
                self.quota.add(table.code, address, player)
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
        table = Table(
            st.code,
            rules,
            seats,
            meta["host_token_sha256"],
            int(meta["pause_seconds"]),
            bool(meta["ai_takes_over"]),
            created=float(meta.get("created") or time.time()),
        )
        club = meta.get("club")
        table.club = club if isinstance(club, dict) and isinstance(club.get("players"), dict) else None
        table.public = meta.get("public") is True
        daily = meta.get("daily")
        table.daily = daily if isinstance(daily, dict) and isinstance(daily.get("seed"), int) else None
        events = st.events
        if events:
            table.match = self.play.replay(rules, events)
            table.computer_made = computer_marks(events)
            full = normalised(table.match.events)
            if full != unmarked(events):  # the last decision's events were cut short: the rules give the rest
                self.store.rewrite_record(st.code, full)
            self.play.redact_all(table)
            if table.match.over:
                self.play.write_meta(table, finished=True)
                raise ValueError("its match had already ended")
            for i, seat in enumerate(table.seats):
                if seat.kind == "friend":
                    self.play.pause(table, i, announce=False)
        return table

    # ---- a connection
    async def handler(self, ws: ServerConnection) -> None:
        address = client_address(ws, self.limits)
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
        conn = Conn(ws, self._numbers, self._flusher)
        conn.address = client_address(ws, self.limits)
        conn.rejoin_only = bool(getattr(ws, "rejoin_only", False))
        self.conns.add(conn)
        writer = asyncio.get_running_loop().create_task(conn.run_writer())

        def no_hello() -> None:
            if not conn.hello:
                conn.close(1008, "no hello")
            elif conn.rejoin_only and conn.table is None:
                conn.send(P.error("limit", "the server is full: only players coming back to their seats get in now"))
                conn.close(1008, "full")

        hello_timer = asyncio.get_running_loop().call_later(HELLO_TIMEOUT, no_hello)
        if isinstance(ws, FrameSink):  # whole text frames are handled as they arrive
            ws.sink = functools.partial(self._frame, conn)
            ws.flusher = self._flusher
        try:
            # The loop ends when the connection closes: the peer's doing, or the writer's
            # after conn.close() (it sends what is queued, then closes). It sees only what
            # the sink above did not take.
            async for frame in ws:
                self._frame(conn, frame)
        except ConnectionClosed:
            pass
        finally:
            if isinstance(ws, FrameSink):
                ws.sink, ws.flusher = None, None
            hello_timer.cancel()
            self.conns.discard(conn)
            conn.closing = True
            self.lobby.gone(conn)
            self.club.gone(conn)
            self.spectators.leave(conn)
            writer.cancel()

    def _frame(self, conn: Conn, frame: str | bytes) -> None:
        """One message from ``conn``: its rate, then :meth:`_receive`."""
        if conn.closing:
            return
        if not conn.admit():
            if conn.excess > P.MAX_EXCESS:
                conn.send(P.error("rate", "too many messages: the connection is closed"))
                conn.close(1008, "flooding")
            else:
                conn.send(P.error("rate", f"at most {P.RATE:g} messages a second (bursts of {P.BURST})"))
            return
        self._receive(conn, frame)

    def _receive(self, conn: Conn, frame: str | bytes) -> None:
        try:
            data = P.decode_frame(frame)
            if data.get("type") == "hello":
                v = data.get("version")
                if isinstance(v, int) and not isinstance(v, bool) and v != P.PROTOCOL_VERSION:
                    conn.send(
                        P.error(
                            "version",
                            f"this server speaks protocol version {P.PROTOCOL_VERSION}, "
                            f"the client {v}: use the same version of Cardavia",
                            server_version=P.PROTOCOL_VERSION,
                        )
                    )
                    conn.close(1002, "protocol version")
                    return
            msg = P.check_message(data)
            kind = str(msg["type"])
            if kind != "hello" and not conn.hello:
                raise Refusal("hello", 'say hello first: {"type": "hello", "version": 1, "name": …}')
            if kind in P.SLOW_MESSAGES and not conn.admit_slow():
                raise Refusal("rate", f"at most {P.SLOW_RATE:g} {kind} a second (bursts of {P.SLOW_BURST})")
            if conn.rejoin_only and (kind not in REJOIN_MESSAGES or (kind == "join" and msg["token"] is None)):
                raise Refusal(
                    "limit", "the server is full: only players coming back to their seats get in now", close=True
                )
            self.handlers[kind](conn, msg)
            if conn.rejoin_only and kind == "join" and conn.table is None:
                raise Refusal(
                    "limit", "the server is full: only players coming back to their seats get in now", close=True
                )
        except P.ProtocolError as e:
            conn.send(P.error(e.code, str(e)))
        except Refusal as e:
            conn.send(P.error(e.code, str(e), **e.extra))
            if e.close:
                conn.close(1008, e.code)
        except StoreError as e:
            log.error("%s", e)
            conn.send(P.error("server", "the server could not keep the table: try again later"))
        except Exception:  # noqa: BLE001 - a bug here must cost one message, not the server
            log.exception("a %r message could not be handled", frame[:80] if isinstance(frame, str) else "binary")
            conn.send(P.error("server", "the server could not handle that message"))

    # ---- messages
    def _on_hello(self, conn: Conn, msg: dict) -> None:
        if conn.hello:  # one identity per connection: a name cannot be changed once given
            raise Refusal("hello", "this connection has said hello already: open a new one to be someone else")
        conn.hello = True
        conn.name = msg["name"]
        conn.send(M.WELCOME(version=P.PROTOCOL_VERSION, server=P.SERVER_NAME))

    def _on_ping(self, conn: Conn, msg: dict) -> None:
        conn.send(M.PONG())


__all__ = ["MAX_WORKERS", "HandlerRegistry", "ServerError", "TableServer"]
