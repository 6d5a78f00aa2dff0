"""Cìcera's sentences on the results screen (its rows are CiceraRules.result_lines)."""

from __future__ import annotations

from typing import Any


def explain(b: Any, t: Any, rules: Any, ev: dict, names: dict[str, str]) -> None:
    if ev["detail"].get("no_capture"):
        b.headline = t("results.cicera.no_capture")
