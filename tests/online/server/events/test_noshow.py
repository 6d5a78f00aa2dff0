"""The no-show rule on a real server (127.0.0.1, one process), on the events' clock moved by
the test: a person's seat at an arena or Swiss table that stays empty for the server's
``event_no_show`` forfeits the match — the table is closed and the event's state has the
result (arena: the person there wins, the absent one loses and is paused; Swiss: a loss for
the absent entrant, a win for the one there, a loss for both when neither came)."""

from __future__ import annotations

import datetime as dt
import time

from game.online.server.events.swiss import NEITHER
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from tests.online.server.events.helpers import signed_in, wait_for
from tests.online.wshelp import Client

NO_SHOW = 60.0
GAME = "briscola"


class Moved:
    """The server's events clock: now, plus what the test has moved it by."""

    def __init__(self) -> None:
        self.by = dt.timedelta()

    def __call__(self) -> dt.datetime:
        return dt.datetime.now() + self.by

    def move(self, **delta: float) -> None:
        self.by += dt.timedelta(**delta)


def _server(tmp_path):
    h = start_server_in_thread(
        "127.0.0.1", 0, tmp_path / "data", limits=ServerLimits(quick_wait=600.0, event_no_show=NO_SHOW)
    )
    clock = Moved()
    h.server.events.clock = clock
    return h, clock


def _observed(runner, code: str, seats: int) -> bool:
    """Whether the loop has seen ``seats`` empty seats at table ``code`` (it times them from then)."""
    et = runner.tables.get(code)
    return et is not None and len(et.absent) >= seats


def test_an_arena_player_who_never_sits_forfeits(tmp_path):
    h, clock = _server(tmp_path)
    try:
        ev = h.server.events
        aid = ev.hub.arenas.create(None, GAME, "standard", clock() - dt.timedelta(minutes=1), 1800, 2, 600.0, clock())
        anna, _ = signed_in(h.url, "Anna")
        bea, _ = signed_in(h.url, "Bea")
        for c in (anna, bea):
            c.request({"type": "arena_join", "id": aid}, "arena")
        found = anna.expect("arena_found")
        assert bea.expect("arena_found")["code"] == found["code"]
        anna.request({"type": "join", "code": found["code"], "name": "Anna", "token": found["token"]}, "joined")
        wait_for(lambda: _observed(ev.arenas, found["code"], 1))
        clock.move(seconds=NO_SHOW - 5)
        assert found["code"] in h.server.tables  # not yet
        clock.move(seconds=6)
        wait_for(lambda: found["code"] not in h.server.tables)  # closed
        assert anna.expect("error")["code"] == "no_show"
        players = {v["name"]: v for v in ev.hub.arenas.get(aid).players().values()}
        assert players["Anna"]["points"] == 2 and players["Anna"]["wins"] == 1 and not players["Anna"]["paused"]
        assert players["Bea"]["points"] == 0 and players["Bea"]["games"] == 1 and players["Bea"]["paused"]
        (match,) = ev.hub.arenas.get(aid).matches().values()
        assert match["forfeit"] == [next(p for p, v in ev.hub.arenas.get(aid).players().items() if v["name"] == "Bea")]
        standings = anna.expect("arena")  # the standings, sent to the arena's players
        assert [ln["name"] for ln in standings["standings"]][0] == "Anna"
        for c in (anna, bea):
            c.close()
    finally:
        h.stop()


def test_an_arena_player_who_leaves_and_does_not_come_back_forfeits(tmp_path):
    h, clock = _server(tmp_path)
    try:
        ev = h.server.events
        aid = ev.hub.arenas.create(None, GAME, "standard", clock() - dt.timedelta(minutes=1), 1800, 2, 600.0, clock())
        anna, _ = signed_in(h.url, "Anna")
        bea, _ = signed_in(h.url, "Bea")
        for c in (anna, bea):
            c.request({"type": "arena_join", "id": aid}, "arena")
        found = {"Anna": anna.expect("arena_found"), "Bea": bea.expect("arena_found")}
        code = found["Anna"]["code"]
        anna.request({"type": "join", "code": code, "name": "Anna", "token": found["Anna"]["token"]}, "joined")
        seat = Client(h.url, "Bea")  # Bea sits at the table on a connection of its own, then leaves
        seat.request({"type": "join", "code": code, "name": "Bea", "token": found["Bea"]["token"]}, "joined")
        wait_for(lambda: h.server.tables[code].started)
        clock.move(seconds=NO_SHOW + 1)  # both there: nothing happens
        time.sleep(1.0)
        assert code in h.server.tables and not ev.arenas.tables[code].absent
        seat.close()
        wait_for(lambda: _observed(ev.arenas, code, 1))
        clock.move(seconds=NO_SHOW + 1)
        wait_for(lambda: code not in h.server.tables)
        players = {v["name"]: v for v in ev.hub.arenas.get(aid).players().values()}
        assert players["Anna"]["wins"] == 1 and players["Bea"]["wins"] == 0 and players["Bea"]["paused"]
        for c in (anna, bea):
            c.close()
    finally:
        h.stop()


def test_swiss_no_shows_lose_and_the_one_there_wins(tmp_path):
    h, clock = _server(tmp_path)
    try:
        ev = h.server.events
        sid = ev.hub.swisses.create(None, GAME, "standard", 3, clock() + dt.timedelta(hours=1), clock())
        clients = {}
        for name in ("Anna", "Bea", "Carlo", "Dora"):
            clients[name], _ = signed_in(h.url, name)
            clients[name].request({"type": "swiss_register", "id": sid, "partner": None}, "swiss")
        clock.move(hours=2)  # past the start: round 1
        rounds = {name: c.expect("swiss_round") for name, c in clients.items()}
        s = ev.hub.swisses.get(sid)
        (tables,) = s.rounds()
        assert len(tables) == 2
        # At the first table one player sits; at the second nobody does.
        first, second = tables
        sitter = next(n for n, r in rounds.items() if r["code"] == first["code"])
        r = rounds[sitter]
        clients[sitter].request({"type": "join", "code": r["code"], "name": sitter, "token": r["token"]}, "joined")
        wait_for(lambda: _observed(ev.swiss, first["code"], 1) and _observed(ev.swiss, second["code"], 2))
        clock.move(seconds=NO_SHOW + 1)
        wait_for(lambda: all(t["result"] is not None for t in ev.hub.swisses.get(sid).rounds()[0]))
        s = ev.hub.swisses.get(sid)
        done = {t["match"]: t for t in s.rounds()[0]}
        there = s.member_of(f"p:{_player_id(ev, sitter)}")
        t1 = done[first["match"]]
        assert t1["result"] == ("a" if t1["a"] == there else "b")
        assert t1["forfeit"] == [t1["b"] if t1["a"] == there else t1["a"]]
        t2 = done[second["match"]]
        assert t2["result"] == NEITHER and sorted(t2["forfeit"]) == sorted([t2["a"], t2["b"]])
        scores = s.scores()
        assert scores[there] == 1.0 and sum(scores.values()) == 1.0  # one win in all, nobody else scored
        assert first["code"] not in h.server.tables and second["code"] not in h.server.tables
        for c in clients.values():
            c.close()
    finally:
        h.stop()


def _player_id(ev, name: str) -> int:
    player = ev.server.db.player_by_name(name)
    assert player is not None
    return player.id


def test_a_match_both_forfeited_counts_for_buchholz_and_scores_nobody():
    from game.online.server.events.swiss import Swiss

    now = dt.datetime(2026, 12, 7, 18, 0)
    s = Swiss.new("swiss:t", GAME, "standard", 2, now)
    for i, name in enumerate(("Anna", "Bea", "Carlo", "Dora")):
        s.register([f"p:{i}"], name, 1500.0 - i, now - dt.timedelta(hours=1))
    tables = s.start_round(now)
    assert tables is not None and len(tables) == 2
    (x, y) = tables
    assert s.forfeit(x["match"], {x["a"], x["b"]}, now) == NEITHER
    assert s.forfeit(y["match"], {y["b"]}, now) == "a"
    scores = s.scores()
    assert scores[x["a"]] == scores[x["b"]] == scores[y["b"]] == 0.0 and scores[y["a"]] == 1.0
    lines = {ln.entrant: ln for ln in s.standings()}
    assert lines[y["b"]].buchholz == 1.0 and lines[y["a"]].sonneborn_berger == 0.0
    assert lines[x["a"]].buchholz == 0.0 and lines[x["a"]].sonneborn_berger == 0.0
    assert s.due(now)  # every result in: the next round may begin


def test_headless_players_go_on_after_a_no_show(tmp_path):
    """``online arena`` with a bot: its opponent never sits; the table closed for the no-show
    ends that match (won, said in a line), not the command; the absent player is told on the
    connection that joined that the match counts as lost."""
    import argparse
    import io
    import threading

    from game.online.client.events import arena

    h, clock = _server(tmp_path)
    try:
        ev = h.server.events
        aid = ev.hub.arenas.create(None, GAME, "standard", clock() - dt.timedelta(minutes=1), 1800, 2, 600.0, clock())
        bea, _ = signed_in(h.url, "Bea")
        bea.request({"type": "arena_join", "id": aid}, "arena")
        out, err, rc = io.StringIO(), io.StringIO(), []
        args = argparse.Namespace(server=h.url, name="Anna", id=aid, bot="random", games=1, seed=1, timeout=60.0)
        t = threading.Thread(target=lambda: rc.append(arena(args, out, err)))
        t.start()
        found = bea.expect("arena_found")
        code = found["code"]

        def anna_seated_bea_absent() -> bool:
            et, table = ev.arenas.tables.get(code), h.server.tables.get(code)
            seated = table is not None and any(s.conn is not None for s in table.seats)
            return et is not None and seated and set(et.absent) == {found["seat"]}

        wait_for(anna_seated_bea_absent)
        clock.move(seconds=NO_SHOW + 1)
        t.join(30)
        assert rc == [0], (out.getvalue(), err.getvalue())
        assert "match 1: won, the opponent did not come" in out.getvalue()
        told = bea.expect("error")
        assert told["code"] == "no_show" and "did not take your seat" in told["message"]
        bea.close()
    finally:
        h.stop()


def test_the_headless_swiss_loop_reads_a_no_show_as_a_lost_round():
    from game.online.client.clubclient import ServerRefusal
    from game.online.client.events import _next

    class Talk:
        def __init__(self, code: str):
            self.code = code

        def expect(self, *kinds: str, timeout: float | None = None) -> dict:
            raise ServerRefusal(self.code, "why")

    assert _next(Talk("no_show"), ("swiss_round", "swiss"), 1.0) == {"type": "no_show", "message": "why"}
    try:
        _next(Talk("unknown"), ("swiss",), 1.0)
    except ServerRefusal as e:
        assert e.code == "unknown"
    else:
        raise AssertionError("another refusal is raised")
