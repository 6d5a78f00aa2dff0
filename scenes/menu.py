"""The title screen: Play, Rules, Settings, Quit, a hero fan of cards, and the product's
global controls (language, contrast, grain, colour temperature) always at hand."""
from __future__ import annotations

from typing import Any

import pygame

from scenes.scene import UIScene
from scenes.settings import language_choice, picture_slider
from sprites import theme
from sprites.tween import Tween, ease_out_back, ease_out_cubic
from sprites.widgets import Button, card_fan, sample_codes

LEFT = 96
BAR = pygame.Rect(40, 600, 1200, 86)


class MenuScene(UIScene):
    def build(self) -> None:
        app = self.app
        y = 318
        self.play = self.ui.add(Button((LEFT, y, 320, 56), self.label("menu.play"), self._play, style="primary",
                                       size=19, name="play"))
        y += 56 + 14
        for key, fn in (("rules", self._rules), ("settings", self._settings), ("quit", app.quit)):
            self.ui.add(Button((LEFT, y, 320, 46), self.label(f"menu.{key}"), fn, name=key))
            y += 46 + 12
        self.quit_button = self.ui.widgets[-1]
        # The bottom bar: the same four controls as the product page's header.
        inner = BAR.inflate(-56, 0)
        w = (inner.w - 3 * 40) // 4
        x = inner.x
        top = BAR.y + 16
        self.ui.add(language_choice(app, (x, top, w, 58), caption=self.label("common.language")))
        for i, key in enumerate(("contrast", "grain", "temperature")):
            x = inner.x + (i + 1) * (w + 40)
            self.ui.add(picture_slider(app, key, (x, top, w, 50), caption=self.label(f"common.{key}")))
        self.ui.focus(self.play)
        self.intro = Tween(0.0, 1.0, 0.6, ease_out_cubic)
        self.fan_in = Tween(0.0, 1.0, 0.6, ease_out_back, delay=0.08)

    # ------------------------------------------------------------------ actions
    def _deck(self) -> Any:
        cfg = self.app.config
        last = self.app.settings.last_deck
        return cfg.decks[last] if last in cfg.decks else next(iter(cfg.decks.values()))

    def _play(self) -> None:
        self.app.open_scene("decks", deck=self.app.settings.last_deck or None)

    def _rules(self) -> None:
        self.app.open_scene("rules", deck=self._deck().id)

    def _settings(self) -> None:
        self.app.open_scene("settings")

    def back(self) -> None:
        # Esc on the title screen never quits by surprise: it moves to the Quit button.
        self.ui.focus(self.quit_button)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            self.app.quit()
            return
        super().handle(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.intro.update(dt)
        self.fan_in.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        a = float(self.intro.value_at(self.alpha))
        lang = self.app.language
        # Title block.
        rise = round((1 - a) * 18)
        title = theme.text(self.t("app.title"), "serif_bold", 72, theme.CREAM, tracking=14, caps=True, shadow=3)
        title_layer = title
        if a < 1:
            title_layer = title.copy()
            title_layer.set_alpha(int(255 * a))
        surface.blit(title_layer, (LEFT - 4, 104 + rise))
        tw = title.get_width() - 20
        surface.blit(theme.ornament(tw), (LEFT, 196 + rise))
        theme.small_caps(surface, self.t("app.tagline"), (LEFT + 2, 222 + rise), 16, theme.BRASS)
        theme.blit_text(surface, self.t("app.subtitle"), (LEFT + 2, 252 + rise), "serif", 17, theme.CREAM_DIM)
        # Hero fan of the featured deck.
        deck = self._deck()
        fan = card_fan(deck, sample_codes(deck, 5), 250, lang, spread=38)
        f = float(self.fan_in.value_at(self.alpha))
        cx, cy = 930, 312 + round((1 - f) * 60)
        spot = theme.spotlight((820, 600), (40, 34, 20), 1.4)
        surface.blit(spot, spot.get_rect(center=(cx, cy + 10)), special_flags=pygame.BLEND_RGB_ADD)
        fan_img = fan
        if f < 1:
            fan_img = fan.copy()
            fan_img.set_alpha(int(255 * max(0.0, min(1.0, f))))
        surface.blit(fan_img, fan_img.get_rect(center=(cx, cy)))
        caption = self.t("menu.featured", deck=deck.name.get(lang, deck.name["en"]))
        theme.small_caps(surface, caption, (cx, cy + fan.get_height() // 2 + 18), 13, theme.BRASS, anchor="midtop")
        region = deck.region.get(lang, deck.region["en"])
        theme.blit_text(surface, region, (cx, cy + fan.get_height() // 2 + 40), "serif", 15, theme.CREAM_DIM,
                        anchor="midtop")
        # Bottom bar of global controls.
        surface.blit(theme.shadow(BAR.size, 14, 8, 110), (BAR.x - 8, BAR.y - 8 + 4))
        surface.blit(theme.panel(BAR.size, 14), BAR)
        self.ui.draw(surface)
        theme.blit_text(surface, self.t("hint.menu"), (640, 574), "sans", 13, theme.CREAM_FAINT, anchor="midbottom")


def create(app: Any, **params: Any) -> MenuScene:
    return MenuScene(app)
