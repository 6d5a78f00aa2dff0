"""bench/ai_speed.py: timings on fixed positions under a house rule, with the machine's speed."""
from __future__ import annotations

import pytest

from tests.bench_module import load_bench

ai_speed = load_bench("ai_speed")


def test_a_house_rule_is_timed_on_positions_dealt_under_it(capsys):
    assert ai_speed.main(["--game", "scopa", "--preset", "assi", "--level", "easy", "--positions", "2"]) == 0
    out = capsys.readouterr().out
    assert "machine: reference workload" in out
    assert "scopa 2p [aces=take_all] easy" in out and "2 positions" in out
    rules, _ = ai_speed.positions("scopa", 2, 1, options={"aces": "take_all"})[0]
    assert rules.aces_take_all


def test_the_reference_workload_takes_measurable_cpu_time():
    assert ai_speed.reference_seconds(rounds=1) > 0.0


@pytest.mark.parametrize("args, message", [
    (["--game", "scopa", "--preset", "nope"], "has no preset 'nope'"),
    (["--game", "scopa", "--option", "aces=xx"], "not allowed"),
    (["--preset", "assi"], "exactly one --game"),
    (["--game", "scopa", "--option", "aces"], "NAME=VALUE"),
])
def test_bad_house_rules_get_a_clear_message(capsys, args, message):
    assert ai_speed.main(args) == 2
    assert message in capsys.readouterr().err
