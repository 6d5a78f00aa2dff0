"""The window: command line, the fixed-tick loop, letterboxing, post-processing, screenshots.

Everything is drawn on a 1280×720 logical canvas; the canvas is scaled to fit the window
with letterboxing (nothing is ever cut off) and mouse positions are mapped back, so scenes
only ever think in canvas pixels.

The loop runs the simulation at a fixed 60 updates per second with an accumulator and
renders once per pass with the leftover fraction as interpolation ``alpha``; the clock
(``tick(fps) -> ms``) paces it without busy-waiting and can be replaced in tests.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

CANVAS_SIZE = (1280, 720)
TICK_RATE = 60
TICK = 1.0 / TICK_RATE
MAX_FPS = 60
MAX_FRAME_TIME = 0.25  # after a stall, skip ahead rather than run hundreds of catch-up ticks
SCREENSHOT_TICKS = 45  # updates run before a --screenshot, so entry animations have settled
FADE_SECONDS = 0.22

SCREENSHOT_SCENES = ("menu", "decks", "games", "settings")


class Clock(Protocol):
    def tick(self, framerate: int = 0) -> int: ...


# ====================================================================== the app context
class App:
    """The services every scene reaches: config, settings, i18n, stack, fonts, screenshot…"""

    def __init__(self, config: Any, settings: Any, i18n: Any, *, clock: Clock | None = None,
                 window: bool = True, persist: bool = True, fullscreen: bool | None = None,
                 window_size: tuple[int, int] | None = None):
        import pygame

        from scenes.scene import SceneStack
        from sprites import theme, tween
        from sprites.postfx import PostFX
        from sprites.widgets import Toasts

        self.pg = pygame
        self.config = config
        self.settings = settings
        self.i18n = i18n
        self.theme = theme
        self.fonts = theme.font
        self.persist = persist
        self.stack = SceneStack()
        self.stack.on_change = self._on_scene_change
        self.toasts = Toasts()
        self.postfx = PostFX(CANVAS_SIZE)
        self.clock: Clock = clock or pygame.time.Clock()
        self.running = True
        self.time = 0.0
        self.updates = 0
        self.frames = 0
        self.alpha = 1.0
        self._fade: Any = None  # (snapshot surface, elapsed seconds)
        self._scaled: Any = None
        self._tween = tween
        self._window_size = window_size or CANVAS_SIZE

        if not pygame.display.get_init():
            pygame.display.init()
        if not pygame.font.get_init():
            pygame.font.init()
        pygame.key.set_repeat(320, 45)
        self.has_window = window
        if window:
            pygame.display.set_caption("Cardavia")
            self._set_icon()
            want_full = settings.fullscreen if fullscreen is None else fullscreen
            self._open_window(want_full)
        else:
            # Screenshots: a hidden 1×1 surface is enough for convert() and fonts.
            if pygame.display.get_surface() is None:
                pygame.display.set_mode((1, 1), pygame.HIDDEN)
        self.canvas = pygame.Surface(CANVAS_SIZE).convert()
        # Sound only with a real window (screenshots and tests stay silent). The audio
        # package never raises; without it the game is simply silent.
        self.audio: Any = None
        self._audio_preloaded = False
        if window:
            try:
                from audio import Audio
            except ImportError:
                Audio = None
            if Audio is not None:
                self.audio = Audio(volume=settings.volume, muted=settings.muted, speed=settings.animation_speed)
                # Sounds are synthesised after the first frame is shown (see update), so
                # start-up is not slowed by it.
        from sprites import widgets

        widgets.set_feedback(self.sound)
        self.apply_settings()

    # ------------------------------------------------------------------ services
    def t(self, key: str, **params: Any) -> str:
        return self.i18n.t(key, **params)

    @property
    def language(self) -> str:
        return self.i18n.language

    def sound(self, name: str) -> None:
        """Play a named sound if sound is available (UI clicks, cues)."""
        if self.audio is not None:
            self.audio.play(name)

    def apply_settings(self) -> None:
        """Push the settings into the subsystems (picture, motion, sound, language)."""
        s = self.settings
        self.postfx.configure(s.contrast, s.grain, s.temperature)
        self._tween.set_animation_speed(s.animation_speed)
        if self.audio is not None:
            self.audio.apply_settings(s)
        if s.language != self.i18n.language:
            self.i18n.set_language(s.language)

    def set_setting(self, name: str, value: Any, commit: bool = True) -> None:
        """Change one setting, apply it at once, and save when ``commit``."""
        if getattr(self.settings, name) == value:
            if commit:
                self.save_settings()
            return
        setattr(self.settings, name, value)
        if name == "fullscreen" and self.has_window:
            self._open_window(bool(value))
        self.apply_settings()
        if commit:
            self.save_settings()

    def save_settings(self) -> None:
        if not self.persist:
            return
        from game.settings import save_settings

        problem = save_settings(self.settings)
        if problem:
            self.toast(problem)

    def toast(self, message: str) -> None:
        self.toasts.show(message)

    def push(self, scene: Any) -> Any:
        return self.stack.push(scene)

    def open_scene(self, name: str, **params: Any) -> bool:
        """Push the scene registered as ``name``; a friendly toast if it is not there yet."""
        from scenes.scene import make_scene

        scene = make_scene(self, name, **params)
        if scene is None:
            self.toast(self.t("toast.not_ready", what=self.t(f"scene.{name}")))
            return False
        self.stack.push(scene)
        return True

    def open_path(self, name: str, **params: Any) -> None:
        """Build the stack for ``name`` from scratch: its usual parents, then the scene."""
        from scenes.scene import SCENE_PARENTS, make_scene

        self.stack.scenes.clear()
        for parent in (*SCENE_PARENTS.get(name, ("menu",)), name):
            scene = make_scene(self, parent, **params)
            if scene is None:
                raise ValueError(f"scene {parent!r} is not available")
            self.stack.push(scene)
        self._fade = None

    def quit(self) -> None:
        self.running = False

    # ------------------------------------------------------------------ window
    def _set_icon(self) -> None:
        pg = self.pg
        icon = pg.Surface((32, 32), pg.SRCALPHA)
        pg.draw.rect(icon, (31, 90, 58), (0, 0, 32, 32), border_radius=6)
        pg.draw.rect(icon, (201, 164, 92), (0, 0, 32, 32), 2, border_radius=6)
        pg.draw.polygon(icon, (243, 234, 215), [(16, 5), (26, 16), (16, 27), (6, 16)])
        pg.draw.polygon(icon, (192, 38, 45), [(16, 10), (21, 16), (16, 22), (11, 16)])
        pg.display.set_icon(icon)

    def _open_window(self, fullscreen: bool) -> None:
        pg = self.pg
        if fullscreen:
            pg.display.set_mode((0, 0), pg.FULLSCREEN)
        else:
            pg.display.set_mode(self._window_size, pg.RESIZABLE)
        self._scaled = None

    def toggle_fullscreen(self) -> None:
        self.set_setting("fullscreen", not self.settings.fullscreen)

    def view_rect(self, window_size: tuple[int, int] | None = None) -> Any:
        """Where the canvas appears in the window: as large as fits, centred (letterbox)."""
        ww, wh = window_size or self._window_surface_size()
        cw, ch = CANVAS_SIZE
        scale = min(ww / cw, wh / ch)
        w, h = max(1, round(cw * scale)), max(1, round(ch * scale))
        return self.pg.Rect((ww - w) // 2, (wh - h) // 2, w, h)

    def _window_surface_size(self) -> tuple[int, int]:
        surf = self.pg.display.get_surface()
        return surf.get_size() if surf is not None else CANVAS_SIZE

    def to_canvas(self, pos: tuple[int, int], window_size: tuple[int, int] | None = None) -> tuple[int, int]:
        """A window position in canvas pixels (clamped to the canvas)."""
        v = self.view_rect(window_size)
        x = (pos[0] - v.x) * CANVAS_SIZE[0] / v.w
        y = (pos[1] - v.y) * CANVAS_SIZE[1] / v.h
        return (int(max(0, min(CANVAS_SIZE[0] - 1, x))), int(max(0, min(CANVAS_SIZE[1] - 1, y))))

    def map_event(self, event: Any) -> Any:
        """Mouse events in canvas coordinates; a click in the letterbox bars is dropped."""
        pg = self.pg
        if event.type == pg.MOUSEWHEEL:
            # Wheel events carry no position; give them the pointer's, in canvas pixels.
            data = dict(event.dict)
            data["pos"] = self.to_canvas(pg.mouse.get_pos()) if self.has_window else data.get("pos", (0, 0))
            return pg.event.Event(event.type, data)
        if event.type in (pg.MOUSEMOTION, pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP) and hasattr(event, "pos"):
            if event.type == pg.MOUSEBUTTONDOWN and not self.view_rect().collidepoint(event.pos):
                return None
            data = dict(event.dict)
            data["pos"] = self.to_canvas(event.pos)
            if "rel" in data:
                v = self.view_rect()
                data["rel"] = (round(data["rel"][0] * CANVAS_SIZE[0] / v.w), round(data["rel"][1] * CANVAS_SIZE[1] / v.h))
            return pg.event.Event(event.type, data)
        return event

    # ------------------------------------------------------------------ events
    def dispatch(self, event: Any) -> None:
        """Global keys first (F11, F12, quit), then the top scene."""
        pg = self.pg
        if event.type == pg.QUIT:
            self.quit()
            return
        if event.type == pg.KEYDOWN:
            if event.key == pg.K_F11 or (event.key == pg.K_RETURN and event.mod & pg.KMOD_ALT):
                self.toggle_fullscreen()
                return
            if event.key == pg.K_m and not event.mod & (pg.KMOD_CTRL | pg.KMOD_ALT):
                self.set_setting("muted", not self.settings.muted)
                self.toast(self.t("toast.muted" if self.settings.muted else "toast.unmuted"))
                return
            if event.key == pg.K_F12:
                path = self.screenshot()
                if path is not None:
                    self.toast(self.t("toast.screenshot", file=path.name))
                return
        if event.type in (pg.VIDEORESIZE, pg.WINDOWSIZECHANGED):
            self._scaled = None
            return
        mapped = self.map_event(event)
        if mapped is not None:
            self.stack.handle(mapped)

    # ------------------------------------------------------------------ the loop
    def update(self, dt: float = TICK) -> None:
        """One fixed tick."""
        self.stack.update(dt)
        self.toasts.update(dt)
        if self.audio is not None:
            if self.frames and not self._audio_preloaded:
                self._audio_preloaded = True
                self.audio.preload()
            self.audio.update(dt)
        if self._fade is not None:
            self._fade[1] += dt
            if self._fade[1] >= self._tween.scaled(FADE_SECONDS):
                self._fade = None
        self.time += dt
        self.updates += 1
        if not self.stack:
            self.quit()

    def render(self, alpha: float = 1.0) -> Any:
        """Draw the stack, fades and toasts on the canvas and post-process it; returns the canvas."""
        self.alpha = alpha
        canvas = self.canvas
        self.stack.draw(canvas, alpha)
        if self._fade is not None:
            snap, elapsed = self._fade
            d = self._tween.scaled(FADE_SECONDS)
            t = 1.0 if d <= 0 else min(1.0, elapsed / d)
            snap.set_alpha(int(255 * (1 - self._tween.ease_out_cubic(t))))
            canvas.blit(snap, (0, 0))
        self.toasts.draw(canvas)
        self.postfx.apply(canvas, self.time)
        self.frames += 1
        return canvas

    def present(self) -> None:
        """Show the canvas in the window, scaled to fit with black bars."""
        pg = self.pg
        window = pg.display.get_surface()
        if window is None or not self.has_window:
            return
        if window.get_size() == CANVAS_SIZE:
            window.blit(self.canvas, (0, 0))
        else:
            v = self.view_rect(window.get_size())
            if self._scaled is None or self._scaled.get_size() != v.size:
                self._scaled = pg.Surface(v.size).convert()
                window.fill((0, 0, 0))
            pg.transform.smoothscale(self.canvas, v.size, self._scaled)
            window.blit(self._scaled, v.topleft)
        pg.display.flip()

    def run(self, max_frames: int | None = None) -> int:
        """The main loop: events, fixed updates from the accumulator, one render per pass."""
        pg = self.pg
        accumulator = 0.0
        frames = 0
        self.clock.tick(MAX_FPS)  # start the clock so the first frame's dt is small
        while self.running:
            ms = self.clock.tick(MAX_FPS)
            accumulator += min(MAX_FRAME_TIME, max(0.0, ms / 1000.0))
            for event in pg.event.get():
                self.dispatch(event)
                if not self.running:  # the window was closed: nothing after it counts
                    break
            while accumulator >= TICK and self.running:
                self.update(TICK)
                accumulator -= TICK
            if not self.running:
                break
            self.render(accumulator / TICK)
            self.present()
            frames += 1
            if max_frames is not None and frames >= max_frames:
                break
        if not self.running:
            self.shutdown()
        return 0

    def shutdown(self) -> None:
        """The app is closing (window close, Alt-F4, Quit, SIGTERM): every scene that holds a
        match saves it and abandons its thinking bot (``close()``), top first. No more frames."""
        for scene in reversed(list(self.stack.scenes)):
            close = getattr(scene, "close", None)
            if scene.name == "table" and callable(close):
                try:
                    close()
                except Exception as e:  # noqa: BLE001 - one scene's failure must not cost the others
                    print(f"cardavia: could not close the {scene.name} cleanly: {e}", file=sys.stderr)

    def _on_scene_change(self, old: Any, new: Any) -> None:
        # Cross-fade between full screens; overlays animate their own entrance.
        if old is None or new is None or old.is_overlay or new.is_overlay or self._tween.speed_factor() <= 0:
            return
        snap = self.pg.Surface(CANVAS_SIZE).convert()
        old.draw(snap)
        self._fade = [snap, 0.0]

    # ------------------------------------------------------------------ screenshots
    def screenshot(self, path: Path | None = None) -> Path | None:
        """Save the last frame as PNG (default: screenshots/ in the user data folder)."""
        from game.settings import user_data_dir

        if path is None:
            folder = user_data_dir() / "screenshots"
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = folder / f"cardavia-{stamp}.png"
            n = 2
            while path.exists():
                path = folder / f"cardavia-{stamp}-{n}.png"
                n += 1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.pg.image.save(self.canvas, str(path))
        except (OSError, self.pg.error) as e:
            self.toast(self.t("toast.screenshot_failed", reason=str(e)))
            return None
        return path

    def settle(self, ticks: int = SCREENSHOT_TICKS) -> None:
        """Run fixed updates without a clock (screenshots, tests); scenes under the top one
        are ticked too, so a stack built in one go looks as if it had been walked through."""
        for _ in range(ticks):
            for scene in self.stack.scenes[:-1]:
                scene.update(TICK)
            self.update(TICK)


# ====================================================================== command line
class ArgError(Exception):
    """A bad command line; the message is one line for the player."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ArgError(_friendly(message))


def _friendly(message: str) -> str:
    if message.startswith("unrecognized arguments:"):
        args = message.split(":", 1)[1].strip()
        return f"unknown option {args}"
    if message.startswith("argument "):
        opt, _, rest = message[len("argument "):].partition(": ")
        opt = opt.split("/")[-1]
        if rest.startswith("expected one argument"):
            return f"{opt} needs a value"
        if rest.startswith("invalid choice:"):
            return f"{opt}: {rest[len('invalid choice: '):]}"
        return f"{opt}: {rest}"
    return message


def _percent(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 100, not {value!r}") from None
    if not 0 <= n <= 100:
        raise argparse.ArgumentTypeError(f"must be from 0 to 100, not {n}")
    return n


def _ticks(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {value!r}") from None
    if not 0 <= n <= 6000:
        raise argparse.ArgumentTypeError(f"must be from 0 to 6000, not {n}")
    return n


def _size(value: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in value.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must look like 1280x720, not {value!r}") from None
    if not (320 <= w <= 8192 and 180 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"{w}x{h} is out of range (320x180 to 8192x8192)")
    return w, h


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="cardavia",
        description="Cardavia — Scopa, Cìcera, Briscola and Schnapsen against the computer.",
        epilog="Headless commands: 'simulate' and 'verify' (see 'main.py simulate --help'). "
               "In the window: F11 fullscreen, F12 screenshot.",
    )
    p.add_argument("--screenshot", metavar="FILE", help="render a scene to this PNG file and exit")
    p.add_argument("--scene", metavar="NAME", help="scene to open: menu, decks, games, settings (default: menu)")
    p.add_argument("--deck", metavar="D", help="deck for the games scene (e.g. piacentine)")
    p.add_argument("--game", metavar="G", help="game to preselect (scopa, cicera, briscola, schnapsen)")
    p.add_argument("--lang", choices=("en", "nl", "de", "it"), help="language for this run")
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="players at the table (table scene)")
    p.add_argument("--seed", type=int, metavar="S", help="fixed cards for the table scene (a mid-deal screenshot)")
    p.add_argument("--match-end", action="store_true",
                   help="results scene: play the demo match to its end and show the match result")
    p.add_argument("--contrast", type=_percent, metavar="N", help="picture contrast 0–100 (50 neutral)")
    p.add_argument("--grain", type=_percent, metavar="N", help="film grain 0–100 (50 neutral)")
    p.add_argument("--temperature", type=_percent, metavar="N", help="colour temperature 0–100 (50 neutral)")
    p.add_argument("--fullscreen", action="store_true", help="start in fullscreen")
    p.add_argument("--window", type=_size, metavar="WxH", help="window size (default 1280x720)")
    p.add_argument("--ticks", type=_ticks, default=SCREENSHOT_TICKS, help=argparse.SUPPRESS)
    return p


def _validate(args: argparse.Namespace, config: Any) -> None:
    from scenes.scene import available_scenes

    if args.scene is not None:
        names = available_scenes()
        if args.scene not in names:
            raise ArgError(f"unknown scene {args.scene!r} (scenes: {', '.join(names)})")
    if args.deck is not None and args.deck not in config.decks:
        raise ArgError(f"unknown deck {args.deck!r} (decks: {', '.join(config.decks)})")
    if args.game is not None:
        if args.game not in config.games:
            raise ArgError(f"unknown game {args.game!r} (games: {', '.join(config.games)})")
        if args.deck is not None and args.game not in config.decks[args.deck].games:
            raise ArgError(f"the {args.deck} deck does not offer {args.game} "
                           f"(it offers: {', '.join(config.decks[args.deck].games)})")
    if args.screenshot is not None and not args.screenshot.strip():
        raise ArgError("--screenshot needs a file name")


def scene_params(args: argparse.Namespace, config: Any, settings: Any) -> dict[str, Any]:
    """Parameters for the opened scene: the deck (from --deck, --game, the last used, or the first)."""
    deck = args.deck
    if deck is None and args.game is not None:
        offering = [d.id for d in config.decks_for(args.game)]
        deck = settings.last_deck if settings.last_deck in offering else (offering[0] if offering else None)
    if deck is None:
        deck = settings.last_deck if settings.last_deck in config.decks else next(iter(config.decks))
    params: dict[str, Any] = {"deck": deck}
    if args.game is not None:
        params["game"] = args.game
    if getattr(args, "match_end", False):
        params["match_end"] = True
    for k in ("players", "seed"):
        if getattr(args, k, None) is not None:
            params[k] = getattr(args, k)
    return params


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window (no arguments) or render one scene to a PNG (--screenshot)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except ArgError as e:
        print(f"cardavia: {e} (see --help)", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0)

    from game.config import ConfigError, get_config

    try:
        config = get_config()
    except ConfigError as e:
        print(f"cardavia: {e}", file=sys.stderr)
        return 2
    try:
        _validate(args, config)
    except ArgError as e:
        print(f"cardavia: {e} (see --help)", file=sys.stderr)
        return 2

    from game.i18n import I18n
    from game.settings import load_settings

    loaded = load_settings()
    settings = loaded.settings
    overrides = {k: getattr(args, k) for k in ("contrast", "grain", "temperature") if getattr(args, k) is not None}
    if args.lang:
        overrides["language"] = args.lang
    for k, v in overrides.items():
        setattr(settings, k, v)
    i18n = I18n(settings.language)

    shot = args.screenshot
    if shot is not None:
        # Nothing is shown: render off-screen, so it works without a display too.
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        # A screenshot plays demo matches: their saves and statistics go to a throw-away
        # folder, never over the player's match in progress.
        import atexit
        import shutil
        import tempfile

        scratch = tempfile.mkdtemp(prefix="cardavia-shot-")
        atexit.register(shutil.rmtree, scratch, True)
        os.environ["CARDAVIA_HOME"] = scratch
    import pygame

    try:
        app = App(config, settings, i18n, window=shot is None, persist=shot is None,
                  fullscreen=True if args.fullscreen else None, window_size=args.window)
    except pygame.error as e:
        print(f"cardavia: cannot open a window ({e})", file=sys.stderr)
        return 1
    if shot is None:
        _quit_on_sigterm(app)  # from here on a polite kill saves and exits like the close button
    if loaded.problem:
        app.toast(loaded.problem)
    if loaded.first_start and shot is None:
        app.save_settings()
    scene = args.scene or "menu"
    app.open_path(scene, **scene_params(args, config, settings))

    if shot is not None:
        app.settle(args.ticks)
        app.render(1.0)
        path = Path(shot).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(app.canvas, str(path))
        except (OSError, pygame.error) as e:
            print(f"cardavia: cannot write {path}: {e}", file=sys.stderr)
            return 1
        return 0
    try:
        return app.run()
    finally:
        app.save_settings()
        if app.audio is not None:
            app.audio.stop()
        pygame.quit()


def _quit_on_sigterm(app: App) -> None:
    """A polite kill (SIGTERM, logout) leaves like the close button: the loop ends and the
    match is saved. (A hard kill loses nothing either: every move is already saved.)"""
    import signal

    try:
        signal.signal(signal.SIGTERM, lambda *_: app.quit())
    except (ValueError, OSError, AttributeError):  # not the main thread, or no such signal
        pass


__all__ = ["App", "main", "build_parser", "CANVAS_SIZE", "TICK", "TICK_RATE", "ArgError"]
