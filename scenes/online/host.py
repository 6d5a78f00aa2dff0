"""Host a table: the game, deck, players and house rules (the game screen's own choices:
its "House rules and length…" opens the game screen, whose Choose comes back here), each
seat a friend or the computer at a level, your name, the port, and what happens when a
friend drops out. Open the table starts the server inside the game, creates the table,
takes seat 0 and opens the lobby, which shows the address, the code and the link.

Keys: Tab / arrows move, Left/Right change a chooser, typing fills a field (Ctrl+V pastes),
Enter presses; Esc goes back.
"""

from __future__ import annotations

from functools import partial
from typing import TypedDict

import pygame

from game.rulesets import game_ids, make_rules
from game.services.settings import AI_LEVELS
from scenes import names
from scenes.game_choice import GameChoice
from scenes.online import hosting
from scenes.online.address import DEFAULT_PORT, AddressError, clean_name, parse_port
from scenes.online.fields import ERROR, TextField, route_text, typing
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widget_base import Label
from sprites.widgets import Button, Choice

PANEL = pygame.Rect(90, 20, 1100, 656)
LEFT_X, LEFT_W = PANEL.x + 40, 480
RIGHT_X, RIGHT_W = PANEL.x + 580, 480
FRIEND = "friend"
SEAT_KINDS = (FRIEND, *(f"ai:{lvl}" for lvl in AI_LEVELS))


#: Seat tokens kept for rejoining (the latest tables joined).
MAX_TOKENS = 20


class LastTable(TypedDict):
    """The online table left in the middle of its match: its code and address, and the port
    of the server this window hosted for it (None: a friend's table)."""

    code: str
    address: str
    port: int | None


class Remembered(TypedDict, total=False):
    """The online choices kept in the settings, each checked."""

    name: str
    port: str
    address: str
    last: LastTable
    accounts: dict[str, dict[str, str]]
    servers: list[dict[str, str]]
    tokens: dict[str, str]


def remembered(app: AppServices) -> Remembered:
    """The online choices kept in the settings (name, port, address; the seat tokens of the
    tables joined last, by table code), each checked."""
    extra = app.settings.extra
    data = extra.get("online") if isinstance(extra, dict) else None
    data = data if isinstance(data, dict) else {}
    out = Remembered()
    for k in ("name", "port", "address"):
        v = data.get(k)
        if isinstance(v, str) and len(v) <= 300:
            out[k] = v
    last = data.get("last")  # the table left mid-match (scenes.online.rejoin)
    if isinstance(last, dict) and all(
        isinstance(last.get(k), str) and len(last[k]) <= 300 for k in ("code", "address")
    ):
        out["last"] = {
            "code": str(last["code"]),
            "address": str(last["address"]),
            "port": last["port"]
            if isinstance(last.get("port"), int) and not isinstance(last["port"], bool) and 0 < last["port"] < 65536
            else None,
        }
    from game.online.client.clubclient import kept_accounts, kept_servers

    if "accounts" in data:  # the club servers' accounts (game.online.client.clubclient), each checked
        out["accounts"] = kept_accounts(extra)
    if "servers" in data:
        out["servers"] = kept_servers(extra)
    tokens = data.get("tokens")
    if isinstance(tokens, dict):
        out["tokens"] = {
            k: v
            for k, v in list(tokens.items())[-MAX_TOKENS:]
            if isinstance(k, str) and isinstance(v, str) and len(k) <= 20 and len(v) <= 64
        }
    return out


def remember_seat(app: AppServices, code: str, token: str | None) -> None:
    """Keep the seat's secret, so that joining this table again takes the same seat back
    (after the window was closed in the middle of a match)."""
    if not token:
        return
    tokens = dict(remembered(app).get("tokens", {}))
    tokens.pop(code, None)
    tokens[code] = token
    remember(app, tokens=dict(list(tokens.items())[-MAX_TOKENS:]))


def remember(app: AppServices, **values: object) -> None:
    """Keep online choices for next time (in the settings' own file, beside the rest)."""
    extra = app.settings.extra
    if not isinstance(extra, dict):
        return
    extra["online"] = {**remembered(app), **values}
    app.save_settings()


class HostScene(GameChoice, hosting.HoldsConnecting, UIScene):
    def __init__(self, app: AppServices, game: str | None = None, deck: str | None = None, **params: object):
        self.app = app
        cfg = app.config
        last = app.settings.last_deck
        first = next((g for g in (cfg.decks[last].games if last in cfg.decks else ()) if g in cfg.games), game_ids()[0])
        self.game = game if game is not None and game in cfg.games else first
        self.deck = (
            deck
            if deck is not None and deck in cfg.decks and self.game in cfg.decks[deck].games
            else self._first_deck()
        )
        self.players = self._remembered_players()
        #: The game screen's choice (deck, game, players, every option in force), when it sent one.
        self.given: tuple[str, int, dict] | None = None
        self.seats = [FRIEND] + [FRIEND] * 3
        self.ai_takes_over = True
        self.problem: str | None = None
        self.connecting: hosting.Connecting | None = None
        self.hosted: hosting.Hosted | None = None
        super().__init__(app)

    # ------------------------------------------------------------------ choices
    def set_game(self, gid: str) -> None:
        self.choose_game(gid)

    def picked(self, deck: str, game: str, players: int, options: dict) -> None:
        """The game screen's Choose: its game, count and options come here."""
        self.deck, self.game, self.players = deck, game, players
        self.given = (game, players, dict(options))

    # ------------------------------------------------------------------ layout
    def build(self) -> None:
        cfg = self.app.config
        saved = remembered(self.app)
        lang = lambda: self.app.language  # noqa: E731
        idle = lambda: self.connecting is None  # noqa: E731
        y = PANEL.y + 120
        games = [
            (g, (lambda g=g: cfg.games[g].name.get(lang()) or cfg.games[g].name.get("en", g)))
            for g in game_ids()
            if g in cfg.games
        ]
        self.game_choice = self.ui.add(
            Choice(
                (LEFT_X, y, 330, 58),
                self.label("online.game"),
                games,
                lambda: self.game,
                self.set_game,
                compact=True,
                name="game",
                enabled=idle,
            )
        )
        self.ui.add(
            Choice(
                (LEFT_X + 350, y, 130, 58),
                self.label("games.players"),
                self._player_values,
                lambda: self.players,
                self._set_players,
                name="players",
                enabled=idle,
            )
        )
        self.ui.add(
            Choice(
                (LEFT_X, y + 76, LEFT_W, 58),
                self.label("online.deck"),
                self._deck_values,
                lambda: self.deck,
                self._set_deck,
                compact=True,
                name="deck",
                enabled=idle,
            )
        )
        self.ui.add(
            Button(
                (LEFT_X, y + 200, LEFT_W, 42),
                self.label("online.rules_button"),
                self.edit_rules,
                size=15,
                name="rules",
                enabled=idle,
            )
        )
        self.name_field = self.ui.add(
            TextField(
                (LEFT_X, y + 272, LEFT_W, 62),
                self.label("online.your_name"),
                saved.get("name", ""),
                max_len=20,
                on_enter=self.start,
                placeholder=self.label("online.name_hint"),
                name="name",
            )
        )
        self.port_field = self.ui.add(
            TextField(
                (LEFT_X, y + 356, 150, 62),
                self.label("online.port"),
                saved.get("port", str(DEFAULT_PORT)),
                max_len=5,
                allowed=str.isdigit,
                on_enter=self.start,
                name="port",
            )
        )
        self.seat_choices: list[Choice] = []
        for i in range(1, 4):

            def seat_kind(i: int = i) -> object:
                return self.seats[i]

            c = self.ui.add(
                Choice(
                    (RIGHT_X, y + 52 + (i - 1) * 74, RIGHT_W, 58),
                    self._seat_caption(i),
                    [(k, self._kind_label(k)) for k in SEAT_KINDS],
                    seat_kind,
                    partial(self._set_seat, i),
                    visible=lambda i=i: i < self.players,
                    name=f"seat:{i}",
                    enabled=idle,
                )
            )
            self.seat_choices.append(c)
        self.ui.add(
            Choice(
                (RIGHT_X, y + 300, RIGHT_W, 58),
                self.label("online.takeover"),
                [(True, self.label("online.takeover_ai")), (False, self.label("online.takeover_wait"))],
                lambda: self.ai_takes_over,
                self._set_takeover,
                name="takeover",
                enabled=idle,
            )
        )
        by = PANEL.bottom - 68
        self.ui.add(Button((LEFT_X, by, 170, 46), self.label("common.back"), self.back, icon="‹", size=15, name="back"))
        self.start_button = self.ui.add(
            Button(
                (PANEL.right - 40 - 280, by - 2, 280, 50),
                self.label("online.start"),
                self.start,
                style="primary",
                size=17,
                name="start",
                enabled=idle,
            )
        )
        self.ui.focus(self.name_field if not self.name_field.text else self.start_button)

    def _seat_caption(self, seat: int) -> Label:
        return lambda: self.t(
            "online.seat",
            n=seat + 1,
            where=names.seat_name(self.t, seat, 0, self.players, team_of=names.game_teams(self.game, self.players)),
        )

    def _kind_label(self, kind: str) -> Label:
        return self.label("online.friend") if kind == FRIEND else self.label(f"ai.{kind.split(':', 1)[1]}")

    def _set_players(self, n: int) -> None:
        self.players = n

    def _set_deck(self, d: str) -> None:
        self.deck = d

    def _set_seat(self, i: int, kind: str) -> None:
        self.seats[i] = kind

    def _set_takeover(self, v: bool) -> None:
        self.ai_takes_over = v

    @property
    def wants_text(self) -> bool:
        return typing(self)

    # ------------------------------------------------------------------ actions
    def edit_rules(self) -> None:
        """The game screen for this deck, this game and count first; its Choose comes back."""
        self.app.open_scene("games", deck=self.deck, game=self.game, players=self.players, on_pick=self.picked)

    def seat_kinds(self) -> list[str]:
        return [FRIEND, *self.seats[1 : self.players]]

    def start(self) -> None:
        if self.connecting is not None:
            return
        self.problem = None
        try:
            name = clean_name(self.name_field.text)
            port = parse_port(self.port_field.text, any_free=True)
        except AddressError as e:
            self.problem = hosting.describe(e, self.t)
            return
        opts = self.options()
        try:
            rules = make_rules(self.game, self.deck, self.players, opts)
        except ValueError as e:  # a combination the rules refuse: say so, open nothing
            self.problem = str(e)
            return
        remember(self.app, name=name, port=str(port))
        if not hosting.network_allowed(self.app):
            self.problem = hosting.describe(hosting.OnlineError("error_headless"), self.t)
            return
        try:
            session, self.hosted = hosting.host_table(
                port, name, self.game, self.deck, self.players, opts, self.seat_kinds(), self.ai_takes_over, rules
            )
        except hosting.OnlineError as e:
            self.problem = hosting.describe(e, self.t)
            return
        self.connecting = hosting.Connecting(session, f"127.0.0.1:{self.hosted.port}")

    def handle(self, event: pygame.event.Event) -> None:
        if route_text(self, event):
            return
        super().handle(event)

    def back(self) -> None:
        self._drop()
        super().back()

    def update(self, dt: float) -> None:
        for w in self.ui.widgets:
            if not isinstance(w, Choice):
                continue
            if w.name == "deck":
                w.options = self._deck_values
            elif w.name == "players":
                w.options = self._player_values
        super().update(dt)
        arrived = self._arrived()
        if arrived is None:
            return
        session, error = arrived
        if error is not None:
            self.problem = hosting.describe(error, self.t)
            return
        remember_seat(self.app, session.code, session.token)
        hosted = self.hosted
        if hosted is None:  # set when the table was hosted, before its session could arrive
            raise RuntimeError("a hosted table's session arrived without its server")
        # The table to offer again on the menu (scenes.online.rejoin): this window hosts it.
        remember(self.app, last={"code": session.code, "address": f"127.0.0.1:{hosted.port}", "port": hosted.port})
        self.app.open_scene("online_lobby", session=session, hosted=self.hosted)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("online.host_title")
        theme.heading(
            surface, title, (r.x + 40, r.y + 24), theme.fit(title, "serif_bold", 28, r.w - 80, 16, 0.22, True)
        )
        intro = self.t("online.host_intro")
        theme.blit_text(
            surface, intro, (r.x + 40, r.y + 70), "sans", theme.fit(intro, "sans", 15, r.w - 80, 10), theme.CREAM_DIM
        )
        y = r.y + 120
        line = self.rules_line()
        theme.blit_text(
            surface,
            line,
            (LEFT_X, y + 160),
            "sans_bold",
            theme.fit(line, "sans_bold", 15, LEFT_W, 10),
            theme.BRASS_LIGHT,
        )
        head = self.t("online.seats_host")
        theme.small_caps(
            surface, head, (RIGHT_X, y), theme.fit(head, "cond_bold", 13, RIGHT_W, 9, 0.16, True), theme.BRASS
        )
        you = self.t("online.seat_you", n=1)
        theme.blit_text(
            surface, you, (RIGHT_X, y + 22), "sans_bold", theme.fit(you, "sans_bold", 15, RIGHT_W, 10), theme.CREAM
        )
        note = self.t(
            "online.takeover_note_ai" if self.ai_takes_over else "online.takeover_note_wait",
            seconds=hosting.PAUSE_SECONDS,
        )
        for i, ln in enumerate(theme.wrap(note, "sans", 13, RIGHT_W, max_lines=2)):
            theme.blit_text(surface, ln, (RIGHT_X, y + 364 + 17 * i), "sans", 13, theme.CREAM_DIM)
        port_note = self.t("online.port_note")
        for i, ln in enumerate(theme.wrap(port_note, "sans", 13, LEFT_W - 170, max_lines=3)):
            theme.blit_text(surface, ln, (LEFT_X + 170, y + 380 + 17 * i), "sans", 13, theme.CREAM_DIM)
        status = self.problem or (self.t("online.starting") if self.connecting is not None else None)
        if status:
            color = ERROR if self.problem else theme.BRASS_LIGHT
            room = (r.right - 40 - 280 - 20) - (LEFT_X + 190)
            for i, ln in enumerate(theme.wrap(status, "sans_bold", 14, room, max_lines=2)):
                theme.blit_text(surface, ln, (LEFT_X + 190, r.bottom - 62 + 18 * i), "sans_bold", 14, color)
        self.ui.draw(surface)
        hint = self.t("online.hint_form")
        theme.blit_text(
            surface,
            hint,
            (640, 702),
            "sans",
            theme.fit(hint, "sans", 13, 1100, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def create(app: AppServices, game: str | None = None, deck: str | None = None, **params: object) -> HostScene:
    return HostScene(app, game=game, deck=deck)


__all__ = ["HostScene", "create", "remembered", "remember", "remember_seat", "SEAT_KINDS"]
