"""bench/schnapsen_policy.py: the playout policy played as a player, one setting against another."""

from __future__ import annotations

import pytest

from game.games.schnapsen import ai as schnapsen_ai
from tests.bench_module import load_bench

schnapsen_policy = load_bench("schnapsen_policy")


def _margin(out: str) -> float:
    return float(out.split(": A ")[1].split()[0])


def test_the_same_settings_on_both_sides_break_even_and_the_module_is_left_as_it_was(capsys):
    before = schnapsen_ai.SAFE_LEAD
    assert schnapsen_policy.main(["--deals", "30", "--rules", "ours", "--a", "SAFE_LEAD=6", "--b", "SAFE_LEAD=6"]) == 0
    out = capsys.readouterr().out
    assert "(30 deals, 60 games" in out and _margin(out) == 0.0
    assert schnapsen_ai.SAFE_LEAD == before


def test_a_setting_that_changes_the_play_changes_the_games(capsys):
    assert schnapsen_policy.main(["--deals", "60", "--rules", "ours", "--a", "TRUMP_IN=3"]) == 0
    first = capsys.readouterr().out
    assert schnapsen_policy.main(["--deals", "60", "--rules", "ours", "--a", "TRUMP_IN=3"]) == 0
    assert capsys.readouterr().out.split(";")[0] == first.split(";")[0]  # the same deals, the same games
    # Trumping every lead worth three points or more throws points away over 60 deals.
    assert _margin(first) != 0.0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deals", "0"], "at least 1"),
        (["--a", "NOT_A_KNOB=1"], "'NOT_A_KNOB=1' is not NAME=VALUE"),
        (["--a", "SAFE_LEAD=lots"], "'lots' is not a number for SAFE_LEAD"),
        (["--a", "SAFE_LEAD"], "is not NAME=VALUE"),
    ],
)
def test_bad_arguments_get_a_clear_message(capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        schnapsen_policy.main(args + ["--rules", "ours"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
