"""``main.py analyse``: the table, the JSON lines with their exact fields, the summary line, and
one line with exit code 2 for a bad record, a bad seat or a bad budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.ai.bots import make_bot
from game.match import Match
from game.record import write_record
from game.rulesets import make_rules
from game.services import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def record(tmp_path) -> Path:
    rules = make_rules("briscola", None, 2, {"format": "single"})
    events = Match(rules, 4, [make_bot("greedy", rules, s, 4) for s in range(2)]).run()
    path = tmp_path / "deal.jsonl"
    write_record(path, events)
    return path


def test_json_lines_have_the_issues_fields_and_a_summary_last(record, capsys):
    assert cli.main(["analyse", str(record), "--seat", "1", "--budget", "16", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    *decisions, summary = lines
    assert len(decisions) == 20
    for d in decisions:
        assert list(d) == ["decision", "played", "best", "loss", "class", "reason"]
        assert isinstance(d["decision"], int) and isinstance(d["loss"], float) and d["loss"] >= 0
        assert d["class"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert len(d["played"]) in (2, 3) and isinstance(d["reason"], str)  # a card as the record writes it
    assert [d["decision"] for d in decisions] == sorted(d["decision"] for d in decisions)
    assert list(summary) == ["seat", "decisions", "mean_loss", "seconds"]
    assert summary["seat"] == 1 and summary["decisions"] == 20
    assert summary["mean_loss"] == pytest.approx(sum(d["loss"] for d in decisions) / 20, abs=1e-3)
    played = {d["played"] for d in decisions}
    events = [json.loads(x) for x in record.read_text().splitlines()]
    assert played == {e["card"] for e in events if e["event"] == "play" and e["seat"] == 1}


def test_the_same_record_twice_gives_the_same_lines(record, capsys):
    outs = []
    for _ in range(2):
        cli.main(["analyse", str(record), "--seat", "0", "--budget", "16", "--json"])
        outs.append(capsys.readouterr().out.splitlines()[:-1])  # the summary's seconds differ
    assert outs[0] == outs[1]


def test_the_table_and_its_summary(record, capsys):
    assert cli.main(["analyse", str(record), "--seat", "0", "--budget", "16", "--lang", "it"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["#", "played", "best"] and "punti carta" in out[0]
    assert len(out) == 1 + 20 + 1 and out[-1].startswith("seat 0: 20 decisions, mean loss")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--seat", "2"], "is not a seat of this record"),
        (["--seat", "-1"], "is not a seat of this record"),
        (["--seat", "0", "--budget", "0"], "--budget must be"),
        (["--seat", "0", "--lang", "xx"], "--lang must be"),
    ],
)
def test_bad_arguments_exit_2_in_one_line(record, args, fragment, capsys):
    assert cli.main(["analyse", str(record), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err and "Traceback" not in err


def test_a_bad_record_exits_2_in_one_line(record, tmp_path, capsys):
    cut = tmp_path / "cut.jsonl"
    cut.write_text(record.read_text()[:400])
    broken = tmp_path / "broken.jsonl"
    lines = record.read_text().splitlines()
    lines[3] = (
        lines[3].replace('"seat": 0', '"seat": 1')
        if '"seat": 0' in lines[3]
        else lines[3].replace('"seat": 1', '"seat": 0')
    )
    broken.write_text("\n".join(lines) + "\n")
    for path in (cut, broken, tmp_path / "missing.jsonl", tmp_path):
        assert cli.main(["analyse", str(path), "--seat", "0"]) == 2
        err = capsys.readouterr().err.strip()
        assert "not a good record" in err and "\n" not in err


def test_main_py_dispatches_analyse(record):
    r = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "analyse", str(record), "--seat", "5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a seat" in r.stderr
