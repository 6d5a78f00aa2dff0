"""The variant's name where the player looks for it: the table's score panel and the menu's
"match in progress" card (the statistics' rows are in test_stats_scene.py)."""

from __future__ import annotations

import pytest

from game.config import get_config
from game.services import saves
from game.services.i18n import I18n
from game.services.session import Session
from game.services.settings import Settings
from scenes.app import App
from sprites import theme

CFG = get_config()


def make_app(lang: str = "en") -> App:
    return App(CFG, Settings(language=lang, animation_speed="instant"), I18n(lang), window=False)


CASES = [
    (4, {"deal": "scopone"}, "Scopone scientifico"),
    (2, {"capture": "fifteen", "napola": True}, "Custom: Fifteen · Napola"),
    (2, {}, None),
]


@pytest.mark.parametrize("players,options,name", CASES)
def test_the_table_names_its_variant_under_the_game(players, options, name):
    app = make_app()
    app.open_path("table", game="scopa", players=players, options=options, ai_level="greedy")
    with theme.measure_text() as m:
        app.render(1.0)
    drawn = [s for s, _, _ in m.entries]
    assert "Scopa" in drawn
    if name is None:
        assert not any("Custom" in s or "Scopone" in s for s in drawn)
    else:
        assert name in drawn
    assert not [x for x in m.overflows if "Custom" in x[0] or "Scopone" in x[0]]


@pytest.mark.parametrize("players,options,name", CASES)
def test_the_menus_continue_card_names_the_variant(players, options, name):
    s = Session.new("scopa", "piacentine", players, options, seed=5, human_seat=0, threaded=False)
    s.start()
    assert saves.save_match(s.to_save()) is None
    app = make_app()
    app.open_path("menu")
    menu = app.stack.top
    assert menu.saved is not None and menu.offer_variant() == name
    with theme.measure_text() as m:
        app.render(1.0)
    drawn = [x[0] for x in m.entries]
    if name is not None:
        assert name in drawn
    assert not m.overflows, m.overflows


def test_a_long_custom_name_is_cut_not_run_over_on_the_card():
    opts = {"capture": "fifteen", "aces": "take_all", "re_bello": True, "napola": True}
    s = Session.new("scopa", "piacentine", 2, opts, seed=5, human_seat=0, threaded=False)
    s.start()
    saves.save_match(s.to_save())
    app = make_app("it")
    app.open_path("menu")
    with theme.measure_text() as m:
        app.render(1.0)
    assert not m.overflows, m.overflows
    assert any(x[0].startswith("Personalizzata: A quindici") for x in m.entries)
