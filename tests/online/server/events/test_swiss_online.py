"""A Swiss tournament on a real server (127.0.0.1), made by the owner's schedule: seven
headless bot players register before the start and play four rounds (the server's events clock
is moved past the start once everyone has registered). Seven players: a bye every round, never
twice to one player; no pair meets twice; every table's record verifies; the tie-breaks are
computed (Buchholz: the sum of the opponents' scores) and the players were shown the final
standings."""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import re
import threading
import time
from pathlib import Path

from game.online.client.events import swiss
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.verify import verify_events
from tests.online.wshelp import record_file

SID = "swiss:test-club"
NAMES = ("Anna", "Bea", "Carlo", "Dora", "Emil", "Fede", "Gino")
ROUNDS = 4


def test_seven_bots_play_a_four_round_swiss(tmp_path):
    start = dt.datetime.now() + dt.timedelta(days=1)
    schedule = tmp_path / "events.yaml"
    schedule.write_text(
        f"swiss:\n  - name: test-club\n    game: briscola\n    rounds: {ROUNDS}\n"
        f"    start: {start.strftime('%Y-%m-%d %H:%M')}\n"
    )
    h = start_server_in_thread(
        "127.0.0.1", 0, tmp_path / "data", workers=1, limits=ServerLimits(events_file=str(schedule))
    )
    try:
        outs: dict[str, str] = {}

        def player(k: int, name: str) -> None:
            args = argparse.Namespace(
                server=h.url, name=name, id=SID, partner=None, bot="random", seed=k * 17, timeout=120.0
            )
            out, err = io.StringIO(), io.StringIO()
            rc = swiss(args, out, err)
            outs[name] = f"{rc}\n{out.getvalue()}{err.getvalue()}"

        threads = [threading.Thread(target=player, args=(k, n)) for k, n in enumerate(NAMES)]
        for t in threads:
            t.start()
        ev = h.server.events
        deadline = time.monotonic() + 30
        while len(ev.hub.swisses.get(SID).entrants()) < len(NAMES) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(ev.hub.swisses.get(SID).entrants()) == len(NAMES)
        ev.clock = lambda: dt.datetime.now() + dt.timedelta(days=2)  # past the start: round 1 begins
        for t in threads:
            t.join(150)
        assert len(outs) == len(NAMES) and all(o.startswith("0\n") for o in outs.values()), outs
        s = ev.hub.swisses.get(SID)
        assert s.finished and len(s.rounds()) == ROUNDS
        byes = [t["a"] for r in s.rounds() for t in r if t["b"] is None]
        assert len(byes) == ROUNDS and len(set(byes)) == ROUNDS  # one a round, never twice to one
        pairs = [frozenset((t["a"], t["b"])) for r in s.rounds() for t in r if t["b"] is not None]
        assert len(pairs) == len(set(pairs)) == ROUNDS * 3  # nobody met twice
        records = [n for o in outs.values() for n in re.findall(r"record (\S+)$", o, re.M)]
        assert len(records) == ROUNDS * 3 * 2  # both players of every table
        for n in set(records):
            events = [json.loads(line) for line in Path(record_file(h.data_dir, n)).read_text().splitlines()]
            assert verify_events(events).ok, n
        scores = s.scores()
        lines = s.standings()
        for ln in lines:
            opponents = [
                t["b"] if t["a"] == ln.entrant else t["a"]
                for r in s.rounds()
                for t in r
                if ln.entrant in (t["a"], t["b"]) and t["b"] is not None
            ]
            assert ln.buchholz == sum(scores[o] for o in opponents)
        final = [f"{ln.rank}. {ln.name} {ln.score:g} (Buchholz {ln.buchholz:g}" for ln in lines]
        for o in outs.values():
            assert all(f in o for f in final) and re.search(r"^result: [\d.]+ points \(rank \d of 7\)$", o, re.M)
            assert sum(1 for _ in re.finditer(r"^round \d: ", o, re.M)) == ROUNDS
    finally:
        h.stop()
