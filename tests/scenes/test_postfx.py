"""Post-processing: neutral is a no-op; each slider moves the picture the way it says."""

from __future__ import annotations

import random
import statistics

import pygame
import pytest

from sprites.postfx import PostFX, channel_map

SIZE = (320, 180)


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)
    yield


def busy_frame() -> pygame.Surface:
    """Felt-like green with cream text blocks, dark shadows and bright card faces."""
    rng = random.Random(3)
    s = pygame.Surface(SIZE).convert()
    s.fill((31, 90, 58))
    for _ in range(120):
        col = rng.choice([(243, 234, 215), (20, 20, 20), (192, 38, 45), (201, 164, 92), (46, 90, 168)])
        pygame.draw.rect(s, col, (rng.randrange(300), rng.randrange(160), rng.randrange(4, 40), rng.randrange(4, 30)))
    for x in range(SIZE[0]):
        s.set_at((x, 0), (x * 255 // SIZE[0],) * 3)
    return s


def pixels(s: pygame.Surface, step: int = 3) -> list[tuple[int, int, int]]:
    return [tuple(s.get_at((x, y)))[:3] for y in range(0, SIZE[1], step) for x in range(0, SIZE[0], step)]


def luma(px) -> list[float]:
    return [0.299 * r + 0.587 * g + 0.114 * b for r, g, b in px]


def apply(contrast=50, grain=50, temperature=50, frame=None, time=0.0):
    fx = PostFX(SIZE)
    fx.configure(contrast, grain, temperature)
    f = (frame or busy_frame()).copy()
    fx.apply(f, time)
    return f


def test_neutral_leaves_the_frame_unchanged():
    before = busy_frame()
    after = apply(50, 50, 50, before)
    a, b = pygame.image.tobytes(before, "RGB"), pygame.image.tobytes(after, "RGB")
    assert max(abs(x - y) for x, y in zip(a, b)) <= 1


def test_contrast_100_widens_the_spread_and_0_narrows_it():
    base = statistics.pstdev(luma(pixels(busy_frame())))
    high = statistics.pstdev(luma(pixels(apply(contrast=100))))
    low = statistics.pstdev(luma(pixels(apply(contrast=0))))
    assert high > base * 1.3
    assert low < base * 0.75


def test_temperature_100_raises_red_relative_to_blue_and_0_the_reverse():
    def red_minus_blue(f):
        return statistics.mean(r - b for r, g, b in pixels(f))

    base = red_minus_blue(busy_frame())
    assert red_minus_blue(apply(temperature=100)) > base + 12
    assert red_minus_blue(apply(temperature=0)) < base - 12


def test_grain_100_adds_noise_that_moves_and_below_50_is_clean():
    flat = pygame.Surface(SIZE).convert()
    flat.fill((120, 120, 120))
    assert statistics.pstdev(luma(pixels(apply(grain=50, frame=flat), 1))) == 0
    assert statistics.pstdev(luma(pixels(apply(grain=20, frame=flat), 1))) == 0
    noisy = apply(grain=100, frame=flat)
    sd = statistics.pstdev(luma(pixels(noisy, 1)))
    assert 6 < sd < 30
    # The mean brightness stays put (positive and negative halves balance).
    assert abs(statistics.mean(luma(pixels(noisy, 1))) - 120) < 3
    # Animated: a later frame uses another noise tile.
    for later_time in (1 / 24, 0.5, 3.0):
        later = apply(grain=100, frame=flat, time=later_time)
        assert pygame.image.tobytes(later, "RGB") != pygame.image.tobytes(noisy, "RGB")
    # More grain, more noise.
    assert statistics.pstdev(luma(pixels(apply(grain=70, frame=flat), 1))) < sd


def test_slider_change_shows_on_the_very_next_frame():
    fx = PostFX(SIZE)
    frame = busy_frame()
    first = frame.copy()
    fx.apply(first)
    fx.configure(90, 50, 50)
    second = frame.copy()
    fx.apply(second)
    assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(second, "RGB")


@pytest.mark.parametrize("contrast,temperature", [(0, 0), (20, 80), (50, 100), (75, 30), (100, 100), (100, 0)])
def test_blend_pass_matches_the_exact_channel_map(contrast, temperature):
    """The SUB/MULT/ADD sequence reproduces out = gain·x + offset (clipped) within a few levels."""
    ramp = pygame.Surface((256, 1)).convert()
    for x in range(256):
        ramp.set_at((x, 0), (x, 255 - x, (x * 7) % 256))
    fx = PostFX((256, 1))
    fx.configure(contrast, 50, temperature)
    out = ramp.copy()
    fx.apply(out)
    gains, offsets = channel_map(contrast, temperature)
    worst = 0.0
    for x in range(256):
        src, dst = ramp.get_at((x, 0)), out.get_at((x, 0))
        for c in range(3):
            exact = min(255.0, max(0.0, gains[c] * src[c] + offsets[c]))
            worst = max(worst, abs(exact - dst[c]))
    assert worst <= 6
