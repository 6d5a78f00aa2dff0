"""The GPU path of the window: an OpenGL display whose shader finishes the frame.

Where a graphics context can be had, the window is opened with ``OPENGL | DOUBLEBUF``
instead of a plain window. The app still draws every frame on a pygame surface (the
canvas, off-screen, at the window's native size: :mod:`scenes.window`);
:meth:`GLPresenter.present` uploads it once as a texture and one shader pass
(:mod:`sprites.postfx_gl`) applies contrast, colour temperature and grain while drawing it
letterboxed into the window, pixel for pixel. The CPU's
post-processing pass is then skipped.

Where none can be had — the dummy or offscreen driver, no OpenGL library, a driver older
than OpenGL 3.3, a failing shader — :func:`open_gl` says so in one line on stderr (only
when the GPU was asked for or a real driver failed) and returns None: the caller opens
the plain window and today's CPU path runs.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    import moderngl

    from sprites.postfx import PostFX
    from sprites.postfx_gl import GLPostFX

RENDER_PATHS = ("auto", "cpu", "gpu")
#: SDL drivers that never have OpenGL: "auto" does not even try (and says nothing).
NO_GL_DRIVERS = ("dummy", "offscreen")


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text[:160]


def open_gl(
    pg: ModuleType, size: tuple[int, int], canvas_size: tuple[int, int], render: str, own_window: bool = False
) -> GLPresenter | None:
    """Open the OpenGL window (hidden) and its shader, or None for the CPU path. With
    ``own_window`` the window is a ``pygame.Window`` with a high-DPI drawable (HiDPI displays:
    :mod:`scenes.window`), else the display module's."""
    if render == "cpu":
        return None
    driver = pg.display.get_driver() if pg.display.get_init() else ""
    if render == "auto" and driver in NO_GL_DRIVERS:
        return None
    window: pygame.Window | None = None
    format_window: pygame.Window | None = None
    try:
        import moderngl

        from sprites.postfx_gl import GLPostFX

        if own_window:
            # An OpenGL window has no surface, and convert() takes its pixel format from a
            # window's surface: a hidden 1×1 window lends it one (before the OpenGL
            # attributes below, which SDL's surface for it must not inherit).
            format_window = pg.Window("Cardavia", (1, 1), hidden=True)
            format_window.get_surface()
        pg.display.gl_set_attribute(pg.GL_CONTEXT_MAJOR_VERSION, 3)
        pg.display.gl_set_attribute(pg.GL_CONTEXT_MINOR_VERSION, 3)
        pg.display.gl_set_attribute(pg.GL_CONTEXT_PROFILE_MASK, pg.GL_CONTEXT_PROFILE_CORE)
        pg.display.gl_set_attribute(pg.GL_CONTEXT_FLAGS, pg.GL_CONTEXT_FORWARD_COMPATIBLE_FLAG)  # macOS
        if own_window:
            window = pg.Window("Cardavia", size, opengl=True, resizable=True, hidden=True, allow_high_dpi=True)
        else:
            pg.display.set_mode(size, pg.OPENGL | pg.DOUBLEBUF | pg.RESIZABLE | pg.HIDDEN)
        ctx = moderngl.create_context(require=330)
        fx = GLPostFX(ctx, canvas_size)
        # The drawable's pixels per point, fixed when the window opens: the default
        # framebuffer's first viewport is the drawable (SDL does not say it after a resize).
        ratio = ctx.screen.viewport[2] / max(1, size[0]) if window is not None else 1.0
    except Exception as e:  # noqa: BLE001 - any failure here means: no GPU path, the CPU one runs
        for w in (format_window, window):
            if w is not None:
                w.destroy()
        if own_window or pg.display.get_surface() is not None:
            pg.display.quit()  # an OpenGL display cannot become a SCALED one in place
            pg.display.init()
        print(f"cardavia: no OpenGL here ({_one_line(e)}); the picture is finished on the CPU", file=sys.stderr)
        return None
    presenter = GLPresenter(pg, ctx, fx, canvas_size, window, ratio)
    presenter.format_window = format_window
    return presenter


class GLPresenter:
    """The OpenGL display's present and read-back of the native-resolution canvas."""

    def __init__(
        self,
        pg: ModuleType,
        ctx: moderngl.Context,
        fx: GLPostFX,
        canvas_size: tuple[int, int],
        window: pygame.Window | None = None,
        ratio: float = 1.0,
    ):
        self.pg = pg
        self.ctx = ctx
        self.fx = fx
        #: The HiDPI window of its own (None: the display module's) and its pixels per point.
        self.window = window
        self.ratio = ratio
        self.format_window: pygame.Window | None = None  # the hidden 1×1 window that gives convert() its format
        #: The canvas's pixels (a plain 32-bit surface, set by the window at each layout).
        self.canvas = pg.Surface(canvas_size, 0, 32)
        self.renderer = str(ctx.info.get("GL_RENDERER", "OpenGL"))

    def window_size(self) -> tuple[int, int]:
        """The drawable's size in pixels."""
        if self.window is not None:
            w, h = self.window.size
            return round(w * self.ratio), round(h * self.ratio)
        return tuple(self.pg.display.get_window_size())

    def resize(self, size: tuple[int, int]) -> None:
        """The canvas's native size changed (the window was resized): a texture of that size."""
        self.fx.resize(size)

    def present(self, postfx: PostFX, time: float) -> None:
        """Upload the canvas, draw it post-processed into the window, swap."""
        self.fx.upload(self.canvas)
        self.fx.draw(postfx, time, self.window_size())
        if self.window is not None:
            self.window.flip()
        else:
            self.pg.display.flip()

    def finished(self, postfx: PostFX, time: float) -> pygame.Surface:
        """The canvas as the player sees it (post-processed by the shader, at its native
        size): F12 reads the GPU's own picture back, grain frame and all."""
        self.fx.upload(self.canvas)
        return self.fx.read(postfx, time)


__all__ = ["open_gl", "GLPresenter", "RENDER_PATHS", "NO_GL_DRIVERS"]
