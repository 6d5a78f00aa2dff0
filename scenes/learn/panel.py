"""The lesson's panel: the step's words beside the table, its buttons, and the cards to look at.

With two players the panel stands at the right of the felt, where no seat sits; with four,
in the band between the partner's cards and the table's, between the side seats.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from sprites import theme
from sprites.table_draw import OUTLINE, outline
from sprites.table_layout import every_edge_taken

if TYPE_CHECKING:
    from scenes.table.view import TableView

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


#: How much wider (leftwards, over the empty felt) and taller (down to the caption's row) the
#: side panel grows per unit of text scale beyond the usual size.
SIDE_GROWTH = (250, 170)
#: The band's growth: down to the table's cards, no further.
BAND_GROWTH = 20


def _step(face: str, size: int, least: int) -> int:
    """A line's height at the player's text size (never less than the layout's own)."""
    return max(least, theme.font(face, size).get_linesize())


def panel_rect(players: int) -> pygame.Rect:
    """Where the panel stands; at the side it grows downwards with the text size, so a larger
    text still shows the whole step."""
    if not every_edge_taken(players):  # a free edge: the panel at the side
        grow = max(0.0, theme.TEXT_SCALE[0] - 1)
        w, h = SIDE.w + round(grow * SIDE_GROWTH[0]), SIDE.h + round(grow * SIDE_GROWTH[1])
        return pygame.Rect(SIDE.right - w, SIDE.y, w, h)
    grow = max(0.0, theme.TEXT_SCALE[0] - 1)
    return pygame.Rect(BAND.x, BAND.y, BAND.w, BAND.h + round(grow * BAND_GROWTH))


def body_width(players: int) -> int:
    """The width the body's lines wrap to (in the band the buttons stand right of it)."""
    r = panel_rect(players)
    return r.w - 2 * PAD - (BUTTON_W + PAD if every_edge_taken(players) else 0)


def body_lines(players: int, size: int = BODY_SIZE) -> int:
    """How many body lines fit under the head (and, at the side, above the hint and buttons;
    in the band the hint shares the head's line)."""
    r = panel_rect(players)
    room = r.h - 2 * PAD - _step("sans_bold", HEAD_SIZE, LINE) - 6
    if not every_edge_taken(players):
        room -= _step("sans", 12, HINT_LINE) + BUTTON_H + 8
    return max(1, room // _step("sans", size, round(LINE * size / BODY_SIZE)))


def body_size(text: str, players: int) -> int:
    """The body's size: BODY_SIZE, or — where a larger text size would cut the step short —
    the largest size at which it shows whole, never smaller than the usual text size's."""
    floor = min(BODY_SIZE, math.ceil(BODY_SIZE / theme.TEXT_SCALE[0]))
    size = BODY_SIZE
    while size > floor and len(theme.wrap(text, "sans", size, body_width(players))) > body_lines(players, size):
        size -= 1
    return size


def button_rects(players: int) -> list[pygame.Rect]:
    """Where the panel's two buttons go (the step's own action first, then the lessons list)."""
    r = panel_rect(players)
    if not every_edge_taken(players):
        y = r.bottom - PAD - BUTTON_H
        return [
            pygame.Rect(r.right - PAD - BUTTON_W, y, BUTTON_W, BUTTON_H),
            pygame.Rect(r.x + PAD, y, BUTTON_W - 20, BUTTON_H),
        ]
    x = r.right - PAD - BUTTON_W
    return [
        pygame.Rect(x, r.y + PAD, BUTTON_W, BUTTON_H),
        pygame.Rect(x, r.bottom - PAD - BUTTON_H, BUTTON_W, BUTTON_H),
    ]


def wrap_body(text: str, players: int, size: int = BODY_SIZE) -> list[str]:
    return theme.wrap(text, "sans", size, body_width(players), max_lines=body_lines(players, size))


def draw_panel(surface: pygame.Surface, players: int, head: str, body: str, phase: str, hint: str) -> None:
    r = panel_rect(players)
    surface.blit(theme.shadow(r.size, 12, 6, 110), (r.x - 6, r.y - 3))
    surface.blit(theme.panel(r.size, 12, (9, 28, 19, 232)), r)
    colour = HEAD_COLOURS.get(phase, theme.BRASS_LIGHT)
    width = body_width(players)
    side = not every_edge_taken(players)
    head_room = width
    if not side:  # the keys at the right of the head's line: the band has no room under the body
        hint_size = theme.fit(hint, "sans", 12, width // 2, 9)
        theme.blit_text(
            surface, hint, (r.x + PAD + width, r.y + PAD + 2), "sans", hint_size, theme.CREAM_DIM, anchor="topright"
        )
        head_room = width - theme.text_width(hint, "sans", hint_size) - 16
    theme.blit_text(
        surface,
        head,
        (r.x + PAD, r.y + PAD),
        "sans_bold",
        theme.fit(head, "sans_bold", HEAD_SIZE, head_room, 10),
        colour,
    )
    y = r.y + PAD + _step("sans_bold", HEAD_SIZE, LINE) + 6
    size = body_size(body, players)
    step = _step("sans", size, round(LINE * size / BODY_SIZE))
    for line in wrap_body(body, players, size):
        theme.blit_text(surface, line, (r.x + PAD, y), "sans", size, theme.CREAM)
        y += step
    if side:  # the keys, under the body and above the buttons (they would crowd the buttons' row)
        bottom = button_rects(players)[0].y - 6
        theme.blit_text(
            surface,
            hint,
            (r.x + PAD, bottom),
            "sans",
            theme.fit(hint, "sans", 12, width, 9),
            theme.CREAM_DIM,
            anchor="bottomleft",
        )


def draw_looks(surface: pygame.Surface, view: TableView, codes: tuple[str, ...], time: float) -> None:
    """Outline the cards the step asks you to look at, wherever they are drawn, gently pulsing."""
    from scenes.table import board

    strength = 0.7 + 0.3 * abs(((time * 0.8) % 2.0) - 1.0)
    for code in codes:
        rect = board.card_rect(view, code)
        if rect is not None and code in view.motion.sprites and view.motion.sprites[code].code == code:
            outline(surface, rect, OUTLINE, strength)


__all__ = [
    "SIDE",
    "BAND",
    "panel_rect",
    "body_width",
    "body_lines",
    "body_size",
    "button_rects",
    "wrap_body",
    "draw_panel",
    "draw_looks",
]
