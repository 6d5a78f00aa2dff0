"""The club's database in PostgreSQL (psycopg 3 and its pool), shared by every ``serve``
process of a cluster: the :class:`game.online.accounts.ClubStore` protocol, each method one
transaction. The schema is the numbered SQL files in ``migrations/`` beside this module,
applied in order at start under an advisory lock (processes starting together do not race)
and recorded in ``schema_migrations``.

A rating update reads the ratings it changes with ``SELECT … FOR UPDATE`` (the rows made
first when new, in one order, so two transactions never deadlock) and writes them in the same
transaction: two processes finishing two matches of one player at once never lose an update.

The database never stops the event loop (a stopped or frozen PostgreSQL once held every
player's ping for seconds, and the lease renewal with it):

- every call made on the event loop runs in a thread (:func:`_guarded`); the loop waits for
  its answer at most ``LOOP_WAIT``, then answers "try again" (StoreError) and marks the
  database away: until a probe in a thread reaches it again, calls fail at once, a rating
  shown on a plate comes from the last one read (or none);
- every connection has a connect timeout, a ``statement_timeout``, a lock timeout and TCP
  keepalives, so a thread waits on a reachable but stuck server for seconds, not forever;
- a finished match goes to an *outbox*: a thread stores it, retrying with backoff until the
  database takes it (the match's code is its key: rated once, whoever stores it); the
  cluster notes it in Redis too (game.online.cluster.node, ``cv:unrated``), so that a match
  whose process dies first is rated by another.

Called from a thread (the outbox, the tests, tools) the methods simply run.
"""
from __future__ import annotations

import asyncio
import functools
import hmac
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from game.online.accounts import Player, Rating, name_key
from game.online.store import StoreError

log = logging.getLogger("cardavia.server")

MIGRATIONS = Path(__file__).with_name("migrations")
#: One number for the advisory lock that serialises migrations across processes.
MIGRATION_LOCK = 7_420_001
POOL_MIN, POOL_MAX = 1, 8
#: The longest the event loop waits for the database (seconds): a seated player's ping
#: waits behind it, so it is short; a query on a healthy database takes a few ms.
LOOP_WAIT = 0.3
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
#: The outbox's waits between tries: from the first, doubling up to the last (seconds).
RETRY_FIRST, RETRY_LAST = 0.25, 15.0


class DatabaseAway(StoreError):
    """The club's database cannot be reached or did not answer in time: try again later."""


def _on_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A database method: run as is from a thread; from the event loop, in a thread with a
    bounded wait (:meth:`PgClubStore._ask`)."""
    @functools.wraps(fn)
    def call(self: PgClubStore, *args: Any, **kwargs: Any) -> Any:
        if not _on_loop():
            return fn(self, *args, **kwargs)
        return self._ask(functools.partial(fn, self, *args, **kwargs))

    call.guarded = True  # type: ignore[attr-defined]
    return call


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, Path]]:
    """The migrations in order: (number, file) for every ``NNN_name.sql``."""
    out = []
    for path in folder.glob("*.sql"):
        m = re.fullmatch(r"(\d{3})_[a-z0-9_]+\.sql", path.name)
        if m:
            out.append((int(m.group(1)), path))
    return sorted(out)


class _Threads:
    """A few daemon threads that run the database's calls. Not a ThreadPoolExecutor: its
    threads are joined when the process exits, and one stuck on a hung database would hold
    the exit of ``serve`` (SIGTERM) for as long as the database hangs."""

    def __init__(self, count: int, name: str):
        import queue

        self.count = count
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        for i in range(count):
            threading.Thread(target=self._run, name=f"{name}-{i}", daemon=True).start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        self.jobs.put((future, fn, args))
        return future

    def _run(self) -> None:
        while True:
            item = self.jobs.get()
            if item is None:
                return
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as e:  # noqa: BLE001 - handed to whoever waits
                future.set_exception(e)

    def shutdown(self) -> None:
        for _ in range(self.count):
            self.jobs.put(None)


class _Job:
    """A finished match on its way to the database (the outbox's entry)."""

    def __init__(self, args: tuple, settle: Callable[..., Any]):
        self.args, self.settle = args, settle
        self.future: Future = Future()


class PgClubStore:
    """:class:`ClubStore` in PostgreSQL at ``url`` (postgresql://user@host:port/db).

    Every method that reads or writes the database is marked :func:`_guarded` (or handles
    the event loop itself, as :meth:`rating` and :meth:`rate_match`): a new one must be too
    (tests/cluster checks that the event loop never runs one)."""

    #: Told of each match that enters and leaves the outbox (game.online.cluster.node):
    #: ``queued(code)`` on the event loop, ``stored(code)`` from the outbox's thread.
    journal: Any = None

    def __init__(self, url: str, pool_max: int = POOL_MAX, loop_wait: float = LOOP_WAIT):
        import psycopg
        from psycopg_pool import ConnectionPool

        self.errors = (psycopg.Error, OSError)
        self.loop_wait = loop_wait
        #: The database did not answer the last call (until a probe reaches it again).
        self.down = False
        self.outbox: OrderedDict[str, _Job] = OrderedDict()
        self._ratings: OrderedDict[tuple[str, str], tuple[Rating | None, float]] = OrderedDict()
        self._blocks: OrderedDict[int, set[int]] = OrderedDict()
        self._closed = False
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._probing = False
        settings = (f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={LOCK_TIMEOUT_MS} "
                    f"-c idle_in_transaction_session_timeout={3 * STATEMENT_TIMEOUT_MS}")
        kwargs = {"connect_timeout": CONNECT_TIMEOUT, "options": settings, "keepalives": 1, "keepalives_idle": 5,
                  "keepalives_interval": 2, "keepalives_count": 3, "tcp_user_timeout": 10_000}
        try:
            self.pool = ConnectionPool(url, min_size=POOL_MIN, max_size=pool_max, timeout=CONNECT_TIMEOUT, open=False,
                                       kwargs=kwargs, check=ConnectionPool.check_connection, name="cardavia-club")
            self.pool.open(wait=True, timeout=10.0)
            self.migrate()
            self._fold_names()
        except Exception as e:  # noqa: BLE001 - psycopg's and the pool's errors: one line
            raise StoreError(f"cannot use the database ({type(e).__name__}: {str(e).strip().splitlines()[0]})") from None
        self.threads = _Threads(pool_max, "cardavia-db")
        self._outbox_thread = threading.Thread(target=self._outbox_run, name="cardavia-db-outbox", daemon=True)
        self._outbox_thread.start()

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

    # ---- the event loop's side
    def _ask(self, call: Callable[[], Any], undo: Callable[[Any], None] | None = None) -> Any:
        """``call()`` in a thread; the loop waits at most ``loop_wait``. DatabaseAway when the
        database is away (at once) or does not answer in time; ``undo(result)`` then runs in
        a thread if the call still succeeds later (nobody was told of it)."""
        if self.down:
            raise DatabaseAway("the club's database cannot be reached just now: try again in a moment")
        future = self.threads.submit(call)
        try:
            return future.result(self.loop_wait)
        except FutureTimeout:
            self._away(f"no answer within {self.loop_wait:g} s")
            if undo is not None:
                future.add_done_callback(lambda f: self.threads.submit(self._undo, f, undo))
            raise DatabaseAway("the club's database is slow to answer: try again in a moment") from None
        except self.errors as e:
            self._away(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
            raise DatabaseAway("the club's database cannot be reached just now: try again in a moment") from None

    @staticmethod
    def _undo(future: Future, undo: Callable[[Any], None]) -> None:
        try:
            result = future.result()
            if result is not None:
                undo(result)
        except Exception as e:  # noqa: BLE001 - it failed after all: nothing to undo
            log.debug("nothing to undo: %s", e)

    def _away(self, why: str) -> None:
        """The database failed a call: fail fast until a probe reaches it again."""
        with self._lock:
            if not self.down:
                log.error("the club's database cannot be used (%s): accounts wait, results are kept to store", why)
            self.down = True
            if self._probing or self._closed:
                return
            self._probing = True
        threading.Thread(target=self._probe, name="cardavia-db-probe", daemon=True).start()

    def _probe(self) -> None:
        wait = RETRY_FIRST
        while not self._closed:
            time.sleep(wait)
            try:
                with self.pool.connection(timeout=CONNECT_TIMEOUT) as db:
                    db.execute("SELECT 1")
            except Exception:  # noqa: BLE001 - still away
                wait = min(RETRY_LAST / 3, wait * 2)
                continue
            with self._lock:  # both at once: a failure right after starts a new probe
                self.down = False
                self._probing = False
            log.warning("the club's database answers again")
            self._wake.set()
            return
        with self._lock:
            self._probing = False

    # ---- players
    # A new account or a new secret the player was never told of (the loop gave up waiting,
    # the database answered later) is taken back: else the name, or the account, is lost.
    def create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        if not _on_loop():
            return self._create_player(name, secret_hash, recovery_hash)
        return self._ask(functools.partial(self._create_player, name, secret_hash, recovery_hash),
                         undo=self._uncreate)

    create_player.guarded = True  # type: ignore[attr-defined]

    def _uncreate(self, player: Player) -> None:
        with self.pool.connection() as db:
            db.execute("DELETE FROM players WHERE id = %s AND NOT EXISTS "
                       "(SELECT 1 FROM match_players WHERE player = %s)", (player.id, player.id))

    def _create_player(self, name: str, secret_hash: str, recovery_hash: str) -> Player | None:
        import psycopg

        try:
            with self.pool.connection() as db:
                row = db.execute(
                    "INSERT INTO players (name, folded, secret_sha256, recovery_sha256, created) "
                    "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                    (name, name_key(name), secret_hash, recovery_hash, time.time())).fetchone()
        except psycopg.errors.UniqueViolation:
            return None
        return Player(int(row[0]), name)

    def _one(self, sql: str, args: tuple) -> Any:
        with self.pool.connection() as db:
            return db.execute(sql, args).fetchone()

    @_guarded
    def player_by_secret(self, secret_hash: str) -> Player | None:
        row = self._one("SELECT id, name FROM players WHERE secret_sha256 = %s", (secret_hash,))
        return Player(int(row[0]), row[1]) if row else None

    @_guarded
    def player_by_name(self, name: str) -> Player | None:
        row = self._one("SELECT id, name FROM players WHERE folded = %s", (name_key(name),))
        return Player(int(row[0]), row[1]) if row else None

    @_guarded
    def player_name(self, player: int) -> str | None:
        row = self._one("SELECT name FROM players WHERE id = %s", (player,))
        return row[0] if row else None

    def recover(self, name: str, recovery_hash: str, secret_hash: str, new_recovery_hash: str) -> Player | None:
        if not _on_loop():
            done = self._recover(name, recovery_hash, secret_hash, new_recovery_hash)
        else:
            done = self._ask(functools.partial(self._recover, name, recovery_hash, secret_hash, new_recovery_hash),
                             undo=self._unrecover)
        return done[0] if done is not None else None

    recover.guarded = True  # type: ignore[attr-defined]

    def _recover(self, name: str, recovery_hash: str, secret_hash: str, new_recovery_hash: str,
                 ) -> tuple[Player, str, str, str] | None:
        """(the player, the new secret's hash, the old secret's and recovery code's hashes)."""
        with self.pool.connection() as db, db.transaction():
            row = db.execute("SELECT id, name, recovery_sha256, secret_sha256 FROM players WHERE folded = %s "
                             "FOR UPDATE", (name_key(name),)).fetchone()
            if row is None or not hmac.compare_digest(row[2], recovery_hash):
                return None
            db.execute("UPDATE players SET secret_sha256 = %s, recovery_sha256 = %s WHERE id = %s",
                       (secret_hash, new_recovery_hash, row[0]))
        return Player(int(row[0]), row[1]), secret_hash, row[3], row[2]

    def _unrecover(self, done: tuple[Player, str, str, str]) -> None:
        player, new_secret, old_secret, old_recovery = done
        with self.pool.connection() as db:
            db.execute("UPDATE players SET secret_sha256 = %s, recovery_sha256 = %s WHERE id = %s AND secret_sha256 = %s",
                       (old_secret, old_recovery, player.id, new_secret))

    # ---- ratings and matches
    def rating(self, subject: str, game: str) -> Rating | None:
        """From the event loop: the rating read within RATING_FRESH, else asked for (bounded);
        the database away, the last one read or None (a plate shows no rating for a while)."""
        if not _on_loop():
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

    rating.guarded = True  # type: ignore[attr-defined]

    def _rating(self, subject: str, game: str) -> Rating | None:
        row = self._one("SELECT mu, sigma, matches FROM ratings WHERE subject = %s AND game = %s", (subject, game))
        return Rating(row[0], row[1], row[2]) if row else None

    def _remember_rating(self, key: tuple[str, str], r: Rating | None) -> None:
        with self._lock:  # the loop and the outbox's thread both remember
            self._ratings.pop(key, None)
            self._ratings[key] = (r, time.monotonic())
            while len(self._ratings) > CACHE_ENTRIES:
                self._ratings.popitem(last=False)

    @_guarded
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
        """From a thread: one transaction, as the protocol says. From the event loop: the
        match goes to the outbox, and the loop waits at most ``loop_wait`` for it to be
        stored (then settle's result, as from a thread); None when it is stored later (or was
        rated before)."""
        if not _on_loop():
            return self._rate_match(code, game, preset, rated, subjects, settle)
        job = _Job((code, game, preset, rated, subjects), settle)
        if self.journal is not None:
            self.journal.queued(code)
        with self._lock:
            self.outbox[code] = job
            waiting = len(self.outbox)
        self._wake.set()
        if self.down or waiting > 1:
            return None  # the outbox is busy or the database away: stored in its turn
        try:
            return job.future.result(self.loop_wait)
        except FutureTimeout:  # slow or away: the next calls do not wait until a probe says
            self._away(f"no answer within {self.loop_wait:g} s")
            return None
        except Exception:  # noqa: BLE001 - settle's own bug, logged by the outbox
            return None

    rate_match.guarded = True  # type: ignore[attr-defined]

    def _rate_match(self, code: str, game: str, preset: str | None, rated: bool, subjects: list[str],
                    settle: Callable[[dict[str, Rating | None]], tuple[dict[str, Any], list, dict[str, Rating]]],
                    ) -> tuple[dict[str, Any], list, dict[str, Rating]] | None:
        try:
            return self._rate_once(code, game, preset, rated, subjects, settle)
        except _RatedBefore:
            return None

    def _rate_once(self, code: str, game: str, preset: str | None, rated: bool, subjects: list[str],
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
                raise _RatedBefore  # stored meanwhile by another: nothing of this one is kept
            # Placeholders of an unrated match are not ratings.
            db.execute("DELETE FROM ratings WHERE game = %s AND matches < 0", (game,))
        return settled

    def _outbox_run(self) -> None:
        """Store the outbox's matches in order, one transaction each; the database away, try
        again after a wait that doubles (or as soon as a probe reaches it)."""
        wait = RETRY_FIRST
        while not self._closed:
            self._wake.wait(wait if self.outbox else None)
            self._wake.clear()
            while self.outbox and not self._closed:
                with self._lock:
                    code, job = next(iter(self.outbox.items()))
                try:
                    settled = self._rate_match(code, *job.args[1:], job.settle)
                except self.errors as e:
                    self._away(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
                    wait = min(RETRY_LAST, wait * 2)
                    break
                except Exception as e:  # noqa: BLE001 - settle's bug: this match cannot be rated
                    log.exception("table %s: the match could not be rated", code)
                    settled, failed = None, e
                else:
                    failed = None
                    wait = RETRY_FIRST
                if settled is not None:
                    game = job.args[1]
                    for subject, r in settled[2].items():
                        self._remember_rating((subject, game), r)
                if self.journal is not None:  # the note first: while in the outbox nobody rates it again
                    try:
                        self.journal.stored(code)
                    except Exception:  # noqa: BLE001 - the note stays: the database rates a code once
                        log.exception("table %s: its note in the journal could not be removed", code)
                with self._lock:
                    if self.outbox.get(code) is job:
                        del self.outbox[code]
                if failed is not None:
                    job.future.set_exception(failed)
                else:
                    job.future.set_result(settled)

    @_guarded
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

    @_guarded
    def finished_match(self, code: str) -> bool:
        return self._one("SELECT 1 FROM matches WHERE code = %s", (code,)) is not None

    @_guarded
    def leaderboard(self, game: str, min_matches: int, limit: int = 100) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute(
                "SELECT p.name, r.mu, r.sigma, r.matches FROM ratings r JOIN players p ON r.subject = 'p:' || p.id "
                "WHERE r.game = %s AND r.matches >= 0 ORDER BY (r.matches >= %s) DESC, r.mu - 3 * r.sigma DESC, "
                "p.folded LIMIT %s", (game, min_matches, limit)).fetchall()
        return [{"name": r[0], "mu": r[1], "sigma": r[2], "matches": r[3]} for r in rows]

    # ---- manners
    @_guarded
    def block(self, player: int, other: int) -> None:
        with self.pool.connection() as db:
            db.execute("INSERT INTO blocks (player, other) VALUES (%s, %s) ON CONFLICT DO NOTHING", (player, other))
        for a, b in ((player, other), (other, player)):
            if a in self._blocks:
                self._blocks[a].add(b)

    def blocked(self, player: int) -> set[int]:
        """From the event loop with the database away: the last answer read for ``player``
        (DatabaseAway when there is none: a pairing must not ignore a block)."""
        if not _on_loop():
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

    blocked.guarded = True  # type: ignore[attr-defined]

    def _blocked(self, player: int) -> set[int]:
        with self.pool.connection() as db:
            rows = db.execute("SELECT other FROM blocks WHERE player = %s UNION SELECT player FROM blocks WHERE other = %s",
                              (player, player)).fetchall()
        return {int(r[0]) for r in rows}

    @_guarded
    def report(self, reporter: int, reported: int, code: str | None, reason: str) -> None:
        with self.pool.connection() as db:
            db.execute("INSERT INTO reports (reporter, reported, code, reason, at) VALUES (%s, %s, %s, %s, %s)",
                       (reporter, reported, code, reason, time.time()))

    @_guarded
    def reports(self) -> list[dict[str, Any]]:
        with self.pool.connection() as db:
            rows = db.execute("SELECT reporter, reported, code, reason, at FROM reports ORDER BY id").fetchall()
        return [{"reporter": r[0], "reported": r[1], "code": r[2], "reason": r[3], "at": r[4]} for r in rows]

    def close(self) -> None:
        """Stop the threads (a match still in the outbox stays noted in Redis for another
        process) and close the pool, bounded in time whatever the database does."""
        self._closed = True
        self._wake.set()
        self.threads.shutdown()
        self.pool.close(timeout=2.0)


class _RatedBefore(Exception):
    """The match was stored by another process during this transaction: roll it back."""


__all__ = ["LOOP_WAIT", "DatabaseAway", "MIGRATIONS", "PgClubStore", "migration_files"]
