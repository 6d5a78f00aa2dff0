"""The referee: replay a record through the rules core and report the first broken rule.

Decisions (the kinds the game declares: its rules' ``decision_kinds``) are checked for
legality; everything else the record states (captures' bonuses, tricks, draws, new hands,
deal scores, totals, the match end) must be what the rules produce from those decisions.

It accepts every record RECORD.md allows, whoever wrote it: an option left out is its
default; a consequence the format lets a writer state in more than one way (the rules
class's ``record_variants``, e.g. how a new round of hands is split among the seats) is
judged by the rules class; a free-form ``deal_end.detail`` (``detail_is_free_form``) is
never compared, only the points; the order of a capture's cards, of a play's bonuses and of
the leftover cards carries no meaning. ``strict`` demands this program's own conventions as
well (every option listed, its own split and breakdown, its own card order, every declared
field of every line of its declared type): for the tests.

A file is read one line at a time as the replay needs it (game.record.RecordStream): the
verdict on the first bad line comes without reading the rest, in constant memory, and
anything that is not a regular file (a FIFO, ``/dev/zero``) is refused unread. Every line
goes through the hardened JSON reader (game.safejson) and an exact-type shape check, and
recorded values are compared with exact types (``true`` is not ``1``, ``-0.0`` not ``0``).
A verdict is ``damaged`` when the file is not a record this program can read (unreadable,
a line that is not one JSON object within the limits, cut short); otherwise a failing
verdict is a readable record that breaks the format or a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from game.config import Config, get_config
from game.record import EventList, RecordFormatError, RecordStream, open_record
from game.replay import ReplayError, replay
from game.rules.base import Event, GameRules
from game.rules.common import DEAL_END, MATCH_END, PLAY_EVENT
from game.rules.vocabulary import VocabularyError, check_fields
from game.rulesets import make_rules
from game.safejson import JSONError, exact_equal, is_int

#: Card lists whose order carries no meaning: a decision's card-list payload (a capture) and
#: these, as (event, field) or (event, field, sub-field); compared as sets unless strict.
_UNORDERED = {(PLAY_EVENT.name, "bonuses"), (DEAL_END.name, "leftover", "cards")}


def _unordered(rules: GameRules) -> set[tuple[str, ...]]:
    out = set(_UNORDERED)
    for d in rules.decision_kinds:
        out |= {(d.name, f.name) for f in d.fields if f.type == "cards"}
    return out


@dataclass
class Verdict:
    ok: bool
    line: int | None = None
    message: str = "OK"
    #: The file is not a record this program can read (see the module); exit code 2.
    damaged: bool = False
    #: verify itself failed on this record: a bug to report (exit code 3), never a verdict on it.
    internal: bool = False

    def __str__(self) -> str:
        if self.ok:
            return "OK"
        return f"line {self.line}: {self.message}" if self.line else self.message

    @property
    def code(self) -> int:
        """The command line's exit code for this verdict: 0 OK, 1 a rule or the format
        broken, 2 damaged, 3 an internal error."""
        return 0 if self.ok else 3 if self.internal else 2 if self.damaged else 1


class _Fail(Exception):
    def __init__(self, line: int | None, message: str, damaged: bool = False):
        self.line = line
        self.damaged = damaged
        super().__init__(message)


def verify_file(path: str, config: Config | None = None, strict: bool = False) -> Verdict:
    try:
        f, stream = open_record(path)
    except JSONError as e:  # a FIFO, a device, a folder
        return Verdict(False, None, e.problem, damaged=True)
    except OSError as e:
        return Verdict(False, None, f"cannot read the file: {e.strerror or e}", damaged=True)
    with f:
        return _verify(stream, config, strict)


def verify_text(text: str, config: Config | None = None, strict: bool = False) -> Verdict:
    lines = text.split("\n")
    if lines and not lines[-1].strip():
        lines.pop()  # the final newline
    return _verify(RecordStream(enumerate(lines, start=1)), config, strict)


def verify_events(events: list[Event], config: Config | None = None, strict: bool = False) -> Verdict:
    """OK, or the first line that breaks the format or a rule. ``strict``: see the module."""
    return _verify(EventList(events), config, strict)


def verify_prefix(events: list[Event], config: Config | None = None) -> Verdict:
    """OK when ``events`` are the first lines of a record the referee would accept, ending
    just before a decision (a puzzle's position: game.puzzles): every line up to there is
    checked as in a whole record; ending anywhere else (between a decision and what the rules
    make of it, after a deal's end) is cut short."""
    return _verify(EventList(events), config, False, prefix=True)


class _PrefixEnd(Exception):
    """A prefix ended where the next decision is due: it verifies (verify_prefix)."""


def _verify(source: EventList | RecordStream, config: Config | None, strict: bool, prefix: bool = False) -> Verdict:
    try:
        _Replay(source, config or get_config(), strict, prefix).run()
    except _PrefixEnd:
        return Verdict(True)
    except _Fail as e:
        return Verdict(False, e.line, str(e), damaged=e.damaged)
    except RecordFormatError as e:
        return Verdict(False, e.line, e.reason, damaged=e.damaged)
    except RecursionError:
        return Verdict(False, None, "nested too deeply to be a record", damaged=True)
    except Exception as e:  # noqa: BLE001 - a bug in the referee must not look like a verdict (exit 3)
        line = getattr(source, "last_line", None)
        return Verdict(
            False, line, f"internal error ({type(e).__name__}: {_short(e)}); please report this record", internal=True
        )
    return Verdict(True)


def _short(value: object, limit: int = 120) -> str:
    """A value for a one-line message: its repr, cut (a hostile line may hold a long list)."""
    text = value if isinstance(value, BaseException) else repr(value)
    text = str(text).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _norm(value: object, path: tuple[str, ...], unordered: set[tuple[str, ...]]) -> object:
    """``value`` (at ``path``: event, field, sub-field) with meaningless order taken out."""
    if isinstance(value, list) and path in unordered:
        return sorted(value, key=str)
    if isinstance(value, dict):
        return {k: _norm(v, path + (k,), unordered) for k, v in value.items()}
    return value


class _Replay:
    def __init__(self, source: EventList | RecordStream, config: Config, strict: bool = False, prefix: bool = False):
        self.src = source
        self.config = config
        self.strict = strict
        #: The record may end where a decision is due (verify_prefix).
        self.prefix = prefix
        self.i = 0

    def line(self) -> int:
        return self.i + 1

    def fail(self, message: str, line: int | None = None, damaged: bool = False) -> NoReturn:
        raise _Fail(line if line is not None else self.line(), message, damaged)

    def cut_short(self, message: str) -> NoReturn:
        """The record ends before the rules do. Without its closing ``match_end`` it was cut
        short (damaged); one that ends with a ``match_end`` too early breaks a rule."""
        end = self.src.ended_at()
        last = self.src.last_event
        self.fail(
            message, line=end or None, damaged=not (isinstance(last, dict) and last.get("event") == MATCH_END.name)
        )

    def run(self) -> None:
        head = self.src.get(0)
        if head is None:
            self.fail("the record is empty", line=None, damaged=True)
        if not isinstance(head["options"], dict):
            self.fail("match: 'options' must be an object of option names and values")
        try:
            # An option the record leaves out is its default; an unknown one or a bad value fails.
            self.rules = make_rules(head["game"], head["deck"], head["players"], head["options"], config=self.config)
        except (ValueError, TypeError) as e:
            self.fail(f"match: {e}")
        if self.strict and head["options"] != self.rules.options:
            self.fail(f"match: options must list every option in force (strict): {self.rules.options}")
        limit = head.get("deals")
        if limit is not None and not (is_int(limit) and 1 <= limit < 2**31):
            self.fail("match: 'deals' (the first deals only) must be a whole number of at least 1")
        r = self.rules
        self.unordered = _unordered(r)
        before: object = None
        try:
            for step in replay(
                r,
                self.src,
                ending="decision" if self.prefix else "never",
                decisions=r.vocabulary.decision_events,
                strict=self.strict,
            ):
                self.i = step.line
                if self.strict:
                    self.check_declared(step.event)
                if step.kind == "decision":
                    before = r.clone(step.state)
                elif step.kind == "consequence" and not step.adopted and step.expected is not None:
                    self.compare(step.expected, step.event, before)
                elif step.kind == "deal_end" and step.expected is not None:
                    self.compare(step.expected, step.event, step.state)
        except ReplayError as e:
            if e.cut_short:
                self.cut_short(str(e))
            self.fail(str(e), line=e.line)

    def check_declared(self, ev: Event) -> None:
        """Strict: every declared field of the line is there, of its declared type."""
        name = ev.get("event")
        kind = self.rules.vocabulary.event(name) if isinstance(name, str) else None
        if kind is None:
            return
        try:
            check_fields(kind.fields, ev, f"{kind.name} (strict)", closed=False)
        except VocabularyError as e:
            self.fail(str(e))

    def same(self, recorded: object, expected: object, path: tuple[str, ...]) -> bool:
        if self.strict:
            return exact_equal(recorded, expected)
        return exact_equal(_norm(recorded, path, self.unordered), _norm(expected, path, self.unordered))

    def compare(self, expected: Event, recorded: Event, before: object) -> None:
        kind = expected["event"]
        if recorded["event"] != kind:
            self.fail(f"the rules produce '{kind}' here, the record has '{recorded['event']}'")
        for key, value in expected.items():
            if key == "detail":
                continue
            if key not in recorded:
                self.fail(f"'{kind}' lacks field '{key}'")
            if not self.same(recorded[key], value, (kind, key)):
                hint = self.rules.explain_mismatch(before, expected, recorded)
                msg = f"{kind} {key} {_short(recorded[key])} differs from the rules' {_short(value)}"
                if kind == DEAL_END.name:
                    msg += f" (the rules' breakdown: {self.breakdown(expected.get('detail'))})"
                self.fail(msg + (f": {hint}" if hint else ""))
        if "detail" in expected:
            self.compare_detail(expected["detail"], recorded.get("detail"))

    def compare_detail(self, expected: dict[str, object], recorded: object) -> None:
        """A free-form breakdown is the writer's (RECORD.md): only the points count, unless
        strict. Otherwise the required keys must be there and every key both hold agree."""
        r = self.rules
        if r.detail_is_free_form and not self.strict:
            return
        if not isinstance(recorded, dict):
            self.fail("deal_end detail must be an object")
        for key in r.required_detail:
            if key not in recorded:
                self.fail(f"deal_end detail lacks '{key}'")
        if self.strict and set(recorded) != set(expected):
            self.fail(f"deal_end detail keys {sorted(recorded)} differ from this program's {sorted(expected)} (strict)")
        for key, value in expected.items():
            if key in recorded and not self.same(recorded[key], value, (DEAL_END.name, "detail", key)):
                self.fail(
                    f"deal_end detail: {key} is {_short(recorded[key])} in the record, the rules give {_short(value)}"
                )

    @staticmethod
    def breakdown(detail: object) -> str:
        """The rules' own detail, shortly: where a wrong point total most likely went wrong."""
        if not isinstance(detail, dict):
            return "none"
        rows = [f"{k} {v}" for k, v in detail.items() if isinstance(v, list) and any(v)]
        return ", ".join(rows) or "nothing scored"
