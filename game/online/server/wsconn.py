"""The server's websockets connection class (game.online.server.server uses it): it counts
the TCP connections from the moment they are accepted (each one a file descriptor; past the
limit plus headroom a socket is dropped before any byte is read, and one address's half-sent
requests fill only its own few slots), and hands a player's whole text frames to the server
as they arrive, without websockets' queue and a task switch per message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol, cast

from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import Event, State

from game.online.server.limits import ServerLimits, peer_address
from game.online.wire import protocol as P

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets without its C part
    from websockets.utils import apply_mask

log = logging.getLogger("cardavia.server")


#: The most bytes one read of a player's socket takes (see FrameSink.connection_made).
READ_BYTES = 64 * 1024
#: websockets' open state, looked up once (every read of a player's socket compares it).
_OPEN = State.OPEN


class SocketCounts(Protocol):
    """What the connections count in (the server): its limits, its sockets, per address."""

    limits: ServerLimits
    sockets: int
    _sockets_of: dict[str, int]
    _opening_of: dict[str, int]


def forget(counts: dict[str, int], address: str | None) -> None:
    """One socket of ``address`` less in ``counts``."""
    if address is None:
        return
    left = counts.get(address, 1) - 1
    if left > 0:
        counts[address] = left
    else:
        counts.pop(address, None)


class Batching(Protocol):
    """The server's writes of one turn of the event loop (game.online.server.seats.Flusher)."""

    #: A flush at the turn's end is asked for already.
    scheduled: bool

    def flush(self) -> None: ...


class FrameSink(ServerConnection):
    """A connection whose whole text frames go straight to ``sink`` (see the module)."""

    #: Where a whole text frame goes as it arrives (set by the server's handler):
    #: handled at once, without websockets' queue and a task switch per message.
    sink: Callable[[str], None] | None = None
    #: Flushed once the frames of one read were handled: what they made the server send
    #: goes out now, not one more turn of the event loop later (and no flush at the turn's
    #: end is asked for it).
    flusher: Batching | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # asyncio reads up to 256 KiB at a time into a new bytes object: above the C
        # allocator's mmap threshold, so every read of a few dozen bytes cost an mmap, an
        # mremap and a munmap. A smaller buffer comes from the heap; a longer message (at
        # most MAX_MESSAGE_BYTES) simply takes more reads.
        if isinstance(getattr(transport, "max_size", None), int):
            transport.max_size = READ_BYTES  # type: ignore[attr-defined]
        super().connection_made(transport)

    #: Reads from the peer so far, and as many as there were at the keepalive's last look.
    _reads = 0
    _reads_seen = 0

    async def keepalive(self) -> None:
        """websockets' keepalive, less the pings to a peer that has sent something since the
        last look: bytes from it prove the connection alive as a pong would (a busy table's
        players write every few seconds). A peer silent for a whole interval is pinged, and
        closed when no pong comes in time, as before."""
        assert self.ping_interval is not None
        latency = 0.0
        try:
            while True:
                await asyncio.sleep(self.ping_interval - latency)
                latency = 0.0
                if self._reads != self._reads_seen:
                    self._reads_seen = self._reads
                    continue
                pong_received = await self.ping()
                if self.ping_timeout is not None:
                    try:
                        async with asyncio.timeout(self.ping_timeout):
                            latency = await pong_received
                    except TimeoutError:
                        async with self.send_context():
                            self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
                        raise AssertionError("send_context() waits for connection_lost(): never here") from None
                self._reads_seen = self._reads  # the pong's own read is no news
        except Exception:  # noqa: BLE001 - as websockets' own: logged, the connection's end is handled there
            self.logger.error("keepalive ping failed", exc_info=True)

    def data_received(self, data: bytes) -> None:
        self._reads += 1
        # The usual bytes of a player — one or a few whole, short, masked text
        # frames — go to the sink as they are; anything else, and anything while
        # websockets holds part of a frame or a message, through websockets.
        if self.sink is None or not self._whole_texts(data):
            super().data_received(data)

    def _whole_texts(self, data: bytes) -> bool:
        protocol = self.protocol
        if (
            protocol.state is not _OPEN
            or protocol.current_size is not None
            or protocol.reader.buffer
            or protocol.extensions
            or len(self.recv_messages.frames)  # websockets holds messages not yet read
        ):
            return False
        limit = protocol.max_message_size or P.MAX_MESSAGE_BYTES
        texts, pos, n = [], 0, len(data)
        while pos < n:
            # A text frame, FIN, no reserved bit (0x81); masked, as a client's must be.
            if n - pos < 6 or data[pos] != 0x81 or not data[pos + 1] & 0x80:
                return False
            length, head = data[pos + 1] & 0x7F, pos + 2
            if length == 127:
                return False
            if length == 126:
                if n - pos < 8:
                    return False
                length, head = int.from_bytes(data[head : head + 2], "big"), head + 2
            end = head + 4 + length
            if length > limit or end > n:
                return False
            texts.append(apply_mask(data[head + 4 : end], data[head : head + 4]))
            pos = end
        try:
            decoded = [t.decode() for t in texts]
        except UnicodeDecodeError:
            return False  # websockets closes the connection (1007), as before
        sink, flusher = self.sink, self.flusher
        held = flusher is not None and not flusher.scheduled
        if flusher is not None and held:  # what these frames send is flushed below: no callback
            flusher.scheduled = True  # at the turn's end for it
        try:
            for text in decoded:
                if sink is None:  # the connection's handler ended meanwhile
                    break
                try:
                    sink(text)
                except Exception:  # noqa: BLE001 - a bug costs the message, not the socket
                    log.exception("a message could not be handled")
                sink = self.sink
        finally:
            if flusher is not None:
                flusher.flush()
                if held:
                    flusher.scheduled = False
        return True

    def process_event(self, event: Event) -> None:
        sink = self.sink
        if sink is not None and isinstance(event, Frame) and event.opcode is Opcode.TEXT and event.fin:
            # Only while websockets' queue is empty: a message queued before (one
            # that arrived before the sink was set, a fragmented one) goes first.
            queued = getattr(getattr(self, "recv_messages", None), "frames", None)
            if queued is not None and not len(queued):
                try:
                    text = bytes(event.data).decode()
                except UnicodeDecodeError:
                    pass  # websockets' queue closes the connection (1007), as before
                else:
                    try:
                        sink(text)
                    except Exception:  # noqa: BLE001 - a bug costs the message, not the socket
                        log.exception("a message could not be handled")
                    return
        super().process_event(event)


def counting_connection(server: SocketCounts) -> type[ServerConnection]:
    """websockets' connection class for ``server`` (see the module)."""
    cap = server.limits.max_connections + max(8, server.limits.max_open_records // 2)

    class Counted(FrameSink):
        #: The address this socket counts for (None: unlimited), and whether it is still
        #: in its opening handshake.
        _address: str | None = None
        _opening = False

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            server.sockets += 1
            self._counted = True
            address = peer_address(transport.get_extra_info("peername"), server.limits)
            if address is not None:
                self._address, self._opening = address, True
                server._sockets_of[address] = server._sockets_of.get(address, 0) + 1
                server._opening_of[address] = server._opening_of.get(address, 0) + 1
            # Counted from the accept, before a byte is read: one address's half-sent
            # requests (slow headers) fill only its own few slots, never the server's.
            if server.sockets > cap or (
                address is not None
                and (
                    server._opening_of[address] > P.MAX_HANDSHAKES_PER_ADDRESS
                    or server._sockets_of[address] > P.MAX_CONNECTIONS_PER_ADDRESS
                )
            ):
                # A stream server's transport (TCP, or TLS over it) is an asyncio.Transport.
                cast(asyncio.Transport, transport).abort()
            super().connection_made(transport)

        def opened(self) -> None:
            """The opening handshake is over (answered, upgraded or refused)."""
            if self._opening:
                self._opening = False
                forget(server._opening_of, self._address)

        def connection_lost(self, exc: Exception | None) -> None:
            if getattr(self, "_counted", False):
                self._counted = False
                server.sockets -= 1
                self.opened()
                forget(server._sockets_of, self._address)
            super().connection_lost(exc)

    return Counted


__all__ = ["READ_BYTES", "Batching", "FrameSink", "SocketCounts", "counting_connection", "forget"]
