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
    smoke = subprocess.run([str(EXE), "--smoke"], capture_output=True, text=True, timeout=600, env=env,
                           cwd=tmp_path)  # run from elsewhere: data must come from inside the executable
    assert smoke.returncode == 0, smoke.stdout[-2000:] + smoke.stderr[-4000:]
    assert "OK" in smoke.stdout and "Traceback" not in smoke.stderr
    bad = subprocess.run([str(EXE), "--no-such-option"], capture_output=True, text=True, timeout=120, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    # Settings live in the user's folder, never next to the executable.
    assert not (EXE.parent / "settings.json").exists()
