"""The window's side of online play, without pygame: the table server a host runs inside
the game, the table it creates, the seat it joins, and the server's answers in the
player's words.

The server is ``game.online.server.serving.start_server_in_thread`` (its handle has ``port``,
``url`` and ``stop()``); one runs at a time, owned by the "online" scene
(:mod:`scenes.online.choice`), which stops it when the player leaves the online screens or
the app closes. The tables' records are kept where ``main.py serve`` keeps them.
The seat is a :class:`game.online.client.client.RemoteSession`, whose socket lives in its own
thread: the screens only poll it, the window never waits on the network.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from game.card_names import Translate
from game.rules.base import GameRules
from game.rules.vocabulary import JsonObject
from scenes.scene import AppServices

if TYPE_CHECKING:
    from game.online.client.client import RemoteSession

#: Where the in-game server listens: every interface, so friends on the network reach it
#: (the tests set 127.0.0.1).
BIND_HOST = "0.0.0.0"
#: Computer seats think in this many worker processes (a few tables on a home machine).
WORKERS = 1
#: Seconds a dropped friend's seat waits before the computer (or nobody) plays it.
PAUSE_SECONDS = 60
#: A run without a window (screenshots, the monkey test) opens no server and no connection:
#: the host and join screens say so instead. The online scene tests switch it on.
HEADLESS_NETWORK = False
#: Seconds the window waits for its own server when it creates a table.
CREATE_TIMEOUT = 8.0
#: Seconds a join waits for a first connection before it says that nobody answers (the
#: session itself would keep trying for minutes: right after a drop, wrong for a typo).
FIRST_CONNECT = 6.0

_lock = threading.Lock()
_server: Any = None


class OnlineError(Exception):
    """Something the player must be told in one line: ``key`` under ``online.`` and its params."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key = key
        self.params = params


def network_allowed(app: AppServices) -> bool:
    """Whether this app may open servers and connections (see HEADLESS_NETWORK)."""
    return bool(app.has_window) or HEADLESS_NETWORK


def describe(error: object, t: Translate) -> str:
    """The player's line for an OnlineError or an AddressError (``t``: the message lookup)."""
    params = {"reason": "", "address": "", "port": "", **getattr(error, "params", {})}
    return t(f"online.{getattr(error, 'key', 'error_other')}", **params)


# ---------------------------------------------------------------------- the server in the game
def data_dir() -> Path:
    """The hosted tables' records and metas (a server started again resumes them): the same
    folder as ``main.py serve`` uses by default."""
    from game.online.server.store import default_data_dir

    return Path(default_data_dir())


def start_server(port: int) -> object:
    """The running in-game server on ``port`` (0: any free port), started when there is
    none (one on another port is stopped first). OnlineError ``error_port_busy`` when the
    port is taken, ``error_server`` for any other failure."""
    global _server
    with _lock:
        if _server is not None and (port == 0 or getattr(_server, "port", None) == port):
            return _server
    stop_server()
    try:
        from game.online.server.serving import start_server_in_thread
    except ImportError as e:
        raise OnlineError("error_server", reason=str(e)) from None
    folder = data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = start_server_in_thread(BIND_HOST, port, str(folder), WORKERS)
    except Exception as e:  # noqa: BLE001 - ServerError, OSError: any failure to start is one line
        if port and port_taken(port):
            raise OnlineError("error_port_busy", port=port) from None
        raise OnlineError("error_server", reason=str(e) or type(e).__name__) from None
    with _lock:
        _server = handle
    return handle


def port_taken(port: int) -> bool:
    """Whether ``port`` cannot be listened on here (another program has it, or it is not
    ours to take): the server's own failure then gets the player's words for it."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind((BIND_HOST, port))
    except OSError:
        return True
    return False


def running_server() -> object:
    return _server


def stop_server() -> None:
    """Stop the in-game server, if one runs (its tables stay on disk for next time)."""
    global _server
    with _lock:
        handle, _server = _server, None
    if handle is not None:
        try:
            handle.stop()
        except Exception:  # noqa: BLE001 - stopping is best effort: the app is leaving
            pass


def live_tables() -> list[str]:
    """The codes of the tables whose match is under way on the in-game server (none: no server)."""
    srv = getattr(_server, "server", None)
    if srv is None:
        return []
    try:  # the server's own thread changes the dict: a copy taken mid-change is tried again
        tables = list(srv.tables.values())
    except RuntimeError:
        tables = list(srv.tables.values())
    return [t.code for t in tables if t.started and not t.finished]


def stop_unless_playing() -> bool:
    """Leaving the online screens: stop the in-game server unless a match runs on it (then
    the table outlives the host's "Quit to menu": friends play on, the host rejoins from the
    menu). True when it was kept."""
    if live_tables():
        return True
    stop_server()
    return False


# ---------------------------------------------------------------------- hosting a table
@dataclass
class Hosted:
    """A table this window hosts: what the lobby shows friends to join it."""

    code: str
    port: int
    address: str  # this machine's address on the network
    link: str  # cardavia://address:port/CODE
    host_token: str


def host_table(
    port: int,
    name: str,
    game: str,
    deck: str | None,
    players: int,
    options: JsonObject,
    seats: list[str],
    ai_takes_over: bool,
    rules: GameRules | None = None,
    address: str | None = None,
) -> tuple[object, Hosted]:
    """Start the server (or reuse it), create the table, take seat 0 as its host: the seat's
    RemoteSession (connecting) and what friends need. OnlineError for the player."""
    from game.online.client.client import RemoteSession, create_table
    from game.online.wire.links import make_link
    from scenes.online.address import lan_address

    server = start_server(port)
    port = int(getattr(server, "port", port))
    local = f"ws://127.0.0.1:{port}"
    try:
        created = create_table(
            local,
            name,
            game,
            players,
            seats,
            deck=deck,
            options=options,
            pause_seconds=PAUSE_SECONDS,
            ai_takes_over=ai_takes_over,
            timeout=CREATE_TIMEOUT,
        )
    except ConnectionError as e:
        raise OnlineError("error_server", reason=str(e)) from None
    except ValueError as e:  # the server refused the table (its config check)
        raise OnlineError("error_config", reason=str(e)) from None
    code = str(created["code"])
    tokens = created.get("tokens") or {}
    session = RemoteSession(local, code, name, token=tokens.get("0"), rules=rules, host_token=created.get("host_token"))
    where = address or lan_address()
    return session, Hosted(code, port, where, make_link(where, port, code), str(created.get("host_token")))


# ---------------------------------------------------------------------- joining
def join_table(address: str, code: str, name: str, token: str | None = None) -> RemoteSession:
    """A RemoteSession claiming the next free friend's seat at ``code`` on ``address`` —
    or, with its ``token``, the seat held before (connecting in its own thread;
    :class:`Connecting` says when it is seated)."""
    from game.online.client.client import RemoteSession

    return RemoteSession(address, code, name, token=token)


#: The server's error codes that end a join, and their lines (keys under ``online.``).
FATAL_KEYS = {
    "no_table": "error_no_table",
    "full": "error_full",
    "version": "error_version",
    "kicked": "error_kicked",
    "replaced": "error_replaced",
    "no_show": "error_no_show",
}


def session_problem(session: Any, address: str = "") -> OnlineError | None:
    """Why ``session`` cannot go on (None while it can): the server's fatal error (no such
    table, the table full, another version, kicked), or the server unreachable / gone."""
    if getattr(session, "failed", None) is None:
        return None
    code = getattr(session, "failed_code", None)
    if code is not None:
        return OnlineError(FATAL_KEYS.get(code, "error_other"), reason=str(session.failed), address=address)
    conn = getattr(session, "conn", None)
    if conn is not None and getattr(conn, "connects", 0) == 0:
        return OnlineError("error_unreachable", address=address)
    return OnlineError("error_lost", reason=str(session.failed), address=address)


class HoldsConnecting:
    """A screen that may hold a session on its way to its seat (``connecting``): dropped when
    the screen leaves the stack or the app closes."""

    app: AppServices
    connecting: Connecting | None

    def _drop(self) -> None:
        if self.connecting is not None:
            self.connecting.session.close()
            self.connecting = None

    def leave(self) -> None:
        me: object = self  # a mixin: the scene it is part of
        if not any(s is me for s in self.app.stack.scenes):
            self._drop()

    def close(self) -> None:
        self._drop()

    def _arrived(self) -> tuple[Any, OnlineError | None] | None:
        """Poll the session on its way: None while it is, else (the session, None) once it is
        seated or (the session, closed, the error) when it cannot be."""
        if self.connecting is None:
            return None
        state = self.connecting.step()
        if state == "wait":
            return None
        session, self.connecting = self.connecting.session, None
        if isinstance(state, OnlineError):
            session.close()
            return session, state
        return session, None


class Closes(Protocol):
    """What a screen keeps open while it asks or waits: a question in flight, a seat."""

    def close(self) -> None: ...


if TYPE_CHECKING:  # the mixin's super() is the screen's (a UIScene): its back() for the type checker
    from scenes.scene import UIScene as _Screen
else:
    _Screen = object


class AsksAndWaits(HoldsConnecting, _Screen):
    """A screen that asks a server one question at a time (``request``) and may hold a seat
    seated but not yet started (``waiting``) besides one on its way (``connecting``): idle
    when it holds none; Esc while busy stops it all and stays; leaving the stack, or the app
    closing, stops it all."""

    request: Closes | None
    waiting: Closes | None
    status: str | None

    @property
    def idle(self) -> bool:
        return self.request is None and self.connecting is None and self.waiting is None

    def back(self) -> None:
        if not self.idle:
            self._stop()  # Esc while asking: stop, stay here
            return
        super().back()

    def _stop(self) -> None:
        if self.request is not None:
            self.request.close()
            self.request = None
        if self.waiting is not None:
            self.waiting.close()
            self.waiting = None
        self._drop()
        self.status = None

    def leave(self) -> None:
        me: object = self
        if not any(s is me for s in self.app.stack.scenes):
            self._stop()

    def close(self) -> None:
        self._stop()


class Connecting:
    """A session on its way to its seat: :meth:`step` polls it and says "wait", "seated"
    (the lobby has come: the seat and the rules are known) or gives the OnlineError."""

    def __init__(self, session: Any, address: str, clock: Callable[[], float] = time.monotonic):
        self.session = session
        self.address = address
        self.clock = clock
        self.since = clock()

    def step(self) -> str | OnlineError:
        s = self.session
        try:
            s.poll()
        except Exception as e:  # noqa: BLE001 - a broken answer is one line, not a crash
            return OnlineError("error_other", reason=str(e))
        problem = session_problem(s, self.address)
        if problem is not None:
            return problem
        if s.lobby is not None and s.human_seat is not None and s.rules is not None:
            return "seated"
        conn = getattr(s, "conn", None)
        if conn is not None and conn.connects == 0 and self.clock() - self.since > FIRST_CONNECT:
            return OnlineError("error_unreachable", address=self.address)
        return "wait"


__all__ = [
    "BIND_HOST",
    "WORKERS",
    "HEADLESS_NETWORK",
    "network_allowed",
    "PAUSE_SECONDS",
    "OnlineError",
    "describe",
    "data_dir",
    "start_server",
    "running_server",
    "stop_server",
    "live_tables",
    "stop_unless_playing",
    "port_taken",
    "Hosted",
    "host_table",
    "join_table",
    "session_problem",
    "AsksAndWaits",
    "Closes",
    "Connecting",
    "FATAL_KEYS",
]
