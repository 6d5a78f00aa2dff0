"""Watching a club table: the replay viewer (scenes.replay) fed live by a
game.online.client.watchclient.SpectatorFeed — the server's spectator stream, nobody's hand, one
decision late. It opens at the latest line and follows the match as it is played; the
viewer's keys step back through what was played (← →, Page Up/Down, Home/End, Space, + −,
Tab the seat at the bottom, L the log, S the score sheet); Esc goes back to the club's lobby.

Every hand is a row of backs: the stream carries no hidden card, so there is nothing to turn
face up (V changes nothing here). The players' names come from the table's public lobby; the
line under the table says how many watch and that the view runs one decision late.
"""

from __future__ import annotations

from game.card_names import Translate
from game.online.client.watchclient import SpectatorFeed
from game.services.table_session import Capabilities
from scenes.replay import timeline as T
from scenes.replay.scene import ReplayScene
from scenes.scene import AppServices

#: What the viewer's names read of a watched table: the players' own names, no "You".
WATCHED = Capabilities(given_names=True)


class WatchedNames:
    """The seats' names as the table's public lobby gives them (friends by name; a computer
    seat by its level), for the table's own name plates (scenes.table.view.TableNames)."""

    capabilities = WATCHED

    def __init__(self, feed: SpectatorFeed, t: Translate):
        self.feed = feed
        self.t = t

    def seat_names(self) -> dict[int, str]:
        seats = (self.feed.lobby or {}).get("seats")
        out: dict[int, str] = {}
        for i, s in enumerate(seats if isinstance(seats, list) else []):
            if not isinstance(s, dict):
                continue
            if isinstance(s.get("name"), str) and s["name"].strip():
                out[i] = s["name"].strip()[:20]
            elif s.get("level") in ("easy", "normal", "hard"):
                out[i] = self.t("online.computer", level=self.t(f"ai.{s['level']}"))
        return out


class SpectatorScene(ReplayScene):
    #: Every hand is hidden from a spectator: nothing to turn face up.
    hands_offered = False

    def __init__(self, app: AppServices, feed: SpectatorFeed):
        self.feed = feed
        self.names_source = WatchedNames(feed, app.t)
        tl = T.from_events(feed.pull(), feed.code, live=True)
        tl.given = self.names_source.seat_names()  # the captions name the players as the plates do
        super().__init__(app, tl, seat=0, step=tl.limit, open_hands=False, live=feed, playing=True, player=None)

    def toggle_hands(self) -> None:
        """Nothing to turn face up: a spectator is sent no hidden card."""

    def open_coach(self) -> None:
        """No coach on a match being played."""

    def update(self, dt: float) -> None:
        self.feed.poll()  # the watchers' count and the server's refusals, also while stepping back
        super().update(dt)

    def status_text(self) -> str:
        if self.feed.problem is None and not self.timeline.finished:
            return self.t("manners.watch_status", count=self.feed.watchers)
        return super().status_text()

    def speech_opening(self) -> list[str]:
        return [self.t("manners.watch_status", count=self.feed.watchers)]


def sample_feed(app: AppServices, game: str | None = None, players: int | None = None) -> SpectatorFeed:
    """A feed that never connects, holding half of a demo match as a spectator sees it
    (``--screenshot --scene online_watch``, the text-fit check)."""
    from game.online.server.spectate import spectator_events
    from game.rulesets import make_rules
    from scenes.replay import demo_events

    events = demo_events(app, game, players)
    head = events[0]
    rules = make_rules(head["game"], head["deck"], head["players"], head["options"])
    feed = SpectatorFeed("ws://127.0.0.1:7420", "SAMPLE", "", connect=False)
    names = ["Anna", "Bruno", "Chiara", "Dario"]
    feed.lobby = {
        "code": "SAMPLE",
        "game": rules.game_id,
        "players": rules.players,
        "seats": [{"kind": "friend", "name": names[i], "level": None} for i in range(rules.players)],
    }
    feed.events = spectator_events(rules, events)[: max(2, len(events) // 2)]
    feed.watchers = 3
    return feed


def create(
    app: AppServices,
    feed: SpectatorFeed | None = None,
    game: str | None = None,
    players: int | None = None,
    **params: object,
) -> SpectatorScene:
    """The spectator's view of ``feed`` (opened from a club's lobby); without one, a sample."""
    return SpectatorScene(app, feed if feed is not None else sample_feed(app, game, players))


__all__ = ["SpectatorScene", "WatchedNames", "create"]
