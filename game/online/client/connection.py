"""Online tables: one websocket to a server in a daemon thread (:class:`Connection`), so the
window never waits on the network. It connects, greets the server, reads frames into a
queue and, when the connection drops, connects again with a growing pause, for a bounded
time. :class:`game.online.client.client.RemoteSession` drains that queue. Pure Python: no pygame.
"""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

#: Seconds for the TCP + websocket handshake of one attempt.
OPEN_TIMEOUT = 5.0
#: After a drop: the first pause before connecting again, doubled each failed attempt up to
#: RETRY_MAX, for RETRY_FOR seconds in all (then the session says the server is gone).
RETRY_FIRST = 0.25
RETRY_MAX = 4.0
RETRY_FOR = 120.0
#: Before any connection succeeded (a wrong address, the server not up): give up sooner.
FIRST_CONNECT_FOR = 10.0
#: Close codes after which the client does not come back by itself: a normal close, a
#: policy violation (flooding, a seat taken over by another connection), the 4000s a server
#: uses for "do not reconnect". Anything else (1001 going away, 1006 no close frame — the
#: server killed —, 1011, 1012 restart …) is a drop worth reconnecting after.
FINAL_CLOSE_CODES = frozenset({1000, 1002, 1008, 1009})
#: Server error codes that end the session: retrying cannot help (the connection's thread
#: stops reconnecting as soon as it reads one).
FATAL_ERRORS = frozenset({"version", "no_table", "full", "bad_token", "kicked", "replaced", "no_show"})
#: A cluster (docs/ONLINE.md, "The cluster"): the error ``moved`` sends the client to the
#: process that holds the table (``url``); ``busy`` (the table's process died, its lease not
#: yet expired) means: ask the first address again after BUSY_PAUSE. Moves and waits end
#: with the connection's ``retry_for`` when no seat is had meanwhile.
BUSY_PAUSE = 1.0
MAX_URL = 200
#: A connection open this long (seconds) before a ``moved`` counts as settled: a later move
#: starts a new retry window.
STABLE = 30.0


class _Moved(Exception):
    """The server sent this connection elsewhere (the reader leaves its loop)."""


# ------------------------------------------------------------------------------ the socket
class Connection:
    """One websocket to a server, in a daemon thread.

    ``greeting()`` gives the messages sent first on every (re)connection. What arrives is put
    on ``inbox`` as dicts; the thread adds its own news there too, as ``{"type": "_open"}``,
    ``{"type": "_lost", "code": …, "reason": …}`` (it will try again) and ``{"type":
    "_failed", "message": …}`` (it gave up). ``send`` never blocks the caller for long and
    returns False when there is no open socket (the next greeting restores the seat)."""

    def __init__(
        self,
        url: str,
        greeting: Callable[[], list[dict]] | None = None,
        *,
        reconnect: bool = True,
        retry_for: float = RETRY_FOR,
        open_timeout: float = OPEN_TIMEOUT,
        first_connect_for: float = FIRST_CONNECT_FOR,
    ):
        self.url = url
        #: The address given first (a load balancer, or any process of a cluster): where the
        #: client goes back to after a drop; ``url`` is where a ``moved`` sent it.
        self.home = url
        self._moving_since: float | None = None
        self._open_since: float | None = None
        self._busy = False
        self.greeting = greeting or (lambda: [])
        self.reconnect = reconnect
        self.retry_for = retry_for
        self.first_connect_for = first_connect_for
        self.open_timeout = open_timeout
        self.inbox: queue.Queue[JsonObject] = queue.Queue()
        self._ws: Any = None
        self._send_lock = threading.Lock()
        self._closing = threading.Event()
        self._retry = threading.Event()  # set: keep reconnecting after drops
        self._retry.set()
        self.thread = threading.Thread(target=self._run, name="cardavia-online", daemon=True)
        self._tokens, self._stamp = float(P.BURST) - 1, time.monotonic()
        #: Successful connections so far (1 after the first; more after reconnects).
        self.connects = 0

    def start(self) -> Connection:
        self.thread.start()
        return self

    @property
    def connected(self) -> bool:
        return self._ws is not None

    def send(self, message: dict) -> bool:
        ws = self._ws
        if ws is None:
            return False
        try:
            with self._send_lock:  # websockets' sync connection refuses concurrent sends
                self._pace()
                ws.send(P.encode(message))
        except Exception:  # noqa: BLE001 - a dead socket: the reader notices and reconnects
            return False
        return True

    def _pace(self) -> None:
        """Keep under the server's rate (RATE a second, bursts of BURST): a message the
        server drops for flooding is lost, so the client waits a little instead. (A person
        never gets near it; a fast bot against computer seats does.)"""
        now = time.monotonic()
        self._tokens = min(float(P.BURST) - 1, self._tokens + (now - self._stamp) * P.RATE * 0.9)
        self._stamp = now
        if self._tokens < 1.0:
            wait = (1.0 - self._tokens) / (P.RATE * 0.9)
            time.sleep(wait)
            self._tokens, self._stamp = 1.0, time.monotonic()
        self._tokens -= 1.0

    def get(self, timeout: float | None = None) -> JsonObject | None:
        """The next message, waiting at most ``timeout`` seconds (None: no message)."""
        try:
            return self.inbox.get(timeout=timeout) if timeout else self.inbox.get_nowait()
        except queue.Empty:
            return None

    def stop_retrying(self) -> None:
        """Do not reconnect after the next drop (a fatal error: no such table …)."""
        self._retry.clear()

    def drop(self) -> None:
        """Close the socket as if the network dropped it: the thread reconnects (tests)."""
        ws = self._ws
        if ws is not None:
            try:
                ws.socket.shutdown(socket.SHUT_RDWR)  # wakes the reader: it sees the drop
            except OSError:
                pass

    def close(self) -> None:
        """Close for good. The closing handshake runs in a daemon thread (at most
        close_timeout on a server that no longer answers): the window never waits for it."""
        self._closing.set()
        self._retry.clear()
        ws = self._ws
        if ws is not None:

            def shut() -> None:
                try:
                    ws.close(code=1000)
                except Exception:  # noqa: BLE001 - closing a broken socket
                    pass

            threading.Thread(target=shut, name="cardavia-online-close", daemon=True).start()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout=0.2)

    # ---------------------------------------------------------------- the thread
    def _connect(self) -> Any:
        from websockets.sync.client import connect

        # legacy=True: this thread owns the connection and closes it itself (websockets 17
        # warns about a bare connect() otherwise). No proxy: a table server is reached
        # directly; no compression: the server offers none and messages are small.
        return connect(
            self.url,
            open_timeout=self.open_timeout,
            close_timeout=1.0,
            max_size=2**22,
            proxy=None,
            compression=None,
            ping_interval=20,
            ping_timeout=20,
            legacy=True,
        )

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        pause, failing_since = RETRY_FIRST, None
        while not self._closing.is_set():
            try:
                ws = self._connect()
            except Exception as e:  # noqa: BLE001 - OSError, InvalidURI, InvalidHandshake, TimeoutError …
                now = time.monotonic()
                failing_since = failing_since or now
                window = self.retry_for if self.connects else self.first_connect_for
                if not self.reconnect or not self._retry.is_set() or now - failing_since > window:
                    self.inbox.put(M.FAILED(message=f"cannot reach {self.url}: {_reason(e)}"))
                    return
                self.url = self.home  # where a ``moved`` sent it is gone: ask the first address
                self._closing.wait(pause)
                pause = min(pause * 2, RETRY_MAX)
                continue
            pause, failing_since = RETRY_FIRST, None
            self.connects += 1
            code, reason, moved = None, "", False
            try:
                for message in self.greeting():
                    with self._send_lock:
                        self._pace()
                        ws.send(P.encode(message))
                # Only now may others send: nothing goes out before the greeting.
                self._ws = ws
                self._open_since = time.monotonic()
                self.inbox.put(M.OPEN())
                while not self._closing.is_set():
                    try:
                        frame = ws.recv(timeout=1.0)
                    except TimeoutError:
                        continue
                    self._deliver(frame)
            except ConnectionClosed as e:
                rcvd = e.rcvd
                code, reason = (rcvd.code, rcvd.reason) if rcvd is not None else (1006, "")
                # What arrived before the close is still read: a server that refuses the
                # greeting (another version) says why and closes while the join is being sent.
                for _ in range(64):
                    try:
                        self._deliver(ws.recv(timeout=0))
                    except Exception:  # noqa: BLE001 - nothing more buffered
                        break
            except _Moved:
                moved = True
            except Exception as e:  # noqa: BLE001 - a reset socket, a bad frame …
                code, reason = 1006, _reason(e)
            finally:
                self._ws = None
                try:
                    ws.close()
                except Exception:  # noqa: BLE001
                    pass
            if self._closing.is_set():
                return
            if moved:
                now = time.monotonic()
                # The retry time counts from the first move of a run of them; only a connection
                # that stayed STABLE seconds ends the run (a joined-then-moved loop does not).
                if self._moving_since is not None and self._open_since is not None and now - self._open_since > STABLE:
                    self._moving_since = None
                self._moving_since = self._moving_since or now
                if now - self._moving_since > self.retry_for:
                    self.inbox.put(M.FAILED(message="the servers keep sending this table elsewhere"))
                    return
                self.inbox.put(M.LOST(code=1012, reason="moved", again=True))
                if self._busy:
                    self._busy = False
                    self._closing.wait(BUSY_PAUSE)
                continue
            self.url = self.home  # a drop: the table may have moved (its process died)
            final = code in FINAL_CLOSE_CODES or (code is not None and 4000 <= code < 5000)
            again = self.reconnect and self._retry.is_set() and not final
            self.inbox.put(M.LOST(code=code, reason=reason, again=again))
            if not again:
                self.inbox.put(M.FAILED(message=f"the server closed the connection ({code} {reason})".strip()))
                return
            self._closing.wait(RETRY_FIRST)

    def _deliver(self, frame: str | bytes) -> None:
        try:
            data = json.loads(frame)
        except (TypeError, ValueError):
            return  # a server speaks JSON; anything else is ignored
        if isinstance(data, dict) and isinstance(data.get("type"), str):
            if data["type"] == "error" and data.get("code") in ("moved", "busy"):
                target = data.get("url")
                ok = (
                    isinstance(target, str)
                    and len(target) <= MAX_URL
                    and target.startswith(("ws://", "wss://"))
                    and same_cluster(self.home, target)
                )
                self.url = target if ok and isinstance(target, str) and data["code"] == "moved" else self.home
                self._busy = data["code"] == "busy" or not ok
                raise _Moved
            if data["type"] == "error" and data.get("code") in FATAL_ERRORS:
                self._retry.clear()
            self.inbox.put(data)


def same_cluster(home: str, target: str) -> bool:
    """Whether a ``moved`` to ``target`` stays within the cluster first reached at ``home``: the
    same host name (the processes of one cluster differ by port), never to wss:// from ws://
    or back. A server cannot send the client, with its seat token and account secret, anywhere else."""
    from urllib.parse import urlsplit

    try:
        a, b = urlsplit(home), urlsplit(target)
        return a.scheme == b.scheme and (a.hostname or "").lower() == (b.hostname or "").lower() and b.port is not None
    except ValueError:
        return False


def _reason(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


__all__ = ["Connection", "FATAL_ERRORS", "FINAL_CLOSE_CODES", "OPEN_TIMEOUT", "RETRY_FOR"]
