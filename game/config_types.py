"""The config's types: the frozen dataclasses rules.yaml is validated into, and the
constants they share.

Nothing here reads a file or knows the registry, so the rules classes may name these types
(and the config validator may ask the rules classes) without an import circle.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from game.cards import RANKS, SUITS, Card, build_deck

LANGUAGES: tuple[str, ...] = ("en", "nl", "de", "it")
COURTS: tuple[str, ...] = ("J", "Q", "K")
DECK_SIZES: dict[int, tuple[str, ...]] = {
    40: ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
    52: RANKS,
    20: ("A", "10", "K", "Q", "J"),
}


def data_dir() -> Path:
    """The folder holding rules.yaml and locales/, from source or from a frozen build."""
    env = os.environ.get("CARDAVIA_DATA")
    if env:
        return Path(env)
    import sys

    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def default_rules_path() -> Path:
    return data_dir() / "rules.yaml"


Localized = Mapping[str, str]


#: An option's value as rules.yaml writes it: a word, a number or true/false.
OptionValue = str | int | float | bool
#: Option names and their values (a match's options, a preset's, a command line's).
Options = Mapping[str, OptionValue]


@dataclass(frozen=True)
class DeckConfig:
    id: str
    name: Localized
    region: Localized
    cards: int
    suit_system: str
    suits: Mapping[str, Localized]  # language -> suit letter -> name
    courts: Mapping[str, Localized]  # language -> J/Q/K -> name
    description: Localized
    wikipedia: str
    colors: Mapping[str, object]
    aspect: float
    games: tuple[str, ...]
    #: language -> rank -> its name, for a numeral the pack's players call by a word
    #: (Schnapsen's "10" is the Ten, the Zehner); other numerals are named by their figure.
    rank_names: Mapping[str, Localized] = field(default_factory=lambda: MappingProxyType({}))
    #: language -> suit -> its form inside a card's name where that differs from the suit's
    #: name (German compounds: "Kelch-7", while the suit is "Kelche").
    card_suits: Mapping[str, Localized] = field(default_factory=lambda: MappingProxyType({}))

    def ranks(self) -> tuple[str, ...]:
        return DECK_SIZES[self.cards]

    def cards_for(self, game: GameConfig) -> list[Card]:
        """The cards this deck contributes to ``game`` (52-card packs drop 8, 9, 10 for 40-card games)."""
        return build_deck(game.ranks, SUITS)

    def suit_name(self, suit: str, lang: str = "en") -> str:
        return self.suits.get(lang, self.suits["en"])[suit]

    def court_name(self, rank: str, lang: str = "en") -> str:
        return self.courts.get(lang, self.courts["en"])[rank]

    def rank_word(self, rank: str, lang: str = "en") -> str | None:
        """The pack's own word for a rank — a court's name, or a numeral's where it has one
        (Schnapsen's Ten) — or None: the Ace is the locale's, a numeral its figure."""
        if rank in COURTS:
            return self.court_name(rank, lang)
        return self.rank_names.get(lang, self.rank_names.get("en", {})).get(rank)

    def card_suit(self, suit: str, lang: str = "en") -> str:
        """The suit as it stands inside a card's name ("Kelch" in "Kelch-7")."""
        return self.card_suits.get(lang, {}).get(suit) or self.suit_name(suit, lang)


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: OptionValue
    allowed: tuple[OptionValue, ...]
    #: The player counts the option is offered for; with any other count only its default
    #: is allowed (Scopone needs four). Empty: every player count of the game.
    players: tuple[int, ...] = ()
    #: Locale key of the one-line explanation shown with the option, or None.
    describe: str | None = None
    #: Other names a record may give the option (a reader accepts them: RULES.md).
    aliases: tuple[str, ...] = ()

    def offered_for(self, players: int) -> bool:
        return not self.players or players in self.players

    def allowed_for(self, players: int) -> tuple[OptionValue, ...]:
        """The values a match of ``players`` may use: all of them, or only the default."""
        return self.allowed if self.offered_for(players) else (self.default,)

    def value_of(self, value: object) -> OptionValue:
        """The allowed value equal to ``value`` (``true`` is not ``1``, ``11`` not ``"11"``);
        ValueError naming the option otherwise."""
        for a in self.allowed:
            if (
                value == a
                and isinstance(value, bool) == isinstance(a, bool)
                and isinstance(value, str) == isinstance(a, str)
            ):
                return a
        shown = repr(value) if isinstance(value, str) else _shown(value)
        raise ValueError(f"option {self.name}={shown} is not allowed (allowed: {_listed(self.allowed)})")

    def value_from_text(self, text: object) -> OptionValue:
        """The allowed value a command line's ``NAME=VALUE`` means (``true``, ``21``, ``scopone``)."""
        for a in self.allowed:
            if str(text).strip().lower() == _shown(a).lower():
                return a
        raise ValueError(f"option {self.name}={text} is not allowed (allowed: {_listed(self.allowed)})")


@dataclass(frozen=True)
class OptionConstraint:
    """A combination rule between options: when every option in ``when`` holds one of its
    listed values, every option in ``then`` must hold one of its own."""

    when: Mapping[str, tuple[OptionValue, ...]]
    then: Mapping[str, tuple[OptionValue, ...]]

    def holds(self, options: Mapping[str, object]) -> bool:
        if not all(options.get(k) in vals for k, vals in self.when.items()):
            return True
        return all(options.get(k) in vals for k, vals in self.then.items())

    def __str__(self) -> str:
        def part(m: Mapping[str, tuple[OptionValue, ...]]) -> str:
            return " and ".join(f"{k}={'/'.join(_shown(v) for v in vals)}" for k, vals in m.items())

        return f"{part(self.when)} needs {part(self.then)}"


@dataclass(frozen=True)
class PresetSpec:
    """A named set of options the game-select screen offers (Scopone scientifico …)."""

    id: str
    #: Locale key of the preset's name.
    name: str
    #: The options the preset sets; every other option keeps its default.
    options: Options
    #: The player counts the preset can be played with.
    players: tuple[int, ...]


def _shown(value: object) -> str:
    """An option value as rules.yaml and the command line write it (``true``, not ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _listed(values: tuple[OptionValue, ...]) -> str:
    return ", ".join(_shown(v) for v in values)


@dataclass(frozen=True)
class ModeConfig:
    id: str
    players: tuple[int, ...]


@dataclass(frozen=True)
class GameConfig:
    id: str
    name: Localized
    deck_cards: int
    ranks: tuple[str, ...]
    players: tuple[int, ...]
    modes: tuple[ModeConfig, ...]
    options: Mapping[str, OptionSpec]
    scoring: Mapping[str, Any]
    #: Combination rules between options, checked by :meth:`resolve_options`.
    constraints: tuple[OptionConstraint, ...] = ()
    #: Named option sets for the game-select screen, in rules.yaml's order.
    presets: tuple[PresetSpec, ...] = ()
    #: The coach's thresholds (game.coach): the least value lost, in the game's own points,
    #: that makes a decision an ``inaccuracy``, a ``mistake``, a ``blunder``. Empty: none given.
    coach: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    #: The puzzle generator's settings (game.puzzles.make): ``margin`` (exact, every card known)
    #: and ``hidden_margin`` (the coach's valuation) in the game's own points, and optionally
    #: ``max_hand``, ``hidden_rate`` and ``players``. Empty: the game makes no puzzles.
    puzzles: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))

    def default_options(self) -> dict[str, object]:
        return {k: spec.default for k, spec in self.options.items()}

    def option_spec(self, name: str) -> OptionSpec:
        """The option called ``name`` (or one of its aliases); ValueError naming it otherwise."""
        spec = self.options.get(name)
        if spec is None:
            spec = next((o for o in self.options.values() if name in o.aliases), None)
        if spec is None:
            raise ValueError(f"{self.id} has no option {name!r} (options: {', '.join(self.options) or 'none'})")
        return spec

    def resolve_options(
        self, given: Mapping[str, object] | None = None, players: int | None = None
    ) -> dict[str, object]:
        """Every option in force: the defaults overlaid with ``given`` (a missing option is its
        default). With ``players``, also the options' player counts and the combination rules.
        Raises ValueError with one line naming the unknown option, the bad value or the clash."""
        opts = self.default_options()
        named: dict[str, str] = {}
        for k, v in (given or {}).items():
            spec = self.option_spec(str(k))
            if spec.name in named:
                raise ValueError(f"{self.id} option {spec.name} is given twice (as {named[spec.name]} and {k})")
            named[spec.name] = str(k)
            try:
                opts[spec.name] = spec.value_of(v)
            except ValueError as e:
                raise ValueError(f"{self.id} {e}") from None
        if players is not None:
            self.check_players(opts, players)
        for c in self.constraints:
            if not c.holds(opts):
                raise ValueError(f"{self.id}: {c}")
        return opts

    def check_players(self, options: Mapping[str, object], players: int) -> None:
        """ValueError when an option other than its default is not offered for ``players``."""
        for k, v in options.items():
            spec = self.options[k]
            if v != spec.default and not spec.offered_for(players):
                counts = " or ".join(map(str, spec.players))
                raise ValueError(f"{self.id} option {k}={_shown(v)} is for {counts} players, not {players}")

    def options_from_text(self, given: Mapping[str, object]) -> dict[str, object]:
        """``{name: text}`` from the command line, each text turned into its allowed value."""
        out: dict[str, object] = {}
        for k, text in given.items():
            spec = self.option_spec(str(k))
            try:
                out[spec.name] = spec.value_from_text(text)
            except ValueError as e:
                raise ValueError(f"{self.id} {e}") from None
        return out

    def presets_for(self, players: int) -> list[PresetSpec]:
        return [p for p in self.presets if players in p.players]

    def mode_for(self, players: int) -> ModeConfig:
        for m in self.modes:
            if players in m.players:
                return m
        raise ValueError(f"{self.id} has no mode for {players} players")


@dataclass(frozen=True)
class Config:
    decks: Mapping[str, DeckConfig]
    games: Mapping[str, GameConfig]
    languages: tuple[str, ...] = field(default=LANGUAGES)
    source: str = "rules.yaml"

    def deck(self, deck_id: str) -> DeckConfig:
        try:
            return self.decks[deck_id]
        except KeyError:
            raise ValueError(f"unknown deck {deck_id!r} (decks: {', '.join(self.decks)})") from None

    def game(self, game_id: str) -> GameConfig:
        try:
            return self.games[game_id]
        except KeyError:
            raise ValueError(f"unknown game {game_id!r} (games: {', '.join(self.games)})") from None

    def decks_for(self, game_id: str) -> list[DeckConfig]:
        return [d for d in self.decks.values() if game_id in d.games]
