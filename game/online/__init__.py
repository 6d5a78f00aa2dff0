"""Online tables: an authoritative table server and its clients, pure Python.

- :mod:`game.online.wire.protocol` — the JSON protocol (version, limits, the strict schema of
  every client message, actions as JSON through the games' declared decisions, table codes
  and seat tokens);
- :mod:`game.online.wire.messages` — every server message declared once (its fields, who may
  receive it), the constructors the server builds them with and the clients' dispatch table;
- :mod:`game.online.wire.redact` — what one seat may receive of a record (``seat_events``);
- :mod:`game.online.server.store` — a table kept on disk (its record, appended; its meta, atomic)
  and resumed after a restart;
- :mod:`game.online.server.worker` — computer seats think in worker processes;
- :mod:`game.online.server.server` — the asyncio server (``python main.py serve``) and
  :func:`game.online.server.serving.start_server_in_thread` for the window and the tests, built
  in one place with its parts given what they work with, and one registry of what handles each
  client message; its lobby actions in :mod:`game.online.server.lobby`, its play loop in
  :mod:`game.online.server.play`;
- :mod:`game.online.cli` — the ``serve`` and ``online`` sub-commands.

See docs/ONLINE.md. Nothing here imports pygame.
"""
