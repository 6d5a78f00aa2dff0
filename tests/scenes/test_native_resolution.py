"""Native resolution: the canvas is laid out in 1280×720 logical pixels and drawn
at the window's own pixels.

Screenshots at 1280×720, 2560×1440 and 3840×2160 have the window's size; text and card edges
are sharp (their edge energy is clearly above the 1280×720 picture enlarged to the same
size); the native picture shrunk back to 1280×720 is the 1280×720 picture (nothing moved,
overlapped or left the screen), in the 2- and 4-player layouts; no text overflows its box at
any scale; a click lands on the same widget at every window size (letterboxed, HiDPI too).
The same app state is drawn at each size (draw reads the state; nothing is updated in
between), so the pictures differ only in their resolution.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import App
from scenes.window import CANVAS_SIZE, letterbox
from sprites import hidpi, theme

ROOT = Path(__file__).resolve().parents[2]
SIZES = ((1280, 720), (2560, 1440), (3840, 2160))


@pytest.fixture(autouse=True)
def _back_to_scale_one():
    yield
    hidpi.set_scale(1.0)  # the rest of the suite draws at 1280×720


def make_app(lang: str = "en") -> App:
    return App(get_config(), Settings(language=lang), I18n(lang), window=False, persist=False)


def draw_at(app: App, size: tuple[int, int]) -> pygame.Surface:
    """The app's current state drawn in a window of ``size`` (a copy of the picture)."""
    app.canvas = app.window.offscreen(size)
    app.postfx.resize(app.window.frame.get_size())
    app.render(1.0)
    return app.picture().copy()


def edge_energy(img: pygame.Surface) -> float:
    """Mean absolute difference between horizontally and vertically neighbouring pixels."""
    img = img.convert(24) if img.get_bitsize() != 24 else img
    w, h = img.get_size()
    total = 0.0
    for dx, dy in ((1, 0), (0, 1)):
        a = img.subsurface((dx, dy, w - dx, h - dy)).copy()
        b = img.subsurface((0, 0, w - dx, h - dy)).copy()
        d = a.copy()
        d.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
        b.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
        d.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a - b| per channel
        total += sum(pygame.transform.average_color(d)[:3]) / 3
    return total / 2


def mean_diff(a: pygame.Surface, b: pygame.Surface) -> float:
    a, b = a.convert(24), b.convert(24)
    d = a.copy()
    d.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    e = b.copy()
    e.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d.blit(e, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    return sum(pygame.transform.average_color(d)[:3]) / 3


def far_cells(a: pygame.Surface, b: pygame.Surface, size=(160, 90), limit: int = 64) -> int:
    """How many channels of cells of 8×8 logical pixels differ by more than ``limit``."""
    x = pygame.image.tobytes(pygame.transform.smoothscale(a.convert(24), size), "RGB")
    y = pygame.image.tobytes(pygame.transform.smoothscale(b.convert(24), size), "RGB")
    return sum(1 for i in range(len(x)) if abs(x[i] - y[i]) > limit)


@pytest.mark.parametrize("players", [2, 4])
def test_the_table_is_drawn_sharp_at_the_window_size_and_lies_where_the_layout_says(players, monkeypatch):
    app = make_app("de" if players == 4 else "en")
    app.open_path("table", players=players, seed=11)
    app.settle(30)
    hidpi.PLAIN_BLITS[0] = 0
    with theme.measure_text() as measure:
        pictures = {size: draw_at(app, size) for size in SIZES}
    # Text set at the scaled point sizes still fits its boxes.
    assert not measure.overflows, measure.overflows[:5]
    # Nothing was drawn small and enlarged on the way (text, cards, felt, panels: all native).
    assert hidpi.PLAIN_BLITS[0] == 0
    base = pictures[(1280, 720)]
    for size, pic in pictures.items():
        assert pic.get_size() == size
        if size == (1280, 720):
            continue
        # Sharp: finer edges than the 1280×720 picture enlarged (smoothly) to the same size
        # (measured on the middle of the table and the hand: cards and words).
        s = size[0] // 1280
        crop = pygame.Rect(320 * s, 220 * s, 640 * s, 500 * s)
        enlarged = pygame.transform.smoothscale(
            base.subsurface(crop.x // s, crop.y // s, 640, 500).convert(24), crop.size
        )
        sharp, soft = edge_energy(pic.subsurface(crop)), edge_energy(enlarged)
        assert sharp > 1.3 * soft, (size, sharp, soft)
    # Where everything lies: without the words (set at other point sizes, so their pixels
    # differ a little), the native picture shrunk back is the 1280×720 one — no card, plate,
    # pile, button or panel moved, grew, covered another or left the screen.
    blank = {}

    def no_words(s, face="sans", size=18, color=theme.CREAM, tracking=0, caps=False, shadow=0):
        key = (hidpi.scale(), theme.text_width(s, face, size, tracking, caps), theme.font(face, size).get_height())
        if key not in blank:
            blank[key] = hidpi.surface(key[1:], pygame.SRCALPHA)
        return blank[key]

    monkeypatch.setattr(theme, "text", no_words)
    plain = {size: draw_at(app, size) for size in SIZES}
    for size in SIZES[1:]:
        shrunk = pygame.transform.smoothscale(plain[size].convert(24), CANVAS_SIZE)
        coarse = [pygame.transform.smoothscale(p.convert(24), (160, 90)) for p in (shrunk, plain[CANVAS_SIZE])]
        assert mean_diff(*coarse) <= 2, size  # the felt's weave, made at each size, averages out
        assert far_cells(shrunk, plain[CANVAS_SIZE]) < 10, size
    moved = plain[CANVAS_SIZE].copy()  # the measure sees a card 6 px out of place
    moved.blit(plain[CANVAS_SIZE], (566, 250), (560, 250, 80, 130))
    assert far_cells(moved, plain[CANVAS_SIZE]) >= 40
    app.shutdown()


def test_the_menu_has_sharp_text_at_every_size():
    app = make_app("nl")
    app.open_path("menu")
    app.settle(20)
    base = draw_at(app, (1280, 720))
    pic = draw_at(app, (2560, 1440))
    # The title and buttons' letters: a crop of the left column, where the text is.
    crop = pygame.Rect(180, 200, 1000, 900)
    enlarged = pygame.transform.smoothscale(base.convert(24), (2560, 1440)).subsurface(crop)
    assert edge_energy(pic.subsurface(crop)) > 1.4 * edge_energy(enlarged)
    app.shutdown()


def test_a_screenshot_has_the_window_size(tmp_path):
    """``main.py --screenshot … --window WxH`` writes a picture of that size; a window that is
    not 16:9 is letterboxed, as the window shows it."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=str(tmp_path))
    out = tmp_path / "menu.png"
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "--screenshot",
            str(out),
            "--scene",
            "menu",
            "--window",
            "2560x1440",
            "--ticks",
            "5",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert pygame.image.load(str(out)).get_size() == (2560, 1440)
    app = make_app()
    app.open_path("menu")
    bars = draw_at(app, (1600, 1000))
    assert bars.get_size() == (1600, 1000) and app.window.frame.get_size() == (1600, 900)
    assert bars.get_at((800, 20))[:3] == (0, 0, 0) and bars.get_at((800, 500))[:3] != (0, 0, 0)


@pytest.mark.parametrize(
    "size,ratio",
    [
        ((1280, 720), 1.0),
        ((1920, 1080), 1.0),
        ((2560, 1440), 1.0),
        ((3840, 2160), 1.0),
        ((1600, 1000), 1.0),
        ((1440, 900), 2.0),
    ],
)
def test_a_click_lands_on_the_same_widget_at_every_window_size(size, ratio):
    """Window points → the drawable's pixels (HiDPI: ``ratio`` pixels a point) → logical
    pixels, through the letterbox: a click on Play's centre opens the decks at every size; a
    click on a letterbox bar is dropped."""
    app = make_app()
    pixels = (round(size[0] * ratio), round(size[1] * ratio))
    app.canvas = app.window.offscreen(pixels)
    app.window.pixel_ratio = ratio
    app.open_path("menu")
    app.settle(20)
    play = next(w for w in app.stack.top.ui.widgets if w.name == "play")
    x, y, w, h = letterbox(pixels)
    assert (x, y, w, h) == app.window.box and app.window.scale == w / 1280
    s = app.window.scale
    point = ((x + play.rect.centerx * s) / ratio, (y + play.rect.centery * s) / ratio)
    assert all(abs(a - b) < 1 for a, b in zip(app.window.to_canvas(point), play.rect.center))
    if y > 0:  # a bar above the canvas: the click is dropped
        bar = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(point[0], y / 2 / ratio), button=1)
        assert app.map_event(bar) is None
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        extra = {"rel": (0, 0), "buttons": (0, 0, 0)} if kind == pygame.MOUSEMOTION else {"button": 1}
        app.dispatch(pygame.event.Event(kind, pos=point, **extra))
    app.settle(2)
    assert app.stack.top.name == "decks"
    app.shutdown()


# ---------------------------------------------------------------------- the Hi surface itself
def test_a_hi_surface_is_measured_in_logical_pixels_and_draws_at_its_own():
    hidpi.set_scale(2.0)
    s = hidpi.surface((100, 50), pygame.SRCALPHA)
    assert isinstance(s, hidpi.Hi) and s.get_size() == (100, 50) and pygame.Surface.get_size(s) == (200, 100)
    assert s.get_rect(center=(10, 10)) == pygame.Rect(-40, -15, 100, 50)
    s.fill((255, 0, 0, 255), (10, 10, 5, 5))
    raw = hidpi.plain_view(s)
    assert raw.get_at((20, 20)) == (255, 0, 0, 255) and raw.get_at((29, 29)) == (255, 0, 0, 255)
    assert raw.get_at((30, 30)) == (0, 0, 0, 0)
    pygame.draw.line(s, (0, 255, 0), (0, 40), (99, 40), 1)  # a 1 px line is 2 px at scale 2
    assert raw.get_at((100, 80))[:3] == (0, 255, 0) and raw.get_at((100, 81))[:3] == (0, 255, 0)
    pygame.draw.circle(s, (0, 0, 255), (80, 20), 10)
    assert raw.get_at((160, 40))[:3] == (0, 0, 255) and raw.get_at((160, 62))[3] == 0
    text = theme.text("Cardavia", "sans", 18)
    assert isinstance(text, hidpi.Hi) and abs(text.get_width() - theme.text_width("Cardavia", "sans", 18)) <= 2
    assert pygame.Surface.get_height(text) >= 2 * theme.font("sans", 18).get_height() - 2
    s.blit(text, (5, 5))
    scaled = pygame.transform.smoothscale(s, (50, 25))
    assert isinstance(scaled, hidpi.Hi) and scaled.get_size() == (50, 25)
    assert pygame.Surface.get_size(scaled) == (100, 50)
    turned = pygame.transform.rotate(s, 90)
    assert turned.get_size() == (50, 100)
    hidpi.set_scale(1.0)
    assert type(hidpi.surface((4, 4))) is pygame.Surface  # at scale 1 nothing changes
    assert type(theme.text("Cardavia", "sans", 18)) is pygame.Surface
