"""What the events' server side works with, as protocols: the parts of the table server it
uses (:class:`EventsServer`, game.online.server.server.TableServer is one) and what the
arenas', Swiss tournaments' and web pages' modules use of the events' wiring
(:class:`EventsHost`, game.online.server.events.wiring.ClubEvents is one). Naming them here
keeps those modules from importing the server or the wiring (no import circle)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from game.online.server.accounts import ClubStore
from game.online.server.cluster import ClusterConfig
from game.online.server.events.common import Clock
from game.online.server.events.hub import EventsHub
from game.online.server.events.store import EventStore
from game.online.server.events.tourday import TourOfDay
from game.online.server.limits import ServerLimits
from game.online.server.lobby import Lobby
from game.online.server.play import PlayLoop
from game.online.server.seats import Conn, Table
from game.online.server.store import TableStore
from game.rules.base import GameRules
from game.rules.vocabulary import JsonObject

if TYPE_CHECKING:
    from game.online.server.cluster.tables import RedisTableStore


class RedisClient(Protocol):
    """What the events use of a cluster's redis client."""

    def get(self, key: str) -> bytes | None: ...

    def register_script(self, script: str) -> Callable[..., int]: ...


class Locator(Protocol):
    """A cluster's process (game.online.server.cluster.node.ClusterNode): where a table is,
    its id and run, Redis, and the messages to another process's connections."""

    me: str
    started: float
    redis: RedisClient
    store: RedisTableStore

    def locate(self, code: str) -> Table | None: ...

    def tell(self, node: str, conn_number: int, message: JsonObject) -> None: ...

    def live_nodes(self) -> set[str]: ...


class EventsServer(Protocol):
    """The parts of the table server the events use."""

    cluster: ClusterConfig | None
    limits: ServerLimits
    tables: dict[str, Table]
    conns: set[Conn]
    play: PlayLoop
    lobby: Lobby
    store: TableStore
    db: ClubStore

    @property
    def node(self) -> Locator | None: ...

    def _spawn(self, coro: Coroutine[object, object, None]) -> asyncio.Task: ...

    def close_table(self, table: Table) -> None: ...


@dataclass(frozen=True)
class OpenedTable:
    """An event's table just opened: its code, and per person's seat the token to sit with."""

    code: str
    tokens: dict[int, str]


class EventsHost(Protocol):
    """What the arenas', Swiss tournaments' and pages' modules use of the events' wiring."""

    server: EventsServer
    hub: EventsHub
    tod: TourOfDay
    store: EventStore
    clock: Clock

    def player_of(self, conn: Conn) -> str: ...

    def viewer_of(self, conn: Conn) -> str | None: ...

    def new_code(self) -> str: ...

    def open_table(self, rules: GameRules, people: list[str | None], level: str, pause_seconds: int) -> OpenedTable:
        """A table of the server's for an event's match (see wiring.ClubEvents.open_table)."""

    def reach(self, conn: Conn) -> JsonObject:
        """Where ``conn`` is, kept in an event's state so that any process can tell it things."""

    def tell(self, at: object, message: JsonObject) -> bool:
        """Send ``message`` to the connection ``at`` (a :meth:`reach`) names, on any process."""

    @property
    def no_show_seconds(self) -> float: ...


__all__ = ["EventsHost", "EventsServer", "Locator", "OpenedTable", "RedisClient"]
