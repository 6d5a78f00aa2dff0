""" "Play online": host a table or join one — and the owner of the server a host runs.

The table server a host starts runs inside the game (:mod:`scenes.online.hosting`). This
scene lies beneath every online screen (host, join, lobby and the table itself), so the
server lives as long as the player stays among them: it is stopped when this scene leaves
the stack (back to the menu, from anywhere) and when the app closes with it open — except
that a match under way keeps it (and its table) running until the match ends or the app
closes: the menu offers Rejoin meanwhile (:mod:`scenes.online.rejoin`).
"""

from __future__ import annotations

import pygame

from scenes.online import hosting
from scenes.scene import AppServices, UIScene
from sprites import theme
from sprites.widgets import Button

PANEL = pygame.Rect(250, 90, 780, 520)
CARD_W, CARD_H = 330, 240


class OnlineScene(UIScene):
    def build(self) -> None:
        r = PANEL
        y = r.y + 150
        self.cards = []
        for i, (key, fn) in enumerate((("host", self.host), ("join", self.join))):
            x = r.x + 46 + i * (CARD_W + 28)
            self.cards.append((key, pygame.Rect(x, y, CARD_W, CARD_H)))
            self.ui.add(
                Button(
                    (x + 24, y + CARD_H - 70, CARD_W - 48, 48),
                    self.label(f"online.{key}"),
                    fn,
                    style="primary" if key == "host" else "secondary",
                    size=17,
                    name=key,
                )
            )
        self.ui.add(
            Button(
                (r.x + 46, r.bottom - 70, 160, 44), self.label("common.back"), self.back, icon="‹", size=15, name="back"
            )
        )
        self.ui.add(
            Button(
                (r.right - 46 - 260, r.bottom - 70, 260, 44), self.label("club.menu"), self.club, size=15, name="club"
            )
        )
        self.ui.focus(self.ui.widgets[0])

    def host(self) -> None:
        self.app.open_scene("online_host")

    def join(self) -> None:
        self.app.open_scene("online_join")

    def club(self) -> None:
        self.app.open_scene("online_club")

    def leave(self) -> None:
        if self not in self.app.stack.scenes:  # back to the menu: the hosted table closes,
            hosting.stop_unless_playing()  # unless its match runs (the menu stops it after)

    def close(self) -> None:
        hosting.stop_server()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        r = PANEL
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 238), theme.BRASS), r)
        title = self.t("online.title")
        theme.heading(
            surface, title, (r.x + 46, r.y + 30), theme.fit(title, "serif_bold", 30, r.w - 92, 16, 0.22, True)
        )
        for i, ln in enumerate(theme.wrap(self.t("online.intro"), "sans", 15, r.w - 92, max_lines=3)):
            theme.blit_text(surface, ln, (r.x + 46, r.y + 82 + 20 * i), "sans", 15, theme.CREAM_DIM)
        for key, c in self.cards:
            surface.blit(theme.rounded(c.size, 12, (255, 244, 214, 12), 1, (*theme.BRASS_DARK, 255)), c)
            head = self.t(f"online.{key}_head")
            theme.small_caps(
                surface,
                head,
                (c.x + 24, c.y + 18),
                theme.fit(head, "cond_bold", 14, c.w - 48, 9, 0.16, True),
                theme.BRASS_LIGHT,
            )
            for i, ln in enumerate(theme.wrap(self.t(f"online.{key}_about"), "sans", 14, c.w - 48, max_lines=6)):
                theme.blit_text(surface, ln, (c.x + 24, c.y + 46 + 19 * i), "sans", 14, theme.CREAM)
        self.ui.draw(surface)
        hint = self.t("hint.navigate")
        theme.blit_text(
            surface,
            hint,
            (640, r.bottom + 30),
            "sans",
            theme.fit(hint, "sans", 13, 1000, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def create(app: AppServices, **params: object) -> OnlineScene:
    return OnlineScene(app)


__all__ = ["OnlineScene", "create"]
