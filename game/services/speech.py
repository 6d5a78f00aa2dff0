"""Speech: every line the game tells, given to the player's screen reader or a voice.

No pygame. The window hands each line to :class:`Speech` (``say``); the line is written to
the speech log at once (``--speech-log FILE``: tests read it) and put on a queue that one
daemon thread speaks from, so a slow or hung voice never holds up a frame.

Where it goes (the ``speech`` setting, :data:`MODES`):

- ``off``: nowhere (the log still gets every line, so a test sees what would be said);
- ``screen_reader``: only to a running screen reader (Orca on Linux, NVDA or JAWS on
  Windows, VoiceOver on macOS), through the prismatoid bridge (``prism``); with none
  running, nothing is spoken — the player's screen reader decides, the game adds no voice;
- ``on``: the screen reader when one runs, else a plain voice: ``espeak-ng`` run as a
  program, else the bridge's own (speech-dispatcher, SAPI).

A backend that is missing or fails is dropped silently and the next one is tried; only when
none opens is that said, in one line on stderr, and the game is simply silent. ``CARDAVIA_SPEECH_WAV_DIR`` makes
the espeak-ng voice write each line to a numbered WAV file there instead of the speakers,
taking as long as the line would aloud (trying the game by ear on a machine without sound:
``bench/speech_trial.py``).

While the voice is busy (and can tell: espeak-ng can, a screen reader through the bridge
cannot) the table waits before showing the next play (``busy``), at most a few seconds, so
a listener hears the game as it happens, not minutes behind.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TextIO

from game.services.settings import SPEECH_MODES as MODES  # one list of the modes

#: The bridge's backends that are plain voices, not screen readers.
TTS_BACKENDS = frozenset(
    {
        "Speech Dispatcher",
        "SAPI",
        "SAPI 5",
        "SAPI5",
        "OneCore",
        "eSpeak",
        "eSpeak NG",
        "AVSpeech",
        "Web Speech",
        "Android TTS",
    }
)
#: espeak-ng's voice per language of the game.
ESPEAK_VOICES = {"en": "en", "nl": "nl", "de": "de", "it": "it"}


class NoScreenReader(RuntimeError):
    """No screen reader runs: "screen reader only" stays silent, and says nothing about it."""


class Backend(Protocol):
    """A voice: speaks one line (``interrupt`` first silences what it was saying)."""

    name: str

    def speak(self, text: str, interrupt: bool) -> None: ...

    def speaking(self) -> bool: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class PrismBackend:
    """The prismatoid bridge: a running screen reader, or speech-dispatcher when allowed."""

    def __init__(self, screen_reader_only: bool, lang: str):
        import prism  # noqa: PLC0415 - optional: absent means no bridge

        self._ctx = prism.Context()
        try:
            backend = self._ctx.acquire_best()
        except Exception as e:  # noqa: BLE001 - the bridge says "Invalid or unsupported backend" when it finds nothing
            if screen_reader_only:
                raise NoScreenReader("no screen reader is running") from None
            raise RuntimeError(f"the speech bridge found no voice ({e})") from None
        if screen_reader_only and backend.name in TTS_BACKENDS:
            raise NoScreenReader("no screen reader is running")
        self._backend = backend
        self.name = f"prism:{backend.name}"
        self._pick_voice(lang)

    def _pick_voice(self, lang: str) -> None:
        """A voice in the game's language when the backend lists them (speech-dispatcher)."""
        b = self._backend
        try:
            if not b.features.supports_count_voices or not b.features.supports_set_voice:
                return
            for i in range(b.voices_count):
                if b.get_voice_language(i).lower().startswith(lang):
                    b.voice = i
                    return
        except Exception:  # noqa: BLE001 - the default voice is fine
            return

    def speak(self, text: str, interrupt: bool) -> None:
        self._backend.speak(text, interrupt)

    def speaking(self) -> bool:
        b = self._backend
        return bool(b.features.supports_is_speaking and b.speaking)

    def stop(self) -> None:
        try:
            self._backend.stop()
        except Exception:  # noqa: BLE001 - a backend without stop just finishes its line
            pass

    def close(self) -> None:
        self.stop()


class EspeakBackend:
    """espeak-ng as a program: one process per line; an interruption ends the one speaking."""

    def __init__(self, lang: str, wav_dir: str | None = None):
        exe = shutil.which("espeak-ng") or shutil.which("espeak")
        if exe is None:
            raise RuntimeError("espeak-ng is not installed")
        self._exe = exe
        self._voice = ESPEAK_VOICES.get(lang, "en")
        self._wav_dir = Path(wav_dir) if wav_dir else None
        self._count = 0
        self._proc: subprocess.Popen | None = None
        self._wav: Path | None = None
        self._started = 0.0
        self._length: float | None = None
        self.name = "espeak-ng"

    def speak(self, text: str, interrupt: bool) -> None:
        if interrupt:
            self.stop()
        else:
            while self.speaking():  # one line after the other (this thread only; the frame goes on)
                time.sleep(0.02)
        args = [self._exe, "-v", self._voice, "-s", "185"]
        self._wav = None
        if self._wav_dir is not None:
            self._count += 1
            self._wav = self._wav_dir / f"{self._count:05d}.wav"
            args += ["-w", str(self._wav)]
            self._wav.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")  # which line it is
        self._started = time.monotonic()
        self._length = None
        self._proc = subprocess.Popen(
            [*args, "--", text], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def speaking(self) -> bool:
        """Speaking aloud: the program runs. Into files: as long as the line would take aloud."""
        if self._proc is None:
            return False
        if self._proc.poll() is None:
            return True
        if self._wav is None:
            return False
        if self._length is None:
            try:
                with wave.open(str(self._wav)) as w:
                    self._length = w.getnframes() / w.getframerate()
            except (OSError, EOFError, wave.Error):
                self._length = 0.0
        return time.monotonic() < self._started + self._length

    def stop(self) -> None:
        p, self._proc = self._proc, None
        if p is not None and p.poll() is None:
            p.terminate()
            try:
                p.wait(0.5)
            except subprocess.TimeoutExpired:
                p.kill()

    def close(self) -> None:
        if self._proc is not None and self._wav_dir is not None:
            self._proc.wait(5)  # a file being written is finished, not cut
            self._proc = None
        else:
            self.stop()


#: How long a voice may take to open (a speech daemon that hangs must not keep the next one out).
OPEN_TIMEOUT = 3.0


def opened_in_time(make: Callable[[], Backend], timeout: float) -> Backend:
    """``make()``, or TimeoutError when it has not returned within ``timeout`` seconds (it is
    left to finish on its own daemon thread; what it makes then is closed unused)."""
    done = threading.Event()
    backend: list[Backend] = []
    error: list[BaseException] = []
    late = threading.Event()

    def run() -> None:
        try:
            backend.append(make())
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            error.append(e)
        done.set()
        if late.is_set() and backend:
            try:
                backend[0].close()
            except Exception:  # noqa: BLE001 - unused anyway
                pass

    threading.Thread(target=run, name="cardavia-speech-open", daemon=True).start()
    if not done.wait(timeout):
        late.set()
        raise TimeoutError(f"it did not answer within {timeout:.0f} s")
    if error:
        raise error[0]
    return backend[0]


def default_backends(mode: str, lang: str) -> list[Callable[[], Backend]]:
    """The voices to try for ``mode``, best first (each a factory that may raise)."""
    if mode == "off":
        return []
    wav_dir = os.environ.get("CARDAVIA_SPEECH_WAV_DIR")
    if wav_dir:  # by ear without speakers: straight to files
        return [lambda: EspeakBackend(lang, wav_dir)]
    # A running screen reader first. "On" then prefers espeak-ng, which can say when it has
    # finished (the table waits for it), over the bridge's plain voices (speech-dispatcher,
    # SAPI), which cannot.
    tries: list[Callable[[], Backend]] = [lambda: PrismBackend(True, lang)]
    if mode == "on":
        tries += [lambda: EspeakBackend(lang), lambda: PrismBackend(False, lang)]
    return tries


class Speech:
    """The speech layer: ``say`` a line (logged at once, spoken by the worker), ``stop``,
    ``repeat`` the last line. Never raises and never blocks on the voice."""

    def __init__(
        self,
        mode: str = "off",
        lang: str = "en",
        log_path: str | Path | None = None,
        backends: list[Callable[[], Backend]] | None = None,
    ):
        self.mode = mode if mode in MODES else "off"
        self.lang = lang
        self.last: str | None = None
        self.lines: list[str] = []  # every line said, in order (the log's copy)
        self._log: TextIO | None = None
        if log_path is not None:
            self._log = open(log_path, "w", encoding="utf-8", buffering=1)  # noqa: SIM115 - kept open
        self._queue: queue.Queue[tuple[str, str, bool]] = queue.Queue()
        self._backends = backends
        self._thread: threading.Thread | None = None
        self.backend: Backend | None = None
        self._lock = threading.Lock()
        self._generation = 0  # raised by stop(): lines queued before it are dropped

    # ------------------------------------------------------------------ the window's side
    def say(self, text: str | None, interrupt: bool = False) -> None:
        """Log ``text`` and queue it for the voice; ``interrupt`` drops what is queued and
        silences the line being spoken first."""
        if not text:
            return
        line = " ".join(str(text).split())
        if not line:
            return
        self.last = line
        self.lines.append(line)
        if self._log is not None:
            try:
                self._log.write(line + "\n")
            except OSError:  # a full disk: the log stops, the game plays on
                self._log = None
        if self.mode == "off":
            return
        if interrupt:
            self._drop_queued()
        self._queue.put(("say", line, interrupt))
        self._start()

    def busy(self) -> bool:
        """The voice has lines queued or is speaking one (when the backend can tell)."""
        if self.mode == "off" or self._thread is None:
            return False
        if not self._queue.empty():
            return True
        b = self.backend
        try:
            return bool(b is not None and b.speaking())
        except Exception:  # noqa: BLE001 - a backend that cannot tell is never waited for
            return False

    def stop(self) -> None:
        """Silence: nothing queued is said, the line being spoken stops."""
        self._drop_queued()
        if self.mode != "off" and self._thread is not None:
            self._queue.put(("stop", "", True))

    def repeat(self) -> None:
        """Say the last line again (interrupting)."""
        if self.last:
            self.say(self.last, interrupt=True)

    def set_mode(self, mode: str, lang: str | None = None) -> None:
        """The setting changed: the next line goes to the voices of the new mode."""
        mode = mode if mode in MODES else "off"
        if mode == self.mode and (lang is None or lang == self.lang):
            return
        self.mode = mode
        self.lang = lang or self.lang
        self._drop_queued()
        if self._thread is not None:
            self._queue.put(("reset", "", True))

    def close(self) -> None:
        """The app ends: the worker finishes the line it has, then the log is closed."""
        if self._thread is not None:
            self._queue.put(("quit", "", False))
            self._thread.join(1.0)
        if self._log is not None:
            self._log.close()
            self._log = None

    # ------------------------------------------------------------------ the worker's side
    def _drop_queued(self) -> None:
        with self._lock:
            while True:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    break

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="cardavia-speech", daemon=True)
            self._thread.start()

    def _open_backend(self) -> Backend | None:
        """The first voice that opens. A voice that does not is only worth a line when none
        at all does: the screen reader missing before espeak-ng speaks is the usual case."""
        tries = self._backends if self._backends is not None else default_backends(self.mode, self.lang)
        problems: list[str] = []
        for make in tries:
            try:
                return opened_in_time(make, OPEN_TIMEOUT)
            except NoScreenReader:
                continue  # the usual case for most players: nothing to report
            except Exception as e:  # noqa: BLE001 - missing library, no daemon, no program: next one
                problems.append(str(e) or type(e).__name__)
        if problems:
            print(
                f"cardavia: speech: no voice is available, the game stays silent ({'; '.join(problems)})",
                file=sys.stderr,
            )
        return None

    def _run(self) -> None:
        tried = False
        while True:
            kind, text, interrupt = self._queue.get()
            if kind == "quit":
                break
            if kind == "reset":
                if self.backend is not None:
                    self.backend.close()
                self.backend, tried = None, False
                continue
            if kind == "stop":
                if self.backend is not None:
                    self.backend.stop()
                continue
            if self.mode == "off":
                continue
            if not tried:
                self.backend, tried = self._open_backend(), True
            if self.backend is None:
                continue
            try:
                self.backend.speak(text, interrupt)
            except Exception as e:  # noqa: BLE001 - a voice that fails is dropped, the game goes on
                print(f"cardavia: speech: {self.backend.name} failed ({e}); silent from now on", file=sys.stderr)
                self.backend = None
        if self.backend is not None:
            self.backend.close()


__all__ = [
    "Speech",
    "NoScreenReader",
    "MODES",
    "Backend",
    "PrismBackend",
    "EspeakBackend",
    "default_backends",
    "TTS_BACKENDS",
]
