"""A club table's extras, beside scenes.table.online's quick messages: how many
watch, free-text chat lines as bubbles by the speaker's plate, and the Players panel
(R, the Players button under the scores, or a click on another person's name plate:
scenes.online.manners) where the player mutes,
blocks or reports another player and, when the server allows it, writes to the table.

Only a session that is a seat of a club table (game.online.client.clubclient.ClubSession: it has
``mute``) has these; for every other table :attr:`ClubTable.active` is False and nothing
here draws or takes a key.
"""

from __future__ import annotations

from typing import Any

import pygame

from sprites import theme
from sprites.widgets import Button

PLAYERS_KEY = pygame.K_r
#: The Players button: under the scores, clear of every seat's plate.
BUTTON_RECT = pygame.Rect(26, 120, 150, 32)
CHAT_SECONDS = 7.0


class ClubTable:
    def __init__(self, scene: Any, session: Any):
        self.scene = scene
        self.session = session
        self.active = callable(getattr(session, "mute", None))
        self.button: Button | None = None
        if self.active:
            self.button = scene.ui.add(
                Button(BUTTON_RECT, lambda: scene.t("manners.button"), self.open, size=13, name="players")
            )

    def open(self) -> None:
        if self.active:
            self.scene.app.open_scene("online_manners", session=self.session, names=self.scene.online.name)

    def update(self, dt: float) -> None:
        if not self.active:
            return
        chats = self.session.chats
        online = self.scene.online
        while chats:
            seat, text = chats.pop(0)
            if isinstance(seat, int) and 0 <= seat < self.scene.players:
                online.bubbles = [b for b in online.bubbles if b[0] != seat]
                online.bubbles.append([seat, text, CHAT_SECONDS])
        answers = self.session.answers
        while answers:  # the Players panel is closed: the server's answer as a toast
            kind, name = answers.pop(0)
            self.scene.app.toast(self.scene.t(f"manners.done_{kind}", name=name))

    def friend_plate_at(self, pos: tuple[int, int]) -> int | None:
        """The other person's seat whose name plate is under ``pos`` (a click there opens the
        Players panel), or None."""
        seats = (getattr(self.session, "lobby", None) or {}).get("seats")
        for i, s in enumerate(seats if isinstance(seats, list) else []):
            if (
                i != self.session.human_seat
                and isinstance(s, dict)
                and s.get("kind") == "friend"
                and self.scene.layout.plate(i).collidepoint(pos)
            ):
                return i
        return None

    def handle(self, event: pygame.event.Event) -> bool:
        if not self.active:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) == 1:
            if self.friend_plate_at(event.pos) is None:
                return False
            self.open()
            return True
        if event.type != pygame.KEYDOWN or event.key != PLAYERS_KEY:
            return False
        if getattr(event, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return False
        self.open()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        count = getattr(self.session, "watchers", 0) if self.active else 0
        if count > 0:
            text = self.scene.t("club.watchers", count=count)
            theme.blit_text(
                surface,
                text,
                (BUTTON_RECT.right + 12, BUTTON_RECT.centery),
                "sans_bold",
                theme.fit(text, "sans_bold", 13, 220, 9),
                theme.CREAM_DIM,
                anchor="midleft",
            )


__all__ = ["ClubTable", "PLAYERS_KEY"]
