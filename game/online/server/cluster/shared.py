"""What every process of a cluster must agree on, kept in Redis (docs/ONLINE.md, "The
cluster"): the daily deals (one secret seed per day, game and preset; the accounts dealt it;
the day's open tables and its leaderboard) and the table quotas (unfinished tables per address
and per account). With one data folder per process these were per process: quotas doubled
with the processes and each process dealt its own daily seed.

- :class:`RedisDays` is game.online.server.daily.DailyBoard's store: a day is one JSON value
  (``cv:daily:<DATE>``), changed under a Redis lock (``cv:daily:<DATE>:lock``) so that two
  processes never both deal the day to one account.
- :class:`RedisTableQuota` is game.online.server.limits.TableQuota over Redis: the holders of each
  table (``cv:quota:table:<CODE>``) and the counts per address and per account (the hashes
  ``cv:quota:address`` and ``cv:quota:player``), added and released by one script each, so a
  table counts once however many processes take it over.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.online.server.limits import ServerLimits
from game.online.server.store import StoreError

if TYPE_CHECKING:
    from game.online.server.cluster.tables import RedisTableStore
    from game.online.server.daily import DailyBoard

#: How long a day's lock may be held (ms) and waited for (s): a read-change-write takes a
#: millisecond; a process killed holding it frees it when it expires.
DAY_LOCK_MS = 5000
DAY_LOCK_WAIT = 5.0
#: A day's keys live this long after their last change (the board of a past day stays readable).
DAY_TTL_S = 400 * 24 * 3600

ADDRESS, PLAYER = "cv:quota:address", "cv:quota:player"

_ADD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
for i = 2, #ARGV, 2 do
    if ARGV[i] ~= '' then redis.call('HINCRBY', KEYS[2], ARGV[i], 1) end
    if ARGV[i + 1] ~= '' then redis.call('HINCRBY', KEYS[3], ARGV[i + 1], 1) end
end
return 1
"""

_RELEASE = """
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
redis.call('DEL', KEYS[1])
for i = 1, #ARGV, 2 do
    if ARGV[i] ~= '' and redis.call('HINCRBY', KEYS[2], ARGV[i], -1) <= 0 then redis.call('HDEL', KEYS[2], ARGV[i]) end
    if ARGV[i + 1] ~= '' and redis.call('HINCRBY', KEYS[3], ARGV[i + 1], -1) <= 0 then
        redis.call('HDEL', KEYS[3], ARGV[i + 1])
    end
end
return 1
"""


class RedisDays:
    """game.online.server.daily's days in Redis (a sync client: the board is used from the event
    loop for a round trip and from a worker thread when a play is taken)."""

    def __init__(self, client: Any):
        self.redis = client

    def locked(self, day: str) -> AbstractContextManager[object]:
        return self.redis.lock(f"cv:daily:{day}:lock", timeout=DAY_LOCK_MS / 1000, blocking_timeout=DAY_LOCK_WAIT)

    def load(self, day: str) -> dict[str, object] | None:
        try:
            raw = self.redis.get(f"cv:daily:{day}")
        except Exception as e:  # noqa: BLE001 - redis' errors: the board says it cannot be read
            raise OSError(f"the daily deals cannot be read from Redis ({e})") from None
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def save(self, day: str, data: dict[str, object]) -> None:
        try:
            self.redis.set(f"cv:daily:{day}", json.dumps(data, sort_keys=True), ex=DAY_TTL_S)
        except Exception as e:  # noqa: BLE001
            raise OSError(f"the daily deals cannot be kept in Redis ({e})") from None


class RedisTableQuota:
    """Unfinished tables per address and per account, shared by the cluster's processes (the
    interface of game.online.server.limits.TableQuota)."""

    def __init__(self, client: Any, limits: ServerLimits):
        self.redis = client
        self.limits = limits
        self._add = client.register_script(_ADD)
        self._release = client.register_script(_RELEASE)

    def _count(self, key: str, field: str) -> int:
        try:
            return int(self.redis.hget(key, field) or 0)
        except Exception as e:  # noqa: BLE001 - Redis away: no new table now (the store is away too)
            raise StoreError(f"the quotas cannot be read ({e})") from None

    def refusal(self, address: str | None, player: int | None) -> str | None:
        if address is not None and self._count(ADDRESS, address) >= self.limits.tables_per_address:
            return f"this address has {self.limits.tables_per_address} open tables already: play or close one first"
        if player is not None and self._count(PLAYER, str(player)) >= self.limits.tables_per_player:
            return f"you have {self.limits.tables_per_player} open tables already: play or close one first"
        return None

    def add_all(self, code: str, holders: list[tuple[str | None, int | None]]) -> None:
        """Count table ``code`` once for each holder (a second add of the same table, by a
        process that took it over, counts nothing)."""
        args: list[str | int] = [json.dumps(holders)]
        for address, player in holders:
            args += [address or "", "" if player is None else str(player)]
        try:
            self._add(keys=[f"cv:quota:table:{code}", ADDRESS, PLAYER], args=args)
        except Exception as e:  # noqa: BLE001
            raise StoreError(f"the quotas cannot be kept ({e})") from None

    def add(self, code: str, address: str | None, player: int | None) -> None:
        """One holder more of table ``code`` (the holders are kept together: a table is added
        whole, so later holders are read back and the table added again with them)."""
        key = f"cv:quota:table:{code}"
        try:
            raw = self.redis.get(key)
        except Exception as e:  # noqa: BLE001
            raise StoreError(f"the quotas cannot be read ({e})") from None
        held = [tuple(h) for h in json.loads(raw)] if raw else []
        if (address, player) in held:
            return
        if held:
            self.release(code)
        self.add_all(code, [*held, (address, player)])

    def release(self, code: str) -> None:
        key = f"cv:quota:table:{code}"
        try:
            raw = self.redis.get(key)
            if raw is None:
                return
            args: list[str] = []
            for address, player in json.loads(raw):
                args += [address or "", "" if player is None else str(player)]
            self._release(keys=[key, ADDRESS, PLAYER], args=args)
        except Exception as e:  # noqa: BLE001 - a release that fails is retried by the next end
            raise StoreError(f"the quotas cannot be kept ({e})") from None

    @property
    def by_address(self) -> dict[str, int]:
        return {k.decode(): int(v) for k, v in self.redis.hgetall(ADDRESS).items()}

    @property
    def by_player(self) -> dict[int, int]:
        return {int(k): int(v) for k, v in self.redis.hgetall(PLAYER).items()}


def SharedQuota(limits: ServerLimits, store: RedisTableStore) -> RedisTableQuota:  # noqa: N802 - the node's name for it
    """The cluster's quotas over ``store``'s Redis (game.online.server.cluster.tables.RedisTableStore)."""
    return RedisTableQuota(store.redis, limits)


def SharedDailyBoard(root: Path, store: RedisTableStore) -> DailyBoard:  # noqa: N802 - the node's name for it
    """The cluster's daily board: game.online.server.daily.DailyBoard with its days in ``store``'s Redis."""
    from game.online.server.daily import DailyBoard

    return DailyBoard(root, days=RedisDays(store.redis))


__all__ = ["RedisDays", "RedisTableQuota", "SharedDailyBoard", "SharedQuota"]
