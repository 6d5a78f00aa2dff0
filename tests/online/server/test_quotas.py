"""Two denial-of-service holes, reproduced and closed.

1. One client with many connections from one address creating tables until refused: the
   address's quota stops it (another address still makes tables), and its empty lobbies
   close within the idle time, freeing the quota.
2. ``main.py serve`` under a low open-files limit: the excess connections get HTTP 503 at
   once, a match plays on to its end untouched, and nothing is written as a traceback.

Every loop is bounded (count and time); everything on 127.0.0.1 (the forwarded address is
the one a local proxy would write)."""

from __future__ import annotations

import logging
import os
import socket
import sys
import time

from game.online.server.limits import OnceFilter, ServerLimits, fd_budget
from game.online.server.serving import start_server_in_thread
from game.verify import verify_file
from tests.online.wshelp import Client, Player, create, record_file

CREATE = {
    "type": "create",
    "game": "scopa",
    "deck": None,
    "players": 2,
    "options": {},
    "seats": ["friend", "ai:easy"],
    "pause_seconds": 60,
    "ai_takes_over": True,
}


def test_one_address_cannot_take_every_table_and_idle_lobbies_close(tmp_path):
    limits = ServerLimits(tables_per_address=6, idle_close_seconds=1.0)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=limits)
    try:
        attacker = {"X-Forwarded-For": "203.0.113.9"}
        conns = [Client(h.url, "Mallory", headers=attacker) for _ in range(4)]
        made, refused = 0, None
        for attempt in range(40):  # bounded: far more than the quota
            c = conns[attempt % len(conns)]
            c.send(CREATE)
            reply = c.recv()
            for _ in range(20):  # a created table is followed by its lobby
                if reply["type"] in ("created", "error"):
                    break
                reply = c.recv()
            if reply["type"] == "created":
                made += 1
            else:
                refused = reply
                break
        assert made == 6, made  # spread over 4 connections, the address still made only its quota
        assert refused is not None and refused["code"] == "limit" and "open tables" in refused["message"]
        # Everyone else still makes a table.
        other = Client(h.url, "Anna", headers={"X-Forwarded-For": "198.51.100.4"})
        assert other.request(CREATE, "created")["code"]
        # The attacker goes: its empty lobbies close within the idle time and the quota is free again.
        for c in conns:
            c.close()
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and h.server.quota.by_address.get("203.0.113.9"):
            time.sleep(0.1)
        assert not h.server.quota.by_address.get("203.0.113.9")
        back = Client(h.url, "Mallory", headers=attacker)
        assert back.request(CREATE, "created")["code"]
        back.close()
        other.close()
    finally:
        assert h.stop(timeout=10)


def _handshake(port: int) -> tuple[socket.socket, int]:
    """One raw websocket handshake (no thread per connection): the socket and the status."""
    s = socket.create_connection(("127.0.0.1", port), timeout=3)
    s.sendall(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n" not in head and len(head) < 4096:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return s, status


def test_a_server_under_a_low_open_files_limit_refuses_the_excess_with_503_and_plays_on(tmp_path):
    import resource

    from tests.online.server.test_restart import ServeProcess

    low = 160

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (low, low))  # soft = hard: serve cannot raise it

    srv = ServeProcess(tmp_path, preexec=lower)
    expected = fd_budget(low, ServerLimits()).max_connections
    assert f"at most {expected} connections" in srv.first
    held: list[socket.socket] = []
    try:
        host, created = create(srv.url, "scopa", 2, ["friend", "ai:easy"])
        player = Player(
            srv.url, created["code"], created["tokens"]["0"], "Anna", seed=3, pace=0.02, deadline=60
        ).start()
        port = int(srv.url.rsplit(":", 1)[1])
        statuses: list[int] = []
        slowest = 0.0
        for _ in range(low + 40):  # bounded: more than the limit allows
            t = time.monotonic()
            s, status = _handshake(port)
            slowest = max(slowest, time.monotonic() - t)
            statuses.append(status)
            if status == 101:
                held.append(s)
            else:
                s.close()
            if statuses[-5:] == [503] * 5:
                break
        assert 101 in statuses and statuses[-5:] == [503] * 5, statuses[-10:]
        assert len(held) + 2 <= expected  # the host and the player hold two
        assert slowest < 3.0  # refused at once, never left hanging in the handshake
        player.join(60)
        assert player.record is not None and verify_file(record_file(tmp_path, player.record)).ok
        host.close()
    finally:
        for s in held:
            s.close()
        code = srv.stop()
    err = srv.proc.stderr.read()
    assert code == 0 and "Traceback" not in err, err[-2000:]


def test_a_repeated_error_is_logged_once_with_a_count():
    now = [0.0]
    once = OnceFilter(window=60.0, clock=lambda: now[0])
    records = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    log = logging.getLogger("cardavia.test-once")
    handler = Keep()
    handler.addFilter(once)
    log.addHandler(handler)
    log.propagate = False
    try:
        for i in range(5000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                log.exception("accept failed for connection %d", i)
        log.warning("something else")
        now[0] = 61.0
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            log.exception("accept failed for connection %d", 5001)
    finally:
        log.removeHandler(handler)
    assert records[0] == "accept failed for connection 0"
    assert records[1] == "something else"
    assert records[2] == "accept failed for connection 5001 (and 4999 more like it in the last 60 s)"
    assert len(records) == 3


def test_serve_raises_its_open_files_limit_as_far_as_allowed():
    import resource
    import subprocess

    code = (
        "import resource; from game.online.server.limits import raise_open_files_limit as r; "
        "print(r()[0], resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 300))

    out = subprocess.run(
        [sys.executable, "-c", code],
        preexec_fn=lower,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))),
    )
    assert out.stdout.split() == ["300", "300"], out.stderr


def test_one_player_on_many_connections_has_a_quota_of_tables_too(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path, workers=1, limits=ServerLimits(tables_per_player=3))
    try:
        first = Client(h.url, "Mallory")
        secret = first.request({"type": "account", "name": "Mallory", "secret": None}, "account")["secret"]
        conns = [first] + [Client(h.url, "Mallory") for _ in range(3)]
        for c in conns[1:]:
            c.request({"type": "account", "name": "Mallory", "secret": secret}, "account")
        made = 0
        for attempt in range(12):  # bounded
            c = conns[attempt % len(conns)]
            c.send(CREATE)
            reply = c.recv()
            for _ in range(20):
                if reply["type"] in ("created", "error"):
                    break
                reply = c.recv()
            if reply["type"] == "error":
                assert reply["code"] == "limit" and "open tables" in reply["message"]
                break
            made += 1
        assert made == 3
        # A quick match counts as well: the player cannot queue with the quota used up.
        assert first.request({"type": "quick", "game": "scopa", "preset": None}, "error")["code"] == "limit"
        for c in conns:
            c.close()
    finally:
        assert h.stop(timeout=10)
