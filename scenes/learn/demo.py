"""Screenshots and checks: a lesson shown at a given step (``--scene lesson --step N
--overlay wrong|good|done``), reached by the lesson's own good moves."""

from __future__ import annotations

from typing import Protocol

from game.lessons.session import LessonSession, drive


class LessonShown(Protocol):
    """A lesson's table (scenes.learn.table.LessonTable): its session, and a redraw."""

    session: LessonSession

    def redraw(self) -> None: ...


def stand_at(scene: LessonShown, step: int, overlay: str | None) -> None:
    """Play ``scene``'s lesson to step ``step`` (from 1) and show the table there at once."""
    s = scene.session
    if overlay == "done":
        drive(s)
    else:
        drive(s, max(0, min(step, len(s.lesson.steps)) - 1), overlay)
    scene.redraw()


__all__ = ["stand_at"]
