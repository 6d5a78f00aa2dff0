"""The Replays list: the kept matches (game.services.replays), newest first — when, which game and
variant, who played and how it ended — each opened in the viewer with a click or Enter.
"Watch a match" sets up a match of computers; "Open a file…" opens any record by its path
(a record can also be dropped on the window). A kept file that cannot be read is left out,
and a line says how many were.

Keys: ↑ / ↓ choose (Page Up / Page Down, Home / End), Enter opens, Esc goes back; Tab
reaches the buttons. The mouse: a click on a row opens it, the wheel scrolls.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame

from game.services import replays
from scenes import names
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button

PANEL = pygame.Rect(70, 38, 1140, 640)
LIST = pygame.Rect(PANEL.x + 30, PANEL.y + 104, PANEL.w - 60, 440)
ROW_H = 55
ROWS = LIST.h // ROW_H
LEVELS = ("easy", "normal", "hard")


def _teams(m: replays.KeptMatch) -> Callable[[int], int] | None:
    """The score column of each seat in a kept match, by its rules (None when they cannot
    be made)."""
    from game.rulesets import make_rules

    try:
        return make_rules(m.game, m.deck, m.players, m.options).team_of
    except (KeyError, ValueError, TypeError):
        return None


def _team_of(m: replays.KeptMatch, seat: int) -> int | None:
    """The team of ``seat`` in a kept match, by its rules (None when they cannot be made)."""
    team_of = _teams(m)
    return None if team_of is None else team_of(seat)


class ReplaysScene(UIScene):
    def __init__(self, app: AppServices, folder: Path | None = None):
        self.folder = folder
        self.listing = replays.list_kept(folder)
        self.selected = 0
        self.offset = 0
        self._texts: dict[tuple[str, str], tuple[str, str, str, str]] = {}
        super().__init__(app)
        self.ui.focus_index = -1  # the keys go to the field / the list (UIScene focused a button)

    def build(self) -> None:
        y = PANEL.bottom - 64
        self.ui.add(
            Button((PANEL.x + 30, y, 170, 44), self.label("common.back"), self.back, icon="‹", size=15, name="back")
        )
        self.watch = self.ui.add(
            Button(
                (PANEL.right - 30 - 250, y, 250, 44),
                self.label("replay.watch"),
                lambda: self.app.open_scene("watch"),
                style="primary",
                size=15,
                name="watch",
            )
        )
        self.ui.add(
            Button(
                (PANEL.right - 30 - 250 - 16 - 230, y, 230, 44),
                self.label("replay.open_file"),
                self.open_file,
                size=15,
                name="open_file",
            )
        )
        # The coach: the chosen match analysed for the player's seat (seat 1 when the
        # record does not say who played).
        self.ui.add(
            Button(
                (PANEL.x + 220, y, 300, 44),
                self.coach_label,
                self.analyse,
                size=14,
                name="analyse",
                visible=lambda: bool(self.matches),
            )
        )
        self.ui.focus_index = -1  # the list has the keys until Tab moves to a button

    def enter(self) -> None:
        # Back from the viewer or a watched match: a match may have been kept meanwhile.
        self.listing = replays.list_kept(self.folder)
        self.selected = max(0, min(self.selected, len(self.listing.matches) - 1))

    # ------------------------------------------------------------------ actions
    @property
    def matches(self) -> list[replays.KeptMatch]:
        return self.listing.matches

    def open(self, i: int) -> None:
        if 0 <= i < len(self.matches):
            self.selected = i
            self.app.open_scene("replay", record=str(self.matches[i].path))

    def coach_seat(self) -> int:
        m = self.matches[self.selected] if 0 <= self.selected < len(self.matches) else None
        return m.human_seat if m is not None and m.human_seat is not None else 0

    def coach_label(self) -> str:
        m = self.matches[self.selected] if 0 <= self.selected < len(self.matches) else None
        if m is None or m.human_seat is not None:
            return self.t("coach.replays.analyse")
        return self.t("coach.replays.seat", seat=names.seat_name(self.t, 0, None, m.players))

    def analyse(self) -> None:
        """The coach on the chosen kept match; a record it cannot analyse is said in one line."""
        if not 0 <= self.selected < len(self.matches):
            return
        m = self.matches[self.selected]
        try:
            self.app.open_scene(
                "coach",
                record=str(m.path),
                seat=self.coach_seat(),
                levels=[None if s == replays.HUMAN else s for s in m.seats] if m.seats else None,
            )
        except ValueError as e:
            self.app.toast(self.t("coach.failed", reason=str(e)))

    def open_file(self) -> None:
        self.app.open_scene("save_record", mode="open")

    def move(self, n: int) -> None:
        if not self.matches:
            return
        self.selected = max(0, min(len(self.matches) - 1, self.selected + n))
        if self.selected < self.offset:
            self.offset = self.selected
        elif self.selected >= self.offset + ROWS:
            self.offset = self.selected - ROWS + 1

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and self.ui.focused is None:
            step = {
                pygame.K_UP: -1,
                pygame.K_DOWN: 1,
                pygame.K_PAGEUP: -ROWS,
                pygame.K_PAGEDOWN: ROWS,
                pygame.K_HOME: -(10**6),
                pygame.K_END: 10**6,
            }.get(event.key)
            if step is not None:
                self.move(step)
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.open(self.selected)
                return
        if event.type == pygame.MOUSEWHEEL and LIST.collidepoint(getattr(event, "pos", (0, 0))):
            top = max(0, len(self.matches) - ROWS)
            self.offset = max(0, min(top, self.offset - int(getattr(event, "y", 0))))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and LIST.collidepoint(event.pos):
            i = self.offset + (event.pos[1] - LIST.y) // ROW_H
            if i < len(self.matches):
                self.ui.focus(None)
                self.open(i)
            return
        super().handle(event)

    # ------------------------------------------------------------------ words
    def row_texts(self, m: replays.KeptMatch) -> tuple[str, str, str, str]:
        """(when, game · deck · variant, players, result) of one kept match (told once per language)."""
        key = (str(m.path), self.app.language)
        if key not in self._texts:
            self._texts[key] = self._tell(m)
        return self._texts[key]

    def _tell(self, m: replays.KeptMatch) -> tuple[str, str, str, str]:
        from game.variants import variant_name

        cfg, lang = self.app.config, self.app.language
        when = time.strftime("%Y-%m-%d  %H:%M", time.localtime(m.when))
        game, deck = cfg.games.get(m.game), cfg.decks.get(m.deck)
        gname = (game.name.get(lang) or game.name.get("en") or m.game) if game is not None else m.game
        dname = (deck.name.get(lang) or deck.name.get("en") or m.deck) if deck is not None else m.deck
        head = names.game_and_deck(gname, dname)
        variant = variant_name(self.app.i18n, game, m.options, m.players) if game is not None else None
        if variant:
            head = f"{head} · {variant}"
        known = [lv for lv in LEVELS if lv in m.levels]
        shown = " / ".join([self.t(f"ai.{lv}") for lv in known] + sorted({lv for lv in m.levels if lv not in LEVELS}))
        players = self.t("replay.players", count=m.players)
        if m.human_seat is not None and shown:
            players = self.t("replay.players_against", count=m.players, levels=shown)
        return when, head, players, self.result_text(m)

    def result_text(self, m: replays.KeptMatch) -> str:
        """ "Won · 11 : 7", "Lost …", "Drawn …"; a record of someone else's: "Player 2 won …"."""
        score = " : ".join(str(v) for v in m.totals)
        human = m.human_seat
        if m.winner is None:
            text = self.t("replay.result_drawn", score=score)
        elif human is not None:
            won = m.winner == _team_of(m, human)
            text = self.t("replay.result_won" if won else "replay.result_lost", score=score)
        else:
            teams = names.team_names(self.t, m.players, None, subject=True, team_of=_teams(m))
            name = teams[m.winner] if 0 <= m.winner < len(teams) else str(m.winner)
            text = self.t("replay.result_by", name=name, score=score)
        return f"{text} · {self.t('replay.practice')}" if m.practice else text

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("replay.list_title")
        theme.heading(surface, title, (r.x + 30, r.y + 24), theme.fit(title, "serif_bold", 28, 600, 16, 0.22, True))
        intro = self.t(
            "replay.list_intro",
            count=replays.clamp_limit(self.app.settings.replays_kept),
        )
        theme.blit_text(
            surface, intro, (r.x + 30, r.y + 68), "sans", theme.fit(intro, "sans", 15, r.w - 60, 10), theme.CREAM_DIM
        )
        if not self.matches:
            empty = self.t("replay.none")
            for i, ln in enumerate(theme.wrap(empty, "serif", 18, LIST.w - 40, max_lines=3)):
                theme.blit_text(
                    surface, ln, (LIST.centerx, LIST.y + 120 + 26 * i), "serif", 18, theme.CREAM, anchor="midtop"
                )
        for k, m in enumerate(self.matches[self.offset : self.offset + ROWS]):
            self._row(surface, self.offset + k, m, pygame.Rect(LIST.x, LIST.y + k * ROW_H, LIST.w, ROW_H - 5))
        if len(self.matches) > ROWS:
            self._scrollbar(surface)
        if self.listing.skipped:
            note = self.t("replay.skipped", count=len(self.listing.skipped))
            theme.blit_text(
                surface,
                note,
                (r.x + 30, LIST.bottom + 6),
                "sans",
                theme.fit(note, "sans", 13, r.w - 60, 9),
                (232, 150, 120),
            )
        self.ui.draw(surface)
        hint = self.t("replay.list_hint")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 22),
            "sans",
            theme.fit(hint, "sans", 13, 1100, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )

    def _row(self, surface: pygame.Surface, i: int, m: replays.KeptMatch, band: pygame.Rect) -> None:
        chosen = i == self.selected and self.ui.focused is None
        fill = (201, 164, 92, 52) if chosen else (255, 255, 255, 12 if i % 2 == 0 else 6)
        surface.blit(theme.rounded(band.size, 8, fill, 1 if chosen else 0, (*theme.BRASS, 255)), band)
        when, head, players, result = self.row_texts(m)
        x = band.x + 16
        theme.blit_text(surface, when, (x, band.y + 7), "sans_bold", 13, theme.BRASS_LIGHT)
        theme.blit_text(
            surface, players, (x, band.y + 27), "sans", theme.fit(players, "sans", 13, 250, 9), theme.CREAM_DIM
        )
        mid = band.x + 290
        res_w = 300
        theme.blit_text(
            surface,
            head,
            (mid, band.centery),
            "serif_bold",
            theme.fit(head, "serif_bold", 17, band.right - res_w - 20 - mid, 10),
            theme.CREAM,
            anchor="midleft",
        )
        theme.blit_text(
            surface,
            result,
            (band.right - 16, band.centery),
            "sans_bold",
            theme.fit(result, "sans_bold", 15, res_w - 16, 9),
            theme.CREAM,
            anchor="midright",
        )

    def _scrollbar(self, surface: pygame.Surface) -> None:
        n = len(self.matches)
        track = pygame.Rect(LIST.right + 8, LIST.y, 5, ROWS * ROW_H - 5)
        surface.blit(theme.rounded(track.size, 2, (255, 255, 255, 24)), track)
        h = max(20, track.h * ROWS // n)
        y = track.y + (track.h - h) * self.offset // max(1, n - ROWS)
        surface.blit(theme.rounded((track.w, h), 2, (*theme.BRASS, 220)), (track.x, y))


def create(app: AppServices, folder: Path | None = None, **params: object) -> ReplaysScene:
    return ReplaysScene(app, folder=folder)


__all__ = ["ReplaysScene", "create"]
