"""The club server's puzzle of the day: the day's puzzle per game and who solved it.

The puzzle is the offline one (game.puzzles.daily: the published rule over the shipped set),
so a club and a player at home agree on it. A signed-in account answers once a day per game
(``puzzle_solved`` with its moves, the seat's answer moves in order): the server replays
them through the puzzle with the judge (game.puzzles.store.judge) and keeps the first answer
— right or wrong — in ``puzzles/<DATE>.json`` in the data folder. ``puzzle_daily`` gives
the day's id and the names of the accounts that solved it, in the order they did; there is
no time and no ranking (no speed leaderboard: a puzzle is for thinking).

Messages (game.online.wire.protocol's strict schema):
- ``{"type": "puzzle_daily", "game": G}`` → ``{"type": "puzzle_daily", "date", "game", "id",
  "solved_by": [names]}``;
- ``{"type": "puzzle_solved", "game": G, "id": ID, "moves": [action, …]}`` →
  ``{"type": "puzzle_solved", "date", "game", "id", "solved": bool, "solved_by": [names]}``;
  refused (``error``) without an account (``account``), for another id than the day's
  (``puzzle``), and for a second answer of the day (``played``).
"""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path
from typing import Any

from game.online.server.seats import Conn, MessageHandler, Refusal
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject
from game.services.storage import read_json, write_json

#: Answers kept per game and day at most (a bound on the file; far beyond any club's size).
MAX_ANSWERS = 10_000


class PuzzleDays:
    """The days' answers: ``data_dir/puzzles/<DATE>.json``, {game: {"id": pid, "answers":
    {"p:<player>": {"name": name, "solved": bool}}}} (answers in the order they came)."""

    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir) / "puzzles"
        self._lock = threading.Lock()

    def load(self, day: str) -> dict[str, Any]:
        data, _ = read_json(self.folder / f"{day}.json", expect=dict, what="a daily puzzles file")
        return data if isinstance(data, dict) else {}

    def save(self, day: str, data: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        problem = write_json(self.folder / f"{day}.json", data)
        if problem:
            raise OSError(problem)

    def solved_by(self, day: str, game: str, pid: str) -> list[str]:
        entry = self.load(day).get(game)
        if not isinstance(entry, dict) or entry.get("id") != pid:
            return []
        answers = entry.get("answers")
        if not isinstance(answers, dict):
            return []
        return [
            a["name"]
            for a in answers.values()
            if isinstance(a, dict) and a.get("solved") is True and isinstance(a.get("name"), str)
        ]

    def answer(self, day: str, game: str, pid: str, who: str, name: str, solved: bool) -> list[str]:
        """Keep ``who``'s first answer of the day; Refusal ``played`` for a second one."""
        with self._lock:
            data = self.load(day)
            entry = data.get(game)
            if not isinstance(entry, dict) or entry.get("id") != pid:
                entry = {"id": pid, "answers": {}}
            answers = entry.setdefault("answers", {})
            if who in answers:
                raise Refusal("played", f"{name} has already answered today's {game} puzzle")
            if len(answers) >= MAX_ANSWERS:
                raise Refusal("limit", "today's puzzle has all the answers it can keep")
            answers[who] = {"name": name, "solved": solved}
            data[game] = entry
            self.save(day, data)
        return self.solved_by(day, game, pid)


def solves(pid: str, moves: list[JsonObject]) -> bool:
    """Do ``moves`` (action JSON, the seat's answer moves in order) solve the puzzle? Each is
    judged at its step of the line (game.puzzles.store.judge); the other seats' replies come
    from the line. An illegal or wrong move, too few or too many moves: not solved."""
    from game.puzzles.model import PuzzleError
    from game.puzzles.store import by_id, judge

    p = by_id(pid)
    if p is None:
        return False
    steps = p.seat_steps()
    if len(moves) != len(steps):
        return False
    for step, move in zip(steps, moves):
        try:
            verdict = judge(p, step, P.action_from_json(move))
        except (PuzzleError, ValueError):
            return False
        if not verdict.ok:
            return False
    return True


class PuzzleBoard:
    """The two handlers (registered in game.online.server.server's table)."""

    def __init__(self, data_dir: Path):
        self.days = PuzzleDays(data_dir)

    def handlers(self) -> dict[str, MessageHandler]:
        return {"puzzle_daily": self.on_daily, "puzzle_solved": self.on_solved}

    @staticmethod
    def _today(game: str) -> tuple[str, str]:
        from game.puzzles.daily import daily_id
        from game.rulesets import game_ids

        if game not in game_ids():
            raise Refusal("config", f"unknown game {game!r}")
        day = dt.date.today()
        try:
            return day.isoformat(), daily_id(day, game)
        except ValueError as e:  # no puzzles shipped for the game
            raise Refusal("puzzle", str(e)) from None

    def on_daily(self, conn: Conn, msg: dict) -> None:
        day, pid = self._today(msg["game"])
        conn.send(
            M.PUZZLE_DAILY(date=day, game=msg["game"], id=pid, solved_by=self.days.solved_by(day, msg["game"], pid))
        )

    def on_solved(self, conn: Conn, msg: dict) -> None:
        if conn.player is None:
            raise Refusal("account", "the daily puzzle is answered with an account: say who you are first ('account')")
        day, pid = self._today(msg["game"])
        if msg["id"] != pid:
            raise Refusal("puzzle", f"{msg['id']} is not today's {msg['game']} puzzle")
        solved = solves(pid, msg["moves"])
        names = self.days.answer(day, msg["game"], pid, f"p:{conn.player}", conn.name or "", solved)
        conn.send(M.PUZZLE_SOLVED(date=day, game=msg["game"], id=pid, solved=solved, solved_by=names))


__all__ = ["MAX_ANSWERS", "PuzzleBoard", "PuzzleDays", "solves"]
