"""The results screen's coach line: "Your deal: 1 blunder, 2 mistakes — see why".

:func:`offer` adds one button to the results screen when its match has a player (a local
session whose record is its own): the deal just scored is analysed for the player's seat in a
background thread (game.coach.job) while the results are shown. Until it is done the button
shows a progress bar and does nothing; then it reads the counts and opens the coach view
("coach") on that analysis. Nothing here blocks input.
"""
from __future__ import annotations

from typing import Any

import pygame

import scenes.coach.common as coach
from game.coach.job import AnalysisJob
from sprites import theme
from sprites.widgets import Button

#: The height the line takes on the results panel.
ROW = 50


def offers(scene: Any) -> bool:
    """Whether the results screen gets the coach's line: a player's own local match."""
    s = scene.session
    caps = getattr(s, "capabilities", None)
    if not getattr(scene.app, "has_window", True) and not coach.HEADLESS_RESULTS:
        return False
    return (getattr(s, "human_seat", None) is not None and caps is not None and caps.replays
            and hasattr(s, "match"))


class CoachButton(Button):
    """The line itself: a progress bar while the analysis runs, then the counts."""

    def __init__(self, rect: Any, scene: Any, job: AnalysisJob):
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

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        super().draw(surface, focused)
        if not self.job.finished:
            bar = pygame.Rect(self.rect.x + 24, self.rect.bottom - 7, self.rect.w - 48, 3)
            surface.blit(theme.rounded(bar.size, 2, (255, 255, 255, 40)), bar)
            w = round(bar.w * self.job.fraction)
            if w > 0:
                surface.blit(theme.rounded((w, bar.h), 2, (*theme.BRASS_LIGHT, 240)), bar)


def offer(scene: Any, y: int) -> CoachButton | None:
    """Start the analysis of the scene's deal and add its line at ``y``; None when not offered."""
    if not offers(scene):
        return None
    session = scene.session
    number = scene.deal_end.get("number")
    old = getattr(scene, "coach_job", None)  # the screen laid out again (a new language): the same job
    if old is not None:
        return scene.ui.add(CoachButton((scene.rect.centerx - 260, y, 520, 40), scene, old))
    holder: dict[str, Any] = {}
    job = AnalysisJob(list(session.match.events), session.human_seat, deals={number} if number else None,
                      budget=coach.BUDGET,
                      keep_going=lambda: holder.get("keep", lambda: True)())
    holder["keep"] = coach.alive_while_held(scene.app, job)
    scene.coach_job = job  # the results screen holds it: the analysis stops when the screen goes
    w = 520
    return scene.ui.add(CoachButton((scene.rect.centerx - w // 2, y, w, 40), scene, job))


__all__ = ["CoachButton", "ROW", "offer", "offers"]
