"""The executable build for tests/test_exe.py, started early so that it overlaps the other tests.

``make exe`` takes a minute or two (on a fresh clone it first makes its own environment), and
most of that time one core waits on PyInstaller. So the process that runs the session (the
xdist controller, or pytest itself without xdist) starts the build in the background when the
session begins, if the run covers the packaging test, and the test only waits for it. The
build's output and exit code go to a folder named by ``CARDAVIA_EXE_BUILD``, which the workers
inherit. A run that does not cover the test (another file, ``-k``, ``-m``, ``--lf``) starts no
build, and the test, if it runs after all, builds in the foreground as before.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST = Path(__file__).resolve().parent / "test_exe.py"
#: The tests that wait for the build: the one-file program's and the Debian package's (made from
#: the folder build the same PyInstaller run makes, build.spec).
TESTS = (TEST, Path(__file__).resolve().parent / "test_deb.py")
ENV = "CARDAVIA_EXE_BUILD"
COMMAND = ["make", "exe"]
TIMEOUT = 900  # seconds, for the whole build

_build: dict[str, object] = {}


def covers_the_test(config: pytest.Config) -> bool:
    """Whether this run selects a packaging test (by path; any narrowing option says no)."""
    opt = config.option
    if (
        getattr(opt, "keyword", "")
        or getattr(opt, "markexpr", "")
        or getattr(opt, "lf", False)
        or getattr(opt, "failedfirst", False)
        or getattr(opt, "collectonly", False)
        or getattr(opt, "deselect", None)
    ):
        return False
    here = Path(config.invocation_params.dir)
    for arg in config.args:
        path = (here / arg.split("::")[0]).resolve()
        if any(path == test or path in test.parents for test in TESTS):
            return True
    return False


def start(config: pytest.Config) -> None:
    """Start ``make exe`` in the background (once, in the process that runs the session)."""
    if hasattr(config, "workerinput") or os.environ.get(ENV) or not covers_the_test(config):
        return
    folder = Path(tempfile.mkdtemp(prefix="cardavia-exe-build-"))
    log = open(folder / "output.txt", "wb")  # noqa: SIM115 - closed by the waiting thread
    proc = subprocess.Popen(
        COMMAND, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
    )  # its own group: stopped whole if the session ends first

    def wait() -> None:
        try:
            code = proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            _stop(proc)
            code = proc.wait()
        log.close()
        tmp = folder / "exit.tmp"
        tmp.write_text(str(code), encoding="utf-8")
        tmp.replace(folder / "exit")  # appears whole

    thread = threading.Thread(target=wait, name="exe-build", daemon=True)
    thread.start()
    _build.update(proc=proc, thread=thread, folder=folder)
    os.environ[ENV] = str(folder)


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass


def finish() -> None:
    """At the end of the session: stop a build nobody waited for, remove its folder."""
    proc = _build.get("proc")
    if not isinstance(proc, subprocess.Popen):
        return
    if proc.poll() is None:
        _stop(proc)
    thread = _build["thread"]
    assert isinstance(thread, threading.Thread)
    thread.join(30)
    shutil.rmtree(str(_build["folder"]), ignore_errors=True)
    os.environ.pop(ENV, None)
    _build.clear()


def result() -> tuple[int, str]:
    """The build's exit code and output: the early build's once it ends, else a build run now."""
    folder = os.environ.get(ENV)
    if not folder:
        build = subprocess.run(COMMAND, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
        return build.returncode, build.stdout[-2000:] + build.stderr[-4000:]
    done = Path(folder) / "exit"
    deadline = time.monotonic() + TIMEOUT + 60
    while not done.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the background build ({' '.join(COMMAND)}) did not end in {TIMEOUT} s")
        time.sleep(0.5)
    output = (Path(folder) / "output.txt").read_text(encoding="utf-8", errors="replace")
    return int(done.read_text(encoding="utf-8")), output[-6000:]
