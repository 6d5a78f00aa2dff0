"""A full disk (issue 37): a save that cannot be written says so once, keeps the previous
file intact, and the game plays on; the server refuses new tables and plays on the ones it
has. Each case twice: with ``ENOSPC`` injected into every data write (anywhere), and with a
real small tmpfs as the data folder (where mounting one is possible: root on Linux)."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.services import saves, stats, storage

NO_SPACE = "No space left on device"


# ---------------------------------------------------------------------- helpers
class _FullFile:
    """A file object on a full disk: opening works, every write of data fails."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        raise OSError(errno.ENOSPC, NO_SPACE)

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


@contextlib.contextmanager
def injected_full_disk(monkeypatch):
    real = storage.os.fdopen
    with monkeypatch.context() as m:
        m.setattr(storage.os, "fdopen", lambda fd, *a, **k: _FullFile(real(fd, *a, **k)))
        yield


def _mount_error(mnt: Path) -> str | None:
    if sys.platform != "linux":
        return "a tmpfs is a Linux file system"
    if os.geteuid() != 0:
        return "mounting a tmpfs needs root (id -u is not 0)"
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(mnt)], capture_output=True, text=True
    )
    return None if r.returncode == 0 else f"mount -t tmpfs failed: {r.stderr.strip()}"


@pytest.fixture
def small_disk(tmp_path):
    """A real 4 MB tmpfs, mounted for this test alone (its own folder under tmp_path)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    why = _mount_error(mnt)
    if why:
        pytest.skip(why)
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def fill(folder: Path, leave: int = 0) -> Path:
    """Take the disk's free space, all of it or all but ``leave`` bytes."""
    filler = folder / "filler.bin"
    with open(filler, "ab") as f:
        try:
            while shutil.disk_usage(folder).free > leave:
                f.write(b"\0" * min(65536, max(4096, shutil.disk_usage(folder).free - leave)))
                f.flush()
        except OSError as e:
            assert e.errno == errno.ENOSPC
    return filler


def said(app) -> list[str]:
    """Every toast the app is asked to show from now on (the pill itself merges repeats)."""
    shown: list[str] = []
    real = app.toast
    app.toast = lambda message: (shown.append(message), real(message))[1]
    return shown


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".lock")))


# ---------------------------------------------------------------------- the files, ENOSPC injected
def test_a_write_on_a_full_disk_leaves_no_empty_lock_to_wait_for(monkeypatch):
    assert stats.record_result("g", "versus", "won", 1) is None
    before = stats.stats_path().read_bytes()
    with injected_full_disk(monkeypatch):
        problem = stats.record_result("g", "versus", "won", 1)
    assert problem and NO_SPACE in problem
    assert stats.stats_path().read_bytes() == before and _leftovers(stats.stats_path().parent) == []
    with storage.locked(stats.stats_path()) as got:
        assert got  # the next write takes the lock at once: no empty stats.json.lock was left


def test_settings_on_a_full_disk_are_said_once_and_the_file_is_kept(monkeypatch):
    from game.config import get_config
    from game.services.i18n import I18n
    from game.services.settings import Settings, settings_path
    from scenes.app import App

    app = App(get_config(), Settings(language="en"), I18n("en"), window=False, persist=True)
    app.set_setting("volume", 40)
    before = settings_path().read_bytes()
    shown = said(app)
    with injected_full_disk(monkeypatch):
        for v in (41, 42, 43):
            app.set_setting("volume", v)
    assert len(shown) == 1 and NO_SPACE in shown[0] and settings_path().read_bytes() == before
    app.set_setting("volume", 44)  # room again: saved, and a later failure would be said again
    assert b'"volume": 44' in settings_path().read_bytes()


def _table_app():
    from tests.scenes.test_table import make_app

    app = make_app()
    app.open_path("menu")
    return app


def _play_moves(app, scene, n: int) -> int:
    """Let the human play ``n`` decisions (the first legal one) by keys; returns how many."""
    from scenes.app import TICK
    from tests.scenes.test_table import keyboard_play

    done = 0
    for _ in range(4000):
        if done >= n or scene.session.over:
            break
        if app.stack.top is scene and scene.controller.can_act:
            keyboard_play(app, scene, scene.session.legal_actions()[0])
            done += 1
        app.update(TICK)
    return done


def _a_table(app):
    from scenes.registry import make_scene

    scene = make_scene(
        app,
        "table",
        game="briscola",
        players=2,
        seed=5,
        ai_level="greedy",
        threaded=False,
        autoplay_moves=0,
        preselect=False,
    )
    app.stack.push(scene)
    return scene


def _check_plays_on_and_says_once(app, scene, full) -> None:
    assert _play_moves(app, scene, 2) == 2
    before = saves.save_path().read_bytes()
    events = len(scene.session.match.events)
    shown = said(app)
    with full():
        assert _play_moves(app, scene, 4) == 4  # the game plays on
        assert saves.save_path().read_bytes() == before  # the previous save, whole
    assert len([t for t in shown if "could not be saved" in t]) == 1, shown
    assert len(scene.session.match.events) > events
    assert _play_moves(app, scene, 1) == 1  # room again: the next move saves the whole match so far
    from game.services.session import Session

    resumed = Session.from_save(saves.load_match()[0], threaded=False)
    assert resumed.match.events == scene.session.match.events


def test_the_match_on_a_full_disk_is_said_once_kept_whole_and_plays_on(monkeypatch):
    app = _table_app()
    _check_plays_on_and_says_once(app, _a_table(app), lambda: injected_full_disk(monkeypatch))


# ---------------------------------------------------------------------- the files, a real full tmpfs
def test_a_real_full_disk_the_match_settings_and_statistics(small_disk, monkeypatch):
    monkeypatch.setenv("CARDAVIA_HOME", str(small_disk))
    app = _table_app()
    app.persist = True
    scene = _a_table(app)
    filler = small_disk / "filler.bin"

    @contextlib.contextmanager
    def full():
        fill(small_disk)
        try:
            yield
        finally:
            filler.unlink()

    _check_plays_on_and_says_once(app, scene, full)
    app.set_setting("volume", 30)
    settings_before = (small_disk / "settings.json").read_bytes()
    assert stats.record_result("g", "versus", "won", 1) is None
    stats_before = stats.stats_path().read_bytes()
    shown = said(app)
    with full():
        for v in (31, 32):
            app.set_setting("volume", v)
        assert NO_SPACE in (stats.record_result("g", "versus", "lost", 1) or "")
        assert stats.record_result("g", "versus", "lost", 1)
        assert _leftovers(small_disk) == []  # no temporary, no empty lock
    assert (small_disk / "settings.json").read_bytes() == settings_before
    assert stats.stats_path().read_bytes() == stats_before
    assert len([t for t in shown if "Settings could not be saved" in t]) == 1, shown


# ---------------------------------------------------------------------- the server
def _server_on(folder: Path):
    from game.online.server.serving import start_server_in_thread

    return start_server_in_thread("127.0.0.1", 0, folder, workers=1)


def _wait(what, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not what() and time.monotonic() < deadline:
        time.sleep(0.02)


def _refused_for_space(url: str) -> dict:
    from tests.online.wshelp import Client

    c = Client(url, "Late")
    err = c.request(
        {
            "type": "create",
            "game": "scopa",
            "deck": None,
            "players": 2,
            "options": {},
            "seats": ["friend", "ai:easy"],
            "pause_seconds": 60,
            "ai_takes_over": True,
        },
        "error",
    )
    c.close()
    return err


def _plays_on_while_refusing(folder: Path, make_full, make_short) -> None:
    from tests.online.wshelp import Player, create

    handle = _server_on(folder)
    try:
        host, created = create(handle.url, "scopa", 2, ["friend", "friend"])
        players = [
            Player(handle.url, created["code"], created["tokens"][str(s)], f"P{s}", seed=s, pace=0.01).start()
            for s in (0, 1)
        ]
        _wait(lambda: players[0].decision >= 2)
        make_short()  # a little space left: the tables under way get it, a new one does not
        err = _refused_for_space(handle.url)
        assert err["code"] == "limit" and "disk is full" in err["message"], err
        make_full()
        for p in players:
            p.join(timeout=90)
            assert p.events[-1]["event"] == "match_end" and not p.refused  # played to its end
        err = _refused_for_space(handle.url)
        assert err["code"] == "limit" and "disk is full" in err["message"], err
        host.close()
    finally:
        assert handle.stop(timeout=10)


def test_the_server_on_a_full_disk_refuses_new_tables_and_plays_on_injected(tmp_path, monkeypatch):
    from game.online.server import store

    free = {"bytes": 10**9}

    class Disk:
        """The store's view of os and shutil, on a disk that fills up (only the store's writes)."""

        def __init__(self, module):
            self.module = module

        def __getattr__(self, name):
            return getattr(self.module, name)

        def disk_usage(self, path):
            return self.module.disk_usage(path)._replace(free=free["bytes"])

        def write(self, fd, data):
            if free["bytes"] == 0:
                raise OSError(errno.ENOSPC, NO_SPACE)
            return self.module.write(fd, data)

    monkeypatch.setattr(store, "shutil", Disk(shutil))
    monkeypatch.setattr(store, "os", Disk(os))
    _plays_on_while_refusing(
        tmp_path, make_full=lambda: free.update(bytes=0), make_short=lambda: free.update(bytes=200 * 1024)
    )


def test_the_server_on_a_real_full_disk_refuses_new_tables_and_plays_on(small_disk):
    _plays_on_while_refusing(
        small_disk, make_full=lambda: fill(small_disk), make_short=lambda: fill(small_disk, leave=200 * 1024)
    )
