"""A cluster's records written in the background: every table's new decisions go to Redis
in one pipelined round trip per batch (redis.asyncio), so the event loop never waits on
Redis (a synchronous append was most of a process's wall time under load: it waited for
the reply with everything else stopped). A decision's events are sent to the seats only once
Redis has them (game.online.server.play.PlayLoop.written), so a client never sees a decision that a
killed process could lose. One batch is in flight at a time: the order of each table's
entries is the order of its decisions.

A Redis that came back behind answers an append with BEHIND (it holds less than the table
wrote before): the batch goes back to the table, the owner writes the table again whole from
memory (game.online.server.cluster.node.ClusterNode.resync), then the batch is sent again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.online.server.cluster.tables import _APPEND, BEHIND, RedisTableStore, append_args

if TYPE_CHECKING:
    from game.online.server.play import PlayLoop
    from game.online.server.seats import Table

log = logging.getLogger("cardavia.server")

#: A batch that Redis has not answered within this long counts as failed (the tables stall
#: and try again).
BATCH_TIMEOUT = 2.0
#: Seconds a batch waits for more tables after the first one wants writing (what a decision's
#: round trip gains at most; measured by bench/server_load.py --processes).
BATCH_GATHER = 0.003


def packed_connection() -> type:
    """redis.asyncio's connection class with the commands packed by hiredis (C), as redis-py's
    own synchronous client does: its asyncio client packs them in Python, most of the cost
    of a batch's building. The same bytes (texts as UTF-8, whole numbers as digits); any
    other argument, or no hiredis, goes the usual way."""
    from redis.asyncio.connection import Connection
    from redis.typing import EncodableT

    try:
        from hiredis import pack_command
    except ImportError:
        return Connection

    plain = (str, bytes, int)

    class Packed(Connection):
        def pack_command(self, *args: EncodableT) -> list[bytes]:
            for a in args:
                if type(a) not in plain:
                    return super().pack_command(*args)
            head = args[0]
            if isinstance(head, str):  # a command of two words ("SCRIPT LOAD") is sent as two
                args = (*head.encode().split(), *args[1:])
            elif isinstance(head, bytes) and b" " in head:
                args = (*head.split(), *args[1:])
            return [pack_command(args)]  # type: ignore[arg-type]  # (hiredis types it a 1-tuple)

    return Packed


class RecordWriter:
    def __init__(
        self, play: PlayLoop, store: RedisTableStore, redis_url: str, resync: Callable[[str], bool] | None = None
    ):
        import redis.asyncio as aioredis

        self.play, self.store = play, store
        #: ``resync(code) -> bool``: write the table again whole from memory (Redis behind).
        self.resync = resync
        # A rediss:// or unix:// address keeps the class its scheme names (redis-py: the
        # address's options win).
        self.aio = aioredis.Redis.from_url(
            redis_url,
            socket_timeout=BATCH_TIMEOUT,
            socket_connect_timeout=BATCH_TIMEOUT,
            connection_class=packed_connection(),
        )
        import hashlib

        # EVALSHA by hand: a pipeline with registered scripts asks SCRIPT EXISTS first on
        # every execute (a second round trip per batch); NOSCRIPT (a restarted Redis) loads it.
        self.sha = hashlib.sha1(_APPEND.encode("utf-8")).hexdigest()
        self.wanted: dict[str, Table] = {}
        self.flying: set[str] = set()
        self.wake = asyncio.Event()
        self.batches = 0

    def want(self, table: Table) -> None:
        self.wanted[table.code] = table
        self.wake.set()

    async def run(self) -> None:
        while True:
            await self.wake.wait()
            # A moment for the other tables' decisions to join the batch: the cost of a
            # batch (building, one round trip, the reply) is mostly per batch, not per table.
            await asyncio.sleep(BATCH_GATHER)
            self.wake.clear()
            batch = [t for code, t in self.wanted.items() if code not in self.flying]
            for t in batch:
                del self.wanted[t.code]
            if batch:
                await self._write(batch)
            if self.wanted:
                self.wake.set()

    async def _write(self, batch: list[Table]) -> None:
        pipe = self.aio.pipeline(transaction=False)
        taken = []
        for t in batch:
            if not t.unsaved:
                if t.outbox:  # nothing to write, something to send (cannot happen: safe anyway)
                    out, t.outbox = t.outbox, []
                    self.play.written(t, out)
                continue
            before, events, out = t.saved_before, t.unsaved, t.outbox
            t.unsaved, t.outbox = [], []
            # ``before`` makes a resend after a lost reply harmless (tables._APPEND skips what
            # Redis already has): the events go back to ``unsaved`` on any failure below.
            self.store.note(t.code, before, events)
            pipe.evalsha(
                self.sha,
                3,
                self.store.lease_key(t.code),
                self.store.record_key(t.code),
                self.store.meta_key(t.code),
                *append_args(self.store.me, "append", before, events),
            )
            taken.append((t, events, out))
            self.flying.add(t.code)
        if not taken:
            return
        self.batches += 1
        try:
            results: list[Any] = await asyncio.wait_for(pipe.execute(raise_on_error=False), BATCH_TIMEOUT * 2)
        except Exception as e:  # noqa: BLE001 - Redis away (ConnectionError, a timeout): the tables wait
            results = [e] * len(taken)
        from redis.exceptions import NoScriptError

        if any(isinstance(r, NoScriptError) for r in results):
            try:
                await self.aio.script_load(_APPEND)
                noscript = True
            except Exception:  # noqa: BLE001 - Redis away again: the tables stall below
                noscript = False
        else:
            noscript = False
        for (t, events, out), result in zip(taken, results):
            self.flying.discard(t.code)
            if noscript and isinstance(result, NoScriptError):
                t.unsaved[:0] = events  # not run at all: again, now that the script is loaded
                t.outbox[:0] = out
                self.want(t)
            elif isinstance(result, BaseException):
                t.unsaved[:0] = events
                t.outbox[:0] = out
                log.error("table %s: Redis: %s", t.code, result)
                self.play._stall(t)
            elif int(result) == 0:
                log.warning("table %s is another process's now: this one no longer writes it", t.code)
                self.play._lose(t)
            elif int(result) == BEHIND:
                t.unsaved[:0] = events  # nothing written: again, once Redis has the table whole
                t.outbox[:0] = out
                self._behind(t)
            else:
                self.play.written(t, out)
                if t.unsaved:
                    self.want(t)

    def _behind(self, t: Table) -> None:
        from game.online.server.store import StoreError

        try:
            ok = self.resync is not None and self.resync(t.code)
        except StoreError as e:  # Redis away again: the table waits and tries again
            log.error("table %s: %s", t.code, e)
            self.play._stall(t)
            return
        if ok:
            self.want(t)
        else:  # another process holds it, or wrote it last: it is theirs
            self.play._lose(t)

    async def close(self) -> None:
        try:
            await self.aio.aclose()
        except Exception:  # noqa: BLE001
            pass


__all__ = ["RecordWriter", "packed_connection"]
