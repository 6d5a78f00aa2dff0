"""Short phrases of the table's words, beside the narration's sentences (scenes.table.narrate):
a seat's announcement on its plate, a list of names joined with "and", the articles a
card's name takes, a refusal of the rules in words. Pure functions of the words: no pygame."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from scenes.names import card_name, cards_list, rank_name
from scenes.table.model import Event

if TYPE_CHECKING:
    from game.config_types import DeckConfig
    from game.rules.base import IllegalAction

Translate = Callable[..., str]


def and_list(t: Translate, words: list[str]) -> str:
    """ "North", "North and West", "North, West and East"."""
    if len(words) < 2:
        return "".join(words)
    return t("narrate.and_list", head=", ".join(words[:-1]), last=words[-1])


def parse_articles(spec: str) -> dict[str, str]:
    """The language's articles before a card's name, from ``narrate.articles``:
    "il {card} | l'{card}: Asso 8 | la {card}: Donna" — a default, then templates for the
    rank words that take another (the deck's own court names included)."""
    out: dict[str, str] = {}
    for i, part in enumerate(spec.split("|")):
        template, _, words = part.partition(":") if i else (part, "", "")
        template = template.strip()
        if "{card}" not in template:
            continue
        if i == 0:
            out[""] = template
        for w in words.split():
            out[w] = template
    return out


def plate_words(
    t: Translate, said: Mapping[int, Event], seat: int, fields: Callable[[Event], dict[str, object]] | None = None
) -> str:
    """A seat's last announcement in short words for its plate ("70", "Pass"): the
    language's ``plate.<event>`` (else its call-out, ``callouts.<event>``) formatted with its
    fields (in words, by ``fields``: a narrator's, where there is one); the words made for
    an optional field given (``plate.<event>_<field>``: a bid "at points") where the language
    has them; "" when none."""
    ev = said.get(seat)
    if not ev:
        return ""
    name = ev.get("event")
    params = fields(ev) if fields is not None else {k: v for k, v in ev.items() if k not in ("event", "seat", "by")}
    given = [k for k, v in ev.items() if k not in ("event", "seat", "by") and v is not None]
    for base in (f"plate.{name}", f"callouts.{name}"):
        for key in [f"{base}_{k}" for k in given] + [base]:
            text = t(key, **params)
            if text != key:
                return text
    return ""


def refusal_words(t: Translate, has: Callable[..., bool], deck: DeckConfig, lang: str, e: IllegalAction) -> str:
    """The rules' refusal ``e`` in the player's language (``has(key[, lang])``: whether the
    locale holds a key), card codes turned into card names and rank codes (``rank``; ``ranks``,
    comma-separated: a list to choose from) into the deck's rank words."""

    def name(code: str) -> str:
        return card_name(t, deck, lang, code)

    # The deck's court names, for messages like "declared with a {K} or a {Q}".
    params: dict[str, object] = {r: deck.court_name(r, lang) for r in ("J", "Q", "K")}
    for k, v in (e.params or {}).items():
        if k in ("card", "match", "target", "led", "partner") and isinstance(v, str):
            params[k] = name(v)
        elif k == "options" and isinstance(v, str):
            params[k] = cards_list(t, deck, lang, [c.strip() for c in v.split(",")])
        elif k == "rank" and isinstance(v, str):
            params[k] = rank_name(t, deck, lang, v)
        elif k == "ranks" and isinstance(v, str):
            params[k] = _or_list(t, [rank_name(t, deck, lang, r.strip()) for r in v.split(",") if r.strip()])
        elif k == "suit" and v in ("D", "C", "S", "B"):
            params[k] = deck.suit_name(v, lang)  # "you must follow Coins"
        else:
            params[k] = v
    key = f"refusals.{e.rule}"
    if not has(key) and not has(key, "en"):
        key = "refusals.illegal"
    return t(key, **params)


def _or_list(t: Translate, words: list[str]) -> str:
    """ "King", "King or 7", "King, 7 or 2": choices, as a list of cards to choose from reads."""
    if len(words) < 2:
        return "".join(words)
    return t("table.cards_or", head=", ".join(words[:-1]), last=words[-1])


__all__ = ["and_list", "parse_articles", "plate_words", "refusal_words"]
