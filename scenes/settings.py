"""The settings overlay (language, picture sliders, animation speed, volume, fullscreen,
hints, how long a finished trick stays, the running tally) and the control factories the menu's bottom bar shares with it.

Every change applies at once (the picture, the language, the motion); it is saved when a
choice is made or a slider is released.
"""

from __future__ import annotations

from functools import partial

import pygame

from game.config import LANGUAGES
from game.services.i18n import LANGUAGE_NAMES
from game.services.settings import ANIMATION_SPEEDS, TRICK_HOLDS
from scenes.scene import AppServices, UIScene
from sprites import hidpi, theme
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import Button, Choice, Slider, same_label_size, toggle


def _percent(app: AppServices):
    return lambda v: app.i18n.t("common.percent", value=v)


def language_choice(app: AppServices, rect, caption=None, compact: bool | None = True) -> Choice:
    """Language chooser; each language is named in itself (Deutsch, Italiano…)."""
    return Choice(
        rect,
        caption,
        [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
        lambda: app.settings.language,
        lambda v: app.set_setting("language", v),
        compact=compact,
        name="language",
    )


def picture_slider(app: AppServices, key: str, rect, caption=None) -> Slider:
    """Contrast / grain / temperature: the picture changes while dragging, saved on release."""
    return Slider(
        rect,
        caption,
        lambda: getattr(app.settings, key),
        lambda v: app.set_setting(key, v, commit=False),
        fmt=_percent(app),
        on_commit=app.save_settings,
        name=key,
    )


PANEL = pygame.Rect(290, 16, 700, 688)
LABEL_X = PANEL.x + 44
#: The labels' room holds the longest label at the largest text size ("Le mani restano in
#: tavola"), so that every label is drawn at one size, as large as the text size asks.
CONTROL_X = PANEL.x + 358
CONTROL_W = 298
ROW_H = 41  # twelve rows above the buttons


class SettingsPanel(UIScene):
    """An overlay of settings on one panel (this page and the Accessibility page): it fades
    in, a click outside the panel closes it like Esc, and closing saves the settings."""

    is_overlay = True
    panel = PANEL

    def build(self) -> None:
        self.appear = Tween(0.0, 1.0, 0.26, ease_out_cubic)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not self.panel.collidepoint(event.pos):
            self.back()
            return
        super().handle(event)

    def back(self) -> None:
        self.app.save_settings()
        super().back()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)

    def dim(self, surface: pygame.Surface) -> float:
        """Darken what lies under the overlay as it fades in; the fade's value (0–1)."""
        a = float(self.appear.value_at(self.alpha))
        dim = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
        dim.fill((4, 12, 8, int(150 * a)))
        surface.blit(dim, (0, 0))
        return a


class SettingsScene(SettingsPanel):
    def build(self) -> None:
        super().build()
        app = self.app
        self.no_audio_device = no_audio_device(app)
        self.rows: list[tuple[str, int]] = []
        y = PANEL.y + 120

        def row(key: str) -> pygame.Rect:
            nonlocal y
            self.rows.append((key, y))
            r = pygame.Rect(CONTROL_X, y - 18, CONTROL_W, 36)
            y += ROW_H
            return r

        self.ui.add(language_choice(app, row("common.language"), compact=True))
        for key in ("contrast", "grain", "temperature"):

            def level(k: str = key) -> int:
                return getattr(app.settings, k)

            self.ui.add(
                Slider(
                    row(f"common.{key}"),
                    None,
                    level,
                    partial(app.set_setting, key, commit=False),
                    fmt=_percent(app),
                    on_commit=app.save_settings,
                    name=key,
                )
            )
        self.ui.add(
            Choice(
                row("settings.animation"),
                None,
                [(s, self.label(f"settings.speed_{s}")) for s in ANIMATION_SPEEDS],
                lambda: app.settings.animation_speed,
                lambda v: app.set_setting("animation_speed", v),
                name="animation_speed",
            )
        )
        self.ui.add(
            Slider(
                row("settings.volume"),
                None,
                lambda: app.settings.volume,
                lambda v: app.set_setting("volume", v, commit=False),
                fmt=_percent(app),
                on_commit=app.save_settings,
                neutral_tick=False,
                name="volume",
            )
        )
        # Mute (also the M key anywhere): kept apart from the volume so unmuting restores it.
        self.ui.add(
            toggle(
                row("settings.sound"),
                None,
                lambda: not app.settings.muted,
                lambda v: app.set_setting("muted", not v),
                self.label("common.on"),
                self.label("common.off"),
                name="sound",
            )
        )
        self.ui.add(
            toggle(
                row("settings.fullscreen"),
                None,
                lambda: app.settings.fullscreen,
                lambda v: app.set_setting("fullscreen", v),
                self.label("common.on"),
                self.label("common.off"),
                name="fullscreen",
            )
        )
        self.ui.add(
            toggle(
                row("settings.hints"),
                None,
                lambda: app.settings.hints,
                lambda v: app.set_setting("hints", v),
                self.label("common.on"),
                self.label("common.off"),
                name="hints",
            )
        )
        # How long a finished trick stays (any click or key gathers it sooner), and the
        # capture games' awards as they stand (the table's pile view and score panel).
        self.ui.add(
            Choice(
                row("story.trick_hold"),
                None,
                [(h, self.label(f"story.hold_{h}")) for h in TRICK_HOLDS],
                lambda: app.settings.trick_hold,
                lambda v: app.set_setting("trick_hold", v),
                name="trick_hold",
            )
        )
        self.ui.add(
            toggle(
                row("story.running_tally"),
                None,
                lambda: app.settings.running_tally,
                lambda v: app.set_setting("running_tally", v),
                self.label("common.on"),
                self.label("common.off"),
                name="running_tally",
            )
        )
        # Open hands practice: the computer's cards face up; such matches are practice.
        self.ui.add(
            toggle(
                row("replay.open_hands"),
                None,
                lambda: app.settings.open_hands,
                lambda v: app.set_setting("open_hands", v),
                self.label("common.on"),
                self.label("common.off"),
                name="open_hands",
            )
        )
        # A screen reader says each row's label with its value (scenes.speak).
        for widget, (key, _) in zip(self.ui.widgets, self.rows):
            widget.spoken = self.label(key)
        by, widths = PANEL.bottom - 90, (228, 212, 148)  # room for "Ripristina immagine", "Barrierefreiheit"
        gap = (PANEL.w - 88 - sum(widths)) // 2
        reset = self.ui.add(
            Button((PANEL.x + 44, by, widths[0], 46), self.label("settings.reset_picture"), self._reset, name="reset")
        )
        # Speech, clear suits, card and text size: a page of their own.
        access = self.ui.add(
            Button(
                (PANEL.x + 44 + widths[0] + gap, by, widths[1], 46),
                self.label("access.button"),
                lambda: app.stack.push("accessibility"),
                name="accessibility",
            )
        )
        self.done = self.ui.add(
            Button(
                (PANEL.right - 44 - widths[2], by, widths[2], 46),
                self.label("common.done"),
                self.back,
                style="primary",
                name="done",
            )
        )
        same_label_size(reset, access, self.done)

    def _reset(self) -> None:
        for key in ("contrast", "grain", "temperature"):
            self.app.set_setting(key, 50, commit=False)
        self.app.save_settings()
        self.app.toast(self.t("toast.picture_reset"))

    def draw(self, surface: pygame.Surface) -> None:
        a = self.dim(surface)
        offset = round((1 - a) * 24)
        layer = self._panel_layer()
        # (set_alpha(None) would switch off per-pixel blending and show the corners black.)
        layer.set_alpha(int(255 * a))
        surface.blit(theme.shadow(PANEL.size, 16, 12, 170), (PANEL.x - 12, PANEL.y - 12 + 6 + offset))
        surface.blit(layer, (PANEL.x, PANEL.y + offset))
        if offset:
            # Widgets follow the panel while it settles.
            for w in self.ui.widgets:
                w.rect.y += offset
            self.ui.draw(surface)
            for w in self.ui.widgets:
                w.rect.y -= offset
        else:
            self.ui.draw(surface)
        self._draw_audio_note(surface, offset)

    def audio_note(self) -> str | None:
        """ "No audio device" when the sound cannot be heard on this machine, else None."""
        return self.t("settings.no_audio_device") if self.no_audio_device else None

    def _draw_audio_note(self, surface: pygame.Surface, offset: int) -> None:
        # Under the Sound row's label, so the volume and mute controls explain their silence.
        note = self.audio_note()
        y = next((y for key, y in self.rows if key == "settings.sound"), None)
        if note is None or y is None:
            return
        size = theme.fit(note, "sans", 12, CONTROL_X - LABEL_X - 16, 9)
        theme.blit_text(surface, note, (LABEL_X, y + 11 + offset), "sans", size, (232, 150, 120), anchor="topleft")

    def _panel_layer(self) -> pygame.Surface:
        """The panel with its static text, re-rendered when the language changes."""
        # The text size may change on the Accessibility page. (The rows' loop below reuses the
        # name: the layer is kept under the last row's key, so this test never finds it.)
        key: tuple[str, float] | str = (self.app.language, theme.TEXT_SCALE[0])
        cached = getattr(self, "_layer", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        layer = hidpi.surface(PANEL.size, pygame.SRCALPHA)
        layer.blit(theme.panel(PANEL.size, 18, (10, 30, 21, 255), theme.BRASS), (0, 0))
        inner = pygame.Rect(8, 8, PANEL.w - 16, PANEL.h - 16)
        layer.blit(theme.rounded(inner.size, 13, (0, 0, 0, 0), 1, (*theme.BRASS_DARK, 160)), inner)
        theme.heading(layer, self.t("settings.title"), (PANEL.w // 2, 34), 30, anchor="midtop")
        layer.blit(theme.ornament(300), (PANEL.w // 2 - 150, 80))
        size = label_size([self.t(k) for k, _ in self.rows], 16, CONTROL_X - LABEL_X - 16)
        for key, y in self.rows:
            theme.blit_text(
                layer, self.t(key), (LABEL_X - PANEL.x, y - PANEL.y), "sans_bold", size, theme.CREAM, anchor="midleft"
            )
        for i in range(len(self.rows) - 1):
            yy = (self.rows[i][1] + self.rows[i + 1][1]) // 2 - PANEL.y
            # Blitted, not drawn: pygame.draw would replace the panel's alpha and leave a see-through line.
            layer.blit(theme.rounded((PANEL.w - 72, 1), 0, (255, 240, 210, 22)), (36, yy))
        theme.blit_text(
            layer,
            self.t("hint.settings"),
            (PANEL.w // 2, PANEL.h - 16),
            "sans",
            12,
            theme.CREAM_FAINT,
            anchor="midbottom",
        )
        self._layer = (key, layer)
        return layer


def label_size(labels: list[str], size: int, width: int) -> int:
    """One size for a column of row labels: the largest at which every one fits ``width``,
    so that the rows read alike rather than each shrunk to its own length."""
    return min((theme.fit(lab, "sans_bold", size, width, 11) for lab in labels), default=size)


def no_audio_device(app: AppServices) -> bool:
    """True when a window's sound has nowhere to go: the audio package told us so (its
    device would not open, or it could not be loaded). Screenshots and tests have no sound
    by design, which is not a missing device."""
    audio = app.audio
    if audio is None:
        return bool(app.has_window)
    return not audio.start()


def create(app: AppServices, **params: object) -> SettingsScene:
    return SettingsScene(app)
