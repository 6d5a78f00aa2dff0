"""The variant of a game a table plays: which named preset (Scopone scientifico …) its
options are, or a custom set of house rules, and the short name the window shows for it.

The house rules of a game are its options that carry a one-line explanation (``describe``
in rules.yaml): the toggles behind "Custom". The others (``target``, ``format``,
``deals_to_win``) set the length of the match, not the rules of play: a Scopone scientifico
to 21 is still Scopone scientifico, so they never make a variant of their own.

The statistics keep one record per game, mode and variant; the variant's key is empty for
the rules as written (every house rule at its default), which is also how statistics files
written before house rules existed read. Nothing here imports pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from game.config import GameConfig, OptionSpec, PresetSpec

#: The preset id the game-select screen uses for the player's own set of house rules.
CUSTOM = "custom"
#: The prefix of a custom variant's key in the statistics ("custom:capture=fifteen+napola=true").
CUSTOM_PREFIX = CUSTOM + ":"


class Messages(Protocol):
    """The window's words (game.services.i18n.I18n): a message by key, and whether there is one."""

    def has(self, key: str, lang: str | None = None) -> bool: ...

    def t(self, key: str, lang: str | None = None, **params: object) -> str: ...


def _has(i18n: Messages, key: str) -> bool:
    return bool(i18n.has(key) or i18n.has(key, "en"))


def house_rules(game: GameConfig, players: int | None = None) -> list[OptionSpec]:
    """The game's house-rule options in rules.yaml's order; with ``players``, only those
    offered for that player count."""
    return [s for s in game.options.values() if s.describe is not None and (players is None or s.offered_for(players))]


def shown(value: object) -> str:
    """An option value as rules.yaml writes it (``true``, ``scopone``, ``21``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def valid_value(spec: OptionSpec, value: object) -> tuple[bool, object]:
    """(True, the allowed value) when ``value`` is one of the option's values, else (False, None).
    ``1`` is not ``true`` and ``"11"`` not ``11``: a hand-edited file gets no surprises."""
    try:
        return True, spec.value_of(value)
    except ValueError:
        return False, None


def house_options(game: GameConfig, options: Mapping[str, object] | None) -> dict[str, object]:
    """Every house rule's value in ``options`` (its default where it is missing or unknown)."""
    out: dict[str, object] = {}
    for spec in house_rules(game):
        ok, v = valid_value(spec, (options or {}).get(spec.name, spec.default))
        out[spec.name] = v if ok else spec.default
    return out


def changed_rules(game: GameConfig, options: Mapping[str, object] | None) -> dict[str, object]:
    """The house rules in ``options`` that differ from their default, in rules.yaml's order."""
    specs = game.options
    return {k: v for k, v in house_options(game, options).items() if v != specs[k].default}


def preset_options(game: GameConfig, preset: PresetSpec) -> dict[str, object]:
    """Every house rule as the preset sets it (the ones it leaves out at their default)."""
    return house_options(game, preset.options)


def preset_of(game: GameConfig, options: Mapping[str, object] | None, players: int | None = None) -> PresetSpec | None:
    """The preset whose house rules are exactly those of ``options`` (None: a custom set).
    With ``players``, only a preset that can be played by that many."""
    mine = house_options(game, options)
    for p in game.presets:
        if players is not None and players not in p.players:
            continue
        if preset_options(game, p) == mine:
            return p
    return None


def variant_key(game: GameConfig, options: Mapping[str, object] | None, players: int | None = None) -> str:
    """The statistics' name of the variant: "" for the rules as written, a preset's id
    ("scopone"), or "custom:" with the changed rules ("custom:capture=fifteen+napola=true")."""
    changed = changed_rules(game, options)
    if not changed:
        return ""
    preset = preset_of(game, options, players)
    if preset is not None:
        return preset.id
    return CUSTOM_PREFIX + "+".join(f"{k}={shown(v)}" for k, v in changed.items())


def options_from_key(game: GameConfig, key: str) -> dict[str, object] | None:
    """The house rules a variant key stands for; None when the key names no preset or rule
    of this game (a statistics file from another version, edited by hand)."""
    if key == "":
        return house_options(game, {})
    for p in game.presets:
        if p.id == key:
            return preset_options(game, p)
    if not key.startswith(CUSTOM_PREFIX):
        return None
    given: dict[str, object] = {}
    for part in key[len(CUSTOM_PREFIX) :].split("+"):
        name, sep, text = part.partition("=")
        spec = game.options.get(name)
        if not sep or spec is None or spec.describe is None:
            return None
        try:
            given[name] = spec.value_from_text(text)
        except ValueError:
            return None
    return house_options(game, given)


def rule_value_label(i18n: Messages, name: str, value: object) -> str:
    """The name of one option value as the game-select screen shows it ("Fifteen", "On", "21")."""
    key = f"option.{name}_{shown(value)}"
    if _has(i18n, key):
        return i18n.t(key)
    if isinstance(value, bool):
        return i18n.t("common.on" if value else "common.off")
    return str(value)


def short_rule(i18n: Messages, name: str, value: object) -> str:
    """One changed rule in a custom variant's summary ("Fifteen", "Napola")."""
    key = f"house_rules.short.{name}_{shown(value)}"
    if _has(i18n, key):
        return i18n.t(key)
    if isinstance(value, bool) and value:
        return i18n.t(f"option.{name}") if _has(i18n, f"option.{name}") else name
    return rule_value_label(i18n, name, value)


def variant_name(
    i18n: Messages, game: GameConfig, options: Mapping[str, object] | None, players: int | None = None
) -> str | None:
    """ "Scopone scientifico", or "Custom: Fifteen · Napola"; None for the rules as written
    (the window then shows the game's own name) and for a game without house rules."""
    changed = changed_rules(game, options)
    if not changed:
        return None
    preset = preset_of(game, options, players)
    if preset is not None:
        return i18n.t(preset.name)
    rules = " · ".join(short_rule(i18n, k, v) for k, v in changed.items())
    return i18n.t("house_rules.custom_summary", rules=rules)


def variant_name_of_key(i18n: Messages, game: GameConfig, key: str) -> str | None:
    """The name of a statistics variant key (None for the rules as written); an unreadable
    key is just "Custom"."""
    if key == "":
        return None
    opts = options_from_key(game, key)
    if opts is None:
        return i18n.t("preset.custom")
    return variant_name(i18n, game, opts)


__all__ = [
    "CUSTOM",
    "Messages",
    "CUSTOM_PREFIX",
    "house_rules",
    "house_options",
    "changed_rules",
    "preset_options",
    "preset_of",
    "variant_key",
    "options_from_key",
    "variant_name",
    "variant_name_of_key",
    "rule_value_label",
    "short_rule",
    "valid_value",
    "shown",
]
