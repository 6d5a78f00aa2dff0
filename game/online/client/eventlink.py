"""The window's lasting connection to a club's events (scenes.online.events_join): what the
player asks sent, what the server sends back handed on (docs/ONLINE.md, "Events")."""

from __future__ import annotations

from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject


class EventLink:
    """The window's lasting connection to a club's events: signed in, it sends what the player
    asks (``arena_join``, ``arena_pause``, ``swiss_register``, ``swiss_leave``,
    ``challenge_answer``) and hands back what the server sends. It must stay open: an arena's
    and a Swiss tournament's tables (``arena_found``, ``swiss_round``) are sent on the
    connection that joined. A message asked before the socket opens goes with the greeting."""

    #: What the window is handed (anything else the server sends is passed over).
    KINDS = frozenset({"account", "arena", "arena_found", "swiss", "swiss_round", "challenge", "error"})

    def __init__(self, url: str, name: str, account: dict):
        from game.online.client.connection import Connection

        hello = {"type": "hello", "version": P.PROTOCOL_VERSION, "name": name}
        P.check_message(hello)
        P.check_message(account)
        self.url = url
        self.pending: list[dict] = []
        #: The arenas joined through this link and not paused: left paused when it closes.
        self.arenas: set[str] = set()
        #: The Swiss tournaments registered for through this link (their rounds come here).
        self.swiss: set[str] = set()
        self._greeting = [hello, account]
        self._greeted: list[dict] = []
        self.conn = Connection(url, self._greet, reconnect=False)
        self.conn.start()

    def _greet(self) -> list[dict]:
        self._greeted = list(self.pending)
        return [*self._greeting, *self._greeted]

    def send(self, message: dict) -> None:
        """Send ``message`` (ProtocolError for a bad one), or keep it for the greeting."""
        P.check_message(message)
        if message["type"] == "arena_join":
            self.arenas.add(str(message["id"]))
        elif message["type"] == "arena_pause":
            self.arenas.discard(str(message["id"]))
        elif message["type"] == "swiss_register":
            self.swiss.add(str(message["id"]))
        elif message["type"] == "swiss_leave":
            self.swiss.discard(str(message["id"]))
        if not self.conn.send(message):
            self.pending.append(message)
        elif message in self.pending:
            self.pending.remove(message)

    def poll(self) -> list[JsonObject]:
        """What has arrived: the messages of :attr:`KINDS` (checked), and ``{"type": "_lost"}``
        once the connection is gone for good."""
        from game.online.wire.messages import MessageError, declared

        out: list[JsonObject] = []
        while (m := self.conn.get()) is not None:
            kind = m.get("type")
            if kind == "_open":  # the greeting carried those asked before; the rest go now
                late = [p for p in self.pending if p not in self._greeted]
                self.pending.clear()
                for p in late:
                    self.conn.send(p)
            elif kind == "_failed":
                out.append({"type": "_lost", "message": str(m.get("message") or "")[:300]})
            elif kind in self.KINDS:
                try:
                    declared(m)
                except MessageError:
                    continue
                out.append(m)
        return out

    def close(self) -> None:
        """Pause the arenas joined here (nobody would take their seats), then close."""
        for aid in sorted(self.arenas):
            self.conn.send({"type": "arena_pause", "id": aid})
        self.arenas.clear()
        self.conn.close()


__all__ = ["EventLink"]
