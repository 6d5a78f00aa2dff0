"""A one-line text field for the online screens (names, addresses, codes, ports), and the
clipboard.

The field is a focusable control like the others: Tab reaches it, typing goes in (the scene
hands it the TEXTINPUT events while it has the focus), ←/→, Home/End, Backspace and Delete
edit, Ctrl+V pastes from the clipboard when pygame.scrap has one (typing always works), Enter
calls ``on_enter``; ↑/↓ and Tab leave it.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from scenes.scene import UIScene
from sprites import theme
from sprites.widget_base import Label, Widget, label_text

ERROR = (232, 150, 120)


def _scrap_ready() -> bool:
    scrap = getattr(pygame, "scrap", None)
    if scrap is None:
        return False
    if hasattr(scrap, "get_text"):  # pygame-ce 2.2+: SDL's clipboard, nothing to set up
        return True
    try:  # an older pygame: scrap needs init() after the window opened
        if not scrap.get_init():
            scrap.init()
        return True
    except (pygame.error, NotImplementedError, AttributeError):
        return False


def paste_text() -> str:
    """The clipboard's text (its first line), or "" when there is no clipboard."""
    if not _scrap_ready():
        return ""
    try:
        if hasattr(pygame.scrap, "get_text"):
            text = pygame.scrap.get_text() or ""
        else:  # older pygame: the raw bytes of the text type
            raw = pygame.scrap.get(pygame.SCRAP_TEXT) or b""
            text = raw.decode("utf-8", "replace").rstrip("\x00")
    except (pygame.error, NotImplementedError, AttributeError, UnicodeError):
        return ""
    lines = str(text).splitlines()
    return lines[0].strip() if lines else ""


def copy_text(text: str) -> bool:
    """Put ``text`` on the clipboard; False when there is none (the screen then just shows it)."""
    if not _scrap_ready():
        return False
    try:
        if hasattr(pygame.scrap, "put_text"):
            pygame.scrap.put_text(text)
        else:
            pygame.scrap.put(pygame.SCRAP_TEXT, text.encode("utf-8"))
    except (pygame.error, NotImplementedError, AttributeError):
        return False
    return True


class TextField(Widget):
    """One line of text with a caption above it."""

    def __init__(
        self,
        rect,
        caption: Label | None,
        text: str = "",
        *,
        max_len: int = 120,
        allowed: Callable[[str], bool] | None = None,
        on_enter: Callable[[], object] | None = None,
        on_change: Callable[[str], object] | None = None,
        placeholder: Label | None = None,
        **kw,
    ):
        super().__init__(rect, **kw)
        self.caption = caption
        self.text = text
        self.caret = len(text)
        self.max_len = max_len
        self.allowed = allowed
        self.on_enter = on_enter
        self.on_change = on_change
        self.placeholder = placeholder
        self.time = 0.0

    @property
    def body(self) -> pygame.Rect:
        top = self.rect.y + (22 if self.caption is not None else 0)
        return pygame.Rect(self.rect.x, top, self.rect.w, self.rect.bottom - top)

    def set_text(self, text: str) -> None:
        self.text = text[: self.max_len]
        self.caret = len(self.text)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.text)

    def insert(self, s: str) -> None:
        """Typed or pasted text at the caret (what the field does not take is left out)."""
        s = "".join(ch for ch in s if ch.isprintable() and (self.allowed is None or self.allowed(ch)))
        s = s[: max(0, self.max_len - len(self.text))]
        if not s:
            return
        self.text = self.text[: self.caret] + s + self.text[self.caret :]
        self.caret += len(s)
        self._changed()

    def paste(self) -> None:
        text = paste_text()
        if text:
            self.insert(text)

    def on_key(self, key: int, mod: int) -> bool:
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.on_enter is not None:
                self.on_enter()
            return True
        if key == pygame.K_BACKSPACE:
            if self.caret > 0:
                self.text = self.text[: self.caret - 1] + self.text[self.caret :]
                self.caret -= 1
                self._changed()
        elif key == pygame.K_DELETE:
            if self.caret < len(self.text):
                self.text = self.text[: self.caret] + self.text[self.caret + 1 :]
                self._changed()
        elif key == pygame.K_LEFT:
            self.caret = max(0, self.caret - 1)
        elif key == pygame.K_RIGHT:
            self.caret = min(len(self.text), self.caret + 1)
        elif key == pygame.K_HOME:
            self.caret = 0
        elif key == pygame.K_END:
            self.caret = len(self.text)
        elif key == pygame.K_v and mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            self.paste()
        elif (
            key == pygame.K_SPACE
            or (pygame.K_a <= key <= pygame.K_z and not mod & pygame.KMOD_CTRL)
            or pygame.K_0 <= key <= pygame.K_9
        ):
            return True  # the letter arrives as TEXTINPUT: the key itself must not act (Space is no "press")
        else:
            return False
        return True

    def on_mouse_down(self, pos, button) -> bool:
        if button != 1 or not self.rect.collidepoint(pos):
            return False
        f = theme.font("sans", 16)
        x = pos[0] - (self.body.x + 12)
        self.caret = next((i for i in range(len(self.text) + 1) if f.size(self.text[:i])[0] >= x), len(self.text))
        return True

    def on_mouse_up(self, pos, button) -> bool:
        return True

    def update(self, dt: float, focused: bool) -> None:
        super().update(dt, focused)
        self.time += dt

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        if not self.visible:
            return
        b = self.body
        if self.caption is not None:
            cap = label_text(self.caption)
            size = theme.fit(cap, "cond_bold", 13, self.rect.w, 9, 0.16, True)
            theme.small_caps(
                surface, cap, (self.rect.x + 2, self.rect.y + 1), size, theme.BRASS_LIGHT if focused else theme.BRASS
            )
        edge = theme.FOCUS if focused else theme.BRASS_DARK
        surface.blit(theme.rounded(b.size, 8, (4, 16, 10, 235), 1, (*edge, 255)), b)
        room = b.w - 24
        f = theme.font("sans", 16)
        if not self.text and self.placeholder is not None:
            hint = label_text(self.placeholder)
            size = theme.fit(hint, "sans", 15, room, 9)
            theme.blit_text(surface, hint, (b.x + 12, b.centery), "sans", size, theme.CREAM_FAINT, anchor="midleft")
        # The end near the caret stays in view: a long link scrolls, it is never cut at the caret.
        start = 0
        while start < self.caret and f.size(self.text[start : self.caret])[0] > room:
            start += 1
        shown = self.text[start:]
        while shown and f.size(shown)[0] > room:
            shown = shown[:-1]
        theme.note_box(shown, f.size(shown)[0], room)
        if shown:
            img = theme.text(shown, "sans", 16, theme.CREAM)
            surface.blit(img, img.get_rect(midleft=(b.x + 12, b.centery)))
        if focused and int(self.time * 2) % 2 == 0:
            x = b.x + 12 + f.size(self.text[start : self.caret])[0]
            pygame.draw.line(surface, theme.BRASS_LIGHT, (x, b.y + 9), (x, b.bottom - 9), 2)


def route_text(scene: UIScene, event: pygame.event.Event) -> bool:
    """Give a TEXTINPUT event to the scene's focused text field; True when one took it."""
    if event.type != pygame.TEXTINPUT:
        return False
    w = scene.ui.focused
    if isinstance(w, TextField):
        w.insert(getattr(event, "text", ""))
        return True
    return False


def typing(scene: UIScene) -> bool:
    """A text field has the keys (the app then leaves letter keys such as M alone)."""
    return isinstance(scene.ui.focused, TextField)


__all__ = ["TextField", "paste_text", "copy_text", "route_text", "typing", "ERROR"]
