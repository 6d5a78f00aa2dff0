"""A decision's analysis in the player's words: the moves and the reason, in the deck's own card
names and the seats' names round the table (as scenes/names.py names them: West, Partner …).

Pure functions of a message lookup ``t(key, **params)`` (game.services.i18n.I18n.t) and the rules;
no pygame, no scene — the command line and the window's coach view share them.
"""

from __future__ import annotations

from collections.abc import Callable

from game import card_names
from game.cards import Card
from game.rules.base import Action, GameRules
from game.seat_names import direction_key

Translate = Callable[..., str]


class Words:
    """Names for one rules object in one language (``lang``), seen from ``viewer``'s chair."""

    def __init__(self, t: Translate, rules: GameRules, lang: str, viewer: int):
        self.t = t
        self.rules = rules
        self.lang = lang
        self.viewer = viewer

    # ------------------------------------------------------------------ names
    def rank(self, rank: str) -> str:
        return card_names.rank_name(self.t, self.rules.deck, self.lang, rank)

    def card(self, code: str) -> str:
        return card_names.card_name(self.t, self.rules.deck, self.lang, code)

    def seat(self, seat: int) -> str:
        """ "You", "Partner" (a seat of the viewer's score column: a fixed partnership) or the
        seat's direction from the viewer's chair, as the table names it (game/seat_names.py)."""
        if seat == self.viewer:
            return self.t("table.you")
        if self.rules.team_of(seat) == self.rules.team_of(self.viewer):
            return self.t("table.partner")
        key = direction_key(seat - self.viewer, self.rules.players)
        return self.t(key) if key is not None else self.t("results.player_n", n=seat + 1)

    def joined(self, words: list[str]) -> str:
        if not words:
            return ""
        return words[0] if len(words) == 1 else self.t("table.cards_or", head=", ".join(words[:-1]), last=words[-1])

    def move(self, action: Action) -> str:
        """ "play the 7 of Coins and take the 3 of Cups + 4 of Swords", "close the stock" …:
        the decision kind's ``words`` (or, where the action gives a payload value that has
        words of its own, that value's), with the card's name and the payload's values."""
        kind = self.rules.vocabulary.decision(action.kind)
        if kind is None:
            return str(action)
        key = kind.words
        params: dict[str, object] = {}
        if action.card is not None:
            params["card"] = self.card(action.card.code)
        for f in kind.fields:
            value = action.arg(f.name)
            if value is None or value is False or value == ():
                continue
            if f.words:
                key = f.words
            if f.type == "cards" and isinstance(value, tuple):
                params["cards"] = " + ".join(self.card(c.code) for c in value)
            elif f.type == "card" and isinstance(value, Card):
                params[f.name] = self.card(value.code)
            elif f.type != "bool":
                params[f.name] = value
        return self.t(key, **params) if key else str(action)

    # ------------------------------------------------------------------ a reason
    def reason(self, reason: tuple[str, dict] | None) -> str:
        """The reason's text ("" for none): card codes, seats, ranks, bonuses and moves named."""
        if reason is None:
            return ""
        key, params = reason
        out: dict[str, object] = {}
        for k, val in params.items():
            if k in ("card", "led", "partner") and isinstance(val, str):
                out[k] = self.card(val)
            elif k == "cards" and isinstance(val, (list, tuple)):
                out[k] = " + ".join(self.card(x) for x in val)
            elif k == "move" and isinstance(val, Action):
                out[k] = self.move(val)
            elif k == "seat" and isinstance(val, int):
                out[k] = self.seat(val)
            elif k == "ranks" and isinstance(val, (list, tuple)):
                out[k] = self.joined([self.rank(r) for r in val])
            elif k == "units" and isinstance(val, str):
                out[k] = self.t(val)
            elif k == "bonus":
                words = self.rules.bonus_callouts
                bonuses = [val] if isinstance(val, str) else list(val)
                out[k] = " + ".join(words.get(b, b) for b in bonuses)
            elif k == "suit" and isinstance(val, str):
                try:
                    out[k] = self.rules.deck.suit_name(val, self.lang)
                except (KeyError, TypeError):
                    out[k] = val
            elif isinstance(val, float):
                out[k] = f"{val:.1f}"
            else:
                out[k] = val
        return self.t(key, **out)

    def klass(self, klass: str) -> str:
        return self.t(f"coach.class.{klass}")


def move_code(action: Action) -> str:
    """A move as the record writes its cards: "7D", "7D x 3C+4S", "KC (marriage)", "close"
    (the card, then each payload value: a card list as "x …", a toggle by its name)."""
    return str(action)


__all__ = ["Words", "move_code"]
