"""The events store in PostgreSQL, for the cluster (``serve --database URL``): the
:class:`~game.online.server.events.store.EventStore` interface, every method one statement in
its own transaction, on a small psycopg pool. Two processes changing one event race only
through the version (compare-and-set, game.online.server.events.store.change); two writing
one entry at once meet the primary key (one wins, the other is told ``False``).

Its tables (``club_events``, with the ``finished`` column and its partial index as in SQLite
— a schema made before them gets the column, filled from the states, at the next start;
``club_event_entries``; ``club_event_records``: the tournament deals' records, so that any
process answers for one) are made at start under an advisory lock
of their own. The calls block: the server calls them in a thread, as it does the club's
database (game.online.server.cluster.dbguard), never on its event loop.
"""

from __future__ import annotations

import datetime as dt
import json

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from game.online.server.events.common import iso
from game.online.server.events.store import Entry, StoredEvent, finished
from game.rules.vocabulary import JsonObject

#: The advisory lock that serialises making the tables across processes.
SCHEMA_LOCK = 7_420_061
STATEMENT_TIMEOUT_MS = 5000
CONNECT_TIMEOUT = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_events (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, creator TEXT, created TEXT NOT NULL,
    state JSONB NOT NULL, version BIGINT NOT NULL, finished BOOLEAN NOT NULL DEFAULT FALSE);
CREATE INDEX IF NOT EXISTS club_events_by_creator ON club_events (creator, kind, created);
CREATE TABLE IF NOT EXISTS club_event_entries (
    seq BIGSERIAL PRIMARY KEY, event TEXT NOT NULL, player TEXT NOT NULL, item TEXT NOT NULL,
    value JSONB NOT NULL, at TEXT NOT NULL, UNIQUE (event, player, item));
CREATE TABLE IF NOT EXISTS club_event_records (code TEXT PRIMARY KEY, record TEXT NOT NULL, at TEXT NOT NULL);
"""
#: A schema made before the ``finished`` column: the column added and filled from the states.
MIGRATE_FINISHED = """
ALTER TABLE club_events ADD COLUMN finished BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE club_events SET finished = TRUE WHERE state->'finished' = 'true'::jsonb;
"""
HAS_FINISHED = (
    "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
    "AND table_name = 'club_events' AND column_name = 'finished'"
)
INDEXES = "CREATE INDEX IF NOT EXISTS club_events_unfinished ON club_events (kind, created, id) WHERE NOT finished"


class PgEventStore:
    """:class:`~game.online.server.events.store.EventStore` in the cluster's PostgreSQL."""

    def __init__(self, url: str, max_size: int = 4):
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={
                "autocommit": True,
                "connect_timeout": CONNECT_TIMEOUT,
                "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            },
            open=True,
        )
        with self.pool.connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            db.execute(SCHEMA)
            if db.execute(HAS_FINISHED).fetchone() is None:
                db.execute(MIGRATE_FINISHED)
            db.execute(INDEXES)

    def create(self, event_id: str, kind: str, creator: str | None, state: JsonObject, at: dt.datetime) -> bool:
        with self.pool.connection() as db:
            cur = db.execute(
                "INSERT INTO club_events (id, kind, creator, created, state, version, finished) "
                "VALUES (%s,%s,%s,%s,%s,1,%s) ON CONFLICT (id) DO NOTHING",
                (event_id, kind, creator, iso(at), Jsonb(state), finished(state)),
            )
            return cur.rowcount == 1

    def load(self, event_id: str) -> StoredEvent | None:
        with self.pool.connection() as db:
            row = db.execute(
                "SELECT id, kind, creator, created, state, version FROM club_events WHERE id = %s", (event_id,)
            ).fetchone()
        return _event(row) if row else None

    def save(self, event_id: str, state: JsonObject, version: int) -> bool:
        with self.pool.connection() as db:
            cur = db.execute(
                "UPDATE club_events SET state = %s, version = version + 1, finished = %s "
                "WHERE id = %s AND version = %s",
                (Jsonb(state), finished(state), event_id, version),
            )
            return cur.rowcount == 1

    def events(self, kind: str | None = None, unfinished: bool = False) -> list[StoredEvent]:
        terms = (["kind = %s"] if kind is not None else []) + (["NOT finished"] if unfinished else [])
        where = " WHERE " + " AND ".join(terms) if terms else ""
        sql = "SELECT id, kind, creator, created, state, version FROM club_events" + where + " ORDER BY created, id"
        with self.pool.connection() as db:
            rows = db.execute(sql, (kind,) if kind is not None else ()).fetchall()
        return [_event(r) for r in rows]

    def count_created(self, creator: str, kind: str, since: dt.datetime) -> int:
        with self.pool.connection() as db:
            row = db.execute(
                "SELECT COUNT(*) FROM club_events WHERE creator = %s AND kind = %s AND created >= %s",
                (creator, kind, iso(since)),
            ).fetchone()
        return int(row[0]) if row else 0

    def put(self, event_id: str, player: str, item: str, value: JsonObject, at: dt.datetime) -> bool:
        with self.pool.connection() as db:
            cur = db.execute(
                "INSERT INTO club_event_entries (event, player, item, value, at) VALUES (%s,%s,%s,%s,%s) "
                "ON CONFLICT (event, player, item) DO NOTHING",
                (event_id, player, item, Jsonb(value), iso(at)),
            )
            return cur.rowcount == 1

    def entries(self, event_id: str, player: str | None = None) -> list[Entry]:
        sql = "SELECT event, player, item, value, at FROM club_event_entries WHERE event = %s"
        with self.pool.connection() as db:
            if player is None:
                rows = db.execute(sql + " ORDER BY seq", (event_id,)).fetchall()
            else:
                rows = db.execute(sql + " AND player = %s ORDER BY seq", (event_id, player)).fetchall()
        return [Entry(r[0], r[1], r[2], _json(r[3]), r[4]) for r in rows]

    def keep_record(self, code: str, text: str, at: dt.datetime) -> None:
        with self.pool.connection() as db:
            db.execute(
                "INSERT INTO club_event_records (code, record, at) VALUES (%s,%s,%s) ON CONFLICT (code) DO NOTHING",
                (code, text, iso(at)),
            )

    def record(self, code: str) -> str | None:
        with self.pool.connection() as db:
            row = db.execute("SELECT record FROM club_event_records WHERE code = %s", (code,)).fetchone()
        return str(row[0]) if row else None

    def close(self) -> None:
        self.pool.close()


def _json(value: object) -> JsonObject:
    # psycopg reads JSONB back as Python objects; a text form (another adapter) is parsed
    out = json.loads(value) if isinstance(value, str) else value
    if not isinstance(out, dict):
        raise ValueError("a stored event state is not a JSON object")
    return out


def _event(row: tuple) -> StoredEvent:
    return StoredEvent(row[0], row[1], row[2], row[3], _json(row[4]), int(row[5]))


__all__ = ["PgEventStore"]
