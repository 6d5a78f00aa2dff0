"""Nothing lost, third pass (issue 37): special files at a name the game would replace, read
errors in a record, the replays folder, the temporary files of interrupted writes, a real
damaged saved match. (A full disk: tests/test_disk_full.py; two real windows:
tests/scenes/test_two_windows.py.)"""
from __future__ import annotations

import errno
import json
import os
import socket
import stat
from pathlib import Path

import pytest

from game import cli, storage

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


# ====================================================================== 1. --force replaces only a file
def _special(kind: str, path: Path) -> object:
    """Make a thing that is not a regular file at ``path``; returns what must survive."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(str(path))
        s.close()
    elif kind == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("precious", encoding="utf-8")
    elif kind == "link":
        target = path.with_name("target.txt")
        target.write_text("precious", encoding="utf-8")
        path.symlink_to(target)
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 7))  # like /dev/full
    return _what(path)


def _what(path: Path) -> tuple[int, int]:
    st = os.lstat(path)
    return stat.S_IFMT(st.st_mode), st.st_ino


SPECIAL = [pytest.param(k, marks=needs_fifo) if k == "fifo" else k
           for k in ("fifo", "socket", "folder", "link", "device")]


@pytest.mark.parametrize("kind", SPECIAL)
def test_screenshot_force_never_replaces_what_is_not_a_file(tmp_path, kind, capsys):
    from scenes.launch import main

    target = tmp_path / "x.png"
    before = _special(kind, target)
    assert main(["--screenshot", str(target), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(target) in err
    assert _what(target) == before


@pytest.mark.parametrize("kind", SPECIAL)
def test_simulate_force_never_replaces_what_is_not_a_file(tmp_path, kind, capsys):
    out = tmp_path / "out"
    out.mkdir()
    target = out / "briscola-2p-1-0001.jsonl"
    before = _special(kind, target)
    assert cli.main(["simulate", "--game", "briscola", "--out", str(out), "--force", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(target) in err
    assert _what(target) == before


@needs_fifo
def test_an_atomic_write_never_replaces_a_fifo_that_appeared_meanwhile(tmp_path):
    target = tmp_path / "stats.json"
    os.mkfifo(target)  # after every check a caller made: the writer itself refuses
    problem = storage.write_bytes(target, b"{}", overwrite=True)
    assert problem == "stats.json is a pipe, not a file; it was not replaced"
    assert stat.S_ISFIFO(os.lstat(target).st_mode) and os.listdir(tmp_path) == ["stats.json"]


def test_force_still_replaces_a_regular_file(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "briscola-2p-1-0001.jsonl").write_text("old", encoding="utf-8")
    assert cli.main(["simulate", "--game", "briscola", "--out", str(out), "--force", "--quiet"]) == 0
    assert (out / "briscola-2p-1-0001.jsonl").read_text(encoding="utf-8") != "old"


# ====================================================================== 2. a read error is a damaged file (2)
@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="no /proc/self/mem on this system")
def test_verify_a_file_that_cannot_be_read_is_damaged_exit_2(capsys):
    assert cli.main(["verify", "/proc/self/mem"]) == 2  # a regular file whose read fails (EIO)
    out = capsys.readouterr().out
    assert out.startswith("/proc/self/mem: ") and "Input/output error" in out and "internal" not in out
    assert cli.damaged("/proc/self/mem")  # not an OSError out of the helper


def test_verify_a_read_error_after_some_lines_names_the_line_and_the_reason(tmp_path, monkeypatch, capsys):
    from game import record, verify

    path = tmp_path / "r.jsonl"
    cli.main(["simulate", "--game", "briscola", "--out", str(tmp_path), "--quiet"])
    (tmp_path / "briscola-2p-1-0001.jsonl").rename(path)
    real = record.open_record

    def failing(p):  # the disk gives out on the fourth line
        f, stream = real(p)

        def lines():
            for n, raw in record.iter_lines(f, file=path.name, max_line=record.MAX_LINE):
                if n == 4:
                    raise OSError(errno.EIO, "Input/output error")
                yield n, raw
        return f, record.RecordStream(lines())

    capsys.readouterr()
    monkeypatch.setattr(verify, "open_record", failing)
    assert cli.main(["verify", str(path)]) == 2
    assert capsys.readouterr().out == f"{path}: line 4: cannot read the file: Input/output error\n"


def test_the_readme_lists_every_exit_code_of_every_command():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    for line in ("`verify`", "`simulate`", "`--screenshot`", "`serve`", "`replay`", "`--smoke`"):
        assert line in section, line
    for code in ("| 0 ", "| 1 ", "| 2 ", "| 3 "):
        assert code in section, code
