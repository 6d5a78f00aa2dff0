"""Online tables in the window: "Play online" (:mod:`~scenes.online.choice`,
which also owns the server a host runs inside the game), Host a table
(:mod:`~scenes.online.host`), Join a table (:mod:`~scenes.online.join`), the lobby
(:mod:`~scenes.online.lobby`); then the ordinary table, driven by a
game.online.client.client.RemoteSession (its online extras: scenes.table.online).

Without pygame: :mod:`~scenes.online.address` (what the player types) and
:mod:`~scenes.online.hosting` (the server in the game, creating and joining tables, the
server's errors in the player's words). :mod:`~scenes.online.fields` is the text field.
"""
