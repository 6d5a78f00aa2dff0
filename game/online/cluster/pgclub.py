"""The club's database in PostgreSQL (psycopg 3 and its pool), shared by every ``serve``
process of a cluster: the :class:`game.online.accounts.ClubStore` protocol, each method one
transaction. The schema is the numbered SQL files in ``migrations/`` beside this module,
applied in order at start under an advisory lock (processes starting together do not race)
and recorded in ``schema_migrations``.

A rating update reads the ratings it changes with ``SELECT … FOR UPDATE`` (the rows made
first when new, in one order, so two transactions never deadlock) and writes them in the same
transaction: two processes finishing two matches of one player at once never lose an update.
"""
from __future__ import annotations

import hmac
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.online.accounts import Player, Rating
from game.online.store import StoreError

MIGRATIONS = Path(__file__).with_name("migrations")
#: One number for the advisory lock that serialises migrations across processes.
MIGRATION_LOCK = 7_420_001
POOL_MIN, POOL_MAX = 1, 8


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, Path]]:
    """The migrations in order: (number, file) for every ``NNN_name.sql``."""
    out = []
    for path in folder.glob("*.sql"):
        m = re.fullmatch(r"(\d{3})_[a-z0-9_]+\.sql", path.name)
        if m:
            out.append((int(m.group(1)), path))
    return sorted(out)


class PgClubStore:
    """:class:`ClubStore` in PostgreSQL at ``url`` (postgresql://user@host:port/db)."""

    def __init__(self, url: str, pool_max: int = POOL_MAX):
        import psycopg
        from psycopg_pool import ConnectionPool

        self.errors = (psycopg.Error, OSError)
        try:
            self.pool = ConnectionPool(url, min_size=POOL_MIN, max_size=pool_max, timeout=5.0, open=False,
                                       kwargs={"connect_timeout": 5}, name="cardavia-club")
            self.pool.open(wait=True, timeout=10.0)
            self.migrate()
        except Exception as e:  # noqa: BLE001 - psycopg's and the pool's errors: one line
            raise StoreError(f"cannot use the database ({type(e).__name__}: {str(e).strip().splitlines()[0]})") from None

    def migrate(self) -> list[int]:
        """Apply the migrations not applied yet; the numbers applied now."""
        applied: list[int] = []
        with self.pool.connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                       "applied DOUBLE PRECISION NOT NULL)")
            done = {r[0] for r in db.execute("SELECT version FROM schema_migrations").fetchall()}
            for number, path in migration_files():
                if number in done:
                    continue
                db.execute(path.read_text(encoding="utf-8"))
                db.execute("INSERT INTO schema_migrations (version, applied) VALUES (%s, %s)", (number, time.time()))
                applied.append(number)
        return applied

    # ---- players
    def create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        import psycopg

        try:
            with self.pool.connection() as db:
                row = db.execute(
                    "INSERT INTO players (name, folded, secret_sha256, recovery_sha256, created) "
                    "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                    (name, name.casefold(), secret_hash, recovery_hash, time.time())).fetchone()
        except psycopg.errors.UniqueViolation:
            return None
        return Player(int(row[0]), name)

    def _one(self, sql: str, args: tuple) -> Any:
        with self.pool.connection() as db:
            return db.execute(sql, args).fetchone()

    def player_by_secret(self, secret_hash: str) -> Player | None:
        row = self._one("SELECT id, name FROM players WHERE secret_sha256 = %s", (secret_hash,))
        return Player(int(row[0]), row[1]) if row else None

    def player_by_name(self, name: str) -> Player | None:
        row = self._one("SELECT id, name FROM players WHERE folded = %s", (name.casefold(),))
        return Player(int(row[0]), row[1]) if row else None

    def player_name(self, player: int) -> str | None:
        row = self._one("SELECT name FROM players WHERE id = %s", (player,))
        return row[0] if row else None

    def recover(self, name: str, recovery_hash: str, secret_hash: str, new_recovery_hash: str) -> Player | None:
        with self.pool.connection() as db, db.transaction():
            row = db.execute("SELECT id, name, recovery_sha256 FROM players WHERE folded = %s FOR UPDATE",
                             (name.casefold(),)).fetchone()
            if row is None or not hmac.compare_digest(row[2], recovery_hash):
                return None
            db.execute("UPDATE players SET secret_sha256 = %s, recovery_sha256 = %s WHERE id = %s",
                       (secret_hash, new_recovery_hash, row[0]))
        return Player(int(row[0]), row[1])

    # ---- ratings and matches
    def rating(self, subject: str, game: str) -> Rating | None:
        row = self._one("SELECT mu, sigma, matches FROM ratings WHERE subject = %s AND game = %s", (subject, game))
        return Rating(row[0], row[1], row[2]) if row else None

    def save_match(self, code: str, game: str, preset: str | None, rated: bool, summary: dict[str, Any],
                   players: list[tuple[int, int, str, float | None, float | None]],
                   ratings: dict[str, Rating]) -> None:
        with self.pool.connection() as db, db.transaction():
            self._insert_match(db, code, game, preset, rated, summary, players, ratings)

    @staticmethod
    def _insert_match(db: Any, code: str, game: str, preset: str | None, rated: bool, summary: dict[str, Any],
                      players: list, ratings: dict[str, Rating]) -> bool:
        cur = db.execute("INSERT INTO matches (code, game, preset, rated, finished, summary) "
                         "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (code) DO NOTHING",
                         (code, game, preset, rated, time.time(), json.dumps(summary)))
        if cur.rowcount == 0:
            return False  # rated once
        with db.cursor() as c:
            c.executemany("INSERT INTO match_players (code, player, seat, result, old, new) VALUES (%s,%s,%s,%s,%s,%s)",
                          [(code, p, s, res, old, new) for p, s, res, old, new in players])
            c.executemany("INSERT INTO ratings (subject, game, mu, sigma, matches) VALUES (%s,%s,%s,%s,%s) "
                          "ON CONFLICT (subject, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                          "matches = excluded.matches",
                          [(subject, game, r.mu, r.sigma, r.matches) for subject, r in ratings.items()])
        return True

    def rate_match(self, code: str, game: str, preset: str | None, rated: bool, subjects: list[str],
                   settle: Callable[[dict[str, Rating | None]], tuple[dict[str, Any], list, dict[str, Rating]]],
                   ) -> tuple[dict[str, Any], list, dict[str, Rating]] | None:
        with self.pool.connection() as db, db.transaction():
            if db.execute("SELECT 1 FROM matches WHERE code = %s", (code,)).fetchone() is not None:
                return None
            ordered = sorted(set(subjects))
            current: dict[str, Rating | None] = {s: None for s in ordered}
            if ordered:
                rows = db.execute("SELECT subject, mu, sigma, matches FROM ratings WHERE game = %s AND subject = ANY(%s) "
                                  "ORDER BY subject FOR UPDATE", (game, ordered)).fetchall()
                current.update({r[0]: Rating(r[1], r[2], r[3]) for r in rows})
                missing = [s for s in ordered if current[s] is None]
                if missing:
                    # A first match: the row is made (a placeholder, rewritten below) and locked,
                    # so that a second transaction for the same new player waits here.
                    with db.cursor() as c:
                        c.executemany("INSERT INTO ratings (subject, game, mu, sigma, matches) VALUES (%s,%s,0,0,-1) "
                                      "ON CONFLICT DO NOTHING", [(s, game) for s in missing])
                    rows = db.execute("SELECT subject, mu, sigma, matches FROM ratings WHERE game = %s "
                                      "AND subject = ANY(%s) ORDER BY subject FOR UPDATE", (game, missing)).fetchall()
                    current.update({r[0]: (Rating(r[1], r[2], r[3]) if r[3] >= 0 else None) for r in rows})
            settled = settle(current)
            summary, players, ratings = settled
            if not self._insert_match(db, code, game, preset, rated, summary, players, ratings):
                return None
            # Placeholders of an unrated match are not ratings.
            db.execute("DELETE FROM ratings WHERE game = %s AND matches < 0", (game,))
        return settled

    def recent_matches(self, player: int, limit: int = 20) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute(
                "SELECT m.code, m.game, m.preset, m.rated, m.finished, m.summary, mp.seat, mp.result, mp.old, mp.new "
                "FROM match_players mp JOIN matches m ON m.code = mp.code WHERE mp.player = %s "
                "ORDER BY m.finished DESC LIMIT %s", (player, limit)).fetchall()
        return [{"code": r[0], "game": r[1], "preset": r[2], "rated": bool(r[3]), "finished": r[4],
                 "summary": r[5] if isinstance(r[5], dict) else json.loads(r[5]), "seat": r[6], "result": r[7],
                 "old": None if r[8] is None else round(r[8]), "new": None if r[9] is None else round(r[9])}
                for r in rows]

    def finished_match(self, code: str) -> bool:
        return self._one("SELECT 1 FROM matches WHERE code = %s", (code,)) is not None

    def leaderboard(self, game: str, min_matches: int, limit: int = 100) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute(
                "SELECT p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON r.subject = 'p:' || p.id "
                "WHERE r.game = %s AND r.matches >= 0 ORDER BY (r.matches >= %s) DESC, r.mu - 3 * r.sigma DESC, "
                "p.folded LIMIT %s", (game, min_matches, limit)).fetchall()
        return [{"name": r[0], "mu": r[1], "sigma": r[2], "matches": r[3]} for r in rows]

    # ---- manners
    def block(self, player: int, other: int) -> None:
        with self.pool.connection() as db:
            db.execute("INSERT INTO blocks (player, other) VALUES (%s, %s) ON CONFLICT DO NOTHING", (player, other))

    def blocked(self, player: int) -> set[int]:
        with self.pool.connection() as db:
            rows = db.execute("SELECT other FROM blocks WHERE player = %s UNION SELECT player FROM blocks WHERE other = %s",
                              (player, player)).fetchall()
        return {int(r[0]) for r in rows}

    def report(self, reporter: int, reported: int, code: str | None, reason: str) -> None:
        with self.pool.connection() as db:
            db.execute("INSERT INTO reports (reporter, reported, code, reason, at) VALUES (%s, %s, %s, %s, %s)",
                       (reporter, reported, code, reason, time.time()))

    def reports(self) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute("SELECT reporter, reported, code, reason, at FROM reports ORDER BY id").fetchall()
        return [{"reporter": r[0], "reported": r[1], "code": r[2], "reason": r[3], "at": r[4]} for r in rows]

    def close(self) -> None:
        self.pool.close()


__all__ = ["MIGRATIONS", "PgClubStore", "migration_files"]
