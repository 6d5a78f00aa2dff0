"""The results screen's coach line: "Your deal: 1 blunder, 2 mistakes — see why".

:func:`offer` adds one button to the results screen when its match has a player (a local
session whose record is its own): the deal just scored is analysed for the player's seat in a
background thread (game.coach.job) while the results are shown. Until it is done the button
shows a progress bar and does nothing; then it reads the counts and opens the coach view
("coach") on that analysis — as does C (:func:`on_key`). When the counts come, a screen reader
hears them at once, not only when the line gets the focus, and the deal's blunders become
puzzles in "Your mistakes" (:func:`keep_mistakes`). Nothing here blocks input.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import pygame
from pygame.typing import RectLike

import scenes.coach.common as coach
from game.coach.job import AnalysisJob
from sprites import theme
from sprites.widgets import UI, Button

if TYPE_CHECKING:
    from game.services.table_session import TableSession
    from scenes.scene import AppServices

#: The finished analyses whose blunders were kept as puzzles (once each).
_KEPT: weakref.WeakSet[AnalysisJob] = weakref.WeakSet()
#: The height the line takes on the results panel.
ROW = 50
#: The line's width: room for "press C to see why" after the counts, in German at the largest text.
WIDTH = 720


class ResultsHost(Protocol):
    """What the line asks of the results screen (scenes.results.scene.ResultsScene): its
    match and deal, its panel and widgets, and where it keeps the analysis across relayouts."""

    app: AppServices
    session: TableSession
    deal_end: dict
    rect: pygame.Rect
    ui: UI
    coach_job: AnalysisJob | None
    coach_said: bool

    def t(self, key: str, **params: object) -> str: ...


def offers(scene: ResultsHost) -> bool:
    """Whether the results screen gets the coach's line: a player's own local match."""
    s = scene.session
    caps = getattr(s, "capabilities", None)
    if not getattr(scene.app, "has_window", True) and not coach.HEADLESS_RESULTS:
        return False
    return getattr(s, "human_seat", None) is not None and caps is not None and caps.replays and hasattr(s, "match")


class CoachButton(Button):
    """The line itself: a progress bar while the analysis runs, then the counts."""

    def __init__(self, rect: RectLike, scene: ResultsHost, job: AnalysisJob):
        self.scene = scene
        self.job = job
        super().__init__(rect, self.text, self.open, size=14, name="coach", enabled=lambda: self.job.finished)

    def text(self) -> str:
        t = self.scene.t
        job = self.job
        if not job.finished:
            return t("coach.analysing")
        if job.error or job.analysis is None:
            return t("coach.failed", reason=job.error or "")
        a = job.analysis
        counts = [t(f"coach.count.{k}", count=a.count(k)) for k in ("blunder", "mistake", "inaccuracy") if a.count(k)]
        return t("coach.summary", counts=", ".join(counts)) if counts else t("coach.summary_clean")

    def open(self) -> None:
        if self.job.finished and self.job.analysis is not None:
            self.scene.app.open_scene("coach", job=self.job, session=self.scene.session)

    def update(self, dt: float, focused: bool) -> None:
        super().update(dt, focused)
        scene = self.scene
        app = scene.app
        if self.job.finished:
            keep_mistakes(app, self.job)
        # Once the results have been read out (their opening lines come first), say the
        # counts as they arrive; once per results screen, whatever relayouts make a new line.
        top: object = app.stack.top
        if (
            self.job.finished
            and not getattr(scene, "coach_said", False)
            and top is scene
            and getattr(getattr(app, "screen_speech", None), "top", None) is scene
        ):
            self.scene.coach_said = True  # (the same scene: the test above narrowed the name's type)
            if not focused:  # a focused line is said by the focus's speech as its words change
                app.say(self.text())

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        super().draw(surface, focused)
        if not self.job.finished:
            bar = pygame.Rect(self.rect.x + 24, self.rect.bottom - 7, self.rect.w - 48, 3)
            surface.blit(theme.rounded(bar.size, 2, (255, 255, 255, 40)), bar)
            w = round(bar.w * self.job.fraction)
            if w > 0:
                surface.blit(theme.rounded((w, bar.h), 2, (*theme.BRASS_LIGHT, 240)), bar)


def keep_mistakes(app: AppServices, job: AnalysisJob) -> None:
    """Once per finished analysis of the player's own deal (``job``: a finished
    game.coach.job.AnalysisJob, kept once): its blunders become puzzles in "Your
    mistakes" (game.puzzles.mistakes), said in a toast; a problem with the file too."""
    if job in _KEPT or job.analysis is None:
        return
    _KEPT.add(job)
    from game.puzzles.mistakes import keep_blunders

    try:
        added, problem = keep_blunders(job.events, job.seat, job.analysis)
    except (OSError, ValueError) as e:  # a puzzle the rules cannot rebuild: the results stay
        added, problem = 0, str(e)
    if added:
        app.toast(app.t("puzzle_ui.mistakes_added", count=added))
    if problem:
        app.toast(app.t("puzzle_ui.file_problem", problem=problem))


def on_key(scene: ResultsHost, key: int) -> bool:
    """C on the results screen: the coach view once the analysis is done (before, the line's
    progress is said); False when the screen has no coach line or the key is not C."""
    line = getattr(scene, "coach_line", None)
    if key != pygame.K_c or line is None:
        return False
    if line.job.finished:
        line.open()
    else:
        scene.app.say(line.text(), interrupt=True)
    return True


def offer(scene: ResultsHost, y: int) -> CoachButton | None:
    """Start the analysis of the scene's deal and add its line at ``y``; None when not offered."""
    if not offers(scene):
        return None
    session = scene.session
    number = scene.deal_end.get("number")
    old = getattr(scene, "coach_job", None)  # the screen laid out again (a new language): the same job
    if old is not None:
        return scene.ui.add(CoachButton((scene.rect.centerx - WIDTH // 2, y, WIDTH, 40), scene, old))
    seat = session.human_seat
    if seat is None:  # (offers() asks for a player's seat: this narrows its type)
        return None
    holder: dict[str, Callable[[], bool]] = {}
    job = AnalysisJob(
        list(session.match.events),
        seat,
        deals={number} if number else None,
        budget=coach.BUDGET,
        keep_going=lambda: holder.get("keep", lambda: True)(),
    )
    holder["keep"] = coach.alive_while_held(scene.app, job)
    scene.coach_job = job  # the results screen holds it: the analysis stops when the screen goes
    return scene.ui.add(CoachButton((scene.rect.centerx - WIDTH // 2, y, WIDTH, 40), scene, job))


__all__ = ["CoachButton", "ROW", "keep_mistakes", "offer", "offers", "on_key"]
