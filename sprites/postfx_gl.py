"""The post-processing pass on the graphics card: one fragment shader over the finished frame.

The CPU pass (:mod:`sprites.postfx`) stays the reference. The shader is fed the *same*
numbers: the blend plan that :class:`~sprites.postfx.PostFX` builds from the three sliders
(subtract, multiply, add a scaled copy, add — per channel, in 0–255 levels) and does exactly
the integer steps pygame's blend fills do (``mult`` is ``(x·m + 255) >> 8``, every step
saturates), so contrast and colour temperature agree with the CPU picture to the level.

Grain is made on the card: a hash of (grain cell, film frame, seed) gives each cell of a
half-resolution lattice a peaked signed value (``sign(s)·|s|^1.6``, s uniform in −1…1, the
CPU tiles' distribution), bilinearly smoothed like the CPU tiles' smooth upscale, scaled
to the standard deviation the CPU grain has (``CPU_GRAIN_RATIO``) and changed at film's 24 frames
per second. Its pixels differ from the CPU tiles' (other random numbers), its statistics
do not.

The frame (a 1280×720 pygame surface) is uploaded once per frame into one texture; the
shader draws it into the window's letterbox at the window's size, or into a canvas-sized
framebuffer for a screenshot. This module needs moderngl only when a :class:`GLPostFX` is
made; the uniforms (:func:`shader_uniforms`) are plain Python.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

import pygame

from sprites.postfx import GRAIN_FPS, GRAIN_MAX_STD, NEUTRAL, PostFX

if TYPE_CHECKING:
    import moderngl

#: Standard deviation of the shader's raw grain (before the amplitude): the peaked value's
#: 1/sqrt(4.2), times 0.625 for the bilinear smoothing at the pixel centres of a 2× lattice
#: (weights 3/4 and 1/4 on each axis: 0.75² + 0.25² = 0.625 of the variance per axis).
SHADER_RAW_STD = 0.625 / math.sqrt(4.2)
GRAIN_CELL = 2  # canvas pixels per grain cell, as the CPU tiles are drawn at half size
#: The CPU grain's measured standard deviation over its nominal one (12.5 of 15 levels at 100,
#: 6.3 of 7.5 at 75, on flat grey at 1280×720: its tiles' calibration constant is a little
#: high). The shader matches what the CPU path shows, not the constant.
CPU_GRAIN_RATIO = 0.833

VERTEX_SHADER = """
#version 330
out vec2 uv;
void main() {
    // A full-viewport quad from the vertex index alone (no vertex buffer).
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    // Texture row 0 is the surface's top row: flip v so the picture is upright.
    uv = vec2(corner.x, 1.0 - corner.y);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
"""

FRAGMENT_SHADER = """
#version 330
uniform sampler2D frame;
uniform vec2 canvas_size;  // the frame's size in canvas pixels (grain lives on that grid)
uniform vec3 pre_sub;      // the CPU plan's steps, in 0-255 levels (sprites/postfx.py)
uniform vec3 mult;         // 255 = unchanged
uniform vec3 boost;        // 0 = none
uniform vec3 post_add;
uniform float grain_amp;   // levels per unit of raw grain; 0 = no grain
uniform uint film_frame;   // int(time * 24): the grain changes 24 times a second
uniform uint seed;
in vec2 uv;
out vec4 color;

uvec3 pcg3d(uvec3 v) {
    v = v * 1664525u + 1013904223u;
    v.x += v.y * v.z; v.y += v.z * v.x; v.z += v.x * v.y;
    v ^= v >> 16u;
    v.x += v.y * v.z; v.y += v.z * v.x; v.z += v.x * v.y;
    return v;
}

float cell_noise(ivec2 cell) {
    uint h = pcg3d(uvec3(uvec2(cell + 65536), film_frame ^ (seed * 2654435761u))).x;
    float s = float(h) / 4294967295.0 * 2.0 - 1.0;
    return sign(s) * pow(abs(s), 1.6);
}

float grain_at(vec2 pixel) {
    vec2 q = pixel / float(GRAIN_CELL) - 0.5;
    vec2 base = floor(q);
    vec2 f = q - base;
    ivec2 c = ivec2(base);
    float a = mix(cell_noise(c), cell_noise(c + ivec2(1, 0)), f.x);
    float b = mix(cell_noise(c + ivec2(0, 1)), cell_noise(c + ivec2(1, 1)), f.x);
    return mix(a, b, f.y);
}

void main() {
    vec3 x = floor(texture(frame, uv).rgb * 255.0 + 0.5);
    x = max(x - pre_sub, 0.0);                              // BLEND_RGB_SUB
    x = floor((x * mult + 255.0) / 256.0);                  // BLEND_RGB_MULT
    x = min(x + floor((x * boost + 255.0) / 256.0), 255.0); // copy, MULT, BLEND_RGB_ADD
    x = min(x + post_add, 255.0);                           // BLEND_RGB_ADD
    if (grain_amp > 0.0) {
        x = clamp(x + floor(grain_at(uv * canvas_size) * grain_amp + 0.5), 0.0, 255.0);
    }
    color = vec4(x / 255.0, 1.0);
}
""".replace("GRAIN_CELL", str(GRAIN_CELL))


def shader_uniforms(fx: PostFX, time: float, size: tuple[int, int] | None = None) -> dict[str, object]:
    """The shader's uniforms for ``fx``'s current settings at ``time`` (seconds): the CPU
    pass's own plan, so both paths compute one formula."""
    steps: dict[str, tuple[int, ...]] = {
        "sub": (0, 0, 0),
        "mult": (255, 255, 255),
        "boost": (0, 0, 0),
        "add": (0, 0, 0),
    }
    for op, rgb in fx._plan:
        steps[op] = tuple(rgb)
    std = max(0, fx.grain - NEUTRAL) / NEUTRAL * GRAIN_MAX_STD
    return {
        "canvas_size": tuple(float(v) for v in (size or fx.size)),
        "pre_sub": tuple(float(v) for v in steps["sub"]),
        "mult": tuple(float(v) for v in steps["mult"]),
        "boost": tuple(float(v) for v in steps["boost"]),
        "post_add": tuple(float(v) for v in steps["add"]),
        "grain_amp": std * CPU_GRAIN_RATIO / SHADER_RAW_STD,
        "film_frame": int(max(0.0, time) * GRAIN_FPS) & 0xFFFFFFFF,
        "seed": fx.seed & 0xFFFFFFFF,
    }


def letterbox(window: tuple[int, int], canvas: tuple[int, int]) -> tuple[int, int, int, int]:
    """The largest rectangle of the canvas's shape centred in the window: (x, y, w, h),
    y counted from the top."""
    ww, wh = max(1, window[0]), max(1, window[1])
    scale = min(ww / canvas[0], wh / canvas[1])
    w, h = max(1, round(canvas[0] * scale)), max(1, round(canvas[1] * scale))
    return (ww - w) // 2, (wh - h) // 2, w, h


def texture_swizzle(shifts: tuple[int, ...]) -> str:
    """Which texture channel holds red, green and blue for a 32-bit surface with these
    channel shifts (little-endian bytes): e.g. "BGR1" for pygame's usual 0xRRGGBB."""
    return "".join("RGBA"[s // 8] for s in shifts[:3]) + "1"


class GLPostFX:
    """The shader pass on one moderngl context: ``upload`` the frame, then ``draw`` it into
    the window or ``read`` it back post-processed at canvas size."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int] = (1280, 720)):
        import moderngl

        self.ctx = ctx
        self.size = (size[0], size[1])
        self.program = ctx.program(vertex_shader=VERTEX_SHADER, fragment_shader=FRAGMENT_SHADER)
        self.texture = ctx.texture(self.size, 4)
        self.texture.filter = (moderngl.LINEAR, moderngl.LINEAR)  # smooth at any window size
        self.texture.repeat_x = self.texture.repeat_y = False
        self.vao = ctx.vertex_array(self.program, [])
        self._swizzle = ""
        self._fbo: moderngl.Framebuffer | None = None
        self._strip = moderngl.TRIANGLE_STRIP

    def resize(self, size: tuple[int, int]) -> None:
        """A new frame size (the window's pixels at native resolution): a new texture."""
        import moderngl

        size = (size[0], size[1])
        if size == self.size:
            return
        self.texture.release()
        if self._fbo is not None:
            self._fbo.release()
            self._fbo = None
        self.size = size
        self.texture = self.ctx.texture(self.size, 4)
        self.texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.texture.repeat_x = self.texture.repeat_y = False
        self._swizzle = ""

    def upload(self, frame: pygame.Surface) -> None:
        """Copy the frame's pixels into the texture (one upload, no conversion on the CPU)."""
        if frame.get_size() != self.size or frame.get_bitsize() != 32:
            raise ValueError(f"the GPU pass takes a 32-bit {self.size[0]}x{self.size[1]} frame")
        swizzle = texture_swizzle(frame.get_shifts())
        if swizzle != self._swizzle:
            self.texture.swizzle = self._swizzle = swizzle
        self.texture.write(frame.get_view("0"))  # the raw rows, as they lie in memory

    def _set_uniforms(self, fx: PostFX, time: float) -> None:
        for name, value in shader_uniforms(fx, time, self.size).items():
            if name in self.program:
                cast("moderngl.Uniform", self.program[name]).value = value  # the uniforms it names

    def draw(self, fx: PostFX, time: float, window: tuple[int, int]) -> None:
        """Draw the uploaded frame, post-processed, letterboxed into the window's framebuffer."""
        ctx = self.ctx
        screen = ctx.screen
        screen.use()
        screen.viewport = (0, 0, window[0], window[1])
        screen.clear(0.0, 0.0, 0.0, 1.0)
        x, y, w, h = letterbox(window, self.size)
        screen.viewport = (x, window[1] - y - h, w, h)  # GL counts rows from the bottom
        self._set_uniforms(fx, time)
        self.texture.use(0)
        self.vao.render(self._strip, vertices=4)

    def read(self, fx: PostFX, time: float) -> pygame.Surface:
        """The uploaded frame post-processed at canvas size, as a pygame surface (for
        screenshots and the path comparison)."""
        import pygame

        if self._fbo is None:
            self._fbo = self.ctx.simple_framebuffer(self.size, components=4)
        self._fbo.use()
        self._fbo.viewport = (0, 0, *self.size)
        self._set_uniforms(fx, time)
        self.texture.use(0)
        self.vao.render(self._strip, vertices=4)
        data = self._fbo.read(components=3, alignment=1)
        self.ctx.screen.use()
        return pygame.image.frombytes(data, self.size, "RGB", True)  # GL rows are bottom-up

    def release(self) -> None:
        for obj in (self._fbo, self.vao, self.texture, self.program):
            if obj is not None:
                obj.release()
        self._fbo = None


__all__ = [
    "GLPostFX",
    "shader_uniforms",
    "letterbox",
    "texture_swizzle",
    "VERTEX_SHADER",
    "FRAGMENT_SHADER",
    "SHADER_RAW_STD",
]
