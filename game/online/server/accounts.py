"""The club server's players, ratings, finished matches and manners, in a real database.

:class:`ClubStore` is the small interface the server uses (a Protocol: the next issue's
PostgreSQL store follows it); :class:`SqliteClubStore` is the embedded default, one SQLite
file ``DIR/players.sqlite3`` in WAL mode beside the tables (docs/ONLINE.md, "The database").
Every write is one transaction committed before the server answers: a server killed with
SIGKILL keeps every account and rating it has acknowledged (WAL + ``synchronous=NORMAL``
loses nothing on a process crash, only possibly the last commits on a power cut).

A player has a name, unique on the server (compared case-folded), and a secret the game keeps
for them (128 bits, made by the server on the first connect and kept in the client's
settings); the server keeps only the secret's sha256, and of the recovery code (shown once,
to move to another computer) only its sha256 too.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject

DB_NAME = "players.sqlite3"
#: Recovery codes: 4 groups of 4 letters of the table-code alphabet (80 bits), e.g. ABCD-EFGH-JKLM-NPQR.
RECOVERY_GROUPS = 4


@dataclass(frozen=True)
class Player:
    id: int
    name: str


@dataclass(frozen=True)
class Rating:
    """One subject's rating in one game: OpenSkill's mu and sigma, and matches rated."""

    mu: float
    sigma: float
    matches: int


def new_recovery_code() -> str:
    return "-".join("".join(secrets.choice(P.CODE_ALPHABET) for _ in range(4)) for _ in range(RECOVERY_GROUPS))


def normal_recovery(text: str) -> str:
    """A recovery code as typed (lower case, spaces, no dashes) in its one written form."""
    letters = "".join(ch for ch in text.upper() if ch.isalnum())
    return "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))


class ClubStore(Protocol):
    """What the server keeps beyond one table; every method is one transaction."""

    def create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        """A new player, or None when the name (case-folded) is taken."""

    def player_by_secret(self, secret_hash: str) -> Player | None: ...

    def player_by_name(self, name: str) -> Player | None: ...

    def recover(self, name: str, recovery_hash: str, secret_hash: str, new_recovery_hash: str) -> Player | None:
        """Give the player named ``name`` a new secret and recovery code when ``recovery_hash``
        is their recovery code's; None otherwise (nothing changes)."""

    def rating(self, subject: str, game: str) -> Rating | None: ...

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
        """A finished match (players: (player id, seat, result, old, new)) and the new
        ratings, in one transaction (a match is rated once: a code seen before changes nothing)."""

    def rate_match(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        subjects: list[str],
        settle: Callable[[dict[str, Rating | None]], tuple[JsonObject, list, dict[str, Rating]]],
    ) -> tuple[JsonObject, list, dict[str, Rating]] | None:
        """One transaction: read the ratings of ``subjects`` (held against other writers),
        ``settle(current)`` gives (summary, players, new ratings), keep them as
        :meth:`save_match` does; settle's result, or None when ``code`` was rated before."""

    def recent_matches(self, player: int, limit: int = 20) -> list[dict[str, Any]]: ...

    def finished_match(self, code: str) -> bool:
        """Whether ``code`` is a finished club match (its record may be shown)."""

    def leaderboard(self, game: str, min_matches: int, limit: int = 100) -> list[dict[str, Any]]: ...

    def block(self, player: int, other: int) -> None: ...

    def blocked(self, player: int) -> set[int]:
        """Everyone ``player`` blocked or was blocked by (never matched together)."""

    def report(self, reporter: int, reported: int, code: str | None, reason: str) -> None: ...

    def close(self) -> None: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, folded TEXT NOT NULL UNIQUE,
    secret_sha256 TEXT NOT NULL UNIQUE, recovery_sha256 TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
    subject TEXT NOT NULL, game TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    matches INTEGER NOT NULL, PRIMARY KEY (subject, game));
CREATE TABLE IF NOT EXISTS matches (
    code TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT, rated INTEGER NOT NULL,
    finished REAL NOT NULL, summary TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS match_players (
    code TEXT NOT NULL, player INTEGER NOT NULL, seat INTEGER NOT NULL, result TEXT NOT NULL,
    old REAL, new REAL, PRIMARY KEY (code, seat));
CREATE INDEX IF NOT EXISTS match_players_by_player ON match_players (player, code);
CREATE TABLE IF NOT EXISTS blocks (player INTEGER NOT NULL, other INTEGER NOT NULL, PRIMARY KEY (player, other));
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY, reporter INTEGER NOT NULL, reported INTEGER NOT NULL, code TEXT,
    reason TEXT NOT NULL, at REAL NOT NULL);
"""


# Letters of other scripts drawn like Latin ones, and Latin look-alikes (Unicode TR39's
# confusables for the letters a name is made of): two names whose skeletons agree are one name.
_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "l",
        "ї": "l",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "һ": "h",
        "ӏ": "l",
        "ь": "b",
        "г": "r",
        "п": "n",
        "и": "u",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        "ω": "w",
        "μ": "u",
        "ϲ": "c",
        # Latin and digits that read alike
        "0": "o",
        "1": "l",
        "i": "l",
        "ı": "l",
        "|": "l",
        "5": "s",
        "ß": "ss",
        "ɡ": "g",
        "ɑ": "a",
    }
)


def name_key(name: str) -> str:
    """The form two names are compared in for uniqueness: compatibility forms folded (NFKC:
    fullwidth Ａ is A), case folded, accents and every space, dot, dash or invisible mark
    dropped ("A nna", "Änna" are Anna), letters of other scripts that look Latin mapped to
    them (Cyrillic А is A), and "rn" read as "m"."""
    import unicodedata

    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(
        c for c in unicodedata.normalize("NFKD", text) if unicodedata.category(c)[0] not in ("M", "Z", "C", "P")
    )
    return text.translate(_LOOK_ALIKES).replace("rn", "m").replace("vv", "w")


class SqliteClubStore:
    """:class:`ClubStore` in one SQLite file (WAL) in the server's data folder."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / DB_NAME
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            self.path.chmod(0o600)
        except OSError:
            pass
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._fold_names()

    def _fold_names(self) -> None:
        """Players kept under an older comparison get their name key (look-alikes found by
        the rule of :func:`name_key` stay with whoever was first)."""
        rows = self.db.execute("SELECT id, name, folded FROM players").fetchall()
        for pid, name, folded in rows:
            key = name_key(name)
            if key != folded:
                try:
                    with self.db:
                        self.db.execute("UPDATE players SET folded = ? WHERE id = ?", (key, pid))
                except sqlite3.IntegrityError:
                    pass

    # ---- players
    def create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        try:
            with self.db:
                cur = self.db.execute(
                    "INSERT INTO players (name, folded, secret_sha256, recovery_sha256, created) VALUES (?,?,?,?,?)",
                    (name, name_key(name), secret_hash, recovery_hash, time.time()),
                )
        except sqlite3.IntegrityError:
            return None
        if cur.lastrowid is None:  # an INSERT always sets it
            raise sqlite3.DatabaseError("the new player has no row id")
        return Player(int(cur.lastrowid), name)

    def player_by_secret(self, secret_hash: str) -> Player | None:
        row = self.db.execute("SELECT id, name FROM players WHERE secret_sha256 = ?", (secret_hash,)).fetchone()
        return Player(row[0], row[1]) if row else None

    def player_by_name(self, name: str) -> Player | None:
        row = self.db.execute("SELECT id, name FROM players WHERE folded = ?", (name_key(name),)).fetchone()
        return Player(row[0], row[1]) if row else None

    def player_name(self, player: int) -> str | None:
        row = self.db.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
        return row[0] if row else None

    def recover(self, name: str, recovery_hash: str, secret_hash: str, new_recovery_hash: str) -> Player | None:
        import hmac

        row = self.db.execute(
            "SELECT id, name, recovery_sha256 FROM players WHERE folded = ?", (name_key(name),)
        ).fetchone()
        if row is None or not hmac.compare_digest(row[2], recovery_hash):
            return None
        with self.db:
            self.db.execute(
                "UPDATE players SET secret_sha256 = ?, recovery_sha256 = ? WHERE id = ?",
                (secret_hash, new_recovery_hash, row[0]),
            )
        return Player(row[0], row[1])

    # ---- ratings and matches
    def rating(self, subject: str, game: str) -> Rating | None:
        row = self.db.execute(
            "SELECT mu, sigma, matches FROM ratings WHERE subject = ? AND game = ?", (subject, game)
        ).fetchone()
        return Rating(row[0], row[1], row[2]) if row else None

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
        with self.db:
            self._insert_match(code, game, preset, rated, summary, players, ratings)

    def _insert_match(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        summary: JsonObject,
        players: list[tuple[int, int, str, float | None, float | None]],
        ratings: dict[str, Rating],
    ) -> None:
        cur = self.db.execute(
            "INSERT OR IGNORE INTO matches (code, game, preset, rated, finished, summary) VALUES (?,?,?,?,?,?)",
            (code, game, preset, int(rated), time.time(), json.dumps(summary)),
        )
        if cur.rowcount == 0:
            return  # rated once (a resumed server may finish the same table's end again)
        self.db.executemany(
            "INSERT INTO match_players (code, player, seat, result, old, new) VALUES (?,?,?,?,?,?)",
            [(code, p, s, res, old, new) for p, s, res, old, new in players],
        )
        self.db.executemany(
            "INSERT INTO ratings (subject, game, mu, sigma, matches) VALUES (?,?,?,?,?) "
            "ON CONFLICT (subject, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "matches = excluded.matches",
            [(subject, game, r.mu, r.sigma, r.matches) for subject, r in ratings.items()],
        )

    def rate_match(
        self,
        code: str,
        game: str,
        preset: str | None,
        rated: bool,
        subjects: list[str],
        settle: Callable[[dict[str, Rating | None]], tuple[JsonObject, list, dict[str, Rating]]],
    ) -> tuple[JsonObject, list, dict[str, Rating]] | None:
        self.db.execute("BEGIN IMMEDIATE")  # the write lock first: no other writer between read and write
        try:
            if self.db.execute("SELECT 1 FROM matches WHERE code = ?", (code,)).fetchone() is not None:
                self.db.execute("ROLLBACK")
                return None
            settled = settle({s: self.rating(s, game) for s in subjects})
            summary, players, ratings = settled
            self._insert_match(code, game, preset, rated, summary, players, ratings)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return settled

    def recent_matches(self, player: int, limit: int = 20) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT m.code, m.game, m.preset, m.rated, m.finished, m.summary, mp.seat, mp.result, mp.old, mp.new "
            "FROM match_players mp JOIN matches m ON m.code = mp.code WHERE mp.player = ? "
            "ORDER BY m.finished DESC LIMIT ?",
            (player, limit),
        ).fetchall()
        return [
            {
                "code": r[0],
                "game": r[1],
                "preset": r[2],
                "rated": bool(r[3]),
                "finished": r[4],
                "summary": json.loads(r[5]),
                "seat": r[6],
                "result": r[7],
                "old": None if r[8] is None else round(r[8]),
                "new": None if r[9] is None else round(r[9]),
            }
            for r in rows
        ]

    def finished_match(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM matches WHERE code = ?", (code,)).fetchone() is not None

    def leaderboard(self, game: str, min_matches: int, limit: int = 100) -> list[dict[str, Any]]:
        """Players (not pairs) by their displayed rating (mu - 3 sigma), the provisional after."""
        rows = self.db.execute(
            "SELECT p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON r.subject = 'p:' || p.id "
            "WHERE r.game = ? ORDER BY (r.matches >= ?) DESC, r.mu - 3 * r.sigma DESC, p.folded LIMIT ?",
            (game, min_matches, limit),
        ).fetchall()
        return [{"name": r[0], "mu": r[1], "sigma": r[2], "matches": r[3]} for r in rows]

    # ---- manners
    def block(self, player: int, other: int) -> None:
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO blocks (player, other) VALUES (?,?)", (player, other))

    def blocked(self, player: int) -> set[int]:
        rows = self.db.execute(
            "SELECT other FROM blocks WHERE player = ? UNION SELECT player FROM blocks WHERE other = ?",
            (player, player),
        ).fetchall()
        return {r[0] for r in rows}

    def report(self, reporter: int, reported: int, code: str | None, reason: str) -> None:
        with self.db:
            self.db.execute(
                "INSERT INTO reports (reporter, reported, code, reason, at) VALUES (?,?,?,?,?)",
                (reporter, reported, code, reason, time.time()),
            )

    def reports(self) -> list[JsonObject]:
        rows = self.db.execute("SELECT reporter, reported, code, reason, at FROM reports ORDER BY id").fetchall()
        return [{"reporter": r[0], "reported": r[1], "code": r[2], "reason": r[3], "at": r[4]} for r in rows]

    def close(self) -> None:
        self.db.close()


__all__ = ["ClubStore", "DB_NAME", "Player", "Rating", "SqliteClubStore", "new_recovery_code", "normal_recovery"]
