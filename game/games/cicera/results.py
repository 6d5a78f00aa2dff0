"""Cìcera's sentences on the results screen (its rows are CiceraRules.result_lines)."""

from __future__ import annotations

from game.results import Board, Translate


def explain(b: Board, t: Translate, rules: object, ev: dict, names: dict[str, str]) -> None:
    if ev["detail"].get("no_capture"):
        b.headline = t("results.cicera.no_capture")
