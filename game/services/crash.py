"""Crash reports: what an error the game did not foresee leaves behind (pygame-free).

The window (scenes.crash) catches such an error, saves the match in progress, and writes one
plain-text report here: the version, the platform, the traceback, the last lines the program
wrote to its log (its stdout and stderr, kept by :class:`LogTail`) and the match's record so
far. Reports stay in the user data folder's ``crash-reports/``; nothing is ever sent anywhere.
A marker file names the newest report the player has not been offered yet, so the next start
can offer to open its folder once.
"""

from __future__ import annotations

import collections
import io
import json
import os
import platform
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from game.version import version

FOLDER = "crash-reports"
#: The marker: the file name of the newest report not offered yet.
UNSEEN = "unseen.txt"
#: How many log lines a report keeps.
LOG_LINES = 200
#: A report never grows past this, whatever the record or the log hold.
MAX_REPORT_BYTES = 4_000_000


def reports_dir() -> Path:
    from game.services.settings import user_data_dir

    return user_data_dir() / FOLDER


# ---------------------------------------------------------------------- the log's tail
class _Tee(io.TextIOBase):
    """A text stream that writes through to ``stream`` (None in a windowed build on Windows,
    which has no console) and hands every complete line to ``keep``."""

    def __init__(self, stream: TextIO | None, keep: Callable[[str], None]):
        self.stream = stream
        self.keep = keep
        self.partial = ""

    def write(self, s: str) -> int:
        if self.stream is not None:
            try:
                self.stream.write(s)
            except (OSError, ValueError):  # a closed or broken terminal: the tail still keeps it
                pass
        text = self.partial + s
        *lines, self.partial = text.split("\n")
        for line in lines:
            self.keep(line)
        if len(self.partial) > 4096:  # a line without end (a progress bar) is kept in pieces
            self.keep(self.partial)
            self.partial = ""
        return len(s)

    def flush(self) -> None:
        if self.stream is not None:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                pass

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return bool(self.stream is not None and getattr(self.stream, "isatty", lambda: False)())

    @property
    def encoding(self) -> str:  # type: ignore[override]  # read-only here: the wrapped stream's
        return getattr(self.stream, "encoding", None) or "utf-8"

    def fileno(self) -> int:
        if self.stream is None:
            raise io.UnsupportedOperation("no console")
        return self.stream.fileno()


class LogTail:
    """The last ``size`` lines the program wrote to stdout and stderr (warnings logged through
    :mod:`logging` included: its last-resort handler writes to ``sys.stderr``), each with the
    time it was written. :meth:`install` puts the tee in place, :meth:`uninstall` takes it away."""

    def __init__(self, size: int = LOG_LINES):
        self.lines: collections.deque[str] = collections.deque(maxlen=size)
        self._lock = threading.Lock()
        self._saved: tuple[TextIO, TextIO] | None = None

    def add(self, line: str, stream: str = "err") -> None:
        stamp = time.strftime("%H:%M:%S")
        with self._lock:
            self.lines.append(f"{stamp} {stream} {line.rstrip()}")

    def install(self) -> LogTail:
        if self._saved is None:
            self._saved = (sys.stdout, sys.stderr)
            sys.stdout = _Tee(sys.stdout, lambda line: self.add(line, "out"))
            sys.stderr = _Tee(sys.stderr, lambda line: self.add(line, "err"))
        return self

    def uninstall(self) -> None:
        if self._saved is not None:
            for tee in (sys.stdout, sys.stderr):
                if isinstance(tee, _Tee) and tee.partial:
                    tee.keep(tee.partial)
                    tee.partial = ""
            sys.stdout, sys.stderr = self._saved
            self._saved = None

    def tail(self) -> list[str]:
        with self._lock:
            return list(self.lines)


# ---------------------------------------------------------------------- the report
def platform_lines() -> list[str]:
    """What the program runs on, one fact a line."""
    out = [
        f"platform: {platform.platform()} ({platform.machine() or 'unknown machine'})",
        f"python: {platform.python_version()} ({platform.python_implementation()})",
        f"built program: {'yes' if getattr(sys, 'frozen', False) else 'no (run from source)'}",
    ]
    pygame = sys.modules.get("pygame")
    if pygame is not None:
        sdl = getattr(pygame, "get_sdl_version", lambda: ())()
        out.append(
            f"pygame-ce: {getattr(pygame, 'version', None) and pygame.version.ver}, "
            f"SDL {'.'.join(map(str, sdl)) or 'unknown'}"
        )
        try:
            driver = pygame.display.get_driver() if pygame.display.get_init() else "not started"
        except Exception:  # noqa: BLE001 - a display in any state: the report is written all the same
            driver = "unknown"
        out.append(f"video driver: {driver}")
    return out


def report_text(
    error: BaseException,
    *,
    log: Iterable[str] = (),
    record: list[dict] | None = None,
    context: dict[str, str] | None = None,
    when: float | None = None,
) -> str:
    """The report: a plain-text file a player can read before attaching it to a bug report."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S %z", time.localtime(when if when is not None else time.time()))
    parts = ["Cardavia crash report", "", f"version: {version()}", f"time: {stamp}", *platform_lines()]
    for key, value in (context or {}).items():
        parts.append(f"{key}: {value}")
    parts += [
        "",
        "What went wrong (the traceback):",
        "".join(traceback.format_exception(type(error), error, error.__traceback__)).rstrip(),
    ]
    log = list(log)
    parts += ["", f"The last {len(log)} log lines:", *log]
    parts.append("")
    if record:
        parts.append(f"The match in progress, its record so far ({len(record)} lines, docs/RECORD.md):")
        parts += [json.dumps(ev, ensure_ascii=False, separators=(", ", ": "), default=str) for ev in record]
    else:
        parts.append("No match was in progress.")
    text = "\n".join(parts) + "\n"
    if len(text.encode("utf-8")) > MAX_REPORT_BYTES:
        text = text.encode("utf-8")[:MAX_REPORT_BYTES].decode("utf-8", "ignore") + "\n[the report was cut here]\n"
    return text


def write_report(
    error: BaseException,
    *,
    log: Iterable[str] = (),
    record: list[dict] | None = None,
    context: dict[str, str] | None = None,
) -> tuple[Path | None, str | None]:
    """Write a report to ``crash-reports/`` (atomically; never over another report) and mark it
    as not yet offered. Returns (its path, None) or (None, the problem in words)."""
    from game.services.storage import write_bytes

    now = time.time()
    text = report_text(error, log=log, record=record, context=context, when=now)
    folder = reports_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return None, e.strerror or str(e)
    if not folder.is_dir() or folder.is_symlink():
        return None, f"{folder} is not a folder"
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    path = folder / f"crash-{stamp}.txt"
    n = 2
    while path.exists():
        path = folder / f"crash-{stamp}-{n}.txt"
        n += 1
    problem = write_bytes(path, text.encode("utf-8"), overwrite=False)
    if problem:
        return None, problem
    write_bytes(folder / UNSEEN, (path.name + "\n").encode("utf-8"), overwrite=True)  # best effort
    return path, None


# ---------------------------------------------------------------------- the next start
def pending_report() -> Path | None:
    """The newest report not offered to the player yet, or None. Only a report file of this
    folder counts: the marker names a file, never a path elsewhere."""
    folder = reports_dir()
    try:
        name = (folder / UNSEEN).read_text(encoding="utf-8", errors="replace").strip()
    except (OSError, ValueError):
        return None
    if not name or name != Path(name).name or not name.startswith("crash-") or not name.endswith(".txt"):
        return None
    path = folder / name
    return path if path.is_file() and not path.is_symlink() else None


def forget_pending() -> None:
    """The player has been offered the report: it is not offered again."""
    try:
        (reports_dir() / UNSEEN).unlink()
    except OSError:
        pass


def folder_command(folder: Path, system: str | None = None) -> list[str] | None:
    """How this platform opens a folder in its file manager (None on Windows: os.startfile)."""
    system = system or sys.platform
    if system.startswith("win"):
        return None
    if system == "darwin":
        return ["open", str(folder)]
    return ["xdg-open", str(folder)]


def open_folder(folder: Path, run: Callable[..., object] = subprocess.Popen) -> str | None:
    """Open ``folder`` in the file manager without waiting for it; the problem in words, or None."""
    command = folder_command(folder)
    try:
        if command is None:
            os.startfile(str(folder))  # type: ignore[attr-defined]  # Windows only
        else:
            run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
    except (OSError, AttributeError, ValueError) as e:
        return getattr(e, "strerror", None) or str(e)
    return None


__all__ = [
    "FOLDER",
    "UNSEEN",
    "LOG_LINES",
    "LogTail",
    "reports_dir",
    "platform_lines",
    "report_text",
    "write_report",
    "pending_report",
    "forget_pending",
    "folder_command",
    "open_folder",
]
