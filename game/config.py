"""Load and validate rules.yaml into frozen dataclasses.

Every problem is reported as a :class:`ConfigError` naming the file, the place (line and
key path) and what is wrong — the caller shows that one line instead of a traceback.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from game.cards import RANKS, SUITS, Card, build_deck, card, is_card_code
from game.registry import has_rules_module, rules_class

LANGUAGES: tuple[str, ...] = ("en", "nl", "de", "it")
SUIT_SYSTEMS: tuple[str, ...] = ("italian", "french", "german")
MODE_IDS: tuple[str, ...] = ("versus", "partners")
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


class ConfigError(Exception):
    """rules.yaml is broken; ``str(err)`` is a one-line message for the player."""

    def __init__(self, file: str, place: str, problem: str, line: int | None = None):
        self.file, self.place, self.problem, self.line = file, place, problem, line
        where = f"{file}, line {line}" if line else file
        super().__init__(f"{where} ({place}): {problem}" if place else f"{where}: {problem}")


Localized = Mapping[str, str]


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
    colors: Mapping[str, Any]
    aspect: float
    games: tuple[str, ...]

    def ranks(self) -> tuple[str, ...]:
        return DECK_SIZES[self.cards]

    def cards_for(self, game: GameConfig) -> list[Card]:
        """The cards this deck contributes to ``game`` (52-card packs drop 8, 9, 10 for 40-card games)."""
        return build_deck(game.ranks, SUITS)

    def suit_name(self, suit: str, lang: str = "en") -> str:
        return self.suits.get(lang, self.suits["en"])[suit]

    def court_name(self, rank: str, lang: str = "en") -> str:
        return self.courts.get(lang, self.courts["en"])[rank]


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    allowed: tuple[Any, ...]


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

    def default_options(self) -> dict[str, Any]:
        return {k: spec.default for k, spec in self.options.items()}

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``given``; raises ValueError naming an unknown or disallowed option."""
        opts = self.default_options()
        for k, v in (given or {}).items():
            if k not in self.options:
                raise ValueError(f"{self.id} has no option {k!r} (options: {', '.join(self.options) or 'none'})")
            if v not in self.options[k].allowed:
                allowed = ", ".join(str(a) for a in self.options[k].allowed)
                raise ValueError(f"{self.id} option {k}={v!r} is not allowed (allowed: {allowed})")
            opts[k] = v
        return opts

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


# --------------------------------------------------------------------------- validation


class _Checker:
    """Walks the parsed YAML with the line of every key, raising ConfigError with its place."""

    def __init__(self, file: str, lines: Callable[[], dict[tuple, int]]):
        self.file = file
        self.lines = lines

    def fail(self, path: tuple, problem: str) -> None:
        line = None
        p = path
        known = self.lines()
        while p and line is None:
            line = known.get(p)
            p = p[:-1]
        place = " → ".join(str(x) for x in path)
        raise ConfigError(self.file, place, problem, line)

    def mapping(self, value: Any, path: tuple) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping of keys, found {_kind(value)}")
        return value

    def key(self, m: dict, k: str, path: tuple) -> Any:
        if k not in m:
            self.fail(path, f"missing key '{k}'")
        return m[k]

    def string(self, value: Any, path: tuple) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(path, f"expected a non-empty text, found {_kind(value)}")
        return value

    def integer(self, value: Any, path: tuple) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(path, f"expected a whole number, found {_kind(value)}")
        return value

    def number(self, value: Any, path: tuple) -> float:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
            self.fail(path, f"expected a positive number, found {_kind(value)}")
        return float(value)

    def seq(self, value: Any, path: tuple, nonempty: bool = True) -> list:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, found {_kind(value)}")
        if nonempty and not value:
            self.fail(path, "the list is empty")
        return value

    def localized(self, value: Any, path: tuple, languages: tuple[str, ...]) -> Localized:
        m = self.mapping(value, path)
        for lang in languages:
            self.string(self.key(m, lang, path), path + (lang,))
        return MappingProxyType({k: str(v) for k, v in m.items()})

    def per_language_table(self, value: Any, path: tuple, languages, keys) -> Mapping[str, Localized]:
        m = self.mapping(value, path)
        out = {}
        for lang in languages:
            table = self.mapping(self.key(m, lang, path), path + (lang,))
            for k in keys:
                self.string(self.key(table, k, path + (lang,)), path + (lang, k))
            out[lang] = MappingProxyType({k: str(table[k]) for k in keys})
        return MappingProxyType(out)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the truth value {value}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _line_map(node: yaml.Node, path: tuple = (), out: dict | None = None) -> dict[tuple, int]:
    out = {} if out is None else out
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value
            if isinstance(k, yaml.ScalarNode) and k.tag.endswith(":int"):
                key = int(key)
            out[path + (key,)] = k.start_mark.line + 1
            _line_map(v, path + (key,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out[path + (i,)] = v.start_mark.line + 1
            _line_map(v, path + (i,), out)
    return out


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 10x faster start-up


def _parse(text: str, file: str) -> tuple[Any, Callable[[], dict[tuple, int]]]:
    """The data, and a function giving every key's line (only computed when reporting an error)."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        line = mark.line + 1 if mark else None
        raise ConfigError(file, "", f"not valid YAML: {problem}", line) from None

    def lines() -> dict[tuple, int]:
        node = yaml.compose(text, Loader=_LOADER)
        return _line_map(node) if node is not None else {}

    return data, lines


def load_config(path: str | os.PathLike | None = None) -> Config:
    """Read and validate rules.yaml (default: the shipped one). Raises ConfigError."""
    p = Path(path) if path is not None else default_rules_path()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(str(p), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(str(p), "", f"cannot be read: {e}") from None
    return parse_config(text, p.name)


def parse_config(text: str, file: str = "rules.yaml") -> Config:
    data, lines = _parse(text, file)
    ck = _Checker(file, lines)
    root = ck.mapping(data, ())
    langs = tuple(ck.seq(ck.key(root, "languages", ()), ("languages",)))
    for i, lang in enumerate(langs):
        if lang not in LANGUAGES:
            ck.fail(("languages", i), f"unsupported language {lang!r} (supported: {', '.join(LANGUAGES)})")
    for lang in LANGUAGES:
        if lang not in langs:
            ck.fail(("languages",), f"language '{lang}' is missing")

    games_raw = ck.mapping(ck.key(root, "games", ()), ("games",))
    games = {}
    for gid, g in games_raw.items():
        games[gid] = _game(ck, gid, g, langs)
    if not games:
        ck.fail(("games",), "no games")

    decks_raw = ck.mapping(ck.key(root, "decks", ()), ("decks",))
    if not decks_raw:
        ck.fail(("decks",), "no decks")
    decks = {}
    for did, d in decks_raw.items():
        decks[did] = _deck(ck, str(did), d, langs, games)
    return Config(decks=MappingProxyType(decks), games=MappingProxyType(games), languages=langs, source=file)


def _game(ck: _Checker, gid: Any, g: Any, langs) -> GameConfig:
    path = ("games", gid)
    if not has_rules_module(gid):
        ck.fail(path, f"unknown game {gid!r}: there is no rules module game/rules/{gid}.py")
    g = ck.mapping(g, path)
    name = ck.localized(ck.key(g, "name", path), path + ("name",), langs)
    deck_cards = ck.integer(ck.key(g, "deck_cards", path), path + ("deck_cards",))
    if deck_cards not in DECK_SIZES:
        ck.fail(path + ("deck_cards",), f"{deck_cards} is not a deck size (20, 40 or 52)")
    ranks = tuple(str(r) for r in ck.seq(ck.key(g, "ranks", path), path + ("ranks",)))
    for i, r in enumerate(ranks):
        if r not in RANKS:
            ck.fail(path + ("ranks", i), f"unknown rank {r!r}")
    if len(ranks) * 4 != deck_cards or len(set(ranks)) != len(ranks):
        ck.fail(path + ("ranks",), f"{len(ranks)} distinct ranks in four suits do not make {deck_cards} cards")
    players = ck.seq(ck.key(g, "players", path), path + ("players",))
    for i, n in enumerate(players):
        if ck.integer(n, path + ("players", i)) not in (2, 3, 4):
            ck.fail(path + ("players", i), f"{n} players is not possible (2 to 4)")
    modes = []
    for i, m in enumerate(ck.seq(ck.key(g, "modes", path), path + ("modes",))):
        mp = path + ("modes", i)
        m = ck.mapping(m, mp)
        mid = ck.string(ck.key(m, "id", mp), mp + ("id",))
        if mid not in MODE_IDS:
            ck.fail(mp + ("id",), f"unknown mode {mid!r} (known: {', '.join(MODE_IDS)})")
        mplayers = ck.seq(ck.key(m, "players", mp), mp + ("players",))
        for j, n in enumerate(mplayers):
            if n not in players:
                ck.fail(mp + ("players", j), f"{n} players is not among the game's player counts {players}")
        modes.append(ModeConfig(mid, tuple(mplayers)))
    options = {}
    opts_raw = ck.mapping(ck.key(g, "options", path), path + ("options",))
    for oname, spec in opts_raw.items():
        op = path + ("options", oname)
        spec = ck.mapping(spec, op)
        allowed = tuple(ck.seq(ck.key(spec, "allowed", op), op + ("allowed",)))
        default = ck.key(spec, "default", op)
        if default not in allowed:
            ck.fail(op + ("default",), f"default {default!r} is not among the allowed values {list(allowed)}")
        options[str(oname)] = OptionSpec(str(oname), default, allowed)
    scoring = ck.mapping(ck.key(g, "scoring", path), path + ("scoring",))
    _check_scoring(ck, gid, scoring, path + ("scoring",), ranks)
    return GameConfig(
        id=gid,
        name=name,
        deck_cards=deck_cards,
        ranks=ranks,
        players=tuple(players),
        modes=tuple(modes),
        options=MappingProxyType(options),
        scoring=MappingProxyType(scoring),
    )


def _rank_table(ck: _Checker, scoring: dict, key: str, path: tuple, ranks, numeric_only: bool = False) -> None:
    table = ck.mapping(ck.key(scoring, key, path), path + (key,))
    wanted = [r for r in ranks if not (numeric_only and r in COURTS)]
    for r in table:
        if str(r) not in ranks:
            ck.fail(path + (key, r), f"unknown rank {r!r} for this game")
    for r in wanted:
        if r not in {str(k) for k in table}:
            ck.fail(path + (key,), f"rank {r} is missing")
    for r, v in table.items():
        ck.integer(v, path + (key, r))
    # Normalise keys to rank strings ("2" rather than 2).
    scoring[key] = {str(k): v for k, v in table.items()}


def _check_scoring(ck: _Checker, gid: str, s: dict, path: tuple, ranks) -> None:
    """Check a game's scoring table against the schema its rules class declares
    (``GameRules.scoring_schema``): one generic routine for every game."""
    try:
        schema = rules_class(gid).scoring_schema
    except (ValueError, ImportError) as e:
        ck.fail(path, str(e))
    _check_schema(ck, schema, s, path, ranks)


def _check_schema(ck: _Checker, schema: Mapping[str, Any], s: dict, path: tuple, ranks) -> None:
    for k, kind in schema.items():
        value = ck.key(s, k, path)
        kp = path + (k,)
        if isinstance(kind, Mapping):
            _check_schema(ck, kind, ck.mapping(value, kp), kp, ranks)
        elif kind == "int":
            ck.integer(value, kp)
        elif kind == "suit":
            if value not in SUITS:
                ck.fail(kp, f"{value!r} is not a suit letter (D, C, S, B)")
        elif kind == "card":
            if not is_card_code(value):
                ck.fail(kp, f"{value!r} is not a card code")
        elif kind in ("rank_table", "numeric_rank_table"):
            _rank_table(ck, s, k, path, ranks, numeric_only=kind == "numeric_rank_table")
        elif kind == "card_table":
            for c, v in ck.mapping(value, kp).items():
                if not is_card_code(c):
                    ck.fail(kp + (c,), f"{c!r} is not a card code")
                ck.integer(v, kp + (c,))
        elif kind == "rank_order":
            order = [str(r) for r in ck.seq(value, kp)]
            if sorted(order) != sorted(ranks):
                ck.fail(kp, "the strength order must list every rank of the game once")
            s[k] = order
        else:  # a rules class declared a kind this routine does not know: a programming error
            raise TypeError(f"scoring schema kind {kind!r} of {k!r} is unknown")


def _deck(ck: _Checker, did: str, d: Any, langs, games: dict[str, GameConfig]) -> DeckConfig:
    path = ("decks", did)
    d = ck.mapping(d, path)
    n = ck.integer(ck.key(d, "cards", path), path + ("cards",))
    if n not in DECK_SIZES:
        ck.fail(path + ("cards",), f"{n} cards is not a deck size (20, 40 or 52)")
    system = ck.key(d, "suit_system", path)
    if system not in SUIT_SYSTEMS:
        ck.fail(path + ("suit_system",), f"unknown suit system {system!r} (known: {', '.join(SUIT_SYSTEMS)})")
    game_ids = ck.seq(ck.key(d, "games", path), path + ("games",))
    for i, gid in enumerate(game_ids):
        if gid not in games:
            ck.fail(path + ("games", i), f"unknown game {gid!r} (games: {', '.join(games)})")
        needed = set(games[gid].ranks)
        if not needed <= set(DECK_SIZES[n]):
            ck.fail(path + ("games", i), f"a {n}-card deck cannot play {gid} (needs {games[gid].deck_cards} cards)")
    colors = ck.mapping(ck.key(d, "colors", path), path + ("colors",))
    for k in ("paper", "ink"):
        _color(ck, ck.key(colors, k, path + ("colors",)), path + ("colors", k))
    for i, c in enumerate(ck.seq(ck.key(colors, "accents", path + ("colors",)), path + ("colors", "accents"))):
        _color(ck, c, path + ("colors", "accents", i))
    wiki = ck.string(ck.key(d, "wikipedia", path), path + ("wikipedia",))
    if not wiki.startswith("https://"):
        ck.fail(path + ("wikipedia",), "the Wikipedia address must start with https://")
    return DeckConfig(
        id=did,
        name=ck.localized(ck.key(d, "name", path), path + ("name",), langs),
        region=ck.localized(ck.key(d, "region", path), path + ("region",), langs),
        cards=n,
        suit_system=system,
        suits=ck.per_language_table(ck.key(d, "suits", path), path + ("suits",), langs, SUITS),
        courts=ck.per_language_table(ck.key(d, "courts", path), path + ("courts",), langs, COURTS),
        description=ck.localized(ck.key(d, "description", path), path + ("description",), langs),
        wikipedia=wiki,
        colors=MappingProxyType(dict(colors)),
        aspect=ck.number(ck.key(d, "aspect", path), path + ("aspect",)),
        games=tuple(game_ids),
    )


def _color(ck: _Checker, value: Any, path: tuple) -> None:
    ok = isinstance(value, str) and len(value) == 7 and value[0] == "#"
    if ok:
        try:
            int(value[1:], 16)
        except ValueError:
            ok = False
    if not ok:
        ck.fail(path, f"{value!r} is not a colour like \"#1f5a3a\"")


_CACHE: dict[str, Config] = {}


def get_config(path: str | os.PathLike | None = None) -> Config:
    """The validated config, loaded once per path."""
    key = str(Path(path) if path is not None else default_rules_path())
    if key not in _CACHE:
        _CACHE[key] = load_config(key)
    return _CACHE[key]


__all__ = [
    "Config", "ConfigError", "DeckConfig", "GameConfig", "ModeConfig", "OptionSpec",
    "LANGUAGES", "load_config", "parse_config", "get_config", "data_dir", "card",
]
