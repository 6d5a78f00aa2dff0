"""Tressette's sentences and cells on the results screen (its rows are
TressetteRules.result_lines): the thirds shown as points and thirds ("5 ⅔"), the whole points
they make, the last trick's point, why every deal is worth 11."""

from __future__ import annotations

from game.games.tressette.rules import TressetteRules, thirds_text
from game.results import TableBoard, Translate


def explain(b: TableBoard, t: Translate, rules: TressetteRules, ev: dict, names: dict[str, str]) -> None:
    d = ev.get("detail") or {}
    thirds = list(d.get("thirds") or [0] * len(b.columns))
    last = d.get("last_trick")
    label = t("results.tressette.thirds", **names)
    for row in b.rows:
        if row.label == label:
            # The values count thirds: show them as a player counts them ("5 ⅔").
            row.cells = [b.Cell(thirds_text(v)) for v in thirds]
    at = next((i for i, row in enumerate(b.rows) if row.label == label), -1) + 1
    whole = [v // 3 for v in thirds]
    pts = rules.last_trick_points
    b.rows[at:at] = [
        b.Row(t("results.tressette.whole_points"), [b.Cell(str(w), w or None) for w in whole]),
        b.Row(
            t("results.tressette.last_trick"),
            [b.Cell("", pts if team == last else None, mark=team == last) for team in range(len(b.columns))],
        ),
    ]
    if last is not None:
        if rules.partnerships and b.mine is not None:
            key = "last_trick_by_team" if last == b.mine else "last_trick_by_them"
            b.headline = t(f"results.tressette.{key}")
        elif b.mine is not None and last == b.mine:
            b.headline = t("results.tressette.last_trick_by_you")
        else:
            b.headline = t("results.tressette.last_trick_by", name=b.subjects[last])
    b.notes.append(t("results.tressette.why_thirds", **names))
    b.notes.append(t("results.tressette.why_11"))
