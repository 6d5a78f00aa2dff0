"""Game records, format 1 (../shared/RECORD.md): UTF-8 JSON Lines, one event per line."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from game.registry import rules_class

Event = dict[str, Any]

FORMAT = 1

#: Required fields per event type (every game). Game-specific ones are checked by REQUIRED_BY_GAME.
REQUIRED: dict[str, tuple[str, ...]] = {
    "match": ("format", "game", "deck", "players", "seed", "options"),
    "deal": ("number", "dealer", "hands", "table", "stock", "trump"),
    "redeal": ("reason",),
    "hands": ("hands",),
    "play": ("seat", "card"),
    "trick": ("winner", "cards", "points"),
    "draw": ("seat", "card"),
    "exchange": ("seat", "gave", "took"),
    "marriage": ("seat", "suit", "points"),
    "close": ("seat",),
    "deal_end": ("number", "leftover", "points", "totals", "detail"),
    "match_end": ("winner", "totals"),
}
#: Events every game writes; each game's own ones are its rules class's ``record_events``.
COMMON_EVENTS: tuple[str, ...] = ("match", "deal", "play", "deal_end", "match_end")


class RecordFormatError(ValueError):
    """A malformed record line: ``line`` is 1-based."""

    def __init__(self, line: int | None, reason: str):
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}" if line else reason)


def dumps(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(", ", ": "))


def write_record(path: str | os.PathLike, events: list[Event]) -> None:
    """Write atomically: a half-written record never replaces a good one."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for ev in events:
            f.write(dumps(ev) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)


def parse_lines(lines: list[str]) -> list[Event]:
    """Parse JSON Lines, checking each line's shape. Raises RecordFormatError with the line."""
    events: list[Event] = []
    rules_cls = None
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            if i == len(lines):
                continue
            raise RecordFormatError(i, "empty line (each line must hold one JSON object)")
        try:
            ev = json.loads(raw)
        except json.JSONDecodeError as e:
            raise RecordFormatError(i, f"not valid JSON ({e.msg} at column {e.colno}); the line may be truncated") from None
        if not isinstance(ev, dict):
            raise RecordFormatError(i, "a line must be a JSON object")
        kind = ev.get("event")
        if kind not in REQUIRED:
            raise RecordFormatError(i, f"unknown event type {kind!r}")
        if i == 1:
            if kind != "match":
                raise RecordFormatError(i, f"the first line must be the 'match' event, not {kind!r}")
            fmt = ev.get("format")
            if fmt != FORMAT:
                raise RecordFormatError(i, f"this record is format {fmt!r}; this program reads format {FORMAT}")
            game = ev.get("game")
            try:
                rules_cls = rules_class(game) if isinstance(game, str) else None
            except ValueError:
                rules_cls = None
            if rules_cls is None:
                raise RecordFormatError(i, f"unknown game {game!r}")
        elif kind == "match":
            raise RecordFormatError(i, "a second 'match' line")
        missing = [f for f in REQUIRED[kind] if f not in ev]
        if kind == "play" and rules_cls.family == "capture":
            missing += [f for f in ("capture", "bonuses") if f not in ev]
        if missing:
            raise RecordFormatError(i, f"'{kind}' event lacks field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
        if kind not in COMMON_EVENTS and kind not in rules_cls.record_events:
            raise RecordFormatError(i, f"a '{kind}' event does not occur in {rules_cls.game_id}")
        events.append(ev)
    if not events:
        raise RecordFormatError(None, "the record is empty")
    return events


def read_record(path: str | os.PathLike) -> list[Event]:
    """Read and shape-check a record file. Raises RecordFormatError (or OSError)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordFormatError(None, "not UTF-8 text") from None
    return parse_lines(text.split("\n"))
