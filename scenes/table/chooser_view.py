"""The chooser on the table (scenes.table.chooser holds its state): its keys, its panel and
what a click is on, the panel drawn and clicked from the same boxes (:func:`boxes`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.cards import Card
from scenes.table.chooser import PAGE, Chooser, Row
from sprites import theme

Translate = Callable[..., str]


def key(ch: Chooser, key: int, mod: int = 0) -> str | None:
    """A key's meaning: "confirm", "cancel", "changed" (a value or the focus moved), or
    None when the key is not the chooser's (the reading keys and the rest go on)."""
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
        return "confirm"
    if key == pygame.K_ESCAPE:
        return "cancel"
    if key == pygame.K_TAB:
        ch.move_focus(-1 if mod & pygame.KMOD_SHIFT else 1)
        return "changed"
    steps = {
        pygame.K_LEFT: -1,
        pygame.K_RIGHT: 1,
        pygame.K_MINUS: -1,
        pygame.K_KP_MINUS: -1,
        pygame.K_PLUS: 1,
        pygame.K_EQUALS: 1,
        pygame.K_KP_PLUS: 1,
        pygame.K_PAGEDOWN: -PAGE,
        pygame.K_PAGEUP: PAGE,
    }
    if key in steps:
        ch.step(steps[key])
        return "changed"
    if key in (pygame.K_HOME, pygame.K_END):
        ch.to_end(key == pygame.K_END)
        return "changed"
    digit = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}.get(key)
    if digit is not None:
        ch.pick(digit)
        return "changed"
    return None


# ====================================================================== drawing
@dataclass
class Box:
    """Something drawn and clickable: ``what`` is ("value", row, value), ("step", row, ±1),
    ("confirm",), ("cancel",) or ("row", row) for a row's label."""

    rect: pygame.Rect
    what: tuple[object, ...]


PAD = 18
ROW_H = 46
BUTTON_W = 64
CARD_H = 112
TITLE_H = 40
FOOT_H = 62
STEPPER_W = 44


#: A card's place in its row: room for its name under it ("Knight of Swords").
CARD_SLOT = 136


def _card_w(aspect: float) -> int:
    return round(CARD_H / aspect)  # the deck's aspect is its height over its width


def _row_height(r: Row) -> int:
    return CARD_H + 28 if r.field.type == "card" else ROW_H


def _row_width(r: Row, aspect: float) -> int:
    f = r.field
    if f.type == "str" and f.choices:
        return len(f.choices) * (BUTTON_W + 6)
    if f.type == "card":
        return len(r.values) * max(_card_w(aspect) + 16, CARD_SLOT)
    if f.type == "int":
        return 2 * STEPPER_W + 120
    return len(r.values) * (BUTTON_W + 6)


def boxes(ch: Chooser, aspect: float, bottom: int, label_w: int = 104) -> tuple[pygame.Rect, list[Box]]:
    """The panel's rectangle (centred, its bottom at ``bottom``) and its boxes."""
    inner = max([_row_width(r, aspect) for r in ch.rows] + [540])
    w = min(1240, inner + label_w + 2 * PAD)
    h = TITLE_H + sum(_row_height(r) + 8 for r in ch.rows) + FOOT_H
    panel = pygame.Rect(0, 0, w, h)
    panel.midbottom = (640, bottom)
    out: list[Box] = []
    y = panel.y + TITLE_H
    x0 = panel.x + PAD + label_w
    for i, r in enumerate(ch.rows):
        rh = _row_height(r)
        out.append(Box(pygame.Rect(panel.x + PAD, y, label_w - 8, rh), ("row", i)))
        f = r.field
        if f.type == "int":
            minus = pygame.Rect(x0, y + 4, STEPPER_W, rh - 8)
            value = pygame.Rect(minus.right + 6, y + 4, 108, rh - 8)
            plus = pygame.Rect(value.right + 6, y + 4, STEPPER_W, rh - 8)
            out += [Box(minus, ("step", i, -1)), Box(value, ("value", i, r.chosen)), Box(plus, ("step", i, 1))]
        elif f.type == "card":
            cw = _card_w(aspect)
            slot = max(cw + 16, CARD_SLOT)
            for k, v in enumerate(r.values):
                x = x0 + k * slot + (slot - cw) // 2
                out.append(Box(pygame.Rect(x, y + 6, cw, CARD_H), ("value", i, v)))
        else:
            values: list[object] = list(f.choices) if f.type == "str" and f.choices else list(r.values)
            for k, v in enumerate(values):
                out.append(Box(pygame.Rect(x0 + k * (BUTTON_W + 6), y + 4, BUTTON_W, rh - 8), ("value", i, v)))
        y += rh + 8
    bw = 150
    cancel = pygame.Rect(panel.right - PAD - bw, panel.bottom - FOOT_H + 14, bw, 38)
    confirm = pygame.Rect(cancel.x - 12 - bw, cancel.y, bw, 38)
    out += [Box(confirm, ("confirm",)), Box(cancel, ("cancel",))]
    return panel, out


def hit(ch: Chooser, aspect: float, bottom: int, pos: tuple[int, int]) -> tuple[object, ...] | None:
    """What a click at ``pos`` is on (see :class:`Box`); ("outside",) off the panel."""
    panel, bs = boxes(ch, aspect, bottom)
    for b in bs:
        if b.rect.collidepoint(pos):
            return b.what
    return None if panel.collidepoint(pos) else ("outside",)


def click(ch: Chooser, what: tuple[object, ...] | None) -> str | None:
    """A click's meaning, as :meth:`Chooser.key` gives a key's."""
    if not what:
        return None
    if what[0] == "value" and isinstance(what[1], int):
        r = ch.rows[what[1]] if what[1] < len(ch.rows) else None
        if r is None or what[2] not in r.values:
            return None  # a value no legal action gives: its button is disabled
        ch.set(what[1], what[2])
        return "changed"
    if what[0] == "step" and isinstance(what[1], int) and isinstance(what[2], int):
        ch.focus = what[1]
        ch.step(what[2])
        return "changed"
    if what[0] == "row" and isinstance(what[1], int):
        ch.focus = what[1]
        return "changed"
    if what[0] in ("confirm", "cancel"):
        return str(what[0])
    return None


def draw(
    surface: pygame.Surface,
    ch: Chooser,
    t: Translate,
    deck: object,
    lang: str,
    face: Callable[[str, int], pygame.Surface],
    aspect: float,
    bottom: int,
    hover: tuple[int, int] | None = None,
    summary: str = "",
) -> None:
    """The chooser's panel; ``face(code, height)`` paints a card; ``summary`` names what
    Enter takes ("2 at 75"; the values one by one where it is "")."""
    panel, bs = boxes(ch, aspect, bottom)
    surface.blit(theme.shadow(panel.size, 16, 10, 140), (panel.x - 10, panel.y - 4))
    surface.blit(theme.panel(panel.size, 16, (10, 30, 20, 240), theme.BRASS), panel)
    theme.blit_text(surface, t(ch.kind.label), (panel.x + PAD, panel.y + 10), "serif_bold", 19, theme.CREAM)
    hint = t("table.chooser.hint")
    size = theme.fit(hint, "sans", 12, panel.w - 2 * PAD - 220, 9)
    theme.blit_text(
        surface, hint, (panel.right - PAD, panel.y + 15), "sans", size, theme.CREAM_FAINT, anchor="topright"
    )
    for b in bs:
        kind = b.what[0]
        focused_row = len(b.what) > 1 and b.what[1] == ch.focus
        over = hover is not None and b.rect.collidepoint(hover)
        if kind == "row":
            r = ch.rows[int(b.what[1])]  # type: ignore[call-overload]
            color = theme.BRASS_LIGHT if focused_row and r.choice else theme.CREAM
            label = ch.label(t, r.field)
            lsize = theme.fit(label, "sans_bold", 14, b.rect.w, 9)
            theme.blit_text(surface, label, (b.rect.x, b.rect.centery), "sans_bold", lsize, color, anchor="midleft")
            if focused_row and r.choice:
                pygame.draw.rect(surface, theme.BRASS_LIGHT, (b.rect.x - 8, b.rect.y + 8, 3, b.rect.h - 16))
        elif kind == "value":
            i, value = int(b.what[1]), b.what[2]  # type: ignore[call-overload]
            r = ch.rows[i]
            legal = value in r.values
            chosen = value == r.chosen
            if r.field.type == "card" and isinstance(value, Card):
                img = face(value.code, b.rect.h)
                lift = 8 if chosen else 0
                surface.blit(img, (b.rect.x, b.rect.y - lift))
                if chosen:
                    ring = b.rect.move(0, -lift).inflate(8, 8)
                    pygame.draw.rect(surface, theme.BRASS_LIGHT, ring, 3, border_radius=8)
                name = ch.words(t, deck, lang, r.field, value)
                nsize = theme.fit(name, "sans_bold", 12, max(b.rect.w + 14, CARD_SLOT - 8), 8)
                theme.blit_text(
                    surface,
                    name,
                    (b.rect.centerx, b.rect.bottom + 4),
                    "sans_bold",
                    nsize,
                    theme.BRASS_LIGHT if chosen else theme.CREAM_DIM,
                    anchor="midtop",
                )
                continue
            text = ch.words(t, deck, lang, r.field, value)
            if r.field.type == "int":  # the stepper's value: a plain well
                body = theme.rounded(b.rect.size, 10, (6, 20, 13, 230), 2, (*theme.BRASS, 255))
                surface.blit(body, b.rect)
                theme.blit_text(surface, text, b.rect.center, "sans_bold", 22, theme.BRASS_LIGHT, anchor="center")
                continue
            if chosen:
                fill, ink, edge = (*theme.BRASS, 255), (40, 28, 12), theme.BRASS_LIGHT
            elif legal:
                fill, ink, edge = ((24, 58, 40, 240) if over else (12, 34, 24, 230)), theme.CREAM, theme.BRASS_DARK
            else:
                fill, ink, edge = (12, 24, 18, 150), theme.CREAM_FAINT, (60, 60, 50)
            surface.blit(theme.rounded(b.rect.size, 9, fill, 1, (*edge, 255)), b.rect)
            tsize = theme.fit(text, "sans_bold", 15, b.rect.w - 8, 9)
            theme.blit_text(surface, text, b.rect.center, "sans_bold", tsize, ink, anchor="center")
        elif kind == "step":
            i, by = int(b.what[1]), int(b.what[2])  # type: ignore[call-overload]
            r = ch.rows[i]
            can = (r.index > 0) if by < 0 else (r.index < len(r.values) - 1)
            fill = (24, 58, 40, 240) if over and can else (12, 34, 24, 230)
            surface.blit(theme.rounded(b.rect.size, 9, fill, 1, (*theme.BRASS_DARK, 255)), b.rect)
            ink = theme.CREAM if can else theme.CREAM_FAINT
            theme.blit_text(surface, "−" if by < 0 else "+", b.rect.center, "sans_bold", 22, ink, anchor="center")
        else:
            primary = kind == "confirm"
            body = theme.rounded(
                b.rect.size, 12, (*theme.BRASS, 255) if primary else (12, 34, 24, 220), 1, (*theme.BRASS_DARK, 255)
            )
            surface.blit(body, b.rect)
            text = t(f"table.chooser.{kind}")
            ink = (40, 28, 12) if primary else theme.CREAM
            tsize = theme.fit(text, "sans_bold", 15, b.rect.w - 12, 9)
            theme.blit_text(surface, text, b.rect.center, "sans_bold", tsize, ink, anchor="center")
    # What Enter takes, in words, left of the buttons.
    action = ch.action
    if action is not None and ch.rows:
        parts = [ch.words(t, deck, lang, r.field, r.chosen) for r in ch.rows]
        summary = f"{t(ch.kind.label)}: {summary or ' · '.join(parts)}"
        room = bs[-2].rect.x - panel.x - 2 * PAD
        ssize = theme.fit(summary, "sans_bold", 16, room, 10)
        theme.blit_text(
            surface,
            summary,
            (panel.x + PAD, bs[-1].rect.centery),
            "sans_bold",
            ssize,
            theme.BRASS_LIGHT,
            anchor="midleft",
        )


__all__ = ["Box", "boxes", "click", "draw", "hit", "key"]
