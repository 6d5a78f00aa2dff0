"""The events' loop reads only the events still under way: an arena past its end with every
result in is marked finished in the store (and a Swiss tournament is once its last result is
in), and the store's list of unfinished events, which the loop reads every two seconds, no
longer holds them — however many such events the club has held."""

from __future__ import annotations

import datetime as dt

from game.online.server.events.arena_wire import over
from game.online.server.serving import start_server_in_thread

GAME = "briscola"


def test_the_loop_lists_only_the_events_under_way(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "data", workers=1)
    try:
        ev = h.server.events
        store, arenas, swisses = ev.store, ev.hub.arenas, ev.hub.swisses
        now = dt.datetime.now()
        hour = dt.timedelta(hours=1)
        old = [arenas.create(None, GAME, "standard", now - 3 * hour, 1800, 2, 600.0, now - 4 * hour) for _ in range(30)]
        running = arenas.create(None, GAME, "standard", now - hour / 4, 1800, 2, 600.0, now - hour)
        # an arena over with a match still without its result: not finished until the result
        late = arenas.create(None, GAME, "standard", now - 2 * hour, 1800, 2, 600.0, now - 3 * hour)
        for p in ("p:1", "p:2"):
            arenas.join(late, p, p, now - 2 * hour)
        (match,) = arenas.pair(late, now - 2 * hour + dt.timedelta(minutes=1))
        assert len(store.events("arena")) == 32  # (the server's own loop may already mark some)

        assert ev.arenas.active(now) == [running]
        assert len(store.events("arena")) == 32 and {e.id for e in store.events("arena", unfinished=True)} == {
            running,
            late,
        }
        assert all(store.load(a).state["finished"] is True for a in old)
        assert not over(arenas.get(late), now)
        arenas.finish(late, match["id"], {"p:1": "win", "p:2": "loss"}, now)
        ev.arenas.active(now)
        assert [e.id for e in store.events("arena", unfinished=True)] == [running]
        assert [ln.name for ln in arenas.standings(late)][0] == "p:1"  # the state kept whole

        # a Swiss tournament that ended (too few players) leaves the loop's list
        ended = swisses.create(None, GAME, "standard", 3, now - hour, now - 2 * hour)
        coming = swisses.create(None, GAME, "standard", 3, now + hour, now)
        assert swisses.advance(ended, now) is None and swisses.get(ended).finished
        assert ev.swiss.active(now) == [coming]
    finally:
        h.stop()
