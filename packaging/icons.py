"""The program's icon, drawn by the game's own card art: the Settebello (the seven of Coins)
and the King of Cups of the Piacentine pack, fanned on the green felt of the table.

    python packaging/icons.py OUT_DIR

writes ``cardavia-N.png`` at the sizes desktops ask for (16 to 512 pixels, the freedesktop
hicolor sizes), ``cardavia.ico`` (Windows) and ``cardavia.icns`` (macOS). Both containers hold
the PNGs as they are (an ICO entry and an icns ``ic0N`` element may be a PNG), so no image
library beyond pygame is needed. Nothing is committed: the release builds draw it again.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame

ROOT = Path(__file__).resolve().parent.parent
#: The freedesktop icon theme's usual application sizes.
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
#: Which PNG sizes go into the Windows icon, and each icns element's type by size.
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09"}
DECK = "piacentine"
CARDS = ("KC", "7D")  # drawn back to front


def _start_pygame() -> None:
    """pygame without a window (the environment is set before its first import)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import pygame

    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)


def master(size: int = 1024) -> pygame.Surface:
    """The icon at ``size`` pixels (the others are made from it): a rounded square of felt with
    a brass edge, two cards fanned on it."""
    _start_pygame()
    import pygame

    from game.config import get_config
    from sprites import theme
    from sprites.cards import get_card_art

    deck = get_config().decks[DECK]
    art = get_card_art(deck, clear=False)
    out = pygame.Surface((size, size), pygame.SRCALPHA)
    radius = size // 6
    pygame.draw.rect(out, theme.FELT, (0, 0, size, size), border_radius=radius)
    pygame.draw.rect(out, theme.BRASS, (0, 0, size, size), width=max(2, size // 40), border_radius=radius)
    height = round(size * 0.68)
    for code, angle, dx in zip(CARDS, (14, -10), (-0.12, 0.11), strict=True):
        face = pygame.transform.rotozoom(art.face(code, height), angle, 1.0)
        out.blit(face, face.get_rect(center=(round(size * (0.5 + dx)), round(size * 0.52))))
    return out


def pngs(out_dir: Path) -> dict[int, Path]:
    """Every size as ``cardavia-N.png`` in ``out_dir``."""
    _start_pygame()
    import pygame

    out_dir.mkdir(parents=True, exist_ok=True)
    big = master()
    paths = {}
    for n in SIZES:
        path = out_dir / f"cardavia-{n}.png"
        pygame.image.save(pygame.transform.smoothscale(big, (n, n)), str(path))
        paths[n] = path
    return paths


def ico(images: dict[int, bytes]) -> bytes:
    """A Windows .ico holding PNG images (Windows Vista and later read them)."""
    sizes = [n for n in ICO_SIZES if n in images]
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(head) + 16 * len(sizes)
    entries, data = b"", b""
    for n in sizes:
        png = images[n]
        side = 0 if n >= 256 else n  # 0 means 256 in the directory
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(data))
        data += png
    return head + entries + data


def icns(images: dict[int, bytes]) -> bytes:
    """An Apple .icns holding PNG images."""
    body = b""
    for n, kind in ICNS_TYPES.items():
        if n in images:
            body += kind + struct.pack(">I", 8 + len(images[n])) + images[n]
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python packaging/icons.py OUT_DIR", file=sys.stderr)
        return 2
    out_dir = Path(args[0])
    paths = pngs(out_dir)
    images = {n: p.read_bytes() for n, p in paths.items()}
    (out_dir / "cardavia.ico").write_bytes(ico(images))
    (out_dir / "cardavia.icns").write_bytes(icns(images))
    return 0


if __name__ == "__main__":
    sys.exit(main())
