"""Briscola's sentences on the results screen (its rows are BriscolaRules.result_lines): who
won the deal, and the 120 card points as one split bar."""

from __future__ import annotations

from game.results import Board, Translate


def explain(b: Board, t: Translate, rules: object, ev: dict, names: dict[str, str]) -> None:
    d = ev["detail"]
    w = d.get("deal_winner")
    b.headline = (
        t("results.briscola.draw")
        if w is None
        else t("results.briscola.won", name=b.columns[w], points=d["card_points"][w])
    )
    b.bar = (d["card_points"][0], d["card_points"][1])
