"""What the fishing games (Scopa, Cìcera) share: the state and view every capture game
extends with its own fields (kw_only dataclasses: a game adds fields in any order), and the
capture sums."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
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
    """The play of ``c`` taking ``cap`` (sorted by card index, as the capture sums give it).

    Shared: an Action is immutable, so the same play is one object from a bounded cache (the
    legal-action lists of the capture games build thousands a second)."""
    key = (c, cap)
    try:
        a = _PLAYS.get(key)
    except TypeError:  # an unhashable capture (a list): built as it comes, never shared
        return Action(common.PLAY.name, c, ((CAPTURE_FIELD, cap),) if cap else ())
    if a is None:
        if len(_PLAYS) >= _PLAYS_MAX:
            _PLAYS.clear()
        a = _PLAYS[key] = Action(common.PLAY.name, c, ((CAPTURE_FIELD, cap),) if cap else ())
    return a


#: capture_play's shared plays, by (card, capture); emptied whole when full (cheap, and the
#: plays a game needs come back at once).
_PLAYS: dict[tuple[Card, tuple[Card, ...]], Action] = {}
_PLAYS_MAX = 1 << 13


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
    table: list[Card] | tuple[Card, ...], values: dict[Card, int], max_value: int, min_size: int = 2
) -> dict[int, list[tuple[Card, ...]]]:
    """Every set of table cards (at least ``min_size``) with a total of at most ``max_value``,
    grouped by that total.

    Computed once per turn and shared by all hand cards. Cards without a value (Cìcera courts)
    never join a sum. Each set is sorted by card index, so the same set is always the same tuple.
    The sets of each total come in the order of their bit masks (card ``i`` of the index-sorted
    table is bit ``i``), and the totals in the order of their first set.
    """
    partial = partial_sums(table, values, max_value)
    out: dict[int, list[tuple[Card, ...]]] = {}
    for s, cs in partial:
        if len(cs) >= min_size:
            if s in out:
                out[s].append(cs)
            else:
                out[s] = [cs]
    return out


def sum_sets(
    table: list[Card] | tuple[Card, ...], values: dict[Card, int], target: int, min_size: int = 2
) -> list[tuple[Card, ...]]:
    """Every set of table cards (at least ``min_size``) whose values add up to ``target``."""
    if target <= 0:  # only the empty set totals 0 (no set totals less)
        return [()] if target == 0 and min_size <= 0 else []
    # The totals the table's sets make (of two or more cards, where a single one does not
    # count), as bits: the search runs only when ``target`` is one.
    one = more = 0
    get = values.get
    for t in table:
        v = get(t, 0)
        if 0 < v <= target:
            shifted = one << v
            more |= shifted
            one |= shifted | 1 << v
    if not (more if min_size >= 2 else one) >> target & 1:
        return []
    return [cs for s, cs in partial_sums(table, values, target) if s == target and len(cs) >= min_size]


def partial_sums(
    table: list[Card] | tuple[Card, ...], values: dict[Card, int], max_value: int
) -> list[tuple[int, tuple[Card, ...]]]:
    """Every set of table cards with a total of at most ``max_value`` (the empty one first), as
    (total, its cards by index), in the order sums_by_value gives them: each table card in index
    order adds the sets it extends. Cards without a positive value never join a set."""
    partial: list[tuple[int, tuple[Card, ...]]] = [(0, ())]
    if len(table) > 1:
        table = sorted(table, key=card_index)
    get = values.get
    append = partial.append
    for c in table:
        v = get(c, 0)
        if 0 < v <= max_value:
            lim = max_value - v
            # A plain loop over the sets so far: cheaper than a comprehension on these short lists.
            for i in range(len(partial)):
                s, cs = partial[i]
                if s <= lim:
                    append((s + v, cs + (c,)))
    return partial


#: A card's index: the sort key of every capture (the order ``sorted`` gives cards).
card_index = attrgetter("index")
