"""Watching a club table from the window, the client side: :class:`SpectatorFeed`,
a connection (game.online.client.connection, its own thread) that says ``watch`` with the table's
code and hands the replay viewer the spectator's stream as it comes — the server's own
redaction (game.online.server.spectate): nobody's hand, the stock hidden, one decision late.

The feed is what scenes.replay's viewer calls ``live``: :meth:`pull` gives the events that
arrived since the last call; ``problem`` says why watching stopped (the table gone, the
server unreachable). Nothing here decides what a spectator may see: the server sends only
that, and the feed checks the stream's order (a gap or a rewrite ends the watching rather
than showing a wrong table).

Pure Python: no pygame here.
"""

from __future__ import annotations

from game.online.client.connection import Connection
from game.online.wire import protocol as P
from game.online.wire.messages import Dispatch, MessageError, as_int, as_list
from game.rules.vocabulary import JsonObject

#: Events one pull hands over at most (the rest wait for the next frame).
PULL_LIMIT = 2000


class SpectatorFeed:
    """The spectator's stream of one public table (see the module)."""

    def __init__(self, url: str, code: str, name: str, secret: str | None = None, *, connect: bool = True):
        self.url = url
        self.code = code
        self.name = name
        self.secret = secret
        #: The public lobby of the table (``watching``): names, levels, watchers — no card.
        self.lobby: JsonObject | None = None
        self.watchers = 0
        self.events: list[JsonObject] = []
        self._handed = 0
        #: Why watching stopped (a line in the server's words or the connection's), or None.
        self.problem: str | None = None
        self.problem_code: str | None = None
        self._dispatch = Dispatch(
            {
                "watching": self._on_watching,
                "events": self._on_events,
                "watchers": self._on_watchers,
                "error": self._on_error,
                "_failed": self._on_failed,
            }
        )
        self.conn = Connection(url, self._greeting)
        if connect:
            self.conn.start()

    def _greeting(self) -> list[dict]:
        out: list[dict] = [{"type": "hello", "version": P.PROTOCOL_VERSION, "name": self.name}]
        if self.secret:
            out.append({"type": "account", "name": self.name, "secret": self.secret})
        out.append({"type": "watch", "code": self.code})
        return out

    @property
    def ready(self) -> bool:
        """The server said yes and the first events (the deal so far) are here."""
        return self.lobby is not None and bool(self.events)

    def poll(self, limit: int = 400) -> None:
        for _ in range(limit):
            m = self.conn.get()
            if m is None:
                return
            self.handle(m)

    def pull(self) -> list[dict]:
        """The events that came since the last pull (what the viewer adds to its timeline)."""
        self.poll()
        out = self.events[self._handed : self._handed + PULL_LIMIT]
        self._handed += len(out)
        return out

    def handle(self, m: JsonObject) -> None:
        kind = m.get("type")
        try:
            self._dispatch(m)
        except MessageError as e:
            self._stop(str(e), "client")
        except (KeyError, TypeError, ValueError) as e:
            self._stop(f"a {kind!r} message could not be read ({e})", "client")

    def _on_watching(self, m: JsonObject) -> None:
        self.lobby = {
            k: m.get(k) for k in ("code", "game", "deck", "players", "options", "seats", "started", "finished")
        }
        self.watchers = as_int(m.get("watchers") or 0)

    def _on_events(self, m: JsonObject) -> None:
        self._events(as_int(m["from"]), as_list(m["events"]))

    def _on_watchers(self, m: JsonObject) -> None:
        self.watchers = as_int(m["count"])

    def _on_error(self, m: JsonObject) -> None:
        code = str(m.get("code"))
        if code in ("no_table", "full", "version", "bad_secret", "schema"):
            self._stop(str(m.get("message") or code), code)

    def _on_failed(self, m: JsonObject) -> None:
        self._stop(str(m.get("message") or "the server cannot be reached"), "unreachable")

    def _events(self, start: int, given: list[object]) -> None:
        events = [ev for ev in given if isinstance(ev, dict)]
        if len(events) != len(given):
            raise ValueError("an event is not an object")
        have = len(self.events)
        if start > have:
            raise ValueError(f"events from {start} while {have} came")
        # A reconnection sends the stream from 0 again: what was shown stays, only the new is added.
        overlap = have - start
        if self.events[start : start + min(overlap, len(events))] != events[:overlap]:
            raise ValueError("the stream differs from what was shown")
        self.events.extend(events[overlap:])

    def _stop(self, why: str, code: str) -> None:
        if self.problem is None:
            self.problem, self.problem_code = why, code
        self.conn.stop_retrying()

    def close(self) -> None:
        self.conn.send({"type": "unwatch"})
        self.conn.close()


__all__ = ["SpectatorFeed"]
