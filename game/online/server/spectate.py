"""Spectators (docs/ONLINE.md, "Spectators"): anyone may watch a public table.

A spectator sees only what nobody's hand hides — the table, the played cards, the scores:
game.seat_view's stream of no seat (every hand, the stock and every draw hidden,
the face-up card shown), and that **one decision late**: the events of decision k are sent
once decision k + 1 has been made (all of them at the end), so a watcher who talks to a
player cannot tell them what just happened before the table does. The players see how many
watch (``watchers``).
"""

from __future__ import annotations

from collections.abc import Callable

from game.online.server.seats import Conn, Refusal, Table
from game.online.wire import messages as M
from game.online.wire.redact import SPECTATOR, SeatRedactor
from game.rules.base import Event, GameRules
from game.rules.vocabulary import JsonObject

#: The seat of nobody (a spectator's stream: no hand is theirs).
NOBODY = SPECTATOR
#: Spectators at one table, and tables one connection watches at once.
MAX_WATCHERS = 200


def spectator_events(rules: GameRules, events: list[Event]) -> list[Event]:
    """``events`` as a spectator may see them (no hand, no stock, no hidden draw)."""
    return SeatRedactor(rules, NOBODY).feed(events)


def decision_boundaries(rules: GameRules, events: list[Event]) -> list[int]:
    """Indices where each decision's events begin (the first is the first decision's)."""
    return [i for i, ev in enumerate(events) if ev.get("event") in rules.decisions]


def delayed_upto(table: Table) -> int:
    """How many record events a spectator may have now: up to the start of the last
    decision made (so its events wait for the next one); everything once the match is over."""
    m = table.match
    if m is None:
        return 0
    if m.over or table.finished:
        return len(m.events)
    # The last decision's start, looked for from the end (every decision calls this).
    events, decisions = m.events, table.rules.decisions
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("event") in decisions:
            return i
    return len(events)


class Spectators:
    """Watching public tables: the ``watch`` / ``unwatch`` messages and the delayed stream."""

    def __init__(self, tables: dict[str, Table], locate: Callable[[str], Table | None] | None = None):
        self.tables = tables
        #: A cluster's lookup of a table held elsewhere (game.online.server.cluster.node), else None.
        self.locate = locate
        #: Per watched table: the spectators' redactor, fed up to ``watched_upto`` (each
        #: decision redacts only its own events, never the record from the start again).
        self.redactors: dict[str, SeatRedactor] = {}

    def on_watch(self, conn: Conn, msg: dict) -> None:
        table = self.tables.get(msg["code"])
        if table is None and self.locate is not None:
            table = self.locate(msg["code"])
        if table is None or not table.public:
            raise Refusal("no_table", f"there is no public table {msg['code']} on this server")
        if len(table.watchers) >= MAX_WATCHERS:
            raise Refusal("full", "the table has as many spectators as it takes")
        self.leave(conn)
        table.watchers.append(conn)
        conn.watching = table
        upto = delayed_upto(table)
        events = spectator_events(table.rules, table.match.events[:upto]) if table.match is not None else []
        conn.send(M.WATCHING(**self.public_lobby(table)))
        conn.send(M.EVENTS(**{"from": 0, "events": events}))
        table.watched_upto = max(table.watched_upto, upto)
        self.count_changed(table)

    def on_unwatch(self, conn: Conn, msg: dict) -> None:
        self.leave(conn)

    def leave(self, conn: Conn) -> None:
        table = getattr(conn, "watching", None)
        if table is None:
            return
        conn.watching = None
        if conn in table.watchers:
            table.watchers.remove(conn)
            self.count_changed(table)

    @staticmethod
    def public_lobby(table: Table) -> JsonObject:
        """What anyone may know of a table: the game, the settings, who sits where (names and
        levels), whether it plays — never a token, a seat's secret or a card."""
        r = table.rules
        seats = [
            {
                "kind": s.kind,
                "name": s.name if s.kind == "friend" else None,
                "level": s.level if s.kind == "ai" else None,
                "by_ai": s.by_ai,
            }
            for s in table.seats
        ]
        return {
            "code": table.code,
            "game": r.game_id,
            "deck": r.deck.id,
            "players": r.players,
            "options": dict(r.options),
            "seats": seats,
            "started": table.started,
            "finished": table.finished,
            "watchers": len(table.watchers),
        }

    @staticmethod
    def count_changed(table: Table) -> None:
        msg = M.WATCHERS(count=len(table.watchers))
        for c in table.conns():
            c.send(msg)

    def on_commit(self, table: Table, events: list[Event]) -> None:
        """After each decision: the watchers get what is now one decision old."""
        if not table.watchers or table.match is None:
            # Nobody watches: nothing to follow. A spectator who comes starts at the delay
            # as it is then (on_watch), which only grows, so no mark is kept per decision.
            if self.redactors:
                self.redactors.pop(table.code, None)
            return
        upto = delayed_upto(table)
        start = table.watched_upto
        if upto <= start:
            return
        redactor = self.redactors.get(table.code)
        if redactor is None:  # the first decision watched: follow the face-up card from the deal
            redactor = self.redactors[table.code] = SeatRedactor(table.rules, NOBODY)
            redactor.feed(table.match.events[:start])
        out = redactor.feed(table.match.events[start:upto])
        table.watched_upto = upto
        if table.finished or table.match.over:
            self.redactors.pop(table.code, None)
        from game.online.wire import protocol as P

        text = P.encode(M.EVENTS(**{"from": start, "events": out}))
        for c in table.watchers:
            c.send_text(text)


__all__ = ["MAX_WATCHERS", "NOBODY", "Spectators", "decision_boundaries", "delayed_upto", "spectator_events"]
