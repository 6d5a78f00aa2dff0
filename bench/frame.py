"""Frame-time benchmark: a busy table-like frame with every picture slider away from
neutral, drawn, post-processed and *presented* in a window of each size, under the dummy
video driver (the gpu mode: a real one, e.g. Xvfb with Mesa's llvmpipe).

Since native resolution (issue 33) the frame is *drawn at the window's pixels*: at 2560×1440
the table, 40 cards and the text are drawn at 2560×1440 (sprites/hidpi: text, cards and the
felt rendered once at that scale and cached), so "draw" grows with the window.

Three ways to present, each measured in its own process (SDL cannot mix them in one):
  gpu          the game's GPU path (scenes/gl_window.py): an OpenGL window; the native
               canvas is uploaded once as a texture and a shader post-processes it into the
               window pixel for pixel, so "postfx" costs the CPU nothing and "present" is
               upload + draw call + swap. Needs an OpenGL 3.3 context: under the dummy
               driver it is reported missing
  cpu          the game's CPU path: the CPU post-processing pass over the native canvas,
               copied into a plain window and flipped
  smoothscale  the way before native resolution, for comparison: a 1280×720 canvas,
               post-processed on the CPU, smoothscaled to the window's letterbox (soft)

For each mode and window size it prints p50 / p90 in ms of
  draw      background + 40 cards + text
  postfx    the post-processing pass
  present   handing the frame to the window
  frame     the three together
as the drawing thread's CPU time (time.thread_time, so other processes on a shared
machine do not inflate them), the whole frame's wall-clock p50, and the process's CPU p50
(all its threads: with Mesa's software OpenGL the shader runs on the CPU in llvmpipe's own
threads, which a graphics card would take over).

Usage: SDL_VIDEODRIVER=dummy .venv/bin/python bench/frame.py [--frames N]
           [--present gpu|cpu|smoothscale|both] [--sizes 1280x720,2560x1440,3840x2160]
       the gpu mode here: xvfb-run -a -s "-screen 0 3840x2160x24" .venv/bin/python bench/frame.py
       (with a DISPLAY, "both" runs the gpu mode under the x11 driver, the others under dummy)
Goal (issue 33): frame p50 ≤ 2.5 ms at 1280×720 on the path a player with a graphics card gets.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from game.config import get_config  # noqa: E402
from scenes.window import CANVAS_SIZE, GameWindow  # noqa: E402
from sprites import theme  # noqa: E402
from sprites.postfx import PostFX  # noqa: E402
from sprites.widgets import card_art  # noqa: E402

SIZES = ((1280, 720), (2560, 1440), (3840, 2160))
MODES = ("gpu", "cpu", "smoothscale")
PARTS = ("draw", "postfx", "present", "frame")


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


# ---------------------------------------------------------------------- the presenters
class NativePresent:
    """The game's window (scenes/window.py): the canvas at the window's native size; the
    CPU pass and a copy into the window (cpu), or the shader (gpu)."""

    def __init__(self, fx: PostFX, render: str) -> None:
        self.win = GameWindow(pygame, CANVAS_SIZE, render)
        self.canvas = self.win.open(False)
        if render == "gpu" and not self.win.gpu:
            raise RuntimeError("no OpenGL 3.3 context here (the dummy driver has none: run under X or Xvfb)")
        self.fx = fx
        self.time = 0.0

    def resize(self, size: tuple[int, int]) -> pygame.Surface:
        self.win.size = size
        self.win.set_fullscreen(False)  # back to a window of self.win.size
        pygame.event.pump()
        self.win.layout()
        self.canvas = self.win.surface
        self.fx.resize(self.win.frame.get_size())
        return self.canvas

    @property
    def frame(self) -> pygame.Surface:
        return self.win.frame

    def window_size(self) -> tuple[int, int]:
        return self.win.drawable_size()

    def present(self) -> None:
        self.win.present(self.fx if self.win.gpu else None, self.time)


class SmoothscalePresent:
    """The old way (until the structure issue): a plain window of the full size, the canvas
    smoothscaled on the CPU to the largest letterbox that fits, blitted, flipped."""

    def __init__(self) -> None:
        pygame.display.set_mode(CANVAS_SIZE, pygame.RESIZABLE)
        self.canvas = pygame.Surface(CANVAS_SIZE).convert()
        self.scaled: pygame.Surface | None = None

    def resize(self, size: tuple[int, int]) -> pygame.Surface:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        self.scaled = None
        return self.canvas

    @property
    def frame(self) -> pygame.Surface:
        return self.canvas

    def window_size(self) -> tuple[int, int]:
        return pygame.display.get_surface().get_size()

    def present(self) -> None:
        window = pygame.display.get_surface()
        if window.get_size() == CANVAS_SIZE:
            window.blit(self.canvas, (0, 0))
        else:
            ww, wh = window.get_size()
            scale = min(ww / CANVAS_SIZE[0], wh / CANVAS_SIZE[1])
            w, h = max(1, round(CANVAS_SIZE[0] * scale)), max(1, round(CANVAS_SIZE[1] * scale))
            if self.scaled is None or self.scaled.get_size() != (w, h):
                self.scaled = pygame.Surface((w, h)).convert()
                window.fill((0, 0, 0))
            pygame.transform.smoothscale(self.canvas, (w, h), self.scaled)
            window.blit(self.scaled, ((ww - w) // 2, (wh - h) // 2))
        pygame.display.flip()


# ---------------------------------------------------------------------- measuring
def _p(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(round(len(s) * q)) - 1))]


def measure(mode: str, sizes: list[tuple[int, int]], frames: int) -> list[dict]:
    """One mode, every size: p50 / p95 of each part, in this process."""
    pygame.display.init()
    pygame.font.init()
    fx = PostFX(CANVAS_SIZE)
    fx.configure(contrast=68, grain=76, temperature=36)
    presenter = NativePresent(fx, mode) if mode in ("gpu", "cpu") else SmoothscalePresent()
    gpu = mode == "gpu"
    results = []
    for size in sizes:
        canvas = presenter.resize(size)
        frame = presenter.frame
        # Made after the resize: at native resolution the pieces are rendered at its scale.
        bg = theme.table_background(CANVAS_SIZE)
        placed, shadow, labels = build_scene()

        def draw(canvas: pygame.Surface = canvas, bg=bg, placed=placed, shadow=shadow, labels=labels) -> None:
            canvas.blit(bg, (0, 0))
            for img, (x, y) in placed:
                canvas.blit(shadow, (x - 5 + 2, y - 5 + 3))
                canvas.blit(img, (x, y))
            for img, pos in labels:
                canvas.blit(img, pos)

        def postfx(t: float, frame: pygame.Surface = frame) -> None:
            if gpu:
                presenter.time = t  # the shader applies it in the present
            else:
                fx.apply(frame, t)

        for i in range(20):  # warm caches (noise tiles, format conversions, scale buffers)
            draw()
            postfx(i / 60)
            presenter.present()
        times: dict[str, list[float]] = {k: [] for k in (*PARTS, "wall", "process")}
        clock = time.thread_time
        for i in range(frames):
            w0 = time.perf_counter()
            p0 = time.process_time()
            a = clock()
            draw()
            b = clock()
            postfx(i / 60)
            c = clock()
            presenter.present()
            d = clock()
            times["wall"].append((time.perf_counter() - w0) * 1000)
            times["process"].append((time.process_time() - p0) * 1000)
            for k, v in (("draw", b - a), ("postfx", c - b), ("present", d - c), ("frame", d - a)):
                times[k].append(v * 1000)
        renderer = presenter.win.gl.renderer if gpu else (pygame.display._get_renderer_info() or ("none",))[0]
        row = {
            "mode": mode,
            "size": list(size),
            "window": list(presenter.window_size()),
            "frames": frames,
            "renderer": renderer,
            "canvas": list(frame.get_size()),
        }
        for k in PARTS:
            row[k] = [round(statistics.median(times[k]), 2), round(_p(times[k], 0.90), 2)]
        row["wall_p50"] = round(statistics.median(times["wall"]), 2)
        row["process_p50"] = round(statistics.median(times["process"]), 2)
        if gpu:
            row["upload"] = _gl_upload_p50(presenter.win.gl, frames)
        results.append(row)
    pygame.quit()
    return results


def _gl_upload_p50(gl, frames: int) -> float:
    """The GPU path's texture upload alone, at the canvas's native size (thread CPU)."""
    times = []
    for _ in range(frames):
        a = time.thread_time()
        gl.fx.upload(gl.canvas)
        gl.ctx.finish()  # the copy is done by the time the call returns (llvmpipe copies here)
        times.append((time.thread_time() - a) * 1000)
    return round(statistics.median(times), 2)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes look like 1920x1080, not {text!r}") from None
    if not (320 <= w <= 8192 and 180 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"{w}x{h} is out of range (320x180 to 8192x8192)")
    return w, h


def _print(rows: list[dict]) -> None:
    print(
        f"{'mode':<12} {'window':>10} {'drawn at':>10}  "
        + "  ".join(f"{k + ' p50/p90':>17}" for k in PARTS)
        + "   wall p50  process p50"
    )
    for r in rows:
        w, h = r["window"]
        cw, ch = r["canvas"]
        cells = "  ".join(f"{r[k][0]:>8.2f} /{r[k][1]:>7.2f}" for k in PARTS)
        print(
            f"{r['mode']:<12} {f'{w}x{h}':>10} {f'{cw}x{ch}':>10}  {cells}   {r['wall_p50']:>8.2f}  "
            f"{r['process_p50']:>11.2f}"
        )
    print(
        "(ms per frame, drawing thread CPU; wall = the whole frame by the clock; "
        f"{rows[0]['frames'] if rows else 0} frames per size)"
    )
    gpu = [r for r in rows if r["mode"] == "gpu"]
    if gpu:
        print(
            f"gpu: OpenGL renderer {gpu[0]['renderer']}; the texture upload alone (p50, thread CPU): "
            + ", ".join(f"{r['canvas'][0]}x{r['canvas'][1]} {r['upload']:.2f} ms" for r in gpu)
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200, help="measured frames per window size (default 200)")
    ap.add_argument(
        "--present",
        choices=(*MODES, "both"),
        default="both",
        help="how the frame reaches the window (default: both = all three, one process each)",
    )
    ap.add_argument(
        "--sizes",
        default=",".join(f"{w}x{h}" for w, h in SIZES),
        help="window sizes, comma-separated (default 1280x720,2560x1440,3840x2160)",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON (one mode; used by 'both')")
    args = ap.parse_args(argv)
    try:
        sizes = [_size(s) for s in args.sizes.split(",") if s.strip()]
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if args.frames < 1:
        ap.error("--frames must be at least 1")
    if args.present != "both":
        try:
            rows = measure(args.present, sizes, args.frames)
        except RuntimeError as e:
            if args.json:
                print(json.dumps([{"mode": args.present, "missing": str(e)}]))
                return 0
            print(f"frame: {args.present}: {e}", file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(rows))
        else:
            _print(rows)
        return 0
    rows = []
    missing = []
    for mode in MODES:  # each in a fresh process: a SCALED, an OpenGL and a plain window do not mix
        env = dict(os.environ)
        if mode == "gpu" and os.environ.get("DISPLAY"):
            env["SDL_VIDEODRIVER"] = "x11"  # OpenGL needs a real display (X or Xvfb)
        r = subprocess.run(
            [
                sys.executable,
                __file__,
                "--present",
                mode,
                "--frames",
                str(args.frames),
                "--sizes",
                args.sizes,
                "--json",
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        if r.returncode != 0:
            print(f"frame: the {mode} run failed:\n{r.stderr.strip()}", file=sys.stderr)
            return 1
        got = json.loads(r.stdout.strip().splitlines()[-1])
        missing += [f"{g['mode']}: {g['missing']}" for g in got if "missing" in g]
        rows += [g for g in got if "missing" not in g]
    _print(rows)
    for line in missing:
        print(f"not measured: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
