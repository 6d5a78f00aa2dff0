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

Fullscreen goes through the window (``pygame.Window``) rather than a second ``set_mode``:
switching keeps the same display surface and renderer.
"""
from __future__ import annotations

import os
import warnings
from typing import Any

CANVAS_SIZE = (1280, 720)
MIN_WINDOW = (320, 180)

#: The window this process opened (SCALED), reused by a later GameWindow.
_OPEN: Any = None


class GameWindow:
    """Opens the SCALED display once and switches it between a window and fullscreen."""

    def __init__(self, pg: Any, size: tuple[int, int] | None = None):
        self.pg = pg
        self.size = tuple(size or CANVAS_SIZE)
        self.window: Any = None  # pygame.Window of the display
        self.surface: Any = None  # the 1280×720 display surface: the app draws straight on it

    def open(self, fullscreen: bool) -> Any:
        """Show the window (or go fullscreen) and return the 1280×720 display surface."""
        global _OPEN
        pg = self.pg
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
        self.surface = pg.display.get_surface()
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

    def present(self) -> None:
        """Hand the finished 1280×720 frame to SDL, which scales it into the window."""
        self.pg.display.flip()


__all__ = ["GameWindow", "CANVAS_SIZE", "MIN_WINDOW"]
