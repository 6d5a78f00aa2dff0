"""Game choice for one deck: each game the deck offers, with its line (players · opponents ·
format, computed from rules.yaml and the chosen options), its options, Start and Rules; the
AI level (one setting for every game) at the top right.

A game with presets in rules.yaml (Scopa) offers them by name — only those that fit the
chosen player count — and "Custom": with Custom chosen, "Edit" opens the house rules as
toggles, each with its one-line explanation (the option's ``describe`` key), again only the
ones offered for that player count. Every choice is remembered per game in the settings
(:func:`game.services.settings.game_choice`), a bad remembered value falling back to its default.
Nothing here knows a game by name: presets, options, player counts and explanations all
come from the config.

Start opens the scene registered as "table" with every option in force, Rules the one
registered as "rules"; until those exist the player gets a friendly toast instead.

Keys: Tab / arrows move, Left/Right change a chooser, Enter presses; Esc closes the house
rules (or goes back). Mouse: click segments, arrows and buttons; wheel over a chooser.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

from game.config_types import OptionSpec
from game.services.settings import AI_LEVELS
from game.variants import CUSTOM, house_rules
from scenes.game_panel import (
    LIST_BOTTOM,
    LIST_TOP,
    RIGHT_W,
    RIGHT_X,
    GamePanel,
    Slot,
    game_line,
    in_language,
)
from scenes.house_rules import HouseRulesScene
from scenes.scene import AppServices
from sprites import hidpi, theme
from sprites.controls import caption_size
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import Button, Choice, card_fan_fit, sample_codes

LEFT = pygame.Rect(40, 36, 360, 650)
PANEL_GAP = 14
CONTROL_GAP = 18

#: Options that only matter for a match (hidden while "single deal" is chosen).
MATCH_ONLY = {"target", "deals_to_win"}


class GameSelectScene(HouseRulesScene):
    """The game screen: the deck on the left, its games on the right (the house rules panel,
    when open, over them: scenes.house_rules)."""

    def __init__(
        self,
        app: AppServices,
        deck: str | None = None,
        game: str | None = None,
        players: int | None = None,
        custom: bool = False,
        on_pick: Callable[..., object] | None = None,
    ):
        cfg = app.config
        #: Opened to choose for another screen (hosting an online table): Start reads "Choose",
        #: hands ``(deck, game, players, options)`` to ``on_pick`` and goes back to it.
        self.on_pick = on_pick
        self.deck = cfg.decks[deck] if deck is not None and deck in cfg.decks else next(iter(cfg.decks.values()))
        self.initial_game = game
        self.initial_players = players
        self.appear = Tween(0.0, 1.0, 0.4, ease_out_cubic)
        self._left_cache: tuple | None = None
        self.custom = None  # the game whose house rules panel is open (None: the list of games)
        super().__init__(app)
        if custom:
            p = self.panel_of(game)
            if p is not None and p.game.presets:
                self.open_custom(p)

    def panel_of(self, game_id: str | None) -> GamePanel | None:
        return next((p for p in self.panels if p.game.id == game_id), None)

    def listing(self) -> bool:
        """True while the list of games is shown (the house rules panel is closed)."""
        return self.custom is None

    # ------------------------------------------------------------------ layout
    def build(self) -> None:
        games = [self.app.config.games[g] for g in self.deck.games if g in self.app.config.games]
        n = max(1, len(games))
        avail = LIST_BOTTOM - LIST_TOP - (n - 1) * PANEL_GAP
        h = min(236, avail // n)
        self.panels: list[GamePanel] = []
        focus = None
        for i, game in enumerate(games):
            rect = pygame.Rect(RIGHT_X, LIST_TOP + i * (h + PANEL_GAP), RIGHT_W, h)
            players = self.initial_players if game.id == self.initial_game else None
            panel = GamePanel(self.app.settings, game, rect, players)
            self.panels.append(panel)
            self._build_panel(panel)
            if focus is None or game.id == self.initial_game:
                focus = panel.start
        self.back_button = self.ui.add(
            Button(
                (LEFT.x + 20, LEFT.bottom - 62, 150, 42),
                self.label("common.back"),
                self.back,
                icon="‹",
                size=15,
                name="back",
                visible=self.listing,
            )
        )
        # One AI level for every game, at the top right.
        aw = 240
        self.ai_choice = self.ui.add(
            Choice(
                (RIGHT_X + RIGHT_W - aw, 26, aw, 58),
                self.label("games.ai"),
                [(lvl, self.label(f"ai.{lvl}")) for lvl in AI_LEVELS],
                lambda: self.app.settings.ai_level,
                self._set_ai,
                visible=self.listing,
                name="ai",
            )
        )
        for p in self.panels:
            self._build_custom(p)
        if focus is not None:
            self.ui.focus(focus)

    def _build_panel(self, p: GamePanel) -> None:
        r = p.rect
        game = p.game
        gid = game.id
        # Start and Rules stacked at the right of the block.
        bx = r.right - 24 - 150
        start = "online.choose" if self.on_pick else "games.start"
        p.start = self.ui.add(
            Button(
                (bx, r.y + r.h // 2 - 52, 150, 50),
                self.label(start),
                lambda: self.start(p),
                style="primary",
                size=17,
                name=f"start:{gid}",
                visible=self.listing,
            )
        )
        p.rules = self.ui.add(
            Button(
                (bx, r.y + r.h // 2 + 10, 150, 40),
                self.label("games.rules"),
                lambda: self.rules(p),
                size=14,
                name=f"rules:{gid}",
                visible=self.listing,
            )
        )
        # Watch the computer play this game as chosen here, at the block's top right.
        self.ui.add(
            Button(
                (bx - 18 - 150, r.y + 12, 150, 32),
                self.label("replay.watch_button"),
                lambda: self.watch(p),
                size=13,
                name=f"watch:{gid}",
                visible=self.listing,
            )
        )
        # The daily deal and duplicate deals of this game, beside Watch.
        self.ui.add(
            Button(
                (bx - 18 - 150 - 12 - 150, r.y + 12, 150, 32),
                self.label("daily.button"),
                lambda: self.daily(p),
                size=13,
                name=f"daily:{gid}",
                visible=self.listing,
            )
        )
        y = self._row_y(r)
        row = pygame.Rect(r.x + 24, y, 10, 58)
        if len(game.players) > 1:
            w = self.ui.add(
                Choice(
                    row,
                    self.label("games.players"),
                    [(n, str(n)) for n in game.players],
                    lambda: p.players,
                    lambda v: self._set_players(p, v),
                    visible=self.listing,
                    name=f"players:{gid}",
                )
            )
            p.slots.append(Slot(w, self.listing))
        presets = bool(game.presets)
        if presets:
            p.preset_choice = self.ui.add(
                Choice(
                    row,
                    self.label("house_rules.caption"),
                    self._preset_values(p),
                    p.preset_id,
                    lambda v: self._set_preset(p, v),
                    compact=True,
                    visible=self.listing,
                    name=f"preset:{gid}",
                )
            )
            p.slots.append(Slot(p.preset_choice, self.listing, always_compact=True))
            custom = lambda: self.listing() and p.preset_id() == CUSTOM  # noqa: E731
            p.edit = self.ui.add(
                Button(
                    pygame.Rect(row.x, y + 22, 10, 36),
                    self.label("house_rules.edit"),
                    lambda: self.open_custom(p),
                    size=14,
                    name=f"edit:{gid}",
                    visible=custom,
                )
            )
            p.slots.append(Slot(p.edit, custom, fixed_w=104, reserve=True))
        house = {s.name for s in house_rules(game)} if presets else set()
        for key, spec in game.options.items():
            if len(spec.allowed) < 2 or key in house:
                continue
            values = [(v, self._value_label(key, v)) for v in spec.allowed]
            shown = self._shown_option(p, key, spec)

            def option(k: str = key) -> object:
                return p.options[k]

            w = self.ui.add(
                Choice(
                    row,
                    self.label(f"option.{key}"),
                    values,
                    option,
                    partial(self._set_option, p, key),
                    visible=shown,
                    name=f"{key}:{gid}",
                )
            )
            p.slots.append(Slot(w, shown))
        self._reflow(p)

    @staticmethod
    def _row_y(r: pygame.Rect) -> int:
        """The row of controls: along the bottom, a little lower in a crowded deck's short block."""
        return r.bottom - (62 if r.h < 150 else 66)

    def _shown_option(self, p: GamePanel, key: str, spec: OptionSpec) -> Any:
        def shown() -> bool:
            if not self.listing() or not spec.offered_for(p.players):
                return False
            # "Match to" is hidden while "Single deal" is chosen.
            return not (key in MATCH_ONLY and p.options.get("format") == "single")

        return shown

    def _preset_values(self, p: GamePanel) -> list[tuple[str, Any]]:
        """The presets that fit the player count, then Custom."""
        out: list[tuple[str, object]] = [(q.id, self.label(q.name)) for q in p.game.presets_for(p.players)]
        return [*out, (CUSTOM, self.label("preset.custom"))]

    def _natural_width(self, slot: Slot, compact: bool) -> int:
        if slot.fixed_w:
            return slot.fixed_w
        c = slot.widget
        assert isinstance(c, Choice)
        labels = [str(lab() if callable(lab) else lab) for _, lab in c.options]
        widest = max((theme.text_width(s, "sans_bold", 14) for s in labels), default=0)
        if compact:
            return max(96, theme.text_width(max(labels, key=len, default=""), "sans_bold", 15) + 64)
        return max(96, max(44, widest + 28) * len(labels))

    def _reflow(self, p: GamePanel) -> None:
        """Lay the shown controls out left to right; when they do not fit before Start, the
        widest chooser turns into its compact ‹ value › form, then the next."""
        shown = [s for s in p.slots if s.shown() or (s.reserve and self.listing())]
        room = p.rect.right - 24 - 150 - 24 - (p.rect.x + 24)
        compact = {id(s): s.always_compact for s in shown}
        widths = {id(s): self._natural_width(s, compact[id(s)]) for s in shown}

        def total() -> int:
            return sum(widths.values()) + CONTROL_GAP * max(0, len(shown) - 1)

        while total() > room:
            can = [
                s
                for s in shown
                if not s.fixed_w and not compact[id(s)] and self._natural_width(s, True) < widths[id(s)]
            ]
            if not can:
                break
            s = max(can, key=lambda s: widths[id(s)])
            compact[id(s)] = True
            widths[id(s)] = self._natural_width(s, True)
        x = p.rect.x + 24
        for s in shown:
            s.widget.rect.x = x
            s.widget.rect.w = widths[id(s)]
            if isinstance(s.widget, Choice):
                s.widget.compact = True if compact[id(s)] else None
            x += widths[id(s)] + CONTROL_GAP

    def _value_label(self, key: str, value: object):
        if key == "format":
            return self.label(f"option.format_{value}")
        return str(value)

    # ------------------------------------------------------------------ actions
    def _set_players(self, p: GamePanel, n: int) -> None:
        p.choice.players = n
        if p.preset_choice is not None:
            p.preset_choice.options = self._preset_values(p)
        self._remember(p)

    def _set_option(self, p: GamePanel, key: str, value: object) -> None:
        p.options[key] = value
        self._remember(p)

    def _set_preset(self, p: GamePanel, preset: str) -> None:
        p.choice.preset = preset
        self._remember(p)

    def _set_ai(self, level: str) -> None:
        self.app.set_setting("ai_level", level)

    def back(self) -> None:
        if self.custom is not None:
            self.close_custom()
            return
        super().back()

    def start(self, p: GamePanel) -> None:
        opts = p.in_force()
        try:
            opts = p.game.resolve_options(opts, p.players)
        except ValueError as e:  # a combination rules.yaml forbids: say so, start nothing
            self.app.toast(str(e))
            return
        self._remember(p)
        if self.on_pick is not None:
            self.app.stack.pop()
            self.on_pick(self.deck.id, p.game.id, p.players, opts)
            return
        self.app.open_scene(
            "table",
            deck=self.deck.id,
            game=p.game.id,
            players=p.players,
            options=opts,
            ai_level=self.app.settings.ai_level,
        )

    def rules(self, p: GamePanel) -> None:
        self.app.open_scene("rules", deck=self.deck.id, game=p.game.id)

    def watch(self, p: GamePanel) -> None:
        """Computers at every seat with this game's choices (the "watch" scene sets their levels)."""
        try:
            opts = p.game.resolve_options(p.in_force(), p.players)
        except ValueError as e:
            self.app.toast(str(e))
            return
        self.app.open_scene("watch", deck=self.deck.id, game=p.game.id, players=p.players, options=opts)

    def daily(self, p: GamePanel) -> None:
        """The daily deals of this game; its duplicate deal may also be played with the
        choices made here (any house rules), when they are a combination rules.yaml allows."""
        try:
            opts = p.game.resolve_options(p.in_force(), p.players)
        except ValueError:
            table = None
        else:
            table = {"game": p.game.id, "deck": self.deck.id, "players": p.players, "options": opts}
        self.app.open_scene("daily", game=p.game.id, table=table)

    # ------------------------------------------------------------------ drawing
    def update(self, dt: float) -> None:
        for p in self.panels:
            self._reflow(p)
        # The AI level keeps its segments in every language (Italian "Difficile" is long).
        aw = max(240, self._natural_width(Slot(self.ai_choice, self.listing), False))
        self.ai_choice.rect.update(RIGHT_X + RIGHT_W - aw, 26, aw, 58)
        if self.custom is not None:
            self._reflow_custom(self.custom)
        super().update(dt)
        self.appear.update(dt)

    def _left_column(self, lang: str) -> pygame.Surface:
        if self._left_cache and self._left_cache[0] == (lang, hidpi.scale()):
            return self._left_cache[1]
        d = self.deck
        surf = hidpi.surface(LEFT.size, pygame.SRCALPHA)
        surf.blit(theme.panel(LEFT.size, 16), (0, 0))
        w = LEFT.w
        name = in_language(d.name, lang)
        size = theme.fit(name, "serif_bold", 28, w - 40, 15, tracking_ratio=0.12, caps=True)
        theme.heading(surf, name, (w // 2, 26), size, anchor="midtop", tracking=size * 0.12)
        region = in_language(d.region, lang)
        theme.small_caps(
            surf, region, (w // 2, 66), theme.fit(region, "cond_bold", 13, w - 40, 10, 0.16, True), anchor="midtop"
        )
        surf.blit(theme.ornament(w - 80), (40, 90))
        fan = card_fan_fit(d, sample_codes(d, 5), w - 24, 160, lang, spread=34)
        surf.blit(fan, fan.get_rect(midtop=(w // 2, 110)))
        y = 110 + fan.get_height() + 6
        theme.small_caps(
            surf, self.t("games.deck_cards", count=d.cards), (w // 2, y), 13, theme.BRASS_LIGHT, anchor="midtop"
        )
        y += 30
        for line in theme.wrap(in_language(d.description, lang), "serif", 15, w - 48, max_lines=4):
            theme.blit_text(surf, line, (24, y), "serif", 15, theme.CREAM_DIM)
            y += 21
        # The names players will see on the table, in their language.
        y += 14
        suits = " · ".join(d.suit_name(s, lang) for s in ("D", "C", "S", "B"))
        courts = " · ".join(d.court_name(r, lang) for r in ("J", "Q", "K"))
        for key, value in (("games.suits", suits), ("games.courts", courts)):
            theme.small_caps(surf, self.t(key), (24, y), 12, theme.BRASS)
            y += 18
            size = theme.fit(value, "sans", 14, w - 48, 10)
            theme.blit_text(surf, value, (24, y), "sans", size, theme.CREAM)
            y += 28
        self._left_cache = ((lang, hidpi.scale()), surf)
        return surf

    def _captions_fit(self) -> None:
        """A chooser's caption is drawn over it unshrunk: tell the text-fit measure its room
        (the next control starts a gap further on)."""
        for w in self.ui.widgets:
            if isinstance(w, Choice) and w.visible and w.caption is not None:
                cap = w.caption() if callable(w.caption) else w.caption
                size = caption_size(cap, w.rect.w)
                theme.note_box(
                    cap, theme.text_width(cap, "cond_bold", size, size * 0.16, True), w.rect.w + CONTROL_GAP - 4
                )

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        lang = self.app.language
        a = float(self.appear.value_at(self.alpha))
        left = self._left_column(lang)
        slide = round((1 - a) * -26)
        surface.blit(theme.shadow(LEFT.size, 16, 10, 120), (LEFT.x - 10 + slide, LEFT.y - 10 + 6))
        surface.blit(left, (LEFT.x + slide, LEFT.y))
        title = self.t("games.title")
        room = (self.ai_choice.rect.x if self.custom is None else RIGHT_X + RIGHT_W) - RIGHT_X - 24
        theme.heading(surface, title, (RIGHT_X + 4, 44), theme.fit(title, "serif_bold", 26, room, 16, 0.22, True))
        if self.custom is not None:
            self._draw_custom(surface, self.custom, lang)
        else:
            for p in self.panels:
                self._draw_panel(surface, p, lang)
        self.ui.draw(surface)
        self._captions_fit()
        hint = self.t("hint.navigate")
        theme.blit_text(surface, hint, (RIGHT_X + RIGHT_W // 2, 696), "sans", 13, theme.CREAM_FAINT, anchor="midbottom")

    def _draw_panel(self, surface: pygame.Surface, p: GamePanel, lang: str) -> None:
        r = p.rect
        surface.blit(theme.shadow(r.size, 14, 8, 110), (r.x - 8, r.y - 8 + 5))
        surface.blit(theme.panel(r.size, 14), r)
        text_w = r.w - 24 - 150 - 24 - 26 - 24
        name = in_language(p.game.name, lang)
        # The name keeps left of the daily deal's and Watch's buttons (a two-word name can be long).
        room = r.w - 24 - 150 - 18 - 150 - 12 - 150 - 12 - 24
        size = theme.fit(name, "serif_bold", 28, room, 18, 3 / 28, True)
        theme.heading(surface, name, (r.x + 24, r.y + 12 + (28 - size) // 2), size, tracking=size * 3 / 28)
        line = game_line(self.t, p.game, p.in_force())
        theme.blit_text(
            surface,
            line,
            (r.x + 26, r.y + (47 if r.h < 150 else 50)),
            "sans_bold",
            theme.fit(line, "sans_bold", 14, text_w, 11),
            theme.BRASS_LIGHT,
        )
        blurb = self.t(f"blurb.{p.game.id}", suit=self.deck.suit_name("D", lang))
        # The blurb takes the lines left above the row of controls (none in a crowded deck).
        lines = (self._row_y(r) - r.y - 74) // 18
        y = r.y + 74
        if lines > 0:
            for ln in theme.wrap(blurb, "sans", 14, text_w, max_lines=lines):
                theme.blit_text(surface, ln, (r.x + 26, y), "sans", 14, theme.CREAM_DIM)
                y += 18


def create(
    app: AppServices,
    deck: str | None = None,
    game: str | None = None,
    players: int | None = None,
    custom: bool = False,
    on_pick: object = None,
    **params: object,
) -> GameSelectScene:
    return GameSelectScene(
        app, deck=deck, game=game, players=players, custom=bool(custom), on_pick=on_pick if callable(on_pick) else None
    )
