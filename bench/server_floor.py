"""The floor under bench/server_load.py: what the same sockets, frames and record writes cost a
server process that runs no game at all.

    .venv/bin/python bench/server_floor.py [--tables 500] [--players 4] [--think 0.5]
                                           [--seconds 20] [--server-loop auto|uvloop|asyncio]

A stand-in server (this file, ``--serve``) speaks just enough WebSocket for bench/rawws.py's
clients: the opening handshake, and whole text frames, unmasked with websockets' C mask. Its
tables are played from a corpus of real decisions, made before the clock starts: random Scopa
matches through the real rules, each decision's events as each seat's redactor shows them,
framed as the real server frames them (``events`` then ``turn`` in one write to each seat, the
seat to act's ``turn`` with its legal actions), and the record's lines as the real store writes
them. When a client's ``act`` comes, the stand-in reads it (unmask, UTF-8, ``json.loads``, the
decision's number and the seat checked), appends the decision's record lines to its table's
file (one ``os.write``, as game.online.server.store) and writes each seat its prebuilt frames
(one write per seat). So the system calls a decision makes are the real server's — a read, a
record write, one socket write per seat — and the game (the rules' check and ``apply``, the
redaction, the JSON of the events and the turn, the schema) costs nothing here.

The clients, the pinning (the stand-in on the last core, the clients on the others), the
think time and the measured window are bench/server_load.py's; the figures printed are its
too: the stand-in's CPU per decision (user + system, /proc/<pid>/stat) and the round trip.
What bench/server_load.py measures above this floor is the game's own work.

Linux only (/proc). Exit code 0, or 1 when no decision was timed or a client saw an error.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import cpu_seconds, cpu_split, free_port, pct  # noqa: E402
from websockets.speedups import apply_mask  # noqa: E402

#: Decisions of the corpus a table may play from its (random) start: a table makes about two a
#: second, so this is several minutes of play.
TABLE_SPAN = 1000
#: RFC 6455's key suffix for Sec-WebSocket-Accept.
WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC11B65"


# ------------------------------------------------------------------------------ the corpus
def frame(text: str) -> bytes:
    """A server's text frame (unmasked, FIN), as game.online.server.seats writes it."""
    data = text.encode()
    n = len(data)
    head = bytes((0x81, n)) if n < 126 else bytes((0x81, 126)) + n.to_bytes(2, "big")
    return head + data


def corpus(players: int, size: int, seed: int) -> tuple[list[int], list[bytes], list[list[bytes]]]:
    """``size`` decisions of random Scopa matches for ``players``: for decision j, the seat
    that makes it, its record lines (bytes, as the file store writes them) and, per seat, the
    frames the server writes that seat after it (its view of the events, then the next turn;
    the next turn's frames for decision j + 1 carry that number)."""
    from game.match import Match
    from game.online.server.turns import events_text, turn_text
    from game.online.wire.redact import SeatRedactor
    from game.record import dumps
    from game.rulesets import make_rules

    rules = make_rules("scopa", players=players)
    rng = random.Random(seed)
    actors: list[int] = []
    legals: list[list] = []
    records: list[bytes] = []
    seen: list[list[str]] = []
    m = None
    redactors: list[SeatRedactor] = []
    while len(actors) < size + 1:
        if m is None or m.over:
            m = Match(rules, rng.getrandbits(64))
            m.start()
            redactors = [SeatRedactor(rules, s) for s in range(players)]
            for r in redactors:
                r.feed(m.events)
        seat = m.to_act
        assert seat is not None
        legal = m.legal_actions()
        start = len(m.events)
        events = m.play(rng.choice(legal))
        actors.append(seat)
        legals.append(legal)
        records.append("".join(dumps(ev) + "\n" for ev in events).encode())
        seen.append([events_text(start, redactors[s].feed(events)) for s in range(players)])
    # After decision j each seat is sent its view of j's events, then the turn of decision j + 1
    # (across a match's end too: the corpus is one long run of decisions).
    frames = [
        [
            frame(seen[j][s]) + frame(turn_text(actors[j + 1], j + 1, legals[j + 1] if s == actors[j + 1] else ()))
            for s in range(players)
        ]
        for j in range(size)
    ]
    del actors[size:], records[size:]
    return actors, records, frames


def first_turns(actors: list[int]) -> list[bytes]:
    """The frame that opens decision j's turn to its seat, for a table starting at j."""
    return [
        frame(json.dumps({"type": "turn", "seat": a, "decision": j, "legal": [{}]}, separators=(",", ":")))
        for j, a in enumerate(actors)
    ]


# ------------------------------------------------------------------------------ the stand-in server
class FloorTable:
    __slots__ = ("conns", "fd", "k", "joined")

    def __init__(self, players: int, fd: int, start: int) -> None:
        self.conns: list[FloorConn | None] = [None] * players
        self.fd = fd
        self.k = start
        self.joined = 0


class FloorServer:
    def __init__(self, players: int, folder: Path, size: int, seed: int) -> None:
        self.players = players
        self.folder = folder
        self.actors, self.records, self.frames = corpus(players, size, seed)
        self.opening = first_turns(self.actors)
        self.tables: dict[int, FloorTable] = {}
        self.rng = random.Random(seed)
        self.refused = 0

    def join(self, conn: FloorConn, table: int, seat: int) -> None:
        t = self.tables.get(table)
        if t is None:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
            fd = os.open(self.folder / f"{table}.jsonl", flags, 0o644)
            t = self.tables[table] = FloorTable(self.players, fd, self.rng.randrange(len(self.actors) - TABLE_SPAN))
        t.conns[seat] = conn
        t.joined += 1
        conn.table, conn.seat = t, seat
        if t.joined == self.players:
            actor = t.conns[self.actors[t.k]]
            if actor is not None:
                actor.transport.write(self.opening[t.k])

    def act(self, conn: FloorConn, decision: int) -> None:
        t = conn.table
        if t is None or decision != t.k or t.k >= len(self.actors) or conn.seat != self.actors[t.k]:
            self.refused += 1
            return
        k = t.k
        t.k = k + 1
        os.write(t.fd, self.records[k])
        per_seat = self.frames[k]
        for s, c in enumerate(t.conns):
            if c is not None and not c.transport.is_closing():
                c.transport.write(per_seat[s])

    def leave(self, conn: FloorConn) -> None:
        t = conn.table
        if t is None:
            return
        for s, c in enumerate(t.conns):
            if c is conn:
                t.conns[s] = None


class FloorConn(asyncio.Protocol):
    def __init__(self, server: FloorServer) -> None:
        self.server = server
        self.transport: asyncio.Transport = None  # type: ignore[assignment]
        self.buf = b""
        self.handshaking = True
        self.table: FloorTable | None = None
        self.seat: int | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.leave(self)

    def data_received(self, data: bytes) -> None:
        if self.handshaking:
            self.buf += data
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            key = b""
            for line in self.buf[:end].split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"sec-websocket-key":
                    key = value.strip()
            accept = base64.b64encode(hashlib.sha1(key + WS_GUID).digest())
            self.transport.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
            )
            data, self.buf, self.handshaking = self.buf[end + 4 :], b"", False
            if not data:
                return
        # Whole masked text frames, as the real server's fast path reads them (wsconn.FrameSink).
        pos, n = 0, len(data)
        while pos < n:
            if data[pos] & 0x0F == 0x8:  # close
                self.transport.close()
                return
            length, head = data[pos + 1] & 0x7F, pos + 2
            if length == 126:
                length, head = int.from_bytes(data[head : head + 2], "big"), head + 2
            end = head + 4 + length
            msg = json.loads(apply_mask(data[head + 4 : end], data[head : head + 4]).decode())
            pos = end
            if "act" in msg:
                self.server.act(self, msg["act"])
            else:
                self.server.join(self, msg["table"], msg["seat"])


def serve(port: int, folder: Path, players: int, size: int, seed: int, loop_name: str) -> None:
    from game.online.server.serving import loop_factory

    name, factory = loop_factory(loop_name)
    server = FloorServer(players, folder, size, seed)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        srv = await loop.create_server(lambda: FloorConn(server), "127.0.0.1", port, backlog=4096)
        print(f"floor server on {port} ({name} event loop, {len(server.actors)} decisions)", flush=True)
        async with srv:
            await srv.serve_forever()

    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main())


# ------------------------------------------------------------------------------ the clients
class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.decisions = 0
        self.measuring = False
        self.errors = 0


class FloorSeat:
    def __init__(self, table: int, seat: int, stats: Stats, rng: random.Random, think: float) -> None:
        self.table, self.seat, self.stats, self.rng, self.think = table, seat, stats, rng, think
        self.sock = None
        self.sent_at: float | None = None
        self.prefix = f'{{"type":"turn","seat":{seat},'

    def on_text(self, text: str) -> None:
        if text.startswith('{"type":"events"'):
            if self.sent_at is not None:
                if self.stats.measuring:
                    self.stats.latencies.append(time.perf_counter() - self.sent_at)
                    self.stats.decisions += 1
                self.sent_at = None
            return
        if text.startswith(self.prefix) and '"legal":[]' not in text:
            k = json.loads(text)["decision"]
            delay = self.rng.uniform(0, 2 * self.think)
            asyncio.get_running_loop().call_later(delay, self.act, k)

    def act(self, k: int) -> None:
        self.sent_at = time.perf_counter()
        self.sock.send_text(f'{{"act":{k}}}')

    def lost(self) -> None:
        self.stats.errors += 1


async def clients(port: int, tables: int, players: int, think: float, seconds: float, ramp: float, pid: int) -> dict:
    from rawws import open_raw

    stats = Stats()
    rng = random.Random(1)
    seats = []
    for t in range(tables):
        for s in range(players):
            seat = FloorSeat(t, s, stats, random.Random(rng.random()), think)
            seat.sock = await open_raw(f"ws://127.0.0.1:{port}", seat.on_text, seat.lost, 30.0)
            seats.append(seat)
        for seat in seats[-players:]:
            seat.sock.send_text(json.dumps({"table": t, "seat": seat.seat}))
        if ramp > 0:
            await asyncio.sleep(ramp / tables)
    await asyncio.sleep(1.0)  # the last tables' first turns
    cpu0, split0, own0, t0 = cpu_seconds(pid), cpu_split(pid), cpu_seconds(os.getpid()), time.monotonic()
    stats.measuring = True
    await asyncio.sleep(seconds)
    stats.measuring = False
    cpu1, split1, own1, t1 = cpu_seconds(pid), cpu_split(pid), cpu_seconds(os.getpid()), time.monotonic()
    for seat in seats:
        seat.sock.on_lost = None
        seat.sock.close()
    return {
        "decisions": stats.decisions,
        "latencies": stats.latencies,
        "errors": stats.errors,
        "server_cpu": cpu1 - cpu0,
        "user": split1[0] - split0[0],
        "system": split1[1] - split0[1],
        "clients_cpu": own1 - own0,
        "wall": t1 - t0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--think", type=float, default=0.5, help="mean think time per decision, seconds (0.5)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds (20)")
    ap.add_argument("--ramp", type=float, help="seconds over which the tables are opened (tables/50)")
    ap.add_argument("--server-loop", default="auto", help="the stand-in's event loop: auto, uvloop, asyncio")
    ap.add_argument("--client-loop", default="auto", help="the clients' event loop")
    ap.add_argument("--corpus", type=int, default=40_000, help="decisions made before the clock starts")
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.tables < 1 or args.players < 2 or args.seconds <= 0 or args.think < 0 or args.corpus < 2 * TABLE_SPAN:
        ap.error(f"--tables >= 1, --players >= 2, --seconds > 0, --think >= 0, --corpus >= {2 * TABLE_SPAN}")
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.players, args.corpus, 1, args.server_loop)
        return 0

    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="cardavia-floor-") as folder:
        p = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port), folder, "--players", str(args.players)]
            + ["--corpus", str(args.corpus), "--server-loop", args.server_loop],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            if len(cores) > 1:
                os.sched_setaffinity(p.pid, {cores[-1]})
                os.sched_setaffinity(0, set(cores[:-1]))
            line = p.stdout.readline() if p.stdout is not None else ""
            if "floor server on" not in line:
                print(f"the stand-in server did not start: {line.strip()}")
                return 1
            from game.online.server.serving import loop_factory

            _name, factory = loop_factory(args.client_loop)
            ramp = args.ramp if args.ramp is not None else args.tables / 50
            with asyncio.Runner(loop_factory=factory) as runner:
                r = runner.run(clients(port, args.tables, args.players, args.think, args.seconds, ramp, p.pid))
        finally:
            p.kill()
            p.wait()
    n = r["decisions"]
    print(
        f"server_floor: {args.tables} tables of {args.players}, think {args.think} s, "
        f"{line.strip()}, measured {r['wall']:.1f} s"
    )
    if not n:
        print("no decision was timed")
        return 1
    ms = 1000 * r["server_cpu"] / n
    print(f"  decisions: {n} ({n / r['wall']:.0f}/s)")
    print(
        f"  stand-in server CPU per decision: {ms:.3f} ms "
        f"(user {1000 * r['user'] / n:.3f} + system {1000 * r['system'] / n:.3f})"
    )
    lat = r["latencies"]
    print(f"  round trip (act -> its events): p50 {1000 * pct(lat, 0.5):.1f} ms, p99 {1000 * pct(lat, 0.99):.1f} ms")
    print(f"  bench clients: {1000 * r['clients_cpu'] / n:.3f} ms per decision")
    if r["errors"]:
        print(f"  connections lost: {r['errors']}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
