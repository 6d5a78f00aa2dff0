"""The club of a table server (docs/ONLINE.md, "The club"): players with accounts, ratings,
the live list of open tables, quick match, the leaderboards and manners (mute, block,
report, chat). Spectators are game.online.spectate; the web pages game.online.web.

The server (game.online.server) builds one :class:`Club` and puts its handlers in its table
of message types; the club reaches the tables through the lobby and the play loop, and
keeps what outlives a table in the :class:`~game.online.accounts.ClubStore`.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import Any

from game.online import protocol as P
from game.online.accounts import ClubStore, Rating, name_key, new_recovery_code, normal_recovery
from game.online.quick import QuickQueue, Waiting, fill_level, pair
from game.online.ratings import (
    COMPUTER_SHARE,
    FEW_MATCHES,
    PROVISIONAL_MATCHES,
    REPEAT_WINDOW,
    SeatOutcome,
    computer_display,
    display,
    guarded,
    new_rating,
    rate,
)
from game.online.seats import Conn, Refusal, Seat, Table

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
#: Free-text chat: at most one message per this many seconds per connection.
CHAT_EVERY = 1.0
#: Lines on a leaderboard.
BOARD_LINES = 100


@functools.lru_cache(maxsize=64)
def quick_setup(game: str, preset: str | None) -> tuple[Any, str]:
    """A quick match's game: the preset's players, options and deck (as the daily deal's;
    its seed unused) and the preset's id. ValueError for an unknown game or preset. Kept:
    working it out takes about a millisecond, and every ``quick`` and every pairing round
    asks."""
    from game.daily import daily_deal

    d = daily_deal(game, preset)
    return d.deal, d.preset


def rating_view(r: Rating | None) -> dict[str, Any]:
    r = r or new_rating()
    return {"rating": display(r.mu, r.sigma), "matches": r.matches, "provisional": r.matches < PROVISIONAL_MATCHES}


class Club:
    def __init__(self, server: Any, db: ClubStore):
        self.server = server
        self.db = db
        self.limits = server.limits
        self.tables: dict[str, Table] = server.tables
        self.lobby = server.lobby
        self.play = server.play
        self.queue = QuickQueue()
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

    def handlers(self) -> dict[str, Any]:
        return {"account": self.on_account, "recover": self.on_recover, "quick": self.on_quick,
                "quick_cancel": self.on_quick_cancel, "tables": self.on_tables, "publish": self.on_publish,
                "leaderboard": self.on_leaderboard, "recent": self.on_recent, "block": self.on_block,
                "mute": self.on_mute, "report": self.on_report, "chat": self.on_chat, "say": self.on_say}

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
    def _need_account(self, conn: Conn) -> int:
        if conn.player is None:
            raise Refusal("account", "say who you are first (the 'account' message)")
        return conn.player

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
        conn.send({"type": "account", "name": player.name, **shown, "ratings": self.all_ratings(player.id),
                   "chat": bool(self.limits.chat)})

    def on_recover(self, conn: Conn, msg: dict) -> None:
        self._not_signed_in(conn)
        now = time.monotonic()
        keys = [f"n:{name_key(msg['name'])}"] + ([f"a:{conn.address}"] if conn.address is not None else [])
        for key, most in zip(keys, (RECOVERY_GUESSES_PER_NAME, RECOVERY_GUESSES_PER_ADDRESS)):
            since, count = self.recovery_guesses.get(key, (now, 0))
            if now - since < RECOVERY_WINDOW and count >= most:
                raise Refusal("rate", f"too many wrong recovery codes: try again in {RECOVERY_WINDOW - (now - since):.0f} s")
        secret, recovery = P.new_token(), new_recovery_code()
        player = self.db.recover(msg["name"], P.hash_token(normal_recovery(msg["recovery"])),
                                 P.hash_token(secret), P.hash_token(recovery))
        if player is None:
            if len(self.recovery_guesses) > 10_000:  # a bounded memory: forget the old windows
                self.recovery_guesses = {k: v for k, v in self.recovery_guesses.items() if now - v[0] < RECOVERY_WINDOW}
            for key in keys:
                since, count = self.recovery_guesses.get(key, (now, 0))
                self.recovery_guesses[key] = (since, count + 1) if now - since < RECOVERY_WINDOW else (now, 1)
            raise self.lobby.failed_claim(conn, "bad_secret", "that name and recovery code do not go together")
        conn.player, conn.name = player.id, player.name
        conn.send({"type": "account", "name": player.name, "secret": secret, "recovery": recovery, "new": False})

    def all_ratings(self, player: int) -> dict[str, dict[str, Any]]:
        """The player's rating in every game (a new player's where they have none yet)."""
        from game.rulesets import game_ids

        return {g: self.ratings_of(player, g) for g in game_ids()}

    def ratings_of(self, player: int, game: str) -> dict[str, Any]:
        return rating_view(self.db.rating(f"p:{player}", game))

    # ---- quick match
    def on_quick(self, conn: Conn, msg: dict) -> None:
        player = self._need_account(conn)
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
                other.send({"type": "quick_cancelled"})
        key = (deal.game, preset)
        r = self.db.rating(f"p:{player}", deal.game) or new_rating()
        self.queue.add(key, Waiting(conn, player, r.mu, time.monotonic(), self.db.blocked(player)))
        conn.send({"type": "quick_waiting", "game": key[0], "preset": key[1], "wait": self.limits.quick_wait,
                   **self.ratings_of(player, deal.game)})

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
        conn.send({"type": "quick_cancelled"})

    def pair_now(self, now: float) -> int:
        """Seat every group the queue can make now; the number of tables made."""
        if hasattr(self.queue, "pair_round"):  # a cluster's shared queue
            return self.queue.pair_round(self, now)
        made = 0
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

    def seat_group(self, key: tuple[str, str], deal: Any, group: list[Waiting], computers: int) -> Table:
        rules = deal.rules()
        mean = sum(w.mu for w in group) / len(group)
        level = fill_level(mean, self.limits.fill_levels)
        seats = [Seat("friend") for _ in group] + [Seat("ai", level=level) for _ in range(computers)]
        tokens = []
        for s, w in zip(seats, group):
            token = P.new_token()
            s.token_hash, s.name = P.hash_token(token), w.conn.name
            tokens.append(token)
        code = P.new_code()
        while code in self.tables or self.server.store.exists(code):
            code = P.new_code()
        table = Table(code, rules, seats, P.hash_token(P.new_token()), int(self.limits.bot_after), True)
        holders = [[getattr(w.conn, "address", None), w.player] for w in group]
        table.club = {"quick": True, "rated": True, "game": key[0], "preset": key[1],
                      "players": {str(i): w.player for i, w in enumerate(group)}, "left": [], "holders": holders}
        table.public = True
        table.owner = [None, None]
        for address, player in holders:  # a quick table counts for every player it seats
            self.server.quota.add(code, address, player)
        # No meta is written yet (each is an fsync: 500 of them were most of the time to seat
        # 1,000 waiting players): a quick table is kept from its start (maybe_start writes it);
        # one the server loses before that is only a wait to do again.
        self.tables[code] = table
        if getattr(self.server, "node", None) is not None:
            # A cluster: its players may be on other processes, which find it by its meta
            # (and its lease: no other process may make or take it). Redis's write is cheap.
            self.play.write_meta(table)
        opponents = self.plates(table)
        for i, (w, token) in enumerate(zip(group, tokens)):
            w.conn.send({"type": "quick_found", "code": code, "seat": i, "token": token, "rated": True,
                         "filled": computers > 0, "seats": opponents})
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
                dodger = table.club["players"].pop(str(i), None)
                if dodger is not None:
                    self._dodged(table, int(dodger), i, level)
        if not any(s.kind == "friend" for s in table.seats):
            self.play.write_meta(table, closed=True)
            del self.tables[table.code]
            return
        self.play.write_meta(table)
        table.send_lobby()
        self.play.maybe_start(table)

    def _dodged(self, table: Table, player: int, seat: int, level: str) -> None:
        """A found match not joined counts against the dodger: rated as a loss to the
        computer that took the seat (nobody else gains), and benched from quick match for
        DODGE_BENCH seconds."""
        self.benched[player] = time.monotonic() + DODGE_BENCH
        game = table.rules.game_id
        outcomes = [SeatOutcome(0, player=player, left=True), SeatOutcome(1, level=level)]
        subject = f"p:{player}"

        def settle(current: dict[str, Rating]) -> tuple[dict, list, dict[str, Rating]]:
            old = current.get(subject) or new_rating()
            after = guarded(old, rate({subject: old}, outcomes, 1)[subject], "left", anyone_left=False,
                            meetings=0, fresh_opponent=False)
            summary = {"players": [{"seat": seat, "name": table.seats[seat].name, "level": None},
                                   {"seat": -1, "name": None, "level": level}], "winner": None, "dodged": True}
            return summary, [(player, seat, "left", display(old.mu, old.sigma), display(after.mu, after.sigma))], \
                {subject: after}

        try:
            self.db.rate_match(f"{table.code}-{seat}", game, (table.club or {}).get("preset"), True, [subject], settle)
        except Exception:  # noqa: BLE001 - the database's trouble must not stop the table
            log.exception("table %s: a dodged seat could not be rated", table.code)

    def plates(self, table: Table) -> list[dict[str, Any]]:
        """Per seat: name or computer level, and the rating shown on the plate."""
        game = table.rules.game_id
        players = (table.club or {}).get("players", {})
        out = []
        for i, s in enumerate(table.seats):
            if s.kind == "ai":
                out.append({"name": None, "level": s.level, "rating": computer_display(s.level), "provisional": False,
                            "by_ai": False})
            else:
                pid = players.get(str(i))
                view = self.ratings_of(pid, game) if pid is not None else {"rating": None, "provisional": True}
                out.append({"name": s.name, "level": None, "rating": view["rating"],
                            "provisional": view["provisional"], "by_ai": s.by_ai})
        return out

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
        seat = table.seats[i]
        if seat.kind == "friend" and not seat.by_ai and seat.conn is not None:
            table.silent = self.play._call_later(self.limits.bot_after, self._silent, table, i, k)

    def _silent(self, table: Table, i: int, k: int) -> None:
        table.silent = None
        m = table.match
        if m is None or m.over or len(m.decisions) != k or m.to_act != i or table.seats[i].by_ai:
            return
        table.seats[i].by_ai = True
        table.club["covering"] = i
        table.broadcast({"type": "resumed", "seat": i, "by": "ai", "silent": True})
        self.play.advance(table)

    def on_commit(self, table: Table, events: list) -> None:
        """The decision the computer made for a silent player is done: the seat is theirs
        again (while they are connected; a gone player stays covered)."""
        club = table.club
        i = club.get("covering") if club is not None else None
        if i is None or table.match is None or not table.match.decisions or table.match.decisions[-1][0] != i:
            return
        club["covering"] = None
        seat = table.seats[i]
        if seat.conn is not None and seat.by_ai:
            seat.by_ai = False
            table.broadcast({"type": "resumed", "seat": i})

    # ---- the end of a match
    def on_finished(self, table: Table) -> None:
        if table.silent is not None:
            table.silent.cancel()
            table.silent = None
        club = table.club
        m = table.match
        if club is None or m is None:
            return
        players = {int(k): int(v) for k, v in club["players"].items()}
        game = table.rules.game_id
        made = [0] * len(table.seats)
        for seat, _action in m.decisions:
            made[seat] += 1
        outcomes = []
        for i, s in enumerate(table.seats):
            team = table.rules.team_of(i)
            if s.kind == "friend" and i in players:
                by_computer = table.computer_made.get(i, 0)
                mostly_computer = made[i] > 0 and by_computer > COMPUTER_SHARE * made[i]
                outcomes.append(SeatOutcome(team, player=players[i], left=(s.by_ai and s.conn is None) or mostly_computer))
            else:
                outcomes.append(SeatOutcome(team, level=s.level or "normal"))
        from game.online.ratings import pair_subject

        subjects = [f"p:{o.player}" for o in outcomes if o.player is not None]
        team_subjects: dict[str, int] = {}
        for t in sorted({o.team for o in outcomes}):
            subject = pair_subject([o for o in outcomes if o.team == t])
            if subject is not None:
                subjects.append(subject)
                team_subjects[subject] = t
        rated = bool(club.get("rated"))
        plates = self.plates(table)
        meetings = self._meetings(table, outcomes, game) if rated else {}
        anyone_left = any(o.left for o in outcomes if o.player is not None)

        def result_of(o: SeatOutcome) -> str:
            won = m.winner is not None and o.team == m.winner and not o.left
            return "left" if o.left else "draw" if m.winner is None else "won" if won else "lost"

        def settle(current: dict[str, Rating]) -> tuple[dict, list, dict[str, Rating]]:
            # Run by the database inside the transaction that holds these ratings (two
            # processes finishing two matches of one player never lose an update).
            current = {s: current.get(s) or new_rating() for s in subjects}
            new = rate(current, outcomes, m.winner) if rated else {}
            for subject, after in list(new.items()):
                if subject in team_subjects:
                    team = [o for o in outcomes if o.team == team_subjects[subject]]
                    result = "left" if any(o.left for o in team) else result_of(team[0])
                    new[subject] = guarded(current[subject], after, result, anyone_left=anyone_left,
                                           meetings=0, fresh_opponent=False)
                    continue
                o = next(o for o in outcomes if f"p:{o.player}" == subject)
                fresh = any(x.player is not None and x.team != o.team
                            and current[f"p:{x.player}"].matches < FEW_MATCHES for x in outcomes)
                new[subject] = guarded(current[subject], after, result_of(o), anyone_left=anyone_left,
                                       meetings=meetings.get(o.player or 0, 0), fresh_opponent=fresh)
            rows = []
            for i, o in enumerate(outcomes):
                if o.player is None:
                    continue
                result = result_of(o)
                old, after = current[f"p:{o.player}"], new.get(f"p:{o.player}")
                rows.append((o.player, i, result, display(old.mu, old.sigma) if rated else None,
                             display(after.mu, after.sigma) if after else None))
            summary = {"players": [{"seat": i, **p} for i, p in enumerate(plates)],
                       "winner": m.winner, "totals": list(m.totals)}
            return summary, rows, new

        try:
            settled = self.db.rate_match(table.code, game, club.get("preset"), rated, subjects, settle)
        except Exception:  # noqa: BLE001 - the database's trouble must not stop the table's end
            log.exception("table %s: the match could not be kept in the database", table.code)
            return
        if settled is None:
            return  # rated before (a process that took the table over finished its end again)
        _summary, rows, new = settled
        for (pid, i, result, old, after) in rows:
            conn = table.seats[i].conn
            if conn is not None and conn.player == pid:
                r = new.get(f"p:{pid}")
                conn.send({"type": "rated", "game": game, "rated": rated, "result": result, "old": old, "new": after,
                           "matches": r.matches if r else None,
                           "provisional": (r.matches < PROVISIONAL_MATCHES) if r else None})

    def _meetings(self, table: Table, outcomes: list[SeatOutcome], game: str) -> dict[int, int]:
        """Per person at ``table``: their rated matches of ``game`` within REPEAT_WINDOW against
        any person now on another side (the recent list's opponents, by account name)."""
        names = {i: (s.name or "").casefold() for i, s in enumerate(table.seats)}
        since = time.time() - REPEAT_WINDOW
        out: dict[int, int] = {}
        for o in outcomes:
            if o.player is None:
                continue
            opponents = {names[k] for k, x in enumerate(outcomes) if x.player is not None and x.team != o.team}
            try:
                recent = self.db.recent_matches(o.player, 50)
            except Exception:  # noqa: BLE001 - the database away: counted as a first meeting
                log.warning("table %s: the recent matches could not be read", table.code)
                recent = []
            count = 0
            for row in recent:
                if row.get("game") != game or not row.get("rated") or float(row.get("finished") or 0) < since:
                    continue
                seats = (row.get("summary") or {}).get("players") or []
                met = {str(p.get("name") or "").casefold() for p in seats if p.get("seat") != row.get("seat")}
                if opponents & met:
                    count += 1
            out[o.player] = count
        return out

    # ---- the lobby's list, leaderboards, a player's matches
    def on_tables(self, conn: Conn, msg: dict) -> None:
        if conn not in self.listeners:
            self.listeners.append(conn)
        conn.send(self.table_list())

    #: A cluster's rows of the other processes (game.online.cluster.node), else None.
    elsewhere: Any = None

    def table_list(self) -> dict[str, Any]:
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
        rows.sort(key=lambda r: (r["started"], -r["free"], r["code"]))
        return {"type": "tables", "tables": rows[:LIST_ROWS], "waiting": self.queue.waiting(), "playing": playing}

    def local_rows(self) -> list[dict[str, Any]]:
        """This process's public tables as list rows (open ones, and a few being played)."""
        from game.online.spectate import Spectators

        rows, playing = [], 0
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
            rows.append({**Spectators.public_lobby(t), "free": free, "plates": self.plates(t),
                         "quick": bool(t.club and t.club.get("quick"))})
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
        conn.send({"type": "published", "code": table.code, "public": table.public})
        table.send_lobby()

    def leaderboard(self, game: str) -> list[dict[str, Any]]:
        lines = []
        for n, row in enumerate(self.db.leaderboard(game, PROVISIONAL_MATCHES, BOARD_LINES), 1):
            lines.append({"rank": n, "name": row["name"], "rating": display(row["mu"], row["sigma"]),
                          "matches": row["matches"], "provisional": row["matches"] < PROVISIONAL_MATCHES})
        return lines

    def on_leaderboard(self, conn: Conn, msg: dict) -> None:
        from game.rulesets import game_ids

        if msg["game"] not in game_ids():
            raise Refusal("config", f"unknown game {msg['game']!r} (games: {', '.join(game_ids())})")
        conn.send({"type": "leaderboard", "game": msg["game"], "lines": self.leaderboard(msg["game"]),
                   "computers": {lvl: computer_display(lvl) for lvl in ("easy", "normal", "hard")}})

    def on_recent(self, conn: Conn, msg: dict) -> None:
        player = self.db.player_by_name(msg["name"])
        if player is None:
            raise Refusal("no_player", f"no player {msg['name']} on this server")
        conn.send({"type": "recent", "name": player.name, "matches": self.db.recent_matches(player.id)})

    # ---- manners
    def _other(self, name: str) -> int:
        other = self.db.player_by_name(name)
        if other is None:
            raise Refusal("no_player", f"no player {name} on this server")
        return other.id

    def on_block(self, conn: Conn, msg: dict) -> None:
        me = self._need_account(conn)
        other = self._other(msg["name"])
        if other == me:
            raise Refusal("config", "you cannot block yourself")
        self.db.block(me, other)
        conn.muted.add(f"p:{other}")
        conn.send({"type": "blocked", "name": msg["name"]})

    def on_mute(self, conn: Conn, msg: dict) -> None:
        """Mute by the account a name belongs to (whatever name it later sits under); a name
        without an account (a friend at a host's table) by its key."""
        other = self.db.player_by_name(msg["name"])
        key = f"p:{other.id}" if other is not None else f"n:{name_key(msg['name'])}"
        (conn.muted.add if msg["muted"] else conn.muted.discard)(key)
        conn.send({"type": "muted", "name": msg["name"], "muted": msg["muted"]})

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
        me = self._need_account(conn)
        other = self._other(msg["name"])
        code = msg["table"]
        self.db.report(me, other, code, msg["reason"])
        # The record stays for the server's owner: a reported table is never cleaned away.
        if code is not None and code in self.tables:
            self.play.write_meta_soon(self.tables[code], reported=True)
        conn.send({"type": "reported", "name": msg["name"]})

    def _to_table(self, conn: Conn, message: dict[str, Any]) -> None:
        table, i = conn.table, conn.seat
        if table is None or i is None:
            raise Refusal("not_seated", "join a table first")
        speaker = self.speaker_keys(table, i)
        text = P.encode(message)
        for c in table.conns():
            if not speaker & c.muted:
                c.send_text(text)

    def on_say(self, conn: Conn, msg: dict) -> None:
        self._to_table(conn, {"type": "said", "seat": conn.seat, "phrase": msg["phrase"]})

    def on_chat(self, conn: Conn, msg: dict) -> None:
        if not self.limits.chat:
            raise Refusal("chat_off", "free-text chat is off on this server: use the quick phrases")
        now = time.monotonic()
        if now - conn.last_chat < CHAT_EVERY:
            raise Refusal("rate", f"at most one chat message every {CHAT_EVERY:g} s")
        conn.last_chat = now
        self._to_table(conn, {"type": "chat", "seat": conn.seat, "text": msg["text"]})

    def gone(self, conn: Conn) -> None:
        self.queue.remove(conn)
        if conn in self.listeners:
            self.listeners.remove(conn)


__all__ = ["Club", "rating_view"]
