"""The template game, Knock: the smallest game that shows the whole contract a game signs
(docs/DESIGN.md, "Open for shape"). Read it in this order:

- ``vocabulary.py`` — what it declares: its decisions and its record events (the shared and
  the trick mechanism's come from game.rules.common and game.rules.trick);
- ``rules.py`` — its GameRules subclass: deal, legal actions, apply, scores, views;
- ``heuristics.py`` and ``ai.py`` — the greedy bot's values and the search AI's hooks;
- this file — its config (rules.yaml's entry and a deck, built here) and its registration.

It lives with the tests: it is registered only while a test asks for it (:func:`installed`),
so the program's own list of games never shows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import MappingProxyType

from game import registry
from game.config_types import DeckConfig, GameConfig, ModeConfig

ID = "template"
DECK = "template-pack"

_EN_SUITS = {"D": "Diamonds", "C": "Hearts", "S": "Spades", "B": "Clubs"}
_EN_COURTS = {"J": "Jack", "Q": "Queen", "K": "King"}

GAME = GameConfig(
    id=ID,
    name=MappingProxyType({"en": "Knock"}),
    deck_cards=12,
    ranks=("A", "K", "Q"),
    players=(2, 3),
    modes=(ModeConfig("solo", (2, 3)),),
    options=MappingProxyType({}),
    scoring=MappingProxyType({"strength": ("A", "K", "Q")}),
)
PACK = DeckConfig(
    id=DECK,
    name=MappingProxyType({"en": "Template pack"}),
    region=MappingProxyType({"en": "Tests"}),
    cards=52,
    suit_system="french",
    suits=MappingProxyType({"en": MappingProxyType(_EN_SUITS)}),
    courts=MappingProxyType({"en": MappingProxyType(_EN_COURTS)}),
    description=MappingProxyType({"en": "The template game's pack."}),
    wikipedia="",
    colors=MappingProxyType({}),
    aspect=1.5,
    games=(ID,),
)


@contextmanager
def installed() -> Iterator[None]:
    """Knock registered (its package, config and pack) for the ``with`` block."""
    with registry.registered_game(ID, __name__, GAME, (PACK,)):
        yield
