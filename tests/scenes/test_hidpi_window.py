"""The high-DPI window: on a display with more pixels than points the game's
window has the display's pixels, and everything is drawn at them.

The real thing, not a simulation: a private headless Weston (tests/wayland.py) whose output
has a scale of 2, as a Retina or 200 % screen has, and SDL's Wayland driver. The game's own
window, on the CPU path and on the GPU path (Mesa's software OpenGL), is checked by
tests/scenes/hidpi_probe.py: a 1280×720-point window has 2560×1440 pixels, the canvas and
the UI scale follow them, the picture shown is sharp (edge energy far above the same picture
at 1280×720 enlarged), a click given in points lands on the widget drawn there, and a resize
and fullscreen keep it so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from scenes.window import hidpi_hints, wants_hidpi_window
from tests.wayland import weston_display
from tests.xvfb import require_gl

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("hidpi_probe.py")

pytestmark = pytest.mark.xdist_group("wayland")


def probe(render: str, **extra_env: str) -> dict:
    """The probe's findings, and its stderr as ``out["stderr"]``."""
    with weston_display(scale=2) as wayland:
        env = dict(os.environ, SDL_AUDIODRIVER="dummy", **wayland, **extra_env)
        env.pop("DISPLAY", None)
        r = subprocess.run(
            [sys.executable, str(PROBE), render], capture_output=True, text=True, timeout=180, env=env, cwd=ROOT
        )
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Traceback" not in r.stderr
    return {**json.loads(r.stdout.strip().splitlines()[-1]), "stderr": r.stderr}


@pytest.mark.parametrize("render", ["cpu", "gpu"])
def test_the_window_has_the_displays_pixels_at_a_scale_of_two(render):
    out = probe(render)
    if render == "gpu" and not out["gpu"]:
        require_gl("no OpenGL 3.3 context on Weston (Mesa's software OpenGL)")
    assert out["driver"] == "wayland" and out["own_window"] is True and out["gpu"] is (render == "gpu")
    opened = out["opened"]
    assert opened["points"] == [1280, 720] and opened["pixels"] == [2560, 1440] and opened["ratio"] == 2.0
    assert opened["scale"] == 2.0 and opened["frame"] == [2560, 1440]
    # The picture the window shows has its pixels, and is sharp: text and edges drawn at
    # 2560×1440, not 1280×720 enlarged (which would have about the same edge energy).
    assert out["shown"]["size"] == [2560, 1440] and out["shown"]["sharpness"] > 1.5, out["shown"]
    # A click given in window points lands on Play, drawn at twice as many pixels.
    click = out["click"]
    assert click["landed"] == click["target"] and click["opened"] == "decks", click
    # Resized to 1000×600 points: 2000×1200 pixels, the canvas letterboxed at 2000×1125.
    resized = out["resized"]
    assert resized["points"] == [1000, 600] and resized["pixels"] == [2000, 1200]
    assert resized["frame"] == [2000, 1125] and resized["box"] == [0, 37, 2000, 1125]
    assert resized["scale"] == pytest.approx(2000 / 1280, abs=1e-4) and resized["shown"] == [2000, 1200]
    assert resized["click"]["landed"] == resized["click"]["target"] and resized["click"]["opened"] == "decks"
    # Fullscreen and back: still two pixels a point, and the window size asked for again.
    full, back = out["fullscreen"], out["windowed"]
    assert full["on"] is True and full["ratio"] == 2.0 and full["pixels"][0] == 2 * full["points"][0]
    assert full["frame"][0] == full["pixels"][0] or full["frame"][1] == full["pixels"][1]
    assert back["on"] is False and back["points"] == [1280, 720] and back["pixels"] == [2560, 1440]


def test_where_opengl_is_too_old_the_cpu_path_still_has_the_displays_pixels():
    """The GPU asked for, Mesa made to offer only OpenGL 3.0: one line says so, and the
    window the CPU path opens instead is the HiDPI one, drawn at 2560×1440."""
    out = probe("gpu", MESA_GL_VERSION_OVERRIDE="3.0", MESA_GLSL_VERSION_OVERRIDE="130")
    lines = [line for line in out["stderr"].splitlines() if line.strip() and not line.startswith("pygame-ce ")]
    assert len(lines) == 1 and "no OpenGL here" in lines[0] and "on the CPU" in lines[0], out["stderr"]
    assert out["gpu"] is False and out["own_window"] is True
    assert out["opened"]["pixels"] == [2560, 1440] and out["shown"]["size"] == [2560, 1440]
    assert out["click"]["landed"] == out["click"]["target"] and out["click"]["opened"] == "decks"


def test_windows_is_asked_for_dpi_awareness_and_the_players_own_setting_wins():
    env: dict[str, str] = {}
    hidpi_hints(env, "win32")
    assert env == {"SDL_WINDOWS_DPI_AWARENESS": "permonitorv2", "SDL_WINDOWS_DPI_SCALING": "1"}
    own = {"SDL_WINDOWS_DPI_AWARENESS": "system"}
    hidpi_hints(own, "win32")
    assert own["SDL_WINDOWS_DPI_AWARENESS"] == "system" and own["SDL_WINDOWS_DPI_SCALING"] == "1"
    for other in ("linux", "darwin"):
        untouched: dict[str, str] = {}
        hidpi_hints(untouched, other)
        assert untouched == {}


@pytest.mark.parametrize(
    "driver,wanted",
    [("wayland", True), ("cocoa", True), ("windows", True), ("x11", False), ("dummy", False), ("offscreen", False)],
)
def test_which_displays_get_the_high_dpi_window(driver, wanted, monkeypatch):
    display = SimpleNamespace(get_init=lambda: True, get_driver=lambda: driver)
    pg = SimpleNamespace(display=display)
    monkeypatch.delenv("CARDAVIA_HIDPI", raising=False)
    assert wants_hidpi_window(pg) is wanted
    monkeypatch.setenv("CARDAVIA_HIDPI", "0")  # the way back to the display module's window
    assert wants_hidpi_window(pg) is False
