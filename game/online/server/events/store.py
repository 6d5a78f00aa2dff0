"""Where the events are kept: :class:`EventStore`, one small interface with two kinds of row.

- **An event** (``events``): its id (``tod:2026-12-07:briscola:standard``, ``arena:…``,
  ``swiss:…``, ``challenge:…``), kind, creator (``p:<id>``, or None for the server's own),
  creation time and its whole state as one JSON object with a **version**, and whether it is
  **finished** (the state's ``finished`` flag, kept in a column of its own and indexed: the
  events' loop reads only the unfinished ones, :meth:`EventStore.events` with
  ``unfinished=True``, so its read stays small however many events the club has held). A change is
  read, changed and written back only if the version is still the one read
  (:func:`change`, compare-and-set), so two processes (the cluster) never overwrite each
  other's change: the loser reads again and applies its change to the winner's state.
- **An entry** (``event_entries``): one fact of one player in one event, written once and
  never changed — a tournament of the day's entry, a deal begun, a deal's result. The key
  (event, player, item) is the database's: a second entry, even from another process at the
  same moment, is refused by the database itself (one entry per account, one result per deal).

Every write is one transaction, committed before the caller is answered: a process killed
with SIGKILL at any moment leaves every acknowledged change and nothing half-written
(:class:`SqliteEventStore`: WAL, ``synchronous=NORMAL``, which loses nothing on a process
crash; the PostgreSQL store, game.online.server.events.pgstore, for the cluster).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from game.online.server.events.common import iso
from game.rules.vocabulary import JsonObject

DB_NAME = "events.sqlite3"
#: Tries of a change that keeps losing the race to other writers before it gives up.
CHANGE_TRIES = 50

_R = TypeVar("_R")


class EventStoreError(RuntimeError):
    """The store could not apply a change (one line)."""


@dataclass(frozen=True)
class StoredEvent:
    id: str
    kind: str
    creator: str | None
    created: str
    state: JsonObject
    version: int


@dataclass(frozen=True)
class Entry:
    event: str
    player: str
    item: str
    value: JsonObject
    at: str


class EventStore(Protocol):
    """What the events keep beyond one process (see the module). Times are ISO texts of the
    server's clock (:func:`game.online.server.events.common.iso`)."""

    def create(self, event_id: str, kind: str, creator: str | None, state: JsonObject, at: dt.datetime) -> bool:
        """A new event (version 1); False when ``event_id`` exists (nothing changes)."""

    def load(self, event_id: str) -> StoredEvent | None: ...

    def save(self, event_id: str, state: JsonObject, version: int) -> bool:
        """Write ``state`` as version ``version + 1`` if the stored version is ``version``."""

    def events(self, kind: str | None = None, unfinished: bool = False) -> list[StoredEvent]:
        """Every event (of ``kind``; only those whose state is not ``finished`` when
        ``unfinished``), oldest first."""

    def count_created(self, creator: str, kind: str, since: dt.datetime) -> int:
        """Events of ``kind`` made by ``creator`` at or after ``since`` (the quotas)."""

    def put(self, event_id: str, player: str, item: str, value: JsonObject, at: dt.datetime) -> bool:
        """Write an entry once; False when (event, player, item) exists (nothing changes)."""

    def entries(self, event_id: str, player: str | None = None) -> list[Entry]:
        """The event's entries (of ``player``), in the order they were written."""

    def keep_record(self, code: str, text: str, at: dt.datetime) -> None:
        """Keep the record (JSON Lines) of table ``code`` (a cluster's tournament deals: any
        process answers for it); a second keep of one code changes nothing."""

    def record(self, code: str) -> str | None:
        """The record kept for table ``code``, or None."""

    def close(self) -> None: ...


def change(store: EventStore, event_id: str, fn: Callable[[JsonObject], tuple[JsonObject, _R]]) -> _R:
    """Apply ``fn`` (the state read → the state to write and what to answer) under
    compare-and-set, again on the newer state while another writer wins; an
    :class:`~game.online.server.events.common.EventRefusal` from ``fn`` writes nothing."""
    for _ in range(CHANGE_TRIES):
        stored = store.load(event_id)
        if stored is None:
            raise KeyError(event_id)
        state, answer = fn(json.loads(json.dumps(stored.state)))
        if store.save(event_id, state, stored.version):
            return answer
    raise EventStoreError(f"{event_id}: too many writers at once, try again")


def finished(state: JsonObject) -> bool:
    """Whether an event's state says it is over (its ``finished`` flag: the store's column)."""
    return state.get("finished") is True


SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, creator TEXT, created TEXT NOT NULL,
    state TEXT NOT NULL, version INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS events_by_creator ON events (creator, kind, created);
CREATE TABLE IF NOT EXISTS event_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, player TEXT NOT NULL, item TEXT NOT NULL,
    value TEXT NOT NULL, at TEXT NOT NULL, UNIQUE (event, player, item));
CREATE TABLE IF NOT EXISTS event_records (code TEXT PRIMARY KEY, record TEXT NOT NULL, at TEXT NOT NULL);
"""
#: Made after the migration (a file of before has no ``finished`` column until it runs).
INDEXES = """
CREATE INDEX IF NOT EXISTS events_unfinished ON events (kind, created, id) WHERE finished = 0;
"""


class SqliteEventStore:
    """:class:`EventStore` in ``DIR/events.sqlite3`` (WAL), beside the club's players."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / DB_NAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        try:
            self.path.chmod(0o600)
        except OSError:
            pass
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self._migrate()
        self.db.executescript(INDEXES)

    def _migrate(self) -> None:
        """A file made before the ``finished`` column: the column added, filled from the states."""
        if "finished" in self._columns():
            return
        self.db.execute("BEGIN IMMEDIATE")  # another process opening the file waits, then finds it done
        try:
            if "finished" not in self._columns():
                self.db.execute("ALTER TABLE events ADD COLUMN finished INTEGER NOT NULL DEFAULT 0")
                rows = self.db.execute("SELECT id, state FROM events").fetchall()
                done = [(r[0],) for r in rows if finished(json.loads(r[1]))]
                self.db.executemany("UPDATE events SET finished = 1 WHERE id = ?", done)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _columns(self) -> set[str]:
        return {str(r[1]) for r in self.db.execute("PRAGMA table_info(events)")}

    def create(self, event_id: str, kind: str, creator: str | None, state: JsonObject, at: dt.datetime) -> bool:
        with self._lock, self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO events (id, kind, creator, created, state, version, finished) "
                "VALUES (?,?,?,?,?,1,?)",
                (event_id, kind, creator, iso(at), json.dumps(state), int(finished(state))),
            )
            return cur.rowcount == 1

    def load(self, event_id: str) -> StoredEvent | None:
        with self._lock:
            row = self.db.execute(
                "SELECT id, kind, creator, created, state, version FROM events WHERE id = ?", (event_id,)
            ).fetchone()
        return _event(row) if row else None

    def save(self, event_id: str, state: JsonObject, version: int) -> bool:
        with self._lock, self.db:
            cur = self.db.execute(
                "UPDATE events SET state = ?, version = version + 1, finished = ? WHERE id = ? AND version = ?",
                (json.dumps(state), int(finished(state)), event_id, version),
            )
            return cur.rowcount == 1

    def events(self, kind: str | None = None, unfinished: bool = False) -> list[StoredEvent]:
        where, args = _where(kind, unfinished, "?")
        sql = "SELECT id, kind, creator, created, state, version FROM events" + where + " ORDER BY created, id"
        with self._lock:
            rows = self.db.execute(sql, args).fetchall()
        return [_event(r) for r in rows]

    def count_created(self, creator: str, kind: str, since: dt.datetime) -> int:
        with self._lock:
            row = self.db.execute(
                "SELECT COUNT(*) FROM events WHERE creator = ? AND kind = ? AND created >= ?",
                (creator, kind, iso(since)),
            ).fetchone()
        return int(row[0])

    def put(self, event_id: str, player: str, item: str, value: JsonObject, at: dt.datetime) -> bool:
        with self._lock, self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO event_entries (event, player, item, value, at) VALUES (?,?,?,?,?)",
                (event_id, player, item, json.dumps(value), iso(at)),
            )
            return cur.rowcount == 1

    def entries(self, event_id: str, player: str | None = None) -> list[Entry]:
        sql = "SELECT event, player, item, value, at FROM event_entries WHERE event = ?"
        with self._lock:
            if player is None:
                rows = self.db.execute(sql + " ORDER BY seq", (event_id,)).fetchall()
            else:
                rows = self.db.execute(sql + " AND player = ? ORDER BY seq", (event_id, player)).fetchall()
        return [Entry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def keep_record(self, code: str, text: str, at: dt.datetime) -> None:
        with self._lock, self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO event_records (code, record, at) VALUES (?,?,?)", (code, text, iso(at))
            )

    def record(self, code: str) -> str | None:
        with self._lock:
            row = self.db.execute("SELECT record FROM event_records WHERE code = ?", (code,)).fetchone()
        return str(row[0]) if row else None

    def close(self) -> None:
        with self._lock:
            self.db.close()


def _where(kind: str | None, unfinished: bool, mark: str) -> tuple[str, tuple[str, ...]]:
    """The WHERE clause of :meth:`EventStore.events` (``mark``: the driver's placeholder) and its
    arguments; ``finished = 0`` is what the partial index covers (in SQLite and PostgreSQL)."""
    terms, args = [], []
    if kind is not None:
        terms.append(f"kind = {mark}")
        args.append(kind)
    if unfinished:
        terms.append("finished = 0")
    return (" WHERE " + " AND ".join(terms) if terms else ""), tuple(args)


def _event(row: tuple) -> StoredEvent:
    return StoredEvent(row[0], row[1], row[2], row[3], json.loads(row[4]), int(row[5]))


__all__ = ["Entry", "EventStore", "EventStoreError", "SqliteEventStore", "StoredEvent", "change", "finished"]
