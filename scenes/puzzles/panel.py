"""The puzzle's panel beside the table: the head (game, theme, rating), the words (question, a
move judged, the refutation, the rating's change), the keys and up to four buttons.

With two players the panel stands at the right of the felt, where no seat sits, from under the
top buttons down to above the decision buttons; with more, in the band between the partner's
cards and the table's, between the side seats (as a lesson's panel does).
"""

from __future__ import annotations

import math

import pygame

from sprites import theme
from sprites.table_layout import edges

#: Two players: right of the felt, above the decision buttons (Close, Exchange, Marriage) once
#: the move is made; while the player is to move, above the table's key line (SHORT).
SIDE = pygame.Rect(898, 112, 360, 428)
SHORT = 356
#: More players: between the side seats, under the partner's cards, above the table's; once the
#: puzzle is decided and the table still, down over the felt's middle (BAND_TALL) for the words.
BAND = pygame.Rect(196, 116, 888, 134)
BAND_TALL = 226
PAD = 14
HEAD_SIZE = 15
BODY_SIZE = 15
LINE = 19
BUTTON_H = 34
BUTTON_W = 160
BAND_BUTTON_W = 140
BAND_BUTTON_H = 30
GAP = 10
HINT_SIZE = 12
UP, DOWN = (150, 205, 140), (226, 136, 112)
#: How much the side panel grows (leftwards over the free felt) per unit of text scale beyond 1.
SIDE_GROWTH = 260
BAND_GROWTH = 24


def side(players: int) -> bool:
    """Whether the panel stands at the side of the felt: where no seat sits at the sides."""
    return not edges(players) & {"left", "right"}


#: Where the side panel ends, set by the table each frame (:func:`set_bottoms`): (short, tall).
BOTTOMS: list[int] = [SIDE.y + SHORT, SIDE.bottom]


def set_bottoms(short: int, tall: int) -> None:
    """The side panel's foot on this table: above the caption and the key line while you play
    (larger cards raise them), above the hand once decided where the hand reaches under it."""
    BOTTOMS[0] = max(SIDE.y + 200, min(SIDE.y + SHORT, short))
    BOTTOMS[1] = max(BOTTOMS[0], min(SIDE.bottom, tall))


def panel_rect(players: int, tall: bool = True) -> pygame.Rect:
    grow = max(0.0, theme.TEXT_SCALE[0] - 1)
    if side(players):
        w = SIDE.w + round(grow * SIDE_GROWTH)
        return pygame.Rect(SIDE.right - w, SIDE.y, w, BOTTOMS[1 if tall else 0] - SIDE.y)
    return pygame.Rect(BAND.x, BAND.y, BAND.w, (BAND_TALL if tall else BAND.h) + round(grow * BAND_GROWTH))


def button_rects(players: int, count: int, tall: bool = True) -> list[pygame.Rect]:
    """Where ``count`` buttons (at most four) go: the first is the main one (bottom right)."""
    r = panel_rect(players, tall)
    if side(players):
        w = (r.w - 2 * PAD - GAP) // 2
        spots = [
            pygame.Rect(r.right - PAD - w, r.bottom - PAD - BUTTON_H, w, BUTTON_H),
            pygame.Rect(r.x + PAD, r.bottom - PAD - BUTTON_H, w, BUTTON_H),
            pygame.Rect(r.right - PAD - w, r.bottom - PAD - 2 * BUTTON_H - GAP, w, BUTTON_H),
            pygame.Rect(r.x + PAD, r.bottom - PAD - 2 * BUTTON_H - GAP, w, BUTTON_H),
        ]
    else:
        x1, x0 = r.right - PAD - BAND_BUTTON_W, r.right - PAD - 2 * BAND_BUTTON_W - GAP
        y1, y0 = r.bottom - PAD - BAND_BUTTON_H, r.y + PAD
        spots = [
            pygame.Rect(x1, y1, BAND_BUTTON_W, BAND_BUTTON_H),
            pygame.Rect(x1, y0, BAND_BUTTON_W, BAND_BUTTON_H),
            pygame.Rect(x0, y1, BAND_BUTTON_W, BAND_BUTTON_H),
            pygame.Rect(x0, y0, BAND_BUTTON_W, BAND_BUTTON_H),
        ]
    return spots[:count]


def _step(face: str, size: int, least: int) -> int:
    return max(least, theme.font(face, size).get_linesize())


def body_box(players: int, buttons: int, tall: bool = True) -> pygame.Rect:
    """Where the words go: under the head, above the keys and the buttons (at the side), left
    of the buttons (in the band)."""
    r = panel_rect(players, tall)
    top = r.y + PAD + _step("sans_bold", HEAD_SIZE, LINE) + 6
    if side(players):
        rows = 0 if buttons == 0 else (1 if buttons <= 2 else 2)
        bottom = r.bottom - PAD - rows * (BUTTON_H + GAP) - _step("sans", HINT_SIZE, 16) - 4
        return pygame.Rect(r.x + PAD, top, r.w - 2 * PAD, bottom - top)
    cols = 0 if buttons == 0 else (1 if buttons <= 2 else 2)
    right = r.right - PAD - cols * (BAND_BUTTON_W + GAP)
    return pygame.Rect(r.x + PAD, top, right - r.x - PAD, r.bottom - PAD - top)


def layout_body(paragraphs: list[str], box: pygame.Rect) -> tuple[int, list[list[str]]]:
    """(size, each paragraph's lines): BODY_SIZE, or the largest size down to the usual text
    size's (never smaller) at which every paragraph shows whole; still too long, the last
    lines are cut by the wrap (the words are said in full by speech)."""
    floor = min(BODY_SIZE, math.ceil(BODY_SIZE / theme.TEXT_SCALE[0]))
    size = BODY_SIZE
    while True:
        step = _step("sans", size, round(LINE * size / BODY_SIZE))
        wrapped = [theme.wrap(p, "sans", size, box.w) for p in paragraphs if p]
        height = sum(len(w) for w in wrapped) * step + 4 * max(0, len(wrapped) - 1)
        if height <= box.h or size <= floor:
            break
        size -= 1
    out: list[list[str]] = []
    y = 0
    for w in wrapped:  # still too long: the lines that fit, each paragraph after its gap
        take = []
        for line in w:
            if y + step > box.h:
                break
            take.append(line)
            y += step
        out.append(take)
        y += 4
        if len(take) < len(w):
            break
    return size, out


def fits(paragraphs: list[str], box: pygame.Rect) -> bool:
    """Every paragraph shows whole in ``box`` (at the smallest size :func:`layout_body` takes)."""
    size, blocks = layout_body(paragraphs, box)
    return [len(b) for b in blocks] == [len(theme.wrap(p, "sans", size, box.w)) for p in paragraphs if p]


def draw(
    surface: pygame.Surface,
    players: int,
    head: str,
    paragraphs: list[tuple[str, tuple]],
    hint: str,
    buttons: int,
    tall: bool = True,
) -> None:
    """The panel: ``paragraphs`` are (text, colour); ``buttons`` how many buttons it holds (drawn
    by the scene's own UI over it)."""
    r = panel_rect(players, tall)
    surface.blit(theme.shadow(r.size, 12, 6, 110), (r.x - 6, r.y - 3))
    surface.blit(theme.panel(r.size, 12, (9, 28, 19, 236)), r)
    box = body_box(players, buttons, tall)
    head_room = box.w
    if not side(players):  # the keys at the right of the head's line: the band has no room under the words
        hint_size = theme.fit(hint, "sans", HINT_SIZE, box.w // 2, 9)
        theme.blit_text(
            surface, hint, (box.right, r.y + PAD + 2), "sans", hint_size, theme.CREAM_DIM, anchor="topright"
        )
        head_room = box.w - theme.text_width(hint, "sans", hint_size) - 16
    theme.blit_text(
        surface,
        head,
        (r.x + PAD, r.y + PAD),
        "sans_bold",
        theme.fit(head, "sans_bold", HEAD_SIZE, head_room, 10),
        theme.BRASS_LIGHT,
    )
    texts = [p for p, _ in paragraphs]
    colours = [c for p, c in paragraphs if p]
    size, blocks = layout_body(texts, box)
    step = _step("sans", size, round(LINE * size / BODY_SIZE))
    y = box.y
    for lines, colour in zip(blocks, colours):
        for line in lines:
            theme.blit_text(surface, line, (box.x, y), "sans", size, colour)
            y += step
        y += 4
    if side(players):
        rows = 0 if buttons == 0 else (1 if buttons <= 2 else 2)
        bottom = r.bottom - PAD - rows * (BUTTON_H + GAP) - 2
        theme.blit_text(
            surface,
            hint,
            (r.x + PAD, bottom),
            "sans",
            theme.fit(hint, "sans", HINT_SIZE, box.w, 9),
            theme.CREAM_DIM,
            anchor="bottomleft",
        )


__all__ = [
    "SIDE",
    "SHORT",
    "BAND",
    "UP",
    "DOWN",
    "set_bottoms",
    "panel_rect",
    "button_rects",
    "body_box",
    "fits",
    "layout_body",
    "draw",
    "side",
]
