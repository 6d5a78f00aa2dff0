"""bench/briscola_reading.py: the card reading's hit rate on real decisions, per setting."""

from __future__ import annotations

import pytest

from tests.bench_module import load_bench

briscola_reading = load_bench("briscola_reading")


def test_every_setting_scores_the_same_decisions(capsys):
    assert briscola_reading.main(["--deals", "1", "--samples", "20", "--plays", "0", "--plays", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("33 decisions from 1 deals (greedy), 20 hands each")
    blind, read = out[1], out[2]
    assert blind.strip().startswith("no reading: hit") and "+0.000 ± 0.000" in blind
    assert read.strip().startswith("last 3 plays: hit")
    hit = float(read.split("hit ")[1].split()[0])
    assert hit > float(blind.split("hit ")[1].split()[0])


def test_a_noisy_opponent_is_read_too(capsys):
    assert briscola_reading.main(["--deals", "1", "--samples", "5", "--opponent", "noisy", "--noise", "2"]) == 0
    assert "(noisy)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deals", "0"], "at least 1"),
        (["--plays", "-1"], "0 or more"),
        (["--opponent", "nobody"], "unknown bot 'nobody'"),
    ],
)
def test_bad_arguments_get_a_clear_message(capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        briscola_reading.main(args)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
