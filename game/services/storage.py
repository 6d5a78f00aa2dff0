"""Small files in the user's folders: written atomically, read without ever crashing.

Writing: a temporary file made by :mod:`tempfile` in the target folder (a random name with
the writer's pid, so a link planted at a fixed ``.tmp`` name in a shared folder redirects
nothing and an orphan is known by its gone process), fsync, then a rename. A symbolic link
or anything else that is not a regular file (a FIFO, a device, a socket, a folder) at the
target is never replaced, and a caller may refuse to replace an existing file
(``overwrite=False``: the rename is then a hard link, which fails if the name was taken
meanwhile).

Reading: every JSON file goes through the one hardened reader (:mod:`game.safejson`). A file
that cannot be read or parsed is moved aside as ``<name>.bad`` (never over an earlier
``.bad``: that one becomes ``<name>-2.bad``) and reported in one line, so nothing the
player had is silently overwritten and the game starts with defaults.

Two windows on one home folder: :func:`claim_home` takes the folder's lock file
(``cardavia.lock``, holding the pid; a lock whose process is gone is stale and taken over);
:func:`locked` serialises one read-modify-write of a file between processes, and
:func:`merge_changes` lets a window write only what it changed. :func:`clean_temp_files`
removes the temporary files a killed process left behind (at start, and under a file's lock
for that file's own).
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import json
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ParamSpec, TypeVar, overload

from game.safejson import MAX_BYTES, JSONError, file_kind, load_file

T = TypeVar("T")
P = ParamSpec("P")

#: The name of a home folder's lock file (one window owns the folder: see claim_home).
HOME_LOCK = "cardavia.lock"
#: A per-file lock older than this is stale whatever its pid says (a write takes milliseconds).
LOCK_STALE_SECONDS = 30.0
LOCK_WAIT_SECONDS = 5.0


def write_bytes(path: Path, data: bytes, overwrite: bool = True) -> str | None:
    """Write ``data`` to ``path`` atomically. None on success, else a one-line problem."""
    tmp_name = None
    try:
        if os.path.islink(path):
            return f"{path.name} is a symbolic link; it was not written through"
        kind = not_regular(path)
        if kind:  # a FIFO, a device, a socket, a folder: never replaced, whatever overwrite says
            return f"{path.name} is {kind}, not a file; it was not replaced"
        if not overwrite and os.path.lexists(path):
            return f"{path.name} already exists"
        path.parent.mkdir(parents=True, exist_ok=True)
        # The writer's pid in the name: a temporary whose process is gone is an orphan anyone may remove.
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}-{os.getpid()}-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if overwrite:
            os.replace(tmp_name, path)
        else:
            _no_clobber_rename(tmp_name, path)
        tmp_name = None
        return None
    except FileExistsError:
        return f"{path.name} already exists"
    except (OSError, TypeError, ValueError) as e:
        return f"{path.name} could not be saved ({getattr(e, 'strerror', None) or e})"
    finally:
        if tmp_name:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass


def not_regular(path: Path | str) -> str | None:
    """What stands at ``path`` when it is there but is not a regular file ("a pipe", "a
    device", "a socket", "a folder", "a symbolic link"), else None (a file, or nothing)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return file_kind(mode)


def _no_clobber_rename(tmp: str, path: Path) -> None:
    """Give ``tmp`` the name ``path`` only if that name is free (FileExistsError otherwise)."""
    try:
        os.link(tmp, path)  # fails with EEXIST if the name is taken, even by a dangling link
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def write_json(path: Path, data: object, overwrite: bool = True) -> str | None:
    """Write ``data`` as JSON atomically. None on success, else a one-line problem."""
    try:
        text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        return f"{path.name} could not be saved ({e})"
    return write_bytes(path, (text + "\n").encode("utf-8"), overwrite=overwrite)


class Problem(str):
    """A one-line problem (an English line for logs and tests) that also says which file it
    was about and, when the file was moved aside, its ``.bad`` name: the window turns it
    into a translated toast."""

    file: str = ""
    bad: str | None = None

    def __new__(cls, text: str, file: str = "", bad: str | None = None) -> Problem:
        obj = super().__new__(cls, text)
        obj.file, obj.bad = file, bad
        return obj


@overload
def read_json(
    path: Path, max_bytes: int = ..., *, expect: type[T], what: str = ...
) -> tuple[T | None, Problem | None]: ...


@overload
def read_json(
    path: Path, max_bytes: int = ..., expect: None = None, what: str = ...
) -> tuple[object, Problem | None]: ...


def read_json(
    path: Path, max_bytes: int = MAX_BYTES, expect: type | None = None, what: str = "the expected kind of file"
) -> tuple[object, Problem | None]:
    """(data, problem). Missing file → (None, None). Anything else that cannot be used —
    unreadable, not UTF-8, not JSON, over the limits, not a regular file, or (with
    ``expect``) not a value of that type, e.g. ``[1, 2, 3]`` or ``null`` for an object —
    → (None, problem), and the file is moved aside as ``<name>.bad`` first (never overwritten
    later)."""
    try:
        data = load_file(path, max_bytes=max_bytes)
    except FileNotFoundError:
        return None, None
    except JSONError as e:
        return None, quarantine(path, f"was damaged ({e.one_line(with_file=False)})")
    except OSError as e:
        return None, quarantine(path, f"could not be read ({e.strerror or e})")
    if expect is not None and not isinstance(data, expect):
        return None, quarantine(path, f"is not {what}")
    return data, None


def bad_name(path: Path) -> Path:
    """The first free ``<name>.bad``, ``<name>-2.bad`` … beside ``path``."""
    bad = path.with_name(path.name + ".bad")
    n = 2
    while os.path.lexists(bad):
        bad = path.with_name(f"{path.name}-{n}.bad")
        n += 1
    return bad


def quarantine(path: Path, why: str) -> Problem:
    """Move a bad file aside (keeping it for the player) and say so in one line."""
    bad = bad_name(path)
    try:
        os.replace(path, bad)
        return Problem(f"{path.name} {why}; it was kept as {bad.name}", path.name, bad.name)
    except OSError:
        return Problem(f"{path.name} {why}", path.name)


def serialised(path_of: Callable[[], Path]) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Decorate a read-modify-write of the file ``path_of()`` names so that two windows
    never run it at the same time (:func:`locked`): neither loses the other's update."""

    def wrap(fn: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(fn)
        def run(*args: P.args, **kwargs: P.kwargs) -> T:
            with locked(path_of()):
                return fn(*args, **kwargs)

        return run

    return wrap


# --------------------------------------------------------------------------- merging
_MISSING = object()


def merge_changes(current: object, base: object, new: object, depth: int = 0) -> object:
    """``current`` (the file as it is now) with only what changed from ``base`` (the file as
    this window read it) to ``new`` (what this window holds) applied, key by key inside
    objects: another window's change to a key this window did not touch survives."""
    if not (isinstance(current, dict) and isinstance(base, dict) and isinstance(new, dict)) or depth > 8:
        return new
    out = dict(current)
    for k in set(base) | set(new):
        b, n = base.get(k, _MISSING), new.get(k, _MISSING)
        if b == n and type(b) is type(n):
            continue  # this window did not change it: keep whatever the file holds now
        if n is _MISSING:
            out.pop(k, None)
        elif isinstance(n, dict) and isinstance(b, dict) and isinstance(out.get(k), dict):
            out[k] = merge_changes(out[k], b, n, depth + 1)
        else:
            out[k] = n
    return out


# --------------------------------------------------------------------------- locks
def pid_alive(pid: int) -> bool:
    """Whether a process with this pid runs (another window, or a stale lock's dead one)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # os.kill(pid, 0) would terminate it on Windows
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        ctypes.windll.kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        ctypes.windll.kernel32.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    except OSError:
        return False
    return True


def _lock_pid(lock: Path) -> int | None:
    try:
        with open(lock, "rb") as f:
            text = f.read(32).decode("ascii", "replace").strip()
        return int(text) if text.isdigit() else None
    except (OSError, ValueError):
        return None


def _try_create(lock: Path) -> bool:
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    try:
        with os.fdopen(fd, "w") as f:
            f.write(f"{os.getpid()}\n")
    except OSError:
        # A full disk: an empty lock left here would make every later write wait for it.
        with contextlib.suppress(OSError):
            os.unlink(lock)
        raise
    return True


def _stale(lock: Path, max_age: float | None) -> bool:
    pid = _lock_pid(lock)
    if pid is not None and not pid_alive(pid):
        return True
    if max_age is None:
        return pid is None and _age(lock) > 2.0  # half-written (no pid yet) for 2 s: abandoned
    return _age(lock) > max_age


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


@contextlib.contextmanager
def locked(path: Path, clean: bool = True) -> Iterator[bool]:
    """Hold ``<path>.lock`` for one read-modify-write of ``path`` (statistics, settings), so
    two windows never lose each other's update. Yields whether the lock was taken: after
    LOCK_WAIT_SECONDS the write goes ahead without it rather than hang the window. With
    ``clean``, the temporaries killed writers of ``path`` left are removed once it is held
    (a look at the folder: the replays index, in a folder of thousands, passes False)."""
    lock = path.with_name(path.name + ".lock")
    got = False
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            if _try_create(lock):
                got = True
                break
            if _stale(lock, LOCK_STALE_SECONDS):
                with contextlib.suppress(OSError):
                    os.unlink(lock)
                continue
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
    except OSError:
        got = False
    if got and clean:  # every writer of this file holds the lock: a dead writer's temporary is an orphan
        clean_temp_files([path.parent], (path.name,), min_age=LOCK_STALE_SECONDS, locks=False)
    try:
        yield got
    finally:
        if got:
            with contextlib.suppress(OSError):
                os.unlink(lock)


class HomeLock:
    """The home folder's lock: ``owner`` when this process holds it; otherwise ``other`` is
    the pid of the window that does (this one is the second window)."""

    def __init__(self, folder: Path, owner: bool, other: int | None):
        self.path = folder / HOME_LOCK
        self.owner = owner
        self.other = other

    def release(self) -> None:
        if self.owner and _lock_pid(self.path) == os.getpid():
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        self.owner = False


def claim_home(folder: Path) -> HomeLock:
    """Take the home folder for this window, unless a running window holds it already."""
    lock = folder / HOME_LOCK
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            if _try_create(lock):
                return HomeLock(folder, True, None)
            pid = _lock_pid(lock)
            if pid == os.getpid():
                return HomeLock(folder, True, None)
            if pid is not None and pid_alive(pid):
                return HomeLock(folder, False, pid)
            if pid is None and _age(lock) <= 2.0:
                time.sleep(0.05)  # the other window is writing its pid this very moment
                continue
            with contextlib.suppress(OSError):
                os.unlink(lock)  # stale: its window was killed
    except OSError:
        pass  # a read-only home folder: nothing can be written anyway, act as the owner
    return HomeLock(folder, True, None)


def temp_pid(file_name: str, name: str) -> int | None:
    """The writer's pid in a temporary file's name (``.<name>-<pid>-<random>.tmp``; ``name``
    may be a glob such as ``*.jsonl``), or None for an older name without one."""
    stem = file_name[1:-4] if file_name.startswith(".") and file_name.endswith(".tmp") else ""
    parts = stem.rsplit("-", 2)
    if len(parts) == 3 and parts[1].isdigit() and fnmatch.fnmatchcase(parts[0], name):
        return int(parts[1])
    return None


def clean_temp_files(folders: list[Path], names: tuple[str, ...], min_age: float = 0.0, locks: bool = True) -> int:
    """Remove the temporary files (``.<name>-*.tmp``; a name may be a glob such as
    ``*.jsonl``) and, with ``locks``, the stale per-file locks a killed process left in
    ``folders``. A temporary whose writer's pid (in its name) is gone goes at once; any other
    only when older than ``min_age`` seconds (a second window passes an hour, so a write in
    progress in the first is never touched). Links and folders are never touched. Returns
    the count."""
    removed = 0
    for folder in dict.fromkeys(folders):
        for name in names:
            try:
                found = [(p, temp_pid(p.name, name)) for p in folder.glob(f".{name}-*.tmp")]
            except OSError:
                continue
            lock = folder / f"{name}.lock"
            if locks and "*" not in name and lock.exists() and _stale(lock, LOCK_STALE_SECONDS):
                found.append((lock, None))
            for p, pid in found:
                orphan = pid is not None and pid != os.getpid() and not pid_alive(pid)
                if p.is_symlink() or not p.is_file() or not (orphan or _age(p) >= min_age):
                    continue
                try:
                    p.unlink()
                    removed += 1
                except OSError:
                    pass
    return removed
