"""A puzzle session in the game's real window: a private Xvfb, the keys pressed by xdotool.

    .venv/bin/python bench/puzzle_window.py [--game scopa] [--lang en] [--out DIR]

The window opens on the game's first shipped puzzle (``main.py --scene puzzle --game G
--step 1``, the puzzles screen beneath it) with ``--speech-log``, so the script reads what a
screen reader hears — the hand in the order the number keys pick it, the judgements, the
ratings — and presses keys as a player does (XTEST events into the real SDL window):

1. a wrong move → the refutation played, "Not this one", the rating down (F12);
2. Backspace, the right move → solved, as practice: the rating stays (F12);
3. Enter → the next puzzle at once (recognised by the hand read out), its right move(s) →
   solved, the rating up (F12);
4. Esc → the puzzles screen, D → the dashboard read out with the new rating (F12);

then SIGTERM closes the window as its close button does. Prints one JSON line (the ratings
said, the dashboard, the screenshots) and exits 1 when a step fails. Needs Xvfb and xdotool.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.card_names import card_name  # noqa: E402
from game.config import get_config  # noqa: E402
from game.puzzles import store  # noqa: E402
from game.puzzles.model import Puzzle  # noqa: E402
from game.rules.capture import captured  # noqa: E402
from game.services.i18n import I18n  # noqa: E402
from tests.xvfb import xvfb_display  # noqa: E402

WAIT = 30.0


class Failed(Exception):
    pass


class Window:
    """The game's process, its window and its speech log."""

    def __init__(self, display: str, home: Path, game: str, lang: str):
        self.display, self.home, self.lang = display, home, lang
        self.log = home / "speech.log"
        # Animations quick, so the session takes seconds (the settings file a player would have).
        (home / "settings.json").write_text(json.dumps({"animation_speed": "fast", "language": lang}))
        env = dict(os.environ, DISPLAY=display, CARDAVIA_HOME=str(home), SDL_AUDIODRIVER="dummy")
        env.pop("SDL_VIDEODRIVER", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.env = env
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "main.py"),
                "--scene",
                "puzzle",
                "--game",
                game,
                "--step",
                "1",
                "--render",
                "cpu",
                "--speech-log",
                str(self.log),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.read = 0
        # The hand read out: the window is up and drawing. Found by its process (without a
        # window manager xdotool sees no window as "visible"), then given the keyboard.
        self.wait_for(
            lambda x: x.startswith(I18n(lang).t("access.hand", count=2, cards="").split("2")[0]),
            "the hand read out",
            since=0,
        )
        self.read = 0
        for wid in self.xdo("search", "--sync", "--pid", str(self.proc.pid)).split():
            try:
                self.xdo("windowfocus", "--sync", wid)
                self.wid = wid
                break
            except Failed:
                continue
        else:
            raise Failed("the game's window cannot take the keyboard")

    def xdo(self, *args: str) -> str:
        r = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=WAIT)
        if r.returncode != 0:
            raise Failed(f"xdotool {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def key(self, *keys: str) -> None:
        for k in keys:
            self.xdo("key", "--delay", "40", k)
            time.sleep(0.08)  # a frame or two: the game reads its events once per frame

    def lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8").splitlines() if self.log.exists() else []

    def wait_for(self, pred: Any, what: str, since: int | None = None) -> list[str]:
        """The log's lines since ``since`` (default: the last wait) once one satisfies ``pred``."""
        start = self.read if since is None else since
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise Failed(
                    f"the game ended ({self.proc.returncode}) waiting for {what}: {self.proc.stderr.read()[-800:]}"
                )
            new = self.lines()[start:]
            if any(pred(line) for line in new):
                self.read = start + len(new)
                return new
            time.sleep(0.05)
        raise Failed(f"no {what} in the speech log; the last lines: {self.lines()[-8:]}")

    def screenshot(self, name: str, out: Path) -> Path:
        folder = self.home / "screenshots"
        before = set(folder.glob("*.png")) if folder.exists() else set()
        self.key("F12")
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            new = set(folder.glob("*.png")) - before if folder.exists() else set()
            if new:
                path = new.pop()
                time.sleep(0.2)  # written atomically: whole once it is there
                dest = out / f"{name}.png"
                shutil.copyfile(path, dest)
                return dest
            time.sleep(0.05)
        raise Failed(f"F12 wrote no screenshot for {name}")

    def close(self) -> int:
        self.proc.terminate()  # the close button's path: the loop ends, everything is kept
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9


class Player:
    """Knows the cards' names in the run's language and plays a move by the number keys."""

    def __init__(self, w: Window, game: str):
        self.w = w
        self.t = I18n(w.lang).t
        self.hand_prefix = self.t("access.hand", count=2, cards="").split("2")[0]

    def name(self, p: Puzzle, code: str) -> str:
        return card_name(self.t, get_config().decks[p.deck], self.w.lang, code)

    def hand_line(self, lines: list[str]) -> list[str]:
        line = next(x for x in reversed(lines) if x.startswith(self.hand_prefix))
        return [c.strip() for c in line.split(":", 1)[1].rstrip(".").split(",")]

    def identify(self, lines: list[str], game: str) -> Puzzle:
        """The shipped puzzle whose seat holds the hand just read out."""
        hand = sorted(self.hand_line(lines))
        for p in store.shipped(game):
            m = store.position(p)
            if sorted(self.name(p, c.code) for c in m.view(p.seat).hand) == hand:
                return p
        raise Failed(f"no shipped {game} puzzle has the hand {hand}")

    def play(self, p: Puzzle, step: int, right: bool, hand: list[str]) -> str:
        """Press the keys for the line's move at ``step`` (or the first other legal move)."""
        m = store.position_at(p, step)
        want = p.action(step)
        move = want if right else next(a for a in m.legal_actions() if a != want)
        i = hand.index(self.name(p, move.card.code))
        self.w.key(str(i + 1) if i < 9 else "0", "Return")
        # Enter plays a card that has one way; with several captures the table asks which (its
        # choices in the rules' order, read out as Tab moves): Tab to the one wanted, Enter; a
        # card put down instead of taking is P.
        same = [a for a in m.legal_actions() if a.card == move.card]
        caps = [a for a in same if captured(a)]
        if len(same) > 1 and captured(move):
            self.w.key(*(["Tab"] * caps.index(move)), "Return")
        elif len(same) > 1:
            self.w.key("p")
        return str(move)


def session(game: str, lang: str, out: Path) -> dict[str, Any]:
    report: dict[str, Any] = {"game": game, "lang": lang, "shots": []}
    t = I18n(lang).t
    rating_prefix = t("puzzle_ui.rating_player", before="\0", after="", diff="").split("\0")[0]
    with xvfb_display("1280x720x24") as display:
        home = Path(tempfile.mkdtemp(prefix="cardavia-puzzle-window-"))
        w = Window(display, home, game, lang)
        try:
            player = Player(w, game)
            t0 = time.monotonic()
            first = store.shipped(game)[0]
            opening = w.wait_for(lambda x: x.startswith(player.hand_prefix), "the hand read out")
            report["opening"] = opening[:4]
            # 1. A wrong move: refuted, the rating down.
            report["wrong_move"] = player.play(first, 0, False, player.hand_line(opening))
            said = w.wait_for(lambda x: x.startswith(rating_prefix), "the rating's change")
            if t("puzzle_ui.wrong") not in said:
                raise Failed(f"a wrong move was not called wrong: {said}")
            report["after_wrong"] = [x for x in said if x.startswith(rating_prefix)][0]
            w.wait_for(lambda x: x == t("puzzle_ui.wrong_said"), "the keys after a wrong move")
            report["shots"].append(str(w.screenshot("1-wrong", out)))
            # 2. Try again: the right move(s), practice.
            w.key("BackSpace")
            w.wait_for(lambda x: x.startswith(t("puzzle_ui.again_said", question="").strip()), "try again")
            step = 0
            hand = player.hand_line(w.lines())
            while True:
                player.play(first, step, True, hand)
                said = w.wait_for(
                    lambda x: x == t("puzzle_ui.solved") or x.startswith(t("puzzle_ui.next_move", n=9, total=9)[:8]),
                    "the next move or solved",
                )
                if t("puzzle_ui.solved") in said:
                    break
                step = first.seat_steps()[[i for i in first.seat_steps()].index(step) + 1]
                w.key("a")  # the hand read out again after the replies
                hand = player.hand_line(w.wait_for(lambda x: x.startswith(player.hand_prefix), "the hand"))
            report["practice"] = [x for x in w.lines()[-6:] if x == t("puzzle_ui.practice")]
            report["shots"].append(str(w.screenshot("2-solved-practice", out)))
            # 3. Enter: the next puzzle at once; solved; the rating up.
            w.key("Return")
            lines = w.wait_for(lambda x: x.startswith(player.hand_prefix), "the next puzzle's hand")
            nxt = player.identify(lines, game)
            report["next_puzzle"] = nxt.id
            step, hand = 0, player.hand_line(lines)
            while True:
                player.play(nxt, step, True, hand)
                said = w.wait_for(
                    lambda x: x.startswith(rating_prefix) or x.startswith(t("puzzle_ui.next_move", n=9, total=9)[:8]),
                    "the rating or the next move",
                )
                rated = [x for x in said if x.startswith(rating_prefix)]
                if rated:
                    report["after_right"] = rated[0]
                    break
                step = nxt.seat_steps()[nxt.seat_steps().index(step) + 1]
                w.key("a")
                hand = player.hand_line(w.wait_for(lambda x: x.startswith(player.hand_prefix), "the hand"))
            w.wait_for(lambda x: x == t("puzzle_ui.next_said"), "the keys after solving")
            report["shots"].append(str(w.screenshot("3-solved-rated", out)))
            # 4. The puzzles screen and its dashboard.
            w.key("Escape")
            w.wait_for(lambda x: x == t("puzzle_ui.intro"), "the puzzles screen")
            w.key("d")
            said = w.wait_for(
                lambda x: x.startswith(get_config().games[game].name.get(lang, game) + ":"), "the dashboard read out"
            )
            report["dashboard"] = said[-1]
            report["shots"].append(str(w.screenshot("4-dashboard", out)))
            report["seconds"] = round(time.monotonic() - t0, 1)
        finally:
            report["exit_code"] = w.close()
            shutil.copyfile(w.log, out / "speech.log")  # everything a screen reader was told
        progress = json.loads((home / "puzzles.json").read_text())
        report["saved_rating"] = round(progress["ratings"][game][0], 1)
        report["history"] = [round(v, 1) for _, v in progress["history"][game]]
        shutil.rmtree(home, ignore_errors=True)
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="scopa")
    ap.add_argument("--lang", default="en", choices=("en", "nl", "de", "it"))
    ap.add_argument("--out", default=None, help="where the screenshots go (default: a new temporary folder)")
    args = ap.parse_args()
    if shutil.which("xdotool") is None or shutil.which("Xvfb") is None:
        print("puzzle_window: needs Xvfb and xdotool (apt-get install xvfb xdotool)", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="cardavia-puzzle-shots-"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        report = session(args.game, args.lang, out)
    except Failed as e:
        print(json.dumps({"ok": False, "problem": str(e)}))
        return 1
    ok = "after_wrong" in report and "after_right" in report and report["exit_code"] == 0
    print(json.dumps({"ok": ok, **report}, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
