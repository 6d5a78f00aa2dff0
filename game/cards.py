"""Cards with canonical codes ("7D", "10S", "QB") and decks built from rules.yaml.

A card is interned: there is exactly one ``Card`` object per code, so identity, equality
and hashing are cheap — the AI and the simulator compare cards millions of times.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS: tuple[str, ...] = ("D", "C", "S", "B")
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Numeric order of rank tokens (A=1 … 10=10, J=11, Q=12, K=13); games map ranks to their
#: own capture values, strengths and points from rules.yaml.
RANK_NUMBER: dict[str, int] = {r: i + 1 for i, r in enumerate(RANKS)}


class Card:
    """One playing card. Create with :func:`card`; never construct directly."""

    __slots__ = ("rank", "suit", "code", "number", "index")

    rank: str
    suit: str
    code: str
    number: int
    index: int

    def __repr__(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.code

    # Interned: copies must stay the same object so identity-based equality holds.
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self

    def __reduce__(self):
        return (card, (self.code,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_BY_CODE: dict[str, Card] = {}


def _make_all() -> None:
    for si, suit in enumerate(SUITS):
        for ri, rank in enumerate(RANKS):
            c = object.__new__(Card)
            c.rank = rank
            c.suit = suit
            c.code = rank + suit
            c.number = RANK_NUMBER[rank]
            c.index = si * len(RANKS) + ri
            _BY_CODE[c.code] = c


_make_all()


class CardCodeError(ValueError):
    """A string that is not a canonical card code."""


def card(code: str) -> Card:
    """The card with canonical code ``code`` (e.g. ``"7D"``); raises CardCodeError."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise CardCodeError(f"{code!r} is not a card code (rank A,2..10,J,Q,K + suit D,C,S,B)") from None


def cards(codes: Iterable[str] | str) -> list[Card]:
    """Cards from codes: a list of codes or one space-separated string ``"7D 3C"``."""
    if isinstance(codes, str):
        codes = codes.split()
    return [card(c) for c in codes]


def codes(cs: Iterable[Card]) -> list[str]:
    return [c.code for c in cs]


def is_card_code(code: object) -> bool:
    return isinstance(code, str) and code in _BY_CODE


def build_deck(ranks: Iterable[str], suits: Iterable[str] = SUITS) -> list[Card]:
    """All cards of the given ranks in the given suits, in a stable order (suit, then rank)."""
    ranks = list(ranks)
    return [card(r + s) for s in suits for r in ranks]
