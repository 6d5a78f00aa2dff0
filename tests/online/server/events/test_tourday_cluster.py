"""The tournament of the day on the cluster: two server processes on one real Redis and one
real PostgreSQL (the cluster tests' servers); twelve headless bot players enter and play it,
six through each process, at once. Both processes show the same standings, equal to the
independent recompute from the records the players were given; every record verifies and
each deal was the same for everyone."""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import io
import json
import re
import threading
import time

import pytest

from game.online.client.events import tournament
from game.online.server.cluster import ClusterConfig
from game.online.server.daily import GRACE
from game.online.server.events.tourday import tour_id
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.verify import verify_events
from tests.online.server.cluster.conftest import fresh, services  # noqa: F401 - the cluster's fixtures
from tests.online.server.events.recompute import recompute
from tests.online.wshelp import Client

pytestmark = pytest.mark.xdist_group("cluster")

GAME = "briscola"
PLAYERS = 12


def test_twelve_bots_enter_the_tournament_through_two_processes(tmp_path, fresh):  # noqa: F811
    r, pg = fresh
    handles = [
        start_server_in_thread(
            data_dir=tmp_path / name,
            cluster=ClusterConfig(r.url, pg.url, process_id=name),
            limits=ServerLimits(tournament_deals=1),
        )
        for name in ("a", "b")
    ]
    try:
        codes: dict[str, str] = {}
        outs: dict[str, str] = {}

        def player(k: int) -> None:
            name = f"Bot{k:02d}"
            folder = tmp_path / f"records-{name}"
            args = argparse.Namespace(
                server=handles[k % 2].url,
                game=GAME,
                preset=None,
                bot="random",
                name=name,
                records=str(folder),
                seed=k * 7919,
                timeout=120.0,
            )
            out, err = io.StringIO(), io.StringIO()
            rc = tournament(args, out, err)
            outs[name] = f"{rc}\n{out.getvalue()}{err.getvalue()}"
            for path in folder.glob("*.jsonl"):
                codes[name] = path.stem

        threads = [threading.Thread(target=player, args=(k,)) for k in range(PLAYERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        assert all(o.startswith("0\n") for o in outs.values()) and len(outs) == PLAYERS, outs
        records = {}
        for name, code in codes.items():
            records[code] = (tmp_path / f"records-{name}" / f"{code}.jsonl").read_text("utf-8")
        assert len(records) == PLAYERS
        seeds = set()
        for code, text in records.items():
            events = [json.loads(line) for line in text.splitlines()]
            assert verify_events(events).ok, code
            seeds.add(events[0]["seed"])
        assert len(seeds) == 1  # one deal, the same for all twelve
        # the standings, as each process shows them to a player who has finished
        shown = []
        for h in handles:
            from game.online.client.clubclient import account_secret
            from game.services.settings import load_settings

            c = Client(h.url, "Bot00")
            secret = account_secret(load_settings(default_language="en").settings.extra, handles[0].url, "Bot00")
            for _ in range(10):  # a loaded machine's database may answer "slow, try again"
                c.send({"type": "account", "name": "Bot00", "secret": secret})
                answer = c.recv()
                if answer["type"] == "account":
                    break
                time.sleep(0.5)
            assert answer["type"] == "account", answer
            lines = c.request({"type": "tod_standings", "game": GAME, "preset": None, "date": None}, "tod_standings")
            shown.append([(ln["rank"], ln["name"], f"{ln['percent']:.2f}") for ln in lines["lines"]])
            c.close()
        assert shown[0] == shown[1] and len(shown[0]) == PLAYERS
        rows = [{"player": name, "name": name, "results": {0: code}, "ended": 1} for name, code in codes.items()]
        assert recompute(rows, records, deals=1) == shown[0]
        assert len({pct for _, _, pct in shown[0]}) > 1  # a real spread
        # each player's result line: their rank among those who had finished by then
        assert all(re.search(r"result: \d+\.\d\d% \(rank \d+ of \d+\)", o) for o in outs.values())
        # after the day the seed is revealed, on either process: it matches the commitment
        # published during the day, and the one deal's seed is its published derivation
        today = dt.date.today()
        tid = tour_id(today.isoformat(), GAME, "standard")
        during = handles[1].server.events.tod.public(tid, dt.datetime.now())
        assert during["seed"] is None and during["hash"]
        after = dt.datetime.combine(today + dt.timedelta(days=1), dt.time()) + GRACE
        revealed = handles[1].server.events.tod.public(tid, after)
        seed, nonce = int(revealed["seed"]), revealed["nonce"]
        text = f"cardavia-online-tournament|{today.isoformat()}|{GAME}|standard|1|{seed}|{nonce}"
        assert hashlib.sha256(text.encode()).hexdigest() == during["hash"]
        digest = hashlib.sha256(f"cardavia-online-tournament|{seed}|0".encode()).digest()
        assert seeds == {int.from_bytes(digest, "big")}
    finally:
        for h in handles:
            h.stop()
