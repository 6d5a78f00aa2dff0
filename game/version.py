"""The program's one version: ``[project] version`` in pyproject.toml.

Everything that names a version (``--version``, the menu's foot, each record's ``match`` line,
crash reports, the online server's greeting, the packages' names) asks here, so a release
changes one line. A built program carries pyproject.toml beside its data (build.spec).
"""

from __future__ import annotations

import sys
import tomllib
from functools import lru_cache
from pathlib import Path

#: What is named when pyproject.toml cannot be read (a damaged install): never a crash.
UNKNOWN = "0+unknown"


def pyproject_path() -> Path:
    """pyproject.toml: inside a built program's data, else at the top of the source tree."""
    frozen = getattr(sys, "_MEIPASS", None)
    base = Path(frozen) if frozen else Path(__file__).resolve().parents[1]
    return base / "pyproject.toml"


@lru_cache(maxsize=1)
def version() -> str:
    """The version, e.g. ``"0.1.0"``."""
    try:
        with open(pyproject_path(), "rb") as f:
            value = tomllib.load(f)["project"]["version"]
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return UNKNOWN
    return value if isinstance(value, str) and value.strip() else UNKNOWN


__all__ = ["UNKNOWN", "pyproject_path", "version"]
