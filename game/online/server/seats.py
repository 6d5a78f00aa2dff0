"""The server's tables, seats and connections as plain records (:mod:`game.online.server.server`
drives them): a table's rules, match, seats and lobby settings; a seat's kind, claim and
pause; a connection's outgoing queue and rate limit (a token bucket). Pure Python.
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from game.match import Match
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.online.wire.redact import SeatRedactor
from game.rules.base import Event, GameRules
from game.rules.vocabulary import JsonObject

#: Messages waiting to be sent to one connection; a client that reads slower is closed.
OUT_QUEUE = 1024


@dataclass
class Seat:
    kind: str  # "friend" or "ai"
    level: str | None = None  # an AI seat's level
    token_hash: str | None = None  # a friend seat's (sha256 of its token)
    name: str | None = None  # the player who claimed the friend seat
    conn: Conn | None = None
    #: A friend seat left during the match: when (monotonic) its countdown ends (then the
    #: computer takes it, or the table goes on waiting: the host's setting).
    paused_until: float | None = None
    timer: asyncio.TimerHandle | None = None
    #: The computer plays this friend seat until the player rejoins.
    by_ai: bool = False

    @property
    def spec(self) -> str:
        return "friend" if self.kind == "friend" else f"ai:{self.level}"


@dataclass
class Table:
    code: str
    rules: GameRules
    seats: list[Seat]
    host_hash: str
    pause_seconds: int
    ai_takes_over: bool
    created: float = field(default_factory=time.time)
    host_conn: Conn | None = None
    match: Match | None = None
    finished: bool = False
    #: Per seat: the redactor that turns the next record events into what the seat sees. The
    #: seat's stream so far is not kept: it is redacted again from the record when a seat
    #: (re)joins (:meth:`stream`) — four copies of every event per table would be mostly what
    #: the garbage collector walks, and its full passes were the load test's p99.
    redactors: list[SeatRedactor] = field(default_factory=list)
    #: A background writer's decisions not yet stored: (events, from), sent once they are.
    outbox: list[tuple[list[Event], int]] = field(default_factory=list)
    #: Its last decision could not be kept (the store is away): no play until it is.
    stalled: bool = False
    #: The computer's decision in progress: (decision number, seat, task).
    thinking: tuple[int, int, asyncio.Task] | None = None
    idle_since: float = field(default_factory=time.monotonic)
    evict: asyncio.TimerHandle | None = None
    #: Events the record could not take yet (a full disk): written first next time, in order.
    unsaved: list[Event] = field(default_factory=list)
    #: A server daily deal's table (game.online.server.daily): {"date", "game", "preset", "seed",
    #: "name", "since"} — kept on the server only, never in a message; None otherwise.
    daily: dict[str, Any] | None = None
    #: Who made the table (for the quotas): [address or None, player id or None].
    owner: list[str | int | None] = field(default_factory=lambda: [None, None])
    #: A club table (game.online.server.club): {"quick", "rated", "game", "preset", "players":
    #: {seat: player id}, "left": [seats]}; None for a host's own table.
    club: dict[str, Any] | None = None
    #: Listed in the lobby and open to spectators (quick matches; a host's table after ``publish``).
    public: bool = False
    #: Spectators' connections, and how far (record events) they have been sent.
    watchers: list[Conn] = field(default_factory=list)
    watched_upto: int = 0
    #: A club player silent at their turn: the timer after which the computer covers them.
    silent: asyncio.TimerHandle | None = None
    #: Marks kept in the meta beside the table's own fields (``reported``), and whether a
    #: coalesced meta write is on its way (game.online.server.play.write_meta_soon).
    meta_extra: JsonObject = field(default_factory=dict)
    meta_soon: bool = False
    #: Per friend seat, the decisions the computer made for its person (the record's
    #: ``"by": "computer"`` marks): a rated match mostly played by the computer is no one's win.
    computer_made: dict[int, int] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def club_data(self) -> dict[str, Any]:
        """``club`` of a table known to be a club's (a TypeError, as indexing None is, otherwise)."""
        if self.club is None:
            raise TypeError(f"table {self.code} is not a club table")
        return self.club

    @property
    def saved_before(self) -> int:
        """How many of the record's events came before the unsaved ones (what the store holds
        once every earlier write is answered): a retried write starts from here."""
        return (len(self.match.events) if self.match is not None else 0) - len(self.unsaved)

    def conns(self) -> list[Conn]:
        """Every connection at the table (seated ones and the host), once each."""
        out: list[Conn] = []
        for c in [s.conn for s in self.seats] + [self.host_conn]:
            if c is not None and c not in out:
                out.append(c)
        return out

    def meta(self) -> JsonObject:
        r = self.rules
        return {
            "code": self.code,
            "game": r.game_id,
            "deck": r.deck.id,
            "players": r.players,
            "options": dict(r.options),
            "seats": [
                {"kind": s.kind, "level": s.level, "token_sha256": s.token_hash, "name": s.name} for s in self.seats
            ],
            "host_token_sha256": self.host_hash,
            "pause_seconds": self.pause_seconds,
            "ai_takes_over": self.ai_takes_over,
            "created": self.created,
            "started": self.started,
            "finished": self.finished,
            "daily": self.daily,  # the data folder's copy only: a resumed daily table stays one
            "owner": self.owner,
            "club": self.club,
            "public": self.public,
            **self.meta_extra,
        }

    # What the table tells its connections: the lobby and the play loop both do.
    def lobby(self, conn: Conn) -> JsonObject:
        """The ``lobby`` message as ``conn`` sees it (its seat, whether it hosts)."""
        r = self.rules
        seats = []
        for s in self.seats:
            if s.kind == "friend":
                seats.append({"kind": "friend", "name": s.name, "connected": s.conn is not None, "level": None})
            else:
                seats.append({"kind": "ai", "name": None, "connected": True, "level": s.level})
        you = conn.seat if conn.table is self else None
        return M.LOBBY(
            code=self.code,
            game=r.game_id,
            deck=r.deck.id,
            players=r.players,
            options=dict(r.options),
            seats=seats,
            you=you,
            host=self.host_conn is conn,
            started=self.started,
            pause_seconds=self.pause_seconds,
            ai_takes_over=self.ai_takes_over,
        )

    def send_lobby(self) -> None:
        for c in self.conns():
            c.send(self.lobby(c))

    def send_lobby_to(self, conn: Conn) -> None:
        conn.send(self.lobby(conn))

    def broadcast(self, message: JsonObject) -> None:
        text = P.encode(message)
        for c in self.conns():
            c.send_text(text)


# ------------------------------------------------------------------------------ connections
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` kept: a message costs one."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = float(rate), float(burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        tokens = self.tokens + (now - self.stamp) * self.rate
        self.tokens = tokens if tokens < self.burst else self.burst
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def give_back(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1.0)


class Conn:
    """One client connection: its rate bucket, what it is (seated, host) and its outbox."""

    def __init__(self, ws: ServerConnection, number: int, flusher: Flusher | None = None):
        self.ws = ws
        #: The server's: what this connection is sent goes out at the end of the loop's turn.
        self.flusher = flusher if flusher is not None else Flusher()
        self.number = number
        self.name: str | None = None
        self.hello = False
        self.bucket = TokenBucket(P.RATE, P.BURST)
        self.slow_bucket = TokenBucket(P.SLOW_RATE, P.SLOW_BURST)
        self.excess = 0
        self.failures = 0
        self.created = 0
        #: Who this is for the quotas: the address (None: this machine) and the player's
        #: account id once known (game.online.server.accounts).
        self.address: str | None = None
        self.player: int | None = None
        #: Club manners: whose phrases and chat this connection does not want (``p:<id>`` for
        #: an account, ``n:<name key>`` for a name without one); when it last chatted; the
        #: accounts it made; the table it watches.
        self.muted: set[str] = set()
        self.last_chat = 0.0
        self.accounts_made = 0
        self.watching: Table | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.hosting: Table | None = None
        #: The host token as this connection gave it (to repeat it in ``created`` after a configure).
        self.host_token: str | None = None
        #: Let in on the reserve of a full server: may only rejoin a seat (game.online.server.server).
        self.rejoin_only = False
        self.out: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(OUT_QUEUE)
        self.closing = False
        #: What this turn of the event loop sent here, written at its end in one go
        #: (:meth:`flush`): a decision's ``events`` and ``turn`` cost one system call.
        self._batch: list[str] = []
        #: The writer task is sending a queued message (what comes next waits behind it).
        self._writing = False

    def admit(self) -> bool:
        """Take one message from the token bucket (RATE a second, BURST at once)."""
        if self.bucket.take():
            return True
        self.excess += 1
        return False

    def admit_slow(self) -> bool:
        """Take one token of the bucket of messages that write or fan out (publish, report,
        configure, kick, watch): SLOW_RATE a second, SLOW_BURST at once."""
        return self.slow_bucket.take()

    def refund(self) -> None:
        """Give back the message's token: an ``act`` the rules accepted. The game's own pace
        is then never limited (a decision can only be made once, when the seat is to act:
        such acts cannot flood), so bots play at full speed, while a flood of anything else —
        refused acts included — is."""
        self.bucket.give_back()

    def send(self, message: JsonObject) -> None:
        self.send_text(P.encode(message))

    def send_text(self, text: str) -> None:
        """Send an encoded message (one text for many connections: encoded once) at the end
        of this turn of the event loop, with whatever else this turn sends here."""
        if self.closing:
            return
        batch = self._batch
        if not batch:
            self.flusher.add(self)
        batch.append(text)

    def flush(self) -> None:
        """Write the batch now when the socket takes it without waiting (websockets' framing,
        one write); otherwise — a reader that is behind, a closing connection — queue it for
        the writer task (:meth:`run_writer`), which waits for the reader, in order."""
        batch, self._batch = self._batch, []
        if not batch:
            return
        try:
            written = not self._writing and self.out.empty() and _write_now(self.ws, batch)
        except Exception:  # noqa: BLE001 - a socket in a state only websockets' own send handles
            written = False
        if not written:
            for text in batch:
                try:
                    self.out.put_nowait(text)
                except asyncio.QueueFull:
                    self._batch = []
                    self.close(1008, "too slow: messages are waiting")
                    return

    async def run_writer(self) -> None:
        """Send what :meth:`flush` queued, in order, waiting for a slow reader; the closing
        frame last (:meth:`close`)."""
        ws = self.ws
        try:
            while True:
                item = await self.out.get()
                self._writing = True
                if isinstance(item, tuple):
                    await ws.close(*item)
                    return
                await ws.send(item)
                self._writing = False
        except ConnectionClosed:
            return

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after what is queued has been sent."""
        if self.closing:
            return
        self.flush()
        self.closing = True
        try:
            self.out.put_nowait((code, reason))
        except asyncio.QueueFull:
            asyncio.get_running_loop().create_task(self.ws.close(code, reason))


class Flusher:
    """A server's connections that were sent something in this turn of its event loop: each
    is flushed at the turn's end, all of them in one callback."""

    def __init__(self) -> None:
        self.dirty: list[Conn] = []
        self.scheduled = False

    def add(self, conn: Conn) -> None:
        if not self.scheduled:
            self.scheduled = True
            asyncio.get_running_loop().call_soon(self._at_turn_end)
        self.dirty.append(conn)

    def _at_turn_end(self) -> None:
        self.scheduled = False
        self.flush()

    def flush(self) -> None:
        """Write every connection's batch now (also called early: after the frames of one
        read, game.online.server.wsconn)."""
        dirty, self.dirty = self.dirty, []
        try:
            for conn in dirty:
                conn.flush()
        finally:
            _frames.clear()


def _write_now(ws: ServerConnection, texts: list[str]) -> bool:
    """Frame ``texts`` and hand them to the socket in one write, when the connection is open,
    no fragmented message is being sent and its buffer is below websockets' high-water mark
    (what websockets' own ``send`` would then do, less a task switch and a system call per
    message); False when it cannot, and nothing was written. The frames are websockets' own
    (RFC 6455: a server's text frame is unmasked; no extension is ever negotiated here, the
    server offers no compression), built here in one go."""
    # The connection's own attributes (websockets' Connection: ``transport`` once the handshake
    # is done, ``paused``, ``send_in_progress``), read directly: this runs for every seat at
    # every decision. A connection without them raises, and Conn.flush then queues the batch.
    protocol = ws.protocol
    transport = ws.transport
    if (
        ws.paused
        or ws.send_in_progress is not None
        or protocol.state is not _OPEN
        or protocol.extensions
        or transport.is_closing()
    ):
        return False
    parts = protocol.data_to_send()  # whatever websockets has waiting (a pong) goes first
    frames = _frames
    if len(frames) > _FRAMES_MAX:
        frames.clear()
    for text in texts:
        frame = frames.get(text)
        if frame is None:
            data = text.encode()
            n = len(data)
            head = bytes((0x81, n)) if n < 126 else _LONG.pack(0x81, 126, n) if n < 65536 else _HUGE.pack(0x81, 127, n)
            frame = frames[text] = head + data
        parts.append(frame)
    transport.write(b"".join(parts))  # one part: that part itself (bytes.join does not copy it)
    return True


#: The frames made in this flush, by their text: a text sent to several connections (a
#: public event, the turn the other seats watch) is encoded and framed once. Emptied after
#: each flush (:meth:`Flusher.flush`), and when it grows past _FRAMES_MAX.
_frames: dict[str, bytes] = {}
_FRAMES_MAX = 256


#: websockets' open state, looked up once (it is compared for every seat at every decision).
_OPEN = State.OPEN
#: A text frame's header (FIN, opcode 1) for a payload of 126 to 65,535 bytes, and longer.
_LONG = struct.Struct("!BBH")
_HUGE = struct.Struct("!BBQ")


#: What handles one checked client message (game.online.server.server's registry).
MessageHandler = Callable[[Conn, JsonObject], None]


class Refusal(Exception):
    """An ``error`` reply to the message being handled (the connection stays open)."""

    def __init__(self, code: str, message: str, close: bool = False, **extra: object):
        self.code, self.close, self.extra = code, close, extra
        super().__init__(message)


def unused_code(tables: Mapping[str, Table], exists: Callable[[str], bool]) -> str:
    """A new table code that no table has, open (``tables``) or kept (``exists``)."""
    code = P.new_code()
    while code in tables or exists(code):
        code = P.new_code()
    return code


__all__ = ["Conn", "Flusher", "MessageHandler", "Refusal", "Seat", "Table", "unused_code"]
