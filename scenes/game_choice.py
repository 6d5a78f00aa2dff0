"""A screen that chooses a game, a deck, a player count and the options in force outside
the game screen (watching the computer play, hosting an online table): one set of rules for
all of them, the game screen's own. Pure Python: no pygame.

The using scene has ``app``, ``t``, ``game``, ``deck``, ``players`` and ``given`` (the game
screen's choice as (game, players, options), or None).
"""

from __future__ import annotations

from game.rules.vocabulary import JsonObject
from scenes.scene import AppServices
from sprites.widget_base import Label


class GameChoice:
    app: AppServices
    game: str
    deck: str
    players: int
    given: tuple[str, int, dict] | None

    def _first_deck(self) -> str:
        return next(d.id for d in self.app.config.decks_for(self.game))

    def _remembered_players(self) -> int:
        from game.services.settings import game_choice

        return game_choice(self.app.settings, self.app.config.games[self.game]).players

    def options(self) -> JsonObject:
        """Every option in force: the game screen's (when it sent them for this game and
        count), else what it remembers for this game (house rules, length) at this count."""
        from game.services.settings import game_choice
        from scenes.game_panel import in_force  # the game screen's own rule for what is in force

        game = self.app.config.games[self.game]
        if self.given is not None and self.given[:2] == (self.game, self.players):
            return dict(self.given[2])
        choice = game_choice(self.app.settings, game)
        choice.players = self.players
        try:
            return game.resolve_options(in_force(game, choice), self.players)
        except ValueError:
            return game.resolve_options(game.default_options(), self.players)

    def choose_game(self, gid: str) -> None:
        """Another game: its first deck if the deck does not offer it, its remembered count."""
        self.game = gid
        if self.deck not in self.app.config.decks or gid not in self.app.config.decks[self.deck].games:
            self.deck = self._first_deck()
        self.players = self._remembered_players()

    # Choice widgets read their options once: these lists follow the chosen game.
    @property
    def _deck_values(self) -> list[tuple[str, Label]]:
        lang = self.app.language
        return [(d.id, d.name.get(lang) or d.name.get("en", d.id)) for d in self.app.config.decks_for(self.game)]

    @property
    def _player_values(self) -> list[tuple[int, Label]]:
        return [(n, str(n)) for n in self.app.config.games[self.game].players]

    def rules_line(self) -> str:
        """ "Scopone scientifico · 4 players · Match to 11": what will be played (the game
        line's own "AI opponents" part left out: the seats are chosen here)."""
        from game.variants import variant_name
        from scenes.game_panel import game_line

        game = self.app.config.games[self.game]
        opts = self.options()
        variant = variant_name(self.app.i18n, game, opts, self.players)
        parts = ([variant] if variant else []) + [self.app.t("line.players", count=self.players)]
        return " · ".join(parts + game_line(self.app.t, game, opts).split(" · ")[2:])


__all__ = ["GameChoice"]
