"""A club server's events in the window: "Play online" → a club → Events.

The list (today's tournaments, one per game; the arenas running and coming; the Swiss
tournaments to join or under way; your challenges) on the left, what the chosen event holds
on the right. A tournament of the day is entered and played from here — each deal at a table
the server sets up (the house bots in the other seats), opened as any online table — and once
you have played every deal its standings show, and for each deal you have played, how the
field played it: the spread of scores, your rank, par and the best results.

A challenge accepted is played from here the same way (scenes.online.events_challenge).

Keys: ↑↓ / Tab move (past the list's ends, and the wheel, scroll it), Enter plays or opens, S
the standings, F the field, ←/→ another deal's field, J joins an arena, registers for a Swiss
tournament (in a partnership game, with the partner named in the field that shows) or accepts
a challenge (scenes.online.events_join), P pauses, D declines, Esc back. What arrives is also
said (the standings' head and your line, a deal's result). The window never waits on the
network: each question is a
game.online.client.daily_client.Request polled every tick. Without a network (screenshots,
the text-fit checks) it shows sample events (:func:`sample`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import pygame

from game.online.client import daily_client as dc
from game.online.client.events import ChallengeSession, Line, TourSession, standing_line
from game.online.wire.messages import as_float, as_int
from game.rules.vocabulary import JsonObject
from scenes.online import events_draw, hosting
from scenes.online.address import AddressError, server_url, shown_address
from scenes.online.events_challenge import Challenging
from scenes.online.events_data import Item, list_of, num_of, obj_of, sample, sample_choice, text_of
from scenes.online.events_draw import LEFT_W, LEFT_X, PANEL, RIGHT_W, RIGHT_X
from scenes.online.events_join import Joining, pending_for_me
from scenes.online.fields import TextField, route_text, typing
from scenes.scene import AppServices, UIScene
from sprites.widgets import Button

ROWS = 7  # the last row ends above the Back button
ROW_H = 52


class EventsScene(Joining, Challenging, hosting.AsksAndWaits, UIScene):
    def __init__(
        self, app: AppServices, server: dict | None = None, player: str = "", view: str | None = None, **params: object
    ):
        self.server = server or {"name": "", "address": "127.0.0.1:7420"}
        self.player = player or "Player"
        self.url = ""
        self.problem: str | None = None
        self.status: str | None = None
        self.request: dc.Request | None = None
        self.asking: str | None = None
        self.listing: JsonObject | None = None
        self.selected = 0
        #: What the right side shows: "info", "standings" or "field".
        self.pane = "info"
        self.standings: list[Line] | None = None
        #: An arena's or a Swiss tournament's standings: (rank, name, what they scored).
        self.lines: list[tuple[str, str, str]] | None = None
        self.field: JsonObject | None = None
        self.field_deal = 0
        self.connecting: hosting.Connecting | None = None
        #: The deal's seat on its way to the table, and the one handed to it.
        self.waiting: TourSession | ChallengeSession | None = None
        self.playing: TourSession | ChallengeSession | None = None
        #: Per Swiss tournament, the team the player is registered in (as the server named it).
        self.teams: dict[str, str] = {}
        self.recovery: str | None = None
        self.tables = []
        #: The list's first line shown (it scrolls by ↑/↓ past its ends, and by the wheel).
        self.first = 0
        super().__init__(app)
        try:
            self.url, _ = server_url(self.server["address"])
        except AddressError as e:
            self.problem = self.t(f"online.{e.key}")
            return
        if hosting.network_allowed(app):
            self.refresh()
        else:  # screenshots and the text-fit checks: sample events
            s = sample()
            self.listing = obj_of(s["listing"])
            if view == "standings":
                lines = [standing_line(v) for v in list_of(s["standings"])]
                self.pane, self.standings = "standings", [ln for ln in lines if ln is not None]
            elif view == "field":
                self.pane, self.field, self.field_deal = "field", obj_of(s["field"]), 2
            elif view in ("challenge", "result", "partner", "asked", "waiting"):  # the sample's line to show
                self.selected = sample_choice(self.items(), view)
                self.scroll(self.selected - ROWS + 1)
                self.ui.focus(self.ui.widgets[self.selected - self.first])
                if view == "partner":
                    self.partner_field.set_text("Marco")
                    self.ui.focus(self.partner_field)
            elif view in ("arena", "swiss"):
                self.selected = len(list_of(self.listing["tournaments"])) + (view == "swiss")
                self.pane = "standings"
                self.lines = [self._other_line(view, obj_of(v)) for v in list_of(s[view])]

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        for i in range(ROWS):
            self.ui.add(
                Button(
                    (LEFT_X, PANEL.y + 130 + i * (ROW_H + 8), LEFT_W, ROW_H),
                    partial(self._row_label, i),
                    partial(self.choose, i, True),
                    size=15,
                    name=f"event{i}",
                    visible=lambda i=i: self.first + i < len(self.items()),
                )
            )
        by = PANEL.y + 130
        self.play_button = self.ui.add(
            Button(
                (RIGHT_X, by, 300, 46),
                self._play_label,
                self.play,
                style="primary",
                size=15,
                name="play",
                visible=self.can_play,
                enabled=lambda: self.idle,
            )
        )
        self.partner_field = self.ui.add(
            TextField(
                (RIGHT_X, by + 58, 300, 62),
                self.label("club_events.partner"),
                "",
                max_len=20,
                on_enter=self.join,
                placeholder=self.label("club_events.partner_hint"),
                name="partner",
                visible=self.asks_partner,
            )
        )
        self.ui.add(
            Button(
                (RIGHT_X + 316, by, RIGHT_W - 316, 46),
                self.label("club_events.standings"),
                self.show_standings,
                size=15,
                name="standings",
                visible=lambda: self._kind() in ("tod", "arena", "swiss"),
                enabled=lambda: self.idle,
            )
        )
        self.ui.add(
            Button(
                (RIGHT_X, by, 300, 46),
                self.join_label,
                self.join,
                style="primary",
                size=15,
                name="join",
                visible=lambda: self._kind() in ("arena", "swiss", "challenge") and self.can_join(),
            )
        )
        self.ui.add(
            Button(
                (RIGHT_X + 316, by, RIGHT_W - 316, 46),
                self.label("club_events.decline"),
                self.decline,
                size=15,
                name="decline",
                visible=lambda: pending_for_me(self.selected_item()),
            )
        )
        self.ui.add(
            Button(
                (RIGHT_X, by + 58, RIGHT_W - 136, 44),
                lambda: self.t("club_events.field", n=self.field_deal + 1),
                self.show_field,
                size=14,
                name="field",
                visible=self._is_tournament,
                enabled=lambda: self.idle,
            )
        )
        self.ui.add(
            Button(
                (RIGHT_X + RIGHT_W - 124, by + 58, 58, 44),
                lambda: "‹",
                lambda: self.turn_deal(-1),
                size=18,
                name="deal_prev",
                visible=self._is_tournament,
            )
        )
        self.ui.add(
            Button(
                (RIGHT_X + RIGHT_W - 58, by + 58, 58, 44),
                lambda: "›",
                lambda: self.turn_deal(1),
                size=18,
                name="deal_next",
                visible=self._is_tournament,
            )
        )
        self.ui.add(
            Button(
                (LEFT_X, PANEL.bottom - 60, 160, 44),
                self.label("common.back"),
                self.back,
                icon="‹",
                size=15,
                name="back",
            )
        )
        self.ui.focus(self.ui.widgets[0])

    # ------------------------------------------------------------------ the events
    def _game_name(self, game: object) -> str:
        g = str(game)
        if g not in self.app.config.games:
            return g
        names = self.app.config.game(g).name
        if isinstance(names, Mapping):
            return str(names.get(self.app.i18n.language) or names.get("en") or g)
        return str(names)

    def items(self) -> list[Item]:
        """The list's lines: (kind, the event as the server sent it)."""
        lst = self.listing or {}
        out: list[Item] = []
        for kind, key in (("tod", "tournaments"), ("arena", "arenas"), ("swiss", "swiss"), ("challenge", "challenges")):
            value = lst.get(key)
            for e in value if isinstance(value, list) else []:
                if isinstance(e, dict):
                    out.append(Item(kind, e))
        return out[:100]

    def selected_item(self) -> Item | None:
        items = self.items()
        return items[self.selected] if 0 <= self.selected < len(items) else None

    def _kind(self) -> str | None:
        item = self.selected_item()
        return item.kind if item is not None else None

    def _is_tournament(self) -> bool:
        item = self.selected_item()
        return item is not None and item.kind == "tod"

    @staticmethod
    def _time(v: object) -> str:
        return text_of(v).replace("T", " ")[:16]

    def describe(self, item: Item) -> tuple[str, str]:
        """(the line's title, its detail) in the player's language."""
        e, kind = item.event, item.kind
        game = self._game_name(e.get("game"))
        if kind == "tod":
            me = obj_of(e.get("me"))
            deals = e.get("deals", 0)
            if not me.get("entered"):
                detail = self.t("club_events.not_entered", deals=deals)
            elif me.get("next") is None:
                detail = self.t("club_events.finished")
            else:
                detail = self.t("club_events.progress", ended=me.get("ended", 0), deals=deals)
            return self.t("club_events.tournament", game=game), detail
        name = text_of(e.get("id")).partition(":")[2]
        if kind == "arena":
            detail = (
                self.t("club_events.arena_running", end=self._time(e.get("end"))[11:], players=e.get("players", 0))
                if e.get("running")
                else self.t("club_events.arena_coming", start=self._time(e.get("start")), end=self._time(e.get("end")))
            )
            return self.t("club_events.arena", name=name, game=game), detail
        if kind == "swiss":
            detail = (
                self.t("club_events.swiss_open", start=self._time(e.get("start")), entrants=e.get("entrants", 0))
                if e.get("open")
                else self.t(
                    "club_events.swiss_round",
                    round=e.get("round", 0),
                    rounds=e.get("rounds", 0),
                    entrants=e.get("entrants", 0),
                )
            ) + self.team_detail(item)
            return self.t("club_events.swiss", name=name, game=game), detail
        title = self.t("club_events.challenge", opponent=text_of(e.get("opponent"), 20), game=game)
        return title, self.challenge_detail(e)

    def _row_label(self, i: int) -> str:
        items = self.items()
        if self.first + i >= len(items):
            return ""
        return self.describe(items[self.first + i])[0]  # the detail is on the right, and said when chosen

    def can_play(self) -> bool:
        """The chosen event has a deal for the player to play now (Play shows)."""
        return (self._is_tournament() and self._next_deal() is not None) or self.challenge_played() is not None

    def _next_deal(self) -> int | None:
        item = self.selected_item()
        if item is None or item.kind != "tod":
            return None
        me = item.event.get("me")
        nxt = me.get("next") if isinstance(me, dict) else 0
        return nxt if isinstance(nxt, int) else None

    def _play_label(self) -> str:
        item = self.selected_item()
        if item is None:
            return ""
        played = self.challenge_played()
        if played is not None:
            return self.t("club_events.play_next", n=played + 1, deals=item.event.get("deals", 0))
        nxt = self._next_deal()
        if nxt is None:
            return self.t("club_events.all_played")
        if not obj_of(item.event.get("me")).get("entered"):
            return self.t("club_events.play_first")
        return self.t("club_events.play_next", n=nxt + 1, deals=item.event.get("deals", 0))

    # ------------------------------------------------------------------ what the player asks
    def _secret(self) -> str | None:
        from game.online.client.clubclient import account_secret

        return account_secret(self.app.settings.extra, self.url, self.player)

    def _ask(self, what: str, message: dict, wants: tuple[str, ...]) -> None:
        if not self.url or not hosting.network_allowed(self.app):
            return
        try:
            self.request = dc.Request(
                self.url, self.player, message, wants, account=dc.account_message(self.player, self._secret())
            )
        except ValueError:
            self.problem = hosting.describe(AddressError("bad_address"), self.t)
            return
        self.asking = what
        self.problem = None

    def refresh(self) -> None:
        if self.request is None:
            self.status = self.t("club_events.loading")
            self._ask("list", {"type": "event_list"}, ("event_list",))

    def choose(self, i: int, row: bool = False) -> None:
        """A line of the list chosen (``row``: the i-th shown): its details (Enter on a
        tournament already chosen plays, on an arena, a Swiss tournament or a challenge joins)."""
        i += self.first if row else 0
        if i == self.selected and self.can_play():
            self.play()
            return
        if i == self.selected and self.enter_joins():  # Enter never pauses nor withdraws
            self.join()
            return
        self.selected, self.pane = i, "info"
        self.standings, self.field, self.field_deal, self.lines = None, None, 0, None
        item = self.selected_item()
        if item is not None:
            self.app.say(self.describe(item)[1])

    def _where(self) -> JsonObject | None:
        item = self.selected_item()
        if item is None or item.kind != "tod":
            return None
        e = item.event
        return {"game": text_of(e.get("game"), 40), "preset": text_of(e.get("preset"), 40) or None}

    def play(self) -> None:
        item = self.selected_item()
        played = self.challenge_played()
        if item is not None and played is not None:
            self.play_challenge(item)
            return
        where = self._where()
        if where is None or not self.idle or self._next_deal() is None:
            return
        self.status = self.t("club_events.dealing")
        self._ask("deal", {"type": "tod_deal", **where}, ("created", "tod"))

    def show_standings(self) -> None:
        item = self.selected_item()
        if item is not None and item.kind in ("arena", "swiss") and self.idle:
            self.pane = "standings"
            kind = item.kind
            self._ask(kind, {"type": f"{kind}_standings", "id": text_of(item.event.get("id"), 80)}, (kind,))
            return
        where = self._where()
        if where is None or not self.idle:
            return
        self.pane = "standings"
        self._ask("standings", {"type": "tod_standings", **where, "date": None}, ("tod_standings",))

    def show_field(self) -> None:
        where = self._where()
        if where is None or not self.idle:
            return
        self.pane = "field"
        msg = {"type": "tod_field", **where, "date": None, "deal": self.field_deal}
        self._ask("field", msg, ("tod_field",))

    def turn_deal(self, step: int) -> None:
        item = self.selected_item()
        if item is None or item.kind != "tod":
            return
        deals = max(1, int(num_of(item.event.get("deals"))))
        self.field_deal = (self.field_deal + step) % deals
        self.app.say(self.t("club_events.field", n=self.field_deal + 1), interrupt=True)
        if self.pane == "field":
            self.show_field()

    def handle(self, event: pygame.event.Event) -> None:
        if route_text(self, event):
            return
        if event.type == pygame.KEYDOWN and not typing(self):
            if event.key == pygame.K_s:
                self.show_standings()
                return
            if event.key == pygame.K_f:
                self.show_field()
                return
            focused = self.ui.focused.name if self.ui.focused is not None else ""
            step = {(pygame.K_DOWN, f"event{ROWS - 1}"): 1, (pygame.K_UP, "event0"): -1}.get((event.key, focused))
            if step is not None and self.scroll(step):
                return
            keys = {pygame.K_j: self.join, pygame.K_p: self.pause, pygame.K_a: self.join, pygame.K_d: self.decline}
            if event.key in keys and (event.key != pygame.K_a or pending_for_me(self.selected_item())):
                keys[event.key]()
                return
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT) and self._is_tournament():
                self.turn_deal(-1 if event.key == pygame.K_LEFT else 1)
                return
        if event.type == pygame.MOUSEWHEEL and self.scroll(-event.y):
            return
        super().handle(event)

    def scroll(self, step: int) -> bool:
        """The list moved by ``step`` lines, when it can (the focus stays on its row)."""
        first = max(0, min(self.first + step, len(self.items()) - ROWS))
        moved, self.first = first != self.first, first
        return moved

    def leave(self) -> None:
        super().leave()
        if self not in self.app.stack.scenes:
            self.close_link()

    def close(self) -> None:
        super().close()
        self.close_link()

    def enter(self) -> None:
        super().enter()
        s = self.playing
        if s is not None and getattr(s, "failed_code", None) == "no_show":  # the opponent never came
            self.playing = None
            self.refresh()
            self.status = self.t("club_events.no_show_won")
            self.app.toast(self.status)  # seen (and heard) while the list is asked again
        elif isinstance(s, ChallengeSession) and s.over:
            self.playing = None
            self.challenge_dealt(s.challenge)
            self.refresh()
        elif isinstance(s, TourSession) and s.over:
            self.playing = None
            result = s.tod_result
            if result is not None:
                n, score = as_int(result["deal"]) + 1, as_float(result["score"])
                text = self.t("club_events.result", n=n, score=f"{score:g}")
                self.app.toast(text)
                self.app.say(text)
            self.refresh()

    # ------------------------------------------------------------------ the answers
    def update(self, dt_: float) -> None:
        super().update(dt_)
        if self.request is not None and self.request.poll():
            req, what = self.request, self.asking
            self.request, self.asking = None, None
            self._answered(req, what)
        self.poll_link()
        arrived = self._arrived()
        if arrived is not None:
            session, error = arrived
            if error is not None:
                self.status, self.problem = None, hosting.describe(error, self.t)
            else:
                self.waiting = session
        s = self.waiting
        if s is not None:
            s.poll()
            problem = hosting.session_problem(s)
            if problem is not None:
                s.close()
                self.waiting, self.status, self.problem = None, None, hosting.describe(problem, self.t)
            elif s.started and s.rules is not None and s.human_seat is not None:
                self.waiting, self.status = None, None
                self.playing = s
                self.app.open_scene("table", session=s)

    def _keep_new_account(self, req: dc.Request) -> None:
        from game.online.client.clubclient import keep_account

        made = dc.new_account(req)
        extra = self.app.settings.extra
        if made is None or not isinstance(extra, dict):
            return
        name, secret, recovery = made
        keep_account(extra, req.url, name, secret)
        self.app.save_settings()
        self.recovery = recovery

    def _answered(self, req: dc.Request, what: str | None) -> None:
        self.status = None
        self._keep_new_account(req)
        if req.error is not None:
            code, message = req.error
            if code == "hidden":
                self.problem = None
                if self.pane == "standings":
                    self.standings = []
                else:
                    self.field = {}
                self.app.say(
                    self.t("club_events.hidden_standings" if self.pane == "standings" else "club_events.hidden_field")
                )
            elif code in ("unreachable", "timeout"):
                self.problem = hosting.describe(
                    hosting.OnlineError("error_unreachable", address=shown_address(req.url)), self.t
                )
            else:
                self.problem = self.t("club_events.refused", reason=message or code)
            return
        if what == "list":
            m = req.replies["event_list"]
            self.listing = {k: m.get(k) for k in ("tournaments", "arenas", "swiss", "challenges")}
            self.selected = min(self.selected, max(0, len(self.items()) - 1))
            self.scroll(0)
            self.reattach()
            if not self.items():
                self.app.say(self.t("club_events.none"))
            return
        if what in ("arena", "swiss"):
            m = req.replies[what]
            raw = m.get("standings")
            self.lines = [
                self._other_line(what, v) for v in (raw if isinstance(raw, list) else []) if isinstance(v, dict)
            ]
            if self.lines:
                self.app.say(", ".join(" ".join(ln) for ln in self.lines[:3]))
            return
        if what == "standings":
            m = req.replies["tod_standings"]
            raw = m.get("lines")
            self.standings = [ln for ln in (standing_line(v) for v in (raw if isinstance(raw, list) else [])) if ln]
            self.app.say(self._standings_head())
            return
        if what == "field":
            f = req.replies["tod_field"].get("field")
            self.field = f if isinstance(f, dict) else {}
            said = self.field_lines()
            self.app.say(" ".join(said[:2]))
            return
        created = req.replies["created"]
        token = (created.get("tokens") or {}).get("0")
        kind = ChallengeSession if what == "challenge_deal" else TourSession
        try:
            session: TourSession | ChallengeSession = kind(
                self.url, text_of(created.get("code"), 20), self.player, token if isinstance(token, str) else None
            )
        except ValueError as e:
            self.problem = self.t("club_events.refused", reason=str(e))
            return
        session.result_wait = 0.0  # the window never waits on closing: the result comes before the end
        self.status = self.t("club_events.dealing")
        self.connecting = hosting.Connecting(session, shown_address(self.url))

    # ------------------------------------------------------------------ what it shows
    def _standings_head(self) -> str:
        item = self.selected_item()
        e = item.event if item else {}
        head = self.t("club_events.standings_title", game=self._game_name(e.get("game")), date=text_of(e.get("date")))
        mine = next((ln for ln in self.standings or [] if ln["name"].casefold() == self.player.casefold()), None)
        if mine is not None and mine["rank"] is not None:
            head += f". {mine['rank']}. {mine['name']} {mine['percent']:.2f}%"
        return head

    def _other_line(self, kind: str, v: JsonObject) -> tuple[str, str, str]:
        """(rank, name, what it scored) of an arena's or a Swiss tournament's line."""
        name = text_of(v.get("name"), 41)
        if kind == "arena":
            if v.get("fire"):
                name += f" ({self.t('club_events.web.fire')})"
            value = self.t("club_events.arena_points", points=text_of(v.get("points")))
        else:
            score, bh = v.get("score"), v.get("buchholz")
            value = self.t(
                "club_events.swiss_score",
                score=f"{float(score):g}" if isinstance(score, (int, float)) else "",
                buchholz=f"{float(bh):g}" if isinstance(bh, (int, float)) else "",
            )
        return f"{text_of(v.get('rank'), 4)}.", name, value

    def field_lines(self) -> list[str]:
        """The field of the chosen deal, line by line (what is drawn and said)."""
        return events_draw.field_lines(self)

    def draw(self, surface: pygame.Surface) -> None:
        events_draw.draw(self, surface)


def create(
    app: AppServices, server: dict | None = None, player: str = "", view: str | None = None, **params: object
) -> EventsScene:
    return EventsScene(app, server=server, player=player, view=view)


__all__ = ["EventsScene", "create", "sample"]
