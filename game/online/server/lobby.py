"""The lobby actions of the table server: create a table, host it, change its seats and
settings, kick, join, leave.

What a connection asks before and around a match, apart from the play loop
(game.online.server.play), which it hands a table to once every friend's seat is taken. Every
action checks its claim (the host token, a seat's token) and counts failed claims; the
server (game.online.server.server) dispatches the messages here. Later lobby features (a club's
players and quick match) belong beside these.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from game.online.server.limits import TableQuota
from game.online.server.play import PlayLoop
from game.online.server.seats import Conn, Refusal, Seat, Table, unused_code
from game.online.server.store import TableStore
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.base import GameRules
from game.rulesets import make_rules

#: A cluster's lookup of a table by its code (None: the cluster has no such table).
Locate = Callable[[str], Table | None]


class Lobby:
    """The lobby actions on ``tables`` (shared with the server and the play loop)."""

    def __init__(
        self,
        store: TableStore,
        tables: dict[str, Table],
        play: PlayLoop,
        quota: TableQuota | None = None,
        locate: Locate | None = None,
    ):
        self.store = store
        self.tables = tables
        self.play = play
        #: Open tables per address and player (game.online.server.limits).
        self.quota = quota
        #: A cluster's lookup of a table this process does not hold
        #: (game.online.server.cluster.node: takes it over, or refuses with ``moved``); None on
        #: one process.
        self.locate = locate

    def check_quota(self, conn: Conn) -> None:
        """Refusal ``limit`` when this connection's address or player has its share of open
        tables already (one client with many connections cannot take every table)."""
        why = self.quota.refusal(conn.address, conn.player) if self.quota is not None else None
        if why:
            raise Refusal("limit", why)

    def register(self, conn: Conn, table: Table) -> None:
        """A new table of ``conn``'s: counted against its quotas, kept in memory."""
        table.owner = [conn.address, conn.player]
        self.tables[table.code] = table
        if self.quota is not None:
            self.quota.add(table.code, conn.address, conn.player)

    # ---- claims
    @staticmethod
    def failed_claim(conn: Conn, code: str, message: str) -> Refusal:
        conn.failures += 1
        return Refusal(code, message, close=conn.failures >= P.MAX_FAILED_CLAIMS)

    def _table(self, conn: Conn, code: str) -> Table:
        table = self.tables.get(code)
        if table is None and self.locate is not None:
            table = self.locate(code)
        if table is None:
            raise self.failed_claim(conn, "no_table", f"there is no table {code} on this server")
        return table

    @staticmethod
    def _hosted(conn: Conn) -> Table:
        table = conn.hosting
        if table is None or table.host_conn is not conn:
            raise Refusal("not_host", "only the table's host may do this (send 'host' with the host token)")
        if table.started:
            raise Refusal("started", "the match has started: the table can no longer be changed")
        if table.daily is not None:
            raise Refusal("daily", "the server sets up the day's table: it cannot be changed, published or watched")
        return table

    @staticmethod
    def _config(msg: dict) -> tuple[GameRules, list[Seat]]:
        """The rules and seats a create/configure asks for; Refusal ``config`` otherwise."""
        try:
            rules = make_rules(msg["game"], msg["deck"], msg["players"], msg["options"])
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        specs = [P.parse_seat(s) for s in msg["seats"]]
        if len(specs) != rules.players:
            raise Refusal("config", f"{len(specs)} seats given for {rules.players} players")
        if not any(kind == "friend" for kind, _ in specs):
            raise Refusal("config", "at least one seat is a friend's")
        return rules, [Seat(kind, level=level) for kind, level in specs]

    def active_tables(self) -> int:
        return sum(1 for t in self.tables.values() if not t.finished)

    # ---- the host's actions
    def on_create(self, conn: Conn, msg: dict) -> None:
        if conn.created >= P.MAX_TABLES_PER_CONNECTION:
            raise Refusal("limit", f"one connection makes at most {P.MAX_TABLES_PER_CONNECTION} tables")
        if self.active_tables() >= P.MAX_TABLES:
            raise Refusal("limit", "the server has as many tables as it can take: try again later")
        if not self.store.has_room():  # a full disk: the tables under way keep what space is left
            raise Refusal("limit", "the server's disk is full: it takes no new table now (those under way play on)")
        self.check_quota(conn)
        rules, seats = self._config(msg)
        code = unused_code(self.tables, self.store.exists)
        host_token = P.new_token()
        tokens = {}
        for i, s in enumerate(seats):
            if s.kind == "friend":
                tokens[str(i)] = token = P.new_token()
                s.token_hash = P.hash_token(token)
        table = Table(code, rules, seats, P.hash_token(host_token), msg["pause_seconds"], msg["ai_takes_over"])
        table.owner = [conn.address, conn.player]
        self.store.write_meta(code, table.meta())
        self.register(conn, table)
        conn.created += 1
        self._set_host(conn, table, host_token)
        conn.send(M.CREATED(code=code, host_token=host_token, tokens=tokens))
        table.send_lobby()

    def on_daily(self, conn: Conn, msg: dict) -> None:
        """Today's server daily deal (game.online.server.daily) for a signed-in account: a table the
        server alone sets up — seat 0 the player's (joined with its token, as any table), the
        house level elsewhere, the day's options — with no host: nobody can change, publish or
        watch it. Refused when the account has been dealt today's deal already."""
        import datetime as dt

        from game.online.server.daily import PLAYER_SEAT, DailyRefusal
        from game.services.par import PAR_OPPONENT

        board = self.play.daily_board
        if board is None:
            raise Refusal("daily", "this server keeps no daily deal")
        if conn.player is None:
            raise Refusal("account", "the daily deal is played with an account: say who you are first ('account')")
        if conn.created >= P.MAX_TABLES_PER_CONNECTION or self.active_tables() >= P.MAX_TABLES:
            raise Refusal("limit", "no more tables now: try again later")
        self.check_quota(conn)
        now = dt.datetime.now()
        day = now.date().isoformat()
        try:
            deal, word = board.rules_deal(day, msg["game"], msg["preset"])
            rules = deal.rules()
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        name = conn.name or ""
        code = unused_code(self.tables, self.store.exists)
        try:  # a deal begun counts as the day's play
            board.begin(day, deal.game, word, f"p:{conn.player}", code, now)
        except DailyRefusal as e:
            if e.code == "closed":
                raise Refusal("daily", str(e)) from e
            raise Refusal("played", f"{name} has already played today's {deal.game} deal") from e
        seats = [Seat("friend") if i == PLAYER_SEAT else Seat("ai", level=PAR_OPPONENT) for i in range(rules.players)]
        token = P.new_token()
        seats[PLAYER_SEAT].token_hash = P.hash_token(token)
        seats[PLAYER_SEAT].name = name
        # No host: the host hash is of a token nobody is given. A dropped player's seat waits
        # for them: the computer never plays someone's daily deal.
        table = Table(code, rules, seats, P.hash_token(P.new_token()), P.MAX_PAUSE_SECONDS, False)
        table.daily = {
            "date": day,
            "game": deal.game,
            "preset": word,
            "seed": deal.seed,
            "name": name,
            "player": conn.player,
            "since": time.time(),
        }
        table.owner = [conn.address, conn.player]
        self.store.write_meta(code, table.meta())
        self.register(conn, table)
        conn.created += 1
        conn.send(M.CREATED(code=code, host_token=None, tokens={str(PLAYER_SEAT): token}))
        conn.send(M.DAILY_INFO(**board.public(day, deal.game, word, now)))

    def on_daily_board(self, conn: Conn, msg: dict) -> None:
        """A day's leaderboard (default today) with its commitment (and seed once closed)."""
        import datetime as dt

        board = self.play.daily_board
        if board is None:
            raise Refusal("daily", "this server keeps no daily deal")
        now = dt.datetime.now()
        day = msg["date"] or now.date().isoformat()
        if dt.date.fromisoformat(day) > now.date():
            raise Refusal("daily", f"the {day} deal is not open yet")
        try:
            info = board.public(day, msg["game"], msg["preset"], now)
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        word = str(info["preset"])  # the preset word the day's deal resolved to
        lines = board.leaderboard(day, msg["game"], word)
        mine = board.line_of(day, msg["game"], word, f"p:{conn.player}") if conn.player is not None else None
        conn.send(M.DAILY_BOARD(info=info, lines=lines[:100], mine=mine))

    def _set_host(self, conn: Conn, table: Table, host_token: str) -> None:
        old = table.host_conn
        if conn.hosting is not None and conn.hosting is not table and conn.hosting.host_conn is conn:
            previous = conn.hosting
            previous.host_conn = None
            previous.send_lobby()
        table.host_conn = conn
        conn.hosting = table
        conn.host_token = host_token
        if old is not None and old is not conn:
            old.hosting = None
            old.host_token = None
            if old.table is table:
                table.send_lobby_to(old)

    def on_host(self, conn: Conn, msg: dict) -> None:
        table = self._table(conn, msg["code"])
        if not P.token_matches(msg["host_token"], table.host_hash):
            raise self.failed_claim(conn, "not_host", "that is not this table's host token")
        if table.host_conn is not conn and len(table.conns()) >= P.MAX_CONNECTIONS_PER_TABLE:
            raise Refusal("full", "the table has as many connections as it takes")
        self._set_host(conn, table, msg["host_token"])
        table.send_lobby_to(conn)

    def on_configure(self, conn: Conn, msg: dict) -> None:
        table = self._hosted(conn)
        rules, seats = self._config(msg)
        for i, new in enumerate(seats):
            old = table.seats[i] if i < len(table.seats) else None
            if new.kind == "friend" and old is not None and old.kind == "friend" and old.name is not None:
                new.token_hash, new.name, new.conn = old.token_hash, old.name, old.conn
        tokens = {}
        for i, new in enumerate(seats):
            if new.kind == "friend" and new.name is None:
                tokens[str(i)] = token = P.new_token()
                new.token_hash = P.hash_token(token)
        kept = {id(s.conn) for s in seats if s.conn is not None}
        for old in table.seats:
            if old.conn is not None and id(old.conn) not in kept:
                self._kick_out(old.conn, "the host changed the table: your seat is gone")
        table.rules, table.seats = rules, seats
        table.pause_seconds, table.ai_takes_over = msg["pause_seconds"], msg["ai_takes_over"]
        for i, s in enumerate(seats):
            if s.conn is not None:
                s.conn.seat = i
        self.play.write_meta_soon(table)
        conn.send(M.CREATED(code=table.code, host_token=conn.host_token, tokens=tokens))
        table.send_lobby()
        self.play.maybe_start(table)

    def _kick_out(self, target: Conn, why: str) -> None:
        target.send(P.error("kicked", why))
        target.table, target.seat = None, None

    def on_kick(self, conn: Conn, msg: dict) -> None:
        table = self._hosted(conn)
        i = msg["seat"]
        if i >= len(table.seats) or table.seats[i].kind != "friend":
            raise Refusal("config", f"seat {i} is not a friend's seat")
        seat = table.seats[i]
        if seat.conn is not None:
            self._kick_out(seat.conn, "the host gave your seat to someone else")
        # A fresh token nobody knows: the kicked player cannot come back with the old one.
        seat.conn, seat.name, seat.token_hash = None, None, P.hash_token(P.new_token())
        self.play.write_meta_soon(table)
        table.send_lobby()

    # ---- players
    def on_join(self, conn: Conn, msg: dict) -> None:
        table = self._table(conn, msg["code"])
        token = msg["token"]
        if token is not None:
            i = next(
                (k for k, s in enumerate(table.seats) if s.kind == "friend" and P.token_matches(token, s.token_hash)),
                None,
            )
            if i is None:
                raise self.failed_claim(conn, "bad_token", "that token is not a seat's at this table")
        else:
            if conn.table is table and conn.seat is not None:
                raise Refusal("already_seated", f"this connection already has seat {conn.seat}")
            i = next(
                (k for k, s in enumerate(table.seats) if s.kind == "friend" and s.name is None and s.conn is None), None
            )
            if i is None or table.started or table.daily is not None:
                raise Refusal("full", "every friend's seat at this table is taken")
            token = P.new_token()
        seat = table.seats[i]
        if seat.conn is not conn and len(table.conns()) >= P.MAX_CONNECTIONS_PER_TABLE and conn not in table.conns():
            raise Refusal("full", "the table has as many connections as it takes")
        if conn.table is not None and (conn.table is not table or conn.seat != i):
            self.leave(conn)
        if seat.conn is not None and seat.conn is not conn:
            stale = seat.conn
            stale.send(P.error("replaced", "this seat was taken by a new connection with its token"))
            stale.table, stale.seat = None, None
            stale.close(4000, "replaced")
        # A signed-in player (game.online.server.club) sits under their account's name: nobody can
        # take another's name onto a plate.
        name = conn.name if conn.player is not None and conn.name else msg["name"]
        if table.daily is not None:
            name = table.daily["name"]  # the account the server dealt it to
        changed = seat.name != name or msg["token"] is None
        seat.conn, seat.name = conn, name
        if msg["token"] is None:
            seat.token_hash = P.hash_token(token)
        conn.table, conn.seat = table, i
        table.idle_since = time.monotonic()
        if changed:
            self.play.write_meta(table)
        conn.send(M.JOINED(code=table.code, seat=i, token=token))
        table.send_lobby()
        if table.started:
            conn.send(M.EVENTS(**{"from": 0, "events": self.play.stream(table, i)}))
            for k, other in enumerate(table.seats):
                if k != i and other.paused_until is not None:
                    left = max(0, round(other.paused_until - time.monotonic()))
                    conn.send(M.PAUSED(seat=k, seconds=left, then="ai" if table.ai_takes_over else "wait"))
                elif k != i and other.by_ai:
                    conn.send(M.RESUMED(seat=k, by="ai"))
            if table.finished:
                conn.send(M.OVER(record=self.store.record_path(table.code).name))
            else:
                self.play.give_back(table, i)
                self.play.send_turn(table, only=conn)
                self.play.advance(table, send=False)
        else:
            self.play.maybe_start(table)

    def gone(self, conn: Conn) -> None:
        if conn.table is not None:
            self.leave(conn)
        table = conn.hosting
        if table is not None and table.host_conn is conn:
            table.host_conn = None
            table.idle_since = time.monotonic()
        conn.hosting = None

    def leave(self, conn: Conn) -> None:
        table, i = conn.table, conn.seat
        conn.table, conn.seat = None, None
        if table is None or i is None or table.seats[i].conn is not conn:
            return
        table.seats[i].conn = None
        table.idle_since = time.monotonic()
        table.send_lobby()
        if table.started and not table.finished:
            self.play.pause(table, i, announce=True)


__all__ = ["Lobby"]
