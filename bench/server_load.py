"""Load benchmark of the table server: N tables of bot clients over the loopback interface.

    .venv/bin/python bench/server_load.py --tables 100 [--players 4] [--game scopa]
                                          [--seconds 20] [--think 0.5] [--server-core 1]

Starts ``main.py serve`` as a subprocess on 127.0.0.1 (a free port, a temporary data
folder), pinned to one core when the system allows (os.sched_setaffinity; this process then
keeps to the other cores). Then runs N tables at once, every seat a friend's seat played by
its own websocket connection (asyncio websockets clients in this process): each seat, when
the ``turn`` is its, waits a random think time (uniform, mean ``--think`` seconds), sends a
random legal action and times the wait until the ``events`` it caused arrive. A table whose
match ends is replaced by a new one (new connections), so the load stays at N tables for
``--seconds``. Each connection keeps under the server's rate limit by itself.

Prints decisions per second, the p50 / p99 / max time from sending a decision to receiving
its events, and the server's CPU seconds (utime + stime of /proc/<pid>/stat) and resident
memory (VmRSS of /proc/<pid>/status), in total and per table. The issue's goal: 500
four-seat tables (2,000 connections) with p99 ≤ 50 ms, the server on one core.

Linux only (/proc). Exit code 0, or 1 when no decision was timed or a client saw errors.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from game.online import protocol as P  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
#: Seconds allowed for opening one connection and for any one awaited reply.
OPEN_TIMEOUT = 30.0
REPLY_TIMEOUT = 60.0


# ------------------------------------------------------------------------------ the server process
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds (/proc/<pid>/stat, fields 14 and 15)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def start_server(port: int, data: Path, core: int | None) -> subprocess.Popen:
    env = dict(os.environ)
    env.setdefault("CARDAVIA_HOME", str(data / "home"))
    p = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "serve", "--host", "127.0.0.1", "--port", str(port),
                          "--data", str(data / "tables")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT, env=env)
    if core is not None:
        try:
            os.sched_setaffinity(p.pid, {core})
        except OSError as e:
            print(f"note: could not pin the server to core {core} ({e})")
    line = p.stdout.readline()
    if "cardavia server on" not in line:
        p.kill()
        raise SystemExit(f"the server did not start: {line.strip()} {p.stderr.read()[:500]}")
    return p


# ------------------------------------------------------------------------------ the clients
class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.decisions = 0
        self.matches = 0
        self.tables_started = 0
        self.errors: dict[str, int] = {}
        self.measuring = False
        #: When the run ends (set once every table is open).
        self.stop_at = float("inf")

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Bucket:
    """The client's own pacing under the server's rate limit (a little below it)."""

    def __init__(self) -> None:
        self.tokens, self.stamp = float(P.BURST) - 1, time.monotonic()

    async def take(self) -> None:
        now = time.monotonic()
        rate = P.RATE * 0.9
        self.tokens = min(float(P.BURST) - 1, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1.0:
            await asyncio.sleep((1.0 - self.tokens) / rate)
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1.0


async def _open(url: str):
    return await connect(url, open_timeout=OPEN_TIMEOUT, close_timeout=2, max_size=2 ** 22, compression=None,
                         proxy=None, ping_interval=None)


async def _expect(ws, kind: str) -> dict:
    deadline = time.monotonic() + REPLY_TIMEOUT
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {kind!r} reply")
        msg = json.loads(await asyncio.wait_for(ws.recv(), left))
        if msg.get("type") == kind:
            return msg
        if msg.get("type") == "error":
            raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")


async def seat_loop(ws, bucket: Bucket, seat: int, stats: Stats, rng: random.Random, think: float) -> None:
    """Play one seat until the match is over (or the run ends)."""
    sent_at: float | None = None
    while True:
        try:
            frame = await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT)
        except (TimeoutError, ConnectionClosed):
            return
        # Most frames are other seats' news: look at the text first, parse only what matters
        # (the clients share one core; the server is what is measured).
        if frame.startswith('{"type":"events"'):
            if sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.decisions += 1
                sent_at = None
            continue
        if frame.startswith('{"type":"turn"') and '"legal":[]' in frame:
            continue
        msg = json.loads(frame)
        kind = msg.get("type")
        if kind == "turn" and msg.get("seat") == seat and msg.get("legal"):
            if time.monotonic() >= stats.stop_at:
                return
            if think > 0:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            action = rng.choice(msg["legal"])
            await bucket.take()
            sent_at = time.perf_counter()
            await ws.send(P.encode({"type": "act", "decision": msg["decision"], "action": action}))
        elif kind == "over":
            stats.matches += 1
            return
        elif kind in ("error", "refused"):
            stats.error(f"{kind}:{msg.get('code') or msg.get('rule')}")


async def one_table(url: str, game: str, players: int, options: dict, stats: Stats, rng: random.Random,
                    think: float) -> None:
    """One table after another until the run ends, each with its own connections."""
    while time.monotonic() < stats.stop_at:
        conns = []
        try:
            for _ in range(players):
                conns.append(await _open(url))
            buckets = [Bucket() for _ in conns]
            for i, ws in enumerate(conns):
                await buckets[i].take()
                await ws.send(P.encode({"type": "hello", "version": P.PROTOCOL_VERSION, "name": f"bench {i}"}))
                await _expect(ws, "welcome")
            await buckets[0].take()
            await conns[0].send(P.encode({"type": "create", "game": game, "deck": None, "players": players,
                                          "options": options, "seats": ["friend"] * players,
                                          "pause_seconds": 60, "ai_takes_over": True}))
            created = await _expect(conns[0], "created")
            for i, ws in enumerate(conns):
                await buckets[i].take()
                await ws.send(P.encode({"type": "join", "code": created["code"], "name": f"bench {i}",
                                        "token": created["tokens"][str(i)]}))
                await _expect(ws, "joined")
            stats.tables_started += 1
            await asyncio.gather(*(seat_loop(ws, buckets[i], i, stats, random.Random(rng.random()), think)
                                   for i, ws in enumerate(conns)))
        except (OSError, TimeoutError, RuntimeError, ConnectionClosed) as e:
            stats.error(f"table: {type(e).__name__}: {str(e)[:60]}")
            await asyncio.sleep(0.5)
        finally:
            for ws in conns:
                try:
                    await ws.close()
                except Exception:  # noqa: BLE001 - closing what the server may already have closed
                    pass


async def run(url: str, tables: int, game: str, players: int, options: dict, seconds: float, think: float,
              ramp: float, server_pid: int, seed: int) -> tuple[Stats, dict]:
    stats = Stats()
    rng = random.Random(seed)
    tasks = []
    for _ in range(tables):
        tasks.append(asyncio.create_task(one_table(url, game, players, options, stats, random.Random(rng.random()),
                                                   think)))
        if ramp > 0:
            await asyncio.sleep(ramp / tables)  # connections are opened over the ramp, not at once
    for _ in range(int(10 * REPLY_TIMEOUT)):  # every table open (bounded), then a moment to settle
        if stats.tables_started >= tables:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    measured: dict = {"cpu0": cpu_seconds(server_pid), "t0": time.monotonic(), "tables_at_start": stats.tables_started,
                      "own0": cpu_seconds(os.getpid())}
    stats.stop_at = time.monotonic() + seconds
    stats.measuring = True
    await asyncio.sleep(seconds)
    stats.measuring = False
    measured["cpu1"] = cpu_seconds(server_pid)
    measured["own1"] = cpu_seconds(os.getpid())
    measured["t1"] = time.monotonic()
    measured["rss"] = rss_bytes(server_pid)
    measured["children_rss"] = sum(rss_bytes(c) for c in children(server_pid))
    # The load is what was measured: stop every table now (their connections close in
    # their ``finally``), without waiting for the seats still waiting for a turn.
    for t in tasks:
        t.cancel()
    await asyncio.wait(tasks, timeout=10)
    return stats, measured


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, required=True)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="scopa")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds (after the ramp)")
    ap.add_argument("--think", type=float, default=0.5, help="mean think time per decision, seconds (default 0.5)")
    ap.add_argument("--ramp", type=float, help="seconds over which the tables are opened (default tables/50)")
    ap.add_argument("--server-core", type=int, help="the core the server is pinned to (default: the last one)")
    ap.add_argument("--no-pin", action="store_true", help="leave the server and the clients to the scheduler")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.tables < 1:
        ap.error("--tables must be at least 1")
    from game.config import get_config

    config = get_config()
    if args.game not in config.games:
        ap.error(f"unknown game {args.game!r}")
    options = config.game(args.game).options_from_text(dict(o.split("=", 1) for o in args.option))

    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    core = args.server_core if args.server_core is not None else (cores[-1] if cores else None)
    if args.no_pin:
        core = None
    # The clients' own garbage collector would pause this process for a few hundred ms now
    # and then with 2,000 connections, and the pause would be timed as the server's latency
    # (measured: p99 118 ms with it, 27 ms without, the same server). The run is short.
    gc.disable()
    data = Path(tempfile.mkdtemp(prefix="cardavia-load-"))
    port = free_port()
    server = start_server(port, data, core)
    if core is not None and len(cores) > 1:
        os.sched_setaffinity(0, set(cores) - {core})  # the clients keep off the server's core
    try:
        rss_idle = rss_bytes(server.pid)
        ramp = args.ramp if args.ramp is not None else args.tables / 50
        stats, m = asyncio.run(run(f"ws://127.0.0.1:{port}", args.tables, args.game, args.players, options,
                                   args.seconds, args.think, ramp, server.pid, args.seed))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)
    wall = m["t1"] - m["t0"]
    cpu = m["cpu1"] - m["cpu0"]
    lat = stats.latencies
    n = args.tables
    print(f"server_load: {n} tables of {args.players} ({args.game}), {n * args.players} connections, "
          f"think {args.think:g} s, server pinned to core {core}, measured {wall:.1f} s with "
          f"{m['tables_at_start']} tables open")
    print(f"  decisions: {stats.decisions} ({stats.decisions / wall:.0f}/s); matches finished {stats.matches}, "
          f"tables started {stats.tables_started}")
    if lat:
        print(f"  decision -> its events: p50 {pct(lat, 0.50) * 1000:.1f} ms, p99 {pct(lat, 0.99) * 1000:.1f} ms, "
              f"max {max(lat) * 1000:.1f} ms, mean {statistics.fmean(lat) * 1000:.1f} ms")
    print(f"  server CPU: {cpu:.2f} s in {wall:.1f} s ({100 * cpu / wall:.0f}% of one core), "
          f"{1000 * cpu / max(1, stats.decisions):.2f} ms per decision, "
          f"{100 * cpu / wall / n:.2f}% of a core per table")
    print(f"  server RSS: {m['rss'] / 2**20:.1f} MiB (idle {rss_idle / 2**20:.1f} MiB), "
          f"{(m['rss'] - rss_idle) / n / 1024:.0f} KiB per table; worker processes {m['children_rss'] / 2**20:.1f} MiB")
    own = m["own1"] - m["own0"]
    print(f"  bench clients: {100 * own / wall:.0f}% of a core (near 100%: the clients, not the server, "
          f"set the latency); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if stats.errors:
        print(f"  errors: {stats.errors}")
    return 0 if lat and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
