"""Render every game sound, time it, print level statistics and write WAVs for listening.

    .venv/bin/python bench/sounds.py [OUT_DIR]      (default /tmp/cardavia_sounds)

Figures: cold render time of all sounds (the start-up cost, best of 5 fresh renders), and per
sound its length, peak and RMS in dBFS. Inspect the files with `sox --i` / `sox F -n stat`.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audio import synth  # noqa: E402


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("/tmp/cardavia_sounds")
    times = []
    for _ in range(5):
        synth.clear_cache()
        t = time.perf_counter()
        synth.render_all()
        times.append(time.perf_counter() - t)
    print(
        f"render all {len(synth.SOUND_NAMES)} sounds: best {min(times) * 1000:.0f} ms, "
        f"worst {max(times) * 1000:.0f} ms (of 5 cold renders)"
    )
    out.mkdir(parents=True, exist_ok=True)
    print(f"{'sound':11s} {'ms':>6s} {'peak dBFS':>10s} {'rms dBFS':>9s}")
    for name in synth.SOUND_NAMES:
        s = synth.samples(name)
        peak = max(abs(v) for v in s) / 32767
        rms = math.sqrt(sum(v * v for v in s) / len(s)) / 32767
        print(f"{name:11s} {len(s) / synth.RATE * 1000:6.0f} {20 * math.log10(peak):10.1f} {20 * math.log10(rms):9.1f}")
        (out / f"{name}.wav").write_bytes(synth.wav_bytes(name))
    print(f"wrote {len(synth.SOUND_NAMES)} WAVs to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
