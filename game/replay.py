"""The one replay: a record walked line by line through the rules.

:func:`replay` is the only loop that reads a record's decisions and applies them: the referee
(game.verify), the coach, a saved session's resume, the server's tables rebuilt from their
records and a seat's own stream (game.online) all walk a record with it. It rebuilds each deal
from its ``deal`` line, reads each decision with the rules' ``action_from_record``, applies
it, and yields a :class:`Step` for every line it reaches:

- ``deal`` and ``redeal``: the deal's lines (``state`` is the deal as dealt);
- ``decision``: a decision's line *before* it is applied (``state`` is the position the
  seat decided in, ``seat`` and ``action`` what it did);
- ``consequence``: every event the rules produce for the decision, the decision's own line
  first, each beside the record's line at that place (``expected`` the rules' event,
  ``event`` the record's);
- ``deal_end`` and ``match_end``: the scored deal (``expected`` the rules' line, ``result``
  and ``totals`` the scores) and the match's end.

What the walk itself demands (the lines in the order the rules make them, the seat to act,
the dealer and deal numbers, legal decisions, the match ending where the rules end it) raises
:class:`ReplayError` with the line and the rule. What a line must state beyond its kind is for
the consumer to compare (the referee compares every field, the coach trusts a record the
referee accepted).

A seat's redacted stream (the online wire: other hands and the stock are nulls) is walked the
same way: ``deal_state`` builds the deal from a filled copy of its ``deal`` line (a
determinization), ``check=False`` applies decisions the server already judged, and
``adopt_variants=False`` leaves the writer's forms to the consumer, which compares each
``consequence`` step's ``expected`` with the stream's ``event`` (nulls hide what the seat may
not see).

Pure Python: no pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, Protocol

from game.match import Match, deal_end_event, limit_status
from game.record import RecordFormatError
from game.rules.base import Action, DealResult, Event, GameRules, IllegalAction, RecordError, S, V
from game.safejson import is_int

StepKind = Literal["deal", "deal_again", "decision", "consequence", "deal_end", "match_end"]
#: Where the record may end without an error: "anywhere" (a save, a stream in progress),
#: "decision" (just before a decision: a puzzle's position) or "never" (a whole record).
Ending = Literal["anywhere", "decision", "never"]


class Lines(Protocol):
    """Record lines by index (0-based), None past the end: a list (:class:`ListLines`) or a
    file read as far as asked (game.record.RecordStream)."""

    def get(self, i: int, /) -> Event | None: ...


class ListLines:
    """A list of events as :class:`Lines`."""

    def __init__(self, events: Sequence[Event]):
        self.events = events

    def get(self, i: int, /) -> Event | None:
        return self.events[i] if 0 <= i < len(self.events) else None


class _Window:
    """The record from line ``i`` on, as the rules' ``action_from_record(events, 0)`` sees it:
    the next line is read only if the rules ask for it (a lead declared on a line of its own)."""

    def __init__(self, source: Lines, i: int):
        self.source, self.i = source, i

    def __getitem__(self, k: int) -> Event:
        ev = self.source.get(self.i + k) if k >= 0 else None
        if ev is None:
            raise IndexError(k)
        return ev

    def __len__(self) -> int:
        return 1 if self.source.get(self.i + 1) is None else 2


class ReplayError(ValueError):
    """A record the rules do not walk: ``line`` (1-based) and the rule it breaks. ``cut_short``:
    the record ends where the rules go on (``line`` is then None: the end of the record)."""

    def __init__(self, line: int | None, message: str, cut_short: bool = False):
        self.line = line
        self.cut_short = cut_short
        super().__init__(message)


@dataclass
class Step(Generic[S]):
    """One line of the record as the replay reaches it (see the module)."""

    kind: StepKind
    #: The line's index in the record (0-based; the file's line ``line + 1``).
    line: int
    #: The record's line.
    event: Event
    #: The live state: the replay goes on changing it once the consumer asks for the next step.
    state: S
    #: The deal's number (from 1) and the decisions made in the match before this line.
    deal: int
    decisions: int
    #: The seat acting and its action (decision and consequence steps).
    seat: int | None = None
    action: Action | None = None
    #: The rules' own form of the line (consequence, deal_end and match_end steps).
    expected: Event | None = None
    #: A consequence stated in a form the format leaves to the writer, judged and adopted by
    #: the rules (the record's form is now the state's): nothing left to compare.
    adopted: bool = False
    #: The scored deal (deal_end) and the match totals after it (deal_end, match_end).
    result: DealResult | None = None
    totals: list[int] = field(default_factory=list)


def replay(
    rules: GameRules[S, V],
    events: Sequence[Event] | Lines,
    *,
    ending: Ending = "anywhere",
    decisions: Collection[str] | None = None,
    strict: bool = False,
    check: bool = True,
    adopt_variants: bool = True,
    deal_state: Callable[[Event], S] | None = None,
) -> Iterator[Step[S]]:
    """Walk ``events`` (a record from its ``match`` line) through ``rules``: a :class:`Step`
    per line reached (see the module), :class:`ReplayError` at the first line the rules do not
    walk. ``ending``: where the record may end. ``decisions``: the event kinds a decision's
    line may have (the rules' decisions unless given). ``strict``: the deal passes round the
    table even in a game that leaves the dealer to chance, and no writer's form is adopted.
    ``check``: decisions are checked for legality. ``adopt_variants``: a consequence in a form
    the game leaves to the writer is judged and adopted by the rules. ``deal_state``: how a
    ``deal`` line becomes the state (the rules' ``state_from_deal`` unless given)."""
    src: Lines = ListLines(events) if isinstance(events, Sequence) else events
    kinds = tuple(decisions) if decisions is not None else tuple(rules.decisions)
    rebuild = deal_state if deal_state is not None else rules.state_from_deal
    forget: Callable[[int], None] | None = getattr(src, "forget_before", None)
    adopt = adopt_variants and not strict
    #: The line the rules write before the same dealer deals a void deal again (None: never).
    redeal = rules.redeal_line
    head = src.get(0)
    limit = head.get("deals") if head is not None else None
    limit = limit if is_int(limit) else None
    totals = rules.initial_totals()
    deal_points = [0] * rules.teams
    dealer: int | None = None
    number = 0
    made = 0
    i = 1

    def fail(message: str) -> ReplayError:
        return ReplayError(i + 1, message)

    def expect(*wanted: str, at_decision: bool = False) -> Event | None:
        """The line at ``i`` when it is of a kind wanted; None where the record may end."""
        ev = src.get(i)
        if ev is None:
            if ending == "anywhere" or (at_decision and ending == "decision"):
                return None
            raise ReplayError(
                None, f"the record ends here, but the rules expect {' or '.join(repr(k) for k in wanted)}", True
            )
        if ev.get("event") not in wanted:
            raise fail(f"expected {' or '.join(repr(k) for k in wanted)}, found '{ev.get('event')}'")
        return ev

    def state_of(ev: Event) -> S:
        try:
            return rebuild(ev)
        except (RecordError, ValueError, TypeError, KeyError) as e:
            raise fail(f"deal: {e}") from None

    while True:
        number += 1
        ev = expect("deal")
        if ev is None:
            return
        d = ev.get("dealer")
        if not is_int(d) or not 0 <= d < rules.players:
            raise fail(f"dealer {d!r} is not a seat (0..{rules.players - 1})")
        if ev.get("number") != number:
            raise fail(f"deal number {ev.get('number')!r}, expected {number}")
        if dealer is not None and d != rules.next_dealer(dealer) and (rules.dealer_rotates or strict):
            raise fail(f"deal {number} is dealt by seat {d}; the deal passes to seat {rules.next_dealer(dealer)}")
        dealer = d
        state = state_of(ev)
        yield Step("deal", i, ev, state, number, made)
        i += 1
        while rules.needs_redeal(state):
            if redeal is None:
                raise fail(f"the rules void deal {number} but {rules.game_id} declares no line for it")
            red = expect(str(redeal["event"]))
            if red is None:
                return
            for key, value in redeal.items():
                if key != "event" and red.get(key) != value:
                    raise fail(f"the {redeal['event']} {key} must be {value!r}")
            yield Step("deal_again", i, red, state, number, made)
            i += 1
            ev = expect("deal")
            if ev is None:
                return
            if ev.get("dealer") != dealer:
                raise fail(f"after a redeal the same dealer deals again (seat {dealer}, not {ev.get('dealer')})")
            if ev.get("number") != number:
                raise fail(f"a redeal keeps the deal number {number}")
            state = state_of(ev)
            yield Step("deal", i, ev, state, number, made)
            i += 1
        nxt = src.get(i)
        if redeal is not None and nxt is not None and nxt.get("event") == redeal["event"]:
            raise fail(rules.redeal_refused)

        while not rules.is_over(state):
            ev = expect(*kinds, at_decision=True)
            if ev is None:
                return
            if forget is not None:
                forget(i - 1)  # done with the lines before: constant memory
            seat = rules.to_act(state)
            if ev.get("seat") != seat:
                raise fail(f"seat {ev.get('seat')!r} acts, but it is seat {seat}'s turn")
            try:
                action = rules.action_from_record(_Window(src, i), 0)
            except RecordFormatError:
                raise  # the next line, read ahead for the rules, is itself bad: its own verdict
            except (RecordError, ValueError, TypeError, KeyError) as e:
                raise fail(f"{ev.get('event')}: {e}") from None
            yield Step("decision", i, ev, state, number, made, seat, action)
            try:
                produced = rules.apply(state, action, check)
            except IllegalAction as e:
                raise fail(f"illegal {ev.get('event')} by seat {seat}: {e}") from None
            made += 1
            for exp in produced:
                rec = src.get(i)
                if rec is None:
                    if ending == "anywhere":
                        return
                    raise ReplayError(None, f"the record ends here, but the rules continue with '{exp['event']}'", True)
                adopted = False
                if adopt and exp["event"] in rules.record_variants and rec.get("event") == exp["event"]:
                    # A form the format leaves to the writer: the rules judge it (and adopt it).
                    problem = rules.accept_variant(state, exp, rec)
                    if problem:
                        raise fail(problem)
                    adopted = True
                yield Step("consequence", i, rec, state, number, made, seat, action, exp, adopted)
                i += 1

        end = expect("deal_end")
        if end is None:
            return
        result = rules.deal_result(state)
        totals = rules.add_deal(totals, result)
        deal_points = [a + b for a, b in zip(deal_points, result.points)]
        expected = deal_end_event(number, result, totals)
        yield Step("deal_end", i, end, state, number, made, expected=expected, result=result, totals=list(totals))
        i += 1
        over, winner, reason = rules.match_status(totals, number)
        if not over:
            over, winner = limit_status(limit, number, deal_points)
            if over:
                reason = f"the record holds the first {limit} deal(s) only"
        if over:
            last = src.get(i)
            if last is None:
                if ending == "anywhere":
                    return
                raise ReplayError(
                    None, f"the match is over ({reason}): expected 'match_end', found the end of the record", True
                )
            if last.get("event") != "match_end":
                raise fail(f"the match is over ({reason}): expected 'match_end', found '{last.get('event')}'")
            if last.get("winner") != winner:
                raise fail(f"match_end names winner {last.get('winner')!r}, the rules give {winner!r} ({reason})")
            if last.get("totals") != totals:
                raise fail(f"match_end totals {last.get('totals')} differ from the deal totals {totals}")
            closing: Event = {"event": "match_end", "winner": winner, "totals": list(totals)}
            yield Step("match_end", i, last, state, number, made, expected=closing, totals=list(totals))
            i += 1
            if src.get(i) is not None:
                raise fail("lines after 'match_end'")
            return
        nxt = src.get(i)
        if nxt is not None and nxt.get("event") == "match_end":
            raise fail(f"the match is declared over, but it is not: {reason}")


def decisions_of(rules: GameRules[S, V], events: Sequence[Event] | Lines) -> list[tuple[int, Action]]:
    """Every decision of the record as (seat, action), in order: what ``Match.rebuild``
    replays. ReplayError where the record does not walk."""
    return [
        (step.seat, step.action)
        for step in replay(rules, events)
        if step.kind == "decision" and step.seat is not None and step.action is not None
    ]


def follow(match: Match, events: Sequence[Event]) -> Match:
    """Play the decisions of the record ``events`` into ``match`` (started from the record's
    seed): the match as the record left it. ReplayError where the record does not walk; the
    caller compares ``match.events`` with the record (the same seed deals the same cards)."""
    for step in replay(match.rules, events):
        if step.kind == "decision" and step.action is not None:
            match.play(step.action)
    return match


__all__ = [
    "Ending",
    "Lines",
    "ListLines",
    "ReplayError",
    "Step",
    "StepKind",
    "decisions_of",
    "follow",
    "replay",
]
