"""Run by tests/scenes/test_postfx_gl.py under a private Xvfb (Mesa's software OpenGL): the
same frames through the CPU and the GPU post-processing, compared; prints one JSON line.

Goes through the game's own code: the App opens its window with ``render="gpu"``, the
reference frame is drawn on its canvas, and the GPU picture is what F12 saves
(``GameWindow.finished``) or what the present draws into the window (read from the window's
framebuffer before the swap).
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["CARDAVIA_HOME"] = tempfile.mkdtemp(prefix="cardavia-gl-")

import pygame  # noqa: E402

from game.config import get_config  # noqa: E402
from game.services.i18n import I18n  # noqa: E402
from game.services.settings import Settings  # noqa: E402
from scenes.app import App  # noqa: E402

SETTINGS = [(68, 50, 36), (100, 50, 0), (0, 50, 100), (20, 40, 70), (50, 50, 50)]


def reference(size: tuple[int, int]) -> pygame.Surface:
    """Every level of every channel (ramps), and coloured blocks like cards and text."""
    rng = random.Random(33)
    s = pygame.Surface(size, 0, 32)
    s.fill((31, 90, 58))
    for x in range(size[0]):
        v = x % 256
        pygame.draw.line(s, (v, v, v), (x, 0), (x, 59))
        pygame.draw.line(s, (v, 255 - v, (v * 7) % 256), (x, 60), (x, 119))
    for _ in range(300):
        col = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        pygame.draw.rect(
            s,
            col,
            (rng.randrange(size[0]), 120 + rng.randrange(size[1] - 120), rng.randrange(4, 80), rng.randrange(4, 60)),
        )
    return s


def histogram(data: bytes) -> list[int]:
    return [data.count(v) for v in range(256)]  # 256 scans in C: far quicker than a Python loop


def diff(a: pygame.Surface, b: pygame.Surface) -> dict[str, float]:
    """Mean and largest absolute difference over every channel of every pixel."""
    x, y = pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB")
    if x == y:
        return {"mean": 0.0, "max": 0}
    a, b = a.convert(32), b.convert(32)
    d = a.copy()
    d.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(a - b, 0)
    e = b.copy()
    e.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(b - a, 0)
    d.blit(e, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a - b|
    h = histogram(pygame.image.tobytes(d, "RGB"))
    return {"mean": round(sum(v * n for v, n in enumerate(h)) / sum(h), 4), "max": max(v for v, n in enumerate(h) if n)}


def grey_stats(s: pygame.Surface) -> dict[str, float]:
    h = histogram(pygame.image.tobytes(s, "RGB")[::3])
    n = sum(h)
    mean = sum(v * c for v, c in enumerate(h)) / n
    std = (sum(c * (v - mean) ** 2 for v, c in enumerate(h)) / n) ** 0.5
    return {"mean": round(mean, 3), "std": round(std, 3)}


def main() -> int:
    settings = Settings()
    settings.speech = "off"
    app = App(get_config(), settings, I18n("en"), window=True, persist=False, render="gpu")
    out: dict = {"gpu": app.window.gpu}
    if not app.window.gpu:
        print(json.dumps(out))
        return 0
    gl = app.window.gl
    out["renderer"] = gl.renderer
    size = app.canvas.get_size()
    ref = reference(size)
    out["f12"] = {}
    for c, g, t in SETTINGS:
        app.postfx.configure(c, g, t)
        app.canvas.blit(ref, (0, 0))
        gpu = app.window.finished(app.postfx, 0.0)
        cpu = ref.copy()
        app.postfx.apply(cpu, 0.0)
        out["f12"][f"{c}/{g}/{t}"] = diff(cpu, gpu)
    # The present: drawn into the window (1280×720 here), read from the window's framebuffer.
    app.postfx.configure(68, 50, 36)
    app.canvas.blit(ref, (0, 0))
    gl.fx.upload(app.canvas)
    gl.fx.draw(app.postfx, 0.0, gl.window_size())
    shown = pygame.image.frombytes(gl.ctx.screen.read(components=3, alignment=1), size, "RGB", True)
    pygame.display.flip()
    cpu = ref.copy()
    app.postfx.apply(cpu, 0.0)
    out["present"] = {"window": list(gl.window_size()), **diff(cpu, shown)}
    # A real scene through the app's own render and F12 screenshot.
    app.open_path("menu", deck=next(iter(app.config.decks)))
    app.settle(5)
    app.render()
    drawn = app.canvas.copy()  # on the GPU path the canvas is not post-processed
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode="", scancode=0))  # F12
    shots = sorted((Path(os.environ["CARDAVIA_HOME"]) / "screenshots").glob("*.png"))
    path = shots[-1]
    cpu = drawn.copy()
    app.postfx.apply(cpu, app.time)
    out["scene"] = diff(cpu, pygame.image.load(str(path)))
    # Grain: the same strength (standard deviation) on flat grey; moves 24 times a second.
    flat = pygame.Surface(size, 0, 32)
    flat.fill((120, 120, 120))
    out["grain"] = {}
    for level in (75, 100):
        app.postfx.configure(50, level, 50)
        cpu = flat.copy()
        app.postfx.apply(cpu, 0.0)
        app.canvas.blit(flat, (0, 0))
        a = app.window.finished(app.postfx, 0.0)
        same = app.window.finished(app.postfx, 0.5 / 24)
        later = app.window.finished(app.postfx, 1.0 / 24)
        out["grain"][str(level)] = {
            "cpu": grey_stats(cpu),
            "gpu": grey_stats(a),
            "same_film_frame": diff(a, same)["max"],
            "next_film_frame": diff(a, later)["mean"],
        }
    # A wider-than-16:9 window: the shader letterboxes (bars above and below), mouse positions
    # map back through the same letterbox, a click on a bar is dropped.
    # The canvas follows at native resolution: 1600×900 pixels, the texture too.
    app.window.window.size = (1600, 1000)
    pygame.event.pump()
    app.resized()
    wsize = gl.window_size()
    out["resized"] = list(wsize)
    out["native"] = list(app.window.frame.get_size()) + list(gl.fx.size)
    down = [app.map_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1)) for p in ((800, 500), (800, 25))]
    out["mouse"] = {
        "centre": list(app.window.to_canvas((800, 500))),
        "top_left": list(app.window.to_canvas((0, 50))),
        "click_centre": list(down[0].pos) if down[0] else None,
        "click_bar": down[1] is not None,
    }
    app.postfx.configure(68, 50, 36)
    app.canvas.blit(ref, (0, 0))  # a 1280×720 picture enlarged onto the native canvas
    gl.fx.upload(app.window.frame)
    gl.fx.draw(app.postfx, 0.0, wsize)
    shown = pygame.image.frombytes(
        gl.ctx.screen.read(viewport=(0, 0, *wsize), components=3, alignment=1), wsize, "RGB", True
    )
    cpu = ref.copy()
    app.postfx.apply(cpu, 0.0)
    scaled = pygame.transform.smoothscale(cpu.convert(32), (1600, 900))
    out["present_scaled"] = {
        "picture": diff(scaled, shown.subsurface((0, 50, 1600, 900))),
        "bars": diff(pygame.Surface((1600, 50), 0, 32), shown.subsurface((0, 0, 1600, 50))),
    }
    pygame.quit()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
