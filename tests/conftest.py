"""Shared test setup: headless SDL, a private CARDAVIA_HOME, the repo on sys.path."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# The tests' files (homes, saves, records, servers' data) on a RAM disk where there is one,
# unless TMPDIR says otherwise: every save is written through fsync and a rename, and on this
# machine's shared disk each fsync waited 10-20 ms (the table tests save some 700 times).
# What the tests check of the files is the same; only the wait for the disk goes. The
# workers, the program runs and the executable's build inherit it. Not on a small /dev/shm
# (containers often have 64 MB): the packaging test unpacks the one-file program there.
RAM_DISK = "/dev/shm"


def _roomy_ram_disk(path: str, need: int = 1 << 30) -> bool:
    try:
        free = os.statvfs(path)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK) and free.f_bavail * free.f_frsize >= need


if "TMPDIR" not in os.environ and _roomy_ram_disk(RAM_DISK):
    os.environ["TMPDIR"] = RAM_DISK
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory, monkeypatch):
    """Settings, saves and statistics go to a temporary folder in every test."""
    home = tmp_path_factory.mktemp("cardavia_home")
    monkeypatch.setenv("CARDAVIA_HOME", str(home))
    yield home


def pytest_sessionstart(session: pytest.Session) -> None:
    # Before xdist starts its workers (its hook runs last): they inherit where the build writes,
    # and find the test modules already rewritten.
    from tests import exe_build, precompile

    children = precompile.start(session.config)
    exe_build.start(session.config)
    precompile.wait(children)


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests import exe_build

    exe_build.finish()


# The longest single tests, run before the short ones rather than last in the alphabet: at the
# end of a parallel run one worker finishing a 13 s test while the others have nothing left is
# time lost. The packaging tests wait for the executable's build (started when the session
# begins), so they go after the rules' tests, by which time it has ended.
LONG_FIRST = ("tests/online/server/events/", "tests/scenes/test_text_fit.py", "tests/test_bad_input.py")
AFTER_THE_RULES = ("tests/test_exe.py", "tests/test_deb.py")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    def where(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    long = [i for i in items if where(i).startswith(LONG_FIRST)]
    packaging = [i for i in items if where(i) in AFTER_THE_RULES]
    moved = {id(i) for i in long + packaging}
    rest = [i for i in items if id(i) not in moved]
    cut = next((n for n, i in enumerate(rest) if not where(i).startswith("tests/game/")), len(rest))
    items[:] = long + rest[:cut] + packaging + _spread(rest[cut:], where)


#: Test files that mostly wait (servers, their timeouts, killed processes coming back): in the
#: alphabet they come together, and three workers all waiting left the cores idle for half a
#: minute of each run. Spread between the others, one of them waits while two work.
WAITING = ("tests/online/",)


def _spread(items: list[pytest.Item], where) -> list[pytest.Item]:
    """``items`` with the waiting files' tests spread evenly between the others' files, each
    file's tests kept together (a module's fixtures are made once per worker, not once per
    stretch)."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(where(item), []).append(item)
    waiting = [tests for name, tests in files.items() if name.startswith(WAITING)]
    working = [tests for name, tests in files.items() if not name.startswith(WAITING)]
    if not waiting or not working:
        return items
    out: list[pytest.Item] = []
    step = len(working) / len(waiting)
    for k, tests in enumerate(waiting):
        out += [t for chunk in working[round(k * step) : round((k + 1) * step)] for t in chunk]
        out += tests
    return out
