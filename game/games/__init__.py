"""One folder per game: ``game/games/<id>/`` holds everything that is that game's own — its
rules (``rules.py``), its search AI's hooks (``ai.py`` or an ``ai/`` package), the greedy
bot's heuristics, a solver, the results screen's sentences. :func:`game.registry.game_module`
finds each part; nothing else imports a game's folder by name."""
