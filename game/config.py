"""rules.yaml, loaded and validated once: the one door the rest of the program uses.

Three units stand behind it: the types (:mod:`game.config_types`, the frozen dataclasses),
the hardened YAML reader (:mod:`game.safeyaml`, the locales use it too) and the validator
(:mod:`game.config_check`). This module hands the validator the registry's ``rules_class``
at call time, so neither the types nor the validator import the registry or a game. Every
problem is a :class:`ConfigError` whose ``str`` is one line for the player.
"""

from __future__ import annotations

import os
from pathlib import Path

from game import config_check
from game.cards import card
from game.config_types import (
    COURTS,
    DECK_SIZES,
    LANGUAGES,
    Config,
    DeckConfig,
    GameConfig,
    ModeConfig,
    OptionConstraint,
    OptionSpec,
    PresetSpec,
    data_dir,
    default_rules_path,
)
from game.registry import rules_class, with_registered
from game.safeyaml import MAX_YAML_BYTES, ConfigError, scan_yaml


def load_config(path: str | os.PathLike | None = None) -> Config:
    """Read and validate rules.yaml (default: the shipped one). Raises ConfigError."""
    from game.safejson import JSONError, read_bytes

    p = Path(path) if path is not None else default_rules_path()
    try:
        text = read_bytes(p, MAX_YAML_BYTES).decode("utf-8")  # a FIFO or a device is refused unread
    except FileNotFoundError:
        raise ConfigError(str(p), "", "file not found") from None
    except JSONError as e:
        raise ConfigError(str(p), "", f"cannot be read: {e.problem}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(str(p), "", f"cannot be read: {e}") from None
    return parse_config(text, p.name)


def parse_config(text: str, file: str = "rules.yaml") -> Config:
    """Validate a rules.yaml text against the registered games. Raises ConfigError."""
    return config_check.parse_config(text, file, rules_class)


_CACHE: dict[str, Config] = {}


def get_config(path: str | os.PathLike | None = None) -> Config:
    """The validated config, loaded once per path."""
    key = str(Path(path) if path is not None else default_rules_path())
    if key not in _CACHE:
        _CACHE[key] = load_config(key)
    return with_registered(_CACHE[key])


__all__ = [
    "Config",
    "ConfigError",
    "DeckConfig",
    "GameConfig",
    "ModeConfig",
    "OptionConstraint",
    "OptionSpec",
    "PresetSpec",
    "COURTS",
    "DECK_SIZES",
    "MAX_YAML_BYTES",
    "LANGUAGES",
    "load_config",
    "parse_config",
    "get_config",
    "data_dir",
    "default_rules_path",
    "scan_yaml",
    "card",
]
