"""Kept matches: every match finished in the window is kept as its record, in the user data
folder's ``replays/``, the newest ``limit`` of them (the ``replays_kept`` setting, 200 by
default), so the player can look back at it, watch the computer's play, and check that it
did not cheat.

A kept match is an ordinary record (RECORD.md, format 1): ``verify`` accepts it and the
replay viewer opens it like any ``.jsonl`` file. Its ``match`` line carries two extra fields
the format allows (a reader ignores them): ``seats`` — per seat ``"human"`` or the
computer's level — and ``practice`` (a move was taken back, or the hands were open).

Listing reads only a record's first and last lines (its ``match`` and ``match_end``), through
the hardened reader; an entry that cannot be read, or is not a finished match, is skipped
with a note, never a crash. The folder never holds more than ``limit`` of the game's own
records: the oldest go when a new one is kept. Writes are atomic and never replace a file
(game.services.storage). Nothing here imports pygame.

The folder is the game's, but a player may put records of their own in it: pruning removes
only what the game kept — a file in its index (``index.json``, the names in the order they
were kept, updated under a lock: two windows) that has its own naming. A folder without an
index (kept by an older version) adopts the files that have the game's naming once. The
index is all pruning reads, so it stays fast however many files the folder holds. A file or
a symbolic link where the folder should be is set aside (``replays.bad``, as a damaged
player file is) and a real folder made: nothing is ever written where a link points.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from game.record import FORMAT, MAX_LINE, RecordFormatError, check_event, dumps, parse_line
from game.safejson import JSONError, is_int, open_regular
from game.services.settings import user_data_dir
from game.services.storage import Problem, locked, quarantine, read_json, write_bytes, write_json

if TYPE_CHECKING:
    from game.rules.base import Event
    from game.services.session import Session

FOLDER = "replays"
SUFFIX = ".jsonl"
#: How many kept matches the folder holds when the setting says nothing else.
DEFAULT_LIMIT = 200
#: The most the setting allows (a record is some 50 KB: 5000 of them stay below 250 MB).
MAX_LIMIT = 5000
#: How much of a file's end is read for its last line (a match_end line is ~60 bytes).
TAIL_BYTES = 64 * 1024
HUMAN = "human"
_STAMP = "%Y%m%d-%H%M%S"
#: The game's own list of the records it kept, oldest first (what pruning may remove).
INDEX = "index.json"
INDEX_FORMAT = 1
#: The names the game gives what it keeps: <stamp>-<game>-<players>p[-n].jsonl.
_OWN_NAME = re.compile(r"\d{8}-\d{6}-[a-z][a-z0-9_]*-\d+p(?:-\d+)?\.jsonl")


def replays_dir() -> Path:
    """The kept matches' folder: ``replays/`` in the user data folder."""
    return user_data_dir() / FOLDER


@dataclass
class KeptMatch:
    """What the Replays list shows of one kept match (read without replaying it)."""

    path: Path
    when: float  # seconds since the epoch (the name's stamp, else the file's time)
    game: str
    deck: str
    players: int
    options: dict[str, object]
    winner: int | None
    totals: list[int]
    #: Per seat "human" or the computer's level; None for a record written elsewhere.
    seats: list[str] | None = None
    practice: bool = False

    @property
    def human_seat(self) -> int | None:
        """The player's seat, when the record says which it was."""
        if self.seats is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s == HUMAN), None)

    @property
    def levels(self) -> list[str]:
        """The computer seats' levels, in seat order."""
        return [s for s in self.seats or [] if s != HUMAN]


@dataclass
class Listing:
    """The kept matches, newest first, and one note per entry that was skipped."""

    matches: list[KeptMatch] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------- keeping
def clamp_limit(limit: object) -> int:
    """The setting as a count: a bad value is the default, a number is kept within 0…MAX_LIMIT."""
    if not is_int(limit):
        return DEFAULT_LIMIT
    return max(0, min(MAX_LIMIT, limit))


def seats_of(players: int, human_seat: int | None, levels: list[str] | str) -> list[str]:
    """The ``seats`` field: "human" in the player's seat, a level in every other one
    (``levels`` one per seat, or one for all)."""
    per_seat = [levels] * players if isinstance(levels, str) else list(levels)
    return [HUMAN if seat == human_seat else str(per_seat[seat]) for seat in range(players)]


def keep(
    events: list[Event],
    seats: list[str] | None = None,
    practice: bool = False,
    limit: object = DEFAULT_LIMIT,
    folder: Path | None = None,
    now: float | None = None,
) -> tuple[Path | None, str | None]:
    """Keep a finished match's record (``events``: from its ``match`` line to ``match_end``).

    Returns (the file, None), or (None, a one-line problem) — never raises; (the file, a
    note) when a file or link in the folder's place was set aside first. The oldest kept
    matches beyond ``limit`` are removed afterwards; ``limit`` 0 keeps nothing."""
    limit = clamp_limit(limit)
    if limit == 0:
        return None, None
    if not events or not isinstance(events[0], dict) or events[0].get("event") != "match":
        return None, "the match has no record to keep"
    if events[-1].get("event") != "match_end":
        return None, "the match is not finished"
    folder = folder or replays_dir()
    note = own_folder(folder)
    if note is not None and not folder.is_dir():
        return None, f"the match could not be kept ({note})"
    head = dict(events[0])
    if seats is not None:
        head["seats"] = list(seats)
    head["practice"] = bool(practice)
    text = "".join(dumps(ev) + "\n" for ev in [head, *events[1:]])
    stamp = time.strftime(_STAMP, time.localtime(time.time() if now is None else now))
    base = f"{stamp}-{head.get('game', 'match')}-{head.get('players', 0)}p"
    problem: str | None = None
    for n in range(1, 100):
        path = folder / f"{base}{'' if n == 1 else f'-{n}'}{SUFFIX}"
        problem = write_bytes(path, text.encode("utf-8"), overwrite=False)
        if problem is None:
            _add_to_index(folder, path.name, limit)
            return path, note
        if not problem.endswith("already exists"):
            break
    return None, f"the match could not be kept ({problem})"


def keep_session(
    session: Session, limit: object = DEFAULT_LIMIT, practice: bool | None = None, folder: Path | None = None
) -> tuple[Path | None, str | None]:
    """Keep a finished window match: who played which seat, and whether it was practice (an
    undo, or open hands), go with it."""
    if practice is None:
        practice = session.undos > 0 or session.open_hands
    return keep(list(session.match.events), session_seats(session), practice, limit, folder)


def session_seats(session: Session) -> list[str]:
    """The ``seats`` field of a window match: the player's seat, the computer's level in the
    others (a partner's own level where it has one)."""
    rules = session.rules
    human = session.human_seat
    levels = []
    for seat in range(rules.players):
        partner = human is not None and seat in rules.partners_of(human)
        levels.append(session.partner_bot if partner else session.bot_name)
    return seats_of(rules.players, human, levels)


def own_folder(folder: Path, create: bool = True) -> Problem | None:
    """Make ``folder`` a real folder: a file or a symbolic link in its place is set aside
    (``<name>.bad``) and, with ``create``, a folder made. None, or the one line saying what
    was set aside (or why the folder cannot be made)."""
    note = None
    if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
        note = quarantine(folder, "was not a folder")
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return Problem(f"{folder.name} could not be made ({e.strerror or e})", folder.name)
    return note


def kept_files(folder: Path | None = None) -> list[Path]:
    """Every record in the folder (its ``*.jsonl`` files), newest first; nothing when the
    folder is a link (it is never read through)."""
    folder = folder or replays_dir()
    if os.path.islink(folder):
        return []
    try:
        entries = [p for p in folder.iterdir() if p.name.endswith(SUFFIX) and not p.name.startswith(".")]
    except OSError:
        return []
    return sorted(entries, key=lambda p: (_when(p), p.name), reverse=True)


def _read_index(folder: Path) -> list[str]:
    """The names in the game's index, oldest first. No index yet (an older version's folder)
    or a damaged one (set aside): the files with the game's naming, adopted once."""
    data, _ = read_json(folder / INDEX, expect=dict, what="an index of kept matches")
    names = data.get("kept") if isinstance(data, dict) else None
    if isinstance(names, list):
        return [n for n in dict.fromkeys(names) if isinstance(n, str) and _OWN_NAME.fullmatch(n)]
    try:
        found = [p for p in folder.iterdir() if _OWN_NAME.fullmatch(p.name) and p.is_file() and not p.is_symlink()]
    except OSError:
        return []
    return [p.name for p in sorted(found, key=lambda p: (_when(p), p.name))]


def _add_to_index(folder: Path, name: str | None, limit: object) -> list[Path]:
    """Add ``name`` to the index and remove the game's oldest records beyond ``limit``, in
    one read-modify-write under the index's lock (two windows lose neither's record)."""
    limit = clamp_limit(limit)
    removed: list[Path] = []
    with locked(folder / INDEX, clean=False):  # no look at the folder: its leftovers go at start
        names = [n for n in _read_index(folder) if os.path.lexists(folder / n)]
        if name is not None and name not in names:
            names.append(name)
        keep_from = max(0, len(names) - limit)
        for n in names[:keep_from]:
            p = folder / n
            try:
                if p.is_symlink() or p.is_file():
                    p.unlink()
                    removed.append(p)
            except OSError:
                pass  # a file we may not remove stays; the next keep tries again
        names = [n for n in names[:keep_from] if os.path.lexists(folder / n)] + names[keep_from:]
        write_json(folder / INDEX, {"format": INDEX_FORMAT, "kept": names})
    return removed


def prune(limit: object, folder: Path | None = None) -> list[Path]:
    """Remove the game's oldest kept records beyond ``limit`` (readable or not), never a file
    it did not keep. Returns the files removed."""
    folder = folder or replays_dir()
    if not os.path.isdir(folder) or os.path.islink(folder):
        return []
    return _add_to_index(folder, None, limit)


def _when(path: Path) -> float:
    """When a record was kept: its name's stamp, else the file's modification time."""
    try:
        return time.mktime(time.strptime(path.name[:15], _STAMP))
    except (ValueError, OverflowError):
        try:
            return os.lstat(path).st_mtime
        except OSError:
            return 0.0


# ---------------------------------------------------------------------- listing
def read_summary(path: Path) -> KeptMatch:
    """What the list shows of one record, from its first and last lines. Raises ValueError
    with a one-line reason for anything that is not a finished match this program can read."""
    try:
        f = open_regular(path)
    except (OSError, JSONError) as e:
        raise ValueError(f"cannot be read ({(e.strerror if isinstance(e, OSError) else e.problem) or e})") from None
    with f:
        try:
            first = f.readline(MAX_LINE + 2)
            size = os.fstat(f.fileno()).st_size
            f.seek(max(0, size - TAIL_BYTES))
            tail = f.read(TAIL_BYTES)
        except OSError as e:
            raise ValueError(f"cannot be read ({e.strerror or e})") from None
    try:
        head = parse_line(first.decode("utf-8").rstrip("\r\n"), 1)
        rules_cls = check_event(head, 1, None)
        lines = [ln for ln in tail.split(b"\n") if ln.strip()]
        if not lines:
            raise RecordFormatError(None, "the record is empty", damaged=True)
        end = parse_line(lines[-1].decode("utf-8").rstrip("\r"), 2)
        check_event(end, 2, rules_cls)
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text") from None
    except RecordFormatError as e:
        raise ValueError(f"is not a record ({e.reason})") from None
    if end.get("event") != "match_end":
        raise ValueError("is not a finished match")
    if head.get("format") != FORMAT:
        raise ValueError(f"is not a format {FORMAT} record")
    players = head["players"]
    seats = head.get("seats")
    if not (isinstance(seats, list) and len(seats) == players and all(isinstance(s, str) for s in seats)):
        seats = None
    return KeptMatch(
        path=path,
        when=_when(path),
        game=head["game"],
        deck=head["deck"],
        players=players,
        options=dict(head["options"]),
        winner=end["winner"],
        totals=list(end["totals"]),
        seats=seats,
        practice=head.get("practice") is True,
    )


def list_kept(folder: Path | None = None) -> Listing:
    """The kept matches, newest first; an entry that cannot be read is skipped with a note
    ("20240102-…jsonl is not a finished match"). Never raises."""
    out = Listing()
    note = own_folder(folder or replays_dir(), create=False)  # a file or link in its place: set aside
    if note is not None:
        out.skipped.append(str(note))
    for path in kept_files(folder):
        try:
            out.matches.append(read_summary(path))
        except ValueError as e:
            out.skipped.append(f"{path.name} {e}")
        except Exception as e:  # noqa: BLE001 - a listing must never crash the window
            out.skipped.append(f"{path.name} could not be read ({type(e).__name__})")
    return out


__all__ = [
    "FOLDER",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "HUMAN",
    "KeptMatch",
    "Listing",
    "replays_dir",
    "clamp_limit",
    "seats_of",
    "session_seats",
    "keep",
    "keep_session",
    "kept_files",
    "own_folder",
    "prune",
    "read_summary",
    "list_kept",
]
