"""The client side of online tables: addresses, the seat's rebuilt view, and whole matches
played by RemoteSession bot clients through a real server on 127.0.0.1 (every wait bounded)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from game.ai.bots import make_bot
from game.config import get_config
from game.match import Match
from game.online.client.client import RemoteSession, create_table
from game.online.client.headless import BotPlayer, play_seat
from game.online.wire.links import check_code, make_link, parse_address
from game.online.wire.redact import SeatRedactor, seat_events
from game.online.wire.seatview import SeatReplay
from game.rules.base import Action, IllegalAction
from game.rulesets import game_ids, make_rules
from game.services.table_session import ONLINE
from game.verify import verify_file
from tests.online.wshelp import record_file

#: The longest any one wait here may take (a whole match of greedy bots takes about a second).
WAIT = 30.0


# ------------------------------------------------------------------------------ addresses
def test_parse_address_takes_urls_host_port_and_table_links():
    assert parse_address("ws://127.0.0.1:7420") == ("ws://127.0.0.1:7420", None)
    assert parse_address("wss://cards.example.org/play") == ("wss://cards.example.org:7420/play", None)
    assert parse_address(" example.org:9000 ") == ("ws://example.org:9000", None)
    assert parse_address("cardavia://10.0.0.5:7000/abcdefghjk") == ("ws://10.0.0.5:7000", "ABCDEFGHJK")
    assert parse_address("cardavias://h:1/ABCDEFGHJK") == ("wss://h:1", "ABCDEFGHJK")
    assert parse_address("cardavia://[::1]:7420/ABCDEFGHJK") == ("ws://[::1]:7420", "ABCDEFGHJK")
    assert parse_address(make_link("::1", 7420, "ABCDEFGHJK")) == ("ws://[::1]:7420", "ABCDEFGHJK")
    assert check_code("abcde-fghjk") == "ABCDEFGHJK"
    for bad in (
        "",
        "ftp://x",
        "http://x:1",
        "ws://:80",
        "cardavia://h:1/SHORT",
        "ws://h:99999",
        "a b",
        "cardavia://h:1/ABCDEFGHJ0",
    ):
        with pytest.raises(ValueError) as e:
            parse_address(bad)
        assert "\n" not in str(e.value)
    with pytest.raises(ValueError):
        check_code("IIIIIIIIII")  # I and O are not in the alphabet


# ------------------------------------------------------------------------------ the seat's view
def _modes():
    """Every game and player count, with each named house-rule preset (or the defaults)."""
    cfg = get_config()
    out = []
    for g in game_ids():
        for n in cfg.game(g).players:
            presets = [dict(p.options) for p in cfg.game(g).presets_for(n)] or [{}]
            out += [(g, n, o) for o in presets]
    return out


@pytest.mark.parametrize("game,players,options", _modes())
def test_the_rebuilt_view_is_the_rules_own_view(game, players, options):
    """From the redacted stream alone, the view rebuilt for the seat to act is exactly
    ``rules.view(state, seat)`` at every decision of a seeded match (random bots)."""
    rules = make_rules(game, None, players, options)
    m = Match(rules, 1234 + players, [make_bot("random", rules, s, 7) for s in range(players)])
    redactors = [SeatRedactor(rules, s) for s in range(players)]
    opening = m.start()
    streams = [r.feed(opening) for r in redactors]
    replays = [SeatReplay(rules, s) for s in range(players)]
    checked = 0
    for _ in range(2000):
        if m.over:
            break
        seat = m.to_act
        assert replays[seat].view(streams[seat]) == m.view(seat), f"decision {len(m.decisions)}"
        checked += 1
        new = m.step_bot()
        for s, r in enumerate(redactors):
            streams[s] += r.feed(new)
    assert streams[0] == seat_events(rules, m.events, 0)
    assert m.over and checked == len(m.decisions)


def test_bot_player_chooses_what_the_bot_would_with_the_true_view():
    """A greedy bot on the rebuilt view plays the moves a greedy bot with the real state plays."""
    rules = make_rules(game_ids()[0], None, 2)
    seed = 99
    m = Match(rules, seed, [make_bot("greedy", rules, s, seed) for s in range(2)])
    m.start()
    remote = [BotPlayer("greedy", rules, s, seed) for s in range(2)]
    for _ in range(500):
        if m.over:
            break
        seat, k = m.to_act, len(m.decisions)
        mine = remote[seat].choose(seat_events(rules, m.events, seat), m.legal_actions(), k)
        bot, view, legal = m.bot_turn()
        assert mine == bot.choose(view, legal)
        m.play(mine)
    assert m.over and remote[0].fallbacks == remote[1].fallbacks == 0


# ------------------------------------------------------------------------------ through a server
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from game.online.server.serving import start_server_in_thread

    handle = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("tables"))
    yield handle
    assert handle.stop(10.0)


def _record(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def _play_all(
    server, game: str, players: int, seats: list[str], options: dict | None = None, bot: str = "greedy"
) -> tuple[dict, dict[int, RemoteSession], dict[int, int]]:
    created = create_table(server.url, "host", game, players, seats, options=options or {})
    sessions: dict[int, RemoteSession] = {}
    codes: dict[int, int] = {}

    def go(n: int) -> None:
        s = RemoteSession(server.url, created["code"], f"bot {n}")
        sessions[n] = s
        codes[n] = play_seat(s, bot, seed=n, timeout=WAIT)

    threads = [threading.Thread(target=go, args=(n,), daemon=True) for n in range(seats.count("friend"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT + 5)
    assert not any(t.is_alive() for t in threads), "a bot client did not finish"
    return created, sessions, codes


def _replayed(rules, record: list[dict]) -> Match:
    """The server's match, rebuilt from its record (as Session.from_save walks one)."""
    m = Match(rules, record[0]["seed"])
    m.start()
    i = len(m.events)
    while i < len(record):
        i += len(m.play(rules.action_from_record(record, i)))
    return m


def _check_match(
    root: Path, created: dict, sessions: dict[int, RemoteSession], codes: dict[int, int], friends: list[int]
) -> list[dict]:
    assert set(codes.values()) == {0}, codes
    names = {s.record_path for s in sessions.values()}
    assert names == {f"{created['code']}.jsonl"}  # its name only: never the server's folders
    path = record_file(root, names.pop())
    verdict = verify_file(path)
    assert verdict.ok, str(verdict)
    record = _record(path)
    assert sorted(s.human_seat for s in sessions.values()) == friends
    m = _replayed(sessions[0].rules, record)
    assert m.over and m.events == record
    for s in sessions.values():
        # Each client holds exactly its seat's redacted record, and the facade agrees with it.
        assert s.match.events == seat_events(s.rules, record, s.human_seat)
        assert s.match.events[0]["seed"] is None
        assert s.over and s.match.winner == m.winner and s.match.totals == m.totals
        assert len(s.match.decisions) == len(m.decisions) and s.match.deal_start == m.deal_start
    return record


def test_four_player_scopa_two_bot_clients_two_computers(server):
    created, sessions, codes = _play_all(server, "scopa", 4, ["friend", "ai:greedy", "friend", "ai:greedy"])
    record = _check_match(server.data_dir, created, sessions, codes, [0, 2])
    assert {e["seat"] for e in record if e["event"] == "play"} == {0, 1, 2, 3}


def test_a_schnapsen_bummerl(server):
    created, sessions, codes = _play_all(server, "schnapsen", 2, ["friend", "ai:greedy"])
    record = _check_match(server.data_dir, created, sessions, codes, [0])
    assert sum(1 for e in record if e["event"] == "deal") > 1  # a Bummerl is several deals


def test_cicera_with_three_bot_clients(server):
    created, sessions, codes = _play_all(server, "cicera", 4, ["friend", "friend", "ai:greedy", "friend"])
    _check_match(server.data_dir, created, sessions, codes, [0, 1, 3])


# ------------------------------------------------------------------------------ one seat by hand
def _wait(sessions, cond, timeout: float = WAIT) -> None:
    """Poll ``sessions`` (one or several) until ``cond()``; TimeoutError after ``timeout``."""
    sessions = sessions if isinstance(sessions, (list, tuple)) else [sessions]
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"waited {timeout} s (failed: {[s.failed for s in sessions]}, "
                f"errors: {[list(s.errors) for s in sessions]})"
            )
        sessions[0].wait(0.02)
        for s in sessions[1:]:
            s.poll()


def _act(session: RemoteSession, player: BotPlayer) -> None:
    session.submit(player.choose(session.match.events, session.legal_actions(), session.decision))


def test_a_client_that_drops_rejoins_with_its_token_and_finishes(server):
    game = game_ids()[0]
    created = create_table(server.url, "host", game, 2, ["friend", "friend"], pause_seconds=30)
    a = RemoteSession(server.url, created["code"], "Anna", token=created["tokens"]["0"])
    b = RemoteSession(server.url, created["code"], "Bruno", token=created["tokens"]["1"])
    a2 = None
    try:
        _wait([a, b], lambda: a.started and b.started and a.rules is not None and b.rules is not None)
        pa, pb = BotPlayer("greedy", a.rules, 0, 1), BotPlayer("greedy", b.rules, 1, 2)
        shown = a.take_events()
        for _ in range(6):  # a few decisions
            made = len(a.match.decisions)
            _wait([a, b], lambda: a.human_to_act or b.human_to_act)
            for s, p in ((a, pa), (b, pb)):
                if s.human_to_act:
                    _act(s, p)
            _wait([a, b], lambda made=made: len(a.match.decisions) > made)
        shown += a.take_events()
        assert shown == a.match.events and len(a.match.decisions) >= 6

        a.conn.drop()  # the network goes: the server pauses the seat for the others
        _wait([b, a], lambda: b.paused is not None and b.paused[0] == 0)
        assert b.paused_then == "ai" and b.paused[1] > time.monotonic()
        _wait([a, b], lambda: a.conn.connects >= 2 and a.human_seat == 0 and a.to_act is not None and b.paused is None)
        assert a.failed is None
        shown += a.take_events()
        assert shown == a.match.events  # the rejoin's whole stream is not handed to the table twice

        # The same token on a new connection takes the seat over; the old connection is told.
        a2 = RemoteSession(server.url, created["code"], "Anna", token=a.token)
        _wait([a, a2], lambda: a.failed is not None and a2.human_seat == 0 and a2.to_act is not None)
        assert a.failed_code == "replaced"
        assert a2.match.events[: len(shown)] == shown
        pa2 = BotPlayer("greedy", a2.rules, 0, 3)
        deadline = time.monotonic() + WAIT
        while not (a2.over and b.over) and time.monotonic() < deadline:
            a2.wait(0.02)
            b.poll()
            for s, p in ((a2, pa2), (b, pb)):
                if s.human_to_act:
                    _act(s, p)
        _wait([a2, b], lambda: a2.record_path is not None)
        kept = record_file(server.data_dir, a2.record_path)
        assert verify_file(kept).ok
        assert a2.match.events == seat_events(a2.rules, _record(kept), 0)
    finally:
        for s in (a, b, a2):
            if s is not None:
                s.close()


def test_an_illegal_play_is_refused_with_the_rule_and_out_of_turn_is_named(server):
    game = game_ids()[0]
    created = create_table(server.url, "host", game, 2, ["friend", "friend"])
    a = RemoteSession(server.url, created["code"], "Anna")
    b = RemoteSession(server.url, created["code"], "Bruno")
    try:
        _wait([a, b], lambda: (a.human_to_act and b.thinking) or (b.human_to_act and a.thinking))
        me, other = (a, b) if a.human_to_act else (b, a)
        assert other.thinking and not other.human_to_act and other.legal_actions() == []
        with pytest.raises(RuntimeError):
            other.submit(me.legal_actions()[0])  # not this seat's turn: never sent
        assert other.conn.send(
            {
                "type": "act",
                "decision": other.decision,
                "action": {"kind": "play", "card": "7D", "capture": [], "marriage": False},
            }
        )
        _wait([other, me], lambda: other.last_refusal is not None)
        assert other.take_refusal().rule == "not_your_turn"

        legal = me.legal_actions()
        hand = {x.card for x in legal if x.card is not None}
        seen = json.dumps(me.match.events)
        stranger = next(c for c in me.rules.cards if c not in hand and c.code not in seen)
        me.submit(Action("play", stranger))
        assert not me.human_to_act  # waiting for the server's answer
        with pytest.raises(RuntimeError):
            me.submit(legal[0])
        _wait([me, other], lambda: me.last_refusal is not None)
        refusal = me.take_refusal()
        assert isinstance(refusal, IllegalAction) and refusal.rule == "not_in_hand"
        assert refusal.params.get("card") == stranger.code and me.last_refusal is None
        assert me.human_to_act and me.legal_actions() == legal  # nothing changed: asked again
        assert me.conn.send({"type": "act", "decision": me.decision + 5, "action": {"kind": "close"}})
        _wait([me, other], lambda: me.last_refusal is not None)
        assert me.take_refusal().rule == "stale"
        with pytest.raises(NotImplementedError):
            me.view()
        assert me.capabilities is ONLINE and not me.can_undo and not me.undo() and me.undos == 0 and me.suggestions == 0
    finally:
        a.close()
        b.close()


def test_quick_messages_reach_the_table_and_unknown_codes_fail_clearly(server):
    game = game_ids()[0]
    created = create_table(server.url, "host", game, 2, ["friend", "friend"])
    a = RemoteSession(server.url, created["code"], "Anna")
    b = RemoteSession(server.url, created["code"], "Bruno")
    ghost = RemoteSession(server.url, "ABCDEFGHJK", "Nobody")
    try:
        _wait([a, b], lambda: a.started and b.started)
        assert a.say("well_played")
        _wait([b, a], lambda: (a.human_seat, "well_played") in b.said)
        with pytest.raises(ValueError):
            a.say("anything I like")
        _wait(ghost, lambda: ghost.failed is not None)
        assert ghost.failed_code == "no_table" and "\n" not in ghost.failed
        with pytest.raises(ValueError):
            create_table(server.url, "host", game, 7, ["friend"] * 7)
    finally:
        for s in (a, b, ghost):
            s.close()


def test_a_refused_greeting_is_read_even_when_the_close_overtakes_the_join(monkeypatch):
    """A server of another version answers ``hello`` with an error and closes at once; the
    client is still sending its ``join``. The error must reach the session all the same (the
    send is slowed here so that the close always comes first)."""
    import asyncio
    import threading
    import time

    from websockets.asyncio.server import serve

    from game.online.client import client as C

    async def handler(ws):
        await ws.recv()
        await ws.send(
            json.dumps({"type": "error", "code": "version", "message": "version 9 here", "server_version": 9})
        )
        await ws.close(1002, "version")

    ready, ports, stop = threading.Event(), [], threading.Event()

    def run() -> None:
        async def main() -> None:
            async with serve(handler, "127.0.0.1", 0) as srv:
                ports.append(srv.sockets[0].getsockname()[1])
                ready.set()
                while not stop.is_set():
                    await asyncio.sleep(0.05)

        asyncio.run(main())

    threading.Thread(target=run, daemon=True).start()
    assert ready.wait(5)
    pace = C.Connection._pace  # (game.online.client.connection.Connection)
    calls = []

    def slow_second_send(self):
        calls.append(1)
        if len(calls) % 2 == 0:
            time.sleep(0.2)
        return pace(self)

    monkeypatch.setattr(C.Connection, "_pace", slow_second_send)
    try:
        for _ in range(3):
            conn = C.Connection(
                f"ws://127.0.0.1:{ports[0]}",
                lambda: [
                    {"type": "hello", "version": 1, "name": "Anna"},
                    {"type": "join", "code": "ABCDEFGHJK", "name": "Anna", "token": None},
                ],
                reconnect=False,
            )
            conn.start()
            seen, deadline = [], time.monotonic() + 5
            while time.monotonic() < deadline and "_failed" not in seen:
                m = conn.get(timeout=0.2)
                if m is not None:
                    seen.append(m["type"] if m["type"] != "error" else m["code"])
            conn.close()
            assert "version" in seen and seen.index("version") < seen.index("_failed")
    finally:
        stop.set()
