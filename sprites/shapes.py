"""Drawing primitives for the card art: filled polygons with an anti-aliased edge, circles,
ellipses, strokes, quadratic curves and ribbons, in float coordinates.

Everything draws into a surface that the caller later smoothscales down by 2 (cards are
supersampled). ``Edges.aa`` is switched off while drawing onto transparent sign surfaces,
which are supersampled instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pygame
import pygame.gfxdraw as gfx

Point = tuple[float, float]


def ipts(pts: Iterable[Point]) -> list[tuple[int, int]]:
    return [(round(x), round(y)) for x, y in pts]


class Edges:
    aa = True  # off while drawing onto transparent sign surfaces (they are supersampled instead)


def poly(
    surf: pygame.Surface, color: Sequence[int], pts: Sequence[Point], outline: Sequence[int] | None = None, lw: int = 1
) -> None:
    """A filled polygon with an anti-aliased edge and an optional ink outline of width lw."""
    ip = ipts(pts)
    if len(ip) < 3:
        return
    gfx.filled_polygon(surf, ip, color)
    if not Edges.aa:
        if outline is not None:
            pygame.draw.lines(surf, outline, True, ip, max(1, lw))
            if lw > 2:
                for p in ip:
                    pygame.draw.circle(surf, outline, p, lw / 2 - 0.2)
        return
    if outline is None:
        gfx.aapolygon(surf, ip, color)
    elif lw <= 1:
        gfx.aapolygon(surf, ip, outline)
    else:
        pygame.draw.lines(surf, outline, True, ip, lw)
        for p in ip:  # round joins so thick outlines have no notches
            pygame.draw.circle(surf, outline, p, lw / 2 - 0.2)


def circle(
    surf: pygame.Surface, color: Sequence[int], c: Point, r: float, outline: Sequence[int] | None = None, lw: int = 1
) -> None:
    x, y, ri = round(c[0]), round(c[1]), max(1, round(r))
    if not Edges.aa:
        if outline is not None:
            gfx.filled_circle(surf, x, y, ri, outline)
            ri = max(1, ri - max(1, lw))
        gfx.filled_circle(surf, x, y, ri, color)
        return
    if outline is not None and lw > 1:
        gfx.filled_circle(surf, x, y, ri, outline)
        gfx.aacircle(surf, x, y, ri, outline)
        ri = max(1, ri - lw)
        gfx.filled_circle(surf, x, y, ri, color)
        gfx.aacircle(surf, x, y, ri, color)
        return
    gfx.filled_circle(surf, x, y, ri, color)
    gfx.aacircle(surf, x, y, ri, color if outline is None else outline)


def ellipse_pts(
    c: Point, rx: float, ry: float, angle: float = 0.0, n: int = 28, a0: float = 0.0, a1: float = 2 * math.pi
) -> list[Point]:
    ca, sa = math.cos(angle), math.sin(angle)
    out = []
    for i in range(n + (0 if a1 - a0 >= 2 * math.pi - 1e-9 else 1)):
        t = a0 + (a1 - a0) * i / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        out.append((c[0] + x * ca - y * sa, c[1] + x * sa + y * ca))
    return out


def ellipse(
    surf: pygame.Surface,
    color: Sequence[int],
    c: Point,
    rx: float,
    ry: float,
    angle: float = 0.0,
    outline: Sequence[int] | None = None,
    lw: int = 1,
) -> None:
    poly(surf, color, ellipse_pts(c, rx, ry, angle, max(12, int(max(rx, ry) / 1.5))), outline, lw)


def stroke(surf: pygame.Surface, color: Sequence[int], pts: Sequence[Point], w: float, closed: bool = False) -> None:
    """A thick polyline with round joins."""
    ip = ipts(pts)
    wi = max(1, round(w))
    if wi <= 1:
        if Edges.aa:
            pygame.draw.aalines(surf, color, closed, ip)
        else:
            pygame.draw.lines(surf, color, closed, ip, 1)
        return
    pygame.draw.lines(surf, color, closed, ip, wi)
    for p in ip:
        pygame.draw.circle(surf, color, p, w / 2)


def quad(p0: Point, c: Point, p1: Point, n: int = 16) -> list[Point]:
    """Points of a quadratic Bézier curve."""
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, d = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p0[0] + b * c[0] + d * p1[0], a * p0[1] + b * c[1] + d * p1[1]))
    return out


def ribbon(center: Sequence[Point], widths: Sequence[float]) -> list[Point]:
    """A polygon following a centre line with a width at every point (blades, sticks, robes)."""
    left, right = [], []
    n = len(center)
    for i, (x, y) in enumerate(center):
        a = center[max(0, i - 1)]
        b = center[min(n - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        hw = widths[i] / 2
        left.append((x + nx * hw, y + ny * hw))
        right.append((x - nx * hw, y - ny * hw))
    return left + right[::-1]


def lw_for(size: float) -> int:
    """Outline width for a sign of this size (in supersampled pixels)."""
    return max(1, round(size * 0.035))


__all__ = ["Point", "Edges", "ipts", "poly", "circle", "ellipse_pts", "ellipse", "stroke", "quad", "ribbon", "lw_for"]
