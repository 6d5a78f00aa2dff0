"""The controls in the house style: Button, Slider, Choice (and ``toggle``, an on/off Choice).

Labels are callables looked up at draw time, so a language switch relabels everything at
once. Keyboard focus and mouse routing are the focus manager's (:mod:`sprites.focus`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pygame

from sprites import hidpi, theme
from sprites.tween import Smooth, Tween, ease_out_cubic
from sprites.widget_base import CONFIRM_KEYS, Label, Widget, click, label_text

# ====================================================================== button


def caption_size(caption: str, width: int) -> int:
    """A chooser's caption size: 13, as wide as the layout made room for at the usual text size
    (it may run on over the gap after a narrow chooser); smaller at a larger text size."""
    natural = theme.text_width(caption, "cond_bold", 13, 13 * 0.16, True) / theme.TEXT_SCALE[0]
    return theme.fit(caption, "cond_bold", 13, max(width - 4, round(natural)), 9, 0.16, True)


def same_label_size(*buttons: Button) -> None:
    """Buttons side by side show their labels at one size, the smallest that fits each: one
    long label ("Ripristina immagine") does not leave its neighbours larger."""
    for b in buttons:
        b.peers = tuple(buttons)


class Captioned(Protocol):
    """A widget with a caption over it (a slider, a chooser)."""

    caption: Label | None

    def caption_fit(self) -> int:
        """The caption's own size, alone."""
        ...


def same_caption_size(*widgets: Widget) -> None:
    """Captioned sliders and choosers in a row show their captions at one size, the
    smallest that fits each (the menu's bar: "LINGUA", "GRANA", "TEMPERATURA COLORE")."""
    for w in widgets:
        setattr(w, "caption_peers", tuple(widgets))  # noqa: B010 (not every widget has captions)


def shared_caption_size(widget: Captioned) -> int:
    peers: tuple[Captioned, ...] = getattr(widget, "caption_peers", ()) or (widget,)
    return min(p.caption_fit() for p in peers if p.caption is not None)


class Button(Widget):
    """A labelled button. Styles: "primary" (brass), "secondary" (outlined), "ghost" (text)."""

    def __init__(
        self,
        rect,
        label: Label,
        on_click: Callable[[], object] | None = None,
        *,
        style: str = "secondary",
        size: int = 17,
        icon: Label | None = None,
        **kw,
    ):
        super().__init__(rect, **kw)
        self.label = label
        self.on_click = on_click
        self.style = style
        self.size = size
        self.icon = icon
        self.flash = Tween(0.0, 0.0, 0.01)
        #: Buttons that stand together and show their labels at one size (same_label_size).
        self.peers: tuple[Button, ...] = ()

    def activate(self) -> None:
        if not self.enabled:
            return
        self.flash = Tween(1.0, 0.0, 0.28, ease_out_cubic)
        click()
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
        surf = hidpi.surface(size, pygame.SRCALPHA)
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

    def fitted_size(self) -> int:
        """The largest label size up to ``size`` at which the label fits the button."""
        icon_w = theme.text_width(label_text(self.icon), "sans_bold", self.size + 2) + 8 if self.icon else 0
        return theme.fit(
            label_text(self.label),
            "sans_bold",
            self.size,
            self.rect.w - 28 - icon_w,
            10,
            tracking_ratio=1.6 / self.size,
            caps=True,
        )

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
        s = label_text(self.label)
        size = min((b.fitted_size() for b in self.peers), default=self.fitted_size())
        img = theme.text(s, "sans_bold", size, color, tracking=1.6 * size / self.size, caps=True)
        icon = label_text(self.icon)
        if icon:
            ic = theme.text(icon, "sans_bold", self.size + 2, color)
            total = ic.get_width() + 8 + img.get_width()
            x = r.centerx - total // 2
            surface.blit(ic, ic.get_rect(midleft=(x, r.centery)))
            surface.blit(img, img.get_rect(midleft=(x + ic.get_width() + 8, r.centery + 1)))
        else:
            surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))


_BODY_CACHE: dict[tuple, pygame.Surface] = {}
hidpi.on_rescale(_BODY_CACHE.clear)  # made at one window size


# ====================================================================== slider
class Slider(Widget):
    """0–100 (or any int range) with a caption and a tabular percentage.

    Mouse: click or drag on the track; wheel. Keys: Left/Right ±step (Shift: ±1),
    Home/End. ``on_change`` runs on every change (the picture updates at once);
    ``on_commit`` when a drag ends or a key is pressed (the moment to save).
    """

    def __init__(
        self,
        rect,
        caption: Label | None,
        get: Callable[[], int],
        set: Callable[[int], None],
        *,
        lo: int = 0,
        hi: int = 100,
        step: int = 5,
        fmt: Callable[[int], str] | None = None,
        on_commit: Callable[[], None] | None = None,
        neutral_tick: bool = True,
        **kw,
    ):
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

    def caption_fit(self) -> int:
        """The caption's size: it keeps clear of the value at its right ("TEMPERATURA COLORE  50%")."""
        room = self.rect.w - 2 - theme.text_width(self.fmt(self.hi), "sans_bold", 15) - 12
        return theme.fit(label_text(self.caption), "cond_bold", 13, room, 9, 0.16, True)

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
            theme.small_caps(
                surface,
                label_text(self.caption),
                (self.rect.x + 2, self.rect.y + 1),
                shared_caption_size(self),
                theme.BRASS_LIGHT if focused else theme.BRASS,
            )
            theme.blit_text(
                surface,
                self.fmt(v),
                (self.rect.right - 2, self.rect.y - 1),
                "sans_bold",
                15,
                theme.CREAM,
                anchor="topright",
            )
        else:
            theme.blit_text(
                surface,
                self.fmt(v),
                (self.rect.right - 4, self.rect.centery),
                "sans_bold",
                16,
                theme.CREAM,
                anchor="midright",
            )
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
hidpi.on_rescale(_KNOBS.clear)  # made at one window size


def _knob(rad: int) -> pygame.Surface:
    if rad not in _KNOBS:
        ss = 3
        big = hidpi.surface((rad * 2 * ss, rad * 2 * ss), pygame.SRCALPHA)
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

    def caption_fit(self) -> int:
        """The caption's own size (caption_size)."""
        return caption_size(label_text(self.caption), self.rect.w)

    def __init__(
        self,
        rect,
        caption: Label | None,
        options: Sequence[tuple[Any, Label]],
        get: Callable[[], object],
        set: Callable[[Any], None],
        *,
        compact: bool | None = None,
        wrap: bool = True,
        **kw,
    ):
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
        return any(theme.text_width(label_text(lab), "sans_bold", 14) > seg - 14 for _, lab in self.options)

    def choose(self, i: int) -> None:
        n = len(self.options)
        if not n:
            return
        i = i % n if self.wrap else max(0, min(n - 1, i))
        if self.options[i][0] != self.get():
            click()
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
            theme.small_caps(
                surface,
                label_text(self.caption),
                (self.rect.x + 2, self.rect.y + 1),
                shared_caption_size(self),
                theme.BRASS_LIGHT if focused else theme.BRASS,
            )
        surface.blit(theme.rounded(b.size, 9, (6, 22, 15, 200), 1, (*theme.BRASS_DARK, 255)), b)
        if self._is_compact():
            lab = label_text(self.options[self.index][1]) if self.options else ""
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
        for i, (_, option_label) in enumerate(self.options):
            s = label_text(option_label)
            cx = b.x + seg * i + seg / 2
            color = (40, 28, 12) if i == cur else theme.CREAM_DIM
            size = theme.fit(s, "sans_bold", 14, int(seg) - 10, 10)
            theme.blit_text(surface, s, (cx, b.centery + 1), "sans_bold", size, color, anchor="center")


def toggle(
    rect,
    caption: Label | None,
    get: Callable[[], bool],
    set: Callable[[bool], None],
    on: Label = "On",
    off: Label = "Off",
    **kw,
) -> Choice:
    """An on/off switch as a two-segment chooser (Off first, like a switch)."""
    return Choice(rect, caption, [(False, off), (True, on)], get, set, compact=False, **kw)


__all__ = ["Button", "Slider", "Choice", "toggle"]
