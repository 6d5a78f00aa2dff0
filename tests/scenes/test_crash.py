"""An error the game does not handle, forced in a scene under the dummy driver: the match in
progress is saved and resumes, a report (version, platform, traceback, log lines, the record so
far) is left in the user data folder, the window says so in its language — never a traceback —
and the next start offers to open the report's folder."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pygame

from game.config import get_config
from game.services import crash, saves
from game.services.i18n import I18n
from game.services.settings import Settings
from game.version import version
from scenes.app import TICK, App
from scenes.crash import EXIT_CRASH, offer_report, run_guarded
from scenes.registry import make_scene, register_scene, unregister_scene
from scenes.scene import Scene
from sprites import theme

ROOT = Path(__file__).resolve().parents[2]


class Boom(Scene):
    """A scene that fails on its first update, over whatever is shown."""

    is_overlay = True

    def update(self, dt: float) -> None:
        raise RuntimeError("forced for the test")


def _key(app: App, k: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.update(TICK)


def test_an_error_in_a_scene_saves_the_match_leaves_a_report_and_says_so_in_german(tmp_path, capsys):
    speech = tmp_path / "speech.txt"
    app = App(
        get_config(),
        Settings(language="de", animation_speed="instant"),
        I18n("de"),
        window=True,
        persist=False,
        speech_log=str(speech),
    )
    app.open_path("menu")
    table = make_scene(
        app,
        "table",
        game="briscola",
        players=2,
        seed=11,
        autoplay_moves=5,
        ai_level="greedy",
        threaded=False,
        preselect=False,
    )
    app.stack.push(table)
    for _ in range(5):
        app.update(TICK)
    events = list(table.session.match.events)
    assert len(events) > 5 and not table.session.over
    register_scene("zz_boom", lambda app, **_: Boom(app), parents=("menu",))
    tail = crash.LogTail().install()
    try:
        print("a line of the log before the error", file=sys.stderr)
        app.open_scene("zz_boom")
        code = run_guarded(app, lambda: app.run(max_frames=200), tail)
    finally:
        tail.uninstall()
        unregister_scene("zz_boom")
    assert code == EXIT_CRASH

    # The report, in the user data folder.
    reports = sorted((Path(os.environ["CARDAVIA_HOME"]) / "crash-reports").glob("crash-*.txt"))
    assert len(reports) == 1
    report = reports[0]
    text = report.read_text(encoding="utf-8")
    assert f"version: {version()}" in text and "platform: " in text and "python: " in text
    assert "Traceback" in text and "RuntimeError: forced for the test" in text and "in update" in text
    assert "a line of the log before the error" in text
    assert "screens: menu > table > zz_boom" in text and "language: de" in text
    record = text.split("its record so far", 1)[1].splitlines()[1:]
    assert len([line for line in record if line.startswith("{")]) == len(events)
    assert record[0].startswith('{"event": "match"') and f'"version": "{version()}"' in record[0]

    # Said in the window's language, on stderr in one line, no traceback; drawn in the window.
    out = capsys.readouterr()
    said = f"Cardavia wurde wegen eines Fehlers beendet. Ein Bericht wurde gespeichert: {report}"
    assert f"cardavia: {said}" in out.err.splitlines() and "Traceback" not in out.err
    spoken = speech.read_text(encoding="utf-8")
    assert said in spoken and "Deine laufende Partie wurde gespeichert" in spoken
    assert tuple(app.canvas.get_at((5, 5)))[:3] == theme.FELT_DEEP

    # Nothing lost: the match was saved and resumes where it stood.
    resumed, problem = saves.resume_session(threaded=False)
    assert problem is None and resumed is not None
    assert resumed.match.events == events
    assert crash.pending_report() == report

    # The next start offers the report's folder, once.
    opened = []
    app2 = App(
        get_config(), Settings(language="en", animation_speed="instant"), I18n("en"), window=False, persist=False
    )
    app2.open_path("menu")
    assert offer_report(app2)
    notice = app2.stack.top
    assert notice.name == "crash_notice" and app2.stack.names()[-2] == "menu"
    assert app2.stack.scenes[0].saved is not None  # the menu offers the saved match beneath
    app2.update(TICK)
    with theme.measure_text() as measured:
        app2.render()
    assert not measured.overflows, measured.overflows
    import scenes.crash_notice as notice_module

    real = notice_module.crash.open_folder
    notice_module.crash.open_folder = lambda folder: opened.append(folder)  # type: ignore[assignment]
    try:
        _key(app2, pygame.K_RETURN)  # the focus is on "Open its folder"
    finally:
        notice_module.crash.open_folder = real
    assert opened == [report.parent]
    assert app2.stack.top.name == "menu" and crash.pending_report() is None
    assert not offer_report(app2)  # offered once
    assert report.exists()  # the report stays


def test_a_report_that_cannot_be_written_is_said_and_the_match_still_saved(monkeypatch, capsys):
    home = Path(os.environ["CARDAVIA_HOME"])
    (home / "crash-reports").write_text("a file where the folder should be", encoding="utf-8")
    app = App(get_config(), Settings(language="it", animation_speed="instant"), I18n("it"), window=True, persist=False)
    app.open_path("menu")
    table = make_scene(
        app,
        "table",
        game="scopa",
        players=2,
        seed=3,
        autoplay_moves=2,
        ai_level="greedy",
        threaded=False,
        preselect=False,
    )
    app.stack.push(table)
    app.update(TICK)
    register_scene("zz_boom", lambda app, **_: Boom(app), parents=("menu",))
    try:
        app.open_scene("zz_boom")
        code = run_guarded(app, lambda: app.run(max_frames=200))
    finally:
        unregister_scene("zz_boom")
    assert code == EXIT_CRASH
    err = capsys.readouterr().err
    assert "Cardavia si è fermato per un errore. Non è stato possibile salvare il rapporto" in err
    assert "Traceback" not in err
    assert saves.load_match()[0]["events"] == table.session.match.events


CRASHING_MENU = """
import sys
from scenes.registry import register_scene
from scenes.scene import Scene

class Failing(Scene):
    def __init__(self, app):
        super().__init__(app)
        print("the first screen is being built", file=sys.stderr)

    def update(self, dt):
        {}["missing_key"]

register_scene("menu", lambda app, **_: Failing(app), parents=())
sys.argv = ["main.py"]
import main
sys.exit(main.main())
"""

OFFERED = """
import sys
from scenes.registry import register_scene, scene_factory

real = scene_factory("crash_notice")

def offered(app, **params):
    print("offered", flush=True)
    app.quit()
    return real(app, **params)

register_scene("crash_notice", offered)
import main
sys.exit(main.main([]))
"""


def test_main_py_ends_a_crash_with_one_line_and_exit_3_and_the_next_start_offers_the_report(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text('{"speech": "off"}', encoding="utf-8")  # no voice's line
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=str(home))
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CRASHING_MENU)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == EXIT_CRASH, run.stderr[-3000:]
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 2 and "Traceback" not in run.stderr, run.stderr[-3000:]
    assert lines[0] == "the first screen is being built"  # the stand-in's own line
    assert lines[1].startswith("cardavia: Cardavia stopped because of an error. A report was saved: ")
    report = Path(lines[1].split("A report was saved: ", 1)[1])
    assert report.parent == home / "crash-reports"
    text = report.read_text(encoding="utf-8")
    assert "KeyError: 'missing_key'" in text and "No match was in progress." in text
    assert "the first screen is being built" in text  # the log's tail: what the program wrote before
    nxt = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(OFFERED)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert nxt.returncode == 0 and nxt.stdout.splitlines() == ["offered"], nxt.stderr[-3000:]


def test_the_log_tail_keeps_the_last_lines_and_writes_through(capsys):
    tail = crash.LogTail(size=3).install()
    try:
        for i in range(5):
            print(f"line {i}", file=sys.stderr)
        print("out line", end="")  # without an end: kept when the tail is taken away
    finally:
        tail.uninstall()
    kept = tail.tail()
    assert [k.split(" ", 2)[2] for k in kept] == ["line 3", "line 4", "out line"]
    assert capsys.readouterr().err.splitlines() == [f"line {i}" for i in range(5)]


def test_the_folder_is_opened_by_the_platform_s_own_command(tmp_path):
    assert crash.folder_command(tmp_path, "linux") == ["xdg-open", str(tmp_path)]
    assert crash.folder_command(tmp_path, "darwin") == ["open", str(tmp_path)]
    assert crash.folder_command(tmp_path, "win32") is None  # os.startfile
    calls = []
    if not sys.platform.startswith("win"):
        assert crash.open_folder(tmp_path, run=lambda cmd, **kw: calls.append(cmd)) is None
        assert calls and calls[0][-1] == str(tmp_path)

        def refuse(cmd, **kw):
            raise FileNotFoundError(2, "No such file or directory")

        assert crash.open_folder(tmp_path, run=refuse) == "No such file or directory"


def test_a_marker_naming_anything_but_a_report_of_the_folder_offers_nothing():
    folder = crash.reports_dir()
    folder.mkdir(parents=True)
    for name in ("../settings.json", "/etc/passwd", "crash-x.txt", ""):
        (folder / crash.UNSEEN).write_text(name, encoding="utf-8")
        assert crash.pending_report() is None
    (folder / "crash-x.txt").write_text("a report", encoding="utf-8")
    (folder / crash.UNSEEN).write_text("crash-x.txt\n", encoding="utf-8")
    assert crash.pending_report() == folder / "crash-x.txt"
    (folder / "crash-x.txt").unlink()  # removed by hand: nothing to offer
    assert crash.pending_report() is None
