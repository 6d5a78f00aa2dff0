"""The score sheet: the match's deals side by side, each award and bonus per deal (the
game's own results rows, ``result_lines``, read from each ``deal_end.detail``) and the
totals after each deal. Opened from the table (S, or the HUD's button) and from the
results screen (its "Score sheet" button: the stack's "scoresheet" scene).

Built from the record events alone, like everything the table tells (see
:mod:`scenes.table.narrate`); no rules are asked what scored.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.rules.vocabulary import JsonObject
from game.services.table_session import TableSession
from scenes.names import team_names
from scenes.results.breakdown import Breakdown, breakdown, is_one_deal, shown_lines
from scenes.scene import AppServices
from scenes.table.overlays import StoryPanel, team_color
from sprites import theme

LABEL_W = 250
SUB_W = 58  # one team's column inside a deal
DEAL_GAP = 18


@dataclass
class Group:
    """One deal's columns on the sheet: its heading, its ``deal_end``, whose eyes name the
    teams and the teams shown, left to right."""

    heading: str
    deal_end: dict
    viewer: int
    order: list[int]


class SheetPanel(StoryPanel):
    """Rows: the game's results lines; columns: the deals (a sub-column per team). ←/→ or
    the wheel show earlier deals when they do not all fit."""

    RECT = pygame.Rect(40, 40, 1200, 640)
    toggles = (pygame.K_s,)

    def build(self) -> None:
        self.first: int | None = None  # the first deal shown; None: the latest ones
        self.rect = self.fitted()

    def fitted(self) -> pygame.Rect:
        """The panel as large as its deals and rows need (within the canvas), centred."""
        n = max(1, min(len(self.groups()), self.per_page()))
        w = max(640, 60 + LABEL_W + n * (self.rules.teams * SUB_W + DEAL_GAP) + 20)
        rows = len(self.lines())
        h = max(300, 90 + 46 + rows * 30 + 60)
        r = pygame.Rect(0, 0, min(self.RECT.w, w), min(self.RECT.h, h))
        r.center = (640, 360)
        return r

    # ------------------------------------------------------------------ the data
    def deal_ends(self) -> list[dict]:
        return [e for e in self.events if e.get("event") == "deal_end"]

    @property
    def one_deal(self) -> bool:
        return is_one_deal(self.rules, self.events)

    def groups(self) -> list[Group]:
        """The deals shown. A duplicate deal (game.services.challenge.DuplicatePlay) shows its two
        halves side by side, each with the player's side first; a match its deals."""
        teams = self.rules.teams
        ctx = getattr(self.session, "context", None)
        if ctx is not None and hasattr(ctx, "ends") and hasattr(ctx, "seat"):
            here = getattr(self.session, "half", 1)
            out = []
            for half in (1, 2):
                if half == here:
                    played = self.deal_ends()
                    ev = played[0] if played else None
                else:
                    ev = ctx.ends.get(half)
                if ev is None:
                    continue
                seat = ctx.seat(half)
                mine = self.rules.team_of(seat)
                out.append(
                    Group(
                        self.t("duplicate.sheet_half", n=half),
                        ev,
                        seat,
                        [mine, *(t for t in range(teams) if t != mine)],
                    )
                )
            return out
        return [
            Group(self.t("sheet.deal", number=ev.get("number", i + 1)), ev, self.viewer, list(range(teams)))
            for i, ev in enumerate(self.deal_ends())
        ]

    def lines(self) -> list[JsonObject]:
        """The results lines the breakdown keeps (a single deal has no match total)."""
        return shown_lines(self.rules, self.one_deal)

    def sheets(self) -> list[Breakdown]:
        lang = self.app.language
        return [breakdown(self.t, self.rules, g.deal_end, g.viewer, lang, self.one_deal) for g in self.groups()]

    def cells(self) -> list[tuple[str, str, list[list[str]]]]:
        """(label, kind, per deal the texts per team shown, in the group's order) for every
        row: what the sheet shows (tests read it). A line that scores shows its points ("–"
        for none), a card held shows ✓, the rest their value."""
        sheets = self.sheets()
        orders = [g.order for g in self.groups()]
        if not sheets:
            return []
        out = []
        for i, line in enumerate(self.lines()):
            label, kind = sheets[-1].rows[i].label, sheets[-1].rows[i].kind
            per_deal = []
            for b, order in zip(sheets, orders):
                row = b.rows[i]
                texts = []
                for cell in (row.cells[t] for t in order):
                    if line.get("mark"):
                        texts.append("✓" if cell.mark else "–")
                    elif line.get("points") and kind == "line":
                        texts.append(str(cell.points) if cell.points else "–")
                    else:
                        texts.append(cell.text)
                per_deal.append(texts)
            out.append((label, kind, per_deal))
        return out

    # ------------------------------------------------------------------ scrolling
    def per_page(self) -> int:
        teams = self.rules.teams
        room = self.RECT.w - 80 - LABEL_W
        return max(1, int((room + DEAL_GAP) // (teams * SUB_W + DEAL_GAP)))

    def start(self) -> int:
        n, k = len(self.groups()), self.per_page()
        last = max(0, n - k)
        return last if self.first is None else max(0, min(last, self.first))

    def shift(self, step: int) -> None:
        self.first = self.start() + step

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.shift(-1 if event.y > 0 else 1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5):
            self.shift(-1 if event.button == 4 else 1)
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_LEFT, pygame.K_PAGEUP):
                self.shift(-1 if event.key == pygame.K_LEFT else -self.per_page())
            elif event.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN):
                self.shift(1 if event.key == pygame.K_RIGHT else self.per_page())
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.back()

    # ------------------------------------------------------------------ drawing
    def draw_body(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        y = self.title(surface, self.t("sheet.title"))
        rows = self.cells()
        if not rows:
            theme.blit_text(
                surface, self.t("sheet.none"), (r.centerx, y + 80), "serif", 18, theme.CREAM_DIM, anchor="midtop"
            )
            return
        ends = self.groups()
        teams = self.rules.teams
        first, k = self.start(), self.per_page()
        shown = range(first, min(len(ends), first + k))
        group_w = teams * SUB_W
        x0 = r.x + 30 + LABEL_W
        if len(shown) < k:  # room to spare: the deals sit in the middle of what is left
            x0 += max(0, (r.right - 30 - x0 - len(shown) * (group_w + DEAL_GAP) + DEAL_GAP) // 2)
        row_h = max(20, min(30, (r.bottom - 50 - (y + 48)) // max(1, len(rows))))
        # The deals' headings and the team names under them, every other deal on a light band.
        bottom = y + 46 + len(rows) * row_h
        for j, d in enumerate(shown):
            gx = x0 + j * (group_w + DEAL_GAP)
            if j % 2 == 0:
                band = pygame.Rect(gx - DEAL_GAP // 2 + 2, y - 6, group_w + DEAL_GAP - 4, bottom - y + 8)
                surface.blit(theme.rounded(band.size, 8, (255, 255, 255, 12)), band)
            g = ends[d]
            theme.small_caps(surface, g.heading, (gx + group_w // 2, y), 13, theme.BRASS, anchor="midtop")
            # The table's own names (friends online, "Computer 3"); a duplicate's other half
            # was seen from another chair, so its names come from that chair.
            names = (
                [self.story.team(t) for t in range(teams)]
                if g.viewer == self.viewer
                else team_names(self.t, self.rules.players, g.viewer, team_of=self.rules.team_of)
            )
            mine = self.rules.team_of(g.viewer)
            for j_t, t in enumerate(g.order):
                size = theme.fit(names[t], "sans_bold", 12, SUB_W - 4, 8)
                theme.blit_text(
                    surface,
                    names[t],
                    (gx + j_t * SUB_W + SUB_W // 2, y + 20),
                    "sans_bold",
                    size,
                    team_color(t, mine, teams),
                    anchor="midtop",
                )
        if first > 0:
            theme.blit_text(surface, "◂", (x0 - 14, y + 8), "sans_bold", 18, theme.BRASS, anchor="midtop")
        if first + k < len(ends):
            theme.blit_text(surface, "▸", (r.right - 20, y + 8), "sans_bold", 18, theme.BRASS, anchor="midtop")
        yy = y + 46
        for label, kind, per_deal in rows:
            strong = kind != "line"
            if strong:
                pygame.draw.line(surface, theme.BRASS_DARK, (r.x + 30, yy - 3), (r.right - 30, yy - 3))
            face = "sans_bold" if strong else "sans"
            size = theme.fit(label, face, 14, LABEL_W - 14, 9)
            theme.blit_text(
                surface,
                label,
                (r.x + 30, yy + (row_h - 18) // 2),
                face,
                size,
                theme.CREAM if not strong else theme.BRASS_LIGHT,
            )
            for j, d in enumerate(shown):
                gx = x0 + j * (group_w + DEAL_GAP)
                for t, text in enumerate(per_deal[d]):
                    color = (
                        theme.BRASS_LIGHT
                        if strong
                        else (theme.CREAM if text not in ("–", "—", "0") else theme.CREAM_FAINT)
                    )
                    size = theme.fit(text, face, 15, SUB_W - 6, 9)
                    theme.blit_text(
                        surface,
                        text,
                        (gx + t * SUB_W + SUB_W // 2, yy + (row_h - 20) // 2),
                        face,
                        size,
                        color,
                        anchor="midtop",
                    )
            yy += row_h

    def hint(self) -> str:
        return self.t("sheet.hint")


def create(
    app: AppServices,
    session: TableSession | None = None,
    events: list[dict] | None = None,
    viewer: int | None = None,
    **params: object,
) -> SheetPanel:
    """The stack's "scoresheet" scene: the score sheet of ``session`` (default: the match at
    the table beneath)."""
    if session is None:
        table = app.stack.find("table")
        session = getattr(table, "session", None)
        if session is None:
            raise LookupError("the score sheet needs a match")
    return SheetPanel(app, session, events, viewer)


__all__ = ["SheetPanel", "create"]
