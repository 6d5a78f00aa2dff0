"""The offline daily deal: its derivation, the pinned deals of a fixed date, the command and
the calendar."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import game.services.par
from game.config import get_config
from game.services.cli import main as cli_main
from game.services.daily import (
    Calendar,
    calendar,
    daily_deal,
    daily_seed,
    first_deal,
    load_days,
    parse_day,
    presets_of,
    record_day,
)
from game.verify import verify_file

ROOT = Path(__file__).resolve().parents[2]
DAY = dt.date(2026, 12, 1)

#: The first deal of every game and preset on 2026-12-01: the seed, seat 0's hand, and the
#: first 16 hex digits of SHA-256 of [dealer, hands, table, stock, trump] as JSON.
PINNED = {
    ("scopa", "classica"): (1691492756, ["6B", "AB", "2S"], "15f9b0ed6f69e3ed"),
    ("scopa", "scopone"): (1138251891, ["6D", "3B", "AB", "JS", "AC", "7C", "5C", "6B", "2D"], "5937fdeb90388705"),
    ("scopa", "scopone10"): (
        266724754,
        ["5B", "4D", "AD", "QS", "QC", "QB", "AB", "JB", "AC", "3C"],
        "a93c625461448790",
    ),
    ("scopa", "assi"): (1834752958, ["5C", "QC", "AS"], "c7f97521a4e1979f"),
    ("scopa", "quindici"): (1504890033, ["3D", "QD", "AD"], "16377e277dc589fa"),
    ("cicera", "standard"): (
        694795157,
        ["9C", "4C", "JB", "10B", "QC", "2S", "10C", "10S", "8B", "4S", "2B", "QS"],
        "4229747e72064ea8",
    ),
    ("briscola", "standard"): (1084950021, ["4S", "3B", "JB"], "8e483be702ff7051"),
    ("schnapsen", "standard"): (357397341, ["KD", "KS", "AB", "10S", "JD"], "785e091ef3d47218"),
    ("tressette", "standard"): (
        1930757368,
        ["7B", "JD", "2S", "3B", "3D", "2B", "2D", "6S", "6C", "6D"],
        "c17a5a09dd8d5574",
    ),
    ("chiamata", "classica"): (1935641180, ["KB", "AB", "5D", "AC", "6D", "5S", "KC", "KD"], "864ea0a2353aeb87"),
    ("chiamata", "cappotto"): (1548674873, ["7C", "7B", "2B", "4S", "AS", "QS", "3D", "QB"], "919a7275acd4bcdc"),
}


def _digest(deal: dict) -> str:
    text = json.dumps([deal["dealer"], deal["hands"], deal["table"], deal["stock"], deal["trump"]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_every_game_and_preset_is_pinned():
    config = get_config()
    assert set(PINNED) == {(g, p) for g in config.games for p in presets_of(g)}


@pytest.mark.parametrize("game,preset", sorted(PINNED))
def test_the_first_deal_of_a_fixed_date_is_pinned(game, preset):
    seed, hand, digest = PINNED[(game, preset)]
    d = daily_deal(game, preset, DAY)
    assert d.deal.seed == seed
    deal = first_deal(d)
    assert deal["hands"][0] == hand and _digest(deal) == digest


def test_the_seed_is_the_documented_derivation():
    text = "cardavia-daily|2026-12-01|briscola|standard"
    expected = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) >> 1
    assert daily_seed(DAY, "briscola", "standard") == expected == daily_deal("briscola", day=DAY).deal.seed


def test_another_date_or_preset_is_another_deal():
    a = first_deal(daily_deal("scopa", "classica", DAY))
    b = first_deal(daily_deal("scopa", "classica", DAY + dt.timedelta(days=1)))
    c = first_deal(daily_deal("scopa", "assi", DAY))
    assert a["hands"] != b["hands"] and a["hands"] != c["hands"]


_PRINT_DEAL = (
    "import datetime, json; from game.services.daily import daily_deal, first_deal; "
    "print(json.dumps(first_deal(daily_deal('tressette', None, datetime.date(2027, 3, 9)))))"
)


def test_the_same_date_gives_the_same_deal_in_two_homes(tmp_path):
    """Two processes with their own data folders (and hash seeds): one deal."""
    out = []
    for home, hashseed in (("one", "1"), ("two", "2")):
        env = dict(os.environ, CARDAVIA_HOME=str(tmp_path / home), PYTHONHASHSEED=hashseed)
        run = subprocess.run(
            [sys.executable, "-c", _PRINT_DEAL], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        out.append(json.loads(run.stdout))
    assert out[0] == out[1] and out[0]["event"] == "deal"


@pytest.mark.parametrize("text", ["2026-02-30", "1.12.2026", "2026-1-1", "", "tomorrow"])
def test_a_bad_date_is_one_line(text):
    with pytest.raises(ValueError) as e:
        parse_day(text)
    assert "\n" not in str(e.value)


@pytest.fixture
def small_par(monkeypatch):
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 10)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.services.par, "HOUSE_ITERATIONS", 10)


def test_the_daily_command_prints_score_par_difference_and_a_verifiable_record(tmp_path, capsys, small_par):
    code = cli_main(["daily", "--game", "briscola", "--date", "2026-12-01", "--bot", "greedy", "--out", str(tmp_path)])
    assert code == 0
    line = capsys.readouterr().out.strip()
    path = tmp_path / "daily-2026-12-01-briscola-standard-greedy.jsonl"
    assert "score " in line and "par " in line and "difference " in line and line.endswith(f"record {path}")
    assert verify_file(str(path)).ok
    head = json.loads(path.read_text().splitlines()[0])
    assert head["seed"] == PINNED[("briscola", "standard")][0] and head["deals"] == 1
    assert head["daily"]["date"] == "2026-12-01" and head["daily"]["seat"] == 0
    # The same command again: the same score and par (no time caps anywhere).
    assert (
        cli_main(
            ["daily", "--game", "briscola", "--date", "2026-12-01", "--bot", "greedy", "--out", str(tmp_path / "again")]
        )
        == 0
    )
    assert capsys.readouterr().out.split("; record")[0] == line.split("; record")[0]


def test_the_daily_command_keeps_the_record_among_the_replays(capsys, small_par, _private_home):
    assert cli_main(["daily", "--game", "schnapsen", "--date", "2026-12-01", "--bot", "random"]) == 0
    path = Path(capsys.readouterr().out.strip().rsplit("record ", 1)[1])
    assert path.parent == _private_home / "replays" and verify_file(str(path)).ok


@pytest.mark.parametrize(
    "argv",
    [
        ["--game", "scopa", "--date", "2026-13-01", "--bot", "greedy"],
        ["--game", "scopa", "--preset", "nope", "--bot", "greedy"],
        ["--game", "briscola", "--preset", "classica", "--bot", "greedy"],
        ["--game", "nope", "--bot", "greedy"],
        ["--game", "scopa", "--bot", "nope"],
        ["--game", "scopa"],
    ],
)
def test_bad_daily_command_lines_are_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        raise SystemExit(cli_main(["daily", *argv]))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_calendar_keeps_the_first_play_of_a_day_its_streak_and_best():
    key = "scopa/classica"
    assert record_day(key, DAY, 5, 3.5) == (True, None)
    assert record_day(key, DAY, 9, 3.5)[0] is False  # a second play of the day is practice
    record_day(key, DAY - dt.timedelta(days=1), 2, 4.0)
    record_day(key, DAY - dt.timedelta(days=3), 7, 2.0)
    record_day("briscola/standard", DAY, 60, 70.0)
    cal = calendar(key, on=DAY)
    assert isinstance(cal, Calendar) and set(cal.days) == {"2026-12-01", "2026-11-30", "2026-11-28"}
    assert cal.streak == 2 and cal.best == ("2026-11-28", 5.0) and cal.difference("2026-12-01") == 1.5
    # Not played yet today: yesterday's run still counts; two days later it is broken.
    assert calendar(key, on=DAY + dt.timedelta(days=1)).streak == 2
    assert calendar(key, on=DAY + dt.timedelta(days=2)).streak == 0
    # Kept apart from the statistics of ordinary matches.
    days, problem = load_days()
    assert problem is None and days["briscola/standard"]["2026-12-01"] == {"score": 60, "par": 70.0}
    from game.services.stats import load_stats

    assert load_stats()[0] == {}
