"""The window's spectator feed (game.online.client.watchclient) keeps the server's stream in order:
a reconnection's stream from 0 adds only what is new; a gap, a rewritten event or a refusal
ends the watching with a line instead of showing a wrong table. No socket: the messages are
handed to the feed as the connection's thread would queue them."""

from __future__ import annotations

from game.online.client.watchclient import SpectatorFeed


def feed() -> SpectatorFeed:
    return SpectatorFeed("ws://127.0.0.1:1", "ABCDEFGHJK", "Watcher", connect=False)


def ev(i: int) -> dict:
    return {"event": "play", "seat": i % 2, "card": f"{i}C"}


def test_the_stream_grows_and_a_reconnection_adds_only_the_new_events():
    f = feed()
    f.handle({"type": "watching", "code": "ABCDEFGHJK", "game": "scopa", "seats": [], "watchers": 2})
    assert not f.ready
    f.handle({"type": "events", "from": 0, "events": [ev(0), ev(1)]})
    assert f.ready and f.watchers == 2
    assert f.pull() == [ev(0), ev(1)] and f.pull() == []
    f.handle({"type": "events", "from": 2, "events": [ev(2)]})
    f.handle({"type": "events", "from": 0, "events": [ev(0), ev(1), ev(2), ev(3)]})  # after a reconnection
    assert f.pull() == [ev(2), ev(3)] and f.problem is None
    f.handle({"type": "watchers", "count": 5})
    assert f.watchers == 5


def test_a_gap_a_rewrite_or_a_refusal_stops_the_watching():
    f = feed()
    f.handle({"type": "events", "from": 0, "events": [ev(0)]})
    f.handle({"type": "events", "from": 3, "events": [ev(3)]})
    assert f.problem is not None and f.problem_code == "client" and f.events == [ev(0)]
    f = feed()
    f.handle({"type": "events", "from": 0, "events": [ev(0), ev(1)]})
    f.handle({"type": "events", "from": 1, "events": [ev(5)]})
    assert f.problem_code == "client" and f.events == [ev(0), ev(1)]
    f = feed()
    f.handle({"type": "events", "from": 0, "events": ["not an event"]})
    assert f.problem_code == "client" and f.events == []
    f = feed()
    f.handle({"type": "error", "code": "no_table", "message": "there is no public table ABCDEFGHJK on this server"})
    assert f.problem == "there is no public table ABCDEFGHJK on this server" and f.problem_code == "no_table"
    f = feed()
    f.handle({"type": "error", "code": "rate", "message": "slow down"})  # not the end of watching
    assert f.problem is None
