"""The coach's flat evaluation (game.coach.flat): every move on the same worlds, clearly worse
moves dropped, values paired with the leader's. Budgets are small (a few hundred playouts)."""
from __future__ import annotations

from game.ai.bots import make_bot
from game.coach import flat
from game.coach.analysis import analyse_position, positions
from game.match import Match
from game.rulesets import make_rules


def test_a_clearly_worse_move_is_dropped_and_a_tie_is_kept():
    scores = {"lead": [1.0, 0.5, 1.0, 0.5] * 6, "tied": [1.0, 0.5, 1.0, 0.5] * 6,
              "worse": [0.0, -0.5, 0.1, -0.4] * 6, "close": [1.0, 0.5, 1.0, 0.4] * 6}
    assert flat._survivors(list(scores), scores) == ["lead", "tied", "close"]


def test_a_dropped_moves_value_is_the_leaders_plus_the_paired_difference():
    scores = {"a": [0.2, 0.4, 0.6, 0.8], "b": [0.0, 0.1]}
    values = flat._values(["a", "b"], scores, ["a"])
    assert values["a"] == (0.5, 4)
    # Over the two worlds b was played in it lost 0.25 on average to a: 0.5 - 0.25.
    assert values["b"][1] == 2 and abs(values["b"][0] - 0.25) < 1e-12


def test_small_budgets_are_kept_and_a_round_covers_every_move():
    assert flat.first_round(60, 10) == 6
    assert flat.first_round(40_000, 10) == 1000
    assert flat.first_round(800, 10) == flat.MIN_WORLDS


def briscola_opening():
    rules = make_rules("briscola", None, 2)
    events = Match(rules, 5, [make_bot("greedy", rules, s, 5) for s in range(2)], deals=1).run()
    return rules, next(p for p in positions(rules, events, 0) if len(p.legal) == 3)


def test_every_move_is_played_on_the_same_worlds_and_the_leader_on_the_most():
    rules, p = briscola_opening()
    legal = list(p.legal)
    values = flat.flat_values(rules, p.view, legal, 0, "t", 300)
    again = flat.flat_values(rules, p.view, legal, 0, "t", 300)
    assert values == again  # the seeds alone decide
    best = flat.best_of(legal, values)
    assert values[best][1] == max(n for _, n in values.values())
    assert all(n >= flat.first_round(300, 3) for _, n in values.values())
    other = flat.flat_values(rules, p.view, legal, 0, "another decision", 300)
    assert other != values  # another key draws other worlds


def test_the_analysis_says_flat_before_the_endgame():
    rules, p = briscola_opening()
    d = analyse_position(rules, p.view, p.legal, p.played, 0, p.index, budget=120)
    assert d.method == "flat" and d.value_of(d.best) == max(m.points for m in d.values)
