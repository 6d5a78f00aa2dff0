"""Challenges (docs/ONLINE.md, "Events"): a player challenges another of the club by name to a
duplicate match of a few deals (``deals``, 4 unless the server says otherwise). Each plays the
same deals in the same seat against the house bots, whenever they like within ``days`` (a
server setting); the result is the duplicate difference — the challenger's scores minus the
challenged player's, deal by deal, summed — listed for both.

- The challenged player accepts or declines within ``days``, else the challenge expires.
- After the acceptance each has ``days`` to play every deal. At that deadline a side that has
  played every deal beats one that has not (a forfeit; the difference still counts the deals
  both played); when neither has, the challenge ends with no winner.
- A player sees the other's result on a deal only once they have played it themselves (or
  the challenge is over).
- The deals come from a 128-bit seed drawn with :mod:`secrets`, never shown before the end;
  its commitment is (SHA-256 of ``cardavia-online-challenge|ID|SEED|NONCE``).

Time is the injected ``clock`` (tests move it). Quotas: challenges sent a day and open at once
(game.online.server.events.quotas).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from game.online.server.events.common import Clock, EventRefusal, from_iso, integer, iso, number, obj, text
from game.online.server.events.deals import SEED_BYTES, derived_seed, settings_deal, with_seed
from game.online.server.events.quotas import EventQuotas, check_created
from game.online.server.events.store import EventStore, change
from game.rules.vocabulary import JsonObject
from game.services.par import Deal

KIND = "challenge"
PREFIX = "cardavia-online-challenge"
DEFAULT_DEALS = 4
DEFAULT_DAYS = 3
PENDING, ACCEPTED, DECLINED, EXPIRED, DONE, WITHDRAWN = (
    "pending",
    "accepted",
    "declined",
    "expired",
    "done",
    "withdrawn",
)
OPEN = (PENDING, ACCEPTED)

_R = TypeVar("_R")


def commitment(challenge_id: str, seed: int, nonce: str) -> str:
    return hashlib.sha256(f"{PREFIX}|{challenge_id}|{seed}|{nonce}".encode()).hexdigest()


@dataclass(frozen=True)
class ChallengeView:
    """A challenge as ``viewer`` may see it."""

    id: str
    game: str
    preset: str
    sender: str
    sender_name: str
    receiver: str
    receiver_name: str
    deals: int
    status: str
    deadline: str
    mine: dict[int, float]
    theirs: dict[int, float]  # only the deals the viewer has played, all once over
    difference: float | None  # the sender's side: their scores minus the receiver's, once over
    winner: str | None
    forfeit: bool
    hash: str
    seed: str | None  # once over


class Challenge:
    """One challenge's state (a JSON object, as stored) and its rules."""

    def __init__(self, state: JsonObject):
        self.s = state

    @property
    def status(self) -> str:
        return text(self.s["status"])

    def sides(self) -> tuple[str, str]:
        return text(self.s["from"]), text(self.s["to"])

    def results(self, player: str) -> dict[int, float]:
        mine = obj(obj(self.s["results"]).get(player, {}))
        return {int(i): number(obj(v)["score"]) for i, v in mine.items()}

    def settle(self, now: dt.datetime) -> None:
        """Expire or end the challenge when its time is up, or end it once both have played."""
        n = integer(self.s["deals"])
        a, b = self.sides()
        ra, rb = self.results(a), self.results(b)
        if self.status == PENDING and now >= from_iso(self.s["deadline"]):
            self.s["status"] = EXPIRED
        elif self.status == ACCEPTED and ((len(ra) == n and len(rb) == n) or now >= from_iso(self.s["deadline"])):
            both = set(ra) & set(rb)
            diff = sum(ra[i] - rb[i] for i in both)
            done_a, done_b = len(ra) == n, len(rb) == n
            if done_a != done_b:
                winner: str | None = a if done_a else b
                self.s["forfeit"] = True
            else:
                winner = None if (diff == 0 or not done_a) else (a if diff > 0 else b)
                self.s["forfeit"] = False
            self.s.update(status=DONE, difference=diff, winner=winner, ended=iso(now))

    def accept(self, player: str, now: dt.datetime, days: int) -> None:
        self.settle(now)
        if player != self.sides()[1]:
            raise EventRefusal("not_yours", "only the challenged player answers a challenge")
        if self.status != PENDING:
            raise EventRefusal(self.status, f"this challenge is {self.status}")
        self.s.update(status=ACCEPTED, accepted=iso(now), deadline=iso(now + dt.timedelta(days=days)))

    def decline(self, player: str, now: dt.datetime) -> None:
        self.settle(now)
        a, b = self.sides()
        if player not in (a, b):
            raise EventRefusal("not_yours", "this challenge is not yours")
        if self.status != PENDING:
            raise EventRefusal(self.status, f"this challenge is {self.status}")
        self.s["status"] = DECLINED if player == b else WITHDRAWN

    def begin(self, player: str, index: int, code: str, now: dt.datetime) -> None:
        self.settle(now)
        if player not in self.sides():
            raise EventRefusal("not_yours", "this challenge is not yours")
        if self.status != ACCEPTED:
            raise EventRefusal(self.status, f"this challenge is {self.status}")
        if not 0 <= index < integer(self.s["deals"]):
            raise EventRefusal("order", "no such deal")
        begun = obj(obj(self.s["begun"]).setdefault(player, {}))
        if str(index) in begun:
            raise EventRefusal("begun", "this deal has already been dealt to you")
        begun[str(index)] = code

    def finish(self, player: str, index: int, code: str, score: float, now: dt.datetime) -> None:
        self.settle(now)
        if self.status != ACCEPTED:
            raise EventRefusal(self.status, f"this challenge is {self.status}")
        if obj(obj(self.s["begun"]).get(player, {})).get(str(index)) != code:
            raise EventRefusal("record", "this table was not dealt this deal for this player")
        mine = obj(obj(self.s["results"]).setdefault(player, {}))
        if str(index) in mine:
            raise EventRefusal("played", "this deal already has a result")
        mine[str(index)] = {"score": score, "record": code}
        self.settle(now)

    def view(self, viewer: str) -> ChallengeView:
        a, b = self.sides()
        if viewer not in (a, b):
            raise EventRefusal("not_yours", "this challenge is not yours")
        other = b if viewer == a else a
        over = self.status not in OPEN
        mine, theirs = self.results(viewer), self.results(other)
        seed = text(self.s["seed"])
        return ChallengeView(
            id=text(self.s["id"]),
            game=text(self.s["game"]),
            preset=text(self.s["preset"]),
            sender=a,
            sender_name=text(self.s["from_name"]),
            receiver=b,
            receiver_name=text(self.s["to_name"]),
            deals=integer(self.s["deals"]),
            status=self.status,
            deadline=text(self.s["deadline"]),
            mine=mine,
            theirs={i: s for i, s in theirs.items() if over or i in mine},
            difference=number(self.s["difference"]) if self.status == DONE else None,
            winner=text(self.s["winner"]) if self.status == DONE and self.s.get("winner") else None,
            forfeit=bool(self.s.get("forfeit")),
            hash=commitment(text(self.s["id"]), int(seed), text(self.s["nonce"])),
            seed=seed if over else None,
        )


class Challenges:
    """The challenges kept in ``store``, on the server's ``clock``."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        deals: int = DEFAULT_DEALS,
        days: int = DEFAULT_DAYS,
        quotas: EventQuotas | None = None,
    ):
        if deals < 1 or days < 1:
            raise ValueError("a challenge needs at least one deal and one day")
        self.store, self.clock, self.deals, self.days = store, clock, deals, days
        self.quotas = quotas or EventQuotas()

    def send(
        self, sender: str, sender_name: str, receiver: str, receiver_name: str, game: str, preset: str | None
    ) -> str:
        """A challenge from ``sender`` to ``receiver`` (accounts ``p:<id>``, the server found
        the receiver by name); ValueError for a bad game or preset, EventRefusal otherwise."""
        now = self.clock()
        if sender == receiver:
            raise EventRefusal("self", "a challenge is for another player")
        _, word = settings_deal(game, preset, now.date())
        check_created(self.store, sender, (KIND,), self.quotas.challenges_per_day, now, "challenges")
        mine = [c for c in self._all(now) if c.sides()[0] == sender and c.status == PENDING]
        if len(mine) >= self.quotas.open_challenges:
            raise EventRefusal("quota", f"at most {self.quotas.open_challenges} challenges waiting for an answer")
        cid = f"{KIND}:{secrets.token_hex(8)}"
        state: JsonObject = {
            "id": cid,
            "game": game,
            "preset": word,
            "day": now.date().isoformat(),
            "from": sender,
            "from_name": sender_name,
            "to": receiver,
            "to_name": receiver_name,
            "deals": self.deals,
            "seed": str(int.from_bytes(secrets.token_bytes(SEED_BYTES), "big")),
            "nonce": secrets.token_hex(SEED_BYTES),
            "status": PENDING,
            "created": iso(now),
            "deadline": iso(now + dt.timedelta(days=self.days)),
            "begun": {},
            "results": {},
        }
        if not self.store.create(cid, KIND, sender, state, now):
            raise EventRefusal("exists", "an event with this id exists")
        return cid

    def _all(self, now: dt.datetime) -> list[Challenge]:
        out = []
        for stored in self.store.events(KIND):
            c = Challenge(stored.state)
            if c.status in OPEN:
                before = c.status
                c.settle(now)
                if c.status != before:
                    c = Challenge(self._do(stored.id, lambda x: x.s))
            out.append(c)
        return out

    def _do(self, cid: str, fn: Callable[[Challenge], _R]) -> _R:
        now = self.clock()

        def step(state: JsonObject) -> tuple[JsonObject, _R]:
            c = Challenge(state)
            c.settle(now)
            return c.s, fn(c)

        return change(self.store, cid, step)

    def deals_of(self, cid: str) -> list[Deal]:
        """The challenge's deals (secret: for the server's own tables only)."""
        c = self._get(cid)
        base, _ = settings_deal(text(c.s["game"]), text(c.s["preset"]), dt.date.fromisoformat(text(c.s["day"])))
        seed = int(text(c.s["seed"]))
        return [with_seed(base, derived_seed(PREFIX, seed, i)) for i in range(integer(c.s["deals"]))]

    def _get(self, cid: str) -> Challenge:
        stored = self.store.load(cid)
        if stored is None or stored.kind != KIND:
            raise EventRefusal("unknown", "no such challenge")
        return Challenge(stored.state)

    def accept(self, cid: str, player: str) -> None:
        self._do(cid, lambda c: c.accept(player, self.clock(), self.days))

    def decline(self, cid: str, player: str) -> None:
        self._do(cid, lambda c: c.decline(player, self.clock()))

    def begin(self, cid: str, player: str, index: int, code: str) -> Deal:
        self._do(cid, lambda c: c.begin(player, index, code, self.clock()))
        return self.deals_of(cid)[index]

    def finish(self, cid: str, player: str, index: int, code: str, score: float) -> None:
        self._do(cid, lambda c: c.finish(player, index, code, score, self.clock()))

    def view(self, cid: str, viewer: str) -> ChallengeView:
        return self._do(cid, lambda c: c.view(viewer))

    def of(self, player: str) -> list[ChallengeView]:
        """Every challenge ``player`` sent or received, newest first, as they may see it."""
        mine = [c for c in self._all(self.clock()) if player in c.sides()]
        mine.sort(key=lambda c: (text(c.s["created"]), text(c.s["id"])), reverse=True)
        return [c.view(player) for c in mine]


__all__ = ["DEFAULT_DAYS", "DEFAULT_DEALS", "KIND", "ChallengeView", "Challenges", "commitment"]
