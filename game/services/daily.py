"""The offline daily deal: one deal per calendar date, game and preset, the same for everyone.

The derivation (anyone can check it): the text ``cardavia-daily|YYYY-MM-DD|GAME|PRESET``
(UTF-8; PRESET is the preset's id, or ``standard`` for a game without presets), its SHA-256
digest, the first four bytes as a big-endian number, shifted right by one bit: a 31-bit seed.
The deal is the first deal of the match that seed starts (game.match.Match) on the game's
first deck in rules.yaml, with the preset's options and its first player count; the player
sits at seat 0, the house bots (game.services.par) everywhere else. Par is game.services.par's for that seat.

Results of the window's daily deals live in ``daily.json`` in the data folder, apart from
the statistics of ordinary matches (game.services.stats): per game and preset, per date, the first
play's score and par (a second play of the same day is practice and changes nothing).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from game.config import Config, get_config
from game.rules.base import Event
from game.services.par import PAR_OPPONENT, Deal, Par, fixed_bot, par, play_deal, seat_score, sub_seed
from game.services.settings import user_data_dir
from game.services.storage import read_json, serialised, write_json

PREFIX = "cardavia-daily"
#: The preset word of a game without presets.
STANDARD = "standard"
#: The seat the player takes in a daily deal.
PLAYER_SEAT = 0
FILE_NAME = "daily.json"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def daily_seed(day: dt.date, game: str, preset: str) -> int:
    """The day's seed (see the module)."""
    text = f"{PREFIX}|{day.isoformat()}|{game}|{preset}"
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") >> 1


def parse_day(text: str) -> dt.date:
    """A YYYY-MM-DD date; ValueError with one line otherwise."""
    if not _DATE.fullmatch(text or ""):
        raise ValueError(f"date {text!r} is not written YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text} is not a date of the calendar") from None


def today() -> dt.date:
    """The player's local calendar date."""
    return dt.date.today()


def presets_of(game: str, config: Config | None = None) -> list[str]:
    """The preset words of a game's daily deals: its preset ids, or [STANDARD]."""
    g = (config or get_config()).game(game)
    return [p.id for p in g.presets] or [STANDARD]


@dataclass(frozen=True)
class DailyDeal:
    day: dt.date
    game: str
    preset: str
    deal: Deal
    seat: int = PLAYER_SEAT

    @property
    def key(self) -> str:
        return f"{self.game}/{self.preset}"


def daily_deal(
    game: str, preset: str | None = None, day: dt.date | None = None, config: Config | None = None
) -> DailyDeal:
    """The daily deal of ``game`` and ``preset`` (default: the first) on ``day`` (default
    today). ValueError with one line for an unknown game or preset."""
    config = config or get_config()
    if game not in config.games:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(config.games)})")
    g = config.game(game)
    words = presets_of(game, config)
    preset = words[0] if preset is None else preset
    if preset not in words:
        raise ValueError(f"{game} has no preset {preset!r} (daily deals: {', '.join(words)})")
    spec = next((p for p in g.presets if p.id == preset), None)
    players = spec.players[0] if spec is not None and spec.players else g.players[0]
    options = g.resolve_options(dict(spec.options) if spec is not None else {}, players)
    deck = config.decks_for(game)[0].id
    day = day or today()
    return DailyDeal(day, game, preset, Deal(game, deck, players, options, daily_seed(day, game, preset)))


def first_deal(daily: DailyDeal) -> Event:
    """The deal line the daily deal starts with (the pinned tests' subject)."""
    from game.match import Match

    m = Match(daily.deal.rules(), daily.deal.seed)
    return next(e for e in m.start() if e["event"] == "deal")


@dataclass
class DailyResult:
    daily: DailyDeal
    score: int
    par: Par
    events: list[Event]

    @property
    def difference(self) -> float:
        return self.score - self.par.value


def daily_record(daily: DailyDeal, events: list[Event], par_value: float, seats: list[str]) -> list[Event]:
    """The played deal's record with the daily deal named on its match line (docs/RECORD.md)."""
    head = dict(events[0])
    head["seats"] = list(seats)
    head["daily"] = {
        "date": daily.day.isoformat(),
        "preset": daily.preset,
        "seat": daily.seat,
        "par": round(par_value, 3),
    }
    return [head, *events[1:]]


def play_with_bot(daily: DailyDeal, level: str) -> DailyResult:
    """The daily deal played by a bot of ``level`` in the player's seat (no time cap: the
    same result everywhere), with its par."""
    rules = daily.deal.rules()
    bot = fixed_bot(level, rules, daily.seat, sub_seed("player", daily.deal.seed, level))
    m = play_deal(daily.deal, daily.seat, bot)
    p = par(daily.deal, daily.seat)
    seats = [level if s == daily.seat else PAR_OPPONENT for s in range(rules.players)]
    score = seat_score(m.rules, m.deal_points, daily.seat)
    return DailyResult(daily, score, p, daily_record(daily, m.events, p.value, seats))


# ---------------------------------------------------------------------- the calendar
def daily_path() -> Path:
    return user_data_dir() / FILE_NAME


def load_days() -> tuple[dict[str, dict[str, dict[str, float]]], str | None]:
    """{"game/preset": {"YYYY-MM-DD": {"score": s, "par": p}}}; a damaged file is kept aside."""
    data, problem = read_json(daily_path(), expect=dict, what="a daily deals file")
    out: dict[str, dict[str, dict[str, float]]] = {}
    for k, days in (data or {}).items():
        if not isinstance(days, dict):
            continue
        for d, v in days.items():
            if (
                isinstance(d, str)
                and _DATE.fullmatch(d)
                and isinstance(v, dict)
                and all(isinstance(v.get(f), (int, float)) and not isinstance(v.get(f), bool) for f in ("score", "par"))
            ):
                out.setdefault(str(k), {})[d] = {"score": v["score"], "par": v["par"]}
    return out, problem


@serialised(daily_path)  # two windows: each adds its day to what the file holds now
def record_day(key: str, day: dt.date, score: float, par_value: float) -> tuple[bool, str | None]:
    """Keep the day's first play of ``key`` (game/preset). (kept, problem): kept is False when
    the day was already played (the later play is practice)."""
    days, _ = load_days()
    mine = days.setdefault(key, {})
    if day.isoformat() in mine:
        return False, None
    mine[day.isoformat()] = {"score": score, "par": round(par_value, 3)}
    return True, write_json(daily_path(), days)


@dataclass
class Calendar:
    """A game and preset's daily results: the days played, the streak, the best."""

    days: dict[str, dict[str, float]]
    streak: int
    best: tuple[str, float] | None

    def difference(self, day: str) -> float | None:
        v = self.days.get(day)
        return None if v is None else v["score"] - v["par"]


def calendar(key: str, on: dt.date | None = None) -> Calendar:
    """``key``'s calendar as of ``on`` (default today): the streak counts the days in a row
    played up to ``on`` (or up to the day before, when ``on`` is not played yet); the best is
    the day furthest over par."""
    days = load_days()[0].get(key, {})
    on = on or today()
    day = on if on.isoformat() in days else on - dt.timedelta(days=1)
    streak = 0
    while day.isoformat() in days:
        streak += 1
        day -= dt.timedelta(days=1)
    best = max(((d, v["score"] - v["par"]) for d, v in days.items()), key=lambda dv: (dv[1], dv[0]), default=None)
    return Calendar(days, streak, best)
