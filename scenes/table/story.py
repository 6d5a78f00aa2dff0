"""The table's way into its story: the keys (L the play log, T the last trick or capture,
S the score sheet), the HUD's two buttons, clicks on the piles (yours fans your cards, the
others show what they took last) and the click or key that gathers a finished trick.

The panels are overlay scenes (:mod:`scenes.table.overlays`, :mod:`scenes.table.sheet`):
the table beneath pauses while one is open. They are given the record as far as the table
has shown it, so they never tell a play before it is seen. What the story asks of the table
is :class:`StoryHost`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from game.services.table_session import TableSession
from scenes.table.motion import TableMotion
from scenes.table.overlays import LogPanel, PilePanel, ReviewPanel, StoryPanel
from scenes.table.sheet import SheetPanel
from sprites import table_layout as TL
from sprites.widgets import UI, Button

if TYPE_CHECKING:
    from game.rules.base import GameRules
    from scenes.scene import AppServices
    from sprites.table_layout import TableLayout

KEYS = {pygame.K_l: "log", pygame.K_t: "review", pygame.K_s: "sheet"}
#: Keys that never gather a waiting trick: they open a panel, pause, toggle the hints, ask for
#: a suggestion, or are only held for another key (Ctrl+Z takes back a move meanwhile).
_KEEP = (
    pygame.K_ESCAPE,
    pygame.K_h,
    pygame.K_g,
    pygame.K_LSHIFT,
    pygame.K_RSHIFT,
    pygame.K_LCTRL,
    pygame.K_RCTRL,
    pygame.K_LALT,
    pygame.K_RALT,
    *KEYS,
)


def button_rects() -> list[pygame.Rect]:
    """The log and score-sheet buttons: on the top edge, left of the menu button."""
    w, h, gap = 104, 30, 8
    m = TL.MENU_RECT
    return [pygame.Rect(m.x - gap - w, m.y, w, h), pygame.Rect(m.x - 2 * (gap + w), m.y, w, h)]


class StoryHost(Protocol):
    """What the story reads of the table: the parts, whose eyes, and whether it is shown."""

    app: AppServices
    session: TableSession
    rules: GameRules
    layout: TableLayout
    human: int
    ui: UI

    @property
    def motion(self) -> TableMotion: ...

    def on_stack(self) -> bool:
        """The table is on the scene stack (panels can be pushed over it)."""


class TableStory:
    def __init__(self, host: StoryHost, ui: UI):
        self.host = host
        self.pending: StoryPanel | None = None
        t = host.app.t
        log, sheet = button_rects()
        self.buttons = {
            "log": ui.add(
                Button(log, lambda: t("log.button"), lambda: self.open("log"), style="secondary", size=13, name="log")
            ),
            "sheet": ui.add(
                Button(
                    sheet,
                    lambda: t("sheet.button"),
                    lambda: self.open("sheet"),
                    style="secondary",
                    size=13,
                    name="sheet",
                )
            ),
        }
        ui.focus_index = -1  # the hand, not a button, has the keyboard

    # ------------------------------------------------------------------ what has been shown
    def shown_events(self) -> list[dict]:
        """The record up to the last event the table has begun to show."""
        events = list(self.host.session.match.events)
        waiting = len(self.host.motion.queue)
        return events[: len(events) - waiting] if waiting else events

    def panel(self, kind: str, team: int | None = None) -> StoryPanel:
        h = self.host
        args = (h.app, h.session, self.shown_events(), h.human)
        if kind == "log":
            return LogPanel(*args)
        if kind == "sheet":
            return SheetPanel(*args)
        if kind == "pile":
            return PilePanel(*args)
        return ReviewPanel(*args, team=team)

    def open(self, kind: str, team: int | None = None) -> StoryPanel:
        """Open a panel over the table: "log", "review" (the last trick or capture, or the
        last that went to ``team``'s pile), "pile" (your own) or "sheet"."""
        panel = self.panel(kind, team)
        stack = self.host.app.stack
        if self.host.on_stack():
            stack.push(panel)
        else:
            self.pending = panel  # the table is being made (--overlay): shown once it is
        return panel

    def entered(self) -> None:
        """The table is on the stack: open the panel asked for before it was."""
        panel, self.pending = self.pending, None
        if panel is not None:
            self.host.app.stack.push(panel)

    def pile_at(self, pos: tuple[int, int]) -> int | None:
        """The team whose pile (or its count) is under ``pos``."""
        h = self.host
        for team in range(h.rules.teams):
            r = h.layout.pile(team).bounds(h.rules.deck.aspect).inflate(12, 12)
            r.h += 22  # the count's badge under it
            if r.collidepoint(pos):
                return team
        return None

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> bool:
        """The story's share of the table's input; True when it took the event."""
        h = self.host
        motion = h.motion
        if event.type == pygame.KEYDOWN:
            mod = getattr(event, "mod", 0)
            if mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
                return False
            kind = KEYS.get(event.key)
            if kind is not None:
                self.open(kind)
                return True
            if motion.holding_trick and event.key not in _KEEP:
                return motion.release()
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if any(w.visible and w.rect.collidepoint(event.pos) for w in h.ui.widgets):
                return False  # the buttons work as ever
            team = self.pile_at(event.pos)
            mine = h.rules.team_of(h.human)
            if team is not None:
                self.open("pile" if team == mine else "review", None if team == mine else team)
                return True
            if motion.holding_trick:
                return motion.release()
        return False


__all__ = ["TableStory", "KEYS", "button_rects"]
