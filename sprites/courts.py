"""Court figures built from simple shapes: standing Fante/King/Queen/Unter/Ober, the Cavallo
rider on a horse in profile, and half figures for double-headed packs.

Figures are drawn in figure units (height 1, x centred on 0) through a :class:`Pen` that maps
them into a pixel box, optionally mirrored so the figures of different suits face either way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from sprites.ink import SuitInk, darker, lighter, mix
from sprites.shapes import Point, ellipse_pts, poly, quad, ribbon, stroke
from sprites.suits import draw_baton, draw_sign, draw_sword

Color = tuple[int, int, int]

SKIN: Color = (0xF2, 0xD3, 0xB5)
WHITE: Color = (0xFB, 0xF8, 0xF0)


@dataclass(frozen=True)
class Dress:
    """Colours of one figure: robe, second colour, trim, hose, hair and the outline ink."""

    robe: Color
    second: Color
    trim: Color
    hose: Color
    hair: Color
    ink: Color
    horse: Color = (0xF1, 0xEA, 0xDA)


class Pen:
    """Maps figure units to pixels: x centred on 0 (mirrored on request), y from 0 at the top."""

    def __init__(
        self,
        surf: pygame.Surface,
        ox: float,
        oy: float,
        sx: float,
        sy: float,
        mirror: bool = False,
        ink: Color = (0, 0, 0),
    ):
        self.surf, self.ox, self.oy, self.sx, self.sy = surf, ox, oy, sx, sy
        self.mirror = mirror
        self.ink = ink
        self.lw = max(1, round(min(sx, sy) * 0.0055))

    def p(self, x: float, y: float) -> Point:
        return (self.ox + (-x if self.mirror else x) * self.sx, self.oy + y * self.sy)

    def pts(self, pts: Sequence[Point]) -> list[Point]:
        return [self.p(x, y) for x, y in pts]

    def poly(self, color: Color, pts: Sequence[Point], outline: bool = True) -> None:
        poly(self.surf, color, self.pts(pts), self.ink if outline else None, self.lw if outline else 1)

    def ellipse(
        self,
        color: Color,
        c: Point,
        rx: float,
        ry: float,
        outline: bool = True,
        a0: float = 0.0,
        a1: float = 2 * math.pi,
    ) -> None:
        n = max(14, int(max(rx * self.sx, ry * self.sy) / 1.6))
        self.poly(color, ellipse_pts(c, rx, ry, 0, n, a0, a1), outline)

    def circle(self, color: Color, c: Point, r: float, outline: bool = True) -> None:
        self.ellipse(color, c, r, r * self.sx / self.sy if self.sy else r, outline)

    def line(self, color: Color, pts: Sequence[Point], w: float) -> None:
        stroke(self.surf, color, self.pts(pts), max(1.0, w * self.sy))

    def shape(self, color: Color, centre: Sequence[Point], widths: Sequence[float], outline: bool = True) -> None:
        """A limb or sleeve: a polygon following a centre line with widths in figure units."""
        # Build in figure units so mirroring and anisotropic scale apply to the outline too.
        self.poly(color, ribbon(centre, widths), outline)


# --------------------------------------------------------------------------- pieces


def _held(
    pen: Pen, system: str, suit: str, ink: SuitInk, hand: Point, size: float, curved: bool, pose: str = "up"
) -> None:
    """The suit sign a figure holds: a sign above the hand, or a sword/baton gripped in it."""
    if system == "italian" and suit in "SB":
        hx, hy = hand
        # Long signs stop short of the figure box's top edge.
        if pose == "up":
            base, top = (hx - 0.01, hy + 0.07), (hx + 0.06, max(0.015, hy - size * 1.7))
        elif pose == "shoulder":
            base, top = (hx + 0.02, hy + 0.06), (hx - 0.14, max(0.015, hy - size * 1.5))
        else:  # "down": resting on the ground
            base, top = (hx + 0.02, hy - 0.05), (hx + 0.03, hy + size * 1.25)
            base, top = top, base
        a, b = pen.p(*base), pen.p(*top)
        width = size * 0.22 * pen.sx
        if suit == "S":
            bend = (0.08 if curved else 0.0) * (-1 if pen.mirror else 1)
            draw_sword(pen.surf, a, b, width, ink, bend)
        else:
            draw_baton(pen.surf, a, b, width * 1.25, ink)
        return
    cx, cy = hand[0], hand[1] - size * 0.42
    draw_sign(pen.surf, system, suit, pen.p(cx, cy), size * pen.sy, ink, curved)


def _face(pen: Pen, d: Dress, c: Point, r: float, beard: Color | None = None, young: bool = True) -> None:
    x, y = c
    if beard is not None:
        pen.poly(
            beard,
            [
                (x - r * 0.95, y),
                (x - r * 0.7, y + r * 1.2),
                (x, y + r * 1.75),
                (x + r * 0.7, y + r * 1.2),
                (x + r * 0.95, y),
            ],
        )
    pen.circle(SKIN, c, r)
    if beard is not None:
        pen.poly(
            beard,
            [
                (x - r * 0.9, y + r * 0.15),
                (x - r * 0.55, y + r * 0.9),
                (x, y + r * 1.3),
                (x + r * 0.55, y + r * 0.9),
                (x + r * 0.9, y + r * 0.15),
                (x + r * 0.5, y + r * 0.55),
                (x, y + r * 0.45),
                (x - r * 0.5, y + r * 0.55),
            ],
            outline=False,
        )
    eye = pen.ink
    pen.ellipse(eye, (x - r * 0.33 + r * 0.12, y - r * 0.05), r * 0.1, r * 0.07, outline=False)
    pen.ellipse(eye, (x + r * 0.33 + r * 0.12, y - r * 0.05), r * 0.1, r * 0.07, outline=False)
    pen.line(
        darker(SKIN, 0.3),
        [(x + r * 0.12, y - r * 0.05), (x + r * 0.22, y + r * 0.3), (x + r * 0.08, y + r * 0.35)],
        r * 0.08,
    )
    pen.line(
        (0xB0, 0x40, 0x38), [(x - r * 0.15 + r * 0.1, y + r * 0.58), (x + r * 0.2 + r * 0.1, y + r * 0.58)], r * 0.1
    )
    if not young and beard is None:  # a moustache for the Ober
        pen.poly(
            d.hair,
            [
                (x - r * 0.4, y + r * 0.5),
                (x + r * 0.1, y + r * 0.4),
                (x + r * 0.6, y + r * 0.5),
                (x + r * 0.1, y + r * 0.55),
            ],
            outline=False,
        )


def _crown(pen: Pen, d: Dress, x: float, y: float, r: float, queen: bool = False) -> None:
    """A gold crown sitting on a head of radius r whose top is at y."""
    w = r * (1.05 if not queen else 0.85)
    h = r * (0.85 if not queen else 0.6)
    pts = [
        (x - w, y + h * 0.35),
        (x - w * 1.08, y - h),
        (x - w * 0.55, y - h * 0.35),
        (x, y - h * 1.3),
        (x + w * 0.55, y - h * 0.35),
        (x + w * 1.08, y - h),
        (x + w, y + h * 0.35),
    ]
    pen.poly(d.trim, pts)
    pen.poly(
        darker(d.trim, 0.25),
        [(x - w, y + h * 0.05), (x + w, y + h * 0.05), (x + w, y + h * 0.35), (x - w, y + h * 0.35)],
    )
    for dx, col in ((-w * 0.55, d.second), (0, d.robe), (w * 0.55, d.second)):
        pen.circle(col, (x + dx, y + h * 0.2), r * 0.12)
    for px, py in ((x - w * 1.08, y - h), (x, y - h * 1.3), (x + w * 1.08, y - h)):
        pen.circle(WHITE, (px, py), r * 0.1)


def _cap(pen: Pen, d: Dress, x: float, y: float, r: float, feather: bool = True, brim: bool = False) -> None:
    """A soft cap (Fante) or a brimmed hat (German courts), with a plume."""
    if feather:
        pen.shape(
            WHITE,
            quad((x - r * 0.3, y - r * 0.3), (x - r * 1.6, y - r * 1.4), (x - r * 1.9, y + r * 0.3), 10),
            [r * w for w in (0.2, 0.35, 0.45, 0.5, 0.5, 0.48, 0.42, 0.35, 0.28, 0.18, 0.06)],
        )
    if brim:
        pen.ellipse(d.second, (x, y + r * 0.05), r * 1.5, r * 0.32)
        pen.ellipse(d.second, (x, y - r * 0.25), r * 0.85, r * 0.55, a0=math.pi, a1=2 * math.pi)
        pen.poly(
            d.trim,
            [
                (x - r * 0.85, y - r * 0.25),
                (x + r * 0.85, y - r * 0.25),
                (x + r * 0.82, y - r * 0.08),
                (x - r * 0.82, y - r * 0.08),
            ],
        )
    else:
        pen.ellipse(d.second, (x + r * 0.15, y - r * 0.1), r * 1.2, r * 0.55)
        pen.poly(
            d.trim,
            [
                (x - r * 0.95, y + r * 0.1),
                (x + r * 0.95, y + r * 0.1),
                (x + r * 0.9, y + r * 0.32),
                (x - r * 0.9, y + r * 0.32),
            ],
        )


def _ermine(pen: Pen, pts: Sequence[Point], w: float) -> None:
    """A strip of white fur with black tail marks along a path."""
    pen.line(pen.ink, pts, w * 1.2)
    pen.line(WHITE, pts, w)
    for i in range(1, len(pts) - 1, 2):
        x, y = pts[i]
        pen.poly(pen.ink, [(x, y - w * 0.25), (x + w * 0.12, y + w * 0.2), (x - w * 0.12, y + w * 0.2)], outline=False)


def _attribute(pen: Pen, d: Dress, what: str, hand: Point) -> None:
    """What a French court holds instead of a suit sign: sceptre, flower or halberd."""
    x, y = hand
    if what == "sceptre":
        pen.shape(d.trim, [(x - 0.005, y + 0.06), (x + 0.02, y - 0.2)], [0.022, 0.016])
        pen.circle(d.trim, (x + 0.021, y - 0.215), 0.022)
        pen.poly(
            d.robe, [(x + 0.021, y - 0.27), (x + 0.034, y - 0.245), (x + 0.021, y - 0.232), (x + 0.008, y - 0.245)]
        )
    elif what == "flower":
        green = (0x3C, 0x7D, 0x3A)
        pen.line(green, [(x, y + 0.01), (x - 0.01, y - 0.06), (x - 0.03, y - 0.12)], 0.01)
        pen.ellipse(green, (x + 0.012, y - 0.06), 0.022, 0.01)
        for k in range(5):
            a = 2 * math.pi * k / 5
            pen.circle(d.robe, (x - 0.03 + 0.02 * math.cos(a), y - 0.135 + 0.02 * math.sin(a)), 0.016)
        pen.circle(d.trim, (x - 0.03, y - 0.135), 0.012)
    else:  # halberd
        wood = (0x8A, 0x5A, 0x2A)
        pen.shape(wood, [(x, y + 0.25), (x + 0.005, y - 0.22)], [0.018, 0.016])
        pen.poly(
            (0xC4, 0xCF, 0xDA),
            [
                (x + 0.005, y - 0.3),
                (x + 0.015, y - 0.22),
                (x + 0.07, y - 0.25),
                (x + 0.075, y - 0.17),
                (x + 0.01, y - 0.19),
                (x - 0.035, y - 0.2),
                (x - 0.005, y - 0.22),
            ],
        )
    pen.circle(SKIN, hand, 0.022)


# --------------------------------------------------------------------------- standing figure


def standing(
    pen: Pen,
    role: str,
    d: Dress,
    system: str,
    suit: str,
    ink: SuitInk,
    curved: bool = True,
    sign_high: bool | None = None,
    attribute: str | None = None,
) -> None:
    """A full-length figure. role: fante, king, queen, unter, ober (sign_high moves the sign up).

    attribute ("sceptre", "flower", "halberd") replaces the held suit sign, as on French courts.
    """
    king = role == "king"
    queen = role == "queen"
    long_robe = king or queen
    head_y, r = 0.16, 0.062
    hem = 0.93 if long_robe else 0.72
    hem_w = 0.22 if long_robe else 0.17
    # Cape behind the body for kings and queens.
    if long_robe:
        pen.poly(d.second, [(-0.13, 0.26), (0.13, 0.26), (0.25, 0.9), (0.19, 0.94), (-0.19, 0.94), (-0.25, 0.9)])
        _ermine(pen, [(-0.24, 0.9), (-0.12, 0.935), (0.0, 0.94), (0.12, 0.935), (0.24, 0.9)], 0.03)
    # Hair falls behind the head.
    hair_len = 0.27 if queen else 0.22
    pen.poly(
        d.hair,
        [
            (-r * 1.15, head_y - r * 0.3),
            (-r * 1.2, hair_len),
            (-r * 0.4, hair_len + 0.02),
            (r * 0.4, hair_len + 0.02),
            (r * 1.2, hair_len),
            (r * 1.15, head_y - r * 0.3),
            (0, head_y - r * 1.25),
        ],
    )
    # Legs and shoes for the short tunic.
    if not long_robe:
        for sx in (-1, 1):
            pen.shape(d.hose, [(sx * 0.05, hem - 0.02), (sx * 0.055, 0.85), (sx * 0.06, 0.945)], [0.06, 0.052, 0.045])
            pen.ellipse(pen.ink, (sx * 0.07, 0.955), 0.045, 0.018)
        pen.line(d.trim, [(-0.08, 0.82), (-0.025, 0.82)], 0.012)
        pen.line(d.trim, [(0.025, 0.82), (0.08, 0.82)], 0.012)
    else:
        pen.ellipse(pen.ink, (-0.06, 0.95), 0.045, 0.016)
        pen.ellipse(pen.ink, (0.07, 0.95), 0.045, 0.016)
    # The robe: shoulders, waist, flared hem.
    body = [
        (-0.13, 0.27),
        (0.13, 0.27),
        (0.11, 0.5),
        (hem_w, hem),
        (0.1, hem + 0.012),
        (0, hem + 0.016),
        (-0.1, hem + 0.012),
        (-hem_w, hem),
        (-0.11, 0.5),
    ]
    pen.poly(d.robe, body)
    # A front panel in the second colour, trimmed in gold, and a patterned hem.
    panel = [(-0.035, 0.28), (0.035, 0.28), (0.03, 0.5), (0.07, hem + 0.01), (-0.07, hem + 0.01), (-0.03, 0.5)]
    pen.poly(d.second, panel)
    for k in range(5 if long_robe else 3):
        y = 0.56 + k * 0.075
        if y < hem - 0.02:
            pen.circle(d.trim, (0, y), 0.011)
    pen.line(d.trim, [(-hem_w + 0.01, hem - 0.012), (0, hem + 0.004), (hem_w - 0.01, hem - 0.012)], 0.014)
    pen.poly(d.trim, [(-0.115, 0.49), (0.115, 0.49), (0.117, 0.525), (-0.117, 0.525)])
    pen.circle(d.second, (0, 0.507), 0.016)
    # Shoulder pieces.
    pen.ellipse(d.second, (-0.12, 0.295), 0.045, 0.03)
    pen.ellipse(d.second, (0.12, 0.295), 0.045, 0.03)
    # The free arm rests on the hip; the sign arm is raised or lowered.
    pen.shape(d.robe, [(-0.125, 0.29), (-0.16, 0.4), (-0.13, 0.49)], [0.055, 0.05, 0.045])
    pen.circle(SKIN, (-0.12, 0.5), 0.022)
    high = sign_high if sign_high is not None else role != "unter"
    sign_size = 0.17
    if high and role == "ober":  # the Ober shows his sign up high, the Unter low
        hand = (0.18, 0.21)
        pen.shape(d.robe, [(0.125, 0.29), (0.2, 0.33), (0.185, 0.23)], [0.055, 0.05, 0.045])
    elif high:
        hand = (0.2, 0.3)
        pen.shape(d.robe, [(0.125, 0.29), (0.2, 0.4), (0.205, 0.32)], [0.055, 0.05, 0.045])
    else:
        hand = (0.19, 0.55)
        pen.shape(d.robe, [(0.125, 0.29), (0.18, 0.42), (0.19, 0.54)], [0.055, 0.05, 0.045])
    # Collar and head.
    pen.ellipse(WHITE, (0, 0.25), 0.075, 0.028)
    for k in range(-3, 4):
        pen.circle(WHITE, (k * 0.021, 0.268), 0.012, outline=False)
    beard = d.hair if king else None
    _face(pen, d, (0, head_y), r, beard, young=role != "ober")
    if king or queen:
        _crown(pen, d, 0, head_y - r * 0.75, r, queen=queen)
    else:
        _cap(pen, d, 0, head_y - r * 0.8, r, feather=True, brim=role in ("unter", "ober"))
    # The sign last, so it sits in front of the hand.
    if attribute:
        _attribute(pen, d, attribute, hand)
    elif system == "italian" and suit in "SB":
        pen.circle(SKIN, hand, 0.022)
        _held(pen, system, suit, ink, hand, 0.27 if high else 0.3, curved, "up" if high else "down")
        pen.circle(SKIN, (hand[0] - 0.01, hand[1] + 0.005), 0.02)
    else:
        pen.circle(SKIN, hand, 0.022)
        _held(pen, system, suit, ink, (hand[0] + 0.01, hand[1] + 0.03), sign_size, curved)


# --------------------------------------------------------------------------- rider


def rider(pen: Pen, d: Dress, system: str, suit: str, ink: SuitInk, curved: bool = True) -> None:
    """The Cavallo: a horse in profile facing +x with a rider holding the suit sign."""
    hc = d.horse
    hd = darker(hc, 0.3)
    # Tail and far legs first.
    pen.shape(
        hd,
        quad((-0.25, 0.6), (-0.36, 0.66), (-0.32, 0.86), 10),
        [0.04, 0.05, 0.055, 0.06, 0.06, 0.06, 0.055, 0.05, 0.04, 0.03, 0.015],
    )
    for leg in ([(-0.17, 0.68), (-0.2, 0.8), (-0.17, 0.93)], [(0.14, 0.68), (0.2, 0.78), (0.26, 0.76)]):
        pen.shape(darker(hc, 0.12), leg, [0.05, 0.035, 0.03])
    # Body, neck and head.
    pen.ellipse(hc, (-0.02, 0.62), 0.25, 0.095)
    pen.poly(
        hc,
        [
            (0.1, 0.57),
            (0.17, 0.45),
            (0.22, 0.35),
            (0.27, 0.33),
            (0.37, 0.43),
            (0.365, 0.47),
            (0.33, 0.48),
            (0.27, 0.43),
            (0.22, 0.62),
            (0.14, 0.68),
        ],
    )
    pen.poly(hc, [(0.24, 0.34), (0.245, 0.295), (0.27, 0.33)])  # ear
    pen.circle(pen.ink, (0.28, 0.38), 0.008, outline=False)
    pen.circle(darker(hc, 0.4), (0.35, 0.455), 0.006, outline=False)
    # Mane.
    pen.poly(d.hair, [(0.235, 0.33), (0.17, 0.42), (0.12, 0.53), (0.1, 0.57), (0.15, 0.5), (0.2, 0.42), (0.25, 0.36)])
    # Near legs, one raised in a prance.
    pen.shape(hc, [(-0.12, 0.66), (-0.13, 0.8), (-0.11, 0.93)], [0.06, 0.04, 0.032])
    pen.shape(hc, [(0.15, 0.66), (0.24, 0.74), (0.2, 0.84)], [0.055, 0.04, 0.032])
    for hoof in ((-0.11, 0.945), (-0.17, 0.945)):
        pen.ellipse(pen.ink, hoof, 0.028, 0.014)
    pen.ellipse(pen.ink, (0.2, 0.85), 0.022, 0.014)
    # Bridle and reins.
    pen.line(d.robe, [(0.27, 0.34), (0.33, 0.45)], 0.008)
    pen.line(d.robe, [(0.33, 0.45), (0.1, 0.46)], 0.006)
    # Saddle cloth with a scalloped hem.
    cloth = [(-0.16, 0.54), (0.09, 0.54), (0.1, 0.7)]
    for k in range(6):
        x = 0.1 - k * 0.052
        cloth += [(x - 0.026, 0.725), (x - 0.052, 0.7)]
    pen.poly(d.second, cloth)
    pen.line(d.trim, [(-0.16, 0.555), (0.09, 0.555)], 0.012)
    for k in range(3):
        pen.circle(d.trim, (-0.1 + k * 0.08, 0.64), 0.012)
    # The rider: leg, body, arms, head.
    pen.shape(d.hose, [(-0.02, 0.52), (0.05, 0.6), (0.04, 0.7)], [0.06, 0.05, 0.04])
    pen.ellipse(pen.ink, (0.055, 0.71), 0.035, 0.015)
    pen.poly(d.robe, [(-0.09, 0.3), (0.05, 0.3), (0.06, 0.45), (0.09, 0.55), (-0.12, 0.55), (-0.09, 0.45)])
    pen.poly(d.trim, [(-0.095, 0.44), (0.06, 0.44), (0.062, 0.465), (-0.097, 0.465)])
    pen.shape(d.robe, [(-0.07, 0.32), (-0.03, 0.42), (0.1, 0.44)], [0.045, 0.04, 0.035])
    pen.circle(SKIN, (0.11, 0.44), 0.018)
    pen.ellipse(WHITE, (-0.02, 0.295), 0.055, 0.02)
    pen.poly(d.hair, [(-0.08, 0.2), (-0.075, 0.28), (0.03, 0.28), (0.03, 0.2), (-0.02, 0.16)])
    _face(pen, d, (-0.02, 0.22), 0.048)
    _cap(pen, d, -0.02, 0.22 - 0.04, 0.048, feather=True)
    pen.shape(d.robe, [(0.03, 0.32), (0.12, 0.28), (0.17, 0.19)], [0.045, 0.04, 0.035])
    hand = (0.175, 0.18)
    pen.circle(SKIN, hand, 0.018)
    if system == "italian" and suit in "SB":
        _held(pen, system, suit, ink, hand, 0.16, curved, "shoulder" if suit == "B" else "up")
        pen.circle(SKIN, (hand[0] - 0.005, hand[1] + 0.005), 0.016)
    else:
        _held(pen, system, suit, ink, (hand[0] + 0.03, hand[1] + 0.02), 0.13, curved)


def dress_for(accents: Sequence[Color], gold: Color, ink: Color, index: int) -> Dress:
    """Robe colours for the figure of suit number ``index`` — rotated so every suit differs."""
    robes = [c for c in accents if c != gold] or [(0xC0, 0x3A, 0x2D), (0x2E, 0x5A, 0xA8)]
    robe = robes[index % len(robes)]
    second = robes[(index + 1) % len(robes)] if len(robes) > 1 else gold
    hose = [second, gold, robe, mix(robe, ink, 0.5)][index % 4]
    hair = [(0x5A, 0x3A, 0x22), (0xC8, 0x9B, 0x3C), (0x3A, 0x2A, 0x20), (0x9A, 0x5A, 0x2A)][index % 4]
    horse = [(0xF1, 0xEA, 0xDA), (0xB8, 0x86, 0x52), (0xE2, 0xD6, 0xC0), (0x8A, 0x5A, 0x3A)][index % 4]
    return Dress(robe=robe, second=second, trim=gold, hose=hose, hair=hair, ink=ink, horse=horse)


__all__ = ["Dress", "Pen", "standing", "rider", "dress_for", "lighter"]
