"""Small JSON files in the user's folders: written atomically, read without ever crashing.

A file that cannot be parsed is moved aside (``name.bad``) and reported in one line, so
nothing the player had is silently overwritten and the game starts with defaults.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_json(path: Path, data: Any) -> str | None:
    """Write ``data`` as JSON atomically (temp file, fsync, rename). None on success, else a problem line."""
    tmp_name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp_name, path)
        tmp_name = None
        return None
    except (OSError, TypeError, ValueError) as e:
        return f"{path.name} could not be saved ({getattr(e, 'strerror', None) or e})"
    finally:
        if tmp_name:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass


def read_json(path: Path) -> tuple[Any, str | None]:
    """(data, problem). Missing file → (None, None). Unreadable or corrupt → (None, problem),
    and a corrupt file is moved aside as ``<name>.bad`` first."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError) as e:
        return None, f"{path.name} could not be read ({e})"
    try:
        return json.loads(text), None
    except ValueError:
        return None, quarantine(path, "was damaged")


def quarantine(path: Path, why: str) -> str:
    """Move a bad file aside (keeping it for the player) and say so in one line."""
    bad = path.with_name(path.name + ".bad")
    try:
        os.replace(path, bad)
        return f"{path.name} {why}; it was kept as {bad.name}"
    except OSError:
        return f"{path.name} {why}"
