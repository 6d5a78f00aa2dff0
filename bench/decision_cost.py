"""The server's own work per decision, without the sockets: the game's part of what
bench/server_load.py measures (bench/server_floor.py measures the rest, the sockets' part).

    .venv/bin/python bench/decision_cost.py [--tables 50] [--decisions 20000] [--repeat 5]
    .venv/bin/python bench/decision_cost.py --compare /tmp/other-checkout   # A/B, alternated

A real ``TableServer`` (files store, in a temporary folder) in this process, on a running
event loop, with connections whose socket is a stand-in that keeps what is written to it:
each seat says hello, the first creates a table of friends, all join, then the seats play,
each ``act`` given to the server as the server's frame reader gives it (``_frame``, then the
flush at the end of the read). What the server writes goes through the real path
(``Conn.flush``: the frames built, one write per seat), up to the stand-in's ``write``.
Only the server's calls are timed (``time.thread_time`` around each act and its flush); the
stand-in clients read their turn and choose a random legal action outside the clock.

Prints the server's CPU per decision (the median of ``--repeat`` runs) and, with
``--compare DIR``, the same for the checkout in DIR, run alternately in fresh processes, and
the ratio of the medians. The figure leaves out the system calls (a socket write costs the
stand-in nothing), the event loop and the TCP stack: it is the Python the game and the
protocol cost a decision, the part a change to the server's code can move.

The deals come from ``--seed`` (not from ``secrets``, as the server's do), so a run is the same
cards every time: counted in instructions it repeats to a few in ten thousand, whatever else the
machine does. Per decision, the difference of two lengths (the set-up cancels out):

    for n in 500 2500; do PYTHONHASHSEED=0 COST_ROOT=/path/to/checkout valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null .venv/bin/python bench/decision_cost.py --one --tables 200 \
        --decisions $n 2>&1 | grep Collected; done    # (second - first) / 2000
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class StandInTransport:
    """What the server's ``_write_now`` writes to: nothing leaves, the last frames are kept."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return False


class StandInProtocol:
    def __init__(self) -> None:
        from websockets.protocol import State

        self.state = State.OPEN
        self.extensions: list = []

    def data_to_send(self) -> list[bytes]:
        return []


class StandInConnection:
    """Enough of websockets' ServerConnection for the server's write path."""

    def __init__(self) -> None:
        self.transport = StandInTransport()
        self.protocol = StandInProtocol()
        self.paused = False
        self.send_in_progress = None
        self.remote_address = ("127.0.0.1", 1)
        self.request = None


def texts_of(data: bytes) -> list[str]:
    """The text frames in what the server wrote (unmasked server frames)."""
    out, pos = [], 0
    while pos < len(data):
        n, head = data[pos + 1] & 0x7F, pos + 2
        if n == 126:
            n, head = int.from_bytes(data[head : head + 2], "big"), head + 2
        elif n == 127:
            n, head = int.from_bytes(data[head : head + 8], "big"), head + 8
        out.append(data[head : head + n].decode())
        pos = head + n
    return out


async def measure(tables: int, players: int, decisions: int, seed: int) -> float:
    """Seconds of the server's CPU per decision over ``decisions`` decisions at ``tables`` tables."""
    sys.path.insert(0, os.environ.get("COST_ROOT", str(ROOT)))  # --compare: the other checkout's game
    from game.online.server.seats import Conn
    from game.online.server.server import TableServer
    from game.online.server.turns import legal_now
    from game.online.wire import protocol as P

    rng = random.Random(seed)
    # The deals from the bench's own seed, not from ``secrets``: two runs (two checkouts) play
    # the same cards, so that their counts compare exactly (under valgrind, say).
    deals = random.Random(seed)
    P.new_seed = lambda: deals.getrandbits(P.SEED_BITS)
    with tempfile.TemporaryDirectory(prefix="cardavia-cost-") as folder:
        server = TableServer(Path(folder))
        flusher = server._flusher
        number = 0

        def connect() -> Conn:
            nonlocal number
            number += 1
            conn = Conn(StandInConnection(), number, flusher)  # type: ignore[arg-type]
            server.conns.add(conn)
            return conn

        def say(conn: Conn, message: dict) -> list[dict]:
            flusher.scheduled = True  # as the frame reader does: one flush after the read
            server._frame(conn, json.dumps(message))
            flusher.flush()
            flusher.scheduled = False
            out = []
            for data in conn.ws.transport.written:  # type: ignore[attr-defined]
                out += [json.loads(t) for t in texts_of(data)]
            conn.ws.transport.written.clear()  # type: ignore[attr-defined]
            return out

        def new_table() -> list[Conn]:
            conns = [connect() for _ in range(players)]
            for i, c in enumerate(conns):
                say(c, {"type": "hello", "version": 1, "name": f"bench {i}"})
            create = {
                "type": "create",
                "game": "scopa",
                "deck": None,
                "players": players,
                "options": {},
                "seats": ["friend"] * players,
                "pause_seconds": 60,
                "ai_takes_over": True,
            }
            created = next(m for m in say(conns[0], create) if m["type"] == "created")
            for i, c in enumerate(conns):
                say(
                    c,
                    {"type": "join", "code": created["code"], "name": f"bench {i}", "token": created["tokens"][str(i)]},
                )
            return conns

        seats = [new_table() for _ in range(tables)]

        def turn_of(conns: list[Conn]) -> tuple[Conn, int, list] | None:
            table = conns[0].table
            m = table.match if table is not None else None
            if m is None or m.over:
                return None
            # The actions the server's turn offered (worked out once per position, kept on the
            # match): the clients' side costs little beside the server's.
            return conns[m.to_act], len(m.decisions), legal_now(m)

        # COST_PROFILE=PATH: cProfile of the timed calls only, written to PATH (pstats).
        profile = cProfile.Profile() if os.environ.get("COST_PROFILE") else None
        spent = 0.0
        made = 0
        order = list(range(tables))
        while made < decisions:
            rng.shuffle(order)
            for t in order:
                turn = turn_of(seats[t])
                if turn is None:  # a finished match: a new table in its place (set up off the clock)
                    seats[t] = new_table()
                    turn = turn_of(seats[t])
                    assert turn is not None
                conn, k, legal = turn
                action = P.action_to_json(rng.choice(legal))
                text = P.encode({"type": "act", "decision": k, "action": action})
                if profile is not None:
                    profile.enable()
                start = time.thread_time()
                flusher.scheduled = True
                server._frame(conn, text)
                flusher.flush()
                flusher.scheduled = False
                spent += time.thread_time() - start
                if profile is not None:
                    profile.disable()
                made += 1
                for c in seats[t]:
                    c.ws.transport.written.clear()  # type: ignore[attr-defined]
        played = sum(len(t.match.decisions) for t in server.tables.values() if t.match is not None)
        if played != made:  # each act must have been a decision the rules took
            raise SystemExit(f"{made} acts sent, {played} decisions made: the bench is out of step")
        for t in server.tables.values():
            server.store.finished(t.code)
        if profile is not None:
            profile.dump_stats(os.environ["COST_PROFILE"])
        return spent / made


def one(args: argparse.Namespace) -> float:
    return asyncio.run(measure(args.tables, args.players, args.decisions, args.seed))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--decisions", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", metavar="DIR", help="another checkout, measured alternately")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # one run, its figure printed
    args = ap.parse_args(argv)
    if args.tables < 1 or args.decisions < 1 or args.repeat < 1:
        ap.error("--tables, --decisions and --repeat are at least 1")
    if args.one:
        print(one(args))
        return 0
    roots = {"this tree": ROOT} | ({"--compare": Path(args.compare).resolve()} if args.compare else {})
    figures: dict[str, list[float]] = {name: [] for name in roots}
    for _ in range(args.repeat):
        for name, root in roots.items():
            cmd = [sys.executable, str(Path(__file__).resolve()), "--one"]
            cmd += ["--tables", str(args.tables), "--players", str(args.players)]
            cmd += ["--decisions", str(args.decisions), "--seed", str(args.seed)]
            env_root = str(root)
            out = subprocess.run(
                cmd, capture_output=True, text=True, cwd=env_root, env={**os.environ, "COST_ROOT": env_root}
            )
            if out.returncode != 0:
                print(out.stderr[-2000:])
                return 1
            figures[name].append(float(out.stdout.strip().splitlines()[-1]))
    print(
        f"decision_cost: {args.tables} tables of {args.players} (scopa), {args.decisions} decisions a run, "
        f"{args.repeat} runs, server CPU (thread time) per decision:"
    )
    medians = {}
    for name, values in figures.items():
        medians[name] = statistics.median(values)
        shown = ", ".join(f"{1e6 * v:.1f}" for v in values)
        print(
            f"  {name} ({roots[name]}): {shown} µs; median {1e6 * medians[name]:.1f}, least {1e6 * min(values):.1f} µs"
        )
    if args.compare:
        # Load on the machine only adds time: the least of each is the steadier comparison.
        ratio_least = min(figures["this tree"]) / min(figures["--compare"])
        print(
            f"  this tree / --compare: {medians['this tree'] / medians['--compare']:.3f} (medians), "
            f"{ratio_least:.3f} (least)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
