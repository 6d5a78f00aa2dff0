"""Tressette's vocabulary: the play of a card is its one decision; its record holds the trick
game's events (game.rules.trick): the shared ones, tricks and draws."""

from __future__ import annotations

from game.rules import common, trick
from game.rules.vocabulary import DecisionKind, EventKind

DECISIONS: tuple[DecisionKind, ...] = (common.PLAY,)
EVENTS: tuple[EventKind, ...] = trick.EVENTS
