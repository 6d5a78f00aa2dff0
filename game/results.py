"""What a game's results explainer (game/games/<id>/results.py, ``explain(b, t, rules,
deal_end, names)``) is given: the part of the results screen's breakdown
(scenes.results.breakdown.Breakdown) it fills, named here so the rules core needs no scene."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

#: A locale lookup: key and format values to the text.
Translate = Callable[..., str]


class Board(Protocol):
    """The breakdown's sentences: one per team (or player) column, the verdict and the notes."""

    columns: list[str]
    mine: int | None
    headline: str
    notes: list[str]
    bar: tuple[int, int] | None
    subjects: list[str]


class BoardRow(Protocol):
    label: str
    cells: list[object]


class TableBoard(Board, Protocol):
    """A breakdown whose rows a game's explainer changes and adds to: its row and cell types."""

    rows: list[BoardRow]

    @property
    def Row(self) -> Callable[..., BoardRow]: ...  # noqa: N802 - the breakdown's own name

    @property
    def Cell(self) -> Callable[..., object]: ...  # noqa: N802 - the breakdown's own name


__all__ = ["Board", "BoardRow", "TableBoard", "Translate"]
