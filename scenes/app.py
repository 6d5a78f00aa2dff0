"""The app: the services scenes reach, the fixed-tick loop, post-processing, screenshots.

Everything is laid out on a 1280×720 logical canvas, drawn at the window's native pixels
(letterboxed to 16:9; see :mod:`scenes.window` and :mod:`sprites.hidpi`), and mouse positions
are mapped back to logical pixels, so scenes only ever think in canvas pixels.
The command line lives in :mod:`scenes.launch`.

The loop runs the simulation at a fixed 60 updates per second with an accumulator and
renders once per pass with the leftover fraction as interpolation ``alpha``; the clock
(``tick(fps) -> ms``) paces it without busy-waiting and can be replaced in tests.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from scenes import registry
from scenes.scene import Scene, SceneStack, ScreenSpeaking
from scenes.window import CANVAS_SIZE, GameWindow, hidpi_hints

if TYPE_CHECKING:
    from audio import Audio
    from game.config_types import Config
    from game.services.i18n import I18n
    from game.services.settings import Settings

TICK_RATE = 60
TICK = 1.0 / TICK_RATE
MAX_FPS = 60
MAX_FRAME_TIME = 0.25  # after a stall, skip ahead rather than run hundreds of catch-up ticks
SCREENSHOT_TICKS = 45  # updates run before a --screenshot, so entry animations have settled
FADE_SECONDS = 0.22


@dataclass
class _Fade:
    """The cross-fade between two full screens: the old one's picture, and how long it has faded."""

    snap: pygame.Surface
    elapsed: float = 0.0


class Clock(Protocol):
    def tick(self, framerate: int = 0) -> int: ...


# ====================================================================== the app context
class App:
    """The services every scene reaches: config, settings, i18n, stack, fonts, screenshot…"""

    def __init__(
        self,
        config: Config,
        settings: Settings,
        i18n: I18n,
        *,
        clock: Clock | None = None,
        window: bool = True,
        persist: bool = True,
        fullscreen: bool | None = None,
        window_size: tuple[int, int] | None = None,
        speech_log: str | None = None,
        render: str = "auto",
    ):
        import pygame

        from sprites import theme, tween, widgets
        from sprites.postfx import PostFX
        from sprites.toasts import Toasts

        self.pg = pygame
        self.config = config
        self.settings = settings
        self.i18n = i18n
        self.theme = theme
        self.fonts = theme.font
        self.persist = persist
        self.stack = SceneStack(self, registry)
        self.stack.on_change = self._on_scene_change
        self.toasts = Toasts()
        #: The last settings write's problem: a full disk is said once, not at every change.
        self._settings_problem: str | None = None
        self.postfx = PostFX(CANVAS_SIZE)
        self.clock: Clock = clock or pygame.time.Clock()
        self.running = True
        self.time = 0.0
        self.updates = 0
        self.frames = 0
        self.alpha = 1.0
        self._fade: _Fade | None = None
        self._resize_due = False  # the window changed size: the canvas follows at the next frame
        self._tween = tween
        # "auto" / "cpu" / "gpu": where the picture is post-processed (scenes.gl_window).
        self.window = GameWindow(pygame, window_size, render)

        if not pygame.display.get_init():
            hidpi_hints()  # Windows: a high-DPI drawable (SDL reads it as the display starts)
            pygame.display.init()
        if not pygame.font.get_init():
            pygame.font.init()
        self.has_window = window
        if window:
            want_full = settings.fullscreen if fullscreen is None else fullscreen
            # The canvas at the window's native size: the display surface itself at 1280×720,
            # else an off-screen one the present copies (CPU) or uploads once (GPU).
            self.canvas = self.window.open(want_full)
            pygame.display.set_caption("Cardavia")
            self._set_icon()
        else:
            # Screenshots: a hidden 1×1 surface is enough for convert() and fonts; the canvas
            # is drawn at the size of the window asked for (--window).
            if pygame.display.get_surface() is None:
                pygame.display.set_mode((1, 1), pygame.HIDDEN)
            self.canvas = self.window.offscreen()
        self.postfx.resize(self.window.frame.get_size())
        pygame.key.set_repeat(320, 45)
        # Sound only with a real window (screenshots and tests stay silent). The audio
        # package never raises; without it the game is simply silent.
        self.audio: Audio | None = None
        self._audio_preloaded = False
        if window:
            try:
                from audio import Audio
            except ImportError:
                pass
            else:
                self.audio = Audio(volume=settings.volume, muted=settings.muted, speed=settings.animation_speed)
                # Sounds are synthesised after the first frame is shown (see update), so
                # start-up is not slowed by it.
        widgets.set_feedback(self.sound)
        # Speech: every line told is logged (speech_log) and, as the setting says,
        # given to the screen reader or a voice, from a thread of its own.
        from game.services.speech import Speech
        from scenes.speak import ScreenSpeech

        self.speech = Speech(self._speech_mode(settings), settings.language, speech_log)
        self.screen_speech: ScreenSpeaking = ScreenSpeech(self)
        self.apply_settings()

    # ------------------------------------------------------------------ services
    def t(self, key: str, **params: object) -> str:
        return self.i18n.t(key, None, **params)

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
        from sprites import cards

        clear = bool(getattr(s, "clear_suits", False))
        cards.set_clear_suits(clear)  # every pack's clear suits, and the plain high-contrast felt
        self.theme.HIGH_CONTRAST[0] = clear
        self.theme.set_text_scale(self.theme.TEXT_SCALES.get(getattr(s, "text_size", "normal"), 1.0))
        self._tween.set_animation_speed(s.animation_speed)
        if self.audio is not None:
            self.audio.apply_settings(s)
        if s.language != self.i18n.language:
            self.i18n.set_language(s.language)
        self.speech.set_mode(self._speech_mode(s), s.language)

    def _speech_mode(self, s: Settings) -> str:
        """The speech setting; a run without a window (screenshots, tests) only logs."""
        return getattr(s, "speech", "off") if self.has_window else "off"

    def set_setting(self, name: str, value: object, commit: bool = True) -> None:
        """Change one setting, apply it at once, and save when ``commit``."""
        if getattr(self.settings, name) == value:
            if commit:
                self.save_settings()
            return
        setattr(self.settings, name, value)
        if name == "fullscreen" and self.has_window:
            self.window.set_fullscreen(bool(value))
            self.resized()
        self.apply_settings()
        if commit:
            self.save_settings()

    def save_settings(self) -> None:
        if not self.persist:
            return
        from game.services.settings import save_settings

        problem = save_settings(self.settings)
        if problem and problem != self._settings_problem:
            self.toast(problem)  # once: a full disk must not toast at every slider step
        self._settings_problem = problem

    def say(self, text: str | None, interrupt: bool = False) -> None:
        """Tell the player in words (the screen reader or a voice, and the speech log)."""
        self.speech.say(text, interrupt)

    def toast(self, message: str) -> None:
        self.toasts.show(message)
        self.speech.say(message)  # a toast is read out too

    def push(self, scene: Scene | str, **params: object) -> Scene:
        return self.stack.push(scene, **params)

    def open_scene(self, name: str, **params: object) -> bool:
        """Push the scene registered as ``name``; a friendly toast if it is not there yet."""
        try:
            self.stack.push(name, **params)
        except LookupError:
            self.toast(self.t("toast.not_ready", what=self.t(f"scene.{name}")))
            return False
        return True

    def open_path(self, name: str, **params: object) -> None:
        """Build the stack for ``name`` from scratch: its registered parents, then the scene
        (ValueError when one of them is not available)."""
        try:
            self.stack.reset(name, **params)
        except LookupError as e:
            raise ValueError(str(e)) from None
        self._fade = None

    def quit(self) -> None:
        self.running = False

    def open_record(self, path: str) -> bool:
        """A record file (dropped on the window) opens in the replay viewer over whatever is
        shown; a damaged one opens with what is wrong with it. A viewer on top is replaced."""
        if not path:
            return False
        top = self.stack.top
        try:
            if top is not None and top.name == "replay":
                self.stack.replace("replay", record=path)
                return True
        except LookupError:
            return False
        return self.open_scene("replay", record=path)

    # ------------------------------------------------------------------ window
    def _set_icon(self) -> None:
        pg = self.pg
        icon = pg.Surface((32, 32), pg.SRCALPHA)
        pg.draw.rect(icon, (31, 90, 58), (0, 0, 32, 32), border_radius=6)
        pg.draw.rect(icon, (201, 164, 92), (0, 0, 32, 32), 2, border_radius=6)
        pg.draw.polygon(icon, (243, 234, 215), [(16, 5), (26, 16), (16, 27), (6, 16)])
        pg.draw.polygon(icon, (192, 38, 45), [(16, 10), (21, 16), (16, 22), (11, 16)])
        self.window.set_icon(icon)

    def resized(self) -> None:
        """The window changed size: the canvas follows it at native resolution (text, cards
        and the felt are rendered again at the new scale on the next frame)."""
        if self.has_window and self.window.layout():
            self.canvas = self.window.surface
            self.postfx.resize(self.window.frame.get_size())

    def toggle_fullscreen(self) -> None:
        self.set_setting("fullscreen", not self.settings.fullscreen)

    def map_event(self, event: pygame.event.Event) -> pygame.event.Event | None:
        """Mouse events as scenes want them: window positions mapped to logical canvas pixels
        (through the letterbox and the UI scale); a click in the letterbox bars is dropped,
        other positions are kept on the canvas, and wheel events get the pointer's position."""
        pg = self.pg
        if event.type == pg.MOUSEWHEEL:
            data = dict(event.dict)
            data["pos"] = (
                _on_canvas(self.window.to_canvas(pg.mouse.get_pos())) if self.has_window else data.get("pos", (0, 0))
            )
            return pg.event.Event(event.type, data)
        if event.type in (pg.MOUSEMOTION, pg.MOUSEBUTTONDOWN, pg.MOUSEBUTTONUP) and hasattr(event, "pos"):
            raw = self.window.to_canvas(event.pos)
            pos = _on_canvas(raw)
            if event.type == pg.MOUSEBUTTONDOWN and pos != (math.floor(raw[0]), math.floor(raw[1])):
                return None  # in the letterbox bars
            if pos == tuple(event.pos):
                return event
            data = dict(event.dict)
            data["pos"] = pos
            return pg.event.Event(event.type, data)
        return event

    # ------------------------------------------------------------------ events
    def dispatch(self, event: pygame.event.Event) -> None:
        """Global keys first (F11, F12, quit), then the top scene."""
        pg = self.pg
        if event.type == pg.QUIT or (event.type == pg.WINDOWCLOSE and self.window.close_is_quit):
            self.quit()
            return
        if event.type == pg.DROPFILE:  # a record dropped on the window opens in the replay viewer
            self.open_record(getattr(event, "file", "") or "")
            return
        if event.type == pg.KEYDOWN:
            if event.key == pg.K_F11 or (event.key == pg.K_RETURN and event.mod & pg.KMOD_ALT):
                self.toggle_fullscreen()
                return
            if (
                event.key == pg.K_m
                and not event.mod & (pg.KMOD_CTRL | pg.KMOD_ALT)
                and not getattr(self.stack.top, "wants_text", False)
            ):  # a typed "m" is a letter
                self.set_setting("muted", not self.settings.muted)
                self.toast(self.t("toast.muted" if self.settings.muted else "toast.unmuted"))
                return
            if event.key == pg.K_F12:
                path = self.screenshot()
                if path is not None:
                    self.toast(self.t("toast.screenshot", file=path.name))
                return
        if event.type in (pg.VIDEORESIZE, pg.WINDOWSIZECHANGED):
            self._resize_due = True  # once, before the next frame: a drag sends many
            return
        mapped = self.map_event(event)
        if mapped is not None:
            self.stack.handle(mapped)

    # ------------------------------------------------------------------ the loop
    def update(self, dt: float = TICK) -> None:
        """One fixed tick."""
        self.stack.update(dt)
        self.screen_speech.tick()
        self.toasts.update(dt)
        if self.audio is not None:
            if self.frames and not self._audio_preloaded:
                self._audio_preloaded = True
                self.audio.preload()
            self.audio.update(dt)
        if self._fade is not None:
            self._fade.elapsed += dt
            if self._fade.elapsed >= self._tween.scaled(FADE_SECONDS):
                self._fade = None
        self.time += dt
        self.updates += 1
        if not self.stack:
            self.quit()

    def render(self, alpha: float = 1.0) -> pygame.Surface:
        """Draw the stack, fades and toasts on the canvas and post-process it; returns the canvas."""
        self.alpha = alpha
        if self._resize_due:
            self._resize_due = False
            self.resized()
        canvas = self.canvas
        self.stack.draw(canvas, alpha)
        if self._fade is not None:
            snap, elapsed = self._fade.snap, self._fade.elapsed
            d = self._tween.scaled(FADE_SECONDS)
            t = 1.0 if d <= 0 else min(1.0, elapsed / d)
            snap.set_alpha(int(255 * (1 - self._tween.ease_out_cubic(t))))
            canvas.blit(snap, (0, 0))
        self.toasts.draw(canvas, getattr(self.stack.top, "toast_top", None))  # a scene may move them
        if not self.window.gpu:  # on the GPU path the shader does it as the frame is presented
            self.postfx.apply(self.window.frame, self.time)
        self.frames += 1
        return canvas

    def present(self) -> None:
        """Show the frame: the canvas copied (or, GPU, post-processed) into the window, letterboxed."""
        if self.has_window:
            self.window.present(self.postfx, self.time)

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
        """The app is closing (window close, Alt-F4, Quit, SIGTERM): every scene on the stack
        gets ``close()``, top first — a table saves its match and abandons its thinking bot.
        No more frames."""
        for scene in reversed(list(self.stack.scenes)):
            try:
                scene.close()
            except Exception as e:  # noqa: BLE001 - one scene's failure must not cost the others
                print(f"cardavia: could not close the {scene.name or 'scene'} cleanly: {e}", file=sys.stderr)
        self.speech.close()

    def _on_scene_change(self, old: Scene | None, new: Scene | None) -> None:
        # Cross-fade between full screens; overlays animate their own entrance.
        if old is None or new is None or old.is_overlay or new.is_overlay or self._tween.speed_factor() <= 0:
            return
        from sprites import hidpi

        snap = hidpi.surface(CANVAS_SIZE).convert()
        old.draw(snap)
        self._fade = _Fade(snap)

    # ------------------------------------------------------------------ screenshots
    def screenshot(self, path: Path | None = None) -> Path | None:
        """Save the last frame as PNG (default: screenshots/ in the user data folder)."""
        from game.services.settings import user_data_dir

        if path is None:
            folder = user_data_dir() / "screenshots"
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = folder / f"cardavia-{stamp}.png"
            n = 2
            while path.exists():
                path = folder / f"cardavia-{stamp}-{n}.png"
                n += 1
        from scenes.snapshot import save_png

        # Encoded in memory and written atomically: a full disk is a failure, never a
        # truncated PNG, and an existing file is never replaced.
        # The picture as shown: on the GPU path read back from the shader (scenes.gl_window).
        problem = save_png(self.picture(), path, overwrite=False)
        if problem:
            self.toast(self.t("toast.screenshot_failed", reason=problem))
            return None
        return path

    def picture(self) -> pygame.Surface:
        """The last frame as the window shows it, at the window's pixel size (the letterbox
        bars included): on the GPU path read back from the shader (scenes.gl_window)."""
        return self.window.picture(self.window.finished(self.postfx, self.time))

    def settle(self, ticks: int = SCREENSHOT_TICKS) -> None:
        """Run fixed updates without a clock (screenshots, tests); scenes under the top one
        are ticked too, so a stack built in one go looks as if it had been walked through."""
        for _ in range(ticks):
            for scene in self.stack.scenes[:-1]:
                scene.update(TICK)
            self.update(TICK)


def _on_canvas(pos: tuple[float, float]) -> tuple[int, int]:
    """A position clamped to the canvas (SDL reports the letterbox bars outside it)."""
    return (int(max(0, min(CANVAS_SIZE[0] - 1, pos[0]))), int(max(0, min(CANVAS_SIZE[1] - 1, pos[1]))))


__all__ = ["App", "Clock", "CANVAS_SIZE", "TICK", "TICK_RATE", "SCREENSHOT_TICKS"]
