"""The rules object for a match, and the list of games, from the config and the registry.

Kept out of ``game/rules/__init__.py`` so that importing a shared rules module
(``game.rules.base``, ``trick``, ``capture``) runs no config or registry code: the game
folders the registry loads by name import those, and a package door that imported the
registry back would close an import circle.
"""

from __future__ import annotations

from collections.abc import Mapping

from game.config import Config, get_config
from game.registry import rules_class
from game.rules.base import GameRules

__all__ = ["game_ids", "make_rules"]


def game_ids(config: Config | None = None) -> tuple[str, ...]:
    """Every registered game, in rules.yaml's order: the one list of games."""
    return tuple((config or get_config()).games)


def make_rules(
    game_id: str,
    deck_id: str | None = None,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    config: Config | None = None,
) -> GameRules:
    """Rules for one match. Defaults: the first deck offering the game, its first player count,
    default options. Raises ValueError with a one-line reason for a bad combination."""
    config = config or get_config()
    game = config.game(game_id)
    if deck_id is None:
        decks = config.decks_for(game_id)
        if not decks:
            raise ValueError(f"no deck offers {game_id}")
        deck = decks[0]
    else:
        deck = config.deck(deck_id)
        if game_id not in deck.games:
            raise ValueError(f"the {deck_id} deck cannot play {game_id} (it offers {', '.join(deck.games)})")
    if players is None:
        players = game.players[0]
    if players not in game.players:
        raise ValueError(f"{game_id} is played by {' or '.join(map(str, game.players))} players, not {players}")
    return rules_class(game_id)(game, deck, players, game.resolve_options(options, players))
