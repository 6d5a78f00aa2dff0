"""One pass over the finished frame: contrast, colour temperature and film grain.

Each control runs 0–100 with 50 neutral. Everything is done with pygame-ce's blend
operations on whole surfaces (a handful of SIMD passes, well under a millisecond each at
1280×720) and cached noise tiles — never per-pixel Python or numpy.

Contrast and temperature fold into one per-channel affine map ``out = gain·x + offset``
(contrast pivots on mid-grey 128; temperature tilts red against blue). It is applied as
SUB (pre-offset) → MULT (gain ≤ 1) → ADD of a scaled copy (gain > 1) → ADD (post-offset),
ordered so saturation at 0 and 255 clips exactly where the true map would.

Grain above 50 adds animated luminance noise: a few pre-rendered tiles, cycled at film's
24 frames per second, blended as ADD of the positive half and SUB of the negative half so
the mean brightness stays put. Below 50 the picture is clean (no grain is the neutral
film; the slider's lower half exists so the three controls read alike).
"""

from __future__ import annotations

import random

import pygame

NEUTRAL = 50
GRAIN_TILES = 4
GRAIN_FPS = 24.0
STRIP = 96  # rows per strip: frame + scratch strips of 1280 px stay well inside a 2 MB L2 cache
# Strongest settings: contrast gain at 0 / 100, temperature tilt, grain amplitude (0–255).
CONTRAST_MIN_GAIN = 0.55
CONTRAST_MAX_GAIN = 1.7
TEMPERATURE_TILT = 0.16
GRAIN_MAX_STD = 15.0  # standard deviation of the grain at 100, in 0–255 levels
# Measured standard deviation of the raw (full-scale) signed noise after smoothing.
_RAW_NOISE_STD = 84.0


def _clamp(v: float, lo: float = 0.0, hi: float = 255.0) -> float:
    return lo if v < lo else hi if v > hi else v


def contrast_gain(contrast: float) -> float:
    """Slope around mid-grey: 1 at 50, CONTRAST_MIN_GAIN at 0, CONTRAST_MAX_GAIN at 100."""
    d = (_clamp(contrast, 0, 100) - NEUTRAL) / NEUTRAL
    return 1 + d * (CONTRAST_MAX_GAIN - 1) if d >= 0 else 1 + d * (1 - CONTRAST_MIN_GAIN)


def temperature_gains(temperature: float) -> tuple[float, float, float]:
    """Per-channel multipliers: warm (>50) lifts red and lowers blue; cool does the reverse."""
    d = (_clamp(temperature, 0, 100) - NEUTRAL) / NEUTRAL * TEMPERATURE_TILT
    return (1 + d, 1 + d * 0.15, 1 - d * 1.25)


def channel_map(contrast: float, temperature: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(gains, offsets) per channel of out = gain·x + offset."""
    k = contrast_gain(contrast)
    temp = temperature_gains(temperature)
    gains = tuple(m * k for m in temp)
    offsets = tuple(m * 128 * (1 - k) for m in temp)
    return gains, offsets


class PostFX:
    """Holds the three settings and the cached textures; ``apply(frame, time)`` edits in place."""

    def __init__(self, size: tuple[int, int] = (1280, 720), seed: int = 1897):
        self.size = size
        self.seed = seed
        self.contrast = NEUTRAL
        self.grain = NEUTRAL
        self.temperature = NEUTRAL
        self._plan: list[tuple[str, tuple[int, ...]]] = []
        self._scratch: pygame.Surface | None = None
        self._noise_raw: list[tuple[pygame.Surface, pygame.Surface]] | None = None
        self._noise: list[tuple[pygame.Surface, pygame.Surface]] = []
        self._noise_level = -1
        self.configure(NEUTRAL, NEUTRAL, NEUTRAL)

    def resize(self, size: tuple[int, int]) -> None:
        """The frame's pixel size changed (native resolution: the window's): the grain is
        made again at it, on the next apply."""
        size = (size[0], size[1])
        if size != tuple(self.size):
            self.size = size
            self._scratch = None
            self._noise_raw = None
            self._noise = []
            self._noise_level = -1

    # ------------------------------------------------------------------ settings
    def configure(self, contrast: float, grain: float, temperature: float) -> None:
        """New slider values; takes effect on the next apply (the same frame in practice)."""
        self.contrast = int(round(_clamp(contrast, 0, 100)))
        self.grain = int(round(_clamp(grain, 0, 100)))
        self.temperature = int(round(_clamp(temperature, 0, 100)))
        self._plan = self._build_plan()

    @property
    def neutral(self) -> bool:
        return not self._plan and self.grain <= NEUTRAL

    def _build_plan(self) -> list[tuple[str, tuple[int, ...]]]:
        """The blend steps for contrast + temperature; empty when both are neutral."""
        if self.contrast == NEUTRAL and self.temperature == NEUTRAL:
            return []
        gains, offsets = channel_map(self.contrast, self.temperature)
        pre_sub = [0, 0, 0]
        post_add = [0, 0, 0]
        mult = [255, 255, 255]
        extra = [0, 0, 0]
        for c in range(3):
            g, o = gains[c], offsets[c]
            if o < 0:
                # out = g·(x − |o|/g): subtract first so values below the pivot clip at 0.
                pre_sub[c] = int(round(_clamp(-o / g)))
            else:
                post_add[c] = int(round(_clamp(o)))
            if g <= 1:
                mult[c] = int(round(_clamp(g * 256, 0, 255)))
            else:
                extra[c] = int(round(_clamp((g - 1) * 256, 0, 255)))
        plan: list[tuple[str, tuple[int, ...]]] = []
        if any(pre_sub):
            plan.append(("sub", tuple(pre_sub)))
        if any(m != 255 for m in mult):
            plan.append(("mult", tuple(mult)))
        if any(extra):
            plan.append(("boost", tuple(extra)))
        if any(post_add):
            plan.append(("add", tuple(post_add)))
        return plan

    # ------------------------------------------------------------------ grain
    def _raw_noise(self) -> list[tuple[pygame.Surface, pygame.Surface]]:
        """Full-amplitude noise tiles (positive half, negative half), made once."""
        if self._noise_raw is None:
            rng = random.Random(self.seed)
            w, h = self.size
            # Grain clumps a little: render at half size and scale up smoothly.
            sw, sh = max(1, w // 2), max(1, h // 2)
            # Uniform bytes → a peaked, signed distribution via lookup tables (fast, no numpy).
            pos_lut = bytearray(256)
            neg_lut = bytearray(256)
            for b in range(256):
                s = (b - 127.5) / 127.5  # −1 … 1
                mag = int(round(abs(s) ** 1.6 * 255))
                if s > 0:
                    pos_lut[b] = mag
                else:
                    neg_lut[b] = mag
            palette = [(i, i, i) for i in range(256)]
            tiles = []
            for _ in range(GRAIN_TILES):
                raw = rng.randbytes(sw * sh)
                pair = []
                for lut in (pos_lut, neg_lut):
                    small = pygame.image.frombytes(raw.translate(bytes(lut)), (sw, sh), "P")
                    small.set_palette(palette)
                    big = pygame.transform.smoothscale(small.convert(24), (w, h))
                    pair.append(big)
                tiles.append((pair[0], pair[1]))
            self._noise_raw = tiles
        return self._noise_raw

    def _grain_tiles(self, frame: pygame.Surface) -> list[tuple[pygame.Surface, pygame.Surface]]:
        level = self.grain
        if level != self._noise_level or (self._noise and self._noise[0][0].get_bitsize() != frame.get_bitsize()):
            std = max(0, level - NEUTRAL) / NEUTRAL * GRAIN_MAX_STD
            scale = int(round(_clamp(std / _RAW_NOISE_STD * 256, 0, 255)))
            scaled = []
            for pos, neg in self._raw_noise():
                # Same pixel format as the frame, so the per-frame blits need no conversion.
                p = pygame.Surface(pos.get_size(), 0, frame)
                n = pygame.Surface(neg.get_size(), 0, frame)
                p.blit(pos, (0, 0))
                n.blit(neg, (0, 0))
                p.fill((scale,) * 3, special_flags=pygame.BLEND_RGB_MULT)
                n.fill((scale,) * 3, special_flags=pygame.BLEND_RGB_MULT)
                scaled.append((p, n))
            self._noise = scaled
            self._noise_level = level
        return self._noise

    # ------------------------------------------------------------------ the pass
    def apply(self, frame: pygame.Surface, time: float = 0.0) -> pygame.Surface:
        """Apply the current settings to ``frame`` in place and return it.

        ``time`` (seconds) picks the grain tile, so the grain moves while the scene is still.
        The frame is processed in horizontal strips small enough to stay in the CPU cache
        between the passes (a whole 1280×720 frame plus its scratch copy does not).
        """
        grain = self.grain > NEUTRAL and frame.get_size() == self.size
        if not self._plan and not grain:
            return frame
        w, h = frame.get_size()
        if grain:
            tiles = self._grain_tiles(frame)
            k = int(time * GRAIN_FPS)
            pos = tiles[k % len(tiles)][0]
            neg = tiles[(k + 1 + k // len(tiles)) % len(tiles)][1]
            # A different wrap-around offset each film frame, so the few tiles never visibly
            # repeat; the negative half is blended unshifted (cheaper) from a changing tile.
            dx, dy = (k * 7919) % w, (k * 3571) % h
        scratch = self._scratch_for(frame) if any(op == "boost" for op, _ in self._plan) else None
        for y in range(0, h, STRIP):
            strip = pygame.Rect(0, y, w, min(STRIP, h - y))
            for op, rgb in self._plan:
                if op == "sub":
                    frame.fill(rgb, strip, special_flags=pygame.BLEND_RGB_SUB)
                elif op == "mult":
                    frame.fill(rgb, strip, special_flags=pygame.BLEND_RGB_MULT)
                elif op == "boost" and scratch is not None:  # (made above whenever the plan boosts)
                    scratch.blit(frame, strip, strip)
                    scratch.fill(rgb, strip, special_flags=pygame.BLEND_RGB_MULT)
                    frame.blit(scratch, strip, strip, special_flags=pygame.BLEND_RGB_ADD)
                elif op == "add":
                    frame.fill(rgb, strip, special_flags=pygame.BLEND_RGB_ADD)
            if grain:
                _blit_wrapped(frame, pos, dx, dy, pygame.BLEND_RGB_ADD, strip)
                frame.blit(neg, strip, strip, special_flags=pygame.BLEND_RGB_SUB)
        return frame

    def _scratch_for(self, frame: pygame.Surface) -> pygame.Surface:
        # Frame-sized (a strip-sized scratch measured slower: its copies take a slower path).
        if (
            self._scratch is None
            or self._scratch.get_size() != frame.get_size()
            or self._scratch.get_bitsize() != frame.get_bitsize()
        ):
            self._scratch = pygame.Surface(frame.get_size(), 0, frame)
        return self._scratch


def _segments(start: int, length: int, offset: int, size: int) -> list[tuple[int, int, int]]:
    """Split [start, start+length) into runs whose source (x + offset) mod size does not wrap:
    (destination start, source start, run length)."""
    out = []
    x, end = start, start + length
    while x < end:
        src = (x + offset) % size
        run = min(end - x, size - src)
        out.append((x, src, run))
        x += run
    return out


def _blit_wrapped(
    frame: pygame.Surface, tile: pygame.Surface, dx: int, dy: int, flags: int, rect: pygame.Rect | None = None
) -> None:
    """Blend ``tile`` over ``rect`` of ``frame`` (default: all of it), the tile shifted by
    (dx, dy) with wrap-around; the part-blits touch each pixel once, so it costs one blit."""
    w, h = tile.get_size()
    r = rect or frame.get_rect()
    for x, sx, sw in _segments(r.x, r.w, dx, w):
        for y, sy, sh in _segments(r.y, r.h, dy, h):
            frame.blit(tile, (x, y), pygame.Rect(sx, sy, sw, sh), special_flags=flags)


__all__ = ["PostFX", "contrast_gain", "temperature_gains", "channel_map", "NEUTRAL"]
