"""The tournament of the day on a real server (127.0.0.1, one process, SQLite), end to end:
headless bot players enter and play it with ``main.py online tournament``; the standings the
server shows (``main.py online standings``) equal the independent recompute from the records;
every record verifies; every player was dealt the same deals, which match the seed revealed
after the day; nobody sees a deal's field or a record before ending that deal; an event's
table cannot be hosted, and a deal begun and left is that deal's play."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from pathlib import Path

import pytest

import game.services.par
from game.online.cli import main
from game.online.server.daily import GRACE
from game.online.server.events.store import SqliteEventStore
from game.online.server.events.tourday import TourOfDay, tour_id
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.verify import verify_events
from tests.online.server.events.recompute import recompute
from tests.online.wshelp import Client

GAME = "briscola"
DEALS = 2
PLAYERS = ("Anna", "Bea", "Carlo")


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)


@pytest.fixture
def server(tmp_path):
    h = start_server_in_thread(
        "127.0.0.1", 0, tmp_path / "data", workers=1, limits=ServerLimits(tournament_deals=DEALS)
    )
    yield h
    assert h.stop(timeout=10)


def signed_in(url: str, name: str) -> Client:
    c = Client(url, name)
    c.request({"type": "account", "name": name, "secret": None}, "account")
    return c


def error_of(c: Client, message: dict) -> str:
    c.send(message)
    return str(c.expect("error")["code"])


def test_bot_players_play_the_days_tournament_and_the_standings_equal_the_recompute(server, tmp_path, capsys):
    url = server.url
    where = {"game": GAME, "preset": None}
    late = signed_in(url, "Late")  # enters, plays nothing: sees no field, no standings, no record
    late.request({"type": "tod_enter", **where}, "tod")
    outputs = {}
    for k, name in enumerate(PLAYERS):
        folder = tmp_path / f"records-{name}"
        argv = ["online", "tournament", "--server", url, "--game", GAME, "--bot", "random", "--seed", str(k * 7919)]
        assert main([*argv, "--name", name, "--records", str(folder)]) == 0
        outputs[name] = capsys.readouterr().out
        assert f"records: {folder}" in outputs[name]
        assert len(list(folder.glob("*.jsonl"))) == DEALS
    # the last player's result line names their rank among everyone who finished
    assert "result: " in outputs["Carlo"] and f"of {len(PLAYERS)})" in outputs["Carlo"]
    # a second run has nothing left to play: it says where Anna stands now
    assert main(["online", "tournament", "--server", url, "--game", GAME, "--bot", "random", "--name", "Anna"]) == 0
    again = capsys.readouterr().out
    assert "\ndeal " not in "\n" + again
    anna_now = again.split("result: ")[1].split(" (rank ")[0]

    # the standings the server shows (to a player who has finished)
    assert main(["online", "standings", "--server", url, "--game", GAME, "--name", "Bea"]) == 0
    shown = [ln for ln in capsys.readouterr().out.splitlines() if not ln.startswith("account:")]
    # nobody else sees them: a visitor, and a player with deals left
    assert main(["online", "standings", "--server", url, "--game", GAME]) == 2
    assert "every deal" in capsys.readouterr().err
    assert error_of(late, {"type": "tod_standings", **where, "date": None}) == "hidden"

    # the independent recompute, from the records the players were given and the day's entries
    store = SqliteEventStore(Path(server.data_dir))
    try:
        today = dt.date.today()
        tid = tour_id(today.isoformat(), GAME, "standard")
        assert store.load(tid) is not None
        records: dict[str, str] = {}
        for name in PLAYERS:
            for path in (tmp_path / f"records-{name}").glob("*.jsonl"):
                records[path.stem] = path.read_text("utf-8")
        entries, names = {}, {}
        for e in store.entries(tid):
            kind, _, index = e.item.partition(":")
            if kind == "entry":
                names[e.player] = e.value["name"]
            if kind == "deal":
                entries.setdefault(e.player, {})[int(index)] = e.value["record"]
        rows = [{"player": p, "name": names[p], "results": res, "ended": len(res)} for p, res in entries.items()]
        want = recompute(rows, records, deals=DEALS)
        assert [f"{r}. {n} {pct}%" for r, n, pct in want] == shown[: len(want)]
        assert len(want) == len(PLAYERS)
        assert any(line.endswith(f"Anna {anna_now}") for line in shown)
        # every record verifies, and each deal was the same for everyone
        seeds: dict[int, set[int]] = {}
        for res in entries.values():
            for index, code in res.items():
                events = [json.loads(line) for line in records[code].splitlines()]
                assert verify_events(events).ok, code
                seeds.setdefault(index, set()).add(events[0]["seed"])
        assert all(len(s) == 1 for s in seeds.values()) and len(seeds) == DEALS
        # after the day the seed is revealed: it matches the commitment shown all day, and
        # each deal's seed is its published derivation
        after = dt.datetime.combine(today + dt.timedelta(days=1), dt.time()) + GRACE
        shown_info = late.request({"type": "tod_enter", **where}, "tod")["info"]
        assert shown_info["seed"] is None
        revealed = TourOfDay(store, DEALS).public(tid, after)
        seed, nonce = int(revealed["seed"]), revealed["nonce"]
        text = f"cardavia-online-tournament|{today.isoformat()}|{GAME}|standard|{DEALS}|{seed}|{nonce}"
        assert hashlib.sha256(text.encode()).hexdigest() == shown_info["hash"]
        for index, s in seeds.items():
            digest = hashlib.sha256(f"cardavia-online-tournament|{seed}|{index}".encode()).digest()
            assert s == {int.from_bytes(digest, "big")}
        # the field of a deal: to a player who ended it, with the best records; to nobody else
        anna_code = entries[next(p for p in entries if names[p] == "Anna")][0]
        assert error_of(late, {"type": "tod_field", **where, "date": None, "deal": 0}) == "hidden"
        assert error_of(late, {"type": "tod_record", **where, "date": None, "code": anna_code}) == "hidden"
    finally:
        store.close()
    bea = Client(url, "Bea")
    secret = _kept_secret(url, "Bea")
    bea.request({"type": "account", "name": "Bea", "secret": secret}, "account")
    field = bea.request({"type": "tod_field", **where, "date": None, "deal": 0}, "tod_field")["field"]
    assert field["players"] == len(PLAYERS) and sum(n for _, n in field["spread"]) == len(PLAYERS)
    assert field["score"] is not None and 1 <= field["rank"] <= len(PLAYERS)
    best = field["best"][0]
    rec = bea.request({"type": "tod_record", **where, "date": None, "code": best["record"]}, "tod_record")
    assert rec["record"] == records[best["record"]]
    listing = bea.request({"type": "event_list"}, "event_list")
    mine = next(t for t in listing["tournaments"] if t["game"] == GAME)
    assert mine["me"]["ended"] == DEALS and mine["seed"] is None and "p:" not in json.dumps(listing)
    bea.close()
    late.close()


def _kept_secret(url: str, name: str) -> str:
    from game.online.client.clubclient import account_secret
    from game.services.settings import load_settings

    secret = account_secret(load_settings(default_language="en").settings.extra, url, name)
    assert secret is not None
    return secret


def test_a_deal_begun_and_left_is_that_deals_play_and_the_table_has_no_host(server):
    url = server.url
    where = {"game": GAME, "preset": None}
    c = signed_in(url, "Dora")
    assert error_of(Client(url, "Nobody"), {"type": "tod_deal", **where}) == "account"
    created = c.request({"type": "tod_deal", **where}, "created")
    assert created["host_token"] is None and list(created["tokens"]) == ["0"]
    assert c.expect("tod")["me"]["next"] == 1
    assert error_of(c, {"type": "tod_deal", **where}) == "busy"  # its table still runs
    # the table is closed (as at the day's deadline): the deal is over for Dora, unscored
    table = server.server.tables[created["code"]]
    server.loop.call_soon_threadsafe(server.server.close_table, table)
    deadline = dt.datetime.now() + dt.timedelta(seconds=5)
    while created["code"] in server.server.tables and dt.datetime.now() < deadline:
        time.sleep(0.02)
    again = c.request({"type": "tod_deal", **where}, "created")
    me = c.expect("tod")["me"]
    assert again["code"] != created["code"] and me["ended"] == 1 and me["next"] is None
    c.send({"type": "host", "code": again["code"], "host_token": "0" * 32})
    assert c.expect("error")["code"] != "server"  # nobody holds the host's token
    c.close()
