"""The Players panel of a club table, over the table (R, or the Players button):
for each other person at the table, Mute (their quick messages and chat no longer reach this
seat; again to hear them), Block (never matched with them again, and muted) and Report (the
match's record is kept for the server's owner, with the reason typed below). When the server
takes free-text chat (``serve --chat``; its ``account`` reply says so) a line to write to the
table; otherwise the panel says chat is off. The server's answers and refusals (chat off,
too fast, too long …) show in words.

Why here and not in the lobby: a mute belongs to the connection that hears the player (the
server mutes per connection), a report names the table whose record it keeps, and the table
is where a player meets someone's manners. Block is kept by the server for the account, so it
lasts beyond this table.

Keys: Tab / ↑↓ move between the buttons and the fields, Enter presses or sends, typing fills
the focused field, Esc closes the panel (back to the table).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from game.online.wire import protocol as P
from scenes.online.fields import ERROR, TextField, route_text, typing
from scenes.scene import AppServices, UIScene
from sprites import hidpi, theme
from sprites.widget_base import Label
from sprites.widgets import Button

BOX = pygame.Rect(0, 0, 760, 556)
BOX.center = (640, 350)
ROW_H = 48
MAX_ROWS = 3


class MannersScene(UIScene):
    is_overlay = True

    def __init__(self, app: AppServices, session: Any = None, names: Any = None, **params: object):
        self.session = session if session is not None else sample_session()
        self.shown_name = names or self._lobby_name
        #: The last answer or refusal, in words, and whether it is a refusal.
        self.note: tuple[str, bool] | None = None
        #: Not yet updated: the key that opened the panel (R) sends its letter as text in the
        #: same batch of events, which must not land in a field as if typed.
        self.opening = True
        super().__init__(app)

    def _lobby_name(self, seat: int) -> str:
        return next((name for i, name in self.others() if i == seat), str(seat + 1))

    # ---- who is there
    def others(self) -> list[tuple[int, str]]:
        """(seat, name) of every other person at the table (the computer seats have no manners)."""
        seats = (getattr(self.session, "lobby", None) or {}).get("seats")
        me = self.session.human_seat
        out = []
        for i, s in enumerate(seats if isinstance(seats, list) else []):
            if (
                i != me
                and isinstance(s, dict)
                and s.get("kind") == "friend"
                and isinstance(s.get("name"), str)
                and s["name"].strip()
            ):
                out.append((i, s["name"].strip()[: P.NAME_MAX]))
        return out[:MAX_ROWS]

    def build(self) -> None:
        x, y = BOX.x + 32, BOX.y + 96
        for i in range(MAX_ROWS):
            ry = y + i * (ROW_H + 8)
            visible = self._row_shown(i)
            self.ui.add(
                Button(
                    (x + 300, ry, 130, 40),
                    self._mute_label(i),
                    partial(self.mute, i),
                    size=13,
                    name=f"mute{i}",
                    visible=visible,
                )
            )
            self.ui.add(
                Button(
                    (x + 440, ry, 130, 40),
                    self.label("manners.block"),
                    partial(self.block, i),
                    size=13,
                    name=f"block{i}",
                    visible=visible,
                )
            )
            self.ui.add(
                Button(
                    (x + 580, ry, 116, 40),
                    self.label("manners.report"),
                    partial(self.report, i),
                    size=13,
                    name=f"report{i}",
                    visible=visible,
                )
            )
        fy = y + MAX_ROWS * (ROW_H + 8) + 6
        self.reason = self.ui.add(
            TextField(
                (x, fy, BOX.w - 64, 62),
                self.label("manners.reason"),
                "",
                max_len=P.REASON_MAX,
                placeholder=self.label("manners.reason_hint"),
                name="reason",
                visible=lambda: bool(self.others()),
            )
        )
        self.chat_field = self.ui.add(
            TextField(
                (x, fy + 78, BOX.w - 64, 62),
                self.label("manners.chat"),
                "",
                max_len=P.CHAT_MAX,
                on_enter=self.send_chat,
                placeholder=self.label("manners.chat_hint"),
                name="chat",
                visible=lambda: bool(getattr(self.session, "chat_allowed", False)),
            )
        )
        self.ui.add(
            Button(
                (BOX.right - 32 - 150, BOX.bottom - 86, 150, 40),
                self.label("common.back"),
                self.back,
                icon="‹",
                size=14,
                name="back",
            )
        )
        first = next((w for w in self.ui.widgets if getattr(w, "visible", True)), None)
        if first is not None:
            self.ui.focus(first)

    def _row_shown(self, i: int) -> object:
        return lambda: i < len(self.others())

    def _mute_label(self, i: int) -> Label:
        def text() -> str:
            others = self.others()
            muted = i < len(others) and others[i][1].casefold() in self.session.muted
            return self.t("manners.unmute" if muted else "manners.mute")

        return text

    @property
    def wants_text(self) -> bool:
        return typing(self)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.TEXTINPUT and self.opening:
            return
        if route_text(self, event):
            return
        super().handle(event)

    # ---- actions
    def _name(self, i: int) -> str | None:
        others = self.others()
        return others[i][1] if i < len(others) else None

    def _sent(self, ok: bool) -> None:
        if not ok:
            self.note = (self.t("online.error_lost"), True)

    def mute(self, i: int) -> None:
        name = self._name(i)
        if name is not None:
            self._sent(self.session.mute(name, name.casefold() not in self.session.muted))

    def block(self, i: int) -> None:
        name = self._name(i)
        if name is not None:
            self._sent(self.session.block(name))

    def report(self, i: int) -> None:
        name = self._name(i)
        if name is None:
            return
        reason = " ".join(self.reason.text.split()) or self.t("manners.reason_default")
        self._sent(self.session.report(name, reason[: P.REASON_MAX]))
        self.reason.set_text("")

    def send_chat(self) -> None:
        text = " ".join(self.chat_field.text.split())
        if not text:
            return
        if not getattr(self.session, "chat_allowed", False):
            self.note = (self.t("manners.refused_chat_off"), True)
            return
        self._sent(self.session.chat(text))
        self.chat_field.set_text("")

    # ---- each frame
    def _place_fields(self) -> None:
        """The reason and chat fields right under the players' rows (one to three of them);
        with nobody to report, no reason field: the chat field takes its place."""
        others = self.others()
        fy = BOX.y + 96 + max(1, len(others)) * (ROW_H + 8) + 6
        self.reason.rect.y = fy
        self.chat_field.rect.y = fy + (78 if others else 0)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.opening = False
        self._place_fields()
        session = self.session
        try:
            session.poll()
        except Exception:  # noqa: BLE001 - the table says what broke once it is on top again
            return
        while session.answers:
            kind, name = session.answers.pop(0)
            self.note = (self.t(f"manners.done_{kind}", name=name), False)
        while session.refusals:
            code = session.refusals.pop(0)
            self.note = (self.t(f"manners.refused_{code}", max=P.CHAT_MAX), True)

    # ---- drawing
    def draw(self, surface: pygame.Surface) -> None:
        veil = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 130))
        surface.blit(veil, (0, 0))
        r = BOX
        surface.blit(theme.shadow(r.size, 16, 10, 130), (r.x - 10, r.y - 4))
        # Opaque: the table's caption and cards must not show through the rows and fields.
        surface.blit(theme.panel(r.size, 16, (10, 30, 21, 255), theme.BRASS), r)
        x = r.x + 32
        title = self.t("manners.title")
        theme.heading(surface, title, (x, r.y + 22), theme.fit(title, "serif_bold", 26, r.w - 64, 14, 0.22, True))
        intro = self.t("manners.intro")
        theme.blit_text(
            surface, intro, (x, r.y + 62), "sans", theme.fit(intro, "sans", 14, r.w - 64, 9), theme.CREAM_DIM
        )
        others = self.others()
        if not others:
            theme.blit_text(surface, self.t("manners.nobody"), (x, r.y + 106), "sans", 15, theme.CREAM)
        for i, (seat, name) in enumerate(others):
            shown = self.shown_name(seat)
            if name.casefold() in self.session.muted:
                shown = self.t("manners.muted_name", name=shown)
            theme.blit_text(
                surface,
                shown,
                (x, r.y + 96 + i * (ROW_H + 8) + 20),
                "sans_bold",
                theme.fit(shown, "sans_bold", 16, 290, 9),
                theme.CREAM,
                anchor="midleft",
            )
        if not getattr(self.session, "chat_allowed", False):
            off = self.t("manners.chat_off")
            theme.blit_text(
                surface,
                off,
                (x, self.chat_field.rect.y + 30),
                "sans",
                theme.fit(off, "sans", 14, r.w - 64, 9),
                theme.CREAM_FAINT,
            )
        if self.note is not None:
            text, bad = self.note
            for j, ln in enumerate(theme.wrap(text, "sans_bold", 14, r.w - 64 - 170, max_lines=2)):
                theme.blit_text(
                    surface, ln, (x, r.bottom - 88 + 19 * j), "sans_bold", 14, ERROR if bad else theme.BRASS_LIGHT
                )
        self.ui.draw(surface)
        hint = self.t("manners.keys")
        # Inside the panel: under it lie the table's own hints and the hand.
        theme.blit_text(
            surface,
            hint,
            (r.centerx, r.bottom - 14),
            "sans",
            theme.fit(hint, "sans", 13, r.w - 64, 9),
            theme.CREAM_FAINT,
            anchor="midbottom",
        )


def sample_session() -> Any:
    """A club seat that never connects, at a table of three people and a computer, one of
    them muted, on a server with chat on (``--screenshot --scene online_manners``)."""
    from game.online.client.clubclient import ClubSession

    session = ClubSession(
        "ws://127.0.0.1:7420", P.CODE_ALPHABET[: P.CODE_LENGTH], "Lucia", None, "0" * 32, connect=False
    )
    session.lobby = {
        "seats": [{"kind": "friend", "name": n} for n in ("Lucia", "Bruno", "Chiara")]
        + [{"kind": "ai", "name": None, "level": "hard"}]
    }
    session.human_seat = 0
    session.muted.add("chiara")
    session.chat_allowed = True
    return session


def create(app: AppServices, session: object = None, names: object = None, **params: object) -> MannersScene:
    """The Players panel of ``session``'s table; without one (a screenshot), a sample."""
    return MannersScene(app, session=session, names=names)


__all__ = ["MannersScene", "create"]
