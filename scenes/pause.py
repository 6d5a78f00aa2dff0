"""The pause overlay over the table (Esc): Resume, Rules, Settings, Quit to menu.

The match is saved after every move already; "Quit to menu" saves once more and leaves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from scenes.scene import AppServices, UIScene
from sprites import panels, theme
from sprites.tween import Tween, ease_out_cubic
from sprites.widgets import Button

if TYPE_CHECKING:
    from scenes.table.scene import TableScene

#: The box and everything in it (the key hint too) end above the hand (sprites.table_layout
#: HAND_AREA, less the lift), so the player sees the cards while deciding.
BOX = pygame.Rect(0, 0, 420, 392)
BOX.midbottom = (640, 520)


class PauseScene(UIScene):
    is_overlay = True

    def __init__(self, app: AppServices, table: TableScene | None = None):
        self.table = table
        self.appear = Tween(0.0, 1.0, 0.22, ease_out_cubic)
        self.hint_rect: pygame.Rect | None = None  # where the key hint was drawn (tests)
        super().__init__(app)

    def build(self) -> None:
        x, w = BOX.x + 60, BOX.w - 120
        y = BOX.y + 96
        self.resume = self.ui.add(
            Button((x, y, w, 48), self.label("pause.resume"), self.back, style="primary", size=16, name="resume")
        )
        y += 48 + 14
        for key, fn in (("rules", self._rules), ("settings", self._settings), ("quit", self._quit)):
            self.ui.add(Button((x, y, w, 42), self.label(f"pause.{key}"), fn, size=15, name=key))
            y += 42 + 12
        self.ui.focus(self.resume)

    def _rules(self) -> None:
        t = self.table
        # The table's own rules go along: the page shows the rules in force first.
        params = (
            {"deck": t.deck.id, "game": t.game, "options": dict(t.rules.options), "players": t.players}
            if t is not None
            else {}
        )
        self.app.open_scene("rules", **params)

    def _settings(self) -> None:
        self.app.open_scene("settings")

    def _quit(self) -> None:
        if self.table is not None:
            self.app.stack.pop()  # this overlay
            self.table.to_menu()
        else:
            self.app.stack.pop()

    def _note_key(self) -> str:
        """What leaving does to the match: saved here, kept by a friend's server, or kept by
        this window's own server while the game runs (scenes.online.rejoin)."""
        session = getattr(self.table, "session", None)
        if session is None or session.capabilities.save:
            return "pause.saved"
        if not session.capabilities.streamed:  # a local table that keeps nothing (a lesson)
            return "pause.not_saved"
        from scenes.online import hosting

        return (
            "online.pause_note_host" if getattr(session, "code", None) in hosting.live_tables() else "online.pause_note"
        )

    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        box = panels.modal(surface, BOX, float(self.appear.value_at(self.alpha)), 130)
        theme.heading(surface, self.t("pause.title"), (box.centerx, box.y + 26), 28, anchor="midtop")
        surface.blit(theme.ornament(220), (box.centerx - 110, box.y + 68))
        self.ui.draw(surface)
        # Online the table's server keeps the match (and the seat, for coming back).
        saved = self.t(self._note_key())
        for i, line in enumerate(theme.wrap(saved, "sans", 13, box.w - 60, max_lines=2)):
            theme.blit_text(
                surface, line, (box.centerx, box.bottom - 64 + i * 17), "sans", 13, theme.CREAM_DIM, anchor="midtop"
            )
        hint = self.t("pause.hint")
        size = theme.fit(hint, "sans", 12, box.w - 40, 10)
        self.hint_rect = theme.blit_text(
            surface, hint, (box.centerx, box.bottom - 12), "sans", size, theme.CREAM_FAINT, anchor="midbottom"
        )


def create(app: AppServices, table: TableScene | None = None, **params: object) -> PauseScene:
    return PauseScene(app, table=table)
