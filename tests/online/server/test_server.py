"""The table server over 127.0.0.1 (a port the system picks), driven by tiny sync clients:
hello and versions, the schema, config errors, host-only actions, joins and tokens, out-of-turn
and illegal plays refused and named, quick phrases, a dropped seat paused, taken over by the
computer and given back, and whole matches whose records pass game.verify."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from game.online.server.serving import start_server_in_thread
from game.online.wire import protocol as P
from game.online.wire.redact import seat_events
from game.record import read_record
from game.rulesets import make_rules
from game.verify import verify_file
from tests.online.wshelp import Client, Player, create, record_file


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("tables"), workers=1)
    yield handle
    assert handle.stop(timeout=10)


def table_of(server, code):
    return server.server.tables[code]


def test_stop_is_clean_and_bounded(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    assert h.port > 0 and h.url == f"ws://127.0.0.1:{h.port}"
    c = Client(h.url)
    t = time.monotonic()
    assert h.stop(timeout=10)
    assert time.monotonic() - t < 10
    assert not h.running
    assert c.closed(timeout=3)
    with pytest.raises(OSError):
        Client(h.url, timeout=2)


def test_hello_comes_first_and_versions_must_match(server):
    c = Client(server.url, name=None)
    c.send({"type": "ping"})
    assert c.expect("error")["code"] == "hello"
    c.send({"type": "hello", "version": 1, "name": "Anna"})
    welcome = c.expect("welcome")
    assert welcome["version"] == 1 and welcome["server"].startswith("cardavia ")
    assert c.request({"type": "ping"}, "pong") == {"type": "pong"}
    c.close()
    old = Client(server.url, name=None)
    old.send({"type": "hello", "version": 2, "name": "Anna", "extra": "a field of version 2"})
    err = old.expect("error")
    assert err["code"] == "version" and err["server_version"] == 1 and "version" in err["message"]
    assert old.closed()


def test_a_schema_error_keeps_the_connection(server):
    c = Client(server.url)
    for bad in ["not json", b"\x00\x01", {"type": "join", "code": 5}, {"type": "nope"}, [1, 2]]:
        c.send(bad if isinstance(bad, (str, bytes)) else json.dumps(bad))
        err = c.expect("error")
        assert err["code"] == "schema" and err["message"]
    assert c.request({"type": "ping"}, "pong")
    c.close()


def test_config_errors_are_named(server):
    c = Client(server.url)
    base = {
        "type": "create",
        "game": "scopa",
        "deck": None,
        "players": 2,
        "options": {},
        "seats": ["friend", "ai:easy"],
        "pause_seconds": 60,
        "ai_takes_over": True,
    }
    cases = [
        ({"game": "poker"}, "unknown game"),
        ({"options": {"deal": "scopone"}}, "4 players"),
        ({"players": 7, "seats": ["friend"] * 7}, "players"),
        ({"seats": ["friend"]}, "1 seats given"),
        ({"seats": ["ai:easy", "ai:hard"]}, "friend"),
        ({"deck": "schnapsen-german"}, "deck"),
        ({"options": {"target": 12}}, "not allowed"),
    ]
    for change, words in cases:
        err = c.request({**base, **change}, "error")
        assert err["code"] == "config" and words in err["message"], (change, err)
    c.close()


def test_created_gives_a_code_and_a_token_per_friend_seat(server):
    host, created = create(server.url, "scopa", 4, ["friend", "ai:greedy", "friend", "ai:easy"])
    assert P.is_code(created["code"]) and len(created["host_token"]) == 32
    assert sorted(created["tokens"]) == ["0", "2"]
    assert len(set(created["tokens"].values()) | {created["host_token"]}) == 3
    lobby = host.expect("lobby")
    assert lobby["host"] is True and lobby["you"] is None and lobby["started"] is False
    assert [s["kind"] for s in lobby["seats"]] == ["friend", "ai", "friend", "ai"]
    assert lobby["seats"][1]["level"] == "greedy" and lobby["seats"][0]["name"] is None
    # The server keeps hashes only: no token is in its files.
    meta = (server.data_dir / f"{created['code']}.table.json").read_text()
    for token in [created["host_token"], *created["tokens"].values()]:
        assert token not in meta and P.hash_token(token) in meta
    assert (server.data_dir / f"{created['code']}.table.json").stat().st_mode & 0o077 == 0
    host.close()


def test_host_only_actions(server):
    host, created = create(server.url, "briscola", 2, ["friend", "friend"])
    code = created["code"]
    anna = Client(server.url, "Anna")
    joined = anna.request({"type": "join", "code": code, "name": "Anna", "token": None}, "joined")
    assert joined["seat"] == 0 and len(joined["token"]) == 32
    lobby = anna.expect("lobby")
    assert lobby["you"] == 0 and lobby["host"] is False and lobby["seats"][0]["name"] == "Anna"
    configure = {
        "type": "configure",
        "game": "briscola",
        "deck": None,
        "players": 2,
        "options": {},
        "seats": ["friend", "ai:easy"],
        "pause_seconds": 30,
        "ai_takes_over": False,
    }
    # Not the host: refused, nothing changes.
    assert anna.request(configure, "error")["code"] == "not_host"
    assert anna.request({"type": "kick", "seat": 0}, "error")["code"] == "not_host"
    assert anna.request({"type": "host", "code": code, "host_token": P.new_token()}, "error")["code"] == "not_host"
    assert not table_of(server, code).started and table_of(server, code).seats[1].kind == "friend"
    # The host changes the table: seat 1 becomes a computer, and the match starts (seat 0 is here).
    host.send(configure)
    again = host.expect("created")
    assert again["code"] == code and again["host_token"] == created["host_token"] and again["tokens"] == {}
    lobby = anna.expect("lobby")
    assert lobby["seats"][1] == {"kind": "ai", "name": None, "connected": True, "level": "easy"}
    assert anna.expect("lobby")["started"] is True
    assert host.request({**configure, "seats": ["friend", "friend"]}, "error")["code"] == "started"
    anna.close()
    host.close()


def test_a_second_connection_with_the_host_token_becomes_host_and_kicks(server):
    first, created = create(server.url, "scopa", 3, ["friend", "friend", "friend"])
    code = created["code"]
    bo = Client(server.url, "Bo")
    bo.request({"type": "join", "code": code, "name": "Bo", "token": created["tokens"]["1"]}, "joined")
    host = Client(server.url, "Host again")
    lobby = host.request({"type": "host", "code": code, "host_token": created["host_token"]}, "lobby")
    assert lobby["host"] is True and lobby["seats"][1]["name"] == "Bo"
    assert first.request({"type": "kick", "seat": 1}, "error")["code"] == "not_host"  # replaced as host
    host.send({"type": "kick", "seat": 1})
    assert bo.expect("error")["code"] == "kicked"
    assert host.expect("lobby")["seats"][1] == {"kind": "friend", "name": None, "connected": False, "level": None}
    # The kicked player's token no longer opens the seat.
    again = Client(server.url, "Bo")
    assert (
        again.request({"type": "join", "code": code, "name": "Bo", "token": created["tokens"]["1"]}, "error")["code"]
        == "bad_token"
    )
    assert host.request({"type": "kick", "seat": 5}, "error")["code"] == "config"
    for c in (first, bo, host, again):
        c.close()


def test_join_errors(server):
    host, created = create(server.url, "briscola", 2, ["friend", "ai:greedy"])
    c = Client(server.url, "Cy")
    assert c.request({"type": "join", "code": "ZZZZZZZZZZ", "name": "Cy", "token": None}, "error")["code"] == "no_table"
    assert (
        c.request({"type": "join", "code": created["code"], "name": "Cy", "token": P.new_token()}, "error")["code"]
        == "bad_token"
    )
    assert c.request({"type": "join", "code": created["code"], "name": "Cy", "token": None}, "joined")["seat"] == 0
    d = Client(server.url, "Di")
    assert d.request({"type": "join", "code": created["code"], "name": "Di", "token": None}, "error")["code"] == "full"
    for x in (host, c, d):
        x.close()


def hand_of(events: list[dict], seat: int) -> set[str]:
    """The cards of ``seat``'s hand from its (redacted) stream."""
    hand: set[str] = set()
    for ev in events:
        if ev["event"] == "deal":
            hand = set(ev["hands"][seat])
        elif ev["event"] == "hands":
            hand |= set(ev["hands"][seat])
        elif ev["event"] == "draw" and ev["seat"] == seat:
            hand.add(ev["card"])
        elif ev["event"] == "play" and ev["seat"] == seat:
            hand.discard(ev["card"])
    return hand


def test_out_of_turn_stale_and_illegal_plays_are_refused_and_named(server):
    host, created = create(server.url, "scopa", 2, ["friend", "friend"])
    code, tokens = created["code"], created["tokens"]
    a, b = Client(server.url, "A"), Client(server.url, "B")
    a.request({"type": "join", "code": code, "name": "A", "token": tokens["0"]}, "joined")
    b.request({"type": "join", "code": code, "name": "B", "token": tokens["1"]}, "joined")
    turn_a, turn_b = a.expect("turn"), b.expect("turn")
    assert turn_a["seat"] == turn_b["seat"] and turn_a["decision"] == 0
    mover, waiter = (a, b) if turn_a["seat"] == 0 else (b, a)
    legal = (turn_a if mover is a else turn_b)["legal"]
    assert legal and (turn_b if mover is a else turn_a)["legal"] == []
    waiter_events = [m for m in waiter.seen if m["type"] == "events"][-1]["events"]
    own = sorted(hand_of(waiter_events, 1 - turn_a["seat"]))
    # Out of turn, with the right decision number and a card of its own hand.
    waiter.send({"type": "act", "decision": 0, "action": {"kind": "play", "card": own[0], "capture": []}})
    r = waiter.expect("refused")
    assert r["rule"] == "not_your_turn" and r["decision"] == 0
    # The seat to act, with a wrong decision number.
    mover.send({"type": "act", "decision": 3, "action": legal[0]})
    assert mover.expect("refused")["rule"] == "stale"
    # A card it does not hold (the waiter's): the rules' own rule id, params as codes.
    mover.send({"type": "act", "decision": 0, "action": {"kind": "play", "card": own[0], "capture": []}})
    r = mover.expect("refused")
    assert r["rule"] == "not_in_hand" and r["params"] == {"card": own[0]} and r["decision"] == 0
    # A decision the game does not have.
    mover.send({"type": "act", "decision": 0, "action": {"kind": "close"}})
    assert mover.expect("refused")["rule"] == "not_in_game"
    table = table_of(server, code)
    assert len(table.match.decisions) == 0
    # And the legal one goes through: both are sent the play.
    mover.send({"type": "act", "decision": 0, "action": legal[0]})
    for c in (mover, waiter):
        ev = c.expect("events")
        assert ev["events"][0]["event"] == "play" and ev["events"][0]["card"] == legal[0]["card"]
        assert c.expect("turn")["decision"] == 1
    for c in (host, a, b):
        c.close()


def test_quick_phrases_reach_the_table(server):
    host, created = create(server.url, "briscola", 2, ["friend", "friend"])
    a, b = Client(server.url, "A"), Client(server.url, "B")
    a.request({"type": "join", "code": created["code"], "name": "A", "token": None}, "joined")
    b.request({"type": "join", "code": created["code"], "name": "B", "token": None}, "joined")
    a.send({"type": "say", "phrase": "well_played"})
    for c in (a, b, host):
        assert c.expect("said") == {"type": "said", "seat": 0, "phrase": "well_played"}
    assert a.request({"type": "say", "phrase": "you lose"}, "error")["code"] == "schema"
    outsider = Client(server.url, "O")
    assert outsider.request({"type": "say", "phrase": "oops"}, "error")["code"] == "not_seated"
    for c in (host, a, b, outsider):
        c.close()


def test_a_whole_two_friend_match_verifies(server):
    host, created = create(server.url, "scopa", 2, ["friend", "friend"])
    players = [Player(server.url, created["code"], created["tokens"][str(s)], f"P{s}", seed=s).start() for s in (0, 1)]
    for p in players:
        p.join(timeout=60)
    assert players[0].record and players[0].record == players[1].record
    record = record_file(server.data_dir, players[0].record)
    assert verify_file(record).ok, verify_file(record)
    events = read_record(record)
    assert events[-1]["event"] == "match_end"
    rules = make_rules("scopa", None, 2)
    for p in players:
        assert p.events == seat_events(rules, events, p.seat)  # exactly the seat's view, nothing more
        assert not p.refused
    host.close()


def test_a_match_with_computer_seats_verifies(server):
    host, created = create(server.url, "briscola", 4, ["friend", "ai:greedy", "friend", "ai:easy"])
    players = [Player(server.url, created["code"], created["tokens"][str(s)], f"P{s}", seed=s).start() for s in (0, 2)]
    for p in players:
        p.join(timeout=60)
    assert verify_file(record_file(server.data_dir, players[0].record)).ok
    host.close()


def test_a_dropped_seat_is_paused_played_by_the_computer_and_given_back(server):
    host, created = create(server.url, "scopa", 2, ["friend", "friend"], pause_seconds=0, ai_takes_over=True)
    code, tokens = created["code"], created["tokens"]
    stay = Player(server.url, code, tokens["0"], "Stay", seed=3).start()
    drop = Client(server.url, "Drop")
    drop.request({"type": "join", "code": code, "name": "Drop", "token": tokens["1"]}, "joined")
    seen = drop.expect("events")["events"]
    drop.close()
    # The computer takes the seat at once (pause 0) and the match goes on without the player.
    msgs = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(m["type"] == "resumed" and m.get("by") == "ai" for m in msgs):
        msgs.append(host.recv(timeout=max(0.05, deadline - time.monotonic())))
    paused = next(m for m in msgs if m["type"] == "paused")
    assert paused == {"type": "paused", "seat": 1, "seconds": 0, "then": "ai"}
    table = table_of(server, code)
    t = time.monotonic()
    while len(table.match.decisions) < 6 and time.monotonic() - t < 10:
        time.sleep(0.02)
    assert len(table.match.decisions) >= 6
    # Back with the token: the same seat, the whole stream again, and the seat is the player's.
    back = Client(server.url, "Drop")
    joined = back.request({"type": "join", "code": code, "name": "Drop", "token": tokens["1"]}, "joined")
    assert joined["seat"] == 1 and joined["token"] == tokens["1"]
    stream = back.expect("events")
    assert stream["from"] == 0 and stream["events"][: len(seen)] == seen
    assert back.expect("resumed") == {"type": "resumed", "seat": 1}
    assert not table.seats[1].by_ai
    # Gone again: the computer finishes the match for it; the record verifies.
    back.close()
    stay.join(timeout=60)
    assert verify_file(record_file(server.data_dir, stay.record)).ok
    host.close()


def test_a_stale_connection_is_replaced_by_the_token(server):
    host, created = create(server.url, "briscola", 2, ["friend", "ai:greedy"])
    old = Client(server.url, "Old")
    old.request({"type": "join", "code": created["code"], "name": "Old", "token": created["tokens"]["0"]}, "joined")
    new = Client(server.url, "New")
    assert (
        new.request(
            {"type": "join", "code": created["code"], "name": "New", "token": created["tokens"]["0"]}, "joined"
        )["seat"]
        == 0
    )
    assert old.expect("error")["code"] == "replaced"
    with pytest.raises(ConnectionClosed):
        for _ in range(100):
            old.recv(timeout=3)
    for c in (host, new):
        c.close()


def test_configure_gives_fresh_tokens_for_the_seats_nobody_has_taken(server):
    host, created = create(server.url, "scopa", 2, ["friend", "friend"])
    code, old = created["code"], created["tokens"]
    anna = Client(server.url, "Anna")
    anna.request({"type": "join", "code": code, "name": "Anna", "token": old["0"]}, "joined")
    host.send(
        {
            "type": "configure",
            "game": "scopa",
            "deck": None,
            "players": 4,
            "options": {},
            "seats": ["friend", "ai:easy", "friend", "friend"],
            "pause_seconds": 5,
            "ai_takes_over": False,
        }
    )
    again = host.expect("created")
    assert sorted(again["tokens"]) == ["2", "3"]
    assert anna.expect("lobby")["players"] == 2  # the one her join brought
    lobby = anna.expect("lobby")
    assert lobby["players"] == 4 and lobby["seats"][0]["name"] == "Anna" and lobby["you"] == 0
    assert lobby["pause_seconds"] == 5 and lobby["ai_takes_over"] is False
    # The old token of the seat that became a computer opens nothing; the new ones do.
    c = Client(server.url, "Cy")
    assert c.request({"type": "join", "code": code, "name": "Cy", "token": old["1"]}, "error")["code"] == "bad_token"
    assert c.request({"type": "join", "code": code, "name": "Cy", "token": again["tokens"]["3"]}, "joined")["seat"] == 3
    for x in (host, anna, c):
        x.close()


#: The self-signed pair the TLS tests serve with (also bench/tls_openings.py's).
TLS_CERT = Path(__file__).parents[1] / "tls_test_cert.pem"
TLS_KEY = Path(__file__).parents[1] / "tls_test_key.pem"


def test_tls(tmp_path):
    import ssl

    cert, key = TLS_CERT, TLS_KEY
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, certfile=str(cert), keyfile=str(key))
    try:
        assert h.url.startswith("wss://127.0.0.1:")
        ctx = ssl.create_default_context(cafile=str(cert))
        from websockets.sync.client import connect

        with connect(h.url, ssl=ctx, open_timeout=10, proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "version": 1, "name": "Tee"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        with pytest.raises((InvalidHandshake, OSError)):  # a plain connection to the TLS port gets none
            Client(h.url.replace("wss://", "ws://"), timeout=3)
    finally:
        assert h.stop(timeout=10)


def test_tls_on_the_servers_default_event_loop(tmp_path):
    """``main.py serve`` with a certificate, on the loop it picks by default (uvloop where
    installed: its own TLS transport): a wss client is welcomed and answered (its whole frames
    taken by the server's fast path), a plain ws connection gets nothing, and SIGTERM stops
    the server cleanly."""
    import signal
    import ssl
    import subprocess
    import sys

    from websockets.sync.client import connect

    root = Path(__file__).resolve().parents[3]
    p = subprocess.Popen(
        [sys.executable, str(root / "main.py"), "serve", "--port", "0", "--data", str(tmp_path / "d")]
        + ["--certfile", str(TLS_CERT), "--keyfile", str(TLS_KEY)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
    )
    try:
        line = p.stdout.readline()
        assert "cardavia server on wss://127.0.0.1:" in line, (line, p.poll())
        url = line.split(" on ", 1)[1].split(",", 1)[0]
        ctx = ssl.create_default_context(cafile=str(TLS_CERT))
        with connect(url, ssl=ctx, open_timeout=10, proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "version": 1, "name": "Tee"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
        with pytest.raises((InvalidHandshake, OSError)):
            Client(url.replace("wss://", "ws://"), timeout=3)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            assert p.wait(15) == 0
        finally:
            if p.poll() is None:
                p.kill()
            p.stdout.close()
            p.stderr.close()


def test_the_tls_server_sends_no_session_tickets():
    """A ticket arrives after the handshake, racing the sync client's two threads on one
    OpenSSL object (game.online.server.serving.tls_context): the server must send none."""
    import socket
    import ssl
    import threading

    from game.online.server.serving import tls_context

    cert, key = TLS_CERT, TLS_KEY
    server_ctx = tls_context(str(cert), str(key))
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(10)

        def answer() -> None:
            conn, _ = listener.accept()
            with server_ctx.wrap_socket(conn, server_side=True) as s:
                s.settimeout(10)
                s.recv(2)
                s.sendall(b"ok")
                s.recv(1)  # until the client closes

        t = threading.Thread(target=answer, daemon=True)
        t.start()
        client_ctx = ssl.create_default_context(cafile=str(cert))
        raw = socket.create_connection(listener.getsockname(), timeout=10)
        with client_ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s:
            s.sendall(b"hi")
            assert s.recv(2) == b"ok"  # any ticket was read before this answer
            assert s.version() == "TLSv1.3"
            assert s.session is not None and not s.session.has_ticket
        t.join(10)


def test_a_killed_worker_process_is_replaced(tmp_path):
    import os
    import signal

    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1)
    try:
        host, created = create(h.url, "briscola", 2, ["friend", "ai:greedy"])
        pool = h.server.pool
        deadline = time.monotonic() + 20
        while not pool._processes and time.monotonic() < deadline:  # spawned at the warm-up
            time.sleep(0.02)
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        p = Player(h.url, created["code"], created["tokens"]["0"], "P0", seed=1).start()
        p.join(timeout=60)
        assert verify_file(record_file(h.data_dir, p.record)).ok
        assert h.server.pool is not pool
        host.close()
    finally:
        assert h.stop(timeout=10)


def test_the_default_data_folder_is_beside_the_game_s_files(_private_home):
    h = start_server_in_thread("127.0.0.1", 0)
    try:
        assert h.data_dir == _private_home / "server" and h.data_dir.is_dir()
        assert h.data_dir.stat().st_mode & 0o077 == 0
    finally:
        assert h.stop(timeout=10)


def test_lobbies_and_cut_records_are_resumed(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path)
    try:
        _, lobby_only = create(h.url, "briscola", 2, ["friend", "friend"])
        _, playing = create(h.url, "scopa", 2, ["friend", "friend"])
        early = [
            Player(h.url, playing["code"], playing["tokens"][s], f"P{s}", seed=int(s), stop_after=9).start()
            for s in ("0", "1")
        ]
        for p in early:
            p.join(timeout=30)
    finally:
        assert h.stop(timeout=10)
    record = tmp_path / f"{playing['code']}.jsonl"
    lines = record.read_bytes().splitlines(keepends=True)
    record.write_bytes(b"".join(lines[:-1]) + lines[-1][:7])  # the last line cut mid-way, as by a crash
    h = start_server_in_thread("127.0.0.1", 0, tmp_path)
    try:
        assert h.server.resumed == 2
        c = Client(h.url, "Bo")
        assert (
            c.request(
                {"type": "join", "code": lobby_only["code"], "name": "Bo", "token": lobby_only["tokens"]["1"]}, "joined"
            )["seat"]
            == 1
        )
        c.close()
        late = [
            Player(h.url, playing["code"], playing["tokens"][s], f"P{s}", seed=5 + int(s)).start() for s in ("0", "1")
        ]
        for p in late:
            p.join(timeout=60)
        assert verify_file(str(record)).ok
        assert read_record(record)[: len(lines) - 1] == [json.loads(x) for x in lines[:-1]]
    finally:
        assert h.stop(timeout=10)


def test_the_per_address_limit_counts_every_address_but_loopback():
    from types import SimpleNamespace

    from game.online.server.limits import client_address as _counted_address

    def ws(addr, forwarded=None):
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}
        return SimpleNamespace(remote_address=addr, request=SimpleNamespace(headers=headers))

    assert _counted_address(ws(("127.0.0.1", 5000))) is None
    assert _counted_address(ws(("::1", 5000, 0, 0))) is None
    assert _counted_address(ws(("203.0.113.5", 5000))) == "203.0.113.5"
    assert _counted_address(ws(("2001:db8::1", 5000, 0, 0))) == "2001:db8::1"
    assert _counted_address(ws(None)) is None
    # Behind a proxy on this machine, the address the proxy forwarded (its last entry) counts.
    assert _counted_address(ws(("127.0.0.1", 5000), "10.0.0.1, 198.51.100.7")) == "198.51.100.7"
    assert _counted_address(ws(("127.0.0.1", 5000), "nonsense")) == "unreadable-forwarded-address"
    assert _counted_address(ws(("203.0.113.5", 5000), "198.51.100.7")) == "203.0.113.5"  # only a local proxy is trusted
    assert P.MAX_CONNECTIONS_PER_ADDRESS >= P.MAX_CONNECTIONS_PER_TABLE


def test_serve_freezes_old_objects_and_thaws_them_on_schedule(monkeypatch, tmp_path):
    """``serve``'s collector schedule: survivors are frozen every AGE_SECONDS (full passes stay
    short), and everything is thawed and collected every THAW_SECONDS (cyclic garbage among
    frozen objects is not kept for ever)."""
    import asyncio
    import gc
    import weakref

    from game.online.server import server as S

    monkeypatch.setattr(S, "AGE_SECONDS", 0.02)
    monkeypatch.setattr(S, "THAW_SECONDS", 0.1)

    class Node:
        pass

    async def run() -> tuple[int, bool]:
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only a full collection frees it
        gone = weakref.ref(a)
        gc.freeze()  # an old cycle, frozen while it was alive; then it becomes garbage
        del a, b
        gc.collect(1)
        assert gone() is not None
        task = asyncio.get_running_loop().create_task(S.TableServer(tmp_path)._age_objects())
        await asyncio.sleep(0.05)
        frozen = gc.get_freeze_count()
        await asyncio.sleep(0.12)
        task.cancel()
        return frozen, gone() is None

    try:
        frozen, freed = asyncio.run(run())
    finally:
        gc.unfreeze()
    assert frozen > 0 and freed


def test_every_client_message_type_has_one_handler(tmp_path):
    """The server dispatches by table (lobby actions, the play loop, its own hello/ping): a
    message type the protocol accepts but nothing handles would cost the player an error."""
    from game.online.server.server import TableServer

    server = TableServer(tmp_path)
    try:
        assert set(server.handlers) == set(P.CLIENT_MESSAGES)
        # ``say`` is the club's (its mutes apply), registered once: no part overrides another.
        assert server.handlers["say"] == server.club.manners.on_say
    finally:
        server.store.close()
        server.db.close()


def test_a_message_type_registered_twice_is_refused_when_the_server_is_built():
    from game.online.server.server import HandlerRegistry

    def handler(conn, msg):
        return None

    registry = HandlerRegistry()
    registry.register("say", handler)
    with pytest.raises(ValueError, match="'say' has two handlers"):
        registry.register("say", handler)
    with pytest.raises(ValueError, match="no client message"):
        registry.register("shutdown", handler)
    with pytest.raises(ValueError, match="no handler for the client message"):
        registry.complete()
