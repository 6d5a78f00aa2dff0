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


def test_a_level_setting_is_timed_beside_the_level(capsys):
    """``--level hard:c=0.3`` times that setting on the same positions as the shipped hard."""
    assert (
        ai_speed.main(["--game", "schnapsen", "--level", "easy", "--level", "easy:iterations=20", "--positions", "2"])
        == 0
    )
    out = capsys.readouterr().out
    assert "schnapsen 2p easy  " in out and "schnapsen 2p easy:iterations=20:" in out
    lines = [line for line in out.splitlines() if " 2 positions" in line]
    assert len(lines) == 2


def test_the_reference_workload_takes_measurable_cpu_time():
    assert ai_speed.reference_seconds(rounds=1) > 0.0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "scopa", "--preset", "nope"], "has no preset 'nope'"),
        (["--game", "scopa", "--option", "aces=xx"], "not allowed"),
        (["--preset", "assi"], "exactly one --game"),
        (["--game", "scopa", "--option", "aces"], "NAME=VALUE"),
        (["--game", "scopa", "--level", "expert"], "unknown bot"),
        (["--game", "scopa", "--level", "greedy"], "not a level"),
        (["--game", "scopa", "--level", "hard:c"], "key=value"),
        (["--game", "scopa", "--level", "hard:sharpness=2"], "has no setting 'sharpness'"),
    ],
)
def test_bad_house_rules_get_a_clear_message(capsys, args, message):
    assert ai_speed.main(args) == 2
    assert message in capsys.readouterr().err
