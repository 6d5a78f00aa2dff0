"""Failover drill of the cluster: kill the owner of N tables, and time until every table
plays again (docs/ONLINE.md, "The cluster").

    .venv/bin/python bench/failover.py [--tables 100] [--think 0.05] [--seed 1]

Starts a real Redis and PostgreSQL on 127.0.0.1 (game.online.server.cluster.local) and two
``main.py serve --redis … --database …`` processes, A and B. N two-player Briscola tables
(a friend against the computer) are made on A; each friend is a client that connects to B
(its first address, as behind a load balancer), is sent on to A (``moved``), plays random
legal cards after a think time and, like the game's own client, goes back to B whenever its
connection drops and joins again with its token. Once every table has made a few decisions,
A is killed with SIGKILL. B takes the tables when their leases expire (10 s) and the clients
come back on their own.

Prints: the time from the kill until every table plays again (the first new decision after
the kill; p50 / max over the tables), the lost decisions (a decision a client saw that the
finished record does not have, in that place: the server sends a decision only once Redis
has it, so this must be 0), the doubled ones (the finished records replayed by ``verify``),
and how many matches finished. Exit code 0 when every table finished with nothing lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from game.online.server.cluster.local import LocalPostgres, LocalRedis, free_port  # noqa: E402
from game.online.wire import protocol as P  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from server_load import start_server  # noqa: E402  (the same `serve` start and check as the load test)

#: Every wait of the drill is bounded: a table that has not finished by then counts as failed.
DRILL_SECONDS = 180.0


class Seat:
    """One friend's seat, played by a client that rejoins by itself."""

    def __init__(self, code: str, token: str, home: str, rng: random.Random, think: float):
        self.code, self.token, self.home, self.rng, self.think = code, token, home, rng, think
        self.events: list[dict] = []
        self.last_event_at = 0.0
        self.first_after_kill: float | None = None
        self.record: str | None = None
        self.seat: int | None = None
        self.reconnects = 0

    async def run(self, kill: dict, deadline: float) -> None:
        url = self.home
        while self.record is None and time.monotonic() < deadline:
            try:
                async with connect(url, open_timeout=5, max_size=2**22, compression=None) as ws:
                    await ws.send(P.encode({"type": "hello", "version": 1, "name": "drill"}))
                    await ws.send(P.encode({"type": "join", "code": self.code, "name": "drill", "token": self.token}))
                    url = await self._play(ws, kill, deadline)
            except (OSError, ConnectionClosed, TimeoutError):
                url = self.home
                self.reconnects += 1
                await asyncio.sleep(0.25)

    async def _play(self, ws, kill: dict, deadline: float) -> str:
        while time.monotonic() < deadline:
            m = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
            kind = m.get("type")
            if kind == "error" and m.get("code") in ("moved", "busy"):
                target = m.get("url")
                if m["code"] == "busy" or not target:
                    await asyncio.sleep(1.0)
                    return self.home
                return target
            if kind == "joined":
                self.seat = m["seat"]
            elif kind == "events":
                start = m["from"]
                if start == 0 or start <= len(self.events):
                    grew = start + len(m["events"]) > len(self.events)
                    self.events[start:] = m["events"]
                    now = time.monotonic()
                    if (
                        grew
                        and "at" in kill
                        and now > kill["at"]
                        and self.first_after_kill is None
                        and any(ev.get("event") == "play" for ev in m["events"])
                    ):
                        self.first_after_kill = now
                    self.last_event_at = now
            elif kind == "turn" and m.get("seat") == self.seat and m.get("legal"):
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
                await ws.send(
                    P.encode({"type": "act", "decision": m["decision"], "action": self.rng.choice(m["legal"])})
                )
            elif kind == "over":
                self.record = m["record"]
                return self.home
        return self.home

    def plays(self) -> list[tuple[int, str]]:
        return [(ev["seat"], ev["card"]) for ev in self.events if ev.get("event") == "play"]


async def drill(args: argparse.Namespace, a_url: str, b_url: str, a: subprocess.Popen) -> dict:
    rng = random.Random(args.seed)
    seats: list[Seat] = []
    for _ in range(args.tables):  # made on A (its host leaves at once: the friend's seat is the table)
        async with connect(a_url, open_timeout=10) as ws:
            await ws.send(P.encode({"type": "hello", "version": 1, "name": "host"}))
            await ws.send(
                P.encode(
                    {
                        "type": "create",
                        "game": "briscola",
                        "deck": None,
                        "players": 2,
                        "options": {},
                        "seats": ["friend", "ai:easy"],
                        "pause_seconds": 600,
                        "ai_takes_over": False,
                    }
                )
            )
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m.get("type") == "created":
                    break
        seats.append(Seat(m["code"], m["tokens"]["0"], b_url, random.Random(rng.random()), args.think))
    kill: dict = {}
    deadline = time.monotonic() + DRILL_SECONDS
    tasks = [asyncio.create_task(s.run(kill, deadline)) for s in seats]
    # Every table a few decisions in (bounded), then A dies.
    for _ in range(int(DRILL_SECONDS * 10)):
        if all(len(s.plays()) >= 4 for s in seats):
            break
        await asyncio.sleep(0.1)
    before = {s.code: s.plays() for s in seats}
    kill["at"] = time.monotonic()
    a.send_signal(signal.SIGKILL)
    await asyncio.wait(tasks, timeout=DRILL_SECONDS)
    for t in tasks:
        t.cancel()
    return {"seats": seats, "before": before, "killed_at": kill["at"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--think", type=float, default=0.05, help="mean think time of the friends (seconds)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not 1 <= args.tables <= 2000:
        ap.error("--tables must be 1 to 2000")
    folder = Path(tempfile.mkdtemp(prefix="cardavia-failover-"))
    redis, pg = LocalRedis(folder / "redis"), LocalPostgres()
    pa, pb = free_port(), free_port()
    cluster = ["--redis", redis.url, "--database", pg.url]
    a = start_server(pa, folder / "a", None, cluster)
    b = start_server(pb, folder / "b", None, cluster)
    try:
        out = asyncio.run(drill(args, f"ws://127.0.0.1:{pa}", f"ws://127.0.0.1:{pb}", a))
    finally:
        for p in (a, b):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
        redis.stop()
        pg.stop()
    from game.record import read_record
    from game.verify import verify_file

    seats, before, killed = out["seats"], out["before"], out["killed_at"]
    back = sorted(s.first_after_kill - killed for s in seats if s.first_after_kill is not None)
    finished = [s for s in seats if s.record]
    lost = doubled = 0
    for s in finished:
        record = read_record(s.record)
        plays = [(ev["seat"], ev["card"]) for ev in record if ev.get("event") == "play"]
        if plays[: len(before[s.code])] != before[s.code]:
            lost += 1
        if not verify_file(s.record).ok:
            doubled += 1
    shutil.rmtree(folder, ignore_errors=True)
    print(
        f"failover: {args.tables} tables (briscola, a friend against the computer) on process A, their clients "
        f"entering through B; A killed with SIGKILL after {min(len(p) for p in before.values())}+ decisions each"
    )
    if back:
        print(
            f"  every table played again {back[-1]:.1f} s after the kill (p50 {back[len(back) // 2]:.1f} s; "
            f"{len(back)} of {len(seats)} tables; the lease lasts 10 s)"
        )
    print(
        f"  finished {len(finished)} of {len(seats)} matches; lost decisions: {lost} tables; records that do not "
        f"verify: {doubled}; reconnects {sum(s.reconnects for s in seats)}"
    )
    ok = len(finished) == len(seats) and lost == 0 and doubled == 0 and len(back) == len(seats)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
