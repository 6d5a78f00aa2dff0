"""Native resolution: surfaces measured in logical pixels whose pixels are finer.

Every scene lays out and draws in logical canvas pixels (1280×720). When the window is larger
(or the display has more pixels per point), the UI scale ``s`` is above 1 and the canvas is a
:class:`Hi` surface: its *pixels* are ``s`` times finer, while everything a scene asks it —
``get_size``, ``get_rect``, ``blit`` positions, ``fill`` rects, clips — is in logical pixels.
``pygame.draw`` (and ``gfxdraw``) and ``pygame.transform`` are wrapped once (:func:`install`)
so that drawing on a :class:`Hi` surface is done at its own resolution: a line, a rounded
rect or a circle is drawn sharp at the window's size, not drawn small and enlarged.

What is drawn once and cached is made at the physical size too: text is rendered at the
scaled point size, cards are drawn at the scaled height, the felt's weave is woven at the
window's pixels (see :mod:`sprites.theme` and :mod:`sprites.cards`), and each comes back as a
:class:`Hi` surface of its logical size, so the layout code measuring it is unchanged. A plain
(logical-resolution) surface blitted on a :class:`Hi` one is enlarged on the way (correct,
only soft): :data:`PLAIN_BLITS` counts those, so a test can tell that nothing that matters is.

At scale 1 (a 1280×720 window) nothing of this runs: :func:`surface` returns a plain
``pygame.Surface`` and the canvas is one, exactly as before.

A scale change (the window resized) forgets every cache registered with :func:`on_rescale`;
the next frame renders what it needs at the new size. The scale is per surface, so a surface
kept across the change is still drawn at the right (logical) size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import cast

import pygame
from pygame.typing import ColorLike, Point, RectLike

LOGICAL = (1280, 720)
SCALE = [1.0]  # physical pixels per logical pixel
#: plain surfaces enlarged onto a Hi one (soft): [count]
PLAIN_BLITS = [0]
_CLEARERS: list[Callable[[], None]] = []

_Surface = pygame.Surface
_blit = _Surface.blit
_fill = _Surface.fill
_get_size = _Surface.get_size
_copy = _Surface.copy
_convert = _Surface.convert
_convert_alpha = _Surface.convert_alpha
_subsurface = _Surface.subsurface
_set_clip = _Surface.set_clip
_get_clip = _Surface.get_clip
_get_at = _Surface.get_at
_set_at = _Surface.set_at
_bounding = _Surface.get_bounding_rect


def scale() -> float:
    return SCALE[0]


def fit_scale(window: tuple[int, int], logical: tuple[int, int] = LOGICAL) -> float:
    """The UI scale at which the logical canvas fits the window (letterboxed, 16:9 kept)."""
    return max(0.25, min(window[0] / logical[0], window[1] / logical[1]))


def physical_size(size: tuple[float, float], s: float | None = None) -> tuple[int, int]:
    s = SCALE[0] if s is None else s
    return max(1, round(size[0] * s)), max(1, round(size[1] * s))


def set_scale(s: float) -> bool:
    """Set the UI scale; True (and every registered cache forgotten) when it changed."""
    s = float(s)
    if abs(s - SCALE[0]) < 1e-9:
        return False
    SCALE[0] = s
    for clear in _CLEARERS:
        clear()
    return True


def on_rescale(clear: Callable[[], None]) -> None:
    """Call ``clear`` whenever the scale changes (a cache of surfaces made at one scale)."""
    if clear not in _CLEARERS:
        _CLEARERS.append(clear)


# ---------------------------------------------------------------------- coordinates
def _p(v: float, s: float) -> int:
    return round(v * s)


def to_physical_rect(r: RectLike, s: float) -> pygame.Rect:
    """A logical rect in physical pixels; neighbouring rects stay neighbours."""
    r = pygame.Rect(r) if not isinstance(r, pygame.Rect) else r
    x0, y0 = _p(r.x, s), _p(r.y, s)
    return pygame.Rect(x0, y0, _p(r.x + r.w, s) - x0, _p(r.y + r.h, s) - y0)


def to_logical_rect(r: pygame.Rect, s: float) -> pygame.Rect:
    x0, y0 = math.floor(r.x / s), math.floor(r.y / s)
    return pygame.Rect(x0, y0, math.ceil(r.right / s) - x0, math.ceil(r.bottom / s) - y0)


def _pt(p: Point, s: float) -> tuple[float, float]:
    return (p[0] * s, p[1] * s)


def _corner(dest: Point | RectLike) -> tuple[float, float]:
    """A blit's destination: a point, or a rect's top-left corner."""
    if isinstance(dest, (pygame.Rect, pygame.FRect)):
        return dest.x, dest.y
    d = cast("tuple[float, float]", dest)
    return d[0], d[1]


def _w(width: int, s: float) -> int:
    return 0 if width <= 0 else max(1, round(width * s))


# ---------------------------------------------------------------------- the surface
class Hi(pygame.Surface):
    """A surface measured in logical pixels whose pixels are ``_s`` times finer."""

    _s = 1.0
    _ls: tuple[int, int] | None = None

    def __init__(
        self, size: Point, flags: int = 0, like: pygame.Surface | int | None = None, s: float | None = None
    ) -> None:
        s = SCALE[0] if s is None else s
        w, h = max(0, int(size[0])), max(0, int(size[1]))  # pygame allows an empty surface: so do we
        physical = (round(w * s) if w else 0, round(h * s) if h else 0)
        if like is None:
            super().__init__(physical, flags)
        else:  # the pixel format of ``like`` (a surface, or a depth in bits)
            super().__init__(physical, flags, like)
        self._s = s
        self._ls = (w, h)

    # -- measured in logical pixels
    def get_size(self) -> tuple[int, int]:
        if self._ls is None:
            w, h = _get_size(self)
            self._ls = (max(1, round(w / self._s)), max(1, round(h / self._s)))
        return self._ls

    def get_width(self) -> int:
        return self.get_size()[0]

    def get_height(self) -> int:
        return self.get_size()[1]

    def get_rect(self, **kw: object) -> pygame.Rect:
        r = pygame.Rect((0, 0), self.get_size())
        for k, v in kw.items():
            setattr(r, k, v)
        return r

    def get_frect(self, **kw: object) -> pygame.FRect:
        r = pygame.FRect((0, 0), self.get_size())
        for k, v in kw.items():
            setattr(r, k, v)
        return r

    def get_bounding_rect(self, min_alpha: int = 1) -> pygame.Rect:
        return to_logical_rect(_bounding(self, min_alpha), self._s)

    def get_clip(self) -> pygame.Rect:
        return to_logical_rect(_get_clip(self), self._s)

    def set_clip(self, rect: RectLike | None = None) -> None:
        _set_clip(self, None if rect is None else to_physical_rect(rect, self._s))

    def get_at(self, pos: Point) -> pygame.Color:
        return _get_at(self, (int(pos[0] * self._s), int(pos[1] * self._s)))

    def set_at(self, pos: Point, color: ColorLike) -> None:
        _fill(self, color, to_physical_rect((int(pos[0]), int(pos[1]), 1, 1), self._s))

    # -- drawing in logical pixels
    def blit(
        self,
        source: pygame.Surface,
        dest: Point | RectLike = (0, 0),
        area: RectLike | None = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        s = self._s
        src = as_scale(source, s)
        x, y = _corner(dest)
        r = _blit(self, src, (_p(x, s), _p(y, s)), None if area is None else to_physical_rect(area, s), special_flags)
        return to_logical_rect(r, s)

    def blits(self, blit_sequence: Iterable[tuple[object, ...]], doreturn: bool | int = 1) -> list[pygame.Rect] | None:
        out = [self.blit(*item) for item in blit_sequence]  # type: ignore[arg-type]  # pygame's own tuples
        return out if doreturn else None

    def fblits(self, blit_sequence: Iterable[tuple[pygame.Surface, Point | RectLike]], special_flags: int = 0) -> None:
        for src, dest in blit_sequence:
            self.blit(src, dest, None, special_flags)

    def fill(self, color: ColorLike, rect: RectLike | None = None, special_flags: int = 0) -> pygame.Rect:
        s = self._s
        r = _fill(self, color, None if rect is None else to_physical_rect(rect, s), special_flags)
        return to_logical_rect(r, s)

    # -- copies keep the scale
    def _adopt(self, other: pygame.Surface) -> Hi:
        other = cast(Hi, other)  # pygame keeps the subclass
        other._s, other._ls = self._s, self._ls
        return other

    def copy(self) -> Hi:
        return self._adopt(_copy(self))

    def convert(self, *args: object) -> Hi:
        return self._adopt(_convert(self, *args))

    def convert_alpha(self, *args: object) -> Hi:
        return self._adopt(_convert_alpha(self, *args))

    def subsurface(self, *rect: RectLike | float) -> Hi:
        r = pygame.Rect(*rect)
        sub = cast(Hi, _subsurface(self, to_physical_rect(r, self._s)))  # pygame keeps the subclass
        sub._s, sub._ls = self._s, r.size
        return sub

    def physical(self) -> pygame.Surface:
        """A plain surface sharing these pixels (post-processing, the present, screenshots)."""
        return plain_view(self)


class _Plain(pygame.Surface):
    """A plain surface class (no overrides) that a view of a Hi surface's pixels becomes."""


def plain_view(surf: pygame.Surface) -> pygame.Surface:
    """``surf`` itself if it is plain, else a plain surface sharing its pixels."""
    if not isinstance(surf, Hi):
        return surf
    view = _subsurface(surf, pygame.Rect((0, 0), _get_size(surf)))
    view.__class__ = _Plain
    return view


def surface(size: Point, flags: int = 0, like: pygame.Surface | None = None) -> pygame.Surface:
    """A new surface of ``size`` logical pixels (in the pixel format of ``like``, if given):
    plain at scale 1, else :class:`Hi`."""
    if SCALE[0] == 1.0:
        return pygame.Surface(size, flags) if like is None else pygame.Surface(size, flags, like)
    return Hi(size, flags, like)


def wrap(plain: pygame.Surface, logical: tuple[int, int] | None = None, s: float | None = None) -> pygame.Surface:
    """A plain surface drawn at physical size, as a :class:`Hi` one of ``logical`` size
    (default: its size divided by the scale). At scale 1 it is returned as it is."""
    s = SCALE[0] if s is None else s
    if s == 1.0 and logical is None:
        return plain
    hi = Hi.__new__(Hi, (1, 1))  # type: ignore[call-arg]  # pygame's Surface.__new__ takes a size; its stubs do not say so
    _Surface.__init__(hi, _get_size(plain), plain.get_flags() & pygame.SRCALPHA, plain)
    if plain.get_flags() & pygame.SRCALPHA:
        _fill(hi, (0, 0, 0, 0))
        _blit(hi, plain, (0, 0), None, pygame.BLEND_RGBA_ADD)  # an exact copy, alpha and all
    else:
        _blit(hi, plain, (0, 0))
    hi._s = s
    if logical is not None:
        hi._ls = (max(1, int(logical[0])), max(1, int(logical[1])))
    return hi


def as_scale(src: pygame.Surface, s: float) -> pygame.Surface:
    """``src`` as pixels at scale ``s`` (what a blit on a surface of that scale needs)."""
    ss = src._s if isinstance(src, Hi) else 1.0
    if ss == s:
        return src
    if not isinstance(src, Hi):
        PLAIN_BLITS[0] += 1
    w, h = _get_size(src)
    size = (max(1, round(w * s / ss)), max(1, round(h * s / ss)))
    if w < 2 or h < 2 or src.get_bitsize() < 24:
        return _scale(src, size)
    return _smoothscale(src, size)


# ---------------------------------------------------------------------- pygame.draw and gfxdraw
_draw = {
    name: getattr(pygame.draw, name)
    for name in (
        "rect",
        "line",
        "lines",
        "aaline",
        "aalines",
        "circle",
        "aacircle",
        "ellipse",
        "polygon",
        "aapolygon",
        "arc",
    )
    if hasattr(pygame.draw, name)
}


def _ret(r: object, s: float) -> object:
    return to_logical_rect(r, s) if isinstance(r, pygame.Rect) else r


def _rect(
    surface,
    color,
    rect,
    width=0,
    border_radius=0,
    border_top_left_radius=-1,
    border_top_right_radius=-1,
    border_bottom_left_radius=-1,
    border_bottom_right_radius=-1,
):
    if not isinstance(surface, Hi):
        return _draw["rect"](
            surface,
            color,
            rect,
            width,
            border_radius,
            border_top_left_radius,
            border_top_right_radius,
            border_bottom_left_radius,
            border_bottom_right_radius,
        )
    s = surface._s

    def rad(v: int) -> int:
        return v if v <= 0 else max(1, round(v * s))

    return _ret(
        _draw["rect"](
            surface,
            color,
            to_physical_rect(rect, s),
            _w(width, s),
            rad(border_radius),
            rad(border_top_left_radius),
            rad(border_top_right_radius),
            rad(border_bottom_left_radius),
            rad(border_bottom_right_radius),
        ),
        s,
    )


def _line(surface, color, start_pos, end_pos, width=1):
    if not isinstance(surface, Hi):
        return _draw["line"](surface, color, start_pos, end_pos, width)
    s = surface._s
    return _ret(_draw["line"](surface, color, _pt(start_pos, s), _pt(end_pos, s), _w(width, s)), s)


def _lines(surface, color, closed, points, width=1):
    if not isinstance(surface, Hi):
        return _draw["lines"](surface, color, closed, points, width)
    s = surface._s
    return _ret(_draw["lines"](surface, color, closed, [_pt(p, s) for p in points], _w(width, s)), s)


def _aaline(surface, color, start_pos, end_pos, *args, **kw):
    if not isinstance(surface, Hi):
        return _draw["aaline"](surface, color, start_pos, end_pos, *args, **kw)
    s = surface._s
    a, b = _pt(start_pos, s), _pt(end_pos, s)
    width = max(1, round(s))
    if width > 1:  # a hairline stays as heavy as it was: a line of the scaled width, its ends smoothed
        _draw["line"](surface, color, a, b, width)
    return _ret(_draw["aaline"](surface, color, a, b), s)


def _aalines(surface, color, closed, points, *args, **kw):
    if not isinstance(surface, Hi):
        return _draw["aalines"](surface, color, closed, points, *args, **kw)
    s = surface._s
    pts = [_pt(p, s) for p in points]
    if round(s) > 1:
        _draw["lines"](surface, color, closed, pts, max(1, round(s)))
    return _ret(_draw["aalines"](surface, color, closed, pts), s)


def _circle(surface, color, center, radius, width=0, *args, **kw):
    if not isinstance(surface, Hi):
        return _draw["circle"](surface, color, center, radius, width, *args, **kw)
    s = surface._s
    return _ret(_draw["circle"](surface, color, _pt(center, s), radius * s, _w(width, s), *args, **kw), s)


def _aacircle(surface, color, center, radius, width=0, *args, **kw):
    if not isinstance(surface, Hi):
        return _draw["aacircle"](surface, color, center, radius, width, *args, **kw)
    s = surface._s
    return _ret(_draw["aacircle"](surface, color, _pt(center, s), radius * s, _w(width, s), *args, **kw), s)


def _ellipse(surface, color, rect, width=0):
    if not isinstance(surface, Hi):
        return _draw["ellipse"](surface, color, rect, width)
    s = surface._s
    return _ret(_draw["ellipse"](surface, color, to_physical_rect(rect, s), _w(width, s)), s)


def _arc(surface, color, rect, start_angle, stop_angle, width=1):
    if not isinstance(surface, Hi):
        return _draw["arc"](surface, color, rect, start_angle, stop_angle, width)
    s = surface._s
    return _ret(_draw["arc"](surface, color, to_physical_rect(rect, s), start_angle, stop_angle, _w(width, s)), s)


def _polygon(surface, color, points, width=0):
    if not isinstance(surface, Hi):
        return _draw["polygon"](surface, color, points, width)
    s = surface._s
    return _ret(_draw["polygon"](surface, color, [_pt(p, s) for p in points], _w(width, s)), s)


def _aapolygon(surface, color, points, *args, **kw):
    if not isinstance(surface, Hi):
        return _draw["aapolygon"](surface, color, points, *args, **kw)
    s = surface._s
    return _ret(_draw["aapolygon"](surface, color, [_pt(p, s) for p in points], *args, **kw), s)


_DRAW_WRAPPERS = {
    "rect": _rect,
    "line": _line,
    "lines": _lines,
    "aaline": _aaline,
    "aalines": _aalines,
    "circle": _circle,
    "aacircle": _aacircle,
    "ellipse": _ellipse,
    "arc": _arc,
    "polygon": _polygon,
    "aapolygon": _aapolygon,
}


def _gfx_wrappers() -> dict[str, Callable]:
    import pygame.gfxdraw as gfx

    orig = {
        n: getattr(gfx, n)
        for n in (
            "filled_polygon",
            "aapolygon",
            "polygon",
            "filled_circle",
            "aacircle",
            "circle",
            "filled_ellipse",
            "aaellipse",
        )
    }

    def points_fn(name):
        def f(surface, points, color):
            if not isinstance(surface, Hi):
                return orig[name](surface, points, color)
            s = surface._s
            return orig[name](surface, [(round(x * s), round(y * s)) for x, y in points], color)

        return f

    def circle_fn(name):
        def f(surface, x, y, r, color):
            if not isinstance(surface, Hi):
                return orig[name](surface, x, y, r, color)
            s = surface._s
            return orig[name](surface, round(x * s), round(y * s), max(1, round(r * s)), color)

        return f

    def ellipse_fn(name):
        def f(surface, x, y, rx, ry, color):
            if not isinstance(surface, Hi):
                return orig[name](surface, x, y, rx, ry, color)
            s = surface._s
            return orig[name](surface, round(x * s), round(y * s), max(1, round(rx * s)), max(1, round(ry * s)), color)

        return f

    out: dict[str, Callable] = {}
    for n in ("filled_polygon", "aapolygon", "polygon"):
        out[n] = points_fn(n)
    for n in ("filled_circle", "aacircle", "circle"):
        out[n] = circle_fn(n)
    for n in ("filled_ellipse", "aaellipse"):
        out[n] = ellipse_fn(n)
    return out


# ---------------------------------------------------------------------- pygame.transform
_smoothscale = pygame.transform.smoothscale
_scale = pygame.transform.scale
_rotate = pygame.transform.rotate
_rotozoom = pygame.transform.rotozoom
_flip = pygame.transform.flip


def _scaled_to(fn: Callable) -> Callable:
    def f(surface, size, dest_surface=None):
        if not isinstance(surface, Hi):
            if dest_surface is not None:
                return fn(surface, size, dest_surface)
            return fn(surface, size)
        s = surface._s
        psize = physical_size(size, s)
        if dest_surface is None:
            dest_surface = Hi(size, surface.get_flags() & pygame.SRCALPHA, surface, s=s)
        fn(surface, psize, dest_surface)
        return dest_surface

    return f


def _result(src: Hi, out: pygame.Surface) -> pygame.Surface:
    return wrap(out, None, src._s)


def _rotate_w(surface, angle):
    out = _rotate(surface, angle)
    return _result(surface, out) if isinstance(surface, Hi) else out


def _rotozoom_w(surface, angle, scale):
    out = _rotozoom(surface, angle, scale)
    return _result(surface, out) if isinstance(surface, Hi) else out


def _flip_w(surface, flip_x, flip_y):
    out = _flip(surface, flip_x, flip_y)
    if isinstance(surface, Hi):
        return wrap(out, surface.get_size(), surface._s)
    return out


_INSTALLED = [False]


def install() -> None:
    """Wrap pygame.draw, pygame.gfxdraw and pygame.transform (once): on a plain surface each
    call is the original one; on a :class:`Hi` one its coordinates are scaled."""
    if _INSTALLED[0]:
        return
    _INSTALLED[0] = True
    for name, fn in _DRAW_WRAPPERS.items():
        if name in _draw:
            setattr(pygame.draw, name, fn)
    import pygame.gfxdraw as gfx

    for name, fn in _gfx_wrappers().items():
        setattr(gfx, name, fn)
    ss, sc = _scaled_to(_smoothscale), _scaled_to(_scale)
    pygame.transform.smoothscale = ss
    pygame.transform.scale = sc
    pygame.transform.rotate = _rotate_w
    pygame.transform.rotozoom = _rotozoom_w
    pygame.transform.flip = _flip_w
    for name, target in (("smoothscale_by", ss), ("scale_by", sc)):
        if hasattr(pygame.transform, name):
            orig = getattr(pygame.transform, name)

            def by(surface, factor, dest_surface=None, _orig=orig, _target=target):
                if not isinstance(surface, Hi):
                    return _orig(surface, factor) if dest_surface is None else _orig(surface, factor, dest_surface)
                fx, fy = (factor, factor) if isinstance(factor, (int, float)) else factor
                w, h = surface.get_size()
                return _target(surface, (max(1, round(w * fx)), max(1, round(h * fy))), dest_surface)

            setattr(pygame.transform, name, by)


install()

__all__ = [
    "Hi",
    "SCALE",
    "LOGICAL",
    "PLAIN_BLITS",
    "scale",
    "fit_scale",
    "physical_size",
    "set_scale",
    "on_rescale",
    "surface",
    "wrap",
    "as_scale",
    "plain_view",
    "to_physical_rect",
    "to_logical_rect",
    "install",
]
