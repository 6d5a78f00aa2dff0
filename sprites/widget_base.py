"""The base of every control: a rectangle that can hold focus, react to input and draw
itself, plus the shared bits (labels looked up at draw time, the feedback sound, the keys).

Every control works three ways: mouse (hover, click, drag), keyboard (Tab / arrows /
Enter / Space; Left/Right adjust sliders and choosers) and code (``activate``).
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from sprites import theme
from sprites.tween import Smooth

Label = Callable[[], str] | str


def label_text(lab: Label | None) -> str:
    if lab is None:
        return ""
    return lab() if callable(lab) else lab


_feedback: Callable[[str], None] | None = None


def set_feedback(fn: Callable[[str], None] | None) -> None:
    """Where controls send their feedback sound ("click"); the app points it at its audio."""
    global _feedback
    _feedback = fn


def click() -> None:
    if _feedback is not None:
        _feedback("click")


CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
DIRECTIONS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}


class Widget:
    """A rectangle that can hold focus, react to input and draw itself."""

    focusable = True
    #: What a screen reader says for the control where its label is drawn beside it (a
    #: settings row's name), else None (scenes.speak reads the control's own words).
    spoken: Label | None = None

    def __init__(
        self,
        rect: pygame.Rect | tuple,
        *,
        enabled: bool | Callable[[], bool] = True,
        visible: bool | Callable[[], bool] = True,
        name: str = "",
    ):
        self.rect = pygame.Rect(rect)
        self._enabled = enabled
        self._visible = visible
        self.name = name
        self.hover = Smooth(0.0, rate=16)
        self.focus_glow = Smooth(0.0, rate=14)
        self.hovered = False
        self.pressed = False

    @property
    def enabled(self) -> bool:
        return self._enabled() if callable(self._enabled) else self._enabled

    @property
    def visible(self) -> bool:
        return self._visible() if callable(self._visible) else self._visible

    def can_focus(self) -> bool:
        return self.focusable and self.visible and self.enabled

    # --- input: return True when the event was used
    def on_key(self, key: int, mod: int) -> bool:
        return False

    def on_mouse_down(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def on_mouse_up(self, pos: tuple[int, int], button: int) -> bool:
        return False

    def on_mouse_drag(self, pos: tuple[int, int]) -> bool:
        return False

    def on_wheel(self, dy: int) -> bool:
        return False

    def activate(self) -> None:
        """Enter / Space / click."""

    def update(self, dt: float, focused: bool) -> None:
        self.hover.target = 1.0 if (self.hovered and self.enabled) else 0.0
        self.focus_glow.target = 1.0 if focused else 0.0
        self.hover.update(dt)
        self.focus_glow.update(dt)

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        raise NotImplementedError

    def draw_focus(self, surface: pygame.Surface, rect: pygame.Rect | None = None, radius: int = 10) -> None:
        a = self.focus_glow.value
        if a <= 0.02:
            return
        r = rect or self.rect
        g = theme.glow(r.size, radius, theme.FOCUS, spread=8, strength=190)
        g.set_alpha(int(255 * a))
        surface.blit(g, (r.x - 8, r.y - 8))
        ring = theme.rounded((r.w + 4, r.h + 4), radius + 2, (0, 0, 0, 0), 2, (*theme.FOCUS, int(230 * a)))
        surface.blit(ring, (r.x - 2, r.y - 2))


__all__ = ["Widget", "Label", "label_text", "set_feedback", "click", "CONFIRM_KEYS", "DIRECTIONS"]
