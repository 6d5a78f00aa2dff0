"""Frame-time benchmark: a busy table-like frame at 1280×720 with every picture slider
away from neutral, drawn, post-processed and *presented* in a window of each size, under
the dummy video driver (the gpu mode: a real one, e.g. Xvfb with Mesa's llvmpipe).

Three ways to present, each measured in its own process (SDL cannot mix them in one):
  gpu          the game's GPU path (scenes/gl_window.py): an OpenGL window; the canvas is
               uploaded once as a texture and a shader post-processes and scales it, so
               "postfx" costs the CPU nothing and "present" is upload + draw call + swap.
               Needs an OpenGL 3.3 context: under the dummy driver it is reported missing
  sdl          the game's CPU path: the CPU post-processing pass, the frame drawn on the
               SCALED 1280×720 display and SDL's renderer scales it into the window
  smoothscale  the old way: a CPU smoothscale of the canvas to the window's letterbox
               every frame, blitted into a plain window

For each mode and window size it prints p50 / p90 in ms of
  draw      background + 40 cards + text
  postfx    the post-processing pass
  present   handing the frame to the window (for sdl: upload + SDL scaling + present;
            for smoothscale: the CPU scale + blit + flip)
  frame     the three together
as the drawing thread's CPU time (time.thread_time, so other processes on a shared
machine do not inflate them), the whole frame's wall-clock p50, and the process's CPU p50
(all its threads: with Mesa's software OpenGL the shader runs on the CPU in llvmpipe's own
threads, which a graphics card would take over).

Note: the dummy driver has no graphics card, so SDL scales with its *software* renderer
here; with a real driver that work moves to the GPU and "present" is little more than the
1280×720 upload.

Usage: SDL_VIDEODRIVER=dummy .venv/bin/python bench/frame.py [--frames N]
           [--present gpu|sdl|smoothscale|both] [--sizes 1280x720,2560x1440,3840x2160]
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
MODES = ("gpu", "sdl", "smoothscale")
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


# ---------------------------------------------------------------------- the two presenters
class SDLPresent:
    """The game's way: draw on the SCALED display surface; SDL scales it into the window."""

    def __init__(self) -> None:
        self.win = GameWindow(pygame, CANVAS_SIZE)
        self.canvas = self.win.open(False)

    def resize(self, size: tuple[int, int]) -> pygame.Surface:
        self.win.size = size
        self.win.set_fullscreen(False)  # back to a window of self.win.size
        pygame.event.pump()
        return self.canvas

    def window_size(self) -> tuple[int, int]:
        return self.win.window_size()

    def present(self) -> None:
        self.win.present()


class GPUPresent:
    """The game's GPU path: the OpenGL window; the shader post-processes while presenting."""

    def __init__(self, fx: PostFX) -> None:
        self.win = GameWindow(pygame, CANVAS_SIZE, "gpu")
        self.canvas = self.win.open(False)
        if not self.win.gpu:
            raise RuntimeError("no OpenGL 3.3 context here (the dummy driver has none: run under X or Xvfb)")
        self.fx = fx

    def resize(self, size: tuple[int, int]) -> pygame.Surface:
        self.win.size = size
        self.win.set_fullscreen(False)
        pygame.event.pump()
        return self.canvas

    def window_size(self) -> tuple[int, int]:
        return self.win.window_size()

    def present(self) -> None:
        self.win.present(self.fx, self.time)

    time = 0.0


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
    presenter = GPUPresent(fx) if mode == "gpu" else SDLPresent() if mode == "sdl" else SmoothscalePresent()
    gpu = mode == "gpu"
    bg = theme.table_background(CANVAS_SIZE)
    placed, shadow, labels = build_scene()
    results = []
    for size in sizes:
        canvas = presenter.resize(size)

        def draw(canvas: pygame.Surface = canvas) -> None:
            canvas.blit(bg, (0, 0))
            for img, (x, y) in placed:
                canvas.blit(shadow, (x - 5 + 2, y - 5 + 3))
                canvas.blit(img, (x, y))
            for img, pos in labels:
                canvas.blit(img, pos)

        def postfx(t: float, canvas: pygame.Surface = canvas) -> None:
            if gpu:
                presenter.time = t  # the shader applies it in the present
            else:
                fx.apply(canvas, t)

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
        row = {"mode": mode, "size": list(size), "window": list(presenter.window_size()), "frames": frames,
               "renderer": renderer}
        for k in PARTS:
            row[k] = [round(statistics.median(times[k]), 2), round(_p(times[k], 0.90), 2)]
        row["wall_p50"] = round(statistics.median(times["wall"]), 2)
        row["process_p50"] = round(statistics.median(times["process"]), 2)
        if mode == "sdl":
            row["upload"] = _upload_p50(canvas, frames)
        if gpu:
            row["upload"] = _gl_upload_p50(presenter.win.gl, frames)
        results.append(row)
    pygame.quit()
    return results


def _upload_p50(canvas: pygame.Surface, frames: int) -> float:
    """The 1280×720 texture upload alone (SDL_UpdateTexture, as the display's flip does it):
    roughly what a present costs the CPU when a graphics card does the scaling."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # from_display_module is deprecated; the only handle we have
        from pygame._sdl2 import video

        renderer = video.Renderer.from_window(video.Window.from_display_module())
    texture = video.Texture(renderer, CANVAS_SIZE, streaming=True)
    times = []
    for _ in range(frames):
        a = time.thread_time()
        texture.update(canvas)
        times.append((time.thread_time() - a) * 1000)
    return round(statistics.median(times), 2)


def _gl_upload_p50(gl, frames: int) -> float:
    """The GPU path's 1280×720 texture upload alone (thread CPU)."""
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
    print(f"{'mode':<12} {'window':>10}  " + "  ".join(f"{k + ' p50/p90':>17}" for k in PARTS)
          + "   wall p50  process p50")
    for r in rows:
        w, h = r["window"]
        cells = "  ".join(f"{r[k][0]:>8.2f} /{r[k][1]:>7.2f}" for k in PARTS)
        print(f"{r['mode']:<12} {f'{w}x{h}':>10}  {cells}   {r['wall_p50']:>8.2f}  {r['process_p50']:>11.2f}")
    print("(ms per frame, drawing thread CPU; wall = the whole frame by the clock; "
          f"{rows[0]['frames'] if rows else 0} frames per size)")
    gpu = [r for r in rows if r["mode"] == "gpu"]
    if gpu:
        print(f"gpu: OpenGL renderer {gpu[0]['renderer']}; the 1280x720 texture upload alone: p50 "
              f"{statistics.median(r['upload'] for r in gpu):.2f} ms (thread CPU)")
    uploads = [r["upload"] for r in rows if "upload" in r and r["mode"] == "sdl"]
    if uploads:
        renderer = next(r["renderer"] for r in rows if r["mode"] == "sdl")
        print(f"sdl renderer here: {renderer}; the 1280x720 texture upload alone (the CPU part of a "
              f"present when a graphics card scales): p50 {statistics.median(uploads):.2f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200, help="measured frames per window size (default 200)")
    ap.add_argument("--present", choices=(*MODES, "both"), default="both",
                    help="how the frame reaches the window (default: both = all three, one process each)")
    ap.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES),
                    help="window sizes, comma-separated (default 1280x720,2560x1440,3840x2160)")
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
        r = subprocess.run([sys.executable, __file__, "--present", mode, "--frames", str(args.frames),
                            "--sizes", args.sizes, "--json"], capture_output=True, text=True, env=env)
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
