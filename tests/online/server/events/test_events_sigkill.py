"""The tournament of the day survives a kill -9 of the one-process server mid-round.

``main.py serve`` runs as a real subprocess. Three players enter over the wire; one has ended
every deal, two are in the middle of a deal when the process is killed with SIGKILL. Started
again on the same data folder (and port), the unfinished deals' tables are resumed where they
stood, their seats take them up again with the same tokens, and the event goes on to its end:
the entries and the deals ended before the kill are kept, the standings the server shows equal
the independent recompute from the records, and every record verifies."""

from __future__ import annotations

import datetime as dt
import json
import signal
import time
from pathlib import Path

from game.online.server.events.store import SqliteEventStore
from game.online.server.events.tourday import tour_id
from game.verify import verify_events
from tests.online.server.events.recompute import recompute
from tests.online.server.test_restart import ServeProcess
from tests.online.wshelp import Client, Player

GAME = "briscola"
DEALS = 2
WHERE = {"game": GAME, "preset": None}
# Par is worked out as a server with little CPU would (``--par-iterations``): it is shown beside
# a deal and never scores it, and at the full budget it was most of this test's time.
FLAGS = ("--tournament-deals", str(DEALS), "--par-iterations", "8")


class Entrant:
    """A player signed in with an account; ``secret`` signs them in again after the restart."""

    def __init__(self, url: str, name: str, secret: str | None = None):
        self.name = name
        self.conn = Client(url, name)
        got = self.conn.request({"type": "account", "name": name, "secret": secret}, "account")
        self.secret = secret or got["secret"]

    def deal(self) -> tuple[str, str]:
        """The next deal's table: (code, seat 0's token)."""
        created = self.conn.request({"type": "tod_deal", **WHERE}, "created")
        self.conn.expect("tod")
        return created["code"], created["tokens"]["0"]

    def me(self) -> dict:
        return self.conn.request({"type": "tod_enter", **WHERE}, "tod")["me"]

    def wait_ended(self, n: int) -> dict:
        deadline = time.monotonic() + 10
        me = self.me()
        while me["ended"] < n and time.monotonic() < deadline:
            time.sleep(0.05)
            me = self.me()
        assert me["ended"] == n, me
        return me


def play(url: str, code: str, token: str, name: str, seed: int, stop_after: int | None = None) -> Player:
    p = Player(url, code, token, name, seed=seed, stop_after=stop_after).start()
    p.join(timeout=60)
    return p


def test_the_days_tournament_goes_on_after_a_sigkill_mid_round(tmp_path):
    data = tmp_path / "data"
    first = ServeProcess(data, *FLAGS)
    try:
        url = first.url
        # Carlo ends every deal before the kill.
        carlo = Entrant(url, "Carlo")
        for k in range(DEALS):
            code, token = carlo.deal()
            play(url, code, token, "Carlo", seed=k)
            carlo.wait_ended(k + 1)
        # Anna has ended deal 0 and is in the middle of deal 1; Bea in the middle of deal 0.
        anna, bea = Entrant(url, "Anna"), Entrant(url, "Bea")
        code, token = anna.deal()
        play(url, code, token, "Anna", seed=11)
        anna.wait_ended(1)
        anna_code, anna_token = anna.deal()
        bea_code, bea_token = bea.deal()
        early = {
            "Anna": play(url, anna_code, anna_token, "Anna", seed=12, stop_after=6),
            "Bea": play(url, bea_code, bea_token, "Bea", seed=13, stop_after=9),
        }
        assert all(p.record is None and p.decision >= 6 for p in early.values()), "not mid-deal"
        secrets = {e.name: e.secret for e in (carlo, anna, bea)}
        for e in (carlo, anna, bea):
            e.conn.close()
        first.kill()
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
    assert first.proc.returncode == -signal.SIGKILL

    port = url.rsplit(":", 1)[1]
    again = ServeProcess(data, *FLAGS, "--port", port)
    try:
        assert "2 table(s) resumed" in again.first, again.first
        # The entries and the deal ended before the kill are kept.
        anna, bea, carlo = (Entrant(url, n, secrets[n]) for n in ("Anna", "Bea", "Carlo"))
        assert carlo.me()["ended"] == DEALS
        assert anna.me()["ended"] == 1 and bea.me()["entered"] and bea.me()["ended"] == 0
        # A deal whose table still runs is not replaced: it is taken up where it stood.
        assert bea.conn.request({"type": "tod_deal", **WHERE}, "error")["code"] == "busy"
        for name, code, token, seed in (("Anna", anna_code, anna_token, 21), ("Bea", bea_code, bea_token, 22)):
            late = play(url, code, token, name, seed=seed)
            assert late.events[: len(early[name].events)] == early[name].events  # the same deal, continued
            assert late.record is not None
        anna.wait_ended(DEALS)
        bea.wait_ended(1)
        code, token = bea.deal()
        play(url, code, token, "Bea", seed=23)
        bea.wait_ended(DEALS)
        shown = bea.conn.request({"type": "tod_standings", **WHERE, "date": None}, "tod_standings")["lines"]
        for e in (anna, bea, carlo):
            e.conn.close()
    finally:
        code_ = again.stop() if again.proc.poll() is None else again.proc.returncode
    assert code_ == 0

    # The independent recompute, from the server's records and the day's entries.
    store = SqliteEventStore(Path(data))
    try:
        tid = tour_id(dt.date.today().isoformat(), GAME, "standard")
        entries: dict[str, dict[int, str]] = {}
        names: dict[str, str] = {}
        for row in store.entries(tid):
            kind, _, index = row.item.partition(":")
            if kind == "entry":
                names[row.player] = str(row.value["name"])
            elif kind == "deal":
                entries.setdefault(row.player, {})[int(index)] = str(row.value["record"])
    finally:
        store.close()
    assert sorted(names.values()) == ["Anna", "Bea", "Carlo"]
    assert all(len(res) == DEALS for res in entries.values()) and len(entries) == 3
    records = {code: (data / f"{code}.jsonl").read_text("utf-8") for res in entries.values() for code in res.values()}
    for code, text in records.items():
        assert verify_events([json.loads(line) for line in text.splitlines() if line.strip()]).ok, code
    rows = [{"player": p, "name": names[p], "results": res, "ended": len(res)} for p, res in entries.items()]
    want = recompute(rows, records, deals=DEALS)
    assert [(r, n, pct) for r, n, pct in want] == [(s["rank"], s["name"], f"{s['percent']:.2f}") for s in shown]
