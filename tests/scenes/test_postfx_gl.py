"""The GPU post-processing (sprites/postfx_gl.py, scenes/gl_window.py): its shader source and
parameters, the fallback where OpenGL is missing, and — under a private Xvfb with Mesa's
software OpenGL — the same frames through both paths compared (tests/scenes/gl_compare.py)."""

from __future__ import annotations

import json
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from sprites.postfx import GRAIN_FPS, GRAIN_MAX_STD, PostFX
from sprites.postfx_gl import (
    CPU_GRAIN_RATIO,
    FRAGMENT_SHADER,
    SHADER_RAW_STD,
    letterbox,
    shader_uniforms,
    texture_swizzle,
)
from tests.xvfb import require_gl, xvfb_display

ROOT = Path(__file__).resolve().parent.parent.parent
COMPARE = Path(__file__).resolve().parent / "gl_compare.py"


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)
    yield


def declared_uniforms() -> dict[str, str]:
    return {name: kind for kind, name in re.findall(r"^uniform (\w+) (\w+);", FRAGMENT_SHADER, re.M)}


def test_every_uniform_the_shader_declares_is_fed_and_nothing_else():
    fed = shader_uniforms(PostFX(), 0.0)
    declared = declared_uniforms()
    assert set(declared) - {"frame"} == set(fed)  # "frame" is the texture unit
    for name, value in fed.items():
        kind = declared[name]
        if kind == "vec3":
            assert len(value) == 3
        elif kind == "vec2":
            assert len(value) == 2
        elif kind == "uint":
            assert isinstance(value, int) and 0 <= value < 2**32
        else:
            assert kind == "float" and isinstance(value, float)


def test_the_uniforms_are_the_cpu_passes_own_plan():
    fx = PostFX((1280, 720))
    fx.configure(50, 50, 50)
    u = shader_uniforms(fx, 0.0)
    assert (u["pre_sub"], u["mult"], u["boost"], u["post_add"]) == ((0,) * 3, (255,) * 3, (0,) * 3, (0,) * 3)
    assert u["grain_amp"] == 0.0 and u["canvas_size"] == (1280.0, 720.0)
    for contrast, temperature in ((100, 0), (0, 100), (68, 36), (20, 70)):
        fx.configure(contrast, 50, temperature)
        u = shader_uniforms(fx, 0.0)
        plan = dict(fx._plan)
        assert u["pre_sub"] == tuple(float(v) for v in plan.get("sub", (0, 0, 0)))
        assert u["mult"] == tuple(float(v) for v in plan.get("mult", (255, 255, 255)))
        assert u["boost"] == tuple(float(v) for v in plan.get("boost", (0, 0, 0)))
        assert u["post_add"] == tuple(float(v) for v in plan.get("add", (0, 0, 0)))
        assert plan  # the slider moved: the plan, so the uniforms, are not neutral


def test_grain_strength_and_speed_follow_the_slider_and_the_clock():
    fx = PostFX()
    for level, nominal in ((40, 0.0), (50, 0.0), (75, GRAIN_MAX_STD / 2), (100, GRAIN_MAX_STD)):
        fx.configure(50, level, 50)
        amp = shader_uniforms(fx, 0.0)["grain_amp"]
        assert math.isclose(amp * SHADER_RAW_STD, nominal * CPU_GRAIN_RATIO)
    frames = [shader_uniforms(fx, t)["film_frame"] for t in (0.0, 0.9 / GRAIN_FPS, 1.0 / GRAIN_FPS, 10.0)]
    assert frames == [0, 0, 1, int(10 * GRAIN_FPS)]


def test_the_raw_grain_has_the_standard_deviation_the_amplitude_assumes():
    """The shader's grain in Python: peaked values on a half-size lattice, bilinear at pixel centres."""
    rng = random.Random(5)
    cells = {}

    def cell(i: int, j: int) -> float:
        if (i, j) not in cells:
            s = rng.uniform(-1, 1)
            cells[i, j] = math.copysign(abs(s) ** 1.6, s)
        return cells[i, j]

    values = []
    for py in range(120):
        for px in range(120):
            qx, qy = (px + 0.5) / 2 - 0.5, (py + 0.5) / 2 - 0.5
            bx, by = math.floor(qx), math.floor(qy)
            fx_, fy = qx - bx, qy - by
            a = cell(bx, by) * (1 - fx_) + cell(bx + 1, by) * fx_
            b = cell(bx, by + 1) * (1 - fx_) + cell(bx + 1, by + 1) * fx_
            values.append(a * (1 - fy) + b * fy)
    std = (sum(v * v for v in values) / len(values)) ** 0.5
    assert abs(std / SHADER_RAW_STD - 1) < 0.05


def test_the_shaders_colour_steps_are_the_cpu_blend_fills():
    """Every level through the shader's four lines (in Python) equals the CPU pass."""
    assert "floor((x * mult + 255.0) / 256.0)" in FRAGMENT_SHADER  # pygame's (x·m + 255) >> 8
    ramp = pygame.Surface((256, 1), 0, 32)
    for v in range(256):
        ramp.set_at((v, 0), (v, 255 - v, (v * 7) % 256))
    for contrast, temperature in ((100, 0), (0, 100), (68, 36), (20, 70)):
        fx = PostFX((256, 1))
        fx.configure(contrast, 50, temperature)
        u = shader_uniforms(fx, 0.0)
        cpu = fx.apply(ramp.copy())
        for v in range(256):
            px = ramp.get_at((v, 0))[:3]
            out = []
            for c in range(3):
                x = max(px[c] - u["pre_sub"][c], 0)
                x = math.floor((x * u["mult"][c] + 255) / 256)
                x = min(x + math.floor((x * u["boost"][c] + 255) / 256), 255)
                out.append(min(x + u["post_add"][c], 255))
            assert tuple(out) == tuple(cpu.get_at((v, 0))[:3]), (contrast, temperature, v)


def test_letterbox_and_channel_order():
    assert letterbox((1280, 720), (1280, 720)) == (0, 0, 1280, 720)
    assert letterbox((3840, 2160), (1280, 720)) == (0, 0, 3840, 2160)
    assert letterbox((1600, 1000), (1280, 720)) == (0, 50, 1600, 900)
    assert letterbox((2000, 720), (1280, 720)) == (360, 0, 1280, 720)
    assert texture_swizzle((16, 8, 0, 0)) == "BGR1"  # pygame's usual 0xRRGGBB
    assert texture_swizzle((0, 8, 16, 24)) == "RGB1"


def test_where_opengl_is_missing_the_game_starts_on_the_cpu_with_one_line(tmp_path):
    """The dummy driver has no OpenGL: `render: gpu` falls back, says so once, no traceback."""
    (tmp_path / "settings.json").write_text(json.dumps({"render": "gpu", "speech": "off"}), encoding="utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=str(tmp_path))
    r = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--first-frame"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no OpenGL here" in lines[0] and "on the CPU" in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_cpu_and_gpu_pictures_agree_under_mesa():
    """Both paths on the same frames, in the game's window (render="gpu") on a private Xvfb."""
    with xvfb_display() as display:
        env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
        r = subprocess.run(
            [sys.executable, str(COMPARE)], capture_output=True, text=True, timeout=180, env=env, cwd=ROOT
        )
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if not out["gpu"]:
        require_gl(f"no OpenGL 3.3 context under Xvfb: {r.stderr.strip()[-300:]}")
    for setting, d in out["f12"].items():  # the F12 read-back at canvas size
        assert d["mean"] <= 0.25 and d["max"] <= 2, (setting, d)
    assert out["present"]["window"] == [1280, 720]
    assert out["present"]["mean"] <= 0.25 and out["present"]["max"] <= 2, out["present"]
    assert out["scene"]["mean"] <= 0.25 and out["scene"]["max"] <= 2, out["scene"]  # the menu, through F12
    for level, g in out["grain"].items():
        assert abs(g["gpu"]["mean"] - g["cpu"]["mean"]) < 0.5, (level, g)
        assert abs(g["gpu"]["std"] / g["cpu"]["std"] - 1) < 0.1, (level, g)
        assert g["same_film_frame"] == 0 and g["next_film_frame"] > 3, (level, g)
    assert out["resized"] == [1600, 1000] and out["native"] == [1600, 900, 1600, 900]
    mouse = out["mouse"]
    assert mouse["centre"] == [640.0, 360.0] and mouse["top_left"] == [0.0, 0.0]
    assert mouse["click_centre"] == [640, 360] and mouse["click_bar"] is False
    # Drawn at 1600×900 (the canvas at native size, pixel for pixel): close to the CPU picture
    # smoothscaled (scaled before the pass rather than after), and black bars.
    assert out["present_scaled"]["picture"]["mean"] < 4, out["present_scaled"]
    assert out["present_scaled"]["bars"]["max"] == 0
