"""Arenas over the wire (docs/ONLINE.md, "Events"): joining, pausing, the live standings,
and the pairing loop that seats the free players at tables of their own.

- ``arena_join`` {id} → ``arena`` {id, standings, me}; joining again comes back from a pause.
  From then on the connection that joined is sent ``arena_found`` {id, code, seat, token,
  computers, level} for each match the arena pairs it into: the player takes the seat with
  ``join`` (the code and the token), as a quick match's.
- ``arena_pause`` {id} → ``arena``: no new pairing (a match under way is played out).
- ``arena_standings`` {id} → ``arena``.

The pairing loop (:meth:`ArenaWire.run`, every ``TICK`` seconds while an arena runs) calls
``Arenas.pair``: a group of free players nearest in points, the computer in the empty seats
after the fill wait (marked; it appears in no standing). Each match is a table of the server's
(no host; a silent or gone person's seat is played by the computer after the pause, as at any
table). At its end the match_end's winner gives each person a win, a draw or a loss
(``Arenas.finish``), and every connection of the arena's players is sent the standings.

Pairing runs on one process: on a cluster every process would pair the same free players, so
there the loop must hold a lease (as quick match's ``cv:matchmaker``) — not built; arenas are
refused on a cluster (``cluster``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from game.online.server.events.arena import DRAW, LOSS, WIN, Arena
from game.online.server.events.common import EventRefusal, items
from game.online.server.events.deals import settings_deal
from game.online.server.events.host import EventsHost
from game.online.server.events.hub import arena_line_json
from game.online.server.seats import Conn, MessageHandler, Refusal, Seat, Table
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

#: Seconds between two pairing rounds.
TICK = 0.5
#: How long a person's seat at an arena table waits for them before the computer plays it.
PAUSE_SECONDS = 30


@dataclass
class ArenaTable:
    arena: str
    match: str
    players: dict[int, str]  # seat -> account ("p:<id>")


class ArenaWire:
    """The arenas' messages and pairing loop of one server."""

    def __init__(self, events: EventsHost):
        self.events = events
        #: Per arena, per account: the connection that joined (it is sent ``arena_found``).
        self.conns: dict[str, dict[str, Conn]] = {}
        self.tables: dict[str, ArenaTable] = {}
        self._loop: asyncio.Task | None = None

    def handlers(self) -> dict[str, MessageHandler]:
        return {"arena_join": self.on_join, "arena_pause": self.on_pause, "arena_standings": self.on_standings}

    # ---- messages
    def _arena(self, aid: str) -> Arena:
        try:
            return self.events.hub.arenas.get(aid)
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None

    def _send(self, conn: Conn, aid: str, player: str | None) -> None:
        lines = self._arena(aid).standings()
        me = next((arena_line_json(ln) for ln in lines if ln.player == player), None)
        conn.send(M.ARENA(id=aid, standings=[arena_line_json(ln) for ln in lines[:100]], me=me))

    def on_join(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        if self.events.server.node is not None:
            raise Refusal("cluster", "arenas are not played on a cluster yet")
        aid = msg["id"]
        self._arena(aid)
        try:
            self.events.hub.arenas.join(aid, player, conn.name or "", self.events.clock())
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        self.conns.setdefault(aid, {})[player] = conn
        self._start()
        self._send(conn, aid, player)

    def on_pause(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        try:
            self.events.hub.arenas.pause(msg["id"], player)
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        self._send(conn, msg["id"], player)

    def on_standings(self, conn: Conn, msg: dict) -> None:
        self._send(conn, msg["id"], self.events.viewer_of(conn))

    # ---- pairing
    def _start(self) -> None:
        if self._loop is None or self._loop.done():
            self._loop = self.events.server._spawn(self.run())

    async def run(self) -> None:
        """Pair the running arenas' free players until no arena anyone joined here runs."""
        while self.conns:
            now = self.events.clock()
            for aid in list(self.conns):
                try:
                    arena = self.events.hub.arenas.get(aid)
                    if now >= arena.end and not any(t.arena == aid for t in self.tables.values()):
                        del self.conns[aid]
                        continue
                    for match in self.events.hub.arenas.pair(aid, now):
                        self._seat(aid, arena, match)
                except Exception:  # noqa: BLE001 - one arena's trouble must not stop the others
                    log.exception("arena %s: pairing failed", aid)
            await asyncio.sleep(TICK)

    def _seat(self, aid: str, arena: Arena, match: JsonObject) -> None:
        """A paired match: a table of the server's, each person told their seat."""
        server = self.events.server
        deal, _ = settings_deal(str(arena.s["game"]), str(arena.s["preset"]), self.events.clock().date())
        rules = deal.rules()
        people = [str(p) for p in items(match["players"])]
        level = match.get("level") if isinstance(match.get("level"), str) else None
        seats: list[Seat] = []
        tokens: dict[str, str] = {}
        for i in range(rules.players):
            if i < len(people):
                token = P.new_token()
                tokens[people[i]] = token
                seats.append(Seat("friend", token_hash=P.hash_token(token), name=None))
            else:
                seats.append(Seat("ai", level=level if level in P.AI_LEVELS else "normal"))
        code = self.events.new_code()
        table = Table(code, rules, seats, P.hash_token(P.new_token()), PAUSE_SECONDS, True)
        server.store.write_meta(code, table.meta())
        server.tables[code] = table
        self.tables[code] = ArenaTable(aid, str(match["id"]), {i: p for i, p in enumerate(people)})
        for i, p in enumerate(people):
            conn = self.conns.get(aid, {}).get(p)
            if conn is not None:
                conn.send(
                    M.ARENA_FOUND(
                        id=aid,
                        code=code,
                        seat=i,
                        token=tokens[p],
                        computers=int(str(match.get("computers") or 0)),
                        level=level,
                    )
                )

    def on_finished(self, table: Table) -> bool:
        """An arena match's end (the play loop's hook); False for another table."""
        at = self.tables.pop(table.code, None)
        if at is None:
            return False
        m = table.match
        end = next((e for e in reversed(m.events) if e.get("event") == "match_end"), None) if m else None
        winner = end.get("winner") if end is not None else None
        results = {}
        for seat, player in at.players.items():
            if winner is None:
                results[player] = DRAW
            else:
                results[player] = WIN if table.rules.team_of(seat) == winner else LOSS
        try:
            self.events.hub.arenas.finish(at.arena, at.match, results, self.events.clock())
        except EventRefusal as e:
            log.warning("arena %s: %s", at.arena, e)
        for player, conn in self.conns.get(at.arena, {}).items():
            if not conn.closing:
                self._send(conn, at.arena, player)
        return True


__all__ = ["ArenaWire"]
