"""Determinizing helpers shared by the games' hooks: deal what a seat has not seen.

Each game's ``determinize`` builds its own state type, but the dealing is the same few
steps everywhere: list the unseen cards in a reproducible order, check their count against
the hands and stock they must fill, then shuffle them into place — uniformly, around cards
known to be in a hand, away from cards a hand cannot hold, or with one hand drawn in
proportion to how well it explains its owner's last play (card reading).

Every helper draws only from the ``rng`` it is given, in a fixed order, so the same bot seed
gives the same determinizations.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Protocol

from game.cards import Card


class HandsView(Protocol):
    """A view that shows its seat's hand and counts the others' (the fishing games')."""

    @property
    def seat(self) -> int: ...

    @property
    def hand(self) -> Sequence[Card]: ...

    @property
    def hand_counts(self) -> Sequence[int]: ...

    @property
    def unseen(self) -> Iterable[Card]: ...


def hidden_cards(unseen: Iterable[Card]) -> list[Card]:
    """The unseen cards in deck order. Why sorted: a frozenset's iteration order is not
    reproducible from run to run, the bot's random draws must be."""
    return sorted(unseen, key=lambda c: c.index)


def check_count(hidden: Sequence[Card], need: int, where: str = "the hands and stock") -> None:
    """The view must hide exactly the cards the other hands and the stock hold."""
    if len(hidden) != need or need < 0:
        raise ValueError(f"the view hides {len(hidden)} cards but {where} hold {need}")


def deal_hidden(
    view: HandsView, rng: random.Random, stock_count: int, preset: tuple[int, list[Card]] | None = None
) -> tuple[list[list[Card]], list[Card]]:
    """Every seat's hand and the stock: the seat's own hand (``view.hand``), the unseen cards
    dealt at random into the other hands (``view.hand_counts``) and a stock of ``stock_count``.
    ``preset`` = (seat, cards) gives one other seat a hand already chosen from the unseen cards.
    For games whose view has ``seat``, ``hand``, ``hand_counts`` and ``unseen`` (the fishing games)."""
    hidden = hidden_cards(view.unseen)
    check_count(hidden, sum(n for s, n in enumerate(view.hand_counts) if s != view.seat) + stock_count)
    if preset is not None:
        hidden = without(hidden, preset[1])
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    i = 0
    for s, n in enumerate(view.hand_counts):
        if s == view.seat:
            hands.append(list(view.hand))
        elif preset is not None and s == preset[0]:
            hands.append(list(preset[1]))
        else:
            hands.append(hidden[i : i + n])
            i += n
    return hands, hidden[i:]


def without(cards: Sequence[Card], taken: Collection[Card]) -> list[Card]:
    """``cards`` minus ``taken``, in order."""
    gone = set(taken)
    return [c for c in cards if c not in gone]


def split_hidden(
    rng: random.Random, hidden: list[Card], need: int, excluded: Collection[Card] = ()
) -> tuple[list[Card], list[Card]]:
    """(``need`` cards for the opponent's hand, the rest for the stock), at random — the
    ``excluded`` cards (those the opponent cannot hold) always go to the stock. Shuffles
    ``hidden`` in place when nothing is excluded.

    If fewer than ``need`` cards are allowed — impossible in a real deal — the exclusion is
    dropped rather than fail a decision over it."""
    if not excluded:
        rng.shuffle(hidden)
        return hidden[:need], hidden[need:]
    allowed = [c for c in hidden if c not in excluded]
    forced = [c for c in hidden if c in excluded]
    if len(allowed) < need:
        allowed, forced = hidden, []
    rng.shuffle(allowed)
    stock = allowed[need:] + forced
    rng.shuffle(stock)
    return allowed[:need], stock


def sample_by_likelihood(
    rng: random.Random, pool: Sequence[Card], k: int, likelihood: Callable[[list[Card]], float], tries: int
) -> list[Card]:
    """``k`` cards from ``pool``, drawn in proportion to ``likelihood(cards)`` (a probability):
    rejection sampling, at most ``tries`` draws (the last one is kept). Card reading: the hand
    a player most likely held, given what he played."""
    pick: list[Card] = []
    for _ in range(tries):
        pick = rng.sample(pool, k)
        if rng.random() < likelihood(pick):
            break
    return pick


def last_play_index(history: Sequence[tuple[int, Card]], seat: int) -> int | None:
    """Index in a trick history of (seat, card) of ``seat``'s most recent play, None before it
    has played: where card reading finds its clue."""
    for j in range(len(history) - 1, -1, -1):
        if history[j][0] == seat:
            return j
    return None
