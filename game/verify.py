"""The referee: replay a record through the rules core and report the first broken rule.

Decisions (play, exchange, marriage, close) are checked for legality; everything else the
record states (captures' bonuses, tricks, draws, new hands, deal scores, totals, the match
end) must be what the rules produce from those decisions.

It accepts every record RECORD.md allows, whoever wrote it: an option left out is its
default; a consequence the format lets a writer state in more than one way (the rules
class's ``record_variants``, e.g. how a new round of hands is split among the seats) is
judged by the rules class; a free-form ``deal_end.detail`` (``detail_is_free_form``) is
never compared, only the points; the order of a capture's cards, of a play's bonuses and of
the leftover cards carries no meaning. ``strict`` demands this program's own conventions as
well (every option listed, its own split and breakdown, its own card order): for the tests.

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
from typing import Any, NoReturn

from game.config import Config, get_config
from game.match import deal_end_event, limit_status
from game.record import EventList, RecordFormatError, RecordStream, open_record
from game.rules.base import Event, IllegalAction, RecordError
from game.rulesets import make_rules
from game.safejson import JSONError, exact_equal, is_int

DECISIONS = ("play", "exchange", "marriage", "close")
#: Card lists whose order carries no meaning, as (event, field) or (event, field, sub-field):
#: compared as sets unless strict.
_UNORDERED = {("play", "capture"), ("play", "bonuses"), ("deal_end", "leftover", "cards")}


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


def _verify(source: Any, config: Config | None, strict: bool, prefix: bool = False) -> Verdict:
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


def _short(value: Any, limit: int = 120) -> str:
    """A value for a one-line message: its repr, cut (a hostile line may hold a long list)."""
    text = value if isinstance(value, BaseException) else repr(value)
    text = str(text).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Window:
    """The record from line ``i`` on, as the rules' ``action_from_record(events, 0)`` sees it:
    the next line is read only if the rules ask for it (a Schnapsen marriage's lead)."""

    def __init__(self, source: Any, i: int):
        self.source, self.i = source, i

    def __getitem__(self, k: int) -> Event:
        ev = self.source.get(self.i + k) if k >= 0 else None
        if ev is None:
            raise IndexError(k)
        return ev

    def __len__(self) -> int:
        return 1 if self.source.get(self.i + 1) is None else 2


def _norm(value: Any, path: tuple[str, ...]) -> Any:
    """``value`` (at ``path``: event, field, sub-field) with meaningless order taken out."""
    if isinstance(value, list) and path in _UNORDERED:
        return sorted(value, key=str)
    if isinstance(value, dict):
        return {k: _norm(v, path + (k,)) for k, v in value.items()}
    return value


class _Replay:
    def __init__(self, source: Any, config: Config, strict: bool = False, prefix: bool = False):
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

    def peek(self) -> Event | None:
        return self.src.get(self.i)

    def cut_short(self, message: str) -> NoReturn:
        """The record ends before the rules do. Without its closing ``match_end`` it was cut
        short (damaged); one that ends with a ``match_end`` too early breaks a rule."""
        end = self.src.ended_at()
        last = self.src.last_event
        self.fail(message, line=end or None, damaged=not (isinstance(last, dict) and last.get("event") == "match_end"))

    def expect(self, *kinds: str) -> Event:
        ev = self.peek()
        if ev is None:
            self.cut_short(f"the record ends here, but the rules expect {' or '.join(repr(k) for k in kinds)}")
        if ev["event"] not in kinds:
            self.fail(f"expected {' or '.join(repr(k) for k in kinds)}, found '{ev['event']}'")
        return ev

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
        self.i = 1
        totals = r.initial_totals()
        deal_points = [0] * r.teams
        dealer = None
        number = 0
        while True:
            number += 1
            ev = self.expect("deal")
            dealer = self.check_dealer(ev, dealer, number)
            state = self.rebuild(ev)
            self.i += 1
            while r.needs_redeal(state):
                red = self.expect("redeal")
                if red.get("reason") != "kings":
                    self.fail("the redeal reason must be 'kings'")
                self.i += 1
                ev = self.expect("deal")
                if ev["dealer"] != dealer:
                    self.fail(f"after a redeal the same dealer deals again (seat {dealer}, not {ev['dealer']})")
                if ev["number"] != number:
                    self.fail(f"a redeal keeps the deal number {number}")
                state = self.rebuild(ev)
                self.i += 1
            nxt = self.peek()
            if nxt is not None and nxt["event"] == "redeal":
                self.fail("a redeal is only allowed with three or four Kings on the opening table")
            while not r.is_over(state):
                self.decision(state)
            end = self.expect("deal_end")
            result = r.deal_result(state)
            totals = r.add_deal(totals, result)
            deal_points = [a + b for a, b in zip(deal_points, result.points)]
            self.compare(deal_end_event(number, result, totals), end, state)
            self.i += 1
            over, winner, reason = r.match_status(totals, number)
            if not over:
                over, winner = limit_status(limit, number, deal_points)
                if over:
                    reason = f"the record holds the first {limit} deal(s) only"
            if over:
                match_end = self.peek()
                if match_end is None:
                    self.cut_short(f"the match is over ({reason}): expected 'match_end', found the end of the record")
                if match_end["event"] != "match_end":
                    self.fail(f"the match is over ({reason}): expected 'match_end', found '{match_end['event']}'")
                if match_end["winner"] != winner:
                    self.fail(f"match_end names winner {match_end['winner']!r}, the rules give {winner!r} ({reason})")
                if match_end["totals"] != totals:
                    self.fail(f"match_end totals {match_end['totals']} differ from the deal totals {totals}")
                self.i += 1
                if self.peek() is not None:
                    self.fail("lines after 'match_end'")
                return
            nxt = self.peek()
            if nxt is not None and nxt["event"] == "match_end":
                self.fail(f"the match is declared over, but it is not: {reason}")

    def check_dealer(self, ev: Event, dealer: int | None, number: int) -> int:
        r = self.rules
        d = ev["dealer"]
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < r.players:
            self.fail(f"dealer {d!r} is not a seat (0..{r.players - 1})")
        if ev["number"] != number:
            self.fail(f"deal number {ev['number']!r}, expected {number}")
        if dealer is not None and d != r.next_dealer(dealer) and (r.dealer_rotates or self.strict):
            self.fail(f"deal {number} is dealt by seat {d}; the deal passes to seat {r.next_dealer(dealer)}")
        return d

    def rebuild(self, ev: Event) -> Any:
        try:
            return self.rules.state_from_deal(ev)
        except (RecordError, ValueError, TypeError, KeyError) as e:
            self.fail(f"deal: {e}")

    def decision(self, state: Any) -> None:
        r = self.rules
        if self.prefix and self.peek() is None:
            raise _PrefixEnd
        ev = self.expect(*DECISIONS)
        self.src.forget_before(self.i - 1)  # done with the lines before: constant memory
        seat = r.to_act(state)
        if ev.get("seat") != seat:
            self.fail(f"seat {ev.get('seat')!r} acts, but it is seat {seat}'s turn")
        try:
            action = r.action_from_record(_Window(self.src, self.i), 0)
        except RecordFormatError:
            raise  # the next line, read ahead for the rules, is itself bad: its own verdict
        except (RecordError, ValueError, TypeError, KeyError) as e:
            self.fail(f"{ev['event']}: {e}")
        before = r.clone(state)
        try:
            produced = r.apply(state, action)
        except IllegalAction as e:
            self.fail(f"illegal {ev['event']} by seat {seat}: {e}")
        for exp in produced:
            rec = self.peek()
            if rec is None:
                self.cut_short(f"the record ends here, but the rules continue with '{exp['event']}'")
            if not self.strict and exp["event"] in r.record_variants and rec["event"] == exp["event"]:
                # A form the format leaves to the writer: the rules judge it (and adopt it).
                problem = r.accept_variant(state, exp, rec)
                if problem:
                    self.fail(problem)
            else:
                self.compare(exp, rec, before)
            self.i += 1

    def same(self, recorded: Any, expected: Any, path: tuple[str, ...]) -> bool:
        if self.strict:
            return exact_equal(recorded, expected)
        return exact_equal(_norm(recorded, path), _norm(expected, path))

    def compare(self, expected: Event, recorded: Event, before: Any) -> None:
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
                if kind == "deal_end":
                    msg += f" (the rules' breakdown: {self.breakdown(expected.get('detail'))})"
                self.fail(msg + (f": {hint}" if hint else ""))
        if "detail" in expected:
            self.compare_detail(expected["detail"], recorded.get("detail"))

    def compare_detail(self, expected: dict, recorded: Any) -> None:
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
            if key in recorded and not self.same(recorded[key], value, ("deal_end", "detail", key)):
                self.fail(
                    f"deal_end detail: {key} is {_short(recorded[key])} in the record, the rules give {_short(value)}"
                )

    @staticmethod
    def breakdown(detail: Any) -> str:
        """The rules' own detail, shortly: where a wrong point total most likely went wrong."""
        if not isinstance(detail, dict):
            return "none"
        rows = [f"{k} {v}" for k, v in detail.items() if isinstance(v, list) and any(v)]
        return ", ".join(rows) or "nothing scored"
