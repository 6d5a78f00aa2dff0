"""Swiss tournaments for a club (docs/ONLINE.md, "Events"): a fixed number of rounds,
registration until the start, each round pairing entrants of equal or near score who have not
met, a bye for an odd number, tie-breaks.

**Entrants** are players (``p:<id>``) or, for a partnership game, teams of two registered
together (``t:<a>+<b>``, each member in one team only). A team is entered with both players'
consent: the first to register names the other (an **offer**, kept in the state); the team is
entered when the other registers naming them. A player has one open offer at a time (a new one
replaces it); leaving withdraws it (or turns down the offers naming the one who leaves), and
registration closing drops those left. Once a team is entered, the other offers naming either
member are dropped. One who leaves is dropped: paired no
more, their results kept (they still count in their opponents' tie-breaks).

**Pairing** (:func:`pair_round`, a Dutch-like system of our own, tested for its properties):
entrants are ranked by score, then by their rating at registration. For an odd number the bye
goes to the lowest ranked entrant who has had none and whose absence leaves a pairing without
repeats (a bye is worth a win, at most once per entrant). The rest are paired so that no two
meet twice and the sum of the squared score differences (in half points) is the least found:
a depth-first search taking the highest ranked entrant first and trying, in order, the
nearest scores and, within a score group, the Dutch partner (the top half against the bottom
half: 1–4, 2–5, 3–6 in a group of six); the first pairing found is the greedy Dutch one and
the search keeps looking for a cheaper one, pruning every branch that cannot beat it
(:func:`floor_cost`), until it is as cheap as the scores allow or a budget of steps is
spent. When no pairing without repeats exists (or none is found within ``SEARCH_LIMIT``
steps in all) the tournament ends early.

**Tie-breaks**: Buchholz (the sum of the opponents' scores) then Sonneborn-Berger (the
scores of the opponents beaten plus half those drawn with); a bye adds to neither.

**Rounds** begin when the previous round's last match has a result, and not before its set
time when the owner gave times (``round_times``).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from game.online.server.events.common import EventRefusal, from_iso, integer, iso, items, number, obj, text
from game.online.server.events.quotas import MADE_KINDS, EventQuotas, check_created
from game.online.server.events.store import EventStore, change
from game.rules.vocabulary import JsonObject

KIND = "swiss"
#: Result words: the first entrant won, the second, a draw, or neither (both forfeited: a
#: loss for both, the no-show rule).
A, B, DRAW, NEITHER = "a", "b", "draw", "neither"
#: Steps of the pairing search after its first pairing (before it, the search goes on: a
#: pairing without repeats is looked for to the end).
SEARCH_BUDGET = 20_000
#: Steps after which a search that found no pairing at all gives up (the tournament then
#: ends early): a field whose every pairing repeats a meeting could otherwise be searched
#: for longer than anyone waits.
SEARCH_LIMIT = 500_000

_R = TypeVar("_R")


class NoPairing(Exception):
    """No pairing without repeats exists for the entrants left."""


def pair_round(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    met: set[frozenset[str]],
    had_bye: set[str],
    budget: int = SEARCH_BUDGET,
) -> tuple[list[tuple[str, str]], str | None]:
    """A round's pairs and bye (see the module). ``ranked``: the active entrants, best first
    (score, then rating); NoPairing when every way repeats a meeting."""
    order = sorted(ranked, key=lambda e: (-scores[e], ranked.index(e)))
    steps = [0]  # shared by every try of a bye, against SEARCH_LIMIT
    if len(order) % 2 == 0:
        pairs = _best_matching(order, scores, met, budget, steps)
        if pairs is None:
            raise NoPairing("every pairing repeats a meeting")
        return pairs, None
    for bye in reversed(order):
        if bye in had_bye:
            continue
        pairs = _best_matching([e for e in order if e != bye], scores, met, budget, steps)
        if pairs is not None:
            return pairs, bye
    raise NoPairing("every pairing repeats a meeting or a bye")


def floor_cost(halves: Sequence[int]) -> int:
    """The least cost any pairing of entrants with these scores (in half points) can have,
    repeats or not: a score group of odd size sends one entrant to another group; sending
    one across several groups costs at least the squared gaps along the way (a square
    grows faster than the sum of its parts' squares), and the odd groups are best paired
    with their neighbours in score order."""
    counts: dict[int, int] = {}
    for h in halves:
        counts[h] = counts.get(h, 0) + 1
    levels = sorted(counts)
    total, open_at = 0, None
    for i, h in enumerate(levels):
        if open_at is not None:
            total += (h - levels[i - 1]) ** 2
        if counts[h] % 2:
            open_at = None if open_at is not None else h
    return total


def _best_matching(
    order: list[str], scores: Mapping[str, float], met: set[frozenset[str]], budget: int, steps: list[int]
) -> list[tuple[str, str]] | None:
    half = {e: round(2 * scores[e]) for e in order}
    rank = {e: i for i, e in enumerate(order)}
    best: list[list[tuple[str, str]] | None] = [None]
    best_cost = [float("inf")]
    first = steps[0]

    def cost(a: str, b: str) -> int:
        return (half[a] - half[b]) ** 2

    def search(rest: list[str], acc: int, pairs: list[tuple[str, str]]) -> bool:
        """False once the search may stop: the budget spent after a first pairing, or a
        pairing found that costs no more than the floor."""
        steps[0] += 1
        if (best[0] is not None and steps[0] - first > budget) or steps[0] > SEARCH_LIMIT:
            return False
        if not rest:
            if acc < best_cost[0]:
                best[0], best_cost[0] = list(pairs), acc
            return acc > floor[0]
        if acc + floor_cost([half[e] for e in rest]) >= best_cost[0]:
            return True  # nothing below here beats the best found
        top, others = rest[0], rest[1:]
        group = [e for e in rest if half[e] == half[top]]
        place = {e: i for i, e in enumerate(group)}
        dutch = len(group) // 2
        cands = [e for e in others if frozenset((top, e)) not in met]
        cands.sort(key=lambda e: (cost(top, e), abs(place[e] - dutch) if e in place else 0, rank[e]))
        for e in cands:
            c = acc + cost(top, e)
            if c >= best_cost[0]:
                continue
            pairs.append((top, e))
            going = search([x for x in others if x != e], c, pairs)
            pairs.pop()
            if not going:
                return False
        return True

    floor = [floor_cost(list(half.values()))]
    search(list(order), 0, [])
    return best[0]


@dataclass(frozen=True)
class SwissLine:
    rank: int
    entrant: str
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    dropped: bool


class Swiss:
    """One Swiss tournament's state (a JSON object, as stored) and its rules."""

    def __init__(self, state: JsonObject):
        self.s = state

    @classmethod
    def new(
        cls,
        swiss_id: str,
        game: str,
        preset: str,
        rounds: int,
        starts: dt.datetime,
        team_size: int = 1,
        round_times: Sequence[dt.datetime] = (),
    ) -> Swiss:
        if rounds < 1 or team_size < 1:
            raise ValueError("a Swiss tournament needs at least one round and entrants of one player or more")
        return cls(
            {
                "id": swiss_id,
                "game": game,
                "preset": preset,
                "rounds": rounds,
                "team_size": team_size,
                "starts": iso(starts),
                "round_times": [iso(t) for t in round_times],
                "entrants": {},
                "played": [],  # per round: the tables
                "finished": False,
                "why": None,
            }
        )

    # ---- reading
    def entrants(self) -> dict[str, JsonObject]:
        return {e: obj(v) for e, v in obj(self.s["entrants"]).items()}

    def rounds(self) -> list[list[JsonObject]]:
        return [[obj(t) for t in items(r)] for r in items(self.s["played"])]

    @property
    def finished(self) -> bool:
        return bool(self.s["finished"])

    def starts(self) -> dt.datetime:
        """When registration closes and the first round may begin."""
        return from_iso(self.s["starts"])

    def scores(self) -> dict[str, float]:
        out = {e: 0.0 for e in self.entrants()}
        for r in self.rounds():
            for t in r:
                a, b, res = text(t["a"]), t.get("b"), t.get("result")
                if b is None:
                    out[a] += 1.0
                elif res == A:
                    out[a] += 1.0
                elif res == B:
                    out[text(b)] += 1.0
                elif res == DRAW:
                    out[a] += 0.5
                    out[text(b)] += 0.5
        return out

    def met(self) -> set[frozenset[str]]:
        return {frozenset((text(t["a"]), text(t["b"]))) for r in self.rounds() for t in r if t.get("b") is not None}

    def had_bye(self) -> set[str]:
        return {text(t["a"]) for r in self.rounds() for t in r if t.get("b") is None}

    def member_of(self, player: str) -> str | None:
        for e, v in self.entrants().items():
            if player in items(v["members"]):
                return e
        return None

    # ---- registration
    def reach(self) -> dict[str, JsonObject]:
        """Per player (every team's member), where their connection was when they last
        registered (wiring's ``reach``)."""
        out: dict[str, JsonObject] = {}
        for v in self.entrants().values():
            for m, at in obj(v.get("at") or {}).items():
                out[m] = obj(at)
        return out

    def set_at(self, player: str, at: JsonObject) -> None:
        eid = self.member_of(player)
        mine = obj(self.s.get("offers") or {}).get(player)
        if eid is None and isinstance(mine, dict):  # waiting for a partner: told there once entered
            mine["at"] = at
            return
        if eid is None:
            raise EventRefusal("not_registered", "this player is not in this tournament")
        v = obj(obj(self.s["entrants"])[eid])
        v["at"] = {**obj(v.get("at") or {}), player: at}

    def register(
        self, members: Sequence[str], name: str, rating: float, now: dt.datetime, at: JsonObject | None = None
    ) -> str:
        """Register a player, or a team of ``team_size`` players together (the owner's way; a
        partnership's players register each naming the other, :meth:`offer`); the entrant's
        id. ``at``: where the registering connection is (it is told its team's tables)."""
        self._check_open(now)
        size = integer(self.s["team_size"])
        if len(members) != size or len(set(members)) != size:
            raise EventRefusal("team", f"this tournament takes entrants of {size} different player(s)")
        for m in members:
            if self.member_of(m) is not None:
                raise EventRefusal("registered", "a player of this entry is already registered")
            if self.in_offer(m):
                raise EventRefusal("offer", "a player of this entry is waiting for a partner's answer")
        return self._enter(members, name, rating, {m: at for m in members} if at is not None else {})

    def _check_open(self, now: dt.datetime) -> None:
        if now >= from_iso(self.s["starts"]) or self.s["played"]:
            raise EventRefusal("started", "registration closed when the tournament began")

    def _enter(self, members: Sequence[str], name: str, rating: float, at: Mapping[str, JsonObject]) -> str:
        eid = members[0] if len(members) == 1 else "t:" + "+".join(sorted(members))
        obj(self.s["entrants"])[eid] = {
            "name": name,
            "members": list(members),
            "rating": rating,
            "dropped": False,
            "seq": len(self.entrants()),
            "at": dict(at),
        }
        return eid

    # ---- partners: a team of two is entered when each has named the other
    def offers(self) -> dict[str, JsonObject]:
        """Per player who named a partner not yet answering: ``partner`` (their account),
        ``name``, ``partner_name``, ``rating`` and ``at``."""
        return {p: obj(v) for p, v in obj(self.s.get("offers") or {}).items()}

    def in_offer(self, player: str) -> bool:
        """Whether ``player`` made an open offer or is named in one."""
        return any(p == player or v["partner"] == player for p, v in self.offers().items())

    def offer(
        self,
        player: str,
        name: str,
        partner: str,
        partner_name: str,
        rating: float,
        now: dt.datetime,
        at: JsonObject | None = None,
    ) -> str | None:
        """``player`` registers naming ``partner``. When ``partner`` had named ``player``, their
        team is entered (its id; the other offers naming either are dropped: one team each);
        otherwise the offer is kept until they do (None), replacing ``player``'s earlier one."""
        self._check_open(now)
        if integer(self.s["team_size"]) != 2:
            raise EventRefusal("team", "a partner is named only in a tournament of teams of two")
        if partner == player:
            raise EventRefusal("team", "your partner must be another player")
        for m in (player, partner):
            if self.member_of(m) is not None:
                raise EventRefusal("registered", "a player of this entry is already registered")
        offers = self.offers()
        theirs = offers.get(partner)
        if theirs is None or theirs["partner"] != player:
            offers[player] = {
                "partner": partner,
                "name": name,
                "partner_name": partner_name,
                "rating": rating,
                "at": at or {},
            }
            self.s["offers"] = offers
            return None
        both = {player, partner}
        self.s["offers"] = {p: v for p, v in offers.items() if p not in both and v["partner"] not in both}
        reach = {partner: obj(theirs.get("at") or {})} | ({player: at} if at is not None else {})
        team = f"{text(theirs['name'])} & {name}"
        return self._enter(
            [partner, player], team, max(number(theirs["rating"]), rating), {m: a for m, a in reach.items() if a}
        )

    def waiting_for(self, player: str | None, now: dt.datetime) -> str | None:
        """The name of the partner ``player`` named and waits for (None: no open offer)."""
        mine = self.offers().get(player or "") if self.open(now) else None
        return text(mine["partner_name"]) if mine is not None else None

    def asked_by(self, player: str | None, now: dt.datetime) -> list[str]:
        """The names of the players who named ``player`` as their partner, first asked first."""
        if player is None or not self.open(now):
            return []
        return [text(v["name"]) for v in self.offers().values() if v["partner"] == player]

    def open(self, now: dt.datetime) -> bool:
        """Whether registration is open (before the start, no round paired)."""
        return now < from_iso(self.s["starts"]) and not self.s["played"]

    def leave(self, player: str, now: dt.datetime) -> None:
        """A player leaves: before the start their entry is removed, after it dropped; an offer
        they made is withdrawn, and those naming them are turned down."""
        eid = self.member_of(player)
        if eid is None:
            if not self.in_offer(player):
                raise EventRefusal("not_registered", "this player is not in this tournament")
            self.s["offers"] = {p: v for p, v in self.offers().items() if player not in (p, v["partner"])}
            return
        if now < from_iso(self.s["starts"]) and not self.s["played"]:
            del obj(self.s["entrants"])[eid]
        else:
            obj(obj(self.s["entrants"])[eid])["dropped"] = True

    # ---- rounds
    def due(self, now: dt.datetime) -> bool:
        """Whether the next round may begin: the start reached (its set time, if any) and
        every match of the round before has its result."""
        if self.finished:
            return False
        played = self.rounds()
        if len(played) >= integer(self.s["rounds"]):
            return False
        if any(t.get("b") is not None and t.get("result") is None for t in (played[-1] if played else [])):
            return False
        times = items(self.s["round_times"])
        at = from_iso(times[len(played)]) if len(played) < len(times) else None
        if not played:
            at = max(at, from_iso(self.s["starts"])) if at else from_iso(self.s["starts"])
        return at is None or now >= at

    def start_round(self, now: dt.datetime) -> list[JsonObject] | None:
        """Pair the next round when it is due (its tables), or None; the tournament ends after
        its last round's results, or early when nobody can be paired."""
        if self.s.get("offers") and not self.open(now):
            self.s["offers"] = {}  # registration closed: the offers nobody answered are dropped
        if not self.due(now):
            if not self.finished and self._complete():
                self.s["finished"] = True
            return None
        ents = self.entrants()
        active = [e for e, v in ents.items() if not v["dropped"]]
        ranked = sorted(active, key=lambda e: (-number(ents[e]["rating"]), integer(ents[e]["seq"])))
        if len(active) < 2:
            self.s["finished"], self.s["why"] = True, "too few players"
            return None
        try:
            pairs, bye = pair_round(ranked, self.scores(), self.met(), self.had_bye())
        except NoPairing:
            self.s["finished"], self.s["why"] = True, "no pairing without a repeat is left"
            return None
        firsts = self._firsts()
        number_ = len(self.rounds()) + 1
        tables: list[JsonObject] = []
        for k, (x, y) in enumerate(pairs, 1):
            a, b = (y, x) if firsts.get(x, 0) > firsts.get(y, 0) else (x, y)
            tables.append({"table": k, "a": a, "b": b, "result": None, "match": f"{self.s['id']}/{number_}/{k}"})
        if bye is not None:
            tables.append({"table": len(tables) + 1, "a": bye, "b": None, "result": A, "match": None})
        self.s["played"] = [*items(self.s["played"]), tables]
        obj(self.s.setdefault("started", {}))[str(number_)] = iso(now)
        return tables

    def _complete(self) -> bool:
        played = self.rounds()
        return len(played) >= integer(self.s["rounds"]) and all(t.get("result") is not None for t in played[-1])

    def _firsts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.rounds():
            for t in r:
                if t.get("b") is not None:
                    out[text(t["a"])] = out.get(text(t["a"]), 0) + 1
        return out

    def opened(self, match_id: str, code: str, seats: Mapping[int, str]) -> None:
        """Match ``match_id``'s table is ``code``, ``seats`` its people's seats (any process
        that holds the table knows it for the tournament's)."""
        t = self._table(match_id)
        t["code"] = code
        t["seats"] = {str(k): v for k, v in seats.items()}

    def _table(self, match_id: str) -> JsonObject:
        for r in items(self.s["played"]):
            for t in items(r):
                if obj(t).get("match") == match_id:
                    return obj(t)
        raise EventRefusal("unknown", "no such match in this tournament")

    def under_way(self) -> list[tuple[str, str, dict[int, str]]]:
        """The tables without a result that are open: (match, code, seats)."""
        out = []
        for r in self.rounds():
            for t in r:
                if t.get("result") is None and isinstance(t.get("code"), str):
                    seats = {int(k): text(v) for k, v in obj(t.get("seats") or {}).items()}
                    out.append((text(t["match"]), text(t["code"]), seats))
        return out

    def unopened(self, now: dt.datetime, after: float) -> list[JsonObject]:
        """The last round's tables (not byes) paired ``after`` seconds ago or more whose
        table was never noted (the process that paired them died in between): to open again."""
        played = self.rounds()
        if not played:
            return []
        began = obj(self.s.get("started") or {}).get(str(len(played)))
        if began is None or (now - from_iso(began)).total_seconds() < after:
            return []
        return [t for t in played[-1] if t.get("b") is not None and t.get("result") is None and t.get("code") is None]

    def forfeit(self, match_id: str, absent: set[str], now: dt.datetime) -> str:
        """The no-show rule: the entrants in ``absent`` lose the match (both absent: a loss
        for both); the result written."""
        t = self._table(match_id)
        a, b = text(t["a"]), text(t.get("b"))
        result = NEITHER if {a, b} <= absent else B if a in absent else A
        self.report(match_id, result, now)
        t["forfeit"] = sorted(absent & {a, b})
        return result

    def report(self, match_id: str, result: str, now: dt.datetime) -> None:
        """A table's result: ``a`` (its first entrant won), ``b``, ``draw`` or ``neither``; once."""
        if result not in (A, B, DRAW, NEITHER):
            raise EventRefusal("result", "a result is a, b, draw or neither")
        for r in self.rounds():
            for t in r:
                if t.get("match") == match_id:
                    if t.get("result") is not None:
                        raise EventRefusal("finished", "this match already has its result")
                    t["result"] = result
                    t["ended"] = iso(now)
                    if self._complete():
                        self.s["finished"] = True
                    return
        raise EventRefusal("unknown", "no such match in this tournament")

    # ---- standings
    def standings(self) -> list[SwissLine]:
        sc = self.scores()
        bh = {e: 0.0 for e in sc}
        sb = {e: 0.0 for e in sc}
        for r in self.rounds():
            for t in r:
                b, res = t.get("b"), t.get("result")
                if b is None or res is None:
                    continue
                a, b = text(t["a"]), text(b)
                bh[a] += sc[b]
                bh[b] += sc[a]
                if res == A:
                    sb[a] += sc[b]
                elif res == B:
                    sb[b] += sc[a]
                elif res == DRAW:
                    sb[a] += sc[b] / 2
                    sb[b] += sc[a] / 2
        ents = self.entrants()
        rows = sorted(sc, key=lambda e: (-sc[e], -bh[e], -sb[e], text(ents[e]["name"]).casefold(), e))
        out: list[SwissLine] = []
        for i, e in enumerate(rows):
            key = (sc[e], bh[e], sb[e])
            same = out and (out[-1].score, out[-1].buchholz, out[-1].sonneborn_berger) == key
            out.append(
                SwissLine(out[-1].rank if same else i + 1, e, text(ents[e]["name"]), *key, bool(ents[e]["dropped"]))
            )
        return out


class Swisses:
    """The Swiss tournaments kept in ``store``."""

    def __init__(self, store: EventStore, quotas: EventQuotas | None = None):
        self.store = store
        self.quotas = quotas or EventQuotas()

    def create(
        self,
        creator: str | None,
        game: str,
        preset: str,
        rounds: int,
        starts: dt.datetime,
        now: dt.datetime,
        team_size: int = 1,
        round_times: Sequence[dt.datetime] = (),
        event_id: str | None = None,
    ) -> str:
        """A new Swiss tournament (``creator`` None: the owner's, no quota); its id."""
        sid = event_id or f"{KIND}:{secrets.token_hex(6)}"
        s = Swiss.new(sid, game, preset, rounds, starts, team_size, round_times)
        check_created(self.store, creator, MADE_KINDS, self.quotas.events_per_day, now, "events")
        if not self.store.create(sid, KIND, creator, s.s, now):
            raise EventRefusal("exists", "an event with this id exists")
        return sid

    def get(self, swiss_id: str) -> Swiss:
        stored = self.store.load(swiss_id)
        if stored is None or stored.kind != KIND:
            raise EventRefusal("unknown", f"no Swiss tournament {swiss_id}")
        return Swiss(stored.state)

    def _do(self, swiss_id: str, fn: Callable[[Swiss], _R]) -> _R:
        def step(state: JsonObject) -> tuple[JsonObject, _R]:
            s = Swiss(state)
            return s.s, fn(s)

        return change(self.store, swiss_id, step)

    def register(
        self,
        swiss_id: str,
        members: Sequence[str],
        name: str,
        rating: float,
        now: dt.datetime,
        at: JsonObject | None = None,
    ) -> str:
        return self._do(swiss_id, lambda s: s.register(members, name, rating, now, at))

    def offer(
        self,
        swiss_id: str,
        player: str,
        name: str,
        partner: str,
        partner_name: str,
        rating: float,
        now: dt.datetime,
        at: JsonObject | None = None,
    ) -> str | None:
        """:meth:`Swiss.offer` under compare-and-set: the team's id once both named each other."""
        return self._do(swiss_id, lambda s: s.offer(player, name, partner, partner_name, rating, now, at))

    def set_at(self, swiss_id: str, player: str, at: JsonObject) -> None:
        self._do(swiss_id, lambda s: s.set_at(player, at))

    def opened(self, swiss_id: str, match_id: str, code: str, seats: Mapping[int, str]) -> None:
        self._do(swiss_id, lambda s: s.opened(match_id, code, seats))

    def forfeit(self, swiss_id: str, match_id: str, absent: set[str], now: dt.datetime) -> str:
        return self._do(swiss_id, lambda s: s.forfeit(match_id, absent, now))

    def leave(self, swiss_id: str, player: str, now: dt.datetime) -> None:
        self._do(swiss_id, lambda s: s.leave(player, now))

    def advance(self, swiss_id: str, now: dt.datetime) -> list[JsonObject] | None:
        """Begin the next round if it is due (the server calls this on a timer and after each result)."""
        return self._do(swiss_id, lambda s: s.start_round(now))

    def report(self, swiss_id: str, match_id: str, result: str, now: dt.datetime) -> None:
        self._do(swiss_id, lambda s: s.report(match_id, result, now))

    def standings(self, swiss_id: str) -> list[SwissLine]:
        return self.get(swiss_id).standings()


__all__ = ["A", "B", "DRAW", "KIND", "NEITHER", "NoPairing", "Swiss", "SwissLine", "Swisses", "pair_round"]
