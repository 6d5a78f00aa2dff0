"""House rules as options (issue 18): rules.yaml's option specs and presets, checked by one
generic routine; bad combinations refused with one line, in make_rules and on the command
line; simulate writes the options in force and the records verify."""

from __future__ import annotations

import json

import pytest

from game.config import ConfigError, default_rules_path, get_config, parse_config
from game.rulesets import make_rules
from game.services import cli
from game.services.i18n import load_locale
from game.verify import verify_file

TEXT = default_rules_path().read_text(encoding="utf-8")
LANGS = ("en", "nl", "de", "it")


def _corrupt(old: str, new: str) -> str:
    assert TEXT.count(old) == 1, old
    return TEXT.replace(old, new)


# ---------------------------------------------------------------- the shipped options
def test_scopa_options_are_the_house_rules_of_rules_md():
    g = get_config().game("scopa")
    assert g.default_options() == {
        "target": 11,
        "deal": "three",
        "capture": "match_first",
        "aces": "normal",
        "re_bello": False,
        "napola": False,
    }
    assert g.options["deal"].allowed == ("three", "scopone", "scopone10")
    assert g.options["capture"].allowed == ("match_first", "fifteen")
    assert g.options["aces"].allowed == ("normal", "take_all")
    assert g.options["re_bello"].allowed == g.options["napola"].allowed == (False, True)
    assert g.options["target"].allowed == (11, 16, 21, 31)
    # Scopone is for four players: with fewer, the deal is fixed at its default.
    assert g.options["deal"].players == (4,)
    assert (
        g.options["deal"].allowed_for(2) == ("three",) and g.options["deal"].allowed_for(4) == g.options["deal"].allowed
    )
    assert all(g.options[k].offered_for(2) for k in ("capture", "aces", "re_bello", "napola", "target"))


def test_briscola_is_for_two_or_four_players_with_its_options():
    g = get_config().game("briscola")
    assert g.players == (2, 4) and g.mode_for(4).id == "partners" and g.mode_for(2).id == "versus"
    assert g.default_options() == {"format": "single", "deals_to_win": 2}


def test_presets_are_the_named_scopa_variants():
    g = get_config().game("scopa")
    got = {p.id: (dict(p.options), p.players) for p in g.presets}
    assert got == {
        "classica": ({}, (2, 3, 4)),
        "scopone": ({"deal": "scopone"}, (4,)),
        "scopone10": ({"deal": "scopone10"}, (4,)),
        "assi": ({"aces": "take_all"}, (2, 3, 4)),
        "quindici": ({"capture": "fifteen"}, (2, 3, 4)),
    }
    assert [p.id for p in g.presets_for(2)] == ["classica", "assi", "quindici"]
    assert len(g.presets_for(4)) == 5
    for p in g.presets:
        for n in p.players:
            make_rules("scopa", None, n, p.options)  # every preset plays at every count it names


def test_every_describe_and_preset_name_key_is_in_all_four_locales():
    keys = set()
    for g in get_config().games.values():
        keys |= {spec.describe for spec in g.options.values() if spec.describe}
        keys |= {p.name for p in g.presets}
    assert {"option.deal_about", "preset.scopa.scopone"} <= keys
    for lang in LANGS:
        table = load_locale(lang)[0]
        missing = sorted(k for k in keys if k not in table)
        assert not missing, f"{lang}.yaml lacks {missing}"


# ---------------------------------------------------------------- bad combinations
@pytest.mark.parametrize(
    "players,options,words",
    [
        (2, {"deal": "scopone"}, "scopa option deal=scopone is for 4 players, not 2"),
        (3, {"deal": "scopone10"}, "deal=scopone10 is for 4 players, not 3"),
        (2, {"jokers": True}, "scopa has no option 'jokers'"),
        (2, {"deal": "nine"}, "deal='nine' is not allowed (allowed: three, scopone, scopone10)"),
        (4, {"napola": "yes"}, "napola='yes' is not allowed (allowed: false, true)"),
        (4, {"re_bello": 1}, "re_bello=1 is not allowed"),
        (2, {"target": 12}, "target=12 is not allowed"),
    ],
)
def test_bad_combinations_raise_one_line(players, options, words):
    with pytest.raises(ValueError) as e:
        make_rules("scopa", None, players, options)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_missing_option_is_its_default():
    r = make_rules("scopa", None, 4, {"napola": True})
    assert r.options == {**get_config().game("scopa").default_options(), "napola": True}


def test_options_from_text_turn_command_line_words_into_values():
    g = get_config().game("scopa")
    assert g.options_from_text({"napola": "true", "re_bello": "False", "target": "21", "deal": "Scopone"}) == {
        "napola": True,
        "re_bello": False,
        "target": 21,
        "deal": "scopone",
    }
    assert g.options_from_text({"target": 16}) == {"target": 16}
    with pytest.raises(ValueError, match="napola=maybe is not allowed"):
        g.options_from_text({"napola": "maybe"})
    with pytest.raises(ValueError, match="no option 'joker'"):
        g.options_from_text({"joker": "1"})


def test_an_alias_names_the_same_option():
    g = get_config().game("schnapsen")
    assert g.resolve_options({"target": 7}) == {"bummerl": 7}
    with pytest.raises(ValueError, match="given twice"):
        g.resolve_options({"target": 7, "bummerl": 7})


# ---------------------------------------------------------------- the schema routine
CORRUPTIONS = [
    (
        "option_players_not_of_the_game",
        _corrupt("scopone10], players: [4]", "scopone10], players: [5]"),
        "games → scopa → options → deal → players → 0",
        "5 players is not among the game's player counts",
    ),
    (
        "describe_not_a_key",
        _corrupt("describe: option.capture_about", "describe: Capture by fifteen"),
        "games → scopa → options → capture → describe",
        "is not a locale key",
    ),
    (
        "unknown_option_key",
        _corrupt("aces: {default: normal,", "aces: {defualt: normal, default: normal,"),
        "games → scopa → options → aces → defualt",
        "unknown key 'defualt'",
    ),
    (
        "default_of_another_type",
        _corrupt("napola: {default: false,", "napola: {default: 0,"),
        "games → scopa → options → napola → default",
        "not among the allowed values",
    ),
    (
        "preset_unknown_option",
        _corrupt("options: {aces: take_all}}", "options: {aces: take_all, jokers: true}}"),
        "games → scopa → presets → 3 → options",
        "no option 'jokers'",
    ),
    (
        "preset_bad_value",
        _corrupt("options: {capture: fifteen}}", "options: {capture: fiveteen}}"),
        "games → scopa → presets → 4 → options",
        "capture='fiveteen' is not allowed",
    ),
    (
        "preset_for_a_count_its_options_refuse",
        _corrupt("options: {deal: scopone}, players: [4]}", "options: {deal: scopone}, players: [2, 4]}"),
        "games → scopa → presets → 1 → players → 0",
        "deal=scopone is for 4 players, not 2",
    ),
    ("preset_twice", _corrupt("{id: assi,", "{id: classica,"), "games → scopa → presets → 3 → id", "defined twice"),
    (
        "preset_name_not_a_key",
        _corrupt("name: preset.scopa.assi", "name: Scopa d'assi"),
        "games → scopa → presets → 3 → name",
        "is not a locale key",
    ),
    (
        "alias_clash",
        _corrupt(
            "bummerl: {default: 7, allowed: [7], aliases: [target]}",
            "bummerl: {default: 7, allowed: [7], aliases: [bummerl]}",
        ),
        "games → schnapsen → options → bummerl",
        "already option 'bummerl'",
    ),
    ("unknown_game_key", _corrupt("    presets:\n", "    preset:\n"), "games → scopa → preset", "unknown key 'preset'"),
    (
        "constraint_unknown_option",
        _corrupt(
            "    presets:\n", "    constraints:\n      - {when: {deal: scopone}, then: {jokers: true}}\n    presets:\n"
        ),
        "games → scopa → constraints → 0 → then → jokers",
        "unknown option 'jokers'",
    ),
    (
        "constraint_the_defaults_break",
        _corrupt(
            "    presets:\n", "    constraints:\n      - {when: {aces: normal}, then: {napola: true}}\n    presets:\n"
        ),
        "games → scopa → constraints → 0",
        "the defaults break this rule",
    ),
]


@pytest.mark.parametrize("name,text,place,problem", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_a_broken_option_spec_is_named_with_its_place(name, text, place, problem):
    with pytest.raises(ConfigError) as e:
        parse_config(text, "rules.yaml")
    msg = str(e.value)
    assert problem in msg and place in msg and "\n" not in msg, msg


def test_combination_constraints_are_checked_by_resolve_options():
    text = _corrupt(
        "    presets:\n", "    constraints:\n      - {when: {capture: fifteen}, then: {aces: [normal]}}\n    presets:\n"
    )
    g = parse_config(text).game("scopa")
    assert g.resolve_options({"capture": "fifteen"})["aces"] == "normal"
    assert g.resolve_options({"aces": "take_all"})["capture"] == "match_first"
    with pytest.raises(ValueError) as e:
        g.resolve_options({"capture": "fifteen", "aces": "take_all"})
    assert str(e.value) == "scopa: capture=fifteen needs aces=normal"
    # A preset that breaks a constraint is a mistake in the file.
    bad = text.replace("options: {capture: fifteen}}", "options: {capture: fifteen, aces: take_all}}")
    with pytest.raises(ConfigError, match="presets → 4 → options"):
        parse_config(bad)


# ---------------------------------------------------------------- the command line
def test_simulate_with_house_rules_writes_every_option_and_verifies(tmp_path, capsys):
    out = tmp_path / "rec"
    code = cli.main(
        [
            "simulate",
            "--game",
            "scopa",
            "--option",
            "deal=scopone",
            "--option",
            "napola=true",
            "--players",
            "4",
            "--matches",
            "3",
            "--seed",
            "2",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 3
    head = json.loads(files[0].read_text(encoding="utf-8").splitlines()[0])
    assert head["options"] == {
        "target": 11,
        "deal": "scopone",
        "capture": "match_first",
        "aces": "normal",
        "re_bello": False,
        "napola": True,
    }
    deal = json.loads(files[0].read_text(encoding="utf-8").splitlines()[1])
    assert [len(h) for h in deal["hands"]] == [9, 9, 9, 9] and deal["stock"] == []
    assert cli.main(["verify", "--strict", *map(str, files)]) == 0
    assert "3 of 3 records OK" in capsys.readouterr().out


def test_simulate_briscola_for_four(tmp_path):
    out = tmp_path / "rec"
    assert (
        cli.main(
            [
                "simulate",
                "--game",
                "briscola",
                "--players",
                "4",
                "--matches",
                "2",
                "--seed",
                "3",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 2 and all(verify_file(str(f), strict=True).ok for f in files)


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--option", "deal=scopone", "--players", "2"], "scopa option deal=scopone is for 4 players, not 2"),
        (["--option", "deal=scopone10", "--players", "3"], "deal=scopone10 is for 4 players, not 3"),
        (["--option", "jokers=1"], "scopa has no option 'jokers'"),
        (["--option", "aces=all"], "aces=all is not allowed (allowed: normal, take_all)"),
        (["--option", "napola=maybe"], "napola=maybe is not allowed (allowed: false, true)"),
        (["--option", "napola"], "must look like NAME=VALUE"),
    ],
)
def test_bad_combinations_on_the_command_line_exit_2_with_one_line(args, fragment, capsys):
    code = cli.main(["simulate", "--game", "scopa", "--matches", "1", *args])
    err = capsys.readouterr().err.strip()
    assert code == 2 and fragment in err and len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_verify_strict_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "rec"
    cli.main(["simulate", "--game", "scopa", "--matches", "1", "--seed", "4", "--out", str(out), "--quiet"])
    (f,) = out.glob("*.jsonl")
    lines = f.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["options"] = {"target": 11}  # another writer lists only the option it changed
    f.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["verify", str(f)]) == 0
    assert cli.main(["verify", "--strict", str(f)]) == 1
    assert "every option in force" in capsys.readouterr().out
