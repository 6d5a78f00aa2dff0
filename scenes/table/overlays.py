"""The story's panels over the table: the play log (L), the review of the last trick or
capture (T, or a click on a pile) and your own pile fanned out (a click on it).

Each is an overlay scene pushed on the stack, so the table beneath pauses while it is read
(only the top scene is updated) and shows through. What they show is told by
:mod:`scenes.table.narrate` from the record events the table has shown so far, so a resumed
or rewound match shows the same. The score sheet is :mod:`scenes.table.sheet`.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.services.table_session import TableSession
from scenes.results.breakdown import breakdown
from scenes.scene import AppServices, UIScene
from scenes.table.narrate import Capture, Line, Narrator, Trick, narrate
from sprites import hidpi, theme
from sprites.fans import card_art
from sprites.table_draw import OUTLINE, TEAM_COLORS, CardPainter, outline
from sprites.tween import Tween, ease_out_cubic

WHEEL_STEP = 48
TALLY_W = 430  # the running tally's column in the pile view
CLOSE_KEYS = (pygame.K_ESCAPE, pygame.K_BACKSPACE)


def team_color(team: int, mine: int, teams: int) -> tuple[int, int, int]:
    """The HUD's team colours: yours brass, the others silver (alternating with copper where
    there are several other teams)."""
    if team == mine:
        return TEAM_COLORS[0]
    return TEAM_COLORS[1 + (team % 2 if teams > 2 else 0)]


class StoryPanel(UIScene):
    """A panel over the paused table; Esc (or a click outside) closes it.

    ``events``: the record as far as the table has shown it; ``viewer``: whose eyes."""

    is_overlay = True
    RECT = pygame.Rect(150, 48, 980, 624)
    #: Keys that close the panel besides Esc (the key that opened it).
    toggles: tuple[int, ...] = ()

    def __init__(
        self, app: AppServices, session: TableSession, events: list[dict] | None = None, viewer: int | None = None
    ):
        self.session = session
        self.rules = session.rules
        self.events = list(session.match.events if events is None else events)
        self.viewer = viewer if viewer is not None else (session.human_seat if session.human_seat is not None else 0)
        self.appear = Tween(0.0, 1.0, 0.2, ease_out_cubic)
        self._told: tuple[str, Narrator] | None = None
        self._painter: CardPainter | None = None
        self.rect = self.RECT.copy()
        super().__init__(app)

    # ------------------------------------------------------------------ what is told
    @property
    def story(self) -> Narrator:
        """The events told in the current language (told again after a language switch)."""
        lang = self.app.language
        if self._told is None or self._told[0] != lang:
            self._told = (lang, narrate(self.events, self.rules, self.t, lang, self.viewer))
        return self._told[1]

    def painter(self) -> CardPainter:
        lang = self.app.language
        if self._painter is None or self._painter.lang != lang:
            deck = self.rules.deck
            self._painter = CardPainter(card_art(deck), deck.aspect, lang)
        return self._painter

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and (event.key in CLOSE_KEYS or event.key in self.toggles):
            self.back()
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3) and not self.rect.collidepoint(event.pos):
            self.back()
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 8:
            self.back()
            return
        self.on_event(event)

    def on_event(self, event: pygame.event.Event) -> None:
        """The panel's own keys and clicks (Esc and clicks outside are handled)."""

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        a = float(self.appear.value_at(self.alpha))
        veil = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((2, 10, 6, int(150 * a)))
        surface.blit(veil, (0, 0))
        r = self.rect
        surface.blit(theme.shadow(r.size, 18, 12, 170), (r.x - 12, r.y - 6))
        surface.blit(theme.panel(r.size, 18, (10, 30, 21, 246), theme.BRASS), r)
        self.draw_body(surface, r)
        hint = self.hint()
        if hint:
            size = theme.fit(hint, "sans", 13, r.w - 40, 10)
            theme.blit_text(
                surface, hint, (r.centerx, r.bottom - 12), "sans", size, theme.CREAM_FAINT, anchor="midbottom"
            )
        self.ui.draw(surface)

    def title(self, surface: pygame.Surface, text: str, sub: str = "") -> int:
        """The panel's heading (and a line under it); returns the y below them."""
        r = self.rect
        size = theme.fit(text, "serif_bold", 26, r.w - 80, 16, 0.22, True)
        theme.heading(surface, text, (r.centerx, r.y + 20), size, anchor="midtop")
        y = r.y + 20 + size + 18
        if sub:
            size = theme.fit(sub, "sans", 15, r.w - 80, 10)
            theme.blit_text(surface, sub, (r.centerx, y), "sans", size, theme.CREAM_DIM, anchor="midtop")
            y += 24
        return y

    def draw_body(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        raise NotImplementedError

    def hint(self) -> str:
        return ""


# ====================================================================== the play log
class LogPanel(StoryPanel):
    """The plays of a deal in words, newest last, with the running score; scrollable
    (wheel, PgUp/PgDn, ↑/↓, Home/End); ←/→ show the other deals of the match."""

    toggles = (pygame.K_l,)
    TEXT_SIZE = 15
    LINE_H = 20

    def build(self) -> None:
        self.deal_i = max(0, len(self.story.deals) - 1)
        self.offset = 10**6  # scrolled to the newest line; clamped when drawn
        self.view = pygame.Rect(self.rect.x + 28, self.rect.y + 124, self.rect.w - 56, self.rect.h - 124 - 44)

    def lines(self) -> list[Line]:
        deals = self.story.deals
        return deals[self.deal_i].lines if 0 <= self.deal_i < len(deals) else []

    def score_w(self) -> int:
        """The running score's column: wider where many seats keep their own score."""
        widest = max((theme.text_width(ln.score, "sans_bold", 10) for ln in self.lines() if ln.score), default=0)
        return max(300, min(400, widest + 14))

    def rows(self) -> list[tuple[Line, list[str]]]:
        """Each line of the deal with its wrapped text."""
        width = self.view.w - self.score_w() - 30
        return [(ln, theme.wrap(ln.text, "sans", self.TEXT_SIZE, width)) for ln in self.lines()]

    def content_h(self, rows: list[tuple[Line, list[str]]]) -> int:
        return sum(len(w) * self.LINE_H + 6 for _, w in rows)

    def max_offset(self) -> int:
        return max(0, self.content_h(self.rows()) - self.view.h)

    def scroll_by(self, dy: float) -> None:
        self.offset = int(max(0, min(self.max_offset(), min(self.offset, self.max_offset()) + dy)))

    def on_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * WHEEL_STEP)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5):
            self.scroll_by(WHEEL_STEP if event.button == 5 else -WHEEL_STEP)
        elif event.type == pygame.KEYDOWN:
            k = event.key
            page = self.view.h * 0.85
            if k == pygame.K_PAGEUP:
                self.scroll_by(-page)
            elif k in (pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.scroll_by(page)
            elif k == pygame.K_UP:
                self.scroll_by(-WHEEL_STEP)
            elif k == pygame.K_DOWN:
                self.scroll_by(WHEEL_STEP)
            elif k == pygame.K_HOME:
                self.offset = 0
            elif k == pygame.K_END:
                self.offset = self.max_offset()
            elif k in (pygame.K_LEFT, pygame.K_RIGHT):
                n = len(self.story.deals)
                i = max(0, min(n - 1, self.deal_i + (1 if k == pygame.K_RIGHT else -1)))
                if i != self.deal_i:
                    self.deal_i, self.offset = i, 10**6
            elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.back()

    def visible_texts(self) -> list[str]:
        """The sentences in view now, top to bottom (tests read what a player reads)."""
        rows = self.rows()
        off = min(self.offset, self.max_offset())
        out, y = [], 0
        for ln, wrapped in rows:
            h = len(wrapped) * self.LINE_H + 6
            if y + h > off and y < off + self.view.h:
                out.append(ln.text)
            y += h
        return out

    def draw_body(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        story = self.story
        deals = story.deals
        number = deals[self.deal_i].number if deals else 1
        title = f"{self.t('log.title')} · {self.t('log.deal', number=number)}"
        sub = ""
        if self.rules.match_goal()[0] != "single":
            sub = self.t("log.match", totals="  ·  ".join(f"{story.team(t)} {v}" for t, v in enumerate(story.totals)))
        y = self.title(surface, title, sub)
        self.view.y, self.view.h = y + 28, self.rect.bottom - 44 - (y + 28)  # under the heading, whatever its size
        if len(deals) > 1:
            arrows = f"{'◂ ' if self.deal_i > 0 else ''}{self.deal_i + 1} / {len(deals)}{' ▸' if self.deal_i < len(deals) - 1 else ''}"
            theme.blit_text(surface, arrows, (self.view.x, self.view.y - 24), "sans_bold", 14, theme.BRASS)
        head = story.score_heading()
        theme.small_caps(surface, head, (self.view.right, self.view.y - 22), 12, theme.BRASS, anchor="topright")
        pygame.draw.line(surface, theme.BRASS_DARK, (self.view.x, self.view.y - 5), (self.view.right, self.view.y - 5))
        rows = self.rows()
        if not rows:
            theme.blit_text(
                surface,
                self.t("log.empty"),
                (r.centerx, self.view.y + 40),
                "serif",
                17,
                theme.CREAM_DIM,
                anchor="midtop",
            )
            return
        self.offset = min(self.offset, self.max_offset())
        clip = surface.get_clip()
        surface.set_clip(self.view)
        yy = self.view.y - self.offset
        mine = self.rules.team_of(self.viewer)
        for ln, wrapped in rows:
            h = len(wrapped) * self.LINE_H + 6
            if yy + h >= self.view.y and yy <= self.view.bottom:
                self._draw_line(surface, ln, wrapped, yy, mine)
            yy += h
        surface.set_clip(clip)
        if self.max_offset() > 0:
            self._scrollbar(surface)

    def _draw_line(self, surface: pygame.Surface, ln: Line, wrapped: list[str], y: int, mine: int) -> None:
        x = self.view.x
        if ln.seat is not None:
            team = self.rules.team_of(ln.seat)
            pygame.draw.rect(
                surface,
                team_color(team, mine, self.rules.teams),
                (x, y + 4, 3, len(wrapped) * self.LINE_H - 6),
                border_radius=1,
            )
        color = theme.CREAM
        face = "sans"
        declared = self.rules.vocabulary.event(ln.kind)
        effect = declared.effect if declared is not None else ""
        # The deal's frame (a deal, new hands, its end, a deal told by words alone such as a
        # redeal) stands out; a draw is quieter than a play.
        if effect in ("deal", "deal_end", "match_end", "new_hands") or (declared is not None and not effect):
            color, face = theme.BRASS_LIGHT, "sans_bold"
        elif effect == "draw":
            color = theme.CREAM_DIM
        elif "—" in ln.text:  # a bonus was scored
            color, face = theme.BRASS_LIGHT, "sans_bold"
        for i, text in enumerate(wrapped):
            theme.blit_text(surface, text, (x + 12, y + i * self.LINE_H), face, self.TEXT_SIZE, color)
        if ln.score:
            size = theme.fit(ln.score, "sans_bold", 13, self.score_w() - 10, 9)
            theme.blit_text(
                surface, ln.score, (self.view.right - 4, y + 2), "sans_bold", size, theme.BRASS, anchor="topright"
            )

    def _scrollbar(self, surface: pygame.Surface) -> None:
        total = self.content_h(self.rows())
        v = self.view
        h = max(24, round(v.h * v.h / max(1, total)))
        y = v.y + round((v.h - h) * (self.offset / max(1, self.max_offset())))
        surface.blit(theme.rounded((4, h), 2, (*theme.BRASS, 150)), (v.right + 12, y))

    def hint(self) -> str:
        return self.t("log.hint")


# ====================================================================== the last trick or capture
class ReviewPanel(StoryPanel):
    """The last trick or capture of the deal (``team``: the last that went to that pile),
    the cards as they were played, with the sentence that told it. object key or click closes."""

    RECT = pygame.Rect(190, 150, 900, 420)

    def __init__(
        self,
        app: AppServices,
        session: TableSession,
        events: list[dict] | None = None,
        viewer: int | None = None,
        team: int | None = None,
    ):
        self.team = team
        super().__init__(app, session, events, viewer)

    def take(self) -> Trick | Capture | None:
        deal = self.story.deal
        return deal.last_take if self.team is None else deal.last_to.get(self.team)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key not in (
            pygame.K_LSHIFT,
            pygame.K_RSHIFT,
            pygame.K_LCTRL,
            pygame.K_RCTRL,
        ):
            self.back()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3, 8):
            self.back()

    def sentence(self) -> str:
        """What the log said of it."""
        take = self.take()
        for ln in reversed(self.story.deal.lines):
            if (
                take is not None
                and ln.kind in ("trick", "capture")
                and ln.seat == getattr(take, "winner", getattr(take, "seat", None))
            ):
                return ln.text
        return ""

    def draw_body(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        take = self.take()
        if isinstance(take, Trick):
            title = self.t("review.last_trick")
        elif isinstance(take, Capture):
            title = self.t("review.last_capture")
        else:
            title = self.t("review.last_trick" if self.rules.family != "capture" else "review.last_capture")
        if self.team is not None:
            title = f"{title} · {self.story.team(self.team)}"
        y = self.title(surface, title)
        if take is None:
            theme.blit_text(
                surface, self.t("review.nothing"), (r.centerx, y + 80), "serif", 18, theme.CREAM_DIM, anchor="midtop"
            )
            return
        P = self.painter()
        h = 170
        w = max(1, round(h / self.rules.deck.aspect))
        cy = y + 18 + h // 2
        if isinstance(take, Trick):
            cards = take.cards
            gap = 30
            total = len(cards) * w + (len(cards) - 1) * gap
            x = r.centerx - total / 2 + w / 2
            for seat, code in cards:
                rect = P.draw(surface, code, x, cy, 0.0, h)
                if seat == take.winner:
                    outline(surface, rect, OUTLINE, 1.0)
                if seat is not None:
                    name = self.story.name(seat, subject=False)
                    size = theme.fit(name, "sans_bold", 14, w + gap - 4, 9)
                    theme.blit_text(
                        surface,
                        name,
                        (x, cy + h // 2 + 12),
                        "sans_bold",
                        size,
                        theme.BRASS_LIGHT if seat == take.winner else theme.CREAM,
                        anchor="midtop",
                    )
                x += w + gap
        else:
            taken = take.taken
            gap = 14
            n = len(taken)
            arrow = 60
            scale = min(1.0, (r.w - 80) / max(1, (n + 1) * (w + gap) + arrow))
            hh = round(h * scale)
            ww = max(1, round(hh / self.rules.deck.aspect))
            total = (n + 1) * ww + n * gap + arrow
            x = r.centerx - total / 2 + ww / 2
            rect = P.draw(surface, take.card, x, cy, 0.0, hh)
            outline(surface, rect, OUTLINE, 1.0)
            name = self.story.name(take.seat, subject=False)
            theme.blit_text(surface, name, (x, cy + hh // 2 + 12), "sans_bold", 14, theme.BRASS_LIGHT, anchor="midtop")
            theme.blit_text(
                surface, "→", (x + ww / 2 + arrow / 2 + gap / 2, cy), "sans_bold", 34, theme.BRASS, anchor="center"
            )
            x += ww + arrow + gap
            for code in taken:
                P.draw(surface, code, x, cy, 0.0, hh)
                x += ww + gap
        text = self.sentence()
        if text:
            for i, line in enumerate(theme.wrap(text, "serif", 18, r.w - 80, max_lines=2)):
                theme.blit_text(
                    surface, line, (r.centerx, cy + h // 2 + 44 + i * 24), "serif", 18, theme.CREAM, anchor="midtop"
                )

    def hint(self) -> str:
        return review_hint(self)


def review_hint(panel: StoryPanel) -> str:
    """ "Click or press a key to close · T: Last trick (or capture) · click your pile…"."""
    last = panel.t("review.last_capture" if panel.rules.family == "capture" else "review.last_trick")
    return panel.t("review.hint", last=last)


# ====================================================================== your pile
class PilePanel(StoryPanel):
    """The cards your side has won this deal, face up: by suit in capture games, trick by
    trick in trick games; the other piles' counts; with the running tally (Settings) the
    awards as they stand. object key or click closes."""

    RECT = pygame.Rect(60, 40, 1160, 640)

    def __init__(
        self, app: AppServices, session: TableSession, events: list[dict] | None = None, viewer: int | None = None
    ):
        super().__init__(app, session, events, viewer)
        self.team = self.rules.team_of(self.viewer)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_t:
            self.app.stack.pop()
            self.app.stack.push(ReviewPanel(self.app, self.session, self.events, self.viewer))
        elif event.type == pygame.KEYDOWN:
            self.back()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3, 8):
            self.back()

    def tally_rows(self) -> list[object]:
        """The awards as they stand, as the results screen's rows (empty when the option is
        off or the game has none)."""
        if not self.app.settings.running_tally:
            return []
        deal = self.story.deal
        result = self.rules.tally(deal.piles, deal.bonuses)
        if result is None:
            return []
        ev = {"points": result.points, "totals": None, "detail": result.detail}
        b = breakdown(self.t, self.rules, ev, self.viewer, self.app.language)
        return [row for row in b.rows if row.kind != "match"]

    def ordered(self) -> list[str]:
        """The pile's cards as shown: in suit and rank order (capture games)."""
        deal = self.story.deal
        ranks = list(self.rules.deck.ranks())
        suits = "DCSB"
        return sorted(
            deal.piles[self.team], key=lambda c: (suits.find(c[-1]), ranks.index(c[:-1]) if c[:-1] in ranks else 99)
        )

    def draw_body(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        story, deal = self.story, self.story.deal
        title = self.t("review.team_pile" if self.rules.partnerships else "review.your_pile")
        won = deal.piles[self.team]
        counts = [
            f"{story.team(t)}: {self.t('table.cards_left', count=len(deal.piles[t]))}" for t in range(self.rules.teams)
        ]
        y = self.title(surface, title, "  ·  ".join(counts))
        tally = self.tally_rows()
        right = r.right - 30 - (TALLY_W + 24 if tally else 0)
        area = pygame.Rect(r.x + 30, y + 6, right - r.x - 30, r.bottom - 40 - y - 12)
        if not won:
            theme.blit_text(
                surface,
                self.t("review.empty_pile"),
                (r.centerx, area.y + 60),
                "serif",
                18,
                theme.CREAM_DIM,
                anchor="midtop",
            )
        elif self.rules.family == "capture":
            self._fan_cards(surface, self.ordered(), area)
        else:
            self._fan_tricks(surface, deal.tricks[self.team], area)
        if tally:
            top = max(area.y, area.centery - (28 + 24 * len(tally)) // 2)
            self._tally(surface, tally, pygame.Rect(r.right - 30 - TALLY_W, top, TALLY_W, r.bottom - 40 - top))

    def _grid(self, n: int, area: pygame.Rect, unit_w: float, h0: int = 130, gap: int = 10) -> tuple[int, int]:
        """The largest card height (≤ h0) at which ``n`` units of width ``unit_w``×h fit."""
        h = h0
        while h > 40:
            w = unit_w * h
            cols = max(1, int((area.w + gap) // (w + gap)))
            rows = -(-n // cols)
            if rows * (h + gap) - gap <= area.h:
                return h, cols
            h -= 4
        return h, max(1, int((area.w + gap) // (unit_w * h + gap)))

    def _fan_cards(self, surface: pygame.Surface, codes: list[str], area: pygame.Rect) -> None:
        """One row per suit (as the awards are counted: coins, primiera), in rank order;
        a long row overlaps its cards."""
        P = self.painter()
        aspect = self.rules.deck.aspect
        rows = [[c for c in codes if c[-1] == suit] for suit in "DCSB"]
        rows = [r for r in rows if r]
        gap = 10
        h = int(min(130, (area.h - gap * (len(rows) - 1)) / max(1, len(rows))))
        w = h / aspect
        for i, row in enumerate(rows):
            n = len(row)
            step = w + 8 if n <= 1 else min(w + 8, (area.w - w) / (n - 1))
            x0 = area.centerx - (step * (n - 1) + w) / 2 + w / 2
            y = area.y + h / 2 + i * (h + gap) + max(0, (area.h - len(rows) * (h + gap) + gap) / 2)
            for j, code in enumerate(row):
                P.draw(surface, code, x0 + j * step, y, 0.0, h, shadow=60)

    def _fan_tricks(self, surface: pygame.Surface, tricks: list[Trick], area: pygame.Rect) -> None:
        P = self.painter()
        aspect = self.rules.deck.aspect
        k = max((len(t.cards) for t in tricks), default=2)
        unit = (1 + 0.45 * (k - 1)) / aspect + 0.12
        h, cols = self._grid(len(tricks), area, unit, 120, 14)
        w = h / aspect
        gw = unit * h
        rows = -(-len(tricks) // cols)
        y0 = area.y + h / 2 + max(0, (area.h - rows * (h + 14)) / 2)
        for i, tr in enumerate(tricks):
            row, col = divmod(i, cols)
            in_row = min(cols, len(tricks) - row * cols)
            gx = area.centerx - (in_row * gw + (in_row - 1) * 14) / 2 + col * (gw + 14)
            for j, (seat, code) in enumerate(tr.cards):
                rect = P.draw(surface, code, gx + w / 2 + j * w * 0.45, y0 + row * (h + 14), 0.0, h, shadow=60)
                if seat == tr.winner:
                    outline(surface, rect, OUTLINE, 0.6, 2)

    def _tally(self, surface: pygame.Surface, rows: list[Any], box: pygame.Rect) -> None:
        theme.small_caps(surface, self.t("review.tally"), (box.x, box.y + 4), 13, theme.BRASS)
        n = self.rules.teams
        col_w = 84 if n < 3 else 64
        x_cols = [box.right - col_w * (n - i) for i in range(n)]
        story = self.story
        mine = self.team
        for i in range(n):
            name = story.team(i)
            size = theme.fit(name, "sans_bold", 13, col_w - 8, 9)
            theme.blit_text(
                surface,
                name,
                (x_cols[i] + col_w // 2, box.y + 4),
                "sans_bold",
                size,
                team_color(i, mine, n),
                anchor="midtop",
            )
        y = box.y + 28
        for row in rows:
            face = "sans_bold" if row.kind != "line" else "sans"
            label = row.label if row.kind == "line" else self.t("review.tally_points")
            size = theme.fit(label, face, 14, x_cols[0] - box.x - 12, 10)
            theme.blit_text(surface, label, (box.x, y), face, size, theme.CREAM)
            for i, cell in enumerate(row.cells):
                text = "✓" if cell.mark else cell.text
                if cell.points:
                    text = f"{text}  +{cell.points}" if text else f"+{cell.points}"
                theme.blit_text(
                    surface,
                    text or "—",
                    (x_cols[i] + col_w // 2, y),
                    face,
                    14,
                    theme.BRASS_LIGHT if cell.points else theme.CREAM_DIM,
                    anchor="midtop",
                )
            y += 24

    def hint(self) -> str:
        return review_hint(self)


__all__ = ["StoryPanel", "LogPanel", "ReviewPanel", "PilePanel", "team_color"]
