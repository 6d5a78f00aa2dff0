"""The coach view ("coach"): one seat's analysed decisions over the replay viewer.

Keys: ← / → the previous / next mistake, T (or the button) "Try it again from here", V every
move's value read out, O the mistake again, F1 the keys, Tab / Enter the buttons, Esc back. The mouse: the panel's buttons. The table is the replay viewer's at the line before the
decision, seen from the analysed seat with **only its hand face up** (the viewer's "all
hands" and seat turning are switched off here: the coach never shows a card the player could
not see). The move played is outlined in red, the better one in green; the panel says the
class, the value lost, the reason and the value of every legal move against the best one. A
screen reader hears each mistake as it opens (scenes.coach.speech).

While the analysis (game.coach.job.AnalysisJob) still runs, the panel shows its progress;
the view never waits for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

import scenes.coach.common as coach
from game.coach.analysis import DecisionAnalysis
from game.coach.hooks import load_coach
from game.coach.words import Words
from game.rules.capture import captured
from scenes.coach.speech import CoachReader, ranked_values, value_text
from scenes.replay import view as RV
from scenes.replay.scene import ReplayScene
from scenes.replay.timeline import Timeline, from_events
from sprites import table_layout as TL
from sprites import theme
from sprites.widgets import Button

if TYPE_CHECKING:
    from game.coach.job import AnalysisJob
    from game.services.session import Session
    from scenes.scene import AppServices

#: The coach's panel, on the right of the felt, above the player's hand. With three or four
#: players it covers the right-hand seat (its face-down cards, name and card count): H folds it
#: to the small tab FOLDED, which leaves that seat in view (the felt has no free room its size).
PANEL = pygame.Rect(902, 72, 356, 468)
FOLDED = pygame.Rect(PANEL.right - 176, PANEL.y, 176, 40)
PLAYED = (232, 120, 96)
#: How many points the mistake's text may be set smaller to fit the panel (extra large text).
SHRINK = 4
BETTER = (120, 220, 170)


class CoachScene(ReplayScene):
    def __init__(
        self,
        app: AppServices,
        timeline: Timeline,
        job: AnalysisJob,
        seat: int,
        *,
        session: Session | None = None,
        levels: list[str | None] | None = None,
    ):
        self.job = job
        #: Scenes holding the job keep it running (scenes.coach.alive_while_held).
        self.coach_job = job
        self.session = session
        self.cursor = 0
        self._shown_for: DecisionAnalysis | None = None
        #: The panel folded to its tab (H): the table under it in view.
        self.folded = False
        self.reader = CoachReader(self)
        #: The analysis's outcome has been said (in the opening lines or once it finished).
        self._announced = False
        super().__init__(app, timeline, seat=seat, open_hands=False, player=seat, levels=levels)

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        t = self.app.t
        self.back_button = self.ui.add(
            Button(TL.MENU_RECT, lambda: t("coach.view.back"), self.back, size=14, icon="‹", name="back")
        )
        x, y, w = PANEL.x + 16, PANEL.bottom - 100, (PANEL.w - 44) // 2
        shown = lambda: not self.folded  # noqa: E731
        self.ui.add(
            Button(
                (x, y, w, 36),
                lambda: t("coach.view.previous"),
                lambda: self.move(-1),
                size=12,
                name="previous",
                enabled=lambda: self.cursor > 0,
                visible=shown,
            )
        )
        self.ui.add(
            Button(
                (x + w + 12, y, w, 36),
                lambda: t("coach.view.next"),
                lambda: self.move(1),
                size=12,
                name="next",
                enabled=lambda: self.cursor < len(self.mistakes) - 1,
                visible=shown,
            )
        )
        self.try_button = self.ui.add(
            Button(
                (x, y + 46, PANEL.w - 32, 40),
                lambda: t("coach.view.try"),
                self.try_again,
                style="primary",
                size=14,
                name="try",
                enabled=self.can_try,
                visible=shown,
            )
        )
        self.ui.add(
            Button(
                FOLDED,
                lambda: t("coach_panel.show"),
                self.toggle_panel,
                size=12,
                name="unfold",
                visible=lambda: self.folded,
            )
        )
        self.ui.focus_index = -1

    # ------------------------------------------------------------------ the analysis
    @property
    def mistakes(self) -> list[DecisionAnalysis]:
        a = self.job.analysis
        return a.mistakes if a is not None else []

    @property
    def current(self) -> DecisionAnalysis | None:
        m = self.mistakes
        return m[self.cursor] if 0 <= self.cursor < len(m) else None

    def move(self, n: int) -> None:
        if self.mistakes:
            was = self.cursor
            self.cursor = max(0, min(len(self.mistakes) - 1, self.cursor + n))
            self.show_current()
            if self.cursor == was:  # at either end: say so, then where it stands
                self.say([self.t("coach.speech.first" if n < 0 else "coach.speech.last"), *self.reader.mistake()])
            else:
                self.say(self.reader.mistake())
        else:
            self.say(self.reader.status())

    def show_current(self) -> None:
        d = self.current
        if d is not None:
            self.go(d.line, instant=True)  # the table before the decision's line
        self._shown_for = d

    # ------------------------------------------------------------------ speech
    def say(self, lines: list[str]) -> None:
        """Lines for the screen reader, the first cutting off whatever was being said."""
        for i, line in enumerate(lines):
            self.app.say(line, interrupt=(i == 0))

    def speech_opening(self) -> list[str]:
        """What a screen reader gets as the view opens (scenes.speak): the first mistake in words."""
        self._announced = self.job.finished
        if self.job.finished and self._shown_for is None and self.mistakes:
            self.show_current()  # the position read out is the one shown
        return self.reader.opening()

    def toggle_panel(self) -> None:
        """Fold the panel to its tab, or open it again (H, or a click on the tab)."""
        self.folded = not self.folded
        self.ui.focus_index = -1

    # The player's eyes only: no other hand face up, no other chair.
    def toggle_hands(self) -> None:
        return

    def turn_seat(self, n: int) -> None:
        return

    # ------------------------------------------------------------------ try again
    def can_try(self) -> bool:
        """A mistake to start from, in a match of its own (a daily or duplicate deal's session
        has its own house bots and scoring: it is not rebuilt here)."""
        return self.current is not None and getattr(self.session, "context", None) is None

    def try_again(self) -> None:
        """The match rebuilt just before this decision, the player to act: a practice match."""
        d = self.current
        if d is None or not self.can_try():
            return
        from game.coach.analysis import decisions_of
        from game.services.session import Session
        from game.services.settings import AI_LEVELS

        rules = self.rules
        seed: int | None
        if self.session is not None:
            seed, decisions = self.session.seed, list(self.session.match.decisions[: d.index])
            bot, partner, undos = self.session.bot_name, self.session.partner_bot, self.session.undos
        else:
            head = self.timeline.events[0]
            seed, decisions = head.get("seed"), decisions_of(rules, self.timeline.events)[: d.index]
            others = [lv for s, lv in enumerate(self.levels or []) if s != self.seat and lv in AI_LEVELS]
            bot = others[0] if others else getattr(self.app.settings, "ai_level", "normal")
            partner, undos = None, 0
        try:
            s = Session.rebuild(
                rules,
                int(seed),  # type: ignore[arg-type]  # a record without a seed: refused below
                decisions,
                human_seat=self.seat,
                bot_name=bot,
                partner_bot=partner,
                threaded=bool(getattr(self.app, "has_window", True)),
            )
        except (ValueError, TypeError) as e:  # a record whose deals its seed does not deal
            self.app.toast(self.t("coach.failed", reason=str(e)))
            return
        s.undos = undos + 1  # taken back to here: practice in the statistics
        table = self.app.stack.make("table", session=s)
        stack = self.app.stack
        while stack.top is not None and getattr(stack.top, "name", "") not in ("table", "menu") and len(stack) > 1:
            stack.pop()
        if stack.top is not None and getattr(stack.top, "name", "") == "table":
            stack.replace(table)
        else:
            stack.push(table)
        self.app.toast(self.t("coach.view.practice", number=d.own_number, deal=d.deal))

    # ------------------------------------------------------------------ input
    def _coach_key(self, key: int, mod: int) -> bool:
        """The coach's own keys; False for a key the buttons may use (Tab, Enter, Space)."""
        if key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
        elif key in (pygame.K_LEFT, pygame.K_UP):
            self.move(-1)
        elif key in (pygame.K_RIGHT, pygame.K_DOWN):
            self.move(1)
        elif key == pygame.K_t:
            self.try_again()
        elif key == pygame.K_h:
            self.toggle_panel()
        elif key == pygame.K_v:
            self.app.say(self.reader.values(), interrupt=True)
        elif key == pygame.K_o:
            self.say(self.reader.mistake())
        elif key == pygame.K_F1:
            self.app.say(self.t("coach.speech.keys"), interrupt=True)
        else:
            return False
        return True

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if not self._coach_key(event.key, getattr(event, "mod", 0)):
                self.ui.handle(event)  # Tab through the buttons, Enter or Space presses one
        elif self.ui.handle(event):
            return
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 8:
            self.back()

    def update(self, dt: float) -> None:
        self.playing = False
        super().update(dt)
        if self.job.finished and self._shown_for is None and self.mistakes:
            self.show_current()
        if self.job.finished and not self._announced and getattr(self.app.screen_speech, "top", None) is self:
            # The analysis ended after the view had opened: its outcome, as the opening says it.
            self._announced = True
            self.say(self.reader.opening())

    # ------------------------------------------------------------------ drawing
    def words(self) -> Words:
        return Words(self.app.t, self.rules, self.app.language, self.seat)

    def draw(self, surface: pygame.Surface) -> None:
        from scenes.table import hud

        surface.blit(theme.table_background(), (0, 0))
        if self.rules is not None and self.model is not None:
            shown = RV.hud_view(self, self.model, None)
            hud.draw_hud(surface, shown)
            RV.draw_cards(surface, self, self.model, self._painter())
            self._outline(surface)
        if not self.folded:
            self._panel(surface)
        self.ui.draw(surface)
        self._keys_line(surface)

    def keys_box(self) -> pygame.Rect:
        """Where the keys line goes: on the felt left of the panel while it is open (centred on
        the table it ran under the panel's edge), centred on the table when the panel is folded."""
        y = TL.STATUS_POS[1] - 10
        if self.folded:
            return pygame.Rect(250, y, 780, 20)
        left = 24
        return pygame.Rect(left, y, PANEL.x - 12 - left, 20)

    def _keys_line(self, surface: pygame.Surface) -> None:
        hint = f"{self.t('coach.view.keys')} · {self.t('coach_panel.keys')}"
        box = self.keys_box()
        theme.blit_text(
            surface, hint, box.center, "sans", theme.fit(hint, "sans", 12, box.w, 9), theme.CREAM_FAINT, anchor="center"
        )

    def _outline(self, surface: pygame.Surface) -> None:
        d = self.current
        if d is None:
            return
        aspect = self.rules.deck.aspect
        marks: list[tuple[str, tuple[int, int, int]]] = []
        for action, color in ((d.best, BETTER), (d.played, PLAYED)):
            if action.card is not None:
                marks += [(c.code, color) for c in (*captured(action), action.card)]
        for code, color in marks:
            sp = self.sprites.get(code)
            if sp is not None:
                r = sp.end_place.rect(aspect).inflate(10, 10)
                pygame.draw.rect(surface, color, r, 4, border_radius=10)

    def _text(
        self,
        surface: pygame.Surface,
        s: str,
        y: int,
        size: int = 14,
        color: tuple[int, ...] = theme.CREAM,
        face: str = "sans",
        lines: int = 3,
        draw: bool = True,
    ) -> int:
        step = round(size * theme.TEXT_SCALE[0]) + 6  # larger text, taller lines
        for line in theme.wrap(s, face, size, PANEL.w - 32, lines):
            if draw:
                theme.blit_text(surface, line, (PANEL.x + 16, y), face, size, color)
            y += step
        return y

    def _panel(self, surface: pygame.Surface) -> None:
        surface.blit(theme.panel(PANEL.size, 14, fill=(10, 30, 21, 252)), PANEL)
        t = self.t
        name = self.rules.game.name.get(self.app.language, self.rules.game.name["en"]) if self.rules else ""
        y = self._text(surface, t("coach.view.title", name=name), PANEL.y + 14, 20, theme.BRASS_LIGHT, "serif_bold", 1)
        job = self.job
        if not job.finished:
            y = self._text(surface, t("coach.view.working", done=job.done, total=job.total or "…"), y + 6)
            bar = pygame.Rect(PANEL.x + 16, y + 4, PANEL.w - 32, 10)
            surface.blit(theme.rounded(bar.size, 5, (255, 255, 255, 30)), bar)
            if job.fraction > 0:
                surface.blit(theme.rounded((max(10, round(bar.w * job.fraction)), bar.h), 5, (*theme.BRASS, 230)), bar)
            return
        if job.error:
            self._text(surface, t("coach.failed", reason=job.error), y + 6, 14, PLAYED, lines=4)
            return
        d = self.current
        if d is None:
            self._text(surface, t("coach.view.none"), y + 6, 15, theme.CREAM, "serif", 4)
            return
        # Every value must show: with large text (or long move names) the block is set a size
        # or more smaller until it fits above the buttons.
        shrink = next(
            (k for k in range(SHRINK + 1) if self._mistake(surface, d, y, k, False) <= self.panel_limit()), SHRINK
        )
        self._mistake(surface, d, y, shrink, True)

    def panel_limit(self) -> int:
        """The lowest the mistake's text may reach: above the panel's buttons."""
        return PANEL.bottom - 104

    def _mistake(self, surface: pygame.Surface, d: DecisionAnalysis, y: int, shrink: int, draw: bool) -> int:
        """One mistake on the panel, each size ``shrink`` points smaller; where it ends."""
        t = self.t
        w = self.words()
        units = t(load_coach(self.rules.game_id).units)
        k = shrink
        y = self._text(
            surface,
            t("coach.view.step", index=self.cursor + 1, total=len(self.mistakes)),
            y + 2,
            12 - k // 2,
            theme.CREAM_DIM,
            lines=1,
            draw=draw,
        )
        # The class leads the line, so the largest text wraps the deal and number, never the class.
        decision = t("coach.view.decision", number=d.own_number, deal=d.deal, klass=w.klass(d.klass))
        y = self._text(
            surface,
            decision[:1].upper() + decision[1:],
            y + 2,
            16 - k,
            PLAYED if d.klass == "blunder" else theme.BRASS_LIGHT,
            "sans_bold",
            3,
            draw,
        )
        y = self._text(
            surface, t("coach.view.played", move=w.move(d.played)), y + 4 - k, 14 - k, PLAYED, lines=2, draw=draw
        )
        y = self._text(surface, t("coach.view.better", move=w.move(d.best)), y, 14 - k, BETTER, lines=2, draw=draw)
        y = self._text(
            surface,
            t("coach.view.lost", points=f"{d.loss:.1f}", units=units),
            y,
            13 - k,
            theme.CREAM_DIM,
            lines=1,
            draw=draw,
        )
        y = self._text(surface, w.reason(d.reason), y + 4 - k, 15 - k, theme.CREAM, "serif", 3, draw)
        y = self._text(
            surface, t("coach.view.values", units=units), y + 6 - k, 12 - k // 2, theme.CREAM_DIM, lines=2, draw=draw
        )
        size = 12 - k // 2
        row = round(size * theme.TEXT_SCALE[0]) + 5
        rows = []  # (move, its value text, its label's lines), best first
        for m in ranked_values(d):
            value = value_text(d, m.action, t)
            box = PANEL.w - 32 - theme.text_width(value, "sans_bold", size) - 12
            label = w.move(m.action)
            lines = [label] if theme.text_width(label, "sans", size) <= box else theme.wrap(label, "sans", size, box, 2)
            rows.append((m, value, lines))
        if draw:  # the smallest setting still too tall: the best and the played move, then what fits
            room = self.panel_limit() + 4 - y
            keep = {d.best, d.played}
            used = sum(len(lines) * row for m, _, lines in rows if m.action in keep)
            for m, _, lines in rows:
                if m.action not in keep and used + len(lines) * row <= room:
                    keep.add(m.action)
                    used += len(lines) * row
            rows = [r for r in rows if r[0].action in keep]
        for m, value, lines in rows:
            color = BETTER if m.action == d.best else PLAYED if m.action == d.played else theme.CREAM_DIM
            if draw:
                theme.blit_text(surface, value, (PANEL.right - 16, y), "sans_bold", size, color, anchor="topright")
                for i, line in enumerate(lines):
                    theme.blit_text(surface, line, (PANEL.x + 16, y + i * row), "sans", size, color)
            y += len(lines) * row
        if d.method == "exact":
            y = self._text(surface, t("coach.view.exact"), y + 2, 11 - k // 2, theme.CREAM_FAINT, lines=1, draw=draw)
        return y


def create(
    app: AppServices,
    job: AnalysisJob | None = None,
    session: Session | None = None,
    record: str | None = None,
    events: list | None = None,
    seat: int | None = None,
    deal: int | None = None,
    title: str = "",
    levels: list | None = None,
    **params: object,
) -> CoachScene:
    """The coach view of ``job`` (a running or finished game.coach.job.AnalysisJob), or of a
    new analysis of ``session``'s match (its player's seat, deal ``deal`` or all), of a record
    file, or of ``events``; ``seat`` the seat analysed. A record or seat the coach cannot
    analyse raises ValueError with one line."""
    from game.coach.analysis import CoachError, check_seat, rules_of
    from game.coach.job import AnalysisJob

    if session is not None:
        events = list(session.match.events)
        seat = session.human_seat if seat is None else seat
    elif record is not None:
        from game.record import read_record
        from game.verify import verify_file

        verdict = verify_file(record)
        if not verdict.ok:
            raise ValueError(str(verdict))
        events = read_record(record)
        seat = 0 if seat is None else seat  # a record named on the command line: its first seat
    elif events is not None:  # a record in memory (the viewer's): judged like a file
        from game.verify import verify_events

        verdict = verify_events(list(events))
        if not verdict.ok:
            raise ValueError(str(verdict))
    budget = coach.BUDGET
    if events is None:  # a screenshot: the computer's demo match, its first deal, a small budget
        from scenes.replay import demo_events

        game, players = params.get("game"), params.get("players")
        events = demo_events(
            app, game if isinstance(game, str) else None, players if isinstance(players, int) else None
        )
        seat = 0 if seat is None else seat
        deal = 1 if deal is None else deal
        budget = coach.DEMO_BUDGET
    try:
        seat = check_seat(rules_of(events), seat)
    except CoachError as e:
        raise ValueError(str(e)) from None
    timeline = from_events(events, title)
    holder: dict[str, Callable[[], bool]] = {}
    if job is None:
        deals = {deal} if deal is not None else None
        threaded = bool(getattr(app, "has_window", True)) or bool(params.get("threaded"))
        job = AnalysisJob(
            events,
            seat,
            deals=deals,
            budget=budget,
            threaded=threaded,
            keep_going=lambda: holder.get("keep", lambda: True)(),
        )
    scene = CoachScene(app, timeline, job, seat, session=session, levels=levels)
    holder["keep"] = coach.alive_while_held(app, job) if job.thread is not None else (lambda: True)
    return scene


__all__ = ["CoachScene", "FOLDED", "PANEL", "create"]
