"""Briscola chiamata's sentences on the results screen (its rows are ChiamataRules.result_lines):
who called which card, with whom, whether the contract was made, and the caller's side
against the defenders as one split bar; a thrown-in deal says so."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol


class Board(Protocol):
    """The part of the results screen's breakdown (scenes.results.breakdown.Breakdown) this
    explainer fills."""

    headline: str
    bar: tuple[int, int] | None
    subjects: list[str]
    notes: list[str]


def explain(b: Board, t: Callable[..., str], rules: object, ev: Mapping[str, object], names: dict[str, str]) -> None:
    d = ev.get("detail")
    detail = d if isinstance(d, dict) else {}
    caller, partner, called = detail.get("caller"), detail.get("partner"), detail.get("called")
    if not isinstance(caller, int) or not isinstance(partner, int):
        b.headline = t("results.chiamata.thrown_in")
        return
    won = detail.get("won") is True
    alone = partner == caller
    key = ("made" if won else "lost") + ("_alone" if alone else "")
    split = detail.get("card_points")
    side, others = split if isinstance(split, list) and len(split) == 2 else (0, 0)
    b.headline = t(
        f"results.chiamata.{key}",
        name=b.subjects[caller],
        partner=b.subjects[partner],
        card=called,
        points=side,
    )
    b.bar = (int(side), int(others))
    if side in (0, others + side) and getattr(rules, "cappotto", False):
        b.notes.append(t("results.chiamata.cappotto"))


__all__ = ["Board", "explain"]
