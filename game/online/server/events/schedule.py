"""The owner's schedule of arenas and Swiss tournaments (``serve --events FILE``, to be
wired): a small YAML file read with the hardened reader (game.safeyaml), checked entry by
entry, and applied idempotently — each event's id comes from its name, so reading the file
again (a restart, another process of the cluster) makes nothing twice.

```yaml
arenas:
  - name: friday-blitz        # letters, digits and dashes; the id is arena:friday-blitz
    game: briscola
    preset: standard          # optional: the game's first
    start: 2026-12-11 20:00   # the server's local time
    minutes: 45
swiss:
  - name: december-club
    game: scopa
    preset: scopone           # a partnership game: teams of two register together
    rounds: 5
    start: 2026-12-12 15:00   # registration closes then
    round_times: [2026-12-12 15:00, 2026-12-12 16:00]   # optional: no round before its time
```

An arena seats the preset's player count (the computer fills empty seats after the wait);
a Swiss pairs two sides, so its game and preset must have two teams (or two players): an
entrant is a team of the size of seat 0's side.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from game.online.server.events.arena import Arenas
from game.online.server.events.deals import settings_deal
from game.online.server.events.swiss import Swisses
from game.rules.vocabulary import JsonObject
from game.safeyaml import ConfigError, load_yaml

#: A Swiss round pairs this many sides at a table.
SIDES = 2
MAX_ENTRIES = 200
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")


class ScheduleError(ValueError):
    """The schedule file is not usable (one line naming the entry)."""


@dataclass(frozen=True)
class ArenaSpec:
    name: str
    game: str
    preset: str
    start: dt.datetime
    minutes: float
    seats: int


@dataclass(frozen=True)
class SwissSpec:
    name: str
    game: str
    preset: str
    start: dt.datetime
    rounds: int
    team_size: int
    round_times: tuple[dt.datetime, ...] = field(default=())


def _when(value: object, where: str) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value)
        except ValueError:
            pass
    raise ScheduleError(f"{where}: a time is written YYYY-MM-DD HH:MM")


def _positive(value: object, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScheduleError(f"{where}: {what} must be a whole number of 1 or more")
    return value


def _common(entry: object, where: str) -> tuple[str, str, str, int, int, int, JsonObject]:
    """name, game, preset word, seats, teams and seat 0's team size of one entry."""
    if not isinstance(entry, dict):
        raise ScheduleError(f"{where}: each entry is a mapping (name, game, start …)")
    name = entry.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ScheduleError(f"{where}: name must be lower-case letters, digits and dashes")
    game, preset = entry.get("game"), entry.get("preset")
    if not isinstance(game, str) or not (preset is None or isinstance(preset, str)):
        raise ScheduleError(f"{where} ({name}): game (and preset) must be words")
    try:
        deal, word = settings_deal(game, preset, dt.date.today())
    except ValueError as e:
        raise ScheduleError(f"{where} ({name}): {e}") from None
    rules = deal.rules()
    side = sum(1 for s in range(rules.players) if rules.team_of(s) == rules.team_of(0))
    return name, game, word, rules.players, rules.teams, side, entry


def parse(text: str, file: str = "events schedule") -> tuple[list[ArenaSpec], list[SwissSpec]]:
    """The schedule's arenas and Swiss tournaments; ScheduleError (one line) when it is wrong."""
    try:
        data, _ = load_yaml(text, file)
    except ConfigError as problem:
        raise ScheduleError(str(problem)) from None
    if data is None:
        return [], []
    if not isinstance(data, dict) or set(data) - {"arenas", "swiss"}:
        raise ScheduleError(f"{file}: the schedule has two lists, arenas and swiss")
    arenas_in, swiss_in = data.get("arenas") or [], data.get("swiss") or []
    if not isinstance(arenas_in, list) or not isinstance(swiss_in, list):
        raise ScheduleError(f"{file}: arenas and swiss are lists")
    if len(arenas_in) + len(swiss_in) > MAX_ENTRIES:
        raise ScheduleError(f"{file}: at most {MAX_ENTRIES} events")
    arenas, swiss = [], []
    for i, entry in enumerate(arenas_in, 1):
        where = f"{file}, arena {i}"
        name, game, word, seats, _, _, spec = _common(entry, where)
        minutes = spec.get("minutes")
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 < minutes <= 24 * 60:
            raise ScheduleError(f"{where} ({name}): minutes must be between 1 and a day")
        arenas.append(ArenaSpec(name, game, word, _when(spec.get("start"), where), float(minutes), seats))
    for i, entry in enumerate(swiss_in, 1):
        where = f"{file}, swiss {i}"
        name, game, word, _, teams, side, spec = _common(entry, where)
        if teams != SIDES:
            raise ScheduleError(f"{where} ({name}): a Swiss tournament pairs two sides; {game} {word} has {teams}")
        times = spec.get("round_times") or []
        if not isinstance(times, list):
            raise ScheduleError(f"{where} ({name}): round_times is a list of times")
        swiss.append(
            SwissSpec(
                name,
                game,
                word,
                _when(spec.get("start"), where),
                _positive(spec.get("rounds"), where, "rounds"),
                side,
                tuple(_when(t, where) for t in times),
            )
        )
    names = [s.name for s in arenas] + [s.name for s in swiss]
    if len(names) != len(set(names)):
        raise ScheduleError(f"{file}: two events have the same name")
    return arenas, swiss


def apply(
    arenas: Sequence[ArenaSpec],
    swiss: Sequence[SwissSpec],
    arena_events: Arenas,
    swiss_events: Swisses,
    fill_after: float,
    now: dt.datetime,
) -> list[str]:
    """Make the schedule's events that do not exist yet (the owner's: no quota); their ids."""
    made = []
    for a in arenas:
        aid = f"arena:{a.name}"
        if arena_events.store.load(aid) is None:
            arena_events.create(None, a.game, a.preset, a.start, a.minutes * 60, a.seats, fill_after, now, event_id=aid)
            made.append(aid)
    for s in swiss:
        sid = f"swiss:{s.name}"
        if swiss_events.store.load(sid) is None:
            swiss_events.create(
                None, s.game, s.preset, s.rounds, s.start, now, s.team_size, s.round_times, event_id=sid
            )
            made.append(sid)
    return made


__all__ = ["ArenaSpec", "ScheduleError", "SwissSpec", "apply", "parse"]
