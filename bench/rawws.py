"""A minimal WebSocket client for the load bench (bench/server_load.py): one asyncio protocol
per connection, frames built and read by hand, no task per connection and no queue between
the socket and the code that reads it — so that the bench's thousands of seats cost little
CPU beside the server it measures.

RFC 6455 as far as a client of the table server needs it: the opening handshake, text frames
(a client masks what it sends; websockets' C ``apply_mask`` when it is there), answers to the
server's pings, the closing handshake. Not a general client: the server's frames are never
fragmented (each message is one frame), and anything else ends the connection.
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
from collections.abc import Callable
from urllib.parse import urlsplit

try:
    from websockets.speedups import apply_mask
except ImportError:  # the pure-Python mask (slower, same bytes)

    def apply_mask(data: bytes, mask: bytes) -> bytes:
        n = len(data)
        if not n:
            return b""
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        return (int.from_bytes(data, "big") ^ key).to_bytes(n, "big")


TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


class RawSocket(asyncio.Protocol):
    """One client connection: ``on_text(text)`` is called with each text message as it is
    read, ``on_lost()`` once the connection is gone."""

    def __init__(self, on_text: Callable[[str], None], on_lost: Callable[[], None] | None = None):
        self.on_text = on_text
        self.on_lost = on_lost
        self.buf = bytearray()
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.handshaking = True
        self.closed = False

    # ---- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if self.handshaking:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end])
            del buf[: end + 4]
            self.handshaking = False
            if not head.startswith(b"HTTP/1.1 101"):
                if not self.opened.done():
                    self.opened.set_exception(ConnectionError(head.split(b"\r\n", 1)[0].decode("latin-1")))
                self.abort()
                return
            if not self.opened.done():
                self.opened.set_result(None)
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            length, pos = b1 & 0x7F, 2
            if length == 126:
                if len(buf) < 4:
                    return
                length, pos = int.from_bytes(buf[2:4], "big"), 4
            elif length == 127:
                if len(buf) < 10:
                    return
                length, pos = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < pos + length:
                return
            payload = bytes(buf[pos : pos + length])
            del buf[: pos + length]
            op = b0 & 0x0F
            if op == TEXT and b0 & 0x80:
                self.on_text(payload.decode())
            elif op == PING:
                self._send(PONG, payload)
            elif op == PONG:
                pass
            elif op == CLOSE:
                self._send(CLOSE, payload[:2])
                self.abort()
                return
            else:  # a fragment or a binary frame: not this server's
                self.abort()
                return

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("the connection was closed while opening"))
        if self.on_lost is not None:
            self.on_lost()

    # ---- sending
    def send_text(self, text: str) -> None:
        self._send(TEXT, text.encode())

    def _send(self, op: int, payload: bytes) -> None:
        if self.transport is None or self.closed or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | op, 0xFE)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | op, 0xFF)) + n.to_bytes(8, "big")
        mask = random.getrandbits(32).to_bytes(4, "big")
        self.transport.write(head + mask + apply_mask(payload, mask))

    def close(self) -> None:
        """Say goodbye (close code 1000) and close the socket once that is written."""
        if self.transport is not None and not self.closed and not self.transport.is_closing():
            self._send(CLOSE, (1000).to_bytes(2, "big"))
            self.transport.close()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def open_raw(
    url: str, on_text: Callable[[str], None], on_lost: Callable[[], None] | None = None, timeout: float = 30.0
) -> RawSocket:
    """A RawSocket to ``ws://host:port`` once the server has accepted the upgrade."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    _transport, proto = await asyncio.wait_for(
        loop.create_connection(lambda: RawSocket(on_text, on_lost), host, port), timeout
    )
    key = base64.b64encode(os.urandom(16)).decode("ascii")
    assert proto.transport is not None
    proto.transport.write(
        (
            f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode("ascii")
    )
    try:
        await asyncio.wait_for(asyncio.shield(proto.opened), timeout)
    except BaseException:
        proto.abort()
        raise
    return proto


__all__ = ["RawSocket", "open_raw"]
