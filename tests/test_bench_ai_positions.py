"""bench/ai_positions.py: the stored positions replay, have known-good moves from tuning seeds,
and a bot's score on them is the same on every run."""

from __future__ import annotations

from tests.bench_module import load_bench

ai_positions = load_bench("ai_positions")


def test_every_stored_position_replays_with_good_moves_among_its_legal_ones():
    positions = ai_positions.load()
    assert positions, "bench/ai_positions.json is missing or empty"
    assert len({p["id"] for p in positions}) == len(positions)
    for entry in positions:
        assert 0 <= entry["deal_seed"] < ai_positions.SEED_LIMIT  # tuning seeds only
        rules, state = ai_positions.replay(entry)
        legal = {str(a) for a in rules.legal_actions(state)}
        good = ai_positions.good_moves(entry)
        assert good and good <= legal and set(entry["values"]) <= legal
        slack = 1e-9 if entry["source"] == "exact" else ai_positions.SEARCH_TOLERANCE + 1e-9
        assert all(ai_positions.regret(entry, a) <= slack for a in good)
        assert all(ai_positions.regret(entry, a) > 0 for a in set(entry["values"]) - good)


def test_build_then_score_gives_the_same_figures_twice(tmp_path, capsys):
    data = tmp_path / "positions.json"
    args = ["build", "--game", "briscola", "--count", "2", "--seed", "3", "--iterations", "60", "--data", str(data)]
    assert ai_positions.main(args) == 0
    assert len(ai_positions.load(data)) == 2
    capsys.readouterr()
    outs = []
    for _ in range(2):
        assert ai_positions.main(["score", "--level", "easy", "--data", str(data)]) == 0
        outs.append([line.rsplit(",", 1)[0] for line in capsys.readouterr().out.splitlines()])  # minus the CPU time
    assert outs[0] == outs[1] and "good moves" in outs[0][0]


def test_bad_choices_get_one_clear_line(capsys, tmp_path):
    assert ai_positions.main(["build", "--game", "nope", "--data", str(tmp_path / "x.json")]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert (
        ai_positions.main(["build", "--game", "briscola", "--seed", "10001", "--data", str(tmp_path / "x.json")]) == 2
    )
    assert "seeds above are for reporting" in capsys.readouterr().err
    assert ai_positions.main(["score", "--data", str(tmp_path / "none.json")]) == 2
    assert "no positions" in capsys.readouterr().err


def test_merge_numbers_on_and_drops_repeats(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path, seed in ((a, 3), (b, 4)):
        assert (
            ai_positions.main(
                [
                    "build",
                    "--game",
                    "briscola",
                    "--count",
                    "2",
                    "--seed",
                    str(seed),
                    "--iterations",
                    "60",
                    "--data",
                    str(path),
                ]
            )
            == 0
        )
    first, second = ai_positions.load(a), ai_positions.load(b)
    assert [p["id"] for p in second] == [0, 1]  # each build numbers from 0 in its own file
    assert ai_positions.main(["merge", str(b), str(b), "--data", str(a)]) == 0
    assert "4 positions (2 added)" in capsys.readouterr().out
    merged = ai_positions.load(a)
    assert [p["id"] for p in merged] == [0, 1, 2, 3]
    assert merged[:2] == first
    assert [{**p, "id": 0} for p in merged[2:]] == [{**p, "id": 0} for p in second]
    assert ai_positions.main(["merge", str(tmp_path / "none.json"), "--data", str(a)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_score_vs_pairs_two_bots_on_the_same_positions(tmp_path, capsys):
    data = tmp_path / "positions.json"
    assert (
        ai_positions.main(
            ["build", "--game", "briscola", "--count", "3", "--seed", "3", "--iterations", "60", "--data", str(data)]
        )
        == 0
    )
    capsys.readouterr()
    assert ai_positions.main(["score", "--level", "random", "--vs", "random", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    # The same bot with the same seeds on the same positions: the same choices, no difference.
    assert "briscola 2p random minus random: regret +0.0000 ± 0.0000 (paired, 3 positions" in out
    assert ai_positions.main(["score", "--level", "easy", "--vs", "nope", "--data", str(data)]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_a_broken_positions_file_gets_one_clear_line(tmp_path, capsys):
    data = tmp_path / "positions.json"
    for text in ("{not json", '{"positions": [{"id": 1}]}', '{"about": "x"}'):
        data.write_text(text, encoding="utf-8")
        assert ai_positions.main(["score", "--data", str(data)]) == 2
        err = capsys.readouterr().err
        assert "is not a positions file" in err and "Traceback" not in err
