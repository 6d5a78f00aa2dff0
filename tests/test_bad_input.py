"""Bad input never gives the player a traceback: a clear one-line message and exit code 2.

Through ``python main.py`` in a subprocess, as the player starts it: a broken rules.yaml
(many kinds of corruption) for the window and for ``simulate``, a missing data folder,
unknown arguments, damaged or truncated records given to ``verify``; and corrupt settings,
statistics and save files, which fall back to defaults and are kept aside.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game import cli
from game.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "rules.yaml").read_text(encoding="utf-8")


def _replace_once(old: str, new: str) -> str:
    assert old in RULES, f"rules.yaml no longer contains {old!r}: update this corruption"
    return RULES.replace(old, new, 1)


#: name -> the broken rules.yaml text (bytes for encoding damage).
CORRUPTIONS: dict[str, str | bytes] = {
    "not_yaml": "decks: [\n  {id: piacentine\n",
    "empty": "",
    "list_at_top": "- decks\n- games\n",
    "truncated": RULES[: len(RULES) // 3],
    "not_utf8": b"\xff\xfe\x00garbage\x80\x81",
    "no_games": RULES[: RULES.index("\ngames:")] + "\n",
    "unknown_language": _replace_once("languages:", "languages: [xx]\nold_languages:"),
    "bad_colour": _replace_once('paper: "#f7f1e3"', 'paper: "#zzf1e3"'),
    "unknown_mode": _replace_once("{id: partners, players: [4]}", "{id: solitaire, players: [4]}"),
    "default_not_allowed": _replace_once("target: {default: 11, allowed: [11, 16, 21, 31]}",
                                         "target: {default: 12, allowed: [11, 16, 21, 31]}"),
    "tab_indentation": RULES.replace("\n  ", "\n\t", 3),
    "scalar_document": "just a sentence\n",
}


def _env(data: Path | None, home: Path) -> dict[str, str]:
    env = dict(os.environ, CARDAVIA_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    if data is not None:
        env["CARDAVIA_DATA"] = str(data)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=str(ROOT))


def _data_folder(tmp_path: Path, rules: str | bytes) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copytree(ROOT / "locales", data / "locales")
    target = data / "rules.yaml"
    if isinstance(rules, bytes):
        target.write_bytes(rules)
    else:
        target.write_text(rules, encoding="utf-8")
    return data


def _one_clear_line(r: subprocess.CompletedProcess) -> str:
    err = r.stderr.strip()
    assert "Traceback" not in err and "Traceback" not in r.stdout
    lines = [ln for ln in err.splitlines() if not ln.startswith("pygame-ce")]
    assert len(lines) == 1, err
    assert lines[0].startswith("cardavia")
    return lines[0]


def test_there_are_ten_or_more_kinds_of_corruption():
    assert len(CORRUPTIONS) >= 10
    assert len(set(map(str, CORRUPTIONS.values()))) == len(CORRUPTIONS)  # all different


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
@pytest.mark.parametrize("command", [[], ["simulate", "--game", "scopa", "--quiet"]], ids=["window", "simulate"])
def test_broken_rules_yaml_exits_2_with_one_line(tmp_path, kind, command):
    data = _data_folder(tmp_path, CORRUPTIONS[kind])
    with pytest.raises(ConfigError):
        load_config(data / "rules.yaml")
    r = _run(command, _env(data, tmp_path / "home"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    line = _one_clear_line(r)
    assert "rules.yaml" in line
    assert not (tmp_path / "home" / "match.json").exists()


@pytest.mark.parametrize("command", [[], ["simulate", "--game", "scopa"], ["verify", "x.jsonl"]],
                         ids=["window", "simulate", "verify"])
def test_a_missing_data_folder_exits_2_naming_it(tmp_path, command):
    nowhere = tmp_path / "no" / "such" / "folder"
    r = _run(command, _env(nowhere, tmp_path / "home"))
    if command and command[0] == "verify":
        # verify needs no data folder to say that the record is missing (it is damaged: 2).
        assert r.returncode == 2 and "x.jsonl" in r.stdout
        return
    assert r.returncode == 2
    line = _one_clear_line(r)
    assert str(nowhere) in line and "not found" in line


@pytest.mark.parametrize("args,fragment", [
    (["--frobnicate"], "unknown option --frobnicate"),
    (["--scene", "casino"], "unknown scene 'casino'"),
    (["--players", "9"], "--players"),
    (["--contrast", "loud"], "--contrast"),
    (["--window", "10x10"], "out of range"),
    (["--deck", "tarot"], "unknown deck 'tarot'"),
    (["simulate", "--game", "scopa", "--frobnicate"], "unrecognized arguments"),
    (["verify"], "required"),
])
def test_unknown_arguments_exit_2_with_one_line(tmp_path, args, fragment):
    r = _run(args, _env(None, tmp_path / "home"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    line = _one_clear_line(r)
    assert fragment in line


# ---------------------------------------------------------------------- verify
@pytest.fixture(scope="module")
def good_record(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records")
    assert cli.main(["simulate", "--game", "briscola", "--matches", "1", "--seed", "5", "--out", str(out),
                     "--quiet"]) == 0
    return next(out.glob("*.jsonl"))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _damage(tmp_path: Path, good: Path, how: str) -> tuple[Path, int | None]:
    """A damaged copy of ``good``; returns (file, the line the verdict must name or None)."""
    lines = _lines(good)
    f = tmp_path / f"{how}.jsonl"
    if how == "cut_mid_line":          # the writer died half-way through a line
        text = "\n".join(lines[:6]) + "\n" + lines[6][: len(lines[6]) // 2]
        f.write_text(text, encoding="utf-8")
        return f, 7
    if how == "cut_at_line":           # the writer died between two lines
        f.write_text("\n".join(lines[: len(lines) // 2]) + "\n", encoding="utf-8")
        return f, None
    if how == "not_json":
        lines[3] = "this is not json"
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f, 4
    if how == "blank_line":
        lines.insert(2, "")
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f, 3
    if how == "array_line":
        lines[1] = "[1, 2, 3]"
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f, 2
    if how == "binary":
        f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00garbage")
        return f, None
    if how == "empty":
        f.write_text("", encoding="utf-8")
        return f, None
    if how == "missing":
        return tmp_path / "nowhere.jsonl", None
    raise AssertionError(how)


DAMAGES = ("cut_mid_line", "cut_at_line", "not_json", "blank_line", "array_line", "binary", "empty", "missing")


@pytest.mark.parametrize("how", DAMAGES)
def test_verify_a_damaged_record_exits_2_with_line_and_reason(tmp_path, good_record, how, capsys):
    f, line = _damage(tmp_path, good_record, how)
    assert cli.damaged(str(f))
    code = cli.main(["verify", str(f)])
    out = capsys.readouterr().out.strip()
    assert code == 2
    assert out.startswith(f"{f}: ") and "OK" not in out.split(": ", 1)[1][:2]
    if line is not None:
        assert f"line {line}:" in out
    reason = out.split(": ", 1)[1]
    assert len(reason) > 8  # a reason, not just a code


def test_verify_rule_breaking_record_exits_1_and_good_one_0(tmp_path, good_record, capsys):
    events = [json.loads(x) for x in _lines(good_record)]
    i = next(k for k, e in enumerate(events) if e["event"] == "play")
    hand_card = events[i]["card"]
    other = next(e["card"] for e in events[i + 1:] if e["event"] == "play" and e["card"] != hand_card
                 and e["seat"] == events[i]["seat"])
    events[i]["card"] = other  # a card the player did not hold yet: a broken rule, well-formed JSON
    bad = tmp_path / "cheat.jsonl"
    bad.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    assert not cli.damaged(str(bad))
    assert cli.main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert re.search(r": line \d+: \S", out), out  # the first line that breaks a rule, and why
    assert cli.main(["verify", str(good_record)]) == 0
    # Several files: the worst verdict wins (damaged over rule-breaking over OK).
    f, _ = _damage(tmp_path, good_record, "cut_mid_line")
    assert cli.main(["verify", str(good_record), str(bad), str(f)]) == 2
    assert "1 of 3 records OK" in capsys.readouterr().out


def test_verify_through_main_py(tmp_path, good_record):
    f, line = _damage(tmp_path, good_record, "cut_mid_line")
    r = _run(["verify", str(f)], _env(None, tmp_path / "home"))
    assert r.returncode == 2 and f"line {line}:" in r.stdout and "Traceback" not in r.stderr


# ---------------------------------------------------------------------- corrupt user files, through the app
def test_corrupt_settings_fall_back_to_defaults_and_are_kept_aside(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text("{ this is not json", encoding="utf-8")
    shot = tmp_path / "menu.png"
    r = _run(["--screenshot", str(shot)], _env(None, home))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert shot.exists()
    assert (home / "settings.json.bad").read_text(encoding="utf-8") == "{ this is not json"


def test_corrupt_settings_through_the_app_show_a_toast(monkeypatch, tmp_path):
    from scenes import app as app_module

    home = Path(os.environ["CARDAVIA_HOME"])
    (home / "settings.json").write_text("[1, 2", encoding="utf-8")
    seen: dict = {}
    settle = app_module.App.settle

    def watching_settle(self, ticks=45):
        seen["toasts"] = list(self.toasts.active)
        seen["scene"] = self.stack.top.name
        settle(self, ticks)

    monkeypatch.setattr(app_module.App, "settle", watching_settle)
    assert app_module.main(["--screenshot", str(tmp_path / "menu.png")]) == 0
    assert seen["scene"] == "menu"
    assert any("settings.json" in t for t in seen["toasts"])
    assert (home / "settings.json.bad").read_text(encoding="utf-8") == "[1, 2"
