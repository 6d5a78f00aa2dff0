"""Briscola chiamata's sentences on the results screen (its rows are ChiamataRules.result_lines):
who called which card, with whom, whether the contract was made, and the caller's side
against the defenders as one split bar; a thrown-in deal says so. Also the role each seat
played in a deal, for the statistics (``ROLES``, :func:`role_of`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol


class Board(Protocol):
    """The part of the results screen's breakdown (scenes.results.breakdown.Breakdown) this
    explainer fills."""

    mine: int | None
    headline: str
    bar: tuple[int, int] | None
    subjects: list[str]
    within: list[str]
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
    # The player's own side is said as "you" (its verb agrees: "Tu e Est fate"), the other
    # seat named after it in its mid-sentence form ("Tu e il giocatore 3").
    you = b.mine is not None and b.mine in (caller, partner)
    other = partner if b.mine == caller else caller
    key = ("made" if won else "lost") + ("_alone" if alone else "") + ("_you" if you else "")
    split = detail.get("card_points")
    side, others = split if isinstance(split, list) and len(split) == 2 else (0, 0)
    b.headline = t(
        f"results.chiamata.{key}",
        name=b.subjects[caller],
        partner=b.within[other if you else partner],
        card=called,
        points=side,
    )
    b.bar = (int(side), int(others))
    if side in (0, others + side) and getattr(rules, "cappotto", False):
        b.notes.append(t("results.chiamata.cappotto"))


#: The roles a seat plays in a deal, in the order the statistics show them (their words are
#: ``stats.role.<role>``). A caller playing alone is a caller.
ROLES: tuple[str, ...] = ("caller", "partner", "defender")


def role_of(deal_end: Mapping[str, object], seat: int) -> str | None:
    """``seat``'s role in the deal a ``deal_end`` line scores (RECORD.md's detail: the caller
    and the partner); None for a thrown-in deal, where nobody played."""
    d = deal_end.get("detail")
    detail = d if isinstance(d, dict) else {}
    caller, partner = detail.get("caller"), detail.get("partner")
    if not isinstance(caller, int) or not isinstance(partner, int):
        return None
    if seat == caller:
        return "caller"
    return "partner" if seat == partner else "defender"


__all__ = ["ROLES", "Board", "explain", "role_of"]
