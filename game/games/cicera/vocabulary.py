"""Cìcera's vocabulary: the capture game's play (a card, and the table cards it takes) and
the capture game's record events (game.rules.capture)."""

from __future__ import annotations

from game.rules import capture
from game.rules.vocabulary import DecisionKind, EventKind

DECISIONS: tuple[DecisionKind, ...] = (capture.PLAY,)
EVENTS: tuple[EventKind, ...] = capture.EVENTS
