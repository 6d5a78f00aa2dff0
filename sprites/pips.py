"""Where the pips go: the classic layout of every number card per suit system (French
lattice, Italian coins and cups, interlaced swords and batons), in unit box coordinates."""

from __future__ import annotations

from dataclasses import dataclass

import pygame


@dataclass(frozen=True)
class Pip:
    """One pip in the unit box (0..1 both ways). Long pips run from (x, y) to (x1, y1)."""

    x: float
    y: float
    kind: str = "sign"  # "sign", "sword" or "baton"
    x1: float = 0.0
    y1: float = 0.0
    bow: float = 0.0  # sideways bulge of a curved blade, in box widths
    rotated: bool = False


_L, _C, _R = 0.17, 0.5, 0.83
_FRENCH: dict[int, list[tuple[float, float]]] = {
    1: [(_C, 0.5)],
    2: [(_C, 0.06), (_C, 0.94)],
    3: [(_C, 0.06), (_C, 0.5), (_C, 0.94)],
    4: [(_L, 0.06), (_R, 0.06), (_L, 0.94), (_R, 0.94)],
    5: [(_L, 0.06), (_R, 0.06), (_C, 0.5), (_L, 0.94), (_R, 0.94)],
    6: [(_L, 0.06), (_R, 0.06), (_L, 0.5), (_R, 0.5), (_L, 0.94), (_R, 0.94)],
    7: [(_L, 0.06), (_R, 0.06), (_C, 0.28), (_L, 0.5), (_R, 0.5), (_L, 0.94), (_R, 0.94)],
    8: [(_L, 0.06), (_R, 0.06), (_C, 0.28), (_L, 0.5), (_R, 0.5), (_C, 0.72), (_L, 0.94), (_R, 0.94)],
    9: [(_L, 0.06), (_R, 0.06), (_L, 0.353), (_R, 0.353), (_C, 0.5), (_L, 0.647), (_R, 0.647), (_L, 0.94), (_R, 0.94)],
    10: [
        (_L, 0.06),
        (_R, 0.06),
        (_C, 0.2),
        (_L, 0.353),
        (_R, 0.353),
        (_L, 0.647),
        (_R, 0.647),
        (_C, 0.8),
        (_L, 0.94),
        (_R, 0.94),
    ],
}
_l, _r = 0.25, 0.75
_ITALIAN: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.24), (0.5, 0.76)],
    3: [(0.5, 0.17), (0.5, 0.5), (0.5, 0.83)],
    4: [(_l, 0.25), (_r, 0.25), (_l, 0.75), (_r, 0.75)],
    5: [(_l, 0.18), (_r, 0.18), (0.5, 0.5), (_l, 0.82), (_r, 0.82)],
    6: [(_l, 0.14), (_r, 0.14), (_l, 0.5), (_r, 0.5), (_l, 0.86), (_r, 0.86)],
    7: [(_l, 0.12), (_r, 0.12), (0.5, 0.31), (_l, 0.5), (_r, 0.5), (_l, 0.88), (_r, 0.88)],
    8: [(_l, 0.1), (_r, 0.1), (_l, 0.367), (_r, 0.367), (_l, 0.633), (_r, 0.633), (_l, 0.9), (_r, 0.9)],
    9: [(_l, 0.1), (_r, 0.1), (_l, 0.3), (_r, 0.3), (0.5, 0.5), (_l, 0.7), (_r, 0.7), (_l, 0.9), (_r, 0.9)],
    10: [
        (_l, 0.08),
        (_r, 0.08),
        (_l, 0.29),
        (_r, 0.29),
        (_l, 0.5),
        (_r, 0.5),
        (_l, 0.71),
        (_r, 0.71),
        (_l, 0.92),
        (_r, 0.92),
    ],
}


def _lattice(n: int, kind: str) -> list[Pip]:
    """Straight sticks or blades crossing in a lattice; an odd one stands upright in the middle."""
    pips: list[Pip] = []
    k = n // 2
    dx = 0.36 - 0.05 * (k - 1) if k else 0.0
    spread = 0.0 if k <= 1 else min(0.48 - dx, 0.14 * (k - 1))
    for i in range(k):
        o = 0.0 if k == 1 else -spread + 2 * spread * i / (k - 1)
        pips.append(Pip(0.5 + o - dx, 0.97, kind, 0.5 + o + dx, 0.03))  # "/" grip at the bottom left
        pips.append(Pip(0.5 + o + dx, 0.97, kind, 0.5 + o - dx, 0.03))  # the other diagonal
    if n % 2:
        pips.insert(k, Pip(0.5, 0.97, kind, 0.5, 0.03))
    return pips


def _curved_swords(n: int) -> list[Pip]:
    """Northern swords: curved blades in nested pairs crossing top and bottom, hilts fanned out
    beside each other; an odd number adds a straight blade down the middle."""
    pips: list[Pip] = []
    k = n // 2
    for i in range(k):
        bow = 0.46 - (0.4 * i / (k - 1) if k > 1 else 0.0)
        e = 0.0 if k == 1 else 0.05 * (i - (k - 1) / 2)  # hilts side by side
        y0, y1 = 0.975 - 0.012 * i, 0.025 + 0.012 * i
        pips.append(Pip(0.5 + e, y0, "sword", 0.5 - e, y1, -bow))  # hilt at the bottom, bowing left
        pips.append(Pip(0.5 - e, y1, "sword", 0.5 + e, y0, -bow))  # hilt at the top, bowing right
    if n % 2:
        pips.insert(k, Pip(0.5, 0.975, "sword", 0.5, 0.025, 0.0))
    return pips


def pip_layout(system: str, suit: str, rank: str, curved: bool = True) -> list[Pip]:
    """Where the pips of a numeral go: exactly N pips for rank N (1 for the Ace)."""
    if rank in ("J", "Q", "K"):
        return []
    n = 1 if rank == "A" else int(rank)
    if system == "italian" and suit in "SB" and n > 1:
        if suit == "S" and curved:
            return _curved_swords(n)
        return _lattice(n, "sword" if suit == "S" else "baton")
    if system == "french":
        return [Pip(x, y, rotated=y > 0.55) for x, y in _FRENCH[n]]
    if system == "german":
        return [Pip(x, y) for x, y in _FRENCH[n]]
    return [Pip(x, y) for x, y in _ITALIAN[n]]


def pip_size(pips: list[Pip], box: pygame.Rect, aspect: float) -> float:
    """The largest sign height so that no two signs overlap and all stay in the box."""
    best = min(box.h * 0.42, box.w / aspect * 0.62)
    pts = [(box.x + p.x * box.w, box.y + p.y * box.h) for p in pips]
    for i, (x0, y0) in enumerate(pts):
        for x1, y1 in pts[i + 1 :]:
            dx, dy = abs(x1 - x0), abs(y1 - y0)
            best = min(best, max(dx / aspect, dy) * 0.9)
    for _x, y in pts:
        best = min(best, 2 * min(y - box.y, box.bottom - y) + box.h * 0.1)
    return max(4.0, best)


__all__ = ["Pip", "pip_layout", "pip_size"]
