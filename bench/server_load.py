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

The club (issue 34) is active beside the tables with ``--spectators K`` (connections
watching public tables, switching table when one ends), ``--listeners L`` (connections
subscribed to the live list of open tables) and ``--quick Q`` (players with accounts playing
quick matches one after another; their decisions are timed too, and the wait from ``quick``
to ``quick_found``). ``--pairing N`` measures instead how long N players waiting at once take
to be paired (from the last ``quick`` sent to the last ``quick_found``), and the pairing
function alone on N waiting players.

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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from game.online.wire import protocol as P  # noqa: E402

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
    fields = text[text.rindex(")") + 2 :].split()
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


def start_server(port: int, data: Path, core: int | None, cluster: list[str] | None = None) -> subprocess.Popen:
    env = dict(os.environ)
    env.setdefault("CARDAVIA_HOME", str(data / "home"))
    p = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data / "tables"),
            *(cluster or []),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if cluster else subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
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
        self.club = False
        #: When the run ends (set once every table is open).
        self.stop_at = float("inf")
        #: The club: public tables' codes (for the spectators), frames the spectators and the
        #: list's listeners received, quick matches played and their waits.
        self.public: list[str] = []
        self.spectator_frames = 0
        self.list_frames = 0
        self.quick_matches = 0
        self.quick_waits: list[float] = []

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
    return await connect(
        url,
        open_timeout=OPEN_TIMEOUT,
        close_timeout=2,
        max_size=2**22,
        compression=None,
        proxy=None,
        ping_interval=None,
    )


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


async def one_table(
    url: str, game: str, players: int, options: dict, stats: Stats, rng: random.Random, think: float
) -> None:
    """One table after another until the run ends, each with its own connections (on a
    cluster, every table on the process ``url`` names: as a router by code would send it)."""
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
            await conns[0].send(
                P.encode(
                    {
                        "type": "create",
                        "game": game,
                        "deck": None,
                        "players": players,
                        "options": options,
                        "seats": ["friend"] * players,
                        "pause_seconds": 60,
                        "ai_takes_over": True,
                    }
                )
            )
            created = await _expect(conns[0], "created")
            if stats.club:
                await buckets[0].take()
                await conns[0].send(P.encode({"type": "publish", "public": True}))
                await _expect(conns[0], "published")
                stats.public.append(created["code"])
                del stats.public[:-200]
            for i, ws in enumerate(conns):
                await buckets[i].take()
                await ws.send(
                    P.encode(
                        {
                            "type": "join",
                            "code": created["code"],
                            "name": f"bench {i}",
                            "token": created["tokens"][str(i)],
                        }
                    )
                )
                await _expect(ws, "joined")
            stats.tables_started += 1
            await asyncio.gather(
                *(seat_loop(ws, buckets[i], i, stats, random.Random(rng.random()), think) for i, ws in enumerate(conns))
            )
        except (OSError, TimeoutError, RuntimeError, ConnectionClosed) as e:
            stats.error(f"table: {type(e).__name__}: {str(e)[:60]}")
            await asyncio.sleep(0.5)
        finally:
            for ws in conns:
                try:
                    await ws.close()
                except Exception:  # noqa: BLE001 - closing what the server may already have closed
                    pass


async def spectator(url: str, stats: Stats, rng: random.Random) -> None:
    """Watch a public table; another when its match ends (or every 20 s)."""
    ws = await _open(url)
    bucket = Bucket()
    try:
        await ws.send(P.encode({"type": "hello", "version": P.PROTOCOL_VERSION, "name": "watcher"}))
        await _expect(ws, "welcome")
        while time.monotonic() < stats.stop_at:
            if not stats.public:
                await asyncio.sleep(0.5)
                continue
            await bucket.take()
            await ws.send(P.encode({"type": "watch", "code": rng.choice(stats.public)}))
            until = time.monotonic() + 20
            while time.monotonic() < min(until, stats.stop_at):
                try:
                    frame = await asyncio.wait_for(ws.recv(), 5)
                except TimeoutError:
                    continue
                stats.spectator_frames += 1
                if '"match_end"' in frame or frame.startswith('{"type":"error"'):
                    break
    except (OSError, ConnectionClosed, TimeoutError, RuntimeError) as e:
        stats.error(f"spectator: {type(e).__name__}")
    finally:
        await ws.close()


async def listener(url: str, stats: Stats) -> None:
    """Subscribed to the lobby's live list of open tables."""
    ws = await _open(url)
    try:
        await ws.send(P.encode({"type": "hello", "version": P.PROTOCOL_VERSION, "name": "lister"}))
        await _expect(ws, "welcome")
        await ws.send(P.encode({"type": "tables"}))
        while time.monotonic() < stats.stop_at:
            try:
                await asyncio.wait_for(ws.recv(), 5)
            except TimeoutError:
                continue
            stats.list_frames += 1
    except (OSError, ConnectionClosed, TimeoutError, RuntimeError) as e:
        stats.error(f"listener: {type(e).__name__}")
    finally:
        await ws.close()


async def quick_player(url: str, number: int, stats: Stats, rng: random.Random, think: float) -> None:
    """A player with an account playing quick matches (scopa) one after another."""
    ws = await _open(url)
    bucket = Bucket()
    name = f"q{number}-{rng.randrange(10**6)}"
    try:
        await ws.send(P.encode({"type": "hello", "version": P.PROTOCOL_VERSION, "name": name}))
        await _expect(ws, "welcome")
        await ws.send(P.encode({"type": "account", "name": name, "secret": None}))
        await _expect(ws, "account")
        while time.monotonic() < stats.stop_at:
            await bucket.take()
            asked = time.perf_counter()
            await ws.send(P.encode({"type": "quick", "game": "scopa", "preset": None}))
            found = await _expect(ws, "quick_found")
            if stats.measuring:
                stats.quick_waits.append(time.perf_counter() - asked)
            await bucket.take()
            await ws.send(P.encode({"type": "join", "code": found["code"], "name": name, "token": found["token"]}))
            await _expect(ws, "joined")
            await seat_loop(ws, bucket, found["seat"], stats, rng, think)
            stats.quick_matches += 1
    except (OSError, ConnectionClosed, TimeoutError, RuntimeError) as e:
        stats.error(f"quick: {type(e).__name__}: {str(e)[:40]}")
    finally:
        await ws.close()


async def pairing(url: str, n: int) -> dict:
    """N players with accounts ask for a quick match at once: how long until all are seated."""
    conns = []
    for i in range(n):
        ws = await _open(url)
        await ws.send(P.encode({"type": "hello", "version": P.PROTOCOL_VERSION, "name": f"p{i}"}))
        await _expect(ws, "welcome")
        await ws.send(P.encode({"type": "account", "name": f"pair{i}-{random.randrange(10**6)}", "secret": None}))
        await _expect(ws, "account")
        conns.append(ws)
    for ws in conns:
        await ws.send(P.encode({"type": "quick", "game": "scopa", "preset": None}))
    sent = time.perf_counter()
    founds = await asyncio.gather(*(_expect(ws, "quick_found") for ws in conns))
    done = time.perf_counter()
    for ws in conns:
        await ws.close()
    return {
        "seconds": done - sent,
        "tables": len({f["code"] for f in founds}),
        "filled": sum(1 for f in founds if f["filled"]),
    }


def pairing_alone(n: int) -> float:
    """The pairing function itself on n waiting players (ratings spread as a club's)."""
    from game.online.server.quick import Waiting, pair

    rng = random.Random(1)
    now = time.monotonic()
    waiting = [Waiting(object(), i, rng.gauss(25, 6), now - rng.uniform(0, 30), set()) for i in range(n)]
    t = time.perf_counter()
    pair(waiting, 2, now, 30.0)
    return time.perf_counter() - t


async def run(
    url: str | list[str],
    tables: int,
    game: str,
    players: int,
    options: dict,
    seconds: float,
    think: float,
    ramp: float,
    server_pid: int | list[int],
    seed: int,
    club: tuple[int, int, int] = (0, 0, 0),
    stats_hook: Any = None,
) -> tuple[Stats, dict]:
    urls = url if isinstance(url, list) else [url]
    pids = server_pid if isinstance(server_pid, list) else [server_pid]
    url = urls[0]
    stats = Stats()
    if stats_hook is not None:
        stats_hook(stats)
    stats.club = any(club)
    rng = random.Random(seed)
    tasks = []
    spectators, listeners, quick = club
    for i in range(quick):
        tasks.append(asyncio.create_task(quick_player(url, i, stats, random.Random(rng.random()), think)))
    for _ in range(listeners):
        tasks.append(asyncio.create_task(listener(url, stats)))
    for _ in range(spectators):
        tasks.append(asyncio.create_task(spectator(url, stats, random.Random(rng.random()))))
    for k in range(tables):
        tasks.append(
            asyncio.create_task(
                one_table(urls[k % len(urls)], game, players, options, stats, random.Random(rng.random()), think)
            )
        )
        if ramp > 0:
            await asyncio.sleep(ramp / tables)  # connections are opened over the ramp, not at once
    for _ in range(int(10 * REPLY_TIMEOUT)):  # every table open (bounded), then a moment to settle
        if stats.tables_started >= tables:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    measured: dict = {
        "cpu0": [cpu_seconds(p) for p in pids],
        "t0": time.monotonic(),
        "tables_at_start": stats.tables_started,
        "own0": cpu_seconds(os.getpid()),
    }
    stats.stop_at = time.monotonic() + seconds
    stats.measuring = True
    await asyncio.sleep(seconds)
    stats.measuring = False
    measured["cpu1"] = [cpu_seconds(p) for p in pids]
    measured["own1"] = cpu_seconds(os.getpid())
    measured["t1"] = time.monotonic()
    measured["rss"] = sum(rss_bytes(p) for p in pids)
    measured["children_rss"] = sum(rss_bytes(c) for p in pids for c in children(p))
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
    ap.add_argument("--spectators", type=int, default=0, help="connections watching public tables")
    ap.add_argument("--listeners", type=int, default=0, help="connections following the live list of tables")
    ap.add_argument("--quick", type=int, default=0, help="players playing quick matches (two-player scopa)")
    ap.add_argument("--pairing", type=int, default=0, help="only measure pairing this many waiting players")
    ap.add_argument(
        "--clients",
        type=int,
        default=1,
        help="with --processes: bench client processes the tables are shared among (default 1)",
    )
    ap.add_argument("--client-of", help=argparse.SUPPRESS)  # a client process of a --clients run: its URLs
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        help="a cluster: this many server processes on a real Redis and PostgreSQL started for the run "
        "(serve --redis --database); the tables spread over them",
    )
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
    if args.client_of:
        return client_main(args, options)
    data = Path(tempfile.mkdtemp(prefix="cardavia-load-"))
    if args.processes:
        return cluster_main(args, options, data)
    port = free_port()
    server = start_server(port, data, core)
    if core is not None and len(cores) > 1:
        os.sched_setaffinity(0, set(cores) - {core})  # the clients keep off the server's core
    try:
        if args.pairing:
            alone = pairing_alone(args.pairing)
            cpu0 = cpu_seconds(server.pid)
            got = asyncio.run(pairing(f"ws://127.0.0.1:{port}", args.pairing))
            print(
                f"server_load --pairing {args.pairing}: all seated {got['seconds'] * 1000:.0f} ms after the last "
                f"'quick' ({got['tables']} tables, {got['filled']} filled by the computer); server CPU "
                f"{cpu_seconds(server.pid) - cpu0:.2f} s in all (the accounts included); "
                f"the pairing function alone: {alone * 1000:.1f} ms"
            )
            return 0
        rss_idle = rss_bytes(server.pid)
        ramp = args.ramp if args.ramp is not None else args.tables / 50
        stats, m = asyncio.run(
            run(
                f"ws://127.0.0.1:{port}",
                args.tables,
                args.game,
                args.players,
                options,
                args.seconds,
                args.think,
                ramp,
                server.pid,
                args.seed,
                (args.spectators, args.listeners, args.quick),
            )
        )
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)
    wall = m["t1"] - m["t0"]
    cpu = m["cpu1"][0] - m["cpu0"][0]
    lat = stats.latencies
    n = args.tables
    extra = args.spectators + args.listeners + args.quick
    print(
        f"server_load: {n} tables of {args.players} ({args.game}), {n * args.players + extra} connections "
        f"({args.spectators} spectators, {args.listeners} on the lobby's list, {args.quick} in quick matches), "
        f"think {args.think:g} s, server pinned to core {core}, measured {wall:.1f} s with "
        f"{m['tables_at_start']} tables open"
    )
    print(
        f"  decisions: {stats.decisions} ({stats.decisions / wall:.0f}/s); matches finished {stats.matches}, "
        f"tables started {stats.tables_started}"
    )
    if lat:
        print(
            f"  decision -> its events: p50 {pct(lat, 0.50) * 1000:.1f} ms, p99 {pct(lat, 0.99) * 1000:.1f} ms, "
            f"max {max(lat) * 1000:.1f} ms, mean {statistics.fmean(lat) * 1000:.1f} ms"
        )
    print(
        f"  server CPU: {cpu:.2f} s in {wall:.1f} s ({100 * cpu / wall:.0f}% of one core), "
        f"{1000 * cpu / max(1, stats.decisions):.2f} ms per decision, "
        f"{100 * cpu / wall / n:.2f}% of a core per table"
    )
    print(
        f"  server RSS: {m['rss'] / 2**20:.1f} MiB (idle {rss_idle / 2**20:.1f} MiB), "
        f"{(m['rss'] - rss_idle) / n / 1024:.0f} KiB per table; worker processes {m['children_rss'] / 2**20:.1f} MiB"
    )
    own = m["own1"] - m["own0"]
    print(
        f"  bench clients: {100 * own / wall:.0f}% of a core (near 100%: the clients, not the server, "
        f"set the latency); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )
    if extra:
        waits = stats.quick_waits
        print(
            f"  club: {stats.spectator_frames} frames to spectators, {stats.list_frames} list updates, "
            f"{stats.quick_matches} quick matches played"
            + (
                f", quick -> quick_found p50 {pct(waits, 0.5) * 1000:.1f} ms, p99 {pct(waits, 0.99) * 1000:.1f} ms"
                if waits
                else ""
            )
        )
    if stats.errors:
        print(f"  errors: {stats.errors}")
    return 0 if lat and not stats.errors else 1


def client_main(args: argparse.Namespace, options: dict) -> int:
    """One client process of a ``--clients K`` run: its share of the tables; says MEASURING
    when its measured window starts and prints its figures as one JSON line at the end."""
    urls = args.client_of.split(",")
    ramp = args.ramp if args.ramp is not None else args.tables / 50

    async def go() -> tuple[Stats, dict]:
        async def mark() -> None:
            while not stats_box or not stats_box[0].measuring:
                await asyncio.sleep(0.01)
            print("MEASURING", flush=True)
            while stats_box[0].measuring:
                await asyncio.sleep(0.01)
            print("MEASURED", flush=True)

        task = asyncio.create_task(mark())
        out = await run(
            urls,
            args.tables,
            args.game,
            args.players,
            options,
            args.seconds,
            args.think,
            ramp,
            [os.getpid()],
            args.seed,
            stats_hook=stats_box.append,
        )
        task.cancel()
        return out

    stats_box: list[Stats] = []
    stats, m = asyncio.run(go())
    print(
        json.dumps(
            {
                "latencies": stats.latencies,
                "decisions": stats.decisions,
                "matches": stats.matches,
                "errors": stats.errors,
                "tables_at_start": m["tables_at_start"],
                "own": m["own1"] - m["own0"],
            }
        ),
        flush=True,
    )
    return 0


def run_clients(args: argparse.Namespace, urls: list[str], pids: list[int], redis_pid: int) -> tuple:
    """``--clients K``: K client processes share the tables; the servers' CPU is read over
    the window in which every client measures."""
    share = [args.tables // args.clients + (1 if k < args.tables % args.clients else 0) for k in range(args.clients)]
    procs = []
    for k, n in enumerate(share):
        cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--client-of",
            ",".join(urls),
            "--tables",
            str(n),
            "--players",
            str(args.players),
            "--game",
            args.game,
            "--seconds",
            str(args.seconds),
            "--think",
            str(args.think),
            "--seed",
            str(args.seed * 100 + k),
            *sum((["--option", o] for o in args.option), []),
        ]
        if args.ramp is not None:
            cmd += ["--ramp", str(args.ramp)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT))
    for p in procs:  # every client in its measured window (bounded: the ramp and the settling)
        for _ in range(10_000):
            line = p.stdout.readline()
            if not line or line.startswith("MEASURING"):
                break
    m: dict = {"cpu0": [cpu_seconds(p) for p in pids], "t0": time.monotonic()}
    redis0 = cpu_seconds(redis_pid)
    results = []
    for p in procs:
        line = p.stdout.readline()  # MEASURED: the first one ends the servers' window
        m.setdefault("cpu1", [cpu_seconds(q) for q in pids])
        m.setdefault("t1", time.monotonic())
        m.setdefault("redis", cpu_seconds(redis_pid) - redis0)
    redis_cpu = m["redis"]
    for p in procs:
        line = p.stdout.readline()
        results.append(json.loads(line) if line.strip().startswith("{") else {})
        p.wait(60)
    stats = Stats()
    for r in results:
        stats.latencies += r.get("latencies", [])
        stats.decisions += r.get("decisions", 0)
        stats.matches += r.get("matches", 0)
        stats.errors.update(r.get("errors", {}))
    m["tables_at_start"] = sum(r.get("tables_at_start", 0) for r in results)
    m["own0"], m["own1"] = 0.0, sum(r.get("own", 0.0) for r in results)
    return stats, m, redis_cpu


def cluster_main(args: argparse.Namespace, options: dict, data: Path) -> int:
    """``--processes N``: N ``serve`` processes on one real Redis and PostgreSQL (started here
    in ``data``, stopped at the end); the figures in all and per process, and Redis's CPU."""
    from game.online.server.cluster.local import LocalPostgres, LocalRedis

    redis = LocalRedis(data / "redis")
    pg = LocalPostgres()
    servers, urls = [], []
    try:
        for k in range(args.processes):
            port = free_port()
            servers.append(start_server(port, data / f"p{k}", None, ["--redis", redis.url, "--database", pg.url]))
            urls.append(f"ws://127.0.0.1:{port}")
        ramp = args.ramp if args.ramp is not None else args.tables / 50
        if args.clients > 1:
            stats, m, redis_cpu = run_clients(args, urls, [s.pid for s in servers], redis.proc.pid)
        else:
            redis_cpu0 = cpu_seconds(redis.proc.pid)
            stats, m = asyncio.run(
                run(
                    urls,
                    args.tables,
                    args.game,
                    args.players,
                    options,
                    args.seconds,
                    args.think,
                    ramp,
                    [s.pid for s in servers],
                    args.seed,
                )
            )
            redis_cpu = cpu_seconds(redis.proc.pid) - redis_cpu0
    finally:
        for s in servers:
            s.send_signal(signal.SIGTERM)
        for s in servers:
            try:
                s.wait(30)
            except subprocess.TimeoutExpired:
                s.kill()
        redis.stop()
        pg.stop()
        shutil.rmtree(data, ignore_errors=True)
    wall = m["t1"] - m["t0"]
    per = [b - a for a, b in zip(m["cpu0"], m["cpu1"])]
    cpu, lat, n = sum(per), stats.latencies, args.tables
    rate = stats.decisions / args.seconds  # every client counts over its own --seconds
    print(
        f"server_load --processes {args.processes}: {n} tables of {args.players} ({args.game}), "
        f"{n * args.players} connections, think {args.think:g} s, Redis + PostgreSQL on 127.0.0.1, "
        f"measured {wall:.1f} s with {m['tables_at_start']} tables open, {os.cpu_count()} cores"
    )
    print(f"  decisions: {stats.decisions} ({rate:.0f}/s); matches finished {stats.matches}")
    if lat:
        print(
            f"  decision -> its events: p50 {pct(lat, 0.50) * 1000:.1f} ms, p99 {pct(lat, 0.99) * 1000:.1f} ms, "
            f"max {max(lat) * 1000:.1f} ms"
        )
    print(
        f"  servers' CPU: {cpu:.2f} s in {wall:.1f} s ({100 * cpu / wall:.0f}% of one core), "
        f"{1000 * cpu / max(1e-9, rate * wall):.2f} ms per decision, {n / max(1e-9, cpu / wall):.0f} tables per "
        f"core-second held; Redis {100 * redis_cpu / wall:.0f}% of a core"
    )
    for k, c in enumerate(per):
        print(f"  process {k}: {100 * c / wall:.0f}% of a core, ~{n // args.processes} tables")
    own = m["own1"] - m["own0"]
    print(f"  bench clients: {100 * own / args.seconds:.0f}% of a core; load average {os.getloadavg()[0]:.2f}")
    if stats.errors:
        print(f"  errors: {stats.errors}")
    return 0 if lat and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
