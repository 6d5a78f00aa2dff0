"""A puzzle at the table ("puzzle"): the ordinary table on a puzzle's position, with its words.

The table is scenes.table's own — the seat's view only, its cards, its keys and clicks for
choosing and playing a card, the rules' refusals, the reading keys (A, D, F, V, W, E, I …) —
on a :class:`scenes.puzzles.session.PuzzleSession`; this scene adds the panel
(scenes.puzzles.panel) and the puzzle's keys:

- Enter (or the panel's first button) after the puzzle is decided: the next puzzle, at once;
- Backspace after a wrong move: try again from before it (practice: the rating has moved);
- S after a wrong move: the solution played out on the table;
- Q: the question and where the puzzle stands, read again; F1: these keys and the table's;
- Esc: back to the puzzles (a card chosen: the choice is dropped first).

The first outcome is rated (scenes.puzzles.common.record: Glicko-2, the player's rating and
the puzzle's); the panel shows and a screen reader hears both changes.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.puzzles.model import Puzzle
from scenes.puzzles import common, panel
from scenes.puzzles.session import PuzzleSession
from scenes.puzzles.words import PuzzleWords
from scenes.scene import AppServices, Scene
from scenes.table.scene import ENTER_KEYS, TableScene
from sprites import theme
from sprites.table_layout import LIFT as TL_LIFT
from sprites.widgets import UI, Button

#: Keys in the hint line by phase.
HINTS = {
    "move": "puzzle_ui.hint_move",
    "right": "puzzle_ui.hint_wait",
    "solved": "puzzle_ui.hint_next",
    "wrong": "puzzle_ui.hint_wrong",
    "solution": "puzzle_ui.hint_next",
}
#: What a screen reader is told once the puzzle is decided and the table is still: the keys.
END_SAID = {"solved": "puzzle_ui.next_said", "solution": "puzzle_ui.next_said", "wrong": "puzzle_ui.wrong_said"}
SOLUTION_KEY = pygame.K_s
QUESTION_KEY = pygame.K_q


class PuzzleTable(TableScene):
    session: PuzzleSession  # always a puzzle's (given below)

    def __init__(
        self,
        app: AppServices,
        puzzle: Puzzle,
        mode: str = "rated",
        game: str | None = None,
        theme_id: str | None = None,
    ):
        self.puzzle = puzzle
        #: "rated", "daily" or "mistakes": where the next puzzle comes from, what the head says.
        self.mode = mode
        #: The chooser's filters, kept for the next puzzle: a game (None: mixed) and a theme.
        self.filters = (game, theme_id)
        #: The rating's change once the outcome is known (common.Change), None before.
        self.change: common.Change | None = None
        self.rated = False
        self.said_end = False
        #: The judgement last said (each new one is said once).
        self.said_judgement: object = None
        #: Right moves after which the next move was asked for aloud.
        self.asked = 0
        super().__init__(app, PuzzleSession(puzzle), fresh=False, preselect=False)
        self.words = PuzzleWords(self.t, self.rules, app.language, puzzle)
        self.panel_ui = UI()
        # Four places, labelled and shown by what the phase offers (see _actions).
        self.panel_buttons = [
            self.panel_ui.add(
                Button(
                    (0, 0, 10, 10),
                    self._label_of(i),
                    self._press_of(i),
                    size=14,
                    name=f"puzzle_button_{i}",
                    visible=self._shown_of(i),
                )
            )
            for i in range(4)
        ]
        self.panel_ui.focus_index = -1  # the keys are the table's and the puzzle's own
        # The opening lines end with whose turn it is: no "your turn" of its own before them.
        self.reader.could_act = True
        # The puzzle's deal may end in its line: no results screen over the puzzle (the panel
        # says what the line did), and no deal summary on the felt either.
        self.controller.show_results = self._no_results  # type: ignore[method-assign]

    def _no_results(self, deal_end: dict, match_end: dict | None) -> bool:
        return False

    @property
    def phase(self) -> str:
        return self.session.phase

    # ------------------------------------------------------------------ the buttons
    def _actions(self) -> list[tuple[str, Callable[[], object]]]:
        """The panel's buttons now, (label key, what it does): the main one first."""
        s = self.session
        if s.busy:
            return [("puzzle_ui.to_list", self.to_list)]
        if s.phase == "wrong":
            return [
                ("puzzle_ui.next", self.next_puzzle),
                ("puzzle_ui.to_list", self.to_list),
                ("puzzle_ui.try_again", self.try_again),
                ("puzzle_ui.solution", self.show_solution),
            ]
        if s.finished:
            return [("puzzle_ui.next", self.next_puzzle), ("puzzle_ui.to_list", self.to_list)]
        return [("puzzle_ui.to_list", self.to_list)]

    def fit_panel(self) -> None:
        """The side panel's foot for this table (its layout follows the card and text sizes):
        while you play, above the caption over the status line; once decided, down to the
        decision buttons unless the hand reaches under the panel."""
        status_y = self.layout.status_pos[1]
        short = status_y - 47 - round(30 * theme.TEXT_SCALE[0])
        places = self.layout.hand(len(self.model.hand))
        tall = panel.SIDE.bottom
        if places:
            last = places[-1]
            w = self.layout.card_w(last.h)
            if last.x + w / 2 > panel.panel_rect(self.players).x - 6:  # the hand runs under the panel
                tall = round(last.y - last.h / 2 - TL_LIFT - 8)
        panel.set_bottoms(short, tall)

    def place_buttons(self) -> None:
        """The buttons where the panel has them now (its height follows the phase), the next
        puzzle in brass."""
        actions = self._actions()
        for b, rect, (key, _) in zip(
            self.panel_buttons, panel.button_rects(self.players, len(actions), self.tall_panel()), actions
        ):
            b.rect = rect
            b.style = "primary" if key == "puzzle_ui.next" else "secondary"

    def _label_of(self, i: int) -> Callable[[], str]:
        return lambda: self.t(self._actions()[i][0]) if i < len(self._actions()) else ""

    def _press_of(self, i: int) -> Callable[[], None]:
        return lambda: self._press(i)

    def _shown_of(self, i: int) -> Callable[[], bool]:
        return lambda: i < len(self._actions())

    def _press(self, i: int) -> None:
        actions = self._actions()
        if i < len(actions):
            actions[i][1]()

    # ------------------------------------------------------------------ the puzzle's moves
    def try_again(self) -> None:
        if self.session.try_again():
            self.controller.clear_choice()
            self.redraw()
            self.app.say(self.t("puzzle_ui.again_said", question=self.words.question()), interrupt=True)

    def show_solution(self) -> None:
        if self.session.show_solution():
            self.controller.clear_choice()
            self.redraw()
            self.app.say(self.words.solution(self.session.step), interrupt=True)

    def next_puzzle(self) -> None:
        """The next puzzle at once: the same game, theme and mode (the day's puzzle is followed
        by rated ones of its game); none left: back to the puzzles, saying why."""
        game, theme_id = self.filters
        mode = "rated" if self.mode == "daily" else self.mode
        if self.mode == "daily":
            game = self.puzzle.game
        nxt = common.next_puzzle(game, theme_id, mode, exclude=self.puzzle.id, app=self.app)
        self.close()
        if nxt is None:
            self.app.stack.pop_to("puzzles")
            self.app.toast(self.t("puzzle_ui.none_left_mistakes" if mode == "mistakes" else "puzzle_ui.none_left"))
            return
        self.app.stack.replace("puzzle", puzzle=nxt, mode=mode, game=game, theme=theme_id)

    def to_list(self) -> None:
        self.close()
        self.app.stack.pop_to("puzzles")

    def _follow_judgement(self) -> None:
        """Each move judged is said (right and why; wrong, why, the right move); the first
        outcome is rated at once and its rating's change said too."""
        s = self.session
        j = s.judgement
        if j is None or j is self.said_judgement:
            return
        self.said_judgement = j
        self.said_end = False  # the keys are said again once this move's consequences are shown
        first = not self.rated and s.outcome is not None
        if first:
            self.rated = True
            self.change = common.record(self.puzzle, s.outcome == "solved", self.app)
        w = self.words
        if not j.ok:  # the refuting line is narrated by the table as it is played
            lines = [self.t("puzzle_ui.wrong"), *w.wrong(j, with_line=False)]
            if s.right_judgement is not None:
                lines.append(w.right_because(s.right_judgement))
        elif s.phase == "solved":
            lines = [self.t("puzzle_ui.solved"), w.right(j)]
            if not first:
                lines.append(self.t("puzzle_ui.practice"))
        else:
            lines = [w.right(j)]
        if first:
            lines += w.rating_change(self.change)
        self.say_lines(lines)

    def say_lines(self, lines: list[str]) -> None:
        for i, line in enumerate(x for x in lines if x):
            self.app.say(line, interrupt=(i == 0))

    # ------------------------------------------------------------------ the loop and input
    def update(self, dt: float) -> None:
        super().update(dt)
        self.motion.summary = None  # a deal ended in the line: the panel tells, not a banner
        self.fit_panel()
        if self.tall_panel() and not self.session.busy and self.motion.idle:
            self.motion.caption = None  # decided: the panel tells (the play log keeps every line)
        self.place_buttons()
        self.panel_ui.update(dt)
        self._follow_judgement()
        s = self.session
        # The next move of a line is asked for once the replies have been shown.
        if s.phase == "move" and s.found > self.asked and self.controller.can_act:
            self.asked = s.found
            self.app.say(self.words.next_move(s.found))
        if not self.said_end and not s.busy and self.motion.idle and (s.finished or s.phase == "wrong"):
            self.said_end = True
            self.app.say(self.t(END_SAID[s.phase]))

    def handle(self, event: pygame.event.Event) -> None:
        if (
            event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
            and self.panel_ui.handle(event)
            and event.type != pygame.MOUSEMOTION
        ):
            return
        if event.type == pygame.KEYDOWN and self._key_of_puzzle(event.key, getattr(event, "mod", 0)):
            return
        super().handle(event)

    def _key_of_puzzle(self, key: int, mod: int) -> bool:
        s = self.session
        if mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return False
        if key == pygame.K_ESCAPE and (
            self.controller.selected is None and self.controller.mode is None or s.phase != "move"
        ):
            self.to_list()
            return True
        if key == QUESTION_KEY:
            self.say_lines(self.status_lines())
            return True
        if key == pygame.K_F1:
            self.app.toast(self.t("puzzle_ui.keys"))
            self.app.say(self.t("access.keys_table"))
            return True
        if s.busy:
            return False
        if key in ENTER_KEYS and (s.finished or s.phase == "wrong"):
            self.next_puzzle()
            return True
        if s.phase == "wrong" and key == pygame.K_BACKSPACE:
            self.try_again()
            return True
        if s.phase == "wrong" and key == SOLUTION_KEY:
            self.show_solution()
            return True
        return False

    # ------------------------------------------------------------------ words
    def panel_text(self) -> tuple[str, list[tuple[str, tuple, int]]]:
        """(the head, the paragraphs) the panel would show with room enough: the puzzle's name
        and rating, the question, then what the moves made of it and the rating's change. Each
        paragraph is (text, colour, drop): where room is short, the highest ``drop`` goes first
        (the question, then the refuting line the table plays out, then the coach's words on
        the move played); 0 always stays."""
        s, w = self.session, self.words
        cream, dim = theme.CREAM, theme.CREAM_DIM
        first = s.phase == "move" and not s.found
        paras: list[tuple[str, tuple, int]] = [(w.question(), cream if first else dim, 0 if s.phase == "move" else 3)]
        if s.phase == "move" and s.found:
            paras += [(w.right(s.judgement), panel.UP, 0), (w.next_move(s.found), cream, 0)]
        elif s.phase == "right":
            paras.append((w.right(s.judgement), panel.UP, 0))
        elif s.phase == "solved":
            paras += [(self.t("puzzle_ui.solved"), panel.UP, 0), (w.right(s.judgement), cream, 0)]
        elif s.phase == "wrong":
            paras.append((self.t("puzzle_ui.wrong"), panel.DOWN, 0))
            drops = {"reason": 1, "line": 2}
            wrong = w.wrong_parts(s.judgement) if s.judgement is not None else []
            paras += [(text, cream, drops.get(kind, 0)) for kind, text in wrong]
            if s.right_judgement is not None:
                paras.append((w.right_because(s.right_judgement), cream, 0))
        elif s.phase == "solution":
            paras.append((w.solution(s.step), cream, 0))
            if s.right_judgement is not None:
                paras.append((w.right_because(s.right_judgement), cream, 0))
        if s.retries and s.phase in ("move", "solved"):
            paras.append((self.t("puzzle_ui.practice"), dim, 0))
        if s.phase != "move" and self.change is not None:
            c = self.change
            colour = panel.UP if not c.rated or c.player_after >= c.player_before else panel.DOWN
            paras += [(line, colour, 0) for line in w.rating_change(c)]
        return w.title(self.mode), [p for p in paras if p[0]]

    def shown_text(self) -> tuple[str, list[tuple[str, tuple]]]:
        """:meth:`panel_text` as the panel has room for it (see there), as (text, colour)."""
        head, paras = self.panel_text()
        box = panel.body_box(self.players, len(self._actions()), self.tall_panel())
        for level in (3, 2, 1):
            if panel.fits([t for t, _, _ in paras], box):
                break
            paras = [p for p in paras if p[2] < level]
        return head, [(t, c) for t, c, _ in paras]

    def tall_panel(self) -> bool:
        """The panel's full height: not while you play (the table's key line runs under its foot
        at the side), nor in the band while moves are shown (it would hide the trick)."""
        if self.phase == "move":
            return False
        return panel.side(self.players) or not self.session.busy

    def status_lines(self) -> list[str]:
        """Q: the question (or the judgement) and the rating, all the panel would say."""
        head, paras = self.panel_text()
        return [head, *(p for p, _, _ in paras)]

    def speech_opening(self) -> list[str]:
        w = self.words
        return [w.title(self.mode), w.question(), *self.reader.opening(), self.t("puzzle_ui.keys_short")]

    def speech_title(self) -> str:
        return self.t("access.scene_puzzle")

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.fit_panel()
        head, paras = self.shown_text()
        self.place_buttons()
        panel.draw(
            surface, self.players, head, paras, self.t(HINTS[self.phase]), len(self._actions()), self.tall_panel()
        )
        self.panel_ui.draw(surface)


def create(
    app: AppServices,
    puzzle: Puzzle | str | None = None,
    game: str | None = None,
    theme: str | None = None,
    mode: str = "rated",
    step: int | None = None,
    overlay: str | None = None,
    **params: object,
) -> Scene:
    """The puzzle ``puzzle`` (a Puzzle, or a shipped puzzle's id); else the next one for ``game``
    and ``theme`` in ``mode``. Screenshots and checks: ``overlay`` "right" plays the right
    move, "wrong" a wrong one (its refutation shown), "solution" the solution after a wrong
    one, "solved" the whole line; ``step`` N (from 1) picks the game's N-th shipped puzzle."""
    p = common.resolve(puzzle, game, theme, mode, step)
    if p is None:  # no puzzle to show (none shipped for the game, an unknown id): the chooser
        from scenes.puzzles.choose import create as chooser

        instead = chooser(app, game=game)
        instead.name = "puzzles"
        app.toast(app.t("puzzle_ui.none_left"))
        return instead
    scene = PuzzleTable(app, p, mode if mode in ("rated", "daily", "mistakes") else "rated", game, theme)
    if overlay is not None:
        common.stand_at(scene, overlay)
    return scene


__all__ = ["PuzzleTable", "create"]
