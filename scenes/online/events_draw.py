"""The events screen's drawing (scenes.online.events): the list's frame, the chosen event on the
right — a tournament's standings or a deal's field, an arena's or a Swiss tournament's
standings — and the status line."""

from __future__ import annotations

from typing import Protocol

import pygame

from game.online.client.events import Line
from game.rules.vocabulary import JsonObject
from scenes.online.address import shown_address
from scenes.online.events_data import Item, list_of, num_of, obj_of, text_of
from scenes.online.fields import ERROR
from sprites import theme
from sprites.focus import UI


class EventsScene(Protocol):
    """What the drawing reads of the events screen (scenes.online.events.EventsScene)."""

    server: dict[str, str]
    url: str
    player: str
    listing: JsonObject | None
    status: str | None
    problem: str | None
    recovery: str | None
    pane: str
    standings: list[Line] | None
    field: JsonObject | None
    lines: list[tuple[str, str, str]] | None
    ui: UI

    def t(self, key: str, **params: object) -> str: ...

    def items(self) -> list[Item]: ...

    def selected_item(self) -> Item | None: ...

    def describe(self, item: Item) -> tuple[str, str]: ...

    def field_lines(self) -> list[str]: ...

    def _game_name(self, game: object) -> str: ...

    def asks_partner(self) -> bool: ...

    def challenge_rows(self, item: Item) -> list[tuple[str, str, str]]: ...


PANEL = pygame.Rect(50, 36, 1180, 648)
LEFT_X, LEFT_W = PANEL.x + 36, 470
RIGHT_X, RIGHT_W = PANEL.x + 540, PANEL.w - 576
LINES = 12


def status_line(self: EventsScene) -> tuple[str | None, object]:
    if self.status:
        return self.status, theme.BRASS_LIGHT
    if self.problem:
        return self.problem, ERROR
    if self.recovery:
        return self.t("club.account_new", code=self.recovery), theme.BRASS_LIGHT
    return None, theme.CREAM


def draw(self: EventsScene, surface: pygame.Surface) -> None:
    surface.blit(theme.table_background(), (0, 0))
    r = PANEL
    surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
    surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
    server = self.server.get("name") or shown_address(self.url or self.server.get("address", ""))
    title = self.t("club_events.title", server=server)
    theme.heading(surface, title, (LEFT_X, r.y + 22), theme.fit(title, "serif_bold", 28, r.w - 80, 14, 0.22, True))
    for i, ln in enumerate(theme.wrap(self.t("club_events.intro"), "sans", 14, r.w - 80, max_lines=2)):
        theme.blit_text(surface, ln, (LEFT_X, r.y + 66 + 18 * i), "sans", 14, theme.CREAM_DIM)
    if self.listing is not None and not self.items():
        theme.blit_text(surface, self.t("club_events.none"), (LEFT_X, r.y + 140), "sans", 15, theme.CREAM)
    status, color = status_line(self)
    if status:
        for i, ln in enumerate(theme.wrap(status, "sans_bold", 14, r.w - 300, max_lines=2)):
            theme.blit_text(surface, ln, (LEFT_X + 190, r.bottom - 58 + 18 * i), "sans_bold", 14, color)
    draw_right(self, surface)
    self.ui.draw(surface)
    hint = self.t("club_events.hint")
    theme.blit_text(
        surface,
        hint,
        (640, r.bottom + 30),
        "sans",
        theme.fit(hint, "sans", 13, 1180, 8),
        theme.CREAM_FAINT,
        anchor="midbottom",
    )


def text_line(
    self: EventsScene,
    surface: pygame.Surface,
    text: str,
    y: int,
    size: int = 15,
    color: object = None,
    face: str = "sans",
) -> None:
    theme.blit_text(surface, text, (RIGHT_X, y), face, theme.fit(text, face, size, RIGHT_W, 8), color or theme.CREAM)


def draw_right(self: EventsScene, surface: pygame.Surface) -> None:
    item = self.selected_item()
    if item is None:
        return
    title, detail = self.describe(item)
    theme.small_caps(
        surface,
        title,
        (RIGHT_X, PANEL.y + 104),
        theme.fit(title, "cond_bold", 15, RIGHT_W, 9, 0.16, True),
        theme.BRASS_LIGHT,
    )
    y = PANEL.y + 130 + (116 if item.kind == "tod" else 0)
    if item.kind != "tod":
        y += 60  # below the join, decline and standings buttons
        if self.asks_partner():
            y += 76  # below the partner's name
        text_line(self, surface, detail, y)
        rows = self.challenge_rows(item) if item.kind == "challenge" else self.lines or []
        for k, (rank, name, value) in enumerate(rows[:LINES]):
            row = pygame.Rect(RIGHT_X, y + 34 + 26 * k, RIGHT_W, 24)
            if k % 2 == 0:
                surface.blit(theme.rounded(row.size, 6, (255, 255, 255, 11)), row)
            theme.blit_text(surface, rank, (row.x + 8, row.centery), "sans", 15, theme.CREAM, anchor="midleft")
            size = theme.fit(name, "sans", 15, RIGHT_W - 290, 9)
            theme.blit_text(surface, name, (row.x + 56, row.centery), "sans", size, theme.CREAM, anchor="midleft")
            vsize = theme.fit(value, "sans", 15, 220, 9)
            theme.blit_text(surface, value, (row.right - 8, row.centery), "sans", vsize, theme.CREAM, anchor="midright")
        return
    e = item.event
    if self.pane == "standings" and self.standings is not None:
        if not self.standings:
            for i, ln in enumerate(
                theme.wrap(self.t("club_events.hidden_standings"), "sans", 15, RIGHT_W, max_lines=3)
            ):
                text_line(self, surface, ln, y + 20 * i)
            return
        head = self.t("club_events.standings_title", game=self._game_name(e.get("game")), date=text_of(e.get("date")))
        text_line(self, surface, head, y, 14, theme.BRASS, "sans_bold")
        y += 26
        for k, line in enumerate(self.standings[:LINES]):
            mine = line["name"].casefold() == self.player.casefold()
            color = theme.BRASS_LIGHT if mine else theme.CREAM
            face = "sans_bold" if mine else "sans"
            rank = f"{line['rank']}." if line["rank"] is not None else "–"
            row = pygame.Rect(RIGHT_X, y + 26 * k, RIGHT_W, 24)
            if k % 2 == 0 or mine:
                surface.blit(theme.rounded(row.size, 6, (255, 230, 170, 40) if mine else (255, 255, 255, 11)), row)
            theme.blit_text(surface, rank, (row.x + 8, row.centery), face, 15, color, anchor="midleft")
            theme.blit_text(
                surface,
                line["name"],
                (row.x + 56, row.centery),
                face,
                theme.fit(line["name"], face, 15, RIGHT_W - 200, 9),
                color,
                anchor="midleft",
            )
            theme.blit_text(
                surface, f"{line['percent']:.2f}%", (row.right - 8, row.centery), face, 15, color, anchor="midright"
            )
        return
    if self.pane == "field" and self.field is not None:
        for k, ln in enumerate(self.field_lines()[:LINES]):
            text_line(
                self,
                surface,
                ln,
                y + 26 * k,
                15,
                theme.BRASS_LIGHT if k == 0 else theme.CREAM,
                "sans_bold" if k == 0 else "sans",
            )
        return
    text_line(self, surface, detail, y)
    sealed = self.t("club_events.sealed", hash=text_of(e.get("hash"), 16))
    for i, ln in enumerate(theme.wrap(sealed, "sans", 13, RIGHT_W, max_lines=2)):
        theme.blit_text(surface, ln, (RIGHT_X, y + 34 + 18 * i), "sans", 13, theme.CREAM_DIM)


def field_lines(self: EventsScene) -> list[str]:
    """The field of the chosen deal, line by line (what is drawn and said)."""
    f = self.field
    if f is None:
        return []
    if not f:
        return [self.t("club_events.hidden_field")]
    out = []
    if f.get("score") is not None:
        out.append(
            self.t(
                "club_events.your_line",
                score=f"{num_of(f['score']):g}",
                rank=f.get("rank"),
                players=f.get("players"),
                percent=f"{num_of(f.get('percent')):.2f}",
            )
        )
    else:
        out.append(self.t("club_events.no_result"))
    if isinstance(f.get("par"), (int, float)):
        out.append(self.t("club_events.par", par=f"{num_of(f['par']):.1f}"))
    spread = list_of(f.get("spread"))
    parts = []
    for pair in spread[:12]:
        score, n = (list_of(pair) + [0, 0])[:2]
        parts.append(f"{num_of(score):g}" + (f" ×{n}" if n != 1 else ""))
    out.append(self.t("club_events.spread", list=", ".join(parts)))
    out.append(self.t("club_events.best"))
    best = list_of(f.get("best"))
    for b in map(obj_of, best[:3]):
        line = self.t("club_events.best_line", name=text_of(b.get("name"), 20), score=f"{num_of(b.get('score')):g}")
        out.append("  " + line)
    return out


__all__ = ["draw", "field_lines"]
