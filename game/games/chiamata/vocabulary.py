"""Briscola chiamata's vocabulary: an auction (``bid`` a rank, or a 2 at points; ``pass``,
final), the winner's ``call`` of a card (its suit is trump, its holder the hidden partner),
then the play of a card. Its record holds the trick game's events (game.rules.trick: no
``draw``, as nothing is left after the deal) and one public line for each auction decision
(../shared/RECORD.md: ``bid``, ``pass``, ``call``).

Nothing here tells who the partner is: the ``call`` names the card, not its holder, and the
``deal`` line is seen by each seat with its own hand only (the shared deal audience). The
partner shows when the called card is played, a fact every seat reads from the ``play``.
"""

from __future__ import annotations

from game.cards import Card
from game.rules import common, trick
from game.rules.base import Action
from game.rules.vocabulary import DecisionKind, EventKind, Field

#: The ranks a bid may name, in the order bids go (each bid lower than the one before), as
#: RULES.md writes them; the rules read the same order from the scoring table's ``strength``.
BID_RANKS: tuple[str, ...] = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")
#: A bid of 2 at points: more than a plain bid's 61, at most all 120 card points.
LOWEST_POINTS_BID = 62
HIGHEST_POINTS_BID = 120

RANK_FIELD = "rank"
POINTS_FIELD = "points"
#: The called card is a payload value, not a card played from the hand (the caller need not
#: hold it): the call's field, named as the record's line names it.
CALLED_FIELD = "card"

BID_KIND = DecisionKind(
    "bid",
    fields=(
        Field(RANK_FIELD, "str", choices=BID_RANKS),
        # A plain bid leaves it out (or writes null: RECORD.md); a bid at points says them.
        Field(
            POINTS_FIELD,
            "int",
            optional=True,
            nullable=True,
            low=LOWEST_POINTS_BID,
            high=HIGHEST_POINTS_BID,
            words="suggest.move.chiamata.bid_points",
        ),
    ),
    key="b",
    label="table.chiamata.bid",
    words="suggest.move.chiamata.bid",
)
#: Final: the seat never speaks again this deal, so the table asks twice.
PASS_KIND = DecisionKind("pass", key="p", label="table.chiamata.pass", words="suggest.move.chiamata.pass", confirm=True)
CALL_KIND = DecisionKind(
    "call",
    plays_card=False,
    fields=(Field(CALLED_FIELD, "card"),),
    key="c",
    label="table.chiamata.call",
    words="suggest.move.chiamata.call",
)

DECISIONS: tuple[DecisionKind, ...] = (BID_KIND, PASS_KIND, CALL_KIND, common.PLAY)

#: The auction's lines: public (the default audience), every seat hears every bid.
BID_EVENT = EventKind(
    BID_KIND.name,
    (
        Field("seat", "seat"),
        Field(RANK_FIELD, "str", choices=BID_RANKS),
        Field(POINTS_FIELD, "int", optional=True, nullable=True, low=LOWEST_POINTS_BID, high=HIGHEST_POINTS_BID),
    ),
    narration="narrate.chiamata.bid",
    sound="bonus",
    effect="announce",
)
PASS_EVENT = EventKind(
    PASS_KIND.name, (Field("seat", "seat"),), narration="narrate.chiamata.pass", sound="", effect="announce"
)
#: The called card names the trump suit: public. Its holder is not in the line.
CALL_EVENT = EventKind(
    CALL_KIND.name,
    (Field("seat", "seat"), Field(CALLED_FIELD, "card")),
    narration="narrate.chiamata.call",
    sound="bonus",
    effect="announce",
)

#: match, deal, bid, pass, call, play, trick, deal_end, match_end: the trick game's events
#: without ``draw`` (every card is dealt), the auction's lines between the deal and the play.
EVENTS: tuple[EventKind, ...] = (
    *trick.EVENTS[:2],
    BID_EVENT,
    PASS_EVENT,
    CALL_EVENT,
    *(e for e in trick.EVENTS[2:] if e.name != trick.DRAW.name),
)

PASS = Action(PASS_KIND.name)


def bid(rank: str, points: int | None = None) -> Action:
    """A bid of ``rank`` (``points`` only on a bid of 2 at that many points)."""
    return Action.make(BID_KIND.name, None, **{RANK_FIELD: rank, POINTS_FIELD: points})


def call(c: Card) -> Action:
    """The call of card ``c``. Built by hand: ``Action.make``'s own ``card`` parameter would
    take the payload's ``card`` value as the card played (the call plays none)."""
    return Action(CALL_KIND.name, None, ((CALLED_FIELD, c),))


def called_card(action: Action) -> Card | None:
    """The card a ``call`` action names, None for any other action."""
    value = action.arg(CALLED_FIELD)
    return value if isinstance(value, Card) else None


__all__ = [
    "BID_EVENT",
    "BID_KIND",
    "BID_RANKS",
    "CALLED_FIELD",
    "CALL_EVENT",
    "CALL_KIND",
    "DECISIONS",
    "EVENTS",
    "HIGHEST_POINTS_BID",
    "LOWEST_POINTS_BID",
    "PASS",
    "PASS_EVENT",
    "PASS_KIND",
    "POINTS_FIELD",
    "RANK_FIELD",
    "bid",
    "call",
    "called_card",
]
