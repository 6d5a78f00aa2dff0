"""An arena on a real server (127.0.0.1), made by the owner's schedule (``serve --events``):
four headless bot players join it and play two matches each, paired with whoever is free, the
computer filling a seat after the fill wait. Every match's record verifies; each player's
points are the sum of their results; the computer is in no standing; and every player's last
answer shows the standings the store holds."""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import re
import threading
from pathlib import Path

from game.online.client.events import arena
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.verify import verify_events
from tests.online.wshelp import record_file

AID = "arena:test-blitz"
NAMES = ("Anna", "Bea", "Carlo", "Dora")


def test_four_bots_play_an_arena(tmp_path):
    start = (dt.datetime.now() - dt.timedelta(minutes=1)).strftime("%Y-%m-%d %H:%M")
    schedule = tmp_path / "events.yaml"
    schedule.write_text(f"arenas:\n  - name: test-blitz\n    game: briscola\n    start: {start}\n    minutes: 30\n")
    limits = ServerLimits(quick_wait=1.0, events_file=str(schedule))
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "data", workers=1, limits=limits)
    try:
        outs: dict[str, str] = {}

        def player(k: int, name: str) -> None:
            args = argparse.Namespace(
                server=h.url, name=name, id=AID, bot="random", games=2, seed=k * 31, timeout=120.0
            )
            out, err = io.StringIO(), io.StringIO()
            rc = arena(args, out, err)
            outs[name] = f"{rc}\n{out.getvalue()}{err.getvalue()}"

        threads = [threading.Thread(target=player, args=(k, n)) for k, n in enumerate(NAMES)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(150)
        assert len(outs) == len(NAMES) and all(o.startswith("0\n") for o in outs.values()), outs
        names = set()
        for o in outs.values():
            found = re.findall(r"^match \d+: record (\S+)", o, re.M)
            assert len(found) == 2, o
            names.update(found)
        for n in names:
            events = [json.loads(line) for line in Path(record_file(h.data_dir, n)).read_text().splitlines()]
            assert verify_events(events).ok, n
        state = h.server.events.hub.arenas.get(AID)
        players = state.players()
        assert sorted(v["name"] for v in players.values()) == sorted(NAMES)  # no computer among them
        for v in players.values():
            assert v["games"] == 2 and v["paused"] is True
            assert v["points"] == sum(e["points"] for e in v["history"])
        matches = [m for m in state.matches().values() if m["result"] is not None]
        assert len(matches) == len(names)  # one finished match per table played
        final = [(str(ln.rank), ln.name, str(ln.points)) for ln in state.standings()]
        shown = [re.findall(r"^(\d+)\. (\S+) (\d+) points", o, re.M) for o in outs.values()]
        assert all(sorted(s[1] for s in one) == sorted(NAMES) for one in shown)  # everyone, no computer
        assert final in shown  # the last to finish saw the final standings
        assert all(re.search(r"^result: \d+ points \(rank \d of 4\)$", o, re.M) for o in outs.values())
    finally:
        h.stop()
