"""The hooks interface (game/ai/hooks.py): every registered game's hooks module conforms, the
levels read their per-game settings from it, and the AI's game-independent modules name no game."""

from __future__ import annotations

import ast
import random
import sys
import types
from pathlib import Path

import pytest

from game.ai.bots import make_bot
from game.ai.hooks import LEVEL_NAMES, GameHooks, Hooks, check_hooks, hooks_module, load_hooks, tuning_module
from game.ai.search import SearchBot
from game.config import get_config
from game.registry import game_module, rules_class
from game.rulesets import game_ids, make_rules

ROOT = Path(__file__).resolve().parents[2]
AI = ROOT / "game" / "ai"


@pytest.mark.parametrize("game", game_ids())
def test_every_game_has_a_conforming_hooks_module(game):
    module = hooks_module(game)
    assert isinstance(module, GameHooks)
    assert check_hooks(module) == []
    hooks = load_hooks(game)
    assert hooks.playout is not None or hooks.rollout is not None, "no playout policy: the search would play at random"


@pytest.mark.parametrize("game", game_ids())
def test_the_levels_take_their_settings_from_the_games_hooks(game):
    hooks = load_hooks(game)
    for players in get_config().games[game].players:
        rules = make_rules(game, None, players)
        for level in LEVEL_NAMES:
            bot = make_bot(level, rules, 0, 1)
            assert isinstance(bot, SearchBot)
            settings = hooks.level_settings(level, players)
            assert "by_players" not in settings
            for key, value in settings.items():
                assert getattr(bot, key) == value, (
                    f"{players}p {level}: {key} is {getattr(bot, key)!r}, LEVELS says {value!r}"
                )
    for preset in get_config().games[game].presets:
        for players in preset.players or get_config().games[game].players:
            rules = make_rules(game, None, players, preset.options)
            for level in LEVEL_NAMES:
                bot = make_bot(level, rules, 0, 1)
                settings = hooks.level_settings(level, players, preset.options)
                assert "by_option" not in settings and "by_players" not in settings
                for key, value in settings.items():
                    assert getattr(bot, key) == value, f"{preset.id} {players}p {level}: {key}"
    rules = make_rules(game)
    # The caller's keywords win over the game's settings.
    assert type(make_bot("normal", rules, 0, 1))(rules, 0, 1, iterations=7).iterations == 7


def _hooks_with_levels(levels: dict) -> Hooks:
    module = types.SimpleNamespace(determinize=lambda *a: None, utilities=lambda *a: [0.0], LEVELS=levels)
    return Hooks("test", module)


def test_level_settings_by_players_then_by_house_rule_the_smallest_budget_wins():
    hooks = _hooks_with_levels(
        {
            "hard": {
                "iterations": 3600,
                "tree_depth": 2,
                "by_players": {4: {"iterations": 3200}},
                "by_option": {
                    "aces=take_all": {"iterations": 2700, "by_players": {4: {"iterations": 2400}}},
                    "capture=fifteen": {"iterations": 2900, "tree_depth": 1},
                    "re_bello=true": {"c": 0.5},
                },
            }
        }
    )
    assert hooks.level_settings("hard") == {"iterations": 3600, "tree_depth": 2}
    assert hooks.level_settings("hard", 4) == {"iterations": 3200, "tree_depth": 2}
    assert hooks.level_settings("hard", 2, {"aces": "take_all"}) == {"iterations": 2700, "tree_depth": 2}
    assert hooks.level_settings("hard", 4, {"aces": "take_all"})["iterations"] == 2400
    both = hooks.level_settings("hard", 2, {"capture": "fifteen", "aces": "take_all"})
    assert both == {"iterations": 2700, "tree_depth": 1}
    assert hooks.level_settings("hard", 2, {"capture": "match_first", "aces": "normal"})["iterations"] == 3600
    assert hooks.level_settings("hard", 2, {"re_bello": True}) == {"iterations": 3600, "tree_depth": 2, "c": 0.5}
    assert hooks.level_settings("hard", 2, {"re_bello": False}) == {"iterations": 3600, "tree_depth": 2}
    assert hooks.level_settings("easy", 2, {"aces": "take_all"}) == {}


def test_scopa_hard_budgets_per_player_count_and_house_rule():
    """Classic Scopa for two searches 1800 iterations (more bought nothing on the fixed
    positions); the house rules keep the budgets their goals were measured at, and with four
    players they cost more per decision, so they get less than classic Scopa."""
    for players, classic, house in ((2, 1800, 2700), (4, 3200, 2400)):
        assert make_bot("hard", make_rules("scopa", None, players), 0, 1).iterations == classic
        for options in ({"aces": "take_all"}, {"capture": "fifteen"}, {"aces": "take_all", "capture": "fifteen"}):
            assert make_bot("hard", make_rules("scopa", None, players, options), 0, 1).iterations == house
        assert make_bot("normal", make_rules("scopa", None, players, {"aces": "take_all"}), 0, 1).iterations == 200


@pytest.mark.parametrize("game", game_ids())
def test_hooks_determinize_a_real_position_and_score_it_per_team(game):
    rules = make_rules(game)
    rng = random.Random(3)
    state = rules.new_deal(rng, 0, 1)
    seat = rules.to_act(state)
    hooks = load_hooks(game)
    det = hooks.determinize(rules, rules.view(state, seat), random.Random(4))
    assert rules.view(det, seat) == rules.view(state, seat)
    while not rules.is_over(det):
        rules.apply(det, rng.choice(rules.legal_actions(det)))
    u = hooks.utilities(rules, det)
    assert len(u) == rules.teams and all(-2.0 <= x <= 2.0 for x in u)
    assert [hooks.utility(rules, det, s) for s in range(rules.players)] == [
        u[rules.team_of(s)] for s in range(rules.players)
    ]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


GAMES = ROOT / "game" / "games"


@pytest.mark.parametrize("game", game_ids())
def test_no_game_folder_imports_another_games_folder(game):
    files = sorted((GAMES / game).rglob("*.py"))
    assert files
    others = {i for path in files for i in _imports(path) if i.startswith("game.games.") and i.split(".")[2] != game}
    assert not others, (
        f"game/games/{game}/ imports {others}: shared helpers belong in game/ai/determinize.py or game/rules/"
    )


@pytest.mark.parametrize(
    "name", ["levels.py", "search.py", "greedy.py", "__init__.py", "hooks.py", "base.py", "determinize.py"]
)
def test_the_game_independent_ai_modules_name_no_game(name):
    """They ask the hooks (found by the game id) instead; nor do the session and the match."""
    ids = set(game_ids())
    for path in (AI / name, ROOT / "game" / "services" / "session.py", ROOT / "game" / "match.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in ids]
        assert not found, f"{path.name} names a game at lines {found}"


def test_check_hooks_names_what_a_module_gets_wrong():
    def determinize(rules, view):  # no rng
        return None

    def playout(rules, state, rng, trace=None, *, smart=True):
        return None

    bad = types.ModuleType("hooks_fake")
    bad.determinize = determinize
    bad.playout = playout
    bad.ROOT_TOP_K = 0
    bad.LEVELS = {"expert": {}, "easy": {"playout_kw": {"clever": True}}}
    problems = check_hooks(bad)
    text = "\n".join(problems)
    assert not isinstance(bad, GameHooks)
    assert "missing utilities" in text
    assert "determinize cannot be called as determinize(rules, view, rng)" in text
    assert "ROOT_TOP_K must be a positive int" in text
    assert "unknown level 'expert'" in text
    assert "playout_kw {'clever': True} does not fit playout" in text
    with pytest.raises(ValueError, match="lacks utilities"):
        Hooks("fake", bad)


def test_a_game_without_a_hooks_module_is_a_clear_error():
    with pytest.raises(ValueError, match="does not play poker yet"):
        load_hooks("poker")


@pytest.mark.parametrize("game", game_ids())
def test_one_lookup_finds_every_part_of_a_game_in_its_folder(game):
    """game_module is the one way to a game's parts: rules, ai and heuristics in every game's
    folder, the optional ones None where a game has none, and nothing outside the folder."""
    for part in ("rules", "ai", "heuristics"):
        module = game_module(game, part)
        assert module.__name__.startswith(f"game.games.{game}.")
        assert Path(module.__file__).resolve().is_relative_to(GAMES / game)
    assert game_module(game, "rules") is sys.modules[rules_class(game).__module__]
    assert load_hooks(game).module is game_module(game, "ai")
    for part in ("solver", "results"):
        module = game_module(game, part, optional=True)
        assert module is None or module.__name__ == f"game.games.{game}.{part}"


def test_a_missing_part_or_game_is_a_clear_error():
    with pytest.raises(ValueError, match=r"no game/games/poker/rules\.py"):
        game_module("poker", "rules")
    assert game_module("poker", "results", optional=True) is None
    assert game_module("../scopa", "rules", optional=True) is None  # not a module name: never imported
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        rules_class("poker")


@pytest.mark.parametrize("game", [g for g in game_ids() if hasattr(hooks_module(g), "__path__")])
def test_a_tuning_constant_set_on_tuning_module_reaches_the_playout(game, monkeypatch):
    """--hook game.EPSILON=VALUE sets an attribute of tuning_module(game); the playout (in an
    ai package, another part than the tuning module) reads it at call time, so the same
    seed plays differently when every move is random and when none is (the games whose ai
    is a package)."""
    tuning = tuning_module(game)
    ai = hooks_module(game)
    assert tuning.__name__ == f"{ai.__name__}.tuning"
    rules = make_rules(game)
    state = rules.new_deal(random.Random(3), 0)

    def traces(epsilon: float) -> list[tuple]:
        monkeypatch.setattr(tuning, "EPSILON", epsilon)
        out = []
        for seed in range(4):
            trace: list = []
            ai.playout(rules, rules.clone(state), random.Random(seed), trace=trace)
            out.append(tuple(trace))
        return out

    assert traces(0.0) != traces(1.0)
