"""The match in progress, saved after every move so that no way of leaving loses it.

The save is the session's record so far (see game.session.Session.to_save); resuming replays
it, so a save is as trustworthy as a record. A save that is corrupt or does not replay is
moved aside with a message — never a crash.
"""
from __future__ import annotations

from pathlib import Path

from game.settings import user_data_dir
from game.storage import quarantine, read_json, write_json

FILE_NAME = "match.json"
SAVE_VERSION = 1


def save_path() -> Path:
    return user_data_dir() / FILE_NAME


def save_match(data: dict) -> str | None:
    """Write the session's save atomically. None on success, else a one-line problem."""
    return write_json(save_path(), {"version": SAVE_VERSION, **data})


def load_match() -> tuple[dict | None, str | None]:
    """(save, problem). No save → (None, None); a corrupt save is moved aside → (None, problem)."""
    data, problem = read_json(save_path())
    if problem or data is None:
        return None, problem
    if not isinstance(data, dict) or data.get("version") != SAVE_VERSION or not isinstance(data.get("events"), list):
        return None, quarantine(save_path(), "is not a Cardavia save")
    return data, None


def resume_session(threaded: bool = True):
    """The saved session, replayed; (None, problem) when there is none or it cannot be used."""
    from game.session import Session

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
    return save_path().exists()


def clear_match() -> None:
    try:
        save_path().unlink()
    except OSError:
        pass
