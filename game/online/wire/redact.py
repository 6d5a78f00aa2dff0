"""What one seat may receive of a match's record: ``seat_events(rules, events, seat)``.

The server sends each seat only these: the record's events with what the seat may not see
replaced by ``null`` (docs/ONLINE.md, "What a seat sees"):

- ``match``: the ``seed`` (it would give away every deal);
- ``deal``: the other seats' hands become lists of nulls of the same length; the stock
  becomes nulls, except the face-up card where the game turns one (``rules.has_trump``: the
  stock's last card, also named by ``trump``); the table stays;
- ``hands`` (a new round dealt from the stock): the other seats' cards become nulls;
- ``draw`` by another seat: the card becomes null, unless draws are shown to everyone
  (``rules.draws_public``) or the card drawn is the face-up one (it was public);
- everything else (plays, tricks, exchanges, marriages, closing, redeals, scores) is public.

The face-up card is followed through the events: the last card of the stock at a deal, the
card given in an ``exchange`` (the exchanged Jack lies face up in its place) — so a later
draw of it is shown. The rules' own ``view`` is the oracle the tests hold this against
(tests/online/wire/test_redact_leak.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game.rules.base import Event, GameRules


class SeatRedactor:
    """Redacts one seat's stream event by event, in order (it follows the face-up card).
    :meth:`feed` takes the next events of the record and returns them as the seat sees them;
    the record's events are never changed."""

    def __init__(self, rules: GameRules, seat: int):
        self.has_trump = rules.has_trump
        self.draws_public = rules.draws_public
        self.seat = seat
        self.face_up: str | None = None

    def feed(self, events: Iterable[Event]) -> list[Event]:
        return [self.one(ev) for ev in events]

    def one(self, ev: Event) -> Event:
        kind = ev.get("event")
        me = self.seat
        if kind == "match":
            return {**ev, "seed": None}
        if kind == "deal":
            stock = list(ev.get("stock") or ())
            self.face_up = stock[-1] if self.has_trump and stock else None
            hidden_stock: list[Any] = [None] * len(stock)
            if self.face_up is not None:
                hidden_stock[-1] = self.face_up
            return {**ev, "hands": _own_hand_only(ev.get("hands"), me), "stock": hidden_stock}
        if kind == "hands":
            return {**ev, "hands": _own_hand_only(ev.get("hands"), me)}
        if kind == "exchange":
            # The player's Jack takes the face-up card's place, face up.
            self.face_up = ev.get("gave")
            return dict(ev)
        if kind == "draw":
            drawn = ev.get("card")
            shown = ev.get("seat") == me or self.draws_public or (drawn is not None and drawn == self.face_up)
            if drawn is not None and drawn == self.face_up:
                self.face_up = None
            return dict(ev) if shown else {**ev, "card": None}
        return dict(ev)


def _own_hand_only(hands: Any, seat: int) -> list[Any]:
    out: list[Any] = []
    for i, hand in enumerate(hands or ()):
        out.append(list(hand) if i == seat else [None] * len(hand))
    return out


def seat_events(rules: GameRules, events: list[Event], seat: int) -> list[Event]:
    """The whole stream ``events`` as seat ``seat`` may see it (one event per record event,
    in order, so index i of the seat's stream is index i of the record)."""
    return SeatRedactor(rules, seat).feed(events)


__all__ = ["SeatRedactor", "seat_events"]
