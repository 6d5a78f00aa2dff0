"""The hooks interface (game/ai/hooks.py): every registered game's hooks module conforms, the
levels read their per-game settings from it, and the AI's game-independent modules name no game."""
from __future__ import annotations

import ast
import random
import types
from pathlib import Path

import pytest

from game.ai import make_bot
from game.ai.hooks import LEVEL_NAMES, GameHooks, Hooks, check_hooks, hooks_module, load_hooks
from game.ai.search import SearchBot
from game.rules import game_ids, make_rules

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
    rules = make_rules(game)
    hooks = load_hooks(game)
    for level in LEVEL_NAMES:
        bot = make_bot(level, rules, 0, 1)
        assert isinstance(bot, SearchBot)
        for key, value in hooks.level_settings(level).items():
            assert getattr(bot, key) == value, f"{level}: {key} is {getattr(bot, key)!r}, LEVELS says {value!r}"
    # The caller's keywords win over the game's settings.
    assert type(make_bot("normal", rules, 0, 1))(rules, 0, 1, iterations=7).iterations == 7


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
    assert [hooks.utility(rules, det, s) for s in range(rules.players)] == [u[rules.team_of(s)] for s in range(rules.players)]


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
    others = {i for path in files for i in _imports(path)
              if i.startswith("game.games.") and i.split(".")[2] != game}
    assert not others, f"game/games/{game}/ imports {others}: shared helpers belong in game/ai/determinize.py or game/rules/"


@pytest.mark.parametrize("name", ["levels.py", "search.py", "greedy.py", "__init__.py", "hooks.py", "base.py",
                                  "determinize.py"])
def test_the_game_independent_ai_modules_name_no_game(name):
    """They ask the hooks (found by the game id) instead; nor do the session and the match."""
    ids = set(game_ids())
    for path in (AI / name, ROOT / "game" / "session.py", ROOT / "game" / "match.py"):
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
