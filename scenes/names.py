"""Seat, team and card names, in the player's language: one place for the table, the results
screen and the menu's "continue" card.

One vocabulary: seats are named by where they sit round the felt ("West", "Partner",
"Us"/"Them"), on the table, on the results screen and on the menu's "continue" card alike,
so the player who saw West sweep the Ace reads West's name in the results. Seats are counted
in turn order, anticlockwise seen from above, so the seat after the viewer sits on the
viewer's right (East).

Pure functions of a message lookup ``t(key, **params)``: no pygame, no scene.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game import card_names

Translate = Callable[..., str]

#: Where the other seats sit, by their distance from the viewer in turn order.
_SIDES: dict[int, tuple[str, ...]] = {2: ("top",), 3: ("right", "left"), 4: ("right", "top", "left")}
_COMPASS = {"left": "table.west", "top": "table.north", "right": "table.east"}


def side(seat: int, viewer: int, players: int) -> str:
    """ "bottom" (the viewer), "right", "top" or "left" for a seat round the table."""
    rel = (seat - viewer) % players
    if rel == 0:
        return "bottom"
    return _SIDES.get(players, ("top",) * players)[min(rel, players) - 1]


def _team_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


# ---------------------------------------------------------------------- the table's words
def seat_name(
    t: Translate,
    seat: int,
    viewer: int | None,
    players: int,
    subject: bool = False,
    team_of: Callable[[int], int] | None = None,
) -> str:
    """A seat at the table: "You", "Partner" (four players) or West / North / East.

    ``subject``: as a sentence's subject ("Il compagno sta pensando…"), which takes an
    article in nl/de/it. ``team_of`` maps seats to teams (default: partners sit opposite).
    ``viewer`` None (nobody's chair: a computer-only record): "Player 1", "Player 2"…"""
    if viewer is None:
        return t(f"results.{'subject.' if subject else ''}player_n", n=seat + 1)
    if seat == viewer:
        return t("table.you")
    team = team_of or (lambda s: _team_of(s, players))
    if players == 4 and team(seat) == team(viewer):
        return t("table.subject.partner" if subject else "table.partner")
    return t(_COMPASS[side(seat, viewer, players)])


def team_name(
    t: Translate,
    team: int,
    viewer: int | None,
    players: int,
    subject: bool = False,
    team_of: Callable[[int], int] | None = None,
) -> str:
    """A team at the table: "Us"/"Them" with partners, else the seat (team = seat); nobody's
    chair (``viewer`` None): "Team 1", "Team 2"."""
    if players == 4:
        if viewer is None:
            return t("results.team_n", n=team + 1)
        mine = (team_of or (lambda s: _team_of(s, players)))(viewer)
        return t("table.us" if team == mine else "table.them")
    return seat_name(t, team, viewer, players, subject, team_of)


# ---------------------------------------------------------------------- the results screen and the menu
def team_names(t: Translate, players: int, human_seat: int | None, subject: bool = False) -> list[str]:
    """Column names in team order, as the table names them: "Us"/"Them" with partners, else
    "You" and the others by where they sit ("North", "East", "West"). ``human_seat`` None
    (bots only, nobody's chair): "Team 1", "Player 2"…

    ``subject``: the names as a sentence's subject ("{name} wins the match"); compass names
    need no article, the numbered players take one in nl/de/it (results.subject.*)."""
    sub = "subject." if subject else ""
    if human_seat is None:
        if players == 4:
            return [t("results.team_n", n=1), t("results.team_n", n=2)]
        return [t(f"results.{sub}player_n", n=seat + 1) for seat in range(players)]
    teams = 2 if players == 4 else players
    return [team_name(t, team, human_seat, players, subject) for team in range(teams)]


def game_and_deck(game: str, deck: str) -> str:
    """ "Scopa · Piacentine"; a deck named after its game ("Schnapsen (German suits)") says
    only what is its own: "Schnapsen · German suits"."""
    if deck.startswith(game):
        # Its own words as the deck writes them ("deutsch", "semi tedeschi": no capital added).
        deck = deck[len(game) :].strip().strip("()").strip()
        if not deck:
            return game
    return f"{game} · {deck}"


# ---------------------------------------------------------------------- cards
def deck_names(deck: Any, lang: str) -> dict[str, str]:
    """The deck's suit and court names ({D} {C} {S} {B} {J} {Q} {K} in messages), and each
    suit as it stands inside a card's name ({card_C}: "Kelch" in "Kelch-Bube"), so that a
    message naming a card names it as the table does."""
    names = {s: deck.suit_name(s, lang) for s in ("D", "C", "S", "B")}
    names.update({r: deck.court_name(r, lang) for r in ("J", "Q", "K")})
    names.update({f"card_{s}": deck.card_suit(s, lang) for s in ("D", "C", "S", "B")})
    return names


def card_name(t: Translate, deck: Any, lang: str, code: str) -> str:
    """ "7 of Coins", "Herz-König": the deck's own names in the player's language (one maker
    of card names for the window and the coach: game.card_names)."""
    return card_names.card_name(t, deck, lang, code)


def rank_name(t: Translate, deck: Any, lang: str, rank: str) -> str:
    return card_names.rank_name(t, deck, lang, rank)


def cards_list(t: Translate, deck: Any, lang: str, codes: list[str]) -> str:
    """Cards a player may choose among: "5 or King of Coins" when they share a suit, else
    "Ace of Cups, 3 of Swords or King of Coins"."""
    codes = [c for c in codes if c]
    if not codes:
        return ""

    def joined(words: list[str]) -> str:
        return words[0] if len(words) == 1 else t("table.cards_or", head=", ".join(words[:-1]), last=words[-1])

    suits = {c[-1] for c in codes}
    if len(codes) > 1 and len(suits) == 1:
        try:
            suit = deck.suit_name(codes[0][-1], lang)
            ranks = [rank_name(t, deck, lang, c[:-1]) for c in codes]
        except (KeyError, TypeError, AttributeError):
            return joined(codes)
        return t("table.ranks_of_suit", ranks=joined(ranks), suit=suit)
    return joined([card_name(t, deck, lang, c) for c in codes])


__all__ = ["side", "seat_name", "team_name", "team_names", "game_and_deck", "deck_names", "card_name", "cards_list"]
