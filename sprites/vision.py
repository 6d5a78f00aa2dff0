"""Colour vision deficiencies simulated, and colour differences measured (the
"clear suits" check). Plain Python: no pygame, no numpy.

The simulation is Machado, Oliveira & Fernandes 2009, "A Physiologically-based Model for
Simulation of Color Vision Deficiency" (IEEE TVCG 15(6)), at severity 1.0 (a full
dichromacy: protanopia, deuteranopia, tritanopia). Its 3×3 matrices act on linear RGB, so a
colour is taken out of sRGB's gamma first and put back after. Colour differences are
CIEDE2000 (Sharma, Wu & Dalal 2005, the formula and its test data) in CIE L*a*b* (D65).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Color = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

#: Machado et al. 2009, Table 1 (severity 1.0), on linear RGB.
MACHADO_2009: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
DEFICIENCIES: tuple[str, ...] = tuple(MACHADO_2009)


def to_linear(c: float) -> float:
    """One sRGB channel (0–255) to linear light (0–1)."""
    v = c / 255.0
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def to_srgb(v: float) -> int:
    """Linear light (clipped to 0–1) to one sRGB channel (0–255)."""
    v = min(1.0, max(0.0, v))
    s = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(s * 255)


def simulate(color: Sequence[int], deficiency: str) -> Color:
    """``color`` as seen with ``deficiency`` (one of :data:`DEFICIENCIES`)."""
    m = MACHADO_2009[deficiency]
    lin = [to_linear(x) for x in color[:3]]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return (to_srgb(out[0]), to_srgb(out[1]), to_srgb(out[2]))


def lab(color: Sequence[int]) -> tuple[float, float, float]:
    """sRGB (D65) to CIE L*a*b*."""
    r, g, b = (to_linear(x) for x in color[:3])
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """The CIEDE2000 colour difference ΔE00 between two L*a*b* colours (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm**7 / (cm**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh) / 2)
    lm, cmp_ = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    else:
        hm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hm - 30))
        + 0.24 * math.cos(math.radians(2 * hm))
        + 0.32 * math.cos(math.radians(3 * hm + 6))
        - 0.20 * math.cos(math.radians(4 * hm - 63))
    )
    d_theta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cmp_**7 / (cmp_**7 + 25**7))
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def delta_e(c1: Sequence[int], c2: Sequence[int]) -> float:
    """ΔE00 between two sRGB colours."""
    return ciede2000(lab(c1), lab(c2))


def closest_pair(colors: dict[str, Color], deficiency: str | None = None) -> tuple[float, str, str]:
    """The two colours of ``colors`` nearest each other (as seen with ``deficiency``, or with
    typical vision when None): (ΔE00, name, name)."""
    seen = {k: (simulate(c, deficiency) if deficiency else tuple(c)) for k, c in colors.items()}
    names = sorted(seen)
    best: tuple[float, str, str] | None = None
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            d = delta_e(seen[a], seen[b])
            if best is None or d < best[0]:
                best = (d, a, b)
    assert best is not None, "at least two colours"
    return best


def dominant_colour(pixels: Sequence[Sequence[int]], paper: Sequence[int], ink: Sequence[int]) -> Color:
    """The colour most of a card's suit signs are drawn in, from the card's opaque pixels:
    the paper left out, and the outline ink too unless the signs themselves are ink-dark
    (fewer than a quarter of the marks are anything else). The most frequent colour (in
    steps of 8 per channel) is averaged over its pixels."""

    def far(p: Sequence[int], q: Sequence[int], limit: int) -> bool:
        return abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) > limit

    marks = [p for p in pixels if far(p, paper, 90)]
    coloured = [p for p in marks if far(p, ink, 60)]
    use = coloured if len(coloured) >= 0.25 * len(marks) else marks
    if not use:
        return (paper[0], paper[1], paper[2])
    counts: dict[tuple[int, int, int], int] = {}
    for p in use:
        k = (p[0] >> 3, p[1] >> 3, p[2] >> 3)
        counts[k] = counts.get(k, 0) + 1
    top = max(counts, key=counts.__getitem__)
    sel = [p for p in use if (p[0] >> 3, p[1] >> 3, p[2] >> 3) == top]
    return (
        round(sum(p[0] for p in sel) / len(sel)),
        round(sum(p[1] for p in sel) / len(sel)),
        round(sum(p[2] for p in sel) / len(sel)),
    )


__all__ = [
    "dominant_colour",
    "MACHADO_2009",
    "DEFICIENCIES",
    "simulate",
    "lab",
    "ciede2000",
    "delta_e",
    "closest_pair",
    "to_linear",
    "to_srgb",
]
