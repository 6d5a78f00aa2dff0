"""Where the events are kept: :class:`EventStore`, one small interface with two kinds of row.

- **An event** (``events``): its id (``tod:2026-12-07:briscola:standard``, ``arena:…``,
  ``swiss:…``, ``challenge:…``), kind, creator (``p:<id>``, or None for the server's own),
  creation time and its whole state as one JSON object with a **version**. A change is
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

    def events(self, kind: str | None = None) -> list[StoredEvent]:
        """Every event (of ``kind``), oldest first."""

    def count_created(self, creator: str, kind: str, since: dt.datetime) -> int:
        """Events of ``kind`` made by ``creator`` at or after ``since`` (the quotas)."""

    def put(self, event_id: str, player: str, item: str, value: JsonObject, at: dt.datetime) -> bool:
        """Write an entry once; False when (event, player, item) exists (nothing changes)."""

    def entries(self, event_id: str, player: str | None = None) -> list[Entry]:
        """The event's entries (of ``player``), in the order they were written."""

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


SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, creator TEXT, created TEXT NOT NULL,
    state TEXT NOT NULL, version INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_creator ON events (creator, kind, created);
CREATE TABLE IF NOT EXISTS event_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, player TEXT NOT NULL, item TEXT NOT NULL,
    value TEXT NOT NULL, at TEXT NOT NULL, UNIQUE (event, player, item));
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

    def create(self, event_id: str, kind: str, creator: str | None, state: JsonObject, at: dt.datetime) -> bool:
        with self._lock, self.db:
            cur = self.db.execute(
                "INSERT OR IGNORE INTO events (id, kind, creator, created, state, version) VALUES (?,?,?,?,?,1)",
                (event_id, kind, creator, iso(at), json.dumps(state)),
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
                "UPDATE events SET state = ?, version = version + 1 WHERE id = ? AND version = ?",
                (json.dumps(state), event_id, version),
            )
            return cur.rowcount == 1

    def events(self, kind: str | None = None) -> list[StoredEvent]:
        sql = "SELECT id, kind, creator, created, state, version FROM events"
        with self._lock:
            if kind is None:
                rows = self.db.execute(sql + " ORDER BY created, id").fetchall()
            else:
                rows = self.db.execute(sql + " WHERE kind = ? ORDER BY created, id", (kind,)).fetchall()
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

    def close(self) -> None:
        with self._lock:
            self.db.close()


def _event(row: tuple) -> StoredEvent:
    return StoredEvent(row[0], row[1], row[2], row[3], json.loads(row[4]), int(row[5]))


__all__ = ["Entry", "EventStore", "EventStoreError", "SqliteEventStore", "StoredEvent", "change"]
