"""The vocabulary every game shares: the ``play`` decision and the record events every game
writes (``match``, ``deal``, ``play``, ``deal_end``, ``match_end``: ../shared/RECORD.md).
A game's declarations (game/games/<id>/vocabulary.py) start from these and add their own;
the mechanisms (game.rules.trick, game.rules.capture) add theirs.

Pure Python: no pygame.
"""

from __future__ import annotations

from game.rules.vocabulary import DecisionKind, EventKind, Field, JsonObject, Sight, own_hand_only

#: Play a card from the hand: the decision every game has.
PLAY = DecisionKind("play", plays_card=True, words="suggest.move.play")


def _match_audience(event: JsonObject, sight: Sight) -> JsonObject | None:
    # The seed would give away every deal.
    return {**event, "seed": None}


def _deal_audience(event: JsonObject, sight: Sight) -> JsonObject | None:
    # The other seats' hands and the stock are hidden; the face-up card under the stock
    # (the stock's last card, where the game turns one) and the table stay.
    stock = event.get("stock")
    stock = list(stock) if isinstance(stock, list) else []
    last = stock[-1] if stock else None
    sight.face_up = last if sight.has_trump and isinstance(last, str) else None
    hidden: list[object] = [None] * len(stock)
    if sight.face_up is not None:
        hidden[-1] = sight.face_up
    return {**event, "hands": own_hand_only(event.get("hands"), sight.seat), "stock": hidden}


MATCH = EventKind(
    "match",
    (
        Field("format", "int"),
        Field("game", "str"),
        Field("deck", "str"),
        Field("players", "int"),
        Field("seed", "seed"),
        Field("options", "object"),
    ),
    audience=_match_audience,
)
DEAL = EventKind(
    "deal",
    (
        Field("number", "int"),
        Field("dealer", "seat"),
        Field("hands", "card_lists"),
        Field("table", "cards", max_len=64),
        Field("stock", "cards", max_len=64),
        Field("trump", "card", nullable=True),
    ),
    audience=_deal_audience,
    sound="deal",
    effect="deal",
)
#: A card played, as a trick game writes it (a capture game's play adds its capture:
#: game.rules.capture.PLAY_EVENT).
PLAY_EVENT = EventKind(
    "play",
    (Field("seat", "seat"), Field("card", "card")),
    narration="narrate.lead",
    sound="play",
    effect="play_card",
)
DEAL_END = EventKind(
    "deal_end",
    (
        Field("number", "int"),
        Field("leftover", "leftover"),
        Field("points", "int_list"),
        Field("totals", "int_list"),
        Field("detail", "any"),
    ),
    sound="deal_won",
    effect="deal_end",
)
MATCH_END = EventKind(
    "match_end",
    (Field("winner", "seat", nullable=True), Field("totals", "int_list")),
    sound="match_won",
    effect="match_end",
)

#: The events every game writes, in the order a match meets them.
EVENTS: tuple[EventKind, ...] = (MATCH, DEAL, PLAY_EVENT, DEAL_END, MATCH_END)
#: Their names.
EVENT_NAMES: tuple[str, ...] = tuple(e.name for e in EVENTS)

__all__ = ["DEAL", "DEAL_END", "EVENTS", "EVENT_NAMES", "MATCH", "MATCH_END", "PLAY", "PLAY_EVENT"]
