"""A path the player types: "Save the record as…" (``mode`` "save") and "Open a file…"
(``mode`` "open", which opens the record in the viewer).

Saving never replaces a file unasked: when the name is taken the scene asks "Replace it?"
(Enter or the Replace button replaces, Esc or Keep it goes back to the name). A path
starting with ``~`` is the home folder's; a relative one is taken from the home folder. The
record is written atomically and never through a symbolic link (game.record.write_record).

Keys: typing edits the path (← / →, Home / End, Backspace, Delete), Enter saves or opens,
Esc cancels. While this scene is on top, letters are text: the app's own letter keys (M for
mute) leave them alone (``wants_text``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame

from game.services.table_session import TableSession
from scenes.scene import AppServices, UIScene
from sprites import hidpi, theme
from sprites.widgets import Button

BOX = pygame.Rect(0, 0, 820, 300)
BOX.center = (640, 340)
FIELD = pygame.Rect(BOX.x + 36, BOX.y + 122, BOX.w - 72, 44)
ERROR = (232, 150, 120)


def resolve(text: str) -> Path:
    """The file a typed path names: ``~`` expanded, a relative path taken from the home folder."""
    p = Path(text.strip()).expanduser()
    return p if p.is_absolute() else Path.home() / p


def default_name(events: list[dict] | None) -> str:
    """ "cardavia-<game>-2025-03-12-1403.jsonl" in the home folder."""
    head = events[0] if events else {}
    game = str(head.get("game", "match")) if isinstance(head, dict) else "match"
    game = "".join(ch for ch in game if ch.isalnum()) or "match"
    return str(Path.home() / f"cardavia-{game}-{time.strftime('%Y-%m-%d-%H%M')}.jsonl")


class PathPrompt(UIScene):
    is_overlay = True
    #: The app leaves letter keys to this scene (no M for mute while a path is typed).
    wants_text = True

    def __init__(self, app: AppServices, events: list[dict] | None = None, mode: str = "save", path: str | None = None):
        self.mode = "open" if mode == "open" else "save"
        self.events = list(events or [])
        self.text = (
            path
            if path is not None
            else (default_name(self.events) if self.mode == "save" else str(Path.home()) + os.sep)
        )
        self.caret = len(self.text)
        self.error: str | None = None
        #: The file that exists and would be replaced: asked about, never replaced unasked.
        self.asking: Path | None = None
        self.saved: Path | None = None
        super().__init__(app)
        self.ui.focus_index = -1  # the keys go to the field / the list (UIScene focused a button)

    def build(self) -> None:
        y = BOX.bottom - 70
        asking = lambda: self.asking is not None  # noqa: E731
        typing = lambda: self.asking is None  # noqa: E731
        go = "replay.save_button" if self.mode == "save" else "replay.open_button"
        self.go_button = self.ui.add(
            Button(
                (BOX.right - 36 - 200, y, 200, 46),
                self.label(go),
                self.submit,
                style="primary",
                size=15,
                name="go",
                visible=typing,
            )
        )
        self.ui.add(
            Button(
                (BOX.right - 36 - 200 - 16 - 170, y + 2, 170, 42),
                self.label("replay.cancel"),
                self.back,
                size=14,
                name="cancel",
                visible=typing,
            )
        )
        self.replace_button = self.ui.add(
            Button(
                (BOX.right - 36 - 200 - 16 - 200, y + 2, 200, 42),
                self.label("replay.replace"),
                self.replace,
                size=14,
                name="replace",
                visible=asking,
            )
        )
        self.keep_button = self.ui.add(
            Button(
                (BOX.right - 36 - 200, y, 200, 46),
                self.label("replay.keep"),
                self.keep,
                style="primary",
                size=15,
                name="keep",
                visible=asking,
            )
        )
        self.ui.focus_index = -1  # the field has the keys; Tab reaches the buttons

    # ------------------------------------------------------------------ actions
    def submit(self) -> None:
        if not self.text.strip():
            self.error = self.t("replay.no_path")
            return
        path = resolve(self.text)
        if self.mode == "open":
            self._open(path)
            return
        if path.is_dir():
            self.error = self.t("replay.is_folder", file=str(path))
            return
        if not path.parent.is_dir():  # a mistyped folder is said so, never made
            self.error = self.t("replay.no_folder", folder=str(path.parent))
            return
        if os.path.lexists(path):
            self.asking = path  # the safe answer (Keep it) has the focus
            self.ui.focus(self.keep_button)
            return
        self._write(path, overwrite=False)

    def replace(self) -> None:
        path, self.asking = self.asking, None
        if path is not None:
            self._write(path, overwrite=True)

    def keep(self) -> None:
        self.asking = None
        self.ui.focus(None)

    def _write(self, path: Path, overwrite: bool) -> None:
        from game.record import write_record

        try:
            write_record(path, self.events, overwrite=overwrite)
        except FileExistsError:
            self.asking = path
            return
        except OSError as e:
            self.error = self.t("replay.save_failed", reason=str(e))
            return
        self.saved = path
        self.app.toast(self.t("replay.saved", file=str(path)))
        self.back()

    def _open(self, path: Path) -> None:
        if not path.exists():
            self.error = self.t("replay.no_file", file=str(path))
            return
        if path.is_dir():
            self.error = self.t("replay.is_folder", file=str(path))
            return
        stack = self.app.stack
        if stack.top is self:
            stack.pop()
        self.app.open_scene("replay", record=str(path))

    def back(self) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()

    # ------------------------------------------------------------------ typing
    def handle(self, event: pygame.event.Event) -> None:
        if self.asking is not None:
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.keep()
                return
            super().handle(event)
            return
        if event.type == pygame.TEXTINPUT and self.ui.focused is None:
            self._insert(event.text)
            return
        if event.type == pygame.KEYDOWN and self._edit(event.key, getattr(event, "mod", 0)):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and FIELD.collidepoint(event.pos):
            self.ui.focus(None)
            return
        super().handle(event)

    def _insert(self, s: str) -> None:
        s = "".join(ch for ch in s if ch.isprintable())
        self.text = self.text[: self.caret] + s + self.text[self.caret :]
        self.caret += len(s)
        self.error = None

    def _edit(self, key: int, mod: int) -> bool:
        """An editing key while the field has the keys; True when it was one."""
        if self.ui.focused is not None:
            return False
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
            return True
        if key == pygame.K_ESCAPE:
            self.back()
            return True
        if key == pygame.K_BACKSPACE:
            if self.caret > 0:
                self.text = self.text[: self.caret - 1] + self.text[self.caret :]
                self.caret -= 1
        elif key == pygame.K_DELETE:
            self.text = self.text[: self.caret] + self.text[self.caret + 1 :]
        elif key == pygame.K_LEFT:
            self.caret = max(0, self.caret - 1)
        elif key == pygame.K_RIGHT:
            self.caret = min(len(self.text), self.caret + 1)
        elif key == pygame.K_HOME:
            self.caret = 0
        elif key == pygame.K_END:
            self.caret = len(self.text)
        elif key == pygame.K_v and mod & pygame.KMOD_CTRL:
            self._paste()
        else:
            return False
        self.error = None
        return True

    def _paste(self) -> None:
        try:
            text = pygame.scrap.get_text() if hasattr(pygame.scrap, "get_text") else ""
        except pygame.error:
            text = ""
        if text:
            self._insert(text.splitlines()[0] if text.splitlines() else "")

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        veil = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((2, 10, 6, 160))
        surface.blit(veil, (0, 0))
        surface.blit(theme.shadow(BOX.size, 16, 10, 160), (BOX.x - 10, BOX.y - 4))
        surface.blit(theme.panel(BOX.size, 16, (10, 30, 20, 246), theme.BRASS), BOX)
        title = self.t("replay.save_title" if self.mode == "save" else "replay.open_title")
        theme.heading(
            surface, title, (BOX.x + 36, BOX.y + 26), theme.fit(title, "serif_bold", 24, BOX.w - 72, 14, 0.22, True)
        )
        if self.asking is not None:
            ask = self.t("replay.exists", file=str(self.asking))
            for i, ln in enumerate(theme.wrap(ask, "sans_bold", 16, BOX.w - 72, max_lines=3)):
                theme.blit_text(surface, ln, (BOX.x + 36, BOX.y + 84 + 24 * i), "sans_bold", 16, theme.BRASS_LIGHT)
            self.ui.draw(surface)
            return
        about = self.t("replay.save_about" if self.mode == "save" else "replay.open_about")
        theme.blit_text(
            surface,
            about,
            (BOX.x + 36, BOX.y + 76),
            "sans",
            theme.fit(about, "sans", 14, BOX.w - 72, 9),
            theme.CREAM_DIM,
        )
        self._draw_field(surface)
        if self.error:
            for i, ln in enumerate(theme.wrap(self.error, "sans", 14, BOX.w - 72, max_lines=2)):
                theme.blit_text(surface, ln, (BOX.x + 36, FIELD.bottom + 8 + 18 * i), "sans", 14, ERROR)
        self.ui.draw(surface)

    def _draw_field(self, surface: pygame.Surface) -> None:
        focused = self.ui.focused is None
        surface.blit(
            theme.rounded(FIELD.size, 8, (4, 16, 10, 235), 1, (*(theme.FOCUS if focused else theme.BRASS_DARK), 255)),
            FIELD,
        )
        room = FIELD.w - 24
        f = theme.font("sans", 16)
        # The end near the caret stays in view: a long path scrolls, it is never cut at the caret.
        start = 0
        while start < self.caret and f.size(self.text[start : self.caret])[0] > room:
            start += 1
        shown = self.text[start:]
        while shown and f.size(shown)[0] > room:
            shown = shown[:-1]
        theme.note_box(shown, f.size(shown)[0], room)
        img = theme.text(shown, "sans", 16, theme.CREAM)
        surface.blit(img, img.get_rect(midleft=(FIELD.x + 12, FIELD.centery)))
        if focused and int(self.time * 2) % 2 == 0:
            x = FIELD.x + 12 + f.size(self.text[start : self.caret])[0]
            pygame.draw.line(surface, theme.BRASS_LIGHT, (x, FIELD.y + 10), (x, FIELD.bottom - 10), 2)


def create(
    app: AppServices,
    events: list[dict] | None = None,
    mode: str = "save",
    path: str | None = None,
    session: TableSession | None = None,
    **params: object,
) -> PathPrompt:
    """Save ``events`` (or ``session``'s record; with neither, the match at the table or
    on the results screen beneath, else a demo match) — or, ``mode`` "open", open a file."""
    if mode != "open" and events is None:
        source = session
        if source is None:
            for name in ("results", "table"):
                found = getattr(app.stack.find(name), "session", None)
                if found is not None:
                    source = found
                    break
        if source is not None:
            events = list(source.match.events)
        else:
            from scenes.replay import demo_events

            events = demo_events(app)
    return PathPrompt(app, events=events, mode=mode, path=path)


__all__ = ["PathPrompt", "create", "resolve", "default_name"]
