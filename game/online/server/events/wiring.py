"""The club's events on the server (docs/ONLINE.md, "Events"): the messages of the events list
and of the tournament of the day, its tables, and the scoring of each deal at its table's end.

One :class:`ClubEvents` per server (game.online.server.server builds it): its store is
``DIR/events.sqlite3`` on one process, PostgreSQL on the cluster (``--database``). A deal of
the tournament is played at a table the server alone sets up, as the daily deal's
(game.online.server.lobby's ``on_daily``): the player at seat 0, the house bots elsewhere, no
host, the deal's secret seed, its first deal only. Such a table carries the daily table's
mark (``Table.daily``) with the event's id and the deal's number besides, so that the play
loop gives it the house bots, the server closes it at the day's deadline and a restart
resumes it as one. At its end :meth:`ClubEvents.on_finished` scores the record with
``deals.score_record`` and keeps the result (``TourOfDay.finish``); par is worked out once per
deal in a thread.

Client → server (game.online.wire.protocol), each answered with the message named or an
``error`` whose code is the refusal's:

- ``event_list`` → ``event_list`` (EventsHub.listing for the account signed in, or a visitor);
- ``tod_enter`` {game, preset} → ``tod`` {info, me} (entering twice answers the same);
- ``tod_deal`` {game, preset} → ``created`` (the table's code, seat 0's token) and ``tod``;
  at the table's end ``tod_result`` {info, deal, score, me} to the seat, before ``over``;
- ``tod_standings`` {game, preset, date} → ``tod_standings`` {info, lines};
- ``tod_field`` {game, preset, date, deal} → ``tod_field`` {info, field};
- ``tod_record`` {game, preset, date, code} → ``tod_record`` {code, deal, record} (JSON Lines),
  only for a deal the asker may see (``TourOfDay.may_see``);
- ``challenge`` {name, game, preset}, ``challenge_answer`` {id, accept} → ``challenge``;
  ``challenge_deal`` {id} → ``created`` and ``challenge``, and ``challenge`` again at the
  table's end (its deals are played at tables made as the tournament's).

Arenas and Swiss tournaments are game.online.server.events.arena_wire and swiss_wire (their
loop: runner; which process pairs: lease). On a cluster a tournament deal's record is kept in
the events' store too (``keep_record``), so that ``tod_record`` is answered by any process.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from game.online.server.events.challenges import KIND as CHALLENGE
from game.online.server.events.common import Clock, EventRefusal
from game.online.server.events.deals import score_record, settings_deal
from game.online.server.events.host import EventsServer, OpenedTable
from game.online.server.events.hub import EventsHub, challenge_json, field_json, standing_json
from game.online.server.events.store import EventStore, SqliteEventStore
from game.online.server.events.tourday import DEFAULT_DEALS, tour_id
from game.online.server.seats import Conn, MessageHandler, Refusal, Seat, Table, unused_code
from game.online.server.store import StoreError
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.base import GameRules
from game.rules.vocabulary import JsonObject
from game.services.par import Deal

if TYPE_CHECKING:
    from game.online.server.web import WebPages

log = logging.getLogger("cardavia.server")

#: The player's seat at an event's table (the daily deal's).
PLAYER_SEAT = 0


def open_store(data_dir: Path, database_url: str | None) -> EventStore:
    """The events' store: PostgreSQL on a cluster, else ``data_dir/events.sqlite3``."""
    if database_url:
        from game.online.server.events.pgstore import PgEventStore

        return PgEventStore(database_url)
    return SqliteEventStore(data_dir)


def tournament_games() -> list[tuple[str, str | None]]:
    """The (game, preset) pairs with a tournament of the day: every game, its first preset."""
    from game.rulesets import game_ids

    return [(g, None) for g in game_ids()]


class ClubEvents:
    """The events' handlers and table hooks of one server."""

    def __init__(
        self,
        server: EventsServer,
        data_dir: Path,
        deals: int = DEFAULT_DEALS,
        schedule: str | None = None,
        clock: Clock | None = None,
    ):
        self.server = server
        database = server.cluster.database_url if server.cluster is not None else None
        self.store = open_store(Path(data_dir), database)
        #: The server's clock for the events (tests replace it and move it).
        self.clock: Clock = clock or dt.datetime.now
        self.hub = EventsHub(self.store, lambda: self.clock(), tournament_games(), deals=deals)
        self.tod = self.hub.tod
        #: This run of the server (a connection number names a connection of this run only).
        self.started = time.time()
        self._par_asked: set[tuple[str, int]] = set()
        self._par_lock = threading.Lock()
        self._closed = False
        from game.online.server.events.arena_wire import ArenaWire
        from game.online.server.events.swiss_wire import SwissWire

        self.arenas = ArenaWire(self)
        self.swiss = SwissWire(self)
        server.play.finished_hooks.append(self.on_finished)
        if schedule:
            self.apply_schedule(schedule)

    def apply_schedule(self, path: str) -> list[str]:
        """The owner's schedule file (``serve --events FILE``): its events made (idempotent);
        ValueError (one line) for a file that cannot be read or is wrong."""
        from game.online.server.events.schedule import apply, parse

        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise ValueError(f"cannot read the events schedule {path} ({e.strerror or e})") from None
        arenas, swiss = parse(text, Path(path).name)
        return apply(arenas, swiss, self.hub.arenas, self.hub.swisses, self.server.limits.quick_wait, self.clock())

    def start(self) -> None:
        """The arenas' and Swiss tournaments' loops (the server has started): on a cluster
        every process runs them, so that one takes over an event whose process died."""
        self.arenas.start()
        self.swiss.start()

    def close(self) -> None:
        self._closed = True
        self.store.close()

    @property
    def no_show_seconds(self) -> float:
        """How long a person's seat at an arena or Swiss table may stay empty before they
        forfeit (``serve --event-no-show``)."""
        return float(self.server.limits.event_no_show)

    # ---- reaching a connection on any process of a cluster
    def reach(self, conn: Conn) -> JsonObject:
        """Where ``conn`` is: this process (its id and start on a cluster) and the
        connection's number; kept in an event's state, read by whichever process pairs."""
        node = self.server.node
        return {
            "node": node.me if node is not None else None,
            "since": node.started if node is not None else self.started,
            "conn": conn.number,
        }

    def tell(self, at: object, message: JsonObject) -> bool:
        """Send ``message`` to the connection ``at`` names (a :meth:`reach`), on this process
        or through another (its run must be the same: a number is one run's); False when
        that connection is gone."""
        if not isinstance(at, dict) or not isinstance(at.get("conn"), int):
            return False
        node, number = self.server.node, int(at["conn"])
        if node is None or at.get("node") == node.me:
            if at.get("since") != (node.started if node is not None else self.started):
                return False
            for c in self.server.conns:
                if c.number == number and not c.closing:
                    c.send(message)
                    return True
            return False
        other = at.get("node")
        try:
            if not isinstance(other, str) or other not in node.live_nodes():
                return False
            raw = node.store._call(node.redis.get, f"cv:node:{other}")
            info = json.loads(raw) if raw else {}
        except (StoreError, ValueError):
            return False
        if not isinstance(info, dict) or info.get("since") != at.get("since"):
            return False  # that process started again since: the number is another's now
        node.tell(other, number, message)
        return True

    def open_table(self, rules: GameRules, people: list[str | None], level: str, pause_seconds: int) -> OpenedTable:
        """A table of this process for an event's match: a person's seat (an account in
        ``people``) is taken with its token, the computer at ``level`` in the others; no
        host; a silent or gone person is played by the computer after ``pause_seconds``."""
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, person in enumerate(people):
            if person is None:
                seats.append(Seat("ai", level=level))
                continue
            tokens[i] = P.new_token()
            seats.append(Seat("friend", token_hash=P.hash_token(tokens[i]), name=None))
        code = self.new_code()
        table = Table(code, rules, seats, P.hash_token(P.new_token()), pause_seconds, True)
        self.server.store.write_meta(code, table.meta())  # on a cluster: the table's lease too
        self.server.tables[code] = table
        return OpenedTable(code, tokens)

    def web_page(self, pages: WebPages, path: str, lang: str) -> tuple[int, str, str] | None:
        """An events page of the server's web pages (game.online.server.events.web), or None."""
        from game.online.server.events.web import EventPages

        return EventPages(self, pages).page(path, lang)

    def handlers(self) -> dict[str, MessageHandler]:
        return {
            "event_list": self.on_list,
            "tod_enter": self.on_enter,
            "tod_deal": self.on_deal,
            "tod_standings": self.on_standings,
            "tod_field": self.on_field,
            "tod_record": self.on_record,
            "challenge": self.on_challenge,
            "challenge_answer": self.on_challenge_answer,
            "challenge_deal": self.on_challenge_deal,
            **self.arenas.handlers(),
            **self.swiss.handlers(),
        }

    # ---- helpers
    def player_of(self, conn: Conn) -> str:
        if conn.player is None:
            raise Refusal("account", "the club's events are played with an account: say who you are first ('account')")
        return f"p:{conn.player}"

    def viewer_of(self, conn: Conn) -> str | None:
        return f"p:{conn.player}" if conn.player is not None else None

    def _today(self, msg: dict) -> tuple[str, dt.datetime]:
        """(the tournament's id of today, now), the tournament made if need be."""
        now = self.clock()
        try:
            return self.tod.ensure(now.date().isoformat(), msg["game"], msg["preset"], now), now
        except ValueError as e:
            raise Refusal("config", str(e)) from None

    def _of_day(self, msg: dict) -> tuple[str, dt.datetime]:
        """(the id of the tournament of ``msg``'s date, default today, now); Refusal ``unknown``
        for a day with no tournament (never made for a past day: only asked of)."""
        now = self.clock()
        day = msg.get("date") or now.date().isoformat()
        if day == now.date().isoformat():
            return self._today(msg)
        if dt.date.fromisoformat(day) > now.date():
            raise Refusal("closed", f"the {day} tournament has not begun")
        try:
            _, word = settings_deal(msg["game"], msg["preset"], dt.date.fromisoformat(day))
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        tid = tour_id(day, msg["game"], word)
        if self.store.load(tid) is None:
            raise Refusal("unknown", f"no {msg['game']} tournament was held on {day}")
        return tid, now

    @staticmethod
    def _refusal(e: EventRefusal) -> Refusal:
        return Refusal(e.code, str(e))

    # ---- the list
    def on_list(self, conn: Conn, msg: dict) -> None:
        conn.send(M.EVENT_LIST(**self.hub.listing(self.viewer_of(conn))))

    # ---- the tournament of the day
    def on_enter(self, conn: Conn, msg: dict) -> None:
        player = self.player_of(conn)
        tid, now = self._today(msg)
        if not self.tod.progress(tid, player)["entered"]:
            try:
                self.tod.enter(tid, player, conn.name or "", now)
            except EventRefusal as e:
                if e.code != "entered":  # entered meanwhile (another process): the same answer
                    raise self._refusal(e) from None
        conn.send(M.TOD(info=self.tod.public(tid, now), me=self.tod.progress(tid, player)))

    def _live(self, code: str) -> bool:
        """Whether table ``code`` still runs (on this process, or on another of a cluster)."""
        table = self.server.tables.get(code)
        if table is None and self.server.node is not None:
            try:
                table = self.server.node.locate(code)
            except Refusal:  # held by another process (or being handed over): under way
                return True
        return table is not None and not table.finished

    def _room(self, conn: Conn) -> None:
        """Refusal ``limit`` when ``conn`` may not have another table now."""
        lobby = self.server.lobby
        if conn.created >= P.MAX_TABLES_PER_CONNECTION or lobby.active_tables() >= P.MAX_TABLES:
            raise Refusal("limit", "no more tables now: try again later")
        lobby.check_quota(conn)

    def new_code(self) -> str:
        return unused_code(self.server.tables, self.server.store.exists)

    def on_deal(self, conn: Conn, msg: dict) -> None:
        """The player's next deal: a table the server sets up (entering first if need be)."""
        player = self.player_of(conn)
        self._room(conn)
        tid, now = self._today(msg)
        name = conn.name or ""
        try:
            if not self.tod.progress(tid, player)["entered"]:
                self.tod.enter(tid, player, name, now)
            # A deal begun whose table is gone (closed, or lost with a process) is that deal's
            # play, ended with no result; one whose table still runs must be finished first.
            for e in self.store.entries(tid, player):
                kind, _, index = e.item.partition(":")
                if kind == "begun" and not self._live(str(e.value.get("code"))):
                    self.tod.close_deal(tid, player, int(index), now)
            nxt = self.tod.progress(tid, player)["next"]
            if nxt is None:
                raise Refusal("done", "you have played every deal of today's tournament")
            code = self.new_code()
            deal = self.tod.begin(tid, player, int(str(nxt)), code, now)
        except EventRefusal as e:
            raise self._refusal(e) from None
        info = self.tod.public(tid, now)
        mark = {"date": info["date"], "preset": info["preset"], "event": tid, "deal": int(str(nxt))}
        self._table(conn, code, deal, mark)
        conn.send(M.TOD(info=info, me=self.tod.progress(tid, player)))

    def _table(self, conn: Conn, code: str, deal: Deal, mark: JsonObject) -> Table:
        """An event's deal at table ``code``: seat 0 ``conn``'s player, the house bots
        elsewhere, no host; ``mark`` (date, preset, event, deal) kept as the daily mark."""
        from game.services.par import PAR_OPPONENT

        name = conn.name or ""
        rules = deal.rules()
        seats = [Seat("friend") if i == PLAYER_SEAT else Seat("ai", level=PAR_OPPONENT) for i in range(rules.players)]
        token = P.new_token()
        seats[PLAYER_SEAT].token_hash = P.hash_token(token)
        seats[PLAYER_SEAT].name = name
        # No host (a token nobody is given), and a dropped player's seat waits for them: the
        # computer never plays someone's event deal.
        table = Table(code, rules, seats, P.hash_token(P.new_token()), P.MAX_PAUSE_SECONDS, False)
        table.daily = {
            "game": deal.game,
            "seed": deal.seed,
            "name": name,
            "player": conn.player,
            "since": time.time(),
            **mark,
        }
        self.server.store.write_meta(code, table.meta())
        self.server.lobby.register(conn, table)
        conn.created += 1
        conn.send(M.CREATED(code=code, host_token=None, tokens={str(PLAYER_SEAT): token}))
        return table

    def on_finished(self, table: Table) -> None:
        """A table's end (the play loop's hook): a tournament deal's record scored and kept,
        the result sent to the seat."""
        if self.arenas.on_finished(table) or self.swiss.on_finished(table):
            return
        d, m = table.daily, table.match
        if d is None or "event" not in d or m is None:
            return
        tid, index, player = str(d["event"]), int(d["deal"]), f"p:{d['player']}"
        now = self.clock()
        if tid.startswith(f"{CHALLENGE}:"):
            self._challenge_finished(table, tid, index, player)
            return
        try:
            deal = self.tod.deals_of(tid)[index]
            score = score_record(deal, list(m.events), PLAYER_SEAT)
            self.tod.finish(tid, player, index, table.code, score, now)
            self._keep_record(table.code)
            msg = M.TOD_RESULT(
                info=self.tod.public(tid, now), deal=index, score=score, me=self.tod.progress(tid, player)
            )
        except EventRefusal as e:
            msg = P.error(e.code, str(e))
        for c in table.conns():
            c.send(msg)
        self._ask_par(tid, index)

    def _keep_record(self, code: str) -> None:
        """On a cluster, a tournament deal's record kept in the events' store too: the
        process asked for it (``tod_record``) may be another than the one that played it."""
        if self.server.node is None:
            return
        try:
            text = self.server.store.record_path(code).read_text("utf-8")
            self.store.keep_record(code, text, self.clock())
        except Exception as e:  # noqa: BLE001 - the file here stays; asked elsewhere: unknown
            log.error("table %s: its record could not be shared with the other processes: %s", code, e)

    def _ask_par(self, tid: str, index: int) -> None:
        """Par of a deal, worked out once (seconds: in a thread, never on the event loop)."""
        with self._par_lock:
            if (tid, index) in self._par_asked or self.tod.par_of(tid, index) is not None:
                return
            self._par_asked.add((tid, index))

        def work() -> None:
            from game.services.par import par

            try:
                deal = self.tod.deals_of(tid)[index]
                value = par(deal, PLAYER_SEAT, iterations=self.server.limits.par_iterations).value
                self.tod.set_par(tid, index, value)
            except Exception:  # noqa: BLE001 - par is shown beside the deal, never needed to score it
                if self._closed:  # the server stopped meanwhile
                    return
                log.exception("%s: par of deal %d could not be worked out", tid, index + 1)
                with self._par_lock:
                    self._par_asked.discard((tid, index))

        try:
            asyncio.get_running_loop().run_in_executor(None, work)
        except RuntimeError:  # no loop (a test calling the hook itself)
            threading.Thread(target=work, daemon=True).start()

    def on_standings(self, conn: Conn, msg: dict) -> None:
        tid, now = self._of_day(msg)
        try:
            lines = self.tod.standings(tid, self.viewer_of(conn), now)
        except EventRefusal as e:
            raise self._refusal(e) from None
        conn.send(M.TOD_STANDINGS(info=self.tod.public(tid, now), lines=[standing_json(s) for s in lines]))

    def on_field(self, conn: Conn, msg: dict) -> None:
        tid, now = self._of_day(msg)
        try:
            view = self.tod.field(tid, self.viewer_of(conn), int(msg["deal"]), now)
        except EventRefusal as e:
            raise self._refusal(e) from None
        conn.send(M.TOD_FIELD(info=self.tod.public(tid, now), field=field_json(view)))

    def record_of(self, tid: str, code: str, viewer: str | None, now: dt.datetime) -> tuple[int, str]:
        """(deal number, record text) of the result played at table ``code``; EventRefusal
        ``unknown`` when it is no result of the tournament, ``hidden`` before ``viewer`` may see it."""
        for e in self.store.entries(tid):
            kind, _, index = e.item.partition(":")
            if kind == "deal" and e.value.get("record") == code:
                if not self.tod.may_see(tid, viewer, int(index), now):
                    raise EventRefusal("hidden", "a deal's records are shown once you have played it")
                try:
                    return int(index), self.server.store.record_path(code).read_text("utf-8")
                except OSError:  # played on another process of the cluster: the shared copy
                    kept = self.store.record(code)
                    if kept is None:
                        break
                    return int(index), kept
        raise EventRefusal("unknown", f"no record {code} in this tournament")

    def on_record(self, conn: Conn, msg: dict) -> None:
        tid, now = self._of_day(msg)
        try:
            index, text = self.record_of(tid, msg["code"], self.viewer_of(conn), now)
        except EventRefusal as e:
            raise self._refusal(e) from None
        conn.send(M.TOD_RECORD(code=msg["code"], deal=index, record=text))

    # ---- challenges
    def _send_challenge(self, conn: Conn, cid: str, player: str) -> None:
        try:
            view = self.hub.challenges.view(cid, player)
        except EventRefusal as e:
            raise self._refusal(e) from None
        conn.send(M.CHALLENGE(challenge=challenge_json(view, player)))

    def on_challenge(self, conn: Conn, msg: dict) -> None:
        """Challenge a player of the club by name (the quotas are the package's)."""
        player = self.player_of(conn)
        other = self.server.db.player_by_name(msg["name"])
        if other is None:
            raise Refusal("no_player", f"nobody is called {msg['name']} on this server")
        try:
            cid = self.hub.challenges.send(
                player, conn.name or "", f"p:{other.id}", other.name, msg["game"], msg["preset"]
            )
        except EventRefusal as e:
            raise self._refusal(e) from None
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        self._send_challenge(conn, cid, player)

    def on_challenge_answer(self, conn: Conn, msg: dict) -> None:
        player = self.player_of(conn)
        try:
            if msg["accept"]:
                self.hub.challenges.accept(msg["id"], player)
            else:
                self.hub.challenges.decline(msg["id"], player)
        except EventRefusal as e:
            raise self._refusal(e) from None
        self._send_challenge(conn, msg["id"], player)

    def on_challenge_deal(self, conn: Conn, msg: dict) -> None:
        """The player's next deal of a challenge, at a table the server sets up; ``done``
        when they have been dealt every deal."""
        player = self.player_of(conn)
        self._room(conn)
        cid = msg["id"]
        try:
            view = self.hub.challenges.view(cid, player)
            stored = self.store.load(cid)
            begun = stored.state.get("begun", {}) if stored is not None else {}
            mine = begun.get(player, {}) if isinstance(begun, dict) else {}
            left = [i for i in range(view.deals) if str(i) not in mine]
            if not left:
                raise Refusal("done", "you have been dealt every deal of this challenge")
            code = self.new_code()
            deal = self.hub.challenges.begin(cid, player, left[0], code)
        except EventRefusal as e:
            raise self._refusal(e) from None
        mark = {"date": self.clock().date().isoformat(), "preset": view.preset, "event": cid, "deal": left[0]}
        self._table(conn, code, deal, mark)
        self._send_challenge(conn, cid, player)

    def _challenge_finished(self, table: Table, cid: str, index: int, player: str) -> None:
        m = table.match
        assert m is not None
        try:
            deal = self.hub.challenges.deals_of(cid)[index]
            score = score_record(deal, list(m.events), PLAYER_SEAT)
            self.hub.challenges.finish(cid, player, index, table.code, score)
            msg = M.CHALLENGE(challenge=challenge_json(self.hub.challenges.view(cid, player), player))
        except EventRefusal as e:
            msg = P.error(e.code, str(e))
        for c in table.conns():
            c.send(msg)


def public_listing(events: ClubEvents) -> JsonObject:
    """The events list as the web pages show it (no account: no progress, no challenges)."""
    return events.hub.listing(None)


__all__ = ["PLAYER_SEAT", "ClubEvents", "open_store", "public_listing", "tournament_games"]
