"""A duplicate deal's two halves side by side on the results screen: one row per side (you,
the computer) and the difference, in columns half 1 | half 2 | total. The texts come from
game.services.challenge.DuplicatePlay.halves (plain data); this module only draws them."""

from __future__ import annotations

import pygame

from game.services.challenge import HalvesTable
from scenes.results.rows import ResultsText
from sprites import theme

HEAD_H = 26
ROW_H = 26
GAP_AFTER = 10
LABEL_W = 220
UP, DOWN = (150, 205, 140), (226, 136, 112)


def height(table: HalvesTable | None) -> int:
    """The block's height: a header, one band per row and a gap."""
    return 0 if table is None else HEAD_H + len(table.rows) * (ROW_H + 2) + GAP_AFTER


def draw(scene: ResultsText, surface: pygame.Surface, table: HalvesTable | None, x: int, y: int, w: int) -> int:
    """Draw ``table`` at (x, y) in width ``w`` with the scene's fitted text (logged for the
    text-fit checks); the y below it."""
    if table is None:
        return y
    label_w = min(LABEL_W, w // 3)
    col_w = (w - label_w) // len(table.columns)
    for i, name in enumerate(table.columns):
        scene._caps(
            surface,
            name,
            (x + label_w + i * col_w + col_w // 2, y + 4),
            col_w - 12,
            13,
            theme.BRASS_LIGHT if i == len(table.columns) - 1 else theme.BRASS,
            anchor="midtop",
        )
    y += HEAD_H
    pygame.draw.line(surface, theme.BRASS_DARK, (x, y - 2), (x + w, y - 2))
    last = len(table.rows) - 1
    for k, (label, cells) in enumerate(table.rows):
        band = pygame.Rect(x, y, w, ROW_H)
        surface.blit(theme.rounded(band.size, 6, (201, 164, 92, 34) if k == last else (255, 255, 255, 11)), band)
        strong = k == last
        scene._fit(
            surface,
            label,
            (x + 12, band.centery),
            label_w - 24,
            "sans_bold" if strong else "sans",
            15,
            theme.BRASS_LIGHT if strong else theme.CREAM,
            "midleft",
        )
        for i, text in enumerate(cells):
            color = theme.BRASS_LIGHT if strong or i == len(cells) - 1 else theme.CREAM
            if strong and text.startswith("+"):
                color = UP
            elif strong and text.startswith("−"):
                color = DOWN
            scene._fit(
                surface,
                text,
                (x + label_w + i * col_w + col_w // 2, band.centery),
                col_w - 16,
                "sans_bold" if strong or i == len(cells) - 1 else "sans",
                16,
                color,
                "center",
            )
        y += ROW_H + 2
    return y + GAP_AFTER


__all__ = ["height", "draw"]
