"""The one JSON reader for everything the game reads: record lines, saves, settings,
statistics (and later online messages).

Whatever arrives — a file cut short, a hostile download, a line nested 100,000 deep — the
answer is the data or a :class:`JSONError` whose text is one line naming the file, the line
and the field, never a traceback, a hang or gigabytes of memory:

- size: a text longer than ``max_bytes`` is refused before it is parsed;
- depth: arrays and objects nested deeper than ``max_depth`` are refused (the check walks
  the text with an explicit stack, so it cannot itself run out of recursion);
- duplicate keys are refused (``{"card": "XX", "card": "7D"}`` would silently mean the last);
- NaN, Infinity and numbers too large for a float (``1e999``) are refused: JSON has none;
- exact types: :func:`field` and friends tell ``true`` from ``1`` and ``-0.0`` from ``0``.

Files are opened without blocking and must be regular files (a FIFO or ``/dev/zero`` given
as a settings file or a record is refused, not waited on or read for ever).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, NoReturn, TypeGuard

#: Defaults; every caller may ask for less (a record line) or more (a long save).
MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 64


class JSONError(ValueError):
    """Refused JSON: ``file``, ``line`` (1-based, or None), ``field`` (a dotted path or None)
    and the ``problem``; ``str()`` is the one line for the player."""

    def __init__(self, problem: str, file: str = "", line: int | None = None, field: str | None = None):
        self.problem, self.file, self.line, self.field = problem, file, line, field
        super().__init__(self.one_line())

    def one_line(self, with_file: bool = True) -> str:
        parts = []
        if with_file and self.file:
            parts.append(self.file)
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(f"field '{self.field}'")
        where = ", ".join(parts)
        return f"{where}: {self.problem}" if where else self.problem

    def located(self, file: str | None = None, line: int | None = None) -> JSONError:
        """The same problem, placed in ``file`` and at ``line`` (when not already known)."""
        return JSONError(self.problem, file or self.file, self.line if self.line is not None else line, self.field)


class _Duplicate(ValueError):
    pass


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out = dict(pairs)
    if len(out) != len(pairs):  # a key given twice: found and named the slow way
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _Duplicate(k)
            seen.add(k)
    return out


def _constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
#: Strings (with their escapes) and the brackets outside them: what the depth check looks at.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    """ValueError when arrays and objects nest deeper than ``max_depth`` (no recursion here).
    A cheap pre-check: a text without ``max_depth`` opening brackets cannot be too deep."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > max_depth:
                raise ValueError(f"nested deeper than {max_depth} levels")
        elif c in "]}":
            depth -= 1


def loads(
    text: str | bytes,
    *,
    file: str = "",
    line: int | None = None,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> object:
    """Parse one JSON text under the limits above; JSONError (one line) otherwise."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise JSONError(f"longer than {_size(max_bytes)}", file, line)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise JSONError("not UTF-8 text", file, line) from None
    if len(text) > max_bytes:
        raise JSONError(f"longer than {_size(max_bytes)}", file, line)
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors write
    try:
        check_depth(text, max_depth)
    except ValueError as e:
        raise JSONError(str(e), file, line) from None
    try:
        if text[-1:] == "}" and text[:1] == "{":
            # An object with nothing around it (every message a client sends): the scan
            # without decode's two whitespace searches, when it ends where the text does.
            value, end = _DECODER.raw_decode(text)
            if end == len(text):
                return value
        return _DECODER.decode(text)
    except _Duplicate as e:
        raise JSONError("the key is given twice", file, line, str(e.args[0])) from None
    except json.JSONDecodeError as e:
        at = f" at column {e.colno}" if line is not None or e.lineno == 1 else ""
        where = line if line is not None else e.lineno
        raise JSONError(f"not valid JSON ({e.msg}{at})", file, where) from None
    except (ValueError, RecursionError) as e:  # NaN, 1e999, an integer of 5,000 digits
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        if "digits" in message:
            message = "a number with too many digits"
        raise JSONError(f"not valid JSON ({message[:80]})", file, line) from None


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB" if n >= 1024 else f"{n} bytes"


# --------------------------------------------------------------------------- files
def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """A binary file object for ``path``, which must be a regular file. Opened without
    blocking (a FIFO would otherwise wait for a writer for ever); OSError or JSONError."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise JSONError(f"not a regular file ({file_kind(mode)})", Path(path).name)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def file_kind(mode: int) -> str:
    """How a file that is not a regular one is named in a message ("a pipe", "a device" …)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_bytes(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> bytes:
    """The whole of a regular file of at most ``max_bytes``; OSError or JSONError."""
    with open_regular(path) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JSONError(f"longer than {_size(max_bytes)}", Path(path).name)
    return data


def load_file(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> object:
    """The JSON document in ``path``. FileNotFoundError when it is missing; other OSErrors
    when it cannot be read; JSONError (naming the file) when it is not acceptable JSON."""
    name = Path(path).name
    data = read_bytes(path, max_bytes)
    try:
        return loads(data, file=name, max_bytes=max_bytes, max_depth=max_depth)
    except JSONError as e:
        raise e.located(name) from None


def iter_lines(f: BinaryIO, *, file: str = "", max_line: int = 1024 * 1024) -> Iterator[tuple[int, str]]:
    """(line number, text without its newline) of a binary file, one line at a time: a
    line longer than ``max_line`` bytes or not UTF-8 is a JSONError naming it. Nothing is
    read ahead of the line asked for, so a verdict on line 7 never reads line 8."""
    number = 0
    while True:
        raw = f.readline(max_line + 2)
        if not raw:
            return
        number += 1
        if len(raw) > max_line + 1 or (len(raw) == max_line + 2 and not raw.endswith(b"\n")):
            raise JSONError(f"the line is longer than {_size(max_line)}", file, number)
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONError("not UTF-8 text", file, number) from None


# --------------------------------------------------------------------------- exact types
def kind(value: object) -> str:
    """How a JSON value is described in a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def is_int(value: object) -> TypeGuard[int]:
    """A JSON whole number: not ``true``/``false`` (bool is an int in Python), not ``1.0``."""
    return type(value) is int


def exact_equal(a: object, b: object) -> bool:
    """``==`` that tells apart what JSON tells apart: ``true`` is not ``1``, ``0`` not
    ``-0.0`` or ``0.0``. Lists and objects are compared element by element."""
    stack: list[tuple[object, object]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):  # a match in memory holds tuples
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
            continue
        if type(x) is not type(y):
            return False
        if isinstance(x, list) and isinstance(y, list):  # (y is of x's type: the test above)
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, float) and isinstance(y, float):
            if x != y or math.copysign(1, x) != math.copysign(1, y):
                return False
        elif x != y:
            return False
    return True


def text_encoder(separators: tuple[str, str], *, allow_nan: bool = True) -> Callable[[object], str]:
    """``json.JSONEncoder(ensure_ascii=False, separators=separators, allow_nan=allow_nan).encode``:
    the same text, for less. CPython's C encoder is made once here, where ``encode`` makes a new
    one on every call, which costs more than encoding a record line or a few events (the club
    server writes thousands a second). There is no cycle check: the data written this way is
    the program's own, and a cycle would end in RecursionError, not ValueError. Where the C
    encoder is missing (another Python), ``encode`` itself."""
    plain = json.JSONEncoder(ensure_ascii=False, separators=separators, allow_nan=allow_nan)
    make = getattr(json.encoder, "c_make_encoder", None)  # CPython's, undeclared in its stubs
    if make is None:
        return plain.encode
    item_separator, key_separator = separators
    fast = make(
        None,
        plain.default,
        json.encoder.encode_basestring,
        None,
        key_separator,
        item_separator,
        False,
        False,
        allow_nan,
    )
    join = "".join

    def encode(value: object) -> str:
        return join(fast(value, 0))

    return encode


__all__ = [
    "JSONError",
    "MAX_BYTES",
    "MAX_DEPTH",
    "check_depth",
    "exact_equal",
    "file_kind",
    "is_int",
    "iter_lines",
    "kind",
    "load_file",
    "loads",
    "open_regular",
    "read_bytes",
    "text_encoder",
]
