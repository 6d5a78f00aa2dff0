"""Knock's vocabulary: what a seat may decide and what its record holds.

Two decisions: ``play`` a card (the shared one), and ``knock`` — the seat about to lead, once
a deal and only if nobody has knocked, makes the trick it then leads count double. One event
of its own, ``knock``, beside the shared ones (game.rules.common: match, deal, play,
deal_end, match_end) and the trick (game.rules.trick; no draw: every card is dealt). Everything the program does with a decision or an event (the
record reader's checks, ``verify``, the wire, the table's key and button, the coach's words,
what a seat may see) comes from these declarations.
"""

from __future__ import annotations

from game.rules import common, trick
from game.rules.base import Action
from game.rules.vocabulary import DecisionKind, EventKind, Field

#: Its locale keys (the button's label, the coach's words, the narration) have no text in
#: locales/: a game of the program adds them there, with every other text it shows.
KNOCK_KIND = DecisionKind("knock", key="k", label="table.knock", words="suggest.move.knock", confirm=True)
DECISIONS: tuple[DecisionKind, ...] = (common.PLAY, KNOCK_KIND)

#: The knock's record line: who knocked. Public (the default audience): every seat hears it.
KNOCK_EVENT = EventKind(
    KNOCK_KIND.name, (Field("seat", "seat"),), narration="narrate.knock", sound="bonus", effect="announce"
)
#: Every line its record may hold, in the order a match meets them.
EVENTS: tuple[EventKind, ...] = (
    common.MATCH,
    common.DEAL,
    common.PLAY_EVENT,
    trick.TRICK,
    KNOCK_EVENT,
    common.DEAL_END,
    common.MATCH_END,
)

KNOCK = Action(KNOCK_KIND.name)
