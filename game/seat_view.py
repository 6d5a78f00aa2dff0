"""What one seat (or a spectator) may see of a match: one definition for the server, the
spectators, the client and the tests.

Each record event's declared audience (game.rules.vocabulary.EventKind.audience, in the
game's vocabulary) says what a viewer may see of it: the event itself, a copy with the hidden
parts replaced by ``null``, or nothing. A :class:`SeatStream` runs a viewer's events through
their audiences in record order, carrying what earlier events made public (the face-up card
under the stock, followed through deal and exchange: game.rules.vocabulary.Sight).

A seat is a seat number; a spectator is ``None`` (``SPECTATOR``): it sees what every seat
may see (nobody's hand). The rules' own ``view(state, seat)`` is the oracle the leak test
holds these streams against (tests/online/wire/test_redact_leak.py).

Pure Python: no pygame.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from game.cards import is_card_code
from game.rules.base import Event, GameRules
from game.rules.vocabulary import Redactor, Sight

#: The viewer who holds no seat.
SPECTATOR: None = None


def sight_for(rules: GameRules, seat: int | None) -> Sight:
    """A fresh sight for ``seat`` (None: a spectator), with the game's facts its audiences read."""
    return Sight(seat, has_trump=rules.has_trump, draws_public=rules.draws_public)


class SeatStream:
    """One viewer's stream, event by event in record order (it follows what earlier events
    made public). :meth:`feed` takes the record's next events and returns them as the viewer
    sees them; the record's events are never changed."""

    def __init__(self, rules: GameRules, seat: int | None):
        self.seat = seat
        self.sight = sight_for(rules, seat)
        self._redactor = Redactor(rules.vocabulary, self.sight)

    def one(self, event: Event) -> Event | None:
        """The event as the viewer sees it, None when the viewer is told nothing of it."""
        return self._redactor.one(event)

    def feed(self, events: Iterable[Event]) -> list[Event]:
        """The events the viewer is told, in order (an event it is told nothing of is left out)."""
        out: list[Event] = []
        for ev in events:
            seen = self.one(ev)
            if seen is not None:
                out.append(seen)
        return out


def seat_events(rules: GameRules, events: Sequence[Event], seat: int | None) -> list[Event]:
    """The record ``events`` as ``seat`` (None: a spectator) may see them, in order. Every
    declared audience of the shipped games tells each viewer something of every event, so
    index i of the stream is index i of the record."""
    return SeatStream(rules, seat).feed(events)


def may_see(rules: GameRules, events: Sequence[Event], seat: int | None) -> set[str]:
    """Every card code the viewer's stream of ``events`` names (what it has been shown)."""
    out: set[str] = set()
    for ev in seat_events(rules, events, seat):
        _codes(ev, out)
    return out


def _codes(value: object, out: set[str]) -> None:
    if isinstance(value, str):
        if is_card_code(value):
            out.add(value)
    elif isinstance(value, list):
        for v in value:
            _codes(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _codes(v, out)


__all__ = ["SPECTATOR", "SeatStream", "may_see", "seat_events", "sight_for"]
