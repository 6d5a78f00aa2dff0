"""Statistics per game and mode: played, won, lost, drawn, best margin, current streak."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path

from game.settings import user_data_dir
from game.storage import read_json, write_json

FILE_NAME = "stats.json"
OUTCOMES = ("won", "lost", "drawn")


@dataclass
class Record:
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    best_margin: int | None = None
    #: Positive: wins in a row; negative: losses in a row; a draw resets it.
    streak: int = 0

    @classmethod
    def from_json(cls, data: object) -> Record:
        r = cls()
        if isinstance(data, dict):
            for f in fields(cls):
                v = data.get(f.name)
                if isinstance(v, int) and not isinstance(v, bool) and (v >= 0 or f.name in ("streak", "best_margin")):
                    setattr(r, f.name, v)
        return r


def stats_path() -> Path:
    return user_data_dir() / FILE_NAME


def key(game: str, mode: str) -> str:
    return f"{game}/{mode}"


def load_stats() -> tuple[dict[str, Record], str | None]:
    """All records; a corrupt file gives empty statistics and is kept aside."""
    data, problem = read_json(stats_path())
    if not isinstance(data, dict):
        return {}, problem
    return {str(k): Record.from_json(v) for k, v in data.items()}, problem


def record_result(game: str, mode: str, outcome: str, margin: int) -> str | None:
    """Add one finished match (outcome for the human's side, margin in its favour)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {OUTCOMES}")
    stats, _ = load_stats()
    r = stats.setdefault(key(game, mode), Record())
    r.played += 1
    setattr(r, outcome, getattr(r, outcome) + 1)
    if outcome == "won":
        r.streak = r.streak + 1 if r.streak > 0 else 1
        r.best_margin = margin if r.best_margin is None else max(r.best_margin, margin)
    elif outcome == "lost":
        r.streak = r.streak - 1 if r.streak < 0 else -1
    else:
        r.streak = 0
    return write_json(stats_path(), {k: asdict(v) for k, v in stats.items()})


def reset_stats() -> str | None:
    return write_json(stats_path(), {})
