"""Contact sheets of every deck (all faces and the back) and a render-speed figure.

    .venv/bin/python bench/cards.py [height] [lang] [outdir]

Writes <outdir>/<deck>.png (default /tmp/cards, height 180) and prints how long a cold
hand of 12 faces takes at a new height.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.cards import SUITS  # noqa: E402
from game.config import get_config  # noqa: E402
from sprites.cards import get_card_art  # noqa: E402


def sheet(deck_id: str, height: int, lang: str, out: Path) -> Path:
    deck = get_config().deck(deck_id)
    art = get_card_art(deck)
    w, h = art.size(height)
    ranks = deck.ranks()
    cols = len(ranks) + 1
    gap = 10
    img = pygame.Surface((cols * (w + gap) + gap, len(SUITS) * (h + gap) + gap))
    img.fill((0x1F, 0x5A, 0x3A))
    for j, suit in enumerate(SUITS):
        for i, rank in enumerate(ranks):
            img.blit(art.face(rank + suit, height, lang), (gap + i * (w + gap), gap + j * (h + gap)))
    img.blit(art.back(height), (gap + len(ranks) * (w + gap), gap))
    path = out / f"{deck_id}.png"
    pygame.image.save(img, str(path))
    return path


def main() -> None:
    height = int(sys.argv[1]) if len(sys.argv) > 1 else 180
    lang = sys.argv[2] if len(sys.argv) > 2 else "en"
    out = Path(sys.argv[3] if len(sys.argv) > 3 else "/tmp/cards")
    out.mkdir(parents=True, exist_ok=True)
    pygame.init()
    for deck_id in get_config().decks:
        print("wrote", sheet(deck_id, height, lang, out))
    # A cold hand of 12 at a height never asked before (what a window resize costs).
    deck = get_config().deck("bresciane")
    art = get_card_art(deck)
    hand = [r + s for s in "DS" for r in ("A", "2", "5", "7", "9", "K")]
    t0 = time.perf_counter()
    for code in hand:
        art.face(code, 211, "it")
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    for code in hand:
        art.face(code, 211, "it")
    warm = time.perf_counter() - t0
    print(f"hand of 12 at a new height: {cold * 1000:.1f} ms cold, {warm * 1000:.2f} ms cached")


if __name__ == "__main__":
    main()
