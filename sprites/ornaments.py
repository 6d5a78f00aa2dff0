"""Ornaments of the card art: the laurel round an Ace's sign and the patterned backs
(one per pattern style: lozenges, rosette, tartan, scales, checks, medallion, lattice)."""

from __future__ import annotations

import math

import pygame

from sprites.ink import Palette, darker, lighter, mix
from sprites.shapes import circle, ellipse, ellipse_pts, poly, stroke


def laurel(
    surf: pygame.Surface, c: tuple[float, float], rx: float, ry: float, green: tuple, bow: tuple, ink: tuple
) -> None:
    """Two laurel branches rising round a sign from a ribbon bow at the bottom."""
    cx, cy = c
    leaf = max(3.0, min(rx, ry) * 0.16)
    for side in (-1, 1):
        pts = []
        for i in range(13):
            a = math.pi / 2 + side * (0.25 + i * 0.16)
            pts.append((cx + math.cos(a) * rx, cy + math.sin(a) * ry))
        stroke(surf, darker(green, 0.3), pts, max(1.0, leaf * 0.18))
        for i, (x, y) in enumerate(pts[1:], 1):
            a = math.atan2(pts[i][1] - pts[i - 1][1], pts[i][0] - pts[i - 1][0])
            for k in (-1, 1):
                ang = a + k * 0.7
                ex, ey = x + math.cos(ang) * leaf * 0.8, y + math.sin(ang) * leaf * 0.8
                ellipse(
                    surf,
                    green if (i + k) % 2 else lighter(green, 0.2),
                    (ex, ey),
                    leaf * 0.75,
                    leaf * 0.32,
                    ang,
                    darker(green, 0.4),
                    1,
                )
    by = cy + ry
    for side in (-1, 1):
        poly(
            surf,
            bow,
            [(cx, by), (cx + side * leaf * 1.6, by - leaf * 0.8), (cx + side * leaf * 1.6, by + leaf * 0.8)],
            ink,
            1,
        )
        poly(
            surf,
            bow,
            [(cx, by), (cx + side * leaf * 1.0, by + leaf * 2.0), (cx + side * leaf * 0.4, by + leaf * 2.2)],
            ink,
            1,
        )
    circle(surf, bow, (cx, by), leaf * 0.45, ink, 1)


def back_lozenges(s: pygame.Surface, pal: Palette) -> None:
    """Piacentine: red and blue lozenges with ochre dots."""
    w, h = s.get_size()
    s.fill(pal.red)
    step = max(8, w // 5)
    for j in range(-1, h // (step // 2) + 2):
        for i in range(-1, w // step + 2):
            x = i * step + (step // 2 if j % 2 else 0)
            y = j * step // 2
            d = [(x, y - step / 2 + 2), (x + step / 2 - 2, y), (x, y + step / 2 - 2), (x - step / 2 + 2, y)]
            poly(s, pal.blue, d)
            circle(s, pal.gold, (x, y), step * 0.1)
    _back_frame(s, pal.gold, pal.paper)


def _back_rosette(s: pygame.Surface, pal: Palette) -> None:
    """Napoletane: a field of small yellow dots on red, a big rosette in the centre."""
    w, h = s.get_size()
    s.fill(pal.red)
    step = max(6, w // 8)
    for j in range(h // step + 2):
        for i in range(w // step + 2):
            x = i * step + (step / 2 if j % 2 else 0)
            circle(s, pal.gold, (x, j * step), step * 0.16)
    cx, cy = w / 2, h / 2
    r = w * 0.4
    circle(s, pal.green, (cx, cy), r, pal.gold, max(2, round(w * 0.02)))
    for i in range(12):
        a = 2 * math.pi * i / 12
        tip = (cx + math.cos(a) * r * 0.85, cy + math.sin(a) * r * 0.85)
        lft = (cx + math.cos(a - 0.25) * r * 0.35, cy + math.sin(a - 0.25) * r * 0.35)
        rgt = (cx + math.cos(a + 0.25) * r * 0.35, cy + math.sin(a + 0.25) * r * 0.35)
        poly(s, pal.gold if i % 2 else pal.red, [(cx, cy), lft, tip, rgt])
    circle(s, pal.red, (cx, cy), r * 0.18, pal.gold, max(2, round(w * 0.015)))
    _back_frame(s, pal.gold, pal.paper)


def _back_tartan(s: pygame.Surface, pal: Palette) -> None:
    """Bresciane: fine crossed stripes of blue and red over gold."""
    w, h = s.get_size()
    s.fill(mix(pal.gold, pal.paper, 0.35))
    pitch = max(6, w // 7)
    band = pygame.Surface((w, h), pygame.SRCALPHA)
    for x in range(-h, w + h, pitch):
        stroke(band, (*pal.blue, 150), [(x, 0), (x + h, h)], pitch * 0.35)
        stroke(band, (*pal.red, 150), [(x + h, 0), (x, h)], pitch * 0.2)
    s.blit(band, (0, 0))
    for x in range(-h, w + h, pitch):
        stroke(s, pal.blue, [(x + pitch / 2, 0), (x + pitch / 2 + h, h)], max(1, pitch * 0.06))
    _back_frame(s, pal.blue, pal.paper)


def _back_scales(s: pygame.Surface, pal: Palette) -> None:
    """Trevisane: teal fish scales edged in yellow with red centres."""
    w, h = s.get_size()
    s.fill(pal.blue)
    r = max(5, w // 8)
    for j in range(h // r + 3):
        for i in range(-1, w // (2 * r) + 2):
            x = i * 2 * r + (r if j % 2 else 0)
            y = j * r - r
            circle(s, pal.gold, (x, y), r * 1.02)
            circle(s, pal.blue, (x, y), r * 0.85)
            circle(s, lighter(pal.blue, 0.2), (x, y), r * 0.55)
            circle(s, pal.red, (x, y), r * 0.2)
    _back_frame(s, pal.red, pal.paper)


def _back_checks(s: pygame.Surface, pal: Palette) -> None:
    """Piemontesi: a fine blue diamond checker with red pinpoints."""
    w, h = s.get_size()
    s.fill(pal.paper)
    step = max(6, w // 9)
    for j in range(-1, h // step + 2):
        for i in range(-1, w // step + 2):
            x, y = i * step + (step / 2 if j % 2 else 0), j * step
            d = [(x, y - step / 2), (x + step / 2, y), (x, y + step / 2), (x - step / 2, y)]
            poly(s, pal.blue, [(px * 0.8 + x * 0.2, py * 0.8 + y * 0.2) for px, py in d])
            circle(s, pal.red, (x, y), step * 0.09)
    _back_frame(s, pal.red, pal.paper)


def _back_medallion(s: pygame.Surface, pal: Palette) -> None:
    """Schnapsen (German): green and gold stripes behind an oval medallion."""
    w, h = s.get_size()
    s.fill(pal.green if pal.green != (60, 130, 64) else (0x3C, 0x7D, 0x3A))
    pitch = max(4, w // 14)
    for x in range(0, w + pitch, pitch):
        stroke(s, darker(pal.green, 0.25), [(x, 0), (x, h)], max(1, pitch * 0.3))
    cx, cy = w / 2, h / 2
    ellipse(s, pal.gold, (cx, cy), w * 0.36, h * 0.28, 0, pal.ink, max(2, round(w * 0.015)))
    ellipse(s, pal.red, (cx, cy), w * 0.28, h * 0.22)
    for i in range(8):
        a = 2 * math.pi * i / 8
        ellipse(s, pal.gold, (cx + math.cos(a) * w * 0.14, cy + math.sin(a) * h * 0.11), w * 0.07, w * 0.03, a)
    circle(s, pal.gold, (cx, cy), w * 0.06, pal.ink, 1)
    _back_frame(s, pal.gold, pal.paper)


def _back_lattice(s: pygame.Surface, pal: Palette) -> None:
    """Schnapsen (French): a fine red lattice with a blue-bordered oval in the middle."""
    w, h = s.get_size()
    s.fill(pal.paper)
    pitch = max(5, w // 10)
    for x in range(-h, w + h, pitch):
        stroke(s, pal.red, [(x, 0), (x + h * 0.6, h)], max(1, pitch * 0.18))
        stroke(s, pal.red, [(x + h * 0.6, 0), (x, h)], max(1, pitch * 0.18))
    cx, cy = w / 2, h / 2
    ellipse(s, pal.blue, (cx, cy), w * 0.3, h * 0.22)
    ellipse(s, pal.paper, (cx, cy), w * 0.26, h * 0.19)
    pts = ellipse_pts((cx, cy), w * 0.18, h * 0.13, 0, 4)
    poly(s, pal.red, pts, pal.gold, max(1, round(w * 0.012)))
    circle(s, pal.gold, (cx, cy), w * 0.04)
    _back_frame(s, pal.blue, pal.paper)


def _back_frame(s: pygame.Surface, colour: tuple, paper: tuple) -> None:
    """A thin coloured rule just inside the patterned field."""
    w, h = s.get_size()
    inset = max(2, round(w * 0.05))
    lw = max(1, round(w * 0.018))
    r = pygame.Rect(inset, inset, w - 2 * inset, h - 2 * inset)
    pygame.draw.rect(s, paper, r, lw + 2, border_radius=max(1, round(w * 0.03)))
    pygame.draw.rect(s, colour, r.inflate(-2 * (lw + 1), -2 * (lw + 1)), lw, border_radius=max(1, round(w * 0.025)))


BACKS = {
    "lozenges": back_lozenges,
    "rosette": _back_rosette,
    "tartan": _back_tartan,
    "scales": _back_scales,
    "checks": _back_checks,
    "medallion": _back_medallion,
    "lattice": _back_lattice,
}


__all__ = ["laurel", "BACKS", "back_lozenges"]
