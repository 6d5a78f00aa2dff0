"""Daily deals: today's deal of a game and preset (game.services.daily), a duplicate deal
(game.services.challenge), and the calendar of past days with the streak and the best.

Opened from a game's block on the games screen (``app.open_scene("daily", game=G)``) or
directly (``--scene daily --game G``). The game and preset are chosen here; the duplicate
deal is played against the computer at the level chosen on the games screen.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import TYPE_CHECKING, Any

import pygame

from game.card_names import Translate
from game.rulesets import game_ids
from game.services.table_session import TableSession
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button, Choice

if TYPE_CHECKING:
    from game.services.daily import Calendar, DailyDeal

PANEL = pygame.Rect(150, 40, 980, 640)
CARD_W, CARD_H = 430, 200
DAYS = 28
CELL_W, CELL_H, CELL_GAP = 56, 44, 6
UP, DOWN = (150, 205, 140), (226, 136, 112)


#: The preset chooser's entry for the games screen's own choices (a duplicate deal only: the
#: daily deal is one per preset, the same for everyone).
TABLE = "table"


class DailyScene(UIScene):
    def __init__(
        self,
        app: AppServices,
        game: str | None = None,
        preset: str | None = None,
        demo: str | None = None,
        table: dict[str, Any] | None = None,
    ):
        self.game = game if game is not None and game in app.config.games else game_ids()[0]
        self.preset = preset
        #: The games screen's choices for this game (deck, players, options), when opened from
        #: there: a duplicate deal may be played with any house rules, not just the presets.
        self.table = table if table is not None and table.get("game") == self.game else None
        #: Screenshots: "daily" or "duplicate" plays that deal by bots and shows its results.
        self.demo = demo
        super().__init__(app)

    # ------------------------------------------------------------------ choices
    @property
    def presets(self) -> list[str]:
        from game.services.daily import presets_of

        return presets_of(self.game)

    def _preset_values(self) -> list[tuple[str, Any]]:
        g = self.app.config.games[self.game]
        names = {p.id: p.name for p in g.presets}
        values = [(p, self.label(names[p]) if p in names else self.label("daily.standard")) for p in self.presets]
        if self.table is not None:
            values.append((TABLE, self._table_label))
        return values

    def _table_label(self) -> str:
        from game.variants import variant_name

        t = self.table or {}
        g = self.app.config.games[self.game]
        name = variant_name(self.app.i18n, g, t.get("options"), t.get("players")) or self.t("daily.standard")
        return self.t("daily.table_rules", name=name, players=t.get("players", 2))

    def set_game(self, gid: str) -> None:
        self.game = gid
        self.preset = None
        if self.table is not None and self.table.get("game") != gid:
            self.table = None

    @property
    def current_preset(self) -> str:
        if self.preset == TABLE and self.table is not None:
            return TABLE
        return self.preset if self.preset in self.presets else self.presets[0]

    def deal(self) -> DailyDeal:
        from game.services.daily import daily_deal

        return daily_deal(self.game, self.current_preset)

    def build(self) -> None:
        cfg = self.app.config
        lang = lambda: self.app.language  # noqa: E731
        r = PANEL
        games = [
            (g, (lambda g=g: cfg.games[g].name.get(lang()) or cfg.games[g].name.get("en", g)))
            for g in game_ids()
            if g in cfg.games
        ]
        y = r.y + 124
        self.ui.add(
            Choice(
                (r.x + 46, y, 300, 58),
                self.label("daily.game"),
                games,
                lambda: self.game,
                self.set_game,
                compact=True,
                name="game",
            )
        )
        # Wide enough for "Your table: Custom: Napola · 3 players" (the games screen's choices).
        self.preset_choice = self.ui.add(
            Choice(
                (r.x + 370, y, 560, 58),
                self.label("daily.preset"),
                self._preset_values(),
                lambda: self.current_preset,
                self._set_preset,
                compact=True,
                name="preset",
            )
        )
        self.cards = []
        cy = r.y + 204
        for i, (key, fn, label) in enumerate(
            (
                ("today", self.play_today, self._play_label),
                ("duplicate", self.play_duplicate, self.label("daily.duplicate_play")),
            )
        ):
            x = r.x + 46 + i * (CARD_W + 28)
            self.cards.append((key, pygame.Rect(x, cy, CARD_W, CARD_H)))
            # Today's deal is one per preset: off while the games screen's own rules are chosen.
            on = (lambda: self.current_preset != TABLE) if key == "today" else True
            self.ui.add(
                Button(
                    (x + 24, cy + CARD_H - 66, CARD_W - 48, 46),
                    label,
                    fn,
                    style="primary" if key == "today" else "secondary",
                    size=16,
                    name=key,
                    enabled=on,
                )
            )
        self.ui.add(
            Button(
                (r.x + 46, r.bottom - 62, 160, 44), self.label("common.back"), self.back, icon="‹", size=15, name="back"
            )
        )
        # The same day on a club server (``main.py serve``): a secret deal and a leaderboard.
        self.ui.add(
            Button(
                (r.right - 46 - 380, r.bottom - 62, 380, 44),
                self.label("daily_online.open"),
                self.open_online,
                size=15,
                name="online",
            )
        )
        self.ui.focus(self.ui.widgets[2])

    def _set_preset(self, p: str) -> None:
        self.preset = p

    def _play_label(self) -> str:
        played = dt.date.today().isoformat() in self.calendar().days
        return self.t("daily.play_again" if played else "daily.play")

    def calendar(self) -> Calendar:
        from game.services.daily import calendar

        return calendar(f"{self.game}/{self.current_preset}")

    def update(self, dt_: float) -> None:
        super().update(dt_)
        self.preset_choice.options = self._preset_values()
        if self.demo is not None and self.app.stack.top is self:
            kind, self.demo = self.demo, None
            _show_demo(self, kind)

    # ------------------------------------------------------------------ actions
    def play_today(self) -> None:
        from game.services.challenge import DailyPlay

        if self.current_preset == TABLE:  # the day's deal is one per preset: pick one
            self.app.toast(self.t("daily.presets_only"))
            return
        threaded = self.app.has_window
        play = DailyPlay(self.deal(), threaded=threaded)
        self._open(play.session(threaded))

    def play_duplicate(self) -> None:
        from game.services.challenge import DuplicatePlay

        level = self.app.settings.ai_level
        seed = random.randrange(1, 2**31)
        if self.current_preset == TABLE and self.table is not None:
            t = self.table
            play = DuplicatePlay(self.game, t["deck"], t["players"], dict(t["options"]), seed, level)
        else:
            d = self.deal().deal
            play = DuplicatePlay(d.game, d.deck, d.players, dict(d.options), seed, level)
        self._open(play.session(1, self.app.has_window))

    def open_online(self) -> None:
        self.app.open_scene("online_daily", game=self.game, preset=self.current_preset)

    def _open(self, session: TableSession) -> None:
        self.app.open_scene("table", session=session, fresh=True)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("daily.title")
        theme.heading(
            surface, title, (r.x + 46, r.y + 26), theme.fit(title, "serif_bold", 30, r.w - 92, 16, 0.22, True)
        )
        for i, ln in enumerate(theme.wrap(self.t("daily.intro"), "sans", 15, r.w - 92, max_lines=2)):
            theme.blit_text(surface, ln, (r.x + 46, r.y + 70 + 20 * i), "sans", 15, theme.CREAM_DIM)
        today = dt.date.today()
        for key, c in self.cards:
            surface.blit(theme.rounded(c.size, 12, (255, 244, 214, 12), 1, (*theme.BRASS_DARK, 255)), c)
            head = self.t(f"daily.{key}_head")
            theme.small_caps(
                surface,
                head,
                (c.x + 24, c.y + 16),
                theme.fit(head, "cond_bold", 14, c.w - 48, 9, 0.16, True),
                theme.BRASS_LIGHT,
            )
            about = self.t(f"daily.{key}_about", date=today.isoformat())
            if key == "today" and self.current_preset == TABLE:
                about = self.t("daily.presets_only")
            for i, ln in enumerate(theme.wrap(about, "sans", 14, c.w - 48, max_lines=5)):
                theme.blit_text(surface, ln, (c.x + 24, c.y + 42 + 19 * i), "sans", 14, theme.CREAM)
        self._draw_calendar(surface, today)
        self.ui.draw(surface)

    def _draw_calendar(self, surface: pygame.Surface, today: dt.date) -> None:
        from game.services.par import over_par, par_words

        r = PANEL
        cal = self.calendar()
        top = r.y + 412
        days = calendar_days(today)
        head = self.t("daily.calendar")
        months = month_span(self.t, [d for d in days if d <= today])
        left = r.x + 46
        grid_w = 14 * CELL_W + 13 * CELL_GAP
        # The heading at the left, the months the grid covers at the right, both in small capitals.
        msize = theme.fit(months, "cond_bold", 14, grid_w // 2 - 12, 9, 0.16, True)
        theme.small_caps(surface, months, (left + grid_w, top), msize, theme.BRASS_LIGHT, anchor="topright")
        theme.small_caps(
            surface,
            head,
            (left, top),
            theme.fit(head, "cond_bold", 14, grid_w // 2 - 12, 9, 0.16, True),
            theme.BRASS_LIGHT,
        )
        # Each row as tall as its text at the player's text size, so none runs into the next.
        cells_top = top + theme.font("cond_bold", 14).get_height() + 2 + theme.font("sans", 11).get_height() + 1
        for col in range(14):  # the weekday over each column: the grid's rows start on a Monday
            name = self.t(f"daily.weekday.{col % 7 + 1}")
            x = left + col * (CELL_W + CELL_GAP) + CELL_W // 2
            theme.blit_text(
                surface,
                name,
                (x, cells_top - 1),
                "sans",
                theme.fit(name, "sans", 11, CELL_W - 4, 8),
                theme.CREAM_DIM,
                anchor="midbottom",
            )
        for i, day in enumerate(days):
            cell = pygame.Rect(
                left + (i % 14) * (CELL_W + CELL_GAP), cells_top + (i // 14) * (CELL_H + CELL_GAP), CELL_W, CELL_H
            )
            if day > today:  # the rest of this week: an outline only
                surface.blit(theme.rounded(cell.size, 6, (255, 244, 214, 4), 1, (*theme.BRASS_DARK, 90)), cell)
                continue
            diff = cal.difference(day.isoformat())
            fill = (255, 244, 214, 10) if diff is None else ((*UP, 60) if diff >= 0 else (*DOWN, 60))
            edge = theme.BRASS if day == today else theme.BRASS_DARK
            surface.blit(theme.rounded(cell.size, 6, fill, 1, (*edge, 255)), cell)
            # The month's short name on its first day and on the grid's first cell.
            label = str(day.day) if day.day != 1 and i else f"{day.day} {self.t(f'daily.month_short.{day.month}')}"
            theme.blit_text(
                surface,
                label,
                (cell.x + 5, cell.y + 3),
                "sans",
                theme.fit(label, "sans", 11, CELL_W - 8, 8),
                theme.CREAM_DIM,
            )
            if diff is not None:
                text = over_par(cal.days[day.isoformat()]["score"], cal.days[day.isoformat()]["par"])
                theme.blit_text(
                    surface,
                    text,
                    (cell.centerx, cell.bottom - 3),
                    "cond_bold",
                    theme.fit(text, "cond_bold", 15, CELL_W - 6, 10),
                    UP if diff >= 0 else DOWN,
                    anchor="midbottom",
                )
        y = cells_top + 2 * (CELL_H + CELL_GAP) + 2
        streak = self.t("daily.streak", count=cal.streak)
        if cal.best is None:
            best = self.t("daily.best_none")
        else:
            best_day, diff = cal.best
            best = self.t(
                "daily.best", diff=par_words(self.t, diff, 0), date=date_words(self.t, dt.date.fromisoformat(best_day))
            )
        line = f"{streak}   ·   {best}"
        theme.blit_text(surface, line, (left, y), "sans", theme.fit(line, "sans", 15, r.w - 92, 10), theme.CREAM)


def calendar_days(today: dt.date) -> list[dt.date]:
    """The calendar's cells: four weeks, Monday to Sunday, the last one this week (its days
    after today are drawn empty)."""
    first = today - dt.timedelta(days=today.weekday() + 7 * (DAYS // 7 - 1))
    return [first + dt.timedelta(days=i) for i in range(DAYS)]


def month_span(t: Translate, days: list[dt.date]) -> str:
    """The months ``days`` cover, in words: "March 2026", "February – March 2026",
    "December 2025 – January 2026"."""
    a, b = days[0], days[-1]
    first, last = t(f"daily.month.{a.month}"), t(f"daily.month.{b.month}")
    if (a.year, a.month) == (b.year, b.month):
        return f"{last} {b.year}"
    if a.year == b.year:
        return f"{first} – {last} {b.year}"
    return f"{first} {a.year} – {last} {b.year}"


def date_words(t: Translate, day: dt.date) -> str:
    """A day as the player's language writes it: "1 March", "1. März", "1 marzo"."""
    return t("daily.date", day=day.day, month=t(f"daily.month.{day.month}"))


def _show_demo(scene: DailyScene, kind: str) -> None:
    """Screenshots (``--scene daily --overlay daily|duplicate``): the deal played by greedy
    bots in the human's seat, then its results screen over the table."""
    from game.ai.bots import make_bot
    from game.services.challenge import DailyPlay, DuplicatePlay

    app = scene.app
    d = scene.deal()
    if kind == "duplicate":
        play: Any = DuplicatePlay(d.game, d.deal.deck, d.deal.players, dict(d.deal.options), d.deal.seed, "normal")
        halves = [play.session(1, threaded=False), play.session(2, threaded=False)]
    else:
        play = DailyPlay(d, threaded=False)
        halves = [play.session(threaded=False)]
    for s in halves:
        helper = make_bot("greedy", s.rules, s.human_seat, s.seed)
        s.start()
        while not s.over:
            if s.human_to_act:
                s.submit(helper.choose(s.view(), s.legal_actions()))
            else:
                s.poll()
        s.take_events()
        play.finished(s)
    last = halves[-1]
    ends = [e for e in last.match.events if e["event"] in ("deal_end", "match_end")]
    app.open_scene("table", session=last)
    app.open_scene("results", session=last, deal_end=ends[0], match_end=ends[-1])


def _demo_days(seed: int, game: str, preset: str) -> None:
    """Screenshots (``--scene daily --seed S``): a few past days in the throw-away home."""
    from game.services.daily import record_day, today

    rng = random.Random(seed)
    for back in range(1, DAYS):
        if rng.random() < 0.6:
            p = rng.uniform(2, 6)
            record_day(f"{game}/{preset}", today() - dt.timedelta(days=back), rng.randint(1, 8), p)


def create(
    app: AppServices,
    game: str | None = None,
    preset: str | None = None,
    seed: int | None = None,
    overlay: str | None = None,
    table: dict[str, object] | None = None,
    **params: object,
) -> DailyScene:
    scene = DailyScene(app, game, preset, demo=overlay if overlay in ("daily", "duplicate") else None, table=table)
    if seed is not None and not app.has_window:
        _demo_days(int(seed), scene.game, scene.current_preset)
    return scene


__all__ = ["DailyScene", "create", "calendar_days", "month_span", "date_words"]
