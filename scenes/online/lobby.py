"""The lobby of an online table: who sits where (friends by name, connected or away; the
computer's seats by level), the table's settings, and for the host what friends need to
join — this machine's address and port, the table code, the ``cardavia://`` link (put on
the clipboard when there is one) and that across the internet the port must be reachable.

The match starts by itself once every friend's seat is taken; the lobby then gives its
seat (the RemoteSession) to the ordinary table, which takes the lobby's place. Leaving the
lobby (Esc, Leave) gives the seat up; the server the host runs keeps going until the player
leaves the online screens (scenes.online.choice).

Opened without a session (``--screenshot --scene online_lobby``, the text-fit check) it
shows a sample table, as the host would see it.
"""

from __future__ import annotations

from typing import Any

import pygame

from scenes import names
from scenes.online import fields, hosting
from scenes.online.fields import ERROR
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button

PANEL = pygame.Rect(70, 20, 1140, 656)
SEATS_X, SEATS_W = PANEL.x + 40, 520
INFO_X, INFO_W = PANEL.x + 600, 500
ROW_H = 64
OK = (150, 214, 150)


def sample(app: AppServices) -> tuple[dict, hosting.Hosted]:
    """A lobby as the host sees it while one friend is still awaited (screenshots, checks)."""
    from game.online.wire.links import make_link
    from game.rulesets import game_ids

    cfg = app.config
    game = max(game_ids(), key=lambda g: max(cfg.games[g].players))  # the most seats to show
    gcfg = cfg.games[game]
    players = max(gcfg.players)
    kinds: list[dict[str, object]] = [
        {"kind": "friend", "name": "Anna", "connected": True, "level": None},
        {"kind": "ai", "name": None, "connected": True, "level": "hard"},
        {"kind": "friend", "name": None, "connected": False, "level": None},
        {"kind": "ai", "name": None, "connected": True, "level": "normal"},
    ]
    seats = [dict(kinds[i % len(kinds)]) for i in range(players)]
    lobby = {
        "type": "lobby",
        "code": "K7QMZ2HXPA",
        "game": game,
        "deck": cfg.decks_for(game)[0].id,
        "players": players,
        "options": gcfg.resolve_options(None, players),
        "seats": seats,
        "you": 0,
        "host": True,
        "started": False,
        "pause_seconds": hosting.PAUSE_SECONDS,
        "ai_takes_over": True,
    }
    return lobby, hosting.Hosted("K7QMZ2HXPA", 7420, "192.168.1.20", make_link("192.168.1.20", 7420, "K7QMZ2HXPA"), "")


class LobbyScene(UIScene):
    def __init__(self, app: AppServices, session: Any = None, hosted: hosting.Hosted | None = None, **params: object):
        self.session = session
        self.hosted = hosted
        self.demo: dict | None = None
        if session is None:
            self.demo, self.hosted = sample(app)
        self.problem: str | None = None
        self.handed_over = False  # the table has the session now
        self.copied = False
        super().__init__(app)
        if self.hosted is not None and self.demo is None:
            self.copied = fields.copy_text(self.hosted.link)

    @property
    def lobby(self) -> dict:
        if self.demo is not None:
            return self.demo
        return getattr(self.session, "lobby", None) or {}

    def build(self) -> None:
        by = PANEL.bottom - 68
        self.leave_button = self.ui.add(
            Button((SEATS_X, by, 200, 46), self.label("online.leave"), self.back, icon="‹", size=15, name="leave")
        )
        self.copy_button = self.ui.add(
            Button(
                (INFO_X, by, 240, 46),
                self.label("online.copy"),
                self.copy,
                size=15,
                name="copy",
                visible=lambda: self.hosted is not None,
            )
        )
        self.ui.focus(self.copy_button if self.hosted is not None else self.leave_button)

    def copy(self) -> None:
        if self.hosted is not None:
            self.copied = fields.copy_text(self.hosted.link)
            if self.copied:
                self.app.toast(self.t("online.copied_toast"))

    # ------------------------------------------------------------------ the session
    def update(self, dt: float) -> None:
        super().update(dt)
        s = self.session
        if s is None or self.handed_over:
            return
        try:
            s.poll()
        except Exception as e:  # noqa: BLE001 - a broken answer is a line, never a crash
            self.problem = hosting.describe(hosting.OnlineError("error_other", reason=str(e)), self.t)
            return
        problem = hosting.session_problem(s)
        if problem is not None:
            self.problem = hosting.describe(problem, self.t)
            return
        self.problem = None if s.connected else self.t("online.reconnecting")
        if s.started and s.rules is not None and s.human_seat is not None:
            self.handed_over = True
            self.app.stack.replace("table", session=s)

    def leave(self) -> None:
        if self not in self.app.stack.scenes:
            self._drop()

    def close(self) -> None:
        self._drop()

    def _drop(self) -> None:
        if self.session is not None and not self.handed_over:
            self.session.close()
            self.handed_over = True
            if self not in self.app.stack.scenes:  # left before the match: nothing to rejoin
                from scenes.online import rejoin

                rejoin.forget(self.app, getattr(self.session, "code", None))

    # ------------------------------------------------------------------ what it says
    def seat_lines(self) -> list[tuple[str, str, tuple[int, int, int]]]:
        """(where, who, colour) for every seat: "You · Anna", "North · Computer (hard)",
        "East · waiting for a friend"."""
        lob = self.lobby
        seats = lob.get("seats") or []
        you = lob.get("you") if isinstance(lob.get("you"), int) else 0
        n = len(seats)
        out = []
        team_of = names.game_teams(lob.get("game"), n)
        for i, seat in enumerate(seats):
            where = names.seat_name(self.t, i, you, n, team_of=team_of)
            if seat.get("kind") == "ai":
                level = str(seat.get("level") or "normal")
                level = self.t(f"ai.{level}") if self.app.i18n.has(f"ai.{level}") else level
                who, color = self.t("online.computer", level=level), theme.CREAM_DIM
            elif seat.get("name"):
                state = "online.connected" if seat.get("connected") else "online.away"
                who, color = f"{seat['name']} · {self.t(state)}", OK if seat.get("connected") else ERROR
            else:
                who, color = self.t("online.seat_free"), theme.BRASS_LIGHT
            out.append((where, who, color))
        return out

    def waiting(self) -> int:
        return sum(
            1
            for seat in self.lobby.get("seats") or []
            if seat.get("kind") == "friend" and not (seat.get("name") and seat.get("connected"))
        )

    def settings_lines(self) -> list[str]:
        """The table's game and rules, and what happens when a friend drops out."""
        from game.variants import variant_name
        from scenes.game_panel import game_line

        lob, cfg, lang = self.lobby, self.app.config, self.app.language
        game = cfg.games.get(str(lob.get("game")))
        if game is None:
            return []
        deck = cfg.decks.get(str(lob.get("deck"))) or cfg.decks_for(game.id)[0]
        players = int(lob.get("players") or min(game.players))
        opts = dict(lob.get("options") or {})
        head = names.game_and_deck(
            game.name.get(lang) or game.name.get("en", game.id), deck.name.get(lang) or deck.name.get("en", deck.id)
        )
        variant = variant_name(self.app.i18n, game, opts, players)
        rules = " · ".join(
            ([variant] if variant else [])
            + [self.t("line.players", count=players)]
            + game_line(self.t, game, opts).split(" · ")[2:]
        )
        seconds = lob.get("pause_seconds") or hosting.PAUSE_SECONDS
        drop = self.t(
            "online.takeover_note_ai" if lob.get("ai_takes_over", True) else "online.takeover_note_wait",
            seconds=seconds,
        )
        return [head, rules, drop]

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        code = self.lobby.get("code") or (self.hosted.code if self.hosted else "")
        title = self.t("online.lobby_title", code=code)
        theme.heading(
            surface, title, (r.x + 40, r.y + 24), theme.fit(title, "serif_bold", 28, r.w - 80, 16, 0.22, True)
        )
        waiting = self.waiting()
        state = self.t("online.lobby_waiting", count=waiting) if waiting else self.t("online.lobby_starting")
        theme.blit_text(
            surface,
            state,
            (r.x + 40, r.y + 72),
            "sans_bold",
            theme.fit(state, "sans_bold", 16, r.w - 80, 10),
            theme.BRASS_LIGHT,
        )
        self._draw_seats(surface)
        y = r.y + 130 + 4 * ROW_H + 24
        head = self.t("online.table_settings")
        theme.small_caps(
            surface, head, (SEATS_X, y), theme.fit(head, "cond_bold", 13, SEATS_W, 9, 0.16, True), theme.BRASS
        )
        y += 24
        for i, line in enumerate(self.settings_lines()):
            face = "sans_bold" if i == 0 else "sans"
            for ln in theme.wrap(line, face, 15, SEATS_W, max_lines=2):
                theme.blit_text(surface, ln, (SEATS_X, y), face, 15, theme.CREAM if i == 0 else theme.CREAM_DIM)
                y += 20
            y += 4
        if self.hosted is not None:
            self._draw_invite(surface, self.hosted)
        else:
            note = self.t("online.guest_note")
            for i, ln in enumerate(theme.wrap(note, "sans", 15, INFO_W, max_lines=6)):
                theme.blit_text(surface, ln, (INFO_X, r.y + 130 + 20 * i), "sans", 15, theme.CREAM_DIM)
        if self.problem:
            for i, ln in enumerate(theme.wrap(self.problem, "sans_bold", 15, r.w - 80, max_lines=2)):
                theme.blit_text(surface, ln, (r.x + 40, r.bottom - 120 + 20 * i), "sans_bold", 15, ERROR)
        self.ui.draw(surface)
        hint = self.t("online.hint_lobby")
        theme.blit_text(
            surface,
            hint,
            (640, 702),
            "sans",
            theme.fit(hint, "sans", 13, 1100, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )

    def _draw_seats(self, surface: pygame.Surface) -> None:
        y = PANEL.y + 130
        head = self.t("online.seats")
        theme.small_caps(
            surface, head, (SEATS_X, y - 26), theme.fit(head, "cond_bold", 13, SEATS_W, 9, 0.16, True), theme.BRASS
        )
        for i, (where, who, color) in enumerate(self.seat_lines()):
            row = pygame.Rect(SEATS_X, y + i * ROW_H, SEATS_W, ROW_H - 10)
            surface.blit(theme.rounded(row.size, 10, (255, 244, 214, 12), 1, (*theme.BRASS_DARK, 255)), row)
            pygame.draw.circle(surface, color, (row.x + 20, row.centery), 6)
            theme.blit_text(
                surface,
                where,
                (row.x + 40, row.y + 8),
                "sans_bold",
                theme.fit(where, "sans_bold", 15, row.w - 56, 10),
                theme.CREAM,
            )
            theme.blit_text(
                surface, who, (row.x + 40, row.y + 29), "sans", theme.fit(who, "sans", 14, row.w - 56, 10), color
            )

    def _draw_invite(self, surface: pygame.Surface, h: hosting.Hosted) -> None:
        """Address, code and link, big enough to read aloud, and how friends get in."""
        y = PANEL.y + 104
        head = self.t("online.invite")
        theme.small_caps(
            surface, head, (INFO_X, y), theme.fit(head, "cond_bold", 13, INFO_W, 9, 0.16, True), theme.BRASS
        )
        y += 26
        for key, value, size in (
            ("online.address", f"{h.address}:{h.port}", 22),
            ("online.code", h.code, 26),
            ("online.link", h.link, 16),
        ):
            label = self.t(key)
            theme.small_caps(surface, label, (INFO_X, y), 12, theme.BRASS)
            fit = theme.fit(value, "sans_bold", size, INFO_W, 10)
            theme.blit_text(surface, value, (INFO_X, y + 18), "sans_bold", fit, theme.CREAM)
            y += 26 + size + 12
        copied = self.t("online.copied" if self.copied else "online.not_copied")
        for ln in theme.wrap(copied, "sans", 14, INFO_W, max_lines=2):
            theme.blit_text(surface, ln, (INFO_X, y), "sans", 14, OK if self.copied else theme.CREAM_DIM)
            y += 19
        y += 12
        note = self.t("online.internet_note", port=h.port)
        for ln in theme.wrap(note, "sans", 14, INFO_W, max_lines=5):
            theme.blit_text(surface, ln, (INFO_X, y), "sans", 14, theme.CREAM_DIM)
            y += 19


def create(app: AppServices, session: object = None, hosted: object = None, **params: object) -> LobbyScene:
    return LobbyScene(app, session=session, hosted=hosted if isinstance(hosted, hosting.Hosted) else None)


__all__ = ["LobbyScene", "create", "sample"]
