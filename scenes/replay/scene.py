"""The replay viewer: a record shown on the table, line by line, forward and back.

Keys: ← / → one line, Page Up / Page Down one deal, Home / End the first and the last line,
Space plays and pauses, + / − the speed, V every hand face up or only the bottom seat's,
Tab (Shift+Tab) the next (previous) seat at the bottom, L the play log, T the last trick or
capture, S the score sheet, Ctrl+S saves the record as a file, Esc goes back. The mouse:
the panel's buttons, a click on the timeline bar, the wheel steps.

What is shown at a position is rebuilt from the record alone (scenes.replay.timeline): the
table model, the captions and the log as they were after that many lines. A watched match
(``live``: a game.services.session.Session of computers only) grows while it is watched; its bots
think only when the viewer needs the next line.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from game.services.settings import AI_LEVELS
from game.services.table_session import RecordSession
from scenes.replay import view
from scenes.replay.timeline import Timeline
from scenes.scene import AppServices, Scene
from scenes.table.model import event_effects
from sprites import table_layout as TL
from sprites import theme
from sprites import tween as TW
from sprites.table_draw import CardPainter, CardSprite
from sprites.table_layout import TableLayout
from sprites.widgets import UI, Button, card_art

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Seconds a line stays at 1× before the next one (the table's own pace, a little brisker).
DELAYS = {
    "match_start": 0.5,
    "deal": 1.6,
    "new_hands": 0.8,
    "play_card": 0.9,
    "collect_trick": 1.2,
    "draw": 0.35,
    "swap_face_up": 1.2,
    "announce": 1.2,
    "close_stock": 1.2,
    "deal_end": 2.4,
    "match_end": 2.0,
}
#: An event its game declares with no table effect is only told (the same dealer dealing
#: again): it stays while its words are read, as long as a deal.
TOLD_DELAY = 1.6
#: A line its game does not declare.
OTHER_DELAY = 0.8
SPEED_KEYS_UP = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
SPEED_KEYS_DOWN = (pygame.K_MINUS, pygame.K_KP_MINUS)
HINT_Y = TL.STATUS_POS[1]


class Watched(Protocol):
    """A match that grows while it is watched (scenes.replay.watch.LiveFeed, a spectator's
    game.online.client.watchclient.SpectatorFeed)."""

    def pull(self) -> list[dict]:
        """The events arrived since the last call."""
        ...

    def close(self) -> None: ...


class ReplayScene(Scene):
    #: Whether V and the hands button can turn the other hands face up (not for a spectator).
    hands_offered = True

    def __init__(
        self,
        app: AppServices,
        timeline: Timeline,
        *,
        seat: int | None = None,
        step: int | None = None,
        open_hands: bool = True,
        levels: list[str | None] | None = None,
        live: Watched | None = None,
        playing: bool | None = None,
        player: int | None = None,
    ):
        super().__init__(app)
        #: The seat a person played, as the record or the session says (None: computer-only or
        #: unknown): only that seat, at the bottom, is "You".
        self.player = player
        self.timeline = timeline
        self.rules = timeline.rules
        #: Each record event's declared table effect, by name: what a line's pace follows.
        self.effects = event_effects(self.rules)
        self.live = live
        self.levels = levels
        players = self.rules.players if self.rules is not None else 1
        self.seat = seat if isinstance(seat, int) and 0 <= seat < players else 0
        self.open_hands = open_hands
        self.speed_i = 1
        self.playing = bool(live is not None) if playing is None else playing
        self.timer = 0.0
        self.time = 0.0
        self.sprites: dict[str, CardSprite] = {}
        self.last_piles: list[int] | None = None
        self.painter: CardPainter | None = None
        self.layout: Any = None
        self.model: Any = None
        self.pos = -1
        self.ui = UI()
        self._build()
        starts = timeline.deal_starts()
        start = step if step is not None else (starts[0] if starts else timeline.limit)
        self._relayout()
        self.go(start, instant=True)

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        t = self.app.t
        from scenes.table.story import button_rects

        log, sheet = button_rects()
        has_table = self.rules is not None
        self.back_button = self.ui.add(
            Button(TL.MENU_RECT, lambda: t("common.back"), self.back, size=14, icon="‹", name="back")
        )
        self.ui.add(
            Button(log, lambda: t("log.button"), lambda: self.open_panel("log"), size=13, name="log", visible=has_table)
        )
        self.ui.add(
            Button(
                sheet,
                lambda: t("sheet.button"),
                lambda: self.open_panel("sheet"),
                size=13,
                name="sheet",
                visible=has_table,
            )
        )
        P = view.PANEL
        x0, y = P.x + 12, P.y + 58
        w, gap = 31, 4
        for i, (glyph, fn, name) in enumerate(
            (
                ("prev_deal", lambda: self.deal_step(-1), "prev_deal"),
                ("prev", lambda: self.step(-1), "prev"),
                (lambda: "pause" if self.playing else "play", self.toggle_play, "play"),
                ("next", lambda: self.step(1), "next"),
                ("next_deal", lambda: self.deal_step(1), "next_deal"),
            )
        ):
            self.ui.add(view.IconButton((x0 + i * (w + gap), y, w, 32), glyph, fn, name=name, visible=has_table))
        y += 38
        full = P.w - 24
        self.minus = self.ui.add(
            view.IconButton((x0, y, 30, 28), "minus", lambda: self.change_speed(-1), name="slower", visible=has_table)
        )
        self.plus = self.ui.add(
            view.IconButton(
                (x0 + full - 30, y, 30, 28), "plus", lambda: self.change_speed(1), name="faster", visible=has_table
            )
        )
        y += 34
        self.ui.add(
            Button(
                (x0, y, full, 28),
                self.hands_label,
                self.toggle_hands,
                size=12,
                name="hands",
                visible=lambda: has_table and self.hands_offered,
            )
        )
        y += 34
        self.ui.add(
            Button(
                (x0, y, full, 28),
                lambda: t("replay.save"),
                self.save_as,
                size=12,
                name="save",
                visible=lambda: bool(self.timeline.events),
            )
        )
        self.ui.focus_index = -1  # the keys step; Tab changes the seat

    @property
    def naming_seat(self) -> int | None:
        """Whose eyes the names are from: the player's seat when it is at the bottom, else
        nobody's ("Player 1", "Team 2")."""
        return self.seat if self.player is not None and self.seat == self.player else None

    def hands_label(self) -> str:
        return self.app.t("replay.all_hands" if self.open_hands else "replay.one_hand")

    def seat_label(self) -> str:
        """ "Seat 2", and the computer's level there when the record says it ("Seat 2 · Hard")."""
        text = self.app.t("replay.seat", n=self.seat + 1)
        level = self.levels[self.seat] if self.levels and self.seat < len(self.levels) else None
        return f"{text} · {self.app.t(f'ai.{level}')}" if level in AI_LEVELS else text

    def seat_at(self, pos: tuple[int, int]) -> int | None:
        """The seat whose name plate is under ``pos`` (a click there sees the table from it)."""
        if self.rules is None or self.layout is None:
            return None
        return next((s for s in range(self.rules.players) if self.layout.plate_box(s).collidepoint(pos)), None)

    # ------------------------------------------------------------------ moving about
    def go(self, p: int, instant: bool | None = None) -> None:
        """Show the table after ``p`` lines (clamped to what can be shown)."""
        tl = self.timeline
        p = max(tl.first, min(p, tl.limit))
        if p == self.pos and self.model is not None:
            return
        jump = abs(p - self.pos) > 1
        self.pos = p
        self.timer = self._delay()
        if self.rules is None:
            return
        self.model = tl.model_at(p)
        fast = TW.speed_factor() <= 0 or SPEEDS[self.speed_i] >= 8
        view.settle_sprites(self, self.model, jump or fast if instant is None else instant)

    def step(self, n: int) -> None:
        self.playing = False
        self.go(self.pos + n)

    def deal_step(self, n: int) -> None:
        """Page Down: the next deal's first line; Page Up: this deal's first line, or the
        previous deal's when already there."""
        self.playing = False
        starts = self.timeline.deal_starts()
        if n > 0:
            later = [s for s in starts if s > self.pos]
            self.go(later[0] if later else self.timeline.limit)
        else:
            earlier = [s for s in starts if s < self.pos]
            self.go(earlier[-1] if earlier else self.timeline.first)

    def toggle_play(self) -> None:
        if not self.playing and self.pos >= self.timeline.limit and not self._can_grow():
            self.go(self.timeline.first)  # at the end: Space plays it again from the start
        self.playing = not self.playing
        self.timer = min(self.timer, self._delay())

    def change_speed(self, n: int) -> None:
        self.speed_i = max(0, min(len(SPEEDS) - 1, self.speed_i + n))
        self.timer = min(self.timer, self._delay())

    def toggle_hands(self) -> None:
        self.open_hands = not self.open_hands
        view.settle_sprites(self, self.model, False) if self.model is not None else None

    def turn_seat(self, n: int) -> None:
        if self.rules is None:
            return
        self.seat = (self.seat + n) % self.rules.players
        self._relayout()
        self.sprites.clear()
        view.settle_sprites(self, self.model, True)

    def _relayout(self) -> None:
        if self.rules is not None:
            self.layout = TableLayout(self.rules.players, self.rules.deck.aspect, self.rules, self.seat)

    def _delay(self) -> float:
        ev = self.timeline.events[self.pos - 1] if 1 <= self.pos <= len(self.timeline.events) else {}
        name = ev.get("event")
        effect = self.effects.get(name) if isinstance(name, str) else None
        if effect is None:
            delay = OTHER_DELAY
        elif effect:
            delay = DELAYS.get(effect, OTHER_DELAY)
        else:
            delay = TOLD_DELAY
        return delay / SPEEDS[self.speed_i]

    def _can_grow(self) -> bool:
        return self.live is not None and not self.timeline.finished and getattr(self.live, "problem", None) is None

    # ------------------------------------------------------------------ what the views ask
    def t(self, key: str, **params: object) -> str:
        return self.app.t(key, **params)

    def actor(self) -> int | None:
        return self.timeline.actor(self.pos)

    def caption(self) -> str | None:
        if self.rules is None:
            return None
        return self.timeline.caption_at(self.pos, self.app.t, self.app.language, self.naming_seat)

    def fresh_caption(self) -> bool:
        told = self.timeline.lines(self.app.t, self.app.language, self.naming_seat) if self.rules is not None else []
        line = told[self.pos - 1] if 1 <= self.pos <= len(told) else None
        return line is not None and bool(line.caption)

    def at_break(self) -> bool:
        return self.timeline.problem is not None and self.pos >= self.timeline.limit

    def problem_text(self) -> str | None:
        """The banner: verify's verdict and how far the record can be followed."""
        tl = self.timeline
        pb = tl.problem
        live = getattr(self.live, "problem", None)
        if live:
            return self.t("replay.watch_failed", reason=live)
        if pb is None:
            return None
        if pb.line is None or tl.limit == 0:
            return self.t("replay.unreadable", message=pb.message)
        key = "replay.damaged" if pb.damaged else "replay.broken"
        return self.t(key, line=pb.line, message=pb.message, last=tl.limit)

    def position_text(self) -> str:
        tl = self.timeline
        if self.live is not None and not tl.finished:
            return self.t("replay.position_live", line=self.pos)
        return self.t("replay.position", line=self.pos, count=self.bar_total())

    def deal_text(self) -> str:
        number, count = self.timeline.deal_of(self.pos)
        if not number:
            return ""
        if self.live is not None and not self.timeline.finished:
            return self.t("replay.deal_live", number=number)
        return self.t("replay.deal", number=number, count=count)

    def speed_text(self) -> str:
        s = SPEEDS[self.speed_i]
        return "½×" if s == 0.5 else f"{s:g}×"

    def bar_total(self) -> int:
        tl = self.timeline
        return max(tl.limit, len(tl.events), tl.break_line or 0)

    def status_text(self) -> str:
        """Under the caption: who is thinking in a watched match, else the keys."""
        if self._can_grow() and self.pos >= self.timeline.limit and self.rules is not None:
            to_act = getattr(getattr(self.live, "session", None), "to_act", None)
            if to_act is not None:
                from scenes import names

                name = names.seat_name(self.t, to_act, self.naming_seat, self.rules.players, True, self.rules.team_of)
                return self.t("table.thinking", name=name)
        return self.t("replay.keys")

    # ------------------------------------------------------------------ panels and files
    def open_panel(self, kind: str) -> None:
        """The table's play log (L), last trick or capture (T) or score sheet (S), told from
        the lines shown so far."""
        if self.rules is None:
            return
        from scenes.table.overlays import LogPanel, ReviewPanel
        from scenes.table.sheet import SheetPanel

        events = self.timeline.shown(self.pos)
        source = RecordSession(self.rules, self.seat, events)
        cls = {"log": LogPanel, "sheet": SheetPanel, "review": ReviewPanel}[kind]
        self.app.stack.push(cls(self.app, source, events, self.seat))

    def save_as(self) -> None:
        if self.timeline.events:
            self.app.open_scene("save_record", events=list(self.timeline.events[: max(self.timeline.limit, 1)]))

    def open_coach(self) -> None:
        """C: the coach on this record, for the seat at the bottom."""
        if self.rules is None or self.live is not None or self.timeline.problem is not None:
            return
        try:
            self.app.open_scene(
                "coach", events=list(self.timeline.events), seat=self.seat, levels=self.levels, title=self.timeline.name
            )
        except ValueError as e:
            self.app.toast(self.t("coach.failed", reason=str(e)))

    def back(self) -> None:
        stack = self.app.stack
        if len(stack) > 1:
            stack.pop()
        else:
            stack.pop_to("menu")

    def leave(self) -> None:
        if self not in self.app.stack.scenes:
            self.close()

    def close(self) -> None:
        if self.live is not None:
            self.live.close()

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:  # the keys are the viewer's; the buttons are the mouse's
            self._key(event.key, getattr(event, "mod", 0))
            return
        if self.ui.handle(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 8:
                self.back()
            elif event.button == 1 and view.BAR.inflate(0, 16).collidepoint(event.pos):
                self.playing = False
                self.go(view.bar_position(self, event.pos[0]))
            elif event.button == 1 and (seat := self.seat_at(event.pos)) is not None:
                self.turn_seat(seat - self.seat)
        elif event.type == pygame.MOUSEWHEEL:
            self.step(-1 if getattr(event, "y", 0) > 0 else 1)

    def _key(self, key: int, mod: int) -> None:
        ctrl = mod & pygame.KMOD_CTRL
        if key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
        elif key == pygame.K_s and ctrl:
            self.save_as()
        elif ctrl:
            return
        elif key == pygame.K_LEFT:
            self.step(-1)
        elif key == pygame.K_RIGHT:
            self.step(1)
        elif key == pygame.K_PAGEUP:
            self.deal_step(-1)
        elif key == pygame.K_PAGEDOWN:
            self.deal_step(1)
        elif key == pygame.K_HOME:
            self.playing = False
            self.go(self.timeline.first)
        elif key == pygame.K_END:
            self.playing = False
            self.go(self.timeline.limit)
        elif key == pygame.K_SPACE:
            self.toggle_play()
        elif key in SPEED_KEYS_UP:
            self.change_speed(1)
        elif key in SPEED_KEYS_DOWN:
            self.change_speed(-1)
        elif key == pygame.K_v:
            self.toggle_hands()
        elif key == pygame.K_TAB:
            self.turn_seat(-1 if mod & pygame.KMOD_SHIFT else 1)
        elif key == pygame.K_c:
            self.open_coach()
        elif key in (pygame.K_l, pygame.K_t, pygame.K_s):
            self.open_panel({pygame.K_l: "log", pygame.K_t: "review", pygame.K_s: "sheet"}[key])

    # ------------------------------------------------------------------ the loop
    def update(self, dt: float) -> None:
        self.time += dt
        self.ui.update(dt)
        for code, sp in list(self.sprites.items()):
            sp.update(dt)
            if sp.vanish and not sp.moving:
                del self.sprites[code]
        tl = self.timeline
        live = self.live
        if (
            live is not None
            and self._can_grow()
            and self.pos >= tl.limit - 1
            and (self.playing or self.pos >= tl.limit)
        ):
            tl.extend(live.pull())  # the computer's next decision, only when it is needed
        if not self.playing:
            return
        self.timer -= dt
        if self.timer > 0:
            return
        if self.pos < tl.limit:
            self.go(self.pos + 1, instant=False)
        elif not self._can_grow():
            self.playing = False

    # ------------------------------------------------------------------ drawing
    def _painter(self) -> CardPainter:
        lang = self.app.language
        if self.painter is None or self.painter.lang != lang:
            deck = self.rules.deck
            self.painter = CardPainter(card_art(deck), deck.aspect, lang)
        return self.painter

    def draw(self, surface: pygame.Surface) -> None:
        from scenes.table import hud

        surface.blit(theme.table_background(), (0, 0))
        if self.rules is not None and self.model is not None:
            shown = view.hud_view(self, self.model, self.caption())
            hud.draw_hud(surface, shown)
            view.draw_cards(surface, self, self.model, self._painter())
            hud.draw_caption(surface, shown)
            hint = self.status_text()
            theme.blit_text(
                surface,
                hint,
                (640, HINT_Y),
                "sans",
                theme.fit(hint, "sans", 12, 780, 9),
                theme.CREAM_FAINT,
                anchor="center",
            )
        else:
            title = self.t("replay.title")
            theme.heading(
                surface, title, (640, 80), theme.fit(title, "serif_bold", 30, 900, 16, 0.22, True), anchor="midtop"
            )
            name = self.timeline.name
            if name:
                theme.blit_text(
                    surface,
                    name,
                    (640, 128),
                    "sans",
                    theme.fit(name, "sans", 15, 900, 9),
                    theme.CREAM_DIM,
                    anchor="midtop",
                )
        view.draw_banner(surface, self)
        view.draw_panel(surface, self)
        self.ui.draw(surface)


__all__ = ["ReplayScene", "SPEEDS", "DELAYS", "TOLD_DELAY", "OTHER_DELAY"]
