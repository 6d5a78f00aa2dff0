"""Drawing helpers for the card table: card sprites, stacks, name plates, panels, call-outs.

Everything here draws; nothing decides. The table scene owns the state and asks these
helpers to paint it in the house style (soft shadows, brass, cream text).
"""

from __future__ import annotations

import math
from typing import Protocol

import pygame

from sprites import hidpi, theme
from sprites.table_layout import Place
from sprites.tween import Tween, ease_out_cubic

TEAM_COLORS = ((201, 164, 92), (176, 186, 196), (196, 128, 96))  # brass, silver, copper
OUTLINE = (255, 226, 160)
CANDIDATE = (120, 220, 170)
WARN = (232, 120, 96)


class CardSprite:
    """One card on the table. ``code`` None shows the back. Moves by tween, flips by scale."""

    __slots__ = ("key", "code", "tween", "z", "flip", "old_code", "flip_delay", "vanish", "glow", "end_place")

    def __init__(self, key: str, code: str | None, place: Place, z: int = 0):
        self.key = key
        self.code = code
        v = (place.x, place.y, place.angle, float(place.h))
        self.tween = Tween(v, v, 0.0)
        self.end_place = place
        self.z = z
        self.flip: Tween | None = None
        self.old_code: str | None = code
        self.vanish = False  # removed when it arrives (gathered into a pile, back into the stock)
        self.glow = 0.0

    def value(self, alpha: float = 1.0) -> tuple[float, ...]:
        """(x, y, angle, height) now, or between the last two ticks."""
        if self.tween.done:
            return self.tween.end
        return self.tween.value_at(alpha)

    def move(self, place: Place, duration: float = 0.28, delay: float = 0.0, ease=ease_out_cubic) -> None:
        """Head for ``place`` from wherever the card is now (cards never teleport)."""
        end = (place.x, place.y, place.angle, float(place.h))
        if end == self.tween.end and not self.vanish:
            return
        self.end_place = place
        self.tween = Tween(self.value(), end, duration, ease, delay)

    def turn(self, code: str | None, delay: float = 0.0, duration: float = 0.22) -> None:
        """Flip to show ``code`` (None: the back)."""
        if code == self.code:
            return
        self.old_code = self.code
        self.code = code
        self.flip = Tween(0.0, 1.0, duration, ease_out_cubic, delay)

    @property
    def moving(self) -> bool:
        return not self.tween.done or (self.flip is not None and not self.flip.done)

    def update(self, dt: float) -> None:
        self.tween.update(dt)
        if self.flip is not None:
            self.flip.update(dt)
            if self.flip.done:
                self.flip = None


class CardPictures(Protocol):
    """A deck's card pictures (sprites.cards.CardArt, or sprites.fans' fallback)."""

    def face(self, code: str, height: int, lang: str = "en") -> pygame.Surface: ...

    def back(self, height: int) -> pygame.Surface: ...


class CardPainter:
    """Faces, backs and shadows of one deck at any size and angle, cached where it pays."""

    def __init__(self, art: CardPictures, aspect: float, lang: str):
        self.art = art
        self.aspect = aspect
        self.lang = lang
        self._rot: dict[tuple, pygame.Surface] = {}

    def image(self, code: str | None, h: int) -> pygame.Surface:
        return self.art.face(code, h, self.lang) if code else self.art.back(h)

    def _rotated(self, code: str | None, h: int, angle: float) -> pygame.Surface:
        key = (code, h, round(angle, 1), hidpi.scale())
        img = self._rot.get(key)
        if img is None:
            img = pygame.transform.rotozoom(self.image(code, h), angle, 1.0)
            if len(self._rot) > 400:
                self._rot.clear()
            self._rot[key] = img
        return img

    def _shadow(self, w: int, h: int, angle: float, strength: int) -> pygame.Surface:
        """A soft shadow of a ``w``×``h`` card turned by ``angle`` degrees (cached per degree)."""
        spread = 5
        base = theme.shadow((w, h), max(4, min(w, h) // 10), spread, strength)
        a = round(angle)
        if a % 360 == 0:
            return base
        key = ("shadow", w, h, a, strength, hidpi.scale())
        img = self._rot.get(key)
        if img is None:
            img = pygame.transform.rotate(base, a)  # a blurred edge needs no smoothing
            if len(self._rot) > 400:
                self._rot.clear()
            self._rot[key] = img
        return img

    def draw(
        self,
        surface: pygame.Surface,
        code: str | None,
        x: float,
        y: float,
        angle: float,
        h: float,
        lift: float = 0.0,
        squash: float = 1.0,
        shadow: int = 110,
        alpha: int = 255,
    ) -> pygame.Rect:
        """A card centred at (x, y − lift) with a soft shadow that grows as it lifts."""
        hi = max(12, round(h))
        upright = self.image(code, hi)
        face_w = max(1, round(upright.get_width() * squash)) if squash < 0.999 else upright.get_width()
        if abs(angle) < 0.05 and squash >= 0.999:
            img = upright
        elif squash >= 0.999:
            img = self._rotated(code, hi, angle)
        else:
            img = pygame.transform.smoothscale(upright, (face_w, upright.get_height()))
            if abs(angle) >= 0.05:
                img = pygame.transform.rotozoom(img, angle, 1.0)
        rect = img.get_rect(center=(round(x), round(y - lift)))
        if shadow:
            # The card's own shape, turned with it: a tilted card casts a tilted shadow, not
            # the box around it.
            sh = self._shadow(face_w, upright.get_height(), angle, shadow)
            off = 3 + round(lift * 0.35)
            surface.blit(sh, sh.get_rect(center=(rect.centerx + off // 2 + 1, rect.centery + off)))
        if alpha < 255:
            img = img.copy()
            img.set_alpha(alpha)
        surface.blit(img, rect)
        return rect


def outline(surface: pygame.Surface, rect: pygame.Rect, color, strength: float = 1.0, width: int = 3) -> None:
    """A glowing rounded outline around a card (legal targets, the chosen capture)."""
    if strength <= 0.02:
        return
    r = max(6, min(rect.w, rect.h) // 10)
    g = theme.glow(rect.size, r, color, spread=9, strength=200)
    g.set_alpha(int(255 * min(1.0, strength)))
    surface.blit(g, (rect.x - 9, rect.y - 9))
    ring = theme.rounded(
        (rect.w + 6, rect.h + 6), r + 3, (0, 0, 0, 0), width, (*color[:3], int(235 * min(1.0, strength)))
    )
    surface.blit(ring, (rect.x - 3, rect.y - 3))


def stack(
    painter: CardPainter,
    surface: pygame.Surface,
    place: Place,
    count: int,
    label: str | None = None,
    face_down: bool = True,
    top_code: str | None = None,
) -> pygame.Rect:
    """A neat stack of cards (stock, capture pile): thickness follows the count, a count badge."""
    w, h = place.size(painter.aspect)
    if count <= 0:
        r = pygame.Rect(0, 0, w, h)
        r.center = (round(place.x), round(place.y))
        surface.blit(theme.rounded(r.size, max(4, w // 10), (0, 0, 0, 40), 1, (*theme.CREAM_FAINT, 70)), r)
        return r
    layers = min(6, 1 + (count - 1) // 3)  # at least one: each draw gives the rect
    rect = pygame.Rect(0, 0, 0, 0)
    for i in range(layers):
        d = layers - 1 - i
        rect = painter.draw(
            surface,
            None if face_down or i < layers - 1 else top_code,
            place.x - d * 0.8,
            place.y + d * 1.2,
            place.angle,
            place.h,
            shadow=90 if i == 0 else 0,
        )
    if label is not None:
        badge(surface, label, (rect.centerx, rect.bottom + 2))
    return rect


def badge(surface: pygame.Surface, s: str, midtop: tuple[int, int], color=theme.CREAM) -> pygame.Rect:
    size = 13
    if theme.TEXT_SCALE[0] > 1:  # a larger text size: no wider than the usual badge (it sits between cards)
        size = theme.fit(s, "sans_bold", 13, theme.unscaled_width(s, "sans_bold", 13), 9)
    img = theme.text(s, "sans_bold", size, color)
    w, h = img.get_width() + 16, 20
    r = pygame.Rect(0, 0, w, h)
    r.midtop = midtop
    surface.blit(theme.rounded((w, h), 10, (8, 24, 16, 215), 1, (*theme.BRASS_DARK, 255)), r)
    surface.blit(img, img.get_rect(center=(r.centerx, r.centery)))
    return r


def plate(
    surface: pygame.Surface,
    rect: pygame.Rect,
    name: str,
    count: str,
    team_color,
    active: float,
    dealer: bool,
    thinking: float,
    time: float,
    rating: str = "",
    tag: str = "",
) -> None:
    """A seat's name plate: name, card count, a team stripe, the turn glow and the dealer chip;
    at a club table the seat's rating too, in a place of its own between name and count;
    ``tag`` a word on a small pill over its top edge (a seat's part in the deal: "Partner")."""
    if active > 0.02:
        g = theme.glow(rect.size, 10, theme.FOCUS, spread=10, strength=230)
        g.set_alpha(int(255 * active * (0.75 + 0.25 * math.sin(time * 4.0))))
        surface.blit(g, (rect.x - 10, rect.y - 10))
    surface.blit(theme.shadow(rect.size, 10, 5, 110), (rect.x - 5 + 1, rect.y - 5 + 3))
    edge = theme.FOCUS if active > 0.5 else theme.BRASS_DARK
    surface.blit(theme.panel(rect.size, 10, (10, 30, 20, 215), edge), rect)
    pygame.draw.rect(surface, team_color, (rect.x + 6, rect.y + 7, 4, rect.h - 14), border_radius=2)
    count_size = theme.fit(count, "sans", 13, 58, 9) if count else 13
    room = rect.w - 27 - (theme.text_width(count, "sans", count_size) + 8 if count else 40)
    width = min(rect.w - 64, room) if count else rect.w - 64
    if rating:
        # Name, rating and count share the plate, each shrunk by the same share when they do
        # not fit (large text), so that none is crowded out; your own plate keeps the room
        # of the thinking dots.
        natural = [
            theme.text_width(name, "sans_bold", 15),
            theme.text_width(rating, "sans_bold", 12),
            theme.text_width(count, "sans", 13) if count else 0,
        ]
        free = rect.w - 17 - (10 + 16 if count else 46 + 8)
        k = min(1.0, free / max(1, sum(natural)))
        if count:
            count_size = theme.fit(count, "sans", 13, max(1, int(natural[2] * k)), 8)
        rating_size = theme.fit(rating, "sans_bold", 12, max(1, int(natural[1] * k)), 8)
        right = rect.right - 10 - (theme.text_width(count, "sans", count_size) + 8 if count else 36)
        rr = theme.blit_text(
            surface, rating, (right, rect.centery + 1), "sans_bold", rating_size, theme.BRASS, anchor="midright"
        )
        width = rr.x - 8 - (rect.x + 17)
    size = theme.fit(name, "sans_bold", 15, width, 10)
    theme.blit_text(
        surface,
        name,
        (rect.x + 17, rect.centery + 1),
        "sans_bold",
        size,
        theme.CREAM if active < 0.5 else theme.BRASS_LIGHT,
        anchor="midleft",
    )
    if thinking > 0:
        # Three dots breathing in turn: the bot is thinking (the window stays live).
        for i in range(3):
            a = 0.35 + 0.65 * max(0.0, math.sin(time * 5.0 - i * 0.7))
            c = tuple(int(v * a) for v in theme.BRASS_LIGHT)
            pygame.draw.circle(surface, c, (rect.right - 40 + i * 9, rect.centery + 1), 3)
    elif count:
        theme.blit_text(
            surface, count, (rect.right - 10, rect.centery + 1), "sans", count_size, theme.CREAM_DIM, anchor="midright"
        )
    if tag:
        tag_plate(surface, tag, (rect.x + 14, rect.y - 9), team_color)
    if dealer:
        chip(surface, (rect.right + 2, rect.y + 2))


def tag_plate(surface: pygame.Surface, tag: str, topleft: tuple[int, int], color) -> pygame.Rect:
    """A small pill in the seat's colour: its part in the deal, in small capitals."""
    size = theme.fit(tag, "cond_bold", 11, 150, 8, tracking_ratio=0.16, caps=True)
    w = theme.text_width(tag, "cond_bold", size, size * 0.16, True) + 16
    r = pygame.Rect(topleft[0], topleft[1], w, 18)
    surface.blit(theme.rounded(r.size, 9, (*color, 255), 1, (*theme.BRASS_DARK, 255)), r)
    theme.small_caps(surface, tag, (r.x + 8, r.y + 3), size, (24, 18, 8))
    return r


def chip(surface: pygame.Surface, center: tuple[int, int]) -> None:
    """The dealer chip: a small brass disc with a D."""
    r = 11
    pygame.draw.circle(surface, (40, 26, 10), (center[0] + 1, center[1] + 2), r)
    pygame.draw.circle(surface, theme.BRASS, center, r)
    pygame.draw.circle(surface, theme.BRASS_LIGHT, center, r - 3, 1)
    theme.blit_text(surface, "D", (center[0], center[1] + 1), "serif_bold", 12, (54, 36, 12), anchor="center")


_BANDS: dict[int, pygame.Surface] = {}
hidpi.on_rescale(_BANDS.clear)  # made at one window size
CALLOUT_FADE = 60  # a call-out's words stay clear of the band's faded ends (text-fit check)


def _band(band_h: int, w: int = 820) -> pygame.Surface:
    """A dark band that fades out at its four edges (behind call-outs), made once per height."""
    if band_h not in _BANDS:
        band = hidpi.surface((w, band_h), pygame.SRCALPHA)
        for i in range(band_h):
            k = 1 - abs(i - band_h / 2) / (band_h / 2)
            pygame.draw.line(band, (6, 18, 11, int(190 * k**0.6)), (0, i), (w, i))
        edges = hidpi.surface((w, band_h), pygame.SRCALPHA)
        for x in range(0, w, 4):
            k = min(1.0, min(x, w - x) / 180)
            pygame.draw.line(edges, (255, 255, 255, int(255 * k)), (x, 0), (x, band_h), 4)
        band.blit(edges, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        _BANDS[band_h] = band
    return _BANDS[band_h]


class Callout:
    """A big, brief word over the table: "Scopa!", "40!", "Last trick"."""

    def __init__(self, text: str, sub: str = "", seconds: float = 1.5):
        self.text = text
        self.sub = sub
        self.t = Tween(0.0, 1.0, seconds, lambda x: x)

    @property
    def done(self) -> bool:
        return self.t.done

    def update(self, dt: float) -> None:
        self.t.update(dt)

    def draw(self, surface: pygame.Surface, center: tuple[int, int]) -> None:
        p = float(self.t.value)
        if self.t.done:
            return
        appear = min(1.0, p / 0.18)
        fade = min(1.0, (1.0 - p) / 0.3)
        a = max(0.0, min(1.0, appear)) * max(0.0, fade)
        scale = 0.82 + 0.18 * ease_out_cubic(appear)
        size = max(10, round(64 * scale))
        # Long words ("Trumpf getauscht") shrink to stay inside the band's clear middle.
        size = theme.fit(self.text, "serif_bold", size, 820 - 2 * CALLOUT_FADE - 6, 10, 0.12, True)  # 6: shadow
        img = theme.text(self.text, "serif_bold", size, theme.BRASS_LIGHT, tracking=size * 0.12, caps=True, shadow=3)
        band_h = 118 if self.sub else 96
        layer = _band(band_h).copy()
        orn = theme.ornament(300)
        cy = band_h // 2 - (12 if self.sub else 0)
        layer.blit(img, img.get_rect(center=(410, cy)))
        theme.note_box(self.text, img.get_width(), layer.get_width() - 2 * CALLOUT_FADE)
        if self.sub:
            sub = theme.text(self.sub, "serif", 18, theme.CREAM)
            layer.blit(sub, sub.get_rect(center=(410, cy + 46)))
            theme.note_box(self.sub, sub.get_width(), layer.get_width() - 2 * CALLOUT_FADE)
        else:
            layer.blit(orn, orn.get_rect(center=(410, cy + 40)))
        layer.set_alpha(int(255 * a))
        surface.blit(layer, layer.get_rect(center=center))


def banner(
    surface: pygame.Surface, s: str, center: tuple[int, int], color=WARN, alpha: float = 1.0, width: int = 760
) -> pygame.Rect:
    """A pill with a message (refusals, the deal summary when the results screen is missing)."""
    lines = theme.wrap(s, "sans_bold", 16, width - 48, max_lines=2)
    h = 18 + 22 * len(lines)
    w = min(width, max(theme.text_width(ln, "sans_bold", 16) for ln in lines) + 48)
    r = pygame.Rect(0, 0, w, h)
    r.center = center
    layer = hidpi.surface((w + 16, h + 16), pygame.SRCALPHA)
    layer.blit(theme.shadow((w, h), 14, 8, 140), (0, 4))
    layer.blit(theme.panel((w, h), 14, (30, 14, 10, 235), color), (8, 8))
    y = 8 + 10
    for ln in lines:
        img = theme.text(ln, "sans_bold", 16, theme.CREAM)
        layer.blit(img, img.get_rect(midtop=(8 + w // 2, y)))
        y += 22
    layer.set_alpha(int(255 * max(0.0, min(1.0, alpha))))
    surface.blit(layer, (r.x - 8, r.y - 8))
    return r


__all__ = [
    "CardSprite",
    "CardPainter",
    "Callout",
    "outline",
    "stack",
    "badge",
    "plate",
    "chip",
    "banner",
    "TEAM_COLORS",
    "OUTLINE",
    "CANDIDATE",
    "WARN",
]
