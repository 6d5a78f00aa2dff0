"""Watch a match: the computer in every seat, each at its own level, any game, deck and
house rules — shown in the replay viewer as it is played, with the viewer's controls (step
back through what was played, pause, a speed, every hand or one seat's).

Opened from the game screen's Watch button (that game with its players and every option in
force, house rules included) or from the Replays list (the game last chosen, with the
choices the game screen remembers for it). Nothing here knows a game by name.

:class:`LiveFeed` drives the match: a game.services.session.Session with no human seat whose bots
think in a worker thread (in the window) and only when the viewer asks for the next line.
"""

from __future__ import annotations

import random
from functools import partial

import pygame

from game.rules.base import GameRules
from game.rulesets import game_ids, make_rules
from game.services.settings import AI_LEVELS
from scenes.game_choice import GameChoice
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button, Choice

PANEL = pygame.Rect(170, 50, 940, 620)
SEAT_W = 400


class LiveFeed:
    """A match of computers, one decision at a time: :meth:`pull` gives the lines it has
    made since the last call (starting a bot's thinking when none is under way)."""

    def __init__(self, rules: GameRules, seed: int, levels: list[str], threaded: bool = True):
        from game.ai.bots import make_bot
        from game.match import Match
        from game.services.session import Session

        self.levels = list(levels)
        self.session = Session(rules, seed, human_seat=None, bot_name=self.levels[0], threaded=threaded)
        # Each seat its own level (the session's bots are all of one level).
        self.session.match = Match(rules, seed, [make_bot(lv, rules, s, seed) for s, lv in enumerate(self.levels)])
        self.session.start()
        self.problem: str | None = None

    def pull(self) -> list[dict]:
        if self.problem is None:
            try:
                self.session.poll()
            except Exception as e:  # noqa: BLE001 - a failing bot ends the watching, not the window
                self.problem = f"{type(e).__name__}: {e}"
        return self.session.take_events()

    def close(self) -> None:
        self.session.close()


class WatchScene(GameChoice, UIScene):
    def __init__(
        self,
        app: AppServices,
        deck: str | None = None,
        game: str | None = None,
        players: int | None = None,
        options: dict | None = None,
    ):
        self.app = app  # (UIScene sets it too; the choices below need it first)
        cfg = app.config
        last = app.settings.last_deck
        self.game = (
            game
            if game is not None and game in cfg.games
            else next(
                (g for g in (cfg.decks[last].games if last in cfg.decks else ()) if g in cfg.games), game_ids()[0]
            )
        )
        self.deck = (
            deck
            if deck is not None and deck in cfg.decks and self.game in cfg.decks[deck].games
            else self._first_deck()
        )
        gcfg = cfg.games[self.game]
        self.players = players if players is not None and players in gcfg.players else self._remembered_players()
        #: The options the game screen gave (every one in force), for that game and count only.
        self.given = (self.game, self.players, dict(options)) if options else None
        level = app.settings.ai_level
        self.levels = [level if level in AI_LEVELS else "normal"] * 4
        self.problem: str | None = None
        super().__init__(app)

    # ------------------------------------------------------------------ choices
    def set_game(self, gid: str) -> None:
        self.choose_game(gid)
        self._reseat()

    def set_players(self, n: int) -> None:
        self.players = n
        self._reseat()

    def _reseat(self) -> None:
        for i, c in enumerate(self.seat_choices):
            c.rect.topleft = self._seat_pos(i)

    def _seat_pos(self, i: int) -> tuple[int, int]:
        x = PANEL.x + 40 + (i % 2) * (SEAT_W + 60)
        return x, PANEL.y + 330 + (i // 2) * 84

    def build(self) -> None:
        cfg = self.app.config
        lang = lambda: self.app.language  # noqa: E731
        y = PANEL.y + 132
        games = [
            (g, (lambda g=g: cfg.games[g].name.get(lang()) or cfg.games[g].name.get("en", g)))
            for g in game_ids()
            if g in cfg.games
        ]
        self.game_choice = self.ui.add(
            Choice(
                (PANEL.x + 40, y, 300, 58),
                self.label("replay.game"),
                games,
                lambda: self.game,
                self.set_game,
                compact=True,
                name="game",
            )
        )
        self.ui.add(
            Choice(
                (PANEL.x + 360, y, 300, 58),
                self.label("replay.deck"),
                self._deck_values,
                lambda: self.deck,
                self._set_deck,
                compact=True,
                name="deck",
            )
        )
        self.ui.add(
            Choice(
                (PANEL.x + 680, y, 220, 58),
                self.label("games.players"),
                self._player_values,
                lambda: self.players,
                self.set_players,
                name="players",
            )
        )
        self.seat_choices: list[Choice] = []
        for i in range(4):

            def level(i: int = i) -> object:
                return self.levels[i]

            c = self.ui.add(
                Choice(
                    (*self._seat_pos(i), SEAT_W, 58),
                    self.label("replay.seat_level", n=i + 1),
                    [(lv, self.label(f"ai.{lv}")) for lv in AI_LEVELS],
                    level,
                    partial(self._set_level, i),
                    visible=lambda i=i: i < self.players,
                    name=f"level:{i}",
                )
            )
            self.seat_choices.append(c)
        by = PANEL.bottom - 70
        self.ui.add(
            Button((PANEL.x + 40, by, 170, 46), self.label("common.back"), self.back, icon="‹", size=15, name="back")
        )
        self.start_button = self.ui.add(
            Button(
                (PANEL.right - 40 - 240, by, 240, 48),
                self.label("replay.watch_start"),
                self.start,
                style="primary",
                size=17,
                name="start",
            )
        )
        self.ui.focus(self.start_button)

    def _set_deck(self, d: str) -> None:
        self.deck = d

    def _set_level(self, i: int, level: str) -> None:
        self.levels[i] = level

    def update(self, dt: float) -> None:
        for w in self.ui.widgets:
            if not isinstance(w, Choice):
                continue
            if w.name == "deck":
                w.options = self._deck_values
            elif w.name == "players":
                w.options = self._player_values
        super().update(dt)

    # ------------------------------------------------------------------ start
    def start(self) -> None:
        try:
            rules = make_rules(self.game, self.deck, self.players, self.options())
        except ValueError as e:  # a combination the rules refuse: say so, start nothing
            self.problem = str(e)
            return
        levels = self.levels[: self.players]
        feed = LiveFeed(rules, random.randrange(1, 2**31), levels, threaded=bool(self.app.has_window))
        self.app.open_scene("replay", live=feed, levels=levels)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("replay.watch_title")
        theme.heading(
            surface, title, (r.x + 40, r.y + 26), theme.fit(title, "serif_bold", 28, r.w - 80, 16, 0.22, True)
        )
        intro = self.t("replay.watch_intro")
        for i, ln in enumerate(theme.wrap(intro, "sans", 15, r.w - 80, max_lines=2)):
            theme.blit_text(surface, ln, (r.x + 40, r.y + 72 + 20 * i), "sans", 15, theme.CREAM_DIM)
        line = self.rules_line()
        theme.blit_text(
            surface,
            line,
            (r.x + 40, r.y + 206),
            "sans_bold",
            theme.fit(line, "sans_bold", 15, r.w - 80, 10),
            theme.BRASS_LIGHT,
        )
        note = self.t("replay.watch_rules_note")
        theme.blit_text(
            surface, note, (r.x + 40, r.y + 230), "sans", theme.fit(note, "sans", 13, r.w - 80, 9), theme.CREAM_DIM
        )
        seats = self.t("replay.watch_levels")
        theme.small_caps(
            surface,
            seats,
            (r.x + 40, r.y + 290),
            theme.fit(seats, "cond_bold", 13, r.w - 80, 9, 0.16, True),
            theme.BRASS,
        )
        if self.problem:
            theme.blit_text(
                surface,
                self.problem,
                (r.x + 40, r.bottom - 100),
                "sans",
                theme.fit(self.problem, "sans", 14, r.w - 80, 9),
                (232, 150, 120),
            )
        self.ui.draw(surface)
        hint = self.t("hint.navigate")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 24),
            "sans",
            theme.fit(hint, "sans", 13, 1000, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def create(
    app: AppServices,
    deck: str | None = None,
    game: str | None = None,
    players: int | None = None,
    options: dict | None = None,
    **params: object,
) -> WatchScene:
    return WatchScene(app, deck=deck, game=game, players=players, options=options)


__all__ = ["WatchScene", "LiveFeed", "create"]
