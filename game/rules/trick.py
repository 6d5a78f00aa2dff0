"""What the trick games (Briscola, Schnapsen, Tressette) share, beside capture.py for the
fishing games: the strength table, who wins a trick, the deal record's dealer, the shared
play actions, and a view's trick facts. Each game's rules class derives from
:class:`TrickRules`; its view may mix in :class:`TrickView`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from game.cards import Card
from game.rules import common
from game.rules.base import Action, Event, GameRules, RecordError, S, V
from game.rules.vocabulary import EventKind, Field, JsonObject, Sight

if TYPE_CHECKING:
    from game.config_types import DeckConfig, GameConfig


def _draw_audience(event: JsonObject, sight: Sight) -> JsonObject | None:
    # Another seat's draw is hidden unless draws are public or the card was the face-up one.
    drawn = event.get("card")
    shown = event.get("seat") == sight.seat or sight.draws_public or (drawn is not None and drawn == sight.face_up)
    if drawn is not None and drawn == sight.face_up:
        sight.face_up = None
    return dict(event) if shown else {**event, "card": None}


#: A trick gathered: its winner, its cards in play order, the card points it holds.
TRICK = EventKind(
    "trick",
    (Field("winner", "seat"), Field("cards", "cards"), Field("points", "int")),
    narration="narrate.trick",
    sound="trick",
    effect="collect_trick",
)
#: A card drawn from the stock after a trick.
DRAW = EventKind(
    "draw",
    (Field("seat", "seat"), Field("card", "card")),
    audience=_draw_audience,
    narration="narrate.draw",
    sound="deal",
    effect="draw",
)
#: What a trick game's record holds: the shared events, its tricks and, with a stock, its draws.
EVENTS: tuple[EventKind, ...] = (*common.EVENTS[:3], TRICK, DRAW, *common.EVENTS[3:])


class TrickRules(GameRules[S, V]):
    """The trick family's rules: a card wins a trick by suit and strength (``scoring.strength``
    lists the ranks strongest first), a trump, where the game has one, over any other suit."""

    family = "trick"

    def __init__(self, game: GameConfig, deck: DeckConfig, players: int, options: Mapping[str, Any]):
        super().__init__(game, deck, players, options)
        order = list(self.scoring["strength"])
        # Higher number = stronger card; what a card is worth in points is each game's own table.
        self.strength: dict[Card, int] = {c: len(order) - order.index(c.rank) for c in self.cards}
        self.deck_cards: tuple[Card, ...] = tuple(self.cards)
        # Shared, immutable play actions: legal_actions allocates nothing per card.
        self._play: dict[Card, Action] = {c: Action("play", c) for c in self.cards}

    def beats(self, follow: Card, led: Card, trump_suit: str | None) -> bool:
        """Does ``follow`` beat ``led`` (the trick's best card so far)? A stronger card of its
        suit, or a trump on a non-trump; a card of a third suit never wins. ``trump_suit``
        None: a game without trumps."""
        if follow.suit == led.suit:
            return self.strength[follow] > self.strength[led]
        return follow.suit == trump_suit

    def trick_winner(self, cards: list[Card], leader: int, trump_suit: str | None = None) -> int:
        """The seat that wins ``cards`` (in play order, led by ``leader``): the highest trump,
        else the strongest card of the led suit."""
        n = self.players
        best, winner = cards[0], leader
        for i in range(1, len(cards)):
            c = cards[i]
            if self.beats(c, best, trump_suit):
                best, winner = c, (leader + i) % n
        return winner

    def read_dealer(self, ev: Event) -> tuple[int, int]:
        """(dealer, deal number) of a record's deal event; RecordError when the dealer is no seat."""
        dealer, number = ev["dealer"], ev["number"]
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.players:
            raise RecordError(f"dealer {dealer!r} is not a seat (0..{self.players - 1})")
        return dealer, number


class TrickView:
    """Mixed into a trick game's view (a frozen dataclass with ``trick`` and ``history``)."""

    trick: tuple[Card, ...]
    history: tuple[tuple[int, Card], ...]

    @property
    def leading(self) -> bool:
        """Whether the seat to act leads the trick (nothing is on it yet)."""
        return not self.trick

    @property
    def played(self) -> frozenset[Card]:
        """Every card played so far this deal."""
        return frozenset(c for _, c in self.history)
