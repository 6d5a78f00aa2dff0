"""The play loop of the table server: a started table's decisions, computers and timers.

A friend's ``act`` and a computer's choice (thought in a worker process, game.online.server.worker)
both go through ``Match.play``, so through the rules' check; :meth:`PlayLoop.commit` keeps
the events in the record and sends each seat its redacted view. A friend who drops out is
paused, and after the host's pause the computer plays the seat until the friend is back.
The lobby (game.online.server.lobby) and the server (game.online.server.server) call in here; this module
calls neither.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from game.match import Match
from game.online.server.daily import DailyBoard
from game.online.server.seats import Conn, Refusal, Table
from game.online.server.store import LeaseLost, StoreError, TableStore, normalised, unmarked
from game.online.server.turns import decisions_json, events_text, legal_now, turn_text
from game.online.server.worker import choose_action, make_pool, stop_pool, warm_up
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.online.wire.redact import SeatRedactor, seat_events
from game.replay import ReplayError, follow
from game.rules.base import Event, GameRules, IllegalAction
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

#: The level of the computer that plays a dropped friend's seat (host's setting "ai").
TAKEOVER_LEVEL = "normal"
#: A finished table stays in memory this long (a player may rejoin to see the end).
FINISHED_KEEP_SECONDS = 600.0
#: Lobby changes within this many seconds are written as one meta (write_meta_soon).
META_COALESCE = 0.25
#: A table whose decision could not be kept tries again this often (seconds).
STALL_RETRY = 1.0

Spawn = Callable[[Coroutine[object, object, None]], asyncio.Task]


class BackgroundWriter(Protocol):
    """Writes a table's new decisions in the background (game.online.server.cluster.writer)."""

    def want(self, table: Table) -> None: ...


class PlayLoop:
    """Drives the started tables of ``tables`` (shared with the server and the lobby)."""

    #: Times a table stopped for its store (the tests, the status line).
    stalls = 0

    def __init__(
        self,
        store: TableStore,
        tables: dict[str, Table],
        spawn: Spawn,
        workers: int = 1,
        *,
        daily_board: DailyBoard | None = None,
        stall_on_error: bool = False,
        lost: Callable[[Table], None] | None = None,
    ):
        self.store = store
        self.tables = tables
        self.spawn = spawn  # the server's: its tasks end with it
        self.workers = workers
        #: The server's daily deal (game.online.server.daily), None where it keeps none.
        self.daily_board = daily_board
        #: A decision the store cannot take stops the table until it can (a cluster: Redis
        #: away), instead of going on with it in memory (one process: a full disk, written
        #: with the next).
        self.stall_on_error = stall_on_error
        self.pool: ProcessPoolExecutor | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        #: Called with each table whose match has just ended (quotas, ratings).
        self.finished_hooks: list[Callable[[Table], None]] = []
        #: Called with a table and each decision's events once sent to the seats (spectators).
        self.commit_hooks: list[Callable[[Table, list[Event]], None]] = []
        #: Called with a table after each ``turn`` went out (the club's silent-player timer).
        self.turn_hooks: list[Callable[[Table], None]] = []
        #: Called with a table whose lease another process holds now (game.online.server.cluster).
        self.lost = lost
        #: Meta writes in order (write_meta, and write_meta_soon's thread): the last number given
        #: and, per table, the number of the meta its file holds.
        self._meta_lock = threading.Lock()
        self._meta_sequence = 0
        self._meta_written: dict[str, int] = {}

    # ---- the workers
    def start_workers(self) -> None:
        self.pool = make_pool(self.workers)
        self.spawn(self._warm())

    async def stop_workers(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await asyncio.get_running_loop().run_in_executor(None, stop_pool, pool)

    async def _warm(self) -> None:
        try:
            await asyncio.get_running_loop().run_in_executor(self.pool, warm_up)
        except Exception as e:  # noqa: BLE001 - a failed warm-up shows again at the first decision
            log.warning("worker warm-up failed: %s", e)

    def _call_later(self, seconds: float, callback: Callable[..., None], *args: object) -> asyncio.TimerHandle:
        return (self.loop or asyncio.get_running_loop()).call_later(seconds, callback, *args)

    # ---- the table's files and streams
    def write_meta(self, table: Table, **extra: object) -> None:
        table.meta_extra.update(extra)
        self._meta_sequence += 1
        try:
            self._write_meta_in_order(table.code, table.meta(), self._meta_sequence)
        except LeaseLost as e:
            log.warning("table %s: %s", table.code, e)
            self._lose(table)
        except StoreError as e:
            log.error("table %s: %s", table.code, e)

    def write_meta_soon(self, table: Table, **extra: object) -> None:
        """Keep a lobby change that no one waits on (publish, report, configure, kick): the
        changes of META_COALESCE seconds are written once, a data folder's fsync in a thread —
        a host toggling many times a second costs the event loop nothing."""
        table.meta_extra.update(extra)
        if table.meta_soon:
            return
        table.meta_soon = True
        self._call_later(META_COALESCE, self._flush_meta, table)

    def _flush_meta(self, table: Table) -> None:
        table.meta_soon = False
        if self.tables.get(table.code) is not table:
            return
        if not isinstance(self.store, TableStore):  # Redis: a quick round trip, with its lease check
            self.write_meta(table)
            return
        self._meta_sequence += 1
        meta, seq = table.meta(), self._meta_sequence

        def write() -> None:
            try:
                self._write_meta_in_order(table.code, meta, seq)
            except StoreError as e:
                log.error("table %s: %s", table.code, e)

        (self.loop or asyncio.get_running_loop()).run_in_executor(None, write)

    def _write_meta_in_order(self, code: str, meta: dict[str, Any], seq: int) -> None:
        """Write a table's meta unless a later one is written already (the thread's and the
        event loop's writes never leave an older meta last)."""
        with self._meta_lock:
            if self._meta_written.get(code, 0) > seq:
                return
            self.store.write_meta(code, meta)
            self._meta_written[code] = seq
            if len(self._meta_written) > 20_000:  # a bounded memory of the tables written
                self._meta_written = {c: n for c, n in self._meta_written.items() if c in self.tables}

    # ---- a store that cannot be written (Redis unreachable) or a table another took
    def _lose(self, table: Table) -> None:
        if self.lost is not None and self.tables.get(table.code) is table:
            self.lost(table)

    def _stall(self, table: Table) -> None:
        """The decision cannot be kept: the table waits (no act is taken, no computer thinks)
        until its events are written; the seats are told, and told again when play goes on."""
        if not table.stalled:
            table.stalled = True
            self.stalls += 1
            table.broadcast(
                M.STORAGE(ok=False, message="the server cannot save the table just now: play waits until it can")
            )
        self._call_later(STALL_RETRY, self._retry, table)

    def _retry(self, table: Table) -> None:
        if not table.stalled or self.tables.get(table.code) is not table:
            return
        if self.writer is not None:
            self.writer.want(table)  # written() goes on when it is stored
            return
        try:
            self.store.append(table.code, table.unsaved, table.saved_before)
        except LeaseLost:
            self._lose(table)
            return
        except StoreError:
            self._call_later(STALL_RETRY, self._retry, table)
            return
        table.unsaved = []
        table.stalled = False
        table.broadcast(M.STORAGE(ok=True, message="the table is saved again: play goes on"))
        m = table.match
        if m is not None and m.over:
            self._finish(table)
        else:
            self.advance(table)

    def retry_unsaved(self) -> None:
        """The store is back: every waiting table tries now."""
        for table in list(self.tables.values()):
            if table.stalled:
                self._retry(table)

    @staticmethod
    def replay(rules: GameRules, events: list[Event]) -> Match:
        """The match a record shows, decision by decision (as game.services.session.Session.from_save)."""
        events = unmarked(events)
        head = events[0]
        if head.get("event") != "match" or not isinstance(head.get("seed"), int):
            raise ValueError("the record does not begin with its match line")
        m = Match(rules, head["seed"], deals=head.get("deals"))
        m.start()
        m.keep_version(head)  # a table begun by another version of the server resumes
        i = len(m.events)
        if normalised(m.events) != events[:i]:
            raise ValueError("the record does not start as its seed deals")
        try:
            follow(m, events)  # the record's decisions, through the one replay
        except ReplayError as e:
            raise ValueError(f"the record is out of step at line {e.line}: {e}") from None
        got = normalised(m.events)
        if got[: len(events)] != events:
            raise ValueError("the record does not replay to the same events")
        return m

    @staticmethod
    def redact_all(table: Table) -> None:
        table.redactors = [SeatRedactor(table.rules, s) for s in range(table.rules.players)]
        events = table.match.events if table.match is not None else []
        for r in table.redactors:
            r.feed(events)  # only to follow the face-up card up to now

    @staticmethod
    def stream(table: Table, seat: int) -> list[Event]:
        """Seat ``seat``'s whole stream so far (index i = record event i)."""
        return seat_events(table.rules, table.match.events if table.match is not None else [], seat)

    # ---- a friend's messages
    def on_act(self, conn: Conn, msg: dict) -> None:
        table, i = conn.table, conn.seat
        if table is None or i is None:
            raise Refusal("not_seated", "join a table first")
        k = msg["decision"]
        m = table.match
        if m is None or table.finished or m.over:
            conn.send(self.refused(P.NOT_YOUR_TURN, "the match is not being played", k))
            return
        if table.stalled:
            raise Refusal("storage", "the server cannot save the table just now: play waits until it can")
        made = len(m.decisions)
        if k != made:
            conn.send(self.refused(P.STALE, f"decision {k} is not the one being made ({made})", k))
            return
        if table.seats[i].by_ai and table.seats[i].conn is conn and table.club is not None:
            # A club player the computer covered while silent is back: the seat is theirs again.
            self.give_back(table, i)
            self.advance(table)
            return
        if m.to_act != i or table.seats[i].by_ai:
            conn.send(self.refused(P.NOT_YOUR_TURN, f"it is seat {m.to_act}'s turn, not seat {i}'s", k))
            return
        try:
            action = P.checked_action(msg["action"])
            # The rules check it first (against the legal actions the turn was sent with):
            # nothing changes on a refusal.
            events = m.play(action, legal_now(m))
        except IllegalAction as e:
            params = P.json_safe(e.params)
            conn.send(self.refused(e.rule, str(e), k, params if isinstance(params, dict) else None))
            return
        except (ValueError, KeyError, TypeError, IndexError) as e:
            conn.send(self.refused("illegal", f"{e}", k))
            return
        conn.refund()
        self.commit(table, events)

    @staticmethod
    def refused(rule: str, message: str, k: int, params: JsonObject | None = None) -> JsonObject:
        return M.REFUSED(rule=rule, params=params or {}, decision=k, message=message)

    # ---- seats without their friend
    def give_back(self, table: Table, i: int) -> None:
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
            table.broadcast(M.RESUMED(seat=i))

    def pause(self, table: Table, i: int, announce: bool) -> None:
        """Friend seat ``i`` has no player during the match: pause it; after pause_seconds the
        computer plays it (host's setting "ai") or the table goes on waiting ("wait")."""
        seat = table.seats[i]
        if seat.by_ai or seat.paused_until is not None:
            return
        seat.paused_until = time.monotonic() + table.pause_seconds
        if table.ai_takes_over:
            seat.timer = self._call_later(table.pause_seconds, self._take_over, table, i)
        if announce:
            table.broadcast(M.PAUSED(seat=i, seconds=table.pause_seconds, then="ai" if table.ai_takes_over else "wait"))

    def _take_over(self, table: Table, i: int) -> None:
        seat = table.seats[i]
        seat.timer = None
        if seat.conn is not None or table.finished or self.tables.get(table.code) is not table:
            return
        seat.paused_until, seat.by_ai = None, True
        table.broadcast(M.RESUMED(seat=i, by="ai"))
        self.advance(table)

    # ---- the match
    def maybe_start(self, table: Table) -> None:
        if table.started or any(s.kind == "friend" and s.conn is None for s in table.seats):
            return
        daily = table.daily
        # A daily deal's table deals the day's secret seed, its first deal only.
        match = Match(table.rules, daily["seed"], deals=1) if daily else Match(table.rules, P.new_seed())
        events = match.start()
        self.store.start_record(table.code, events)  # StoreError: the table stays in its lobby
        table.match = match
        self.write_meta(table)
        self.redact_all(table)
        table.send_lobby()
        for i, s in enumerate(table.seats):
            if s.conn is not None:
                s.conn.send(M.EVENTS(**{"from": 0, "events": self.stream(table, i)}))
        self.advance(table)

    #: A store that writes in the background (a cluster: game.online.server.cluster.writer); then a
    #: decision's events go to the seats once the store has them, and the event loop never
    #: waits on the store's round trip.
    writer: BackgroundWriter | None = None

    def commit(self, table: Table, events: list[Event]) -> None:
        """A decision was made: keep its events, send each seat its view of them, go on.
        A decision the computer made for a person (gone or silent) is marked in the record
        (``"by": "computer"`` on its first line: RECORD.md readers ignore extra fields)."""
        m = table.match
        actor = m.decisions[-1][0] if m is not None and m.decisions else None
        if events and actor is not None and table.seats[actor].kind == "friend" and table.seats[actor].by_ai:
            table.unsaved += [{**events[0], "by": "computer"}, *events[1:]]
            table.computer_made[actor] = table.computer_made.get(actor, 0) + 1
        else:
            table.unsaved += events
        start = len(table.match.events) - len(events) if table.match is not None else 0
        if self.writer is not None:
            table.outbox.append((events, start))
            self.writer.want(table)
            return
        try:
            self.store.append(table.code, table.unsaved, table.saved_before)
            table.unsaved = []
        except LeaseLost as e:  # another process runs the table now: this one never writes it again
            log.warning("table %s: %s", table.code, e)
            self._lose(table)
            return
        except StoreError as e:  # kept in memory and written, in order, when the store takes it
            log.error("table %s: %s", table.code, e)
            if self.stall_on_error:
                self._stall(table)
        self._deliver(table, events, start)

    def written(self, table: Table, delivered: list[tuple[list[Event], int]]) -> None:
        """The background writer has stored these decisions: now the seats see them."""
        if self.tables.get(table.code) is not table:
            return
        if table.stalled:
            table.stalled = False
            table.broadcast(M.STORAGE(ok=True, message="the table is saved again: play goes on"))
        for k, (events, start) in enumerate(delivered):
            self._deliver(table, events, start, go_on=k == len(delivered) - 1)

    def _deliver(self, table: Table, events: list[Event], start: int, go_on: bool = True) -> None:
        public = table.rules.vocabulary.public_events
        for ev in events:
            if ev.get("event") not in public:
                break
        else:
            # Events every viewer sees whole (a card played face up): one text for every
            # seat, and no redactor to feed (such an audience reads and changes no sight).
            everyones = events_text(start, events)
            for seat in table.seats:
                if seat.conn is not None:
                    seat.conn.send_text(everyones)
            self._after_delivery(table, events, go_on)
            return
        # Encoded once per audience, not once per seat: seats that see the events alike (a
        # public play: all of them) get the same text. Every seat's redactor is fed, so that
        # each follows its own stream; the comparison is of what each seat may see.
        sent: list[tuple[list[Event], str]] = []
        redactors = table.redactors
        for i, seat in enumerate(table.seats):
            out = redactors[i].feed(events)
            conn = seat.conn
            if conn is None:
                continue
            text = None
            for seen, made in sent:
                if seen == out:
                    text = made
                    break
            if text is None:
                text = events_text(start, out)
                sent.append((out, text))
            conn.send_text(text)
        self._after_delivery(table, events, go_on)

    def _after_delivery(self, table: Table, events: list[Event], go_on: bool) -> None:
        for hook in self.commit_hooks:
            hook(table, events)
        if table.stalled or not go_on:
            return
        m = table.match
        if m is not None and m.over:
            self._finish(table)
        else:
            self.advance(table)

    def _spawn_daily(self, table: Table) -> None:
        """Take a finished daily deal to the leaderboard (par may take seconds: a thread),
        then tell the player its line."""
        d, m = table.daily, table.match
        if d is None or m is None:  # only a daily deal's table, once played, comes here
            raise ValueError(f"table {table.code} is no finished daily deal")
        board = self.daily_board
        if board is None:
            raise ValueError("this server keeps no daily deal")
        seconds = time.time() - d["since"]

        async def take() -> None:
            import datetime as dt

            from game.online.server.daily import DailyRefusal

            loop = asyncio.get_running_loop()
            try:
                if not isinstance(d.get("player"), int):
                    raise DailyRefusal("record", "this table was not dealt to an account")
                line = await loop.run_in_executor(
                    None,
                    board.accept,
                    d["date"],
                    d["game"],
                    d["preset"],
                    f"p:{d['player']}",
                    d["name"],
                    table.code,
                    list(m.events),
                    seconds,
                    dt.datetime.now(),
                )
                msg = M.DAILY_RESULT(**line)
            except (DailyRefusal, OSError, ValueError) as e:
                msg = P.error(getattr(e, "code", "daily"), str(e))
            for c in table.conns():  # the seat, and the connection that asked for the deal
                c.send(msg)

        self.spawn(take())

    def _finish(self, table: Table) -> None:
        if table.unsaved:
            try:
                self.store.append(table.code, table.unsaved, table.saved_before)
                table.unsaved = []
            except LeaseLost:
                self._lose(table)
                return
            except StoreError as e:
                if self.stall_on_error:
                    self._stall(table)
                    return
                log.error("table %s: the end of its record is lost: %s", table.code, e)
        table.finished = True
        table.thinking = None
        self.store.finished(table.code)
        self.write_meta(table)
        for s in table.seats:
            if s.timer is not None:
                s.timer.cancel()
            s.timer, s.paused_until = None, None
        for hook in self.finished_hooks:
            try:
                hook(table)
            except Exception:  # noqa: BLE001 - a hook's bug must not stop the table's end
                log.exception("table %s: an end-of-match hook failed", table.code)
        record = self.store.record_path(table.code).name  # never the server's own folders
        for s in table.seats:
            if s.conn is not None:
                s.conn.send(M.OVER(record=record))
        if table.daily is not None and self.daily_board is not None and "event" not in table.daily:
            self._spawn_daily(table)  # an event's deal is scored by its finished hook
        table.evict = self._call_later(FINISHED_KEEP_SECONDS, self._evict, table)

    def _evict(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            del self.tables[table.code]

    @staticmethod
    def controller(table: Table, i: int) -> str | None:
        """The computer level playing seat ``i`` now, or None when a person does."""
        seat = table.seats[i]
        if seat.kind == "ai":
            return seat.level
        return TAKEOVER_LEVEL if seat.by_ai else None

    def advance(self, table: Table, send: bool = True) -> None:
        """Ask whoever is to act: a computer (in a worker) or the friend (a ``turn``)."""
        m = table.match
        if m is None or table.finished or m.over or table.stalled:
            return
        seat, k = m.to_act, len(m.decisions)
        if seat is None:  # nobody to act (the match is not over: never)
            return
        level = self.controller(table, seat)
        if level is not None and (table.thinking is None or table.thinking[0] != k):
            task = self.spawn(self._think(table, seat, k, level))
            table.thinking = (k, seat, task)
        if send:
            self.send_turn(table, to_act=seat)

    def send_turn(self, table: Table, only: Conn | None = None, to_act: int | None = None) -> None:
        """Each seat's ``turn`` (``only``: that connection's); ``to_act``: the seat to act, when
        the caller has just worked it out."""
        m = table.match
        if m is None or m.over:
            return
        seat, k = to_act if to_act is not None else m.to_act, len(m.decisions)
        if seat is None:  # nobody to act (the match is not over: never)
            return
        watching: str | None = None
        for i, s in enumerate(table.seats):
            c = s.conn
            if c is None or (only is not None and c is not only):
                continue
            if i == seat and self.controller(table, i) is None:
                c.send_text(turn_text(seat, k, legal_now(m)))
            else:
                if watching is None:
                    watching = turn_text(seat, k)
                c.send_text(watching)
        if only is None:
            for hook in self.turn_hooks:
                hook(table)

    async def _think(self, table: Table, seat: int, k: int, level: str) -> None:
        m = table.match
        assert m is not None
        r = m.rules
        # A daily deal's computers are the house bots par was worked out against (no clock).
        args = (
            r.game_id,
            r.deck.id,
            r.players,
            dict(r.options),
            m.seed,
            seat,
            level,
            decisions_json(m),
            table.daily is not None,
        )
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
                log.error(
                    "table %s: the %s computer failed at decision %d in a worker: %s",
                    table.code,
                    level,
                    k,
                    str(e).strip().splitlines()[0] if str(e).strip() else e,
                )
                # The same function in a thread gives the same choice (bots reseed per
                # decision): slower for everyone, but the table goes on as it would have.
                try:
                    result = await loop.run_in_executor(None, choose_action, *args)
                except Exception as e2:  # noqa: BLE001
                    log.error(
                        "table %s: the computer failed again (%s): it plays the first legal action", table.code, e2
                    )
                break
        if table.thinking is None or table.thinking[0] != k or table.finished or len(m.decisions) != k:
            return  # the seat was given back, or the table moved on
        table.thinking = None
        if self.controller(table, seat) is None:
            self.advance(table)
            return
        try:
            action = P.action_from_json(result) if result is not None else legal_now(m)[0]
            events = m.play(action, legal_now(m))
        except (IllegalAction, ValueError, KeyError, TypeError) as e:
            log.error(
                "table %s: the computer's choice was refused (%s): it plays the first legal action", table.code, e
            )
            events = m.play(legal_now(m)[0])
        self.commit(table, events)


__all__ = ["FINISHED_KEEP_SECONDS", "TAKEOVER_LEVEL", "PlayLoop"]
