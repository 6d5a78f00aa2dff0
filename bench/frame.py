"""Frame-time benchmark: a busy table-like frame at 1280×720 with every picture slider
away from neutral, under the dummy video driver.

Prints:
  frame p50 ms: X     (background + 40 cards + text + post-processing)
  frame p95 ms: Y
  postfx p50 ms: Z    (the post-processing pass alone)
  wall frame p50 ms: W

X, Y, Z are the drawing thread's CPU time per frame (time.thread_time), so other processes
on a shared machine do not inflate them; W is the wall-clock median for comparison (on an
idle machine the two agree).

Usage: SDL_VIDEODRIVER=dummy .venv/bin/python bench/frame.py [--frames N]
Goal: frame p50 ≤ 3 ms on the project machine (2 cores).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from game.config import get_config  # noqa: E402
from sprites import theme  # noqa: E402
from sprites.postfx import PostFX  # noqa: E402
from sprites.widgets import card_art  # noqa: E402

SIZE = (1280, 720)


def build_scene():
    """Pre-rendered pieces, as a real table scene would cache them."""
    deck = get_config().decks["piacentine"]
    art = card_art(deck)
    codes = [r + s for s in "DCSB" for r in ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")]
    faces = [art.face(c, 132, "en") for c in codes]
    back = art.back(110)
    cw, ch = art.size(132)
    shadow = theme.shadow((cw, ch), 8, 5, 110)
    placed = []
    # Table: 10 cards in two rows; hand: 3 fanned; captured piles and opponents' backs.
    for i in range(10):
        placed.append((faces[i], (300 + (i % 5) * (cw + 18), 250 + (i // 5) * (ch + 16))))
    for i in range(3):
        placed.append((faces[10 + i], (500 + i * (cw + 12), 560)))
    for i in range(12):
        placed.append((back, (420 + i * 28, 40)))
    for i in range(15):
        placed.append((faces[13 + i], (60 + (i % 3) * 6, 230 + i * 4)))
    labels = [
        (theme.text("SCOPA · MATCH TO 11", "cond_bold", 14, theme.BRASS, tracking=2, caps=True), (60, 30)),
        (theme.text("You 7 · AI 5", "sans_bold", 20, theme.CREAM), (1040, 30)),
        (theme.text("Stock 18", "sans", 15, theme.CREAM_DIM), (1080, 300)),
        (theme.text("Your turn: play a card", "serif", 18, theme.CREAM, shadow=1), (520, 520)),
    ]
    return placed, shadow, labels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=400)
    args = ap.parse_args(argv)
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1), pygame.HIDDEN)
    canvas = pygame.Surface(SIZE).convert()
    bg = theme.table_background(SIZE)
    placed, shadow, labels = build_scene()
    fx = PostFX(SIZE)
    fx.configure(contrast=68, grain=76, temperature=36)

    def draw(t: float) -> None:
        canvas.blit(bg, (0, 0))
        for img, (x, y) in placed:
            canvas.blit(shadow, (x - 5 + 2, y - 5 + 3))
            canvas.blit(img, (x, y))
        for img, pos in labels:
            canvas.blit(img, pos)

    frame_ms: list[float] = []
    fx_ms: list[float] = []
    wall_ms: list[float] = []
    for i in range(30):  # warm caches (noise tiles, format conversions)
        draw(i / 60)
        fx.apply(canvas, i / 60)
    clock = time.thread_time
    for i in range(args.frames):
        t = i / 60
        w0 = time.perf_counter()
        a = clock()
        draw(t)
        b = clock()
        fx.apply(canvas, t)
        c = clock()
        wall_ms.append((time.perf_counter() - w0) * 1000)
        frame_ms.append((c - a) * 1000)
        fx_ms.append((c - b) * 1000)
    frame_ms.sort()
    print(f"frame p50 ms: {statistics.median(frame_ms):.2f}")
    print(f"frame p95 ms: {frame_ms[int(len(frame_ms) * 0.95) - 1]:.2f}")
    print(f"postfx p50 ms: {statistics.median(fx_ms):.2f}")
    print(f"wall frame p50 ms: {statistics.median(wall_ms):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
