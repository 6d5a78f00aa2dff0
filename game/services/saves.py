"""The match in progress, saved after every move so that no way of leaving loses it.

The save is the session's record so far (see game.services.session.Session.to_save); resuming replays
it, so a save is as trustworthy as a record. A save that is corrupt, names a game, deck,
seat, bot or option that cannot be, or does not replay is moved aside (``match.json.bad``)
with a message — never a crash, at no start.

A second window on the same home folder (game.services.storage.claim_home) leaves the first window's
save alone: :data:`read_only` makes it neither offer, write nor clear a save.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from game.rules.vocabulary import JsonObject
from game.services.save_format import SAVE_VERSION, SaveData, check_save
from game.services.settings import user_data_dir
from game.services.storage import quarantine, read_json, write_json

if TYPE_CHECKING:
    from game.services.session import Session

FILE_NAME = "match.json"
#: A save holds a whole match's record: far below this even for a long Schnapsen match.
MAX_BYTES = 16 * 1024 * 1024
#: Set by the window when another window owns the home folder: the save is that window's.
read_only = False


def save_path() -> Path:
    return user_data_dir() / FILE_NAME


def save_match(data: SaveData) -> str | None:
    """Write the session's save atomically. None on success, else a one-line problem."""
    if read_only:
        return None
    return write_json(save_path(), {"version": SAVE_VERSION, **data})


def load_match() -> tuple[JsonObject | None, str | None]:
    """(save, problem). No save → (None, None); a save that is damaged or names something
    that cannot be is moved aside → (None, problem)."""
    if read_only:
        return None, None
    data, problem = read_json(save_path(), max_bytes=MAX_BYTES, expect=dict, what="a Cardavia save")
    if problem or data is None:
        return None, problem
    why = check_save(data)
    if why:
        return None, quarantine(save_path(), f"is not a usable save ({why})")
    return data, None


def resume_session(threaded: bool = True) -> tuple[Session | None, str | None]:
    """The saved session, replayed; (None, problem) when there is none or it cannot be used."""
    from game.services.session import Session

    data, problem = load_match()
    if data is None:
        return None, problem
    try:
        session = Session.from_save(data, threaded=threaded)
    except ValueError as e:
        return None, quarantine(save_path(), f"could not be resumed ({e})")
    if session.over:
        clear_match()
        return None, None
    return session, None


def has_saved_match() -> bool:
    return not read_only and save_path().exists()


def clear_match() -> None:
    if read_only:
        return  # the save is the other window's match
    try:
        save_path().unlink()
    except OSError:
        pass
