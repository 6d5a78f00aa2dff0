"""The window's side of a club server's daily deal (game.online.server.daily): ask for today's deal,
play it at a seat of one's own, and read a day's leaderboard. Pure Python: no pygame.

Nothing here waits on the network: a :class:`Request` is one question (``hello``, then the
message) on a :class:`game.online.client.connection.Connection` whose socket lives in its own
thread; the screen calls :meth:`Request.poll` every tick until it is done. The deal itself
is played through :class:`DailySession`, an ordinary
:class:`game.online.client.client.RemoteSession` that also keeps the server's ``daily_result``
(the player's line: score, par, over par, time) or its refusal of the record.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from game.online.client.client import RemoteSession
from game.online.client.connection import OPEN_TIMEOUT, Connection
from game.online.wire import protocol as P
from game.online.wire.links import parse_address
from game.online.wire.messages import Handler, MessageError, declared
from game.record import MAX_SEED
from game.rules.vocabulary import JsonObject

#: Seconds a question may take in all (connecting included) before it counts as unanswered.
REQUEST_TIMEOUT = 10.0
#: The server's error codes about a daily deal's play after the deal (its record refused, the
#: board unwritable) and before it (played already, no daily deal on that server).
DAILY_ERRORS = frozenset({"played", "record", "daily"})
HEX = frozenset("0123456789abcdef")


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) < 1e9


def board_line(v: object) -> JsonObject | None:
    """A leaderboard line as the server sends it, checked (a hostile server's odd line is
    left out, never drawn): ``name``, ``score``, ``par``, ``over_par``, ``seconds``."""
    if not isinstance(v, dict):
        return None
    name = v.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= 40 or not name.isprintable():
        return None
    if not all(_number(v.get(k)) for k in ("score", "par", "over_par", "seconds")):
        return None
    return {
        "name": name,
        "score": v["score"],
        "par": float(v["par"]),
        "over_par": float(v["over_par"]),
        "seconds": max(0.0, float(v["seconds"])),
    }


def board_info(v: object) -> JsonObject | None:
    """A day's public facts (``daily_info``, or a board's ``info``), checked: the date, the
    commitment (64 hex digits), and the seed and nonce once the day is closed (else None)."""
    if not isinstance(v, dict):
        return None
    digest, day = v.get("hash"), v.get("date")
    if not (isinstance(digest, str) and len(digest) == 64 and all(c in HEX for c in digest)):
        return None
    if not isinstance(day, str) or len(day) != 10:
        return None
    seed, nonce = v.get("seed"), v.get("nonce")
    revealed = (
        isinstance(seed, int)
        and not isinstance(seed, bool)
        and 0 <= seed < MAX_SEED
        and isinstance(nonce, str)
        and 0 < len(nonce) <= 64
        and all(c in HEX for c in nonce)
    )
    return {
        "date": day,
        "game": str(v.get("game", ""))[:40],
        "preset": str(v.get("preset", ""))[:40],
        "hash": digest,
        "seed": seed if revealed else None,
        "nonce": nonce if revealed else None,
    }


class Request:
    """One question to a server: ``hello`` as ``name``, then ``message``. Done once every
    message type in ``wants`` has arrived, or an ``error`` came (``error`` = (code, message)),
    or the server could not be reached or did not answer within ``timeout`` seconds (code
    ``unreachable`` / ``timeout``). ValueError at once for a bad address or message."""

    def __init__(
        self,
        url: str,
        name: str,
        message: dict,
        wants: tuple[str, ...],
        timeout: float = REQUEST_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
        *,
        account: dict | None = None,
    ):
        self.url, _ = parse_address(url)
        hello = {"type": "hello", "version": P.PROTOCOL_VERSION, "name": name}
        P.check_message(hello)
        P.check_message(message)
        greeting = [hello]
        if account is not None:  # signed in first: the server keys the day's play by the account
            P.check_message(account)
            greeting.append(account)
            wants = ("account", *wants)
        greeting.append(message)
        self.wants = tuple(wants)
        self.replies: dict[str, dict] = {}
        self.error: tuple[str, str] | None = None
        self.done = False
        self.clock = clock
        self.deadline = clock() + timeout
        self.conn = Connection(
            self.url, lambda: list(greeting), reconnect=False, open_timeout=min(timeout, OPEN_TIMEOUT)
        )
        self.conn.start()

    def poll(self) -> bool:
        """Read what has arrived; True once the request is done (answered or failed)."""
        while not self.done:
            m = self.conn.get()
            if m is None:
                break
            try:
                kind = declared(m).type
            except MessageError as e:
                self.error = ("client", str(e))
                self.close()
                break
            if kind in self.wants:
                self.replies[kind] = m
            elif kind == "error":
                self.error = (str(m.get("code")), str(m.get("message") or "")[:300])
            elif kind == "_failed":
                code = "unreachable" if self.conn.connects == 0 else "lost"
                self.error = (code, str(m.get("message") or "")[:300])
            if self.error is not None or all(w in self.replies for w in self.wants):
                self.close()
        if not self.done and self.clock() > self.deadline:
            self.error = ("timeout", f"no answer from {self.url}")
            self.close()
        return self.done

    def close(self) -> None:
        self.done = True
        self.conn.close()


def account_message(name: str, secret: str | None) -> dict:
    """Sign in as ``name`` with its kept ``secret``, or make the account (``secret`` None: the
    ``account`` reply then carries the new secret, to keep, and the recovery code)."""
    return {"type": "account", "name": name, "secret": secret}


def new_account(req: Request) -> tuple[str, str, str] | None:
    """(name, secret, recovery code) when ``req``'s sign-in made a new account, else None."""
    m = req.replies.get("account")
    if not isinstance(m, dict) or m.get("new") is not True:
        return None
    name, secret, recovery = m.get("name"), m.get("secret"), m.get("recovery")
    if not (
        isinstance(name, str)
        and isinstance(secret, str)
        and len(secret) == P.TOKEN_BYTES * 2
        and all(c in HEX for c in secret)
        and isinstance(recovery, str)
        and len(recovery) <= 40
    ):
        return None
    return name, secret, recovery


def ask_for_deal(url: str, name: str, game: str, preset: str | None, secret: str | None = None) -> Request:
    """Today's deal of ``game`` and ``preset`` on the server, signed in as ``name`` (its
    ``secret``, or a new account): ``account``, ``created`` (the table, its seat's token) and
    ``daily_info`` (the commitment)."""
    return Request(
        url,
        name,
        {"type": "daily", "game": game, "preset": preset},
        ("created", "daily_info"),
        account=account_message(name, secret),
    )


def ask_for_board(
    url: str, name: str, game: str, preset: str | None, day: str | None, secret: str | None = None
) -> Request:
    """A day's leaderboard (``daily_board``: ``info``, ``lines`` best first, ``mine`` — the
    line of the account signed in with ``secret``; none without one)."""
    return Request(
        url,
        name,
        {"type": "daily_board", "game": game, "preset": preset, "date": day},
        ("daily_board",),
        account=account_message(name, secret) if secret is not None else None,
    )


class DailySession(RemoteSession):
    """The seat of a daily deal's table: a RemoteSession that keeps what the server says of
    the play once it is over — ``daily_result`` (the player's line, checked) or
    ``daily_refusal`` ((code, message): the record refused, the board not written)."""

    def __init__(self, *args: Any, **kw: Any):
        self.daily_result: JsonObject | None = None
        self.daily_refusal: tuple[str, str] | None = None
        super().__init__(*args, **kw)

    def _handlers(self) -> dict[str, Handler]:
        return {**super()._handlers(), "daily_result": self._on_daily_result}

    def _on_daily_result(self, m: JsonObject) -> None:
        line = board_line(m)
        if line is not None:
            self.daily_result = line

    def _on_error(self, m: JsonObject) -> None:
        super()._on_error(m)
        code = str(m.get("code"))
        if code in DAILY_ERRORS and self.match.over and self.daily_result is None:
            self.daily_refusal = (code, str(m.get("message", ""))[:300])


__all__ = [
    "DAILY_ERRORS",
    "REQUEST_TIMEOUT",
    "DailySession",
    "Request",
    "account_message",
    "ask_for_board",
    "ask_for_deal",
    "new_account",
    "board_info",
    "board_line",
]
