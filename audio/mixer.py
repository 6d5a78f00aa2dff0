"""The game's sound player: a thin, failure-proof layer over pygame.mixer.

``Audio`` is created once by the window shell and handed to the scenes. It opens the sound
device lazily (on the first sound that would be heard) and never raises: with no device,
no pygame, or a broken driver the game simply plays silently after ONE line in the
"cardavia" log. Volume (0–100), mute and the animation speed come from game.services.settings; the
speed sets a per-sound minimum interval so fast animations do not machine-gun the same
sound, and at "instant" only the sounds that carry news (sweep, results) are played.

The device sits behind a tiny backend interface so tests (and a future web build) can swap
it: :class:`PygameBackend` is the real one; a test backend just records the calls.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Protocol, cast

from audio import synth

if TYPE_CHECKING:
    import pygame

log = logging.getLogger("cardavia")

#: The animation speeds of game.services.settings.ANIMATION_SPEEDS -> minimum seconds between two
#: plays of the same sound. None at "instant" means: only IMPORTANT sounds (and UI clicks).
SPEED_INTERVALS: dict[str, float] = {"slow": 0.05, "normal": 0.08, "fast": 0.16, "instant": 0.30}

#: Sounds that still play at "instant" speed: they tell the player something happened.
IMPORTANT: frozenset[str] = frozenset({"sweep", "deal_won", "deal_lost", "match_won", "match_lost"})

#: Interface sounds: not tied to the table animation, so speed never silences them.
UI_SOUNDS: frozenset[str] = frozenset({"click"})
UI_INTERVAL = 0.03


class AudioUnavailable(Exception):
    """Raised by a backend when there is no usable sound device."""


class Backend(Protocol):
    """What :class:`Audio` needs from a sound device."""

    def init(self) -> None:
        """Open the device; raise any exception if there is none."""

    def load(self, name: str, wav: bytes) -> object:
        """Turn a WAV file in memory into a playable sound handle (only the backend reads it)."""

    def set_volume(self, sound: object, volume: float) -> None:
        """Gain 0.0–1.0 for this sound, also for copies already playing."""

    def play(self, sound: object) -> None: ...

    def stop(self) -> None:
        """Silence everything playing now."""


class PygameBackend:
    """pygame.mixer, imported only when sound is first needed (import audio stays cheap)."""

    def __init__(self, frequency: int = 44100, buffer: int = 512, channels: int = 16):
        self.frequency, self.buffer, self.channels = frequency, buffer, channels
        self._pg: ModuleType | None = None

    def init(self) -> None:
        import pygame  # lazy on purpose: importing audio must not load pygame

        self._pg = pygame
        if pygame.mixer.get_init() is None:
            # Small buffer: a card sound must land with the card (~12 ms at 44.1 kHz).
            pygame.mixer.init(frequency=self.frequency, size=-16, channels=2, buffer=self.buffer)
        if pygame.mixer.get_init() is None:
            raise AudioUnavailable("the mixer did not start")
        pygame.mixer.set_num_channels(max(self.channels, pygame.mixer.get_num_channels()))

    def load(self, name: str, wav: bytes) -> object:
        if self._pg is None:
            raise AudioUnavailable("the mixer was not started")
        # Loading a WAV (not a raw buffer) lets SDL convert rate/channels to the device format.
        return self._pg.mixer.Sound(file=io.BytesIO(wav))

    def set_volume(self, sound: object, volume: float) -> None:
        cast("pygame.mixer.Sound", sound).set_volume(volume)

    def play(self, sound: object) -> None:
        cast("pygame.mixer.Sound", sound).play()

    def stop(self) -> None:
        if self._pg is not None and self._pg.mixer.get_init():
            self._pg.mixer.stop()


def _clamp_volume(value: object, fallback: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return fallback
    return int(round(min(100, max(0, value))))


class Audio:
    """Plays the named sounds of :mod:`audio.synth`. Every public method is safe to call at
    any time, in any state, with any argument: the worst outcome is silence and a log line."""

    def __init__(
        self,
        volume: int = 80,
        muted: bool = False,
        speed: str = "normal",
        backend: Backend | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._backend: Backend = backend if backend is not None else PygameBackend()
        self._clock = clock
        self.volume = _clamp_volume(volume, 80)
        self.muted = bool(muted)
        self.speed = speed if speed in SPEED_INTERVALS else "normal"
        self._state = "new"  # new -> ready | failed
        self._sounds: dict[str, object] = {}
        self._last: dict[str, float] = {}
        self._queue: list[tuple[float, str]] = []  # (seconds left, name) for play_all
        self._warned: set[str] = set()
        self._preloader: threading.Thread | None = None

    # ------------------------------------------------------------------ state
    @property
    def available(self) -> bool:
        """False once the device has failed (the game then runs silently)."""
        return self._state != "failed"

    def _fail(self, what: str, err: BaseException) -> None:
        # Exactly one line per Audio object, whatever goes wrong afterwards.
        if self._state != "failed":
            log.warning("sound off: %s (%s); the game plays silently", what, str(err) or type(err).__name__)
        self._state = "failed"
        self._sounds.clear()
        self._queue.clear()

    def start(self) -> bool:
        """Open the device now (otherwise done at the first audible sound). True if sound works."""
        if self._state == "new":
            try:
                self._backend.init()
                self._state = "ready"
            except Exception as e:  # pygame.error, ImportError, driver crashes: all mean silence
                self._fail("no audio device", e)
        return self._state == "ready"

    def preload(self, background: bool = True) -> None:
        """Synthesise every sound ahead of time (~0.3 s of CPU). In the background by default,
        so the first frames are not delayed; device handles are still made on first use."""
        if self._preloader is not None:
            return
        if background:
            self._preloader = threading.Thread(target=synth.render_all, name="audio-preload", daemon=True)
            self._preloader.start()
        else:
            synth.render_all()
            self._preloader = threading.current_thread()

    # ------------------------------------------------------------------ settings
    def gain(self) -> float:
        """The gain every sound gets now: 0 when muted, else the volume slider, squared so
        the slider feels even (50 % is about -12 dB rather than a barely audible -6 dB)."""
        return 0.0 if self.muted else (self.volume / 100.0) ** 2

    def _apply_gain(self) -> None:
        g = self.gain()
        for name, snd in list(self._sounds.items()):
            try:
                self._backend.set_volume(snd, g)
            except Exception as e:
                self._fail(f"volume change for {name!r} failed", e)
                return

    def set_volume(self, volume: object) -> None:
        """Volume 0–100 (clamped; a non-number is ignored). Sounds already playing follow."""
        self.volume = _clamp_volume(volume, self.volume)
        self._apply_gain()

    def set_muted(self, muted: bool) -> None:
        self.muted = bool(muted)
        if self.muted:
            self._queue.clear()
        self._apply_gain()

    def toggle_mute(self) -> bool:
        """Flip mute (the M key / speaker button). Returns the new state to save in settings."""
        self.set_muted(not self.muted)
        return self.muted

    def set_speed(self, speed: str) -> None:
        """One of game.services.settings.ANIMATION_SPEEDS; anything else means "normal"."""
        self.speed = speed if speed in SPEED_INTERVALS else "normal"

    def apply_settings(self, settings: object) -> None:
        """Read ``volume``, ``muted`` and ``animation_speed`` from a game.services.settings.Settings."""
        self.set_speed(getattr(settings, "animation_speed", self.speed))
        self.muted = bool(getattr(settings, "muted", self.muted))
        self.set_volume(getattr(settings, "volume", self.volume))

    # ------------------------------------------------------------------ playing
    def allowed(self, name: str) -> bool:
        """Whether the speed setting and the per-sound interval let ``name`` play now
        (does not record anything; :meth:`play` does)."""
        if name in UI_SOUNDS:
            interval = UI_INTERVAL
        else:
            if self.speed == "instant" and name not in IMPORTANT:
                return False
            interval = SPEED_INTERVALS[self.speed]
        last = self._last.get(name)
        return last is None or self._clock() - last >= interval

    def _sound(self, name: str) -> object:
        snd = self._sounds.get(name)
        if snd is None:
            snd = self._backend.load(name, synth.wav_bytes(name))
            self._backend.set_volume(snd, self.gain())
            self._sounds[name] = snd
        return snd

    def play(self, name: str) -> bool:
        """Play sound ``name`` now. Returns True if it was sent to the device; False when muted,
        at volume 0, rate-limited, unknown, or without a device."""
        if name not in synth.RECIPES:
            if name not in self._warned:
                self._warned.add(name)
                log.warning("unknown sound %r ignored", name)
            return False
        if self.gain() <= 0.0 or not self.allowed(name):
            return False
        if not self.start():
            return False
        try:
            self._backend.play(self._sound(name))
        except Exception as e:
            self._fail(f"playing {name!r} failed", e)
            return False
        self._last[name] = self._clock()
        return True

    def play_all(self, names: Iterable[str], gap: float = 0.12) -> None:
        """Play the first name now and each next one ``gap`` seconds later (as
        :func:`audio.cues.sounds_for` lists them: "capture" then "sweep"). The delayed ones
        need :meth:`update` to be called every tick."""
        for i, name in enumerate(names):
            if i == 0:
                self.play(name)
            else:
                self._queue.append((gap * i, name))

    def update(self, dt: float) -> None:
        """Advance queued sounds by ``dt`` seconds (call once per tick from the loop)."""
        if not self._queue:
            return
        due = [n for t, n in self._queue if t - dt <= 0]
        self._queue = [(t - dt, n) for t, n in self._queue if t - dt > 0]
        for name in due:
            self.play(name)

    def stop(self) -> None:
        """Silence everything now (leaving the table, opening a modal). Never raises."""
        self._queue.clear()
        if self._state == "ready":
            try:
                self._backend.stop()
            except Exception as e:
                self._fail("stopping sounds failed", e)


__all__ = ["Audio", "Backend", "PygameBackend", "AudioUnavailable", "SPEED_INTERVALS", "IMPORTANT", "UI_SOUNDS"]
