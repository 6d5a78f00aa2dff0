"""Your own mistakes as puzzles: every blunder the coach finds in the player's match.

The coach's analysis (game.coach.analysis.analyse_events; in the window an
game.coach.job.AnalysisJob) values each of the seat's decisions on what the seat knew. Each
decision it classes a blunder becomes a puzzle: the position (the record up to that
decision, cut to its deal: the match line, marked ``deals: 1``, and the deal's own lines,
the deal numbered 1 — so a puzzle from the seventh deal does not carry six others), the
coach's best move as the answer, its loss as the margin, the coach's values of every move,
and the move the player made (``played``). Such a puzzle is ``known`` False (the coach's
valuation, not a solver's proof), unrated, and goes to "Your mistakes"
(game.puzzles.progress) — the window calls :func:`keep_blunders` when an analysis of the
player's own deal ends (scenes/coach/banner.py), or :func:`keep_from_job` with the finished
game.coach.job.AnalysisJob.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from game.action_codec import action_to_json
from game.coach.analysis import Analysis, DecisionAnalysis
from game.puzzles import themes
from game.puzzles.model import NEW_RD, Puzzle
from game.puzzles.progress import PuzzleProgress
from game.rules.base import Event

#: The coach's classes that become puzzles.
KEPT_CLASSES = ("blunder",)


def deal_prefix(events: list[Event], line: int, deal: int) -> list[Event]:
    """The record up to line ``line`` (0-based, not included), cut to deal ``deal``: the match
    line (``deals`` 1, no program version) and the deal's own lines, numbered 1."""
    head = dict(events[0])
    head.pop("version", None)
    head["deals"] = 1
    start = next(
        (i for i in range(1, line) if events[i].get("event") == "deal" and events[i].get("number") == deal), None
    )
    if start is None:
        raise ValueError(f"deal {deal} is not in the record before line {line + 1}")
    out = [head]
    for ev in events[start:line]:
        ev = dict(ev)
        if ev.get("event") == "deal":
            ev["number"] = 1
        out.append(ev)
    return out


def _id(game: str, prefix: list[Event], seat: int) -> str:
    """A mistake puzzle's id: the same position always gets the same one (adding the same
    analysis twice adds nothing)."""
    text = json.dumps([prefix, seat], sort_keys=True, separators=(",", ":"))
    return f"{game}-mine-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}"


def from_decision(events: list[Event], seat: int, d: DecisionAnalysis) -> Puzzle:
    """The puzzle of one analysed decision (see the module)."""
    from game.puzzles.store import position

    prefix = deal_prefix(events, d.line, d.deal)
    head = prefix[0]
    ranked = sorted(d.values, key=lambda m: -m.points)
    base = Puzzle(
        id=_id(head["game"], prefix, seat),
        game=head["game"],
        deck=head["deck"],
        players=head["players"],
        options=dict(head.get("options") or {}),
        seed=head["seed"],
        prefix=tuple(prefix),
        seat=seat,
        line=((seat, action_to_json(d.best)),),
        answer_moves=1,
        margin=round(d.loss, 4),
        theme="take",
        question="best_move",
        known=False,
        rating=1500.0,
        rd=NEW_RD,
        values=tuple((action_to_json(m.action), round(m.points, 4)) for m in ranked),
        origin="mistake",
        played=action_to_json(d.played),
    )
    m = position(base)
    second = next((v.action for v in ranked if v.action != d.best), None)
    theme = themes.hidden_theme(m.rules, m.state, seat, d.best, second)
    return replace(base, theme=theme)


def from_analysis(record_events: list[Event], seat: int, analysis: Analysis) -> list[Puzzle]:
    """Every blunder of ``analysis`` (the coach's, of ``seat`` in ``record_events``) as a
    puzzle, in the order they were made. A decision whose position cannot be rebuilt (a record
    the referee would refuse) is left out."""
    from game.puzzles.model import PuzzleError

    out = []
    for d in analysis.decisions:
        if d.klass not in KEPT_CLASSES or d.seat != seat:
            continue
        try:
            out.append(from_decision(record_events, seat, d))
        except (PuzzleError, ValueError, KeyError, TypeError):
            continue
    return out


def keep_blunders(
    record_events: list[Event], seat: int, analysis: Analysis, path: Path | None = None, now: float | None = None
) -> tuple[int, str | None]:
    """Add the analysis's blunders to the player's "Your mistakes" and save: (how many were
    new, the one-line problem of reading or writing the file, or None)."""
    puzzles = from_analysis(record_events, seat, analysis)
    if not puzzles:
        return 0, None
    progress = PuzzleProgress.load(path)
    problem = progress.problem
    added = progress.add_mistake_puzzles(puzzles, now)
    if added:
        problem = progress.save() or problem
    return added, problem


class FinishedJob(Protocol):
    """What :func:`keep_from_job` reads of a game.coach.job.AnalysisJob, and writes on it."""

    events: list[Event]
    seat: int
    analysis: Analysis | None
    puzzles_added: int
    puzzles_problem: str | None


def keep_from_job(job: FinishedJob) -> None:
    """A finished game.coach.job.AnalysisJob of the player's own match: its blunders go to
    "Your mistakes"; how many were new and a problem with the file are kept on the job
    (``puzzles_added``, ``puzzles_problem``) for the window to say. Nothing for a job without
    an analysis (still running, failed)."""
    analysis = job.analysis
    if analysis is None:
        return
    added, problem = keep_blunders(job.events, job.seat, analysis)
    job.puzzles_added = added
    job.puzzles_problem = problem


__all__ = ["KEPT_CLASSES", "deal_prefix", "from_analysis", "from_decision", "keep_blunders", "keep_from_job"]
