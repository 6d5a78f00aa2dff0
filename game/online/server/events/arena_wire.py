"""Arenas over the wire (docs/ONLINE.md, "Events"): joining, pausing, the live standings,
and the pairing loop that seats the free players at tables of their own.

- ``arena_join`` {id} → ``arena`` {id, standings, me}; joining again comes back from a pause.
  From then on the connection that joined is sent ``arena_found`` {id, code, seat, token,
  computers, level} for each match the arena pairs it into: the player takes the seat with
  ``join`` (the code and the token), as a quick match's.
- ``arena_pause`` {id} → ``arena``: no new pairing (a match under way is played out).
- ``arena_standings`` {id} → ``arena``.

The pairing loop (game.online.server.events.runner, every ``TICK`` seconds while an arena
runs) calls ``Arenas.pair`` on the process that holds the arena's lease (on a cluster one
process at a time, game.online.server.events.lease): a group of free players nearest in
points, the computer in the empty seats after the fill wait (marked; it appears in no
standing). Each match is a table of that process (no host; a silent or gone person's seat is
played by the computer after the pause, as at any table), noted in the arena's state; each
person is told where to sit through the process they joined on. At its end the match_end's
winner gives each person a win, a draw or a loss (``Arenas.finish``), and every player of the
arena is sent the standings. An arena past its end with every result in is marked finished in
the store (the loop lists only unfinished events). A person who never sits (or leaves and does not come back) for
the no-show time forfeits: the others win, the absent lose and are paused.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import cast

from game.online.server.events.arena import DRAW, KIND, LOSS, WIN, Arena
from game.online.server.events.common import EventRefusal, items
from game.online.server.events.deals import settings_deal
from game.online.server.events.hub import arena_line_json
from game.online.server.events.runner import LIST_EVERY, REOPEN_AFTER, EventRunner, EventTable
from game.online.server.events.store import change
from game.online.server.seats import Conn, MessageHandler, Refusal, Table
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

#: How long a person's seat at an arena table waits for them before the computer plays it.
PAUSE_SECONDS = 30


def over(arena: Arena, now: dt.datetime) -> bool:
    """Whether an arena is over for good: past its end, and every match paired has its result."""
    return now >= arena.end and all(m.get("result") is not None for m in arena.matches().values())


class ArenaWire(EventRunner):
    """The arenas' messages and pairing loop of one server."""

    KIND = KIND

    def handlers(self) -> dict[str, MessageHandler]:
        return {"arena_join": self.on_join, "arena_pause": self.on_pause, "arena_standings": self.on_standings}

    # ---- messages
    def _arena(self, aid: str) -> Arena:
        try:
            return self.events.hub.arenas.get(aid)
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None

    def _message(self, arena: Arena, player: str | None) -> JsonObject:
        lines = arena.standings()
        me = next((arena_line_json(ln) for ln in lines if ln.player == player), None)
        return M.ARENA(id=arena.s["id"], standings=[arena_line_json(ln) for ln in lines[:100]], me=me)

    def _send(self, conn: Conn, aid: str, player: str | None) -> None:
        conn.send(self._message(self._arena(aid), player))

    def on_join(self, conn: Conn, msg: dict) -> None:
        player = self.events.player_of(conn)
        aid = msg["id"]
        self._arena(aid)
        try:
            self.events.hub.arenas.join(aid, player, conn.name or "", self.events.clock(), self.events.reach(conn))
        except EventRefusal as e:
            raise Refusal(e.code, str(e)) from None
        self.relist()
        self.start()
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

    # ---- the loop (game.online.server.events.runner)
    def active(self, now: dt.datetime) -> list[str]:
        out = []
        for stored in self.events.store.events(KIND, unfinished=True):
            a = Arena(stored.state)
            if over(a, now):
                self._mark_finished(stored.id, now)
            elif a.start - dt.timedelta(seconds=LIST_EVERY) <= now < a.end or a.under_way():
                out.append(stored.id)
        return out

    def _mark_finished(self, aid: str, now: dt.datetime) -> None:
        """An arena past its end with every match's result in: marked finished in the store
        (under compare-and-set, checked again there), so that the loop reads it no more."""

        def step(state: JsonObject) -> tuple[JsonObject, None]:
            if over(Arena(state), now):
                state["finished"] = True
            return state, None

        try:
            change(self.events.store, aid, step)
        except Exception:  # noqa: BLE001 - marked at a later round
            log.exception("arena %s: could not be marked finished", aid)

    def prepare(self, event_id: str, now: dt.datetime) -> object:
        arena = self.events.hub.arenas.get(event_id)
        again = arena.unopened(now, REOPEN_AFTER)
        matches = self.events.hub.arenas.pair(event_id, now) if arena.running(now) else []
        if not (again or matches):
            return None
        return self.events.hub.arenas.get(event_id), again + matches

    def seat(self, event_id: str, prepared: object) -> None:
        arena, matches = cast(tuple[Arena, list[JsonObject]], prepared)
        for match in matches:
            self._seat(event_id, arena, match)

    def under_way(self, event_id: str) -> list[tuple[str, str, dict[int, str]]]:
        return self.events.hub.arenas.get(event_id).under_way()

    def _seat(self, aid: str, arena: Arena, match: JsonObject) -> None:
        """A paired match: a table of this process, each person told their seat."""
        deal, _ = settings_deal(str(arena.s["game"]), str(arena.s["preset"]), self.events.clock().date())
        people = [str(p) for p in items(match["players"])]
        level = match.get("level") if isinstance(match.get("level"), str) else None
        rules = deal.rules()
        opened = self.events.open_table(
            rules,
            [people[i] if i < len(people) else None for i in range(rules.players)],
            level if level in P.AI_LEVELS else "normal",
            PAUSE_SECONDS,
        )
        seats = dict(enumerate(people))
        mid = str(match["id"])
        self.adopt(aid, mid, opened.code, seats)
        self.events.hub.arenas.opened(aid, mid, opened.code, seats)
        reach = arena.reach()
        for i, p in enumerate(people):
            if p in reach:
                self.events.tell(
                    reach[p],
                    M.ARENA_FOUND(
                        id=aid,
                        code=opened.code,
                        seat=i,
                        token=opened.tokens[i],
                        computers=int(str(match.get("computers") or 0)),
                        level=level,
                    ),
                )

    def report(self, et: EventTable, winner: object, table: Table | None) -> None:
        results = {}
        for seat, player in et.players.items():
            if winner is None:
                results[player] = DRAW
            elif table is not None:
                results[player] = WIN if table.rules.team_of(seat) == winner else LOSS
            else:
                results[player] = WIN if self._team_of(et, seat) == winner else LOSS
        try:
            self.events.hub.arenas.finish(et.event, et.match, results, self.events.clock())
        except EventRefusal as e:
            log.warning("arena %s: %s", et.event, e)
        self._tell_standings(et.event)

    def _team_of(self, et: EventTable, seat: int) -> object:
        arena = self.events.hub.arenas.get(et.event)
        deal, _ = settings_deal(str(arena.s["game"]), str(arena.s["preset"]), self.events.clock().date())
        return deal.rules().team_of(seat)

    def forfeit(self, et: EventTable, absent: set[int], now: dt.datetime) -> None:
        who = {et.players[s] for s in absent if s in et.players}
        log.info("arena %s: match %s forfeited by %s (no-show)", et.event, et.match, sorted(who))
        try:
            self.events.hub.arenas.forfeit(et.event, et.match, who, now)
        except EventRefusal as e:
            log.warning("arena %s: %s", et.event, e)
        self.tell_lost(self.events.hub.arenas.get(et.event).reach(), who)
        self._tell_standings(et.event)

    def on_finished(self, table: Table) -> bool:
        """An arena match's end (the play loop's hook); False for another table."""
        return self.finished(table)

    def _tell_standings(self, aid: str) -> None:
        arena = self.events.hub.arenas.get(aid)
        self.tell_all(arena.reach(), lambda player: self._message(arena, player))


__all__ = ["PAUSE_SECONDS", "ArenaWire", "over"]
