"""The game window: a 1280×720 logical display that SDL scales to the window.

The display is opened with pygame-ce's ``SCALED`` flag: pygame draws on a 1280×720 surface
and SDL's renderer stretches it to the window (on the graphics card where there is one),
letterboxed so nothing is ever cut off, and maps mouse positions back to canvas pixels. The
game never scales a frame itself.

Two SDL settings make it behave like a resizable game window rather than a pixel-art one:
linear filtering (a smooth picture at any size; pygame's default is nearest) and fractional
scaling (the picture fills the window at any size; pygame's default in a window is whole
multiples only). Both are environment hints read when the display is created, so the
player's own environment wins when it sets them.

Where a graphics context can be had (``render`` "auto" or "gpu"), the display is an OpenGL
one instead (:mod:`scenes.gl_window`): the canvas is an off-screen surface, and the present
uploads it once and lets a shader post-process and scale it; mouse positions are mapped
back through the same letterbox here.

Fullscreen goes through the window (``pygame.Window``) rather than a second ``set_mode``:
switching keeps the same display surface and renderer.
"""
from __future__ import annotations

import os
import warnings
from typing import Any

CANVAS_SIZE = (1280, 720)
MIN_WINDOW = (320, 180)

#: The window this process opened (SCALED or OpenGL), reused by a later GameWindow, and its
#: OpenGL presenter (None on the CPU path).
_OPEN: Any = None
_GL: Any = None


class GameWindow:
    """Opens the SCALED display once and switches it between a window and fullscreen."""

    def __init__(self, pg: Any, size: tuple[int, int] | None = None, render: str = "auto"):
        self.pg = pg
        self.size = tuple(size or CANVAS_SIZE)
        self.render = render  # "auto", "cpu" or "gpu" (scenes.gl_window.RENDER_PATHS)
        self.window: Any = None  # pygame.Window of the display
        self.surface: Any = None  # the 1280×720 canvas: the SCALED display surface, or off-screen for OpenGL
        self.gl: Any = None  # the GLPresenter on the GPU path

    @property
    def gpu(self) -> bool:
        """Whether the shader post-processes the frame (the app then skips the CPU pass)."""
        return self.gl is not None

    def open(self, fullscreen: bool) -> Any:
        """Show the window (or go fullscreen) and return the 1280×720 display surface."""
        global _OPEN, _GL
        pg = self.pg
        if _OPEN is None and self.render != "cpu":
            from scenes.gl_window import open_gl

            if pg.display.get_surface() is not None:
                pg.display.quit()
                pg.display.init()
            _GL = open_gl(pg, self.size, CANVAS_SIZE, self.render)
            if _GL is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    _OPEN = pg.Window.from_display_module()
        if _OPEN is None:
            if pg.display.get_surface() is not None:
                # A plain display exists (a headless app came first): SDL cannot turn it into a
                # SCALED one in place on every platform, so start the video system afresh.
                pg.display.quit()
                pg.display.init()
            os.environ.setdefault("SDL_RENDER_SCALE_QUALITY", "linear")  # smooth, like the old smoothscale
            os.environ.setdefault("SDL_HINT_RENDER_SCALE_QUALITY", "1")  # pygame: fractional scaling, fill the window
            with warnings.catch_warnings():
                # "no fast renderer available": a machine without a graphics driver (or the
                # dummy driver) scales in software, which works; the player need not be told.
                warnings.simplefilter("ignore")
                pg.display.set_mode(CANVAS_SIZE, pg.SCALED | pg.RESIZABLE | pg.HIDDEN)
                # The display's own window, for size and fullscreen (pygame-ce offers no other
                # handle on a SCALED display's window).
                _OPEN = pg.Window.from_display_module()
        self.window = _OPEN
        self.gl = _GL
        self.surface = _GL.canvas if _GL is not None else pg.display.get_surface()
        self.window.minimum_size = MIN_WINDOW  # SCALED sets 1280×720; the old window shrank freely
        self.set_fullscreen(fullscreen)
        self.window.show()
        return self.surface

    def set_fullscreen(self, on: bool) -> None:
        """Fullscreen at the desktop's resolution (letterboxed by SDL), or back to the window
        at its opening size."""
        if self.window is None:
            return
        if on:
            self.window.set_fullscreen(desktop=True)
        else:
            self.window.set_windowed()
            self.window.size = self.size

    @property
    def fullscreen(self) -> bool:
        return bool(self.window is not None and self.pg.display.is_fullscreen())

    def window_size(self) -> tuple[int, int]:
        """The window's size in screen pixels (the canvas is always 1280×720)."""
        return tuple(self.window.size) if self.window is not None else CANVAS_SIZE

    def present(self, postfx: Any = None, time: float = 0.0) -> None:
        """Hand the 1280×720 frame to the window: SDL scales it (CPU path: it is already
        post-processed), or the shader post-processes and scales it (GPU path)."""
        if self.gl is not None and postfx is not None:
            self.gl.present(postfx, time)
        else:
            self.pg.display.flip()

    def finished(self, postfx: Any, time: float) -> Any:
        """The frame as shown, at canvas size (screenshots): on the GPU path read back from
        the shader; on the CPU path the canvas already is."""
        return self.gl.finished(postfx, time) if self.gl is not None else self.surface

    def to_canvas(self, pos: Any) -> Any:
        """A mouse position in canvas pixels: SDL maps them on the SCALED display; on the
        OpenGL one they are window pixels and go through the letterbox here."""
        return self.gl.to_canvas(pos) if self.gl is not None else pos


__all__ = ["GameWindow", "CANVAS_SIZE", "MIN_WINDOW"]
