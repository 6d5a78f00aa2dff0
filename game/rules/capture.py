"""What the fishing games (Scopa, Cìcera) share: the state and view every capture game
extends with its own fields (kw_only dataclasses: a game adds fields in any order), and the
capture sums."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol, runtime_checkable

from game.cards import Card
from game.rules import common
from game.rules.base import Action, Event, RecordError, play
from game.rules.vocabulary import DecisionKind, EventKind, Field, merge_events

#: The payload field of a capture game's play: the table cards it takes.
CAPTURE_FIELD = "capture"

#: A capture game's play: the card, and the table cards it takes (none: it is placed).
PLAY = DecisionKind(
    common.PLAY.name,
    plays_card=True,
    fields=(Field(CAPTURE_FIELD, "cards", optional=True, default=(), max_len=20, words="suggest.move.capture"),),
    words=common.PLAY.words,
)
#: A capture game's play line: its capture and the bonuses it scored are always written.
PLAY_EVENT = EventKind(
    common.PLAY_EVENT.name,
    (*common.PLAY_EVENT.fields, Field(CAPTURE_FIELD, "cards"), Field("bonuses", "str_list")),
    narration="narrate.capture",
    sound=common.PLAY_EVENT.sound,
    effect=common.PLAY_EVENT.effect,
)
#: The shared events with the capture game's play.
EVENTS: tuple[EventKind, ...] = merge_events(common.EVENTS, (PLAY_EVENT,))


def captured(action: Action) -> tuple[Card, ...]:
    """The table cards ``action`` takes (() for a card placed, or any other decision)."""
    value = action.arg(CAPTURE_FIELD, ())
    return value if isinstance(value, tuple) else ()


def play_from_record(ev: Event, game_name: str) -> Action:
    """The capture play a record's ``play`` line shows (its card and the cards it takes);
    RecordError for a line that is not one (naming the game)."""
    if ev.get("event") != common.PLAY_EVENT.name:
        raise RecordError(f"a '{ev.get('event')}' event is not a {game_name} decision")
    cap = ev.get(CAPTURE_FIELD)
    if not isinstance(cap, list):
        raise RecordError(f"'{CAPTURE_FIELD}' must be a list of card codes")
    return play(ev["card"], cap)


def capture_play(c: Card, cap: tuple[Card, ...] = ()) -> Action:
    """The play of ``c`` taking ``cap`` (sorted by card index, as the capture sums give it)."""
    return Action(common.PLAY.name, c, ((CAPTURE_FIELD, cap),) if cap else ())


@runtime_checkable
class CaptureRules(Protocol):
    """What a capture game's rules object answers beyond GameRules (Scopa's, Cìcera's)."""

    def captures_for(self, c: Card, table: list[Card]) -> list[tuple[Card, ...]]:
        """The captures ``c`` may make on ``table`` ([]: it is placed)."""
        ...


@dataclass(kw_only=True)
class CaptureState:
    """A capture game's deal in progress: the hands, the table, and each team's pile."""

    players: int
    dealer: int
    number: int
    hands: list[list[Card]]
    table: list[Card]
    piles: list[list[Card]]  # per team
    to_act: int
    last_capture_team: int | None = None
    over: bool = False
    opening_events: list[Event] = field(default_factory=list)
    #: Every play so far, as (seat, card, captured cards) — public information.
    history: list[tuple[int, Card, tuple[Card, ...]]] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class CaptureView:
    """What one seat may see: its own hand, the table, every pile, the other hands' counts."""

    seat: int
    players: int
    dealer: int
    to_act: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    piles: tuple[tuple[Card, ...], ...]
    history: tuple[tuple[int, Card, tuple[Card, ...]], ...]
    last_capture_team: int | None
    deck: tuple[Card, ...]

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Cards this seat has not seen: in other hands (or the stock); computed once per view."""
        seen = set(self.hand) | set(self.table)
        for p in self.piles:
            seen.update(p)
        return frozenset(self.deck) - seen


def target_race(totals: list[int], target: int) -> tuple[bool, int | None, str]:
    """A capture match's status (GameRules.match_status): won by the one team at or above
    ``target`` with the highest total; a tie for the lead plays on."""
    top = max(totals)
    if top < target:
        return False, None, f"nobody has reached {target}"
    leaders = [t for t, v in enumerate(totals) if v == top]
    if len(leaders) > 1:
        return False, None, f"teams {leaders} are tied for the lead at {top}: the match goes on"
    return True, leaders[0], f"team {leaders[0]} leads with {top} (target {target})"


def sums_by_value(
    table: list[Card], values: dict[Card, int], max_value: int, min_size: int = 2
) -> dict[int, list[tuple[Card, ...]]]:
    """Every set of table cards (at least ``min_size``) with a total of at most ``max_value``,
    grouped by that total.

    Computed once per turn and shared by all hand cards. Cards without a value (Cìcera courts)
    never join a sum. Each set is sorted by card index, so the same set is always the same tuple.
    """
    partial: list[tuple[int, tuple[Card, ...]]] = [(0, ())]
    for c in sorted(table, key=_index):
        v = values.get(c, 0)
        if v <= 0 or v > max_value:
            continue
        partial += [(s + v, cs + (c,)) for s, cs in partial if s + v <= max_value]
    out: dict[int, list[tuple[Card, ...]]] = {}
    for s, cs in partial:
        if len(cs) >= min_size:
            out.setdefault(s, []).append(cs)
    return out


def sum_sets(table: list[Card], values: dict[Card, int], target: int, min_size: int = 2) -> list[tuple[Card, ...]]:
    """Every set of table cards (at least ``min_size``) whose values add up to ``target``."""
    return sums_by_value(table, values, target, min_size).get(target, [])


def _index(c: Card) -> int:
    return c.index
