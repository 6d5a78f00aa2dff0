"""Packaging never rots: build the one-file executable and run it (about a minute).

The build itself is started when the session begins (tests/exe_build.py) and runs beside the
other tests; this test waits for it, then runs what it built.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests import exe_build
from tests.xvfb import no_gl_declared, xvfb_display

ROOT = Path(__file__).resolve().parent.parent
EXE = ROOT / "dist" / ("cardavia.exe" if sys.platform == "win32" else "cardavia")


def test_executable_builds_and_runs_smoke_and_version(tmp_path):
    code, output = exe_build.result()
    assert code == 0, output
    assert EXE.exists()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=str(tmp_path))
    env.pop("CARDAVIA_DATA", None)
    env.pop(exe_build.ENV, None)
    version = subprocess.run([str(EXE), "--version"], capture_output=True, text=True, timeout=120, env=env)
    assert version.returncode == 0 and version.stdout.startswith("cardavia ")
    # The smoke run in a real window with OpenGL (Mesa's, under a private Xvfb): the packaged
    # shader path post-processes every frame.
    if no_gl_declared():
        smoke = subprocess.run(
            [str(EXE), "--smoke"], capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path
        )
    else:
        with xvfb_display() as display:
            smoke = subprocess.run(
                [str(EXE), "--smoke"],
                capture_output=True,
                text=True,
                timeout=600,
                env=dict(env, SDL_VIDEODRIVER="x11", DISPLAY=display),
                cwd=tmp_path,
            )  # run from elsewhere: data must come from inside the executable
        assert "post-processing on the GPU" in smoke.stdout, smoke.stdout[-2000:] + smoke.stderr[-2000:]
    assert smoke.returncode == 0, smoke.stdout[-2000:] + smoke.stderr[-4000:]
    assert "OK" in smoke.stdout and "Traceback" not in smoke.stderr
    # Where OpenGL is missing (the dummy driver), the GPU asked for: one line, the CPU path, no traceback.
    home = tmp_path / "no-gl"
    home.mkdir()
    (home / "settings.json").write_text('{"render": "gpu", "speech": "off"}', encoding="utf-8")
    first = subprocess.run(
        [str(EXE), "--first-frame"], capture_output=True, text=True, timeout=120, env=dict(env, CARDAVIA_HOME=str(home))
    )
    assert first.returncode == 0 and "Traceback" not in first.stderr, first.stderr[-2000:]
    assert [line for line in first.stderr.splitlines() if line.strip()] == [
        next(line for line in first.stderr.splitlines() if "no OpenGL here" in line)
    ]
    bad = subprocess.run([str(EXE), "--no-such-option"], capture_output=True, text=True, timeout=120, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    # Settings live in the user's folder, never next to the executable.
    assert not (EXE.parent / "settings.json").exists()
