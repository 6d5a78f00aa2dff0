"""Swiss tournaments over the wire (docs/ONLINE.md, "Events"): registering (alone, or with a
partner in a partnership game), leaving, the standings, and the rounds' tables.

- ``swiss_register`` {id, partner} → ``swiss`` {id, round, rounds, finished, standings, me,
  waiting, asked}; ``partner`` names the team's other player (an account of the club) or is
  null. In a partnership tournament the team is entered only with both players' consent: the
  first to register naming the other makes an offer (``waiting``: the partner's name, ``me``
  null), the team is entered when the other registers naming them back (then both are sent
  ``swiss``). ``asked``: the names of the players who named this one and wait for them (the
  event list's Swiss lines carry both too). Registering again without a partner while
  waiting only changes where the player is told.
- ``swiss_leave`` {id} → ``swiss`` (before the start the entry is removed, after it dropped).
- ``swiss_standings`` {id} → ``swiss``.

From registration on, the connection that registered is sent ``swiss_round`` {id, round, code,
seat, token, opponent} when a round pairs its entrant: the player takes the seat with ``join``
(a bye: ``code`` null, worth a win). The loop (game.online.server.events.runner, every
``TICK`` seconds) begins a round when it is due (``Swisses.advance``: the start, or every
result of the round before in, or the round's set time), on the process that holds the
tournament's lease (game.online.server.events.lease; the round is also written under
compare-and-set, so it is paired once whatever happens). At a table's end its match_end's
winner is the result (``Swisses.report``: a, b or draw), and every registered player is sent
the standings. An entrant whose player never sits (or leaves and does not come back) for the
no-show time forfeits: a loss for them, a win for the opponent there (both absent: a loss
for both).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import cast

from game.online.server.events.common import EventRefusal, items, text
from game.online.server.events.deals import settings_deal
from game.online.server.events.hub import swiss_line_json
from game.online.server.events.runner import REOPEN_AFTER, EventRunner, EventTable
from game.online.server.events.swiss import DRAW, KIND, A, B, Swiss
from game.online.server.seats import Conn, MessageHandler, Refusal, Table
from game.online.wire import messages as M
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

#: How long a person's seat at a Swiss table waits for them before the computer plays it.
PAUSE_SECONDS = 60
#: The rating an entrant registers with (the pairing's order among equal scores).
RATING = 1500.0


class SwissWire(EventRunner):
    """The Swiss tournaments' messages and rounds of one server."""

    KIND = KIND

    def handlers(self) -> dict[str, MessageHandler]:
        return {"swiss_register": self.on_register, "swiss_leave": self.on_leave, "swiss_standings": self.on_standings}

    def _swiss(self, sid: str) -> Swiss:
        try:
            return self.events.hub.swisses.get(sid)
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None

    def _message(self, s: Swiss, player: str | None) -> JsonObject:
        lines = s.standings()
        now = self.events.clock()
        mine = s.member_of(player) if player is not None else None
        me = next((swiss_line_json(ln) for ln in lines if ln.entrant == mine), None)
        return M.SWISS(
            id=s.s["id"],
            round=len(s.rounds()),
            rounds=int(str(s.s["rounds"])),
            finished=s.finished,
            standings=[swiss_line_json(ln) for ln in lines[:200]],
            me=me,
            waiting=s.waiting_for(player, now),
            asked=s.asked_by(player, now)[:20],
        )

    def _send(self, conn: Conn, sid: str, player: str | None) -> None:
        conn.send(self._message(self._swiss(sid), player))

    def on_register(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        sid = msg["id"]
        s = self._swiss(sid)
        members, name = [player], conn.name or ""
        at = self.events.reach(conn)
        now = self.events.clock()
        swisses = self.events.hub.swisses
        other = None
        if msg["partner"] is not None:
            other = self.events.server.db.player_by_name(msg["partner"])
            if other is None:
                raise Refusal("no_player", f"nobody is called {msg['partner']} on this server")
        try:
            if s.member_of(player) is not None or (other is None and player in s.offers()):
                # registered before (or waiting for a partner): this connection is told from now on
                swisses.set_at(sid, player, at)
            elif other is not None and int(str(s.s["team_size"])) == 2:
                partner = f"p:{other.id}"
                if swisses.offer(sid, player, name, partner, other.name, RATING, now, at) is not None:
                    self._tell_partner(sid, partner)
            else:
                if other is not None:
                    members.append(f"p:{other.id}")
                    name = f"{name} & {other.name}"
                swisses.register(sid, members, name, RATING, now, at)
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        self.relist()
        self.start()
        self._send(conn, sid, player)

    def _tell_partner(self, sid: str, partner: str) -> None:
        """The team just entered: the partner who asked first is told where they registered."""
        s = self.events.hub.swisses.get(sid)
        at = s.reach().get(partner)
        if at is not None:
            self.tell_all({partner: at}, lambda p: self._message(s, p))

    def on_leave(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        try:
            self.events.hub.swisses.leave(msg["id"], player, self.events.clock())
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        self._send(conn, msg["id"], player)

    def on_standings(self, conn: Conn, msg: dict) -> None:
        self._send(conn, msg["id"], self.events.viewer_of(conn))

    # ---- the loop (game.online.server.events.runner)
    def active(self, now: dt.datetime) -> list[str]:
        return [stored.id for stored in self.events.store.events(KIND, unfinished=True)]

    def prepare(self, event_id: str, now: dt.datetime) -> object:
        s = self.events.hub.swisses.get(event_id)
        if not s.due(now):
            again = s.unopened(now, REOPEN_AFTER)
            return (s, again) if again else None
        tables = self.events.hub.swisses.advance(event_id, now)
        return self.events.hub.swisses.get(event_id), tables

    def seat(self, event_id: str, prepared: object) -> None:
        s, tables = cast(tuple[Swiss, list[JsonObject] | None], prepared)
        if tables is None:  # ended early (too few players, no pairing left), or paired elsewhere
            if s.finished:
                self._tell_all(event_id, s)
            return
        for t in tables:
            self._seat(event_id, s, len(s.rounds()), t)

    def under_way(self, event_id: str) -> list[tuple[str, str, dict[int, str]]]:
        return self.events.hub.swisses.get(event_id).under_way()

    def _tell_all(self, sid: str, s: Swiss | None = None) -> None:
        s = s or self.events.hub.swisses.get(sid)
        self.tell_all(s.reach(), lambda player: self._message(s, player))

    def _members(self, s: Swiss, entrant: str) -> list[str]:
        return [text(m) for m in items(s.entrants()[entrant]["members"])]

    def _seat(self, sid: str, s: Swiss, number: int, t: JsonObject) -> None:
        reach = s.reach()
        a, b = text(t["a"]), t.get("b")
        if b is None:  # a bye
            for m in self._members(s, a):
                if m in reach:
                    self.events.tell(
                        reach[m], M.SWISS_ROUND(id=sid, round=number, code=None, seat=None, token=None, opponent=None)
                    )
            return
        deal, _ = settings_deal(text(s.s["game"]), text(s.s["preset"]), self.events.clock().date())
        rules = deal.rules()
        first = rules.team_of(0)
        side_a, side_b = self._members(s, a), self._members(s, text(b))
        people: list[str | None] = []
        for i in range(rules.players):
            queue = side_a if rules.team_of(i) == first else side_b
            # a side with fewer players than seats: the computer fills
            people.append(queue.pop(0) if queue else None)
        opened = self.events.open_table(rules, people, "normal", PAUSE_SECONDS)
        seats = {i: p for i, p in enumerate(people) if p is not None}
        mid = text(t["match"])
        self.adopt(sid, mid, opened.code, seats)
        self.events.hub.swisses.opened(sid, mid, opened.code, seats)
        names = {e: text(v["name"]) for e, v in s.entrants().items()}
        for seat, member in seats.items():
            opponent = names[text(b)] if s.member_of(member) == a else names[a]
            if member in reach:
                self.events.tell(
                    reach[member],
                    M.SWISS_ROUND(
                        id=sid, round=number, code=opened.code, seat=seat, token=opened.tokens[seat], opponent=opponent
                    ),
                )

    def _result(self, et: EventTable, winner: object, first: object) -> str:
        return DRAW if winner is None else A if winner == first else B

    def report(self, et: EventTable, winner: object, table: Table | None) -> None:
        if table is not None:
            first = table.rules.team_of(0)
        else:
            s = self.events.hub.swisses.get(et.event)
            deal, _ = settings_deal(text(s.s["game"]), text(s.s["preset"]), self.events.clock().date())
            first = deal.rules().team_of(0)
        try:
            self.events.hub.swisses.report(et.event, et.match, self._result(et, winner, first), self.events.clock())
        except EventRefusal as e:
            log.warning("swiss %s: %s", et.event, e)
        self._tell_all(et.event)

    def losers(self, et: EventTable, absent: set[int]) -> set[str]:
        """Every member of an entrant with an absent member (a partnership forfeits together)."""
        s = self.events.hub.swisses.get(et.event)
        return {m for e in self._absent_entrants(s, et, absent) for m in self._members(s, e)}

    def _absent_entrants(self, s: Swiss, et: EventTable, absent: set[int]) -> set[str]:
        return {e for seat in absent if (e := s.member_of(et.players.get(seat, ""))) is not None}

    def forfeit(self, et: EventTable, absent: set[int], now: dt.datetime) -> None:
        s = self.events.hub.swisses.get(et.event)
        who = self._absent_entrants(s, et, absent)
        log.info("swiss %s: match %s forfeited by %s (no-show)", et.event, et.match, sorted(who))
        try:
            self.events.hub.swisses.forfeit(et.event, et.match, who, now)
        except EventRefusal as e:
            log.warning("swiss %s: %s", et.event, e)
        self.tell_lost(s.reach(), {m for e in who for m in self._members(s, e)})
        self._tell_all(et.event)

    def on_finished(self, table: Table) -> bool:
        """A Swiss table's end (the play loop's hook); False for another table."""
        return self.finished(table)


__all__ = ["PAUSE_SECONDS", "RATING", "SwissWire"]
