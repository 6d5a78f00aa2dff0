"""Limits on what one account may start (docs/ONLINE.md, "Events"): challenges sent a day,
challenges open at once, arenas and Swiss tournaments made a day. The server's owner (an
event made with no creator: the schedule file or an admin command) has no limit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from game.online.server.events.common import EventRefusal
from game.online.server.events.store import EventStore

DAY = dt.timedelta(days=1)
#: The kinds of event an account may make (counted together against ``events_per_day``).
MADE_KINDS = ("arena", "swiss")


@dataclass(frozen=True)
class EventQuotas:
    #: Challenges one account may send in 24 hours.
    challenges_per_day: int = 20
    #: Challenges of one account (sent, not yet accepted or declined) open at once.
    open_challenges: int = 5
    #: Arenas and Swiss tournaments one account may make in 24 hours.
    events_per_day: int = 2


def check_created(
    store: EventStore, creator: str | None, kinds: Sequence[str], limit: int, now: dt.datetime, what: str
) -> None:
    """EventRefusal ``quota`` when ``creator`` made ``limit`` events of ``kinds`` in the last 24 hours."""
    if creator is None:
        return
    made = sum(store.count_created(creator, k, now - DAY) for k in kinds)
    if made >= limit:
        raise EventRefusal("quota", f"the limit of {what} a day ({limit}) is reached; try again later")


__all__ = ["MADE_KINDS", "EventQuotas", "check_created"]
