"""Deck choice: every deck of rules.yaml as a panel — a fan of its cards drawn in its own
pattern, name, region, card count, a one-line description and the games it offers."""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from game.config_types import DeckConfig
from scenes.scene import AppServices, UIScene
from sprites import hidpi, theme
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import CONFIRM_KEYS, Button, Widget, card_fan_fit, sample_codes

PANEL_W, PANEL_H = 278, 262
GAP = 20
TOP = 116
PER_ROW = 4


def _loc(mapping: Mapping[str, str], lang: str) -> str:
    return mapping.get(lang) or mapping.get("en") or ""


class DeckPanel(Widget):
    """One deck, chosen by click or Enter."""

    def __init__(self, rect, scene: DeckSelectScene, deck: DeckConfig, index: int):
        super().__init__(rect, name=f"deck:{deck.id}")
        self.scene = scene
        self.deck = deck
        self.appear = Tween(0.0, 1.0, 0.42, ease_out_cubic, delay=0.04 * index)
        self.spoken = self.words  # what a screen reader says of it (scenes.speak)

    def words(self) -> str:
        """The deck in words: its name, region, card count and games."""
        lang = self.scene.app.language
        d = self.deck
        games = ", ".join(_loc(self.scene.app.config.games[g].name, lang) for g in d.games)
        return f"{_loc(d.name, lang)}, {_loc(d.region, lang)}. {self.scene.t('decks.cards', count=d.cards)}: {games}"

    def activate(self) -> None:
        self.scene.choose(self.deck)

    def on_key(self, key: int, mod: int) -> bool:
        if key in CONFIRM_KEYS:
            self.activate()
            return True
        return False

    def on_mouse_down(self, pos, button) -> bool:
        if button == 1:
            self.pressed = True
            return True
        return False

    def on_mouse_up(self, pos, button) -> bool:
        was = self.pressed
        self.pressed = False
        if was and button == 1 and self.rect.collidepoint(pos):
            self.activate()
        return True

    def update(self, dt: float, focused: bool) -> None:
        super().update(dt, focused)
        self.appear.update(dt)

    def _static(self, lang: str) -> pygame.Surface:
        """Everything but the focus effects, cached per language."""
        key = ("deckpanel", self.deck.id, lang, self.rect.size, hidpi.scale())  # drawn at one window size
        cache = self.scene.cache
        if key in cache:
            return cache[key]
        w, h = self.rect.size
        t = self.scene.t
        d = self.deck
        surf = hidpi.surface((w, h), pygame.SRCALPHA)
        surf.blit(theme.panel((w, h), 14), (0, 0))
        # A lighter "lamp" behind the fan so the cards read as objects on the cloth.
        surf.blit(theme.rounded((w - 16, 112), 10, (255, 244, 214, 14)), (8, 8))
        fan = card_fan_fit(d, sample_codes(d, 5), w - 70, 92, lang, spread=34)
        surf.blit(fan, fan.get_rect(midtop=(w // 2 - 22, 8)))
        # Card count: a small brass tag in the corner.
        count = t("decks.cards", count=d.cards)
        tag = theme.text(count, "cond_bold", 12, (40, 28, 12), tracking=1.2, caps=True)
        tag_bg = theme.rounded((tag.get_width() + 14, 20), 10, (*theme.BRASS, 235))
        surf.blit(tag_bg, (w - tag_bg.get_width() - 10, 10))
        surf.blit(tag, tag.get_rect(center=(w - 10 - tag_bg.get_width() // 2, 20)))
        name = _loc(d.name, lang)
        size = theme.fit(name, "serif_bold", 21, w - 28, 13)
        theme.blit_text(surf, name, (16, 124), "serif_bold", size, theme.CREAM, shadow=1)
        region = _loc(d.region, lang)
        rsize = theme.fit(region, "sans", 13, w - 28, 10)
        theme.blit_text(surf, region, (16, 153), "sans", rsize, theme.BRASS_LIGHT)
        # Games offered, as small chips along the bottom: all of them, a little
        # smaller and tighter when four would not fit, on two rows (the description one
        # line shorter) when one row cannot hold them.
        names = [_loc(self.scene.app.config.games[gid].name, lang) for gid in d.games]
        fits = [
            (sz, pd)
            for sz, pd in ((12, 18), (11, 14), (11, 10), (10, 8))
            if sum(theme.text_width(n, "sans_bold", sz) + pd + 6 for n in names) <= w - 28
        ]
        size, pad = fits[0] if fits else (11, 12)
        rows = 1 if fits else 2
        y = 176
        for line in theme.wrap(_loc(d.description, lang), "sans", 13, w - 30, max_lines=4 - rows):
            theme.blit_text(surf, line, (16, y), "sans", 13, theme.CREAM_DIM)
            y += 17 if rows == 1 else 15
        last = h - 30 if rows == 1 else h - 28
        x = 16
        cy = last - (rows - 1) * 25
        self.chips = 0  # how many were drawn (tests)
        for name in names:
            label = theme.text(name, "sans_bold", size, theme.CREAM)
            chip = theme.rounded((label.get_width() + pad, 22), 11, (255, 240, 210, 20), 1, (*theme.BRASS, 200))
            if x + chip.get_width() > w - 12 and cy < last:  # on to the second row
                x, cy = 16, last
            if x + chip.get_width() > w - 12:
                break
            self.chips += 1
            surf.blit(chip, (x, cy))
            surf.blit(label, label.get_rect(center=(x + chip.get_width() // 2, cy + 11)))
            x += chip.get_width() + 6
        cache[key] = surf
        return surf

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        a = float(self.appear.value)
        lift = round(6 * max(self.hover.value, self.focus_glow.value)) - (0 if not self.pressed else 2)
        rise = round((1 - a) * 30)
        r = self.rect.move(0, rise - lift)
        surface.blit(theme.shadow(r.size, 14, 10, 120 + 40 * lift // 6), (r.x - 10, r.y - 10 + 6 + lift))
        img = self._static(self.scene.app.language)
        if a < 1:
            img = img.copy()
            img.set_alpha(int(255 * a))
        self.draw_focus(surface, r, 14)
        surface.blit(img, r)
        if self.focus_glow.value > 0.02:
            edge = theme.rounded(r.size, 14, (0, 0, 0, 0), 2, (*theme.BRASS_LIGHT, int(255 * self.focus_glow.value)))
            surface.blit(edge, r)


class DeckSelectScene(UIScene):
    def __init__(self, app: AppServices, deck: str | None = None):
        self.initial = deck
        self.cache: dict[tuple, pygame.Surface] = {}
        super().__init__(app)

    def build(self) -> None:
        decks = list(self.app.config.decks.values())
        rows = [decks[i : i + PER_ROW] for i in range(0, len(decks), PER_ROW)]
        self.panels: list[DeckPanel] = []
        for r, row in enumerate(rows):
            total = len(row) * PANEL_W + (len(row) - 1) * GAP
            x0 = (1280 - total) // 2
            for c, deck in enumerate(row):
                rect = (x0 + c * (PANEL_W + GAP), TOP + r * (PANEL_H + GAP), PANEL_W, PANEL_H)
                self.panels.append(self.ui.add(DeckPanel(rect, self, deck, len(self.panels))))
        self.back_button = self.ui.add(
            Button(
                (1280 - 56 - 150, 44, 150, 40),
                self.label("common.back"),
                self.back,
                style="secondary",
                icon="‹",
                size=15,
                name="back",
            )
        )
        want = self.initial or self.app.settings.last_deck
        for p in self.panels:
            if p.deck.id == want:
                self.ui.focus(p)
                break
        else:
            if self.panels:
                self.ui.focus(self.panels[0])

    def choose(self, deck: DeckConfig) -> None:
        if self.app.settings.last_deck != deck.id:
            self.app.set_setting("last_deck", deck.id)
        self.app.open_scene("games", deck=deck.id)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        theme.heading(surface, self.t("decks.title"), (58, 40), 30)
        theme.blit_text(surface, self.t("decks.subtitle"), (60, 82), "serif", 16, theme.CREAM_DIM)
        self.ui.draw(surface)
        theme.blit_text(surface, self.t("hint.navigate"), (640, 692), "sans", 13, theme.CREAM_FAINT, anchor="midbottom")


def create(app: AppServices, deck: str | None = None, **params: object) -> DeckSelectScene:
    return DeckSelectScene(app, deck=deck)
