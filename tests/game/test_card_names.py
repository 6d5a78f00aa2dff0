"""One name for each card everywhere: the table's captions, speech and refusals, the coach and
the lessons' words name a card alike ("the Ten of Leaves", never also "the 10 of Leaves"),
in every language."""

from __future__ import annotations

import re

import pytest

from game import card_names
from game.coach.words import Words
from game.config import get_config
from game.lessons.lesson import get_lesson, lesson_names
from game.rulesets import make_rules
from game.services.i18n import I18n
from scenes import names

CFG = get_config()
LANGS = ("en", "nl", "de", "it")
#: The ways a card's name could be written in these languages; a text must use its own.
PATTERNS = (
    "{rank} of {suit}",
    "{rank} van {suit}",
    "{rank} di {suit}",
    "{rank} der {suit}",
    "{suit}-{rank}",
    "{suit} {rank}",
)


def other_names(t, deck, lang: str, code: str) -> set[str]:
    """Names a writer might give ``code`` that are not the table's own (the figure for a
    rank the pack names in words, the suit's name where a card takes another form, the
    other languages' patterns)."""
    rank, suit = code[:-1], code[-1]
    ranks = {card_names.rank_name(t, deck, lang, rank), rank}
    for d in CFG.decks.values():  # "Ten" where the pack says "10", and the other way round
        word = d.rank_names.get(lang, {}).get(rank)
        if word:
            ranks.add(word)
    suits = {deck.suit_name(suit, lang), deck.card_suit(suit, lang)}
    own = card_names.card_name(t, deck, lang, code)
    return {p.format(rank=r, suit=s) for p in PATTERNS for r in ranks for s in suits} - {own}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", lesson_names())
def test_every_lesson_names_each_card_as_the_table_does(name, lang):
    lesson = get_lesson(name)
    rules = lesson.make_rules()
    t = I18n(lang).t
    texts = {k: t(k) for k in lesson.keys}
    wrong = []
    for code in (c.code for c in rules.cards):
        for other in other_names(t, rules.deck, lang, code):
            pattern = re.compile(rf"(?<![\w-]){re.escape(other)}(?![\w-])")
            wrong += [
                f"{k}: {other!r} (the table says {card_names.card_name(t, rules.deck, lang, code)!r})"
                for k, text in texts.items()
                if pattern.search(text)
            ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGS)
def test_the_schnapsen_ten_has_one_name_in_the_lesson_the_caption_and_the_coach(lang):
    t = I18n(lang).t
    rules = make_rules("schnapsen", "schnapsen-german", 2, {})
    ten = names.card_name(t, rules.deck, lang, "10S")
    assert ten == Words(t, rules, lang, 0).card("10S") == card_names.card_name(t, rules.deck, lang, "10S")
    assert ten == {"en": "Ten of Leaves", "nl": "Tien van Bladeren", "de": "Laub-Zehner", "it": "Dieci di Foglie"}[lang]
    assert ten in t("lessons.schnapsen.s3")  # the lesson's panel, as the caption says it


def test_a_numeral_keeps_its_figure_where_the_pack_says_so():
    t = I18n("en").t
    for deck in ("bresciane", "trevisane"):  # Cìcera's 10 of Coins is a numeral card
        assert names.card_name(t, CFG.decks[deck], "en", "10D") == "10 of Coins"
    assert names.card_name(t, CFG.decks["schnapsen-french"], "en", "10C") == "Ten of Hearts"
    assert names.card_name(t, CFG.decks["piacentine"], "en", "XZ") == "XZ"  # not a card: shown as it is


@pytest.mark.parametrize("lang", LANGS)
def test_the_results_labels_name_the_special_cards_as_the_table_does(lang):
    t = I18n(lang).t
    for deck in ("piacentine", "bresciane"):
        d = CFG.decks[deck]
        params = names.deck_names(d, lang)
        card = lambda code, d=d: card_names.card_name(t, d, lang, code)  # noqa: E731
        coins = {**params, "suit": d.suit_name("D", lang)}
        assert card("7D") in t("results.scopa.settebello", **coins)
        assert card("KD") in t("results.scopa.re_bello", **coins)
        if deck == "bresciane":  # Cìcera's pack
            assert t("results.cicera.two_swords", **params).startswith(card("2S"))
            assert t("results.cicera.ten_coins", **params) == card("10D")
            assert t("results.cicera.knave_cups", **params) == card("JC")


def test_a_pack_naming_a_rank_or_a_suit_badly_is_refused_in_one_line():
    from game.config import ConfigError, parse_config
    from game.config_types import default_rules_path

    text = default_rules_path().read_text(encoding="utf-8")
    shipped = "    rank_names: *schnapsen_ranks\n"
    for bad, problem in (
        ('    rank_names: {en: {"7": Seven}}\n', "unknown key '7'"),
        ('    rank_names: {xx: {"10": Ten}}\n', "unknown language 'xx'"),
        ("    card_suits: {de: {C: ''}}\n", "card_suits"),
    ):
        with pytest.raises(ConfigError) as e:
            parse_config(text.replace(shipped, bad, 1))
        assert problem in str(e.value) and "\n" not in str(e.value)
