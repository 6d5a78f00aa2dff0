"""The start after a crash: "Cardavia stopped because of an error last time", with the report's
folder one button away (game.services.crash). Opened over the first screen by scenes.crash.offer_report;
either button (or Esc) means the player has been told, and the report is not offered again.
"""

from __future__ import annotations

import pygame

from game.services import crash
from scenes.scene import AppServices, UIScene
from sprites import panels, theme
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import Button

BOX = pygame.Rect(0, 0, 640, 270)
BOX.center = (640, 330)
TEXT_W = BOX.w - 80


def cut_middle(s: str, face: str, size: int, room: int) -> str:
    """A long path shown whole where it fits, else with its middle left out (its start and
    its file name stay readable)."""
    if theme.text_width(s, face, size) <= room:
        return s
    keep = len(s)
    while keep > 8:
        keep -= 2
        half = keep // 2
        shown = s[:half] + "…" + s[-half:]
        if theme.text_width(shown, face, size) <= room:
            return shown
    return "…"


class CrashNoticeScene(UIScene):
    is_overlay = True

    def __init__(self, app: AppServices):
        self.appear = Tween(0.0, 1.0, 0.22, ease_out_cubic)
        report = crash.pending_report()
        self.folder = report.parent if report is not None else crash.reports_dir()
        self.report = report
        self.opened: str | None = None  # the problem opening the folder, shown in a toast
        super().__init__(app)

    def build(self) -> None:
        bw = 240
        y = BOX.bottom - 70
        self.open_button = self.ui.add(
            Button(
                (BOX.centerx - bw - 10, y, bw, 48),
                self.label("crash.open_folder"),
                self._open,
                style="primary",
                size=16,
                name="open",
            )
        )
        self.ui.add(
            Button((BOX.centerx + 10, y + 2, bw, 44), self.label("crash.close"), self.back, size=15, name="dismiss")
        )
        self.ui.focus(self.open_button)

    def _open(self) -> None:
        problem = crash.open_folder(self.folder)
        if problem:
            self.app.toast(self.app.t("crash.open_failed", folder=str(self.folder)))
        self.back()

    def back(self) -> None:
        crash.forget_pending()
        self.app.stack.pop()

    def speech_opening(self) -> list[str]:
        """A screen reader hears what the panel says, before its buttons."""
        return [self.t("crash.notice_body")]

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        box = panels.modal(surface, BOX, float(self.appear.value_at(self.alpha)), 140)
        title = self.t("crash.notice_title")
        size = theme.fit(title, "serif_bold", 24, TEXT_W, 16)
        theme.blit_text(surface, title, (box.centerx, box.y + 26), "serif_bold", size, theme.CREAM, anchor="midtop")
        y = box.y + 76
        for line in theme.wrap(self.t("crash.notice_body"), "sans", 15, TEXT_W, max_lines=4):
            theme.blit_text(surface, line, (box.centerx, y), "sans", 15, theme.CREAM_DIM, anchor="midtop")
            y += 21
        where = self.report if self.report is not None else self.folder
        shown = cut_middle(str(where), "sans", 13, TEXT_W)
        theme.blit_text(surface, shown, (box.centerx, y + 8), "sans", 13, theme.BRASS, anchor="midtop")
        self.ui.draw(surface)


def create(app: AppServices, **params: object) -> CrashNoticeScene:
    return CrashNoticeScene(app)
