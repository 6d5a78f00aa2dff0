"""A table on disk: its record, appended as it grows, and its meta, replaced atomically.

``DIR/<CODE>.jsonl`` is the match's record (RECORD.md, format 1: valid record lines only,
the real one with the seed and every hand — the server's own copy, never sent as such).
Each decision's events are appended in one ``write`` and flushed, so a server killed at any
moment leaves the record as it stood after some decision (at worst a last line cut short,
which the reader drops and the rebuild writes again from the rules).

``DIR/<CODE>.table.json`` is the table's meta: its config, its seats (kind, level, the
player's name, the sha256 of the seat's token — never a token), the sha256 of the host
token, the host's settings, whether it has started or finished. It is written as a whole
by game.services.storage (a tempfile in DIR, fsync, rename), so it is always one complete version.

A full disk: a record write that fails is cut back to its last whole decision (the server
keeps the decisions in memory and writes them with the next one), and no new table is made
while DIR has less than MIN_FREE_BYTES free (:meth:`TableStore.has_room`).

Every file is made 0600 in a 0700 folder: tokens are hashed, but the records hold the
hidden cards of matches still being played.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.online.wire.protocol import is_code
from game.record import dumps
from game.rules.base import Event
from game.safejson import JSONError, load_file, loads
from game.services.storage import clean_temp_files, write_bytes, write_json

META_FORMAT = 1
#: Below this much free space in DIR no new table is made: what is left is for the tables
#: under way (a whole record is some 50 KB).
MIN_FREE_BYTES = 1024 * 1024
RECORD_SUFFIX = ".jsonl"
META_SUFFIX = ".table.json"
#: The longest record line the server reads back (a real one is about 1 KB).
MAX_LINE = 1024 * 1024


class StoreError(OSError):
    """The data folder cannot be used, or a table's files cannot be written (one line)."""


class LeaseLost(StoreError):
    """Another process holds this table's lease now (a cluster, game.online.server.cluster): this one
    must let the table go and never write it again."""


@dataclass
class StoredTable:
    """One table as read back from DIR: its meta and the record events so far (empty before
    the match starts)."""

    code: str
    meta: dict[str, Any]
    events: list[Event] = field(default_factory=list)


class TableStore:
    """The tables of one data folder."""

    def __init__(self, root: Path, max_open: int = 1000):
        self.root = Path(root)
        #: Record files kept open at once (the least recently written one is closed beyond:
        #: the open-files limit is shared with the connections, game.online.server.limits).
        self.max_open = max(1, max_open)
        try:
            if self.root.is_symlink():
                raise StoreError(f"{self.root} is a symbolic link; choose the folder itself")
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not self.root.is_dir():
                raise StoreError(f"{self.root} is not a folder")
            probe = self.root / ".cardavia-write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except StoreError:
            raise
        except OSError as e:
            raise StoreError(f"cannot use {self.root} for the tables ({e.strerror or e})") from None
        self._files: dict[str, int] = {}
        #: Per open record, its length (where the next decision begins: a failed write is cut back there).
        self._ends: dict[str, int] = {}
        self._out_of_space = False
        # A killed server's interrupted meta and record writes (another server on the same
        # folder may be writing one: only a gone process's, or one an hour old).
        clean_temp_files([self.root], (f"*{META_SUFFIX}", f"*{RECORD_SUFFIX}"), min_age=3600.0)

    # ---- paths
    def record_path(self, code: str) -> Path:
        return self.root / f"{_checked(code)}{RECORD_SUFFIX}"

    def meta_path(self, code: str) -> Path:
        return self.root / f"{_checked(code)}{META_SUFFIX}"

    def exists(self, code: str) -> bool:
        return os.path.lexists(self.meta_path(code)) or os.path.lexists(self.record_path(code))

    def has_room(self) -> bool:
        """Whether a new table may be made: DIR has MIN_FREE_BYTES free and the last record
        write did not fail for lack of space (a full disk)."""
        if self._out_of_space:
            return False
        try:
            return shutil.disk_usage(self.root).free >= MIN_FREE_BYTES
        except OSError:
            return True  # cannot tell: the writes themselves will say

    # ---- writing
    def write_meta(self, code: str, meta: dict[str, Any]) -> None:
        problem = write_json(self.meta_path(code), {"format": META_FORMAT, **meta})
        if problem:
            raise StoreError(problem)

    def start_record(self, code: str, events: list[Event]) -> None:
        """Begin the table's record (it must not exist yet) with the match's first events."""
        self._close(code)
        text = "".join(dumps(ev) + "\n" for ev in events)
        problem = write_bytes(self.record_path(code), text.encode("utf-8"), overwrite=False)
        if problem:
            raise StoreError(problem)

    def rewrite_record(self, code: str, events: list[Event]) -> None:
        """Replace the record as a whole (after a resume found its last decision cut short)."""
        self._close(code)
        text = "".join(dumps(ev) + "\n" for ev in events)
        problem = write_bytes(self.record_path(code), text.encode("utf-8"))
        if problem:
            raise StoreError(problem)

    def append(self, code: str, events: list[Event], before: int) -> None:
        """Append one decision's events in a single write (flushed to the system: a killed
        server loses nothing; a power cut may lose the last decisions, never the order).
        ``before`` (the record's length before them) is the cluster's guard against a retry
        written twice; a file needs none: a write that fails is cut back off the file."""
        if not events:
            return
        data = ("\n".join(map(dumps, events)) + "\n").encode("utf-8")
        fd = self._files.get(code)
        start = None
        try:
            if fd is None:
                flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                fd = os.open(self.record_path(code), flags)
                while len(self._files) >= self.max_open:
                    self._close(next(iter(self._files)))
                self._files[code] = fd
                self._ends[code] = os.lseek(fd, 0, os.SEEK_END)
            else:  # the most recently written last: the first is the one to close
                self._files[code] = self._files.pop(code)
            start = self._ends[code]  # the file's length, kept here: no seek per decision
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            self._ends[code] = start + len(data)
            self._out_of_space = False
        except OSError as e:
            if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
                self._out_of_space = True
            if fd is not None and start is not None:
                try:  # a write cut short (a full disk): the record ends after its last whole decision
                    os.ftruncate(fd, start)
                except OSError:
                    pass
            self._close(code)
            raise StoreError(f"{code}{RECORD_SUFFIX} could not be written ({e.strerror or e})") from None

    def finished(self, code: str) -> None:
        """The match is over: its record file is closed (it stays in DIR)."""
        self._close(code)

    def _close(self, code: str) -> None:
        self._ends.pop(code, None)
        fd = self._files.pop(code, None)
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self) -> None:
        for code in list(self._files):
            self._close(code)

    # ---- reading back
    def read_record(self, code: str) -> list[Event]:
        """The record's events; a last line cut short (a write interrupted) is dropped and
        cut off the file, so that appending goes on after the last whole line."""
        path = self.record_path(code)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return []
        keep = data.rfind(b"\n") + 1
        if keep != len(data):
            with open(path, "r+b") as f:
                f.truncate(keep)
        return [
            record_event(raw, f"{path.name} line {number}")
            for number, raw in enumerate(data[:keep].split(b"\n")[:-1], 1)
        ]

    def load(self, code: str) -> StoredTable:
        try:
            meta = load_file(self.meta_path(code))
        except (OSError, JSONError) as e:
            raise StoreError(f"{code}{META_SUFFIX}: {getattr(e, 'strerror', None) or e}") from None
        if not isinstance(meta, dict) or meta.get("format") != META_FORMAT or meta.get("code") != code:
            raise StoreError(f"{code}{META_SUFFIX}: not a table of this server")
        return StoredTable(code, meta, self.read_record(code))

    def unfinished(self) -> tuple[list[StoredTable], list[str]]:
        """Every table of DIR whose match has not ended, and a line per table that could not
        be read (it is left where it is)."""
        tables, problems = [], []
        for path in sorted(self.root.glob(f"*{META_SUFFIX}")):
            code = path.name[: -len(META_SUFFIX)]
            if not is_code(code) or path.is_symlink():
                continue
            try:
                t = self.load(code)
            except (StoreError, OSError) as e:
                problems.append(str(e))
                continue
            if t.meta.get("finished") or t.meta.get("closed"):
                continue
            if t.events and t.events[-1].get("event") == "match_end":
                continue
            tables.append(t)
        return tables, problems


def meta_owner(meta: dict) -> tuple[str | None, int | None]:
    """Who made a stored table: (address or None, player id or None); (None, None) for an
    older meta or anything malformed."""
    owner = meta.get("owner")
    if not isinstance(owner, list) or len(owner) != 2:
        return (None, None)
    address = owner[0] if isinstance(owner[0], str) and len(owner[0]) <= 64 else None
    player = owner[1] if isinstance(owner[1], int) and not isinstance(owner[1], bool) else None
    return (address, player)


def meta_holders(meta: dict) -> list[tuple[str | None, int | None]]:
    """Everyone a stored table counts against in the quotas: its maker and, for a quick
    match, each player it seated (the club's ``holders``)."""
    out = [meta_owner(meta)]
    club = meta.get("club")
    holders = club.get("holders") if isinstance(club, dict) else None
    for h in holders if isinstance(holders, list) else []:
        pair = meta_owner({"owner": h})
        if pair != (None, None) and pair not in out:
            out.append(pair)
    return out


def record_event(raw: bytes, where: str) -> Event:
    """One record line read back (bounded in size and depth); StoreError naming ``where``."""
    try:
        ev = loads(raw, max_bytes=MAX_LINE, max_depth=32)
    except JSONError as e:
        raise StoreError(f"{where}: {e}") from None
    if not isinstance(ev, dict):
        raise StoreError(f"{where}: not a record event")
    return ev


def default_data_dir() -> Path:
    """Where ``serve`` (and the window's "Host a table") keeps its tables unless told:
    ``server/`` beside the game's other files ($CARDAVIA_HOME or the platform's data folder)."""
    from game.services.settings import user_data_dir

    return user_data_dir() / "server"


def _checked(code: str) -> str:
    # Codes come from clients: only a well-formed one ever becomes a file name.
    if not is_code(code):
        raise StoreError(f"{str(code)[:20]!r} is not a table code")
    return code


def normalised(events: list[Event]) -> list[Event]:
    """``events`` as they read back from a record (tuples become lists)."""
    return json.loads(json.dumps(events))


def unmarked(events: list[Event]) -> list[Event]:
    """``events`` without the server's own marks (``"by": "computer"`` on a decision the
    computer made for a person), as the rules make them."""
    return [{k: v for k, v in ev.items() if k != "by"} if "by" in ev else ev for ev in events]


def computer_marks(events: list[Event]) -> dict[int, int]:
    """Per seat, the decisions a record marks as made by the computer for a person."""
    out: dict[int, int] = {}
    for ev in events:
        seat = ev.get("seat")
        if ev.get("by") == "computer" and isinstance(seat, int) and not isinstance(seat, bool):
            out[seat] = out.get(seat, 0) + 1
    return out


__all__ = [
    "LeaseLost",
    "StoreError",
    "StoredTable",
    "TableStore",
    "computer_marks",
    "default_data_dir",
    "meta_holders",
    "meta_owner",
    "normalised",
    "unmarked",
]
