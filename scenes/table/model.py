"""What the table shows, built from the record events alone: hands, table cards, the trick,
the stock and its turned card, the piles and every score on the HUD.

The table never peeks at the session's state: it reads the events the session produces
(RECORD.md), as a replay viewer would. Each event changes the model through the table
effect its game declares for it (:data:`EFFECTS`: a deal, a card played, a trick collected,
a draw, an exchange, an announcement …), never through its name, by the plain functions
below; the animation calls them step by step (a capture first lands on the table,
then is gathered), and :func:`apply_event` calls all of an event's steps at once. So after
any event, however it was shown, the model says what the rules' state says (the tests check
that on whole simulated matches).

No pygame here, and no rules object: the facts the model needs are copied in by
:func:`new_model`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the types only: no rules object is kept
    from game.rules.base import GameRules

Event = Mapping[str, Any]

#: Hand order: suits in this order, then the deck's rank order.
SUIT_ORDER = {"D": 0, "C": 1, "S": 2, "B": 3}


def rank_key(ranks: list[str]) -> Callable[[str | None], tuple[int, int]]:
    """Sort key for card codes: by suit, then by ``ranks`` (A, 2, … K, or A 10 K Q J)."""

    def key(code: str | None) -> tuple[int, int]:
        if not code:  # a hidden card (an online table's other hands): after every known one
            return (10, 100)
        r, s = code[:-1], code[-1]
        return (SUIT_ORDER.get(s, 9), ranks.index(r) if r in ranks else 99)

    return key


@dataclass
class TableModel:
    """One match as the table shows it. Seats and teams are numbered as in the record."""

    players: int
    teams: int
    #: The seat whose hand is shown face up and kept in hand order (the human, or seat 0).
    viewer: int
    team_of: Callable[[int], int]
    #: Capture games put unmatched cards on the table; trick games play into a trick.
    capture: bool
    initial_totals: list[int]
    #: Bonuses the HUD counts per team (Scopa's scope, Cìcera's four).
    counted_bonuses: frozenset[str] = frozenset()
    sort_key: Callable[[str | None], tuple[int, int]] | None = None
    #: Drawn cards are shown to everyone (Tressette for two): they stay known in the hand.
    public_draws: bool = False
    # ---- the cards
    hands: list[list[str]] = field(default_factory=list)
    table: list[str] = field(default_factory=list)
    trick: list[tuple[int, str]] = field(default_factory=list)
    stock_count: int = 0
    #: The turned card's code while it lies under the stock (counted in ``stock_count``).
    trump: str | None = None
    trump_suit: str | None = None
    closed: bool = False
    # ---- the scores
    piles: list[int] = field(default_factory=list)  # cards won, per team
    bonus_count: list[int] = field(default_factory=list)  # counted bonuses, per team
    card_points: list[int] = field(default_factory=list)  # trick points of the deal, per seat
    won_cards: list[int] = field(default_factory=list)  # cards won in tricks, per seat
    declared_points: list[int] = field(default_factory=list)  # credited declarations (a marriage), per seat
    pending: list[int] = field(default_factory=list)  # marriages waiting for a first trick
    totals: list[int] = field(default_factory=list)
    #: Per seat, the cards in its hand that every player has seen (drawn face up).
    known: list[list[str]] = field(default_factory=list)
    dealer: int | None = None
    deal_number: int = 0
    match_over: bool = False
    #: Per seat, its last announcement that scores nothing (a bid, a pass): its plate shows
    #: it until a card is played or the deal ends. Replaced, never changed in place.
    said: dict[int, Event] = field(default_factory=dict)
    #: Each record event's table effect, by the event's name (:func:`event_effects`).
    effects: Mapping[str, str] = field(default_factory=dict)
    #: The announcements that score their ``points`` (:func:`declarations`: a marriage).
    scoring: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        self.totals = list(self.totals or self.initial_totals)
        reset_deal(self)

    @property
    def hand(self) -> list[str]:
        """The viewer's hand, in hand order."""
        return self.hands[self.viewer]

    def first_seat(self) -> int:
        """Who is dealt to first (and leads): the dealer's next seat."""
        return ((self.dealer if self.dealer is not None else 0) + 1) % self.players


def new_model(rules: GameRules, viewer: int) -> TableModel:
    """A model for a match of ``rules`` seen from ``viewer``'s chair."""
    return TableModel(
        players=rules.players,
        teams=rules.teams,
        viewer=viewer,
        team_of=rules.team_of,
        capture=rules.is_capture_game,
        initial_totals=list(rules.initial_totals()),
        counted_bonuses=frozenset(rules.counted_bonuses),
        sort_key=rank_key(list(rules.deck.ranks())),
        public_draws=bool(rules.draws_public),
        effects=event_effects(rules),
        scoring=declarations(rules),
    )


# ====================================================================== steps
def reset_deal(m: TableModel) -> None:
    """Everything of one deal back to nothing (totals and the deal count stay)."""
    n, t = m.players, m.teams
    m.hands = [[] for _ in range(n)]
    m.table, m.trick = [], []
    m.stock_count = 0
    m.trump = m.trump_suit = None
    m.closed = False
    m.piles, m.bonus_count = [0] * t, [0] * t
    m.card_points, m.won_cards = [0] * n, [0] * n
    m.declared_points, m.pending = [0] * n, [0] * n
    m.known = [[] for _ in range(n)]
    m.said = {}


def start_match(m: TableModel, ev: Event) -> None:
    m.totals = list(m.initial_totals)
    m.match_over = False


def start_deal(m: TableModel, ev: Event) -> None:
    """A ``deal`` line, before its cards are dealt: the stock is full, the trump turned."""
    reset_deal(m)
    m.dealer = ev.get("dealer")
    m.deal_number = ev.get("number", m.deal_number + 1)
    m.trump = ev.get("trump")
    m.trump_suit = m.trump[-1] if m.trump else None
    m.stock_count = len(ev.get("stock") or [])


def _sort(m: TableModel, seat: int) -> None:
    if seat == m.viewer and m.sort_key is not None:
        m.hands[seat].sort(key=m.sort_key)


def give(m: TableModel, seat: int, code: str) -> None:
    """A card joins ``seat``'s hand."""
    m.hands[seat].append(code)
    _sort(m, seat)


def deal_hands(m: TableModel, hands: list[list[str]]) -> None:
    """The cards of a ``deal`` or ``hands`` line join the hands."""
    for seat, cards in enumerate(hands[: m.players]):
        m.hands[seat].extend(cards)
        _sort(m, seat)


def deal_table(m: TableModel, codes: list[str]) -> None:
    m.table.extend(codes)


def new_hands(m: TableModel, ev: Event) -> None:
    """A ``hands`` line (Scopa's later rounds): dealt from the stock."""
    hands = ev.get("hands") or []
    m.stock_count = max(0, m.stock_count - sum(len(h) for h in hands))
    deal_hands(m, hands)


def take_from_hand(m: TableModel, seat: int, code: str) -> None:
    """A card leaves a hand: that card, or — a hand the viewer may not see (an online table
    sends its cards as None) — one hidden card."""
    if code in m.hands[seat]:
        m.hands[seat].remove(code)
    elif None in m.hands[seat]:
        # The hands are typed as the viewer's is read (codes); only other seats' hold None.
        m.hands[seat].remove(None)  # type: ignore[arg-type]
    if code in m.known[seat]:
        m.known[seat].remove(code)


def play_card(m: TableModel, seat: int, code: str, captures: bool = False) -> None:
    """A card leaves the hand: into the trick, onto the table, or (``captures``) on its way
    to take table cards (see :func:`take`)."""
    take_from_hand(m, seat, code)
    if m.said:
        m.said = {}  # the play has begun: the announcements are over
    if not m.capture:
        m.trick.append((seat, code))
    elif not captures:
        m.table.append(code)


def to_pile(m: TableModel, codes: list[str], team: int) -> None:
    """Cards (off the table, or the trick's) go to a team's pile."""
    for c in codes:
        if c in m.table:
            m.table.remove(c)
    m.piles[team] += len(codes)


def take(m: TableModel, seat: int, codes: list[str], bonuses: list[str]) -> None:
    """A capture: the played card and what it took go to the team's pile; bonuses count."""
    team = m.team_of(seat)
    to_pile(m, codes, team)
    m.bonus_count[team] += sum(1 for b in bonuses if b in m.counted_bonuses)


def gather_trick(m: TableModel, winner: int, points: int) -> list[str]:
    """A ``trick`` line: the trick goes to the winner's pile; a waiting marriage counts now."""
    codes = [c for _, c in m.trick]
    m.trick = []
    to_pile(m, codes, m.team_of(winner))
    m.card_points[winner] += points
    m.won_cards[winner] += len(codes)
    if m.pending[winner]:
        m.declared_points[winner] += m.pending[winner]
        m.pending[winner] = 0
    return codes


def draw(m: TableModel, seat: int, code: str) -> None:
    """A ``draw`` line: the top of the stock (or, last, the turned card) to a hand."""
    m.stock_count = max(0, m.stock_count - 1)
    if code == m.trump:
        m.trump = None
    give(m, seat, code)
    if m.public_draws:
        m.known[seat].append(code)


def swap_face_up(m: TableModel, seat: int, gave: str, took: str) -> None:
    """An exchange: the card ``gave`` goes under the stock, the turned card ``took`` to the hand."""
    take_from_hand(m, seat, gave)
    m.trump = gave
    give(m, seat, took)


def credit_announced(m: TableModel, seat: int, points: int) -> None:
    """Points an announcement scores (a marriage): they count once its seat has won a trick,
    until then they wait."""
    if m.won_cards[seat]:
        m.declared_points[seat] += points
    else:
        m.pending[seat] += points


def close_stock(m: TableModel) -> None:
    """The stock is closed: no more drawing, the turned card lies face down."""
    m.closed = True


def leftover(m: TableModel, left: Event | None) -> list[str]:
    """The cards left on a capture game's table go to the last capturer; returns them."""
    if not left or not m.capture or not m.table:
        return []
    cards = [c for c in left.get("cards", []) if c in m.table]
    to_pile(m, cards, left.get("team", 0))
    return cards


def end_deal(m: TableModel, ev: Event) -> None:
    m.totals = list(ev.get("totals") or m.totals)


def end_match(m: TableModel, ev: Event) -> None:
    m.match_over = True
    m.totals = list(ev.get("totals") or m.totals)


# ====================================================================== a whole event
#: The record's first line (RECORD.md): it starts a match in every game.
_MATCH_LINE = "match"


class EventKindLike(Protocol):
    """What the table reads of a declared record event (game.rules.vocabulary.EventKind)."""

    @property
    def name(self) -> str: ...
    @property
    def effect(self) -> str: ...
    @property
    def narration(self) -> str: ...
    @property
    def sound(self) -> str: ...


def declared_events(rules: object) -> tuple[EventKindLike, ...]:
    """The record events ``rules`` declare (their ``event_kinds``)."""
    return tuple(getattr(rules, "event_kinds", None) or ())


def event_effects(rules: object) -> dict[str, str]:
    """Each record event's table effect, by the event's name, as ``rules`` declare them
    (game.rules.vocabulary.EventKind.effect; "" for an event the table only tells)."""
    out = {k.name: k.effect for k in declared_events(rules)}
    # The record's first line starts the match, whatever a game declares for it.
    out[_MATCH_LINE] = out.get(_MATCH_LINE) or "match_start"
    return out


def declarations(rules: object) -> frozenset[str]:
    """The record events that declare a toggle with the card led (a marriage: the play's
    declared ``opens``): announcements that score their ``points`` in the deal, once their
    seat has won a trick. Any other announcement (a bid, a pass, a call) only says its words."""
    kinds = getattr(rules, "decision_kinds", None) or ()
    return frozenset(e for d in kinds if d.toggle for e in d.opens)


def effect_of(m: TableModel, ev: Event) -> str:
    """The table effect of one event ("" for none, or an event the game does not declare)."""
    name = ev.get("event")
    return m.effects.get(name, "") if isinstance(name, str) else ""


def _deal(m: TableModel, ev: Event) -> None:
    start_deal(m, ev)
    deal_hands(m, ev.get("hands") or [])
    deal_table(m, ev.get("table") or [])


def _play(m: TableModel, ev: Event) -> None:
    capture = list(ev.get("capture") or [])
    play_card(m, ev["seat"], ev["card"], bool(capture))
    if capture:
        take(m, ev["seat"], [ev["card"], *capture], list(ev.get("bonuses") or []))


def _collect_trick(m: TableModel, ev: Event) -> None:
    gather_trick(m, ev["winner"], int(ev.get("points") or 0))


def _deal_end(m: TableModel, ev: Event) -> None:
    leftover(m, ev.get("leftover"))
    end_deal(m, ev)


def announce(m: TableModel, ev: Event) -> None:
    """An announcement: a declaration's points (a marriage's: :func:`declarations`) count once
    its seat has won a trick; any other (a bid, a pass) is its seat's plate's words."""
    seat = ev.get("seat")
    if not isinstance(seat, int):
        return
    if ev.get("event") in m.scoring:
        credit_announced(m, seat, int(ev.get("points") or 0))
    else:
        m.said = {**m.said, seat: dict(ev)}


#: What each table effect does to the model: an event applies through its declared effect.
#: An effect not here (none, or one the table only tells) changes nothing the table shows.
EFFECTS: Mapping[str, Callable[[TableModel, Event], None]] = {
    "match_start": start_match,
    "deal": _deal,
    "new_hands": new_hands,
    "play_card": _play,
    "collect_trick": _collect_trick,
    "draw": lambda m, ev: draw(m, ev["seat"], ev["card"]),
    "swap_face_up": lambda m, ev: swap_face_up(m, ev["seat"], ev["gave"], ev["took"]),
    "announce": announce,
    "close_stock": lambda m, ev: close_stock(m),
    "deal_end": _deal_end,
    "match_end": end_match,
}


def apply_event(m: TableModel, ev: Event) -> None:
    """Every step of one record event, in the order the table shows them."""
    fn = EFFECTS.get(effect_of(m, ev))
    if fn is not None:
        fn(m, ev)


__all__ = [
    "TableModel",
    "new_model",
    "rank_key",
    "apply_event",
    "announce",
    "declared_events",
    "declarations",
    "effect_of",
    "event_effects",
    "EFFECTS",
    "reset_deal",
    "start_match",
    "start_deal",
    "deal_hands",
    "deal_table",
    "new_hands",
    "give",
    "take_from_hand",
    "play_card",
    "to_pile",
    "take",
    "gather_trick",
    "draw",
    "swap_face_up",
    "credit_announced",
    "close_stock",
    "leftover",
    "end_deal",
    "end_match",
]
