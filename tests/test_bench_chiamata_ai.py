"""bench/chiamata_ai.py: the duplicate bench of Briscola chiamata's levels, on small budgets."""

from __future__ import annotations

import json

import pytest

from tests.bench_module import load_bench

chiamata_ai = load_bench("chiamata_ai")

SMALL = ["--set", "hard.iterations=30", "--set", "normal.iterations=12", "--set", "easy.iterations=8"]


def test_one_deal_reports_every_figure(capsys, tmp_path):
    out = tmp_path / "gains.jsonl"
    # Seed 10000's deal is bid (not thrown in): every figure is printed for it.
    assert chiamata_ai.main(["--deals", "1", "--seed", "10000", "--all-levels", "--out", str(out), *SMALL]) == 0
    text = capsys.readouterr().out
    assert "1 deals from seed 10000 to 10000 (0 thrown in)" in text
    assert "hard - normal, game points per seat per deal:" in text and "n=1)" in text
    assert "contract made at the same bids: hard caller" in text
    for level in ("easy", "normal", "hard"):
        assert f"contract made, all seats {level}" in text
        assert f"decision time p95 {level}" in text
    assert "card reading after 2 tricks" in text
    row = json.loads(out.read_text(encoding="utf-8"))
    assert row["seed"] == 10000 and len(row["gains"]) == 5
    # Game points of one seat differ by a whole number; the margin is their mean.
    assert all(isinstance(g, int) for g in row["gains"])
    assert row["margin"] == pytest.approx(sum(row["gains"]) / 5)


def test_a_hard_seat_that_plays_as_normal_gains_nothing(capsys):
    # Hard given normal's own settings plays every decision as normal would (the same seeds):
    # the paired difference must be exactly zero, or the pairing is broken.
    same = ["--set", "hard.iterations=12", "--set", "hard.playout_kw={'epsilon': 0.2}", "--set", "normal.iterations=12"]
    assert chiamata_ai.main(["--deals", "1", "--seed", "10001", *same]) == 0
    assert "game points per seat per deal: +0.000" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deals", "0"], "at least 1"),
        (["--jobs", "0"], "at least 1"),
        (["--set", "expert.iterations=5"], "LEVEL.KEY=VALUE"),
        (["--set", "hard.iterations=five"], "no Python literal"),
        (["--hook", "NO_SUCH_CONSTANT=1"], "no tuning constant"),
    ],
)
def test_bad_arguments_get_a_clear_message(capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        chiamata_ai.main(args)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
