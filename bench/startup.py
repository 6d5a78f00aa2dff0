"""Launch to first frame: median of N launches of the executable (or of main.py).

    .venv/bin/python bench/startup.py [--exe dist/cardavia] [--runs 10]
    .venv/bin/python bench/startup.py --exe dist/cardavia-onedir/cardavia   # the folder build

Each launch runs ``--first-frame`` (start, draw the menu once, exit) with the dummy video
driver; the figure is wall time from process start to exit, so it includes the exit too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", default=str(ROOT / "dist" / "cardavia"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--source", action="store_true", help="time `python main.py` instead of the executable")
    args = ap.parse_args()
    cmd = [sys.executable, str(ROOT / "main.py")] if args.source else [args.exe]
    if not args.source and not Path(args.exe).exists():
        print(f"no executable at {args.exe}: run `make exe` first", file=sys.stderr)
        return 2
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=tempfile.mkdtemp())
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        subprocess.run(
            cmd + ["--first-frame"], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        times.append(time.perf_counter() - t)
    print(
        f"first frame median s: {statistics.median(times):.3f} (min {min(times):.3f}, max {max(times):.3f}, {args.runs} runs)"
    )
    if not args.source:
        exe = Path(args.exe)
        if (exe.parent / "_internal").is_dir():  # a folder build: the program and its libraries
            size = sum(p.stat().st_size for p in exe.parent.rglob("*") if p.is_file() and not p.is_symlink())
            print(f"folder build MB: {size / 1e6:.1f} ({exe.parent})")
        else:
            print(f"executable MB: {exe.stat().st_size / 1e6:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
