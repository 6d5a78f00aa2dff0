"""The process the kill test kills: runs a Swiss tournament (sixty players, nine rounds) and a
tournament of the day's entries through the SQLite store of DIR as fast as it can, printing
``ack KIND ID VALUE`` after each change is committed (what the store must keep whatever the
moment of the kill). Run: python -m tests.online.server.events.writer_child DIR"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path

from game.online.server.events.store import SqliteEventStore
from game.online.server.events.swiss import Swisses
from game.online.server.events.tourday import TourOfDay

T0 = dt.datetime(2026, 12, 7, 18, 0)
START = T0 + dt.timedelta(hours=1)
PLAYERS, ROUNDS = 60, 9


def main(folder: Path) -> None:
    store = SqliteEventStore(folder)
    swisses = Swisses(store)
    tod = TourOfDay(store, deals=2)
    sid = swisses.create(None, "briscola", "standard", ROUNDS, START, T0)
    tid = tod.ensure("2026-12-07", "briscola", None, T0)
    print(f"ids {sid} {tid}", flush=True)
    for k in range(PLAYERS):
        swisses.register(sid, [f"p:{k}"], f"P{k}", 1000 + k, T0)
    rng = random.Random(1)
    now = START
    n = 0
    while True:
        tables = swisses.advance(sid, now)
        if tables is None:
            break
        print(f"ack round {sid} {len(swisses.get(sid).rounds())}", flush=True)
        for t in tables:
            if t["b"] is None:
                continue
            result = rng.choice(["a", "b", "draw"])
            swisses.report(sid, t["match"], result, now)
            print(f"ack result {t['match']} {result}", flush=True)
            n += 1
            tod.enter(tid, f"p:{n}", f"Entrant {n}", T0)
            print(f"ack entry {tid} p:{n}", flush=True)
        now += dt.timedelta(minutes=10)
    print("done", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
