"""The tournament of the day (docs/ONLINE.md, "Events"): per date, game and preset, ``deals``
deals the same for everyone, each played at a table of the server's against the house bots
(the player at seat 0, as the daily deal), at any time of the day, one entry per account.

**Secret, then checkable.** When the day is first asked for, a 128-bit seed and a 128-bit
nonce are drawn with :mod:`secrets` and kept in the event's state; deal *i*'s seed is
``derived_seed(PREFIX, SEED, i)``. While the day is open only the commitment is published:
SHA-256 of ``cardavia-online-tournament|DATE|GAME|PRESET|DEALS|SEED|NONCE`` (hex). The seed
and nonce are published once the date is past and every deal begun has ended, or the
deadline (game.online.server.daily's: two hours after midnight) has passed — the daily
deal's rule, so no table plays on with cards computable from a published seed.

**Scoring: matchpoints against the field.** On each deal, a player scores, for every other
player with a result on that deal, 1 for a better score and ½ for the same; the deal's
percentage is that out of the number of others (50 % with nobody to compare with), and the
player's is the mean of their deals' percentages. Par (game.services.par, set by the server
with :meth:`TourOfDay.set_par`) is shown beside each deal. Standings rank the players who
have ended every deal (a deal whose table closed unfinished counts as ended, with no result);
the others are listed after, unranked.

**Nobody sees a result early** (:meth:`TourOfDay.may_see`): another player's result on deal
*i* is shown only to a player who has ended deal *i*, and the standings only to one who has
ended every deal — everyone once the seed is revealed.

Kept in an :class:`~game.online.server.events.store.EventStore`: the event's state (seed,
nonce, deal count, par) and one entry per fact — ``entry``, ``begun:i`` (the table's code),
``deal:i`` (score and record), ``closed:i`` — written once each (the store's key refuses a
second one, also from another process).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from game.online.server.daily import deadline
from game.online.server.events.common import EventRefusal, number, obj, percent, text
from game.online.server.events.deals import SEED_BYTES, derived_seed, settings_deal, with_seed
from game.online.server.events.store import EventStore, change
from game.rules.vocabulary import JsonObject
from game.services.par import Deal

PREFIX = "cardavia-online-tournament"
KIND = "tod"
#: Deals of a day's tournament unless the server says otherwise.
DEFAULT_DEALS = 8
#: Records of the best results shown per deal.
BEST_SHOWN = 3


def commitment(day: str, game: str, preset: str, deals: int, seed: int, nonce: str) -> str:
    return hashlib.sha256(f"{PREFIX}|{day}|{game}|{preset}|{deals}|{seed}|{nonce}".encode()).hexdigest()


def tour_id(day: str, game: str, preset: str) -> str:
    return f"{KIND}:{day}:{game}:{preset}"


# ---------------------------------------------------------------------- the arithmetic (pure)
def matchpoints(scores: Mapping[str, float]) -> dict[str, tuple[float, int]]:
    """Per player of one deal: (matchpoints, others compared with)."""
    out = {}
    for p, s in scores.items():
        mp = sum(1.0 if s > o else 0.5 if s == o else 0.0 for q, o in scores.items() if q != p)
        out[p] = (mp, len(scores) - 1)
    return out


def deal_percentages(results: Mapping[int, Mapping[str, float]]) -> dict[str, dict[int, Fraction]]:
    """Per player, per deal they have a result on: their matchpoint percentage (exact, so
    that a mean is rounded once, the same on every machine)."""
    out: dict[str, dict[int, Fraction]] = {}
    for index, scores in results.items():
        for p, (mp, others) in matchpoints(scores).items():
            out.setdefault(p, {})[index] = Fraction(50) if others == 0 else 100 * Fraction(mp) / others
    return out


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None: not every deal ended yet
    player: str
    name: str
    percent: float
    played: int
    ended: int


def standings(
    results: Mapping[int, Mapping[str, float]], names: Mapping[str, str], ended: Mapping[str, int], deals: int
) -> list[Standing]:
    """The standings from every result (deal → player → score), the entrants' names and how
    many deals each has ended: those who ended every deal ranked by percentage (equal
    percentages to two decimals share a rank), the others after them, unranked."""
    pct = deal_percentages(results)
    lines = []
    for p, name in names.items():
        mine = pct.get(p, {})
        mean = sum(mine.values(), Fraction(0)) / len(mine) if mine else Fraction(0)
        lines.append((p, name, round(float(mean), 2), len(mine), ended.get(p, 0)))
    done = sorted((ln for ln in lines if ln[4] >= deals), key=lambda ln: (-ln[2], ln[1].casefold(), ln[0]))
    rest = sorted((ln for ln in lines if ln[4] < deals), key=lambda ln: (-ln[4], -ln[2], ln[1].casefold(), ln[0]))
    out: list[Standing] = []
    for i, (p, name, value, played, n) in enumerate(done):
        rank = out[-1].rank if out and out[-1].percent == value else i + 1
        out.append(Standing(rank, p, name, value, played, n))
    out.extend(Standing(None, p, name, value, played, n) for p, name, value, played, n in rest)
    return out


@dataclass(frozen=True)
class FieldView:
    """How the field played one deal, for a player who has ended it."""

    index: int
    par: float | None
    score: float | None  # the viewer's, None when their table closed unfinished
    rank: int | None  # 1 + those who scored better
    percent: float | None
    players: int
    spread: list[tuple[float, int]]  # (score, how many), best first
    best: list[JsonObject] = field(default_factory=list)  # name, score, record


# ---------------------------------------------------------------------- the service
@dataclass
class _Day:
    """One tournament's entries, read back from the store."""

    names: dict[str, str] = field(default_factory=dict)
    begun: dict[str, dict[int, str]] = field(default_factory=dict)
    results: dict[int, dict[str, tuple[float, str, str]]] = field(default_factory=dict)  # score, record, at
    closed: dict[str, set[int]] = field(default_factory=dict)

    def ended(self, player: str) -> set[int]:
        done = {i for i, r in self.results.items() if player in r}
        return done | self.closed.get(player, set())

    def open_tables(self) -> int:
        return sum(1 for p, b in self.begun.items() for i in b if i not in self.ended(p))


class TourOfDay:
    """The tournaments of the day kept in ``store``; ``deals`` per tournament."""

    def __init__(self, store: EventStore, deals: int = DEFAULT_DEALS):
        if deals < 1:
            raise ValueError("a tournament of the day needs at least one deal")
        self.store = store
        self.deals = deals

    # ---- the day
    def ensure(self, day: str, game: str, preset: str | None, now: dt.datetime) -> str:
        """The tournament's id (made with its secret when first asked for); ValueError for a
        bad game, preset or date."""
        _, word = settings_deal(game, preset, dt.date.fromisoformat(day))
        tid = tour_id(day, game, word)
        if self.store.load(tid) is None:
            state: JsonObject = {
                "day": day,
                "game": game,
                "preset": word,
                "deals": self.deals,
                "seed": str(int.from_bytes(secrets.token_bytes(SEED_BYTES), "big")),
                "nonce": secrets.token_hex(SEED_BYTES),
                "par": {},
            }
            self.store.create(tid, KIND, None, state, now)  # a racing process's made it: that one counts
        return tid

    def _state(self, tid: str) -> JsonObject:
        stored = self.store.load(tid)
        if stored is None:
            raise EventRefusal("unknown", f"no tournament {tid}")
        return stored.state

    def deals_of(self, tid: str) -> list[Deal]:
        """The tournament's deals (secret: for the server's own tables only)."""
        s = self._state(tid)
        base, _ = settings_deal(text(s["game"]), text(s["preset"]), dt.date.fromisoformat(text(s["day"])))
        seed = int(text(s["seed"]))
        return [with_seed(base, derived_seed(PREFIX, seed, i)) for i in range(int(number(s["deals"])))]

    def public(self, tid: str, now: dt.datetime) -> JsonObject:
        """What anyone may know: the day, game, preset, deal count, commitment; the seed and
        nonce once revealed."""
        s = self._state(tid)
        day, deals, seed, nonce = text(s["day"]), int(number(s["deals"])), int(text(s["seed"])), text(s["nonce"])
        shown = self.revealed(tid, now)
        return {
            "id": tid,
            "date": day,
            "game": s["game"],
            "preset": s["preset"],
            "deals": deals,
            "hash": commitment(day, text(s["game"]), text(s["preset"]), deals, seed, nonce),
            "seed": str(seed) if shown else None,
            "nonce": nonce if shown else None,
        }

    def _read(self, tid: str) -> _Day:
        d = _Day()
        for e in self.store.entries(tid):
            kind, _, index = e.item.partition(":")
            if kind == "entry":
                d.names[e.player] = text(e.value.get("name"))
            elif kind == "begun":
                d.begun.setdefault(e.player, {})[int(index)] = text(e.value.get("code"))
            elif kind == "deal":
                d.results.setdefault(int(index), {})[e.player] = (
                    number(e.value.get("score")),
                    text(e.value.get("record")),
                    e.at,
                )
            elif kind == "closed":
                d.closed.setdefault(e.player, set()).add(int(index))
        return d

    def revealed(self, tid: str, now: dt.datetime) -> bool:
        day = text(self._state(tid)["day"])
        if now >= deadline(day):
            return True
        return dt.date.fromisoformat(day) < now.date() and self._read(tid).open_tables() == 0

    def _count(self, tid: str) -> int:
        return int(number(self._state(tid)["deals"]))

    # ---- a player's day
    def enter(self, tid: str, player: str, name: str, now: dt.datetime) -> None:
        """Enter account ``player`` (``p:<id>``) under ``name``: once, on the day itself."""
        day = dt.date.fromisoformat(text(self._state(tid)["day"]))
        if now.date() != day:
            raise EventRefusal("closed", f"the {day} tournament takes entries on {day} only")
        if not self.store.put(tid, player, "entry", {"name": name}, now):
            raise EventRefusal("entered", "this account has already entered this tournament")

    def begin(self, tid: str, player: str, index: int, code: str, now: dt.datetime) -> Deal:
        """Deal ``index`` dealt to ``player`` at the server's table ``code``: the deals in
        order, each once (a deal begun and left is that deal's play); the deal to seat. No
        deal is begun after the day (those under way may end until the deadline): the seed
        may be published then."""
        day = text(self._state(tid)["day"])
        if now.date() > dt.date.fromisoformat(day) or now >= deadline(day):
            raise EventRefusal("closed", "this tournament is closed")
        d = self._read(tid)
        if player not in d.names:
            raise EventRefusal("not_entered", "enter the tournament first")
        begun = d.begun.get(player, {})
        if any(i not in d.ended(player) for i in begun):
            raise EventRefusal("busy", "finish the deal already begun first")
        if not 0 <= index < self._count(tid) or index != len(begun):
            raise EventRefusal("order", f"the next deal to play is deal {len(begun) + 1}")
        if not self.store.put(tid, player, f"begun:{index}", {"code": code}, now):
            raise EventRefusal("begun", "this deal has already been dealt to this account")
        return self.deals_of(tid)[index]

    def finish(self, tid: str, player: str, index: int, code: str, score: float, now: dt.datetime) -> None:
        """The result of deal ``index`` played at table ``code`` (its record is ``code``'s,
        checked by the caller with game.online.server.events.deals.score_record)."""
        if now >= deadline(text(self._state(tid)["day"])):
            raise EventRefusal("closed", "this tournament closed before this deal ended")
        d = self._read(tid)
        if d.begun.get(player, {}).get(index) != code or index in d.closed.get(player, set()):
            raise EventRefusal("record", "this table was not dealt this deal for this account")
        if not self.store.put(tid, player, f"deal:{index}", {"score": score, "record": code}, now):
            raise EventRefusal("played", "this deal already has a result")

    def close_deal(self, tid: str, player: str, index: int, now: dt.datetime) -> None:
        """The table of deal ``index`` ended without a result (left at the deadline, closed)."""
        d = self._read(tid)
        if index in d.begun.get(player, {}) and index not in d.ended(player):
            self.store.put(tid, player, f"closed:{index}", {}, now)

    def set_par(self, tid: str, index: int, value: float) -> None:
        def put(state: JsonObject) -> tuple[JsonObject, None]:
            obj(state.setdefault("par", {}))[str(index)] = round(value, 3)
            return state, None

        change(self.store, tid, put)

    def par_of(self, tid: str, index: int) -> float | None:
        v = obj(self._state(tid).get("par", {})).get(str(index))
        return None if v is None else number(v)

    # ---- who sees what
    def may_see(self, tid: str, viewer: str | None, index: int, now: dt.datetime) -> bool:
        """Whether ``viewer`` (None: anyone, the web pages) may see other players' results
        on deal ``index``: only once they have ended it, or once the day is revealed."""
        if self.revealed(tid, now):
            return True
        if viewer is None:
            return False
        return index in self._read(tid).ended(viewer)

    def may_see_standings(self, tid: str, viewer: str | None, now: dt.datetime) -> bool:
        if self.revealed(tid, now):
            return True
        return viewer is not None and len(self._read(tid).ended(viewer)) >= self._count(tid)

    def standings(self, tid: str, viewer: str | None, now: dt.datetime) -> list[Standing]:
        if not self.may_see_standings(tid, viewer, now):
            raise EventRefusal("hidden", "the standings are shown once you have played every deal")
        d = self._read(tid)
        results = {i: {p: r[0] for p, r in rs.items()} for i, rs in d.results.items()}
        ended = {p: len(d.ended(p)) for p in d.names}
        return standings(results, d.names, ended, self._count(tid))

    def field(self, tid: str, viewer: str | None, index: int, now: dt.datetime) -> FieldView:
        """How the field played deal ``index``; EventRefusal ``hidden`` before ``viewer`` may see it."""
        if not 0 <= index < self._count(tid):
            raise EventRefusal("unknown", "no such deal")
        if not self.may_see(tid, viewer, index, now):
            raise EventRefusal("hidden", "the field of a deal is shown once you have played it")
        d = self._read(tid)
        rs = d.results.get(index, {})
        scores = {p: r[0] for p, r in rs.items()}
        counts: dict[float, int] = {}
        for s in scores.values():
            counts[s] = counts.get(s, 0) + 1
        mine = scores.get(viewer) if viewer is not None else None
        mp = matchpoints(scores).get(viewer) if viewer is not None else None
        ordered = sorted(rs.items(), key=lambda kv: (-kv[1][0], kv[1][2], kv[0]))
        best = [{"name": d.names.get(p, "?"), "score": r[0], "record": r[1]} for p, r in ordered[:BEST_SHOWN]]
        return FieldView(
            index=index,
            par=self.par_of(tid, index),
            score=mine,
            rank=None if mine is None else 1 + sum(1 for s in scores.values() if s > mine),
            percent=None if mp is None else round(percent(*mp), 2),
            players=len(scores),
            spread=sorted(counts.items(), key=lambda kv: -kv[0]),
            best=best,
        )

    def progress(self, tid: str, player: str) -> JsonObject:
        """A player's own day: entered, deals ended, the next deal to play (None when done)."""
        d = self._read(tid)
        begun = d.begun.get(player, {})
        n = self._count(tid)
        return {
            "entered": player in d.names,
            "ended": len(d.ended(player)),
            "next": len(begun) if len(begun) < n else None,
            "scores": {str(i): r[player][0] for i, r in sorted(d.results.items()) if player in r},
        }


__all__ = [
    "BEST_SHOWN",
    "DEFAULT_DEALS",
    "FieldView",
    "Standing",
    "TourOfDay",
    "commitment",
    "deal_percentages",
    "matchpoints",
    "standings",
    "tour_id",
]
