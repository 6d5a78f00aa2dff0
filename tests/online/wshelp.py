"""A tiny synchronous client for the server tests (websockets.sync.client), every wait bounded."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def record_file(root: Any, name: str | None) -> str:
    """Where a server under ``root`` keeps the record ``over`` named (the name only: a client
    is never told the server's folders)."""
    from pathlib import Path

    assert name is not None and "/" not in name, name
    found = sorted(Path(root).rglob(name))
    assert found, f"no {name} under {root}"
    return str(found[0])


class FakeServers:
    """``count`` scripted websocket servers on 127.0.0.1 (``handler(ws)`` each connection), in a
    thread of their own: ``ports`` once started; ``stop()`` ends them."""

    def __init__(self, handler: Any, count: int = 1):
        import asyncio

        from websockets.asyncio.server import serve

        self.ports: list[int] = []
        ready, self._stop = threading.Event(), threading.Event()

        async def main() -> None:
            servers = [await serve(handler, "127.0.0.1", 0) for _ in range(count)]
            self.ports.extend(srv.sockets[0].getsockname()[1] for srv in servers)
            ready.set()
            while not self._stop.is_set():
                await asyncio.sleep(0.05)
            for srv in servers:
                srv.close()

        threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
        assert ready.wait(5), "the scripted servers did not start"

    def stop(self) -> None:
        self._stop.set()


#: The longest any single wait in these tests may take.
WAIT = 10.0


class Client:
    """One connection: ``send`` a dict (or a raw text / bytes), ``recv`` the next message,
    ``expect`` the next message of a type (the others are kept in ``seen``)."""

    def __init__(
        self,
        url: str,
        name: str | None = "Anna",
        timeout: float = WAIT,
        headers: dict[str, str] | None = None,
        source: str | None = None,
    ):
        extra = {"source_address": (source, 0)} if source is not None else {}
        self.ws = connect(
            url,
            open_timeout=timeout,
            close_timeout=1,
            max_size=2**22,
            compression=None,
            proxy=None,
            legacy=True,
            additional_headers=headers,
            **extra,
        )
        self.seen: list[dict] = []
        self.timeout = timeout
        if name is not None:
            self.send({"type": "hello", "version": 1, "name": name})
            assert self.expect("welcome")["version"] == 1

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float | None = None) -> dict:
        msg = json.loads(self.ws.recv(timeout=self.timeout if timeout is None else timeout))
        self.seen.append(msg)
        return msg

    def expect(self, kind: str, timeout: float | None = None, limit: int = 2000) -> dict:
        """The next message of type ``kind`` (TimeoutError after ``timeout`` seconds or
        ``limit`` other messages)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        for _ in range(limit):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            msg = self.recv(left)
            if msg.get("type") == kind:
                return msg
        raise TimeoutError(f"no {kind!r} message (last seen: {[m.get('type') for m in self.seen[-8:]]})")

    def request(self, message: dict, kind: str) -> dict:
        self.send(message)
        return self.expect(kind)

    def closed(self, timeout: float = 3.0) -> bool:
        """Whether the server closes this connection within ``timeout`` (reading what comes)."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.recv(max(0.01, deadline - time.monotonic()))
        except ConnectionClosed:
            return True
        except TimeoutError:
            return False
        return False

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - closing a test connection is best-effort
            pass


def create(
    url: str,
    game: str,
    players: int,
    seats: list[str],
    options: dict | None = None,
    deck: str | None = None,
    pause_seconds: int = 60,
    ai_takes_over: bool = True,
    name: str = "Host",
) -> tuple[Client, dict]:
    host = Client(url, name)
    created = host.request(
        {
            "type": "create",
            "game": game,
            "deck": deck,
            "players": players,
            "options": options or {},
            "seats": seats,
            "pause_seconds": pause_seconds,
            "ai_takes_over": ai_takes_over,
        },
        "created",
    )
    return host, created


class Player:
    """A scripted friend: plays a random legal action whenever its seat is to act, until the
    match is over or ``stop_after`` decisions of the match have been made. Runs in a thread."""

    def __init__(
        self,
        url: str,
        code: str,
        token: str | None,
        name: str,
        seed: int = 0,
        stop_after: int | None = None,
        deadline: float = 60.0,
        pace: float = 0.0,
        then: str | None = None,
    ):
        self.url, self.code, self.token, self.name = url, code, token, name
        self.rng = random.Random(seed)
        self.stop_after = stop_after
        #: A message type to wait for after ``over`` (kept in ``after``), or None.
        self.then = then
        self.after: dict | None = None
        #: Seconds to wait before each act (a match that lasts while something else happens).
        self.pace = pace
        self.deadline = time.monotonic() + deadline
        self.events: list[dict] = []
        self.record: str | None = None
        self.seat: int | None = None
        self.error: BaseException | None = None
        self.refused: list[dict] = []
        self.decision = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Player:
        self.thread.start()
        return self

    def join(self, timeout: float = 60.0) -> None:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), f"{self.name} did not finish"
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        try:
            c = Client(self.url, self.name)
            try:
                joined = c.request(
                    {"type": "join", "code": self.code, "name": self.name, "token": self.token}, "joined"
                )
                self.seat, self.token = joined["seat"], joined["token"]
                self._play(c)
            finally:
                c.close()
        except BaseException as e:  # noqa: BLE001 - handed to join()
            self.error = e

    def _play(self, c: Client) -> None:
        while time.monotonic() < self.deadline:
            m = c.recv(max(0.05, self.deadline - time.monotonic()))
            kind = m["type"]
            if kind == "events":
                start = m["from"]
                assert start <= len(self.events), "a gap in the stream"
                self.events[start:] = m["events"]
            elif kind == "turn":
                self.decision = m["decision"]
                if self.stop_after is not None and m["decision"] >= self.stop_after:
                    return
                if m["seat"] == self.seat and m["legal"]:
                    if self.pace:
                        time.sleep(self.pace)
                    c.send({"type": "act", "decision": m["decision"], "action": self.rng.choice(m["legal"])})
            elif kind == "refused":
                self.refused.append(m)
            elif kind == "over":
                self.record = m["record"]
                if self.then is not None:  # a message that follows the end (a daily deal's result)
                    self.after = c.expect(self.then, timeout=max(0.05, self.deadline - time.monotonic()))
                return
        raise TimeoutError(f"{self.name}: the match did not end in time")
