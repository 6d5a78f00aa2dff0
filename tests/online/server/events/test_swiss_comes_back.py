"""A Swiss player who registered on one connection and comes back on another (the window
closed and opened again) is told their round's table on the new one once they look at the
events: the table of a player nobody can tell would be a no-show."""

from __future__ import annotations

import datetime as dt

from game.online.server.serving import start_server_in_thread
from tests.online.server.events.helpers import signed_in, wait_for


def test_a_player_back_on_a_new_connection_is_told_the_rounds_table_there(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "data", workers=1)
    try:
        ev = h.server.events
        start = dt.datetime.now() + dt.timedelta(hours=1)
        sid = ev.hub.swisses.create(None, "briscola", "standard", 1, start, ev.clock(), 1)
        anna, secret = signed_in(h.url, "Anna")
        bea, _ = signed_in(h.url, "Bea")
        for c in (anna, bea):
            c.request({"type": "swiss_register", "id": sid, "partner": None}, "swiss")
        anna.close()  # the window closed
        again, _ = signed_in(h.url, "Anna", secret)
        player = next(e for e, v in ev.hub.swisses.get(sid).entrants().items() if v["name"] == "Anna")
        before = ev.hub.swisses.get(sid).entrants()[player]["at"][player]
        again.request({"type": "event_list"}, "event_list")
        wait_for(lambda: ev.hub.swisses.get(sid).entrants()[player]["at"][player] != before)
        # the round begins: the table's seat comes to the new connection
        ev.clock = lambda: dt.datetime.now() + dt.timedelta(hours=2)
        seat = again.expect("swiss_round", timeout=20)
        assert seat["id"] == sid and seat["round"] == 1 and seat["code"] and seat["token"]
        bea.expect("swiss_round", timeout=20)
        again.close()
        bea.close()
    finally:
        h.stop()
