"""The Learn screen ("learn"): the lessons, one per game, in the registry's order of games,
each with a mark once finished (the settings' ``lessons_done``) and a button that starts it.

Keys: ↑ / ↓ (or Tab) choose, Enter starts, P opens the puzzles, Esc goes back. The mouse: a
lesson's button, Puzzles.
A lesson whose file is broken is not opened: a toast gives game.lessons' one-line reason.
"""

from __future__ import annotations

from functools import partial

import pygame

from game.lessons.lesson import LessonError, get_lesson, lesson_names
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button

PANEL = pygame.Rect(150, 38, 980, 640)
ROW_X, ROW_Y, ROW_W, ROW_H, ROW_GAP = PANEL.x + 40, PANEL.y + 146, PANEL.w - 80, 72, 9
#: The rows end above the Back and Puzzles buttons: more lessons make each row lower.
ROWS_BOTTOM = PANEL.bottom - 72
BUTTON_W = 170
DONE = (150, 205, 140)


class LearnScene(UIScene):
    def __init__(self, app: AppServices):
        self.names = lesson_names()
        super().__init__(app)

    def build(self) -> None:
        self.rows: list[tuple[str, pygame.Rect, Button]] = []
        step = min(ROW_H + ROW_GAP, (ROWS_BOTTOM - ROW_Y + ROW_GAP) // max(1, len(self.names)))
        for i, name in enumerate(self.names):  # one row per lesson
            band = pygame.Rect(ROW_X, ROW_Y + i * step, ROW_W, step - ROW_GAP)

            def caption(name: str = name) -> str:
                return self.t("lessons.again" if self.is_done(name) else "lessons.start")

            button = self.ui.add(
                Button(
                    (band.right - 16 - BUTTON_W, band.centery - 22, BUTTON_W, 44),
                    caption,
                    partial(self.open_lesson, name),
                    size=15,
                    name=f"lesson_{name}",
                )
            )
            self.rows.append((name, band, button))
        self.ui.add(
            Button(
                (PANEL.x + 40, PANEL.bottom - 62, 170, 44),
                self.label("common.back"),
                self.back,
                icon="‹",
                size=15,
                name="back",
            )
        )
        # Puzzles (scenes.puzzles): positions with one right move, once the rules are known.
        self.ui.add(
            Button(
                (PANEL.right - 40 - 240, PANEL.bottom - 62, 240, 44),
                self.label("puzzle_ui.menu"),
                self.open_puzzles,
                size=15,
                name="puzzles",
            )
        )
        self.point_at_next()

    def point_at_next(self) -> None:
        """The first lesson not yet done is the primary button, and has the focus."""
        upcoming = next((b for n, _, b in self.rows if not self.is_done(n)), self.rows[0][2] if self.rows else None)
        for _, _, button in self.rows:
            button.style = "primary" if button is upcoming else "secondary"
        if upcoming is not None:
            self.ui.focus(upcoming)

    def enter(self) -> None:
        self.point_at_next()  # back from a lesson: it may be done now

    def is_done(self, name: str) -> bool:
        return name in self.app.settings.lessons_done

    def open_lesson(self, name: str) -> None:
        try:
            get_lesson(name)
        except LessonError as e:
            self.app.toast(self.t("lessons.broken", problem=str(e)))
            return
        self.app.open_scene("lesson", lesson=name)

    def open_puzzles(self) -> None:
        self.app.open_scene("puzzles")

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_p:
            self.open_puzzles()
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN):
            buttons = [b for _, _, b in self.rows]
            focused = self.ui.focused
            i = buttons.index(focused) if focused in buttons else -1
            step = 1 if event.key == pygame.K_DOWN else -1
            if buttons:
                self.ui.focus(buttons[(i + step) % len(buttons)])
            return
        super().handle(event)

    def _game_name(self, name: str) -> str:
        """The game's name as rules.yaml gives it (a lesson is named after its game)."""
        try:
            game = self.app.config.games[get_lesson(name).game]
        except (LessonError, KeyError):
            return name
        return game.name.get(self.app.language) or game.name.get("en", name)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("lessons.title")
        theme.heading(
            surface, title, (r.x + 40, r.y + 26), theme.fit(title, "serif_bold", 28, r.w - 80, 16, 0.22, True)
        )
        for i, line in enumerate(theme.wrap(self.t("lessons.intro"), "sans", 15, r.w - 80, max_lines=3)):
            theme.blit_text(surface, line, (r.x + 40, r.y + 76 + 20 * i), "sans", 15, theme.CREAM_DIM)
        for name, band, button in self.rows:
            self._row(surface, name, band, button)
        self.ui.draw(surface)
        hint = self.t("lessons.list_hint")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 22),
            "sans",
            theme.fit(hint, "sans", 13, 1100, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )

    def _row(self, surface: pygame.Surface, name: str, band: pygame.Rect, button: Button) -> None:
        chosen = self.ui.focused is button
        surface.blit(
            theme.rounded(
                band.size, 12, (255, 255, 255, 30 if chosen else 14), 1, (*theme.BRASS, 200 if chosen else 90)
            ),
            band,
        )
        room = button.rect.x - band.x - 40
        done = self.is_done(name)
        game = self._game_name(name)
        # The name and the lesson's title share the row: closer together in a lower row.
        top = band.y + max(6, band.h - 60)
        theme.blit_text(
            surface,
            game,
            (band.x + 20, top),
            "serif_bold",
            theme.fit(game, "serif_bold", 22, room - (110 if done else 0), 14),
            theme.CREAM,
        )
        if done:
            mark = "✓ " + self.t("lessons.done")
            theme.blit_text(
                surface,
                mark,
                (band.x + 20 + room, top + 4),
                "sans_bold",
                theme.fit(mark, "sans_bold", 14, 100, 10),
                DONE,
                anchor="topright",
            )
        try:
            lesson = get_lesson(name)
        except LessonError:
            return
        sub = self.t(lesson.title)
        theme.blit_text(
            surface, sub, (band.x + 20, band.bottom - 28), "sans", theme.fit(sub, "sans", 15, room, 10), theme.CREAM_DIM
        )


def create(app: AppServices, **params: object) -> LearnScene:
    return LearnScene(app)


__all__ = ["LearnScene", "create"]
