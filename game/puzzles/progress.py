"""The player's puzzles: ratings, themes, streaks, what was seen, and "Your mistakes".

Kept in ``puzzles.json`` in the user data folder (game.services.settings.user_data_dir), written
atomically under its lock (game.services.storage); a file that cannot be read is moved aside as
``puzzles.json.bad`` with one line (``problem``) and play starts afresh — nothing the player
had is overwritten. A bad field in a good file falls back for that field only.

- **Ratings**: per game, the player's Glicko-2 rating (game.puzzles.rating) and its history
  [(time, rating)]; each attempt at a shipped puzzle is a game between the player and the
  puzzle, and the puzzle's own rating moves too (kept here, over the shipped one). Attempts
  at the player's own mistakes are practice: unrated.
- **Themes**: per game and theme, right and wrong answers; the dashboard's strong and weak
  themes.
- **Streaks**: days in a row with an attempt, right answers in a row (and the best run).
- **Your mistakes**: a Leitner queue. A new mistake waits in box 0 (due at once); a right
  answer moves it up a box and it comes back after that box's interval (``INTERVALS``: one
  day, three, a week, two, a month), a wrong one puts it back in box 0, due in
  ``AGAIN_SECONDS`` — the ones you get wrong again come back sooner. A right answer from
  the last box retires it.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from game.puzzles.model import BASE_RATING, NEW_RD, Puzzle, PuzzleError
from game.puzzles.rating import Rating, update
from game.rules.vocabulary import JsonObject
from game.services.settings import user_data_dir
from game.services.storage import locked, read_json, write_json

FILE_NAME = "puzzles.json"
FORMAT = 1
DAY = 86400.0
#: Seconds until a mistake comes back, by its box (after a right answer in the box before).
INTERVALS: tuple[float, ...] = (0.0, 1 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY)
#: A mistake answered wrong comes back this soon.
AGAIN_SECONDS = 600.0
#: Mistakes kept at most (the oldest retired, then the oldest, go first).
MAX_MISTAKES = 300
#: Rating history points kept per game.
MAX_HISTORY = 500
#: Puzzles remembered as seen at most.
MAX_SEEN = 20000
#: A theme needs this many attempts before the dashboard calls it strong or weak.
MIN_THEME_TRIES = 3
#: Puzzles a rated pick chooses among: the nearest to the player's rating.
NEAREST = 12


@dataclass
class Mistake:
    puzzle: Puzzle
    box: int = 0
    due: float = 0.0
    added: float = 0.0
    retired: bool = False
    right: int = 0
    wrong: int = 0


@dataclass
class PuzzleProgress:
    """The player's puzzle progress (see the module). ``problem``: one line when the file
    could not be read (it was moved aside) or could not be written."""

    path: Path = field(default_factory=lambda: user_data_dir() / FILE_NAME)
    ratings: dict[str, Rating] = field(default_factory=dict)
    history: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    themes: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    streak_days: int = 0
    last_day: str | None = None
    streak_right: int = 0
    best_right: int = 0
    #: pid → [tries, solved, last attempt time]
    seen: dict[str, list[float]] = field(default_factory=dict)
    #: pid → the puzzle's rating after the player's attempts (over the shipped one)
    puzzle_ratings: dict[str, Rating] = field(default_factory=dict)
    mistakes: dict[str, Mistake] = field(default_factory=dict)
    problem: str | None = None

    # ------------------------------------------------------------------ files
    @classmethod
    def load(cls, path: Path | None = None) -> PuzzleProgress:
        """The progress in ``path`` (default the data folder's ``puzzles.json``); a missing
        file is a fresh start, a damaged one is moved aside (``problem`` says so)."""
        p = cls(path=Path(path) if path is not None else user_data_dir() / FILE_NAME)
        data, problem = read_json(p.path, expect=dict, what="a puzzle progress file")
        p.problem = problem
        if data:
            p._read(data)
        return p

    def _read(self, data: dict[str, Any]) -> None:
        for game, r in _dict(data.get("ratings")).items():
            rating = _rating(r)
            if rating is not None:
                self.ratings[game] = rating
        for game, pts in _dict(data.get("history")).items():
            if isinstance(pts, list):
                self.history[game] = [(float(t), float(v)) for t, v in (x for x in pts if _pair(x))][-MAX_HISTORY:]
        for game, ts in _dict(data.get("themes")).items():
            self.themes[game] = {
                k: [int(v[0]), int(v[1])]
                for k, v in _dict(ts).items()
                if isinstance(v, list) and len(v) == 2 and all(_count(x) for x in v)
            }
        streak = _dict(data.get("streak"))
        self.streak_days = int(streak["days"]) if _count(streak.get("days")) else 0
        self.last_day = streak.get("last_day") if _day(streak.get("last_day")) else None
        self.streak_right = int(streak["right"]) if _count(streak.get("right")) else 0
        self.best_right = max(self.streak_right, int(streak["best_right"]) if _count(streak.get("best_right")) else 0)
        for pid, v in _dict(data.get("seen")).items():
            if isinstance(v, list) and len(v) == 3 and all(_number(x) for x in v):
                self.seen[pid] = [float(x) for x in v]
        for pid, r in _dict(data.get("puzzle_ratings")).items():
            rating = _rating(r)
            if rating is not None:
                self.puzzle_ratings[pid] = rating
        for pid, m in _dict(data.get("mistakes")).items():
            mistake = _mistake(m)
            if mistake is not None:
                self.mistakes[pid] = mistake

    def to_json(self) -> JsonObject:
        return {
            "format": FORMAT,
            "ratings": {g: [r.rating, r.rd, r.volatility] for g, r in self.ratings.items()},
            "history": {g: [[t, v] for t, v in h] for g, h in self.history.items()},
            "themes": self.themes,
            "streak": {
                "days": self.streak_days,
                "last_day": self.last_day,
                "right": self.streak_right,
                "best_right": self.best_right,
            },
            "seen": self.seen,
            "puzzle_ratings": {pid: [r.rating, r.rd, r.volatility] for pid, r in self.puzzle_ratings.items()},
            "mistakes": {
                pid: {
                    "puzzle": m.puzzle.to_json(),
                    "box": m.box,
                    "due": m.due,
                    "added": m.added,
                    "retired": m.retired,
                    "right": m.right,
                    "wrong": m.wrong,
                }
                for pid, m in self.mistakes.items()
            },
        }

    def save(self) -> str | None:
        """Write the file atomically (under its lock: a second window waits). None, or the
        one-line problem (a full disk): the progress stays in memory for the next save."""
        with locked(self.path):
            problem = write_json(self.path, self.to_json())
        self.problem = problem
        return problem

    # ------------------------------------------------------------------ attempts
    def rating(self, game: str) -> Rating:
        return self.ratings.get(game, Rating(BASE_RATING, NEW_RD))

    def puzzle_rating(self, p: Puzzle) -> Rating:
        return self.puzzle_ratings.get(p.id, Rating(p.rating, p.rd))

    def record_attempt(
        self, puzzle: Puzzle, solved: bool, now: float, rated: bool | None = None
    ) -> tuple[float, float]:
        """Count one attempt (``now``: seconds since the epoch) and return (the player's
        rating in the puzzle's game before, after). ``rated`` defaults to True for a shipped
        puzzle and False for one of the player's own mistakes (practice)."""
        rated = puzzle.origin == "made" if rated is None else rated
        game = puzzle.game
        before = self.rating(game)
        after = before
        if rated:
            after, p_after = update(before, self.puzzle_rating(puzzle), solved)
            self.ratings[game] = after
            self.puzzle_ratings[puzzle.id] = p_after
            hist = self.history.setdefault(game, [])
            if not hist:
                hist.append((now, round(before.rating, 1)))
            hist.append((now, round(after.rating, 1)))
            del hist[:-MAX_HISTORY]
        counts = self.themes.setdefault(game, {}).setdefault(puzzle.theme, [0, 0])
        counts[0 if solved else 1] += 1
        self._streak(solved, now)
        tries, wins, _ = self.seen.get(puzzle.id, [0.0, 0.0, 0.0])
        self.seen[puzzle.id] = [tries + 1, wins + (1 if solved else 0), now]
        if len(self.seen) > MAX_SEEN:
            for pid in sorted(self.seen, key=lambda k: self.seen[k][2])[: len(self.seen) - MAX_SEEN]:
                del self.seen[pid]
        m = self.mistakes.get(puzzle.id)
        if m is not None:
            self._space(m, solved, now)
        return before.rating, after.rating

    def _streak(self, solved: bool, now: float) -> None:
        today = _local_day(now)
        if self.last_day != today.isoformat():
            yesterday = (today - dt.timedelta(days=1)).isoformat()
            self.streak_days = self.streak_days + 1 if self.last_day == yesterday else 1
            self.last_day = today.isoformat()
        self.streak_right = self.streak_right + 1 if solved else 0
        self.best_right = max(self.best_right, self.streak_right)

    @staticmethod
    def _space(m: Mistake, solved: bool, now: float) -> None:
        """The Leitner step (see the module)."""
        if solved:
            m.right += 1
            if m.box >= len(INTERVALS) - 1:
                m.retired = True
                return
            m.box += 1
            m.due = now + INTERVALS[m.box]
        else:
            m.wrong += 1
            m.box = 0
            m.due = now + AGAIN_SECONDS

    # ------------------------------------------------------------------ mistakes
    def add_mistake_puzzles(self, puzzles: Iterable[Puzzle], now: float | None = None) -> int:
        """Put the player's own mistakes in the queue (due at once); a mistake already there
        is left as it is. Returns how many were new."""
        now = time.time() if now is None else now
        added = 0
        for p in puzzles:
            if p.id in self.mistakes:
                continue
            self.mistakes[p.id] = Mistake(p, 0, now, now)
            added += 1
        if len(self.mistakes) > MAX_MISTAKES:
            order = sorted(self.mistakes, key=lambda k: (not self.mistakes[k].retired, self.mistakes[k].added))
            for pid in order[: len(self.mistakes) - MAX_MISTAKES]:
                del self.mistakes[pid]
        return added

    def mistakes_due(self, now: float, game: str | None = None, theme: str | None = None) -> list[Puzzle]:
        """The mistakes due now, the longest-waiting first."""
        due = [
            m
            for m in self.mistakes.values()
            if not m.retired
            and m.due <= now
            and (game is None or m.puzzle.game == game)
            and (theme is None or m.puzzle.theme == theme)
        ]
        return [m.puzzle for m in sorted(due, key=lambda m: (m.due, m.added))]  # stable: first added first

    def puzzle(self, pid: str) -> Puzzle | None:
        """A puzzle by id: the player's own mistakes, then the shipped set."""
        if pid in self.mistakes:
            return self.mistakes[pid].puzzle
        from game.puzzles.store import by_id

        return by_id(pid)

    # ------------------------------------------------------------------ choosing
    def next_puzzle(
        self, game: str | None, theme: str | None = None, mode: str = "rated", now: float | None = None
    ) -> Puzzle | None:
        """The next puzzle: in "rated" mode a shipped one of ``game`` (every game when None)
        and ``theme`` (any when None) near the player's rating in its game — one not tried
        yet when there is one, else the one tried longest ago —, drawn among the NEAREST;
        in "mistakes" mode the mistake due first. None when there is none."""
        now = time.time() if now is None else now
        if mode == "mistakes":
            due = self.mistakes_due(now, game, theme)
            return due[0] if due else None
        if mode != "rated":
            raise ValueError(f"unknown puzzle mode {mode!r} (rated or mistakes)")
        from game.puzzles.store import shipped

        pool = [p for p in shipped(game) if theme is None or p.theme == theme]
        if not pool:
            return None
        fresh = [p for p in pool if p.id not in self.seen]
        if not fresh:
            oldest = min(self.seen[p.id][2] for p in pool)
            fresh = [p for p in pool if self.seen[p.id][2] <= oldest]
        fresh.sort(key=lambda p: (abs(self.puzzle_rating(p).rating - self.rating(p.game).rating), p.id))
        rng = random.Random(f"{now}|{len(self.seen)}")
        return rng.choice(fresh[:NEAREST])

    # ------------------------------------------------------------------ the dashboard
    def dashboard(self, game: str) -> dict[str, Any]:
        """What the dashboard shows for ``game``: ``rating``, ``rd``, ``history`` [(time,
        rating)], ``themes`` {theme: (right, wrong)}, ``strong`` and ``weak`` (up to three
        themes each, tried MIN_THEME_TRIES times at least, by their share right, smoothed),
        ``streak_days``, ``streak_right``, ``best_right``, ``tried``, ``solved``,
        ``mistakes_due`` and ``mistakes``."""
        r = self.rating(game)
        themes = {k: (v[0], v[1]) for k, v in self.themes.get(game, {}).items()}
        tried = {k: v for k, v in themes.items() if v[0] + v[1] >= MIN_THEME_TRIES}

        def share(k: str) -> float:  # Laplace-smoothed: one lucky answer is no strength
            right, wrong = tried[k]
            return (right + 1) / (right + wrong + 2)

        order = sorted(tried, key=lambda k: (-share(k), k))
        strong = [k for k in order if share(k) >= 0.6][:3]
        weak = [k for k in reversed(order) if share(k) < 0.6 and k not in strong][:3]
        mine = [pid for pid in self.seen if pid.split("-", 1)[0] == game]
        return {
            "game": game,
            "rating": round(r.rating),
            "rd": round(r.rd),
            "provisional": r.rd > 110,
            "history": list(self.history.get(game, [])),
            "themes": themes,
            "strong": strong,
            "weak": weak,
            "streak_days": self.streak_days if self._streak_alive(time.time()) else 0,
            "streak_right": self.streak_right,
            "best_right": self.best_right,
            "tried": int(sum(self.seen[p][0] for p in mine)),
            "solved": int(sum(self.seen[p][1] for p in mine)),
            "mistakes_due": len(self.mistakes_due(time.time(), game)),
            "mistakes": sum(1 for m in self.mistakes.values() if m.puzzle.game == game and not m.retired),
        }

    def _streak_alive(self, now: float) -> bool:
        """The day streak still counts: its last day is today or yesterday."""
        if self.last_day is None:
            return False
        today = _local_day(now)
        return self.last_day in (today.isoformat(), (today - dt.timedelta(days=1)).isoformat())

    def with_rating(self, p: Puzzle) -> Puzzle:
        """``p`` with its rating as the player's attempts have moved it."""
        r = self.puzzle_rating(p)
        return replace(p, rating=r.rating, rd=r.rd)


# ---------------------------------------------------------------------- reading fields
def _local_day(now: float) -> dt.date:
    return dt.datetime.fromtimestamp(now).date()


def _dict(v: object) -> dict[str, Any]:
    return {k: x for k, x in v.items() if isinstance(k, str)} if isinstance(v, dict) else {}


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _pair(v: object) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_number(x) for x in v)


def _day(v: object) -> bool:
    if not isinstance(v, str):
        return False
    try:
        dt.date.fromisoformat(v)
    except ValueError:
        return False
    return True


def _rating(v: object) -> Rating | None:
    if isinstance(v, list) and len(v) == 3 and all(_number(x) for x in v) and v[1] > 0 and v[2] > 0:
        return Rating(float(v[0]), float(v[1]), float(v[2]))
    return None


def _mistake(v: object) -> Mistake | None:
    if not isinstance(v, dict):
        return None
    try:
        p = Puzzle.from_json(v.get("puzzle"))
    except PuzzleError:
        return None
    box = v.get("box")
    if (
        not isinstance(box, int)
        or not _count(box)
        or box >= len(INTERVALS)
        or not _number(v.get("due"))
        or not _number(v.get("added"))
    ):
        return None
    return Mistake(
        p,
        int(box),
        float(v["due"]),
        float(v["added"]),
        v.get("retired") is True,
        int(v["right"]) if _count(v.get("right")) else 0,
        int(v["wrong"]) if _count(v.get("wrong")) else 0,
    )


__all__ = ["AGAIN_SECONDS", "FILE_NAME", "INTERVALS", "MAX_MISTAKES", "Mistake", "PuzzleProgress"]
