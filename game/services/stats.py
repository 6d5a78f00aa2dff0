"""Statistics per game, mode and variant: played, won, lost, drawn, best margin, current streak.

A record's key is ``game/mode`` for the rules as written and ``game/mode/variant`` for a
preset or a custom set of house rules (:func:`game.variants.variant_key`): a statistics file
written before house rules existed (only ``game/mode`` keys) reads unchanged.

A match in which a decision was taken back (undo) is practice, not a fair result: it counts
in ``practice`` only, never as played, won or lost. A match in which moves were suggested counts
as usual and also in ``suggested``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path

from game.services.settings import user_data_dir
from game.services.storage import read_json, serialised, write_json

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
    #: Finished matches with a decision taken back: practice, not in played/won/lost/drawn.
    practice: int = 0
    #: Of the played matches, those in which a move was suggested to the player.
    suggested: int = 0

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


def key(game: str, mode: str, variant: str = "") -> str:
    return f"{game}/{mode}/{variant}" if variant else f"{game}/{mode}"


def split_key(k: str) -> tuple[str, str, str]:
    """(game, mode, variant) of a record's key; the variant is "" for the rules as written."""
    game, _, rest = k.partition("/")
    mode, _, variant = rest.partition("/")
    return game, mode, variant


def load_stats() -> tuple[dict[str, Record], str | None]:
    """All records; a corrupt file gives empty statistics and is kept aside."""
    data, problem = read_json(stats_path(), expect=dict, what="a statistics file")  # [1, 2, 3] is kept aside too
    if not isinstance(data, dict):
        return {}, problem
    return {str(k): Record.from_json(v) for k, v in data.items()}, problem


@serialised(stats_path)  # two windows: each adds its match to what the file holds now
def record_result(
    game: str,
    mode: str,
    outcome: str,
    margin: int,
    *,
    practice: bool = False,
    suggested: bool = False,
    variant: str = "",
) -> str | None:
    """Add one finished match (outcome for the human's side, margin in its favour).
    ``practice``: a decision was taken back — counted as practice only (no outcome, streak
    or margin). ``suggested``: moves were suggested — counted as usual and as suggested.
    ``variant``: the house rules' own record (:func:`game.variants.variant_key`; "" for the
    rules as written)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {OUTCOMES}")
    stats, _ = load_stats()
    r = stats.setdefault(key(game, mode, variant), Record())
    if practice:
        r.practice += 1
        return write_json(stats_path(), {k: asdict(v) for k, v in stats.items()})
    r.played += 1
    if suggested:
        r.suggested += 1
    if outcome == "won":
        r.won += 1
        r.streak = r.streak + 1 if r.streak > 0 else 1
        r.best_margin = margin if r.best_margin is None else max(r.best_margin, margin)
    elif outcome == "lost":
        r.lost += 1
        r.streak = r.streak - 1 if r.streak < 0 else -1
    else:
        r.drawn += 1
        r.streak = 0
    return write_json(stats_path(), {k: asdict(v) for k, v in stats.items()})


@serialised(stats_path)
def reset_stats() -> str | None:
    return write_json(stats_path(), {})
