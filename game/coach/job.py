"""An analysis in a background thread, for the window: its progress, its result or its error,
and a way to end it early. The window polls it every frame and never waits for it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection

from game.coach.analysis import COACH_SEED, Analysis, CoachError, analyse_events


class AnalysisJob:
    """``analyse_events(events, seat, …)`` run in a daemon thread (or at once with
    ``threaded=False``). ``keep_going()`` (optional) is asked as the search runs: False ends
    the job (nobody waits for it any more); so does :meth:`cancel`."""

    def __init__(
        self,
        events: list[dict],
        seat: int,
        *,
        deals: Collection[int] | None = None,
        budget: int | None = None,
        seed: int = COACH_SEED,
        threaded: bool = True,
        keep_going: Callable[[], bool] | None = None,
    ):
        self.events = list(events)
        self.seat = seat
        self.deals = deals
        self.budget = budget
        self.seed = seed
        self.done = 0
        self.total = 0
        self.analysis: Analysis | None = None
        #: One line when the analysis failed (a record the coach cannot read, a bug).
        self.error: str | None = None
        #: The blunders kept as puzzles once it has finished, and a problem keeping them
        #: (game.puzzles.mistakes.keep_from_job).
        self.puzzles_added = 0
        self.puzzles_problem: str | None = None
        self._cancel = threading.Event()
        self._keep_going = keep_going
        self._finished = threading.Event()
        self.thread: threading.Thread | None = None
        if threaded:
            self.thread = threading.Thread(target=self._run, name="coach", daemon=True)
            self.thread.start()
        else:
            self._run()

    def _stop(self) -> bool:
        return self._cancel.is_set() or (self._keep_going is not None and not self._keep_going())

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def _run(self) -> None:
        try:
            self.analysis = analyse_events(
                self.events, self.seat, self.budget, self.seed, self._progress, self._stop, self.deals
            )
        except CoachError as e:
            self.error = str(e)
        except Exception as e:  # noqa: BLE001 - a bug in a hook must not end the window: say it
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self._finished.set()

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    @property
    def fraction(self) -> float:
        """How far it is, 0 to 1."""
        if self.finished:
            return 1.0
        return self.done / self.total if self.total else 0.0

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """For tests and shutdown: True once finished."""
        return self._finished.wait(timeout)


__all__ = ["AnalysisJob"]
