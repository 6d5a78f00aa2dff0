"""Joining events from the window (scenes.online.events): an arena joined, paused and come back
to, a Swiss tournament registered for (or left), a challenge accepted or declined.

A Swiss tournament of a partnership game takes teams of two registered together, each with
the other's consent: the partner's name is typed in the field that shows for it, and the
screen says "waiting for NAME to confirm" until the partner registers naming the player back
(their list shows "NAME asked you to play as a team", and the join button registers with
NAME); the team is entered then, and their rounds' tables are sent to whichever of the team's
connections registered last. Withdrawing (the same button) takes the offer back.

These go over one lasting connection (game.online.client.events.EventLink), opened at the
first such question and kept while the screen is on the stack: the server sends an arena's
and a Swiss round's tables to the connection that joined. A table sent is opened as any
online table once the screen is idle; a bye is said. Leaving the screen pauses the arenas
joined from it (nobody would take their seats) and closes the connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.online.client.eventlink import EventLink
from game.online.client.events import TourSession
from game.online.wire import protocol as P
from game.rules.vocabulary import JsonObject
from scenes.online import hosting
from scenes.online.address import AddressError, clean_name, shown_address
from scenes.online.events_data import Item, num_of, obj_of, text_of
from scenes.online.fields import TextField
from scenes.scene import AppServices
from sprites.focus import UI


def pending_for_me(item: Item | None) -> bool:
    """A challenge sent to the player and waiting for their answer."""
    return (
        item is not None
        and item.kind == "challenge"
        and item.event.get("status") == "pending"
        and not item.event.get("sent")
    )


def waiting(item: Item | None) -> str | None:
    """The partner the player named in a Swiss tournament and waits for, or None."""
    if item is None or item.kind != "swiss" or item.event.get("registered"):
        return None
    name = text_of(item.event.get("waiting"), 40)
    return name or None


def asked_by(item: Item | None) -> list[str]:
    """The players who named this one as their partner in an open Swiss tournament."""
    if item is None or item.kind != "swiss" or item.event.get("registered") or not item.event.get("open"):
        return []
    names = item.event.get("asked")
    return [n for n in (text_of(v, 40) for v in names) if n] if isinstance(names, list) else []


def partnership(item: Item | None) -> bool:
    """A Swiss tournament whose entrants are teams (registered with a partner)."""
    return item is not None and item.kind == "swiss" and num_of(item.event.get("team_size")) > 1


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
    partner_field: TextField
    ui: UI
    #: Per Swiss tournament, the team the player is registered in (as the server named it).
    teams: dict[str, str]
    #: The tables already handed on (a partnership's round may be sent for both seats).
    seen_codes: set[str] | None = None

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
            if e.get("registered") or waiting(item):
                return self.t("club_events.leave_swiss")
            asked = asked_by(item)
            if asked and not self.partner_field.text.strip():
                return self.t("club_events.register_with", partner=asked[0])
            return self.t("club_events.register_team" if partnership(item) else "club_events.register")
        return self.t("club_events.accept")

    def can_join(self) -> bool:
        item = self.selected_item()
        if item is None:
            return False
        if item.kind == "arena":
            return True
        if item.kind == "swiss":
            return bool(item.event.get("open")) or bool(item.event.get("registered")) or waiting(item) is not None
        return pending_for_me(item)

    def enter_joins(self) -> bool:
        """Whether the chosen event's join is a join (an arena not joined here, a Swiss
        tournament not registered for, a challenge to answer), not a pause or a withdrawal."""
        item = self.selected_item()
        if item is None or not self.can_join():
            return False
        if item.kind == "arena":
            return self.link is None or text_of(item.event.get("id"), 80) not in self.link.arenas
        return item.kind == "challenge" or not (item.event.get("registered") or waiting(item))

    def team_detail(self, item: Item) -> str:
        """What a Swiss tournament's line adds for a partnership: the player's team, or that
        it takes teams of two ("" for a tournament of single players)."""
        if not partnership(item):
            return ""
        partner, asked = waiting(item), asked_by(item)
        if partner:
            return " · " + self.t("club_events.swiss_waiting", partner=partner)
        if asked:
            return " · " + self.t("club_events.swiss_asked", partner=", ".join(asked[:3]))
        team = self.teams.get(text_of(item.event.get("id"), 80))
        return " · " + (self.t("club_events.swiss_team", team=team) if team else self.t("club_events.swiss_teams"))

    def asks_partner(self) -> bool:
        """The partner's field shows: a partnership Swiss tournament open, not registered for."""
        item = self.selected_item()
        return (
            partnership(item)
            and item is not None
            and bool(item.event.get("open"))
            and not item.event.get("registered")
            and waiting(item) is None
        )

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
        elif item.kind == "swiss" and (item.event.get("registered") or waiting(item)):
            self._send({"type": "swiss_leave", "id": eid})
        elif item.kind == "swiss":
            partner = None
            if partnership(item):
                asked = asked_by(item)
                # the field left empty: the one who asked is the partner (their offer confirmed)
                partner = asked[0] if asked and not self.partner_field.text.strip() else self._partner()
                if partner is None:
                    return
            self._send({"type": "swiss_register", "id": eid, "partner": partner})
            if partner is not None and self.problem is None:
                self._say(self.t("club_events.registering_team", partner=partner))
        else:
            self._send({"type": "challenge_answer", "id": eid, "accept": True})

    def _partner(self) -> str | None:
        """The partner's name from the field (focused and said when it is missing or wrong)."""
        typed = self.partner_field.text
        try:
            name = clean_name(typed)
        except AddressError as e:
            self.problem = None
            self._say(self.t("club_events.partner_needed") if e.key == "no_name" else self.t(f"online.{e.key}"))
            self.ui.focus(self.partner_field)
            return None
        if name.casefold() == self.player.casefold():
            self._say(self.t("club_events.partner_self"))
            return None
        return name

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
                and (item.event.get("registered") or waiting(item))
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
        if kind == "error" and m.get("code") == "no_show":  # an event's table given up on
            self.problem = None
            self.refresh()
            self.status = self.t("club_events.no_show_lost")
            self.app.toast(self.status)  # seen (and heard) while the list is asked again
        elif kind == "error":
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
            line = m.get("me")
            sid = text_of(m.get("id"), 80)
            team = text_of(obj_of(line).get("name"), 90)
            teamed = any(partnership(i) and text_of(i.event.get("id"), 80) == sid for i in self.items())
            partner = text_of(m.get("waiting"), 40)
            if line is None and partner:
                self.teams.pop(sid, None)
                self._say(self.t("club_events.waiting_partner", partner=partner))
            elif isinstance(line, dict) and teamed:
                self.teams[sid] = team
                self._say(self.t("club_events.registered_team", team=team))
            else:
                self.teams.pop(sid, None)
                self._say(self.t("club_events.registered" if line is not None else "club_events.left"))
            self.refresh()
        elif kind == "challenge":
            status = obj_of(m.get("challenge")).get("status")
            self._say(self.t("club_events.accepted" if status == "accepted" else "club_events.declined"))
            self.refresh()
        elif kind in ("arena_found", "swiss_round"):
            code, token = m.get("code"), m.get("token")
            seen = self.seen_codes if self.seen_codes is not None else set()
            self.seen_codes = seen
            if isinstance(code, str) and code in seen:
                return  # the partner's seat of a table already handed on: theirs to take
            if isinstance(code, str) and isinstance(token, str):
                seen.add(code)
                self.tables.append((code, token))
                self._say(self.t("club_events.table_ready"))
            else:
                self._say(self.t("club_events.bye", round=m.get("round")))

    def close_link(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
        self.tables.clear()


__all__ = ["Joining", "asked_by", "pending_for_me", "waiting"]
