"""The Accessibility page, opened from Settings: speech (off, on, screen reader
only), clear suits, the card size and the text size. Every change applies at once and is
saved; every control says its name and its value to a screen reader (``spoken``)."""

from __future__ import annotations

import pygame

from game.services.settings import CARD_SIZES, SPEECH_MODES, TEXT_SIZES
from scenes.scene import AppServices
from scenes.settings import SettingsPanel, label_size
from sprites import theme
from sprites.widgets import Button, Choice, Widget, toggle

PANEL = pygame.Rect(290, 40, 700, 640)
LABEL_X = PANEL.x + 44
#: Room for the longest label at the largest text size ("Grandezza delle carte"): the labels
#: share one size (scenes.settings.label_size), as large as the text size asks.
CONTROL_X = PANEL.x + 336
CONTROL_W = 320
ROW_H = 64


class AccessibilityScene(SettingsPanel):
    panel = PANEL

    def build(self) -> None:
        super().build()
        app = self.app
        self.rows: list[tuple[str, int]] = []
        y = PANEL.y + 128

        def row(key: str) -> pygame.Rect:
            nonlocal y
            self.rows.append((key, y))
            r = pygame.Rect(CONTROL_X, y - 18, CONTROL_W, 36)
            y += ROW_H
            return r

        def add(widget: Widget, key: str) -> None:
            widget.spoken = self.label(key)  # the row's label, which the panel draws beside it
            self.ui.add(widget)

        add(
            Choice(
                row("access.speech"),
                None,
                [(m, self.label(f"access.speech_{m}")) for m in SPEECH_MODES],
                lambda: app.settings.speech,
                lambda v: app.set_setting("speech", v),
                compact=True,
                name="speech",
            ),
            "access.speech",
        )
        add(
            toggle(
                row("access.clear_suits"),
                None,
                lambda: app.settings.clear_suits,
                lambda v: app.set_setting("clear_suits", v),
                self.label("common.on"),
                self.label("common.off"),
                name="clear_suits",
            ),
            "access.clear_suits",
        )
        add(
            Choice(
                row("access.card_size"),
                None,
                [(s, self.label(f"access.size_{s}")) for s in CARD_SIZES],
                lambda: app.settings.card_size,
                lambda v: app.set_setting("card_size", v),
                compact=True,
                name="card_size",
            ),
            "access.card_size",
        )
        add(
            Choice(
                row("access.text_size"),
                None,
                [(s, self.label(f"access.size_{s}")) for s in TEXT_SIZES],
                lambda: app.settings.text_size,
                lambda v: app.set_setting("text_size", v),
                compact=True,
                name="text_size",
            ),
            "access.text_size",
        )
        self.done = self.ui.add(
            Button(
                (PANEL.centerx - 125, PANEL.bottom - 78, 250, 46),
                self.label("common.done"),
                self.back,
                style="primary",
                name="done",
            )
        )

    def draw(self, surface: pygame.Surface) -> None:
        self.dim(surface)
        surface.blit(theme.shadow(PANEL.size, 16, 12, 170), (PANEL.x - 12, PANEL.y - 6))
        surface.blit(theme.panel(PANEL.size, 18, (10, 30, 21, 255), theme.BRASS), PANEL)
        theme.heading(surface, self.t("access.title"), (PANEL.centerx, PANEL.y + 26), 30, anchor="midtop")
        surface.blit(theme.ornament(300), (PANEL.centerx - 150, PANEL.y + 72))
        size = label_size([self.t(k) for k, _ in self.rows], 17, CONTROL_X - LABEL_X - 16)
        for key, y in self.rows:
            theme.blit_text(surface, self.t(key), (LABEL_X, y), "sans_bold", size, theme.CREAM, anchor="midleft")
        ny = self.rows[-1][1] + 36
        # The notes, then the table's reading keys (the key help, also F1 at the table); the
        # lines as tall as the text size makes them, and a line more each where it wraps more.
        step = max(18, theme.font("sans", 13).get_linesize())
        for key, lines in (("access.speech_note", 3), ("access.suits_note", 3), ("access.keys_table", 4)):
            for line in theme.wrap(self.t(key), "sans", 13, PANEL.w - 88, max_lines=lines):
                theme.blit_text(surface, line, (LABEL_X, ny), "sans", 13, theme.CREAM_FAINT, anchor="topleft")
                ny += step
            ny += 4
        theme.blit_text(
            surface,
            self.t("access.hint"),
            (PANEL.centerx, PANEL.bottom - 14),
            "sans",
            12,
            theme.CREAM_FAINT,
            anchor="midbottom",
        )
        self.ui.draw(surface)


def create(app: AppServices, **params: object) -> AccessibilityScene:
    return AccessibilityScene(app)
