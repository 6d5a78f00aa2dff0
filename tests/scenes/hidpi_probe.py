"""Run by tests/scenes/test_hidpi_window.py on a private Weston whose output has a scale of 2
(tests/wayland.py): the game's own window, as a player on a Retina or 200 % screen gets it;
prints one JSON line. ``python hidpi_probe.py cpu|gpu``.

What it records: the window's points and pixels, the canvas and UI scale, the picture the
window shows after a present (CPU: the window's own surface; GPU: the framebuffer, read
before the swap) with its edge energy beside that of the same picture at 1280×720 enlarged,
where a click in window points lands, and the same after a resize and in fullscreen.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["CARDAVIA_HOME"] = tempfile.mkdtemp(prefix="cardavia-hidpi-")

import pygame  # noqa: E402

from game.config import get_config  # noqa: E402
from game.services.i18n import I18n  # noqa: E402
from game.services.settings import Settings  # noqa: E402
from scenes.app import App  # noqa: E402
from tests.scenes.test_native_resolution import edge_energy  # noqa: E402


def pump(seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pygame.event.pump()
        time.sleep(0.02)


def shown(app: App) -> pygame.Surface:
    """The picture the window shows now: its surface (CPU) or its framebuffer (GPU)."""
    app.render()
    win = app.window
    if win.gl is None:
        app.present()
        return win.window.get_surface().copy()
    gl = win.gl
    gl.fx.upload(gl.canvas)
    size = gl.window_size()
    gl.fx.draw(app.postfx, app.time, size)
    picture = pygame.image.frombytes(
        gl.ctx.screen.read(viewport=(0, 0, *size), components=3, alignment=1), size, "RGB", True
    )
    win.window.flip()
    return picture


def sharpness(picture: pygame.Surface) -> float:
    """Edge energy of the picture over that of the same picture at 1280×720, enlarged."""
    small = pygame.transform.smoothscale(picture.convert(32), (1280, 720))
    soft = pygame.transform.smoothscale(small, picture.get_size())
    return round(edge_energy(picture) / max(1e-9, edge_energy(soft)), 3)


def click_play(app: App) -> dict:
    """A click on Play's centre given in window points: where it lands, and what it opens."""
    app.open_path("menu", deck=next(iter(app.config.decks)))
    app.settle(20)
    play = next(w for w in app.stack.top.ui.widgets if w.name == "play")
    x, y = app.window.box[:2]
    s, r = app.window.scale, app.window.pixel_ratio
    point = ((x + play.rect.centerx * s) / r, (y + play.rect.centery * s) / r)
    landed = app.window.to_canvas(point)
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        extra = {"rel": (0, 0), "buttons": (0, 0, 0)} if kind == pygame.MOUSEMOTION else {"button": 1}
        app.dispatch(pygame.event.Event(kind, pos=point, **extra))
    app.settle(2)
    return {
        "point": [round(v, 2) for v in point],
        "landed": [round(v, 2) for v in landed],
        "target": list(play.rect.center),
        "opened": app.stack.top.name,
    }


def state(app: App) -> dict:
    w = app.window
    return {
        "points": list(w.window_size()),
        "pixels": list(w.drawable_size()),
        "ratio": round(w.pixel_ratio, 3),
        "scale": round(w.scale, 4),
        "frame": list(w.frame.get_size()),
        "box": list(w.box),
    }


def main() -> int:
    render = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    settings = Settings()
    settings.speech = "off"
    app = App(get_config(), settings, I18n("en"), window=True, persist=False, render=render)
    pump()
    app.resized()
    out: dict = {
        "driver": pygame.display.get_driver(),
        "own_window": app.window.own_window,
        "gpu": app.window.gpu,
        "opened": state(app),
    }
    app.open_path("menu", deck=next(iter(app.config.decks)))
    app.settle(20)
    picture = shown(app)
    out["shown"] = {"size": list(picture.get_size()), "sharpness": sharpness(picture)}
    out["click"] = click_play(app)
    app.window.window.size = (1000, 600)  # wider than 16:9 is not; taller: bars above and below
    pump()
    app.resized()
    out["resized"] = state(app)
    out["resized"]["click"] = click_play(app)
    out["resized"]["shown"] = list(shown(app).get_size())
    app.window.set_fullscreen(True)
    pump()
    app.resized()
    out["fullscreen"] = {**state(app), "on": app.window.fullscreen}
    app.window.set_fullscreen(False)
    pump()
    app.resized()
    out["windowed"] = {**state(app), "on": app.window.fullscreen}
    pygame.quit()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
