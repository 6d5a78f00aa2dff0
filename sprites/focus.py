"""The focus manager that makes a scene's controls keyboard-first: focus order (Tab),
spatial arrow navigation, and mouse routing (hover, press, drag, wheel)."""

from __future__ import annotations

from typing import TypeVar

import pygame

from sprites.widget_base import DIRECTIONS, Widget

W = TypeVar("W", bound=Widget)


# ====================================================================== focus manager
class UI:
    """The controls of one scene: focus order, spatial arrow navigation, mouse routing."""

    def __init__(self) -> None:
        self.widgets: list[Widget] = []
        self.focus_index = -1
        self.captured: Widget | None = None  # the widget holding the mouse (drag, press)

    def add(self, widget: W) -> W:
        """Add ``widget`` (in focus order) and give it back, as the kind of widget it is."""
        self.widgets.append(widget)
        if self.focus_index < 0 and widget.can_focus():
            self.focus_index = len(self.widgets) - 1
        return widget

    def clear(self) -> None:
        self.widgets.clear()
        self.focus_index = -1
        self.captured = None

    @property
    def focused(self) -> Widget | None:
        if 0 <= self.focus_index < len(self.widgets):
            w = self.widgets[self.focus_index]
            return w if w.can_focus() else None
        return None

    def focus(self, widget: Widget | None) -> None:
        if widget is None:
            self.focus_index = -1
        elif widget in self.widgets and widget.can_focus():
            self.focus_index = self.widgets.index(widget)

    def ensure_focus(self) -> None:
        if self.focused is None:
            for i, w in enumerate(self.widgets):
                if w.can_focus():
                    self.focus_index = i
                    return

    def move(self, step: int) -> None:
        """Tab order: the next focusable widget, wrapping."""
        n = len(self.widgets)
        if not n:
            return
        i = self.focus_index
        for _ in range(n):
            i = (i + step) % n
            if self.widgets[i].can_focus():
                self.focus_index = i
                return

    def move_spatial(self, dx: int, dy: int) -> bool:
        """Arrow navigation: the nearest widget whose centre lies in that direction."""
        cur = self.focused
        if cur is None:
            self.ensure_focus()
            return self.focused is not None
        cx, cy = cur.rect.center
        best, best_score = None, None
        for w in self.widgets:
            if w is cur or not w.can_focus():
                continue
            px, py = w.rect.center
            along = (px - cx) * dx + (py - cy) * dy
            if along <= 0:
                continue
            across = abs((px - cx) * dy + (py - cy) * dx)
            # Widgets overlapping our row/column are preferred: no sideways penalty for them.
            if dx:
                overlap = not (w.rect.bottom <= cur.rect.top or w.rect.top >= cur.rect.bottom)
            else:
                overlap = not (w.rect.right <= cur.rect.left or w.rect.left >= cur.rect.right)
            score = along + (0 if overlap else across * 2 + 40)
            if best_score is None or score < best_score:
                best, best_score = w, score
        if best is not None:
            self.focus(best)
            return True
        return False

    def widget_at(self, pos: tuple[int, int]) -> Widget | None:
        for w in reversed(self.widgets):
            if w.visible and w.rect.collidepoint(pos):
                return w
        return None

    def handle(self, event: pygame.event.Event) -> bool:
        """Route one event; True when a control used it."""
        if event.type == pygame.KEYDOWN:
            mod = getattr(event, "mod", 0)
            if event.key == pygame.K_TAB:
                self.move(-1 if mod & pygame.KMOD_SHIFT else 1)
                return True
            cur = self.focused
            if cur is not None and cur.on_key(event.key, mod):
                return True
            if event.key in DIRECTIONS:
                return self.move_spatial(*DIRECTIONS[event.key])
            return False
        if event.type == pygame.MOUSEMOTION:
            pos = event.pos
            if self.captured is not None:
                return self.captured.on_mouse_drag(pos)
            under = self.widget_at(pos)
            for w in self.widgets:
                w.hovered = w is under
            if under is not None and under.can_focus():
                self.focus(under)
            return under is not None
        if event.type == pygame.MOUSEBUTTONDOWN:
            if event.button not in (1, 3):
                return False
            under = self.widget_at(event.pos)
            if under is not None and under.enabled:
                if under.can_focus():
                    self.focus(under)
                if under.on_mouse_down(event.pos, event.button):
                    self.captured = under
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP:
            cap = self.captured
            self.captured = None
            if cap is not None:
                return cap.on_mouse_up(event.pos, event.button)
            return False
        if event.type == pygame.MOUSEWHEEL:
            pos = getattr(event, "pos", None)  # set by the app, in canvas pixels
            under = self.widget_at(pos) if pos is not None else None
            if under is not None and under.enabled:
                return under.on_wheel(event.y)
            return False
        return False

    def update(self, dt: float) -> None:
        cur = self.focused
        for w in self.widgets:
            w.update(dt, w is cur)

    def draw(self, surface: pygame.Surface) -> None:
        cur = self.focused
        for w in self.widgets:
            if w.visible:
                w.draw(surface, w is cur)


__all__ = ["UI"]
