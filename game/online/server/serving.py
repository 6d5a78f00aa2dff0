"""Running a table server: ``python main.py serve`` (:func:`run_forever`, until SIGINT or
SIGTERM) and a server in a thread of this process (:func:`start_server_in_thread`: the
window's "Host a table", the tests). The server itself is :mod:`game.online.server.server`. Pure
Python: no pygame.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import ssl
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.online.server.cluster import ClusterConfig
from game.online.server.limits import ServerLimits, fd_budget, install_once_filter, raise_open_files_limit
from game.online.server.server import ServerError, TableServer
from game.online.server.store import StoreError, default_data_dir

log = logging.getLogger("cardavia.server")


def tls_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The server's TLS context from PEM files (None without them); ServerError (one line)
    when they cannot be used."""
    if certfile is None and keyfile is None:
        return None
    if not certfile or not keyfile:
        raise ServerError("--certfile and --keyfile go together")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    # No TLS 1.3 session tickets. They arrive after the handshake, while websockets' sync
    # client (ours) reads on one thread and writes its upgrade request on another: OpenSSL
    # objects are not safe for that, and about one opening in 400 to 2,000 lost its request and
    # waited for the 10 s timeout (a CI failure; bench/tls_openings.py: 11 of 3,943 openings
    # under load with tickets, 0 of 4,000
    # without). Players reconnect seldom enough not to miss resumption.
    ctx.num_tickets = 0
    try:
        ctx.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as e:
        raise ServerError(
            f"cannot use the TLS certificate {certfile} and key {keyfile} "
            f"({getattr(e, 'strerror', None) or getattr(e, 'reason', None) or e})"
        ) from None
    return ctx


def _url(host: str, port: int, tls: bool) -> str:
    from game.online.wire.protocol import ws_url

    return ws_url(host, port, tls)


def _make_server(
    data_dir: Path, workers: int, limits: ServerLimits | None = None, cluster: ClusterConfig | None = None
) -> TableServer:
    try:
        return TableServer(Path(data_dir), workers, limits, cluster)
    except StoreError as e:
        raise ServerError(str(e)) from None


#: ``serve --event-loop``: which event loop runs the server. ``auto`` is uvloop where it is
#: installed (libuv's loop, in C: the loop's own turns, its reads and its writes cost a
#: decision less CPU, docs/ONLINE.md "The cost of a decision"), else the standard library's.
EVENT_LOOPS = ("auto", "uvloop", "asyncio")


def loop_factory(name: str = "auto") -> tuple[str, Callable[[], asyncio.AbstractEventLoop] | None]:
    """The event loop ``serve --event-loop NAME`` runs on: its name and the factory
    ``asyncio.Runner`` takes (None: the standard library's). ServerError for uvloop asked
    where it is not installed (it has no Windows build), or a name that is none of
    EVENT_LOOPS."""
    if name not in EVENT_LOOPS:
        raise ServerError(f"--event-loop takes {', '.join(EVENT_LOOPS)}, not {name[:40]!r}")
    if name == "asyncio":
        return "asyncio", None
    try:
        import uvloop
    except ImportError:
        if name == "uvloop":
            raise ServerError("--event-loop uvloop: uvloop is not installed here (pip install uvloop)") from None
        return "asyncio", None
    return "uvloop", uvloop.new_event_loop


def run_forever(
    host: str,
    port: int,
    data_dir: Path,
    workers: int = 1,
    certfile: str | None = None,
    keyfile: str | None = None,
    limits: ServerLimits | None = None,
    cluster: ClusterConfig | None = None,
    event_loop: str = "auto",
) -> int:
    """``python main.py serve``: serve until SIGINT or SIGTERM, then stop cleanly (exit 0),
    on the event loop ``event_loop`` names (:func:`loop_factory`).
    It first raises its open-files limit as far as allowed and fits the connection limit
    under it (game.online.server.limits); a log line repeated is written once a minute with a count."""
    ctx = tls_context(certfile, keyfile)
    loop_name, factory = loop_factory(event_loop)
    root = logging.getLogger()
    before = list(root.handlers)
    logging.basicConfig(level=logging.WARNING, format="cardavia serve: %(message)s")
    install_once_filter([h for h in root.handlers if h not in before])  # only the handler serve made
    soft, _hard = raise_open_files_limit()
    limits = fd_budget(soft, limits or ServerLimits())

    async def main() -> int:
        srv = _make_server(data_dir, workers, limits, cluster)
        srv.tune_gc = True
        bound = await srv.start(host, port, ctx)
        stop = asyncio.Event()
        draining: list[bool] = []
        loop = asyncio.get_running_loop()

        def on_signal(s: int) -> None:
            draining.append(s == signal.SIGTERM)
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, on_signal, sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
        print(
            f"cardavia server on {_url(host, bound, ctx is not None)}, data in {srv.store.root.resolve()} "
            f"({srv.resumed} table(s) resumed; at most {limits.max_connections} connections, "
            f"{soft or 'unlimited'} open files, {loop_name} event loop); Ctrl+C stops it",
            flush=True,
        )
        if srv.node is not None:
            print(srv.node.status_line(), flush=True)
        await stop.wait()
        if srv.node is not None and any(draining):
            handed = await srv.node.drain()
            print(f"cardavia cluster process {srv.node.me}: drained, {handed} table(s) handed over", flush=True)
        await srv.close()
        return 0

    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main())


class ServerHandle:
    """A server running in a thread of this process (see :func:`start_server_in_thread`)."""

    def __init__(
        self,
        host: str,
        port: int,
        tls: bool,
        thread: threading.Thread,
        loop: asyncio.AbstractEventLoop,
        stop_event: asyncio.Event,
        server: TableServer,
    ):
        self.host, self.port, self.tls = host, port, tls
        self.thread, self.loop, self._stop, self.server = thread, loop, stop_event, server
        self.url = _url(host, port, tls)
        self.data_dir = server.store.root

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop serving, close the connections and the workers; True when the thread ended
        within ``timeout`` seconds (it is a daemon: it never keeps the program alive)."""
        if self.thread.is_alive():
            try:
                self.loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:  # the loop has already closed
                pass
            self.thread.join(timeout)
        return not self.thread.is_alive()


def start_server_in_thread(
    host: str = "127.0.0.1",
    port: int = 0,
    data_dir: Path | str | None = None,
    workers: int = 1,
    certfile: str | None = None,
    keyfile: str | None = None,
    timeout: float = 30.0,
    limits: ServerLimits | None = None,
    cluster: ClusterConfig | None = None,
) -> ServerHandle:
    """Start a table server in a daemon thread and return once it listens: ``.port`` (the
    one the system chose for port 0), ``.url``, ``.stop()``. ``data_dir`` defaults to the
    game's data folder (as ``serve``). Raises ServerError (one line) when it cannot start."""
    if data_dir is None:
        data_dir = default_data_dir()
    ctx = tls_context(certfile, keyfile)
    ready = threading.Event()
    box: dict[str, Any] = {}

    async def main() -> None:
        try:
            srv = _make_server(Path(data_dir), workers, limits, cluster)
            bound = await srv.start(host, port, ctx)
        except BaseException as e:  # noqa: BLE001 - handed to the starting thread
            box["error"] = e
            ready.set()
            return
        stop = asyncio.Event()
        box.update(port=bound, loop=asyncio.get_running_loop(), stop=stop, server=srv)
        ready.set()
        try:
            await stop.wait()
        finally:
            await srv.close()

    def run() -> None:
        try:
            asyncio.run(main())
        except Exception as e:  # noqa: BLE001 - a thread has nobody to raise to
            log.error("the table server stopped: %s", e)

    thread = threading.Thread(target=run, name="cardavia-server", daemon=True)
    thread.start()
    if not ready.wait(timeout):
        raise ServerError(f"the server did not start within {timeout:g} s")
    if "error" in box:
        e = box["error"]
        raise e if isinstance(e, ServerError) else ServerError(str(e))
    return ServerHandle(host, box["port"], ctx is not None, thread, box["loop"], box["stop"], box["server"])


__all__ = ["ServerHandle", "run_forever", "start_server_in_thread", "tls_context"]
