"""A lesson at the table: :class:`LessonSession`, a :class:`game.services.table_session.TableSession`.

The deal is the lesson's hand-built one (:class:`LessonMatch`), the other seats play their
scripted moves (:class:`ScriptBot`), and the player's moves go through the real rules; the
lesson only judges them against the step's good moves. Its phases:

- ``intro``: the lesson's opening words; nothing moves until :meth:`LessonSession.next`;
- ``move``: the step's words; the player is to act (after the scripted seats);
- ``good``: the move was the lesson's; why it is good is shown, the scripted seats answer,
  :meth:`~LessonSession.next` goes on to the next step (after the last one: ``done``);
- ``wrong``: the move was played but is not the lesson's; its explanation is shown and
  nothing moves until :meth:`~LessonSession.take_back` puts the position back;
- ``done``: the closing words.

Pure Python: no pygame here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from game.lessons.lesson import Lesson, Step
from game.match import Bot, Match
from game.rules.base import Action, Event, GameRules
from game.services.session import Session
from game.services.table_session import Capabilities

#: A lesson keeps nothing and offers no help of the table's own: its panel has the take-back.
LESSON = Capabilities()
PHASES = ("intro", "move", "good", "wrong", "done")


class LessonMatch(Match):
    """A one-deal match of the lesson's deal instead of a shuffled one."""

    def __init__(self, lesson: Lesson, rules: GameRules, bots: Sequence[Bot | None]):
        super().__init__(rules, 0, bots, deals=1)
        self.lesson = lesson

    def _next_deal(self) -> list[Event]:
        self.dealer = self.lesson.deal["dealer"]
        self.deal_number += 1
        self.state = self.lesson.new_state(self.rules)
        return list(self.state.opening_events)


class ScriptBot:
    """A seat that plays its scripted moves in order: its k-th decision is its k-th move."""

    def __init__(self, lesson: Lesson, seat: int, session: LessonSession):
        self.lesson = lesson
        self.seat = seat
        self.session = session

    def choose(self, view: object, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action:
        k = self.session._made(self.seat)
        return self.lesson.scripted(self.seat, k, legal)


class LessonSession(Session):
    capabilities = LESSON

    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        rules = lesson.make_rules()
        super().__init__(rules, 0, human_seat=lesson.human, threaded=False, deals=1, bot_factory=self._bots)
        self.match = LessonMatch(lesson, rules, self._bots(rules))
        self.phase = "intro"
        #: The step being taught (its index in ``lesson.steps``).
        self.step = 0
        #: The key explaining the wrong move just played (phase ``wrong``).
        self.wrong_key: str | None = None
        #: Wrong moves played and taken back in this lesson.
        self.mistakes = 0

    def _bots(self, rules: GameRules) -> list[Bot | None]:
        return [None if s == self.lesson.human else ScriptBot(self.lesson, s, self) for s in range(rules.players)]

    # ------------------------------------------------------------------ what the table asks
    @property
    def current(self) -> Step | None:
        steps = self.lesson.steps
        return steps[self.step] if self.step < len(steps) else None

    @property
    def to_act(self) -> int | None:
        # While the player reads (the opening words, a good or a wrong move's words, the end)
        # nobody is to act as far as the table is concerned: it says nothing over the panel.
        seat = self.match.to_act
        if self.phase in ("intro", "wrong") or (seat == self.lesson.human and self.phase != "move"):
            return None
        return seat

    @property
    def human_to_act(self) -> bool:
        return self.phase == "move" and super().human_to_act

    def poll(self) -> bool:
        # The scripted seats wait while the player reads the opening words or a wrong move's
        # explanation, and stop after the last step's move: the lesson is over.
        if self.phase in ("intro", "wrong"):
            return False
        if self.phase == "done" or (self.phase == "good" and self.step == len(self.lesson.steps) - 1):
            # After the last step only the scripted answers still to come (a trick's end).
            seat = self.match.to_act
            if seat is None or seat == self.lesson.human or not self.lesson.has_move(seat, self._made(seat)):
                return False
        return super().poll()

    def _made(self, seat: int) -> int:
        return sum(1 for s, _ in self.match.decisions if s == seat)

    def submit(self, action: Action) -> list[Event]:
        """The player's move, played by the rules (IllegalAction as ever), then judged."""
        if self.phase != "move":
            raise RuntimeError("the lesson is not waiting for a move")
        step = self.current
        events = super().submit(action)
        assert step is not None
        if step.is_good(action):
            self.phase = "good"
        else:
            self.phase, self.wrong_key = "wrong", step.explanation(action)
            self.mistakes += 1
        return events

    # ------------------------------------------------------------------ the lesson's own
    def next(self) -> bool:
        """On from the opening words or a good move's explanation; False when not there."""
        if self.phase == "intro":
            self.phase = "move"
        elif self.phase == "good":
            self.step += 1
            self.phase = "move" if self.step < len(self.lesson.steps) else "done"
        else:
            return False
        return True

    def take_back(self) -> bool:
        """Put back the position before the wrong move just played; False when none is."""
        if self.phase != "wrong" or not self.undo():
            return False
        self.phase, self.wrong_key = "move", None
        return True

    def truncate_to(self, k: int) -> None:
        n = len(self.match.decisions)
        if not 0 <= k <= n:
            raise ValueError(f"cannot rewind to decision {k}: the match has {n}")
        decisions = self.match.decisions[:k]
        self.match = LessonMatch(self.lesson, self.rules, self._bots(self.rules))
        self.match.start()
        for _seat, action in decisions:
            self.match.play(action)
        self._pending.clear()
        self.rewinds += 1

    @property
    def finished(self) -> bool:
        return self.phase == "done"


def drive(
    s: LessonSession, to_step: int | None = None, then: str | None = None, wrong_first: bool = False
) -> LessonSession:
    """Play the lesson's good moves from where it stands (the tests, the screenshots) until
    step ``to_step`` (counted from 0) waits for its move, or to the end (None). Then ``then``
    "wrong" plays a wrong move there (where the step has one), "good" the good one. With
    ``wrong_first`` each step on the way first tries a wrong move and takes it back."""
    if s.phase == "intro" and (to_step is not None or then != "intro"):
        s.next()
    for _ in range(1000):
        if s.finished or (to_step is not None and s.step == to_step and s.phase == "move" and s.human_to_act):
            break
        if s.phase == "good":
            while s.poll():  # the scripted answers first, as the table shows them
                pass
            s.next()
            continue
        if not s.human_to_act:
            if not s.poll():
                raise RuntimeError(f"{s.lesson.file}: the lesson stands still at step {s.step + 1}")
            continue
        if wrong_first:
            _wrong(s)
            s.take_back()
        _good(s)
    if then == "wrong" and s.human_to_act:
        _wrong(s)
    elif then == "good" and s.human_to_act:
        _good(s)
    return s


def _good(s: LessonSession) -> None:
    step = s.current
    assert step is not None
    s.submit(next(a for a in s.legal_actions() if step.is_good(a)))


def _wrong(s: LessonSession) -> None:
    step = s.current
    assert step is not None
    bad = [a for a in s.legal_actions() if not step.is_good(a)]
    if bad:
        s.submit(bad[0])


def play_through(lesson: Lesson, wrong_first: bool = False) -> LessonSession:
    """The lesson played to its end by its first good moves (see :func:`drive`)."""
    s = LessonSession(lesson)
    s.start()
    drive(s, wrong_first=wrong_first)
    s.take_events()
    return s


__all__ = ["LESSON", "PHASES", "LessonMatch", "ScriptBot", "LessonSession", "drive", "play_through"]
