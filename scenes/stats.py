"""Statistics: every finished match per game and mode — played, won, lost, drawn, best
margin and the current streak — in the results screen's house style, with a reset that
asks first. A variant played (a preset such as Scopone scientifico, or a custom set of house
rules) has its own row, named, under its game and mode's row; with more rows than the panel
holds, the never-played rows make way first, then the rows scroll (↑/↓, PgUp/PgDn, wheel).

Opened from the menu (``app.open_scene("stats")``). The numbers come from
:func:`game.services.stats.load_stats`; a damaged statistics file has already been moved aside by
it, and the scene says so once in a toast. Rows are built by :func:`stat_rows` into plain
data so tests can read exactly what is shown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from game.card_names import Translate
from game.config_types import Config, GameConfig
from scenes.scene import AppServices, UIScene
from sprites import panels, theme
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import Button

if TYPE_CHECKING:
    from game.services.i18n import I18n
    from game.services.stats import Record

PANEL = pygame.Rect(70, 38, 1140, 628)
PAD = 36
ROW_H = 44
ROWS_END_ABOVE = 136  # the rows end this far above the panel's bottom: the empty line, the buttons
MIN_ROW_H = 26
LABEL_W = 400  # the game, mode and variant column
VARIANT_INDENT = 16  # a variant's row sits a little in from its game's
NUM_COLS = ("played", "won", "lost", "drawn", "best", "streak")
COL_WEIGHTS = (1.0, 1.0, 1.0, 1.0, 1.45, 1.55)
WIN = (236, 202, 128)
LOSS = (214, 120, 100)


@dataclass
class StatRow:
    game: str  # the game's name in the player's language
    mode: str  # "Against the computer" / "With a partner"
    key: str  # "scopa/versus"
    played: int
    won: int
    lost: int
    drawn: int
    best: str  # best winning margin, "—" when never won
    streak: str  # "3 wins" / "2 losses" / "—"
    streak_sign: int  # +1 winning streak, -1 losing streak, 0 none
    total: bool = False
    variant: str = ""  # the variant's name ("Scopone scientifico"); "" for the rules as written


class _Words:
    """``t`` as the variant helpers want it (a ``t`` and a ``has``)."""

    def __init__(self, t: Translate):
        self.t = t

    def has(self, key: str, lang: str | None = None) -> bool:
        return self.t(key) != key


def _variant_order(game: GameConfig, variant: str) -> tuple[int, str]:
    """Presets in rules.yaml's order, then the custom sets."""
    ids = [p.id for p in game.presets]
    return (ids.index(variant), "") if variant in ids else (len(ids), variant)


def stat_rows(
    t: Translate,
    config: Config,
    records: Mapping[str, Record],
    lang: str,
    i18n: I18n | _Words | None = None,
    days: dict[str, dict[str, dict[str, float]]] | None = None,
    puzzles: dict[str, dict[str, object]] | None = None,
) -> list[StatRow]:
    """One row per game and mode the config offers (in config order), each followed by a row
    per variant played in it, then the daily deals played (``days``; not in the totals: a
    daily deal is no match), then the puzzles tried (``puzzles``: each game's puzzle
    dashboard, game.puzzles.progress; not in the totals either), then the totals of the matches."""
    from game.services.stats import split_key
    from game.variants import variant_name_of_key

    words = i18n if i18n is not None else _Words(t)
    played_variants: dict[tuple[str, str], list[str]] = {}
    for k in records:
        gid, mode, variant = split_key(k)
        if variant:
            played_variants.setdefault((gid, mode), []).append(variant)
    rows: list[StatRow] = []
    for gid, g in config.games.items():
        name = g.name.get(lang, g.name["en"])
        for m in g.modes:
            base = f"{gid}/{m.id}"
            variants = sorted(played_variants.get((gid, m.id), []), key=partial(_variant_order, g))
            for variant in ["", *variants]:
                k = f"{base}/{variant}" if variant else base
                label = (variant_name_of_key(words, g, variant) or "") if variant else ""
                rows.append(_row(t, name, t(f"stats.mode.{m.id}"), k, records.get(k), label))
    total = StatRow(
        t("stats.all"),
        "",
        "all",
        sum(r.played for r in rows),
        sum(r.won for r in rows),
        sum(r.lost for r in rows),
        sum(r.drawn for r in rows),
        "",
        "",
        0,
        total=True,
    )
    return [
        *rows,
        *role_rows(t, config, records, lang),
        *daily_rows(t, config, days or {}, lang),
        *puzzle_rows(t, config, puzzles or {}, lang),
        total,
    ]


def role_rows(t: Translate, config: Config, records: Mapping[str, Record], lang: str) -> list[StatRow]:
    """The deals by role, apart from the matches (a deal is no match): for a game whose seats
    play roles (game.services.stats.declared_roles), a row per role the player has played,
    in the game's order, its deals summed over the game's modes and variants — deals played,
    won (a contract made, as caller), lost, neither."""
    from game.services.stats import declared_roles, split_key

    rows: list[StatRow] = []
    for gid, g in config.games.items():
        roles = declared_roles(gid)
        if not roles:
            continue
        sums: dict[str, dict[str, int]] = {}
        for k, r in records.items():
            if split_key(k)[0] != gid:
                continue
            for role, counts in r.roles.items():
                mine = sums.setdefault(role, {})
                for what, v in counts.items():
                    mine[what] = mine.get(what, 0) + v
        name = g.name.get(lang, g.name["en"])
        for role in roles:
            c = sums.get(role)
            if not c or not c.get("deals"):
                continue
            deals, won, lost = c["deals"], c.get("won", 0), c.get("lost", 0)
            rows.append(
                StatRow(
                    name,
                    t(f"stats.role.{role}"),
                    f"role:{gid}/{role}",
                    deals,
                    won,
                    lost,
                    deals - won - lost,
                    "—",
                    "—",
                    0,
                )
            )
    return rows


def daily_rows(
    t: Translate, config: Config, days: dict[str, dict[str, dict[str, float]]], lang: str, on: dt.date | None = None
) -> list[StatRow]:
    """The daily deals, apart from the matches: a row per game and preset played,
    in config order — days played, days over / under / at par (one decimal, as shown), the
    best day over par and the days in a row. ``days`` as game.services.daily.load_days gives them."""
    from game.services.daily import calendar

    rows: list[StatRow] = []
    for gid, g in config.games.items():
        name = g.name.get(lang, g.name["en"])
        names = {p.id: p.name for p in g.presets}
        for k in sorted(
            (k for k in days if k.split("/", 1)[0] == gid and days[k]),
            key=lambda k: (list(names).index(k.split("/", 1)[-1]) if k.split("/", 1)[-1] in names else len(names), k),
        ):
            diffs = [round(v["score"] - v["par"], 1) for v in days[k].values()]
            preset = k.split("/", 1)[-1]
            streak = calendar(k, on).streak
            text = "—" if streak == 0 else t("stats.streak_days", count=streak)
            rows.append(
                StatRow(
                    name,
                    t("stats.mode.daily"),
                    f"daily:{k}",
                    len(diffs),
                    sum(d > 0 for d in diffs),
                    sum(d < 0 for d in diffs),
                    sum(d == 0 for d in diffs),
                    f"{max(diffs):+.1f}",
                    text,
                    int(streak > 0),
                    variant=t(names[preset]) if preset in names else "",
                )
            )
    return rows


def puzzle_rows(t: Translate, config: Config, boards: dict[str, dict[str, Any]], lang: str) -> list[StatRow]:
    """The puzzles, apart from the matches: a row per game tried, in config order — puzzles
    tried, solved (won), missed (lost), the highest rating reached (best) and the right answers
    in a row. ``boards``: game → its dashboard (game.puzzles.progress.PuzzleProgress.dashboard)."""
    rows: list[StatRow] = []
    for gid, g in config.games.items():
        d = boards.get(gid)
        if not d or not d.get("tried"):
            continue
        tried, solved = int(d["tried"]), int(d["solved"])
        peak = max([d["rating"], *(v for _, v in d.get("history", []))])
        run = int(d.get("streak_right", 0))
        rows.append(
            StatRow(
                g.name.get(lang, g.name["en"]),
                t("stats.mode.puzzles"),
                f"puzzles:{gid}",
                tried,
                solved,
                tried - solved,
                0,
                str(round(peak)),
                t("stats.streak_solved", count=run) if run else "—",
                int(run > 0),
            )
        )
    return rows


def _row(t: Translate, name: str, mode: str, k: str, r: Record | None, variant: str) -> StatRow:
    played, won, lost, drawn = (r.played, r.won, r.lost, r.drawn) if r else (0, 0, 0, 0)
    best = "—" if r is None or r.best_margin is None else str(r.best_margin)
    streak = r.streak if r else 0
    text = "—" if streak == 0 else t("stats.streak_won" if streak > 0 else "stats.streak_lost", count=abs(streak))
    return StatRow(name, mode, k, played, won, lost, drawn, best, text, (streak > 0) - (streak < 0), variant=variant)


def fitting_rows(rows: list[StatRow], room: int) -> list[StatRow]:
    """The rows to show when ``room`` rows fit (the totals always among them): never-played
    rows make way first, from the last — a game and mode's row stays while one of its
    variants is shown, as the heading its variants are read under."""
    body, total = list(rows[:-1]), rows[-1:]

    def drop_from(pick) -> None:
        for i in range(len(body) - 1, -1, -1):
            if len(body) + len(total) <= room:
                return
            if body[i].played == 0 and pick(i):
                del body[i]

    drop_from(lambda i: bool(body[i].variant))
    drop_from(lambda i: not (i + 1 < len(body) and body[i + 1].variant))
    return [*body, *total]


def _puzzle_boards(app: AppServices) -> dict[str, dict[str, object]]:
    """Each game's puzzle dashboard (game.puzzles.progress); a damaged file (moved aside by
    the reader) is said in a toast and counts as none tried."""
    from game.puzzles.progress import PuzzleProgress

    progress = PuzzleProgress.load()
    if progress.problem:
        app.toast(app.t("puzzle_ui.file_problem", problem=progress.problem))
    return {gid: progress.dashboard(gid) for gid in app.config.games}


class StatsScene(UIScene):
    def __init__(self, app: AppServices):
        self.confirming = False
        self.text_log: list[tuple[str, int, int]] = []  # (text, drawn width, box width) for fit tests
        self.rows_bottom = 0  # where the last drawn row ends (tests check it clears the buttons)
        self.first = 0  # the first row shown when they scroll
        self.room = 0  # how many rows the panel holds (set when drawn)
        self.shown_rows: list[StatRow] = []  # the rows drawn last (tests read them)
        self.appear = Tween(0.0, 1.0, 0.3, ease_out_cubic)
        super().__init__(app)
        self.reload()

    # ------------------------------------------------------------------ model
    def reload(self) -> None:
        from game.services.daily import load_days
        from game.services.stats import load_stats

        self.records, problem = load_stats()
        self.days, days_problem = load_days()
        self.puzzles = _puzzle_boards(self.app)
        if days_problem:  # kept aside (daily.json.bad): the calendar starts afresh
            self.app.toast(self.t("stats.daily_damaged"))
        if problem:
            # The file was unreadable or damaged (and kept aside): say so once, go on with zeros.
            self.app.toast(self.t("stats.damaged") if ".bad" in problem else problem)

    def rows(self) -> list[StatRow]:
        return stat_rows(
            self.t, self.app.config, self.records, self.app.language, self.app.i18n, self.days, self.puzzles
        )

    def scroll(self, step: int) -> None:
        """Move the rows by ``step`` when there are more than the panel holds."""
        body = len(fitting_rows(self.rows(), self.room)) - 1 if self.room else 0
        self.first = max(0, min(self.first + step, body - (self.room - 1))) if self.room > 1 else 0

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_UP,
            pygame.K_DOWN,
            pygame.K_PAGEUP,
            pygame.K_PAGEDOWN,
        ):
            page = max(1, self.room - 2)
            self.scroll({pygame.K_UP: -1, pygame.K_DOWN: 1, pygame.K_PAGEUP: -page, pygame.K_PAGEDOWN: page}[event.key])
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-event.y)
            return
        super().handle(event)

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        y = PANEL.bottom - 70
        bw, gap = 250, 22
        x = PANEL.centerx - bw - gap // 2
        normal = lambda: not self.confirming  # noqa: E731
        asking = lambda: self.confirming  # noqa: E731
        self.back_button = self.ui.add(
            Button(
                (x, y, bw, 48),
                self.label("stats.back"),
                self.back,
                style="primary",
                size=17,
                name="back",
                visible=normal,
            )
        )
        self.reset_button = self.ui.add(
            Button(
                (x + bw + gap, y + 3, bw, 42),
                self.label("stats.reset"),
                self.ask_reset,
                size=15,
                name="reset",
                visible=normal,
            )
        )
        self.yes_button = self.ui.add(
            Button(
                (x, y + 3, bw, 42), self.label("stats.reset_yes"), self.reset, size=15, name="reset_yes", visible=asking
            )
        )
        self.no_button = self.ui.add(
            Button(
                (x + bw + gap, y, bw, 48),
                self.label("stats.reset_no"),
                self.cancel_reset,
                style="primary",
                size=17,
                name="reset_no",
                visible=asking,
            )
        )
        self.ui.focus(self.back_button)

    # ------------------------------------------------------------------ actions
    def ask_reset(self) -> None:
        self.confirming = True
        self.ui.focus(self.no_button)  # the safe answer is the default

    def cancel_reset(self) -> None:
        self.confirming = False
        self.ui.focus(self.reset_button)

    def reset(self) -> None:
        from game.services.stats import reset_stats

        self.confirming = False
        problem = reset_stats()
        if problem:
            self.app.toast(problem)
        else:
            self.app.toast(self.t("stats.reset_done"))
        self.reload()
        self.ui.focus(self.back_button)

    def back(self) -> None:
        # Esc while asking means "no"; otherwise back to the menu.
        if self.confirming:
            self.cancel_reset()
        else:
            self.app.stack.pop()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)

    # ------------------------------------------------------------------ drawing
    def _fit(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        face: str = "sans",
        size: int = 16,
        color=theme.CREAM,
        anchor: str = "topleft",
        min_size: int = 10,
    ) -> pygame.Rect:
        size = theme.fit(s, face, size, width, min_size)
        self.text_log.append((s, theme.text_width(s, face, size), width))
        return theme.blit_text(surface, s, pos, face, size, color, anchor)

    def _caps(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        size: int = 13,
        color=theme.BRASS,
        anchor: str = "topleft",
    ) -> None:
        size = theme.fit(s, "cond_bold", size, width, 8, 0.16, True)
        self.text_log.append((s, theme.text_width(s, "cond_bold", size, size * 0.16, True), width))
        theme.small_caps(surface, s, pos, size, color, anchor)

    def _header(self, surface: pygame.Surface, s: str, pos: tuple[int, int], width: int) -> None:
        """A column title in small caps; a long one (German) goes on two lines rather than
        shrinking out of sight."""
        words = s.split()
        if len(words) > 1 and theme.fit(s, "cond_bold", 14, width, 8, 0.16, True) < 12:
            half = max(1, len(words) // 2)
            top, bottom = " ".join(words[:half]), " ".join(words[half:])
            self._caps(surface, top, (pos[0], pos[1] - 8), width, 12, anchor="midtop")
            self._caps(surface, bottom, (pos[0], pos[1] + 7), width, 12, anchor="midtop")
            return
        self._caps(surface, s, pos, width, 14, anchor="midtop")

    def columns(self, inner_w: int) -> tuple[int, list[tuple[int, int]]]:
        """(label column width, [(x offset, width)] of the number columns); the wordier
        columns (best margin, streak) get more room."""
        label_w = LABEL_W
        unit = (inner_w - label_w) / sum(COL_WEIGHTS)
        cols, x = [], float(label_w)
        for wgt in COL_WEIGHTS:
            cols.append((round(x), round(unit * wgt)))
            x += unit * wgt
        return label_w, cols

    def draw(self, surface: pygame.Surface) -> None:
        self.text_log = []
        surface.blit(theme.table_background(), (0, 0))
        a = float(self.appear.value_at(self.alpha))
        r = PANEL.move(0, round((1 - a) * 20))
        surface.blit(theme.shadow(r.size, 18, 12, 150), (r.x - 12, r.y - 12 + 8))
        surface.blit(theme.panel(r.size, 18, fill=(10, 30, 21, 238)), r)
        inner_w = r.w - 2 * PAD
        y = r.y + 22
        title = self.t("stats.title")
        size = theme.fit(title, "serif_bold", 34, inner_w, 16, 0.22, True)
        self.text_log.append((title, theme.text_width(title, "serif_bold", size, size * 0.22, True), inner_w))
        theme.heading(surface, title, (r.centerx, y), size, anchor="midtop")
        y += 50
        self._caps(surface, self.t("stats.subtitle"), (r.centerx, y), inner_w, 13, anchor="midtop")
        y += 24
        orn = theme.ornament(min(520, inner_w))
        surface.blit(orn, orn.get_rect(midtop=(r.centerx, y)))
        y += 26
        rows = self.rows()
        x0 = r.x + PAD
        label_w, cols = self.columns(inner_w)
        # Header.
        self._caps(surface, self.t("stats.game"), (x0 + 12, y + 4), label_w - 24, 14)
        for (cx0, cw), c in zip(cols, NUM_COLS):
            self._header(surface, self.t(f"stats.{c}"), (x0 + cx0 + cw // 2, y + 4), cw - 10)
        y += 28
        pygame.draw.line(surface, theme.BRASS_DARK, (x0, y), (x0 + inner_w, y))
        y += 5
        # Rows get their full height while they fit above the buttons (and the line under
        # them); with more games and modes they close up rather than run under the buttons.
        avail = r.bottom - ROWS_END_ABOVE - y - 4
        self.room = max(2, (avail - 4) // (MIN_ROW_H + 2))
        rows = fitting_rows(rows, self.room)
        if len(rows) > self.room:  # still too many: a window of them scrolls
            self.first = max(0, min(self.first, len(rows) - self.room))
            more_above, more_below = self.first > 0, self.first + self.room - 1 < len(rows) - 1
            rows = [*rows[self.first : self.first + self.room - 1], rows[-1]]
        else:
            self.first, more_above, more_below = 0, False, False
        self.shown_rows = rows
        row_h = max(MIN_ROW_H, min(ROW_H, avail // len(rows) - 2))
        rows_top = y
        for k, row in enumerate(rows):
            band = pygame.Rect(x0, y, inner_w, row_h)
            if row.total:
                y += 4
                band.y = y
                surface.blit(theme.rounded(band.size, 6, (201, 164, 92, 40)), band)
            elif k % 2 == 0:
                surface.blit(theme.rounded(band.size, 6, (255, 255, 255, 11)), band)
            faint = row.played == 0 and not row.total
            ink = theme.CREAM_FAINT if faint else theme.CREAM
            if row.total:
                self._fit(
                    surface,
                    row.game,
                    (x0 + 12, band.centery),
                    label_w - 24,
                    "sans_bold",
                    17,
                    theme.BRASS_LIGHT,
                    "midleft",
                )
            else:
                self._label(surface, row, x0, band.centery, label_w, ink)
            values = [str(row.played), str(row.won), str(row.lost), str(row.drawn), row.best, row.streak]
            for i, v in enumerate(values):
                if not v:
                    continue
                cx0, cw = cols[i]
                cx = x0 + cx0 + cw // 2
                color = ink
                if NUM_COLS[i] == "streak" and row.streak_sign:
                    color = WIN if row.streak_sign > 0 else LOSS
                elif row.total:
                    color = theme.BRASS_LIGHT
                self._fit(
                    surface, v, (cx, band.centery), cw - 12, "sans_bold" if row.total else "sans", 17, color, "center"
                )
            if not row.total and row.played:
                indent = VARIANT_INDENT if row.variant else 0
                self._win_bar(surface, pygame.Rect(x0 + 12 + indent, band.bottom - 5, label_w - 40 - indent, 3), row)
            y += row_h + 2
        self.rows_bottom = y
        # Arrows at the right of the rows when some are scrolled out of sight.
        if more_above:
            theme.blit_text(surface, "▲", (x0 + inner_w + 6, rows_top), "sans", 11, theme.BRASS, "topleft")
        if more_below:
            theme.blit_text(surface, "▼", (x0 + inner_w + 6, y - row_h - 8), "sans", 11, theme.BRASS, "bottomleft")
        y += 10
        if rows[-1].played == 0:
            self._fit(
                surface, self.t("stats.empty"), (r.centerx, y), inner_w - 20, "serif", 16, theme.CREAM_DIM, "midtop"
            )
        if self.confirming:
            self._fit(
                surface,
                self.t("stats.confirm"),
                (r.centerx, r.bottom - 104),
                inner_w - 40,
                "serif_bold",
                19,
                theme.BRASS_LIGHT,
                "midtop",
            )
        self.ui.draw(surface)
        self._fit(surface, self.t("stats.hint"), (640, 714), 1200, "sans", 13, theme.CREAM_FAINT, "midbottom")

    def _label(self, surface: pygame.Surface, row: StatRow, x0: int, cy: int, label_w: int, ink) -> None:
        """The game's name and the mode; a variant's row, under its game and mode's row, names
        just the variant, a little indented. A name too long even when shrunk is cut with an
        ellipsis rather than run into the numbers."""
        if row.variant:
            room = label_w - 24 - VARIANT_INDENT
            name = row.variant
            name, size = panels.fit_or_cut(name, "serif_bold", 16, room, 11)
            self._fit(
                surface, name, (x0 + 12 + VARIANT_INDENT, cy), room, "serif_bold", size, ink, "midleft", min_size=11
            )
            return
        name_rect = self._fit(surface, row.game, (x0 + 12, cy), label_w // 2 - 12, "serif_bold", 18, ink, "midleft")
        self._fit(
            surface,
            row.mode,
            (name_rect.right + 10, cy + 1),
            label_w - 24 - name_rect.w - 10,
            "sans",
            14,
            theme.CREAM_DIM,
            "midleft",
        )

    def _win_bar(self, surface: pygame.Surface, rect: pygame.Rect, row: StatRow) -> None:
        """A hairline under the game's name: won / drawn / lost in proportion."""
        x = rect.x
        for count, color in ((row.won, WIN), (row.drawn, theme.CREAM_DIM), (row.lost, LOSS)):
            w = round(rect.w * count / max(1, row.played))
            if w > 0:
                pygame.draw.rect(surface, color, (x, rect.y, w, rect.h))
                x += w


def create(app: AppServices, **params: object) -> StatsScene:
    return StatsScene(app)


__all__ = ["StatsScene", "StatRow", "stat_rows", "create"]
