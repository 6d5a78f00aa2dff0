"""The budget, not the clock, decides: every level's search in every game runs its budget of
iterations (or solver nodes) and chooses the same move however fast the clock runs, as long
as the time cap is out of reach; when the cap does cut a search short, the bot says so."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from game.ai import levels
from game.config import get_config
from game.rulesets import game_ids, make_rules

#: Hard's mid-deal searches at a smaller budget (the test's cost); its exact endgames as shipped.
HARD_MIDGAME_ITERATIONS = 300


def _positions(game: str, players: int, seed: int) -> list[tuple[object, object]]:
    """A position early in a random deal and one a few plies before its end (where the exact
    solvers decide), each with a real choice."""
    rules = make_rules(game, None, players)
    rng = random.Random(seed)
    state = rules.new_deal(rng, rng.randrange(players), 1)
    states = []
    while not rules.is_over(state):
        legal = sorted(rules.legal_actions(state), key=str)
        if len(legal) > 1:
            states.append(rules.clone(state))
        rules.apply(state, rng.choice(legal))
    return [(rules, states[3]), (rules, states[-3])]


def _cases() -> list[tuple[str, int]]:
    config = get_config()
    return [(g, n) for g in game_ids() for n in config.game(g).players]


def _decide(rules, state, level: str, seed: int, time_cap: float | None) -> tuple[str, str, int]:
    seat = rules.to_act(state)
    kw = {"time_cap": time_cap}
    if level == "hard":
        kw["iterations"] = HARD_MIDGAME_ITERATIONS
    bot = {"hard": levels.HardBot, "normal": levels.NormalBot, "easy": levels.EasyBot}[level](rules, seat, seed, **kw)
    action = bot.choose(rules.view(state, seat), rules.legal_actions(state))
    stats = bot.last_stats
    assert not stats["capped"]
    return str(action), stats["method"], stats["iterations"]


def _racing_clock(monkeypatch) -> None:
    """time.perf_counter jumps a whole second per reading: any code that decides by the clock
    (a solver with seconds to spend, a search with a deadline within reach) decides otherwise."""
    ticks = itertools.count(1)
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))


@pytest.mark.parametrize("game, players", _cases())
@pytest.mark.parametrize("level", ["hard", "normal", "easy"])
def test_the_same_seed_decides_the_same_however_fast_the_clock_runs(game, players, level, monkeypatch):
    positions = _positions(game, players, seed=7)
    calm = [_decide(r, s, level, 11, None) for r, s in positions]
    _racing_clock(monkeypatch)
    # A cap far out of reach even for a clock a second per reading: the budget decides.
    racing = [_decide(r, s, level, 11, 1e12) for r, s in positions]
    assert racing == calm


def test_a_search_cut_short_by_its_cap_says_so(monkeypatch):
    game = game_ids()[0]
    rules, state = _positions(game, get_config().game(game).players[0], seed=3)[0]
    seat = rules.to_act(state)
    view, legal = rules.view(state, seat), rules.legal_actions(state)
    bot = levels.NormalBot(rules, seat, 1, time_cap=None)
    bot.choose(view, legal)
    assert bot.last_stats["capped"] is False and bot.last_stats["iterations"] == bot.iterations
    _racing_clock(monkeypatch)
    bot = levels.NormalBot(rules, seat, 1, time_cap=5.0)
    bot.choose(view, legal)
    assert bot.last_stats["capped"] is True and 0 < bot.last_stats["iterations"] < bot.iterations
