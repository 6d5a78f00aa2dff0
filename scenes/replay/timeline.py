"""A record laid out for the viewer: its events, how far they can be shown, and what the table
shows after any number of them — the table model (scenes.table.model, the same functions the
table uses) and the captions (scenes.table.narrate) — with no pygame.

A record comes from a file (:func:`from_file`), a text (:func:`from_text`) or a match in
memory (:func:`from_events`, and :meth:`Timeline.extend` while a watched match goes on). It
is judged by the referee (game.verify) and read line by line through the hardened reader
(game.record): the viewer shows the lines up to the first one that cannot be shown. A line
that breaks a rule is still a well-formed event, so it can be shown (it is where the record
breaks, marked as such); a line that is not one JSON event (cut, not JSON, a bad shape) ends
what can be shown before it.

A *position* is how many lines are shown: 1 is the ``match`` line alone, ``limit`` the last
line that can be shown. The model after ``p`` lines is rebuilt from a checkpoint kept every
:data:`CHECKPOINT` lines, so stepping back costs no more than stepping forward.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.record import RecordFormatError, RecordStream, open_record
from game.rulesets import make_rules
from game.safejson import JSONError
from game.verify import Verdict, verify_events, verify_file, verify_text
from scenes.table import model as M
from scenes.table.narrate import Line, Narrator

CHECKPOINT = 32
#: More lines than any real match has (a long Schnapsen match is some 2,000): a longer file
#: is shown up to here, and says so.
MAX_EVENTS = 200_000


@dataclass
class Break:
    """Where and why a record stops being a good one: verify's verdict in one line."""

    message: str
    line: int | None
    damaged: bool


def clone(m: M.TableModel) -> M.TableModel:
    """A copy of a table model whose lists can change on their own (``__post_init__`` would
    clear the deal, so it is copied, not rebuilt)."""
    c = copy.copy(m)
    c.hands = [list(h) for h in m.hands]
    c.table, c.trick = list(m.table), list(m.trick)
    for name in ("piles", "bonus_count", "card_points", "won_cards", "declared_points", "pending", "totals"):
        setattr(c, name, list(getattr(m, name)))
    return c


class Timeline:
    """The events of one record and the table after each prefix of them.

    ``problem`` is set when the record is not a good one (verify's verdict, or a line the
    table cannot show); ``limit`` is the last position that can be shown."""

    #: Names that replace the narrator's words for some seats (a watched club table's players).
    given: dict[int, str] = {}

    def __init__(self, events: list[dict], verdict: Verdict | None, name: str = "", live: bool = False):
        self.name = name
        self.events: list[dict] = list(events)
        self.live = live
        self.rules: Any = None
        self.problem: Break | None = None
        if verdict is not None and not verdict.ok:
            self.problem = Break(verdict.message, verdict.line, verdict.damaged)
        head = self.events[0] if self.events else None
        if head is not None:
            try:
                self.rules = make_rules(head["game"], head["deck"], head["players"], head["options"])
            except (KeyError, TypeError, ValueError) as e:
                if self.problem is None:
                    self.problem = Break(f"match: {e}", 1, False)
        self.limit = 0
        self._checkpoints: list[M.TableModel] = []
        self._narrators: dict[tuple[str, int | None], tuple[Narrator, list[Line | None]]] = {}
        self._stuck = False
        if self.rules is not None:
            self._checkpoints.append(M.new_model(self.rules, 0))
            self._tip = clone(self._checkpoints[0])  # the model after ``limit`` lines
            self._grow()

    # ------------------------------------------------------------------ how far
    @property
    def first(self) -> int:
        """The first position shown: the match line (0 when nothing can be shown)."""
        return min(1, self.limit)

    @property
    def break_line(self) -> int | None:
        return self.problem.line if self.problem is not None else None

    def _grow(self) -> None:
        """Extend ``limit`` over the new events that can be shown: each must apply to the model
        (a line the model cannot take, e.g. a seat that is not one, ends it there)."""
        cap = len(self.events)
        k = self.break_line
        if k is not None:
            cap = min(cap, k)
        cap = min(cap, MAX_EVENTS)
        while self.limit < cap and not self._stuck:
            m = self._tip
            try:
                M.apply_event(m, self.events[self.limit])
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
                # The model may be half changed: nothing more is applied to it.
                self._stuck = True
                if self.problem is None:
                    self.problem = Break(f"this line cannot be shown ({type(e).__name__})", self.limit + 1, False)
                return
            self.limit += 1
            if self.limit % CHECKPOINT == 0 and len(self._checkpoints) == self.limit // CHECKPOINT:
                self._checkpoints.append(clone(m))

    def extend(self, events: list[dict]) -> None:
        """A watched match goes on: its new events join the timeline."""
        if not events:
            return
        if self.rules is None:
            Timeline.__init__(self, self.events + list(events), None, self.name, self.live)  # the match line came late
            return
        self.events.extend(events)
        self._grow()

    @property
    def finished(self) -> bool:
        """The record ends with its match_end (and all of it can be shown)."""
        return bool(self.events) and self.limit == len(self.events) and self.events[-1].get("event") == "match_end"

    # ------------------------------------------------------------------ the table
    def model_at(self, p: int) -> M.TableModel:
        """The table after ``p`` lines (0 ≤ p ≤ limit; p beyond is clamped)."""
        p = max(0, min(p, self.limit))
        i = min(p // CHECKPOINT, len(self._checkpoints) - 1)
        m = clone(self._checkpoints[i])
        for ev in self.events[i * CHECKPOINT : p]:
            M.apply_event(m, ev)
        return m

    def deal_starts(self) -> list[int]:
        """The positions whose last line is a ``deal`` (Page Up / Page Down go there)."""
        return [i + 1 for i, ev in enumerate(self.events[: self.limit]) if ev.get("event") == "deal"]

    def deal_of(self, p: int) -> tuple[int, int]:
        """(the deal's number, how many deals) at position ``p``: the deal under way."""
        starts = self.deal_starts()
        shown = [s for s in starts if s <= p]
        numbers = [self.events[s - 1].get("number") for s in starts]
        count = len({n for n in numbers if n is not None}) or len(starts)
        if not shown:
            return 0, count
        n = self.events[shown[-1] - 1].get("number")
        return (n if isinstance(n, int) else len(shown)), count

    def actor(self, p: int) -> int | None:
        """The seat that acted in line ``p`` (its plate lights), if a seat did."""
        if not 1 <= p <= self.limit:
            return None
        ev = self.events[p - 1]
        seat = ev.get("seat", ev.get("winner") if ev.get("event") == "trick" else None)
        return seat if isinstance(seat, int) and self.rules is not None and 0 <= seat < self.rules.players else None

    # ------------------------------------------------------------------ the words
    def lines(self, t: Callable[..., str], lang: str, viewer: int | None) -> list[Line | None]:
        """Per shown line, what the narrator told of it (None: nothing), for ``viewer``'s
        eyes in ``lang``: told once, then only the new lines of a watched match."""
        key = (lang, viewer)
        told = self._narrators.get(key)
        if told is None:
            told = (Narrator(self.rules, t, lang, viewer), [])
            told[0].given = dict(self.given)
            self._narrators[key] = told
        narrator, out = told
        while len(out) < self.limit:
            try:
                out.append(narrator.feed(self.events[len(out)]))
            except Exception:  # noqa: BLE001 - a broken line is told as nothing, never a crash
                out.append(None)
        return out

    def caption_at(self, p: int, t: Callable[..., str], lang: str, viewer: int | None) -> str | None:
        """The caption after ``p`` lines: the last told play of the deal so far."""
        told = self.lines(t, lang, viewer)
        for i in range(min(p, len(told)) - 1, -1, -1):
            ev = self.events[i]
            line = told[i]
            if line is not None and line.caption:
                return line.caption
            if ev.get("event") == "deal":
                break
        return None

    def shown(self, p: int) -> list[dict]:
        """The lines shown at position ``p`` (what the log, review and score sheet are told)."""
        return self.events[: max(0, min(p, self.limit))]


# ---------------------------------------------------------------------- opening records
def _read(stream: RecordStream) -> tuple[list[dict], str | None]:
    """Every event the stream can give, up to the first bad line (whose reason comes back)."""
    out: list[dict] = []
    try:
        while len(out) < MAX_EVENTS:
            ev = stream.get(len(out))
            if ev is None:
                return out, None
            out.append(ev)
    except RecordFormatError as e:
        return out, str(e)
    except (JSONError, OSError) as e:
        return out, str(e)
    return out, f"only the first {MAX_EVENTS} lines are shown"


def from_file(path: str | Path) -> Timeline:
    """A record file, judged by verify and read as far as it can be shown. Never raises."""
    path = Path(path)
    verdict = verify_file(str(path))
    events: list[dict] = []
    try:
        f, stream = open_record(path)
    except (OSError, JSONError):
        pass  # the verdict says why (a folder, a FIFO, no such file)
    else:
        with f:
            events, _ = _read(stream)
    return Timeline(events, verdict, path.name)


def from_text(text: str, name: str = "") -> Timeline:
    """A record given as text (tests, a pasted record)."""
    verdict = verify_text(text)
    lines = text.split("\n")
    if lines and not lines[-1].strip():
        lines.pop()
    events, _ = _read(RecordStream(enumerate(lines, start=1)))
    return Timeline(events, verdict, name)


def from_events(events: list[dict], name: str = "", live: bool = False, verdict: Verdict | None = None) -> Timeline:
    """A match in memory (the results screen's, a watched one). A finished match is judged
    by verify; a live one is the rules' own making as it is played."""
    if verdict is None and not live:
        verdict = verify_events(list(events))
    return Timeline(list(events), verdict, name, live=live)


__all__ = ["Timeline", "Break", "CHECKPOINT", "clone", "from_file", "from_text", "from_events"]
