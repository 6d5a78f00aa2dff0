"""Tweens and eased values for every motion on screen.

Durations are written for the "normal" animation speed; the player's setting scales them
all through :func:`set_animation_speed` ("instant" makes every tween finish on its first
update), so scenes never read the setting themselves. Values may be numbers or tuples of
numbers (positions, colours). ``value_at(alpha)`` interpolates between the last two fixed
updates for smooth rendering between ticks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Generic, TypeVar

Value = float | tuple[float, ...]
#: What one tween moves: a number, or a tuple of numbers (a position, a colour) — one kind per tween.
V = TypeVar("V", float, tuple[float, ...])
Easing = Callable[[float], float]

#: Multiplier on every duration, per animation-speed setting.
SPEED_FACTORS: dict[str, float] = {"slow": 1.6, "normal": 1.0, "fast": 0.55, "instant": 0.0}
_speed = 1.0


def set_animation_speed(name: str) -> None:
    """Apply the player's animation speed to all tweens created or updated from now on."""
    global _speed
    _speed = SPEED_FACTORS.get(name, 1.0)


def speed_factor() -> float:
    return _speed


def scaled(duration: float) -> float:
    """A normal-speed duration in seconds, scaled by the current animation speed."""
    return duration * _speed


# Easing curves: t in [0, 1] → progress in [0, 1]. Ease-out is the house style.
def linear(t: float) -> float:
    return t


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_out_quart(t: float) -> float:
    return 1 - (1 - t) ** 4


def ease_in_out_cubic(t: float) -> float:
    return 4 * t * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def lerp(a: V, b: V, t: float) -> V:
    """Blend numbers or equal-length tuples."""
    if isinstance(a, tuple):
        return tuple(x + (y - x) * t for x, y in zip(a, b))
    return a + (b - a) * t


class Tween(Generic[V]):
    """From ``start`` to ``end`` over ``duration`` seconds (normal speed), after ``delay``."""

    __slots__ = ("start", "end", "duration", "delay", "ease", "elapsed", "_prev", "_value", "on_done", "_fired")

    def __init__(
        self,
        start: V,
        end: V,
        duration: float = 0.22,
        ease: Easing = ease_out_cubic,
        delay: float = 0.0,
        on_done: Callable[[], None] | None = None,
    ):
        self.start: V = start
        self.end: V = end
        self.duration = max(0.0, duration)
        self.delay = max(0.0, delay)
        self.ease = ease
        self.elapsed = 0.0
        self.on_done = on_done
        self._fired = False
        self._value: V = start
        self._prev: V = start

    @property
    def done(self) -> bool:
        return self.elapsed >= self.delay * _speed + self.duration * _speed

    @property
    def value(self) -> V:
        return self._value

    def progress(self) -> float:
        d = self.duration * _speed
        t = self.elapsed - self.delay * _speed
        if t <= 0:
            return 0.0 if d > 0 else (1.0 if self.delay * _speed <= 0 else 0.0)
        return 1.0 if d <= 0 else min(1.0, t / d)

    def update(self, dt: float) -> V:
        self._prev = self._value
        self.elapsed += dt
        p = self.progress()
        self._value = self.end if p >= 1.0 else lerp(self.start, self.end, self.ease(p))
        if p >= 1.0 and not self._fired:
            self._fired = True
            if self.on_done:
                self.on_done()
        return self._value

    def value_at(self, alpha: float) -> V:
        """The value between the previous and the current tick (render interpolation)."""
        return lerp(self._prev, self._value, max(0.0, min(1.0, alpha)))


class Smooth:
    """A number that eases toward its target (exponential ease-out): hover lifts, glows.

    ``rate`` is per second at normal speed; at "instant" speed it snaps.
    """

    __slots__ = ("value", "target", "rate", "_prev")

    def __init__(self, value: float = 0.0, rate: float = 14.0):
        self.value = value
        self.target = value
        self.rate = rate
        self._prev = value

    def update(self, dt: float) -> float:
        self._prev = self.value
        if _speed <= 0:
            self.value = self.target
        else:
            k = 1 - math.exp(-dt * self.rate / _speed)
            self.value += (self.target - self.value) * k
            if abs(self.target - self.value) < 1e-3:
                self.value = self.target
        return self.value

    def value_at(self, alpha: float) -> float:
        return self._prev + (self.value - self._prev) * max(0.0, min(1.0, alpha))

    def snap(self, value: float) -> None:
        self.value = self.target = self._prev = value


__all__ = [
    "Tween",
    "Smooth",
    "set_animation_speed",
    "speed_factor",
    "scaled",
    "lerp",
    "SPEED_FACTORS",
    "linear",
    "ease_out_cubic",
    "ease_out_quart",
    "ease_in_out_cubic",
    "ease_out_back",
]
