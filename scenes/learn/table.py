"""A lesson ("lesson"): the ordinary table on a lesson's session, with the step's words.

The table is scenes.table's own (its drawing, its cards, its keys and clicks for choosing and
playing a card; the rules' refusals as ever); this scene adds the panel (scenes.learn.panel)
and the lesson's keys: Enter (or the panel's button) goes on from the opening words and from
a good move, Backspace or Ctrl+Z takes back a wrong move, Esc goes back to the lessons.
Finishing a lesson marks it done in the settings (``lessons_done``).
"""

from __future__ import annotations

import pygame

from game.lessons.lesson import Lesson, get_lesson, lesson_names
from game.lessons.session import LessonSession
from scenes.learn import panel
from scenes.scene import AppServices
from scenes.table.scene import ENTER_KEYS, UNDO_KEY, TableScene
from sprites.widgets import UI, Button

#: What the panel's first button does (and Enter) in each phase, by its label's key.
ACTIONS = {"intro": "lessons.start", "good": "lessons.next", "wrong": "lessons.take_back", "done": "lessons.to_list"}
HINTS = {
    "intro": "lessons.hint_next",
    "move": "lessons.hint_move",
    "good": "lessons.hint_next",
    "wrong": "lessons.hint_wrong",
    "done": "lessons.hint_done",
}
#: The hint of a step whose move plays no card (a bid, a pass, a card called).
DECIDE_HINT = "lessons.hint_decide"


class LessonTable(TableScene):
    session: LessonSession  # always a lesson's (given below)

    def __init__(self, app: AppServices, lesson: Lesson):
        self.lesson = lesson
        self.marked = False
        super().__init__(app, LessonSession(lesson), fresh=True, preselect=False)
        first, second = panel.button_rects(self.players)
        # The panel's buttons, drawn over the panel (the table's own UI is drawn beneath it).
        self.lesson_ui = UI()
        self.action_button = self.lesson_ui.add(
            Button(
                first,
                lambda: self.t(ACTIONS.get(self.phase, "lessons.next")),
                self.act,
                style="primary",
                size=14,
                name="lesson_action",
                visible=lambda: self.phase in ACTIONS,
            )
        )
        self.list_button = self.lesson_ui.add(
            Button(
                second,
                lambda: self.t("lessons.to_list"),
                self.to_list,
                size=13,
                name="lessons",
                visible=lambda: self.phase != "done",
            )
        )
        self.lesson_ui.focus_index = -1  # the keys are the table's and the lesson's own

    @property
    def phase(self) -> str:
        return self.session.phase

    # ------------------------------------------------------------------ the lesson's moves
    def act(self) -> None:
        """The panel's own action: start, next, take back, or (done) back to the lessons."""
        s = self.session
        if s.phase == "wrong":
            self.take_back()
        elif s.phase == "done":
            self.to_list()
        elif s.next():
            self.controller.clear_choice()

    def take_back(self) -> bool:
        """The wrong move played is taken back: the table shows the position before it."""
        if not self.session.take_back():
            return False
        self.controller.clear_choice()
        self.redraw()
        return True

    def to_list(self) -> None:
        self.close()
        self.app.stack.pop_to("learn")

    def mark_done(self) -> None:
        done = list(getattr(self.app.settings, "lessons_done", []))
        if self.lesson.name not in done:
            self.app.set_setting("lessons_done", done + [self.lesson.name])
        self.marked = True

    # ------------------------------------------------------------------ the loop and input
    def update(self, dt: float) -> None:
        super().update(dt)
        self.lesson_ui.update(dt)
        if self.session.finished and not self.marked:
            self.mark_done()

    def handle(self, event: pygame.event.Event) -> None:
        if (
            event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
            and self.lesson_ui.handle(event)
            and event.type != pygame.MOUSEMOTION
        ):
            return
        if event.type == pygame.KEYDOWN:
            key, mod = event.key, getattr(event, "mod", 0)
            if key == pygame.K_ESCAPE and (self.controller.selected is None or self.phase != "move"):
                self.to_list()
                return
            if key == pygame.K_BACKSPACE or (key == UNDO_KEY and mod & pygame.KMOD_CTRL):
                self.take_back()
                return
            if key in ENTER_KEYS and self.phase in ACTIONS:
                self.act()
                return
        super().handle(event)

    # ------------------------------------------------------------------ drawing
    def panel_text(self) -> tuple[str, str]:
        """(the head line, the body) the panel shows now."""
        s, t = self.session, self.t
        total = len(self.lesson.steps)
        if s.phase == "intro":
            return t(self.lesson.title), t(self.lesson.intro)
        if s.phase == "done":
            return t("lessons.finished"), t(self.lesson.outro)
        step = s.current
        assert step is not None
        head = t("lessons.step", n=s.step + 1, total=total)
        if s.phase == "good":
            return f"{head} · {t('lessons.good')}", t(step.why)
        if s.phase == "wrong":
            return f"{head} · {t('lessons.wrong')}", t(s.wrong_key or step.text)
        declaring = self.toggle_line()
        return head, f"{t(step.text)}\n{declaring}" if declaring else t(step.text)

    def toggle_line(self) -> str | None:
        """After the toggle's key (a marriage switched on): which cards to lead now to declare
        it, so the player is not left wondering what the key did. None while it is off."""
        if self.session.phase != "move" or not self.controller.toggled:
            return None
        from scenes.names import cards_list

        c = self.controller
        codes = [a.card.code for a in self.session.legal_actions() if c.declares(a) and a.card is not None]
        if not codes:
            return None
        toggle = c.toggle_kind.toggle if c.toggle_kind is not None else ""
        return self.t(f"lessons.{toggle}_on", cards=cards_list(self.t, self.rules.deck, self.app.language, codes))

    def hint_key(self) -> str:
        """The panel's hint line: the keys of this phase; a step that asks for a decision
        playing no card says so rather than asking for a card."""
        step = self.session.current
        if self.phase == "move" and step is not None and not step.plays_card:
            return DECIDE_HINT
        return HINTS[self.phase]

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        step = self.session.current
        if self.phase == "move" and step is not None:
            panel.draw_looks(surface, self.view(), step.look, self.time)
        head, body = self.panel_text()
        # The panel grows with the text size (which may change in the pause's settings): its buttons follow.
        self.action_button.rect, self.list_button.rect = panel.button_rects(self.players)
        panel.draw_panel(surface, self.players, head, body, self.phase, self.t(self.hint_key()))
        self.lesson_ui.draw(surface)


def create(
    app: AppServices,
    lesson: str | None = None,
    game: str | None = None,
    step: int | None = None,
    overlay: str | None = None,
    **params: object,
) -> LessonTable:
    """The lesson ``lesson`` (or the one for ``game``; else the first). Screenshots and checks:
    ``step`` N stands at step N after the good moves before it, ``overlay`` "wrong" plays a
    wrong move there, "good" the good one, "done" the whole lesson."""
    names = lesson_names()
    name = lesson if lesson in names else game if game in names else names[0]
    scene = LessonTable(app, get_lesson(name))  # the Learn screen opens only lessons that load
    if step is not None or overlay is not None:
        from scenes.learn.demo import stand_at

        stand_at(scene, step or 1, overlay)
    return scene


__all__ = ["LessonTable", "create"]
