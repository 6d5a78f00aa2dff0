"""Join a table: the host's address and the table code — or the host's ``cardavia://`` link,
typed or pasted (Ctrl+V) into either field, which fills both — and your name. Join
connects (the window keeps drawing: the socket has its own thread) and opens the lobby
once a seat is yours; what went wrong (nobody answers, no such table, the table full,
another version) is said in one line under the fields.

Keys: Tab / ↑↓ move between the fields, typing fills them, Enter joins, Esc goes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from scenes.online import hosting
from scenes.online import rejoin as back_to
from scenes.online.address import AddressError, clean_code, clean_name, is_link, server_url, shown_address
from scenes.online.fields import ERROR, TextField, route_text, typing
from scenes.online.host import remember, remember_seat, remembered
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button

if TYPE_CHECKING:
    from game.online.client.client import RemoteSession

PANEL = pygame.Rect(240, 70, 800, 580)
FIELD_X, FIELD_W = PANEL.x + 48, PANEL.w - 96


class JoinScene(hosting.HoldsConnecting, UIScene):
    def __init__(self, app: AppServices, link: str | None = None, rejoin: bool = False, **params: object):
        self.link = link
        self.problem: str | None = None
        self.connecting: hosting.Connecting | None = None
        #: The seat's secret this join tries (a seat held before), None for a new seat.
        self.token: str | None = None
        super().__init__(app)
        if link:
            self.address_field.set_text(link)
        #: The table left mid-match (the menu's Rejoin, scenes.online.rejoin): its server, when
        #: this window hosts it, is started again before the seat is taken back.
        self.hosted_port: int | None = None
        last = back_to.last_table(app)
        if last is not None and not link:
            self.address_field.set_text(str(last["address"]))
            self.code_field.set_text(str(last["code"]))
            if rejoin:
                port = last.get("port")
                self.hosted_port = port if isinstance(port, int) else None
                self.join()

    def build(self) -> None:
        saved = remembered(self.app)
        idle = lambda: self.connecting is None  # noqa: E731
        y = PANEL.y + 140
        self.address_field = self.ui.add(
            TextField(
                (FIELD_X, y, FIELD_W, 62),
                self.label("online.address"),
                saved.get("address", ""),
                max_len=300,
                on_enter=self.join,
                on_change=self._typed,
                placeholder=self.label("online.address_hint"),
                name="address",
                enabled=idle,
            )
        )
        self.code_field = self.ui.add(
            TextField(
                (FIELD_X, y + 86, 300, 62),
                self.label("online.code"),
                "",
                max_len=300,
                on_enter=self.join,
                on_change=self._typed,
                placeholder=self.label("online.code_hint"),
                name="code",
                enabled=idle,
            )
        )
        self.name_field = self.ui.add(
            TextField(
                (FIELD_X + 330, y + 86, FIELD_W - 330, 62),
                self.label("online.your_name"),
                saved.get("name", ""),
                max_len=20,
                on_enter=self.join,
                placeholder=self.label("online.name_hint"),
                name="name",
                enabled=idle,
            )
        )
        by = PANEL.bottom - 70
        self.ui.add(
            Button((FIELD_X, by, 170, 46), self.label("common.back"), self.back, icon="‹", size=15, name="back")
        )
        self.join_button = self.ui.add(
            Button(
                (PANEL.right - 48 - 220, by - 2, 220, 50),
                self.label("online.join_button"),
                self.join,
                style="primary",
                size=17,
                name="join",
                enabled=idle,
            )
        )
        self.ui.focus(self.address_field)

    @property
    def wants_text(self) -> bool:
        return typing(self)

    # ------------------------------------------------------------------ typing
    def _typed(self, text: str) -> None:
        """A link typed or pasted into a field: its address goes to Address, its code to Code."""
        self.problem = None
        if not is_link(text):
            return
        try:
            url, code = server_url(text)
        except AddressError:
            return  # not finished yet (or mistyped): Join says what is wrong
        if not code:
            return  # typed, the link is whole only with its code: "cardavia://1" is no address yet
        self.address_field.text, self.address_field.caret = shown_address(url), len(shown_address(url))
        if code:
            self.code_field.text, self.code_field.caret = code, len(code)
            self.ui.focus(self.name_field if not self.name_field.text else self.join_button)

    def handle(self, event: pygame.event.Event) -> None:
        if route_text(self, event):
            return
        super().handle(event)

    # ------------------------------------------------------------------ joining
    def join(self) -> None:
        if self.connecting is not None:
            return
        self.problem = None
        address = self.address_field.text.strip()
        try:
            url, link_code = server_url(address)
            code = clean_code(self.code_field.text) if self.code_field.text.strip() or not link_code else link_code
            name = clean_name(self.name_field.text)
        except AddressError as e:
            self.problem = hosting.describe(e, self.t)
            return
        remember(self.app, name=name, address=address)
        if not hosting.network_allowed(self.app):
            self.problem = hosting.describe(hosting.OnlineError("error_headless"), self.t)
            return
        if self.hosted_port is not None:
            try:  # this window's own table: its server comes back first, resuming it from its files
                hosting.start_server(self.hosted_port)
            except hosting.OnlineError as e:
                self.problem = hosting.describe(e, self.t)
                return
        try:
            # A seat held here before (the window closed mid-match) is taken back with its secret.
            self.token = remembered(self.app).get("tokens", {}).get(code)
            session = hosting.join_table(url, code, name, self.token)
        except ValueError:  # the client's own check of the address and the code
            self.problem = hosting.describe(AddressError("bad_address"), self.t)
            return
        self.connecting = hosting.Connecting(session, shown_address(url))

    @staticmethod
    def connecting_address(session: RemoteSession) -> str:
        return shown_address(session.url)

    def back(self) -> None:
        if self.connecting is not None:  # Esc while connecting: stop trying, stay here
            self._drop()
            return
        super().back()

    def update(self, dt: float) -> None:
        super().update(dt)
        arrived = self._arrived()
        if arrived is None:
            return
        session, error = arrived
        if error is not None:
            if self.token is not None and getattr(session, "failed_code", None) == "bad_token":
                # The kept secret is not that table's seat any more: forget it, ask for a free seat.
                tokens = dict(remembered(self.app).get("tokens", {}))
                tokens.pop(session.code, None)
                remember(self.app, tokens=tokens)
                self.token = None
                self.connecting = hosting.Connecting(
                    hosting.join_table(session.url, session.code, session.name), self.connecting_address(session)
                )
                return
            if getattr(session, "failed_code", None) == "no_table":
                back_to.forget(self.app, session.code)  # that table is over and gone
            self.problem = hosting.describe(error, self.t)
            return
        remember_seat(self.app, session.code, session.token)
        back_to.keep(self.app, session.code, shown_address(session.url), self.hosted_port)
        self.app.open_scene("online_lobby", session=session)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("online.join_title")
        theme.heading(
            surface, title, (r.x + 48, r.y + 28), theme.fit(title, "serif_bold", 28, r.w - 96, 16, 0.22, True)
        )
        for i, ln in enumerate(theme.wrap(self.t("online.join_intro"), "sans", 15, r.w - 96, max_lines=3)):
            theme.blit_text(surface, ln, (r.x + 48, r.y + 74 + 20 * i), "sans", 15, theme.CREAM_DIM)
        paste = self.t("online.paste_hint")
        theme.blit_text(
            surface,
            paste,
            (FIELD_X, PANEL.y + 140 + 178),
            "sans",
            theme.fit(paste, "sans", 13, FIELD_W, 9),
            theme.CREAM_FAINT,
        )
        status: str | None
        if self.connecting is not None:
            status, color = self.t("online.joining", address=self.connecting.address), theme.BRASS_LIGHT
        else:
            status, color = self.problem, ERROR
        if status:
            for i, ln in enumerate(theme.wrap(status, "sans_bold", 15, FIELD_W, max_lines=3)):
                theme.blit_text(surface, ln, (FIELD_X, PANEL.y + 140 + 214 + 20 * i), "sans_bold", 15, color)
        self.ui.draw(surface)
        hint = self.t("online.hint_form")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 30),
            "sans",
            theme.fit(hint, "sans", 13, 1100, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def create(app: AppServices, link: str | None = None, rejoin: bool = False, **params: object) -> JoinScene:
    return JoinScene(app, link=link, rejoin=rejoin)


__all__ = ["JoinScene", "create"]
