"""Joining events from the window (scenes.online.events): an arena joined, paused and come back
to, a Swiss tournament registered for (or left), a challenge accepted or declined.

These go over one lasting connection (game.online.client.events.EventLink), opened at the
first such question and kept while the screen is on the stack: the server sends an arena's
and a Swiss round's tables to the connection that joined. A table sent is opened as any
online table once the screen is idle; a bye is said. Leaving the screen pauses the arenas
joined from it (nobody would take their seats) and closes the connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.online.client.events import EventLink, TourSession
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject
from scenes.online import hosting
from scenes.online.address import shown_address
from scenes.online.events_data import Item, obj_of, text_of
from scenes.scene import AppServices


def pending_for_me(item: Item | None) -> bool:
    """A challenge sent to the player and waiting for their answer."""
    return (
        item is not None
        and item.kind == "challenge"
        and item.event.get("status") == "pending"
        and not item.event.get("sent")
    )


class Joining:
    """The events screen's joining (a mixin of scenes.online.events.EventsScene)."""

    link: EventLink | None = None
    #: Tables an arena or a Swiss round sent, waiting for the screen to be idle: (code, token).
    tables: list[tuple[str, str]]
    app: AppServices
    url: str
    player: str
    problem: str | None
    status: str | None
    connecting: hosting.Connecting | None

    if TYPE_CHECKING:  # the scene's own, for the type checker (a stub here would shadow them)

        def t(self, key: str, **params: object) -> str: ...

        def selected_item(self) -> Item | None: ...

        def items(self) -> list[Item]: ...

        def refresh(self) -> None: ...

        def _secret(self) -> str | None: ...

        @property
        def idle(self) -> bool: ...

    def _link(self) -> EventLink | None:
        if self.link is None and self.url and hosting.network_allowed(self.app):
            from game.online.client import daily_client as dc

            self.link = EventLink(self.url, self.player, dc.account_message(self.player, self._secret()))
        return self.link

    def _say(self, text: str) -> None:
        self.status = text
        self.app.say(text, interrupt=True)

    def join_label(self) -> str:
        item = self.selected_item()
        if item is None:
            return ""
        e = item.event
        if item.kind == "arena":
            if self.link is not None and text_of(e.get("id"), 80) in self.link.arenas:
                return self.t("club_events.pause_arena")
            return self.t("club_events.come_back" if e.get("joined") else "club_events.join_arena")
        if item.kind == "swiss":
            return self.t("club_events.leave_swiss" if e.get("registered") else "club_events.register")
        return self.t("club_events.accept")

    def can_join(self) -> bool:
        item = self.selected_item()
        if item is None:
            return False
        if item.kind == "arena":
            return True
        if item.kind == "swiss":
            return bool(item.event.get("open")) or bool(item.event.get("registered"))
        return pending_for_me(item)

    def enter_joins(self) -> bool:
        """Whether the chosen event's join is a join (an arena not joined here, a Swiss
        tournament not registered for, a challenge to answer), not a pause or a withdrawal."""
        item = self.selected_item()
        if item is None or not self.can_join():
            return False
        if item.kind == "arena":
            return self.link is None or text_of(item.event.get("id"), 80) not in self.link.arenas
        return item.kind == "challenge" or not item.event.get("registered")

    def _send(self, message: dict) -> None:
        link = self._link()
        if link is None:
            return
        try:
            link.send(message)
        except P.ProtocolError as e:
            self.problem = self.t("club_events.refused", reason=str(e))
            return
        self.problem = None
        self.status = self.t("club_events.asking")

    def join(self) -> None:
        """The chosen event's join: an arena joined (or paused, or come back to), a Swiss
        tournament registered for (or left), a challenge sent to the player accepted."""
        item = self.selected_item()
        if item is None or not self.can_join():
            return
        eid = text_of(item.event.get("id"), 80)
        if item.kind == "arena":
            paused = self.link is not None and eid in self.link.arenas
            self._send({"type": "arena_pause" if paused else "arena_join", "id": eid})
        elif item.kind == "swiss":
            kind = "swiss_leave" if item.event.get("registered") else "swiss_register"
            self._send({"type": kind, "id": eid} | ({} if item.event.get("registered") else {"partner": None}))
        else:
            self._send({"type": "challenge_answer", "id": eid, "accept": True})

    def pause(self) -> None:
        item = self.selected_item()
        if item is not None and item.kind == "arena" and self.link is not None:
            eid = text_of(item.event.get("id"), 80)
            if eid in self.link.arenas:
                self._send({"type": "arena_pause", "id": eid})

    def decline(self) -> None:
        item = self.selected_item()
        if pending_for_me(item) and item is not None:
            self._send({"type": "challenge_answer", "id": text_of(item.event.get("id"), 80), "accept": False})

    def reattach(self) -> None:
        """The Swiss tournaments the player is registered for, asked again on this screen's
        connection (registering again only changes where the rounds' tables are sent)."""
        for item in self.items():
            sid = text_of(item.event.get("id"), 80)
            if (
                item.kind == "swiss"
                and item.event.get("registered")
                and (self.link is None or sid not in self.link.swiss)
            ):
                self._send({"type": "swiss_register", "id": sid, "partner": None})

    def poll_link(self) -> None:
        """What the lasting connection brought: said, the list asked again, a table opened."""
        if self.link is not None:
            for m in self.link.poll():
                self._heard(m)
        if self.tables and self.idle:
            code, token = self.tables.pop(0)
            try:
                session = TourSession(self.url, code, self.player, token)
            except ValueError as e:
                self.problem = self.t("club_events.refused", reason=str(e))
                return
            session.result_wait = 0.0
            self.connecting = hosting.Connecting(session, shown_address(self.url))

    def _heard(self, m: JsonObject) -> None:
        kind = m.get("type")
        if kind == "error":
            self.status, self.problem = (
                None,
                self.t("club_events.refused", reason=text_of(m.get("message") or m.get("code"), 200)),
            )
        elif kind == "_lost":
            self.link = None
            self.status, self.problem = None, self.t("club_events.lost")
        elif kind == "arena":
            me = obj_of(m.get("me"))
            self._say(self.t("club_events.paused" if me.get("paused") else "club_events.joined"))
            self.refresh()
        elif kind == "swiss":
            mine = m.get("me") is not None
            self._say(self.t("club_events.registered" if mine else "club_events.left"))
            self.refresh()
        elif kind == "challenge":
            status = obj_of(m.get("challenge")).get("status")
            self._say(self.t("club_events.accepted" if status == "accepted" else "club_events.declined"))
            self.refresh()
        elif kind in ("arena_found", "swiss_round"):
            code, token = m.get("code"), m.get("token")
            if isinstance(code, str) and isinstance(token, str):
                self.tables.append((code, token))
                self._say(self.t("club_events.table_ready"))
            else:
                self._say(self.t("club_events.bye", round=m.get("round")))

    def close_link(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
        self.tables.clear()


__all__ = ["Joining", "pending_for_me"]
