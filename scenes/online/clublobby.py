"""A club server's lobby: the player's rating per game, quick match (the server
pairs players by rating; after its wait the computer fills the seats, and the player is told),
the live list of open tables (join one with one click) and the leaderboards. The link to the
server is game.online.client.clublink (its own thread): this screen only draws what it holds.

The player's account on the server is made on the first visit: its secret is kept in the
settings (like a seat's), its recovery code shown once here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import pygame

from game.online.client.clubclient import ClubSession, account_secret, keep_account
from game.online.client.clublink import ClubLink
from game.online.client.watchclient import SpectatorFeed
from game.rulesets import game_ids
from scenes.online import hosting
from scenes.online.address import AddressError, server_url, shown_address
from scenes.online.fields import ERROR
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button

PANEL = pygame.Rect(50, 36, 1180, 648)
LEFT_X, LEFT_W = PANEL.x + 40, 420
RIGHT_X, RIGHT_W = PANEL.x + 500, PANEL.w - 540
ROWS = 8
ROW_H = 50


class ClubLobbyScene(hosting.HoldsConnecting, UIScene):
    def __init__(self, app: AppServices, server: dict | None = None, player: str = "", **params: object):
        self.server = server or {"name": "", "address": "127.0.0.1:7420"}
        self.player = player or "Player"
        self.games = list(game_ids())
        self.game_index = 0
        self.showing_board = False
        self.connecting: hosting.Connecting | None = None
        self.problem: str | None = None
        self.link: ClubLink | None = None
        self.url = ""
        super().__init__(app)
        try:
            self.url, _ = server_url(self.server["address"])
        except AddressError as e:
            self.problem = self.t(f"online.{e.key}")
            return
        if hosting.network_allowed(app):
            secret = account_secret(app.settings.extra, self.url, self.player)
            self.link = ClubLink(self.url, self.player, secret)
        else:
            self.problem = self.t("online.error_headless")

    @property
    def game(self) -> str:
        return self.games[self.game_index % len(self.games)]

    def build(self) -> None:
        y = PANEL.y + 200
        self.ui.add(Button((LEFT_X, y, 52, 46), lambda: "‹", lambda: self.turn_game(-1), size=18, name="game_prev"))
        self.ui.add(
            Button((LEFT_X + LEFT_W - 52, y, 52, 46), lambda: "›", lambda: self.turn_game(1), size=18, name="game_next")
        )
        self.quick_button = self.ui.add(
            Button((LEFT_X, y + 70, LEFT_W, 54), self._quick_label, self.quick, style="primary", size=18, name="quick")
        )
        self.ui.add(Button((LEFT_X, y + 140, LEFT_W, 46), self._board_label, self.toggle_board, size=15, name="board"))
        for i in range(ROWS):
            self.ui.add(
                Button(
                    (RIGHT_X + RIGHT_W - 130, PANEL.y + 104 + i * (ROW_H + 10), 130, ROW_H - 6),
                    self.label("online.join_button"),
                    partial(self.join_row, i),
                    size=14,
                    name=f"join{i}",
                    visible=lambda i=i: self._joinable(i),
                )
            )
            self.ui.add(
                Button(
                    (RIGHT_X + RIGHT_W - 130, PANEL.y + 104 + i * (ROW_H + 10), 130, ROW_H - 6),
                    self.label("club.watch"),
                    partial(self.watch_row, i),
                    size=14,
                    name=f"watch{i}",
                    visible=lambda i=i: self._watchable(i),
                )
            )
        self.ui.add(
            Button(
                (LEFT_X, PANEL.bottom - 64, 160, 44),
                self.label("common.back"),
                self.back,
                icon="‹",
                size=15,
                name="back",
            )
        )
        self.ui.add(
            Button(
                (LEFT_X + 180, PANEL.bottom - 64, LEFT_W - 180, 44),
                self.label("club_events.button"),
                self.events,
                size=15,
                name="events",
            )
        )
        self.ui.focus(self.quick_button)

    def events(self) -> None:
        """The club's events (scenes.online.events), signed in as this lobby's player."""
        self.app.open_scene("online_events", server=self.server, player=self.link.name if self.link else self.player)

    def _quick_label(self) -> str:
        return (
            self.t("club.cancel")
            if self.link is not None and self.link.quick_since is not None
            else self.t("club.quick")
        )

    def _board_label(self) -> str:
        return self.t("club.open_tables") if self.showing_board else self.t("club.leaderboard")

    # ---- actions
    def turn_game(self, step: int) -> None:
        self.game_index = (self.game_index + step) % len(self.games)
        if self.showing_board and self.link is not None:
            self.link.ask_board(self.game)

    def toggle_board(self) -> None:
        self.showing_board = not self.showing_board
        if self.showing_board and self.link is not None:
            self.link.ask_board(self.game)

    def quick(self) -> None:
        link = self.link
        if link is None or self.connecting is not None:
            return
        if link.quick_since is not None:
            link.cancel_quick()
        else:
            link.quick(self.game)

    def rows(self) -> list[dict[str, Any]]:
        return self.link.tables[:ROWS] if self.link is not None and not self.showing_board else []

    def _joinable(self, i: int) -> bool:
        rows = self.rows()
        return i < len(rows) and not rows[i].get("started") and rows[i].get("free", 0) > 0

    def _watchable(self, i: int) -> bool:
        rows = self.rows()
        return i < len(rows) and bool(rows[i].get("started")) and not rows[i].get("finished")

    def watch_row(self, i: int) -> None:
        """Watch a public table being played: the spectator's view opens once the server's
        first events are here (:meth:`update`)."""
        rows = self.rows()
        if i >= len(rows) or self.link is None or self.connecting is not None or self.watching is not None:
            return
        self.problem = None
        self.watching = SpectatorFeed(self.url, str(rows[i]["code"]), self.link.name, self.link.secret)

    watching: SpectatorFeed | None = None

    def join_row(self, i: int) -> None:
        rows = self.rows()
        if i >= len(rows) or self.link is None or self.connecting is not None:
            return
        session = ClubSession(
            self.url, rows[i]["code"], self.link.name, None, self.link.secret or "", plates=rows[i].get("plates")
        )
        self.connecting = hosting.Connecting(session, shown_address(self.url))

    def back(self) -> None:
        if self.watching is not None:
            self.watching.close()
            self.watching = None
            return
        if self.connecting is not None:
            self._drop()
            return
        super().back()

    def _drop_link(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None

    def leave(self) -> None:
        if self not in self.app.stack.scenes:
            self._drop()
            self._drop_link()

    def close(self) -> None:
        if self.watching is not None:
            self.watching.close()
            self.watching = None
        self._drop()
        self._drop_link()

    # ---- each frame
    def update(self, dt: float) -> None:
        super().update(dt)
        link = self.link
        if link is None:
            return
        link.poll()
        if link.new_account is not None:
            extra = self.app.settings.extra
            if isinstance(extra, dict):
                keep_account(extra, self.url, link.name, link.new_account["secret"])
                self.app.save_settings()
            self.recovery = link.new_account["recovery"]
            link.new_account = None
        if link.found is not None and self.connecting is None:
            found, link.found = link.found, None
            if found.get("filled"):
                self.app.toast(self.t("club.quick_filled"))
            seats = found.get("seats")
            token = found.get("token")
            session = ClubSession(
                self.url,
                str(found["code"]),
                link.name,
                token if isinstance(token, str) else None,
                link.secret or "",
                plates=seats if isinstance(seats, list) else None,
            )
            self.connecting = hosting.Connecting(session, shown_address(self.url))
        feed = self.watching
        if feed is not None:
            feed.poll()
            if feed.problem is not None:
                self.problem = self.t("manners.watch_failed", reason=feed.problem)
                feed.close()
                self.watching = None
            elif feed.ready:
                self.watching = None
                self.app.open_scene("online_watch", feed=feed)
        arrived = self._arrived()
        if arrived is not None:
            session, error = arrived
            if error is not None:
                self.problem = hosting.describe(error, self.t)
            else:
                self.app.open_scene("online_lobby", session=session)

    recovery: str | None = None

    # ---- drawing
    def _status(self) -> tuple[str | None, object]:
        link = self.link
        if self.problem:
            return self.problem, ERROR
        if link is None:
            return None, theme.CREAM
        if link.failed == "name_taken":
            return self.t("club.error_name_taken"), ERROR
        if link.failed == "bad_secret":
            return self.t("club.error_account"), ERROR
        if link.failed:
            return self.t("online.error_unreachable", address=shown_address(self.url)), ERROR
        if not link.signed_in:
            return self.t(
                "club.connecting", server=self.server.get("name") or shown_address(self.url)
            ), theme.BRASS_LIGHT
        if self.watching is not None:
            return self.t("manners.watch_opening"), theme.BRASS_LIGHT
        if link.quick_since is not None:
            return self.t("club.quick_waiting", seconds=int(link.waited())), theme.BRASS_LIGHT
        if self.recovery:
            return self.t("club.account_new", code=self.recovery), theme.BRASS_LIGHT
        if link.error is not None:
            return self.t("online.error_other", reason=link.error[1]), ERROR
        return None, theme.CREAM

    def _game_name(self, game: str | None = None) -> str:
        """A game's name in the player's language (the config gives one per language)."""
        game = game or self.game
        if game not in self.app.config.games:
            return game
        names = self.app.config.game(game).name
        if isinstance(names, Mapping):
            return str(names.get(self.app.i18n.language) or names.get("en") or game)
        return str(names)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.server.get("name") or shown_address(self.url or self.server.get("address", ""))
        theme.heading(surface, title, (LEFT_X, r.y + 26), theme.fit(title, "serif_bold", 28, LEFT_W, 14, 0.22, True))
        theme.blit_text(
            surface, shown_address(self.url) if self.url else "", (LEFT_X, r.y + 72), "sans", 14, theme.CREAM_DIM
        )
        link = self.link
        rating = (link.ratings.get(self.game) if link is not None else None) or {}
        if rating.get("rating") is not None:
            shown = f"{rating['rating']}{'?' if rating.get('provisional') else ''}"
            text = self.t("club.your_rating", rating=shown)
            theme.blit_text(
                surface,
                text,
                (LEFT_X, r.y + 120),
                "sans_bold",
                theme.fit(text, "sans_bold", 18, LEFT_W, 10),
                theme.BRASS_LIGHT,
            )
        game = self._game_name()
        theme.blit_text(
            surface,
            game,
            (LEFT_X + LEFT_W // 2, r.y + 223),
            "serif_bold",
            theme.fit(game, "serif_bold", 22, LEFT_W - 130, 12),
            theme.CREAM,
            anchor="center",
        )
        status, color = self._status()
        if status:
            for i, ln in enumerate(theme.wrap(status, "sans_bold", 15, LEFT_W, max_lines=5)):
                theme.blit_text(surface, ln, (LEFT_X, r.y + 400 + 20 * i), "sans_bold", 15, color)
        self._draw_right(surface)
        self.ui.draw(surface)
        hint = self.t("club.hint")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 30),
            "sans",
            theme.fit(hint, "sans", 13, 1000, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )

    def _draw_right(self, surface: pygame.Surface) -> None:
        r = PANEL
        link = self.link
        if self.showing_board:
            head = self.t("club.leaderboard_title", game=self._game_name())
            theme.small_caps(
                surface,
                head,
                (RIGHT_X, r.y + 40),
                theme.fit(head, "cond_bold", 15, RIGHT_W, 9, 0.16, True),
                theme.BRASS_LIGHT,
            )
            board = link.boards.get(self.game) if link is not None else None
            listed = board.get("lines") if board else None
            lines: list[dict[str, object]] = listed if isinstance(listed, list) else []
            if not lines:
                theme.blit_text(surface, self.t("club.no_players"), (RIGHT_X, r.y + 100), "sans", 15, theme.CREAM)
            for i, ln in enumerate(lines[:14]):
                y = r.y + 90 + i * 34
                mark = "?" if ln.get("provisional") else ""
                theme.blit_text(surface, f"{ln['rank']}.", (RIGHT_X, y), "sans_bold", 16, theme.BRASS_LIGHT)
                theme.blit_text(surface, str(ln["name"]), (RIGHT_X + 50, y), "sans", 16, theme.CREAM)
                theme.blit_text(
                    surface,
                    f"{ln['rating']}{mark}",
                    (RIGHT_X + RIGHT_W, y),
                    "sans_bold",
                    16,
                    theme.CREAM,
                    anchor="topright",
                )
            note = self.t("club.provisional_note")
            for i, text in enumerate(theme.wrap(note, "sans", 13, RIGHT_W, max_lines=2)):
                theme.blit_text(surface, text, (RIGHT_X, r.bottom - 64 + 18 * i), "sans", 13, theme.CREAM_FAINT)
            return
        head = self.t("club.open_tables")
        theme.small_caps(
            surface,
            head,
            (RIGHT_X, r.y + 40),
            theme.fit(head, "cond_bold", 15, RIGHT_W, 9, 0.16, True),
            theme.BRASS_LIGHT,
        )
        rows = self.rows()
        if not rows:
            for i, text in enumerate(theme.wrap(self.t("club.no_tables"), "sans", 15, RIGHT_W, max_lines=2)):
                theme.blit_text(surface, text, (RIGHT_X, r.y + 100 + 20 * i), "sans", 15, theme.CREAM)
        for i, row in enumerate(rows):
            y = r.y + 104 + i * (ROW_H + 10)
            box = pygame.Rect(RIGHT_X, y - 4, RIGHT_W, ROW_H)
            surface.blit(theme.rounded(box.size, 10, (255, 244, 214, 12), 1, (*theme.BRASS_DARK, 255)), box)
            game = self._game_name(str(row.get("game")))
            plates = []
            for p in row.get("plates", []):
                if not p.get("level") and not p.get("name"):
                    plates.append(self.t("online.seat_free"))
                if p.get("level"):
                    plates.append(self.t("online.computer", level=self.t(f"ai.{p['level']}")) + f" {p['rating']}")
                elif p.get("name"):  # a guest without an account (a table a host made) has no rating
                    rating = (
                        f" {p['rating']}{'?' if p.get('provisional') else ''}"
                        if isinstance(p.get("rating"), int)
                        else ""
                    )
                    plates.append(f"{p['name']}{rating}")
            state = (
                self.t("club.playing") if row.get("started") else self.t("club.seats_free", count=row.get("free", 0))
            )
            watch = self.t("club.watchers", count=row.get("watchers", 0))
            theme.blit_text(
                surface,
                f"{game} · {state} · {watch}",
                (box.x + 14, y + 2),
                "sans_bold",
                theme.fit(f"{game} · {state} · {watch}", "sans_bold", 14, RIGHT_W - 170, 9),
                theme.CREAM,
            )
            text = ", ".join(plates)
            theme.blit_text(
                surface,
                text,
                (box.x + 14, y + 22),
                "sans",
                theme.fit(text, "sans", 13, RIGHT_W - 170, 8),
                theme.CREAM_DIM,
            )


def create(app: AppServices, server: dict | None = None, player: str = "", **params: object) -> ClubLobbyScene:
    return ClubLobbyScene(app, server=server, player=player)


__all__ = ["ClubLobbyScene", "create"]
