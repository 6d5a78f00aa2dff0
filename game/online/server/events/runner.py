"""What the arenas' and the Swiss tournaments' loops share (docs/ONLINE.md, "Events"): the loop
itself, which process pairs, the tables under way and the no-show rule.

**The loop** (:meth:`EventRunner.run`, every ``TICK`` seconds, on every process from its start):
the events of its kind still under way are read from the store (at most every ``LIST_EVERY``
seconds); for each, the process that holds its lease (game.online.server.events.lease; on one
process, always this one) pairs it (:meth:`EventRunner.step`). Joins and pauses are written
to the event's state in the store by whichever process the player is connected to, so the
holder sees them; the tables it opens are its own, and it sends each person where to sit
through the process they are connected to (:meth:`EventsHost.tell`).

**Tables under way** are noted in the event's state (the match's ``table`` and ``seats``), so
that whichever process holds a table (the one that opened it, or one that took it over when
that one died) knows it is an event's: the loop adopts such a table
(:meth:`EventRunner.adopt`), reports its result at its end and applies the no-show rule to
it. A table the holder finds finished in the shared store with no result (its process died
between the end and the report) is reported from its record.

**No-show**: a person's seat that nobody sits at — never taken, or left and not taken again —
for ``no_show_seconds`` (``serve --event-no-show``, the events' clock) forfeits: the table
is closed and the event told who was absent (:meth:`EventRunner.forfeit`). Each person there
whose side won is sent the error ``no_show`` at the table; each person whose side lost (absent,
or the partner of one absent) is sent ``no_show`` through the connection they joined the event
on (:meth:`EventRunner.tell_lost`): the clients end that match and go on.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from game.online.server.events.host import EventsHost
from game.online.server.events.lease import EventLeases
from game.online.server.seats import Table
from game.online.server.store import StoreError
from game.online.wire import protocol as P
from game.rules.base import Event
from game.rules.vocabulary import JsonObject

log = logging.getLogger("cardavia.server")

#: Seconds between two rounds of the loop while an event is under way, and when none is.
TICK = 0.5
IDLE = 2.0
#: The store's list of events is read again at most this often (seconds).
LIST_EVERY = 2.0
#: A match paired this long ago (seconds) whose table was never noted in the event's state
#: (its process died between the two) is opened again by the lease's holder.
REOPEN_AFTER = 30.0


@dataclass
class EventTable:
    """An event's table under way on this process."""

    event: str
    match: str
    #: seat -> the person's account (``p:<id>``) sitting there
    players: dict[int, str]
    #: seat -> since when (the events' clock) nobody has sat there
    absent: dict[int, dt.datetime] = field(default_factory=dict)


def winner_of(events: list[Event]) -> tuple[bool, object]:
    """(whether the record reaches its match_end, the winning team or None for a draw)."""
    end = next((e for e in reversed(events) if e.get("event") == "match_end"), None)
    return end is not None, (end.get("winner") if end is not None else None)


class EventRunner:
    """The loop of one kind of event on one process (subclassed by the arenas and the Swiss
    tournaments: :meth:`active`, :meth:`step`, :meth:`under_way`, :meth:`report` and
    :meth:`forfeit`)."""

    #: The kind of event run (its ids begin with it).
    KIND = ""

    def __init__(self, events: EventsHost):
        self.events = events
        self.leases = EventLeases(events.server.node)
        #: This process's tables of events of this kind: code -> what they are.
        self.tables: dict[str, EventTable] = {}
        self._loop: asyncio.Task | None = None
        self._listed: tuple[float, list[str]] | None = None
        self._looked = 0.0

    # ---- to fill in
    def active(self, now: dt.datetime) -> list[str]:
        """The ids of the events of this kind under way (or about to be) at ``now``
        (in a thread: it reads the store)."""
        raise NotImplementedError

    def prepare(self, event_id: str, now: dt.datetime) -> object:
        """The store's part of one round of the event's pairing (in a thread; this process
        holds the event's lease): what :meth:`seat` then opens, or None."""
        raise NotImplementedError

    def seat(self, event_id: str, prepared: object) -> None:
        """The tables :meth:`prepare` paired, opened here and their people told (on the loop)."""
        raise NotImplementedError

    def under_way(self, event_id: str) -> list[tuple[str, str, dict[int, str]]]:
        """The event's matches without a result whose table is open: (match, code, seats)."""
        raise NotImplementedError

    def report(self, et: EventTable, winner: object, table: Table | None) -> None:
        """A table's end: ``winner`` the match_end's winning team (None: a draw)."""
        raise NotImplementedError

    def forfeit(self, et: EventTable, absent: set[int], now: dt.datetime) -> None:
        """The seats ``absent`` forfeit the match (the no-show rule); the people of
        :meth:`losers` are told through their events connection (:meth:`tell_lost`)."""
        raise NotImplementedError

    def losers(self, et: EventTable, absent: set[int]) -> set[str]:
        """The accounts whose side loses when the seats ``absent`` forfeit: theirs."""
        return {et.players[seat] for seat in absent if seat in et.players}

    # ---- the loop
    def start(self) -> None:
        if self._loop is None or self._loop.done():
            self._loop = self.events.server._spawn(self.run())

    def listed(self, now: dt.datetime) -> list[str]:
        at = time.monotonic()
        if self._listed is None or at - self._listed[0] >= LIST_EVERY:
            self._listed = (at, self.active(now))
        return self._listed[1]

    def relist(self) -> None:
        """Read the store's list at the next round (a player joined an event here)."""
        self._listed = None

    async def run(self) -> None:
        try:
            while True:
                busy = await self.round()
                await asyncio.sleep(TICK if busy else IDLE)
        finally:  # the server stops: another process takes its events at once
            self.leases.give_back()

    async def round(self) -> bool:
        """One round of the loop; whether any event of this kind is under way. The store is
        read and changed in a thread (a database that hangs must never hold the event loop:
        every process runs this loop, events or not); tables are opened on the loop."""
        now = self.events.clock()
        try:
            ids = await asyncio.to_thread(self.listed, now)
        except Exception:  # noqa: BLE001 - the store away: the next round tries again
            log.exception("events: the %s events cannot be listed", self.KIND)
            return bool(self.tables)
        for eid in ids:
            try:
                if self.leases.hold(eid):
                    prepared = await asyncio.to_thread(self.prepare, eid, now)
                    if prepared is not None:
                        self.seat(eid, prepared)
            except Exception:  # noqa: BLE001 - one event's trouble must not stop the others
                log.exception("%s: pairing failed", eid)
        if time.monotonic() - self._looked >= LIST_EVERY:
            self._looked = time.monotonic()
            try:
                found = await asyncio.to_thread(self._all_under_way, ids)
            except Exception:  # noqa: BLE001
                log.exception("events: the %s tables under way cannot be read", self.KIND)
                found = []
            self.look_after(found)
        self.no_shows(now)
        return bool(ids or self.tables)

    def _all_under_way(self, ids: list[str]) -> list[tuple[str, str, str, dict[int, str]]]:
        return [(eid, *row) for eid in ids for row in self.under_way(eid)]

    # ---- tables under way
    def look_after(self, found: list[tuple[str, str, str, dict[int, str]]]) -> None:
        """Adopt this process's event tables it does not know yet (taken over from a process
        that died), report the ones finished elsewhere without a result (the holder):
        ``found`` the events' tables under way, (event, match, code, seats)."""
        for eid, match, code, seats in found:
            if code in self.tables:
                continue
            try:
                table = self.events.server.tables.get(code)
                if table is not None:
                    self.adopt(eid, match, code, seats)
                    if table.finished:  # ended here before it was known for the event's
                        self.finished(table)
                elif eid in self.leases.held:
                    self._finished_elsewhere(eid, match, code, seats)
            except Exception:  # noqa: BLE001
                log.exception("%s: table %s could not be looked after", eid, code)

    def adopt(self, event_id: str, match: str, code: str, seats: dict[int, str]) -> EventTable:
        et = EventTable(event_id, match, dict(seats))
        self.tables[code] = et
        return et

    def _finished_elsewhere(self, event_id: str, match: str, code: str, seats: dict[int, str]) -> None:
        """A table no process holds in memory: finished in the shared store with no result
        reported (its process died in between), reported here from its record."""
        node = self.events.server.node
        if node is None:
            return  # one process: its tables are all here
        try:
            if node.store.owner(code) is not None:
                return  # a live process runs it
            st = node.store.load(code)
        except StoreError:
            return
        if not (st.meta.get("finished") or st.meta.get("closed")):
            return  # taken over by a process soon (the cluster's round)
        ended, winner = winner_of(st.events)
        et = EventTable(event_id, match, dict(seats))
        if ended:
            log.warning("%s: table %s ended on a process gone since: its result reported here", event_id, code)
            self.report(et, winner, None)
        elif st.meta.get("closed"):
            log.warning("%s: table %s was closed with no result: every seat forfeits", event_id, code)
            self.forfeit(et, set(seats), self.events.clock())

    def no_shows(self, now: dt.datetime) -> None:
        """Forfeit the tables whose person's seat has been empty for the no-show time."""
        wait = dt.timedelta(seconds=self.events.no_show_seconds)
        for code, et in list(self.tables.items()):
            table = self.events.server.tables.get(code)
            if table is not None and table.finished:
                continue
            if table is None:  # closed, or let go to another process (which adopts it)
                self.tables.pop(code, None)
                if self.events.server.node is None:  # one process: closed with no result
                    self._forfeit(et, set(et.absent) or set(et.players), now)
                continue
            absent: set[int] = set()
            for seat in et.players:
                here = seat < len(table.seats) and table.seats[seat].conn is not None
                if here:
                    et.absent.pop(seat, None)
                    continue
                since = et.absent.setdefault(seat, now)
                if now - since >= wait:
                    absent.add(seat)
            if absent:
                self.tables.pop(code, None)
                try:
                    lost = self.losers(et, absent)
                except Exception:  # noqa: BLE001 - the store away: the absent ones at least
                    lost = EventRunner.losers(self, et, absent)
                self._close(table, {seat for seat, p in et.players.items() if p in lost})
                self._forfeit(et, absent, now)

    def _forfeit(self, et: EventTable, absent: set[int], now: dt.datetime) -> None:
        try:
            self.forfeit(et, absent, now)
        except Exception:  # noqa: BLE001 - the loop goes on (the holder finds the table closed)
            log.exception("%s: the no-show of match %s could not be recorded", et.event, et.match)

    def _close(self, table: Table, lost: set[int]) -> None:
        """Close a forfeited table: the ones there whose side won are told ``no_show`` (the
        others, a partner of one absent, hear it from :meth:`tell_lost`)."""
        if table.thinking is not None:
            table.thinking[2].cancel()
            table.thinking = None
        gone = {id(table.seats[seat].conn) for seat in lost if seat < len(table.seats)}
        won = P.error("no_show", "your opponent did not come to the table: the match is yours")
        for c in table.conns():
            if id(c) not in gone:
                c.send(won)
            c.table, c.seat = None, None
        self.events.server.close_table(table)

    def tell_lost(self, reach: dict[str, JsonObject], lost: set[str]) -> None:
        """Tell the accounts ``lost`` (through the connection each joined the event on) that the
        match counts as lost: they did not take their seat in time (or their partner did not)."""
        message = P.error("no_show", "you did not take your seat in time: the match counts as lost")
        self.tell_all({p: at for p, at in reach.items() if p in lost}, lambda _p: message)

    def finished(self, table: Table) -> bool:
        """A table's end (the play loop's hook): its result reported; False for another table."""
        et = self.tables.pop(table.code, None)
        if et is None:
            return False
        m = table.match
        ended, winner = winner_of(list(m.events) if m is not None else [])
        if ended:
            self.report(et, winner, table)
        return True

    # ---- telling people
    def tell_all(self, reach: dict[str, JsonObject], message_for: Callable[[str], JsonObject]) -> None:
        """Send each person in ``reach`` (account -> where) their message: ``message_for``
        called with the account."""
        for player, at in reach.items():
            try:
                self.events.tell(at, message_for(player))
            except Exception:  # noqa: BLE001 - one person's message must not stop the others'
                log.exception("events: a message to %s is lost", player)


__all__ = ["IDLE", "LIST_EVERY", "REOPEN_AFTER", "TICK", "EventRunner", "EventTable", "winner_of"]
