"""Toasts: short messages that slide down from the top of the canvas and fade."""

from __future__ import annotations

import pygame

from sprites import hidpi, theme
from sprites.tween import ease_out_cubic


# ====================================================================== toasts
class Toasts:
    """Short messages that slide down from the top edge and fade: "Screenshot saved", "Hints
    off"… At the top, because the bottom of the table is the player's hand (and the menu's
    controls): a toast never covers it. The newest is nearest the edge."""

    TOP = 14  # the first pill's top edge

    def __init__(self, seconds: float = 2.6):
        self.seconds = seconds
        self.items: list[list] = []  # [text, age]
        self.rise = 36
        #: Where each toast was drawn last frame (tests).
        self.rects: list[pygame.Rect] = []

    def show(self, message: str) -> None:
        self.items = [it for it in self.items if it[0] != message][-2:]
        self.items.append([message, 0.0])

    @property
    def active(self) -> list[str]:
        return [it[0] for it in self.items]

    def update(self, dt: float) -> None:
        for it in self.items:
            it[1] += dt
        self.items = [it for it in self.items if it[1] < self.seconds]

    def draw(self, surface: pygame.Surface, top: int | None = None) -> None:
        """``top``: where the first pill starts, when the scene keeps its top edge for buttons
        (the table's Scores and Log)."""
        w, h = surface.get_size()
        y = self.TOP if top is None else top
        self.rects = []
        for message, age in reversed(self.items):
            t_in = min(1.0, age / 0.25)
            t_out = min(1.0, max(0.0, (self.seconds - age) / 0.45))
            alpha = ease_out_cubic(t_in) * t_out
            rows = theme.wrap(message, "sans_bold", 16, w - 120)  # a long message takes two lines
            imgs = [theme.text(row, "sans_bold", 16, theme.CREAM) for row in rows]
            img = hidpi.surface((max(i.get_width() for i in imgs), 22 * len(imgs)), pygame.SRCALPHA)
            for k, row_img in enumerate(imgs):
                img.blit(row_img, row_img.get_rect(midtop=(img.get_width() // 2, 22 * k)))
            pw, ph = img.get_width() + 44, 18 + img.get_height()
            x = w // 2 - pw // 2
            yy = round(y - (1 - ease_out_cubic(t_in)) * self.rise)
            pill = theme.panel((pw, ph), 20, (10, 22, 16, 235), theme.BRASS)
            layer = hidpi.surface((pw + 12, ph + 12), pygame.SRCALPHA)
            layer.blit(theme.shadow((pw, ph), 20, 6, 130), (0, 2))
            layer.blit(pill, (6, 6))
            layer.blit(img, img.get_rect(center=(6 + pw // 2, 6 + ph // 2 + 1)))
            layer.set_alpha(int(255 * alpha))
            surface.blit(layer, (x - 6, yy - 6))
            self.rects.append(pygame.Rect(x, y, pw, ph))
            y += ph + 10


__all__ = ["Toasts"]
