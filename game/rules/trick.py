"""What the trick games (Briscola, Schnapsen, Tressette) share, beside capture.py for the
fishing games: the strength table, who wins a trick, the deal record's dealer, the shared
play actions, and a view's trick facts. Each game's rules class derives from
:class:`TrickRules`; its view may mix in :class:`TrickView`."""

from __future__ import annotations

from typing import Any

from game.cards import Card
from game.rules.base import Action, Event, GameRules, RecordError


class TrickRules(GameRules):
    """The trick family's rules: a card wins a trick by suit and strength (``scoring.strength``
    lists the ranks strongest first), a trump, where the game has one, over any other suit."""

    family = "trick"

    def __init__(self, game: Any, deck: Any, players: int, options: Any):
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
