"""Suit signs drawn as vector shapes: Italian, French and German suits.

Everything here draws into a surface that the caller will later smoothscale down by 2
(cards are supersampled), with the primitives of :mod:`sprites.shapes`; the colours come
from :mod:`sprites.ink`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence

import pygame

from sprites.ink import SuitInk, darker, lighter
from sprites.shapes import Edges, Point, circle, ellipse, ellipse_pts, lw_for, poly, quad, ribbon, stroke

# --------------------------------------------------------------------------- swords and batons


def draw_sword(
    surf: pygame.Surface, hilt: Point, tip: Point, width: float, ink: SuitInk, bend: float = 0.0, ornate: bool = False
) -> None:
    """A sword from the pommel end to the point; bend curves the blade (fraction of its length)."""
    hx, hy = hilt
    tx, ty = tip
    length = math.hypot(tx - hx, ty - hy) or 1.0
    ux, uy = (tx - hx) / length, (ty - hy) / length  # along the sword
    nx, ny = -uy, ux  # across
    lw = max(1, round(width * 0.09))

    def at(s: float, o: float = 0.0) -> Point:
        return (hx + ux * s * length + nx * o, hy + uy * s * length + ny * o)

    grip_end = 0.16 if not ornate else 0.2
    guard = grip_end + 0.012
    # Blade: from the guard to the tip, optionally curved like a scimitar.
    b0 = at(guard)
    ctrl = at((guard + 1) / 2, bend * length)
    centre = quad(b0, ctrl, (tx, ty), 18)
    widths = [width * (0.62 - 0.5 * (i / 18) ** 2.2) for i in range(19)]
    widths[-1] = 0.5
    poly(surf, ink.main, ribbon(centre, widths), ink.outline, lw)
    # The fuller: a thin darker line down the blade.
    stroke(surf, ink.dark, centre[1:-4], max(1, width * 0.07))
    # Grip wrapped in the second colour, a pommel and a curled crossguard.
    grip = [at(0.03), at(grip_end)]
    poly(surf, ink.band2, ribbon(grip, [width * 0.36, width * 0.3]), ink.outline, lw)
    for k in range(1, 4):
        s = 0.03 + (grip_end - 0.03) * k / 4
        stroke(surf, darker(ink.band2, 0.4), [at(s, -width * 0.16), at(s, width * 0.16)], max(1, width * 0.05))
    circle(surf, ink.band, at(0.02), width * (0.26 if ornate else 0.2), ink.outline, lw)
    gw = width * (1.5 if ornate else 1.15)
    for side in (-1, 1):
        curl = [
            at(guard + d, side * o)
            for d, o in ((0, 0), (-0.01, gw * 0.3), (-0.035, gw * 0.5), (-0.02, gw * 0.6), (0.005, gw * 0.55))
        ]
        stroke(surf, ink.outline, curl, width * 0.3)
        stroke(surf, ink.band, curl, width * 0.18)
    circle(surf, ink.band, at(guard), width * 0.2, ink.outline, lw)
    if ornate:
        ellipse(surf, ink.band2, at(guard + 0.05), width * 0.12, width * 0.2, math.atan2(uy, ux), ink.outline, lw)


def draw_baton(
    surf: pygame.Surface, grip: Point, head: Point, width: float, ink: SuitInk, ornate: bool = False
) -> None:
    """A knotty cudgel, thicker at the head, with cut branches in the second colour."""
    gx, gy = grip
    hx, hy = head
    length = math.hypot(hx - gx, hy - gy) or 1.0
    ux, uy = (hx - gx) / length, (hy - gy) / length
    nx, ny = -uy, ux
    lw = max(1, round(width * 0.08))

    def at(s: float, o: float = 0.0) -> Point:
        return (gx + ux * s * length + nx * o, gy + uy * s * length + ny * o)

    n = 14
    centre = [at(i / n, width * 0.05 * math.sin(i * 1.7)) for i in range(n + 1)]
    widths = [width * (0.55 + 0.45 * (i / n) ** 1.4) for i in range(n + 1)]
    # Cut branch stubs first, so the stick covers their roots.
    for k, s in enumerate((0.3, 0.48, 0.64, 0.8)):
        side = 1 if k % 2 == 0 else -1
        w = width * (0.6 + 0.35 * s)
        base = at(s, 0)
        out = at(s + 0.05, side * w * 0.95)
        stub = ribbon([base, out], [width * 0.3, width * 0.26])
        poly(surf, ink.band, stub, ink.outline, lw)
        ellipse(surf, lighter(ink.band, 0.35), out, width * 0.13, width * 0.1, math.atan2(uy, ux), ink.outline, 1)
    poly(surf, ink.main, ribbon(centre, widths), ink.outline, lw)
    # Bark: a lighter streak and darker rings.
    stroke(surf, ink.light, [at(i / n, -width * 0.12) for i in range(2, n - 1)], max(1, width * 0.08))
    for s in (0.22, 0.56, 0.9):
        w = width * (0.55 + 0.45 * s**1.4)
        stroke(surf, ink.dark, [at(s, -w * 0.45), at(s + 0.015, 0), at(s, w * 0.45)], max(1, width * 0.06))
    # Cut ends: the head shows the wood, the grip a band.
    ellipse(surf, ink.band, at(1.0), width * 0.5, width * 0.2, math.atan2(ny, nx), ink.outline, lw)
    ellipse(surf, lighter(ink.band, 0.45), at(1.0), width * 0.3, width * 0.1, math.atan2(ny, nx))
    poly(surf, ink.band, ribbon([at(0.0), at(0.07)], [width * 0.6, width * 0.62]), ink.outline, lw)
    if ornate:
        for s in (0.38, 0.72):
            poly(surf, ink.band2, ribbon([at(s - 0.02), at(s + 0.02)], [width * 0.95, width * 1.0]), ink.outline, lw)


# --------------------------------------------------------------------------- Italian signs


def _coin(surf: pygame.Surface, c: Point, size: float, ink: SuitInk, ornate: bool = False) -> None:
    r = size / 2
    lw = lw_for(size)
    circle(surf, ink.dark, c, r)
    circle(surf, ink.main, c, r * 0.86)
    if size < 30:  # tiny index sign: disc, ring and a red centre are all that reads
        circle(surf, ink.band, c, r * 0.32)
        return
    # A ring of beads between two lines.
    circle(surf, ink.dark, c, r * 0.7)
    circle(surf, ink.light, c, r * 0.66)
    beads = 16 if not ornate else 24
    for i in range(beads):
        a = 2 * math.pi * i / beads
        circle(surf, ink.dark, (c[0] + math.cos(a) * r * 0.78, c[1] + math.sin(a) * r * 0.78), r * 0.045 + 0.6)
    # A rosette of eight petals in the two band colours.
    petals = 8
    for i in range(petals):
        a = 2 * math.pi * i / petals + math.pi / petals
        col = ink.band if i % 2 == 0 else ink.band2
        tip = (c[0] + math.cos(a) * r * 0.6, c[1] + math.sin(a) * r * 0.6)
        left = (c[0] + math.cos(a - 0.45) * r * 0.3, c[1] + math.sin(a - 0.45) * r * 0.3)
        right = (c[0] + math.cos(a + 0.45) * r * 0.3, c[1] + math.sin(a + 0.45) * r * 0.3)
        poly(surf, col, [c, left, tip, right], ink.outline if size > 60 else None, 1)
    circle(surf, ink.main, c, r * 0.2, ink.outline, max(1, lw // 2))
    circle(surf, ink.band, c, r * 0.08)
    if ornate:
        circle(surf, ink.outline, c, r * 0.995, None)
        circle(surf, ink.dark, c, r * 0.97)
        circle(surf, ink.main, c, r * 0.9)
        for i in range(36):
            a = 2 * math.pi * i / 36
            p1 = (c[0] + math.cos(a) * r * 0.9, c[1] + math.sin(a) * r * 0.9)
            p2 = (c[0] + math.cos(a + 0.05) * r * 0.84, c[1] + math.sin(a + 0.05) * r * 0.84)
            stroke(surf, ink.dark, [p1, p2], max(1, r * 0.02))
        circle(surf, ink.dark, c, r * 0.82)
        circle(surf, ink.main, c, r * 0.8)
        _coin(surf, c, size * 0.78, ink, False)


def _cup(surf: pygame.Surface, c: Point, size: float, ink: SuitInk, ornate: bool = False) -> None:
    s = size
    cx, cy = c
    lw = lw_for(s)

    def P(x: float, y: float) -> Point:
        return (cx + x * s, cy + y * s)

    # Foot and stem.
    foot = [P(-0.25, 0.5), P(0.25, 0.5), P(0.2, 0.44), P(0.07, 0.38), P(-0.07, 0.38), P(-0.2, 0.44)]
    poly(surf, ink.main, foot, ink.outline, lw)
    poly(surf, ink.dark, [P(-0.25, 0.5), P(0.25, 0.5), P(0.23, 0.47), P(-0.23, 0.47)])
    poly(surf, ink.main, [P(-0.05, 0.39), P(0.05, 0.39), P(0.04, 0.06), P(-0.04, 0.06)], ink.outline, lw)
    ellipse(surf, ink.band, P(0, 0.24), s * 0.13, s * 0.065, 0, ink.outline, lw)
    if s >= 30:
        ellipse(surf, ink.light, P(-0.03, 0.225), s * 0.04, s * 0.018)
    ellipse(surf, ink.main, P(0, 0.07), s * 0.1, s * 0.04, 0, ink.outline, lw)
    # The bowl: a deep half-ellipse under a lip.
    bowl = [P(0.31 * math.cos(math.pi * i / 20), -0.36 + 0.42 * math.sin(math.pi * i / 20)) for i in range(21)]
    poly(surf, ink.main, bowl, ink.outline, lw)
    if s >= 30:
        # Shading down the right side of the bowl and a highlight on the left.
        shade = [P(0.31 * math.cos(math.pi * i / 20), -0.36 + 0.42 * math.sin(math.pi * i / 20)) for i in range(0, 8)]
        shade += [
            P(0.2 * math.cos(math.pi * i / 20), -0.36 + 0.36 * math.sin(math.pi * i / 20)) for i in range(7, -1, -1)
        ]
        poly(surf, ink.dark, shade)
        stroke(surf, ink.light, [P(-0.2, -0.3), P(-0.19, -0.2), P(-0.14, -0.1)], max(1, s * 0.03))
    # Coloured bands round the bowl.
    band = [P(-0.305, -0.3), P(0.305, -0.3), P(0.29, -0.22), P(-0.29, -0.22)]
    poly(surf, ink.band, band, ink.outline, lw)
    if ornate or s >= 60:
        band2 = [P(-0.25, -0.13), P(0.25, -0.13), P(0.2, -0.08), P(-0.2, -0.08)]
        poly(surf, ink.band2, band2, ink.outline, max(1, lw // 2))
        for i in range(5):
            circle(surf, ink.light, P(-0.2 + i * 0.1, -0.26), s * 0.016)
    # The lip: an ellipse showing the mouth of the cup.
    ellipse(surf, ink.main, P(0, -0.37), s * 0.33, s * 0.06, 0, ink.outline, lw)
    ellipse(surf, ink.dark, P(0, -0.37), s * 0.26, s * 0.035)
    if ornate:
        # A domed lid with a knob, as on the big aces.
        lid = [
            P(0.27 * math.cos(math.pi + math.pi * i / 16), -0.43 + 0.16 * math.sin(math.pi + math.pi * i / 16))
            for i in range(17)
        ]
        poly(surf, ink.main, lid, ink.outline, lw)
        poly(surf, ink.band2, [P(-0.22, -0.5), P(0.22, -0.5), P(0.19, -0.46), P(-0.19, -0.46)])
        circle(surf, ink.band, P(0, -0.6), s * 0.045, ink.outline, lw)


def _italian_sword_sign(surf: pygame.Surface, c: Point, size: float, ink: SuitInk, curved: bool) -> None:
    cx, cy = c
    draw_sword(
        surf,
        (cx - size * 0.06, cy + size * 0.5),
        (cx + size * 0.04, cy - size * 0.5),
        size * 0.17,
        ink,
        bend=0.09 if curved else 0.0,
    )


def _italian_baton_sign(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    draw_baton(surf, (cx - size * 0.12, cy + size * 0.5), (cx + size * 0.12, cy - size * 0.44), size * 0.22, ink)


# --------------------------------------------------------------------------- French signs


def _unit_heart() -> list[Point]:
    pts = []
    for i in range(72):
        t = 2 * math.pi * i / 72
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x, y))
    ys = [p[1] for p in pts]
    y0, y1 = min(ys), max(ys)
    h = y1 - y0
    return [(x / h, (y - y0) / h - 0.5) for x, y in pts]


HEART = _unit_heart()  # unit height, centred; width about 1.1


def _scaled(shape: Sequence[Point], c: Point, sx: float, sy: float | None = None, flip: bool = False) -> list[Point]:
    sy = sx if sy is None else sy
    return [(c[0] + x * sx, c[1] + (-y if flip else y) * sy) for x, y in shape]


def _heart(surf: pygame.Surface, c: Point, size: float, ink: SuitInk, shaded: bool = False) -> None:
    poly(
        surf,
        ink.main,
        _scaled(HEART, c, size * 0.92, size),
        ink.outline if shaded else ink.dark,
        lw_for(size) if shaded else 1,
    )
    if shaded and size >= 30:
        ellipse(surf, ink.light, (c[0] - size * 0.22, c[1] - size * 0.2), size * 0.1, size * 0.06, -0.7)


def _diamond(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    h, w = size / 2, size * 0.37
    pts: list[Point] = []
    corners = [(0, -h), (w, 0), (0, h), (-w, 0), (0, -h)]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:]):
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        pts += quad((cx + x0, cy + y0), (cx + mx * 0.86, cy + my * 0.86), (cx + x1, cy + y1), 8)[:-1]
    poly(surf, ink.main, pts, ink.dark, 1)


def _spade(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    poly(surf, ink.main, _scaled(HEART, (cx, cy - size * 0.08), size * 0.92, size * 0.8, flip=True), ink.main, 1)
    stem = quad(
        (cx - size * 0.24, cy + size * 0.5),
        (cx - size * 0.05, cy + size * 0.38),
        (cx - size * 0.03, cy + size * 0.1),
        8,
    )
    stem += quad(
        (cx + size * 0.03, cy + size * 0.1),
        (cx + size * 0.05, cy + size * 0.38),
        (cx + size * 0.24, cy + size * 0.5),
        8,
    )
    poly(surf, ink.main, stem, ink.main, 1)


def _club(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    r = size * 0.225
    for dx, dy in ((0, -0.25), (-0.24, 0.07), (0.24, 0.07)):
        circle(surf, ink.main, (cx + dx * size, cy + dy * size), r)
    poly(
        surf,
        ink.main,
        [
            (cx, cy - size * 0.1),
            (cx + size * 0.12, cy + size * 0.08),
            (cx, cy + size * 0.15),
            (cx - size * 0.12, cy + size * 0.08),
        ],
    )
    stem = quad(
        (cx - size * 0.22, cy + size * 0.5),
        (cx - size * 0.05, cy + size * 0.4),
        (cx - size * 0.035, cy + size * 0.05),
        8,
    )
    stem += quad(
        (cx + size * 0.035, cy + size * 0.05),
        (cx + size * 0.05, cy + size * 0.4),
        (cx + size * 0.22, cy + size * 0.5),
        8,
    )
    poly(surf, ink.main, stem, ink.main, 1)


# --------------------------------------------------------------------------- German signs


def _bell(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    s = size
    lw = lw_for(s)
    # Hanging loop, then the round body of a sleigh bell.
    circle(surf, ink.outline, (cx, cy - s * 0.36), s * 0.11)
    circle(surf, ink.main, (cx, cy - s * 0.36), s * 0.11 - lw * 1.2)
    circle(surf, ink.outline, (cx, cy - s * 0.36), s * 0.045)
    body_c = (cx, cy + s * 0.08)
    circle(surf, ink.main, body_c, s * 0.4, ink.outline, lw)
    if s >= 30:
        # Shade on the lower right, shine on the upper left.
        shade = ellipse_pts(body_c, s * 0.37, s * 0.37, 0, 24, -0.4, 1.9)
        shade += ellipse_pts((body_c[0] - s * 0.06, body_c[1] - s * 0.05), s * 0.3, s * 0.3, 0, 24, -0.4, 1.9)[::-1]
        poly(surf, ink.dark, shade)
        ellipse(surf, ink.light, (cx - s * 0.17, cy - s * 0.09), s * 0.09, s * 0.05, -0.6)
    # The band round the waist, in red, with rivets.
    band = ellipse_pts(body_c, s * 0.4, s * 0.07, 0, 20, 0, math.pi)
    band += [(p[0], p[1] - s * 0.08) for p in ellipse_pts(body_c, s * 0.4, s * 0.07, 0, 20, 0, math.pi)][::-1]
    poly(surf, ink.band, [(x, y - s * 0.02) for x, y in band], ink.outline, max(1, lw // 2))
    # The slot with its two round ends.
    sy = cy + s * 0.27
    stroke(surf, ink.outline, [(cx - s * 0.2, sy), (cx + s * 0.2, sy)], s * 0.06)
    circle(surf, ink.outline, (cx - s * 0.2, sy), s * 0.055)
    circle(surf, ink.outline, (cx + s * 0.2, sy), s * 0.055)
    stroke(surf, ink.outline, [(cx, sy), (cx, cy + s * 0.45)], s * 0.035)


def _acorn(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    s = size
    lw = lw_for(s)
    # Stem on top, the nut hanging below the scaly cupule.
    stroke(
        surf, ink.band, [(cx + s * 0.06, cy - s * 0.5), (cx + s * 0.02, cy - s * 0.38), (cx, cy - s * 0.3)], s * 0.07
    )
    nut = ellipse_pts((cx, cy + s * 0.02), s * 0.23, s * 0.4, 0, 30, 0.0, math.pi)
    nut = [(x, y if y < cy + s * 0.36 else cy + s * 0.36 + (y - cy - s * 0.36) * 0.8) for x, y in nut]
    nut = [(cx + s * 0.23, cy - s * 0.05)] + nut + [(cx - s * 0.23, cy - s * 0.05)]
    poly(surf, ink.main, nut, ink.outline, lw)
    if s >= 30:
        stroke(
            surf,
            ink.light,
            [(cx - s * 0.12, cy + s * 0.05), (cx - s * 0.11, cy + s * 0.2), (cx - s * 0.06, cy + s * 0.3)],
            s * 0.04,
        )
        circle(surf, ink.dark, (cx, cy + s * 0.43), s * 0.03)
    cup = ellipse_pts((cx, cy - s * 0.06), s * 0.28, s * 0.26, 0, 24, math.pi, 2 * math.pi)
    cup += ellipse_pts((cx, cy - s * 0.06), s * 0.28, s * 0.06, 0, 12, 0, math.pi)[::-1]
    poly(surf, ink.band, cup, ink.outline, lw)
    if s >= 24:
        # Cross-hatched scales of the cupule.
        hatch = darker(ink.band, 0.35)
        for i in range(-2, 3):
            x = cx + i * s * 0.1
            stroke(surf, hatch, [(x - s * 0.06, cy - s * 0.25), (x + s * 0.06, cy - s * 0.02)], max(1, s * 0.02))
            stroke(surf, hatch, [(x + s * 0.06, cy - s * 0.25), (x - s * 0.06, cy - s * 0.02)], max(1, s * 0.02))


def _leaf(surf: pygame.Surface, c: Point, size: float, ink: SuitInk) -> None:
    cx, cy = c
    s = size
    lw = lw_for(s)
    tip = (cx, cy - s * 0.5)
    right = quad((cx, cy + s * 0.3), (cx + s * 0.62, cy + s * 0.12), (cx + s * 0.08, cy - s * 0.3), 12)
    right += quad((cx + s * 0.08, cy - s * 0.3), (cx + s * 0.02, cy - s * 0.42), tip, 4)[1:]
    left = [(2 * cx - x, y) for x, y in right][::-1]
    # The two lobes meet in a notch above the stem, like the "Grün" of German packs.
    notch = (cx, cy + s * 0.22)
    shape = [notch] + right[1:] + left[1:-1]
    poly(surf, ink.main, shape, ink.outline, lw)
    if s >= 24:
        half = [(cx + 0.004 * s, cy + s * 0.2)] + right[2:-1] + [(cx + s * 0.01, cy - s * 0.42)]
        poly(surf, ink.dark, half)
        for k in range(3):
            y = cy + s * (0.08 - k * 0.14)
            stroke(surf, ink.light, [(cx, y), (cx - s * (0.2 - k * 0.04), y - s * 0.1)], max(1, s * 0.025))
            stroke(surf, ink.light, [(cx, y), (cx + s * (0.2 - k * 0.04), y - s * 0.1)], max(1, s * 0.025))
    stroke(surf, ink.light, [(cx, cy + s * 0.24), (cx, cy - s * 0.4)], max(1, s * 0.035))
    stroke(surf, ink.dark, [(cx, cy + s * 0.2), (cx - s * 0.03, cy + s * 0.38), (cx - s * 0.1, cy + s * 0.5)], s * 0.06)


# --------------------------------------------------------------------------- dispatch and cache


#: width / height of each sign, for layouts that must not let signs overlap
SIGN_ASPECT: dict[tuple[str, str], float] = {
    ("italian", "D"): 1.0,
    ("italian", "C"): 0.66,
    ("italian", "S"): 0.4,
    ("italian", "B"): 0.45,
    ("french", "D"): 0.76,
    ("french", "C"): 0.95,
    ("french", "S"): 0.9,
    ("french", "B"): 0.94,
    ("german", "D"): 0.82,
    ("german", "C"): 0.95,
    ("german", "S"): 0.72,
    ("german", "B"): 0.6,
}


def draw_sign(
    surf: pygame.Surface,
    system: str,
    suit: str,
    c: Point,
    size: float,
    ink: SuitInk,
    curved: bool = True,
    ornate: bool = False,
    aa: bool = True,
) -> None:
    """Draw one suit sign of the given height, centred on c."""
    before, Edges.aa = Edges.aa, aa
    try:
        _draw_sign(surf, system, suit, c, size, ink, curved, ornate)
    finally:
        Edges.aa = before


def _draw_sign(
    surf: pygame.Surface, system: str, suit: str, c: Point, size: float, ink: SuitInk, curved: bool, ornate: bool
) -> None:
    if system == "italian":
        if suit == "D":
            _coin(surf, c, size, ink, ornate)
        elif suit == "C":
            _cup(surf, c, size, ink, ornate)
        elif suit == "S":
            _italian_sword_sign(surf, c, size, ink, curved)
        else:
            _italian_baton_sign(surf, c, size, ink)
    elif system == "french":
        {"D": _diamond, "C": _heart, "S": _spade, "B": _club}[suit](surf, c, size, ink)
    else:
        if suit == "C":
            _heart(surf, c, size, ink, shaded=True)
        else:
            {"D": _bell, "S": _leaf, "B": _acorn}[suit](surf, c, size, ink)


_SIGNS: OrderedDict[tuple, pygame.Surface] = OrderedDict()
_SIGNS_MAX = 400


def sign_surface(
    system: str, suit: str, size: int, ink: SuitInk, curved: bool = True, ornate: bool = False, rotate: bool = False
) -> pygame.Surface:
    """A cached transparent surface holding one sign (pre-rendered per size, blitted as pips)."""
    key = (system, suit, size, ink, curved, ornate, rotate)
    hit = _SIGNS.get(key)
    if hit is not None:
        _SIGNS.move_to_end(key)
        return hit
    if rotate:
        surf = pygame.transform.rotate(sign_surface(system, suit, size, ink, curved, ornate), 180)
    else:
        # Drawn at twice the size and smoothscaled: gfxdraw's anti-aliased edges do not blend
        # well into transparent pixels, supersampling does.
        pad = max(2, size // 10)
        w = int(size * max(1.0, SIGN_ASPECT[(system, suit)] + 0.3)) + 2 * pad
        h = size + 2 * pad + (size // 4 if ornate and suit == "C" else 0)
        big = pygame.Surface((w * 2, h * 2), pygame.SRCALPHA)
        big.fill((*ink.main, 0))
        draw_sign(big, system, suit, (w, 2 * h - 2 * pad - size), size * 2, ink, curved, ornate, aa=False)
        surf = pygame.transform.smoothscale(big, (w, h))
    _SIGNS[key] = surf
    if len(_SIGNS) > _SIGNS_MAX:
        _SIGNS.popitem(last=False)
    return surf


def blit_sign(
    surf: pygame.Surface,
    system: str,
    suit: str,
    c: Point,
    size: float,
    ink: SuitInk,
    curved: bool = True,
    rotate: bool = False,
) -> None:
    """Blit a cached sign centred on c (the cheap path used for pips and indices)."""
    img = sign_surface(system, suit, max(4, round(size)), ink, curved, False, rotate)
    surf.blit(img, img.get_rect(center=(round(c[0]), round(c[1]))))


SignDrawer = Callable[[pygame.Surface, Point, float], None]


__all__ = ["draw_sign", "sign_surface", "blit_sign", "draw_sword", "draw_baton", "SIGN_ASPECT", "HEART"]
