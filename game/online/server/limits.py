"""The club server's limits against denial of service (docs/ONLINE.md, "Quotas"):

- :class:`ServerLimits`: the settings of a server (``serve`` flags, documented defaults).
- :func:`raise_open_files_limit` / :func:`fd_budget`: ``serve`` raises its open-files limit
  as far as the system allows and keeps the connection limit below it with headroom, so a
  refused client gets HTTP 503 at once instead of a handshake that hangs on ``EMFILE`` — and
  a playing table's record file can always be opened.
- :func:`client_address`: the address a quota counts (the peer's, or the proxy's
  ``X-Forwarded-For`` when the peer is this machine's proxy).
- :class:`TableQuota`: open tables per address and per player.
- :class:`OnceFilter`: a repeated log line is written once, then once a minute with a count —
  never one traceback per connection.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: File descriptors kept for the server itself (Python, the listening sockets, the worker
#: processes' pipes, the database and its WAL, logging, a meta being written).
BASE_FDS = 64
#: Of what is left, the share for connections (the rest: open record files of playing tables
#: and sockets being refused).
CONNECTION_SHARE = 0.75


@dataclass
class ServerLimits:
    """What a server allows; every field is a ``serve`` flag (defaults documented there)."""

    #: Connections on the server (HTTP 503 before the handshake beyond it); lowered at start
    #: to fit the open-files limit (:func:`fd_budget`).
    max_connections: int = 4000
    #: Record files kept open at once (the others are opened for each append).
    max_open_records: int = 1000
    #: Unfinished tables one address (behind a proxy: one forwarded address) may have made.
    tables_per_address: int = 20
    #: Unfinished tables one player (account) may have made.
    tables_per_player: int = 5
    #: A lobby nobody is connected to closes after this long (its files stay, marked closed).
    idle_close_seconds: float = 300.0
    #: A silent or gone player's seat is played by the computer after this long.
    bot_after: float = 30.0
    #: Quick match: a lone player waits this long for a person, then the computer fills.
    quick_wait: float = 30.0
    #: The levels the computer fills a quick match with (the one nearest the players' rating).
    fill_levels: tuple[str, ...] = ("easy", "normal", "hard")
    #: Free-text chat (``serve --chat``); quick phrases always work.
    chat: bool = False
    #: This machine's own connections (loopback: tests, the window's table, a local proxy
    #: that forwards the address) are not limited per address. Tests turn it off to stand
    #: for distinct addresses with 127.0.0.x.
    local_unlimited: bool = True
    #: The club's events: the owner's schedule (``serve --events FILE``) and the deals of a
    #: tournament of the day (``serve --tournament-deals``).
    events_file: str | None = None
    tournament_deals: int = 8
    #: An arena or Swiss player whose seat stays empty this long forfeits (``--event-no-show``).
    event_no_show: float = 60.0
    #: The hard player's search budget in the par of the daily deal and of a tournament's
    #: deals (``--par-iterations``; None: game.services.par's own). Par is shown beside a
    #: deal and never scores it, so a small machine may spend less on it.
    par_iterations: int | None = None


def raise_open_files_limit() -> tuple[int, int]:
    """Raise this process's soft open-files limit to its hard limit (as far as allowed).
    Returns (soft, hard) after; (0, 0) where the platform has no such limit."""
    try:
        import resource
    except ImportError:  # Windows: no RLIMIT_NOFILE; its limits are far higher
        return (0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        for want in (target, 1 << 20, 65536):  # macOS refuses more than OPEN_MAX with an infinite hard limit
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, target), hard))
                break
            except (ValueError, OSError):
                continue
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return (soft if soft != resource.RLIM_INFINITY else 1 << 20, hard)


def fd_budget(soft: int, limits: ServerLimits) -> ServerLimits:
    """``limits`` with the connections and open record files fitted under ``soft`` open files
    (0: unknown, left as they are): BASE_FDS for the server, CONNECTION_SHARE of the rest for
    connections, the rest for record files and the sockets being refused."""
    if soft <= 0:
        return limits
    spare = max(8, soft - BASE_FDS)
    conns = max(4, int(spare * CONNECTION_SHARE))
    records = max(4, (spare - conns) // 2)
    limits.max_connections = min(limits.max_connections, conns)
    limits.max_open_records = min(limits.max_open_records, records)
    return limits


def peer_address(peer: Sequence[object], limits: ServerLimits) -> str | None:
    """The address a just-accepted socket counts for (``peername``), or None: this machine
    itself when ``limits.local_unlimited`` (the forwarded address comes only with the request)."""
    try:
        ip = ipaddress.ip_address(str(peer[0]))
    except (TypeError, ValueError, IndexError):
        return None
    return None if ip.is_loopback and limits.local_unlimited else str(ip)


def client_address(ws: Any, limits: ServerLimits | None = None) -> str | None:
    """The address quotas count for connection ``ws``: the peer's; for a peer on this machine
    (a TLS proxy in front) the last ``X-Forwarded-For`` entry when there is one (the proxy
    wrote it), else None — this machine itself (tests, benchmarks, the window's own table)
    is not limited per address."""
    try:
        host = str(ws.remote_address[0])
        peer = ipaddress.ip_address(host)
    except (TypeError, ValueError, IndexError, AttributeError):
        return None
    if not peer.is_loopback or (limits is not None and not limits.local_unlimited):
        return host
    request = getattr(ws, "request", None)
    forwarded = request.headers.get("X-Forwarded-For") if request is not None else None
    if not forwarded:
        return None
    last = forwarded.split(",")[-1].strip()[:64]
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return "unreadable-forwarded-address"  # still one bucket: it cannot dodge the quota


class TableQuota:
    """Unfinished tables per address and per player: who holds each (table code → the
    (address, player id) of whoever made it, or of every player a quick match seated),
    counted when a table is made and forgotten when it ends or closes."""

    def __init__(self, limits: ServerLimits):
        self.limits = limits
        self.owner: dict[str, list[tuple[str | None, int | None]]] = {}
        self.by_address: dict[str, int] = {}
        self.by_player: dict[int, int] = {}

    def refusal(self, address: str | None, player: int | None) -> str | None:
        """Why a new table is refused for this address / player, or None (it may be made)."""
        if address is not None and self.by_address.get(address, 0) >= self.limits.tables_per_address:
            return f"this address has {self.limits.tables_per_address} open tables already: play or close one first"
        if player is not None and self.by_player.get(player, 0) >= self.limits.tables_per_player:
            return f"you have {self.limits.tables_per_player} open tables already: play or close one first"
        return None

    def add(self, code: str, address: str | None, player: int | None) -> None:
        """Count table ``code`` for this address and player (again for each holder)."""
        holders = self.owner.setdefault(code, [])
        if (address, player) in holders:
            return
        holders.append((address, player))
        if address is not None:
            self.by_address[address] = self.by_address.get(address, 0) + 1
        if player is not None:
            self.by_player[player] = self.by_player.get(player, 0) + 1

    def release(self, code: str) -> None:
        for address, player in self.owner.pop(code, []):
            if address is not None:
                left = self.by_address.get(address, 1) - 1
                self.by_address.pop(address) if left <= 0 else self.by_address.__setitem__(address, left)
            if player is not None:
                left = self.by_player.get(player, 1) - 1
                self.by_player.pop(player) if left <= 0 else self.by_player.__setitem__(player, left)


class OnceFilter(logging.Filter):
    """Lets a log line through the first time; the same line again (same logger, text
    template, exception type) within ``window`` seconds is only counted, and the next one
    after the window says how many there were. A flood of failing connections costs one
    line a minute, not one traceback each."""

    def __init__(self, window: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.window = window
        self.clock = clock
        self.seen: dict[tuple, list[float]] = {}  # key -> [first time of this window, count]

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else None
        key = (record.name, record.levelno, str(record.msg)[:200], exc)
        now = self.clock()
        entry = self.seen.get(key)
        if entry is None or now - entry[0] >= self.window:
            repeated = entry[1] if entry is not None else 0
            if len(self.seen) > 1000:  # a bounded memory of lines
                self.seen.clear()
            self.seen[key] = [now, 0]
            if repeated:
                record.msg = f"{record.msg} (and {repeated} more like it in the last {self.window:g} s)"
            return True
        entry[1] += 1
        return False


def install_once_filter(handlers: list[logging.Handler], window: float = 60.0) -> OnceFilter:
    """Put a :class:`OnceFilter` on ``handlers`` (``serve``'s own, on the root logger, so
    that websockets' and asyncio's repeated errors are counted too) — never on handlers
    someone else installed."""
    once = OnceFilter(window)
    for handler in handlers:
        handler.addFilter(once)
    return once


__all__ = [
    "BASE_FDS",
    "OnceFilter",
    "ServerLimits",
    "TableQuota",
    "client_address",
    "fd_budget",
    "install_once_filter",
    "peer_address",
    "raise_open_files_limit",
]
