"""The variant of a table (a preset, a custom set of house rules, or the rules as written),
its statistics key and its name; and the game-select choice remembered in the settings."""

from __future__ import annotations

import pytest

from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import GameChoice, Settings, game_choice, load_settings, remember_game_choice, save_settings
from game.variants import (
    CUSTOM,
    changed_rules,
    house_rules,
    options_from_key,
    preset_of,
    variant_key,
    variant_name,
    variant_name_of_key,
)

CFG = get_config()
SCOPA = CFG.games["scopa"]


def test_the_house_rules_are_the_options_with_an_explanation():
    assert [s.name for s in house_rules(SCOPA)] == ["deal", "capture", "aces", "re_bello", "napola"]
    assert [s.name for s in house_rules(SCOPA, 2)] == ["capture", "aces", "re_bello", "napola"]
    for gid in ("briscola", "cicera", "schnapsen"):
        assert house_rules(CFG.games[gid]) == []  # only match-length options: no variants


@pytest.mark.parametrize("preset", SCOPA.presets, ids=lambda p: p.id)
def test_every_preset_is_recognised_from_its_options_whatever_the_match_length(preset):
    n = max(preset.players)
    for target in SCOPA.options["target"].allowed:
        opts = SCOPA.resolve_options({**preset.options, "target": target}, n)
        assert preset_of(SCOPA, opts, n) == preset
        key = variant_key(SCOPA, opts, n)
        assert key == ("" if not preset.options else preset.id)
        assert options_from_key(SCOPA, key) == {s.name: opts[s.name] for s in house_rules(SCOPA)}


def test_a_custom_set_has_a_key_that_reads_back_and_a_short_name():
    opts = SCOPA.resolve_options({"capture": "fifteen", "napola": True, "target": 21}, 2)
    key = variant_key(SCOPA, opts, 2)
    assert key == "custom:capture=fifteen+napola=true"
    back = options_from_key(SCOPA, key)
    assert back["capture"] == "fifteen" and back["napola"] is True and back["aces"] == "normal"
    en, it, de = I18n("en"), I18n("it"), I18n("de")
    assert variant_name(en, SCOPA, opts, 2) == "Custom: Fifteen · Napola"
    assert variant_name(it, SCOPA, opts, 2) == "Personalizzata: A quindici · Napola"
    assert variant_name_of_key(de, SCOPA, key) == "Eigene Regeln: Fünfzehn · Napola"
    assert variant_name(en, SCOPA, SCOPA.resolve_options({"deal": "scopone"}, 4), 4) == "Scopone scientifico"
    assert variant_name(en, SCOPA, SCOPA.default_options(), 2) is None  # the rules as written
    assert variant_name(en, CFG.games["briscola"], {"format": "match"}, 4) is None


@pytest.mark.parametrize("key", ["nonsense", "custom:", "custom:target=21", "custom:napola=maybe", "custom:deal"])
def test_an_unreadable_variant_key_is_none_and_named_custom(key):
    assert options_from_key(SCOPA, key) is None
    assert variant_name_of_key(I18n("en"), SCOPA, key) == "Custom"


def test_one_is_not_true_for_a_house_rule():
    assert changed_rules(SCOPA, {"napola": 1, "re_bello": "true"}) == {}


# ---------------------------------------------------------------------- remembered per game
def test_the_game_select_choice_round_trips_through_the_settings_file():
    s = Settings()
    choice = GameChoice(4, {**SCOPA.default_options(), "napola": True, "target": 21}, "scopone")
    in_force = {**SCOPA.default_options(), "deal": "scopone", "target": 21}
    remember_game_choice(s, SCOPA, choice, in_force)
    assert save_settings(s) is None
    back = game_choice(load_settings(default_language="en").settings, SCOPA)
    assert back == choice
    assert s.game_options["scopa"] == {**in_force, "players": 4}  # what a table plays (the results demo reads it)
    assert s.variants["scopa"]["custom"]["napola"] is True


def test_an_older_settings_file_without_a_preset_names_what_its_options_say():
    s = Settings(game_options={"scopa": {"deal": "scopone10", "players": 4}})
    assert game_choice(s, SCOPA).preset == "scopone10"
    s = Settings(game_options={"scopa": {"capture": "fifteen", "napola": True, "players": 2}})
    c = game_choice(s, SCOPA)
    assert c.preset == CUSTOM and c.options["napola"] is True
    assert game_choice(Settings(), SCOPA) == GameChoice(2, SCOPA.default_options(), "classica")
    assert game_choice(Settings(), CFG.games["briscola"]).preset == ""


@pytest.mark.parametrize(
    "raw",
    [
        {"game_options": {"scopa": {"players": 9, "target": "11", "napola": 1}}, "variants": {"scopa": {"preset": 3}}},
        {"game_options": {"scopa": "all"}, "variants": {"scopa": {"preset": "gone", "custom": {"aces": "every"}}}},
        {"game_options": [], "variants": None},
    ],
)
def test_bad_remembered_values_fall_back_to_the_defaults(raw):
    c = game_choice(Settings.from_json(raw), SCOPA)
    assert c.players == 2 and c.options == SCOPA.default_options()
    assert c.preset in [p.id for p in SCOPA.presets] + [CUSTOM]
