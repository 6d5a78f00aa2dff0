"""Arenas (docs/ONLINE.md, "Events"): a timed event of one game and preset (start and length
set by the server's owner). A player joins and, whenever free, is paired with whoever else is
free nearest their score; after the quick match's wait (``fill_after`` seconds, the server's
``--quick-wait``) with nobody to pair with, the computer fills the seats — marked on the
match, at the fill level whose published rating is nearest the player's
(game.online.server.quick.fill_level), never in the standings: its wins are nobody's.

Points: a win 2, a draw 1, a loss 0; a win after two wins in a row (the player is "on fire")
counts double. A player may pause (not paired again; a match under way is played out) and
come back. No pairing after the end; a match begun before it still counts. The player just
met is not paired again at once while anybody else is free, until the player has waited
``fill_after``.

:class:`Arena` is the state and its rules (pure, JSON in and out); :class:`Arenas` keeps arenas
in an :class:`~game.online.server.events.store.EventStore`, every change one compare-and-set.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from game.online.server.events.common import EventRefusal, from_iso, integer, iso, items, number, obj, text
from game.online.server.events.quotas import MADE_KINDS, EventQuotas, check_created
from game.online.server.events.store import EventStore, change
from game.online.server.quick import FILL_LEVELS, fill_level
from game.online.server.ratings import NEW_MU, computer_display
from game.rules.vocabulary import JsonObject

KIND = "arena"
WIN, DRAW, LOSS = "win", "draw", "loss"
POINTS = {WIN: 2, DRAW: 1, LOSS: 0}
#: Wins in a row after which a win counts double.
FIRE_AFTER = 2

_R = TypeVar("_R")


@dataclass(frozen=True)
class ArenaLine:
    rank: int
    player: str
    name: str
    points: int
    games: int
    wins: int
    fire: bool
    paused: bool
    playing: bool


class Arena:
    """One arena's state (a JSON object, as stored) and its rules."""

    def __init__(self, state: JsonObject):
        self.s = state

    @classmethod
    def new(
        cls,
        arena_id: str,
        game: str,
        preset: str,
        start: dt.datetime,
        seconds: float,
        seats: int,
        fill_after: float,
        levels: tuple[str, ...] = FILL_LEVELS,
    ) -> Arena:
        if seconds <= 0 or seats < 2 or fill_after < 0:
            raise ValueError("an arena needs a length, at least two seats and a wait of zero or more")
        return cls(
            {
                "id": arena_id,
                "game": game,
                "preset": preset,
                "start": iso(start),
                "seconds": seconds,
                "seats": seats,
                "fill_after": fill_after,
                "levels": list(levels),
                "players": {},
                "matches": {},
                "next": 1,
            }
        )

    # ---- reading
    @property
    def start(self) -> dt.datetime:
        return from_iso(self.s["start"])

    @property
    def end(self) -> dt.datetime:
        return self.start + dt.timedelta(seconds=number(self.s["seconds"]))

    def running(self, now: dt.datetime) -> bool:
        return self.start <= now < self.end

    def players(self) -> dict[str, JsonObject]:
        return {p: obj(v) for p, v in obj(self.s["players"]).items()}

    def matches(self) -> dict[str, JsonObject]:
        return {m: obj(v) for m, v in obj(self.s["matches"]).items()}

    def _player(self, player: str) -> JsonObject:
        v = obj(self.s["players"]).get(player)
        if v is None:
            raise EventRefusal("not_joined", "join the arena first")
        return obj(v)

    def reach(self) -> dict[str, JsonObject]:
        """Per player, where their connection was when they last joined (wiring's ``reach``)."""
        return {p: obj(v["at"]) for p, v in self.players().items() if isinstance(v.get("at"), dict)}

    # ---- a player
    def join(self, player: str, name: str, now: dt.datetime, at: JsonObject | None = None) -> None:
        """Join, or come back from a pause; ``at`` where the player's connection is (the
        process that opens their tables tells them there)."""
        if now >= self.end:
            raise EventRefusal("over", "this arena is over")
        players = obj(self.s["players"])
        if at is not None and player in players:
            obj(players[player])["at"] = at
        if player not in players:
            players[player] = {
                "name": name,
                "points": 0,
                "streak": 0,
                "games": 0,
                "wins": 0,
                "paused": False,
                "match": None,
                "free_since": iso(now),
                "last": [],
                "history": [],
                "at": at,
            }
        else:
            self.come_back(player, now)

    def pause(self, player: str) -> None:
        p = self._player(player)
        p["paused"] = True
        p["free_since"] = None

    def come_back(self, player: str, now: dt.datetime) -> None:
        if now >= self.end:
            raise EventRefusal("over", "this arena is over")
        p = self._player(player)
        p["paused"] = False
        if p.get("match") is None and p.get("free_since") is None:
            p["free_since"] = iso(now)

    # ---- pairing
    def pair(self, now: dt.datetime, mus: Mapping[str, float] | None = None) -> list[JsonObject]:
        """The matches to begin now (each noted in the state): groups of the table's seats
        from the free players sorted by points; a player who has waited ``fill_after`` with
        too few others free gets the computer in the empty seats."""
        if not self.running(now):
            return []
        seats = integer(self.s["seats"])
        wait = number(self.s["fill_after"])
        players = self.players()
        free = [p for p, v in players.items() if not v.get("paused") and v.get("match") is None and v.get("free_since")]

        def waited(p: str) -> float:
            return (now - from_iso(players[p]["free_since"])).total_seconds()

        free.sort(key=lambda p: (-number(players[p]["points"]), from_iso(players[p]["free_since"]), p))
        made: list[JsonObject] = []
        taken: set[str] = set()
        for p in free:
            if p in taken:
                continue
            rest = [q for q in free if q not in taken and q != p]
            # nearest in points first; the one just met last, unless both have waited the fill time
            near = sorted(rest, key=lambda q: abs(number(players[q]["points"]) - number(players[p]["points"])))
            fresh = [q for q in near if q not in items(players[p]["last"]) and p not in items(players[q]["last"])]
            stale = [q for q in near if q not in fresh and waited(p) >= wait and waited(q) >= wait]
            group = [p, *(fresh + stale)[: seats - 1]]
            if len(group) == seats or waited(p) >= wait:
                made.append(self._begin(group, seats - len(group), now, mus))
                taken.update(group)
        return made

    def _begin(self, group: list[str], computers: int, now: dt.datetime, mus: Mapping[str, float] | None) -> JsonObject:
        number_ = integer(self.s["next"])
        self.s["next"] = number_ + 1
        mid = f"{self.s['id']}/{number_}"
        level = None
        if computers:
            mu = sum((mus or {}).get(p, NEW_MU) for p in group) / len(group)
            level = fill_level(mu, tuple(text(x) for x in items(self.s["levels"])))
        match: JsonObject = {
            "id": mid,
            "players": list(group),
            "computers": computers,
            "level": level,
            "computer_rating": computer_display(level) if level else None,
            "started": iso(now),
            "result": None,
        }
        obj(self.s["matches"])[mid] = match
        for p in group:
            v = self._player(p)
            v["match"] = mid
            v["free_since"] = None
        return match

    def opened(self, match_id: str, code: str, seats: Mapping[int, str]) -> None:
        """Match ``match_id``'s table is ``code``, ``seats`` its people's seats: any process
        that holds the table knows it for the arena's."""
        m = obj(obj(self.s["matches"]).get(match_id) or {})
        if not m:
            raise EventRefusal("unknown", "no such arena match")
        m["table"] = code
        m["seats"] = {str(k): v for k, v in seats.items()}

    def under_way(self) -> list[tuple[str, str, dict[int, str]]]:
        """The matches without a result whose table is open: (match, code, seats)."""
        out = []
        for mid, m in self.matches().items():
            if m.get("result") is None and isinstance(m.get("table"), str):
                out.append((mid, text(m["table"]), {int(k): text(v) for k, v in obj(m.get("seats") or {}).items()}))
        return out

    def unopened(self, now: dt.datetime, after: float) -> list[JsonObject]:
        """Matches paired ``after`` seconds ago or more whose table was never noted (the
        process that paired them died in between): to open again."""
        return [
            m
            for m in self.matches().values()
            if m.get("result") is None
            and m.get("table") is None
            and (now - from_iso(m["started"])).total_seconds() >= after
        ]

    def forfeit(self, match_id: str, absent: set[str], now: dt.datetime) -> dict[str, int]:
        """The no-show rule: the people of the match who were there win, the absent lose and
        are paused (paired no more until they come back)."""
        m = obj(obj(self.s["matches"]).get(match_id) or {})
        if not m:
            raise EventRefusal("unknown", "no such arena match")
        group = [text(p) for p in items(m["players"])]
        gained = self.finish(match_id, {p: LOSS if p in absent else WIN for p in group}, now)
        m["forfeit"] = sorted(absent)
        for p in absent:
            self.pause(p)
        return gained

    # ---- results
    def finish(self, match_id: str, results: Mapping[str, str], now: dt.datetime) -> dict[str, int]:
        """Match ``match_id`` ended: each person's ``win``, ``draw`` or ``loss``; the points
        each one scored. The computer's seats are in no standing."""
        m = obj(self.s["matches"]).get(match_id)
        if m is None:
            raise EventRefusal("unknown", "no such arena match")
        m = obj(m)
        if m.get("result") is not None:
            raise EventRefusal("finished", "this match already has its result")
        group = [text(p) for p in items(m["players"])]
        if set(results) != set(group) or any(r not in POINTS for r in results.values()):
            raise EventRefusal("result", "a result names each player of the match: win, draw or loss")
        gained = {}
        for p in group:
            v = self._player(p)
            r = results[p]
            streak = integer(v["streak"])
            points = POINTS[r] * (2 if r == WIN and streak >= FIRE_AFTER else 1)
            v["points"] = integer(v["points"]) + points
            v["streak"] = streak + 1 if r == WIN else 0
            v["games"] = integer(v["games"]) + 1
            v["wins"] = integer(v["wins"]) + (r == WIN)
            entry = {"match": match_id, "result": r, "points": points, "computer": bool(m["computers"])}
            v["history"] = [*items(v["history"]), entry]
            v["last"] = [q for q in group if q != p]
            v["match"] = None
            v["free_since"] = None if v.get("paused") or now >= self.end else iso(now)
            gained[p] = points
        m["result"] = dict(results)
        m["ended"] = iso(now)
        return gained

    def standings(self) -> list[ArenaLine]:
        """Live standings: points, then wins, then the name; equal points and wins share a rank."""
        rows = sorted(
            self.players().items(),
            key=lambda kv: (-integer(kv[1]["points"]), -integer(kv[1]["wins"]), text(kv[1]["name"]).casefold(), kv[0]),
        )
        out: list[ArenaLine] = []
        for i, (p, v) in enumerate(rows):
            same = out and out[-1].points == v["points"] and out[-1].wins == v["wins"]
            out.append(
                ArenaLine(
                    rank=out[-1].rank if same else i + 1,
                    player=p,
                    name=text(v["name"]),
                    points=integer(v["points"]),
                    games=integer(v["games"]),
                    wins=integer(v["wins"]),
                    fire=integer(v["streak"]) >= FIRE_AFTER,
                    paused=bool(v["paused"]),
                    playing=v["match"] is not None,
                )
            )
        return out


class Arenas:
    """The arenas kept in ``store``."""

    def __init__(self, store: EventStore, quotas: EventQuotas | None = None):
        self.store = store
        self.quotas = quotas or EventQuotas()

    def create(
        self,
        creator: str | None,
        game: str,
        preset: str,
        start: dt.datetime,
        seconds: float,
        seats: int,
        fill_after: float,
        now: dt.datetime,
        levels: tuple[str, ...] = FILL_LEVELS,
        event_id: str | None = None,
    ) -> str:
        """A new arena (``creator`` None: the owner's, no quota); its id."""
        aid = event_id or f"{KIND}:{secrets.token_hex(6)}"
        arena = Arena.new(aid, game, preset, start, seconds, seats, fill_after, levels)
        check_created(self.store, creator, MADE_KINDS, self.quotas.events_per_day, now, "events")
        if not self.store.create(aid, KIND, creator, arena.s, now):
            raise EventRefusal("exists", "an event with this id exists")
        return aid

    def get(self, arena_id: str) -> Arena:
        stored = self.store.load(arena_id)
        if stored is None or stored.kind != KIND:
            raise EventRefusal("unknown", f"no arena {arena_id}")
        return Arena(stored.state)

    def _do(self, arena_id: str, fn: Callable[[Arena], _R]) -> _R:
        def step(state: JsonObject) -> tuple[JsonObject, _R]:
            a = Arena(state)
            answer = fn(a)
            return a.s, answer

        return change(self.store, arena_id, step)

    def join(self, arena_id: str, player: str, name: str, now: dt.datetime, at: JsonObject | None = None) -> None:
        self._do(arena_id, lambda a: a.join(player, name, now, at))

    def pause(self, arena_id: str, player: str) -> None:
        self._do(arena_id, lambda a: a.pause(player))

    def come_back(self, arena_id: str, player: str, now: dt.datetime) -> None:
        self._do(arena_id, lambda a: a.come_back(player, now))

    def pair(self, arena_id: str, now: dt.datetime, mus: Mapping[str, float] | None = None) -> list[JsonObject]:
        # Asked every half second: the state is written only when a match is made.
        if not self.get(arena_id).pair(now, mus):
            return []
        return self._do(arena_id, lambda a: a.pair(now, mus))

    def finish(self, arena_id: str, match_id: str, results: Mapping[str, str], now: dt.datetime) -> dict[str, int]:
        return self._do(arena_id, lambda a: a.finish(match_id, results, now))

    def opened(self, arena_id: str, match_id: str, code: str, seats: Mapping[int, str]) -> None:
        self._do(arena_id, lambda a: a.opened(match_id, code, seats))

    def forfeit(self, arena_id: str, match_id: str, absent: set[str], now: dt.datetime) -> dict[str, int]:
        return self._do(arena_id, lambda a: a.forfeit(match_id, absent, now))

    def standings(self, arena_id: str) -> list[ArenaLine]:
        return self.get(arena_id).standings()


__all__ = ["DRAW", "KIND", "LOSS", "POINTS", "WIN", "Arena", "ArenaLine", "Arenas"]
