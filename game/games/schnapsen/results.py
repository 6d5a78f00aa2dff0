"""Schnapsen's sentences on the results screen (its rows are SchnapsenRules.result_lines):
how the deal was won, and why it is worth that many game points."""

from __future__ import annotations

from game.results import Board, Translate


def explain(b: Board, t: Translate, rules: object, ev: dict, names: dict[str, str]) -> None:
    d = ev["detail"]
    w = d["winner"]
    closer = d.get("closed_by")
    reason = d["reason"]
    # The subject changes the verb in nl/de/it: a "_you" message when it is the player.
    actor = closer if reason == "closed_lost" and closer is not None else w
    you = "_you" if b.mine == actor else ""
    b.headline = t(f"results.schnapsen.reason_{reason}{you}", name=b.subjects[actor])  # two players: team = seat
    gp = ev["points"][w]
    # Why this many game points: the loser's points and tricks (as recorded at the closure).
    if reason == "closed_lost":
        why = t(f"results.schnapsen.why_closed_lost_{3 if gp >= 3 else 2}")
    elif reason == "last_trick":
        why = t("results.schnapsen.why_last_trick")
    else:
        why = t("results.schnapsen." + {1: "why_33", 2: "why_under_33", 3: "why_no_trick"}.get(gp, "why_33"))
    b.notes.append(why)
    if reason == "closed_won":
        b.notes.append(t("results.schnapsen.closure_note"))
    for seat, p in enumerate(d.get("pending") or [0, 0]):
        if p:
            b.notes.append(t("results.schnapsen.pending", name=b.columns[seat], points=p))
