"""Game choice for one deck: each game the deck offers, with its line (players · opponents ·
format, computed from rules.yaml and the chosen options), options, AI level, Start and Rules.

Start opens the scene registered as "table", Rules the one registered as "rules"; until
those exist the player gets a friendly toast instead.
"""
from __future__ import annotations

from typing import Any

import pygame

from game.settings import AI_LEVELS
from scenes.scene import UIScene
from sprites import theme
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import Button, Choice, card_fan_fit, sample_codes

LEFT = pygame.Rect(40, 36, 360, 650)
RIGHT_X = 430
RIGHT_W = 1240 - RIGHT_X
LIST_TOP = 96
LIST_BOTTOM = 668
PANEL_GAP = 14

#: Options that only matter for a match (hidden while "single deal" is chosen).
MATCH_ONLY = {"target", "deals_to_win"}


def _loc(mapping: Any, lang: str) -> str:
    return mapping.get(lang) or mapping.get("en") or ""


def game_line(t: Any, game: Any, options: dict[str, Any]) -> str:
    """"2–4 players · AI opponents / partner · Match to 11", from the config and chosen options.

    ``t(key, **params)`` is the message lookup (so the line follows the language).
    """
    players = list(game.players)
    if len(players) > 1:
        parts = [t("line.players_range", lo=min(players), hi=max(players))]
    else:
        parts = [t("line.players", count=players[0])]
    mode_ids = {m.id for m in game.modes}
    if mode_ids == {"partners"}:
        parts.append(t("line.mode_partners"))
    elif "partners" in mode_ids:
        parts.append(t("line.mode_mixed"))
    elif players == [2]:
        parts.append(t("line.mode_versus_2"))
    elif players == [3]:
        parts.append(t("line.mode_versus_3"))
    else:
        parts.append(t("line.mode_versus_many"))
    fmt = options.get("format")
    if fmt == "single":
        parts.append(t("line.single_deal"))
    elif "deals_to_win" in options and fmt in (None, "match"):
        parts.append(t("line.first_to_deals", count=options["deals_to_win"]))
    elif "target" in options:
        parts.append(t("line.match_to", target=options["target"]))
    elif "bummerl" in options:
        n = options["bummerl"]
        parts.append(t("line.bummerl_7") if n == 7 else t("line.bummerl", count=n))
    return " · ".join(parts)


class GamePanel:
    """The static part of one game's block (name, line, blurb) plus its widget rects."""

    def __init__(self, scene: GameSelectScene, game: Any, rect: pygame.Rect):
        self.scene = scene
        self.game = game
        self.rect = rect
        self.options: dict[str, Any] = scene.saved_options(game)
        self.players = scene.saved_players(game)
        self.start: Button | None = None
        self.rules: Button | None = None
        self.controls: list[Choice] = []  # option choosers, laid out left to right
        self.controls_x = rect.x + 24


class GameSelectScene(UIScene):
    def __init__(self, app: Any, deck: str | None = None, game: str | None = None):
        cfg = app.config
        self.deck = cfg.decks[deck] if deck in cfg.decks else next(iter(cfg.decks.values()))
        self.initial_game = game
        self.appear = Tween(0.0, 1.0, 0.4, ease_out_cubic)
        self._left_cache: tuple | None = None
        super().__init__(app)

    # ------------------------------------------------------------------ option memory
    def saved_options(self, game: Any) -> dict[str, Any]:
        saved = self.app.settings.game_options.get(game.id, {})
        opts = game.default_options()
        for k, v in saved.items():
            if k in game.options and v in game.options[k].allowed:
                opts[k] = v
        return opts

    def saved_players(self, game: Any) -> int:
        saved = self.app.settings.game_options.get(game.id, {}).get("players")
        return saved if saved in game.players else min(game.players)

    def _remember(self, panel: GamePanel) -> None:
        self.app.settings.game_options[panel.game.id] = {**panel.options, "players": panel.players}
        self.app.save_settings()

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
            panel = GamePanel(self, game, rect)
            self.panels.append(panel)
            self._build_panel(panel)
            if focus is None or game.id == self.initial_game:
                focus = panel.start
        self.back_button = self.ui.add(Button((LEFT.x + 20, LEFT.bottom - 62, 150, 42), self.label("common.back"),
                                              self.back, icon="‹", size=15, name="back"))
        if focus is not None:
            self.ui.focus(focus)

    def _build_panel(self, p: GamePanel) -> None:
        r = p.rect
        game = p.game
        # Start and Rules stacked at the right of the block.
        bx = r.right - 24 - 150
        p.start = self.ui.add(Button((bx, r.y + r.h // 2 - 52, 150, 50), self.label("games.start"),
                                     lambda: self.start(p), style="primary", size=17, name=f"start:{game.id}"))
        p.rules = self.ui.add(Button((bx, r.y + r.h // 2 + 10, 150, 40), self.label("games.rules"),
                                     lambda: self.rules(p), size=14, name=f"rules:{game.id}"))
        # Options along the bottom of the block, left to right.
        x = r.x + 24
        y = r.bottom - 66
        right_limit = bx - 24
        controls: list[tuple[str, Any, list, Any, Any, int]] = []
        if len(game.players) > 1:
            controls.append(("players", self.label("games.players"),
                             [(n, str(n)) for n in game.players],
                             lambda p=p: p.players, lambda v, p=p: self._set_players(p, v), 44))
        for key, spec in game.options.items():
            if len(spec.allowed) < 2:
                continue
            values = [(v, self._value_label(key, v)) for v in spec.allowed]
            controls.append((key, self.label(f"option.{key}"), values,
                             lambda p=p, k=key: p.options[k],
                             lambda v, p=p, k=key: self._set_option(p, k, v), 44 if key != "format" else 78))
        controls.append(("ai", self.label("games.ai"), [(lvl, self.label(f"ai.{lvl}")) for lvl in AI_LEVELS],
                         lambda: self.app.settings.ai_level, self._set_ai, 72))
        for key, caption, values, get, set_, seg in controls:
            w = max(96, seg * len(values))
            w = min(w, right_limit - x)
            visible = (lambda p=p: p.options.get("format") != "single") if key in MATCH_ONLY and "format" in p.options \
                else True
            p.controls.append(self.ui.add(Choice((x, y, w, 58), caption, values, get, set_, visible=visible,
                                                 name=f"{key}:{game.id}")))
            x += w + 18
        self._reflow(p)

    def _reflow(self, p: GamePanel) -> None:
        """Close the gap left by a hidden option (e.g. "Match to" while "Single deal")."""
        x = p.controls_x
        for c in p.controls:
            if c.visible:
                c.rect.x = x
                x += c.rect.w + 18

    def _value_label(self, key: str, value: Any):
        if key == "format":
            return self.label(f"option.format_{value}")
        return str(value)

    # ------------------------------------------------------------------ actions
    def _set_players(self, p: GamePanel, n: int) -> None:
        p.players = n
        self._remember(p)

    def _set_option(self, p: GamePanel, key: str, value: Any) -> None:
        p.options[key] = value
        self._remember(p)

    def _set_ai(self, level: str) -> None:
        self.app.set_setting("ai_level", level)

    def start(self, p: GamePanel) -> None:
        self._remember(p)
        self.app.open_scene("table", deck=self.deck.id, game=p.game.id, players=p.players,
                            options=dict(p.options), ai_level=self.app.settings.ai_level)

    def rules(self, p: GamePanel) -> None:
        self.app.open_scene("rules", deck=self.deck.id, game=p.game.id)

    # ------------------------------------------------------------------ drawing
    def update(self, dt: float) -> None:
        for p in self.panels:
            self._reflow(p)
        super().update(dt)
        self.appear.update(dt)

    def _left_column(self, lang: str) -> pygame.Surface:
        if self._left_cache and self._left_cache[0] == lang:
            return self._left_cache[1]
        d = self.deck
        surf = pygame.Surface(LEFT.size, pygame.SRCALPHA)
        surf.blit(theme.panel(LEFT.size, 16), (0, 0))
        w = LEFT.w
        name = _loc(d.name, lang)
        size = theme.fit(name, "serif_bold", 28, w - 40, 15, tracking_ratio=0.12, caps=True)
        theme.heading(surf, name, (w // 2, 26), size, anchor="midtop", tracking=size * 0.12)
        region = _loc(d.region, lang)
        theme.small_caps(surf, region, (w // 2, 66), theme.fit(region, "cond_bold", 13, w - 40, 10, 0.16, True),
                         anchor="midtop")
        surf.blit(theme.ornament(w - 80), (40, 90))
        fan = card_fan_fit(d, sample_codes(d, 5), w - 24, 160, lang, spread=34)
        surf.blit(fan, fan.get_rect(midtop=(w // 2, 110)))
        y = 110 + fan.get_height() + 6
        theme.small_caps(surf, self.t("games.deck_cards", count=d.cards), (w // 2, y), 13, theme.BRASS_LIGHT,
                         anchor="midtop")
        y += 30
        for line in theme.wrap(_loc(d.description, lang), "serif", 15, w - 48, max_lines=4):
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
        self._left_cache = (lang, surf)
        return surf

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        lang = self.app.language
        a = float(self.appear.value_at(self.alpha))
        left = self._left_column(lang)
        slide = round((1 - a) * -26)
        surface.blit(theme.shadow(LEFT.size, 16, 10, 120), (LEFT.x - 10 + slide, LEFT.y - 10 + 6))
        surface.blit(left, (LEFT.x + slide, LEFT.y))
        theme.heading(surface, self.t("games.title"), (RIGHT_X + 4, 44), 26)
        for p in self.panels:
            r = p.rect
            surface.blit(theme.shadow(r.size, 14, 8, 110), (r.x - 8, r.y - 8 + 5))
            surface.blit(theme.panel(r.size, 14), r)
            name = _loc(p.game.name, lang)
            theme.heading(surface, name, (r.x + 24, r.y + 12), 28, tracking=3)
            line = game_line(self.t, p.game, p.options)
            theme.blit_text(surface, line, (r.x + 26, r.y + 50), "sans_bold", 14, theme.BRASS_LIGHT)
            blurb = self.t(f"blurb.{p.game.id}", suit=self.deck.suit_name("D", lang))
            text_w = r.w - 24 - 150 - 24 - 26 - 24
            lines = max(1, (r.h - 66 - 74) // 18)
            y = r.y + 74
            for ln in theme.wrap(blurb, "sans", 14, text_w, max_lines=lines):
                theme.blit_text(surface, ln, (r.x + 26, y), "sans", 14, theme.CREAM_DIM)
                y += 18
        self.ui.draw(surface)
        theme.blit_text(surface, self.t("hint.navigate"), (RIGHT_X + RIGHT_W // 2, 696), "sans", 13,
                        theme.CREAM_FAINT, anchor="midbottom")


def create(app: Any, deck: str | None = None, game: str | None = None, **params: Any) -> GameSelectScene:
    return GameSelectScene(app, deck=deck, game=game)
