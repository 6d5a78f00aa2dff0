"""Settings: defaults, atomic round trip, corrupt files and per-field repair."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game.services.settings import Settings, load_settings, save_settings, settings_path, user_config_dir, user_data_dir


def test_settings_live_in_cardavia_home(_private_home):
    assert user_config_dir() == Path(_private_home)
    assert user_data_dir() == Path(_private_home)
    assert settings_path() == Path(_private_home) / "settings.json"


def test_first_start_gives_defaults_with_the_given_language():
    res = load_settings(default_language="de")
    assert res.first_start and res.problem is None
    assert res.settings == Settings(language="de")
    assert (res.settings.contrast, res.settings.grain, res.settings.temperature) == (50, 50, 50)


def test_round_trip_keeps_every_field_and_unknown_keys():
    s = Settings(
        language="it",
        contrast=12,
        grain=88,
        temperature=61,
        animation_speed="fast",
        volume=33,
        muted=True,
        fullscreen=True,
        hints=False,
        ai_level="hard",
        last_deck="bresciane",
        game_options={"scopa": {"target": 21, "players": 4}},
    )
    s.extra["future_field"] = {"x": 1}
    assert save_settings(s) is None
    back = load_settings(default_language="en")
    assert back.problem is None and not back.first_start
    assert back.settings == s


def test_save_is_atomic_and_leaves_no_temp_files(_private_home):
    save_settings(Settings(contrast=70))
    save_settings(Settings(contrast=71))
    names = sorted(os.listdir(_private_home))
    assert names == ["settings.json"]
    assert json.loads((Path(_private_home) / "settings.json").read_text())["contrast"] == 71


def test_corrupt_file_gives_defaults_and_is_kept_aside(_private_home):
    p = Path(_private_home) / "settings.json"
    p.write_text("{not json at all", encoding="utf-8")
    res = load_settings(default_language="nl")
    assert res.settings == Settings(language="nl")
    assert res.problem and "settings.json.bad" in res.problem
    assert not p.exists()
    assert (Path(_private_home) / "settings.json.bad").read_text() == "{not json at all"


def test_json_that_is_not_an_object_counts_as_corrupt(_private_home):
    (Path(_private_home) / "settings.json").write_text("[1, 2, 3]", encoding="utf-8")
    res = load_settings(default_language="en")
    assert res.settings == Settings()
    assert (Path(_private_home) / "settings.json.bad").exists()


def test_bad_values_are_clamped_or_defaulted_per_field(_private_home):
    data = {
        "language": "fr",
        "contrast": 150,
        "grain": -20,
        "temperature": "hot",
        "volume": True,
        "animation_speed": "ludicrous",
        "fullscreen": "yes",
        "hints": False,
        "ai_level": 3,
        "game_options": ["not", "a", "mapping"],
        "last_deck": 7,
        "muted": True,
    }
    (Path(_private_home) / "settings.json").write_text(json.dumps(data), encoding="utf-8")
    s = load_settings(default_language="de").settings
    assert s.language == "de"  # unsupported → the default language
    assert s.contrast == 100 and s.grain == 0
    assert s.temperature == 50 and s.volume == 80
    assert s.animation_speed == "normal" and s.fullscreen is False and s.ai_level == "normal"
    assert s.hints is False and s.muted is True
    assert s.game_options == {} and s.last_deck == ""


def test_unwritable_location_reports_a_problem_instead_of_raising(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    problem = save_settings(Settings(), blocker / "settings.json")
    assert problem and problem.startswith("Settings could not be saved")


def test_rules_core_modules_do_not_import_pygame():
    code = "import sys, game.services.settings, game.services.i18n; sys.exit(1 if 'pygame' in sys.modules else 0)"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


def test_first_start_language_follows_the_system_locale(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert load_settings().settings.language == "it"
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")  # not one of ours → English
    assert load_settings().settings.language == "en"
