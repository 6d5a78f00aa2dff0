"""The coach's words: each reason in all four languages with the deck's card names and the
seats' names, and rules.yaml's thresholds checked like every other key."""

from __future__ import annotations

import re

import pytest

from game.coach.analysis import analyse_position
from game.coach.words import Words
from game.config import ConfigError, default_rules_path, parse_config
from game.rules.base import play
from game.services.i18n import I18n
from tests.game.test_coach import briscola_endgame, scopa_endgame

LANGS = ("en", "nl", "de", "it")
TEXT = default_rules_path().read_text(encoding="utf-8")


_I18N: dict[str, I18n] = {}


def i18n(lang: str) -> I18n:
    if lang not in _I18N:  # reading a locale costs a few tenths of a second
        _I18N[lang] = I18n(lang)
    return _I18N[lang]


def texts(rules, reason) -> dict[str, str]:
    return {lang: Words(i18n(lang).t, rules, lang, 0).reason(reason) for lang in LANGS}


def test_the_sweep_blunders_reason_in_four_languages():
    rules, s = scopa_endgame()
    d = analyse_position(rules, rules.view(s, 0), rules.legal_actions(s), play("4D"), 0, 0, budget=20)
    out = texts(rules, d.reason)
    assert (
        out["en"] == "leaves 9 on the table: North sweeps with any Knight (1 unseen)"
    )  # Q is the Knight (Cavallo) in this deck
    queen = {lang: rules.deck.court_name("Q", lang) for lang in LANGS}
    for lang, text in out.items():
        assert queen[lang] in text and "9" in text and "{" not in text
    assert len(set(out.values())) == 4


def test_the_briscola_reason_names_the_better_move_in_four_languages():
    rules, s = briscola_endgame()
    d = analyse_position(rules, rules.view(s, 0), rules.legal_actions(s), play("4S"), 0, 0, budget=20)
    out = texts(rules, d.reason)
    assert out["en"] == f"lets a trick of 11 points go: play {Words(i18n('en').t, rules, 'en', 0).card('2D')} takes it"
    for lang, text in out.items():
        assert rules.deck.suit_name("D", lang) in text and "11" in text
    assert len(set(out.values())) == 4


def _sample(key: str) -> dict:
    """Parameters of the kinds the games' reason hooks give (see game.coach.hooks)."""
    return {
        "card": "AD",
        "move": play("5C"),
        "points": 14,
        "units": "coach.units.points",
        "total": 7,
        "seat": 1,
        "ranks": ["7"],
        "count": 3,
        "bonus": ["scua"],
        "loss": 1.6,
        "suit": "C",
    }


def test_every_coach_reason_is_written_in_every_language():
    rules, _ = scopa_endgame()
    keys = sorted(k for k in i18n("en").keys() if k.startswith("coach.reason."))
    assert len(keys) >= 18
    for key in keys:
        out = texts(rules, (key, _sample(key)))
        for lang, text in out.items():
            assert text != key and not re.search(r"\{\w+\}", text), (lang, key, text)
            assert i18n(lang).has(key), (lang, key)


def _corrupt(old: str, new: str) -> str:
    assert old in TEXT
    return TEXT.replace(old, new, 1)


@pytest.mark.parametrize(
    "old, new, problem",
    [
        (
            "coach: {inaccuracy: 0.25, mistake: 0.5, blunder: 1.0}",
            "coach: {inaccuracy: 0.25, mistake: 0.2, blunder: 1.0}",
            "must be above the inaccuracy",
        ),
        (
            "coach: {inaccuracy: 0.25, mistake: 0.5, blunder: 1.0}",
            "coach: {inaccuracy: 0.25, mistake: 0.5}",
            "missing key 'blunder'",
        ),
        (
            "coach: {inaccuracy: 0.25, mistake: 0.5, blunder: 1.0}",
            "coach: {inaccuracy: 0.25, mistake: 0.5, blunder: 1.0, awful: 3}",
            "unknown key 'awful'",
        ),
        (
            "coach: {inaccuracy: 0.25, mistake: 0.5, blunder: 1.0}",
            "coach: {inaccuracy: -1, mistake: 0.5, blunder: 1.0}",
            "expected a positive number",
        ),
        ("coach: {inaccuracy: 0.25, mistake: 0.5, blunder: 1.0}", "coach: [1, 2, 3]", "expected a mapping"),
    ],
)
def test_bad_thresholds_are_refused_with_their_place(old, new, problem):
    with pytest.raises(ConfigError) as e:
        parse_config(_corrupt(old, new), "rules.yaml")
    msg = str(e.value)
    assert problem in msg and "games → scopa → coach" in msg and "\n" not in msg
