"""The game window: a 1280×720 logical canvas drawn at the window's own pixels.

Scenes lay out and draw in logical canvas pixels (1280×720). The canvas is drawn at native
resolution: its pixels are the window's (the largest 16:9 rectangle that fits, letterboxed,
and on a HiDPI display the drawable's pixels, not the points), so at 2560×1440 every line,
letter and card is drawn at 2560×1440, never enlarged from 1280×720. The UI scale (window
pixels per logical pixel) is :mod:`sprites.hidpi`'s: at scale 1 the canvas is a plain pygame
surface (a 1280×720 window draws straight on the display surface, as it always did); above
it the canvas is a :class:`sprites.hidpi.Hi` surface that takes logical coordinates and draws
sharp. Text, cards and the felt are rendered and cached per scale; a resize that changes the
scale renders them again on the next frame (:meth:`GameWindow.layout`), never per frame.

Mouse positions arrive in window points and go through the same transform back to logical
pixels (:meth:`GameWindow.to_canvas`).

Where a graphics context can be had (``render`` "auto" or "gpu"), the display is an OpenGL
one instead (:mod:`scenes.gl_window`): the canvas is an off-screen surface of the same
native size, and the present uploads it once and lets a shader post-process it. On the CPU
path the canvas is blitted into a plain resizable window (or *is* the window surface when
they coincide).

Fullscreen goes through the window (``pygame.Window``) rather than a second ``set_mode``.

**HiDPI.** ``pygame.display.set_mode`` never asks SDL for a high-DPI drawable, so where a
window's points and pixels can differ (macOS's Retina screens, Wayland's output scale,
Windows with DPI scaling: :data:`HIDPI_DRIVERS`) the window is a ``pygame.Window`` opened
with ``allow_high_dpi`` instead, plain or OpenGL, and the picture is drawn at the drawable's
pixels (twice the points at a scale of 2). Elsewhere (X11, the dummy driver) the window is
the display module's, as it always was. On Windows :func:`hidpi_hints` asks SDL, before the
display starts, for per-monitor DPI awareness with points as coordinates, which gives its
windows the same high-DPI drawable.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import MutableMapping
from types import ModuleType
from typing import TYPE_CHECKING

import pygame

from sprites import hidpi

if TYPE_CHECKING:
    from scenes.gl_window import GLPresenter
    from sprites.postfx import PostFX

CANVAS_SIZE = (1280, 720)
#: What the canvas is until the window opens or an offscreen canvas is made.
_NO_CANVAS = pygame.Surface((1, 1))
MIN_WINDOW = (320, 180)
TITLE = "Cardavia"
#: SDL video drivers whose windows can have more pixels than points: the window is then a
#: ``pygame.Window(allow_high_dpi=True)`` (``CARDAVIA_HIDPI=0`` keeps the display module's).
HIDPI_DRIVERS = ("cocoa", "wayland", "windows")


def hidpi_hints(environ: MutableMapping[str, str] | None = None, platform: str | None = None) -> None:
    """Before the display starts: on Windows, ask SDL for per-monitor DPI awareness with
    window sizes in points, so that ``allow_high_dpi`` windows get the screen's real pixels
    (without it Windows draws the window at 96 dpi and enlarges it, soft). A value the
    player set wins; other systems need nothing."""
    environ = os.environ if environ is None else environ
    if (sys.platform if platform is None else platform) == "win32":
        environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")
        environ.setdefault("SDL_WINDOWS_DPI_SCALING", "1")


def wants_hidpi_window(pg: ModuleType) -> bool:
    """Whether this display's windows may have more pixels than points (and so are opened
    as ``pygame.Window(allow_high_dpi=True)``)."""
    if os.environ.get("CARDAVIA_HIDPI", "1") == "0" or not pg.display.get_init():
        return False
    return pg.display.get_driver() in HIDPI_DRIVERS


#: The window this process opened (plain or OpenGL), reused by a later GameWindow, and its
#: OpenGL presenter (None on the CPU path).
_OPEN: pygame.Window | None = None
_GL: GLPresenter | None = None
#: Whether _OPEN is a window of its own (HiDPI) rather than the display module's.
_OWN = False


def letterbox(window: tuple[int, int], canvas: tuple[int, int] = CANVAS_SIZE) -> tuple[int, int, int, int]:
    """The largest rectangle of the canvas's shape centred in the window: (x, y, w, h)."""
    ww, wh = max(1, window[0]), max(1, window[1])
    scale = min(ww / canvas[0], wh / canvas[1])
    w, h = max(1, round(canvas[0] * scale)), max(1, round(canvas[1] * scale))
    return (ww - w) // 2, (wh - h) // 2, w, h


class GameWindow:
    """Opens the display once, switches it between a window and fullscreen, and keeps the
    native-resolution canvas in step with the window's size."""

    def __init__(self, pg: ModuleType, size: tuple[int, int] | None = None, render: str = "auto"):
        self.pg = pg
        w, h = size or CANVAS_SIZE
        self.size = (w, h)
        self.render = render  # "auto", "cpu" or "gpu" (scenes.gl_window.RENDER_PATHS)
        self.window: pygame.Window | None = None  # pygame.Window of the display
        self.surface: pygame.Surface = _NO_CANVAS  # the canvas scenes draw on (logical 1280×720)
        self.frame: pygame.Surface = _NO_CANVAS  # the canvas's own pixels as a plain surface (post-processing, present)
        self.gl: GLPresenter | None = None  # the GLPresenter on the GPU path
        self.box = (0, 0, *CANVAS_SIZE)  # the canvas in the drawable's pixels (x, y, w, h)
        self.scale = 1.0  # drawable pixels per logical pixel
        self.pixel_ratio = 1.0  # drawable pixels per window point (above 1 on HiDPI displays)
        self.own_window = False  # a pygame.Window with a high-DPI drawable, not the display module's
        self._fullscreen = False

    @property
    def gpu(self) -> bool:
        """Whether the shader post-processes the frame (the app then skips the CPU pass)."""
        return self.gl is not None

    def open(self, fullscreen: bool) -> pygame.Surface:
        """Show the window (or go fullscreen) and return the canvas."""
        global _OPEN, _GL, _OWN
        pg = self.pg
        hidpi_window = wants_hidpi_window(pg)
        if _OPEN is None and self.render != "cpu":
            from scenes.gl_window import open_gl

            if pg.display.get_surface() is not None:
                pg.display.quit()
                pg.display.init()
            _GL = open_gl(pg, self.size, CANVAS_SIZE, self.render, own_window=hidpi_window)
            if _GL is not None and _GL.window is not None:
                _OPEN, _OWN = _GL.window, True
            elif _GL is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    _OPEN, _OWN = pg.Window.from_display_module(), False
        if _OPEN is None:
            if pg.display.get_surface() is not None:
                # A plain 1×1 display exists (a headless app came first): start afresh.
                pg.display.quit()
                pg.display.init()
            if hidpi_window:
                _OPEN = pg.Window(TITLE, self.size, resizable=True, hidden=True, allow_high_dpi=True)
                _OPEN.get_surface()  # the window's pixel format, for convert()
                _OWN = True
            else:
                pg.display.set_mode(self.size, pg.RESIZABLE | pg.HIDDEN)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # the display's own window, for size and fullscreen
                    _OPEN, _OWN = pg.Window.from_display_module(), False
        self.window = _OPEN
        self.own_window = _OWN
        self.gl = _GL
        self.window.minimum_size = MIN_WINDOW
        self.set_fullscreen(fullscreen)
        self.window.show()
        self.layout(force=True)
        return self.surface

    @property
    def close_is_quit(self) -> bool:
        """Whether closing the window must be taken as quitting: SDL says "quit" only when
        the last window closes, and the HiDPI OpenGL window keeps a hidden one beside it."""
        return self.gl is not None and getattr(self.gl, "format_window", None) is not None

    def set_icon(self, icon: pygame.Surface) -> None:
        """The window's icon (the display module's, or the HiDPI window's own)."""
        if self.own_window and self.window is not None:
            self.window.set_icon(icon)
        else:
            self.pg.display.set_icon(icon)

    def offscreen(self, size: tuple[int, int] | None = None) -> pygame.Surface:
        """No window (screenshots): the canvas for a window of ``size`` (default: the size
        asked for), at that window's native resolution."""
        w, h = size or self.size
        self.size = (w, h)
        self._make_canvas(letterbox(self.size), offscreen=True)
        return self.surface

    # ------------------------------------------------------------------ size and scale
    def drawable_size(self) -> tuple[int, int]:
        """The window's size in pixels (on a HiDPI display more than its size in points)."""
        if self.gl is not None:
            return self.gl.window_size()
        surf = self._display_surface()
        return surf.get_size() if surf is not None else self.window_size()

    def _display_surface(self) -> pygame.Surface | None:
        """The surface the window shows (its pixels), or None."""
        if self.own_window and self.window is not None:
            return self.window.get_surface()
        return self.pg.display.get_surface()

    def layout(self, force: bool = False) -> bool:
        """Fit the canvas to the window's pixels; True when its size (and so the UI scale)
        changed, which makes text, cards and the felt render again at the new size."""
        if self.window is None:
            return False
        pixels = self.drawable_size()
        points = self.window_size()
        if (pixels[0] < MIN_WINDOW[0] // 4 or pixels[1] < MIN_WINDOW[1] // 4) and self.surface is not None:
            return False  # minimised (or not shown yet): keep the canvas as it is
        self.pixel_ratio = pixels[0] / max(1, points[0])
        box = letterbox(pixels)
        if not force and box == self.box and self.surface is not None:
            return False
        self._make_canvas(box)
        return True

    def _make_canvas(self, box: tuple[int, int, int, int], offscreen: bool = False) -> None:
        pg = self.pg
        self.box = box
        self.scale = box[2] / CANVAS_SIZE[0]
        hidpi.set_scale(self.scale)
        native = (box[2], box[3])
        if self.gl is not None:
            # 32 bits a pixel, uploaded as it lies in memory (the shader swizzles the channels).
            canvas = pg.Surface(CANVAS_SIZE, 0, 32) if self.scale == 1.0 else hidpi.Hi(CANVAS_SIZE, 0, 32)
            self.gl.resize(native)
        elif offscreen:
            canvas = hidpi.surface(CANVAS_SIZE).convert()
        else:
            display = self._display_surface()
            assert display is not None  # a window is open on this path
            display.fill((0, 0, 0))  # the letterbox bars
            if self.scale == 1.0 and box[:2] == (0, 0) and display.get_size() == CANVAS_SIZE:
                canvas = display  # drawn straight on the window: nothing to copy
            else:
                canvas = hidpi.surface(CANVAS_SIZE).convert()
        self.surface = canvas
        self.frame = hidpi.plain_view(canvas)
        if self.gl is not None:
            self.gl.canvas = self.frame

    def set_fullscreen(self, on: bool) -> None:
        """Fullscreen at the desktop's resolution (letterboxed), or back to the window at its
        opening size."""
        if self.window is None:
            return
        if on:
            self.window.set_fullscreen(desktop=True)
        else:
            self.window.set_windowed()
            self.window.size = self.size
        self._fullscreen = on

    @property
    def fullscreen(self) -> bool:
        if self.window is None:
            return False
        return self._fullscreen if self.own_window else bool(self.pg.display.is_fullscreen())

    def window_size(self) -> tuple[int, int]:
        """The window's size in screen points (offscreen: the size asked for)."""
        if self.window is None:
            return self.size
        w, h = self.window.size
        return (w, h)

    # ------------------------------------------------------------------ frames
    def present(self, postfx: PostFX | None = None, time: float = 0.0) -> None:
        """Hand the frame to the window: copied into the window surface (CPU path: it is
        already post-processed), or uploaded and post-processed by the shader (GPU path)."""
        if self.gl is not None and postfx is not None:
            self.gl.present(postfx, time)
            return
        display = self._display_surface()
        if display is not None and self.surface is not display:
            display.blit(self.frame, self.box[:2])
        if self.own_window and self.window is not None:
            self.window.flip()
        else:
            self.pg.display.flip()

    def finished(self, postfx: PostFX, time: float) -> pygame.Surface:
        """The frame as shown, at the canvas's native size (screenshots): on the GPU path read
        back from the shader; on the CPU path the canvas's own pixels."""
        return self.gl.finished(postfx, time) if self.gl is not None else self.frame

    def picture(self, frame: pygame.Surface) -> pygame.Surface:
        """``frame`` (the canvas's pixels) as the whole window shows it: the letterbox bars
        added when the window is not 16:9."""
        size = self.drawable_size() if self.window is not None else self.size
        if tuple(frame.get_size()) == tuple(size):
            return frame
        out = self.pg.Surface(size)
        out.blit(frame, self.box[:2])
        return out

    def to_canvas(self, pos: tuple[float, float]) -> tuple[float, float]:
        """A mouse position (window points) in logical canvas pixels, through the letterbox
        and the UI scale (and the display's pixel ratio on HiDPI screens)."""
        x, y = pos[0] * self.pixel_ratio, pos[1] * self.pixel_ratio
        return (x - self.box[0]) / self.scale, (y - self.box[1]) / self.scale


__all__ = ["GameWindow", "CANVAS_SIZE", "MIN_WINDOW", "HIDPI_DRIVERS", "letterbox", "hidpi_hints", "wants_hidpi_window"]
