"""All the events of a club behind one door, and their JSON forms (what the messages and the
web pages would carry; docs/ONLINE.md, "Events"): the list a player opens (today's
tournaments, the arenas running and coming, the Swiss tournaments to join or under way, their
challenges), built from the store on the server's clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from game.online.server.events.arena import Arena, ArenaLine, Arenas
from game.online.server.events.challenges import DONE, Challenges, ChallengeView
from game.online.server.events.common import Clock, iso
from game.online.server.events.quotas import EventQuotas
from game.online.server.events.store import EventStore
from game.online.server.events.swiss import KIND as SWISS
from game.online.server.events.swiss import Swiss, Swisses, SwissLine
from game.online.server.events.tourday import DEFAULT_DEALS, FieldView, Standing, TourOfDay
from game.rules.vocabulary import JsonObject


def standing_json(s: Standing) -> JsonObject:
    return {"rank": s.rank, "name": s.name, "percent": s.percent, "played": s.played, "ended": s.ended}


def field_json(f: FieldView) -> JsonObject:
    out = asdict(f)
    out["spread"] = [[score, n] for score, n in f.spread]
    return out


def arena_line_json(ln: ArenaLine) -> JsonObject:
    out = asdict(ln)
    del out["player"]  # a name is shown, never an account id
    return out


def swiss_line_json(ln: SwissLine) -> JsonObject:
    out = asdict(ln)
    del out["entrant"]
    return out


def challenge_json(v: ChallengeView, viewer: str) -> JsonObject:
    """A challenge as ``viewer`` sees it: names, never account ids; the difference and the
    outcome from the viewer's side."""
    sent = v.sender == viewer
    diff = v.difference if v.difference is None or sent else -v.difference
    outcome = None
    if v.status == DONE:
        outcome = "draw" if v.winner is None else "won" if v.winner == viewer else "lost"
    return {
        "id": v.id,
        "game": v.game,
        "preset": v.preset,
        "sent": sent,
        "opponent": v.receiver_name if sent else v.sender_name,
        "deals": v.deals,
        "status": v.status,
        "deadline": v.deadline,
        "mine": {str(i): s for i, s in v.mine.items()},
        "theirs": {str(i): s for i, s in v.theirs.items()},
        "difference": diff,
        "outcome": outcome,
        "forfeit": v.forfeit,
        "hash": v.hash,
        "seed": v.seed,
    }


class EventsHub:
    """The club's events: ``games`` the (game, preset or None) pairs with a tournament of the day."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        games: Sequence[tuple[str, str | None]],
        deals: int = DEFAULT_DEALS,
        challenge_deals: int = 4,
        challenge_days: int = 3,
        quotas: EventQuotas | None = None,
    ):
        self.store, self.clock, self.games = store, clock, list(games)
        self.tod = TourOfDay(store, deals)
        self.arenas = Arenas(store, quotas)
        self.swisses = Swisses(store, quotas)
        self.challenges = Challenges(store, clock, challenge_deals, challenge_days, quotas)

    def listing(self, player: str | None) -> JsonObject:
        """The events list as ``player`` (None: a visitor of the web pages) sees it."""
        now = self.clock()
        day = now.date().isoformat()
        tournaments = []
        for game, preset in self.games:
            tid = self.tod.ensure(day, game, preset, now)
            line = self.tod.public(tid, now)
            if player is not None:
                line["me"] = self.tod.progress(tid, player)
            tournaments.append(line)
        arenas = []
        for stored in self.store.events("arena", unfinished=True):
            a = Arena(stored.state)
            if a.end > now:
                arenas.append(
                    {
                        "id": stored.id,
                        "game": a.s["game"],
                        "preset": a.s["preset"],
                        "start": iso(a.start),
                        "end": iso(a.end),
                        "running": a.running(now),
                        "players": len(a.players()),
                        "joined": player in a.players() if player else False,
                    }
                )
        swiss = []
        for stored in self.store.events(SWISS, unfinished=True):
            s = Swiss(stored.state)
            if not s.finished:
                swiss.append(
                    {
                        "id": stored.id,
                        "game": s.s["game"],
                        "preset": s.s["preset"],
                        "start": s.s["starts"],
                        "rounds": s.s["rounds"],
                        "round": len(s.rounds()),
                        "team_size": s.s["team_size"],
                        "entrants": len(s.entrants()),
                        "open": not s.rounds() and now < s.starts(),
                        "registered": player is not None and s.member_of(player) is not None,
                        "waiting": s.waiting_for(player, now),
                        "asked": s.asked_by(player, now)[:20],
                    }
                )
        mine = [challenge_json(v, player) for v in self.challenges.of(player)] if player else []
        return {"tournaments": tournaments, "arenas": arenas, "swiss": swiss, "challenges": mine}


__all__ = [
    "EventsHub",
    "arena_line_json",
    "challenge_json",
    "field_json",
    "standing_json",
    "swiss_line_json",
]
