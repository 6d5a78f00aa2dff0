"""Game records, format 1 (../shared/RECORD.md): UTF-8 JSON Lines, one event per line.

Every line goes through the one hardened JSON reader (game.safejson: size and depth limits,
duplicate keys and NaN refused) and then through a shape check with exact types: a seat is a
whole number, never ``true`` or ``-0.0``; a card is a text; a hand a list of texts. A record
is read one line at a time (:class:`RecordStream`), so the verdict on a bad line 7 never
waits for line 8 of a 100 MB file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from game.events import declared_events
from game.registry import rules_class
from game.rules.common import MATCH
from game.rules.vocabulary import EventKind, Field
from game.safejson import JSONError, is_int, iter_lines, kind, loads, open_regular, text_encoder

if TYPE_CHECKING:
    from game.rules.base import GameRules

Event = dict[str, Any]

FORMAT = 1
#: Limits of one record line: a real deal line is about 1 KB and nests 3 deep.
MAX_LINE = 1024 * 1024
MAX_DEPTH = 32

#: The record reader's check for each declared field type (game.rules.vocabulary.Field):
#: "int" is a whole number (not true/false, not 1.0), "text" a string, "texts" a list of
#: strings, "card_lists" a list of such lists, "ints" a list of whole numbers, "object" a JSON
#: object; a nullable field also allows null. A card is only a text here: whether it is a
#: card of the deck is the rules' judgement (they name the rule). Fields a reader must not
#: judge (``detail``) are "any".
_RECORD_TYPE: dict[str, str] = {
    "card": "text",
    "cards": "texts",
    "str": "text",
    "str_list": "texts",
    "int": "int",
    "seat": "int",
    "int_list": "ints",
    "card_lists": "card_lists",
    "seed": "seed",
    "leftover": "leftover",
    "object": "object",
    "bool": "bool",
    "any": "any",
}


def record_type(f: Field) -> str:
    """The record reader's check for a declared field (see :data:`_RECORD_TYPE`)."""
    return _RECORD_TYPE[f.type] + ("?" if f.nullable else "")


#: No number in a record is anywhere near this; larger ones are damage (and would make
#: every later sum slow).
MAX_NUMBER = 2**63
#: A match seed may be wider: the club deals from 128 bits of secrets (any whole number from 0
#: below this is a seed random.Random takes whole).
MAX_SEED = 2**512


class RecordFormatError(ValueError):
    """A malformed record line: ``line`` is 1-based. ``damaged``: the line is not one JSON
    object this program can read at all (cut, not JSON, over the limits), rather than a JSON
    object that breaks the record format."""

    def __init__(self, line: int | None, reason: str, damaged: bool = False):
        self.line = line
        self.reason = reason
        self.damaged = damaged
        super().__init__(f"line {line}: {reason}" if line else reason)


#: One record line's text (``json.dumps(event, ensure_ascii=False, separators=(", ", ": "))``,
#: the same bytes), its encoder made once: the club server writes a line per decision.
dumps: Callable[[Event], str] = text_encoder((", ", ": "))


def write_record(path: str | os.PathLike, events: list[Event], overwrite: bool = True) -> None:
    """Write atomically: a half-written record never replaces a good one. The temporary file
    is made by tempfile in the target folder (never a fixed name a planted link could
    redirect); a symbolic link at ``path`` is refused, and so is an existing file unless
    ``overwrite``. Raises OSError (FileExistsError) with the reason."""
    from game.services.storage import write_bytes

    text = "".join(dumps(ev) + "\n" for ev in events)
    problem = write_bytes(Path(path), text.encode("utf-8"), overwrite=overwrite)
    if problem:
        raise OSError(problem)


def _check_type(value: Any, want: str, kind_name: str, name: str, line: int | None) -> None:
    ok = True
    if want.endswith("?"):
        if value is None:
            return
        want = want[:-1]
    if want == "any":
        return
    if want == "int":
        ok = is_int(value) and -MAX_NUMBER < value < MAX_NUMBER
    elif want == "seed":
        ok = is_int(value) and 0 <= value < MAX_SEED
    elif want == "text":
        ok = isinstance(value, str)
    elif want == "bool":
        ok = isinstance(value, bool)
    elif want == "object":
        ok = isinstance(value, dict)
    elif want == "texts":
        ok = isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value)
    elif want == "ints":
        ok = isinstance(value, (list, tuple)) and all(is_int(x) and -MAX_NUMBER < x < MAX_NUMBER for x in value)
    elif want == "card_lists":
        ok = isinstance(value, (list, tuple)) and all(
            isinstance(h, (list, tuple)) and all(isinstance(x, str) for x in h) for h in value
        )
    elif want == "leftover":
        ok = value is None or (
            isinstance(value, dict)
            and (value.get("team") is None or is_int(value.get("team")))
            and isinstance(value.get("cards", []), (list, tuple))
            and all(isinstance(x, str) for x in value.get("cards", []))
        )
    if not ok:
        wanted = {
            "int": "a whole number",
            "seed": "a whole number from 0 (below 2^512)",
            "text": "a text",
            "bool": "true or false",
            "object": "an object",
            "texts": "a list of texts",
            "ints": "a list of whole numbers",
            "card_lists": "a list of lists of card codes",
            "leftover": "null or an object with 'team' and 'cards'",
        }[want]
        raise RecordFormatError(line, f"'{kind_name}' field '{name}' must be {wanted}, not {_shown(value)}")


def _shown(value: object) -> str:
    if isinstance(value, (list, dict)):
        return kind(value)
    text = json.dumps(value)
    return text if len(text) <= 40 else kind(value)


def check_event(ev: object, line: int, rules_cls: type[GameRules] | None) -> type[GameRules]:
    """Shape-check one event (line ``line``; ``rules_cls`` None for the first line) and
    return the record's rules class. Raises RecordFormatError."""
    if not isinstance(ev, dict):
        raise RecordFormatError(line, "a line must be a JSON object", damaged=True)
    event_kind = ev.get("event")
    known = declared_events()
    if not isinstance(event_kind, str) or event_kind not in known:
        raise RecordFormatError(line, f"unknown event type {_shown(event_kind)}")
    if rules_cls is None:
        if event_kind != MATCH.name:
            raise RecordFormatError(line, f"the first line must be the {MATCH.name!r} event, not {event_kind!r}")
        fmt = ev.get("format")
        if not is_int(fmt) or fmt != FORMAT:
            raise RecordFormatError(line, f"this record is format {_shown(fmt)}; this program reads format {FORMAT}")
        game = ev.get("game")
        try:
            rules_cls = rules_class(game) if isinstance(game, str) else None
        except ValueError:
            rules_cls = None
        if rules_cls is None:
            raise RecordFormatError(line, f"unknown game {_shown(game)}")
    elif event_kind == MATCH.name:
        raise RecordFormatError(line, f"a second {MATCH.name!r} line")
    declared: EventKind | None = rules_cls.vocabulary.event(event_kind)
    kind = declared or known[event_kind]
    required = [f for f in kind.fields if not f.optional]
    missing = [f.name for f in required if f.name not in ev]
    if missing:
        raise RecordFormatError(
            line, f"'{event_kind}' event lacks field{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        )
    if declared is None:
        raise RecordFormatError(line, f"a '{event_kind}' event does not occur in {rules_cls.game_id}")
    for f in required:
        _check_type(ev[f.name], record_type(f), event_kind, f.name, line)
    return rules_cls


def parse_line(raw: str, line: int) -> Any:
    """One record line through the hardened reader; RecordFormatError(damaged) if refused."""
    if not raw.strip():
        raise RecordFormatError(line, "empty line (each line must hold one JSON object)", damaged=True)
    try:
        return loads(raw, max_bytes=MAX_LINE, max_depth=MAX_DEPTH)
    except JSONError as e:
        reason = f"field '{e.field}': {e.problem}" if e.field else e.problem
        if reason.startswith("not valid JSON"):
            reason += "; the line may be truncated"
        raise RecordFormatError(line, reason, damaged=True) from None


class RecordStream:
    """The events of a record, parsed and shape-checked one line at a time, only as far as
    the reader asks (:meth:`get`). Raises RecordFormatError from :meth:`get` when the line
    asked for (or one before it) is bad. Events the reader is done with can be forgotten
    (:meth:`forget_before`), so a long file is verified in constant memory."""

    def __init__(self, lines: Iterable[tuple[int, str]]):
        self._lines: Iterator[tuple[int, str]] = iter(lines)
        self._events: dict[int, Event] = {}
        self._count = 0
        self._ended = False
        self.rules_cls: type[GameRules] | None = None
        self.head: Event | None = None
        #: The last line read so far (an internal error's verdict names it) and its event.
        self.last_line = 0
        self.last_event: Event | None = None

    def _read_one(self) -> None:
        try:
            number, raw = next(self._lines)
            self.last_line = number
        except StopIteration:
            self._ended = True
            return
        except JSONError as e:  # a line over the limits or not UTF-8
            self._ended = True
            raise RecordFormatError(e.line or self._count + 1, e.problem, damaged=True) from None
        except OSError as e:  # a read error (EIO, a file on a disk going bad): damaged, never a bug
            self._ended = True
            raise RecordFormatError(self._count + 1, f"cannot read the file: {e.strerror or e}", damaged=True) from None
        ev = parse_line(raw, number)
        self.rules_cls = check_event(ev, number, self.rules_cls)
        if self.head is None:
            self.head = ev
        self.last_event = ev
        self._events[self._count] = ev
        self._count += 1

    def get(self, i: int) -> Event | None:
        """Event ``i`` (0-based; line i + 1), or None past the end of the record."""
        while i >= self._count and not self._ended:
            self._read_one()
        if i == 0 and self.head is not None:
            return self.head
        return self._events.get(i)

    def ended_at(self) -> int:
        """How many events the record holds (reads to its end)."""
        while not self._ended:
            self._read_one()
        return self._count

    def forget_before(self, i: int) -> None:
        for k in [k for k in self._events if k < i]:
            del self._events[k]


class EventList:
    """A list of events (a match in memory) with the same interface as RecordStream: each
    event is shape-checked when it is first asked for."""

    def __init__(self, events: list[Event]):
        self._events = events
        self._checked = 0
        self.rules_cls: type[GameRules] | None = None

    @property
    def last_line(self) -> int:
        return self._checked

    @property
    def last_event(self) -> Event | None:
        return self._events[-1] if self._events else None

    def get(self, i: int) -> Event | None:
        while self._checked <= i and self._checked < len(self._events):
            self.rules_cls = check_event(self._events[self._checked], self._checked + 1, self.rules_cls)
            self._checked += 1
        return self._events[i] if 0 <= i < len(self._events) else None

    @property
    def head(self) -> Event | None:
        return self.get(0)

    def ended_at(self) -> int:
        return len(self._events)

    def forget_before(self, i: int) -> None:
        pass


def parse_lines(lines: list[str]) -> list[Event]:
    """Parse JSON Lines, checking each line's shape. Raises RecordFormatError with the line.
    A last line that is empty (the file's final newline) is allowed."""
    if lines and not lines[-1].strip():
        lines = lines[:-1]
    stream = RecordStream((i, raw) for i, raw in enumerate(lines, start=1))
    n = stream.ended_at()
    if not n:
        raise RecordFormatError(None, "the record is empty", damaged=True)
    return _all_events(stream, n)


def _all_events(stream: RecordStream, n: int) -> list[Event]:
    """The ``n`` events of a stream read to its end (each one is kept: none was forgotten)."""
    out: list[Event] = []
    for i in range(n):
        ev = stream.get(i)
        if ev is None:
            raise RecordFormatError(i + 1, "the line was read but is not kept", damaged=True)
        out.append(ev)
    return out


def open_record(path: str | os.PathLike) -> tuple[BinaryIO, RecordStream]:
    """(binary file, stream of its events): the file must be a regular file (a FIFO or a
    device is refused). Raises OSError or JSONError; the caller closes the file."""
    f = open_regular(path)
    return f, RecordStream(iter_lines(f, file=Path(path).name, max_line=MAX_LINE))


def read_record(path: str | os.PathLike) -> list[Event]:
    """Read and shape-check a record file. Raises RecordFormatError (or OSError)."""
    try:
        f, stream = open_record(path)
    except JSONError as e:
        raise RecordFormatError(None, e.problem, damaged=True) from None
    with f:
        n = stream.ended_at()
        if not n:
            raise RecordFormatError(None, "the record is empty", damaged=True)
        return _all_events(stream, n)
