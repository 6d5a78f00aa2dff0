"""A card's name in the player's language, made in this one place: the table's captions and
speech, the refusals, the lessons' and the coach's words all say the same name for a card
("the 10 of Coins" in Cìcera, "the Ten of Leaves" in Schnapsen, "Kelch-7", "7 van Munten").

The pattern is the locale's ``table.card`` ("{rank} of {suit}", "{suit}-{rank}"); the words
are the deck's (its suits, courts and the numerals its players name in words, rules.yaml) and
the locale's Ace. Pure functions of a message lookup ``t(key, **params)``: no pygame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Translate = Callable[..., str]


class DeckWords(Protocol):
    """What a card's name takes from its deck (game.config_types.DeckConfig): the words its
    players use for a rank and a suit."""

    def rank_word(self, rank: str, lang: str) -> str | None: ...

    def card_suit(self, suit: str, lang: str) -> str: ...


def rank_name(t: Translate, deck: DeckWords, lang: str, rank: str) -> str:
    """ "Ace", "King", "Ten" (Schnapsen), "7": the rank as the deck's players name it."""
    if rank == "A":
        return t("table.rank.A")
    word = deck.rank_word(rank, lang)
    return word if word else rank


def card_name(t: Translate, deck: DeckWords, lang: str, code: str) -> str:
    """ "7 of Coins", "Herz-König", "Ten of Leaves"; an unknown code is shown as it is."""
    try:
        rank = rank_name(t, deck, lang, code[:-1])
        suit = deck.card_suit(code[-1], lang)
    except (KeyError, IndexError, TypeError, AttributeError):
        return str(code)
    return t("table.card", rank=rank, suit=suit)


__all__ = ["DeckWords", "card_name", "rank_name"]
