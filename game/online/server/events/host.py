"""What the events' server side works with, as protocols: the parts of the table server it
uses (:class:`EventsServer`, game.online.server.server.TableServer is one) and what the
arenas', Swiss tournaments' and web pages' modules use of the events' wiring
(:class:`EventsHost`, game.online.server.events.wiring.ClubEvents is one). Naming them here
keeps those modules from importing the server or the wiring (no import circle)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Protocol

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


class Locator(Protocol):
    """A cluster's process (game.online.server.cluster.node.ClusterNode): where a table is."""

    def locate(self, code: str) -> Table | None: ...


class EventsServer(Protocol):
    """The parts of the table server the events use."""

    cluster: ClusterConfig | None
    limits: ServerLimits
    tables: dict[str, Table]
    play: PlayLoop
    lobby: Lobby
    store: TableStore
    db: ClubStore

    @property
    def node(self) -> Locator | None: ...

    def _spawn(self, coro: Coroutine[object, object, None]) -> asyncio.Task: ...


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


__all__ = ["EventsHost", "EventsServer", "Locator"]
