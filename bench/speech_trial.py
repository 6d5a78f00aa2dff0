"""A Briscola deal played by keys and ears alone (issue 32's "done when"): the real window
under Xvfb, espeak-ng speaking every line into WAV files, the player (this script) reading
only the speech log — never the screen — and pressing keys through xdotool.

At each "Your turn." it asks for the hand (A), the trick (D) and the trumps (W), then plays:
a card that beats the card led when one is heard (same suit, higher by Briscola's order, or
a trump on a plain card), else its lowest card. It prints what was said and the figures
(lines, WAV files, seconds of speech, the deal's length).

    .venv/bin/python bench/speech_trial.py [--seed 41] [--out DIR]

Needs Xvfb, xdotool and espeak-ng.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["2", "4", "5", "6", "7", "Knave", "Knight", "King", "3", "Ace"]  # Briscola, low to high


def parse_card(words: str) -> tuple[str, str] | None:
    m = re.match(r"(?:the )?(\w+) of (\w+)", words.strip())
    return (m.group(1), m.group(2)) if m else None


def choose(hand: list[tuple[str, str]], led: tuple[str, str] | None, trump: str | None) -> int:
    def strength(c: tuple[str, str]) -> int:
        return ORDER.index(c[0]) if c[0] in ORDER else 0

    if led is not None:
        better = [i for i, c in enumerate(hand) if c[1] == led[1] and strength(c) > strength(led)]
        if not better and led[1] != trump and strength(led) >= ORDER.index("3"):
            better = [i for i, c in enumerate(hand) if c[1] == trump]
        if better:
            return better[0]
    plain = [i for i, c in enumerate(hand) if c[1] != trump] or list(range(len(hand)))
    return min(plain, key=lambda i: strength(hand[i]))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="cardavia-ears-"))
    wavs = out / "wav"
    wavs.mkdir(parents=True, exist_ok=True)
    log = out / "speech.txt"
    home = out / "home"
    home.mkdir(exist_ok=True)
    display = ":57"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x720x24"], stderr=subprocess.DEVNULL)
    env = dict(
        os.environ, DISPLAY=display, CARDAVIA_HOME=str(home), CARDAVIA_SPEECH_WAV_DIR=str(wavs), SDL_AUDIODRIVER="dummy"
    )
    env.pop("SDL_VIDEODRIVER", None)
    time.sleep(1.0)
    game = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "main.py"),
            "--scene",
            "table",
            "--game",
            "briscola",
            "--players",
            "2",
            "--seed",
            str(args.seed),
            "--speech",
            "on",
            "--speech-log",
            str(log),
        ],
        env=env,
    )
    t0 = time.monotonic()
    seen = 0

    def lines() -> list[str]:
        return log.read_text(encoding="utf-8").splitlines() if log.exists() else []

    def press(*keys: str) -> None:
        for k in keys:
            subprocess.run(["xdotool", "key", "--clearmodifiers", k], env=env, check=False)
            time.sleep(0.15)

    def ask(k: str) -> str:
        before = len(lines())
        press(k)
        for _ in range(40):
            now = lines()
            if len(now) > before:
                return now[-1]
            time.sleep(0.05)
        return ""

    try:
        for _ in range(40):  # the window opens
            if subprocess.run(["xdotool", "search", "--name", "Cardavia"], env=env, capture_output=True).stdout:
                break
            time.sleep(0.25)
        win = subprocess.run(
            ["xdotool", "search", "--name", "Cardavia"], env=env, capture_output=True, text=True
        ).stdout.split()
        if win:
            subprocess.run(["xdotool", "windowfocus", "--sync", win[0]], env=env, check=False)
        plays = 0
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            said = lines()
            new, seen = said[seen:], len(said)
            for s in new:
                print("  ♪", s)
            if any(s.startswith("Results") or "wins the deal" in s or s.startswith("Deal 2") for s in new):
                break
            if "Your turn." in new:
                hand_line = ask("a")
                trick_line = ask("d")
                trump_line = ask("w")
                cards = hand_line.split(":", 1)[1].rstrip(".") if ":" in hand_line else ""
                hand = [c for c in (parse_card(x) for x in cards.split(",")) if c]
                led = None
                m = re.search(r"played the (.+?)\.", trick_line)
                if m:
                    led = parse_card(m.group(1))
                tm = re.match(r"Trumps are (\w+)", trump_line)
                trump = tm.group(1) if tm else None
                if not hand:
                    time.sleep(0.2)
                    continue
                i = choose(hand, led, trump)
                press(str(i + 1) if i < 9 else "0")
                time.sleep(0.3)
                press("Return")
                plays += 1
                print(f"  → played card {i + 1} of {len(hand)}")
            time.sleep(0.2)
        elapsed = time.monotonic() - t0
    finally:
        game.terminate()
        try:
            game.wait(10)
        except subprocess.TimeoutExpired:
            game.kill()
        xvfb.terminate()
    files = sorted(wavs.glob("*.wav"))
    seconds = 0.0
    for f in files:
        try:
            with wave.open(str(f)) as w:
                seconds += w.getnframes() / w.getframerate()
        except (wave.Error, EOFError):
            pass
    voiced = [
        f.with_suffix(".txt").read_text(encoding="utf-8").strip() for f in files if f.with_suffix(".txt").exists()
    ]
    computer = [s for s in lines() if s.startswith("North ") and (" plays " in s or " leads " in s)]
    heard = [s for s in computer if s in voiced]
    print(
        f"computer plays logged: {len(computer)}, voiced: {len(heard)}; "
        f"lines cut by a later key before they were voiced: {len(lines()) - len(voiced)}"
    )
    print(
        f"plays by keys: {plays}; lines said: {len(lines())}; WAV files: {len(files)}; "
        f"speech: {seconds:.0f} s; the deal took {elapsed:.0f} s; files in {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
