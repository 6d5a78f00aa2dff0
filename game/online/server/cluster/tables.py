"""The tables of a cluster in Redis, behind the interface of game.online.server.store.TableStore.

Keys (``cv:`` first, so that a Redis shared with other programs is not trampled):

- ``cv:meta:<CODE>``   the table's meta (JSON, as ``<CODE>.table.json`` on one machine);
- ``cv:lease:<CODE>``  the id of the process that runs the table now, with a time to live
  (LEASE_MS) that the owner renews every few seconds;
- ``cv:record:<CODE>`` the record as a stream: one entry per decision (its events, RECORD.md
  lines), appended with XADD;
- ``cv:open``          the codes of every table not finished or closed (the directory);
- ``cv:broken``        tables set aside because they could not be resumed: code -> why
  (JSON), for the operator; never dropped in silence.

Every write of an owned table runs as one Lua script that first checks the lease: a process
whose lease has expired (and been taken by another) can never append again — the script
refuses and the process lets the table go (:class:`LeaseLost`). A new table is claimed in the
same script that writes its first meta (the code must be new to the cluster).

Redis may come back *behind* (a failover to a late replica, a crash losing its last
writes): each entry names its writer (field ``w``), an append refuses to leave a gap (the
answer ``BEHIND``) and the owner writes the table again whole from memory (:meth:`resync`):
the match it holds has every event, and is the truth.

A finished record is also written to the data folder as ``<CODE>.jsonl`` (for ``verify``,
replays and the ``over`` message), and its stream kept a day.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, Protocol, TypeVar

from game.online.server.store import (
    MAX_LINE,
    META_FORMAT,
    RECORD_SUFFIX,
    LeaseLost,
    StoredTable,
    StoreError,
    record_event,
)
from game.online.wire.protocol import is_code
from game.record import dumps
from game.rules.base import Event
from game.rules.vocabulary import JsonObject
from game.safejson import JSONError, loads
from game.services.storage import write_bytes

#: A table's lease lasts this long unless renewed (the failover bound: at most 10 s).
LEASE_MS = 10_000
#: A finished table's stream and meta stay this long in Redis (the file in DIR stays).
KEEP_FINISHED_S = 86_400
#: Redis calls give up after this long (the event loop must never hang on a lost Redis).
REDIS_TIMEOUT = 0.5

_PREFIX = "cv:"

#: The append's answer when Redis holds less of the record than the owner wrote (it came
#: back behind) or has forgotten the lease of a table this process wrote last.
BEHIND = -2

# The last entry of a record stream: its length after it (n) and its writer (w), or nil.
_LAST = """
local function last(key)
  local entry = redis.call('XREVRANGE', key, '+', '-', 'COUNT', 1)
  if #entry == 0 then return nil, nil end
  local n, w = nil, nil
  local fields = entry[1][2]
  for i = 1, #fields - 1, 2 do
    if fields[i] == 'n' then n = tonumber(fields[i + 1]) elseif fields[i] == 'w' then w = fields[i + 1] end
  end
  return n or 0, w
end
-- Whether this process may take back a table whose lease Redis has forgotten (it came back
-- behind): it wrote the record last, or Redis has neither record nor meta (the table was
-- made in the writes Redis lost: no other process can have it).
local function ours(record, meta, me)
  local _, w = last(record)
  if w ~= nil then return w == me end
  return redis.call('EXISTS', record) == 0 and redis.call('EXISTS', meta) == 0
end
"""
# KEYS: lease, meta, open, record   ARGV: me, meta json, lease ms, code, open (1/0)
_WRITE_META = (
    _LAST
    + """
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then
  if owner then return 0 end
  if redis.call('EXISTS', KEYS[2]) == 1 and not ours(KEYS[4], KEYS[2], ARGV[1]) then return 0 end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
end
redis.call('SET', KEYS[2], ARGV[2])
if ARGV[5] == '1' then redis.call('SADD', KEYS[3], ARGV[4]) else redis.call('SREM', KEYS[3], ARGV[4]) end
return 1
"""
)
# KEYS: lease, record, meta   ARGV: me, mode ('append' | 'start' | 'rewrite'), lease ms,
# before (how many events the record held before these), then the events, one line each.
# (a quick match's table has no meta before it starts: its first record entry claims it)
# Each entry keeps the record's length after it (field n) and its writer (w). An append whose
# reply was lost (Redis applied it, then the connection closed) is sent again with the same
# ``before``: the lines the stream already holds are skipped, so a retry never writes a
# decision twice. A stream holding *fewer* than ``before`` lost writes: BEHIND, never a gap.
_APPEND = (
    _LAST
    + """
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then
  if ARGV[2] == 'start' and (not owner) and redis.call('EXISTS', KEYS[2]) == 0
     and redis.call('EXISTS', KEYS[3]) == 0 then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  elseif ARGV[2] == 'append' and (not owner) and ours(KEYS[2], KEYS[3], ARGV[1]) then
    return -2
  else
    return 0
  end
end
if ARGV[2] == 'start' and redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
if ARGV[2] == 'rewrite' then redis.call('DEL', KEYS[2]) end
local before = tonumber(ARGV[4])
local skip = 0
if ARGV[2] == 'append' then
  local held = last(KEYS[2]) or 0
  if held < before then return -2 end
  if held > before then skip = held - before end
end
local count = #ARGV - 4
if skip >= count then return 1 end
local lines = {}
for i = 5 + skip, #ARGV do lines[#lines + 1] = ARGV[i] .. '\\n' end
redis.call('XADD', KEYS[2], '*', 'd', table.concat(lines), 'n', before + count, 'w', ARGV[1])
return 1
"""
)
# KEYS: lease, record, meta, open   ARGV: me, lease ms, code, meta json, done (1/0), keep s,
# then the record's events -> 1, or 0 when another process holds the table or wrote it last.
# The whole table as its owner holds it in memory, at once: lease, meta, directory, stream.
_RESYNC = (
    _LAST
    + """
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] and (owner or not ours(KEYS[2], KEYS[3], ARGV[1])) then return 0 end
redis.call('SET', KEYS[3], ARGV[4])
redis.call('DEL', KEYS[2])
local count = #ARGV - 6
if count > 0 then
  local lines = {}
  for i = 7, #ARGV do lines[#lines + 1] = ARGV[i] .. '\\n' end
  redis.call('XADD', KEYS[2], '*', 'd', table.concat(lines), 'n', count, 'w', ARGV[1])
end
if ARGV[5] == '1' then
  redis.call('SREM', KEYS[4], ARGV[3])
  redis.call('EXPIRE', KEYS[3], ARGV[6])
  if count > 0 then redis.call('EXPIRE', KEYS[2], ARGV[6]) end
  if owner then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
else
  redis.call('SADD', KEYS[4], ARGV[3])
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 1
"""
)
# KEYS: n leases, then the n tables' records, then their metas   ARGV: me, lease ms
# -> {the indexes (1-based) of the leases no longer ours, those taken back}: a lease Redis
# forgot (it came back behind) is taken back when the table is still ours (see ours()).
_RENEW = (
    _LAST
    + """
local n = #KEYS / 3
local lost, back = {}, {}
for i = 1, n do
  local owner = redis.call('GET', KEYS[i])
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  else
    if (not owner) and ours(KEYS[n + i], KEYS[2 * n + i], ARGV[1]) then
      redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
      table.insert(back, i)
    else
      table.insert(lost, i)
    end
  end
end
return {lost, back}
"""
)
# KEYS: lease   ARGV: me
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# KEYS: open   ARGV: prefix of the leases, how many at most  -> open codes with no lease
_ORPHANS = """
local out = {}
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. code) == 0 then
    table.insert(out, code)
    if #out >= tonumber(ARGV[2]) then break end
  end
end
return out
"""


def connect(url: str) -> Any:
    """A Redis client for ``url`` (redis://host:port/db), short timeouts, checked at once;
    StoreError (one line) when the server cannot be reached."""
    import redis

    try:
        client = redis.Redis.from_url(
            url,
            socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT,
            health_check_interval=0,
            decode_responses=False,
        )
        client.ping()
    except (redis.RedisError, ValueError, OSError) as e:
        raise StoreError(f"cannot reach Redis at {safe_url(url)} ({e})") from None
    return client


def safe_url(url: str) -> str:
    """``url`` without its password, for messages."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        if parts.password:
            return url.replace(f":{parts.password}@", ":***@")
    except ValueError:
        pass
    return url


class RedisAway(StoreError):
    """Redis cannot be reached or did not answer in time (not: a table's data is bad)."""


class Behind(StoreError):
    """Redis holds less of a table than its owner wrote (it came back behind) and the table
    could not be written again from memory here."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


class Keeper(Protocol):
    """What holds the tables in memory (game.online.server.cluster.node.ClusterNode)."""

    def memory(self, code: str) -> list[Event] | None: ...

    def resync(self, code: str) -> bool: ...


class RedisTableStore:
    """The cluster's tables (see the module's docstring); ``me`` is this process's id."""

    #: What holds the tables in memory (game.online.server.cluster.node.ClusterNode): ``memory(code)``
    #: gives a table's record as this process holds it, ``resync(code)`` writes the table
    #: again whole. None: a store on its own (a probe, the tests).
    keeper: Keeper | None = None

    def __init__(self, client: Any, root: Path, me: str | None = None):
        import redis

        self.redis = client
        self.errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)
        self.me = me or uuid.uuid4().hex[:12]
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            raise StoreError(f"cannot use {self.root} for the finished records ({e.strerror or e})") from None
        self._write_meta = client.register_script(_WRITE_META)
        self._append = client.register_script(_APPEND)
        self._renew = client.register_script(_RENEW)
        self._resync = client.register_script(_RESYNC)
        #: Per table, the record lines this process marked (``"by": "computer"``): the events
        #: in memory come from the rules and lack them, a record written again keeps them.
        self.marks: dict[str, dict[int, object]] = {}
        self._release = client.register_script(_RELEASE)
        self._orphans = client.register_script(_ORPHANS)

    # ---- keys
    @staticmethod
    def lease_key(code: str) -> str:
        return f"{_PREFIX}lease:{_checked(code)}"

    @staticmethod
    def meta_key(code: str) -> str:
        return f"{_PREFIX}meta:{_checked(code)}"

    @staticmethod
    def record_key(code: str) -> str:
        return f"{_PREFIX}record:{_checked(code)}"

    OPEN = f"{_PREFIX}open"

    def record_path(self, code: str) -> Path:
        return self.root / f"{_checked(code)}{RECORD_SUFFIX}"

    # ---- the interface of TableStore
    def exists(self, code: str) -> bool:
        return bool(self._call(self.redis.exists, self.meta_key(code)))

    def has_room(self) -> bool:
        return True  # Redis's memory is the operator's to watch (docs/ONLINE.md)

    def write_meta(self, code: str, meta: JsonObject) -> None:
        done = bool(meta.get("finished") or meta.get("closed"))
        data = dumps({"format": META_FORMAT, **meta})
        ok = self._call(
            self._write_meta,
            keys=[self.lease_key(code), self.meta_key(code), self.OPEN, self.record_key(code)],
            args=[self.me, data, LEASE_MS, code, "0" if done else "1"],
        )
        if not ok:
            raise LeaseLost(f"table {code} is another process's now")

    def start_record(self, code: str, events: list[Event]) -> None:
        if self._guarded(code, events, "start", 0) == -1:
            raise StoreError(f"table {code} has a record already")

    def rewrite_record(self, code: str, events: list[Event]) -> None:
        self._guarded(code, events, "rewrite", 0)

    def append(self, code: str, events: list[Event], before: int) -> None:
        """Append ``events`` to a record that held ``before`` events before them; sent again
        after a lost reply, the events Redis already has are not written twice. Redis behind
        (it holds fewer than ``before``): the table is written again from memory first."""
        if not events:
            return
        if self._guarded(code, events, "append", before) == BEHIND:
            if self.keeper is None or not self.keeper.resync(code):
                raise Behind(f"table {code}: Redis has lost part of its record")
            if self._guarded(code, events, "append", before) == BEHIND:
                raise Behind(f"table {code}: Redis has lost part of its record")

    def note(self, code: str, before: int, events: list[Event]) -> None:
        """Remember the marks of record lines ``before``… (see :attr:`marks`)."""
        for i, ev in enumerate(events):
            if "by" in ev:
                self.marks.setdefault(code, {})[before + i] = ev["by"]

    def resync(self, code: str, events: list[Event], meta: JsonObject, done: bool) -> bool:
        """Write table ``code`` again whole, as this process holds it: its record ``events``,
        its meta, its place in the directory and its lease; False when another process holds
        it or wrote it last (then it is theirs)."""
        data = dumps({"format": META_FORMAT, **meta})
        return bool(
            self._call(
                self._resync,
                keys=[self.lease_key(code), self.record_key(code), self.meta_key(code), self.OPEN],
                args=[
                    self.me,
                    LEASE_MS,
                    code,
                    data,
                    "1" if done else "0",
                    KEEP_FINISHED_S,
                    *(dumps(ev) for ev in events),
                ],
            )
        )

    def held(self, codes: list[str]) -> list[tuple[int | None, str | None, bool, bool]]:
        """Per table: the record's length in Redis (None: no stream), its lease's holder,
        whether its meta exists and whether it is in the directory (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        for code in codes:
            pipe.xrevrange(self.record_key(code), count=1)
            pipe.get(self.lease_key(code))
            pipe.exists(self.meta_key(code))
            pipe.sismember(self.OPEN, code)
        replies = self._call(pipe.execute)
        out = []
        for k in range(len(codes)):
            last, owner, meta, listed = replies[4 * k : 4 * k + 4]
            n = None
            if last:
                try:
                    n = int(last[0][1].get(b"n", b"0"))
                except (ValueError, TypeError):
                    n = 0
            out.append((n, owner.decode("ascii", "replace") if owner else None, bool(meta), bool(listed)))
        return out

    def finished(self, code: str) -> None:
        """The match is over: its record goes to DIR as a file (as this process holds it in
        memory: the truth, whatever Redis kept), the stream is kept a day."""
        try:
            events = self.keeper.memory(code) if self.keeper is not None else None
            ours = True
            if events is None:
                events = self.read_record(code)
            elif self.held([code])[0][0] != len(events):  # Redis behind: it gets the whole record
                ours = self.keeper is not None and self.keeper.resync(code)
            text = "".join(dumps(ev) + "\n" for ev in events)
            problem = write_bytes(self.record_path(code), text.encode("utf-8"))
            if problem:
                raise StoreError(problem)
            if not ours:
                raise StoreError("another process holds it in Redis now: the file here is what this process played")
            pipe = self.redis.pipeline()
            pipe.srem(self.OPEN, code)
            pipe.expire(self.record_key(code), KEEP_FINISHED_S)
            pipe.expire(self.meta_key(code), KEEP_FINISHED_S)
            self._call(pipe.execute)
        except StoreError as e:  # the stream is still there: the file can be written again
            import logging

            logging.getLogger("cardavia.server").error("table %s: %s", code, e)

    def close(self) -> None:
        try:
            self.redis.close()
        except self.errors:
            pass

    def read_record(self, code: str) -> list[Event]:
        entries = self._call(self.redis.xrange, self.record_key(code))
        return [
            record_event(raw, f"{code}: record entry {number}")
            for number, (_id, fields) in enumerate(entries, 1)
            for raw in (fields.get(b"d") or b"").split(b"\n")
            if raw
        ]

    def load(self, code: str) -> StoredTable:
        raw = self._call(self.redis.get, self.meta_key(code))
        if raw is None:
            raise StoreError(f"{code}: no such table in the cluster")
        try:
            meta = loads(raw, max_bytes=MAX_LINE, max_depth=32)
        except JSONError as e:
            raise StoreError(f"{code}: its meta cannot be read ({e})") from None
        if not isinstance(meta, dict) or meta.get("format") != META_FORMAT or meta.get("code") != code:
            raise StoreError(f"{code}: not a table of this cluster")
        return StoredTable(code, meta, self.read_record(code))

    def unfinished(self) -> tuple[list[StoredTable], list[str]]:
        """Nothing at start: in a cluster a table is taken when its lease is free
        (:meth:`orphans`, game.online.server.cluster.node)."""
        return [], []

    # ---- leases
    def acquire(self, code: str) -> bool:
        """Take a table whose lease is free (exactly one of many racing processes wins)."""
        return bool(self._call(self.redis.set, self.lease_key(code), self.me, nx=True, px=LEASE_MS))

    def renew(self, codes: list[str]) -> tuple[list[str], list[str]]:
        """Renew this process's leases: (the codes whose lease is another's now, those whose
        lease Redis had forgotten and this process took back: to write again from memory)."""
        lost: list[str] = []
        back: list[str] = []
        for start in range(0, len(codes), 500):
            chunk = codes[start : start + 500]
            gone, taken = self._call(
                self._renew,
                keys=[self.lease_key(c) for c in chunk]
                + [self.record_key(c) for c in chunk]
                + [self.meta_key(c) for c in chunk],
                args=[self.me, LEASE_MS],
            )
            lost += [chunk[int(i) - 1] for i in gone]
            back += [chunk[int(i) - 1] for i in taken]
        return lost, back

    def release(self, code: str) -> None:
        self._call(self._release, keys=[self.lease_key(code)], args=[self.me])

    def owner(self, code: str) -> str | None:
        raw = self._call(self.redis.get, self.lease_key(code))
        return raw.decode("ascii", "replace") if raw else None

    def orphans(self, limit: int = 200) -> list[str]:
        """Open tables whose lease has expired (their process died or let them go)."""
        codes = self._call(self._orphans, keys=[self.OPEN], args=[f"{_PREFIX}lease:", limit])
        return [c.decode("ascii") for c in codes if is_code(c.decode("ascii", "replace"))]

    def set_aside(self, code: str, why: str) -> None:
        """A table that cannot be resumed: out of the directory (nobody tries it again and
        again), into ``cv:broken`` with why (the operator's list), its meta and stream left."""
        import time

        pipe = self.redis.pipeline()
        pipe.srem(self.OPEN, code)
        pipe.hset(self.BROKEN, code, json.dumps({"why": why[:300], "by": self.me, "at": time.time()}))
        self._call(pipe.execute)

    def broken(self) -> dict[str, JsonObject]:
        """The tables set aside (code -> why, by which process, when)."""
        out = {}
        for code, raw in self._call(self.redis.hgetall, self.BROKEN).items():
            try:
                out[code.decode("ascii", "replace")] = json.loads(raw)
            except ValueError:
                out[code.decode("ascii", "replace")] = {"why": "?"}
        return out

    BROKEN = f"{_PREFIX}broken"

    def run_id(self) -> str:
        """The Redis server's run id: a new one after a restart or a failover (what it holds
        may then be older than what was written)."""
        info = self._call(self.redis.info, "server")
        return str(info.get("run_id", ""))

    # ---- helpers
    def _guarded(self, code: str, events: list[Event], mode: str, before: int) -> int:
        self.note(code, before, events)
        done = self._call(
            self._append,
            keys=[self.lease_key(code), self.record_key(code), self.meta_key(code)],
            args=append_args(self.me, mode, before, events),
        )
        if done == 0:
            raise LeaseLost(f"table {code} is another process's now: this one no longer writes it")
        return int(done)

    def _call(self, fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except self.errors as e:
            raise RedisAway(f"Redis: {e}") from None


def append_args(me: str, mode: str, before: int, events: list[Event]) -> list[str | int]:
    """The ARGV of the append script (_APPEND)."""
    return [me, mode, LEASE_MS, int(before), *(dumps(ev) for ev in events)]


def _checked(code: str) -> str:
    if not is_code(code):
        raise StoreError(f"{str(code)[:20]!r} is not a table code")
    return code


def process_id() -> str:
    """A new process id in the cluster: the host's name, the pid and a random part."""
    import socket

    return f"{socket.gethostname()[:24]}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


__all__ = [
    "BEHIND",
    "LEASE_MS",
    "Behind",
    "LeaseLost",
    "RedisAway",
    "RedisTableStore",
    "append_args",
    "connect",
    "process_id",
    "safe_url",
]
