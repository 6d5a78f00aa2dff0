"""The felt and the wooden rim, drawn at any pixel size (sprites.theme caches them per size).

At native resolution they are drawn at the window's own pixels: the weave, the mottling and
the wood grain are pixel textures, so they are made at the size they are shown, never enlarged.
"""

from __future__ import annotations

import math
import random

import pygame

FELT = (31, 90, 58)
BRASS = (201, 164, 92)
BRASS_LIGHT = (240, 214, 150)


# ------------------------------------------------------------------ helpers
def _gray_noise(rng: random.Random, w: int, h: int) -> pygame.Surface:
    """A w×h grey-noise surface from random bytes (palette trick: no per-pixel Python)."""
    small = pygame.image.frombytes(rng.randbytes(w * h), (w, h), "P")
    small.set_palette([(i, i, i) for i in range(256)])
    return small.convert(24)


def _radial(
    size: tuple[int, int],
    inner: float,
    outer: float,
    power: float = 1.6,
    center: tuple[float, float] = (0.5, 0.5),
    steps: int = 48,
) -> pygame.Surface:
    """A grey radial gradient (255 at the centre down to ``outer``·255 at the corners).

    Drawn small as concentric ellipses and scaled up smoothly, so it is cheap and banding-free.
    """
    w, h = size
    sw, sh = max(8, w // 8), max(8, h // 8)
    g = pygame.Surface((sw, sh))
    cx, cy = center[0] * sw, center[1] * sh
    rmax = math.hypot(max(cx, sw - cx), max(cy, sh - cy))
    g.fill((int(outer * 255),) * 3)
    for i in range(steps, 0, -1):
        t = i / steps  # 1 at the edge → 0 at the centre
        v = inner + (outer - inner) * (t**power)
        r = rmax * t
        rect = pygame.Rect(0, 0, int(r * 2 * (sw / sh) ** 0.35), int(r * 2 / (sw / sh) ** 0.35))
        rect.center = (int(cx), int(cy))
        pygame.draw.ellipse(g, (int(_clamp(v) * 255),) * 3, rect)
    return pygame.transform.smoothscale(pygame.transform.smoothscale(g, (sw * 2, sh * 2)), (w, h))


def _clamp(v: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return lo if v < lo else hi if v > hi else v


def _weave_tile(rng: random.Random, n: int = 64) -> pygame.Surface:
    """A small twill tile: diagonal ribs plus fibre noise, as signed offsets around 128.

    Built as bytes in one pass (no per-pixel set_at): it is on the start-up path."""
    noise = rng.randbytes(n * n)
    values = bytes(
        128 + (5 if (x + y) % 4 < 2 else -5) + (3 if x % 2 == 0 else -2) + noise[y * n + x] % 13 - 6
        for y in range(n)
        for x in range(n)
    )
    tile = pygame.image.frombytes(values, (n, n), "P")
    tile.set_palette([(i, i, i) for i in range(256)])
    return tile.convert(24)


def felt_plain(size: tuple[int, int], seed: int) -> pygame.Surface:
    w, h = size
    rng = random.Random(seed)
    surf = pygame.Surface(size)
    surf.fill(FELT)
    # Woven texture: tile the twill, then push the felt up/down by its offset from 128.
    weave = pygame.Surface(size)
    tile = _weave_tile(rng)
    for y in range(0, h, tile.get_height()):
        for x in range(0, w, tile.get_width()):
            weave.blit(tile, (x, y))
    up = weave.copy()
    up.fill((128, 128, 128), special_flags=pygame.BLEND_RGB_SUB)
    down = pygame.Surface(size)
    down.fill((128, 128, 128))
    down.blit(weave, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    surf.blit(up, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    surf.blit(down, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    # Mottling: low-frequency noise, very gentle, like a worn cloth.
    mottle = pygame.transform.smoothscale(_gray_noise(rng, 40, 24), size)
    mottle.fill((128, 128, 128), special_flags=pygame.BLEND_RGB_SUB)  # keep the bright half
    mottle.fill((22, 22, 22), special_flags=pygame.BLEND_RGB_MULT)
    surf.blit(mottle, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    # Lamp light: a warm lift in the middle of the table.
    lamp = _radial(size, 1.0, 0.0, power=1.2, center=(0.5, 0.45))
    lamp.fill((26, 22, 12), special_flags=pygame.BLEND_RGB_MULT)
    surf.blit(lamp, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    # Vignette: darken towards the corners.
    vig = _radial(size, 1.0, 0.36, power=2.0, center=(0.5, 0.47))
    surf.blit(vig, (0, 0), special_flags=pygame.BLEND_RGB_MULT)
    return surf.convert() if pygame.display.get_surface() is not None else surf


def rim_plain(size: tuple[int, int], width: int) -> pygame.Surface:
    w, h = size
    rng = random.Random(11)
    # The wood is painted on an opaque board (so translucent streaks blend instead of
    # punching holes), then copied into a transparent frame.
    wood = pygame.Surface(size)
    # Four mitred bevels: light from the top-left.
    sides = [
        ([(0, 0), (w, 0), (w - width, width), (width, width)], (132, 82, 44)),  # top
        ([(0, 0), (width, width), (width, h - width), (0, h)], (112, 68, 36)),  # left
        ([(w, 0), (w, h), (w - width, h - width), (w - width, width)], (78, 46, 22)),  # right
        ([(0, h), (width, h - width), (w - width, h - width), (w, h)], (64, 37, 18)),  # bottom
    ]
    for pts, col in sides:
        pygame.draw.polygon(wood, col, pts)
    # Wood grain: thin streaks running along each side.
    streaks = pygame.Surface(size, pygame.SRCALPHA)
    for _ in range(260):
        side = rng.randrange(4)
        shade = rng.choice([(40, 22, 10, 70), (190, 128, 72, 45), (30, 16, 6, 55)])
        if side in (0, 3):
            y = rng.randrange(2, width - 2) if side == 0 else h - rng.randrange(2, width - 2)
            x0 = rng.randrange(0, w)
            pygame.draw.line(streaks, shade, (x0, y), (min(w, x0 + rng.randrange(40, 260)), y))
        else:
            x = rng.randrange(2, width - 2) if side == 1 else w - rng.randrange(2, width - 2)
            y0 = rng.randrange(0, h)
            pygame.draw.line(streaks, shade, (x, y0), (x, min(h, y0 + rng.randrange(40, 200))))
    wood.blit(streaks, (0, 0))
    # Re-cut the mitres so streaks do not run through the corners.
    for (x, y), (dx, dy) in (
        ((0, 0), (1, 1)),
        ((w - 1, 0), (-1, 1)),
        ((0, h - 1), (1, -1)),
        ((w - 1, h - 1), (-1, -1)),
    ):
        pygame.draw.line(wood, (44, 24, 10), (x, y), (x + dx * width, y + dy * width))
    surf = pygame.Surface(size, pygame.SRCALPHA)
    surf.blit(wood, (0, 0))
    surf.fill((0, 0, 0, 0), pygame.Rect(width, width, w - 2 * width, h - 2 * width))
    # Outer edge highlight and shadow.
    pygame.draw.rect(surf, (30, 16, 6), surf.get_rect(), 1)
    pygame.draw.line(surf, (176, 124, 74), (1, 1), (w - 2, 1))
    # Brass inlay: a bright line with a dark line either side.
    inner = pygame.Rect(width, width, w - 2 * width, h - 2 * width)
    pygame.draw.rect(surf, (60, 42, 16), inner.inflate(4, 4), 1)
    pygame.draw.rect(surf, BRASS, inner.inflate(2, 2), 2)
    pygame.draw.line(surf, BRASS_LIGHT, (inner.left - 1, inner.top - 1), (inner.right, inner.top - 1))
    # The felt sits lower than the frame: a soft inner shadow.
    for i, a in enumerate((90, 60, 38, 22, 12)):
        r = inner.inflate(-2 * i, -2 * i)
        pygame.draw.rect(surf, (0, 0, 0, a), r, 1)
    return surf


__all__ = ["felt_plain", "rim_plain"]
