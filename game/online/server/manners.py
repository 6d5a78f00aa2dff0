"""A club's manners (docs/ONLINE.md, "The club"): the quick phrases and free-text chat said
to a table, and mute, block and report — each by account, so a new name escapes none of them.

game.online.server.club builds one :class:`Manners` and puts its handlers among its own.
"""

from __future__ import annotations

import time

from game.online.server.accounts import ClubStore, name_key
from game.online.server.limits import ServerLimits
from game.online.server.play import PlayLoop
from game.online.server.seats import Conn, MessageHandler, Refusal, Table
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

#: Free-text chat: at most one message per this many seconds per connection.
CHAT_EVERY = 1.0


def need_account(conn: Conn) -> int:
    """The connection's account; refusal ``account`` before it has said who it is."""
    if conn.player is None:
        raise Refusal("account", "say who you are first (the 'account' message)")
    return conn.player


class Manners:
    def __init__(self, db: ClubStore, tables: dict[str, Table], play: PlayLoop, limits: ServerLimits):
        self.db = db
        self.tables = tables
        self.play = play
        self.limits = limits

    def handlers(self) -> dict[str, MessageHandler]:
        return {
            "block": self.on_block,
            "mute": self.on_mute,
            "report": self.on_report,
            "chat": self.on_chat,
            "say": self.on_say,
        }

    def _other(self, name: str) -> int:
        other = self.db.player_by_name(name)
        if other is None:
            raise Refusal("no_player", f"no player {name} on this server")
        return other.id

    def on_block(self, conn: Conn, msg: dict) -> None:
        me = need_account(conn)
        other = self._other(msg["name"])
        if other == me:
            raise Refusal("config", "you cannot block yourself")
        self.db.block(me, other)
        conn.muted.add(f"p:{other}")
        conn.send(M.BLOCKED(name=msg["name"]))

    def on_mute(self, conn: Conn, msg: dict) -> None:
        """Mute by the account a name belongs to (whatever name it later sits under); a name
        without an account (a friend at a host's table) by its key."""
        other = self.db.player_by_name(msg["name"])
        key = f"p:{other.id}" if other is not None else f"n:{name_key(msg['name'])}"
        (conn.muted.add if msg["muted"] else conn.muted.discard)(key)
        conn.send(M.MUTED(name=msg["name"], muted=msg["muted"]))

    @staticmethod
    def speaker_keys(table: Table, i: int) -> set[str]:
        """What a mute of seat ``i``'s speaker may be kept under: its account, and its name's key."""
        seat = table.seats[i]
        keys = {f"n:{name_key(seat.name or '')}"}
        player = seat.conn.player if seat.conn is not None else None
        if player is None and table.club is not None:
            player = table.club.get("players", {}).get(str(i))
        if player is not None:
            keys.add(f"p:{player}")
        return keys

    def on_report(self, conn: Conn, msg: dict) -> None:
        me = need_account(conn)
        other = self._other(msg["name"])
        code = msg["table"]
        self.db.report(me, other, code, msg["reason"])
        # The record stays for the server's owner: a reported table is never cleaned away.
        if code is not None and code in self.tables:
            self.play.write_meta_soon(self.tables[code], reported=True)
        conn.send(M.REPORTED(name=msg["name"]))

    @staticmethod
    def _seat_of(conn: Conn) -> int:
        if conn.table is None or conn.seat is None:
            raise Refusal("not_seated", "join a table first")
        return conn.seat

    def _to_table(self, conn: Conn, message: JsonObject) -> None:
        table, i = conn.table, self._seat_of(conn)
        if table is None:
            raise Refusal("not_seated", "join a table first")
        speaker = self.speaker_keys(table, i)
        text = P.encode(message)
        for c in table.conns():
            if not speaker & c.muted:
                c.send_text(text)

    def on_say(self, conn: Conn, msg: dict) -> None:
        self._to_table(conn, M.SAID(seat=self._seat_of(conn), phrase=msg["phrase"]))

    def on_chat(self, conn: Conn, msg: dict) -> None:
        if not self.limits.chat:
            raise Refusal("chat_off", "free-text chat is off on this server: use the quick phrases")
        now = time.monotonic()
        if now - conn.last_chat < CHAT_EVERY:
            raise Refusal("rate", f"at most one chat message every {CHAT_EVERY:g} s")
        conn.last_chat = now
        self._to_table(conn, M.CHAT(seat=self._seat_of(conn), text=msg["text"]))


__all__ = ["CHAT_EVERY", "Manners", "need_account"]
