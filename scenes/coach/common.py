"""What the coach's window modules share: the budget, whether headless results offer the
coach, and how an analysis job knows that somebody still waits for it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scenes.scene import AppServices

#: Seconds an analysis job runs before its scene must be on the stack to keep it going.
GRACE = 1.0

#: Iterations per decision in the window: None for the game's shipped budget (tests set less).
BUDGET: int | None = None
#: The budget of the demo analysis a coach view opened with nothing to analyse shows (``--screenshot
#: --scene coach``, the smoke run, the text-fit checks): enough to find mistakes, cheap.
DEMO_BUDGET = 60
#: Without a window (tests, screenshots) the results screen offers the coach only when this is
#: True: the suite's many headless results screens must not each start seconds of search.
HEADLESS_RESULTS = False


def alive_while_held(app: AppServices, job: object) -> Callable[[], bool]:
    """``keep_going`` for an analysis job: True while a scene on the stack holds the job (its
    ``coach_job``), so a job nobody can show any more stops at once — and for the first
    ``GRACE`` seconds, as the job starts while its scene is being made, before it is pushed."""
    start = time.monotonic()

    def keep_going() -> bool:
        if any(getattr(s, "coach_job", None) is job for s in list(app.stack.scenes)):
            return True
        return time.monotonic() - start < GRACE

    return keep_going


__all__ = ["BUDGET", "DEMO_BUDGET", "GRACE", "HEADLESS_RESULTS", "alive_while_held"]
