"""The club of a table server (docs/ONLINE.md, "The club"): players with accounts, the live
list of open tables, quick match, the silent player and the leaderboards. The ratings at a
table (its plates, the end of a match, a dodged match) are game.online.server.club_ratings; manners
(mute, block, report, chat) game.online.server.manners; spectators game.online.server.spectate; the web
pages game.online.server.web.

The server (game.online.server.server) builds one :class:`Club` and puts its handlers in its table
of message types; the club reaches the tables through the lobby and the play loop, and
keeps what outlives a table in the :class:`~game.online.server.accounts.ClubStore`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.online.server.accounts import ClubStore, name_key, new_recovery_code, normal_recovery
from game.online.server.club_ratings import ClubRatings
from game.online.server.manners import Manners, need_account
from game.online.server.quick import QuickQueue, Waiting, WaitingRoom, fill_level, pair
from game.online.server.ratings import PROVISIONAL_MATCHES, computer_display, display, new_rating
from game.online.server.seats import Conn, MessageHandler, Refusal, Seat, Table, unused_code
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

if TYPE_CHECKING:
    from game.services.par import Deal

log = logging.getLogger("cardavia.server")

#: Accounts one connection may create (a flood of names costs a connection each few).
MAX_ACCOUNTS_PER_CONNECTION = 3
#: Quick match: how often the waiting players are paired (seconds).
PAIR_EVERY = 0.25
#: A quick match's players have this long to take their seats; then the computer takes an
#: empty one (and nobody is rated a leaver for a seat never taken).
JOIN_WITHIN = 20.0
#: The live list of tables is sent again at most this often (seconds), when it changed.
LIST_EVERY = 1.0
#: The list's rows: open tables first, and at most LIST_PLAYING tables being played (to watch).
LIST_ROWS = 100
LIST_PLAYING = 20
#: Quick match requests one account may make a minute.
QUICK_PER_MINUTE = 10
#: Seconds an account may not quick-match after dodging a match found for it.
DODGE_BENCH = 120.0
#: Wrong recovery codes allowed per name and per address within RECOVERY_WINDOW seconds
#: (80 bits cannot be guessed; the limit keeps anyone from trying).
RECOVERY_GUESSES_PER_NAME = 10
RECOVERY_GUESSES_PER_ADDRESS = 30
RECOVERY_WINDOW = 3600.0
#: Lines on a leaderboard.
BOARD_LINES = 100


@functools.lru_cache(maxsize=64)
def quick_setup(game: str, preset: str | None) -> tuple[Deal, str]:
    """A quick match's game: the preset's players, options and deck (as the daily deal's;
    its seed unused) and the preset's id. ValueError for an unknown game or preset. Kept:
    working it out takes about a millisecond, and every ``quick`` and every pairing round
    asks."""
    from game.services.daily import daily_deal

    d = daily_deal(game, preset)
    return d.deal, d.preset


class Club:
    def __init__(
        self,
        server: Any,
        db: ClubStore,
        queue: WaitingRoom | None = None,
        elsewhere: Callable[[], list[JsonObject]] | None = None,
    ):
        self.server = server
        self.db = db
        self.limits = server.limits
        self.tables: dict[str, Table] = server.tables
        self.lobby = server.lobby
        self.play = server.play
        self.ratings = ClubRatings(db)
        self.manners = Manners(db, self.tables, self.play, self.limits)
        #: The quick-match queue: this process's, or a cluster's shared one.
        self.queue: WaitingRoom = queue if queue is not None else QuickQueue()
        #: A cluster's rows of the tables other processes hold, for the list; None on one process.
        self.elsewhere = elsewhere
        #: Per account: the times of its recent quick requests, and until when (monotonic) it
        #: may not ask for a quick match (it dodged one found for it).
        self.quick_asks: dict[int, list[float]] = {}
        self.benched: dict[int, float] = {}
        #: Wrong recovery codes per name key and per address: (window start, count).
        self.recovery_guesses: dict[str, tuple[float, int]] = {}
        self.listeners: list[Conn] = []
        self._last_list: str | None = None
        self.play.finished_hooks.append(self.on_finished)
        self.play.turn_hooks.append(self.on_turn)
        self.play.commit_hooks.append(self.on_commit)

    def handlers(self) -> dict[str, MessageHandler]:
        return {
            "account": self.on_account,
            "recover": self.on_recover,
            "quick": self.on_quick,
            "quick_cancel": self.on_quick_cancel,
            "tables": self.on_tables,
            "publish": self.on_publish,
            "leaderboard": self.on_leaderboard,
            "recent": self.on_recent,
            **self.manners.handlers(),
        }

    async def run(self) -> None:
        """Pair the quick-match queue and send the table list to its listeners, forever."""
        since_list = 0.0
        while True:
            await asyncio.sleep(PAIR_EVERY)
            try:
                self.pair_now(time.monotonic())
                since_list += PAIR_EVERY
                if since_list >= LIST_EVERY:
                    since_list = 0.0
                    self.send_list()
            except Exception:  # noqa: BLE001 - one bad round must not stop the club
                log.exception("the club's round failed")

    # ---- accounts
    @staticmethod
    def _not_signed_in(conn: Conn) -> None:
        """One identity per connection: once signed in, a connection stays that player."""
        if conn.player is not None:
            raise Refusal("account", f"this connection is signed in as {conn.name}: open a new one to be someone else")

    def on_account(self, conn: Conn, msg: dict) -> None:
        self._not_signed_in(conn)
        secret = msg["secret"]
        if secret is None:
            if getattr(conn, "accounts_made", 0) >= MAX_ACCOUNTS_PER_CONNECTION:
                raise Refusal("limit", "this connection has made as many accounts as it may")
            secret, recovery = P.new_token(), new_recovery_code()
            player = self.db.create_player(msg["name"], P.hash_token(secret), P.hash_token(recovery))
            if player is None:
                raise Refusal("name_taken", f"the name {msg['name']} is taken on this server: choose another")
            conn.accounts_made = getattr(conn, "accounts_made", 0) + 1
            shown = {"secret": secret, "recovery": recovery, "new": True}
        else:
            player = self.db.player_by_secret(P.hash_token(secret))
            if player is None:
                raise self.lobby.failed_claim(conn, "bad_secret", "this server knows no player with that secret")
            shown = {"secret": None, "recovery": None, "new": False}
        conn.player, conn.name = player.id, player.name
        conn.send(
            M.ACCOUNT(
                name=player.name,
                **shown,
                ratings=self.ratings.all_ratings(player.id),
                chat=bool(self.limits.chat),
            )
        )

    def on_recover(self, conn: Conn, msg: dict) -> None:
        self._not_signed_in(conn)
        now = time.monotonic()
        keys = [f"n:{name_key(msg['name'])}"] + ([f"a:{conn.address}"] if conn.address is not None else [])
        for key, most in zip(keys, (RECOVERY_GUESSES_PER_NAME, RECOVERY_GUESSES_PER_ADDRESS)):
            since, count = self.recovery_guesses.get(key, (now, 0))
            if now - since < RECOVERY_WINDOW and count >= most:
                raise Refusal(
                    "rate", f"too many wrong recovery codes: try again in {RECOVERY_WINDOW - (now - since):.0f} s"
                )
        secret, recovery = P.new_token(), new_recovery_code()
        player = self.db.recover(
            msg["name"], P.hash_token(normal_recovery(msg["recovery"])), P.hash_token(secret), P.hash_token(recovery)
        )
        if player is None:
            if len(self.recovery_guesses) > 10_000:  # a bounded memory: forget the old windows
                self.recovery_guesses = {k: v for k, v in self.recovery_guesses.items() if now - v[0] < RECOVERY_WINDOW}
            for key in keys:
                since, count = self.recovery_guesses.get(key, (now, 0))
                self.recovery_guesses[key] = (since, count + 1) if now - since < RECOVERY_WINDOW else (now, 1)
            raise self.lobby.failed_claim(conn, "bad_secret", "that name and recovery code do not go together")
        conn.player, conn.name = player.id, player.name
        conn.send(M.ACCOUNT(name=player.name, secret=secret, recovery=recovery, new=False))

    # ---- quick match
    def on_quick(self, conn: Conn, msg: dict) -> None:
        player = need_account(conn)
        try:
            deal, preset = quick_setup(msg["game"], msg["preset"])
        except ValueError as e:
            raise Refusal("config", str(e)) from None
        self._quick_allowed(player, time.monotonic())
        self.lobby.check_quota(conn)
        if self.lobby.active_tables() >= P.MAX_TABLES:
            raise Refusal("limit", "the server has as many tables as it can take: try again later")
        # One place in the queue per account: waiting on another connection is given up.
        for other in [c for c in self.server.conns if c is not conn and c.player == player]:
            if self.queue.remove(other):
                other.send(M.QUICK_CANCELLED())
        key = (deal.game, preset)
        r = self.db.rating(f"p:{player}", deal.game) or new_rating()
        self.queue.add(key, Waiting(conn, player, r.mu, time.monotonic(), self.db.blocked(player)))
        conn.send(
            M.QUICK_WAITING(
                game=key[0],
                preset=key[1],
                wait=self.limits.quick_wait,
                **self.ratings.ratings_of(player, deal.game),
            )
        )

    def _quick_allowed(self, player: int, now: float) -> None:
        """Refusal ``rate`` past QUICK_PER_MINUTE quick requests of one account a minute, and
        while the account is benched for dodging found matches."""
        benched = self.benched.get(player, 0.0)
        if now < benched:
            raise Refusal("rate", f"a match found for you was not joined: quick match again in {benched - now:.0f} s")
        recent = [t for t in self.quick_asks.get(player, []) if now - t < 60.0]
        if len(recent) >= QUICK_PER_MINUTE:
            raise Refusal("rate", f"at most {QUICK_PER_MINUTE} quick match requests a minute")
        recent.append(now)
        self.quick_asks[player] = recent
        if len(self.quick_asks) > 10_000:  # a bounded memory: forget the quiet ones
            self.quick_asks = {p: ts for p, ts in self.quick_asks.items() if ts and now - ts[-1] < 60.0}

    def on_quick_cancel(self, conn: Conn, msg: dict) -> None:
        self.queue.remove(conn)
        conn.send(M.QUICK_CANCELLED())

    def pair_now(self, now: float) -> int:
        """Seat every group the queue can make now; the number of tables made."""
        if hasattr(self.queue, "pair_round"):  # a cluster's shared queue
            return self.queue.pair_round(self, now)
        made = 0
        if not any(self.queue.buckets.values()):
            return 0  # nobody waits (four times a second: the tables are not counted for nothing)
        if self.lobby.active_tables() >= P.MAX_TABLES:
            return 0  # the server is full: everyone waits on (the global limit holds quick tables too)
        for key in list(self.queue.buckets):
            deal, _ = quick_setup(*key)
            waiting = [w for w in self.queue.buckets.get(key, []) if not w.conn.closing and self.may_sit(w)]
            for group, computers in pair(waiting, deal.players, now, self.limits.quick_wait):
                for w in group:
                    self.queue.remove(w.conn)
                self.seat_group(key, deal, group, computers)
                made += 1
        return made

    def may_sit(self, w: Waiting) -> bool:
        """Whether a waiting player's account and address may hold one more table now."""
        return self.server.quota.refusal(getattr(w.conn, "address", None), w.player) is None

    def seat_group(self, key: tuple[str, str], deal: Deal, group: list[Waiting], computers: int) -> Table:
        rules = deal.rules()
        mean = sum(w.mu for w in group) / len(group)
        level = fill_level(mean, self.limits.fill_levels)
        seats = [Seat("friend") for _ in group] + [Seat("ai", level=level) for _ in range(computers)]
        tokens = []
        for s, w in zip(seats, group):
            token = P.new_token()
            s.token_hash, s.name = P.hash_token(token), w.conn.name
            tokens.append(token)
        code = unused_code(self.tables, self.server.store.exists)
        table = Table(code, rules, seats, P.hash_token(P.new_token()), int(self.limits.bot_after), True)
        pairs = [(getattr(w.conn, "address", None), w.player) for w in group]
        holders = [list(p) for p in pairs]
        table.club = {
            "quick": True,
            "rated": True,
            "game": key[0],
            "preset": key[1],
            "players": {str(i): w.player for i, w in enumerate(group)},
            "left": [],
            "holders": holders,
        }
        table.public = True
        table.owner = [None, None]
        for address, player in pairs:  # a quick table counts for every player it seats
            self.server.quota.add(code, address, player)
        # No meta is written yet (each is an fsync: 500 of them were most of the time to seat
        # 1,000 waiting players): a quick table is kept from its start (maybe_start writes it);
        # one the server loses before that is only a wait to do again.
        self.tables[code] = table
        if getattr(self.server, "node", None) is not None:
            # A cluster: its players may be on other processes, which find it by its meta
            # (and its lease: no other process may make or take it). Redis's write is cheap.
            self.play.write_meta(table)
        opponents = self.ratings.plates(table)
        for i, (w, token) in enumerate(zip(group, tokens)):
            w.conn.send(
                M.QUICK_FOUND(
                    code=code,
                    seat=i,
                    token=token,
                    rated=True,
                    filled=computers > 0,
                    seats=opponents,
                )
            )
        table.evict = self.play._call_later(JOIN_WITHIN, self._fill_empty, table)
        return table

    def _fill_empty(self, table: Table) -> None:
        """A quick match's seat nobody took in time: the computer takes it (not a leaver)."""
        table.evict = None
        if table.started or self.tables.get(table.code) is not table:
            return
        level = next((s.level for s in table.seats if s.kind == "ai"), "normal")
        for i, s in enumerate(table.seats):
            if s.kind == "friend" and s.conn is None:
                table.seats[i] = Seat("ai", level=level)
                dodger = table.club_data["players"].pop(str(i), None)
                if dodger is not None:  # rated a loss, and benched from quick match for a while
                    self.benched[int(dodger)] = time.monotonic() + DODGE_BENCH
                    self.ratings.dodged(table, int(dodger), i, level)
        if not any(s.kind == "friend" for s in table.seats):
            self.play.write_meta(table, closed=True)
            del self.tables[table.code]
            return
        self.play.write_meta(table)
        table.send_lobby()
        self.play.maybe_start(table)

    # ---- the silent player
    def on_turn(self, table: Table) -> None:
        """A club table's person to act: after ``--bot-after`` seconds of silence the computer
        makes that decision for them (marked in the record and on the plates); the next turn is
        theirs again. A player who is gone stays covered until they come back."""
        if table.club is None or table.match is None or table.match.over:
            return
        if table.silent is not None:
            table.silent.cancel()
            table.silent = None
        i, k = table.match.to_act, len(table.match.decisions)
        if i is None:  # nobody to act (the match is not over: never)
            return
        seat = table.seats[i]
        if seat.kind == "friend" and not seat.by_ai and seat.conn is not None:
            table.silent = self.play._call_later(self.limits.bot_after, self._silent, table, i, k)

    def _silent(self, table: Table, i: int, k: int) -> None:
        table.silent = None
        m = table.match
        if m is None or m.over or len(m.decisions) != k or m.to_act != i or table.seats[i].by_ai:
            return
        table.seats[i].by_ai = True
        table.club_data["covering"] = i
        table.broadcast(M.RESUMED(seat=i, by="ai", silent=True))
        self.play.advance(table)

    def on_commit(self, table: Table, events: list) -> None:
        """The decision the computer made for a silent player is done: the seat is theirs
        again (while they are connected; a gone player stays covered)."""
        club = table.club
        i = club.get("covering") if club is not None else None
        if (
            club is None
            or i is None
            or table.match is None
            or not table.match.decisions
            or table.match.decisions[-1][0] != i
        ):
            return
        club["covering"] = None
        seat = table.seats[i]
        if seat.conn is not None and seat.by_ai:
            seat.by_ai = False
            table.broadcast(M.RESUMED(seat=i))

    # ---- the end of a match
    def on_finished(self, table: Table) -> None:
        """The match is over: nobody is silent any more, and a club table is rated."""
        if table.silent is not None:
            table.silent.cancel()
            table.silent = None
        self.ratings.rate_finished(table)

    # ---- the lobby's list, leaderboards, a player's matches
    def on_tables(self, conn: Conn, msg: dict) -> None:
        if conn not in self.listeners:
            self.listeners.append(conn)
        conn.send(self.table_list())

    def table_list(self) -> JsonObject:
        rows = self.local_rows()
        playing = sum(1 for t in self.tables.values() if t.public and t.started and not t.finished)
        if self.elsewhere is not None:
            try:
                others = self.elsewhere()
            except Exception:  # noqa: BLE001 - Redis away: the list shows this process's tables
                log.warning("the other processes' tables could not be listed")
                others = []
            rows += others
            playing += sum(1 for r in others if r.get("started"))
        rows.sort(key=lambda r: (bool(r["started"]), -M.as_int(r["free"]), str(r["code"])))
        return M.TABLES(tables=rows[:LIST_ROWS], waiting=self.queue.waiting(), playing=playing)

    def local_rows(self) -> list[JsonObject]:
        """This process's public tables as list rows (open ones, and a few being played)."""
        from game.online.server.spectate import Spectators

        rows: list[JsonObject] = []
        playing = 0
        for t in self.tables.values():
            if not t.public or t.finished:
                continue
            if t.started:  # a few playing tables to watch; the list is for the open ones
                playing += 1
                if playing > LIST_PLAYING:
                    continue
            if len(rows) >= LIST_ROWS + LIST_PLAYING:
                continue  # counted, not listed
            free = sum(1 for s in t.seats if s.kind == "friend" and s.name is None and s.conn is None)
            rows.append(
                {
                    **Spectators.public_lobby(t),
                    "free": free,
                    "plates": self.ratings.plates(t),
                    "quick": bool(t.club and t.club.get("quick")),
                }
            )
        return rows

    def send_list(self) -> None:
        self.listeners = [c for c in self.listeners if not c.closing]
        if not self.listeners:
            self._last_list = None
            return
        text = P.encode(self.table_list())
        if text == self._last_list:
            return
        self._last_list = text
        for c in self.listeners:
            c.send_text(text)

    def on_publish(self, conn: Conn, msg: dict) -> None:
        table = self.lobby._hosted(conn)
        table.public = msg["public"]
        self.play.write_meta_soon(table)
        conn.send(M.PUBLISHED(code=table.code, public=table.public))
        table.send_lobby()

    def leaderboard(self, game: str) -> list[JsonObject]:
        lines = []
        for n, row in enumerate(self.db.leaderboard(game, PROVISIONAL_MATCHES, BOARD_LINES), 1):
            lines.append(
                {
                    "rank": n,
                    "name": row["name"],
                    "rating": display(row["mu"], row["sigma"]),
                    "matches": row["matches"],
                    "provisional": row["matches"] < PROVISIONAL_MATCHES,
                }
            )
        return lines

    def on_leaderboard(self, conn: Conn, msg: dict) -> None:
        from game.rulesets import game_ids

        if msg["game"] not in game_ids():
            raise Refusal("config", f"unknown game {msg['game']!r} (games: {', '.join(game_ids())})")
        conn.send(
            M.LEADERBOARD(
                game=msg["game"],
                lines=self.leaderboard(msg["game"]),
                computers={lvl: computer_display(lvl) for lvl in ("easy", "normal", "hard")},
            )
        )

    def on_recent(self, conn: Conn, msg: dict) -> None:
        player = self.db.player_by_name(msg["name"])
        if player is None:
            raise Refusal("no_player", f"no player {msg['name']} on this server")
        conn.send(M.RECENT(name=player.name, matches=self.db.recent_matches(player.id)))

    def gone(self, conn: Conn) -> None:
        self.queue.remove(conn)
        if conn in self.listeners:
            self.listeners.remove(conn)


__all__ = ["Club", "quick_setup"]
