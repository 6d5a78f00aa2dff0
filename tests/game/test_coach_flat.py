"""The coach's flat evaluation (game.coach.flat): every move on the same worlds, clearly worse
moves dropped, values paired with the leader's. Budgets are small (a few hundred playouts)."""

from __future__ import annotations

from game.ai.bots import make_bot
from game.coach import flat
from game.coach.analysis import analyse_position, positions, tied_best
from game.coach.hooks import load_coach
from game.match import Match
from game.rulesets import make_rules


def test_a_clearly_worse_move_is_dropped_and_a_tie_is_kept():
    scores = {
        "lead": [1.0, 0.5, 1.0, 0.5] * 6,
        "tied": [1.0, 0.5, 1.0, 0.5] * 6,
        "worse": [0.0, -0.5, 0.1, -0.4] * 6,
        "close": [1.0, 0.5, 1.0, 0.4] * 6,
    }
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
    best = max(legal, key=lambda a: values[a][0])
    assert values[best][1] == max(n for _, n in values.values())
    assert all(n >= flat.first_round(300, 3) for _, n in values.values())
    other = flat.flat_values(rules, p.view, legal, 0, "another decision", 300)
    assert other != values  # another key draws other worlds


def test_the_analysis_says_flat_before_the_endgame():
    rules, p = briscola_opening()
    d = analyse_position(rules, p.view, p.legal, p.played, 0, p.index, budget=120)
    top = max(m.points for m in d.values)
    assert d.method == "flat" and d.value_of(d.best) >= top - load_coach("briscola").tie


def test_moves_within_the_tie_are_tied_best_and_the_prior_names_one():
    legal = ["a", "b", "c", "d"]
    points = {"a": 1.0, "b": 1.2, "c": 1.15, "d": 0.5}
    prior = {"a": 0.0, "b": 0.1, "c": 0.3, "d": 9.0}
    assert tied_best(legal, points, 0.1, prior.get) == ("c", ["b", "c"])
    assert tied_best(legal, points, 0.0, prior.get) == ("b", ["b"])
    assert tied_best(legal, points, 0.25, lambda a: 0.0) == ("a", ["a", "b", "c"])  # equal ranks: the legal order


def test_a_move_tied_best_loses_nothing_and_the_shown_best_is_the_priors(monkeypatch):
    import game.games.briscola.coach as briscola_coach
    from game.ai.hooks import load_hooks

    rules, p = briscola_opening()
    monkeypatch.setattr(briscola_coach, "TIE", 1000.0, raising=False)  # every move tied
    prior = load_hooks("briscola").prior
    favourite = max(p.legal, key=lambda a: prior(rules, p.view, a))
    for played in p.legal:
        d = analyse_position(rules, p.view, p.legal, played, 0, p.index, budget=120)
        assert (d.best, d.loss, d.klass) == (favourite, 0.0, "best")
