"""A match paired whose table was never noted in the event's state (the process that paired
it died between the two writes) is opened again by the process that pairs the event, once
it is ``REOPEN_AFTER`` seconds old: an arena's match and a Swiss round's tables."""

from __future__ import annotations

import datetime as dt

from game.online.server.events.arena import Arena
from game.online.server.events.runner import REOPEN_AFTER
from game.online.server.events.swiss import Swiss
from game.online.server.serving import start_server_in_thread
from tests.online.server.events.helpers import wait_for

GAME = "briscola"


def test_matches_paired_but_never_opened_are_opened_again(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "data")
    try:
        ev = h.server.events
        now = dt.datetime.now()
        then = now - dt.timedelta(seconds=REOPEN_AFTER + 1)
        aid = ev.hub.arenas.create(None, GAME, "standard", now - dt.timedelta(minutes=5), 1800, 2, 600.0, now)

        def paired_long_ago(a: Arena) -> list:
            a.join("p:1", "Anna", then)
            a.join("p:2", "Bea", then)
            return a.pair(then)

        (match,) = ev.hub.arenas._do(aid, paired_long_ago)  # in one change: the loop never saw them free
        assert match.get("table") is None
        code = wait_for(lambda: ev.hub.arenas.get(aid).matches()[match["id"]].get("table"))
        assert code in h.server.tables and code in ev.arenas.tables
        assert sorted(ev.arenas.tables[code].players.values()) == ["p:1", "p:2"]

        sid = ev.hub.swisses.create(None, GAME, "standard", 2, now - dt.timedelta(hours=1), now)

        def round_long_ago(s: Swiss) -> list:
            for k, name in enumerate(("Anna", "Bea", "Carlo", "Dora")):
                s.register([f"p:{k + 1}"], name, 1500.0, now - dt.timedelta(hours=2))
            return s.start_round(then) or []

        tables = ev.hub.swisses._do(sid, round_long_ago)
        assert len(tables) == 2 and all(t.get("code") is None for t in tables)

        def opened() -> list[str]:
            codes = [t.get("code") for t in ev.hub.swisses.get(sid).rounds()[0]]
            return [str(c) for c in codes] if all(codes) else []

        codes = wait_for(opened)
        assert len(set(codes)) == 2 and all(c in h.server.tables for c in codes)
        assert len(ev.hub.swisses.get(sid).rounds()) == 1  # the round opened again, not paired again
    finally:
        h.stop()
