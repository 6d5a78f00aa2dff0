"""Packaging never rots: build the one-file executable and run it (about a minute)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = ROOT / "dist" / ("cardavia.exe" if sys.platform == "win32" else "cardavia")


def test_executable_builds_and_runs_smoke_and_version(tmp_path):
    build = subprocess.run(["make", "exe"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-4000:]
    assert EXE.exists()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=str(tmp_path))
    env.pop("CARDAVIA_DATA", None)
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
