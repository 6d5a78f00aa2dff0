"""A club server's daily deal (``main.py serve``, game.online.server.daily) in the window: the
server's address and your name, "Play today's deal" (a table of your own: the server deals
the day's secret deal and seats its house bots) and the day's leaderboard — rank, name,
score, par, points over par and time, your own line lit (and shown below the board when it
is not among the lines drawn) — with the day's commitment (the SHA-256 the server published
when the day opened) and, once the day is over, its seed and nonce, so that anyone can check
every record of that day with ``verify``.

Opened from the daily deals screen (``app.open_scene("online_daily", game=G, preset=P)``).
Keys: Tab / ↑↓ move, typing fills a field, Enter plays (in a field, shows the board),
PageUp / PageDown an earlier / later day, Esc goes back. The window never waits on the
network: every question is a game.online.client.daily_client.Request polled each tick.

Without a network (``--screenshot``, the text-fit checks) it shows a sample board. The board
itself (its rows and columns, the sample) is scenes.online.daily_board.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypedDict

import pygame

from game.online.client import daily_client as dc
from game.rules.vocabulary import JsonObject
from scenes.online import hosting
from scenes.online.address import AddressError, clean_name, server_url, shown_address
from scenes.online.daily_board import board_rows, draw_board, sample_board
from scenes.online.fields import ERROR, TextField, route_text, typing
from scenes.online.host import remember, remembered
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button, Widget

PANEL = pygame.Rect(80, 16, 1120, 680)
X = PANEL.x + 44
W = PANEL.w - 88

#: The settings' key of the day's seat left mid-deal (the window closed, Quit to menu): Play
#: takes it back instead of asking for another table (the same deal, where it stood).
SEAT_KEY = "online_daily_seat"


class KeptSeat(TypedDict):
    """The day's seat kept in the settings while its deal is under way: the server, the day
    and its deal, the player's name and the seat's secrets, and the day's public facts."""

    url: str
    day: str
    game: str
    preset: str
    name: str
    code: str
    token: str
    host_token: str
    info: JsonObject


def kept_seat(app: AppServices) -> KeptSeat | None:
    """The day's seat kept in the settings, checked (None when there is none or it is odd)."""
    extra = app.settings.extra
    seat = extra.get(SEAT_KEY) if isinstance(extra, dict) else None
    if not isinstance(seat, dict):
        return None
    strings = ("url", "day", "game", "preset", "name", "code", "token", "host_token")
    if not all(isinstance(seat.get(k), str) and 0 < len(seat[k]) <= 300 for k in strings):
        return None
    info = dc.board_info(seat.get("info"))
    if info is None:
        return None
    text = {k: str(seat[k]) for k in strings}
    return KeptSeat(
        url=text["url"],
        day=text["day"],
        game=text["game"],
        preset=text["preset"],
        name=text["name"],
        code=text["code"],
        token=text["token"],
        host_token=text["host_token"],
        info=info,
    )


def keep_seat(app: AppServices, seat: dict[str, object] | None) -> None:
    extra = app.settings.extra
    if not isinstance(extra, dict):
        return
    if seat is None:
        if extra.pop(SEAT_KEY, None) is None:
            return
    else:
        extra[SEAT_KEY] = seat
    app.save_settings()


class OnlineDailyScene(hosting.AsksAndWaits, UIScene):
    def __init__(self, app: AppServices, game: str | None = None, preset: str | None = None, **params: object):
        from game.rulesets import game_ids
        from game.services.daily import presets_of

        self.game = game if game is not None and game in app.config.games else game_ids()[0]
        words = presets_of(self.game, app.config)
        self.preset = preset if preset in words else words[0]
        self.day = dt.date.today()
        self.problem: str | None = None
        self.status: str | None = None
        self.connecting: hosting.Connecting | None = None
        #: The question in flight (today's deal, or a board), and what it is for.
        self.request: dc.Request | None = None
        self.asking: str | None = None
        #: The day's seat on its way to the table (seated, the match not started yet).
        self.waiting: dc.DailySession | None = None
        self.board: dict[str, Any] | None = None
        #: Back from the table: the board is asked for again (your line is on it now).
        self.refresh_on_enter = False
        #: The day's seat handed to the table (its seat is forgotten once the deal is over).
        self.playing: dc.DailySession | None = None
        #: The seat being taken back (a kept seat), so a refusal asks for a table instead.
        self.resuming: KeptSeat | None = None
        #: Where the focus goes back to once the server has answered.
        self._refocus: Widget | None = None
        #: A new account's recovery code (the daily deal made it), shown once.
        self.recovery: str | None = None
        super().__init__(app)
        if not hosting.network_allowed(app):
            self.board = sample_board(self.day, self.game, self.preset)

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        saved = remembered(self.app)
        idle = lambda: self.idle  # noqa: E731
        y = PANEL.y + 104
        self.address_field = self.ui.add(
            TextField(
                (X, y, 470, 62),
                self.label("online.address"),
                saved.get("address", ""),
                max_len=300,
                on_enter=self.show_board,
                placeholder=self.label("daily_online.address_hint"),
                name="address",
                enabled=idle,
            )
        )
        self.name_field = self.ui.add(
            TextField(
                (X + 494, y, 300, 62),
                self.label("online.your_name"),
                saved.get("name", ""),
                max_len=20,
                on_enter=self.play,
                placeholder=self.label("online.name_hint"),
                name="name",
                enabled=idle,
            )
        )
        by = y + 80
        self.play_button = self.ui.add(
            Button(
                (X, by, 330, 48),
                self.label("daily_online.play"),
                self.play,
                style="primary",
                size=16,
                name="play",
                enabled=idle,
            )
        )
        self.ui.add(
            Button(
                (X + 346, by + 2, 300, 44),
                self.label("daily_online.show_board"),
                self.show_board,
                size=15,
                name="board",
                enabled=idle,
            )
        )
        self.ui.add(
            Button(
                (PANEL.right - 44 - 2 * 56 - 8, by + 2, 56, 44),
                lambda: "‹",
                lambda: self.shift(-1),
                size=18,
                name="earlier",
                enabled=idle,
            )
        )
        self.ui.add(
            Button(
                (PANEL.right - 44 - 56, by + 2, 56, 44),
                lambda: "›",
                lambda: self.shift(1),
                size=18,
                name="later",
                enabled=lambda: idle() and self.day < dt.date.today(),
            )
        )
        self.ui.add(
            Button(
                (X, PANEL.bottom - 60, 170, 44), self.label("common.back"), self.back, icon="‹", size=15, name="back"
            )
        )
        self.ui.focus(self.address_field if not saved.get("address") else self.play_button)

    @property
    def wants_text(self) -> bool:
        return typing(self)

    def handle(self, event: pygame.event.Event) -> None:
        if route_text(self, event):
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.shift(-1 if event.key == pygame.K_PAGEUP else 1)
            return
        super().handle(event)

    # ------------------------------------------------------------------ what the player asks
    def _where(self, need_name: bool) -> tuple[str, str] | None:
        """(url, name) from the fields, or None with the problem said."""
        self.problem = None
        try:
            url, _ = server_url(self.address_field.text.strip())
            name = clean_name(self.name_field.text) if need_name or self.name_field.text.strip() else "guest"
        except AddressError as e:
            self.problem = hosting.describe(e, self.t)
            return None
        remember(self.app, address=self.address_field.text.strip(), **({"name": name} if need_name else {}))
        if not hosting.network_allowed(self.app):
            self.problem = hosting.describe(hosting.OnlineError("error_headless"), self.t)
            return None
        return url, name

    def _ask(self, what: str, make: Callable[[], dc.Request]) -> None:
        self._keep_focus()
        try:
            self.request = make()
        except ValueError:  # the client's own check of the address
            self.problem = hosting.describe(AddressError("bad_address"), self.t)
            return
        self.asking = what

    def play(self) -> None:
        if not self.idle:
            return
        where = self._where(need_name=True)
        if where is None:
            return
        url, name = where
        self.day = dt.date.today()
        seat = kept_seat(self.app)
        if seat is not None and (seat["url"], seat["day"], seat["game"], seat["preset"], seat["name"].casefold()) == (
            url,
            self.day.isoformat(),
            self.game,
            self.preset,
            name.casefold(),
        ):
            self._take_seat(seat)  # today's deal left mid-way: on where it stood
            return
        self.status = self.t("daily_online.asking", address=shown_address(url))
        secret = self._secret(url, name)
        self._ask("deal", lambda: dc.ask_for_deal(url, name, self.game, self.preset, secret))

    def _secret(self, url: str, name: str) -> str | None:
        """The player's account on that server (the daily deal is played with one), or None:
        the server then makes one, kept when it answers."""
        from game.online.client.clubclient import account_secret

        return account_secret(self.app.settings.extra, url, name) if name else None

    def _keep_new_account(self, req: dc.Request) -> None:
        """A sign-in that made the account: keep its secret (as the club does) and show its
        recovery code once."""
        from game.online.client.clubclient import keep_account

        made = dc.new_account(req)
        extra = self.app.settings.extra
        if made is None or not isinstance(extra, dict):
            return
        name, secret, recovery = made
        keep_account(extra, req.url, name, secret)
        self.app.save_settings()
        self.recovery = recovery

    def _keep_focus(self) -> None:
        """The fields and buttons are off while the server is asked: the focus comes back
        where it was (the play button when it was nowhere), for the keys."""
        if self._refocus is None:
            self._refocus = self.ui.focused or self.play_button

    def _take_seat(self, seat: KeptSeat) -> None:
        from game.services.challenge import OnlineDailyPlay

        self._keep_focus()
        try:
            session = dc.DailySession(
                seat["url"], seat["code"], seat["name"], token=seat["token"], host_token=seat["host_token"]
            )
        except ValueError:
            keep_seat(self.app, None)
            self.play()
            return
        OnlineDailyPlay(seat["info"]).attach(session)
        self.resuming = seat
        self.board = {"info": seat["info"], "lines": [], "mine": None}
        self.status = self.t("daily_online.dealing", address=shown_address(seat["url"]))
        self.connecting = hosting.Connecting(session, shown_address(seat["url"]))

    def show_board(self) -> None:
        if not self.idle:
            return
        where = self._where(need_name=False)
        if where is None:
            return
        url, name = where
        self.status = self.t("daily_online.fetching", address=shown_address(url))
        secret = self._secret(url, name)
        self._ask("board", lambda: dc.ask_for_board(url, name, self.game, self.preset, self.day.isoformat(), secret))

    def shift(self, days: int) -> None:
        """Another day's board (never one after today: it is not open yet)."""
        day = self.day + dt.timedelta(days=days)
        if day > dt.date.today() or not self.idle:
            return
        self.day = day
        if self.board is not None and not hosting.network_allowed(self.app):
            self.board = sample_board(self.day, self.game, self.preset)
        elif self.address_field.text.strip():
            self.show_board()

    def enter(self) -> None:
        super().enter()
        if self.playing is not None and self.playing.over:  # the deal is over: no seat to take back
            keep_seat(self.app, None)
            self.playing = None
        if self.refresh_on_enter:  # back from the day's table: your line is on the board now
            self.refresh_on_enter = False
            self.day = dt.date.today()
            self.show_board()

    # ------------------------------------------------------------------ the answers
    def update(self, dt_: float) -> None:
        super().update(dt_)
        if self.request is not None and self.request.poll():
            req, what = self.request, self.asking
            self.request, self.asking = None, None
            self._answered(req, what)
        arrived = self._arrived()
        if arrived is not None:
            session, error = arrived
            resumed, self.resuming = self.resuming, None
            if (
                error is not None
                and resumed is not None
                and getattr(session, "failed_code", None) in ("no_table", "bad_token", "replaced")
            ):
                keep_seat(self.app, None)  # that table is gone: ask for today's deal anew
                self.status = None
                self.play()
            elif error is not None:
                self.status, self.problem = None, hosting.describe(error, self.t)
            else:
                self.waiting = session
        if self.idle and self._refocus is not None:
            widget, self._refocus = self._refocus, None
            self.ui.focus(widget if widget.enabled else self.play_button)
        s = self.waiting
        if s is not None:
            s.poll()
            problem = hosting.session_problem(s)
            if problem is not None:
                s.close()
                self.waiting, self.status, self.problem = None, None, hosting.describe(problem, self.t)
            elif s.started and s.over:  # a kept seat whose deal had ended after all: its board
                s.close()
                keep_seat(self.app, None)
                self.waiting, self.status = None, None
                self.show_board()
            elif s.started and s.rules is not None and s.human_seat is not None:
                self.waiting, self.status = None, None
                self.refresh_on_enter = True
                self.playing = s
                self.app.open_scene("table", session=s)

    def _answered(self, req: dc.Request, what: str | None) -> None:
        address = shown_address(req.url)
        if req.error is not None:
            code, message = req.error
            self.status = None
            if code == "played":  # one play a day: the board is what is left to see
                self.problem = self.t("daily_online.played")
                self.day = dt.date.today()
                name = clean_name(self.name_field.text)
                secret = self._secret(req.url, name)
                self._ask(
                    "board",
                    lambda: dc.ask_for_board(req.url, name, self.game, self.preset, self.day.isoformat(), secret),
                )
            elif code in ("unreachable", "timeout"):
                self.problem = hosting.describe(hosting.OnlineError("error_unreachable", address=address), self.t)
            elif code == "version":
                self.problem = hosting.describe(hosting.OnlineError("error_version"), self.t)
            else:
                self.problem = self.t("daily_online.refused", reason=message or code)
            return
        if what == "board":
            self.status = None
            m = req.replies["daily_board"]
            info = dc.board_info(m.get("info"))
            lines = [ln for ln in (dc.board_line(v) for v in (m.get("lines") or [])[:100]) if ln is not None]
            # Asked without a name (as "guest"): no line is this player's.
            mine = dc.board_line(m.get("mine")) if self.name_field.text.strip() else None
            self.board = {"info": info, "lines": lines, "mine": mine}
            return
        from game.services.challenge import OnlineDailyPlay

        self._keep_new_account(req)
        created = req.replies["created"]
        info = dc.board_info(req.replies["daily_info"])
        token = (created.get("tokens") or {}).get("0")
        try:
            session = dc.DailySession(
                req.url,
                str(created.get("code")),
                clean_name(self.name_field.text),
                token=token,
                host_token=created.get("host_token"),
            )
        except (ValueError, AddressError) as e:
            self.status, self.problem = None, self.t("daily_online.refused", reason=str(e))
            return
        OnlineDailyPlay(info or {}).attach(session)
        if info is not None:  # kept until the deal is over: a window closed mid-deal takes the seat back
            keep_seat(
                self.app,
                {
                    "url": req.url,
                    "day": info["date"],
                    "game": self.game,
                    "preset": self.preset,
                    "name": session.name,
                    "code": session.code,
                    "token": str(token),
                    "host_token": str(created.get("host_token")),
                    "info": info,
                },
            )
        self.board = {"info": info, "lines": [], "mine": None} if info else self.board
        self.status = self.t("daily_online.dealing", address=address)
        self.connecting = hosting.Connecting(session, address)

    # ------------------------------------------------------------------ what it shows
    def rows(self) -> list[tuple[str, dict[str, Any], bool]]:
        """(rank, line, mine) for each line drawn (tests read it)."""
        return board_rows(self.board)

    def seal_lines(self) -> list[str]:
        """The day's commitment, and its seed and nonce once the day is over."""
        info = (self.board or {}).get("info")
        if not info:
            return []
        out = [self.t("daily_online.sealed", hash=info["hash"])]
        if info.get("seed") is not None:
            out.append(self.t("daily_online.revealed", seed=info["seed"], nonce=info["nonce"]))
        else:
            out.append(self.t("daily_online.not_revealed"))
        return out

    def title_line(self) -> str:
        g = self.app.config.games[self.game]
        lang = self.app.language
        names = {p.id: p.name for p in g.presets}
        game = g.name.get(lang) or g.name.get("en", self.game)
        if self.preset in names:  # a preset's name is a locale key
            game = f"{game} · {self.t(names[self.preset])}"
        return self.t("daily_online.board_title", game=game, date=self.day.isoformat())

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("daily_online.title")
        theme.heading(surface, title, (X, r.y + 22), theme.fit(title, "serif_bold", 28, W, 16, 0.22, True))
        for i, ln in enumerate(theme.wrap(self.t("daily_online.intro"), "sans", 14, W, max_lines=2)):
            theme.blit_text(surface, ln, (X, r.y + 62 + 18 * i), "sans", 14, theme.CREAM_DIM)
        y = r.y + 104 + 80 + 58
        status, color = (self.status, theme.BRASS_LIGHT) if self.status else (self.problem, ERROR)
        if not status and self.recovery:
            status, color = self.t("club.account_new", code=self.recovery), theme.BRASS_LIGHT
        if status:
            theme.blit_text(surface, status, (X, y), "sans_bold", theme.fit(status, "sans_bold", 14, W, 9), color)
        y += 26
        head = self.title_line()
        theme.small_caps(surface, head, (X, y), theme.fit(head, "cond_bold", 14, W, 9, 0.16, True), theme.BRASS_LIGHT)
        y += 24
        draw_board(surface, self.t, self.board, X, y, W)
        seal_y = r.bottom - 60 - 44
        for i, ln in enumerate(self.seal_lines()):
            theme.blit_text(surface, ln, (X, seal_y + 20 * i), "sans", theme.fit(ln, "sans", 13, W, 8), theme.CREAM_DIM)
        self.ui.draw(surface)
        hint = self.t("daily_online.hint")
        theme.blit_text(
            surface,
            hint,
            (640, 716),
            "sans",
            theme.fit(hint, "sans", 13, 1200, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def create(app: AppServices, game: str | None = None, preset: str | None = None, **params: object) -> OnlineDailyScene:
    return OnlineDailyScene(app, game, preset)


__all__ = ["OnlineDailyScene", "create", "keep_seat", "kept_seat"]
