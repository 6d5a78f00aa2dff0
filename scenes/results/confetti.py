"""The celebration of a won match on the results screen: paper scraps falling in brass,
cream and the card colours."""

from __future__ import annotations

import math
import random
from typing import Any

import pygame


class Confetti:
    """Paper scraps falling in brass, cream and the card colours: the celebration of a win."""

    COLORS = [(236, 202, 128), (243, 234, 215), (192, 38, 45), (46, 90, 168), (224, 165, 38), (63, 143, 74)]

    def __init__(self, rng: random.Random, n: int = 150):
        #: Per scrap: [x, y, vx, vy, angle, spin, colour, size].
        self.bits: list[list[Any]] = []
        for _ in range(n):
            self.bits.append(
                [
                    rng.uniform(40, 1240),
                    rng.uniform(-720, 700),
                    rng.uniform(-40, 40),
                    rng.uniform(70, 170),
                    rng.uniform(0, 6.28),
                    rng.uniform(-5, 5),
                    rng.choice(self.COLORS),
                    rng.uniform(5, 10),
                ]
            )

    def update(self, dt: float) -> None:
        for b in self.bits:
            b[0] += (b[2] + 30 * math.sin(b[4] * 0.7)) * dt
            b[1] += b[3] * dt
            b[4] += b[5] * dt
            if b[1] > 740:
                b[1] -= 760

    def draw(self, surface: pygame.Surface) -> None:
        for x, y, _vx, _vy, ang, _sp, col, size in self.bits:
            if y < -12:
                continue
            w = size * abs(math.cos(ang)) + 1.5  # the scrap turns: its width flickers
            h = size * 0.55
            ca, sa = math.cos(ang * 0.5), math.sin(ang * 0.5)
            pts = [
                (x + dx * ca - dy * sa, y + dx * sa + dy * ca)
                for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
            ]
            pygame.draw.polygon(surface, col, pts)


__all__ = ["Confetti"]
