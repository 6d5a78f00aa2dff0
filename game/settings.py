"""The player's settings, saved as settings.json in the user config folder.

The folder is ``$CARDAVIA_HOME`` when set (tests, portable installs), else the platform's
config dir (platformdirs). Writes are atomic (temp file + os.replace) so a crash mid-write
never leaves a half file. A file that cannot be parsed is moved aside to
``settings.json.bad`` and defaults are used; a bad value in a good file is clamped or reset
for that field only. Nothing here raises on bad data, and nothing imports pygame.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from game.config import LANGUAGES

APP_NAME = "cardavia"
FILE_NAME = "settings.json"

ANIMATION_SPEEDS: tuple[str, ...] = ("slow", "normal", "fast", "instant")
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

# Integer fields and their inclusive ranges; everything else is validated in _clean.
_RANGES: dict[str, tuple[int, int]] = {
    "contrast": (0, 100),
    "grain": (0, 100),
    "temperature": (0, 100),
    "volume": (0, 100),
}


def user_config_dir() -> Path:
    """Where settings.json lives: $CARDAVIA_HOME or the platform's config folder."""
    home = os.environ.get("CARDAVIA_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def user_data_dir() -> Path:
    """Where screenshots, saves and statistics live: $CARDAVIA_HOME or the platform's data folder."""
    home = os.environ.get("CARDAVIA_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass
class Settings:
    """Every user choice that outlives a session. 50 is neutral for the three picture sliders."""

    language: str = "en"
    contrast: int = 50
    grain: int = 50
    temperature: int = 50
    animation_speed: str = "normal"
    volume: int = 80
    muted: bool = False
    fullscreen: bool = False
    hints: bool = True
    ai_level: str = "normal"
    last_deck: str = ""
    #: Per game: the options last chosen on the game select screen ({"scopa": {"target": 21}}).
    game_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Keys this version does not know (written by a newer one): kept so a round trip loses nothing.
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        extra = data.pop("extra")
        return {**extra, **data}

    @classmethod
    def from_json(cls, data: Any, default_language: str = "en") -> Settings:
        """Settings from parsed JSON; each bad field falls back on its own (never raises)."""
        s = cls(language=default_language)
        if not isinstance(data, dict):
            return s
        known = {f.name for f in fields(cls)} - {"extra"}
        for key, value in data.items():
            if key in known:
                _clean(s, key, value)
            elif isinstance(key, str):
                s.extra[key] = value
        return s


def _clean(s: Settings, key: str, value: Any) -> None:
    """Set ``key`` from ``value`` if it is usable: clamp numbers, ignore wrong types."""
    if key in _RANGES:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return
        lo, hi = _RANGES[key]
        setattr(s, key, int(round(min(hi, max(lo, value)))))
    elif key in ("muted", "fullscreen", "hints"):
        if isinstance(value, bool):
            setattr(s, key, value)
    elif key == "language":
        if value in LANGUAGES:
            s.language = value
    elif key == "animation_speed":
        if value in ANIMATION_SPEEDS:
            s.animation_speed = value
    elif key == "ai_level":
        if value in AI_LEVELS:
            s.ai_level = value
    elif key == "last_deck":
        if isinstance(value, str):
            s.last_deck = value
    elif key == "game_options":
        if isinstance(value, dict):
            s.game_options = {
                str(g): dict(opts) for g, opts in value.items() if isinstance(opts, dict)
            }


@dataclass
class LoadResult:
    settings: Settings
    #: One line for the player when something was wrong with the file, else None.
    problem: str | None = None
    first_start: bool = False


def settings_path() -> Path:
    return user_config_dir() / FILE_NAME


def load_settings(path: Path | None = None, default_language: str | None = None) -> LoadResult:
    """Read settings.json. Missing → defaults (language from the system locale);
    corrupt → defaults, the old file kept as settings.json.bad."""
    p = path or settings_path()
    if default_language is None:
        from game.i18n import detect_system_language

        default_language = detect_system_language()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadResult(Settings(language=default_language), None, first_start=True)
    except (OSError, UnicodeDecodeError) as e:
        return LoadResult(Settings(language=default_language), f"Settings could not be read ({e}); using defaults.")
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
    except ValueError:
        bad = p.with_name(p.name + ".bad")
        try:
            os.replace(p, bad)
            kept = f" (the old file is kept as {bad.name})"
        except OSError:
            kept = ""
        return LoadResult(Settings(language=default_language), f"Settings file was damaged; defaults restored{kept}.")
    return LoadResult(Settings.from_json(data, default_language))


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write atomically. Returns None on success, else a one-line problem (never raises)."""
    from game.storage import write_json

    problem = write_json(path or settings_path(), settings.to_json())
    return f"Settings could not be saved ({problem})." if problem else None


def _warn(msg: str) -> None:
    print(f"cardavia: {msg}", file=sys.stderr)


__all__ = [
    "Settings", "LoadResult", "ANIMATION_SPEEDS", "AI_LEVELS", "load_settings", "save_settings",
    "settings_path", "user_config_dir", "user_data_dir",
]
