"""The puzzles screen ("puzzles", Learn → Puzzles): choose by game (or every game, mixed) and by
theme, solve rated puzzles near your rating, the puzzle of the day of each game, "Your
mistakes" (the coach's blunders from your own matches, when due), and the dashboard — your
rating in the game now and over time (a small line chart), the themes you are strong and weak
in, the streaks.

Keys: Tab or the arrows move between the controls, ←/→ change the game or the theme, Enter
starts, Esc goes back; the dashboard is a control too, so a screen reader hears it in words
(D reads it from anywhere). The mouse: every control.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

import pygame

from game.puzzles.model import THEMES, Puzzle
from game.puzzles.store import problems as store_problems
from game.puzzles.store import shipped
from scenes.puzzles import common
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widget_base import Label
from sprites.widgets import Button, Choice, Widget

PANEL = pygame.Rect(70, 30, 1140, 652)
LEFT = PANEL.x + 40
COL_W = 480
DASH = pygame.Rect(PANEL.x + 560, PANEL.y + 138, PANEL.right - 40 - (PANEL.x + 560), 300)
DAILY_Y = PANEL.y + 462
UP, DOWN = (150, 205, 140), (226, 136, 112)
DASH_KEY = pygame.K_d


class DashboardBox(Widget):
    """The dashboard as a control: the scene draws it; focused, it is read out (``spoken``)."""

    def __init__(self, rect: pygame.Rect, words: Callable[[], str]):
        super().__init__(rect, name="dashboard")
        self.words = words
        self.spoken = words  # what a screen reader says of it: the dashboard's words now

    def on_key(self, key: int, mod: int) -> bool:
        return False

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        self.draw_focus(surface, self.rect, 12)


class PuzzlesScene(UIScene):
    def __init__(self, app: AppServices, game: str | None = None, theme_id: str | None = None):
        self.games = common.games_with_puzzles()
        self.game: str | None = game if game in self.games else None
        self.theme_id: str | None = theme_id
        self.today = dt.date.today()
        self.progress = common.load(app)
        for problem in store_problems():  # a damaged data file: its puzzles are left out, said as it opens
            app.toast(app.t("puzzle_ui.data_problem", problem=problem))
        # Worked out once per visit, not per frame: the dashboards read every attempt kept,
        # and the day's puzzles sort each game's ids.
        self._boards: dict[str, dict[str, Any]] = {}
        self._daily: dict[str, Puzzle | None] = {}
        super().__init__(app)

    # ------------------------------------------------------------------ the choices
    def game_name(self, gid: str) -> str:
        g = self.app.config.games[gid]
        return g.name.get(self.app.language) or g.name.get("en", gid)

    def themes(self) -> list[str]:
        """The themes the chosen game's puzzles have (every game's when mixed), in THEMES order."""
        have = {p.theme for p in shipped(self.game)}
        return [k for k in THEMES if k in have]

    def set_game(self, gid: str | None) -> None:
        self.game = gid
        if self.theme_id not in self.themes():
            self.theme_id = None
        self.theme_choice.options = self._theme_options()

    def set_theme(self, tid: str | None) -> None:
        self.theme_id = tid

    def _theme_options(self) -> list[tuple[str | None, Label]]:
        return [(None, self.label("puzzle_ui.any_theme"))] + [
            (k, self.label(f"puzzles.theme.{k}")) for k in self.themes()
        ]

    def due(self) -> int:
        return len(self.progress.mistakes_due(time.time(), self.game, self.theme_id))

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        r = PANEL
        games = [(None, self.label("puzzle_ui.mixed"))] + [(g, lambda g=g: self.game_name(g)) for g in self.games]
        y = r.y + 138
        self.game_choice = self.ui.add(
            Choice(
                (LEFT, y, COL_W, 58),
                self.label("puzzle_ui.game"),
                games,
                lambda: self.game,
                self.set_game,
                compact=True,
                name="game",
            )
        )
        self.theme_choice = self.ui.add(
            Choice(
                (LEFT, y + 70, COL_W, 58),
                self.label("puzzle_ui.theme"),
                self._theme_options(),
                lambda: self.theme_id,
                self.set_theme,
                compact=True,
                name="theme",
            )
        )
        self.solve_button = self.ui.add(
            Button(
                (LEFT, y + 146, COL_W, 54),
                self.label("puzzle_ui.solve"),
                self.solve,
                style="primary",
                size=17,
                name="solve",
                enabled=lambda: bool(self.games),
            )
        )
        self.mistakes_button = self.ui.add(
            Button((LEFT, y + 236, COL_W, 46), self._mistakes_label, self.mistakes, size=15, name="mistakes")
        )
        self.dash = self.ui.add(DashboardBox(DASH, self.dashboard_words))
        self.daily_buttons: list[Button] = []
        n = max(1, len(self.games))
        gap = 12
        w = (r.w - 80 - gap * (n - 1)) // n
        for i, g in enumerate(self.games):
            b = self.ui.add(
                Button(
                    (LEFT + i * (w + gap), DAILY_Y + 30, w, 48),
                    self._daily_label_of(g),
                    self._daily_opener(g),
                    size=15,
                    name=f"daily_{g}",
                )
            )
            b.spoken = self._daily_spoken_of(g)  # read with getattr (scenes.speak): "…, solved"
            self.daily_buttons.append(b)
        self.ui.add(
            Button((LEFT, r.bottom - 62, 170, 44), self.label("common.back"), self.back, icon="‹", size=15, name="back")
        )
        self.ui.focus(self.solve_button)

    def _mistakes_label(self) -> str:
        n = self.due()
        return self.t("puzzle_ui.mistakes_due", count=n) if n else self.t("puzzle_ui.mistakes_none")

    def _daily_label_of(self, gid: str) -> Callable[[], str]:
        return lambda: self._daily_label(gid)

    def _daily_spoken_of(self, gid: str) -> Callable[[], str]:
        return lambda: self._daily_spoken(gid)

    def _daily_opener(self, gid: str) -> Callable[[], None]:
        return lambda: self.open_daily(gid)

    def daily(self, gid: str) -> Puzzle | None:
        """The day's puzzle of ``gid`` (None when it has none)."""
        if gid not in self._daily:
            self._daily[gid] = common.daily(gid, self.today)
        return self._daily[gid]

    def _daily_label(self, gid: str) -> str:
        p = self.daily(gid)
        mark = "✓ " if p is not None and common.solved_ever(self.progress, p.id) else ""
        return f"{mark}{self.game_name(gid)}"

    def _daily_spoken(self, gid: str) -> str:
        p = self.daily(gid)
        done = p is not None and common.solved_ever(self.progress, p.id)
        return self.t("puzzle_ui.daily_spoken_done" if done else "puzzle_ui.daily_spoken", game=self.game_name(gid))

    def enter(self) -> None:
        # Back from a puzzle: the ratings, the streaks and the mistakes due have moved.
        self.progress = common.load(self.app)
        self.today = dt.date.today()
        self._boards, self._daily = {}, {}

    # ------------------------------------------------------------------ actions
    def _open(self, puzzle: object, mode: str, game: str | None) -> None:
        if puzzle is None:
            self.app.toast(self.t("puzzle_ui.none_left_mistakes" if mode == "mistakes" else "puzzle_ui.none_left"))
            return
        self.app.open_scene("puzzle", puzzle=puzzle, mode=mode, game=game, theme=self.theme_id)

    def solve(self) -> None:
        self._open(common.next_puzzle(self.game, self.theme_id, "rated", app=self.app), "rated", self.game)

    def mistakes(self) -> None:
        self._open(common.next_puzzle(self.game, self.theme_id, "mistakes", app=self.app), "mistakes", self.game)

    def open_daily(self, gid: str) -> None:
        p = self.daily(gid)
        self._open(None if p is None else self.progress.with_rating(p), "daily", gid)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == DASH_KEY and not getattr(event, "mod", 0) & pygame.KMOD_CTRL:
            self.app.say(self.dashboard_words(), interrupt=True)
            return
        super().handle(event)

    # ------------------------------------------------------------------ the dashboard in words
    def boards(self) -> list[dict[str, Any]]:
        """The dashboard of the chosen game, or of every game (mixed)."""
        for g in [self.game] if self.game else self.games:
            if g not in self._boards:
                self._boards[g] = self.progress.dashboard(g)
        return [self._boards[g] for g in ([self.game] if self.game else self.games)]

    def dashboard_words(self) -> str:
        t = self.t
        parts = []
        for d in self.boards():
            name = self.game_name(d["game"])
            parts.append(
                t("puzzle_ui.dash_rating", game=name, rating=d["rating"], solved=d["solved"], tried=d["tried"])
            )
            if self.game:
                if d["strong"]:
                    parts.append(t("puzzle_ui.strong", themes=self._themes(d["strong"])))
                if d["weak"]:
                    parts.append(t("puzzle_ui.weak", themes=self._themes(d["weak"])))
                hist = d["history"]
                if len(hist) >= 2:
                    parts.append(
                        t("puzzle_ui.dash_trend", first=round(hist[0][1]), last=round(hist[-1][1]), count=len(hist) - 1)
                    )
        if self.games:
            parts.append(self.streak_text(self.boards()[0]))
        return " ".join(p if p.endswith(".") else p + "." for p in parts)

    def _themes(self, ids: list[str]) -> str:
        return ", ".join(self.t(f"puzzles.theme.{k}") for k in ids)

    def streak_text(self, d: dict[str, object]) -> str:
        return self.t("puzzle_ui.streak", right=d["streak_right"], best=d["best_right"], days=d["streak_days"])

    def speech_opening(self) -> list[str]:
        return [self.t("puzzle_ui.intro"), self.dashboard_words() if self.games else self.t("puzzle_ui.none_left")]

    # ------------------------------------------------------------------ drawing
    def update(self, dt_: float) -> None:
        super().update(dt_)
        if self.theme_choice.options and len(self.theme_choice.options) != len(self.themes()) + 1:
            self.theme_choice.options = self._theme_options()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("puzzle_ui.title")
        theme.heading(surface, title, (LEFT, r.y + 24), theme.fit(title, "serif_bold", 30, r.w - 80, 16, 0.22, True))
        intro = self.t("puzzle_ui.intro")
        size = 15  # two lines under the title at any text size: a little smaller rather than cut
        while size > 11 and len(theme.wrap(intro, "sans", size, r.w - 80)) > 2:
            size -= 1
        step = max(19, theme.font("sans", size).get_linesize())
        for i, ln in enumerate(theme.wrap(intro, "sans", size, r.w - 80, max_lines=2)):
            theme.blit_text(surface, ln, (LEFT, r.y + 68 + step * i), "sans", size, theme.CREAM_DIM)
        near = self.t("puzzle_ui.near", rating=self._near_rating())
        theme.blit_text(
            surface,
            near,
            (LEFT, self.solve_button.rect.bottom + 8),
            "sans",
            theme.fit(near, "sans", 13, COL_W, 9),
            theme.CREAM_DIM,
        )
        self._draw_dashboard(surface)
        head = self.t("puzzle_ui.daily_head", date=self._date())
        theme.small_caps(
            surface, head, (LEFT, DAILY_Y), theme.fit(head, "cond_bold", 14, r.w - 80, 9, 0.16, True), theme.BRASS_LIGHT
        )
        self.ui.draw(surface)
        hint = self.t("puzzle_ui.list_hint")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 26),
            "sans",
            theme.fit(hint, "sans", 13, 1100, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )

    def _near_rating(self) -> int:
        boards = self.boards()
        return round(sum(d["rating"] for d in boards) / len(boards)) if boards else 1500

    def _date(self) -> str:
        from scenes.daily import date_words

        return date_words(self.t, self.today)

    def _draw_dashboard(self, surface: pygame.Surface) -> None:
        box = DASH
        surface.blit(theme.rounded(box.size, 12, (255, 244, 214, 12), 1, (*theme.BRASS_DARK, 255)), box)
        x, y, w = box.x + 20, box.y + 14, box.w - 40
        head = self.t("puzzle_ui.dashboard")
        theme.small_caps(surface, head, (x, y), theme.fit(head, "cond_bold", 14, w, 9, 0.16, True), theme.BRASS_LIGHT)
        y += theme.font("cond_bold", 14).get_height() + 8
        if not self.games:
            theme.blit_text(surface, self.t("puzzle_ui.none_left"), (x, y), "sans", 15, theme.CREAM)
            return
        boards = self.boards()
        if self.game:
            self._draw_one(surface, boards[0], pygame.Rect(x, y, w, box.bottom - 14 - y))
        else:
            self._draw_all(surface, boards, pygame.Rect(x, y, w, box.bottom - 14 - y))

    def _draw_one(self, surface: pygame.Surface, d: dict[str, Any], area: pygame.Rect) -> None:
        """One game: the rating large, the chart beside it, then themes and streaks."""
        t = self.t
        rating = str(d["rating"])
        size = theme.fit(rating, "serif_bold", 44, 150, 24)
        theme.blit_text(surface, rating, (area.x, area.y), "serif_bold", size, theme.CREAM)
        sub = t("puzzle_ui.rd", rd=d["rd"]) + (f" · {t('puzzle_ui.provisional')}" if d["provisional"] else "")
        line_h = theme.font("serif_bold", size).get_height()
        theme.blit_text(
            surface, sub, (area.x, area.y + line_h), "sans", theme.fit(sub, "sans", 12, 170, 8), theme.CREAM_DIM
        )
        solved = t("puzzle_ui.solved_of", solved=d["solved"], tried=d["tried"])
        theme.blit_text(
            surface,
            solved,
            (area.x, area.y + line_h + 18),
            "sans",
            theme.fit(solved, "sans", 13, 170, 8),
            theme.CREAM_DIM,
        )
        chart = pygame.Rect(area.x + 190, area.y + 4, area.w - 190, 104)
        draw_chart(surface, chart, [v for _, v in d["history"]], t("puzzle_ui.chart_empty"))
        y = area.y + 126
        for key, ids, colour in (("puzzle_ui.strong", d["strong"], UP), ("puzzle_ui.weak", d["weak"], DOWN)):
            text = t(key, themes=self._themes(ids) if ids else t("puzzle_ui.not_yet"))
            theme.blit_text(surface, text, (area.x, y), "sans", theme.fit(text, "sans", 15, area.w, 10), colour)
            y += max(22, theme.font("sans", 15).get_linesize() + 2)
        streak = self.streak_text(d)
        theme.blit_text(
            surface, streak, (area.x, y + 4), "sans", theme.fit(streak, "sans", 15, area.w, 10), theme.CREAM
        )

    def _draw_all(self, surface: pygame.Surface, boards: list[dict[str, Any]], area: pygame.Rect) -> None:
        """Mixed: each game's rating and solved count in a row, then the streaks."""
        t = self.t
        step = max(30, theme.font("sans", 15).get_linesize() + 8)
        y = area.y
        for d in boards:
            name = self.game_name(d["game"])
            theme.blit_text(
                surface, name, (area.x, y), "serif_bold", theme.fit(name, "serif_bold", 18, 190, 11), theme.CREAM
            )
            rating = str(d["rating"])
            theme.blit_text(surface, rating, (area.x + 250, y), "serif_bold", 18, theme.CREAM, anchor="topright")
            draw_sparkline(surface, pygame.Rect(area.x + 266, y + 2, 90, step - 12), [v for _, v in d["history"]])
            solved = t("puzzle_ui.solved_of", solved=d["solved"], tried=d["tried"])
            theme.blit_text(
                surface,
                solved,
                (area.right, y + 2),
                "sans",
                theme.fit(solved, "sans", 14, area.w - 372, 8),
                theme.CREAM_DIM,
                anchor="topright",
            )
            y += step
        streak = self.streak_text(boards[0])
        theme.blit_text(
            surface,
            streak,
            (area.x, max(y + 4, area.bottom - 22)),
            "sans",
            theme.fit(streak, "sans", 15, area.w, 10),
            theme.CREAM,
        )


def draw_chart(surface: pygame.Surface, rect: pygame.Rect, values: list[float], empty: str) -> None:
    """The rating over time as a small line chart: the lowest and highest marked at the left,
    the last point dotted; fewer than two points, ``empty`` in words."""
    surface.blit(theme.rounded(rect.size, 8, (0, 0, 0, 50), 1, (*theme.BRASS_DARK, 160)), rect)
    if len(values) < 2:
        for i, ln in enumerate(theme.wrap(empty, "sans", 12, rect.w - 16, max_lines=3)):
            theme.blit_text(surface, ln, (rect.x + 8, rect.y + 8 + 16 * i), "sans", 12, theme.CREAM_FAINT)
        return
    lo, hi = min(values), max(values)
    if hi - lo < 20:  # a flat start still shows its small moves, centred
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    label_w = theme.text_width(str(round(hi)), "sans", 11) + 8
    inner = pygame.Rect(rect.x + label_w + 4, rect.y + 8, rect.w - label_w - 14, rect.h - 16)
    n = len(values)
    pts = [
        (inner.x + round(inner.w * i / (n - 1)), inner.bottom - round(inner.h * (v - lo) / (hi - lo)))
        for i, v in enumerate(values)
    ]
    pygame.draw.line(surface, (*theme.BRASS_DARK,), (inner.x, inner.bottom), (inner.right, inner.bottom))
    pygame.draw.aalines(surface, theme.BRASS_LIGHT, False, pts)
    pygame.draw.circle(surface, theme.BRASS_LIGHT, pts[-1], 3)
    theme.blit_text(surface, str(round(hi)), (rect.x + 6, inner.y - 4), "sans", 11, theme.CREAM_DIM)
    theme.blit_text(surface, str(round(lo)), (rect.x + 6, inner.bottom - 10), "sans", 11, theme.CREAM_DIM)


def draw_sparkline(surface: pygame.Surface, rect: pygame.Rect, values: list[float]) -> None:
    """A game's rating over time in a row of the mixed dashboard: the line alone (nothing for
    fewer than two points)."""
    if len(values) < 2 or rect.h < 4:
        return
    lo, hi = min(values), max(values)
    span = max(hi - lo, 20.0)
    mid = (hi + lo) / 2
    n = len(values)
    pts = [
        (rect.x + round(rect.w * i / (n - 1)), rect.centery - round(rect.h * (v - mid) / span))
        for i, v in enumerate(values)
    ]
    pygame.draw.aalines(surface, theme.BRASS_LIGHT, False, pts)
    pygame.draw.circle(surface, UP if values[-1] >= values[0] else DOWN, pts[-1], 2)


def create(app: AppServices, game: str | None = None, theme: str | None = None, **params: object) -> PuzzlesScene:
    return PuzzlesScene(app, game, theme)


__all__ = ["PuzzlesScene", "DashboardBox", "draw_chart", "draw_sparkline", "create"]
