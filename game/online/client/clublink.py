"""The window's link to a club server (pure Python: no pygame): one connection in its own
thread (game.online.client.connection) that signs in with the player's account, follows the live
list of open tables, asks for leaderboards and waits for quick matches. The window polls it
every frame (:meth:`ClubLink.poll`) and draws what it holds.
"""

from __future__ import annotations

import time

from game.online.client.connection import Connection
from game.online.wire import protocol as P
from game.online.wire.messages import Dispatch, MessageError, as_int, as_list
from game.rules.vocabulary import JsonObject


class ClubLink:
    """State of one club server as this player sees it."""

    def __init__(self, url: str, name: str, secret: str | None, *, connect: bool = True):
        self.url = url
        self.name = name
        self.secret = secret
        #: A new account's secret and recovery code, once, for the window to keep and show.
        self.new_account: dict[str, str] | None = None
        self.signed_in = False
        self.ratings: dict[str, JsonObject] = {}
        self.tables: list[JsonObject] = []
        self.waiting_players = 0
        self.boards: dict[str, JsonObject] = {}
        #: Quick match: since when this player waits (monotonic), and the match found.
        self.quick_since: float | None = None
        self.found: JsonObject | None = None
        #: The last error the server sent (code, message), and why the link failed (None: it did not).
        self.error: tuple[str, str] | None = None
        self.failed: str | None = None
        self._dispatch = Dispatch(
            {
                "account": self._on_account,
                "tables": self._on_tables,
                "leaderboard": self._on_leaderboard,
                "quick_waiting": self._on_quick_waiting,
                "quick_found": self._on_quick_found,
                "error": self._on_error,
                "_failed": self._on_failed,
                "_lost": self._on_lost,
            }
        )
        self.conn = Connection(url, self._greeting)
        if connect:
            self.conn.start()

    def _greeting(self) -> list[dict]:
        return [
            {"type": "hello", "version": P.PROTOCOL_VERSION, "name": self.name},
            {"type": "account", "name": self.name, "secret": self.secret},
            {"type": "tables"},
        ]

    # ---- asking
    def quick(self, game: str, preset: str | None = None) -> bool:
        self.found, self.error = None, None
        sent = self.conn.send({"type": "quick", "game": game, "preset": preset})
        if sent:
            self.quick_since = time.monotonic()
        return sent

    def cancel_quick(self) -> None:
        self.conn.send({"type": "quick_cancel"})
        self.quick_since = None

    def ask_board(self, game: str) -> bool:
        return self.conn.send({"type": "leaderboard", "game": game})

    def close(self) -> None:
        self.conn.close()

    # ---- what came
    def poll(self, limit: int = 200) -> None:
        for _ in range(limit):
            m = self.conn.get()
            if m is None:
                return
            self.handle(m)

    def handle(self, m: JsonObject) -> None:
        kind = m.get("type")
        try:
            self._dispatch(m)
        except MessageError as e:
            self.error = ("client", str(e))
        except (KeyError, TypeError, ValueError):
            self.error = ("client", f"a {kind!r} message could not be read")

    def _on_account(self, m: JsonObject) -> None:
        self.signed_in = True
        self.name = str(m["name"])
        if m.get("secret"):
            self.secret = str(m["secret"])
            self.new_account = {"secret": self.secret, "recovery": str(m.get("recovery") or "")}
        ratings = m.get("ratings")
        if isinstance(ratings, dict):
            self.ratings = {str(k): v for k, v in ratings.items() if isinstance(v, dict)}

    def _on_tables(self, m: JsonObject) -> None:
        self.tables = [t for t in as_list(m.get("tables", [])) if isinstance(t, dict)][:200]
        self.waiting_players = as_int(m.get("waiting") or 0)

    def _on_leaderboard(self, m: JsonObject) -> None:
        self.boards[str(m["game"])] = m

    def _on_quick_waiting(self, m: JsonObject) -> None:
        self.ratings[str(m["game"])] = {k: m.get(k) for k in ("rating", "matches", "provisional")}

    def _on_quick_found(self, m: JsonObject) -> None:
        self.found = m
        self.quick_since = None

    def _on_error(self, m: JsonObject) -> None:
        self.error = (str(m.get("code")), str(m.get("message", "")))
        if self.error[0] in ("bad_secret", "name_taken", "version"):
            self.failed = self.error[0]
            self.conn.stop_retrying()
        self.quick_since = None if self.error[0] in ("config", "limit", "account") else self.quick_since

    def _on_failed(self, m: JsonObject) -> None:
        self.failed = self.failed or str(m.get("message") or "unreachable")

    def _on_lost(self, m: JsonObject) -> None:
        self.signed_in = False

    def waited(self) -> float:
        return 0.0 if self.quick_since is None else time.monotonic() - self.quick_since


__all__ = ["ClubLink"]
