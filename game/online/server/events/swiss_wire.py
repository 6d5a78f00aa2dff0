"""Swiss tournaments over the wire (docs/ONLINE.md, "Events"): registering (alone, or with a
partner in a partnership game), leaving, the standings, and the rounds' tables.

- ``swiss_register`` {id, partner} → ``swiss`` {id, round, rounds, finished, standings, me};
  ``partner`` names the team's other player (an account of the club) or is null.
- ``swiss_leave`` {id} → ``swiss`` (before the start the entry is removed, after it dropped).
- ``swiss_standings`` {id} → ``swiss``.

From registration on, the connection that registered is sent ``swiss_round`` {id, round, code,
seat, token, opponent} when a round pairs its entrant: the player takes the seat with ``join``
(a bye: ``code`` null, worth a win). The loop (:meth:`SwissWire.run`, every ``TICK`` seconds)
begins a round when it is due (``Swisses.advance``: the start, or every result of the round
before in, or the round's set time). At a table's end its match_end's winner is the result
(``Swisses.report``: a, b or draw), and every registered connection is sent the standings.

As for arenas, rounds begin on one process: on a cluster the loop needs a lease (not built),
so Swiss tournaments are refused there (``cluster``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from game.online.server.events.common import EventRefusal, items, text
from game.online.server.events.deals import settings_deal
from game.online.server.events.host import EventsHost
from game.online.server.events.hub import swiss_line_json
from game.online.server.events.swiss import DRAW, A, B, Swiss
from game.online.server.seats import Conn, MessageHandler, Refusal, Seat, Table
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

TICK = 0.5
#: How long a person's seat at a Swiss table waits for them before the computer plays it.
PAUSE_SECONDS = 60
#: The rating an entrant registers with (the pairing's order among equal scores).
RATING = 1500.0


@dataclass
class SwissTable:
    swiss: str
    match: str


class SwissWire:
    """The Swiss tournaments' messages and rounds of one server."""

    def __init__(self, events: EventsHost):
        self.events = events
        #: Per tournament, per account: the connection that registered.
        self.conns: dict[str, dict[str, Conn]] = {}
        self.tables: dict[str, SwissTable] = {}
        self._loop: asyncio.Task | None = None

    def handlers(self) -> dict[str, MessageHandler]:
        return {"swiss_register": self.on_register, "swiss_leave": self.on_leave, "swiss_standings": self.on_standings}

    def _swiss(self, sid: str) -> Swiss:
        try:
            return self.events.hub.swisses.get(sid)
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None

    def _send(self, conn: Conn, sid: str, player: str | None) -> None:
        s = self._swiss(sid)
        lines = s.standings()
        mine = s.member_of(player) if player is not None else None
        me = next((swiss_line_json(ln) for ln in lines if ln.entrant == mine), None)
        conn.send(
            M.SWISS(
                id=sid,
                round=len(s.rounds()),
                rounds=int(str(s.s["rounds"])),
                finished=s.finished,
                standings=[swiss_line_json(ln) for ln in lines[:200]],
                me=me,
            )
        )

    def on_register(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        if self.events.server.node is not None:
            raise Refusal("cluster", "Swiss tournaments are not played on a cluster yet")
        sid = msg["id"]
        s = self._swiss(sid)
        members, name = [player], conn.name or ""
        if msg["partner"] is not None:
            other = self.events.server.db.player_by_name(msg["partner"])
            if other is None:
                raise Refusal("no_player", f"nobody is called {msg['partner']} on this server")
            members.append(f"p:{other.id}")
            name = f"{name} & {other.name}"
        try:
            if s.member_of(player) is None:
                self.events.hub.swisses.register(sid, members, name, RATING, self.events.clock())
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        for m in members:  # the partner, when connected, is reached through this connection too
            self.conns.setdefault(sid, {}).setdefault(m, conn)
        self.conns[sid][player] = conn
        self._start()
        self._send(conn, sid, player)

    def on_leave(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        try:
            self.events.hub.swisses.leave(msg["id"], player, self.events.clock())
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        self._send(conn, msg["id"], player)

    def on_standings(self, conn: Conn, msg: dict) -> None:
        self._send(conn, msg["id"], self.events.viewer_of(conn))

    # ---- rounds
    def _start(self) -> None:
        if self._loop is None or self._loop.done():
            self._loop = self.events.server._spawn(self.run())

    async def run(self) -> None:
        while self.conns:
            now = self.events.clock()
            for sid in list(self.conns):
                try:
                    s = self.events.hub.swisses.get(sid)
                    if s.finished:
                        self._tell_all(sid)
                        del self.conns[sid]
                        continue
                    if s.due(now):
                        tables = self.events.hub.swisses.advance(sid, now)
                        for t in tables or []:
                            self._seat(sid, len(self.events.hub.swisses.get(sid).rounds()), t)
                        if tables is None:  # ended early (too few players, no pairing left)
                            self._tell_all(sid)
                except Exception:  # noqa: BLE001 - one tournament's trouble must not stop the others
                    log.exception("swiss %s: a round could not begin", sid)
            await asyncio.sleep(TICK)

    def _tell_all(self, sid: str) -> None:
        for player, conn in self.conns.get(sid, {}).items():
            if not conn.closing:
                self._send(conn, sid, player)

    def _members(self, s: Swiss, entrant: str) -> list[str]:
        return [text(m) for m in items(s.entrants()[entrant]["members"])]

    def _seat(self, sid: str, number: int, t: JsonObject) -> None:
        s = self.events.hub.swisses.get(sid)
        a, b = text(t["a"]), t.get("b")
        if b is None:  # a bye
            for m in self._members(s, a):
                conn = self.conns.get(sid, {}).get(m)
                if conn is not None:
                    conn.send(M.SWISS_ROUND(id=sid, round=number, code=None, seat=None, token=None, opponent=None))
            return
        deal, _ = settings_deal(text(s.s["game"]), text(s.s["preset"]), self.events.clock().date())
        rules = deal.rules()
        first = rules.team_of(0)
        side_a, side_b = self._members(s, a), self._members(s, text(b))
        seats: list[Seat] = []
        who: dict[str, tuple[int, str]] = {}
        for i in range(rules.players):
            queue = side_a if rules.team_of(i) == first else side_b
            token = P.new_token()
            member = queue.pop(0) if queue else None
            if member is None:  # a side with fewer players than seats: the computer fills
                seats.append(Seat("ai", level="normal"))
                continue
            who[member] = (i, token)
            seats.append(Seat("friend", token_hash=P.hash_token(token), name=None))
        code = self.events.new_code()
        table = Table(code, rules, seats, P.hash_token(P.new_token()), PAUSE_SECONDS, True)
        server = self.events.server
        server.store.write_meta(code, table.meta())
        server.tables[code] = table
        self.tables[code] = SwissTable(sid, text(t["match"]))
        names = {e: text(v["name"]) for e, v in s.entrants().items()}
        for member, (seat, token) in who.items():
            conn = self.conns.get(sid, {}).get(member)
            mine = s.member_of(member)
            opponent = names[text(b)] if mine == a else names[a]
            if conn is not None:
                conn.send(M.SWISS_ROUND(id=sid, round=number, code=code, seat=seat, token=token, opponent=opponent))

    def on_finished(self, table: Table) -> bool:
        """A Swiss table's end (the play loop's hook); False for another table."""
        st = self.tables.pop(table.code, None)
        if st is None:
            return False
        m = table.match
        end = next((e for e in reversed(m.events) if e.get("event") == "match_end"), None) if m else None
        winner = end.get("winner") if end is not None else None
        result = DRAW if winner is None else A if winner == table.rules.team_of(0) else B
        try:
            self.events.hub.swisses.report(st.swiss, st.match, result, self.events.clock())
        except EventRefusal as e:
            log.warning("swiss %s: %s", st.swiss, e)
        self._tell_all(st.swiss)
        return True


__all__ = ["SwissWire"]
