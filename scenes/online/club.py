"""Club servers: the list of the servers the player plays on (name and address,
kept in the settings), adding and removing one, and opening one's lobby
(:mod:`scenes.online.clublobby`). The player's account on each server (its secret) is kept
by the game: the player only chooses a name.

Keys: Tab / ↑↓ move, typing fills the fields, Enter chooses, Esc goes back.
"""

from __future__ import annotations

from functools import partial

import pygame

from game.online.client.clubclient import MAX_SERVERS, kept_servers
from scenes.online.address import AddressError, clean_name, server_url
from scenes.online.fields import ERROR, TextField, route_text, typing
from scenes.online.host import remember, remembered
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widget_base import Label
from sprites.widgets import Button

PANEL = pygame.Rect(240, 60, 800, 600)
X, W = PANEL.x + 48, PANEL.w - 96
ROWS = 4
ROW_H = 42


class ClubScene(UIScene):
    def __init__(self, app: AppServices, **params: object):
        self.problem: str | None = None
        super().__init__(app)

    def servers(self) -> list[dict[str, str]]:
        return kept_servers(self.app.settings.extra)

    def build(self) -> None:
        saved = remembered(self.app)
        y = PANEL.y + 118
        self.name_field = self.ui.add(
            TextField(
                (X, y, 340, 62),
                self.label("online.your_name"),
                saved.get("name", ""),
                max_len=20,
                placeholder=self.label("online.name_hint"),
                name="player",
            )
        )
        top = y + 104
        for i in range(ROWS):
            self.ui.add(
                Button(
                    (X, top + i * (ROW_H + 8), W - 150, ROW_H),
                    self._row_label(i),
                    partial(self.open, i),
                    style="secondary",
                    size=15,
                    name=f"server{i}",
                    visible=lambda i=i: i < len(self.servers()),
                )
            )
            self.ui.add(
                Button(
                    (X + W - 140, top + i * (ROW_H + 8), 140, ROW_H),
                    self.label("club.remove"),
                    partial(self.remove, i),
                    style="ghost",
                    size=14,
                    name=f"remove{i}",
                    visible=lambda i=i: i < len(self.servers()),
                )
            )
        fy = top + ROWS * (ROW_H + 8) + 14
        self.server_name = self.ui.add(
            TextField(
                (X, fy, 240, 62),
                self.label("club.server_name"),
                "",
                max_len=40,
                placeholder=self.label("club.server_name_hint"),
                name="server_name",
            )
        )
        self.server_address = self.ui.add(
            TextField(
                (X + 256, fy, W - 256 - 190, 62),
                self.label("club.server_address"),
                "",
                max_len=300,
                on_enter=self.add,
                placeholder=self.label("club.server_address_hint"),
                name="server_address",
            )
        )
        self.ui.add(
            Button(
                (X + W - 176, fy + 20, 176, 44), self.label("club.add"), self.add, style="primary", size=15, name="add"
            )
        )
        self.ui.add(
            Button(
                (X, PANEL.bottom - 62, 160, 44), self.label("common.back"), self.back, icon="‹", size=15, name="back"
            )
        )
        self.ui.focus(self.ui.widgets[1] if self.servers() else self.name_field)

    def _row_label(self, i: int) -> Label:
        def text() -> str:
            servers = self.servers()
            if i >= len(servers):
                return ""
            s = servers[i]
            return f"{s['name']} · {s['address']}" if s["name"] else s["address"]

        return text

    @property
    def wants_text(self) -> bool:
        return typing(self)

    def handle(self, event: pygame.event.Event) -> None:
        if route_text(self, event):
            return
        super().handle(event)

    # ---- actions
    def _keep(self, servers: list[dict[str, str]]) -> None:
        remember(self.app, servers=servers[:MAX_SERVERS])

    def add(self) -> None:
        self.problem = None
        address = self.server_address.text.strip()
        try:
            server_url(address)
        except AddressError as e:
            self.problem = self.t(f"online.{e.key}")
            return
        servers = [s for s in self.servers() if s["address"] != address]
        servers.append({"name": " ".join(self.server_name.text.split())[:40], "address": address})
        self._keep(servers[-MAX_SERVERS:])
        self.server_name.set_text("")
        self.server_address.set_text("")

    def remove(self, i: int) -> None:
        servers = self.servers()
        if i < len(servers):
            del servers[i]
            self._keep(servers)

    def open(self, i: int) -> None:
        self.problem = None
        servers = self.servers()
        if i >= len(servers):
            return
        try:
            name = clean_name(self.name_field.text)
        except AddressError as e:
            self.problem = self.t(f"online.{e.key}", max=20)
            self.ui.focus(self.name_field)
            return
        remember(self.app, name=name)
        self.app.open_scene("online_club_lobby", server=servers[i], player=name)

    # ---- drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("club.title")
        theme.heading(surface, title, (X, r.y + 26), theme.fit(title, "serif_bold", 28, W, 16, 0.22, True))
        for i, ln in enumerate(theme.wrap(self.t("club.intro"), "sans", 15, W, max_lines=2)):
            theme.blit_text(surface, ln, (X, r.y + 70 + 20 * i), "sans", 15, theme.CREAM_DIM)
        head = self.t("club.servers")
        theme.small_caps(
            surface, head, (X, r.y + 200), theme.fit(head, "cond_bold", 13, W, 9, 0.16, True), theme.BRASS_LIGHT
        )
        if not self.servers():
            for i, ln in enumerate(theme.wrap(self.t("club.no_servers"), "sans", 15, W, max_lines=2)):
                theme.blit_text(surface, ln, (X, r.y + 232 + 20 * i), "sans", 15, theme.CREAM)
        if self.problem:
            theme.blit_text(
                surface,
                self.problem,
                (X + 190, r.bottom - 50),
                "sans_bold",
                theme.fit(self.problem, "sans_bold", 15, W - 190, 9),
                ERROR,
            )
        self.ui.draw(surface)
        hint = self.t("club.hint")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 34),
            "sans",
            theme.fit(hint, "sans", 13, 1000, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def create(app: AppServices, **params: object) -> ClubScene:
    return ClubScene(app)


__all__ = ["ClubScene", "create"]
