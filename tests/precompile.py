"""The test modules' rewritten bytecode and the program's bytecode, made once before the workers start.

On a fresh clone (or after a change to many tests) there is no cached bytecode yet, and each of
the parallel workers would rewrite the assertions of every test module it collects and compile
every program module it imports, all at the same moment (9.5 s of CPU for one cold collection,
2.7 s warm). Measured here, three workers collecting the whole suite on a fresh copy: 25.5 s of
CPU and 14.2 s of wall time; with this, 13.7 s and 10.0 s. So the process that runs the
session, before xdist starts its workers, forks one child per core; they share out the files
whose cache is missing or stale and write it exactly as pytest's own rewriting import and
Python's import would (pytest's ``_rewrite_test`` and ``_write_pyc`` with the session's config,
byte for byte the same file; ``py_compile``), and the workers then only load it.

A run without workers, with bytecode writing off, or with another assertion mode does nothing
here; anything unexpected (another pytest's internals) also does nothing: the workers then write
the cache themselves, as before.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import py_compile
import struct
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ("game", "scenes", "sprites", "audio")
#: Below this many stale files the workers' own writing costs less than the forks.
AT_LEAST = 20
TIMESTAMP = py_compile.PycInvalidationMode.TIMESTAMP  # as import writes it, whatever SOURCE_DATE_EPOCH says


def _fresh(source: Path, cached: Path) -> bool:
    """Whether ``cached`` holds bytecode for ``source`` as it is now (the header pytest and
    Python check: magic number, flags, the source's mtime and size)."""
    try:
        with open(cached, "rb") as f:
            head = f.read(16)
        st = source.stat()
    except OSError:
        return False
    return (
        len(head) == 16
        and head[:4] == importlib.util.MAGIC_NUMBER
        and head[4:8] == b"\x00\x00\x00\x00"
        and struct.unpack("<LL", head[8:16]) == (int(st.st_mtime) & 0xFFFFFFFF, st.st_size & 0xFFFFFFFF)
    )


def _selected(config: pytest.Config) -> list[Path]:
    """The test modules (and their folders' conftest files) under the run's paths."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    here = Path(config.invocation_params.dir)
    out: set[Path] = set()
    for arg in config.args:
        path = (here / arg.split("::")[0]).resolve()
        files = path.rglob("*.py") if path.is_dir() else [path] if path.suffix == ".py" else []
        out.update(f for f in files if any(fnmatch.fnmatch(f.name, p) for p in patterns))
    return sorted(out)


def start(config: pytest.Config) -> list[int]:
    """Fork the children that write the missing cache; their ids, for ``wait``."""
    if hasattr(config, "workerinput") or sys.dont_write_bytecode or os.name != "posix":
        return []
    workers = getattr(config.option, "numprocesses", None)  # a number by now ("auto" is resolved)
    if not isinstance(workers, int) or workers < 2 or config.getoption("assertmode") != "rewrite":
        return []
    try:
        from _pytest.assertion import rewrite

        tail = rewrite.PYC_TAIL
        rewrite_test, write_pyc, state = (
            rewrite._rewrite_test,
            rewrite._write_pyc,
            config.stash[rewrite.assertstate_key],
        )
    except (ImportError, AttributeError, KeyError):
        return []
    tests = [(f, rewrite.get_cache_dir(f) / (f.name[:-3] + tail)) for f in _selected(config)]
    program = [ROOT / "main.py", *(f for pkg in PROGRAM for f in (ROOT / pkg).rglob("*.py"))]
    rewritten = {f for f, _ in tests}
    program += [f for f in (ROOT / "tests").rglob("*.py") if f not in rewritten]
    jobs = [("test", f, pyc) for f, pyc in tests if not _fresh(f, pyc)]
    jobs += [("plain", f, Path(importlib.util.cache_from_source(str(f)))) for f in program]
    jobs = [j for j in jobs if not _fresh(j[1], j[2])]
    if len(jobs) < AT_LEAST:
        return []
    jobs.sort(key=lambda j: -j[1].stat().st_size)  # the big ones dealt first, evenly
    sys.stdout.flush()
    sys.stderr.flush()
    children = []
    count = max(1, min(os.cpu_count() or 1, 4))
    for k in range(count):
        pid = os.fork()
        if pid == 0:  # the child: its share, then out at once (no pytest exit handlers)
            code = 0
            for kind, source, cached in jobs[k::count]:
                try:
                    if kind == "test":
                        rewrite.try_makedirs(cached.parent)
                        stat, co = rewrite_test(source, config)
                        write_pyc(state, co, stat, cached)
                    else:
                        py_compile.compile(str(source), cfile=str(cached), quiet=2, invalidation_mode=TIMESTAMP)
                except BaseException:  # noqa: BLE001 - a file being edited: its importer says what is wrong
                    code = 1
            os._exit(code)
        children.append(pid)
    return children


def wait(children: list[int]) -> None:
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
