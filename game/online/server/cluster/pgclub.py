"""The club's database in PostgreSQL (psycopg 3 and its pool), shared by every ``serve``
process of a cluster: the :class:`game.online.server.accounts.ClubStore` protocol, each method one
transaction. The schema is the numbered SQL files in ``migrations/`` beside this module,
applied in order at start under an advisory lock (processes starting together do not race)
and recorded in ``schema_migrations``.

A rating update reads the ratings it changes with ``SELECT … FOR UPDATE`` (the rows made
first when new, in one order, so two transactions never deadlock) and writes them in the same
transaction: two processes finishing two matches of one player at once never lose an update.

The database never stops the event loop: the calls' threads, the away state and its probe
and the outbox of finished matches are the base class's (game.online.server.cluster.dbguard); this
module is the SQL. With the database away a rating shown on a plate comes from the last one
read (or none), and every connection has a connect timeout, a ``statement_timeout``, a lock
timeout and TCP keepalives, so a thread waits on a reachable but stuck server for seconds,
not forever.
"""

from __future__ import annotations

import functools
import hmac
import json
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.online.server.accounts import Player, Rating, name_key
from game.online.server.cluster.dbguard import LOOP_WAIT, DatabaseAway, GuardedStore, guarded, on_loop
from game.online.server.store import StoreError
from game.rules.vocabulary import JsonObject

MIGRATIONS = Path(__file__).with_name("migrations")
#: One number for the advisory lock that serialises migrations across processes.
MIGRATION_LOCK = 7_420_001
POOL_MIN, POOL_MAX = 1, 8
#: On every connection: PostgreSQL ends a statement after this long (ms), a lock wait after
#: LOCK_TIMEOUT_MS, a connection attempt after CONNECT_TIMEOUT s; TCP keepalives find a
#: dead peer in about 11 s.
STATEMENT_TIMEOUT_MS = 5000
LOCK_TIMEOUT_MS = 3000
CONNECT_TIMEOUT = 3
#: A rating read within this long is shown again without asking (plates: every list, every
#: round); a match stored here updates it at once.
RATING_FRESH = 30.0
#: Ratings and blocks remembered at most (the oldest go first).
CACHE_ENTRIES = 50_000


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, Path]]:
    """The migrations in order: (number, file) for every ``NNN_name.sql``."""
    out = []
    for path in folder.glob("*.sql"):
        m = re.fullmatch(r"(\d{3})_[a-z0-9_]+\.sql", path.name)
        if m:
            out.append((int(m.group(1)), path))
    return sorted(out)


class PgClubStore(GuardedStore):
    """:class:`ClubStore` in PostgreSQL at ``url`` (postgresql://user@host:port/db).

    Every method that reads or writes the database is marked
    :func:`~game.online.server.cluster.dbguard.guarded` (or handles the event loop itself, as
    :meth:`rating`, :meth:`blocked` and the base's :meth:`rate_match`): a new one must be too
    (tests/online/server/cluster checks that the event loop never runs one)."""

    def __init__(self, url: str, pool_max: int = POOL_MAX, loop_wait: float = LOOP_WAIT):
        import psycopg
        from psycopg_pool import ConnectionPool

        super().__init__(loop_wait)
        self.errors = (psycopg.Error, OSError)
        self._ratings: OrderedDict[tuple[str, str], tuple[Rating | None, float]] = OrderedDict()
        self._blocks: OrderedDict[int, set[int]] = OrderedDict()
        settings = (
            f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={LOCK_TIMEOUT_MS} "
            f"-c idle_in_transaction_session_timeout={3 * STATEMENT_TIMEOUT_MS}"
        )
        kwargs = {
            "connect_timeout": CONNECT_TIMEOUT,
            "options": settings,
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": 10_000,
        }
        try:
            self.pool = ConnectionPool(
                url,
                min_size=POOL_MIN,
                max_size=pool_max,
                timeout=CONNECT_TIMEOUT,
                open=False,
                kwargs=kwargs,
                check=ConnectionPool.check_connection,
                name="cardavia-club",
            )
            self.pool.open(wait=True, timeout=10.0)
            self.migrate()
            self._fold_names()
        except Exception as e:  # noqa: BLE001 - psycopg's and the pool's errors: one line
            raise StoreError(
                f"cannot use the database ({type(e).__name__}: {str(e).strip().splitlines()[0]})"
            ) from None
        self._start(pool_max, "cardavia-db")

    def migrate(self) -> list[int]:
        """Apply the migrations not applied yet; the numbers applied now."""
        applied: list[int] = []
        with self.pool.connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                "applied DOUBLE PRECISION NOT NULL)"
            )
            done = {r[0] for r in db.execute("SELECT version FROM schema_migrations").fetchall()}
            for number, path in migration_files():
                if number in done:
                    continue
                db.execute(path.read_text(encoding="utf-8"))
                db.execute("INSERT INTO schema_migrations (version, applied) VALUES (%s, %s)", (number, time.time()))
                applied.append(number)
        return applied

    def _fold_names(self) -> None:
        """Players kept under an older comparison get their name key (accounts.name_key;
        look-alikes found by it stay with whoever was first)."""
        import psycopg

        with self.pool.connection() as db:
            rows = db.execute("SELECT id, name, folded FROM players").fetchall()
        for pid, name, folded in rows:
            if name_key(name) != folded:
                try:
                    with self.pool.connection() as db:
                        db.execute("UPDATE players SET folded = %s WHERE id = %s", (name_key(name), pid))
                except psycopg.errors.UniqueViolation:
                    pass

    def _reach(self) -> None:
        with self.pool.connection(timeout=CONNECT_TIMEOUT) as db:
            db.execute("SELECT 1")

    # ---- players
    # A new account or a new secret the player was never told of (the loop gave up waiting,
    # the database answered later) is taken back: else the name, or the account, is lost.
    def create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        if not on_loop():
            return self._create_player(name, secret_hash, recovery_hash)
        return self._ask(functools.partial(self._create_player, name, secret_hash, recovery_hash), undo=self._uncreate)

    create_player.__dict__["guarded"] = True

    def _uncreate(self, player: Player) -> None:
        with self.pool.connection() as db:
            db.execute(
                "DELETE FROM players WHERE id = %s AND NOT EXISTS (SELECT 1 FROM match_players WHERE player = %s)",
                (player.id, player.id),
            )

    def _create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        import psycopg

        try:
            with self.pool.connection() as db:
                row = db.execute(
                    "INSERT INTO players (name, folded, secret_sha256, recovery_sha256, created) "
                    "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                    (name, name_key(name), secret_hash, recovery_hash, time.time()),
                ).fetchone()
        except psycopg.errors.UniqueViolation:
            return None
        if row is None:  # INSERT … RETURNING always returns the row
            raise psycopg.DatabaseError("the new player has no id")
        return Player(int(row[0]), name)

    def _one(self, sql: str, args: tuple) -> Any:
        with self.pool.connection() as db:
            return db.execute(sql, args).fetchone()

    @guarded
    def player_by_secret(self, secret_hash: str) -> Player | None:
        row = self._one("SELECT id, name FROM players WHERE secret_sha256 = %s", (secret_hash,))
        return Player(int(row[0]), row[1]) if row else None

    @guarded
    def player_by_name(self, name: str) -> Player | None:
        row = self._one("SELECT id, name FROM players WHERE folded = %s", (name_key(name),))
        return Player(int(row[0]), row[1]) if row else None

    @guarded
    def player_name(self, player: int) -> str | None:
        row = self._one("SELECT name FROM players WHERE id = %s", (player,))
        return row[0] if row else None

    def recover(self, name: str, recovery_hash: str, secret_hash: str, new_recovery_hash: str) -> Player | None:
        if not on_loop():
            done = self._recover(name, recovery_hash, secret_hash, new_recovery_hash)
        else:
            done = self._ask(
                functools.partial(self._recover, name, recovery_hash, secret_hash, new_recovery_hash),
                undo=self._unrecover,
            )
        return done[0] if done is not None else None

    recover.__dict__["guarded"] = True

    def _recover(
        self,
        name: str,
        recovery_hash: str,
        secret_hash: str,
        new_recovery_hash: str,
    ) -> tuple[Player, str, str, str] | None:
        """(the player, the new secret's hash, the old secret's and recovery code's hashes)."""
        with self.pool.connection() as db, db.transaction():
            row = db.execute(
                "SELECT id, name, recovery_sha256, secret_sha256 FROM players WHERE folded = %s FOR UPDATE",
                (name_key(name),),
            ).fetchone()
            if row is None or not hmac.compare_digest(row[2], recovery_hash):
                return None
            db.execute(
                "UPDATE players SET secret_sha256 = %s, recovery_sha256 = %s WHERE id = %s",
                (secret_hash, new_recovery_hash, row[0]),
            )
        return Player(int(row[0]), row[1]), secret_hash, row[3], row[2]

    def _unrecover(self, done: tuple[Player, str, str, str]) -> None:
        player, new_secret, old_secret, old_recovery = done
        with self.pool.connection() as db:
            db.execute(
                "UPDATE players SET secret_sha256 = %s, recovery_sha256 = %s WHERE id = %s AND secret_sha256 = %s",
                (old_secret, old_recovery, player.id, new_secret),
            )

    # ---- ratings and matches
    def rating(self, subject: str, game: str) -> Rating | None:
        """From the event loop: the rating read within RATING_FRESH, else asked for (bounded);
        the database away, the last one read or None (a plate shows no rating for a while)."""
        if not on_loop():
            return self._rating(subject, game)
        key = (subject, game)
        hit = self._ratings.get(key)
        if hit is not None and time.monotonic() - hit[1] < RATING_FRESH:
            return hit[0]
        try:
            r = self._ask(functools.partial(self._rating, subject, game))
        except DatabaseAway:
            return hit[0] if hit is not None else None
        self._remember_rating(key, r)
        return r

    rating.__dict__["guarded"] = True

    def _rating(self, subject: str, game: str) -> Rating | None:
        row = self._one("SELECT mu, sigma, matches FROM ratings WHERE subject = %s AND game = %s", (subject, game))
        return Rating(row[0], row[1], row[2]) if row else None

    def _remember_rating(self, key: tuple[str, str], r: Rating | None) -> None:
        with self._lock:  # the loop and the outbox's thread both remember
            self._ratings.pop(key, None)
            self._ratings[key] = (r, time.monotonic())
            while len(self._ratings) > CACHE_ENTRIES:
                self._ratings.popitem(last=False)

    @guarded
    def save_match(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        summary: JsonObject,
        players: list[tuple[int, int, str, float | None, float | None]],
        ratings: dict[str, Rating],
    ) -> None:
        with self.pool.connection() as db, db.transaction():
            self._insert_match(db, code, game, preset, rated, summary, players, ratings)

    @staticmethod
    def _insert_match(
        db: Any,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        summary: JsonObject,
        players: list,
        ratings: dict[str, Rating],
    ) -> bool:
        cur = db.execute(
            "INSERT INTO matches (code, game, preset, rated, finished, summary) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (code) DO NOTHING",
            (code, game, preset, rated, time.time(), json.dumps(summary)),
        )
        if cur.rowcount == 0:
            return False  # rated once
        with db.cursor() as c:
            c.executemany(
                "INSERT INTO match_players (code, player, seat, result, old, new) VALUES (%s,%s,%s,%s,%s,%s)",
                [(code, p, s, res, old, new) for p, s, res, old, new in players],
            )
            c.executemany(
                "INSERT INTO ratings (subject, game, mu, sigma, matches) VALUES (%s,%s,%s,%s,%s) "
                "ON CONFLICT (subject, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "matches = excluded.matches",
                [(subject, game, r.mu, r.sigma, r.matches) for subject, r in ratings.items()],
            )
        return True

    def _rate_match(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        subjects: list[str],
        settle: Callable[[dict[str, Rating | None]], tuple[JsonObject, list, dict[str, Rating]]],
    ) -> tuple[JsonObject, list, dict[str, Rating]] | None:
        try:
            return self._rate_once(code, game, preset, rated, subjects, settle)
        except _RatedBefore:
            return None

    def _rate_once(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        subjects: list[str],
        settle: Callable[[dict[str, Rating | None]], tuple[JsonObject, list, dict[str, Rating]]],
    ) -> tuple[JsonObject, list, dict[str, Rating]] | None:
        with self.pool.connection() as db, db.transaction():
            if db.execute("SELECT 1 FROM matches WHERE code = %s", (code,)).fetchone() is not None:
                return None
            ordered = sorted(set(subjects))
            current: dict[str, Rating | None] = {s: None for s in ordered}
            if ordered:
                rows = db.execute(
                    "SELECT subject, mu, sigma, matches FROM ratings WHERE game = %s AND subject = ANY(%s) "
                    "ORDER BY subject FOR UPDATE",
                    (game, ordered),
                ).fetchall()
                current.update({r[0]: Rating(r[1], r[2], r[3]) for r in rows})
                missing = [s for s in ordered if current[s] is None]
                if missing:
                    # A first match: the row is made (a placeholder, rewritten below) and locked,
                    # so that a second transaction for the same new player waits here.
                    with db.cursor() as c:
                        c.executemany(
                            "INSERT INTO ratings (subject, game, mu, sigma, matches) VALUES (%s,%s,0,0,-1) "
                            "ON CONFLICT DO NOTHING",
                            [(s, game) for s in missing],
                        )
                    rows = db.execute(
                        "SELECT subject, mu, sigma, matches FROM ratings WHERE game = %s "
                        "AND subject = ANY(%s) ORDER BY subject FOR UPDATE",
                        (game, missing),
                    ).fetchall()
                    current.update({r[0]: (Rating(r[1], r[2], r[3]) if r[3] >= 0 else None) for r in rows})
            settled = settle(current)
            summary, players, ratings = settled
            if not self._insert_match(db, code, game, preset, rated, summary, players, ratings):
                raise _RatedBefore  # stored meanwhile by another: nothing of this one is kept
            # Placeholders of an unrated match are not ratings.
            db.execute("DELETE FROM ratings WHERE game = %s AND matches < 0", (game,))
        return settled

    @guarded
    def recent_matches(self, player: int, limit: int = 20) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute(
                "SELECT m.code, m.game, m.preset, m.rated, m.finished, m.summary, mp.seat, mp.result, mp.old, mp.new "
                "FROM match_players mp JOIN matches m ON m.code = mp.code WHERE mp.player = %s "
                "ORDER BY m.finished DESC LIMIT %s",
                (player, limit),
            ).fetchall()
        return [
            {
                "code": r[0],
                "game": r[1],
                "preset": r[2],
                "rated": bool(r[3]),
                "finished": r[4],
                "summary": r[5] if isinstance(r[5], dict) else json.loads(r[5]),
                "seat": r[6],
                "result": r[7],
                "old": None if r[8] is None else round(r[8]),
                "new": None if r[9] is None else round(r[9]),
            }
            for r in rows
        ]

    @guarded
    def finished_match(self, code: str) -> bool:
        return self._one("SELECT 1 FROM matches WHERE code = %s", (code,)) is not None

    @guarded
    def leaderboard(self, game: str, min_matches: int, limit: int = 100) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute(
                "SELECT p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON r.subject = 'p:' || p.id "
                "WHERE r.game = %s AND r.matches >= 0 ORDER BY (r.matches >= %s) DESC, r.mu - 3 * r.sigma DESC, "
                "p.folded LIMIT %s",
                (game, min_matches, limit),
            ).fetchall()
        return [{"name": r[0], "mu": r[1], "sigma": r[2], "matches": r[3]} for r in rows]

    # ---- manners
    @guarded
    def block(self, player: int, other: int) -> None:
        with self.pool.connection() as db:
            db.execute("INSERT INTO blocks (player, other) VALUES (%s, %s) ON CONFLICT DO NOTHING", (player, other))
        for a, b in ((player, other), (other, player)):
            if a in self._blocks:
                self._blocks[a].add(b)

    def blocked(self, player: int) -> set[int]:
        """From the event loop with the database away: the last answer read for ``player``
        (DatabaseAway when there is none: a pairing must not ignore a block)."""
        if not on_loop():
            return self._blocked(player)
        try:
            out = self._ask(functools.partial(self._blocked, player))
        except DatabaseAway:
            if player in self._blocks:
                return set(self._blocks[player])
            raise
        self._blocks.pop(player, None)
        self._blocks[player] = set(out)
        while len(self._blocks) > CACHE_ENTRIES:
            self._blocks.popitem(last=False)
        return out

    blocked.__dict__["guarded"] = True

    def _blocked(self, player: int) -> set[int]:
        with self.pool.connection() as db:
            rows = db.execute(
                "SELECT other FROM blocks WHERE player = %s UNION SELECT player FROM blocks WHERE other = %s",
                (player, player),
            ).fetchall()
        return {int(r[0]) for r in rows}

    @guarded
    def report(self, reporter: int, reported: int, code: str | None, reason: str) -> None:
        with self.pool.connection() as db:
            db.execute(
                "INSERT INTO reports (reporter, reported, code, reason, at) VALUES (%s, %s, %s, %s, %s)",
                (reporter, reported, code, reason, time.time()),
            )

    @guarded
    def reports(self) -> list[JsonObject]:
        with self.pool.connection() as db:
            rows = db.execute("SELECT reporter, reported, code, reason, at FROM reports ORDER BY id").fetchall()
        return [{"reporter": r[0], "reported": r[1], "code": r[2], "reason": r[3], "at": r[4]} for r in rows]

    def close(self) -> None:
        """Stop the threads (a match still in the outbox stays noted in Redis for another
        process) and close the pool, bounded in time whatever the database does."""
        self._stop()
        self.pool.close(timeout=2.0)


class _RatedBefore(Exception):
    """The match was stored by another process during this transaction: roll it back."""


__all__ = ["LOOP_WAIT", "DatabaseAway", "MIGRATIONS", "PgClubStore", "migration_files"]
