"""Scopa's vocabulary: the capture game's play, and beside the capture game's events
(game.rules.capture) its own two: a ``redeal`` (three or four Kings on the opening table)
and ``hands`` (a new round dealt from the stock)."""

from __future__ import annotations

from game.rules import capture, common
from game.rules.vocabulary import DecisionKind, EventKind, Field, JsonObject, Sight, own_hand_only

DECISIONS: tuple[DecisionKind, ...] = (capture.PLAY,)


def _hands_audience(event: JsonObject, sight: Sight) -> JsonObject | None:
    # A seat sees its own new cards only.
    return {**event, "hands": own_hand_only(event.get("hands"), sight.seat)}


#: The opening table showed three or four Kings: the same dealer deals again.
REDEAL = EventKind(
    "redeal", (Field("reason", "str", choices=("kings",)),), narration="narrate.redeal", sound="trick", effect=""
)
#: A new round of hands dealt from the stock.
HANDS = EventKind(
    "hands",
    (Field("hands", "card_lists"),),
    audience=_hands_audience,
    narration="narrate.hands_left",
    sound="deal",
    effect="new_hands",
)
#: The line the rules write before the same dealer deals again.
REDEAL_LINE: JsonObject = {"event": REDEAL.name, "reason": "kings"}

EVENTS: tuple[EventKind, ...] = (
    common.MATCH,
    common.DEAL,
    REDEAL,
    HANDS,
    capture.PLAY_EVENT,
    common.DEAL_END,
    common.MATCH_END,
)
