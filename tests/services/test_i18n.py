"""Message lookup: fallback to English, plurals, language switches, system locale."""

from __future__ import annotations

import pytest

from game.services.i18n import I18n, detect_system_language, load_locale
from tests.test_locales import SAME_AS_ENGLISH


def _write(folder, lang, text):
    (folder / f"{lang}.yaml").write_text(text, encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    _write(
        tmp_path,
        "en",
        "menu:\n  play: Play\n  quit: Quit\ncards:\n  one: '{count} card'\n  other: '{count} cards'\n"
        "hello: 'Hello {name}'\n",
    )
    _write(tmp_path, "de", "menu:\n  play: Spielen\ncards:\n  one: '{count} Karte'\n  other: '{count} Karten'\n")
    _write(tmp_path, "nl", "menu: [this is: broken\n")
    return tmp_path


def test_lookup_in_current_language_and_fallback_to_english(folder):
    i = I18n("de", folder)
    assert i.t("menu.play") == "Spielen"
    assert i.t("menu.quit") == "Quit"  # missing in German → English
    assert i.t("no.such.key") == "no.such.key"  # missing everywhere → the key, never an error


def test_plural_forms_follow_count(folder):
    i = I18n("en", folder)
    assert i.t("cards", count=1) == "1 card"
    assert i.t("cards", count=0) == "0 cards"
    assert i.t("cards", count=40) == "40 cards"
    i.set_language("de")
    assert i.t("cards", count=1) == "1 Karte" and i.t("cards", count=52) == "52 Karten"


def test_missing_parameter_stays_visible(folder):
    i = I18n("en", folder)
    assert i.t("hello", name="Ada") == "Hello Ada"
    assert i.t("hello", other=1) == "Hello {name}"


def test_switch_notifies_listeners_once(folder):
    i = I18n("en", folder)
    heard = []
    i.subscribe(heard.append)
    i.set_language("de")
    i.set_language("de")
    i.set_language("xx")  # unknown → English
    assert heard == ["de", "en"]
    assert i.language == "en"


def test_broken_locale_falls_back_to_english_without_raising(folder, capsys):
    i = I18n("nl", folder)
    assert i.t("menu.play") == "Play"
    assert any("nl.yaml" in p and "YAML" in p for p in i.problems)
    assert "nl.yaml" in capsys.readouterr().err


def test_shipped_locales_are_complete_and_translated():
    en, problem = load_locale("en")
    assert problem is None and len(en) > 60
    for lang in ("nl", "de", "it"):
        table, problem = load_locale(lang)
        assert problem is None, problem
        assert set(table) == set(en), f"{lang}: missing {set(en) - set(table)}, extra {set(table) - set(en)}"
        # Only names and a few international words may equal the English text; the
        # variants' and house rules' own names (tests/test_locales.py) are names.
        same = [k for k, v in en.items() if table[k] == v and not (isinstance(v, str) and v in SAME_AS_ENGLISH)]
        assert len(same) <= 8, f"{lang} looks untranslated: {same}"


def test_shipped_messages_format_with_their_parameters():
    for lang in ("en", "nl", "de", "it"):
        i = I18n(lang)
        assert "11" in i.t("line.match_to", target=11)
        assert "52" in i.t("decks.cards", count=52)
        assert "{" not in i.t("toast.not_ready", what="X")


@pytest.mark.parametrize(
    "env,expected",
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "nl_BE.UTF-8"}, "nl"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "de_DE.UTF-8"}, "it"),
        ({"LC_ALL": "C", "LANG": "it_IT"}, "it"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:nl", "LANG": "fr_FR.UTF-8"}, "nl"),
        ({"LANG": "German_Germany.1252"}, "de"),
        ({}, "en"),
    ],
)
def test_system_language(env, expected):
    assert detect_system_language(env) == expected
