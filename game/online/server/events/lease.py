"""Which process runs an event's pairing (docs/ONLINE.md, "Events"): on one process, this one;
on a cluster, the holder of the event's lease in Redis (``cv:event:<ID>:lease``), taken and
renewed as the quick match's ``cv:matchmaker`` is (game.online.server.cluster.quickshare): one
script that renews the lease when this process holds it, takes it when nobody does, and
answers whether this process holds it now. The holder asks at every round of its loop (every
half second), so a lease of ``LEASE_MS`` is renewed many times over; a process that dies stops
renewing and another process holds the event within ``LEASE_MS`` and one round. A process
that stops (SIGTERM) gives its leases back at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from game.online.server.store import StoreError

if TYPE_CHECKING:
    from game.online.server.events.host import Locator

log = logging.getLogger("cardavia.server")

#: An event's lease (ms): the bound on a dead holder's event going unpaired.
LEASE_MS = 3000

# KEYS: the lease   ARGV: me, ms  -> 1 when this process holds it (renewed or taken), else 0
_HOLD = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not owner then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
"""
# KEYS: the lease   ARGV: me  -> the lease deleted when this process held it
_GIVE_BACK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(event_id: str) -> str:
    return f"cv:event:{event_id}:lease"


class EventLeases:
    """The events' leases of one process: ``node`` None is one process (it holds every event)."""

    def __init__(self, node: Locator | None, ms: int = LEASE_MS):
        self.node = node
        self.ms = ms
        self.held: set[str] = set()
        if node is not None:
            self._hold = node.redis.register_script(_HOLD)
            self._give = node.redis.register_script(_GIVE_BACK)

    def _call(self, script: Callable[..., int], event_id: str, *args: object) -> int:
        assert self.node is not None
        # RedisTableStore's call: bounded in time, StoreError when Redis is away
        return int(self.node.store._call(script, keys=[lease_key(event_id)], args=list(args)))

    def hold(self, event_id: str) -> bool:
        """Whether this process runs ``event_id``'s pairing now (the lease taken or renewed).
        Redis away: False (nobody pairs until it is back; the lease expires meanwhile)."""
        if self.node is None:
            return True
        try:
            mine = bool(self._call(self._hold, event_id, self.node.me, self.ms))
        except StoreError as e:
            if event_id in self.held:
                log.warning("events: %s's lease cannot be renewed (%s)", event_id, e)
            mine = False
        if mine and event_id not in self.held:
            log.info("events: this process pairs %s now", event_id)
        (self.held.add if mine else self.held.discard)(event_id)
        return mine

    def give_back(self) -> None:
        """Every lease this process holds, deleted (it stops): another process takes them at once."""
        if self.node is None:
            return
        for event_id in list(self.held):
            try:
                self._call(self._give, event_id, self.node.me)
            except StoreError:
                pass  # it expires
        self.held.clear()


__all__ = ["LEASE_MS", "EventLeases", "lease_key"]
