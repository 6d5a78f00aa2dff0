"""simulate and verify from the command line: records written, bad arguments exit 2 in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.services import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_writes_records_that_verify(tmp_path, players, capsys):
    out = tmp_path / "rec"
    code = cli.main(
        [
            "simulate",
            "--game",
            "scopa",
            "--players",
            str(players),
            "--matches",
            "5",
            "--seed",
            "1",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 5
    assert cli.main(["verify", *map(str, files)]) == 0
    text = capsys.readouterr().out
    assert text.count(": OK") == 5


def test_simulate_is_reproducible(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        cli.main(["simulate", "--game", "scopa", "--matches", "2", "--seed", "9", "--out", str(d), "--quiet"])
    assert [f.read_text() for f in sorted(a.iterdir())] == [f.read_text() for f in sorted(b.iterdir())]


def test_bots_per_seat(tmp_path, capsys):
    assert (
        cli.main(
            [
                "simulate",
                "--game",
                "scopa",
                "--players",
                "3",
                "--bots",
                "random,greedy,random",
                "--matches",
                "1",
                "--seed",
                "2",
            ]
        )
        == 0
    )
    assert "random,greedy,random" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["simulate", "--game", "poker"], "unknown game 'poker'"),
        (["simulate", "--game", "scopa", "--players", "7"], "not 7"),
        (["simulate", "--game", "cicera", "--deck", "piacentine"], "cannot play cicera"),
        (["simulate", "--game", "scopa", "--deck", "tarot"], "unknown deck 'tarot'"),
        (["simulate", "--game", "scopa", "--bots", "genius"], "unknown bot 'genius'"),
        (["simulate", "--game", "scopa", "--players", "2", "--bots", "random,random,random"], "3 bots for 2 seats"),
        (["simulate", "--game", "scopa", "--option", "target=12"], "not allowed"),
        (["simulate", "--game", "scopa", "--matches", "0"], "at least 1"),
        (["simulate", "--game", "scopa", "--players", "two"], "invalid int value"),
        (["simulate", "--game", "scopa", "--frobnicate"], "unrecognized arguments"),
        (["simulate"], "required: --game"),
        (["dance"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args, fragment, capsys):
    try:
        code = cli.main(args)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert fragment in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_verify_reports_failure_exit_1(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "match", "format": 7}\n', encoding="utf-8")
    assert cli.main(["verify", str(bad)]) == 1
    assert "format 7" in capsys.readouterr().out


def test_main_py_runs_headless(tmp_path):
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "simulate",
            "--game",
            "scopa",
            "--matches",
            "1",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    files = list(tmp_path.glob("*.jsonl"))
    r2 = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "verify", str(files[0])], capture_output=True, text=True, timeout=120
    )
    assert r2.returncode == 0 and "OK" in r2.stdout


def test_simulate_help_lists_the_values_of_its_choices(capsys):
    """Issue 29: --game, --deck, --bots and --option with what they accept."""
    from game.ai.bots import bot_names
    from game.config import get_config
    from game.services.cli import main as cli_main

    with pytest.raises(SystemExit) as e:
        cli_main(["simulate", "--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    cfg = get_config()
    assert all(g in text for g in cfg.games) and all(d in text for d in cfg.decks)
    assert all(b in text for b in bot_names())
    for gid, game in cfg.games.items():
        for key, spec in game.options.items():
            if len(spec.allowed) > 1:
                assert f"{key}={spec.default}" in text, (gid, key)
