"""rules.yaml: the shipped file loads; every kind of corruption is named with file, place and problem."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from game.config import ConfigError, default_rules_path, load_config, parse_config

TEXT = default_rules_path().read_text(encoding="utf-8")


def test_shipped_rules_yaml_loads():
    c = load_config()
    assert set(c.games) == {"scopa", "cicera", "briscola", "schnapsen", "tressette", "chiamata"}
    assert {
        "piacentine",
        "napoletane",
        "bresciane",
        "trevisane",
        "piemontesi",
        "schnapsen-german",
        "schnapsen-french",
    } <= set(c.decks)
    assert c.deck("bresciane").region["en"] == "Brescia · Lombardy · Italy"
    assert c.deck("piemontesi").suit_system == "french"
    assert c.deck("schnapsen-german").cards == 20
    assert c.game("scopa").options["target"].allowed == (11, 16, 21, 31)
    # Briscola chiamata: five players, on every 40-card pack (RULES.md).
    assert c.game("chiamata").players == (5,)
    assert [d.id for d in c.decks_for("chiamata")] == [d.id for d in c.decks.values() if d.cards in (40, 52)]
    for d in c.decks.values():
        for lang in ("en", "nl", "de", "it"):
            assert d.name[lang] and d.description[lang] and d.region[lang]
            assert set(d.suits[lang]) == {"D", "C", "S", "B"}
            assert set(d.courts[lang]) == {"J", "Q", "K"}


def test_52_card_deck_plays_40_card_games_without_8_9_10():
    c = load_config()
    cards = c.deck("bresciane").cards_for(c.game("briscola"))
    assert len(cards) == 40 and {x.rank for x in cards}.isdisjoint({"8", "9", "10"})
    assert len(c.deck("bresciane").cards_for(c.game("cicera"))) == 52


def test_config_is_frozen():
    c = load_config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.deck("piacentine").cards = 52  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.game("scopa").scoring["settebello"] = "7C"  # type: ignore[index]


def _corrupt(old: str, new: str, count: int = 1) -> str:
    assert old in TEXT, old
    return TEXT.replace(old, new, count)


CORRUPTIONS = [
    # (id, corrupted text, place fragment, problem fragment)
    ("bad_yaml", _corrupt("games:\n  scopa:", "games:\n  scopa: [unclosed"), "", "not valid YAML"),
    ("tab_indent", _corrupt("    cards: 40\n", "\tcards: 40\n"), "", "not valid YAML"),
    ("missing_key", _corrupt("    suit_system: italian\n", "", 1), "decks → piacentine", "missing key 'suit_system'"),
    (
        "unknown_game_on_deck",
        _corrupt("games: [scopa, briscola, tressette, chiamata]", "games: [scopa, tresette]"),
        "decks → piacentine → games → 1",
        "unknown game 'tresette'",
    ),
    (
        "target_not_allowed",
        _corrupt(
            "target: {default: 11, allowed: [11, 16, 21, 31]}", "target: {default: 13, allowed: [11, 16, 21, 31]}"
        ),
        "games → scopa → options → target → default",
        "not among the allowed values",
    ),
    ("bad_card_count", _corrupt("    cards: 40\n", "    cards: 36\n"), "decks → piacentine → cards", "not a deck size"),
    (
        "deck_too_small_for_game",
        _corrupt("games: [scopa, briscola, tressette, chiamata]", "games: [scopa, cicera]"),
        "decks → piacentine → games → 1",
        "cannot play cicera",
    ),
    (
        "unknown_suit_system",
        _corrupt("suit_system: french\n", "suit_system: spanish\n"),
        "decks → piemontesi → suit_system",
        "unknown suit system",
    ),
    (
        "missing_language",
        _corrupt(
            "name: {en: Piacentine, nl: Piacentine, de: Piacentine, it: Piacentine}",
            "name: {en: Piacentine, nl: Piacentine, de: Piacentine}",
        ),
        "decks → piacentine → name",
        "missing key 'it'",
    ),
    (
        "bad_colour",
        _corrupt('paper: "#f7f1e3"', 'paper: "cream"'),
        "decks → piacentine → colors → paper",
        "not a colour",
    ),
    (
        "unknown_rank_in_table",
        _corrupt('primiera: {"7": 21,', 'primiera: {"7": 21, "11": 3,'),
        "games → scopa → scoring → primiera → 11",
        "unknown rank",
    ),
    (
        "rank_missing_from_table",
        _corrupt('card_points: {A: 11, "3": 10, K: 4,', "card_points: {A: 11, K: 4,"),
        "games → briscola → scoring → card_points",
        "rank 3 is missing",
    ),
    ("wrong_type", _corrupt("players: [2, 3, 4]", "players: many"), "games → scopa → players", "expected a list"),
    (
        "impossible_players",
        _corrupt("players: [2, 3, 4]", "players: [2, 3, 7]"),
        "games → scopa → players → 2",
        "not possible",
    ),
    (
        "unknown_game_section",
        _corrupt("games:\n  scopa:", "games:\n  tresette:\n    name: x\n  scopa:"),
        "games → tresette",
        "unknown game 'tresette'",
    ),
    ("empty_file", "", "", "expected a mapping"),
    ("not_a_mapping", "- just\n- a list\n", "", "expected a mapping"),
    (
        "bad_settebello",
        _corrupt("settebello: 7D", "settebello: 7X"),
        "games → scopa → scoring → settebello",
        "not a card code",
    ),
]


@pytest.mark.parametrize("name,text,place,problem", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corruption_is_rejected_with_file_place_and_problem(name, text, place, problem):
    with pytest.raises(ConfigError) as e:
        parse_config(text, "rules.yaml")
    msg = str(e.value)
    assert msg.startswith("rules.yaml")
    assert problem in msg, msg
    if place:
        assert place in msg, msg
    assert "\n" not in msg and "Traceback" not in msg


def test_error_names_the_line():
    text = _corrupt("games: [scopa, briscola, tressette, chiamata]", "games: [scopa, tresette]")
    with pytest.raises(ConfigError) as e:
        parse_config(text)
    expected_line = text.splitlines().index("    games: [scopa, tresette]") + 1
    assert e.value.line is not None and abs(e.value.line - expected_line) <= 0
    assert re.match(r"rules\.yaml, line \d+ ", str(e.value))


def test_missing_file(tmp_path: Path):
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path / "nope.yaml")
    assert "file not found" in str(e.value)


def test_broken_file_from_cli_exits_2_without_traceback(tmp_path, monkeypatch, capsys):
    from game import config
    from game.services import cli

    bad = tmp_path / "rules.yaml"
    bad.write_text(
        _corrupt("games: [scopa, briscola, tressette, chiamata]", "games: [scopa, tresette]"), encoding="utf-8"
    )
    monkeypatch.setenv("CARDAVIA_DATA", str(tmp_path))
    monkeypatch.setattr(config, "_CACHE", {})
    code = cli.main(["simulate", "--game", "scopa", "--matches", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "unknown game 'tresette'" in err and "Traceback" not in err


def test_the_validator_asks_the_rules_classes_through_the_lookup_it_is_given():
    """game.config_check imports no registry: each game's facts come from ``rules_of``, and
    a lookup that refuses a game is reported at that game's place, as the registry's own
    refusal is."""
    from game import config_check
    from game.registry import rules_class

    asked = []

    def lookup(game_id):
        asked.append(game_id)
        return rules_class(game_id)

    c = config_check.parse_config(TEXT, "rules.yaml", lookup)
    assert asked == list(c.games)

    def refuse(game_id):
        raise ValueError(f"no rules here for {game_id}")

    with pytest.raises(ConfigError) as e:
        config_check.parse_config(TEXT, "rules.yaml", refuse)
    assert e.value.place == f"games → {asked[0]}" and e.value.problem == f"no rules here for {asked[0]}"
