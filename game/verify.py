"""The referee: replay a record through the rules core and report the first broken rule.

Decisions (play, exchange, marriage, close) are checked for legality; everything else the
record states (captures' bonuses, tricks, draws, new hands, deal scores, totals, the match
end) must be exactly what the rules produce from those decisions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.config import Config, get_config
from game.match import deal_end_event
from game.record import RecordFormatError, parse_lines
from game.rules import make_rules
from game.rules.base import Event, IllegalAction, RecordError

DECISIONS = ("play", "exchange", "marriage", "close")
#: Fields whose card lists are compared as sets (their order carries no meaning).
_UNORDERED = ("capture",)


@dataclass
class Verdict:
    ok: bool
    line: int | None = None
    message: str = "OK"

    def __str__(self) -> str:
        if self.ok:
            return "OK"
        return f"line {self.line}: {self.message}" if self.line else self.message


class _Fail(Exception):
    def __init__(self, line: int | None, message: str):
        self.line = line
        super().__init__(message)


def verify_file(path: str, config: Config | None = None) -> Verdict:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        return Verdict(False, None, "not UTF-8 text")
    except OSError as e:
        return Verdict(False, None, f"cannot read the file: {e.strerror or e}")
    return verify_text(text, config)


def verify_text(text: str, config: Config | None = None) -> Verdict:
    try:
        events = parse_lines(text.split("\n"))
    except RecordFormatError as e:
        return Verdict(False, e.line, e.reason)
    return verify_events(events, config)


def verify_events(events: list[Event], config: Config | None = None) -> Verdict:
    try:
        _Replay(events, config or get_config()).run()
    except _Fail as e:
        return Verdict(False, e.line, str(e))
    return Verdict(True)


def _norm(value: Any, key: str = "") -> Any:
    if isinstance(value, list) and key in _UNORDERED:
        return sorted(value, key=str)
    if isinstance(value, dict):
        return {k: _norm(v, k) for k, v in value.items()}
    return value


class _Replay:
    def __init__(self, events: list[Event], config: Config):
        self.ev = events
        self.config = config
        self.i = 0

    def line(self) -> int:
        return self.i + 1

    def fail(self, message: str, line: int | None = None) -> None:
        raise _Fail(line if line is not None else self.line(), message)

    def peek(self) -> Event | None:
        return self.ev[self.i] if self.i < len(self.ev) else None

    def expect(self, *kinds: str) -> Event:
        ev = self.peek()
        if ev is None:
            self.fail(f"the record ends here, but the rules expect {' or '.join(repr(k) for k in kinds)}",
                      line=len(self.ev))
        if ev["event"] not in kinds:
            self.fail(f"expected {' or '.join(repr(k) for k in kinds)}, found '{ev['event']}'")
        return ev

    def run(self) -> None:
        head = self.ev[0]
        try:
            self.rules = make_rules(head["game"], head["deck"], head["players"], head["options"], config=self.config)
        except (ValueError, TypeError) as e:
            self.fail(f"match: {e}")
        if dict(head["options"]) != self.rules.options:
            self.fail(f"options must list every option in force: {self.rules.options}")
        r = self.rules
        self.i = 1
        totals = r.initial_totals()
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
            self.compare(deal_end_event(number, result, totals), end, state, detail_keys=self.detail_keys())
            self.i += 1
            over, winner, reason = r.match_status(totals, number)
            if over:
                end = self.peek()
                if end is None or end["event"] != "match_end":
                    found = "the end of the record" if end is None else f"'{end['event']}'"
                    self.fail(f"the match is over ({reason}): expected 'match_end', found {found}",
                              line=min(self.line(), len(self.ev)))
                if end["winner"] != winner:
                    self.fail(f"match_end names winner {end['winner']!r}, the rules give {winner!r} ({reason})")
                if end["totals"] != totals:
                    self.fail(f"match_end totals {end['totals']} differ from the deal totals {totals}")
                self.i += 1
                if self.peek() is not None:
                    self.fail("lines after 'match_end'")
                return
            nxt = self.peek()
            if nxt is not None and nxt["event"] == "match_end":
                self.fail(f"the match is declared over, but it is not: {reason}")

    def detail_keys(self) -> tuple[str, ...]:
        return getattr(self.rules, "required_detail", ())

    def check_dealer(self, ev: Event, dealer: int | None, number: int) -> int:
        r = self.rules
        d = ev["dealer"]
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < r.players:
            self.fail(f"dealer {d!r} is not a seat (0..{r.players - 1})")
        if ev["number"] != number:
            self.fail(f"deal number {ev['number']!r}, expected {number}")
        if dealer is not None and d != r.next_dealer(dealer):
            self.fail(f"deal {number} is dealt by seat {d}; the deal passes to seat {r.next_dealer(dealer)}")
        return d

    def rebuild(self, ev: Event) -> Any:
        try:
            return self.rules.state_from_deal(ev)
        except (RecordError, ValueError, TypeError, KeyError) as e:
            self.fail(f"deal: {e}")

    def decision(self, state: Any) -> None:
        r = self.rules
        ev = self.expect(*DECISIONS)
        seat = r.to_act(state)
        if ev.get("seat") != seat:
            self.fail(f"seat {ev.get('seat')!r} acts, but it is seat {seat}'s turn")
        try:
            action = r.action_from_record(self.ev, self.i)
        except (RecordError, ValueError, TypeError, KeyError) as e:
            self.fail(f"{ev['event']}: {e}")
        before = r.clone(state)
        try:
            produced = r.apply(state, action)
        except IllegalAction as e:
            self.fail(f"illegal {ev['event']} by seat {seat}: {e}")
        for exp in produced:
            if self.i >= len(self.ev):
                self.fail(f"the record ends here, but the rules continue with '{exp['event']}'", line=len(self.ev))
            self.compare(exp, self.ev[self.i], before)
            self.i += 1

    def compare(self, expected: Event, recorded: Event, before: Any, detail_keys: tuple[str, ...] = ()) -> None:
        if recorded["event"] != expected["event"]:
            self.fail(f"the rules produce '{expected['event']}' here, the record has '{recorded['event']}'")
        hint = None
        for key, value in expected.items():
            if key == "detail":
                continue
            if key not in recorded:
                self.fail(f"'{expected['event']}' lacks field '{key}'")
            if _norm(recorded[key], key) != _norm(value, key):
                hint = self.rules.explain_mismatch(before, expected, recorded)
                msg = f"{expected['event']} {key} {recorded[key]!r} differs from the rules' {value!r}"
                if expected["event"] == "deal_end":
                    culprit = self.detail_culprit(expected.get("detail", {}), recorded.get("detail", {}))
                    if culprit:
                        msg += f" ({culprit})"
                self.fail(msg + (f": {hint}" if hint else ""))
        if "detail" in expected:
            rec_detail = recorded.get("detail")
            if not isinstance(rec_detail, dict):
                self.fail("deal_end detail must be an object")
            for key in detail_keys:
                if key not in rec_detail:
                    self.fail(f"deal_end detail lacks '{key}'")
            culprit = self.detail_culprit(expected["detail"], rec_detail)
            if culprit:
                self.fail(f"deal_end detail: {culprit}")

    @staticmethod
    def detail_culprit(expected: dict, recorded: dict) -> str | None:
        for key, value in expected.items():
            if key in recorded and _norm(recorded[key]) != _norm(value):
                return f"{key} is {recorded[key]!r} in the record, the rules give {value!r}"
        return None
