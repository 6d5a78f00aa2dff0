"""The house style: palette, fonts, cached text, the felt table, panels and shadows.

Everything expensive is made once and cached (felt, rim, panels, shadows, rendered text),
so a frame is mostly blits. Sizes are in logical canvas pixels (1280×720).

Numbers: DejaVu's digits all share one advance width, so scores and percentages are
tabular by construction (``tests/scenes/test_window.py`` checks it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pygame

from sprites import felt_art, hidpi

CANVAS_SIZE = (1280, 720)

# ------------------------------------------------------------------ palette
FELT = (31, 90, 58)  # #1f5a3a
FELT_DEEP = (16, 52, 33)
FELT_LIGHT = (46, 116, 77)
CREAM = (243, 234, 215)  # #f3ead7
CREAM_DIM = (196, 190, 170)
CREAM_FAINT = (150, 158, 140)
BRASS = (201, 164, 92)
BRASS_LIGHT = (240, 214, 150)
BRASS_DARK = (128, 96, 44)
WOOD = (98, 58, 30)
WOOD_DARK = (52, 29, 14)
WOOD_LIGHT = (140, 88, 48)
INK = (28, 24, 20)
PANEL = (9, 30, 20, 178)  # translucent deep green-black
PANEL_SOLID = (14, 38, 26)
SHADOW = (0, 0, 0)
FOCUS = (255, 226, 160)
DANGER = (214, 92, 70)

RIM = 14  # wooden rim width around the canvas

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FACES = {
    "sans": "DejaVuSans.ttf",
    "sans_bold": "DejaVuSans-Bold.ttf",
    "cond_bold": "DejaVuSansCondensed-Bold.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif_bold": "DejaVuSerif-Bold.ttf",
}


# ------------------------------------------------------------------ fonts and text
#: The text size (Settings): every font is this much larger; fit() still keeps text in its box.
TEXT_SCALE = [1.0]
TEXT_SCALES = {"normal": 1.0, "large": 1.15, "xlarge": 1.3}


def set_text_scale(scale: float) -> None:
    if scale != TEXT_SCALE[0]:
        TEXT_SCALE[0] = scale
        _TEXT_CACHE.clear()


def unscaled_width(s: str, face: str, size: int) -> int:
    """``s``'s width at the usual text size (what a layout was made for)."""
    return _font(face, size).size(s)[0]


def font(face: str, size: int) -> pygame.font.Font:
    """A shipped font (never a system one, so every machine looks the same), at the text size."""
    return _font(face, max(6, round(size * TEXT_SCALE[0])))


@cache
def _font(face: str, size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(str(FONT_DIR / FACES.get(face, FACES["sans"])), size)


_TEXT_CACHE: OrderedDict[tuple, pygame.Surface] = OrderedDict()
_TEXT_CACHE_MAX = 3000


# ------------------------------------------------------------------ text-fit measuring (tests, bench)
@dataclass
class TextMeasure:
    """What was drawn into a box while measuring: (text, width in px, box width in px).

    Filled by :func:`fit`, :func:`wrap`, :func:`blit_text` (text running off its surface)
    and :func:`note_box`; ``overflows`` are the entries wider than their box. Used by the
    text-fit test to prove that no label overflows its button or panel in any language.
    """

    entries: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def overflows(self) -> list[tuple[str, int, int]]:
        return [e for e in self.entries if e[1] > e[2]]


_MEASURES: list[TextMeasure] = []


@contextmanager
def measure_text() -> Iterator[TextMeasure]:
    """Record every boxed text drawn inside the ``with`` block (nothing is recorded otherwise)."""
    m = TextMeasure()
    _MEASURES.append(m)
    try:
        yield m
    finally:
        _MEASURES.remove(m)


def note_box(s: str, width: int, box: int) -> None:
    """Tell the measure that ``s`` drawn ``width`` px wide must fit in ``box`` px (free when not measuring)."""
    for m in _MEASURES:
        m.entries.append((s, int(width), int(box)))


def text(
    s: str, face: str = "sans", size: int = 18, color=CREAM, tracking: float = 0, caps: bool = False, shadow: int = 0
) -> pygame.Surface:
    """Rendered, antialiased text on a transparent surface, cached by its arguments.

    ``tracking`` adds letter spacing in pixels (for letter-spaced capitals); ``shadow``
    offsets a soft dark copy beneath, which keeps cream text crisp on busy felt.
    """
    key = (s, face, size, tuple(color), tracking, caps, shadow)
    surf = _TEXT_CACHE.get(key)
    if surf is not None:
        _TEXT_CACHE.move_to_end(key)
        return surf
    ui = hidpi.scale()
    if ui != 1.0:
        # Native resolution: the text is set at the scaled point size (a pixel smaller where
        # hinting makes it wider than the layout measured it), its spacing and shadow scaled
        # with it, and handed back measured in logical pixels.
        room = text_width(s, face, size, tracking, caps) * ui + 1
        px = max(6, round(size * TEXT_SCALE[0] * ui))
        while px > 6 and _width(_font(face, px), s.upper() if caps else s, tracking * ui) > room:
            px -= 1
        surf = hidpi.wrap(
            _render_text(s, _font(face, px), color, tracking * ui, caps, max(0, round(shadow * ui))), None, ui
        )
    else:
        surf = _render_text(s, font(face, size), color, tracking, caps, shadow)
    _TEXT_CACHE[key] = surf
    if len(_TEXT_CACHE) > _TEXT_CACHE_MAX:
        _TEXT_CACHE.popitem(last=False)
    return surf


def _render_text(s: str, f: pygame.font.Font, color, tracking: float, caps: bool, shadow: int) -> pygame.Surface:
    if caps:
        s = s.upper()
    if tracking and s:
        glyphs = [render_line(f, ch, color) for ch in s]
        advances = [f.size(ch)[0] for ch in s]
        width = int(sum(advances) + tracking * (len(s) - 1)) + 2
        surf = pygame.Surface((max(1, width), f.get_height()), pygame.SRCALPHA)
        x = 0.0
        for g, adv in zip(glyphs, advances):
            surf.blit(g, (round(x), 0))
            x += adv + tracking
    else:
        surf = render_line(f, s, color)
    if shadow:
        base = surf
        dark = base.copy()
        dark.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MIN)
        dark.fill((255, 255, 255, 110), special_flags=pygame.BLEND_RGBA_MULT)
        surf = pygame.Surface((base.get_width() + shadow + 1, base.get_height() + shadow + 1), pygame.SRCALPHA)
        surf.blit(dark, (shadow, shadow))
        surf.blit(dark, (shadow + 1, shadow))
        surf.blit(base, (0, 0))
    return surf


def render_line(f: pygame.font.Font, s: str, color: tuple) -> pygame.Surface:
    """``f.render`` that never raises: pygame refuses text that draws nothing ("Text has
    zero width": an empty or zero-width-only string from a locale or rules.yaml) and a NUL
    ("A null character was found"); those become an empty, transparent line."""
    s = s.replace("\x00", "")
    if f.get_height() <= SMALL_ACCENT_HEIGHT and any(ch in _DRAWN_ACCENTS for ch in s):
        return _render_drawn_accents(f, s, color)
    return _plain(f, s, color)


# At small sizes the font's accent on an i is clipped at the line's top (Ì) or hinted into a
# dot (ì), so "CÌCERA" read "CİCERA" and "Cìcera" read "Cicera": those letters get
# a dotless base and an accent stroke drawn by hand inside the line box.
SMALL_ACCENT_HEIGHT = 22  # line heights up to this (about 18 px type)
_DRAWN_ACCENTS = {"ì": ("ı", -1), "í": ("ı", 1), "Ì": ("I", -1), "Í": ("I", 1)}


def _render_drawn_accents(f: pygame.font.Font, s: str, color: tuple) -> pygame.Surface:
    parts: list[tuple[pygame.Surface, int, int]] = []  # (glyphs, advance, accent slant or 0)
    run = ""
    for ch in s + "\x00":
        if ch in _DRAWN_ACCENTS or ch == "\x00":
            if run:
                parts.append((_plain(f, run, color), f.size(run)[0], 0))
                run = ""
            if ch != "\x00":
                base, slant = _DRAWN_ACCENTS[ch]
                parts.append((_plain(f, base, color), f.size(base)[0], slant))
        else:
            run += ch
    height = f.get_height()
    surf = pygame.Surface((max(1, sum(adv for _, adv, _ in parts)), height), pygame.SRCALPHA)
    x = 0
    for glyphs, adv, slant in parts:
        surf.blit(glyphs, (x, 0))
        if slant:
            top = glyphs.get_bounding_rect().top  # the base letter's first inked row
            rise = max(2, round(height * 0.16))
            cx = x + adv / 2
            y1 = max(1, top - 1)  # one clear row above the letter
            y0 = max(0, y1 - rise)
            half = max(1.5, rise * 0.7)
            # grave (slant -1): from upper left down to the stem; acute (+1): from upper right
            start, end = (cx + slant * half, y0), (cx - slant * half * 0.2, y1)
            for dx in (0, 0.8):  # two strokes side by side: an accent as heavy as the letter's stem
                pygame.draw.aaline(surf, color, (start[0] + dx, start[1]), (end[0] + dx, end[1]))
        x += adv
    return surf


def _plain(f: pygame.font.Font, s: str, color: tuple) -> pygame.Surface:
    try:
        return f.render(s or " ", True, color)
    except (pygame.error, ValueError):
        return pygame.Surface((1, f.get_height()), pygame.SRCALPHA)


def text_width(s: str, face: str = "sans", size: int = 18, tracking: float = 0, caps: bool = False) -> int:
    """``s``'s width in logical pixels (the layout's measure at every window size)."""
    return _width(font(face, size), s.upper() if caps else s, tracking)


def _width(f: pygame.font.Font, s: str, tracking: float) -> int:
    if tracking and s:
        return int(sum(f.size(ch)[0] for ch in s) + tracking * (len(s) - 1)) + 2
    return f.size(s)[0]


def wrap(s: str, face: str, size: int, width: int, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap to ``width`` pixels; the last allowed line ends with an ellipsis if cut."""
    f = font(face, size)
    lines: list[str] = []
    for para in s.split("\n"):
        words = para.split()
        line = ""
        for w in words:
            trial = f"{line} {w}" if line else w
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = w
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        kept = lines[:max_lines]
        last = kept[-1]
        while last and f.size(last + "…")[0] > width:
            last = last[:-1].rstrip()
        kept[-1] = last + "…"
        lines = kept
    if _MEASURES:
        for ln in lines:
            note_box(ln, f.size(ln)[0], width)  # a single word longer than the line overflows
    return lines


def fit(
    s: str, face: str, size: int, width: int, min_size: int = 10, tracking_ratio: float = 0.0, caps: bool = False
) -> int:
    """The largest size ≤ ``size`` at which ``s`` fits in ``width`` (long German words);
    ``tracking_ratio`` × size is the letter spacing the text will be drawn with."""
    # At a larger text size the floor is the usual smallest size as shown: text keeps to its box.
    floor = min(min_size, max(6, int(min_size / TEXT_SCALE[0])))
    while size > floor and text_width(s, face, size, tracking_ratio * size, caps) > width:
        size -= 1
    if _MEASURES:  # still too wide at the smallest size: an overflow the test reports
        note_box(s, text_width(s, face, size, tracking_ratio * size, caps), width)
    return size


def blit_text(
    surface: pygame.Surface,
    s: str,
    pos: tuple[float, float],
    face: str = "sans",
    size: int = 18,
    color=CREAM,
    anchor: str = "topleft",
    **kw,
) -> pygame.Rect:
    """Draw cached text with its rect anchored at ``pos`` (any pygame.Rect anchor name)."""
    img = text(s, face, size, color, **kw)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(img, rect)
    if _MEASURES:
        # Text running off the surface it is drawn on is cut: record the part that shows.
        # (Only sideways: scrolled pages draw on a tall surface, so vertical cuts are normal.)
        sw = surface.get_width()
        note_box(s, rect.w, max(0, min(rect.right, sw) - max(rect.left, 0)))
    return rect


def heading(
    surface: pygame.Surface,
    s: str,
    pos: tuple[float, float],
    size: int = 30,
    color=CREAM,
    anchor: str = "topleft",
    tracking: float | None = None,
) -> pygame.Rect:
    """Letter-spaced serif capitals, the house heading style."""
    tr = size * 0.22 if tracking is None else tracking
    return blit_text(surface, s, pos, "serif_bold", size, color, anchor, tracking=tr, caps=True, shadow=2)


def small_caps(
    surface: pygame.Surface, s: str, pos: tuple[float, float], size: int = 13, color=BRASS, anchor: str = "topleft"
) -> pygame.Rect:
    """Small letter-spaced labels (section names, hints)."""
    return blit_text(surface, s, pos, "cond_bold", size, color, anchor, tracking=size * 0.16, caps=True)


# ------------------------------------------------------------------ the felt table
_BG_CACHE: dict[tuple, pygame.Surface] = {}


def felt(size: tuple[int, int] = CANVAS_SIZE, seed: int = 7) -> pygame.Surface:
    """Deep green felt: faint woven texture, soft mottling, a lamp-lit centre and a radial
    vignette. Made once per size."""
    key = ("felt", size, seed)
    if key in _BG_CACHE:
        return _BG_CACHE[key]
    if hidpi.scale() != 1.0:  # woven at the window's own pixels
        _BG_CACHE[key] = surf = hidpi.wrap(felt_art.felt_plain(hidpi.physical_size(size), seed), size)
        return surf
    _BG_CACHE[key] = surf = felt_art.felt_plain(size, seed)
    return surf


def rim(size: tuple[int, int] = CANVAS_SIZE, width: int = RIM) -> pygame.Surface:
    """A wooden frame with a brass inlay, drawn like a mitred picture frame (transparent inside)."""
    key = ("rim", size, width)
    if key in _BG_CACHE:
        return _BG_CACHE[key]
    ui = hidpi.scale()
    if ui != 1.0:  # drawn at the window's own pixels
        _BG_CACHE[key] = surf = hidpi.wrap(
            felt_art.rim_plain(hidpi.physical_size(size), max(1, round(width * ui))), size
        )
        return surf
    _BG_CACHE[key] = surf = felt_art.rim_plain(size, width)
    return surf


#: The high-contrast table (clear suits): a plain dark felt behind the light cards.
HIGH_CONTRAST = [False]
HIGH_CONTRAST_FELT = (6, 14, 10)


def table_background(size: tuple[int, int] = CANVAS_SIZE, with_rim: bool = True) -> pygame.Surface:
    """Felt plus rim as one opaque surface: one blit per frame."""
    key = ("table", size, with_rim, HIGH_CONTRAST[0])
    if key in _BG_CACHE:
        return _BG_CACHE[key]
    if HIGH_CONTRAST[0]:
        surf = hidpi.surface(size).convert() if pygame.display.get_surface() else hidpi.surface(size)
        surf.fill(HIGH_CONTRAST_FELT)
    else:
        surf = felt(size).copy()
    if with_rim:
        surf.blit(rim(size), (0, 0))
    _BG_CACHE[key] = surf
    return surf


# ------------------------------------------------------------------ panels, shadows, glows
class _SurfaceCache(OrderedDict):
    """Surfaces by key; past a budget of bytes the least recently used are forgotten (made
    again when asked for). At native 4K a panel has nine times the pixels it has at 720p."""

    def __init__(self, budget: int):
        super().__init__()
        self.budget = budget
        self.bytes = 0

    def __getitem__(self, key: tuple) -> pygame.Surface:
        surf = super().__getitem__(key)
        self.move_to_end(key)
        return surf

    def __setitem__(self, key: tuple, surf: pygame.Surface) -> None:
        if key in self:
            self.bytes -= _nbytes(super().__getitem__(key))
        super().__setitem__(key, surf)
        self.bytes += _nbytes(surf)
        while self.bytes > self.budget and len(self) > 1:
            self.bytes -= _nbytes(self.popitem(last=False)[1])

    def clear(self) -> None:
        super().clear()
        self.bytes = 0


def _nbytes(surf: pygame.Surface) -> int:
    w, h = pygame.Surface.get_size(surf)
    return w * h * surf.get_bytesize()


_SHAPE_CACHE: _SurfaceCache = _SurfaceCache(160 * 2**20)
_SS = 3  # supersampling factor for antialiased rounded shapes


def rounded(size: tuple[int, int], radius: int, color, border: int = 0, border_color=None) -> pygame.Surface:
    """An antialiased rounded rectangle (drawn 3× and scaled down), cached."""
    key = ("rounded", size, radius, tuple(color), border, tuple(border_color) if border_color else None)
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    w, h = max(1, size[0]), max(1, size[1])
    big = hidpi.surface((w * _SS, h * _SS), pygame.SRCALPHA)
    r = radius * _SS
    if border and border_color is not None:
        pygame.draw.rect(big, border_color, big.get_rect(), border_radius=r)
        inner = big.get_rect().inflate(-2 * border * _SS, -2 * border * _SS)
        # Punch the interior out, then fill it, so a translucent fill does not mix with the border.
        pygame.draw.rect(big, (0, 0, 0, 0), inner, border_radius=max(0, r - border * _SS))
        pygame.draw.rect(big, color, inner, border_radius=max(0, r - border * _SS))
    else:
        pygame.draw.rect(big, color, big.get_rect(), border_radius=r)
    surf = pygame.transform.smoothscale(big, (w, h))
    _SHAPE_CACHE[key] = surf
    return surf


def panel(
    size: tuple[int, int], radius: int = 12, fill=PANEL, edge=BRASS_DARK, highlight: bool = True
) -> pygame.Surface:
    """A translucent dark panel with a thin brass edge and a faint top highlight."""
    key = ("panel", size, radius, tuple(fill), tuple(edge) if edge else None, highlight)
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    w, h = size
    surf = hidpi.surface(size, pygame.SRCALPHA)
    surf.blit(rounded(size, radius, fill, 1 if edge else 0, edge), (0, 0))
    if highlight:
        line = rounded((w - 2 * radius, 1), 0, (255, 240, 210, 38))
        surf.blit(line, (radius, 2))
    _SHAPE_CACHE[key] = surf
    return surf


def shadow(size: tuple[int, int], radius: int = 8, spread: int = 6, strength: int = 120) -> pygame.Surface:
    """A soft drop shadow for a rounded rect of ``size`` (blur faked by stacked layers).

    The result is larger than ``size`` by ``spread`` on each side; blit it at
    (x − spread + offset, y − spread + offset).
    """
    key = ("shadow", size, radius, spread, strength)
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    w, h = size
    surf = hidpi.surface((w + 2 * spread, h + 2 * spread), pygame.SRCALPHA)
    layers = max(1, spread)
    for i in range(layers):
        grow = spread - i
        a = int(strength / layers * (0.6 + 0.8 * i / layers))
        r = pygame.Rect(spread - grow, spread - grow, w + 2 * grow, h + 2 * grow)
        layer = hidpi.surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (0, 0, 0, a), layer.get_rect(), border_radius=radius + grow)
        surf.blit(layer, r.topleft)
    _SHAPE_CACHE[key] = surf
    return surf


def glow(size: tuple[int, int], radius: int = 10, color=FOCUS, spread: int = 8, strength: int = 150) -> pygame.Surface:
    """A soft coloured halo around a rounded rect (focus and selection)."""
    key = ("glow", size, radius, tuple(color), spread, strength)
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    w, h = size
    surf = hidpi.surface((w + 2 * spread, h + 2 * spread), pygame.SRCALPHA)
    for i in range(spread):
        grow = spread - i
        a = int(strength * ((i + 1) / spread) ** 2 / 3)
        r = pygame.Rect(spread - grow, spread - grow, w + 2 * grow, h + 2 * grow)
        pygame.draw.rect(surf, (*color[:3], a), r, width=2, border_radius=radius + grow)
    _SHAPE_CACHE[key] = surf
    return surf


def ornament(width: int, color=BRASS) -> pygame.Surface:
    """A brass rule with a small lozenge in the middle: divides a title from what follows."""
    width = max(1, int(width))  # sized after a text, which may draw nothing (a zero-width title)
    key = ("ornament", width, tuple(color))
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    h = 11
    big = hidpi.surface((width * _SS, h * _SS), pygame.SRCALPHA)
    cy = h * _SS // 2
    mid = width * _SS // 2
    gap = 14 * _SS
    pygame.draw.line(big, color, (0, cy), (mid - gap, cy), _SS)
    pygame.draw.line(big, color, (mid + gap, cy), (width * _SS, cy), _SS)
    d = 5 * _SS
    pygame.draw.polygon(big, color, [(mid, cy - d), (mid + d, cy), (mid, cy + d), (mid - d, cy)])
    pygame.draw.circle(big, color, (mid - gap + 2 * _SS, cy), 2 * _SS)
    pygame.draw.circle(big, color, (mid + gap - 2 * _SS, cy), 2 * _SS)
    surf = pygame.transform.smoothscale(big, (width, h))
    _SHAPE_CACHE[key] = surf
    return surf


def spotlight(size: tuple[int, int], color=(60, 52, 30), power: float = 1.8) -> pygame.Surface:
    """A soft elliptical pool of light on black, fading to nothing at the edges of ``size``;
    blit with BLEND_RGB_ADD to light the felt."""
    key = ("spot", size, tuple(color), power)
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    w, h = size
    sw, sh = max(8, w // 6), max(8, h // 6)
    g = pygame.Surface((sw, sh))
    steps = 40
    for i in range(steps, 0, -1):
        t = i / steps
        v = int(255 * (1 - t) ** power)
        rect = pygame.Rect(0, 0, max(1, int(sw * t)), max(1, int(sh * t)))
        rect.center = (sw // 2, sh // 2)
        pygame.draw.ellipse(g, (v, v, v), rect)
    surf = _enlarged(pygame.transform.smoothscale(g, (sw * 2, sh * 2)), size)
    surf.fill(color, special_flags=pygame.BLEND_RGB_MULT)
    if pygame.display.get_surface() is not None:
        surf = surf.convert()
    _SHAPE_CACHE[key] = surf
    return surf


def vertical_gradient(size: tuple[int, int], top, bottom) -> pygame.Surface:
    """A smooth top-to-bottom gradient (RGB or RGBA), cached."""
    key = ("vgrad", size, tuple(top), tuple(bottom))
    if key in _SHAPE_CACHE:
        return _SHAPE_CACHE[key]
    w, h = size
    strip = pygame.Surface((1, 2), pygame.SRCALPHA)
    strip.set_at((0, 0), top)
    strip.set_at((0, 1), bottom)
    surf = _enlarged(pygame.transform.smoothscale(strip, (2, max(2, h // 4))), (w, h))
    _SHAPE_CACHE[key] = surf
    return surf


def _enlarged(small: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """A soft plain picture smoothed up to ``size`` logical pixels, at the window's resolution."""
    if hidpi.scale() == 1.0:
        return pygame.transform.smoothscale(small, size)
    return hidpi.wrap(pygame.transform.smoothscale(small, hidpi.physical_size(size)), size)


def clear_caches() -> None:
    """Forget every cached surface (tests; after the display's pixel format changes)."""
    _BG_CACHE.clear()
    _SHAPE_CACHE.clear()
    _TEXT_CACHE.clear()


hidpi.on_rescale(clear_caches)  # a new window size: every cached picture is made again at it

__all__ = [
    "CANVAS_SIZE",
    "FELT",
    "CREAM",
    "BRASS",
    "font",
    "text",
    "text_width",
    "wrap",
    "fit",
    "blit_text",
    "heading",
    "small_caps",
    "felt",
    "rim",
    "table_background",
    "rounded",
    "panel",
    "shadow",
    "glow",
    "ornament",
    "spotlight",
    "vertical_gradient",
    "clear_caches",
    "TextMeasure",
    "measure_text",
    "note_box",
]
