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

from game import card_names
from game.config_types import DeckConfig
from game.rules.vocabulary import TeamOf
from game.seat_names import direction_key, seat_side

Translate = Callable[..., str]


def side(seat: int, viewer: int, players: int) -> str:
    """ "bottom" (the viewer), "right", "top" or "left" for a seat round the table: the next
    seat in turn order on the right, the last on the left, the others along the top (the one
    other seat of a two-player game opposite)."""
    return seat_side(seat - viewer, players)


def _alone(seat: int) -> int | None:
    return seat


def partnered(players: int, team_of: TeamOf | None) -> bool:
    """Whether some seats play together (fewer teams than seats), as ``team_of`` says."""
    if team_of is None:
        return False
    teams = [team_of(s) for s in range(players)]
    known = [t for t in teams if t is not None]
    return len(set(known)) < len(known) or len(known) < len(teams)


def game_teams(game: object, players: int) -> TeamOf | None:
    """The score column of each seat of ``game`` (an id) at ``players`` seats, as its rules
    declare (None for a game or count the rules do not offer): for screens that name seats
    before a table is set (an online lobby)."""
    from game.rulesets import make_rules

    try:
        return make_rules(str(game), None, players).team_of
    except (KeyError, ValueError, TypeError):
        return None


# ---------------------------------------------------------------------- the table's words
def seat_name(
    t: Translate,
    seat: int,
    viewer: int | None,
    players: int,
    subject: bool = False,
    team_of: TeamOf | None = None,
    within: bool = False,
) -> str:
    """A seat at the table: "You", "Partner" (a seat of the viewer's team) or its direction
    from the viewer's chair: East, North, West; where several seats sit along the top,
    North-East, (North,) North-West, right to left (game/seat_names.py).

    ``subject``: as a sentence's subject ("Il compagno sta pensando…"), which takes an
    article in nl/de/it. ``team_of`` maps seats to teams as the viewer knows them (None for a
    partner not yet known; default: each seat for itself). ``viewer`` None (nobody's chair: a
    computer-only record): "Player 1", "Player 2"…

    ``within``: a subject further into the sentence, after another name ("Tu e il giocatore
    3"): the subject's words as they read there (an article or "you" in lower case)."""
    form = _form(subject, within)
    if viewer is None:
        return t(f"results.{form}player_n", n=seat + 1)
    if seat == viewer:
        return t("table.within.you" if within else "table.you")
    team = team_of or _alone
    if team(seat) is not None and team(seat) == team(viewer):
        return t(f"table.{form}partner" if form else "table.partner")
    key = direction_key(seat - viewer, players)
    if key is None:  # a seat along a top too crowded for a direction of its own
        return t(f"results.{form}player_n", n=seat + 1)
    return t(key)


def _form(subject: bool, within: bool) -> str:
    """The key prefix of a name's form: "within." (a subject after the sentence's first
    word), "subject." or "" (a label)."""
    return "within." if within else "subject." if subject else ""


def team_name(
    t: Translate,
    team: int,
    viewer: int | None,
    players: int,
    subject: bool = False,
    team_of: TeamOf | None = None,
    within: bool = False,
) -> str:
    """A team at the table: "Us"/"Them" where seats play together (``team_of``: the score
    columns the rules keep), else the seat (team = seat); nobody's chair (``viewer`` None):
    "Team 1", "Team 2"."""
    if team_of is not None and partnered(players, team_of):
        if viewer is None:
            return t("results.team_n", n=team + 1)
        return t("table.us" if team == team_of(viewer) else "table.them")
    return seat_name(t, team, viewer, players, subject, team_of, within)


# ---------------------------------------------------------------------- the results screen and the menu
def team_names(
    t: Translate,
    players: int,
    human_seat: int | None,
    subject: bool = False,
    team_of: Callable[[int], int] | None = None,
    within: bool = False,
) -> list[str]:
    """Column names in team order, as the table names them: "Us"/"Them" with partners (as
    ``team_of``, the rules' score columns, says; default: each seat for itself), else "You"
    and the others by where they sit ("North", "East", "West"). ``human_seat`` None (bots
    only, nobody's chair): "Team 1", "Player 2"…

    ``subject``: the names as a sentence's subject ("{name} wins the match"); compass names
    need no article, the numbered players take one in nl/de/it (results.subject.*);
    ``within``: the subject after the sentence's first word, for a pair of names
    (results.within.*: the article in lower case)."""
    sub = _form(subject, within)
    together = team_of is not None and partnered(players, team_of)
    teams = len({team_of(s) for s in range(players)}) if team_of is not None else players
    if human_seat is None:
        if together:
            return [t("results.team_n", n=team + 1) for team in range(teams)]
        return [t(f"results.{sub}player_n", n=seat + 1) for seat in range(players)]
    return [team_name(t, team, human_seat, players, subject, team_of, within) for team in range(teams)]


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
def deck_names(deck: DeckConfig, lang: str) -> dict[str, str]:
    """The deck's suit and court names ({D} {C} {S} {B} {J} {Q} {K} in messages), and each
    suit as it stands inside a card's name ({card_C}: "Kelch" in "Kelch-Bube"), so that a
    message naming a card names it as the table does."""
    names = {s: deck.suit_name(s, lang) for s in ("D", "C", "S", "B")}
    names.update({r: deck.court_name(r, lang) for r in ("J", "Q", "K")})
    names.update({f"card_{s}": deck.card_suit(s, lang) for s in ("D", "C", "S", "B")})
    return names


def card_name(t: Translate, deck: DeckConfig, lang: str, code: str) -> str:
    """ "7 of Coins", "Herz-König": the deck's own names in the player's language (one maker
    of card names for the window and the coach: game.card_names)."""
    return card_names.card_name(t, deck, lang, code)


def rank_name(t: Translate, deck: DeckConfig, lang: str, rank: str) -> str:
    return card_names.rank_name(t, deck, lang, rank)


def cards_list(t: Translate, deck: DeckConfig, lang: str, codes: list[str]) -> str:
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


__all__ = [
    "game_teams",
    "partnered",
    "side",
    "seat_name",
    "team_name",
    "team_names",
    "game_and_deck",
    "deck_names",
    "card_name",
    "cards_list",
]
