"""The computer players: bots by name in ``game.ai.bots``, the search in ``search``, the levels in
``levels``, what a game gives the search in ``hooks``; each game's own AI in ``game/games/<id>/``.
"""
