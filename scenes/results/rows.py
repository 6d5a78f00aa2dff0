"""The results screen's table (scenes.results.scene): the breakdown's split bar, a header of
the sides' names, then one band per row — the player's own column lit, points as pills, a
Bummerl as tally strokes. Drawn with the scene's fitted text, as the halves are
(scenes.results.halves)."""

from __future__ import annotations

from typing import Protocol

import pygame
from pygame.typing import ColorLike

from game.rules.base import GameRules
from scenes.results.breakdown import Breakdown
from sprites import theme


class ResultsText(Protocol):
    """What the results panel's blocks ask of the screen (scenes.results.scene.ResultsScene):
    its row height, its rules, and its text fitted to a width (logged for the text-fit checks)."""

    row_h: int
    rules: GameRules

    def _fit(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        face: str = ...,
        size: int = ...,
        color: ColorLike = ...,
        anchor: str = ...,
        min_size: int = ...,
    ) -> pygame.Rect: ...

    def _caps(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        size: int = ...,
        color: ColorLike = ...,
        anchor: str = ...,
    ) -> pygame.Rect: ...


LABEL_W = 340
#: A winner's colour (the split bar's, a paid-off Bummerl's stroke, a won match's title).
WIN = (236, 202, 128)


def label_width(m: Breakdown, inner_w: int) -> int:
    """The label column: wide enough for the longest label (German), never starving the
    numbers (each column keeps at least 150 px)."""
    need = max(theme.text_width(r.label, "sans_bold" if r.kind != "line" else "sans", 16) for r in m.rows) + 28
    most = inner_w - 150 * len(m.columns)
    return max(LABEL_W, min(need, most, 430))


def draw(scene: ResultsText, surface: pygame.Surface, m: Breakdown, x0: int, y: int, inner_w: int) -> int:
    """Draw ``m``'s table at (x0, y) in width ``inner_w``, its rows ``scene.row_h`` high, with
    the scene's fitted text (logged for the text-fit checks); the y below it."""
    n = len(m.columns)
    label_w = label_width(m, inner_w)
    col_w = (inner_w - label_w) // n
    if m.bar:
        split_bar(surface, pygame.Rect(x0 + label_w + 16, y, n * col_w - 32, 14), m)
        y += 30
    # --- the table: a header of names, then one band per line
    for i, name in enumerate(m.columns):
        cx = x0 + label_w + i * col_w + col_w // 2
        scene._caps(
            surface,
            name,
            (cx, y + 4),
            col_w - 16,
            14,
            theme.BRASS_LIGHT if i == m.mine else theme.BRASS,
            anchor="midtop",
        )
    y += 28
    pygame.draw.line(surface, theme.BRASS_DARK, (x0, y), (x0 + inner_w, y))
    y += 4
    for k, row in enumerate(m.rows):
        band = pygame.Rect(x0, y, inner_w, scene.row_h)
        if row.kind != "line":
            surface.blit(theme.rounded(band.size, 6, (201, 164, 92, 40 if row.kind == "total" else 26)), band)
        elif k % 2 == 0:
            surface.blit(theme.rounded(band.size, 6, (255, 255, 255, 11)), band)
        if m.mine is not None:  # the player's own column is lit a little
            mine = pygame.Rect(x0 + label_w + m.mine * col_w + 6, y, col_w - 12, scene.row_h)
            surface.blit(theme.rounded(mine.size, 6, (255, 230, 170, 14)), mine)
        strong = row.kind != "line"
        scene._fit(
            surface,
            row.label,
            (x0 + 12, band.centery),
            label_w - 24,
            "sans_bold" if strong else "sans",
            16,
            theme.BRASS_LIGHT if strong else theme.CREAM,
            "midleft",
        )
        for i, cell in enumerate(row.cells):
            c = pygame.Rect(x0 + label_w + i * col_w, y, col_w, scene.row_h)
            if row.kind == "bummerl":
                start = int(scene.rules.initial_totals()[m.order[i]])
                tally(surface, int(cell.text), start, (c.centerx - 20, c.centery))
                scene._fit(
                    surface,
                    cell.text,
                    (c.centerx + start * 6 - 6, c.centery),
                    30,
                    "sans_bold",
                    17,
                    theme.BRASS_LIGHT,
                    "midleft",
                )
                continue
            pill = cell.points is not None
            centre = c.centerx - (22 if pill else 0)
            if cell.mark:
                theme.blit_text(surface, "✓", (centre, c.centery), "sans_bold", 20, theme.BRASS_LIGHT, anchor="center")
            elif cell.text:
                face, size = ("sans_bold", 17) if strong else ("sans", 16)
                pos, anchor, room = (centre, c.centery), "center", col_w - (96 if pill else 16)
                # A long cell ("3 in a row") beside a pill: it ends just short of the pill.
                gap = c.centerx + 34 - 16 - 8  # the pill's left edge, less a margin
                if pill and theme.text_width(cell.text, face, size) / 2 > gap - centre:
                    pos, anchor, room = (gap, c.centery), "midright", gap - c.x - 12
                scene._fit(
                    surface, cell.text, pos, room, face, size, theme.BRASS_LIGHT if strong else theme.CREAM, anchor
                )
            if cell.points is not None:  # (pill)
                points_pill(surface, cell.points, (c.centerx + 34, c.centery))
        y += scene.row_h + 2
    return y


def points_pill(surface: pygame.Surface, n: int, center: tuple[int, int]) -> None:
    """A cell's points, "+3", on a brass pill."""
    img = theme.text(f"+{n}" if n >= 0 else f"−{-n}", "sans_bold", 14, (40, 28, 12))
    w = max(32, img.get_width() + 14)
    pill = theme.rounded((w, 22), 11, (*theme.BRASS_LIGHT, 255), 1, (*theme.BRASS_DARK, 255))
    r = pill.get_rect(center=center)
    surface.blit(pill, r)
    surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))


def tally(surface: pygame.Surface, count: int, start: int, centre: tuple[int, int]) -> None:
    """The count as tally strokes: ``count`` standing in cream, the spent ones faint."""
    step = 11
    x0 = centre[0] - (start * step) // 2
    cy = centre[1]
    for i in range(start):
        x = x0 + i * step
        standing = i < count
        col = theme.CREAM if standing else (78, 104, 88)
        pygame.draw.line(surface, col, (x, cy - 9), (x + 3, cy + 9), 3 if standing else 2)
    if count == 0:  # the Bummerl is paid off: a bold stroke through the tally
        pygame.draw.line(surface, WIN, (x0 - 6, cy + 7), (x0 + start * step, cy - 7), 3)


def split_bar(surface: pygame.Surface, rect: pygame.Rect, m: Breakdown) -> None:
    """Briscola's 120 card points as one bar split between the two players; a tick at 60."""
    if m.bar is None:  # drawn only for a breakdown that has one
        raise ValueError("the breakdown has no split bar")
    a, b = m.bar
    wa = round(rect.w * a / max(1, a + b))
    surface.blit(theme.rounded(rect.size, 7, (255, 255, 255, 18)), rect)
    cols = [WIN if m.mine == i else (132, 160, 176) for i in range(2)]
    if wa > 0:
        surface.blit(theme.rounded((wa, rect.h), 7, (*cols[0], 225)), rect.topleft)
    if rect.w - wa > 0:
        surface.blit(theme.rounded((rect.w - wa, rect.h), 7, (*cols[1], 170)), (rect.x + wa, rect.y))
    mid = rect.centerx
    pygame.draw.line(surface, theme.CREAM, (mid, rect.y - 4), (mid, rect.bottom + 3), 2)


__all__ = ["LABEL_W", "WIN", "draw", "label_width", "points_pill", "split_bar", "tally"]
