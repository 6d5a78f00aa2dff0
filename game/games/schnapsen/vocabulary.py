"""Schnapsen's vocabulary: beside playing a card (a King or Queen lead may declare its
marriage: a toggle of the play, written as a ``marriage`` line before it), closing the
stock and exchanging the trump Jack; its record holds the trick game's events
(game.rules.trick) and one line for each of its decisions."""

from __future__ import annotations

from game.rules import common, trick
from game.rules.base import Action
from game.rules.vocabulary import DecisionKind, EventKind, Field, JsonObject, Sight

#: The play's toggle: a K/Q lead declaring the marriage of its suit.
MARRIAGE_FIELD = "marriage"
#: The puzzle theme of a move declaring one (game.puzzles.themes).
MARRIAGE_THEME = "marriage"

PLAY = DecisionKind(
    common.PLAY.name,
    plays_card=True,
    fields=(
        Field(
            MARRIAGE_FIELD, "bool", optional=True, default=False, words="suggest.move.marriage", theme=MARRIAGE_THEME
        ),
    ),
    key="r",
    label="table.marriage",
    words=common.PLAY.words,
    toggle=MARRIAGE_FIELD,
    opens=(MARRIAGE_FIELD,),
)
CLOSE_KIND = DecisionKind(
    "close", key="c", label="table.close", words="suggest.move.close", confirm=True, theme="closing"
)
#: Costs nothing and improves the hand (the turn goes on): a suggestion takes it first.
EXCHANGE_KIND = DecisionKind(
    "exchange", key="x", label="table.exchange", words="suggest.move.exchange", prefer=True, theme="exchange"
)

DECISIONS: tuple[DecisionKind, ...] = (PLAY, CLOSE_KIND, EXCHANGE_KIND)

CLOSE = Action(CLOSE_KIND.name)
EXCHANGE = Action(EXCHANGE_KIND.name)


def _exchange_audience(event: JsonObject, sight: Sight) -> JsonObject | None:
    # The player's Jack takes the face-up card's place, face up.
    gave = event.get("gave")
    sight.face_up = gave if isinstance(gave, str) else None
    return dict(event)


EXCHANGE_EVENT = EventKind(
    EXCHANGE_KIND.name,
    (Field("seat", "seat"), Field("gave", "card"), Field("took", "card")),
    audience=_exchange_audience,
    narration="narrate.exchange",
    sound="capture",
    effect="swap_face_up",
)
MARRIAGE_EVENT = EventKind(
    MARRIAGE_FIELD,
    (Field("seat", "seat"), Field("suit", "str", choices=("D", "C", "S", "B")), Field("points", "int")),
    narration="narrate.marriage",
    sound="bonus",
    effect="announce",
)
CLOSE_EVENT = EventKind(
    CLOSE_KIND.name, (Field("seat", "seat"),), narration="narrate.close", sound="close", effect="close_stock"
)

EVENTS: tuple[EventKind, ...] = (
    common.MATCH,
    common.DEAL,
    common.PLAY_EVENT,
    trick.TRICK,
    trick.DRAW,
    EXCHANGE_EVENT,
    MARRIAGE_EVENT,
    CLOSE_EVENT,
    common.DEAL_END,
    common.MATCH_END,
)
