"""Nothing lost, third pass: special files at a name the game would replace, read
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

from game.services import cli, storage

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


SPECIAL = [
    pytest.param(k, marks=needs_fifo) if k == "fifo" else k for k in ("fifo", "socket", "folder", "link", "device")
]


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
    readme = (Path(__file__).resolve().parent.parent / "docs" / "HEADLESS.md").read_text(encoding="utf-8")
    section = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    for line in ("`verify`", "`simulate`", "`--screenshot`", "`serve`", "`replay`", "`--smoke`"):
        assert line in section, line
    for code in ("| 0 ", "| 1 ", "| 2 ", "| 3 "):
        assert code in section, code


# ====================================================================== 3. the replays folder
def _finished() -> list[dict]:
    from game.ai.bots import make_bot
    from game.match import Match
    from game.rulesets import game_ids, make_rules

    rules = make_rules(game_ids()[0], None, 2)
    return Match(rules, 3, [make_bot("greedy", rules, s, 3) for s in range(2)]).run()


def test_a_file_in_the_replays_folders_place_is_set_aside_and_the_match_kept():
    from game.services import replays

    place = replays.replays_dir()
    place.parent.mkdir(parents=True, exist_ok=True)
    place.write_text("the player's notes", encoding="utf-8")
    path, note = replays.keep(_finished())
    assert path is not None and path.parent == place and place.is_dir() and not place.is_symlink()
    assert note == "replays was not a folder; it was kept as replays.bad" and note.bad == "replays.bad"
    assert place.with_name("replays.bad").read_text(encoding="utf-8") == "the player's notes"
    assert [m.path for m in replays.list_kept().matches] == [path]


def test_a_link_in_the_replays_folders_place_is_set_aside_never_written_through(tmp_path):
    from game.services import replays

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    place = replays.replays_dir()
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(elsewhere, target_is_directory=True)
    path, note = replays.keep(_finished())
    assert list(elsewhere.iterdir()) == []  # nothing where the link pointed
    assert path is not None and path.parent == place and place.is_dir() and not place.is_symlink()
    assert place.with_name("replays.bad").is_symlink() and note.bad == "replays.bad"


def test_listing_sets_a_link_aside_instead_of_reading_where_it_points(tmp_path):
    from game.services import replays

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    replays.keep(_finished(), folder=elsewhere)
    place = replays.replays_dir()
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(elsewhere, target_is_directory=True)
    listing = replays.list_kept()
    assert listing.matches == [] and listing.skipped == ["replays was not a folder; it was kept as replays.bad"]


def test_pruning_never_touches_a_players_own_records_among_thousands(tmp_path, monkeypatch):
    from game.services import replays

    folder = tmp_path / "replays"
    folder.mkdir()
    mine = [folder / f"scopa-2p-{i}-0001.jsonl" for i in range(3000)]  # as simulate names them
    mine += [folder / "20240101-120000-my-best-match.jsonl", folder / "20240101-120000-scopa.jsonl"]
    for p in mine:
        p.write_text("my own\n", encoding="utf-8")
    events = _finished()
    kept = [replays.keep(events, folder=folder, limit=5, now=1_700_000_000 + 60 * i)[0] for i in range(8)]
    assert all(p.read_text(encoding="utf-8") == "my own\n" for p in mine)
    assert sorted(p.name for p in folder.glob("2023*.jsonl")) == sorted(p.name for p in kept[-5:])

    # Pruning reads the index, not the folder: thousands of files cost it nothing.
    def no_listing(*args, **kwargs):
        raise AssertionError("pruning listed the folder")

    monkeypatch.setattr(type(folder), "iterdir", no_listing)
    monkeypatch.setattr(type(folder), "glob", no_listing)
    monkeypatch.setattr(replays.os, "scandir", no_listing)
    monkeypatch.setattr(replays.os, "listdir", no_listing)
    path, problem = replays.keep(events, folder=folder, limit=5, now=1_800_000_000)
    assert problem is None and not kept[-5].exists() and path.exists()
    assert all(p.exists() for p in mine)


def test_an_older_versions_folder_without_an_index_adopts_the_games_own_names_once(tmp_path):
    from game.services import replays

    events = _finished()
    old = [replays.keep(events, folder=tmp_path, limit=100, now=1_600_000_000 + 60 * i)[0] for i in range(4)]
    (tmp_path / replays.INDEX).unlink()  # as an older version left it
    (tmp_path / "notes.jsonl").write_text("mine\n", encoding="utf-8")
    replays.keep(events, folder=tmp_path, limit=2, now=1_700_000_000)
    assert [p.exists() for p in old] == [False, False, False, True] and (tmp_path / "notes.jsonl").exists()
    index = json.loads((tmp_path / replays.INDEX).read_text(encoding="utf-8"))
    assert len(index["kept"]) == 2 and index["kept"][0] == old[-1].name


# ====================================================================== 4. temporary files of interrupted writes
_KILLED_WRITE = """
import os, signal, sys
sys.path.insert(0, {root!r})
from game.services import storage
def die(fd):
    os.kill(os.getpid(), signal.SIGKILL)  # killed between the write and the rename
storage.os.fsync = die
{call}
"""


def _killed_during(call: str, home: Path) -> None:
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "CARDAVIA_HOME": str(home)}
    r = subprocess.run([sys.executable, "-c", _KILLED_WRITE.format(root=root, call=call)], env=env, timeout=120)
    assert r.returncode == -9


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob(".*.tmp")) if folder.is_dir() else []


def test_a_statistics_write_cleans_what_killed_writes_left(_private_home):
    from game.services import stats

    for _ in range(3):
        _killed_during("from game.services import stats; stats.record_result('g', 'versus', 'won', 1)", _private_home)
    assert len(_temps(_private_home)) == 1  # each write removed the one a kill before it left
    assert stats.record_result("g", "versus", "won", 1) is None
    assert _temps(_private_home) == [] and stats.load_stats()[0]["g/versus"].played == 1


def test_a_second_window_cleans_the_temporaries_of_gone_processes_in_every_folder(_private_home):
    from game.services import replays, saves, storage
    from scenes.launch import claim_home_folder

    _killed_during("from game.services import settings; settings.save_settings(settings.Settings())", _private_home)
    _killed_during(
        "import json; from game.services import replays; replays.keep(json.loads("
        + repr(json.dumps(_finished()))
        + "))",
        _private_home,
    )
    shots = _private_home / "screenshots"
    shots.mkdir()
    _killed_during(
        f"from game.services import storage; from pathlib import Path; "
        f"storage.write_bytes(Path({str(shots / 'a.png')!r}), b'png')",
        _private_home,
    )
    left = _temps(_private_home) + _temps(replays.replays_dir()) + _temps(shots)
    assert len(left) == 3, left
    (_private_home / storage.HOME_LOCK).write_text(f"{os.getppid()}\n")  # the first window runs
    try:
        home = claim_home_folder()
        assert not home.owner
    finally:
        saves.read_only = False
    assert _temps(_private_home) == _temps(replays.replays_dir()) == _temps(shots) == []


def test_the_server_cleans_its_data_folders_interrupted_writes_at_start(tmp_path):
    from game.online.server.store import TableStore

    _killed_during(
        f"from game.services import storage; from pathlib import Path; "
        f"storage.write_json(Path({str(tmp_path / 'ABCDEF.table.json')!r}), {{}})",
        tmp_path,
    )
    assert len(_temps(tmp_path)) == 1
    live = tmp_path / f".ABCDEF.jsonl-{os.getppid()}-x1.tmp"  # another server, writing right now
    live.write_text("{}")
    TableStore(tmp_path)
    assert _temps(tmp_path) == [live.name]


# ====================================================================== 6. a real damaged saved match
def _real_save(game: str = "briscola"):
    """A match left at a real table (the scene saved it), and the menu it went back to."""
    from tests.scenes.test_resume import leave_a_match, make_app

    app = make_app()
    leave_a_match(app, game, 2, moves=8)
    from game.services import saves

    return app, saves.save_path(), json.loads(saves.save_path().read_text(encoding="utf-8"))


def _damage(data: dict, how: str) -> str:
    from game.rulesets import game_ids

    events = data["events"]
    plays = [i for i, e in enumerate(events) if e["event"] == "play"]
    if how == "a decision removed":
        del events[plays[1]]
    elif how == "a wrong card":  # a card the seat does not hold: the other seat's, from the deal
        seat = events[plays[1]]["seat"]
        deal = next(e for e in events if e["event"] == "deal")
        events[plays[1]]["card"] = deal["hands"][1 - seat][-1]
    elif how == "another game's save":
        other = next(g for g in game_ids() if g != data["game"])
        data["game"] = other  # the head of the events still says which match it is
    return json.dumps(data)


@pytest.mark.parametrize("how", ["truncated", "a decision removed", "a wrong card", "another game's save"])
def test_a_real_damaged_save_is_set_aside_with_one_line_and_the_menu_offers_a_new_match(how):
    import pygame

    from tests.scenes.test_resume import key, widget

    app, path, data = _real_save()
    text = path.read_text(encoding="utf-8")
    text = text[: len(text) // 2] if how == "truncated" else _damage(data, how)
    path.write_text(text, encoding="utf-8")
    shown: list[str] = []
    real = app.toast
    app.toast = lambda m: (shown.append(m), real(m))[1]
    menu = app.stack.top
    menu.refresh_saved()
    if menu.saved is not None:  # it reads as a save: only replaying it can tell
        key(app, pygame.K_RETURN)  # Continue has the focus
    assert app.stack.top is menu and menu.saved is None
    assert shown == ["The saved match was damaged; it was kept aside as match.json.bad."]
    assert path.with_name("match.json.bad").read_text(encoding="utf-8") == text and not path.exists()
    assert not widget(menu, "continue").visible and menu.ui.focused is menu.play
    key(app, pygame.K_RETURN)  # Play: a new match, nothing to ask about
    assert app.stack.top.name == "decks" and not menu.confirming
