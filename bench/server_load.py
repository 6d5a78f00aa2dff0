"""Load benchmark of the table server: N tables of bot clients over the loopback interface.

    .venv/bin/python bench/server_load.py --tables 100 [--players 4] [--game scopa]
                                          [--seconds 20] [--think 0.5] [--server-core 1]
    .venv/bin/python bench/server_load.py --processes 2 --tables 500,1000,2000 --clients 2
    .venv/bin/python bench/server_load.py --processes 4 --tables 2000 --think 0.5 --clients 2
    .venv/bin/python bench/server_load.py --tables 300 --server-root /tmp/other-checkout   # A/B
    .venv/bin/python bench/server_load.py --tables 300 --profile /tmp/serve                # py-spy

Starts ``main.py serve`` as a subprocess on 127.0.0.1 (a free port, a temporary data
folder), pinned to one core when the system allows (os.sched_setaffinity; this process then
keeps to the other cores). Then runs N tables at once, every seat a friend's seat played by
its own websocket connection: each seat, when the ``turn`` is its, waits a random think time
(uniform, mean ``--think`` seconds), sends a random legal action and times the wait until the
``events`` it caused arrive. A table whose match ends is replaced by a new one (new
connections), so the load stays at N tables for ``--seconds``.

The seats are bench/rawws.py sockets (asyncio protocol callbacks, frames by hand, a timer per
think: no task per connection), so that the clients cost a fraction of what the server does
(``--ws-clients``: websockets' own asyncio clients, as before, several times that); their CPU
is printed beside the servers'. ``--clients K`` shares the tables among K client processes.

Prints decisions per second, the p50 / p99 / max time from sending a decision to receiving
its events, and the server's CPU seconds (utime + stime of /proc/<pid>/stat) and resident
memory (VmRSS of /proc/<pid>/status), in total and per table; then the figures the cost
issue asks for, in one block: server CPU per decision (user + system), decisions a second per
core of server, p50 / p99 of a decision's round trip, memory per busy table, the clients' CPU,
and how many of a sample of the run's records (``--verify``, 20) verify through the referee
(game.verify: whole when finished, as a prefix ending before a decision otherwise; read from
the data folder, or from Redis on a cluster). ``--tables 500,1000,2000`` makes one run per
size and names the largest held at p99 <= 50 ms. ``--profile PATH`` samples the server(s)
with py-spy over the measured window (PATH.<k>.txt, the top printed); ``--server-root DIR``
measures another checkout's server under the same clients (before/after, interleaved).
``--processes N`` runs a cluster: N ``serve`` on a real Redis and PostgreSQL started for the run.
``--server-loop NAME`` passes ``serve --event-loop NAME`` (auto, uvloop, asyncio); the clients
run on uvloop where it is installed (``--client-loop asyncio``: the standard loop).
``PY_SPY_BLOCKING=1`` makes ``--profile`` pause the server for each sample (whole stacks).

The club (issue 34) is active beside the tables with ``--spectators K`` (connections
watching public tables, switching table when one ends), ``--listeners L`` (connections
subscribed to the live list of open tables) and ``--quick Q`` (players with accounts playing
quick matches one after another; their decisions are timed too, and the wait from ``quick``
to ``quick_found``). ``--pairing N`` measures instead how long N players waiting at once take
to be paired (from the last ``quick`` sent to the last ``quick_found``), and the pairing
function alone on N waiting players.

Linux only (/proc). Exit code 0, or 1 when no decision was timed, a client saw errors or a
sampled record did not verify.
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


def cpu_split(pid: int) -> tuple[float, float]:
    """utime and stime of a process, in seconds (/proc/<pid>/stat, fields 14 and 15)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    return sum(cpu_split(pid))


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


#: The checkout whose ``main.py serve`` is measured (``--server-root``: an A/B comparison of
#: two versions of the server under the same bench, interleaved on the same machine).
SERVER_ROOT = ROOT


def start_server(
    port: int, data: Path, core: int | None, cluster: list[str] | None = None, connections: int = 0
) -> subprocess.Popen:
    """``main.py serve`` on ``port``; ``connections``: the seats it is to hold (its connection
    limit is raised to hold them all, with room for tables changing: the default 4,000 keeps
    a twentieth for players coming back)."""
    env = dict(os.environ)
    limit = max(4000, int(connections * 1.25) + 200)
    env.setdefault("CARDAVIA_HOME", str(data / "home"))
    p = subprocess.Popen(
        [
            sys.executable,
            str(SERVER_ROOT / "main.py"),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data / "tables"),
            "--max-connections",
            str(limit),
            *(cluster or []),
            *SERVER_FLAGS,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if cluster else subprocess.PIPE,
        text=True,
        cwd=SERVER_ROOT,
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
        #: Every table made (a sample of their records is verified after the run).
        self.codes: list[str] = []

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
            stats.codes.append(created["code"])
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


class RawSeat:
    """One seat of a table on a bench/rawws.py socket, driven by its callbacks (no task):
    answers during the table's setup go to an inbox; in play, the seat's ``turn`` is answered
    after the think time (a timer) with a random legal action (the policy is a coin: the
    server, not a bot, is measured), and the wait for the ``events`` it caused is timed."""

    def __init__(self, seat: int, stats: Stats, rng: random.Random, think: float, done: asyncio.Future) -> None:
        self.seat, self.stats, self.rng, self.think, self.done = seat, stats, rng, think, done
        self.sock: Any = None
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        self.setup = True
        self.sent_at: float | None = None
        self.waiting: int | None = None  # the decision whose act is on its timer
        self.timer: asyncio.TimerHandle | None = None

    def on_text(self, text: str) -> None:
        stats = self.stats
        # Most frames are other seats' news: look at the text first, parse only what matters.
        if text.startswith('{"type":"events"'):
            if self.sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - self.sent_at)
                    stats.decisions += 1
                self.sent_at = None
            return
        if text.startswith('{"type":"turn"'):
            if '"legal":[]' in text:
                return
            msg = json.loads(text)
            k = msg["decision"]
            if msg.get("seat") != self.seat or not msg.get("legal") or self.waiting == k:
                return
            if time.monotonic() >= stats.stop_at:
                self.finish()
                return
            self.waiting = k
            action = self.rng.choice(msg["legal"])
            delay = self.rng.uniform(0, 2 * self.think) if self.think > 0 else 0.0
            self.timer = asyncio.get_running_loop().call_later(delay, self.act, k, action)
            return
        if self.setup:
            self.inbox.put_nowait(json.loads(text))
        elif text.startswith('{"type":"over"'):
            stats.matches += 1
            self.finish()
        elif text.startswith(('{"type":"error"', '{"type":"refused"')):
            msg = json.loads(text)
            stats.error(f"{msg['type']}:{msg.get('code') or msg.get('rule')}")

    def act(self, k: int, action: object) -> None:
        self.timer = None
        self.sent_at = time.perf_counter()
        self.sock.send_text(P.encode({"type": "act", "decision": k, "action": action}))

    def finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def lost(self) -> None:
        if not self.done.done():
            self.done.set_exception(ConnectionError("the server closed a seat's connection"))
            self.done.exception()  # read by the table's await, or by nobody once the run is over

    def send(self, message: dict) -> None:
        self.sock.send_text(P.encode(message))

    async def expect(self, kind: str) -> dict:
        while True:
            msg = await asyncio.wait_for(self.inbox.get(), REPLY_TIMEOUT)
            if msg.get("type") == kind:
                return msg
            if msg.get("type") == "error":
                raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.sock is not None:
            self.sock.on_lost = None
            self.sock.close()


async def raw_table(
    url: str, game: str, players: int, options: dict, stats: Stats, rng: random.Random, think: float
) -> None:
    """One table after another until the run ends (as :func:`one_table`, on raw sockets)."""
    from rawws import open_raw

    loop = asyncio.get_running_loop()
    while time.monotonic() < stats.stop_at:
        done: asyncio.Future = loop.create_future()
        seats = [RawSeat(i, stats, random.Random(rng.random()), think, done) for i in range(players)]
        try:
            for s in seats:
                s.sock = await open_raw(url, s.on_text, s.lost, OPEN_TIMEOUT)
            for i, s in enumerate(seats):
                s.send({"type": "hello", "version": P.PROTOCOL_VERSION, "name": f"bench {i}"})
                await s.expect("welcome")
            seats[0].send(
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
            created = await seats[0].expect("created")
            stats.codes.append(created["code"])
            if stats.club:
                seats[0].send({"type": "publish", "public": True})
                await seats[0].expect("published")
                stats.public.append(created["code"])
                del stats.public[:-200]
            for i, s in enumerate(seats):
                s.send(
                    {"type": "join", "code": created["code"], "name": f"bench {i}", "token": created["tokens"][str(i)]}
                )
                await s.expect("joined")
                s.setup = False
                s.inbox = asyncio.Queue()
            stats.tables_started += 1
            await done
        except (OSError, TimeoutError, RuntimeError) as e:
            stats.error(f"table: {type(e).__name__}: {str(e)[:60]}")
            await asyncio.sleep(0.5)
        finally:
            for s in seats:
                s.close()


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
    ws_clients: bool = False,
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
    table_loop = one_table if ws_clients else raw_table
    for k in range(tables):
        tasks.append(
            asyncio.create_task(
                table_loop(urls[k % len(urls)], game, players, options, stats, random.Random(rng.random()), think)
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
        "split0": [cpu_split(p) for p in pids],
        "t0": time.monotonic(),
        "tables_at_start": stats.tables_started,
        "own0": cpu_seconds(os.getpid()),
    }
    stats.stop_at = time.monotonic() + seconds
    stats.measuring = True
    profile = start_profile(pids, seconds) if stats_hook is None else []
    await asyncio.sleep(seconds)
    stats.measuring = False
    measured["cpu1"] = [cpu_seconds(p) for p in pids]
    measured["split1"] = [cpu_split(p) for p in pids]
    measured["profile"] = profile
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


# ------------------------------------------------------------------------------ the clients' loop
#: ``--server-loop NAME``: passed to ``serve --event-loop`` (nothing passed without it: the
#: server's default, and a ``--server-root`` checkout from before the flag still starts).
SERVER_FLAGS: list[str] = []
#: ``--client-loop``: the clients' event loop (uvloop where installed, as the server's default).
CLIENT_LOOP = "auto"


def run_loop(coro: Any) -> Any:
    """Run the clients' coroutine on the loop ``--client-loop`` names, chosen as ``serve
    --event-loop`` chooses (uvloop where it is installed: the clients cost less CPU, so they
    take less from the servers)."""
    from game.online.server.server import ServerError
    from game.online.server.serving import loop_factory

    try:
        _name, factory = loop_factory(CLIENT_LOOP)
    except ServerError as e:
        raise SystemExit(f"--client-loop: {e}") from None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)


# ------------------------------------------------------------------------------ profile, records
#: ``--profile PATH``: py-spy samples the server processes over the measured window.
PROFILE: str | None = None


def start_profile(pids: list[int], seconds: float) -> list[subprocess.Popen]:
    """py-spy ``record`` on each server process for the measured window (raw stacks, one
    file per process: PATH.<k>.txt), or nothing without ``--profile``."""
    if PROFILE is None:
        return []
    spy = os.environ.get("PY_SPY") or shutil.which("py-spy")
    if spy is None:
        print("note: --profile needs py-spy (pip install py-spy, or PY_SPY=/path/to/py-spy): not profiled")
        return []
    return [
        subprocess.Popen(
            [
                spy,
                "record",
                "-p",
                str(pid),
                "-d",
                str(max(1, int(seconds))),
                "-r",
                "250",
                "-f",
                "raw",
                "-o",
                f"{PROFILE}.{k}.txt",
                # PY_SPY_BLOCKING=1: whole stacks (the process paused per sample); the
                # default non-blocking samples are cheaper but their stacks can be torn.
                *([] if os.environ.get("PY_SPY_BLOCKING") else ["--nonblocking"]),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for k, pid in enumerate(pids)
    ]


def profile_top(path: str, lines: int = 25) -> list[str]:
    """The functions a py-spy raw profile spent the most samples in (the waiting in
    ``select`` left out: the share of the busy samples), inclusive of what they call."""
    import collections

    incl: collections.Counter[str] = collections.Counter()
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if ".select (selectors.py" in frames[-1] or frames[-1].startswith("select (selectors.py"):
            continue
        n = int(count)
        total += n
        for name in {f.split(" (")[0] + " (" + f.split(" (")[-1].split(":")[0].split("/")[-1] + ")" for f in frames}:
            incl[name] += n
    out = [f"{100 * n / max(1, total):5.1f}%  {name}" for name, n in incl.most_common(lines + 12)]
    skip = ("runners.py", "base_events.py", "(main.py)", "(cli.py)", "run_forever (serving.py)")
    return [f"{total} busy samples"] + [line for line in out if not any(s in line for s in skip)][:lines]


def finish_profile(procs: list[subprocess.Popen]) -> None:
    for k, p in enumerate(procs):
        try:
            p.wait(60)
        except subprocess.TimeoutExpired:
            p.kill()
        path = f"{PROFILE}.{k}.txt"
        if Path(path).exists():
            print(f"  profile of server process {k} ({path}), inclusive:")
            for line in profile_top(path):
                print("    " + line)


def verify_sample(codes: list[str], read: Any, n: int) -> tuple[int, int, list[str]]:
    """Verify the records of up to ``n`` of the run's tables through the referee
    (game.verify: a finished record whole, a record still being played as a prefix that ends
    before a decision): (verified, checked, problems)."""
    from game.verify import verify_events, verify_prefix

    ok, checked, problems = 0, 0, []
    for code in random.Random(0).sample(codes, min(n, len(codes))):
        try:
            events = read(code)
        except Exception as e:  # noqa: BLE001 - a record that cannot be read counts as failed
            checked += 1
            problems.append(f"{code}: {e}")
            continue
        if not events:
            continue
        checked += 1
        v = verify_events(events) if events[-1].get("event") == "match_end" else verify_prefix(events)
        if v.ok:
            ok += 1
        else:
            problems.append(f"{code}: {v}")
    return ok, checked, problems


def read_file_record(folder: Path) -> Any:
    def read(code: str) -> list[dict]:
        path = folder / f"{code}.jsonl"
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    return read


def read_redis_record(url: str) -> Any:
    import redis as redis_sync

    from game.online.server.cluster.tables import RedisTableStore

    client = redis_sync.Redis.from_url(url)

    def read(code: str) -> list[dict]:
        entries = client.xrange(RedisTableStore.record_key(code))
        return [json.loads(raw) for _id, fields in entries for raw in (fields.get(b"d") or b"").split(b"\n") if raw]

    return read


# ------------------------------------------------------------------------------ the runs
def main(argv: list[str] | None = None) -> int:
    global PROFILE, SERVER_ROOT, CLIENT_LOOP
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tables",
        required=True,
        help="busy tables; several, comma-separated (500,1000,2000), make one run each and say the largest "
        "held at p99 <= 50 ms",
    )
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
        help="bench client processes the tables are shared among (default 1: the clients in this process)",
    )
    ap.add_argument(
        "--server-loop",
        choices=("auto", "uvloop", "asyncio"),
        help="the servers' event loop (serve --event-loop; default: serve's own default)",
    )
    ap.add_argument(
        "--client-loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="the bench clients' event loop (default auto: uvloop where installed)",
    )
    ap.add_argument("--client-of", help=argparse.SUPPRESS)  # a client process of a --clients run: its URLs
    ap.add_argument("--client-out", help=argparse.SUPPRESS)  # where that process writes its figures (JSON)
    ap.add_argument(
        "--processes",
        type=int,
        default=0,
        help="a cluster: this many server processes on a real Redis and PostgreSQL started for the run "
        "(serve --redis --database); the tables spread over them",
    )
    ap.add_argument(
        "--ws-clients",
        action="store_true",
        help="the tables' seats as websockets' asyncio clients (the bench before bench/rawws.py: several "
        "times the clients' CPU)",
    )
    ap.add_argument("--server-root", help="measure the main.py of this checkout instead (A/B comparisons)")
    ap.add_argument("--profile", metavar="PATH", help="py-spy the server(s) over the measured window (PATH.<k>.txt)")
    ap.add_argument("--verify", type=int, default=20, help="tables whose records are verified after the run (20)")
    args = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in str(args.tables).split(",")]
    except ValueError:
        ap.error("--tables takes whole numbers, comma-separated")
    if not sizes or min(sizes) < 1:
        ap.error("--tables must be at least 1")
    if args.clients < 1:
        ap.error("--clients must be at least 1")
    if args.server_root:
        SERVER_ROOT = Path(args.server_root).resolve()
        if not (SERVER_ROOT / "main.py").is_file():
            ap.error(f"--server-root: no main.py in {SERVER_ROOT}")
    PROFILE = args.profile
    CLIENT_LOOP = args.client_loop
    if args.server_loop:
        SERVER_FLAGS[:] = ["--event-loop", args.server_loop]
    from game.config import get_config

    config = get_config()
    if args.game not in config.games:
        ap.error(f"unknown game {args.game!r}")
    options = config.game(args.game).options_from_text(dict(o.split("=", 1) for o in args.option))
    # The clients' own garbage collector would pause this process for a few hundred ms now
    # and then with 2,000 connections, and the pause would be timed as the server's latency
    # (measured: p99 118 ms with it, 27 ms without, the same server). The run is short.
    gc.disable()
    if args.client_of:
        args.tables = sizes[0]
        return client_main(args, options)
    results = []
    for n in sizes:
        data = Path(tempfile.mkdtemp(prefix="cardavia-load-"))
        args.tables = n
        r = cluster_main(args, options, data) if args.processes else single_main(args, options, data)
        if r is None:
            return 0
        results.append(r)
    if len(results) > 1:
        held = [r["tables"] for r in results if r["p99"] <= 0.050]
        print(
            "largest load held at p99 <= 50 ms: "
            + (f"{max(held)} busy tables" if held else "none of " + ", ".join(str(r["tables"]) for r in results))
            + " ("
            + "; ".join(f"{r['tables']}: p99 {r['p99'] * 1000:.1f} ms" for r in results)
            + ")"
        )
    return 0 if all(r["ok"] for r in results) else 1


def figures(
    n: int,
    stats: Stats,
    m: dict,
    seconds: float,
    clients_cpu: float,
    rss_idle: int,
    verified: tuple[int, int, list[str]],
) -> dict:
    """The issue's figures for one run, printed in one block; the summary of the run."""
    wall = m["t1"] - m["t0"]
    cpu = sum(b - a for a, b in zip(m["cpu0"], m["cpu1"]))
    user = sum(b[0] - a[0] for a, b in zip(m["split0"], m["split1"]))
    system = sum(b[1] - a[1] for a, b in zip(m["split0"], m["split1"]))
    decisions = stats.decisions * wall / seconds if seconds else stats.decisions  # counted over each client's window
    lat = stats.latencies
    per = cpu / max(1, decisions)
    p99 = pct(lat, 0.99) if lat else float("inf")
    print(
        f"  server CPU per decision: {per * 1000:.3f} ms (user {user * 1000 / max(1, decisions):.3f} + system "
        f"{system * 1000 / max(1, decisions):.3f}); {1 / per if per else 0:.0f} decisions a second per core of server"
    )
    if lat:
        print(f"  round trip (act -> its events): p50 {pct(lat, 0.5) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    print(
        f"  server memory: {m['rss'] / 2**20:.1f} MiB, {(m['rss'] - rss_idle) / n / 1024:.0f} KiB per busy table; "
        f"bench clients {100 * clients_cpu / wall:.0f}% of a core ({clients_cpu * 1000 / max(1, decisions):.3f} ms "
        f"per decision) beside the servers' {100 * cpu / wall:.0f}%"
    )
    ok, checked, problems = verified
    print(f"  records verified: {ok} of {checked} sampled" + (f"; FAILED: {problems[:3]}" if problems else ""))
    finish_profile(m.get("profile") or [])
    return {
        "tables": n,
        "p99": p99,
        "ok": bool(lat) and not stats.errors and ok == checked,
    }


def single_main(args: argparse.Namespace, options: dict, data: Path) -> dict | None:
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    core = args.server_core if args.server_core is not None else (cores[-1] if cores else None)
    if args.no_pin:
        core = None
    port = free_port()
    server = start_server(port, data, core, connections=args.tables * args.players)
    if core is not None and len(cores) > 1:
        os.sched_setaffinity(0, set(cores) - {core})  # the clients keep off the server's core
    url = f"ws://127.0.0.1:{port}"
    try:
        if args.pairing:
            alone = pairing_alone(args.pairing)
            cpu0 = cpu_seconds(server.pid)
            got = run_loop(pairing(url, args.pairing))
            print(
                f"server_load --pairing {args.pairing}: all seated {got['seconds'] * 1000:.0f} ms after the last "
                f"'quick' ({got['tables']} tables, {got['filled']} filled by the computer); server CPU "
                f"{cpu_seconds(server.pid) - cpu0:.2f} s in all (the accounts included); "
                f"the pairing function alone: {alone * 1000:.1f} ms"
            )
            return None
        rss_idle = rss_bytes(server.pid)
        ramp = args.ramp if args.ramp is not None else args.tables / 50
        if args.clients > 1:
            stats, m, _redis = run_clients(args, [url], [server.pid], None)
        else:
            stats, m = run_loop(
                run(
                    url,
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
                    ws_clients=args.ws_clients,
                )
            )
        verified = verify_sample(stats.codes, read_file_record(data / "tables"), args.verify)
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
        f"{m['tables_at_start']} tables open, {'websockets' if args.ws_clients else 'raw'} clients in "
        f"{args.clients} process(es); server {SERVER_ROOT}"
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
    return figures(n, stats, m, wall, own, rss_idle, verified)


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
            said.append(True)
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
            ws_clients=args.ws_clients,
        )
        task.cancel()
        if not said:  # the window's end, said once whatever the marker task saw
            print("MEASURED", flush=True)
        return out

    stats_box: list[Stats] = []
    said: list[bool] = []
    stats, m = run_loop(go())
    # The figures go to a file, not through the pipe: a line of a few hundred KiB came back
    # to the parent cut at a buffer's boundary now and then (the parent then failed).
    Path(args.client_out).write_text(
        json.dumps(
            {
                "latencies": stats.latencies,
                "decisions": stats.decisions,
                "matches": stats.matches,
                "errors": stats.errors,
                "tables_at_start": m["tables_at_start"],
                "own": m["own1"] - m["own0"],
                "codes": stats.codes[-200:],
            }
        ),
        encoding="utf-8",
    )
    print("DONE", flush=True)
    return 0


def run_clients(args: argparse.Namespace, urls: list[str], pids: list[int], redis_pid: int | None) -> tuple:
    """``--clients K``: K client processes share the tables; the servers' CPU is read over
    the window in which every client measures."""
    share = [args.tables // args.clients + (1 if k < args.tables % args.clients else 0) for k in range(args.clients)]
    procs = []
    folder = Path(tempfile.mkdtemp(prefix="server-load-clients-"))
    outs = [folder / f"client{k}.json" for k in range(len(share))]
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
            *(["--ws-clients"] if args.ws_clients else []),
            "--client-loop",
            args.client_loop,
            "--client-out",
            str(outs[k]),
        ]
        if args.ramp is not None:
            cmd += ["--ramp", str(args.ramp)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT))
    for p in procs:  # every client in its measured window (bounded: the ramp and the settling)
        for _ in range(10_000):
            line = p.stdout.readline()
            if not line or line.startswith("MEASURING"):
                break
    m: dict = {
        "cpu0": [cpu_seconds(p) for p in pids],
        "split0": [cpu_split(p) for p in pids],
        "t0": time.monotonic(),
        "rss": 0,
        "children_rss": 0,
    }
    m["profile"] = start_profile(pids, args.seconds)
    redis0 = cpu_seconds(redis_pid) if redis_pid else 0.0
    results = []
    for p in procs:
        line = p.stdout.readline()  # MEASURED: the first one ends the servers' window
        m.setdefault("cpu1", [cpu_seconds(q) for q in pids])
        m.setdefault("split1", [cpu_split(q) for q in pids])
        m.setdefault("t1", time.monotonic())
        m.setdefault("redis", (cpu_seconds(redis_pid) - redis0) if redis_pid else 0.0)
        m["rss"] = m["rss"] or sum(rss_bytes(q) for q in pids)
        m["children_rss"] = m["children_rss"] or sum(rss_bytes(c) for q in pids for c in children(q))
    redis_cpu = m["redis"]
    for p, out in zip(procs, outs):
        p.stdout.read()  # to its end: the process has written its figures
        p.wait(60)
        try:
            results.append(json.loads(out.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            results.append({})
    shutil.rmtree(outs[0].parent, ignore_errors=True)
    stats = Stats()
    for r in results:
        stats.latencies += r.get("latencies", [])
        stats.decisions += r.get("decisions", 0)
        stats.matches += r.get("matches", 0)
        stats.errors.update(r.get("errors", {}))
        stats.codes += r.get("codes", [])
    stats.tables_started = m["tables_at_start"] = sum(r.get("tables_at_start", 0) for r in results)
    m["own0"], m["own1"] = 0.0, sum(r.get("own", 0.0) for r in results)
    return stats, m, redis_cpu


def cluster_main(args: argparse.Namespace, options: dict, data: Path) -> dict:
    """``--processes N``: N ``serve`` processes on one real Redis and PostgreSQL (started here
    in ``data``, stopped at the end); the figures in all and per process, and Redis's CPU."""
    from game.online.server.cluster.local import LocalPostgres, LocalRedis

    redis = LocalRedis(data / "redis")
    pg = LocalPostgres()
    servers, urls = [], []
    try:
        for k in range(args.processes):
            port = free_port()
            servers.append(
                start_server(
                    port,
                    data / f"p{k}",
                    None,
                    ["--redis", redis.url, "--database", pg.url],
                    connections=args.tables * args.players // args.processes,
                )
            )
            urls.append(f"ws://127.0.0.1:{port}")
        rss_idle = sum(rss_bytes(s.pid) for s in servers)
        ramp = args.ramp if args.ramp is not None else args.tables / 50
        if args.clients > 1:
            stats, m, redis_cpu = run_clients(args, urls, [s.pid for s in servers], redis.proc.pid)
        else:
            redis_cpu0 = cpu_seconds(redis.proc.pid)
            stats, m = run_loop(
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
                    ws_clients=args.ws_clients,
                )
            )
            redis_cpu = cpu_seconds(redis.proc.pid) - redis_cpu0
        verified = verify_sample(stats.codes, read_redis_record(redis.url), args.verify)
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
        f"measured {wall:.1f} s with {m['tables_at_start']} tables open, {os.cpu_count()} cores, "
        f"{'websockets' if args.ws_clients else 'raw'} clients in {args.clients} process(es); server {SERVER_ROOT}"
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
    return figures(n, stats, m, args.seconds, own * wall / args.seconds, rss_idle, verified)


if __name__ == "__main__":
    sys.exit(main())
