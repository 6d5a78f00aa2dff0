"""Quick match (docs/ONLINE.md, "Quick match"): players wait per game and preset; they are
paired by rating in a window that widens with the time waited, never with someone they
blocked or who blocked them; after ``--quick-wait`` seconds with no person the computer fills
the seats (its level the one whose published rating is nearest the player's).

:func:`pair` is the pure part (sorted by rating, one pass: 1,000 waiting players pair in a few
ms — bench/server_load.py); :class:`QuickQueue` keeps the waiting players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from game.online.server.ratings import COMPUTER_RATINGS
from game.rules.vocabulary import JsonObject

#: The rating window (in OpenSkill mu) at first, and how fast it widens a second waited.
WINDOW_START = 2.0
WINDOW_PER_SECOND = 0.5
#: Levels the computer fills a quick match with (greedy is a test bot, not a partner).
FILL_LEVELS = ("easy", "normal", "hard")


class Waiter(Protocol):
    """A waiting player's connection as the pairing sees it: this process's, or one on
    another process of the cluster (game.online.server.cluster.quickshare)."""

    number: int
    name: str | None
    closing: bool

    def send(self, message: JsonObject) -> None: ...


@dataclass
class Waiting:
    """One player waiting: the connection (opaque here), the account, the rating's mu, since
    when (monotonic) and everyone they may not be matched with."""

    conn: Waiter
    player: int
    mu: float
    since: float
    blocked: set[int] = field(default_factory=set)
    #: Its entry's key in the cluster's shared queue (game.online.server.cluster.quickshare), else None.
    entry: str | None = field(default=None, compare=False, repr=False)


def window(waited: float) -> float:
    return WINDOW_START + WINDOW_PER_SECOND * max(0.0, waited)


def fill_level(mu: float, levels: tuple[str, ...] = FILL_LEVELS) -> str:
    """The computer level (of ``levels``) whose published rating is nearest ``mu``."""
    return min(levels or FILL_LEVELS, key=lambda lvl: abs(COMPUTER_RATINGS[lvl][0] - mu))


def pair(waiting: list[Waiting], need: int, now: float, fill_after: float) -> list[tuple[list[Waiting], int]]:
    """Groups to seat now: (people, computers to add). People are grouped in rating order
    when the group's spread fits the window of every member (the narrowest: the one who
    waited least); a player who has waited ``fill_after`` seconds takes whoever is
    still waiting nearest (up to ``need``) and the computer fills the rest."""
    ordered = sorted(waiting, key=lambda w: w.mu)
    taken: set[int] = set()
    groups: list[tuple[list[Waiting], int]] = []
    for i, first in enumerate(ordered):
        if id(first) in taken:
            continue
        group = [first]
        for other in ordered[i + 1 :]:
            if len(group) == need:
                break
            if id(other) in taken or any(
                other.player == g.player or other.player in g.blocked or g.player in other.blocked for g in group
            ):
                continue
            spread = other.mu - group[0].mu
            if spread > min(window(now - g.since) for g in [*group, other]):
                break  # sorted: everyone further is further still
            group.append(other)
        if len(group) == need:
            groups.append((group, 0))
            taken.update(id(g) for g in group)
    # Those who waited long enough: the nearest still waiting, then the computer.
    for w in ordered:
        if id(w) in taken or now - w.since < fill_after:
            continue
        rest = [
            o
            for o in ordered
            if id(o) not in taken
            and o is not w
            and o.player != w.player
            and o.player not in w.blocked
            and w.player not in o.blocked
        ]
        rest.sort(key=lambda o: abs(o.mu - w.mu))
        group = [w]
        for o in rest:
            if len(group) == need:
                break
            if all(o.player not in g.blocked and g.player not in o.blocked for g in group):
                group.append(o)
        groups.append((group, need - len(group)))
        taken.update(id(g) for g in group)
    return groups


class WaitingRoom(Protocol):
    """What the club asks of its queue: a :class:`QuickQueue`, or a cluster's shared one
    (game.online.server.cluster.quickshare, which also pairs the players itself: ``pair_round``)."""

    @property
    def buckets(self) -> dict[tuple[str, str], list[Waiting]]: ...

    def add(self, key: tuple[str, str], entry: Waiting) -> None: ...

    def remove(self, conn: object) -> bool: ...

    def waiting(self) -> int: ...


class QuickQueue:
    """The waiting players per (game, preset)."""

    def __init__(self) -> None:
        self.buckets: dict[tuple[str, str], list[Waiting]] = {}

    def add(self, key: tuple[str, str], entry: Waiting) -> None:
        self.remove(entry.conn)
        self.buckets.setdefault(key, []).append(entry)

    def remove(self, conn: object) -> bool:
        found = False
        for key in list(self.buckets):
            kept = [w for w in self.buckets[key] if w.conn is not conn]
            found = found or len(kept) != len(self.buckets[key])
            if kept:
                self.buckets[key] = kept
            else:
                del self.buckets[key]
        return found

    def waiting(self) -> int:
        return sum(len(b) for b in self.buckets.values())


__all__ = ["FILL_LEVELS", "QuickQueue", "Waiting", "WaitingRoom", "fill_level", "pair", "window"]
