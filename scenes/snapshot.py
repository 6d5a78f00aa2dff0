"""PNG files the window writes (F12 and ``--screenshot``): encoded in memory first, then
written by game.services.storage.write_bytes — a tempfile-made temporary beside the target, fsync,
rename — so a full disk is reported as a failure and leaves no truncated PNG, and a
symbolic link at the target is never written through.

The PNG is encoded here (rows unfiltered, zlib level 6) rather than by ``pygame.image.save``:
libpng's adaptive filters and strongest compression took a quarter of a second of CPU for one
1280×720 frame (the window stalled on F12; the tests save some sixty), this about a third of
that, for a file about a tenth larger with the same pixels."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pygame

from game.services.storage import write_bytes

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: zlib's default: level 9 is several times slower for a file a few per cent smaller.
COMPRESSION = 6


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def encode_png(surface: pygame.Surface) -> bytes:
    """``surface`` as a PNG file: 8-bit RGB, or RGBA when the surface has per-pixel alpha."""
    from sprites.hidpi import plain_view

    surface = plain_view(surface)  # a native-resolution canvas: its own pixels, at the window's size
    width, height = surface.get_size()
    alpha = bool(surface.get_flags() & pygame.SRCALPHA)
    raw = pygame.image.tobytes(surface, "RGBA" if alpha else "RGB")
    stride = width * (4 if alpha else 3)
    # Each row starts with its filter type: 0, none.
    rows = b"".join(b"\x00" + raw[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, COMPRESSION))
        + _chunk(b"IEND", b"")
    )


def save_png(surface: pygame.Surface, path: Path, overwrite: bool = False) -> str | None:
    """Write ``surface`` to ``path`` as PNG. None on success, else a one-line problem
    (``path`` exists and not ``overwrite``, a link, the disk is full …)."""
    try:
        data = encode_png(surface)
    except (pygame.error, OSError, ValueError, zlib.error) as e:
        return f"the picture could not be encoded ({e})"
    return write_bytes(path, data, overwrite=overwrite)


__all__ = ["encode_png", "save_png"]
