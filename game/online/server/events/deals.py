"""The deals an event deals: each derived from the event's secret seed and its number, with
the settings of the game and preset's daily deal (game.services.daily: its first deck, the
preset's first player count and options), and a played deal's record checked against it."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib

from game.match import Match
from game.online.server.events.common import EventRefusal
from game.rules.base import Event
from game.services.daily import daily_deal
from game.services.par import Deal, seat_score
from game.verify import verify_events

#: Secret seeds of events: 128 bits from :mod:`secrets`.
SEED_BYTES = 16


def derived_seed(prefix: str, seed: int, index: int) -> int:
    """Deal ``index``'s seed of an event whose secret is ``seed``: the SHA-256 of
    ``PREFIX|SEED|INDEX`` as a 256-bit number (anyone can check it once the seed is out)."""
    return int.from_bytes(hashlib.sha256(f"{prefix}|{seed}|{index}".encode()).digest(), "big")


def settings_deal(game: str, preset: str | None, day: dt.date) -> tuple[Deal, str]:
    """The game and preset's deal settings (seed still to set) and the preset word;
    ValueError (one line) for an unknown game or preset."""
    d = daily_deal(game, preset, day)
    return d.deal, d.preset


def with_seed(deal: Deal, seed: int) -> Deal:
    return dataclasses.replace(deal, seed=seed)


def score_record(deal: Deal, events: list[Event], seat: int) -> int:
    """The score of ``seat`` in a record of ``deal``; EventRefusal ``record`` unless the record
    verifies and deals exactly ``deal`` (seed, game, deck, players, options, the cards)."""
    if not events:
        raise EventRefusal("record", "the record is empty")
    v = verify_events(events)
    if not v.ok:
        raise EventRefusal("record", f"the record does not verify ({v})")
    head = events[0]
    rules = deal.rules()
    if (
        head.get("seed") != deal.seed
        or head.get("game") != deal.game
        or head.get("players") != deal.players
        or head.get("deck") != rules.deck.id
        or head.get("options") != dict(rules.options)
    ):
        raise EventRefusal("record", "the record is not a play of this deal with its settings")
    mine = next(e for e in Match(rules, deal.seed).start() if e["event"] == "deal")
    theirs = next((e for e in events if e.get("event") == "deal"), None)
    if theirs is None or any(theirs.get(f) != mine[f] for f in ("dealer", "hands", "table", "stock", "trump")):
        raise EventRefusal("record", "the record's deal is not the one this deal's seed deals")
    end = next((e for e in events if e.get("event") == "deal_end"), None)
    points = end.get("points") if end is not None else None
    if not isinstance(points, list):
        raise EventRefusal("record", "the record has no finished deal")
    return seat_score(rules, points, seat)


__all__ = ["SEED_BYTES", "derived_seed", "score_record", "settings_deal", "with_seed"]
