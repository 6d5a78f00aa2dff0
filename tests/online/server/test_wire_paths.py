"""The server's short paths for a player's frames and its own writes
(game.online.server.wsconn, game.online.server.seats.Conn.flush) keep what websockets' own
paths did: every message answered in the order sent, whatever way its frames came (whole,
fragmented, several in one packet, a binary frame); and the record's lines keep their bytes
(game.online.server.store writes them with an encoder of its own)."""

from __future__ import annotations

import json
import socket

import pytest

from game.online.server.serving import start_server_in_thread
from game.online.server.store import TableStore
from game.record import dumps
from tests.online.wshelp import Client


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("tables"), workers=1)
    yield handle
    assert handle.stop(timeout=10)


def test_messages_are_answered_in_order_whatever_their_frames(server):
    c = Client(server.url)
    c.send({"type": "ping"})
    # A fragmented message goes through websockets' queue; what follows it waits its turn.
    c.ws.send(iter(['{"type": ', '"ping"}']))
    c.send('{"type": "nope"}')
    c.send(b'{"type": "ping"}')  # a binary frame: refused, the connection kept
    c.send({"type": "ping"})
    got = [c.recv() for _ in range(5)]
    assert [m["type"] for m in got] == ["pong", "pong", "error", "error", "pong"]
    assert got[2]["code"] == got[3]["code"] == "schema" and "binary" in got[3]["message"]


def test_several_frames_in_one_packet_are_all_answered(server):
    """Frames written at once (as a busy client's are read) are each handled, in order."""
    c = Client(server.url)
    protocol = c.ws.protocol
    for _ in range(3):
        protocol.send_text(b'{"type": "ping"}')
    protocol.send_text(json.dumps({"type": "join", "code": "AAAAAAAAAA", "name": "x", "token": None}).encode())
    c.ws.socket.sendall(b"".join(protocol.data_to_send()))
    assert [c.recv()["type"] for _ in range(4)] == ["pong", "pong", "pong", "error"]


def test_a_frame_cut_across_packets_is_read_whole(server):
    c = Client(server.url)
    protocol = c.ws.protocol
    protocol.send_text(b'{"type": "ping"}')
    data = b"".join(protocol.data_to_send())
    sock: socket.socket = c.ws.socket
    sock.sendall(data[:5])
    with pytest.raises(TimeoutError):  # half a frame: nothing to answer yet
        c.ws.recv(timeout=0.3)
    sock.sendall(data[5:])
    assert c.recv()["type"] == "pong"
    c.send({"type": "ping"})  # and the next whole frame takes the short path again
    assert c.recv()["type"] == "pong"


def test_record_lines_keep_the_record_modules_bytes(tmp_path):
    store = TableStore(tmp_path)
    code = "ABCDEFGHJK"
    first = [{"event": "match", "game": "scopa", "seed": 2**200, "note": "è ü ß 牌"}]
    store.start_record(code, first)
    later = [
        {"event": "play", "seat": 1, "card": "7D", "by": "computer"},
        {"event": "score", "values": [1.5, -0.0, 1e16, 3], "flags": [True, False, None], "x": {"1": 2}},
    ]
    store.append(code, later, len(first))
    store.close()
    expected = "".join(dumps(ev) + "\n" for ev in first + later).encode("utf-8")
    assert store.record_path(code).read_bytes() == expected
