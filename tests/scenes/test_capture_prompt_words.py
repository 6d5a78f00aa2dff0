"""The capture prompt of a game that may place a card explains, in every language, each
choice by mouse and by key."""

from __future__ import annotations

import pytest

from game.services.i18n import I18n


@pytest.mark.parametrize(
    "lang,mouse,keys",
    [
        ("en", ("click table cards", "click your card", "click the felt"), ("Tab", "Enter", "P")),
        ("nl", ("klik op tafelkaarten", "je kaart", "het laken"), ("Tab", "Enter", "P")),
        ("de", ("Tischkarten anklicken", "deine Karte", "den Tisch"), ("Tab", "Enter", "P")),
        ("it", ("clic sulle carte in tavola", "la tua carta", "il tappeto"), ("Tab", "Invio", "P")),
    ],
)
def test_the_capture_prompt_of_a_game_that_may_place_explains_the_mouse_and_the_keys(lang, mouse, keys):
    """The three choices — another capture, take it, place only — each by key and by mouse
    (the mouse paths themselves are played in test_table's mouse-only games)."""
    text = I18n(lang).t("table.choose_capture_or_place")
    for words in (*mouse, *keys):
        assert words in text, (lang, words, text)
