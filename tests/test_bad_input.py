"""Bad input never gives the player a traceback: a clear one-line message and exit code 2.

Through ``python main.py`` in a subprocess, as the player starts it: a broken rules.yaml
(many kinds of corruption) for the window and for ``simulate``, a missing data folder,
unknown arguments, damaged or truncated records given to ``verify``; and corrupt settings,
statistics and save files, which fall back to defaults and are kept aside.

Issue 22 ("Nothing lost, nothing crashes") adds the hostile kinds its adversarial pass
found, each in a test named after it: records mutated field by field, nested 100,000 deep,
with duplicate keys or ``true``/``-0.0`` for numbers, FIFOs and /dev/zero given to verify;
rules.yaml and locales with NaN aspects, zero-width names, alias bombs, huge format widths,
impossible hand sizes and targets; the player's files nested, not UTF-8, not objects, saves
naming impossible seats; two windows on one home folder; planted symlinks, files that would
be overwritten, a full disk under F12, SIGTERM to a headless run. ``BAD_INPUT_KINDS`` counts
them all.
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

from game.config import ConfigError, load_config
from game.services import cli

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
    "default_not_allowed": _replace_once(
        "target: {default: 11, allowed: [11, 16, 21, 31]}", "target: {default: 12, allowed: [11, 16, 21, 31]}"
    ),
    "tab_indentation": RULES.replace("\n  ", "\n\t", 3),
    "scalar_document": "just a sentence\n",
    # Issue 22: accepted by the old validator, then a crash or a hang in every window path.
    "aspect_nan": _replace_once("aspect: 1.82", "aspect: .nan"),
    "aspect_inf": _replace_once("aspect: 1.82", "aspect: .inf"),
    "aspect_1e5": _replace_once("aspect: 1.82", "aspect: 1.0e+5"),
    "aspect_1e-7": _replace_once("aspect: 1.82", "aspect: 1.0e-7"),
    "zero_width_name": _replace_once("name: {en: Piacentine,", 'name: {en: "\u200b\u200b",'),
    "nested_100000_deep": "a: " + "[" * 100_000 + "]" * 100_000 + "\n" + RULES,
    "alias_bomb_with_an_error": "bomb: &b0 [x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"bomb{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 9)}]\n" for i in range(1, 12))
    + _replace_once('paper: "#f7f1e3"', 'paper: "#zzf1e3"'),
    "redeal_kings_0": _replace_once("redeal_kings: 3", "redeal_kings: 0"),
    "target_100000000": _replace_once(
        "target: {default: 11, allowed: [11, 16, 21, 31]}", "target: {default: 11, allowed: [11, 16, 21, 100000000]}"
    ),
    "hand_size_0": _replace_once("hand_size: 3", "hand_size: 0"),
    "hand_size_negative": _replace_once("hand_size: 3", "hand_size: -3"),
    "default_eleven": _replace_once("target: {default: 11,", "target: {default: eleven,"),
    "deck_id_a_number": _replace_once("\n  piacentine:\n", "\n  5:\n"),
    "deck_id_null": _replace_once("\n  piacentine:\n", "\n  null:\n"),
    "duplicate_key": _replace_once("    aspect: 1.82\n", "    aspect: 1.82\n    aspect: 1.6\n"),
}


def _env(data: Path | None, home: Path) -> dict[str, str]:
    env = dict(os.environ, CARDAVIA_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    if data is not None:
        env["CARDAVIA_DATA"] = str(data)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=str(ROOT),
    )


def _run_here(args: list[str], data: Path | None, home: Path, monkeypatch, capfd) -> subprocess.CompletedProcess:
    """``main.main(args)`` in this process, with the environment ``_run`` would give it: the
    same entry function and the same one-line output, without a Python and pygame start per
    case. The real program keeps a few cases of each path (the ``..._through_main_py`` tests)."""
    import main as entry

    if data is not None:
        monkeypatch.setenv("CARDAVIA_DATA", str(data))
    monkeypatch.setenv("CARDAVIA_HOME", str(home))
    capfd.readouterr()
    try:
        code = entry.main(list(args))
    except SystemExit as e:  # argparse's way out: the interpreter turns it into the exit code
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(["main.py", *args], code, out, err)


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


RULES_COMMANDS = pytest.mark.parametrize(
    "command", [[], ["simulate", "--game", "scopa", "--quiet"]], ids=["window", "simulate"]
)
#: The corruptions also fed to a real ``python main.py``: where the interpreter's own limits
#: (its recursion limit, its memory) would show, and damaged encoding.
THROUGH_MAIN_PY = ("nested_100000_deep", "alias_bomb_with_an_error", "not_utf8")


def _check_broken_rules(r: subprocess.CompletedProcess, tmp_path: Path) -> None:
    assert r.returncode == 2, (r.stdout, r.stderr)
    line = _one_clear_line(r)
    assert "rules.yaml" in line
    assert not (tmp_path / "home" / "match.json").exists()


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
@RULES_COMMANDS
def test_broken_rules_yaml_exits_2_with_one_line(tmp_path, kind, command, monkeypatch, capfd):
    data = _data_folder(tmp_path, CORRUPTIONS[kind])
    with pytest.raises(ConfigError):
        load_config(data / "rules.yaml")
    _check_broken_rules(_run_here(command, data, tmp_path / "home", monkeypatch, capfd), tmp_path)


@pytest.mark.parametrize("kind", THROUGH_MAIN_PY)
@RULES_COMMANDS
def test_broken_rules_yaml_through_main_py_exits_2_with_one_line(tmp_path, kind, command):
    data = _data_folder(tmp_path, CORRUPTIONS[kind])
    _check_broken_rules(_run(command, _env(data, tmp_path / "home")), tmp_path)


@pytest.mark.parametrize(
    "command", [[], ["simulate", "--game", "scopa"], ["verify", "x.jsonl"]], ids=["window", "simulate", "verify"]
)
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


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--frobnicate"], "unknown option --frobnicate"),
        (["--scene", "casino"], "unknown scene 'casino'"),
        (["--players", "9"], "--players"),
        (["--contrast", "loud"], "--contrast"),
        (["--window", "10x10"], "out of range"),
        (["--deck", "tarot"], "unknown deck 'tarot'"),
        (["simulate", "--game", "scopa", "--frobnicate"], "unrecognized arguments"),
        (["verify"], "required"),
    ],
)
def test_unknown_arguments_exit_2_with_one_line(tmp_path, args, fragment, monkeypatch, capfd):
    r = _run_here(args, None, tmp_path / "home", monkeypatch, capfd)
    assert r.returncode == 2, (r.stdout, r.stderr)
    line = _one_clear_line(r)
    assert fragment in line


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--frobnicate"], "unknown option --frobnicate"),
        (["simulate", "--game", "scopa", "--frobnicate"], "unrecognized arguments"),
    ],
    ids=["window", "simulate"],
)
def test_unknown_arguments_through_main_py_exit_2_with_one_line(tmp_path, args, fragment):
    r = _run(args, _env(None, tmp_path / "home"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert fragment in _one_clear_line(r)


# ---------------------------------------------------------------------- verify
@pytest.fixture(scope="module")
def good_record(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records")
    assert (
        cli.main(["simulate", "--game", "briscola", "--matches", "1", "--seed", "5", "--out", str(out), "--quiet"]) == 0
    )
    return next(out.glob("*.jsonl"))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _damage(tmp_path: Path, good: Path, how: str) -> tuple[Path, int | None]:
    """A damaged copy of ``good``; returns (file, the line the verdict must name or None)."""
    lines = _lines(good)
    f = tmp_path / f"{how}.jsonl"
    if how == "cut_mid_line":  # the writer died half-way through a line
        text = "\n".join(lines[:6]) + "\n" + lines[6][: len(lines[6]) // 2]
        f.write_text(text, encoding="utf-8")
        return f, 7
    if how == "cut_at_line":  # the writer died between two lines
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
    other = next(
        e["card"]
        for e in events[i + 1 :]
        if e["event"] == "play" and e["card"] != hand_card and e["seat"] == events[i]["seat"]
    )
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
    from scenes.launch import main

    assert main(["--screenshot", str(tmp_path / "menu.png")]) == 0
    assert seen["scene"] == "menu"
    assert any("settings.json" in t for t in seen["toasts"])
    assert (home / "settings.json.bad").read_text(encoding="utf-8") == "[1, 2"


# ====================================================================== verify
@pytest.fixture(scope="module")
def scopa_record(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("scopa_records")
    assert cli.main(["simulate", "--game", "scopa", "--matches", "1", "--seed", "3", "--out", str(out), "--quiet"]) == 0
    return next(out.glob("*.jsonl"))


def _events(path: Path) -> list[dict]:
    return [json.loads(x) for x in _lines(path)]


def _write(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def _first(events: list[dict], kind: str) -> int:
    return next(i for i, e in enumerate(events) if e["event"] == kind)


@pytest.mark.parametrize(
    "mutation",
    ["event_is_a_list", "bonuses_is_a_number", "bonuses_holds_lists", "options_is_a_number", "game_is_a_list"],
)
def test_verify_one_field_mutations_give_one_line_exit_1_and_the_next_file_is_verified(
    tmp_path, scopa_record, mutation, capsys
):
    events = _events(scopa_record)
    play = _first(events, "play")
    if mutation == "event_is_a_list":
        events[play]["event"] = []
    elif mutation == "bonuses_is_a_number":
        events[play]["bonuses"] = 3
    elif mutation == "bonuses_holds_lists":
        events[play]["bonuses"] = [["scopa"]]
    elif mutation == "options_is_a_number":
        events[0]["options"] = 11
    else:
        events[0]["game"] = ["scopa"]
    bad = _write(tmp_path / "bad.jsonl", events)
    code = cli.main(["verify", str(bad), str(scopa_record)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert len(out) == 3 and out[0].startswith(f"{bad}: line ") and out[1] == f"{scopa_record}: OK"
    assert "1 of 2 records OK" in out[2]


@pytest.mark.parametrize("how", ["a_line_nested_100000_deep", "an_extra_field_nested_2000_deep"])
def test_verify_deep_nesting_is_damaged_not_a_recursion_error(tmp_path, good_record, how, capsys):
    lines = _lines(good_record)
    if how == "a_line_nested_100000_deep":
        lines[4] = "[" * 100_000 + "]" * 100_000
    else:
        lines[4] = lines[4][:-1] + ', "x_note": ' + "[" * 2000 + "]" * 2000 + "}"
    f = tmp_path / "deep.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["verify", str(f)]) == 2
    out = capsys.readouterr().out.strip()
    assert out == f"{f}: line 5: nested deeper than 32 levels"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_verify_refuses_a_fifo_at_once_instead_of_blocking(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    r = _run(["verify", str(fifo)], _env(None, tmp_path / "home"))  # the run's timeout catches a block
    assert r.returncode == 2 and r.stdout.strip() == f"{fifo}: not a regular file (a pipe)"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_verify_refuses_dev_zero_instead_of_reading_it_for_ever(tmp_path):
    r = _run(["verify", "/dev/zero"], _env(None, tmp_path / "home"))
    assert r.returncode == 2 and r.stdout.strip() == "/dev/zero: not a regular file (a device)"


def test_verify_a_100_mb_file_gives_the_verdict_on_line_99_without_reading_the_rest(tmp_path, monkeypatch, capsys):
    from game import record

    events = _events(_simulated_long_record(tmp_path))
    assert len(events) > 120 and events[98]["event"] in ("play", "draw")
    events[98]["seat"] = 5  # line 99: a seat that is not at the table
    f = _write(tmp_path / "big.jsonl", events)
    with open(f, "ab") as fh:
        fh.truncate(100 * 1024 * 1024)  # 100 MB (the rest is sparse: nothing to write)
    read = []
    real_open = record.open_regular

    class Counting:
        def __init__(self, path):
            self.f = real_open(path)

        def readline(self, limit=-1):
            line = self.f.readline(limit)
            read.append(len(line))
            return line

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(record, "open_regular", Counting)
    capsys.readouterr()
    assert cli.main(["verify", str(f)]) == 1
    assert capsys.readouterr().out.startswith(f"{f}: line 99: ")
    assert len(read) == 99 and sum(read) < 100_000


def _simulated_long_record(tmp_path: Path) -> Path:
    out = tmp_path / "long"
    assert (
        cli.main(
            [
                "simulate",
                "--game",
                "briscola",
                "--matches",
                "1",
                "--seed",
                "2",
                "--option",
                "format=match",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    return next(out.glob("*.jsonl"))


@pytest.mark.parametrize("value", [True, False, -0.0])
@pytest.mark.parametrize("field", ["seat", "points", "winner"])
def test_verify_refuses_true_false_and_minus_zero_for_seat_points_and_winner(
    tmp_path, good_record, field, value, capsys
):
    events = _events(good_record)
    i = _first(events, {"seat": "play", "points": "trick", "winner": "match_end"}[field])
    events[i][field] = value
    f = _write(tmp_path / "typed.jsonl", events)
    assert cli.main(["verify", str(f)]) == 1
    out = capsys.readouterr().out.strip()
    assert f"line {i + 1}: " in out and f"field '{field}' must be a whole number" in out


def test_verify_refuses_duplicate_keys_instead_of_taking_the_last(tmp_path, good_record, capsys):
    lines = _lines(good_record)
    i = next(k for k, x in enumerate(lines) if '"event": "play"' in x)
    card = json.loads(lines[i])["card"]
    lines[i] = lines[i].replace(f'"card": "{card}"', f'"card": "XX", "card": "{card}"')
    f = tmp_path / "dup.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["verify", str(f)]) == 2
    assert capsys.readouterr().out.strip() == f"{f}: line {i + 1}: field 'card': the key is given twice"


def test_verify_keeps_going_after_a_damaged_file_and_ends_with_a_summary(tmp_path, good_record):
    cut, _ = _damage(tmp_path, good_record, "cut_mid_line")
    folder = tmp_path / "a_folder.jsonl"
    folder.mkdir()
    r = _run(["verify", str(cut), str(folder), str(good_record)], _env(None, tmp_path / "home"))
    lines = r.stdout.splitlines()
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert [ln.split(": ")[0] for ln in lines[:3]] == [str(cut), str(folder), str(good_record)]
    assert lines[1].endswith("not a regular file (a folder)") and lines[2].endswith(": OK")
    assert lines[3] == "1 of 3 records OK (0 breaking a rule, 2 damaged)"


# ====================================================================== locales
def _locale_folder(tmp_path: Path, change) -> Path:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "locales", data / "locales")
    shutil.copy(ROOT / "rules.yaml", data / "rules.yaml")
    en = data / "locales" / "en.yaml"
    en.write_text(change(en.read_text(encoding="utf-8")), encoding="utf-8")
    return data


LOCALE_BOMB = "bomb: &b0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"bomb{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 9)}]\n" for i in range(1, 12)
)
#: name -> (the change to en.yaml, a fragment of the one line that refuses it, or None when
#: the locale is fine and only has to be drawn).
LOCALE_DAMAGE = {
    "nested_100000_deep": (lambda t: t + "\nx: " + "[" * 100_000 + "]" * 100_000 + "\n", "nested deeper than 12"),
    "alias_bomb_in_an_unused_key": (lambda t: t + "\n" + LOCALE_BOMB, "anchors and aliases are not allowed"),
    "format_width_300000000": (
        lambda t: t.replace('percent: "{value}%"', 'percent: "{value:>300000000}%"'),
        "(common.percent): the format {value:>300000000} is wider than 100",
    ),
    "duplicate_key": (
        lambda t: t.replace("  play: Play\n", "  play: Play\n  play: Again\n"),
        "the key 'play' is given twice",
    ),
    "zero_width_message": (lambda t: t.replace("  play: Play\n", '  play: "\\u200b\\u200b"\n'), None),
    "empty_message": (lambda t: t.replace("  play: Play\n", '  play: ""\n'), None),
}


def _check_hostile_locale(tmp_path: Path, kind: str, run) -> None:
    change, fragment = LOCALE_DAMAGE[kind]
    data = _locale_folder(tmp_path, change)
    shot = tmp_path / "menu.png"
    r = run(["--screenshot", str(shot)], data)
    assert r.returncode == 0 and shot.exists(), r.stderr
    assert "Traceback" not in r.stderr and "zero width" not in r.stderr
    said = [ln for ln in r.stderr.splitlines() if ln.startswith("cardavia:")]
    if fragment is None:
        assert said == []
    else:
        assert len(said) == 1 and "en.yaml" in said[0] and fragment in said[0], said


@pytest.mark.parametrize("kind", sorted(LOCALE_DAMAGE))
def test_a_hostile_locale_is_refused_in_one_line_and_the_window_still_draws(tmp_path, kind, monkeypatch, capfd):
    _check_hostile_locale(
        tmp_path, kind, lambda args, data: _run_here(args, data, tmp_path / "home", monkeypatch, capfd)
    )


@pytest.mark.parametrize("kind", ["nested_100000_deep", "zero_width_message"])
def test_a_hostile_locale_through_main_py_is_refused_in_one_line_and_the_window_still_draws(tmp_path, kind):
    # The run's timeout catches a hang.
    _check_hostile_locale(tmp_path, kind, lambda args, data: _run(args, _env(data, tmp_path / "home")))


def _every_scene_drawn(app) -> list[str]:
    from scenes.registry import available_scenes

    deck = next(iter(app.config.decks))
    game = app.config.decks[deck].games[0]
    drawn = []
    for name in available_scenes():
        params = {"deck": deck, "game": game}
        if name in ("table", "results", "pause"):
            params.update(players=2, seed=3)
        app.open_path(name, **params)
        app.settle(3)
        app.render()
        drawn.append(name)
    return drawn


@pytest.mark.parametrize("text", ["\u200b", ""], ids=["zero_width", "empty"])
def test_every_window_path_draws_zero_width_and_empty_texts(tmp_path, text):
    """Every message a zero-width (or empty) text and every court name starting with one:
    each scene opens and draws (no "Text has zero width")."""
    import yaml

    from game.config import parse_config
    from game.services.i18n import I18n
    from game.services.settings import Settings
    from scenes.app import App

    folder = tmp_path / "locales"
    folder.mkdir()
    # libyaml's safe loader and dumper where PyYAML has them: the same trees, a tenth of the time
    # (the pure-Python ones took most of this test's time on the four locales).
    loader, dumper = getattr(yaml, "CSafeLoader", yaml.SafeLoader), getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    for lang in ("en", "nl", "de", "it"):
        tree = yaml.load((ROOT / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"), Loader=loader)

        def blank(node):
            return {k: blank(v) for k, v in node.items()} if isinstance(node, dict) else text

        out = yaml.dump(blank(tree), Dumper=dumper, allow_unicode=True)
        (folder / f"{lang}.yaml").write_text(out, encoding="utf-8")
    rules = RULES.replace("{J: Fante, Q: Cavallo, K: Re}", '{J: "\u200bFante", Q: "\u200bCavallo", K: "\u200bRe"}')
    config = parse_config(rules)
    app = App(
        config,
        Settings(language="it", animation_speed="instant"),
        I18n("it", folder=folder),
        window=False,
        persist=False,
    )
    app.toast(text)
    drawn = _every_scene_drawn(app)
    assert {"menu", "table", "stats", "rules"} <= set(drawn)


# ====================================================================== the player's files
def _start_menu(lang: str = "en"):
    """The window's start as main.py does it, off-screen: settings, the menu (it reads the save)."""
    from game.config import get_config
    from game.services.i18n import I18n
    from game.services.settings import load_settings
    from scenes.app import App
    from scenes.launch import settings_toast

    loaded = load_settings(default_language=lang)
    app = App(get_config(), loaded.settings, I18n(loaded.settings.language), window=False)
    if loaded.problem:
        app.toast(settings_toast(app, loaded.problem))
    app.open_path("menu", deck=next(iter(get_config().decks)))
    app.settle(2)
    app.render()
    return app


DEEP = "[" * 100_000 + "]" * 100_000


def test_settings_nested_100000_deep_the_game_starts_and_the_file_is_kept_aside(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(DEEP, encoding="utf-8")
    shot = tmp_path / "menu.png"
    r = _run(["--screenshot", str(shot)], _env(None, home))
    assert r.returncode == 0 and shot.exists() and "Traceback" not in r.stderr, r.stderr
    assert (home / "settings.json.bad").read_text(encoding="utf-8") == DEEP


def test_a_save_nested_100000_deep_the_menu_starts_and_the_save_is_kept_aside():
    from game.services import saves

    saves.save_path().parent.mkdir(parents=True, exist_ok=True)
    saves.save_path().write_text(DEEP, encoding="utf-8")
    app = _start_menu()
    assert app.stack.top.name == "menu" and app.stack.top.saved is None
    assert saves.save_path().with_name("match.json.bad").read_text(encoding="utf-8") == DEEP
    assert app.t("resume.damaged") in app.toasts.active


def test_stats_nested_100000_deep_the_statistics_scene_opens(tmp_path):
    from game.services import stats

    stats.stats_path().parent.mkdir(parents=True, exist_ok=True)
    stats.stats_path().write_text(DEEP, encoding="utf-8")
    app = _start_menu()
    app.open_scene("stats")
    app.settle(2)
    app.render()
    assert app.stack.top.name == "stats" and app.stack.top.records == {}
    assert stats.stats_path().with_name("stats.json.bad").read_text(encoding="utf-8") == DEEP
    assert app.t("stats.damaged") in app.toasts.active


def _a_save() -> dict:
    from game.services.session import Session

    s = Session.new("scopa", "piacentine", 2, None, seed=4, human_seat=0, threaded=False)
    s.start()
    for _ in range(6):
        if s.human_to_act:
            s.submit(s.legal_actions()[0])
        else:
            s.poll()
    return s.to_save()


@pytest.mark.parametrize(
    "field,value",
    [
        ("human_seat", "x"),
        ("human_seat", 9),
        ("human_seat", True),
        ("seed", "Infinity"),
        ("deck", "tarot"),
        ("players", 3),
        ("options", {"target": 99}),
        ("bot", "hal9000"),
    ],
)
def test_a_save_naming_a_seat_deck_or_option_that_cannot_be_is_refused_with_a_translated_toast(field, value):
    from game.services import saves

    data = {"version": 1, **_a_save(), field: "@@"}
    raw = "Infinity" if value == "Infinity" else json.dumps(value)  # JSON has no Infinity: as a hand could write it
    text = json.dumps(data).replace('"@@"', raw)
    saves.save_path().parent.mkdir(parents=True, exist_ok=True)
    saves.save_path().write_text(text, encoding="utf-8")
    app = _start_menu("nl")
    menu = app.stack.top
    assert menu.name == "menu" and menu.saved is None  # not offered: Continue cannot crash on it
    assert saves.save_path().with_name("match.json.bad").read_text(encoding="utf-8") == text
    assert app.t("resume.damaged") in app.toasts.active and app.language == "nl"


def test_session_from_save_refuses_an_impossible_seat_before_replaying():
    from game.services.session import Session

    data = _a_save()
    data["human_seat"] = 9
    with pytest.raises(ValueError, match="seat 9 is not a seat"):
        Session.from_save(data, threaded=False)


@pytest.mark.parametrize(
    "content", [b"\xff\xfe\x00not utf-8", b"[1, 2, 3]", b"null"], ids=["not_utf8", "a_list", "null"]
)
def test_unreadable_settings_are_kept_aside_not_replaced_by_defaults_at_exit(content):
    from game.services.settings import load_settings, save_settings, settings_path

    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_bytes(content)
    loaded = load_settings(default_language="en")
    assert loaded.problem and loaded.problem.bad == "settings.json.bad"
    assert save_settings(loaded.settings) is None  # the exit
    assert settings_path().with_name("settings.json.bad").read_bytes() == content


@pytest.mark.parametrize(
    "content", [b"\xff\xfe\x00not utf-8", b"[1, 2, 3]", b"null"], ids=["not_utf8", "a_list", "null"]
)
def test_unreadable_statistics_are_kept_aside_not_treated_as_empty_and_overwritten(content):
    from game.services import stats

    stats.stats_path().parent.mkdir(parents=True, exist_ok=True)
    stats.stats_path().write_bytes(content)
    assert stats.record_result("scopa", "versus", "won", 2) is None
    assert stats.stats_path().with_name("stats.json.bad").read_bytes() == content
    assert stats.load_stats()[0]["scopa/versus"].played == 1


# ---------------------------------------------------------------------- two windows
def test_two_windows_the_later_exit_keeps_the_other_windows_settings_change():
    from game.services.settings import load_settings, save_settings, settings_path

    first = load_settings(default_language="en").settings
    assert save_settings(first) is None
    mine = load_settings(default_language="en").settings  # this window starts
    other = json.loads(settings_path().read_text(encoding="utf-8"))
    other["volume"] = 12  # meanwhile the other window changes the volume and exits
    settings_path().write_text(json.dumps(other), encoding="utf-8")
    mine.contrast = 70  # this window changes the contrast, then exits
    assert save_settings(mine) is None
    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert saved["volume"] == 12 and saved["contrast"] == 70


def _open_window(monkeypatch) -> list[str]:
    """scenes.launch.main without --screenshot, the loop replaced by a look at the toasts."""
    from scenes import app as app_module
    from scenes.launch import main

    seen: list[str] = []

    def run(self, max_frames=None):
        seen.extend(self.toasts.active)
        return 0

    import pygame

    monkeypatch.setattr(app_module.App, "run", run)
    monkeypatch.setattr(pygame, "quit", lambda: None)  # the other tests' fonts stay valid
    assert main([]) == 0
    return seen


def test_two_windows_the_second_says_so_and_leaves_the_first_windows_match_alone(monkeypatch):
    from game.services import saves, storage
    from game.services.settings import user_data_dir

    saves.save_match(_a_save())
    before = saves.save_path().read_bytes()
    home = user_data_dir()
    (home / storage.HOME_LOCK).write_text(f"{os.getppid()}\n")  # the first window: a live process
    try:
        toasts = _open_window(monkeypatch)
        assert saves.read_only
        from game.services.i18n import I18n

        assert I18n("en").t("toast.second_window") in toasts
        assert saves.load_match() == (None, None)  # not offered here
        saves.save_match({"game": "briscola"})
        saves.clear_match()
        assert saves.save_path().read_bytes() == before
    finally:
        saves.read_only = False
    assert (home / storage.HOME_LOCK).read_text().strip() == str(os.getppid())  # not ours to remove


def test_the_first_window_takes_the_lock_and_gives_it_back(monkeypatch):
    from game.services import saves, storage
    from game.services.settings import user_data_dir

    (user_data_dir() / storage.HOME_LOCK).write_text("999999999\n")  # left by a killed window
    toasts = _open_window(monkeypatch)
    assert not saves.read_only and not any("another window" in t for t in toasts)
    assert not (user_data_dir() / storage.HOME_LOCK).exists()


def test_orphaned_match_json_tmp_files_are_cleaned_at_start(monkeypatch):
    from game.services.settings import user_data_dir

    home = user_data_dir()
    home.mkdir(parents=True, exist_ok=True)
    orphans = [home / ".match.json-k1ll3d.tmp", home / ".settings.json-x9.tmp", home / ".stats.json-a.tmp"]
    for p in orphans:
        p.write_text("{half a fi")
    (home / "keep.tmp").write_text("not ours")
    _open_window(monkeypatch)
    assert not any(p.exists() for p in orphans) and (home / "keep.tmp").exists()


def test_f12_on_a_full_disk_reports_failure_and_leaves_no_truncated_png(monkeypatch):
    import errno

    import pygame

    from game.services import storage
    from game.services.settings import user_data_dir

    app = _start_menu()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage.os, "fsync", full)
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode="", scancode=0))
    assert any("No space left on device" in t for t in app.toasts.active)
    assert not any(t.startswith("Screenshot saved") for t in app.toasts.active)
    folder = user_data_dir() / "screenshots"
    assert not folder.exists() or list(folder.iterdir()) == []  # no PNG, no temporary file


# ====================================================================== files the command line writes
def test_simulate_out_never_writes_through_a_symlink_planted_at_a_fixed_tmp_name(tmp_path):
    out = tmp_path / "shared"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    name = "briscola-2p-9-0001.jsonl"
    (out / f"{name}.tmp").symlink_to(victim)  # the old fixed temporary name
    (out / f".{name}.tmp").symlink_to(victim)
    assert cli.main(["simulate", "--game", "briscola", "--seed", "9", "--out", str(out), "--quiet"]) == 0
    assert victim.read_text(encoding="utf-8") == "precious"
    assert (out / name).is_file() and not (out / name).is_symlink()


def test_simulate_refuses_a_symlink_at_the_record_name(tmp_path, capsys):
    out = tmp_path / "shared"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (out / "briscola-2p-9-0001.jsonl").symlink_to(victim)
    assert cli.main(["simulate", "--game", "briscola", "--seed", "9", "--out", str(out), "--quiet", "--force"]) == 2
    assert "is a symbolic link" in capsys.readouterr().err and victim.read_text(encoding="utf-8") == "precious"


def test_simulate_never_overwrites_a_record_without_force(tmp_path, capsys):
    out = tmp_path / "recs"
    args = ["simulate", "--game", "briscola", "--seed", "9", "--out", str(out), "--quiet"]
    assert cli.main(args) == 0
    rec = out / "briscola-2p-9-0001.jsonl"
    rec.write_text("mine", encoding="utf-8")
    assert cli.main(args) == 2
    assert "already exist" in capsys.readouterr().err and rec.read_text(encoding="utf-8") == "mine"
    assert cli.main(args + ["--force"]) == 0 and rec.read_text(encoding="utf-8") != "mine"


def test_simulate_out_naming_an_existing_file_gives_one_line_and_exit_2(tmp_path):
    f = tmp_path / "records.txt"
    f.write_text("not a folder", encoding="utf-8")
    r = _run(["simulate", "--game", "briscola", "--out", str(f), "--quiet"], _env(None, tmp_path / "home"))
    assert r.returncode == 2
    assert _one_clear_line(r) == f"cardavia simulate: --out {f} is a file, not a folder"


def test_screenshot_never_overwrites_a_file_without_force(tmp_path):
    shot = tmp_path / "mine.png"
    shot.write_bytes(b"my holiday photo")
    r = _run(["--screenshot", str(shot)], _env(None, tmp_path / "home"))
    assert r.returncode == 2 and "already exists (add --force to replace it)" in _one_clear_line(r)
    assert shot.read_bytes() == b"my holiday photo"
    r = _run(["--screenshot", str(shot), "--force"], _env(None, tmp_path / "home"))
    assert r.returncode == 0 and shot.read_bytes().startswith(b"\x89PNG")


def test_screenshot_refuses_to_write_through_a_symlink(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    link = tmp_path / "shot.png"
    link.symlink_to(victim)
    r = _run(["--screenshot", str(link), "--force"], _env(None, tmp_path / "home"))
    assert r.returncode == 2 and "symbolic link" in _one_clear_line(r)
    assert victim.read_text(encoding="utf-8") == "precious"


def _proc_status(pid: int) -> dict[str, str]:
    """The process's /proc status fields (Linux); empty once it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    return dict(ln.split(":", 1) for ln in text.splitlines() if ":" in ln)


def _handles_sigterm(pid: int) -> bool:
    """Whether the process has a SIGTERM handler installed (Linux: SigCgt in /proc)."""
    import signal

    caught = _proc_status(pid).get("SigCgt")
    return caught is not None and bool(int(caught, 16) >> (signal.SIGTERM - 1) & 1)


def _threads(pid: int) -> int:
    """The process's thread count (SDL starts its first thread as it initialises)."""
    return int(_proc_status(pid).get("Threads", "0"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to know the handler is in place")
@pytest.mark.parametrize(
    "args",
    [["--screenshot", "{tmp}/shot.png", "--ticks", "6000", "--scene", "table"], ["--smoke"]],
    ids=["screenshot", "smoke"],
)
def test_sigterm_ends_a_stuck_headless_run_at_once(tmp_path, args):
    """SIGTERM mid-run, after SDL has started, ends the run at once with 143 and a clear line.

    The run is frozen (SIGSTOP) while the signal is sent, so that however fast the machine,
    the signal lands mid-run and not while a finished run is already on its way out (a
    screenshot run lasts only a second or two)."""
    import signal
    import time

    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    p = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), *argv],
        env=_env(None, tmp_path / "home"),
        cwd=str(ROOT),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while (
            p.poll() is None and not (_handles_sigterm(p.pid) and _threads(p.pid) > 1) and time.monotonic() < deadline
        ):
            time.sleep(0.01)  # waiting for the handler and SDL, not timing anything
        assert p.poll() is None, p.communicate()
        time.sleep(0.1)  # into the run: SDL's own set-up done
        p.send_signal(signal.SIGSTOP)
        while _proc_status(p.pid).get("State", "").split()[:1] != ["T"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _handles_sigterm(p.pid), "the run was frozen with no SIGTERM handler in place (finished already?)"
        p.send_signal(signal.SIGTERM)
        p.send_signal(signal.SIGCONT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 128 + signal.SIGTERM and "cardavia: stopped (SIGTERM)" in err, (p.returncode, err)
    assert not (tmp_path / "shot.png").exists() and "Traceback" not in err


# ====================================================================== the count
#: Every kind of bad input this file feeds the program (its count is what the bad-input work reports).
BAD_INPUT_KINDS: tuple[str, ...] = (
    *(f"rules.yaml:{k}" for k in CORRUPTIONS),
    "data folder:missing",
    "arguments:unknown option",
    "arguments:unknown scene",
    "arguments:bad player count",
    "arguments:bad percent",
    "arguments:bad window size",
    "arguments:unknown deck",
    "arguments:simulate unknown option",
    "arguments:verify without files",
    *(f"record:{k}" for k in DAMAGES),
    "record:breaks a rule",
    "record:event is a list",
    "record:bonuses a number",
    "record:bonuses hold lists",
    "record:options a number",
    "record:game a list",
    "record:line nested 100000 deep",
    "record:extra field nested 2000 deep",
    "record:fifo",
    "record:/dev/zero",
    "record:a folder",
    "record:100 MB",
    "record:true for a number",
    "record:false for a number",
    "record:-0.0 for a number",
    "record:duplicate key",
    *(f"locale:{k}" for k in LOCALE_DAMAGE),
    "window text:zero width everywhere",
    "window text:empty everywhere",
    "settings:not JSON",
    "settings:nested 100000 deep",
    "settings:not UTF-8",
    "settings:a list",
    "settings:null",
    "save:nested 100000 deep",
    "save:human_seat x",
    "save:human_seat 9",
    "save:human_seat true",
    "save:seed Infinity",
    "save:unknown deck",
    "save:impossible players",
    "save:option not allowed",
    "save:unknown bot",
    "stats:nested 100000 deep",
    "stats:not UTF-8",
    "stats:a list",
    "stats:null",
    "two windows:settings",
    "two windows:the save",
    "two windows:statistics",
    "two windows:stale lock",
    "orphaned temporary files",
    "F12 on a full disk",
    "simulate:symlink at the fixed tmp name",
    "simulate:symlink at the record name",
    "simulate:existing record",
    "simulate:--out an existing file",
    "screenshot:existing file",
    "screenshot:symlink",
    "SIGTERM:--screenshot",
    "SIGTERM:--smoke",
)


def test_the_bad_input_kinds_are_counted():
    assert len(BAD_INPUT_KINDS) == len(set(BAD_INPUT_KINDS)) >= 100
