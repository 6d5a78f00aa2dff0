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


def test_the_event_loop_flag_names_the_loop_serve_runs_on():
    import asyncio

    from game.online.server.server import ServerError
    from game.online.server.serving import loop_factory

    assert _parser().parse_args(["serve"]).event_loop == "auto"
    name, factory = loop_factory("asyncio")
    assert (name, factory) == ("asyncio", None)  # asyncio.Runner's own loop
    try:
        import uvloop
    except ImportError:  # where it is not installed (Windows): auto is the standard loop, uvloop a clear refusal
        assert loop_factory("auto") == ("asyncio", None)
        with pytest.raises(ServerError, match="uvloop is not installed"):
            loop_factory("uvloop")
    else:
        for asked in ("auto", "uvloop"):
            name, factory = loop_factory(asked)
            assert name == "uvloop" and factory is not None
            loop = factory()
            try:
                assert isinstance(loop, uvloop.Loop) and isinstance(loop, asyncio.AbstractEventLoop)
            finally:
                loop.close()
    with pytest.raises(ServerError, match="^--event-loop takes auto, uvloop, asyncio, not 'tokio'$"):
        loop_factory("tokio")


def test_a_bad_event_loop_is_one_line_before_anything_starts(tmp_path, capsys):
    from game.online.cli import main as online_main

    code = online_main(["serve", "--port", "0", "--data", str(tmp_path / "d"), "--event-loop", "tokio"])
    err = capsys.readouterr().err
    assert code != 0 and "--event-loop takes auto, uvloop, asyncio, not 'tokio'" in err and "Traceback" not in err
    assert not (tmp_path / "d").exists()  # nothing was made
