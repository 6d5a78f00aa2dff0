"""Shared test setup: headless SDL, a private CARDAVIA_HOME, the repo on sys.path."""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
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
    # Before xdist starts its workers (its hook runs last): they inherit where the build writes.
    from tests import exe_build

    exe_build.start(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests import exe_build

    exe_build.finish()
