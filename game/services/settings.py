"""The player's settings, saved as settings.json in the user config folder.

The folder is ``$CARDAVIA_HOME`` when set (tests, portable installs), else the platform's
config dir (platformdirs). Writes are atomic (temp file + os.replace) so a crash mid-write
never leaves a half file. A file that cannot be parsed is moved aside to
``settings.json.bad`` and defaults are used; a bad value in a good file is clamped or reset
for that field only. Nothing here raises on bad data, and nothing imports pygame.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from game.config import LANGUAGES, GameConfig
from game.rules.vocabulary import JsonObject

APP_NAME = "cardavia"
FILE_NAME = "settings.json"

ANIMATION_SPEEDS: tuple[str, ...] = ("slow", "normal", "fast", "instant")
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: How long a finished trick stays in view: until a click or a key, 1.5 s, or briefly.
TRICK_HOLDS: tuple[str, ...] = ("click", "timed", "brief")
#: Accessibility, so that a player who sees the cards badly or not at all can play: where the
#: spoken lines go (game.services.speech.MODES), card and text sizes.
SPEECH_MODES: tuple[str, ...] = ("off", "on", "screen_reader")
CARD_SIZES: tuple[str, ...] = ("normal", "large", "xlarge")
TEXT_SIZES: tuple[str, ...] = ("normal", "large", "xlarge")
#: Where the picture is post-processed (a frame at the window's own pixels costs the CPU alone
#: too much): the graphics card where one can be had ("auto"), always the CPU, or the GPU
#: (falling back to the CPU, with a line, where it cannot).
RENDER_PATHS: tuple[str, ...] = ("auto", "cpu", "gpu")

# Integer fields and their inclusive ranges; everything else is validated in _clean.
_RANGES: dict[str, tuple[int, int]] = {
    "contrast": (0, 100),
    "grain": (0, 100),
    "temperature": (0, 100),
    "volume": (0, 100),
    "replays_kept": (0, 5000),  # game.services.replays.MAX_LIMIT
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
    #: A finished trick stays: "click" (until a click or a key), "timed" (1.5 s), "brief".
    trick_hold: str = "timed"
    #: Show the capture games' awards as they stand during the deal (a learning aid).
    running_tally: bool = False
    #: Open hands practice (to learn by seeing every hand): the computer's hands face up; such
    #: matches are practice.
    open_hands: bool = False
    #: How many finished matches Replays keeps (game.services.replays), the newest first.
    replays_kept: int = 200
    ai_level: str = "normal"
    #: Accessibility (a player who cannot see the table plays by ear and by larger cards):
    #: speech "off" / "on" / "screen_reader" (only through a running screen reader: the
    #: default, so a blind player hears the game from the first start); clear suits (four
    #: colours, a suit letter in each corner, a high-contrast table); the card and the text size.
    speech: str = "screen_reader"
    clear_suits: bool = False
    card_size: str = "normal"
    text_size: str = "normal"
    #: "auto" / "cpu" / "gpu" (RENDER_PATHS); `--render` overrides it for one run.
    render: str = "auto"
    last_deck: str = ""
    #: Per game: the options last chosen on the game select screen, every one in force, and the
    #: player count ({"scopa": {"target": 21, "deal": "scopone", "players": 4}}).
    game_options: dict[str, JsonObject] = field(default_factory=dict)
    #: Per game with house rules: the preset last chosen and the Custom toggles, kept apart so
    #: trying a preset never loses them ({"scopa": {"preset": "custom", "custom": {"napola": true}}}).
    variants: dict[str, JsonObject] = field(default_factory=dict)
    #: The lessons finished (game.lessons: a lesson's name), for the Learn screen's marks.
    lessons_done: list[str] = field(default_factory=list)
    #: Keys this version does not know (written by a newer one): kept so a round trip loses nothing.
    extra: JsonObject = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        data = asdict(self)
        extra = data.pop("extra")
        return {**extra, **data}

    @classmethod
    def from_json(cls, data: object, default_language: str = "en") -> Settings:
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


_CHOICES: dict[str, tuple[str, ...]] = {
    "speech": SPEECH_MODES,
    "card_size": CARD_SIZES,
    "text_size": TEXT_SIZES,
    "render": RENDER_PATHS,
}


def _clean(s: Settings, key: str, value: object) -> None:
    """Set ``key`` from ``value`` if it is usable: clamp numbers, ignore wrong types."""
    if key in _RANGES:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return
        lo, hi = _RANGES[key]
        setattr(s, key, int(round(min(hi, max(lo, value)))))
    elif key in ("muted", "fullscreen", "hints", "running_tally", "open_hands", "clear_suits"):
        if isinstance(value, bool):
            setattr(s, key, value)
    elif key == "trick_hold":
        if value in TRICK_HOLDS:
            s.trick_hold = value
    elif key in _CHOICES:
        if isinstance(value, str) and value in _CHOICES[key]:
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
    elif key == "lessons_done":
        if isinstance(value, list):
            s.lessons_done = list(dict.fromkeys(v for v in value if isinstance(v, str) and 0 < len(v) <= 40))[:50]
    elif key in ("game_options", "variants"):
        if isinstance(value, dict):
            setattr(s, key, {str(g): dict(opts) for g, opts in value.items() if isinstance(opts, dict)})


@dataclass
class GameChoice:
    """What the game-select screen shows for one game: the player count, every option (the
    house rules as the Custom toggles have them) and the preset ("custom", or "" for a game
    without presets)."""

    players: int
    options: dict[str, object]
    preset: str


def game_choice(settings: Settings, game: GameConfig) -> GameChoice:
    """The choice remembered for ``game``, checked against rules.yaml: a value that is not
    (or no longer) allowed falls back to its default, never to an error."""
    from game.variants import CUSTOM, house_options, house_rules, preset_of, valid_value

    saved = settings.game_options.get(game.id, {})
    saved = saved if isinstance(saved, dict) else {}
    players = saved.get("players")
    if isinstance(players, bool) or players not in game.players:
        players = min(game.players)
    options = game.default_options()
    for k, v in saved.items():
        if k in game.options:
            ok, value = valid_value(game.options[k], v)
            if ok:
                options[k] = value
    var = settings.variants.get(game.id, {})
    var = var if isinstance(var, dict) else {}
    if not game.presets:
        return GameChoice(players, options, "")
    ids = [p.id for p in game.presets]
    custom = var.get("custom")
    if isinstance(custom, dict):
        options.update(house_options(game, custom))
    preset = var.get("preset")
    if preset not in ids and preset != CUSTOM:
        # No remembered preset (an older settings file): name what the options say.
        found = preset_of(game, options, players)
        preset = found.id if found is not None else (CUSTOM if house_rules(game) else ids[0])
    return GameChoice(players, options, str(preset))


def remember_game_choice(
    settings: Settings, game: GameConfig, choice: GameChoice, in_force: Mapping[str, object]
) -> None:
    """Keep the choice for next time: the options in force (as ``game_options`` always held
    them) and, for a game with presets, the preset and the Custom toggles."""
    from game.variants import house_options

    settings.game_options[game.id] = {**in_force, "players": choice.players}
    if game.presets:
        settings.variants[game.id] = {"preset": choice.preset, "custom": house_options(game, choice.options)}


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
        from game.services.i18n import detect_system_language

        default_language = detect_system_language()
    from game.services.storage import Problem, read_json

    # The hardened reader: not UTF-8, not JSON, nested 100,000 deep, not an object, a FIFO…
    # all move the file aside as settings.json.bad (it is never overwritten by defaults).
    data, problem = read_json(p, max_bytes=MAX_BYTES, expect=dict, what="a settings file")
    if problem:
        _BASE[str(p)] = {}
        bad = problem.bad
        kept = f" (the old file is kept as {bad})" if bad else ""
        return LoadResult(
            Settings(language=default_language),
            Problem(f"Settings file was damaged; defaults restored{kept}.", p.name, bad),
        )
    if data is None:
        _BASE[str(p)] = {}
        return LoadResult(Settings(language=default_language), None, first_start=True)
    settings = Settings.from_json(data, default_language)
    _BASE[str(p)] = settings.to_json()
    return LoadResult(settings)


#: settings.json is small; anything larger is not one.
MAX_BYTES = 1024 * 1024
#: Per file: the settings as this process read them, so that a save writes only what this
#: window changed (a second window's change to another setting survives: storage.merge_changes).
_BASE: dict[str, JsonObject] = {}


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write atomically what changed since this window read the file, over what the file
    holds now. Returns None on success, else a one-line problem (never raises)."""
    from game.safejson import load_file
    from game.services.storage import locked, merge_changes, write_json

    p = path or settings_path()
    new = settings.to_json()
    with locked(p):
        try:
            current = load_file(p, max_bytes=MAX_BYTES)
        except (OSError, ValueError):
            current = {}  # missing or unreadable now: write all of ours
        merged = merge_changes(current, _BASE.get(str(p), {}), new) if isinstance(current, dict) else new
        problem = write_json(p, merged)
    if not problem:
        _BASE[str(p)] = new
    return f"Settings could not be saved ({problem})." if problem else None


__all__ = [
    "Settings",
    "LoadResult",
    "GameChoice",
    "game_choice",
    "remember_game_choice",
    "ANIMATION_SPEEDS",
    "AI_LEVELS",
    "TRICK_HOLDS",
    "load_settings",
    "save_settings",
    "settings_path",
    "user_config_dir",
    "user_data_dir",
]
