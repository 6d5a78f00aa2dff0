"""The lesson's panel: the step's words beside the table, its buttons, and the cards to look at.

With two players the panel stands at the right of the felt, where no seat sits; with four,
in the band between the partner's cards and the table's, between the side seats.
"""
from __future__ import annotations

from typing import Any

import pygame

from sprites import theme
from sprites.table_draw import OUTLINE, outline

#: With two players: right of the felt, under the top buttons, above the decision buttons.
SIDE = pygame.Rect(898, 112, 360, 262)
#: With four: between the side seats, under the partner's cards, above the table's.
BAND = pygame.Rect(208, 118, 864, 128)
PAD = 14
HEAD_SIZE = 15
BODY_SIZE = 15
LINE = 19
BUTTON_H = 34
BUTTON_W = 150
HINT_LINE = 18
#: The colour of the head line for each phase: good is green, a wrong move warm.
HEAD_COLOURS = {"good": (150, 205, 140), "wrong": (236, 150, 120), "done": (236, 204, 130)}


def panel_rect(players: int) -> pygame.Rect:
    return SIDE if players <= 3 else BAND


def body_width(players: int) -> int:
    """The width the body's lines wrap to (in the band the buttons stand right of it)."""
    r = panel_rect(players)
    return r.w - 2 * PAD - (BUTTON_W + PAD if r is BAND else 0)


def body_lines(players: int) -> int:
    """How many body lines fit under the head (and, at the side, above the buttons)."""
    r = panel_rect(players)
    room = r.h - 2 * PAD - LINE - 6 - HINT_LINE - (BUTTON_H + 8 if r is SIDE else 0)
    return room // LINE


def button_rects(players: int) -> list[pygame.Rect]:
    """Where the panel's two buttons go (the step's own action first, then the lessons list)."""
    r = panel_rect(players)
    if r is SIDE:
        y = r.bottom - PAD - BUTTON_H
        return [pygame.Rect(r.right - PAD - BUTTON_W, y, BUTTON_W, BUTTON_H),
                pygame.Rect(r.x + PAD, y, BUTTON_W - 20, BUTTON_H)]
    x = r.right - PAD - BUTTON_W
    return [pygame.Rect(x, r.y + PAD, BUTTON_W, BUTTON_H), pygame.Rect(x, r.bottom - PAD - BUTTON_H, BUTTON_W, BUTTON_H)]


def wrap_body(text: str, players: int) -> list[str]:
    return theme.wrap(text, "sans", BODY_SIZE, body_width(players), max_lines=body_lines(players))


def draw_panel(surface: pygame.Surface, players: int, head: str, body: str, phase: str, hint: str) -> None:
    r = panel_rect(players)
    surface.blit(theme.shadow(r.size, 12, 6, 110), (r.x - 6, r.y - 3))
    surface.blit(theme.panel(r.size, 12, (9, 28, 19, 232)), r)
    colour = HEAD_COLOURS.get(phase, theme.BRASS_LIGHT)
    width = body_width(players)
    theme.blit_text(surface, head, (r.x + PAD, r.y + PAD), "sans_bold", theme.fit(head, "sans_bold", HEAD_SIZE, width, 10),
                    colour)
    y = r.y + PAD + LINE + 6
    for line in wrap_body(body, players):
        theme.blit_text(surface, line, (r.x + PAD, y), "sans", BODY_SIZE, theme.CREAM)
        y += LINE
    # The keys, under the panel (they would crowd it).
    bottom = button_rects(players)[0].y - 6 if r is SIDE else r.bottom - PAD
    theme.blit_text(surface, hint, (r.x + PAD, bottom), "sans", theme.fit(hint, "sans", 12, width, 9),
                    theme.CREAM_DIM, anchor="bottomleft")


def draw_looks(surface: pygame.Surface, view: Any, codes: tuple[str, ...], time: float) -> None:
    """Outline the cards the step asks you to look at, wherever they are drawn, gently pulsing."""
    from scenes.table import board

    strength = 0.7 + 0.3 * abs(((time * 0.8) % 2.0) - 1.0)
    for code in codes:
        rect = board.card_rect(view, code)
        if rect is not None and code in view.motion.sprites and view.motion.sprites[code].code == code:
            outline(surface, rect, OUTLINE, strength)


__all__ = ["SIDE", "BAND", "panel_rect", "body_width", "body_lines", "button_rects", "wrap_body", "draw_panel",
           "draw_looks"]
