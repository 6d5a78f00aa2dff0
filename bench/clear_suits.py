"""Clear suits under colour vision deficiencies (issue 32): for every pack, the four suits'
colours as drawn (read off rendered cards) and the closest two suits' CIEDE2000 difference
with typical vision and under protanopia, deuteranopia and tritanopia (Machado 2009,
sprites.vision), for the packs as printed and with clear suits. With ``--shots DIR`` it
also writes a clear-suits table screenshot of each pack and its three simulations (PNG).

    .venv/bin/python bench/clear_suits.py [--shots DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from game.config import get_config  # noqa: E402
from sprites.cards import CardArt  # noqa: E402
from sprites.vision import DEFICIENCIES, closest_pair, simulate  # noqa: E402
from tests.scenes.test_clear_suits import suit_colours  # noqa: E402


def simulate_png(src: Path, dst: Path, deficiency: str) -> None:
    img = pygame.image.load(str(src))
    w, h = img.get_size()
    raw = bytearray(pygame.image.tobytes(img, "RGB"))
    cache: dict[bytes, tuple[int, int, int]] = {}
    for i in range(0, len(raw), 3):
        k = bytes(raw[i : i + 3])
        out = cache.get(k)
        if out is None:
            out = cache[k] = simulate(tuple(k), deficiency)
        raw[i : i + 3] = bytes(out)
    pygame.image.save(pygame.image.frombytes(bytes(raw), (w, h), "RGB"), str(dst))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", metavar="DIR", help="also write screenshots and their simulations here")
    args = ap.parse_args()
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1), pygame.HIDDEN)
    cfg = get_config()
    print(f"{'pack':18} {'look':8} " + " ".join(f"{d or 'typical':>13}" for d in (None, *DEFICIENCIES)))
    for deck_id, deck in cfg.decks.items():
        for clear in (False, True):
            colours = suit_colours(CardArt(deck, clear=clear))
            gaps = [closest_pair(colours, d) for d in (None, *DEFICIENCIES)]
            cells = " ".join(f"{g:6.1f} ({a}/{b})" for g, a, b in gaps)
            print(f"{deck_id:18} {'clear' if clear else 'printed':8} {cells}")
        if args.shots:
            out = Path(args.shots)
            out.mkdir(parents=True, exist_ok=True)
            shot = out / f"{deck_id}-clear.png"
            subprocess.run(
                [
                    sys.executable,
                    str(ROOT / "main.py"),
                    "--screenshot",
                    str(shot),
                    "--scene",
                    "table",
                    "--game",
                    deck.games[0],
                    "--deck",
                    deck_id,
                    "--seed",
                    "3",
                    "--clear-suits",
                    "--force",
                ],
                check=True,
            )
            for d in DEFICIENCIES:
                simulate_png(shot, out / f"{deck_id}-clear-{d}.png", d)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
