"""The one registry of what handles each client message type (game.online.server.server builds
it once, from the server's parts): a type registered twice, or one the protocol does not have,
raises when the server is built, and so does a protocol type left without a handler.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from game.online.server.seats import MessageHandler
from game.online.wire import protocol as P


class HandlerRegistry(Mapping[str, MessageHandler]):
    """The one table of what handles each client message type. Registering a type twice, or a
    type the protocol does not have, raises at once (when the server is built), and so does
    a protocol type left without a handler (:meth:`complete`)."""

    def __init__(self) -> None:
        self._handlers: dict[str, MessageHandler] = {}

    def register(self, kind: str, handler: MessageHandler) -> None:
        if kind not in P.CLIENT_MESSAGES:
            raise ValueError(f"a handler for {kind!r}, which is no client message of the protocol")
        if kind in self._handlers:
            raise ValueError(f"the client message {kind!r} has two handlers")
        self._handlers[kind] = handler

    def register_all(self, handlers: Mapping[str, MessageHandler]) -> None:
        for kind, handler in handlers.items():
            self.register(kind, handler)

    def complete(self) -> None:
        """ValueError when a client message of the protocol has no handler."""
        missing = sorted(set(P.CLIENT_MESSAGES) - set(self._handlers))
        if missing:
            raise ValueError(f"no handler for the client message {missing[0]!r}")

    def __getitem__(self, kind: str) -> MessageHandler:
        return self._handlers[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._handlers)

    def __len__(self) -> int:
        return len(self._handlers)


__all__ = ["HandlerRegistry", "MessageHandler"]
