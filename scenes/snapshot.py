"""PNG files the window writes (F12 and ``--screenshot``): encoded in memory first, then
written by game.storage.write_bytes — a tempfile-made temporary beside the target, fsync,
rename — so a full disk is reported as a failure and leaves no truncated PNG, and a
symbolic link at the target is never written through."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pygame

from game.storage import write_bytes


def save_png(surface: Any, path: Path, overwrite: bool = False) -> str | None:
    """Write ``surface`` to ``path`` as PNG. None on success, else a one-line problem
    (``path`` exists and not ``overwrite``, a link, the disk is full …)."""
    buf = io.BytesIO()
    try:
        pygame.image.save(surface, buf, "frame.png")
    except (pygame.error, OSError, ValueError) as e:
        return f"the picture could not be encoded ({e})"
    return write_bytes(path, buf.getvalue(), overwrite=overwrite)


__all__ = ["save_png"]
