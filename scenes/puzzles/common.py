"""What the puzzle screens share: the player's progress read and written, the next puzzle, the
day's puzzle, a rated attempt's change, and the screenshots' stand-ins.

Every call reads the progress file afresh (game.puzzles.progress: small, and a second window
may have written it) and writes it at once after an attempt, so nothing waits for the scene
to close. A file that cannot be read or written is said once in a toast (its one line).
No pygame here.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from game.puzzles import store
from game.puzzles.model import Puzzle
from game.puzzles.progress import PuzzleProgress
from scenes.scene import AppServices

if TYPE_CHECKING:
    from scenes.puzzles.session import PuzzleSession


class PuzzleShown(Protocol):
    """A puzzle's table (scenes.puzzles.table.PuzzleTable): its session, and a redraw."""

    session: PuzzleSession

    def redraw(self) -> None: ...


MODES = ("rated", "daily", "mistakes")


@dataclass(frozen=True)
class Change:
    """A rated attempt: the player's rating in the puzzle's game and the puzzle's own, before
    and after (Glicko-2). ``rated`` False: practice (one of the player's own mistakes), the
    ratings stand still and ``due`` says when it comes back (seconds from now; None: retired)."""

    player_before: float
    player_after: float
    puzzle_before: float
    puzzle_after: float
    rated: bool = True
    due: float | None = None


#: The last problem said (a damaged or unwritable file is said once, not on every attempt).
_said: list[str | None] = [None]


def load(app: AppServices | None = None) -> PuzzleProgress:
    """The player's progress; a file moved aside or unreadable is said once (``app.toast``)."""
    progress = PuzzleProgress.load()
    _tell(app, progress.problem)
    return progress


def _tell(app: AppServices | None, problem: str | None) -> None:
    if problem and problem != _said[0] and app is not None:
        _said[0] = problem
        app.toast(app.t("puzzle_ui.file_problem", problem=problem))


def record(puzzle: Puzzle, solved: bool, app: AppServices | None = None, now: float | None = None) -> Change:
    """One attempt counted and saved; its change (see :class:`Change`)."""
    now = time.time() if now is None else now
    progress = load(app)
    rated = puzzle.origin == "made"
    p_before = progress.puzzle_rating(puzzle).rating
    before, after = progress.record_attempt(puzzle, solved, now)
    p_after = progress.puzzle_rating(puzzle).rating
    mistake = progress.mistakes.get(puzzle.id)
    due = None if mistake is None or mistake.retired else max(0.0, mistake.due - now)
    _tell(app, progress.save())
    return Change(before, after, p_before, p_after, rated, due)


def next_puzzle(
    game: str | None, theme: str | None, mode: str, exclude: str | None = None, app: AppServices | None = None
) -> Puzzle | None:
    """The next puzzle for the chooser's filters (the progress's own pick: near the player's
    rating, or the mistake due first), never ``exclude`` (the one just done) when another fits."""
    progress = load(app)
    mode = "mistakes" if mode == "mistakes" else "rated"
    now = time.time()
    p = progress.next_puzzle(game, theme, mode, now)
    if p is not None and p.id == exclude:
        if mode == "mistakes":
            due = [q for q in progress.mistakes_due(now, game, theme) if q.id != exclude]
            p = due[0] if due else None
        else:
            for k in range(1, 6):  # another draw among the nearest
                q = progress.next_puzzle(game, theme, mode, now + k)
                if q is not None and q.id != exclude:
                    p = q
                    break
    return None if p is None else progress.with_rating(p)


def daily(game: str, day: dt.date | None = None) -> Puzzle | None:
    """The day's puzzle of ``game`` (the same in every home), None when the game has none."""
    from game.puzzles.daily import daily_puzzle

    try:
        return daily_puzzle(day or dt.date.today(), game)
    except ValueError:
        return None


def solved_ever(progress: PuzzleProgress, pid: str) -> bool:
    seen = progress.seen.get(pid)
    return bool(seen and seen[1] > 0)


def games_with_puzzles() -> list[str]:
    """The registered games with shipped puzzles, in the registry's order."""
    from game.rulesets import game_ids

    return [g for g in game_ids() if store.shipped(g)]


def resolve(
    puzzle: Puzzle | str | None, game: str | None, theme: str | None, mode: str, step: int | None
) -> Puzzle | None:
    """The puzzle a scene is opened on: given, by id, the ``step``-th shipped one of ``game``
    (screenshots, from 1), the day's (``mode`` "daily"), else the next for the filters."""
    progress = PuzzleProgress.load()
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        p = progress.puzzle(puzzle)
        return None if p is None else progress.with_rating(p)
    if step is not None:
        pool = [p for p in store.shipped(game) if theme is None or p.theme == theme] or store.shipped(game)
        return progress.with_rating(pool[(max(1, step) - 1) % len(pool)]) if pool else None
    if mode == "daily" and game is not None:
        p = daily(game)
        return None if p is None else progress.with_rating(p)
    return next_puzzle(game, theme, mode)


def stand_at(scene: PuzzleShown, overlay: str) -> None:
    """Screenshots and checks (``--overlay``): "right" the right first move played, "wrong" a
    wrong one with its refutation, "solution" the solution after a wrong one, "solved" the
    whole line; each played out at once and shown."""
    from scenes.puzzles.session import play_answer, play_out

    s = scene.session
    if overlay in ("wrong", "solution"):
        play_answer(s, right=False)
        play_out(s)
        if overlay == "solution":
            s.show_solution()
            play_out(s)
    elif overlay in ("right", "solved"):
        play_answer(s)
        play_out(s)
        while overlay == "solved" and s.human_to_act:
            play_answer(s)
            play_out(s)
    scene.redraw()


__all__ = [
    "Change",
    "MODES",
    "daily",
    "games_with_puzzles",
    "load",
    "next_puzzle",
    "record",
    "resolve",
    "solved_ever",
    "stand_at",
]
