"""Controls drawn in the house style, and the focus manager that makes them keyboard-first.

Every control works three ways: mouse (hover, click, drag), keyboard (Tab / arrows /
Enter / Space; Left/Right adjust sliders and choosers) and code (``activate``). Labels are
callables looked up at draw time, so a language switch relabels everything at once.

Also here: toasts, and card fans drawn with the deck's art (``sprites.cards`` when it is
available, else a plain rounded card so screens still render).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from sprites import theme
from sprites.tween import Smooth, Tween, ease_out_cubic

Label = Callable[[], str] | str


def _label(lab: Label | None) -> str:
    if lab is None:
        return ""
    return lab() if callable(lab) else lab


_feedback: Callable[[str], None] | None = None


def set_feedback(fn: Callable[[str], None] | None) -> None:
    """Where controls send their feedback sound ("click"); the app points it at its audio."""
    global _feedback
    _feedback = fn


def _click() -> None:
    if _feedback is not None:
        _feedback("click")


CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
DIRECTIONS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}


# ====================================================================== base
class Widget:
    """A rectangle that can hold focus, react to input and draw itself."""

    focusable = True

    def __init__(self, rect: pygame.Rect | tuple, *, enabled: bool | Callable[[], bool] = True,
                 visible: bool | Callable[[], bool] = True, name: str = ""):
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


# ====================================================================== button
class Button(Widget):
    """A labelled button. Styles: "primary" (brass), "secondary" (outlined), "ghost" (text)."""

    def __init__(self, rect, label: Label, on_click: Callable[[], Any] | None = None, *, style: str = "secondary",
                 size: int = 17, icon: Label | None = None, **kw):
        super().__init__(rect, **kw)
        self.label = label
        self.on_click = on_click
        self.style = style
        self.size = size
        self.icon = icon
        self.flash = Tween(0.0, 0.0, 0.01)

    def activate(self) -> None:
        if not self.enabled:
            return
        self.flash = Tween(1.0, 0.0, 0.28, ease_out_cubic)
        _click()
        if self.on_click:
            self.on_click()

    def on_key(self, key: int, mod: int) -> bool:
        if key in CONFIRM_KEYS:
            self.activate()
            return True
        return False

    def on_mouse_down(self, pos, button) -> bool:
        if button == 1 and self.rect.collidepoint(pos):
            self.pressed = True
            return True
        return False

    def on_mouse_up(self, pos, button) -> bool:
        if button == 1 and self.pressed:
            self.pressed = False
            if self.rect.collidepoint(pos):
                self.activate()
            return True
        return False

    def update(self, dt: float, focused: bool) -> None:
        super().update(dt, focused)
        self.flash.update(dt)

    def _body(self, size) -> pygame.Surface:
        key = ("button", self.style, size)
        cached = _BODY_CACHE.get(key)
        if cached is not None:
            return cached
        w, h = size
        surf = pygame.Surface(size, pygame.SRCALPHA)
        r = min(12, h // 2)
        if self.style == "primary":
            grad = theme.vertical_gradient(size, (236, 202, 128, 255), (176, 134, 62, 255))
            mask = theme.rounded(size, r, (255, 255, 255, 255))
            body = grad.copy()
            body.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            surf.blit(body, (0, 0))
            surf.blit(theme.rounded(size, r, (0, 0, 0, 0), 1, (110, 78, 30, 255)), (0, 0))
            surf.blit(theme.rounded((w - 2 * r, 1), 0, (255, 246, 220, 170)), (r, 2))
        elif self.style == "secondary":
            surf.blit(theme.rounded(size, r, (12, 34, 24, 190), 1, (*theme.BRASS, 220)), (0, 0))
            surf.blit(theme.rounded((w - 2 * r, 1), 0, (255, 240, 210, 40)), (r, 2))
        _BODY_CACHE[key] = surf
        return surf

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        if not self.visible:
            return
        h = self.hover.value
        lift = -round(2 * max(h, self.focus_glow.value)) + (1 if self.pressed else 0)
        r = self.rect.move(0, lift)
        if self.style != "ghost":
            sh = theme.shadow(r.size, 10, 5, 110)
            surface.blit(sh, (r.x - 5 + 1, r.y - 5 + 3 - lift))
            body = self._body(r.size)
            if not self.enabled:
                body = body.copy()
                body.set_alpha(110)
            surface.blit(body, r)
            if h > 0.02 or self.flash.value > 0.02:
                over = theme.rounded(r.size, min(12, r.h // 2), (255, 250, 235, 255))
                over = over.copy()
                over.set_alpha(int(34 * h + 90 * float(self.flash.value)))
                surface.blit(over, r)
        self.draw_focus(surface, r, min(12, r.h // 2))
        if self.style == "primary":
            color = (40, 28, 12) if self.enabled else (90, 80, 60)
        elif self.style == "ghost":
            color = theme.BRASS_LIGHT if (h > 0.5 or focused) else theme.CREAM_DIM
        else:
            color = theme.CREAM if self.enabled else theme.CREAM_FAINT
        s = _label(self.label)
        icon_w = theme.text_width(_label(self.icon), "sans_bold", self.size + 2) + 8 if self.icon else 0
        size = theme.fit(s, "sans_bold", self.size, r.w - 28 - icon_w, 10, tracking_ratio=1.6 / self.size, caps=True)
        img = theme.text(s, "sans_bold", size, color, tracking=1.6 * size / self.size, caps=True)
        icon = _label(self.icon)
        if icon:
            ic = theme.text(icon, "sans_bold", self.size + 2, color)
            total = ic.get_width() + 8 + img.get_width()
            x = r.centerx - total // 2
            surface.blit(ic, ic.get_rect(midleft=(x, r.centery)))
            surface.blit(img, img.get_rect(midleft=(x + ic.get_width() + 8, r.centery + 1)))
        else:
            surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))


_BODY_CACHE: dict[tuple, pygame.Surface] = {}


# ====================================================================== slider
class Slider(Widget):
    """0–100 (or any int range) with a caption and a tabular percentage.

    Mouse: click or drag on the track; wheel. Keys: Left/Right ±step (Shift: ±1),
    Home/End. ``on_change`` runs on every change (the picture updates at once);
    ``on_commit`` when a drag ends or a key is pressed (the moment to save).
    """

    def __init__(self, rect, caption: Label | None, get: Callable[[], int], set: Callable[[int], None], *,
                 lo: int = 0, hi: int = 100, step: int = 5, fmt: Callable[[int], str] | None = None,
                 on_commit: Callable[[], None] | None = None, neutral_tick: bool = True, **kw):
        super().__init__(rect, **kw)
        self.caption = caption
        self.neutral_tick = neutral_tick
        self.get = get
        self.set = set
        self.lo, self.hi, self.step = lo, hi, step
        self.fmt = fmt or (lambda v: f"{v}%")
        self.on_commit = on_commit
        self.dragging = False
        self.knob = Smooth(float(get()), rate=22)

    #: Without a caption the value is shown at the right of the track, in this much room.
    VALUE_W = 62

    @property
    def track(self) -> pygame.Rect:
        if self.caption is not None:
            return pygame.Rect(self.rect.x + 9, self.rect.y + 28, self.rect.w - 18, 6)
        return pygame.Rect(self.rect.x + 9, self.rect.centery - 3, self.rect.w - 18 - self.VALUE_W, 6)

    def _value_from_x(self, x: int) -> int:
        t = (x - self.track.x) / max(1, self.track.w)
        return int(round(self.lo + max(0.0, min(1.0, t)) * (self.hi - self.lo)))

    def change(self, value: int, commit: bool = False) -> None:
        value = max(self.lo, min(self.hi, int(value)))
        if value != self.get():
            self.set(value)
        if commit and self.on_commit:
            self.on_commit()

    def on_key(self, key: int, mod: int) -> bool:
        step = 1 if mod & pygame.KMOD_SHIFT else self.step
        v = self.get()
        if key in (pygame.K_LEFT, pygame.K_KP4, pygame.K_MINUS, pygame.K_KP_MINUS):
            self.change(v - step, True)
        elif key in (pygame.K_RIGHT, pygame.K_KP6, pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.change(v + step, True)
        elif key == pygame.K_HOME:
            self.change(self.lo, True)
        elif key == pygame.K_END:
            self.change(self.hi, True)
        else:
            return False
        return True

    def on_mouse_down(self, pos, button) -> bool:
        if button == 1 and self.rect.collidepoint(pos):
            self.dragging = True
            self.change(self._value_from_x(pos[0]))
            return True
        return False

    def on_mouse_drag(self, pos) -> bool:
        if self.dragging:
            self.change(self._value_from_x(pos[0]))
            return True
        return False

    def on_mouse_up(self, pos, button) -> bool:
        if self.dragging and button == 1:
            self.dragging = False
            self.change(self.get(), True)
            return True
        return False

    def on_wheel(self, dy: int) -> bool:
        self.change(self.get() + (1 if dy > 0 else -1), True)
        return True

    def update(self, dt: float, focused: bool) -> None:
        super().update(dt, focused)
        self.knob.target = float(self.get())
        if self.dragging:
            self.knob.snap(self.knob.target)  # the knob stays under the finger
        self.knob.update(dt)

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        if not self.visible:
            return
        self.draw_focus(surface, self.rect.inflate(8, 4), 10)
        v = self.get()
        if self.caption is not None:
            theme.small_caps(surface, _label(self.caption), (self.rect.x + 2, self.rect.y + 1), 13,
                             theme.BRASS_LIGHT if focused else theme.BRASS)
            theme.blit_text(surface, self.fmt(v), (self.rect.right - 2, self.rect.y - 1), "sans_bold", 15,
                            theme.CREAM, anchor="topright")
        else:
            theme.blit_text(surface, self.fmt(v), (self.rect.right - 4, self.rect.centery), "sans_bold", 16,
                            theme.CREAM, anchor="midright")
        tr = self.track
        surface.blit(theme.rounded((tr.w, tr.h), 3, (0, 0, 0, 120), 1, (0, 0, 0, 150)), tr)
        t = (self.knob.value - self.lo) / max(1, self.hi - self.lo)
        fill_w = max(0, int(tr.w * t))
        if fill_w > 2:
            surface.blit(theme.rounded((fill_w, tr.h), 3, (*theme.BRASS, 255)), tr.topleft)
        # A tick at the neutral middle: 50 % is the "as designed" picture.
        if self.neutral_tick:
            mid_x = tr.x + tr.w // 2
            pygame.draw.line(surface, theme.CREAM_DIM, (mid_x, tr.y - 4), (mid_x, tr.y - 2))
        kx, ky = tr.x + int(tr.w * t), tr.centery
        rad = 9 + round(2 * max(self.hover.value, 1.0 if self.dragging else 0.0))
        surface.blit(theme.shadow((rad * 2, rad * 2), rad, 3, 120), (kx - rad - 3 + 1, ky - rad - 3 + 2))
        surface.blit(_knob(rad), (kx - rad, ky - rad))


_KNOBS: dict[int, pygame.Surface] = {}


def _knob(rad: int) -> pygame.Surface:
    if rad not in _KNOBS:
        ss = 3
        big = pygame.Surface((rad * 2 * ss, rad * 2 * ss), pygame.SRCALPHA)
        c = rad * ss
        pygame.draw.circle(big, (96, 70, 30), (c, c), rad * ss)
        pygame.draw.circle(big, theme.BRASS, (c, c), rad * ss - ss)
        pygame.draw.circle(big, theme.BRASS_LIGHT, (c - ss, c - ss), rad * ss - 4 * ss)
        pygame.draw.circle(big, (214, 180, 110), (c, c), rad * ss - 5 * ss)
        _KNOBS[rad] = pygame.transform.smoothscale(big, (rad * 2, rad * 2))
    return _KNOBS[rad]


# ====================================================================== choice
class Choice(Widget):
    """Pick one of a few values: segments side by side, or ‹ value › when they do not fit.

    Left/Right move the choice; Enter / Space steps forward (wrapping); click picks a
    segment (or an arrow in the compact form).
    """

    def __init__(self, rect, caption: Label | None, options: Sequence[tuple[Any, Label]],
                 get: Callable[[], Any], set: Callable[[Any], None], *, compact: bool | None = None,
                 wrap: bool = True, **kw):
        super().__init__(rect, **kw)
        self.caption = caption
        self.options = list(options)
        self.get = get
        self.set = set
        self.compact = compact
        self.wrap = wrap
        self.slide = Smooth(float(self.index), rate=18)

    @property
    def index(self) -> int:
        cur = self.get()
        for i, (v, _) in enumerate(self.options):
            if v == cur:
                return i
        return 0

    @property
    def body(self) -> pygame.Rect:
        top = self.rect.y + (22 if self.caption is not None else 0)
        return pygame.Rect(self.rect.x, top, self.rect.w, self.rect.bottom - top)

    def _is_compact(self) -> bool:
        if self.compact is not None:
            return self.compact
        seg = self.body.w / max(1, len(self.options))
        return any(theme.text_width(_label(lab), "sans_bold", 14) > seg - 14 for _, lab in self.options)

    def choose(self, i: int) -> None:
        n = len(self.options)
        if not n:
            return
        i = i % n if self.wrap else max(0, min(n - 1, i))
        if self.options[i][0] != self.get():
            _click()
            self.set(self.options[i][0])

    def on_key(self, key: int, mod: int) -> bool:
        if key == pygame.K_LEFT:
            self.choose(self.index - 1)
        elif key == pygame.K_RIGHT:
            self.choose(self.index + 1)
        elif key in CONFIRM_KEYS:
            self.choose(self.index + 1)
        else:
            return False
        return True

    def activate(self) -> None:
        self.choose(self.index + 1)

    def on_mouse_down(self, pos, button) -> bool:
        if button != 1 or not self.body.collidepoint(pos):
            return button == 1 and self.rect.collidepoint(pos)
        b = self.body
        if self._is_compact():
            self.choose(self.index + (-1 if pos[0] < b.centerx else 1))
        else:
            i = int((pos[0] - b.x) / (b.w / len(self.options)))
            self.choose(max(0, min(len(self.options) - 1, i)))
        return True

    def on_wheel(self, dy: int) -> bool:
        self.choose(self.index + (1 if dy > 0 else -1))
        return True

    def update(self, dt: float, focused: bool) -> None:
        super().update(dt, focused)
        self.slide.target = float(self.index)
        self.slide.update(dt)

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        if not self.visible:
            return
        b = self.body
        self.draw_focus(surface, b, 9)
        if self.caption is not None:
            theme.small_caps(surface, _label(self.caption), (self.rect.x + 2, self.rect.y + 1), 13,
                             theme.BRASS_LIGHT if focused else theme.BRASS)
        surface.blit(theme.rounded(b.size, 9, (6, 22, 15, 200), 1, (*theme.BRASS_DARK, 255)), b)
        if self._is_compact():
            lab = _label(self.options[self.index][1]) if self.options else ""
            size = theme.fit(lab, "sans_bold", 15, b.w - 56, 10)
            theme.blit_text(surface, lab, b.center, "sans_bold", size, theme.CREAM, anchor="center")
            arrow_col = theme.BRASS_LIGHT if (focused or self.hovered) else theme.BRASS
            theme.blit_text(surface, "‹", (b.x + 16, b.centery - 1), "sans_bold", 22, arrow_col, anchor="center")
            theme.blit_text(surface, "›", (b.right - 16, b.centery - 1), "sans_bold", 22, arrow_col, anchor="center")
            return
        n = len(self.options)
        seg = b.w / n
        # The selected segment slides between positions (ease-out), a brass pill.
        pill = pygame.Rect(round(b.x + self.slide.value * seg) + 3, b.y + 3, round(seg) - 6, b.h - 6)
        pill_img = theme.rounded(pill.size, 7, (*theme.BRASS, 255))
        surface.blit(pill_img, pill)
        cur = self.index
        for i, (_, lab) in enumerate(self.options):
            s = _label(lab)
            cx = b.x + seg * i + seg / 2
            color = (40, 28, 12) if i == cur else theme.CREAM_DIM
            size = theme.fit(s, "sans_bold", 14, int(seg) - 10, 10)
            theme.blit_text(surface, s, (cx, b.centery + 1), "sans_bold", size, color, anchor="center")


def toggle(rect, caption: Label | None, get: Callable[[], bool], set: Callable[[bool], None],
           on: Label = "On", off: Label = "Off", **kw) -> Choice:
    """An on/off switch as a two-segment chooser (Off first, like a switch)."""
    return Choice(rect, caption, [(False, off), (True, on)], get, set, compact=False, **kw)


# ====================================================================== focus manager
class UI:
    """The controls of one scene: focus order, spatial arrow navigation, mouse routing."""

    def __init__(self) -> None:
        self.widgets: list[Widget] = []
        self.focus_index = -1
        self.captured: Widget | None = None  # the widget holding the mouse (drag, press)

    def add(self, widget: Widget) -> Widget:
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


# ====================================================================== toasts
class Toasts:
    """Short messages that slide up from the bottom and fade: "Screenshot saved", etc."""

    def __init__(self, seconds: float = 2.6):
        self.seconds = seconds
        self.items: list[list] = []  # [text, age]
        self.rise = 36

    def show(self, message: str) -> None:
        self.items = [it for it in self.items if it[0] != message][-2:]
        self.items.append([message, 0.0])

    @property
    def active(self) -> list[str]:
        return [it[0] for it in self.items]

    def update(self, dt: float) -> None:
        for it in self.items:
            it[1] += dt
        self.items = [it for it in self.items if it[1] < self.seconds]

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        y = h - 70
        for message, age in reversed(self.items):
            t_in = min(1.0, age / 0.25)
            t_out = min(1.0, max(0.0, (self.seconds - age) / 0.45))
            alpha = ease_out_cubic(t_in) * t_out
            img = theme.text(message, "sans_bold", 16, theme.CREAM)
            pw, ph = img.get_width() + 44, 40
            x = w // 2 - pw // 2
            yy = round(y + (1 - ease_out_cubic(t_in)) * self.rise)
            pill = theme.panel((pw, ph), 20, (10, 22, 16, 235), theme.BRASS)
            layer = pygame.Surface((pw + 12, ph + 12), pygame.SRCALPHA)
            layer.blit(theme.shadow((pw, ph), 20, 6, 130), (0, 2))
            layer.blit(pill, (6, 6))
            layer.blit(img, img.get_rect(center=(6 + pw // 2, 6 + ph // 2 + 1)))
            layer.set_alpha(int(255 * alpha))
            surface.blit(layer, (x - 6, yy - 6))
            y -= ph + 10


# ====================================================================== card art
class FallbackCardArt:
    """Plain rounded cards in the deck's colours, used until ``sprites.cards`` exists."""

    def __init__(self, deck: Any):
        self.deck = deck
        colors = getattr(deck, "colors", {}) or {}
        self.paper = _hex(colors.get("paper", "#f7f1e3"))
        self.ink = _hex(colors.get("ink", "#2b2b2b"))
        self.accents = [_hex(c) for c in colors.get("accents", ["#b53a2d", "#335c9e"])] or [(180, 60, 40)]
        self.aspect = float(getattr(deck, "aspect", 1.6) or 1.6)
        self._cache: dict[tuple, pygame.Surface] = {}

    def size(self, height: int) -> tuple[int, int]:
        return max(1, round(height / self.aspect)), height

    def face(self, code: str, height: int, lang: str = "en") -> pygame.Surface:
        key = ("face", code, height)
        if key not in self._cache:
            w, h = self.size(height)
            surf = theme.rounded((w, h), max(3, w // 12), (*self.paper, 255), 1, (*self.ink, 255)).copy()
            suit = code[-1:]
            col = self.accents[("DCSB".find(suit)) % len(self.accents)] if suit else self.ink
            rank = code[:-1]
            size = max(8, h // 7)
            img = theme.text(rank, "serif_bold", size, col)
            surf.blit(img, (max(2, w // 12), max(2, h // 24)))
            big = theme.text(rank, "serif_bold", max(10, h // 3), col)
            surf.blit(big, big.get_rect(center=(w // 2, h // 2)))
            self._cache[key] = surf
        return self._cache[key]

    def back(self, height: int) -> pygame.Surface:
        key = ("back", height)
        if key not in self._cache:
            w, h = self.size(height)
            surf = theme.rounded((w, h), max(3, w // 12), (*self.paper, 255), 1, (*self.ink, 255)).copy()
            inner = pygame.Rect(0, 0, w, h).inflate(-max(4, w // 8), -max(4, w // 8))
            pygame.draw.rect(surf, self.accents[0], inner, border_radius=max(2, w // 16))
            for i in range(-h, w + h, max(4, w // 8)):
                pygame.draw.line(surf, self.accents[-1], (inner.x + i, inner.y), (inner.x + i - inner.h, inner.bottom))
            pygame.draw.rect(surf, self.paper, inner, 2, border_radius=max(2, w // 16))
            self._cache[key] = surf
        return self._cache[key]


def _hex(s: str) -> tuple[int, int, int]:
    s = s.lstrip("#")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


_ART: dict[str, Any] = {}


def card_art(deck: Any) -> Any:
    """The deck's card art: ``sprites.cards.get_card_art`` when present, else the fallback."""
    try:
        from sprites.cards import get_card_art
    except ImportError:
        key = getattr(deck, "id", str(deck))
        if key not in _ART:
            _ART[key] = FallbackCardArt(deck)
        return _ART[key]
    return get_card_art(deck)


def sample_codes(deck: Any, n: int = 5) -> list[str]:
    """A handsome hand for a deck's fan: an ace, a court or two, a seven where it exists."""
    ranks = list(deck.ranks()) if hasattr(deck, "ranks") else ["A", "7", "K", "3", "Q"]
    preferred = ["A", "7", "K", "3", "Q", "J", "10", "2", "5"]
    chosen = [r for r in preferred if r in ranks][:n]
    suits = ["D", "C", "S", "B", "D"]
    codes = []
    for i, r in enumerate(chosen):
        codes.append(r + suits[i % len(suits)])
    return codes


_FANS: dict[tuple, pygame.Surface] = {}


def card_fan(deck: Any, codes: Sequence[str], height: int, lang: str = "en", spread: float = 34.0,
             step: float | None = None) -> pygame.Surface:
    """Cards fanned from a pivot below their centre, each with a soft shadow; cached."""
    key = (getattr(deck, "id", str(deck)), tuple(codes), height, lang, spread, step)
    if key in _FANS:
        return _FANS[key]
    art = card_art(deck)
    cw, ch = art.size(height)
    n = max(1, len(codes))
    step = step if step is not None else cw * 0.42
    pivot_drop = ch * 1.6  # the fan turns around a point well below the cards
    angles = [spread * ((i - (n - 1) / 2) / max(1, (n - 1) / 2)) / 2 if n > 1 else 0.0 for i in range(n)]
    pieces = []
    import math

    for i, code in enumerate(codes):
        face = art.face(code, height, lang)
        ang = angles[i]
        rot = pygame.transform.rotozoom(face, -ang, 1.0)
        rad = math.radians(ang)
        # Position: rotate the card's centre about the pivot, then add a sideways step.
        cx = math.sin(rad) * pivot_drop + (i - (n - 1) / 2) * step * 0.35
        cy = -math.cos(rad) * pivot_drop + pivot_drop
        pieces.append((rot, cx, cy))
    min_x = min(cx - r.get_width() / 2 for r, cx, cy in pieces) - 10
    max_x = max(cx + r.get_width() / 2 for r, cx, cy in pieces) + 10
    min_y = min(cy - r.get_height() / 2 for r, cx, cy in pieces) - 10
    max_y = max(cy + r.get_height() / 2 for r, cx, cy in pieces) + 14
    surf = pygame.Surface((int(max_x - min_x), int(max_y - min_y)), pygame.SRCALPHA)
    for rot, cx, cy in pieces:
        x = cx - rot.get_width() / 2 - min_x
        y = cy - rot.get_height() / 2 - min_y
        sh = rot.copy()
        sh.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGB_MIN)
        sh.fill((255, 255, 255, 40), special_flags=pygame.BLEND_RGBA_MULT)
        for off in ((2, 3), (3, 5), (4, 6)):
            surf.blit(sh, (x + off[0], y + off[1]))
        surf.blit(rot, (x, y))
    _FANS[key] = surf
    return surf


def card_fan_fit(deck: Any, codes: Sequence[str], max_w: int, max_h: int, lang: str = "en",
                 spread: float = 34.0) -> pygame.Surface:
    """The tallest fan (card height ≤ ``max_h``) whose picture fits ``max_w`` pixels across:
    wide packs (French, German) get smaller cards, narrow ones (Bresciane) taller."""
    h = max_h
    fan = card_fan(deck, codes, h, lang, spread)
    while fan.get_width() > max_w and h > 24:
        h -= 6
        fan = card_fan(deck, codes, h, lang, spread)
    return fan


__all__ = [
    "card_fan_fit", "Widget", "Button", "Slider", "Choice", "toggle", "UI", "Toasts", "card_art", "card_fan",
    "sample_codes", "FallbackCardArt", "set_feedback",
]
