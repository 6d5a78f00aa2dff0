"""A private X server for the tests that need a real OpenGL context (Mesa's software one).

:func:`xvfb_display` starts ``Xvfb`` on a display number it picks itself (``-displayfd``),
waits for it at most ``START_TIMEOUT`` seconds, and stops it afterwards. A machine without
OpenGL says so with ``CARDAVIA_NO_GL=1``; everywhere else a missing Xvfb or GL is a failure
(``make test`` installs both: the Makefile's ``system`` step).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

NO_GL_ENV = "CARDAVIA_NO_GL"
START_TIMEOUT = 15.0


def no_gl_declared() -> bool:
    return os.environ.get(NO_GL_ENV, "") not in ("", "0")


def require_gl(reason: str) -> None:
    """Fail (or skip, where the machine is declared to have no OpenGL) with ``reason``."""
    if no_gl_declared():
        pytest.skip(f"{NO_GL_ENV} is set: {reason}")
    pytest.fail(f"{reason} (install it with `make system`, or set {NO_GL_ENV}=1 on a machine without OpenGL)")


@contextmanager
def xvfb_display(screen: str = "1920x1080x24") -> Iterator[str]:
    """``:N`` of a fresh Xvfb, for DISPLAY; the server is stopped on leaving."""
    if shutil.which("Xvfb") is None:
        require_gl("Xvfb is not installed")
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], START_TIMEOUT)
        number = os.read(read, 32).decode().strip() if ready else ""
        if not number.isdigit():
            require_gl("Xvfb did not start")
        yield f":{number}"
    finally:
        os.close(read)
        stop_server(proc)


def stop_server(proc: subprocess.Popen) -> None:
    """Stop a display server the tests started: politely, then for sure after 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
