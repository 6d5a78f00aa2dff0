"""bench/ai_strength.py: the tournament runs, reports its figures, and rejects bad settings."""

from __future__ import annotations

import pytest

from game.ai import levels
from game.games.briscola.ai import tuning as briscola_tuning
from tests.bench_module import load_bench

ai_strength = load_bench("ai_strength")


def test_a_small_tournament_prints_margin_win_rate_and_times(capsys, monkeypatch):
    monkeypatch.setattr(briscola_tuning, "EPSILON", briscola_tuning.EPSILON)  # restored afterwards
    rc = ai_strength.main(
        ["--game", "briscola", "--a", "greedy", "--b", "random", "--deals", "3", "--hook", "briscola.EPSILON=0.2"]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "3 duplicate deal seeds (6 deals)" in out and "briscola.EPSILON=0.2" in out
    assert "A margin per deal:" in out and "95% Wilson" in out
    assert briscola_tuning.EPSILON == 0.2  # the hook setting was applied for the run


@pytest.mark.parametrize(
    "args, message",
    [
        (["--hook", "briscola.NOPE=1"], "has no NOPE"),
        (["--hook", "tresette.X=1"], "no hook module"),
        (["--hook", "EPSILON"], "must look like game.NAME=value"),
        (["--a", "wizard"], "unknown bot"),
        (["--deals", "0"], "at least 1"),
    ],
)
def test_bad_settings_get_a_clear_message(capsys, args, message):
    assert ai_strength.main(["--game", "briscola", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_preset_plays_its_house_rules_with_its_player_count(capsys):
    rc = ai_strength.main(["--game", "scopa", "--preset", "scopone", "--a", "greedy", "--b", "random", "--deals", "1"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "scopa 4p" in out and "(preset scopone)" in out and "deal=scopone" in out


def test_an_option_is_read_as_the_config_reads_it(capsys):
    rc = ai_strength.main(
        [
            "--game",
            "scopa",
            "--players",
            "2",
            "--option",
            "napola=true",
            "--option",
            "aces=take_all",
            "--a",
            "greedy",
            "--b",
            "random",
            "--deals",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0 and "napola=True" in out and "aces=take_all" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--preset", "scopone", "--players", "2"], "for 4 players, not 2"),
        (["--preset", "nope"], "has no preset 'nope'"),
        (["--option", "napola=maybe"], "napola=maybe is not allowed"),
        (["--option", "napola"], "must look like NAME=VALUE"),
        (["--option", "colour=red"], "no option 'colour'"),
    ],
)
def test_bad_house_rules_get_a_clear_message(capsys, args, message):
    assert ai_strength.main(["--game", "scopa", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_partner_run_seats_a_in_every_seat_beside_its_partner(capsys):
    rc = ai_strength.main(
        [
            "--game",
            "briscola",
            "--players",
            "4",
            "--a",
            "greedy",
            "--partner",
            "random",
            "--b",
            "random",
            "--deals",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "A=greedy + partner random vs B=random" in out and "(8 deals)" in out
    # Seating k: A at seat k, its partner opposite, B on the other team.
    assert ai_strength.seatings(4, 2, partner=True) == [
        [True, False, True, False],
        [False, True, False, True],
        [True, False, True, False],
        [False, True, False, True],
    ]


def test_a_partner_needs_four_players(capsys):
    assert ai_strength.main(["--game", "briscola", "--players", "2", "--partner", "greedy"]) == 2
    assert "needs four players" in capsys.readouterr().err


def test_search_levels_play_at_their_budget_and_keep_their_shipped_cap_for_the_count():
    from game.ai.levels import HardBot
    from game.rulesets import make_rules

    rules = make_rules("briscola", None, 2)
    hard = ai_strength.build_bot("hard", rules, 0, 1)
    assert hard.time_cap is None and hard.shipped_cap == HardBot.TIME_CAP
    assert ai_strength.build_bot("hard", rules, 0, 1, capped=True).time_cap == HardBot.TIME_CAP
    assert ai_strength.build_bot("hard:time_cap=0.5", rules, 0, 1).time_cap == 0.5
    # Over the cap by the wall clock only (a loaded machine), by CPU time too, or cut by it.
    hard.last_stats = {"method": "ismcts", "seconds": 1.5, "cpu": 0.4, "capped": False}
    assert ai_strength.cap_marks(hard) == (1, 0)
    hard.last_stats = {"method": "ismcts", "seconds": 1.5, "cpu": 1.2, "capped": False}
    assert ai_strength.cap_marks(hard) == (1, 1)
    hard.last_stats = {"method": "ismcts", "seconds": 0.2, "cpu": 0.2, "capped": True}
    assert ai_strength.cap_marks(hard) == (1, 0)
    hard.last_stats = {"method": "forced", "seconds": 0.0, "cpu": 0.0, "capped": False}
    assert ai_strength.cap_marks(hard) == (0, 0)
    assert ai_strength.cap_marks(ai_strength.build_bot("greedy", rules, 0, 1)) is None


def test_the_same_command_plays_the_same_games(capsys, monkeypatch):
    # The easy level at a tenth of its budget: what is checked is that the command repeats
    # itself, at whatever budget the level has (its playouts were nearly all of the time).
    monkeypatch.setattr(levels.EasyBot, "ITERATIONS", 12)
    argv = ["--game", "briscola", "--a", "easy", "--b", "greedy", "--deals", "2", "--seed", "5"]
    outs = []
    for _ in range(2):
        assert ai_strength.main(argv) == 0
        out = capsys.readouterr().out
        outs.append([line for line in out.splitlines() if "margin" in line or "win rate" in line])
    assert outs[0] == outs[1] and len(outs[0]) == 2
    assert "at the budget (no time cap)" in out and "A over its shipped time cap:" in out
    assert "B over its shipped time cap" not in out  # greedy has no cap to count


def _paired_margins():
    return load_bench("paired_margins")


def test_two_runs_on_the_same_seeds_are_compared_seed_by_seed(capsys, tmp_path):
    import json

    files = []
    for a in ("greedy", "random"):
        path = tmp_path / f"{a}.jsonl"
        assert (
            ai_strength.main(
                ["--game", "briscola", "--a", a, "--b", "greedy", "--deals", "4", "--seed", "3", "--margins", str(path)]
            )
            == 0
        )
        files.append(path)
    out = capsys.readouterr().out
    rows = [[json.loads(line) for line in f.read_text().splitlines()] for f in files]
    assert [r["seed"] for r in rows[0]] == [r["seed"] for r in rows[1]] and len(rows[0]) == 4
    means = [sum(r["margin"] for r in rows[k]) / 4 for k in range(2)]
    assert f"A margin per deal: {means[0]:+.3f}" in out and f"A margin per deal: {means[1]:+.3f}" in out
    mean_random = means[1] - means[0]
    assert mean_random < 0  # random is worse than greedy against greedy
    paired = _paired_margins()
    assert paired.main([str(files[1]), str(files[0])]) == 0
    text = capsys.readouterr().out
    assert text.startswith("4 seeds:") and f"paired difference (first − second): {mean_random:+.3f}" in text


def test_paired_margins_rejects_bad_files_with_one_line(capsys, tmp_path):
    paired = _paired_margins()
    good = tmp_path / "good.jsonl"
    good.write_text('{"seed": 1, "margin": 2.0}\n{"seed": 2, "margin": -1.0}\n')
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1, "margin": 2.0}\nnot json\n')
    other = tmp_path / "other.jsonl"
    other.write_text('{"seed": 9, "margin": 2.0}\n')
    for args, message in (
        ([str(good), str(bad)], "bad.jsonl, line 2"),
        ([str(good), str(tmp_path / "missing.jsonl")], "cannot read"),
        ([str(good), str(other)], "fewer than two seeds"),
    ):
        assert paired.main(args) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert (
        ai_strength.main(
            [
                "--game",
                "briscola",
                "--a",
                "greedy",
                "--deals",
                "1",
                "--margins",
                str(tmp_path / "no" / "such" / "dir.jsonl"),
            ]
        )
        == 2
    )
    assert "cannot write" in capsys.readouterr().err
