"""The ``serve`` flags that bound the club's events and par: each reaches ServerLimits, and
a value out of its range is one line naming the flag, before anything starts."""

from __future__ import annotations

import pytest

from game.online.cli import _parser, server_limits


def limits(*flags: str):
    return server_limits(_parser().parse_args(["serve", *flags]))


def test_the_events_and_par_flags_reach_the_limits():
    got = limits("--tournament-deals", "3", "--event-no-show", "30", "--par-iterations", "40")
    assert (got.tournament_deals, got.event_no_show, got.par_iterations) == (3, 30.0, 40)
    assert limits().par_iterations is None  # par's own budget unless the owner says


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--tournament-deals", "0"),
        ("--tournament-deals", "17"),
        ("--event-no-show", "4"),
        ("--event-no-show", "3601"),
        ("--par-iterations", "0"),
        ("--par-iterations", "5001"),
    ],
)
def test_a_value_out_of_range_is_one_line_naming_the_flag(flag, value):
    with pytest.raises(ValueError, match=f"^{flag} must be "):
        limits(flag, value)
