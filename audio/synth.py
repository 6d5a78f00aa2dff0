"""Every sound of the game, synthesised in code with the standard library only.

No sample files ship with the game (see ART.md: everything is drawn — and heard — from code),
so each sound is a small recipe: seeded noise shaped by one-pole filters for the card
sounds, decaying sine partials for the chimes and phrases. A recipe renders to floats in
-1..1; :func:`_finish` then removes DC, fades both ends (no clicks), and normalises to the
sound's own peak level (never above -3 dBFS, so nothing can clip). The result is 16-bit
mono PCM at :data:`RATE`, cached, and offered as raw bytes or as a WAV file in memory.

Rendering is deterministic: every recipe draws its noise from ``random.Random(seed)`` with a
fixed seed, so the same build always produces the same bytes (tests compare them).
"""

from __future__ import annotations

import cmath
import io
import math
import random
import wave
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from itertools import accumulate, repeat
from operator import add, attrgetter, mul

#: Samples per second. 22050 Hz keeps pure-Python synthesis fast; the mixer resamples.
RATE = 22050
#: Highest peak any sound may reach, as a fraction of full scale (-3 dBFS).
MAX_PEAK = 10 ** (-3 / 20)

Signal = list[float]
_imag = attrgetter("imag")


# ---------------------------------------------------------------- building blocks
def _n(seconds: float) -> int:
    return max(1, int(round(seconds * RATE)))


def _noise(seconds: float, rng: random.Random) -> Signal:
    r = rng.random
    return [2.0 * r() - 1.0 for _ in range(_n(seconds))]


def _lowpass(x: Signal, cutoff: float) -> Signal:
    """One-pole low-pass: softens noise into felt, paper and wood."""
    a = 1.0 - math.exp(-2.0 * math.pi * cutoff / RATE)
    y = 0.0
    out = [0.0] * len(x)
    for i, v in enumerate(x):
        y += a * (v - y)
        out[i] = y
    return out


def _highpass(x: Signal, cutoff: float) -> Signal:
    lp = _lowpass(x, cutoff)
    return [v - w for v, w in zip(x, lp)]


def _band(x: Signal, lo: float, hi: float) -> Signal:
    return _highpass(_lowpass(_lowpass(x, hi), hi), lo)


def _env(n: int, attack: float, decay: float) -> Signal:
    """Linear attack over ``attack`` s, then exponential decay with time constant ``decay`` s."""
    a = max(1, _n(attack))
    k = math.exp(-1.0 / (decay * RATE))
    out = [0.0] * n
    g = 1.0
    for i in range(n):
        if i < a:
            out[i] = (i + 1) / a
        else:
            g *= k
            out[i] = g
    return out


def _swell(n: int, peak_at: float = 0.5) -> Signal:
    """A smooth rise and fall (a card sliding across the cloth)."""
    p = max(1, int(n * peak_at))
    return [
        math.sin(0.5 * math.pi * i / p) ** 2 if i < p else math.cos(0.5 * math.pi * (i - p) / max(1, n - p)) ** 2
        for i in range(n)
    ]


def _mul(x: Signal, e: Signal) -> Signal:
    return list(map(mul, x, e))


def _mix(dst: Signal, src: Signal, at: float, gain: float = 1.0) -> None:
    """Add ``src`` into ``dst`` starting ``at`` seconds in (``dst`` grows if needed)."""
    o = _n(at) if at > 0 else 0
    end = o + len(src)
    if end > len(dst):
        dst.extend([0.0] * (end - len(dst)))
    dst[o:end] = map(add, dst[o:end], map(mul, src, repeat(gain)) if gain != 1.0 else src)


def _tone(freq: float, seconds: float, partials: Sequence[tuple[float, float, float]], attack: float = 0.004) -> Signal:
    """Sum of decaying sine partials ``(ratio, amplitude, decay time s)`` on ``freq``.

    Inharmonic ratios make bells; harmonic ones with short upper decays make soft mallets.
    """
    n = _n(seconds)
    a = max(1, _n(attack))
    out = [0.0] * n
    for ratio, amp, decay in partials:
        f = freq * ratio
        if f >= RATE / 2 - 500:  # keep clear of aliasing
            continue
        w = 2.0 * math.pi * f / RATE
        k = math.exp(-1.0 / (decay * RATE))
        # Stop once the partial is ~80 dB down: saves most of the work on bright partials.
        m = min(n, int(decay * RATE * math.log(amp / 1e-4)) + 1) if amp > 1e-4 else 0
        if m <= 0:
            continue
        # A decaying sine is the imaginary part of a complex geometric series (amp * c**i with
        # c = k * e^(i w)): accumulate/map keep the per-sample work in C, several times faster
        # than a Python loop calling sin and exp.
        series = accumulate(repeat(cmath.rect(k, w), m - 1), mul, initial=complex(amp, 0.0))
        out[:m] = map(add, out[:m], map(_imag, series))
    for i in range(min(a, n)):
        out[i] *= (i + 1) / a
    return out


def note(name: str) -> float:
    """Equal-tempered frequency of a note name such as ``"C5"``, ``"Eb4"``, ``"F#5"`` (A4 = 440)."""
    steps = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}[name[0]]
    rest = name[1:]
    while rest and rest[0] in "#b":
        steps += 1 if rest[0] == "#" else -1
        rest = rest[1:]
    return 440.0 * 2 ** ((steps + 12 * (int(rest) - 4)) / 12)


# Timbres: (ratio, amplitude, decay seconds).
BELL = ((1.0, 1.0, 0.55), (2.76, 0.32, 0.22), (5.40, 0.12, 0.10), (8.93, 0.05, 0.05))
MALLET = ((1.0, 1.0, 0.40), (2.0, 0.22, 0.15), (3.0, 0.07, 0.08), (4.0, 0.03, 0.05))
PAD = ((1.0, 1.0, 0.9), (2.0, 0.18, 0.45), (3.0, 0.06, 0.25))


def _scaled(timbre: Sequence[tuple[float, float, float]], k: float) -> tuple[tuple[float, float, float], ...]:
    return tuple((r, a, d * k) for r, a, d in timbre)


def _phrase(notes: Sequence[tuple[str, float, float]], timbre, tail: float, gain: float = 1.0) -> Signal:
    """Notes ``(name, start s, length s)`` in one timbre; ``tail`` lengthens the last one."""
    out: Signal = []
    for i, (nm, start, length) in enumerate(notes):
        last = i == len(notes) - 1
        _mix(out, _tone(note(nm), length + (tail if last else 0.0), timbre), start, gain)
    return out


# ---------------------------------------------------------------- the sounds
def _click() -> Signal:
    # A soft wooden "tock": two short partials and a breath of filtered noise.
    t = _tone(1250.0, 0.045, ((1.0, 1.0, 0.010), (2.3, 0.3, 0.005)), attack=0.001)
    tick = _mul(_band(_noise(0.045, random.Random(12)), 1500, 5000), _env(_n(0.045), 0.0005, 0.004))
    _mix(t, tick, 0.0, 0.4)
    return t


def _flick(rng: random.Random, seconds: float = 0.10, bright: float = 5200.0) -> Signal:
    # Paper on paper: band-limited noise with a fast attack and a short decay.
    n = _noise(seconds, rng)
    return _mul(_band(n, 1200.0, bright), _env(len(n), 0.003, 0.018))


def _deal() -> Signal:
    rng = random.Random(2)
    out = _flick(rng, 0.075)
    # The card lands a moment later: a softer, duller pat.
    _mix(out, _mul(_lowpass(_noise(0.04, rng), 1500.0), _env(_n(0.04), 0.002, 0.008)), 0.05, 0.5)
    return out


def _thump(rng: random.Random, seconds: float = 0.16) -> Signal:
    # Card on felt: low-passed noise for the cloth, a low sine for the table's body.
    n = _noise(seconds, rng)
    body = _mul(_lowpass(_lowpass(n, 900.0), 900.0), _env(len(n), 0.003, 0.025))
    _mix(body, _tone(115.0, seconds, ((1.0, 0.9, 0.03), (2.1, 0.2, 0.015)), attack=0.003), 0.0, 0.6)
    _mix(body, _mul(_band(_noise(0.03, rng), 2000.0, 6000.0), _env(_n(0.03), 0.001, 0.005)), 0.0, 0.15)
    return body


def _play() -> Signal:
    return _thump(random.Random(3))


def _slide(rng: random.Random, seconds: float, lo: float = 700.0, hi: float = 3500.0) -> Signal:
    n = _noise(seconds, rng)
    return _mul(_band(n, lo, hi), _swell(len(n), 0.35))


def _capture() -> Signal:
    rng = random.Random(4)
    out = _slide(rng, 0.13)
    _mix(out, _slide(rng, 0.12, 800.0, 4000.0), 0.085, 0.85)
    # Soft click as the cards meet the pile.
    tick = _tone(900.0, 0.06, ((1.0, 1.0, 0.012), (2.4, 0.4, 0.006)), attack=0.001)
    _mix(tick, _mul(_lowpass(_noise(0.03, rng), 2500.0), _env(_n(0.03), 0.001, 0.006)), 0.0, 0.6)
    _mix(out, tick, 0.215, 0.8)
    return out


def _trick() -> Signal:
    # Cards gathered: a longer sweep of paper and a tap as the pile is squared.
    rng = random.Random(5)
    out = _slide(rng, 0.2, 500.0, 3000.0)
    _mix(out, _slide(rng, 0.12, 600.0, 3500.0), 0.07, 0.6)
    _mix(out, _thump(rng, 0.12), 0.22, 0.8)
    return out


def _shuffle() -> Signal:
    # A riffle: a run of tiny, slightly random paper bursts that speeds up then settles,
    # and the deck squared on the table at the end.
    rng = random.Random(6)
    out: Signal = [0.0] * _n(0.05)
    t = 0.03
    count = 34
    for i in range(count):
        x = i / (count - 1)
        gap = 0.019 - 0.008 * math.sin(math.pi * x)  # faster in the middle of the riffle
        burst = _mul(_band(_noise(0.018, rng), 1500.0, 6500.0), _env(_n(0.018), 0.001, 0.004))
        amp = (0.55 + 0.45 * math.sin(math.pi * x)) * (0.75 + 0.25 * rng.random())
        _mix(out, burst, t, amp)
        t += gap * (0.85 + 0.3 * rng.random())
    _mix(out, _thump(rng, 0.15), t + 0.06, 0.9)
    return out


def _close() -> Signal:
    # A firm knuckle knock on wood: a low body, a wooden mid resonance and a hard edge.
    rng = random.Random(7)
    k = _tone(170.0, 0.22, ((1.0, 1.0, 0.045), (2.45, 0.5, 0.025), (4.1, 0.25, 0.012)), attack=0.0015)
    edge = _mul(_lowpass(_noise(0.04, rng), 2200.0), _env(_n(0.04), 0.0008, 0.006))
    _mix(k, edge, 0.0, 0.9)
    return k


def _sweep() -> Signal:
    # A bright bell arpeggio up a major chord with a shimmering top note.
    notes = [("G5", 0.0, 0.5), ("B5", 0.07, 0.5), ("D6", 0.14, 0.5), ("G6", 0.21, 0.5)]
    out = _phrase(notes, BELL, 0.35)
    _mix(out, _tone(note("D7"), 0.5, _scaled(BELL, 0.6)), 0.28, 0.25)
    return out


def _bonus() -> Signal:
    # A call-out chime: a rising fourth, struck twice like a little bell pair.
    notes = [("E6", 0.0, 0.35), ("A6", 0.13, 0.35)]
    out = _phrase(notes, BELL, 0.3)
    _mix(out, _tone(note("A5"), 0.6, _scaled(MALLET, 1.2)), 0.13, 0.45)
    return out


def _deal_won() -> Signal:
    notes = [("C5", 0.0, 0.25), ("E5", 0.11, 0.25), ("G5", 0.22, 0.25), ("C6", 0.33, 0.3)]
    out = _phrase(notes, MALLET, 0.35)
    _mix(out, _tone(note("G5"), 0.6, MALLET), 0.33, 0.35)
    return out


def _deal_lost() -> Signal:
    # Descending minor triad, softer and slower.
    notes = [("E5", 0.0, 0.3), ("C5", 0.15, 0.3), ("A4", 0.30, 0.35)]
    out = _phrase(notes, _scaled(MALLET, 1.1), 0.4)
    _mix(out, _tone(note("E4"), 0.7, _scaled(MALLET, 1.1)), 0.30, 0.4)
    return out


def _chord(names: Sequence[str], seconds: float, timbre) -> Signal:
    out: Signal = []
    for i, nm in enumerate(names):
        _mix(out, _tone(note(nm), seconds, timbre, attack=0.012), 0.004 * i, 1.0 / len(names))
    return out


def _match_won() -> Signal:
    # A little fanfare: rising arpeggio, a step, and a sustained major chord.
    run = [
        ("C5", 0.0, 0.2),
        ("E5", 0.10, 0.2),
        ("G5", 0.20, 0.2),
        ("C6", 0.30, 0.2),
        ("G5", 0.48, 0.16),
        ("C6", 0.60, 0.3),
    ]
    out = _phrase(run, MALLET, 0.0)
    _mix(out, _chord(["C5", "E5", "G5", "C6"], 1.3, _scaled(PAD, 0.9)), 0.72, 1.6)
    _mix(out, _tone(note("C7"), 0.8, _scaled(BELL, 0.9)), 0.74, 0.18)
    return out


def _match_lost() -> Signal:
    # A gentle falling line settling on a minor chord.
    run = [("E5", 0.0, 0.28), ("D5", 0.2, 0.28), ("C5", 0.4, 0.28), ("B4", 0.6, 0.3)]
    out = _phrase(run, _scaled(MALLET, 1.1), 0.0)
    _mix(out, _chord(["A3", "C4", "E4", "A4"], 1.2, _scaled(PAD, 0.9)), 0.85, 1.6)
    return out


#: Sound name -> (recipe, peak level in dBFS). Peaks differ so a click is not as loud as a fanfare.
RECIPES: dict[str, tuple[Callable[[], Signal], float]] = {
    "shuffle": (_shuffle, -9.0),
    "deal": (_deal, -10.0),
    "play": (_play, -6.0),
    "capture": (_capture, -7.0),
    "sweep": (_sweep, -5.0),
    "bonus": (_bonus, -6.0),
    "trick": (_trick, -7.0),
    "close": (_close, -4.0),
    "deal_won": (_deal_won, -6.0),
    "deal_lost": (_deal_lost, -7.0),
    "match_won": (_match_won, -4.0),
    "match_lost": (_match_lost, -5.0),
    "click": (_click, -11.0),
}

#: Every sound name, in a stable order.
SOUND_NAMES: tuple[str, ...] = tuple(RECIPES)


def _finish(x: Signal, peak_db: float) -> array:
    """DC-free, faded at both ends, normalised to ``peak_db``, as 16-bit samples."""
    x = _highpass(x, 25.0)  # no DC offset: a step at the start or end would click
    n = len(x)
    fade_in, fade_out = min(n // 4, _n(0.002)), min(n // 4, _n(0.012))
    for i in range(fade_in):
        x[i] *= i / fade_in
    for i in range(fade_out):
        x[n - 1 - i] *= i / fade_out
    peak = max(max(x), -min(x)) or 1.0
    scale = min(10 ** (peak_db / 20), MAX_PEAK) * 32767.0 / peak
    return array("h", map(round, map(mul, x, repeat(scale))))


@cache
def samples(name: str) -> array:
    """The sound ``name`` as 16-bit mono samples at :data:`RATE` (cached; KeyError if unknown)."""
    recipe, peak_db = RECIPES[name]
    return _finish(recipe(), peak_db)


def pcm(name: str) -> bytes:
    """Raw little-endian 16-bit mono PCM."""
    a = samples(name)
    if array("h", [1]).tobytes() != b"\x01\x00":  # big-endian host
        a = array("h", a)
        a.byteswap()
    return a.tobytes()


@cache
def wav_bytes(name: str) -> bytes:
    """A complete WAV file (16-bit mono, :data:`RATE` Hz) in memory."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm(name))
    return buf.getvalue()


def render_all() -> dict[str, bytes]:
    """Every sound as WAV bytes (fills the cache; about a quarter second on a laptop)."""
    return {name: wav_bytes(name) for name in SOUND_NAMES}


def clear_cache() -> None:
    samples.cache_clear()
    wav_bytes.cache_clear()


def duration(name: str) -> float:
    return len(samples(name)) / RATE


__all__ = [
    "RATE",
    "MAX_PEAK",
    "SOUND_NAMES",
    "RECIPES",
    "samples",
    "pcm",
    "wav_bytes",
    "render_all",
    "clear_cache",
    "duration",
    "note",
]
