"""Validate rules.yaml's data into the config types.

Every problem is reported as a :class:`ConfigError` naming the file, the place (line and
key path) and what is wrong. The rules classes' facts (scoring schema, hand capacity) are
asked through the ``rules_of`` function the caller passes (the registry's ``rules_class``):
this module imports neither the registry nor a game.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from game.cards import RANKS, SUITS, is_card_code
from game.config_types import (
    COURTS,
    DECK_SIZES,
    LANGUAGES,
    Config,
    DeckConfig,
    GameConfig,
    Localized,
    ModeConfig,
    OptionConstraint,
    OptionSpec,
    OptionValue,
    PresetSpec,
)
from game.safeyaml import ConfigError, load_yaml

if TYPE_CHECKING:  # the rules classes import the config: the type only
    from game.rules.base import GameRules

#: Looks up a game's rules class by id; ValueError (or ImportError) naming the problem.
RulesOf = Callable[[str], "type[GameRules]"]

SUIT_SYSTEMS: tuple[str, ...] = ("italian", "french", "german")
MODE_IDS: tuple[str, ...] = ("versus", "partners")

#: The longest text rules.yaml may give (a deck's description is the longest, ~400 today).
MAX_TEXT = 4000
#: The player counts a game may list (each game lists its own in rules.yaml).
PLAYER_COUNTS = range(2, 7)


class _Checker:
    """Walks the parsed YAML with the line of every key, raising ConfigError with its place."""

    def __init__(self, file: str, lines: Callable[[], dict[tuple, int]]):
        self.file = file
        self.lines = lines

    def fail(self, path: tuple, problem: str) -> NoReturn:
        line = None
        p = path
        known = self.lines()
        while p and line is None:
            line = known.get(p)
            p = p[:-1]
        place = " → ".join(str(x) for x in path)
        raise ConfigError(self.file, place, problem, line)

    def mapping(self, value: object, path: tuple) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping of keys, found {_kind(value)}")
        return value

    def key(self, m: dict, k: str, path: tuple) -> object:
        if k not in m:
            self.fail(path, f"missing key '{k}'")
        return m[k]

    def string(self, value: object, path: tuple, max_length: int = MAX_TEXT) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(path, f"expected a non-empty text, found {_kind(value)}")
        problem = text_problem(value, max_length)
        if problem:
            self.fail(path, problem)
        return value

    def ident(self, value: object, path: tuple, what: str) -> str:
        """An id (deck, option, preset, value): lower-case letters, digits, - and _."""
        if not isinstance(value, str) or not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", value):
            self.fail(path, f"{_kind(value)} is not a {what} id (lower-case letters, digits, - and _)")
        return value

    def integer(self, value: object, path: tuple, lo: int | None = None, hi: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(path, f"expected a whole number, found {_kind(value)}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.fail(path, f"{value} is out of range ({lo} to {hi})")
        return value

    def number(self, value: object, path: tuple, lo: float = 0.0, hi: float = math.inf) -> float:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value <= 0:
            self.fail(path, f"expected a positive number, found {_kind(value)}")
        if not lo <= value <= hi:
            self.fail(path, f"{value} is out of range ({lo} to {hi})")
        return float(value)

    def seq(self, value: object, path: tuple, nonempty: bool = True) -> list:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, found {_kind(value)}")
        if nonempty and not value:
            self.fail(path, "the list is empty")
        return value

    def localized(self, value: object, path: tuple, languages: tuple[str, ...]) -> Localized:
        m = self.mapping(value, path)
        for lang in languages:
            self.string(self.key(m, lang, path), path + (lang,))
        return MappingProxyType({k: str(v) for k, v in m.items()})

    def per_language_table(self, value: object, path: tuple, languages, keys) -> Mapping[str, Localized]:
        m = self.mapping(value, path)
        out = {}
        for lang in languages:
            table = self.mapping(self.key(m, lang, path), path + (lang,))
            for k in keys:
                self.string(self.key(table, k, path + (lang,)), path + (lang, k))
            out[lang] = MappingProxyType({k: str(table[k]) for k in keys})
        return MappingProxyType(out)

    def partial_language_table(self, value: object, path: tuple, languages, keys) -> Mapping[str, Localized]:
        """A table only some languages and keys need (None: empty): language -> key -> text."""
        if value is None:
            return MappingProxyType({})
        m = self.mapping(value, path)
        out = {}
        for lang, table in m.items():
            if lang not in languages:
                self.fail(path + (lang,), f"unknown language {lang!r} (known: {', '.join(languages)})")
            table = self.mapping(table, path + (lang,))
            for k, v in table.items():
                if str(k) not in keys:
                    self.fail(path + (lang, k), f"unknown key {k!r} (known: {', '.join(keys)})")
                self.string(v, path + (lang, k))
            out[lang] = MappingProxyType({str(k): str(v) for k, v in table.items()})
        return MappingProxyType(out)


#: Unicode categories that draw something: letters, marks, numbers, punctuation, symbols.
_VISIBLE = ("L", "N", "P", "S")


def text_problem(text: str, max_length: int = MAX_TEXT) -> str | None:
    """Why ``text`` cannot be shown to the player (None when it can): too long, a control
    character other than a line break or tab (a NUL stops the font renderer), or nothing
    visible at all (only spaces or zero-width characters: "Text has zero width")."""
    if len(text) > max_length:
        return f"the text is longer than {max_length} characters"
    visible = False
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn") and ch not in "\n\t":
            return f"the text holds the control character U+{ord(ch):04X}"
        visible = visible or cat[0] in _VISIBLE
    if not visible:
        return "the text shows nothing (only spaces or zero-width characters)"
    return None


def _kind(value: object) -> str:
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


def parse_config(text: str, file: str, rules_of: RulesOf) -> Config:
    """Validate rules.yaml's text. rules.yaml shares its suit and court name tables through
    anchors, so aliases are allowed here — bounded: the reader counts what they expand to,
    and refuses an alias bomb before anything expands it. ``rules_of(game_id)`` gives each
    game's rules class (or raises ValueError naming the problem)."""
    data, known = load_yaml(text, file, allow_aliases=True)
    ck = _Checker(file, lambda: known)
    root = ck.mapping(data, ())
    langs = tuple(ck.seq(ck.key(root, "languages", ()), ("languages",)))
    for i, lang in enumerate(langs):
        if lang not in LANGUAGES:
            ck.fail(("languages", i), f"unsupported language {lang!r} (supported: {', '.join(LANGUAGES)})")
    for lang in LANGUAGES:
        if lang not in langs:
            ck.fail(("languages",), f"language '{lang}' is missing")
    if len(set(map(str, langs))) != len(langs):
        ck.fail(("languages",), "a language is listed twice")

    games_raw = ck.mapping(ck.key(root, "games", ()), ("games",))
    games = {}
    for gid, g in games_raw.items():
        games[gid] = _game(ck, gid, g, langs, rules_of)
    if not games:
        ck.fail(("games",), "no games")

    decks_raw = ck.mapping(ck.key(root, "decks", ()), ("decks",))
    if not decks_raw:
        ck.fail(("decks",), "no decks")
    decks = {}
    for did, d in decks_raw.items():
        ck.ident(did, ("decks", did), "deck")
        decks[did] = _deck(ck, str(did), d, langs, games)
    return Config(decks=MappingProxyType(decks), games=MappingProxyType(games), languages=langs, source=file)


def _game(ck: _Checker, gid: str, g: object, langs, rules_of: RulesOf) -> GameConfig:
    path = ("games", gid)
    try:
        rules = rules_of(gid)  # unknown game: the registry names what is missing
    except (ValueError, ImportError) as e:
        ck.fail(path, str(e))
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
        if ck.integer(n, path + ("players", i)) not in PLAYER_COUNTS:
            ck.fail(
                path + ("players", i),
                f"{n} players is not possible ({PLAYER_COUNTS.start} to {PLAYER_COUNTS.stop - 1})",
            )
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
    options = _options(
        ck, ck.mapping(ck.key(g, "options", path), path + ("options",)), path + ("options",), tuple(players)
    )
    constraints = _constraints(ck, g.get("constraints", []), path + ("constraints",), options)
    scoring = ck.mapping(ck.key(g, "scoring", path), path + ("scoring",))
    _check_schema(ck, rules.scoring_schema, scoring, path + ("scoring",), ranks)
    _check_deals(ck, scoring, path + ("scoring",), deck_cards, tuple(players), rules.hand_capacity)
    coach = _coach(ck, g["coach"], path + ("coach",)) if "coach" in g else {}
    puzzles = _puzzles(ck, g["puzzles"], path + ("puzzles",), players) if "puzzles" in g else {}
    for k in g:
        if k not in GAME_KEYS:
            ck.fail(path + (k,), f"unknown key {k!r} (known: {', '.join(GAME_KEYS)})")
    game = GameConfig(
        id=gid,
        name=name,
        deck_cards=deck_cards,
        ranks=ranks,
        players=tuple(players),
        modes=tuple(modes),
        options=MappingProxyType(options),
        scoring=MappingProxyType(scoring),
        constraints=constraints,
        coach=MappingProxyType(coach),
        puzzles=MappingProxyType(puzzles),
    )
    presets = _presets(ck, game, g.get("presets", []), path + ("presets",))
    return dataclasses.replace(game, presets=presets)


#: The keys of a game's entry in rules.yaml, and of one of its options.
GAME_KEYS: tuple[str, ...] = (
    "name",
    "deck_cards",
    "ranks",
    "players",
    "modes",
    "options",
    "constraints",
    "presets",
    "scoring",
    "coach",
    "puzzles",
)
#: The coach's classes by value lost (game.coach), each key the least loss of its class.
COACH_KEYS: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")


def _coach(ck: _Checker, raw: object, path: tuple) -> dict[str, float]:
    """The coach's thresholds: every class of COACH_KEYS, positive numbers in the game's own
    points, each above the one before (an inaccuracy costs less than a mistake)."""
    m = ck.mapping(raw, path)
    for k in m:
        if k not in COACH_KEYS:
            ck.fail(path + (k,), f"unknown key {k!r} (known: {', '.join(COACH_KEYS)})")
    out = {k: ck.number(ck.key(m, k, path), path + (k,), 0.0, 1000.0) for k in COACH_KEYS}
    for lower, higher in zip(COACH_KEYS, COACH_KEYS[1:]):
        if not out[lower] < out[higher]:
            ck.fail(
                path + (higher,), f"the {higher} threshold {out[higher]} must be above the {lower} one {out[lower]}"
            )
    return out


#: The puzzle generator's keys (game.puzzles.make): the margins are required.
PUZZLE_KEYS: tuple[str, ...] = ("margin", "hidden_margin", "max_hand", "hidden_rate", "players")


def _puzzles(ck: _Checker, raw: object, path: tuple, players: list) -> dict[str, float]:
    """The puzzle generator's settings: the two margins, positive numbers in the game's own
    points (the coach's), the largest hand a puzzle may start from (1 to 12), the share of
    hidden-card decisions valued (above 0, at most 1; leave it out for the default) and the
    player count puzzles are made for (one of the game's)."""
    m = ck.mapping(raw, path)
    for k in m:
        if k not in PUZZLE_KEYS:
            ck.fail(path + (k,), f"unknown key {k!r} (known: {', '.join(PUZZLE_KEYS)})")
    out: dict[str, float] = {
        k: ck.number(ck.key(m, k, path), path + (k,), 0.0, 1000.0) for k in ("margin", "hidden_margin")
    }
    if "max_hand" in m:
        out["max_hand"] = ck.integer(m["max_hand"], path + ("max_hand",), 1, 12)
    if "hidden_rate" in m:
        out["hidden_rate"] = ck.number(m["hidden_rate"], path + ("hidden_rate",), 0.0, 1.0)
    if "players" in m:
        n = ck.integer(m["players"], path + ("players",), PLAYER_COUNTS.start, PLAYER_COUNTS.stop - 1)
        if n not in players:
            ck.fail(path + ("players",), f"{n} players is not among the game's player counts {players}")
        out["players"] = n
    return out


OPTION_KEYS: tuple[str, ...] = ("default", "allowed", "players", "describe", "aliases")


#: Every whole-number option value (targets, deals to win, Bummerl): a match must end.
OPTION_NUMBER_RANGE = (0, 999)
#: Whole numbers in a game's scoring table: (lowest, highest) by key; others 0 to 1000.
#: A hand of 0 cards deals nothing ("max() arg is an empty sequence"); ``redeal_kings: 0``
#: voids every deal, so ``simulate`` never ends.
SCORING_RANGES: dict[str, tuple[int, int]] = {
    "hand_size": (1, 52),
    "hand": (1, 52),
    "table_size": (0, 52),
    "table": (0, 52),
    "redeal_kings": (2, 4),
    "min_run": (2, 13),
    "quadriglia_min": (1, 13),
}
SCORING_DEFAULT_RANGE = (0, 1000)


def _check_deals(
    ck: _Checker, scoring: Mapping[str, Any], path: tuple, deck_cards: int, players: tuple[int, ...], capacity: int
) -> None:
    """Every deal the scoring table describes (``hand_size``/``table_size``, or a mapping
    with ``hand``/``table``) fits the pack for the game's largest table and fits the
    table's layout (the rules class's ``hand_capacity``)."""
    most = max(players)
    found: list[tuple[tuple, int, int]] = []
    if "hand_size" in scoring:
        found.append((path + ("hand_size",), scoring["hand_size"], scoring.get("table_size", 0)))
    for k, v in scoring.items():
        if isinstance(v, Mapping):
            for kk, vv in v.items():
                if isinstance(vv, Mapping) and "hand" in vv:
                    found.append((path + (k, kk, "hand"), vv["hand"], vv.get("table", 0)))
    for place, hand, table in found:
        if not isinstance(hand, int) or not isinstance(table, int):
            continue
        if hand > capacity:
            ck.fail(place, f"{hand} cards to a hand is more than the table shows ({capacity})")
        if hand * most + table > deck_cards:
            ck.fail(place, f"{most} hands of {hand} and {table} on the table need more than {deck_cards} cards")


def _locale_key(ck: _Checker, value: object, path: tuple) -> str:
    text = ck.string(value, path)
    if not re.fullmatch(r"[a-z_]+(\.[a-z0-9_]+)+", text):
        ck.fail(path, f'{text!r} is not a locale key like "option.deal_about"')
    return text


def _options(ck: _Checker, raw: dict, path: tuple, game_players: tuple[int, ...]) -> dict[str, OptionSpec]:
    """Every option's spec, with one routine for all games: allowed values, default, the player
    counts it is offered for, its explanation's locale key and its other names."""
    options: dict[str, OptionSpec] = {}
    names: dict[str, str] = {}
    for oname, spec in raw.items():
        op = path + (oname,)
        spec = ck.mapping(spec, op)
        for k in spec:
            if k not in OPTION_KEYS:
                ck.fail(op + (k,), f"unknown key {k!r} (known: {', '.join(OPTION_KEYS)})")
        listed = ck.seq(ck.key(spec, "allowed", op), op + ("allowed",))
        allowed: tuple[OptionValue, ...] = ()
        for i, v in enumerate(listed):
            if not isinstance(v, (str, int)) or any(v == w and type(v) is type(w) for w in allowed):
                ck.fail(op + ("allowed", i), f"{_kind(v)} is not a distinct value (texts, numbers, true/false)")
            if isinstance(v, str):
                ck.ident(v, op + ("allowed", i), "value")
            elif not isinstance(v, bool):
                # A target of 100,000,000 would make a match last for ever.
                ck.integer(v, op + ("allowed", i), *OPTION_NUMBER_RANGE)
            allowed += (v,)
        given = ck.key(spec, "default", op)
        default = next((a for a in allowed if given == a and type(given) is type(a)), None)
        if default is None:
            ck.fail(op + ("default",), f"default {given!r} is not among the allowed values {list(allowed)}")
        players: tuple[int, ...] = ()
        if "players" in spec:
            players = tuple(ck.seq(spec["players"], op + ("players",)))
            for i, n in enumerate(players):
                if n not in game_players:
                    ck.fail(
                        op + ("players", i), f"{n} players is not among the game's player counts {list(game_players)}"
                    )
        describe = _locale_key(ck, spec["describe"], op + ("describe",)) if "describe" in spec else None
        aliases = tuple(str(a) for a in ck.seq(spec.get("aliases", []), op + ("aliases",), nonempty=False))
        for i, name in enumerate((str(oname), *aliases)):
            if name in names:
                ck.fail(op + (("aliases", i - 1) if i else ()), f"the name {name!r} is already option {names[name]!r}")
            names[name] = str(oname)
        options[str(oname)] = OptionSpec(str(oname), default, allowed, players, describe, aliases)
    return options


def _values(ck: _Checker, raw: object, path: tuple, options: Mapping[str, OptionSpec]) -> dict[str, tuple[Any, ...]]:
    """``{option: value or [values]}`` naming known options and their allowed values."""
    out = {}
    for k, v in ck.mapping(raw, path).items():
        if k not in options:
            ck.fail(path + (k,), f"unknown option {k!r} (options: {', '.join(options) or 'none'})")
        vals = v if isinstance(v, list) else [v]
        for i, x in enumerate(vals):
            try:
                options[k].value_of(x)
            except ValueError as e:
                ck.fail(path + (k,) + ((i,) if isinstance(v, list) else ()), str(e))
        out[str(k)] = tuple(options[k].value_of(x) for x in vals)
    return out


def _constraints(
    ck: _Checker, raw: object, path: tuple, options: Mapping[str, OptionSpec]
) -> tuple[OptionConstraint, ...]:
    out = []
    for i, c in enumerate(ck.seq(raw, path, nonempty=False)):
        cp = path + (i,)
        c = ck.mapping(c, cp)
        for k in c:
            if k not in ("when", "then"):
                ck.fail(cp + (k,), f"unknown key {k!r} (known: when, then)")
        rule = OptionConstraint(
            MappingProxyType(_values(ck, ck.key(c, "when", cp), cp + ("when",), options)),
            MappingProxyType(_values(ck, ck.key(c, "then", cp), cp + ("then",), options)),
        )
        if not rule.holds({k: o.default for k, o in options.items()}):
            ck.fail(cp, f"the defaults break this rule ({rule})")
        out.append(rule)
    return tuple(out)


def _presets(ck: _Checker, game: GameConfig, raw: object, path: tuple) -> tuple[PresetSpec, ...]:
    out: list[PresetSpec] = []
    for i, p in enumerate(ck.seq(raw, path, nonempty=False)):
        pp = path + (i,)
        p = ck.mapping(p, pp)
        for k in p:
            if k not in ("id", "name", "options", "players"):
                ck.fail(pp + (k,), f"unknown key {k!r} (known: id, name, options, players)")
        pid = ck.string(ck.key(p, "id", pp), pp + ("id",))
        if any(q.id == pid for q in out):
            ck.fail(pp + ("id",), f"preset {pid!r} is defined twice")
        name = _locale_key(ck, ck.key(p, "name", pp), pp + ("name",))
        opts = ck.mapping(p.get("options", {}), pp + ("options",))
        try:
            game.resolve_options(opts)
        except ValueError as e:
            ck.fail(pp + ("options",), str(e))
        wanted = ck.seq(p["players"], pp + ("players",)) if "players" in p else list(game.players)
        fits = []
        for j, n in enumerate(wanted):
            try:
                game.resolve_options(opts, n)
                fits.append(n)
            except ValueError as e:
                if "players" in p:
                    ck.fail(pp + ("players", j), str(e))
        if not fits:
            ck.fail(pp, f"preset {pid!r} fits none of the game's player counts")
        canonical = {game.option_spec(str(k)).name: game.option_spec(str(k)).value_of(v) for k, v in opts.items()}
        out.append(PresetSpec(pid, name, MappingProxyType(canonical), tuple(fits)))
    return tuple(out)


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
        ck.integer(v, path + (key, r), *SCORING_DEFAULT_RANGE)
    # Normalise keys to rank strings ("2" rather than 2).
    scoring[key] = {str(k): v for k, v in table.items()}


def _check_schema(ck: _Checker, schema: Mapping[str, Any], s: dict, path: tuple, ranks) -> None:
    """Check a game's scoring table against the schema its rules class declares
    (``GameRules.scoring_schema``): one generic routine for every game."""
    for k, kind in schema.items():
        value = ck.key(s, k, path)
        kp = path + (k,)
        if isinstance(kind, Mapping):
            _check_schema(ck, kind, ck.mapping(value, kp), kp, ranks)
        elif kind == "int":
            ck.integer(value, kp, *SCORING_RANGES.get(k, SCORING_DEFAULT_RANGE))
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
                ck.integer(v, kp + (c,), *SCORING_DEFAULT_RANGE)
        elif kind == "rank_order":
            order = [str(r) for r in ck.seq(value, kp)]
            if sorted(order) != sorted(ranks):
                ck.fail(kp, "the strength order must list every rank of the game once")
            s[k] = order
        else:  # a rules class declared a kind this routine does not know: a programming error
            raise TypeError(f"scoring schema kind {kind!r} of {k!r} is unknown")


#: A card's height over its width: real packs are 1.4 (French) to 2.05 (Sicilian-tall).
ASPECT_RANGE = (1.0, 3.0)


def _deck(ck: _Checker, did: str, d: object, langs, games: dict[str, GameConfig]) -> DeckConfig:
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
        aspect=ck.number(ck.key(d, "aspect", path), path + ("aspect",), *ASPECT_RANGE),
        games=tuple(game_ids),
        rank_names=ck.partial_language_table(
            d.get("rank_names"), path + ("rank_names",), langs, [r for r in DECK_SIZES[n] if r.isdigit()]
        ),
        card_suits=ck.partial_language_table(d.get("card_suits"), path + ("card_suits",), langs, SUITS),
    )


def _color(ck: _Checker, value: object, path: tuple) -> None:
    ok = isinstance(value, str) and len(value) == 7 and value[0] == "#"
    if ok and isinstance(value, str):
        try:
            int(value[1:], 16)
        except ValueError:
            ok = False
    if not ok:
        ck.fail(path, f'{value!r} is not a colour like "#1f5a3a"')
