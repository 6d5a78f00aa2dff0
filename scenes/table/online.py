"""The table at an online table (a game.online.client.client.RemoteSession): what the local table
does not have.

- The session is polled every tick (the server's events, turns, refusals, quick messages
  and pauses arrive whenever they come, also while it is the player's turn).
- A refusal from the server carries the rule id and its params: it is shown translated,
  exactly as a local one (the controller's ``refusal_text``).
- Quick messages: Q (or the Messages button) opens a small menu of the four phrases; 1–4 (or
  a click) sends one, Esc or Q closes it. A phrase received shows as a bubble by the
  sender's name plate for a few seconds.
- A friend who dropped out: the table shows whose seat waits and the countdown, then that
  the computer plays it (the host's setting) until they are back.

Nothing here runs for a session whose events are not streamed (``capabilities.streamed``:
``active`` is False). It shows refusals and redraws through the table's ``host``
(scenes.table.view.ControllerHost) and hands the events to the ``controller``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

import pygame

from game.card_names import Translate
from game.online.wire.protocol import PHRASES  # the quick messages, in the protocol's order
from game.services.table_session import TableSession
from scenes.table.controller import TableController
from scenes.table.view import ControllerHost, TableNames
from sprites import hidpi, theme
from sprites import table_layout as TL
from sprites.table_draw import WARN, banner
from sprites.table_layout import TableLayout
from sprites.widgets import Button

if TYPE_CHECKING:
    from game.online.client.client import RemoteSession

SAY_KEY = pygame.K_q
#: Keys that take nothing over on their own (held for a shortcut, or Ctrl to hush the voice).
MODIFIER_KEYS = frozenset(
    {
        pygame.K_LSHIFT,
        pygame.K_RSHIFT,
        pygame.K_LCTRL,
        pygame.K_RCTRL,
        pygame.K_LALT,
        pygame.K_RALT,
        pygame.K_LGUI,
        pygame.K_RGUI,
        pygame.K_CAPSLOCK,
        pygame.K_NUMLOCK,
        pygame.K_MODE,
    }
)
PHRASE_KEYS = {getattr(pygame, f"K_{i + 1}"): i for i in range(len(PHRASES))}
PHRASE_KEYS.update({getattr(pygame, f"K_KP{i + 1}"): i for i in range(len(PHRASES))})
BUBBLE_SECONDS = 4.0
MENU_SIZE = (300, 56 + 40 * len(PHRASES))


def fixed_names(session: TableSession, t: Translate, given: dict[int, str]) -> dict[int, str]:
    """An online table's names, the same on every screen: the friends' own, and
    each computer seat by its number in the lobby ("Computer 3"), never "East" on one screen
    and "West" on another."""
    lobby = getattr(session, "lobby", None) or {}
    seats = lobby.get("seats") if isinstance(lobby, dict) else None
    out = dict(given)
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        if i not in out and isinstance(seat, dict) and seat.get("kind") == "ai":
            out[i] = t("online.computer_seat", n=i + 1)
    return out


class OnlineTable:
    def __init__(
        self,
        host: ControllerHost,
        controller: TableController,
        session: TableSession,
        names: TableNames,
        layout: TableLayout,
    ):
        self.host = host
        self.controller = controller
        self.session = session
        self.names = names
        self.layout = layout
        self.t = names.t
        #: The table's buttons by name, the Messages button among them ("say"; the scene hands
        #: them over once they are built).
        self.buttons: dict[str, Button] = {}
        self.active = self.session.capabilities.streamed
        self.menu_open = False
        self.rewinds = getattr(self.session, "rewinds", 0)
        #: Received phrases being shown: [seat, text, seconds left].
        self.bubbles: list[list[Any]] = []
        self.forgotten = False  # the menu's Rejoin dropped once the match is over
        self.was_covered = False  # the computer played for you last tick (said once as it starts)

    @property
    def remote(self) -> RemoteSession:
        """The session as an online seat's (asked only while ``active``: its events are streamed)."""
        return cast("RemoteSession", self.session)

    @property
    def menu_rect(self) -> pygame.Rect:
        """The phrases' menu, just above the Messages button (right-aligned with it)."""
        r = pygame.Rect((0, 0), MENU_SIZE)
        say = self.buttons.get("say")
        r.bottomright = (say.rect.right, say.rect.y - 10) if say is not None else (1256, 720 - 80)
        # Beside the hand, never over its last card; the texts fit the width left.
        r.w = min(r.w, r.right - (TL.HAND_AREA.right + 10))
        r.right = say.rect.right if say is not None else 1256
        return r

    @property
    def rows(self) -> list[pygame.Rect]:
        m = self.menu_rect
        return [pygame.Rect(m.x + 12, m.y + 44 + 40 * i, m.w - 24, 36) for i in range(len(PHRASES))]

    # ------------------------------------------------------------------ names
    def name(self, seat: int) -> str:
        """A seat as the players know it: the friend's own name, else the table's word for it."""
        if seat != self.names.human:
            lobby = getattr(self.session, "lobby", None) or {}
            seats = lobby.get("seats") if isinstance(lobby, dict) else None
            if isinstance(seats, list) and 0 <= seat < len(seats) and isinstance(seats[seat], dict):
                name = seats[seat].get("name")
                if isinstance(name, str) and name.strip():
                    return name
        return self.names.seat_name(seat)

    # ------------------------------------------------------------------ the loop
    def update(self, dt: float) -> None:
        if not self.active:
            return
        host, session = self.host, self.session
        try:
            session.poll()
        except Exception as e:  # noqa: BLE001 - a broken connection is a line, never a crash
            host.refused(self.t("online.error_lost") + f" ({e})")
        if session.rewinds != self.rewinds:  # the server's stream was shown anew
            self.rewinds = session.rewinds
            host.redraw()
        self.controller.pull()
        if session.over and not self.forgotten:  # nothing to rejoin any more (scenes.online.rejoin)
            self.forgotten = True
            from scenes.online import rejoin

            rejoin.forget(self.names.app, getattr(session, "code", None))
        refusal = getattr(session, "last_refusal", None)
        if refusal is not None:
            self.remote.last_refusal = None
            host.refused(self.controller.refusal_text(refusal))
        said = getattr(session, "said", None)
        while said:
            seat, phrase = said.pop(0)
            if phrase in PHRASES and isinstance(seat, int) and 0 <= seat < session.rules.players:
                self.bubbles = [b for b in self.bubbles if b[0] != seat]
                self.bubbles.append([seat, self.t(f"online.phrase_{phrase}"), BUBBLE_SECONDS])
        for b in self.bubbles:
            b[2] -= dt
        self.bubbles = [b for b in self.bubbles if b[2] > 0]
        covered = bool(getattr(session, "covered", False)) and not session.over
        if covered and not self.was_covered:  # heard too, not only seen
            self.names.app.say(self.t("online.covered"))
        self.was_covered = covered
        if getattr(session, "failed_code", None) == "no_show" and not getattr(self, "said_no_show", False):
            self.said_no_show = True  # an event's table closed for a no-show: heard too, not only seen
            self.names.app.say(self.notice_text() or "")

    def take_over(self, event: pygame.event.Event) -> bool:
        """While the computer plays for you (you were silent at your turn): any key or click
        takes your seat back, and does nothing else. True when it did."""
        if not self.active or not getattr(self.session, "covered", False):
            return False
        key = event.type == pygame.KEYDOWN and event.key not in MODIFIER_KEYS
        click = event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 0) in (1, 2, 3)
        if not (key or click):
            return False
        try:
            self.remote.take_over()
        except Exception as e:  # noqa: BLE001 - the connection may be gone
            self.host.refused(self.t("online.error_lost") + f" ({e})")
            return True
        self.names.app.toast(self.t("online.took_over"))
        return True

    def say(self, i: int) -> None:
        if 0 <= i < len(PHRASES):
            try:
                self.remote.say(PHRASES[i])
            except Exception as e:  # noqa: BLE001 - the connection may be gone
                self.host.refused(self.t("online.error_lost") + f" ({e})")
        self.menu_open = False

    def toggle_menu(self) -> None:
        self.menu_open = self.active and not self.menu_open

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> bool:
        """Q, the phrase keys while the menu is open, Esc to close it, clicks on it; True
        when the event was the menu's."""
        if not self.active:
            return False
        if event.type == pygame.KEYDOWN:
            if event.key == SAY_KEY and not getattr(event, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
                self.toggle_menu()
                return True
            if self.menu_open:
                if event.key in PHRASE_KEYS:
                    self.say(PHRASE_KEYS[event.key])
                    return True
                if event.key == pygame.K_ESCAPE:
                    self.menu_open = False
                    return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and self.menu_open and event.button == 1:
            for i, r in enumerate(self.rows):
                if r.collidepoint(event.pos):
                    self.say(i)
                    return True
            if not self.menu_rect.collidepoint(event.pos):
                self.menu_open = False
                return False
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def notice_text(self) -> str | None:
        """The line over the table: the connection's trouble, or a friend's (:meth:`paused_text`)."""
        session = self.session
        if getattr(session, "failed", None) is not None and not session.over:
            from scenes.online.hosting import describe, session_problem

            problem = session_problem(session)
            return describe(problem, self.t) if problem is not None else None
        if not getattr(session, "connected", True) and not session.over:
            return self.t("online.reconnecting")
        if getattr(session, "storage_paused", False) and not session.over:
            return self.t("online.storage_paused")
        if getattr(session, "covered", False) and not session.over:
            return self.t("online.covered")
        return self.paused_text()

    def paused_text(self) -> str | None:
        """ "West lost the connection: the computer plays for them in 0:42" — or, after the
        countdown, "The computer plays for West until they are back" — or None."""
        p = getattr(self.session, "paused", None)
        if not p:
            human = self.names.human  # your own seat's cover is said by notice_text
            taken = sorted(seat for seat in getattr(self.session, "ai_seats", None) or () if seat != human)
            if taken and not self.session.over:
                return self.t("online.ai_plays", name=", ".join(self.name(seat) for seat in taken))
            return None
        seat, deadline = p[0], p[1]
        then = getattr(self.session, "paused_then", None) or "ai"
        left = max(0, int(round(float(deadline) - time.monotonic())))
        clock = f"{left // 60}:{left % 60:02d}"
        key = "online.paused_ai" if then == "ai" else "online.paused_wait"
        if then == "ai" and left <= 0:
            key = "online.paused_ai_now"
        return self.t(key, name=self.name(seat), time=clock)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.active:
            return
        text = self.notice_text()
        if text:
            banner(surface, text, (640, 196), WARN, 1.0, width=720)
        for seat, phrase, left in self.bubbles:
            self._bubble(
                surface, seat, self.t("online.said", name=self.name(seat), phrase=phrase), min(1.0, left / 0.4)
            )
        if self.menu_open:
            self._menu(surface)

    def _bubble(self, surface: pygame.Surface, seat: int, text: str, alpha: float) -> None:
        plate = self.layout.plate(seat)
        size = theme.fit(text, "sans_bold", 15, 360, 10)
        w = theme.text_width(text, "sans_bold", size) + 28
        r = pygame.Rect(0, 0, w, 32)
        if plate.centery > 600:  # the player's own plate: above it
            r.bottomleft = (plate.x, plate.y - 8)
        else:
            r.topleft = (plate.x, plate.bottom + 8)
        r.clamp_ip(pygame.Rect(8, 8, 1264, 704))
        layer = hidpi.surface(r.size, pygame.SRCALPHA)
        layer.blit(theme.rounded(r.size, 14, (250, 242, 222, 245), 1, (*theme.BRASS_DARK, 255)), (0, 0))
        img = theme.text(text, "sans_bold", size, (40, 28, 12))
        layer.blit(img, img.get_rect(center=(r.w // 2, r.h // 2 + 1)))
        layer.set_alpha(int(255 * max(0.0, min(1.0, alpha))))
        surface.blit(layer, r)

    def _menu(self, surface: pygame.Surface) -> None:
        r = self.menu_rect
        surface.blit(theme.shadow(r.size, 14, 8, 140), (r.x - 8, r.y - 4))
        surface.blit(theme.panel(r.size, 14, (10, 30, 20, 245), theme.BRASS), r)
        title = self.t("online.say_title")
        theme.small_caps(
            surface,
            title,
            (r.x + 16, r.y + 14),
            theme.fit(title, "cond_bold", 13, r.w - 32, 9, 0.16, True),
            theme.BRASS_LIGHT,
        )
        for i, (phrase, row) in enumerate(zip(PHRASES, self.rows)):
            surface.blit(theme.rounded(row.size, 9, (255, 244, 214, 16), 1, (*theme.BRASS_DARK, 255)), row)
            theme.blit_text(
                surface, str(i + 1), (row.x + 16, row.centery), "sans_bold", 15, theme.BRASS_LIGHT, anchor="center"
            )
            text = self.t(f"online.phrase_{phrase}")
            theme.blit_text(
                surface,
                text,
                (row.x + 34, row.centery + 1),
                "sans_bold",
                theme.fit(text, "sans_bold", 15, row.w - 46, 10),
                theme.CREAM,
                anchor="midleft",
            )


__all__ = ["OnlineTable", "PHRASES", "SAY_KEY", "PHRASE_KEYS", "MODIFIER_KEYS"]
