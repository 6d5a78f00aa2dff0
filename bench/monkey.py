"""Monkey test: random input into the window, headless, across every scene, without an exception.

    .venv/bin/python bench/monkey.py [--events 50000] [--seed 1]

Keys (with modifiers), clicks, drags, wheel, window resizes (VIDEORESIZE, WINDOWRESIZED,
WINDOWSIZECHANGED), focus changes and text input go to the menu, deck and game choice,
settings, rules, statistics, results, the pause overlay and a table for every game and
player count. The loop is driven directly (app.update / app.render on a fixed tick), so
no real time passes; bots are the random bot so a table never waits. Saves and statistics
go to a temporary CARDAVIA_HOME. Prints the event count; exits 1 on the first exception,
with the scene, the event and its index.

tests/scenes/test_monkey.py runs a short seeded version of the same thing.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Keys a player might press, plus a few nobody should (the monkey does).
KEY_NAMES = (
    "RETURN",
    "KP_ENTER",
    "ESCAPE",
    "TAB",
    "SPACE",
    "BACKSPACE",
    "DELETE",
    "LEFT",
    "RIGHT",
    "UP",
    "DOWN",
    "HOME",
    "END",
    "PAGEUP",
    "PAGEDOWN",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "0",
    "a",
    "c",
    "d",
    "h",
    "m",
    "n",
    "p",
    "q",
    "r",
    "s",
    "x",
    "z",
    "F1",
    "F5",
    "F11",
    "F12",
    "PLUS",
    "MINUS",
    "KP_PLUS",
    "KP_MINUS",
    "LSHIFT",
    "LCTRL",
    "LALT",
    "MENU",
)
CANVAS = (1280, 720)


def stations(config: Any) -> list[tuple[str, dict]]:
    """Where the monkey plays: every scene, and a table for every game and player count."""
    out: list[tuple[str, dict]] = [("menu", {}), ("decks", {}), ("settings", {}), ("stats", {}), ("menu", {})]
    for gid, g in config.games.items():
        deck = config.decks_for(gid)[0].id
        out.append(("games", {"deck": deck, "game": gid}))
        out.append(("rules", {"deck": deck, "game": gid}))
        out.append(("results", {"deck": deck, "game": gid}))
        for players in g.players:
            out.append(("table", {"deck": deck, "game": gid, "players": players}))
        out.append(("pause", {"deck": deck, "game": gid, "players": min(g.players)}))
    return out


class Monkey:
    def __init__(self, seed: int = 1, render_every: int = 3):
        import pygame

        from game.config import get_config
        from game.services.i18n import I18n
        from game.services.settings import Settings
        from scenes.app import App

        self.pg = pygame
        self.rng = random.Random(seed)
        self.render_every = render_every
        self.config = get_config()
        settings = Settings(language="en", animation_speed="fast")
        self.app = App(self.config, settings, I18n("en"), window=False, persist=False)
        self.keys = [getattr(pygame, f"K_{n}") for n in KEY_NAMES if hasattr(pygame, f"K_{n}")]
        self.count = 0
        self.gestures = 0
        self.seen: dict[str, int] = {}  # top scene name -> gestures it received
        self._moves: dict[int, int] = {}  # id(table) -> the player's moves it took from the monkey
        self.reopened = 0
        self.station: tuple[str, dict] = ("menu", {})
        self.recent: deque[str] = deque(maxlen=12)
        self.drag: tuple[int, int] | None = None

    # ------------------------------------------------------------------ stations
    def open(self, name: str, params: dict) -> None:
        """A fresh stack for the station (tables with the random bot, no worker thread)."""
        from scenes.registry import make_scene

        app = self.app
        app.running = True
        app.stack.clear()
        app.settings.animation_speed = self.rng.choice(("instant", "fast", "normal"))
        app.apply_settings()
        self.station = (name, params)
        if name in ("table", "pause"):
            app.open_path("menu")
            seed = self.rng.randrange(1, 10_000)
            table = make_scene(
                app,
                "table",
                deck=params["deck"],
                game=params["game"],
                players=params["players"],
                ai_level="random",
                seed=seed,
                threaded=False,
                autoplay_moves=self.rng.choice((0, 0, 3, 8, 30)),
                preselect=False,
            )
            app.stack.push(table)
            if name == "pause":
                app.open_scene("pause", table=table)
        else:
            app.open_path(name, **params)

    def ensure_alive(self) -> None:
        """The monkey pressed Quit (or popped everything): start the station again."""
        if not self.app.running or not self.app.stack:
            self.reopened += 1
            self.open(*self.station)

    # ------------------------------------------------------------------ events
    def _pos(self) -> tuple[int, int]:
        return self.rng.randrange(CANVAS[0]), self.rng.randrange(CANVAS[1])

    def _widget_pos(self) -> tuple[int, int]:
        """Half of the clicks aim at a control of the top scene, so buttons really get pressed."""
        top = self.app.stack.top
        ui = getattr(top, "ui", None)
        widgets = [w for w in getattr(ui, "widgets", []) if w.visible] if ui is not None else []
        if widgets and self.rng.random() < 0.5:
            r = self.rng.choice(widgets).rect
            return (r.x + self.rng.randrange(max(1, r.w)), r.y + self.rng.randrange(max(1, r.h)))
        # The table's hand (its model's) and where its cards are drawn (its motion's sprites).
        motion = getattr(top, "motion", None)
        hand = getattr(getattr(top, "model", None), "hand", None)
        if hand and self.rng.random() < 0.5 and hasattr(motion, "sprites"):
            sp = motion.sprites.get(self.rng.choice(list(hand)))
            rect = getattr(sp, "rect", None)
            if rect is not None:
                return rect.center
        return self._pos()

    def events(self) -> list[Any]:
        """One random gesture: a list of pygame events (a click is motion, down, up)."""
        pg, rng = self.pg, self.rng
        E = pg.event.Event
        top = self.app.stack.top
        controller = getattr(top, "controller", None)
        if getattr(top, "name", "") == "table" and getattr(controller, "can_act", False) and rng.random() < 0.3:
            # Half-sensible play at the table when it is the player's turn (while the computer
            # plays on, a card key is only refused): a card by its number, then Enter (or twice).
            digit = pg.K_1 + rng.randrange(max(1, len(top.model.hand) or 1))
            return [
                E(pg.KEYDOWN, key=k, mod=0, unicode="", scancode=0)
                for k in (digit, *([pg.K_RETURN] * rng.randrange(1, 3)))
            ]
        roll = rng.random()
        if roll < 0.36:
            mod = rng.choice((0, 0, 0, 0, pg.KMOD_SHIFT, pg.KMOD_CTRL, pg.KMOD_ALT, pg.KMOD_LSHIFT | pg.KMOD_CTRL))
            k = rng.choice(self.keys)
            ch = chr(k) if 32 <= k < 127 else ""
            evs = [E(pg.KEYDOWN, key=k, mod=mod, unicode=ch, scancode=0)]
            if rng.random() < 0.5:
                evs.append(E(pg.KEYUP, key=k, mod=mod, unicode=ch, scancode=0))
            return evs
        if roll < 0.62:
            pos = self._widget_pos()
            button = rng.choice((1, 1, 1, 1, 3, 2, 8, 9))
            return [
                E(pg.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                E(pg.MOUSEBUTTONDOWN, pos=pos, button=button),
                E(pg.MOUSEBUTTONUP, pos=pos, button=button),
            ]
        if roll < 0.72:
            start = self._widget_pos()
            evs = [E(pg.MOUSEBUTTONDOWN, pos=start, button=1)]
            x, y = start
            for _ in range(rng.randrange(2, 7)):
                nx = max(0, min(CANVAS[0] - 1, x + rng.randrange(-160, 161)))
                ny = max(0, min(CANVAS[1] - 1, y + rng.randrange(-120, 121)))
                evs.append(E(pg.MOUSEMOTION, pos=(nx, ny), rel=(nx - x, ny - y), buttons=(1, 0, 0)))
                x, y = nx, ny
            evs.append(E(pg.MOUSEBUTTONUP, pos=(x, y), button=1))
            return evs
        if roll < 0.79:
            return [
                E(
                    pg.MOUSEWHEEL,
                    x=0,
                    y=rng.choice((-3, -1, -1, 1, 1, 3)),
                    flipped=False,
                    pos=self._widget_pos(),
                    precise_x=0.0,
                    precise_y=0.0,
                    touch=False,
                )
            ]
        if roll < 0.84:
            w, h = rng.randrange(320, 2561), rng.randrange(180, 1441)
            kind = rng.choice((pg.VIDEORESIZE, pg.WINDOWRESIZED, pg.WINDOWSIZECHANGED))
            if kind == pg.VIDEORESIZE:
                return [E(kind, size=(w, h), w=w, h=h)]
            return [E(kind, x=w, y=h)]
        if roll < 0.89:
            kind = rng.choice(
                (
                    pg.WINDOWFOCUSLOST,
                    pg.WINDOWFOCUSGAINED,
                    pg.WINDOWENTER,
                    pg.WINDOWLEAVE,
                    pg.WINDOWMINIMIZED,
                    pg.WINDOWRESTORED,
                    pg.WINDOWEXPOSED,
                    pg.ACTIVEEVENT,
                )
            )
            if kind == pg.ACTIVEEVENT:
                return [E(kind, gain=rng.randrange(2), state=rng.choice((1, 2, 4)))]
            return [E(kind)]
        if roll < 0.95:
            text = rng.choice(("a", "Z", "7", " ", "é", "ß", "ñ", "😀", "\u200b", "Ω"))
            if rng.random() < 0.2:
                return [E(pg.TEXTEDITING, text=text, start=0, length=1)]
            return [E(pg.TEXTINPUT, text=text)]
        pos = self._pos()
        return [E(pg.MOUSEMOTION, pos=pos, rel=(rng.randrange(-9, 10), rng.randrange(-9, 10)), buttons=(0, 0, 0))]

    def feed(self, event: Any) -> None:
        """Keys and window events through the app (global keys included); mouse events in
        canvas pixels straight to the stack (the headless display has no letterbox), and
        through the app's mouse filter too (letterbox clicks, clamping), which must never fail either."""
        pg = self.pg
        app = self.app
        if event.type in (pg.MOUSEMOTION, pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP, pg.MOUSEWHEEL):
            app.map_event(event)
            app.stack.handle(event)
        else:
            app.dispatch(event)

    # ------------------------------------------------------------------ the run
    def run(self, total: int) -> int:
        all_stations = stations(self.config)
        per = max(1, total // len(all_stations))
        i = 0
        while self.count < total:
            name, params = all_stations[i % len(all_stations)]
            i += 1
            self.open(name, params)
            for _ in range(per):
                if self.count >= total:
                    break
                for ev in self.events():
                    self.recent.append(f"{self.pg.event.event_name(ev.type)} {ev.dict}")
                    try:
                        self.feed(ev)
                        self.ensure_alive()
                    except Exception as e:
                        e.add_note(self.context())
                        raise
                    self.count += 1
                try:
                    for _ in range(self.rng.randrange(1, 4)):
                        self.app.update(1 / 60)
                        self.ensure_alive()
                    self.gestures += 1
                    name = getattr(self.app.stack.top, "name", "")
                    self.seen[name] = self.seen.get(name, 0) + 1
                    if name == "table":
                        self._moves[id(self.app.stack.top)] = len(self.app.stack.top.controller.submitted)
                    if self.gestures % self.render_every == 0:
                        self.app.render(self.rng.random())
                except Exception as e:
                    e.add_note(self.context())
                    raise
        return self.count

    @property
    def table_moves(self) -> int:
        """Moves the monkey got accepted at tables (clicks and keys that played a card)."""
        return sum(self._moves.values())

    def context(self) -> str:
        top = self.app.stack.top
        return (
            f"monkey: station {self.station[0]} {self.station[1]}, top scene "
            f"{getattr(top, 'name', None)!r}, event #{self.count}; recent events:\n  " + "\n  ".join(self.recent)
        )


def random_bots() -> dict[str, str]:
    """Every bot level played by the random bot (a table never waits); returns the old map."""
    from game.ai.bots import BOTS

    old = dict(BOTS)
    for name in ("greedy", "easy", "normal", "hard"):
        BOTS[name] = BOTS["random"]
    return old


def main() -> int:
    ap = argparse.ArgumentParser(description="random input into every scene, headless")
    ap.add_argument("--events", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["CARDAVIA_HOME"] = tempfile.mkdtemp(prefix="cardavia-monkey-")  # never the player's saves
    from game.ai.bots import BOTS

    old = random_bots()
    start = time.perf_counter()
    monkey = Monkey(args.seed)
    try:
        n = monkey.run(args.events)
    except Exception:
        traceback.print_exc()
        print(f"monkey: FAILED after {monkey.count} events (seed {args.seed})")
        return 1
    finally:
        BOTS.clear()
        BOTS.update(old)
    took = time.perf_counter() - start
    print(
        f"monkey: {n} events over {len(stations(monkey.config))} stations, seed {args.seed}, "
        f"{monkey.reopened} restarts after Quit, {monkey.app.frames} frames, 0 exceptions, {took:.1f} s"
    )
    print(f"monkey: {monkey.table_moves} moves played at tables by random input")
    print("monkey: gestures per scene: " + ", ".join(f"{k} {v}" for k, v in sorted(monkey.seen.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
