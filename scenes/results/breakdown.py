"""The results of a deal as plain rows: what the results screen shows, so tests can read it.

The rows are the game's own declaration (its rules class's ``result_lines``: which
``deal_end.detail`` value each row shows and how); a game that declares none still gets
the deal's points and the match totals. The sentences about a deal — who won it and why —
come from the game's optional part ``results`` (``game/games/<id>/results.py``, found by
game.registry.game_module) whose ``explain(b, t, rules, deal_end, names)`` may set the
headline, add notes or rows (``b.Row``, ``b.Cell``) or the split bar; it imports nothing from
scenes. No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from game.card_names import Translate
from game.registry import game_module
from game.rules.base import GameRules
from scenes.names import deck_names, team_names
from scenes.scene import AppServices

if TYPE_CHECKING:
    from game.services.session import Session

#: What a game without ``result_lines`` shows: its points and, in a match, the totals.
DEFAULT_LINES: tuple[dict[str, Any], ...] = (
    {"label": "results.deal_points", "cells": "@points", "kind": "total"},
    {"label": "results.match_total_to", "cells": "@totals", "kind": "match"},
)


@dataclass
class Cell:
    text: str = ""
    points: int | None = None  # points this line earned (drawn as a "+n" pill); None: no pill
    mark: bool = False  # a ✓ (the card is held)


@dataclass
class Row:
    label: str
    cells: list[Cell]
    kind: str = "line"  # line | total | match | bummerl


@dataclass
class Breakdown:
    columns: list[str]  # one per team (or player), in team order
    mine: int | None  # the human's team, highlighted
    rows: list[Row]
    headline: str = ""  # the deal's one-line verdict
    notes: list[str] = field(default_factory=list)
    bar: tuple[int, int] | None = None  # two card-point totals for the split bar (Briscola)
    subjects: list[str] = field(default_factory=list)  # the columns as a sentence's subject
    #: The columns as a subject after the sentence's first word ("Tu e il giocatore 3").
    within: list[str] = field(default_factory=list)
    #: The team each column shows (``viewer_first`` moves the player's own to the front).
    order: list[int] = field(default_factory=list)
    #: The row and cell types, for a game's explainer that adds rows.
    Row: ClassVar[type[Row]] = Row
    Cell: ClassVar[type[Cell]] = Cell


def _pts(v: Any) -> int | None:
    return v if v else None


def _values(key: str | None, ev: dict, n: int) -> list[object]:
    """One value per team: the deal's points, the match totals or a detail entry (0 if missing)."""
    if key is None:
        return [None] * n
    if key == "@points":
        return list(ev.get("points") or [0] * n)
    if key == "@totals":
        return list(ev.get("totals") or [0] * n)
    return list((ev.get("detail") or {}).get(key, [0] * n))


def _row(line: dict[str, Any], t: Translate, params: dict[str, Any], ev: dict, n: int, notes: list[str]) -> Row:
    label_params = dict(params)
    if line.get("suit"):
        label_params["suit"] = params.get(line["suit"], line["suit"])
    cells: list[Cell] = []
    if line.get("mark"):
        for v in _values(line["mark"], ev, n):
            cells.append(Cell("", _pts(v), mark=bool(v)))
    else:
        values = _values(line.get("cells"), ev, n)
        points = _values(line["points"], ev, n) if line.get("points") else [None] * n
        for v, p in zip(values, points):
            if v is None:
                text = "—"
            elif line.get("text"):
                text = t(line["text"], count=v) if v else "—"
            else:
                text = str(v)
            cells.append(Cell(text, _pts(p)))
        if line.get("none_note") and any(v is None for v in values):
            notes.append(t(line["none_note"]))
    return Row(t(line["label"], **label_params), cells, line.get("kind", "line"))


def seat_parts(t: Translate, rules: GameRules, lines: Sequence[dict], viewer: int | None) -> list[str] | None:
    """Each seat's part in the deal ("Caller", "Partner", "Defender"), from the rules' facts
    about seats over the deal's ``lines`` (its ``deal`` line to its ``deal_end``); None when
    the rules name no seat's part."""
    by_seat = {f.seat: t(f.label) for f in rules.table_facts(list(lines), viewer) if f.seat is not None}
    if not by_seat:
        return None
    return [by_seat.get(s, "—") for s in range(rules.players)]


def deal_lines(events: Sequence[dict], deal_end: dict) -> list[dict]:
    """The lines of the deal ``deal_end`` scores: from its ``deal`` line to it ([] when the
    record does not hold it)."""
    end = next((i for i, ev in enumerate(events) if ev is deal_end), None)
    if end is None:
        end = next((i for i, ev in enumerate(events) if ev == deal_end), None)
    if end is None:
        return []
    start = next((i for i in range(end, -1, -1) if events[i].get("event") == "deal"), None)
    return list(events[start : end + 1]) if start is not None else []


def explainer(game_id: str) -> ModuleType | None:
    """The game's part ``results`` (its sentences about a deal), or None when it has none."""
    return game_module(game_id, "results", optional=True)


def shown_lines(rules: GameRules, one_deal: bool = False) -> list[dict[str, object]]:
    """The game's results lines for this match: no match total for a single deal (the house
    rule, or ``one_deal``: a record of one deal), and a house rule's row only when that house
    rule is in force."""
    single = one_deal or rules.match_goal()[0] == "single"
    return [
        ln
        for ln in (rules.result_lines or DEFAULT_LINES)
        if not (ln.get("cells") == "@totals" and single)
        and not ((option := ln.get("option")) and not rules.options.get(str(option)))
    ]


def breakdown(
    t: Translate,
    rules: GameRules,
    deal_end: dict,
    human_seat: int | None,
    lang: str,
    one_deal: bool = False,
    names: list[str] | None = None,
    lines: Sequence[dict] | None = None,
) -> Breakdown:
    """The rows of the results table for one ``deal_end`` event (any game); ``one_deal``: the
    match is that deal alone (no match total); ``names``: the teams as the table names them
    when it names them its own way (an online table: friends by name, "Computer 3")."""
    cols = list(names) if names else team_names(t, rules.players, human_seat, team_of=rules.team_of)
    mine = None if human_seat is None else rules.team_of(human_seat)
    b = Breakdown(
        columns=cols,
        mine=mine,
        rows=[],
        subjects=list(names) if names else team_names(t, rules.players, mine, subject=True, team_of=rules.team_of),
        within=list(names) if names else team_names(t, rules.players, mine, within=True, team_of=rules.team_of),
    )
    deck_words = deck_names(rules.deck, lang)
    goal, value = rules.match_goal()
    params = {**deck_words, "target": value, "count": value}
    n = len(cols)
    for line in shown_lines(rules, one_deal):
        b.rows.append(_row(line, t, params, deal_end, n, b.notes))
    parts = seat_parts(t, rules, lines, human_seat) if lines and n == rules.players else None
    if parts is not None:  # who played with whom, where the sides are the deal's (a called partner)
        b.rows.insert(0, Row(t("results.parts"), [Cell(p) for p in parts]))
    module = explainer(rules.game_id)
    if module is not None:
        module.explain(b, t, rules, deal_end, deck_words)
    left = deal_end.get("leftover")
    if left and rules.is_capture_game:
        b.notes.append(t("results.leftover", count=len(left.get("cards", [])), team=cols[left["team"]]))
    return b


def viewer_first(b: Breakdown) -> Breakdown:
    """``b`` with the player's own side in the first column, the others after it in team
    order (a duplicate's second half, a second seat online: "You | North", never "North |
    You"); ``b.order`` names each column's team. Done after the game's sentences, which
    speak of teams by number."""
    n = len(b.columns)
    b.order = list(range(n))
    if b.mine is None or not 0 < b.mine < n:
        return b
    order = [b.mine, *(t for t in range(n) if t != b.mine)]
    b.columns = [b.columns[t] for t in order]
    if len(b.subjects) == n:
        b.subjects = [b.subjects[t] for t in order]
    if len(b.within) == n:
        b.within = [b.within[t] for t in order]
    for row in b.rows:
        if len(row.cells) == n:
            row.cells = [row.cells[t] for t in order]
    if b.bar is not None and n == 2:
        b.bar = (b.bar[order[0]], b.bar[order[1]])
    b.mine, b.order = 0, order
    return b


MATCH_VERDICTS = {
    "draw": "results.match_draw",
    "won": "results.match_won",
    "won_team": "results.match_won_team",
    "lost": "results.match_lost",
    "lost_team": "results.match_lost_team",
}
ONE_DEAL_VERDICTS = {
    "draw": "one_deal.deal_draw",
    "won": "one_deal.deal_won",
    "won_team": "one_deal.deal_won_team",
    "lost": "one_deal.deal_lost",
    "lost_team": "one_deal.deal_lost_team",
}


def match_verdict(
    t: Translate,
    rules: GameRules,
    match_end: dict,
    human_seat: int | None,
    columns: list[str],
    one_deal: bool = False,
    names: list[str] | None = None,
) -> tuple[str, str]:
    """(title, tone) for the match result; tone is win, loss or draw. ``one_deal``: the match
    was one deal (a daily deal, a duplicate half, the single-deal house rule), said as the
    deal's outcome (``one_deal.*``) rather than a match's."""
    k = ONE_DEAL_VERDICTS if one_deal else MATCH_VERDICTS
    w = match_end.get("winner")
    if w is None:
        return t(k["draw"]), "draw"
    if human_seat is not None and rules.team_of(human_seat) == w:
        return t(k["won_team"] if rules.partnerships else k["won"]), "win"
    if rules.partnerships and human_seat is not None:
        return t(k["lost_team"]), "loss"
    subjects = list(names) if names else team_names(t, rules.players, human_seat, subject=True, team_of=rules.team_of)
    return t(k["lost"], name=subjects[w]), "loss"


def is_one_deal(rules: GameRules, events: list[dict]) -> bool:
    """Whether the match is a single deal: the house rule, or a record limited to one deal
    (its match line's ``deals: 1``: a daily deal, a duplicate half)."""
    head = events[0] if events else {}
    return rules.match_goal()[0] == "single" or head.get("deals") == 1


def demo(
    app: AppServices,
    game: str,
    deck: str | None,
    players: int | None,
    to_match_end: bool,
    seed: int = 11,
    options: dict | None = None,
) -> tuple[Session, dict, dict | None]:
    """Play a match headless with bots up to its first deal_end (or its match_end)."""
    from game.services.session import Session

    saved = dict(app.settings.game_options.get(game, {}))
    kept = saved.pop("players", None)
    n = players or (kept if isinstance(kept, int) else None)
    if options is not None:
        saved.update(options)
    s = Session.new(game, deck, n, saved or None, seed, human_seat=None, bot_name="greedy", threaded=False)
    s.start()
    deal_end = match_end = None
    while not s.over:
        s.poll()
        for ev in s.take_events():
            if ev["event"] == "deal_end":
                deal_end = ev
            elif ev["event"] == "match_end":
                match_end = ev
        if deal_end is not None and not to_match_end:
            break
    for ev in s.take_events():
        if ev["event"] == "deal_end" and deal_end is None:
            deal_end = ev
        elif ev["event"] == "match_end":
            match_end = ev
    if deal_end is None:  # every match deals at least once
        raise RuntimeError(f"the demo {game} match ended without a deal")
    s.human_seat = 0  # shown from seat 0's chair
    return s, deal_end, match_end


__all__ = [
    "Cell",
    "Row",
    "Breakdown",
    "breakdown",
    "viewer_first",
    "match_verdict",
    "is_one_deal",
    "demo",
    "explainer",
    "DEFAULT_LINES",
]
