"""A private Wayland compositor with a HiDPI output, for the tests of the high-DPI window.

:func:`weston_display` starts Weston's headless backend (no screen, no GPU) with an output
scale of 2, as a Retina or 200 % screen has, on a socket of its own in a temporary runtime
folder; waits for the socket at most ``START_TIMEOUT`` seconds; stops it afterwards. SDL's
Wayland driver then gives a window opened with ``allow_high_dpi`` twice as many pixels as
points — the real thing, not a simulation. ``make test`` installs Weston (the Makefile's
``system`` step); a machine that cannot have it sets ``CARDAVIA_NO_WAYLAND=1``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.xvfb import stop_server

NO_WAYLAND_ENV = "CARDAVIA_NO_WAYLAND"
START_TIMEOUT = 15.0


def require_wayland(reason: str) -> None:
    """Fail (or skip, where the machine is declared to have no Weston) with ``reason``."""
    if os.environ.get(NO_WAYLAND_ENV, "") not in ("", "0"):
        pytest.skip(f"{NO_WAYLAND_ENV} is set: {reason}")
    pytest.fail(f"{reason} (install it with `make system`, or set {NO_WAYLAND_ENV}=1 on a machine without Weston)")


@contextmanager
def weston_display(scale: int = 2, size: str = "2560x1440") -> Iterator[dict[str, str]]:
    """The environment (``XDG_RUNTIME_DIR``, ``WAYLAND_DISPLAY``, ``SDL_VIDEODRIVER``) of a
    fresh headless Weston whose output has ``scale`` pixels a point; stopped on leaving."""
    if shutil.which("weston") is None:
        require_wayland("Weston is not installed")
    width, height = size.split("x")
    runtime = Path(tempfile.mkdtemp(prefix="cardavia-wl-"))
    runtime.chmod(0o700)
    socket = "cardavia-0"
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    proc = subprocess.Popen(
        [
            "weston",
            "--backend=headless-backend.so",
            f"--socket={socket}",
            f"--width={width}",
            f"--height={height}",
            f"--scale={scale}",
            "--idle-time=0",
            "--no-config",
            "--shell=desktop-shell.so",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not (runtime / socket).exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if not (runtime / socket).exists():
            require_wayland("Weston did not start")
        yield {"XDG_RUNTIME_DIR": str(runtime), "WAYLAND_DISPLAY": socket, "SDL_VIDEODRIVER": "wayland"}
    finally:
        stop_server(proc)
        shutil.rmtree(runtime, ignore_errors=True)
