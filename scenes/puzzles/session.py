"""A puzzle at the table: :class:`PuzzleSession`, a :class:`game.services.table_session.TableSession`.

The match stands at the puzzle's position (game.puzzles.store.position: the record prefix
replayed through the rules), the player holds the puzzle's seat, and nobody else thinks: the
other seats' moves are the puzzle's line (a right move's replies) or the judge's refutation
(a wrong move's), played one per :meth:`PuzzleSession.poll` so the table shows each one as
it shows any play. Its phases:

- ``move``: the player is to find the line's move at ``step``;
- ``right``: the move was the puzzle's; the other seats' replies are being played, then
  ``move`` again for the next answer;
- ``solved``: the line's last answer was found (its replies, if any, still come);
- ``wrong``: the move was not the puzzle's; the refutation is played out and stands;
  :meth:`~PuzzleSession.try_again` puts the position back (unrated from then on),
  :meth:`~PuzzleSession.show_solution` plays the puzzle's own line from there instead;
- ``solution``: the line being shown after a wrong move.

The rated result (``outcome``) is the first one only: "failed" at the first wrong move,
"solved" when the whole line was found without one. A puzzle ends at the position's deal:
the table never deals again nor shows a match's end panel (``over`` stays False here).

Pure Python: no pygame (the scene is scenes.puzzles.table).
"""

from __future__ import annotations

from collections import deque

from game.puzzles import store
from game.puzzles.model import Puzzle
from game.puzzles.store import Judgement
from game.rules.base import Action, Event
from game.services.session import Session
from game.services.table_session import Capabilities

#: A puzzle keeps nothing of the table's own and offers none of its help (a suggestion would
#: give the answer away; a take-back is the panel's Try again).
PUZZLE = Capabilities()
PHASES = ("move", "right", "solved", "wrong", "solution")


class PuzzleSession(Session):
    capabilities = PUZZLE

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        rules = store.rules_of(puzzle)
        super().__init__(
            rules,
            puzzle.seed,
            human_seat=puzzle.seat,
            threaded=False,
            deals=puzzle.prefix[0].get("deals"),
            bot_factory=lambda r: [None] * r.players,
        )
        self.match = store.position(puzzle)
        self.phase = "move"
        #: The line's index of the move the player is asked for now.
        self.step = puzzle.seat_steps()[0]
        #: The moves still to be played for the other seats (a reply, a refutation, the solution).
        self.queue: deque[tuple[int, Action]] = deque()
        #: The last judgement (game.puzzles.store.Judgement), None before the first move.
        self.judgement: Judgement | None = None
        #: The right move's own judgement after a wrong move: why the right one is right.
        self.right_judgement: Judgement | None = None
        #: The rated result, once known: "solved" or "failed" (a second try never changes it).
        self.outcome: str | None = None
        #: Right moves found so far (of ``puzzle.answer_moves``).
        self.found = 0
        #: Tries after a wrong move (practice: unrated).
        self.retries = 0

    # ------------------------------------------------------------------ what the table asks
    @property
    def over(self) -> bool:
        # The puzzle's deal may end inside its line; the table must not offer a match's end
        # (its panel, "play again"): the puzzle scene decides what comes next.
        return False

    @property
    def to_act(self) -> int | None:
        if self.queue:
            return self.queue[0][0]
        if self.phase == "move":
            return self.match.to_act
        return None  # the player reads the panel: the table's status line stays quiet

    @property
    def human_to_act(self) -> bool:
        return self.phase == "move" and not self.queue and not self.match.over and self.match.to_act == self.human_seat

    @property
    def busy(self) -> bool:
        """Moves are still to be shown (replies, a refutation, the solution)."""
        return bool(self.queue)

    @property
    def finished(self) -> bool:
        """Nothing more to find here: solved, or the solution shown."""
        return self.phase in ("solved", "solution") and not self.queue

    def start(self) -> None:
        """Nothing to deal: the match already stands at the position."""

    def poll(self) -> bool:
        """Play the next queued move for its seat (one per call: the table shows each)."""
        if not self.queue or self.match.over:
            self.queue.clear()
            return False
        seat, action = self.queue.popleft()
        if self.match.to_act != seat:  # a line that no longer fits (never in a sound puzzle)
            self.queue.clear()
            return False
        self._pending.extend(self.match.play(action))
        if not self.queue and self.phase == "right":
            self.phase = "move"
        return True

    def submit(self, action: Action) -> list[Event]:
        """The player's move, played by the rules (IllegalAction as ever), then judged."""
        if not self.human_to_act:
            raise RuntimeError("the puzzle is not waiting for a move")
        if action not in self.match.legal_actions():
            return super().submit(action)  # the rules refuse it with their reason
        j = store.judge(self.puzzle, self.step, action)
        events = super().submit(action)
        self.judgement = j
        if j.ok:
            self.found += 1
            line = self.puzzle.line
            if j.done:
                self.phase = "solved"
                self.queue.extend((s, self.puzzle.action(i)) for i, (s, _) in enumerate(line) if i > self.step)
                if self.outcome is None:
                    self.outcome = "solved"
            else:
                self.phase = "right"
                self.queue.extend((line[i][0], self.puzzle.action(i)) for i in range(self.step + 1, j.next_step))
                self.step = j.next_step
                if not self.queue:
                    self.phase = "move"
        else:
            self.phase = "wrong"
            self.right_judgement = store.judge(self.puzzle, self.step, j.right)
            self.queue.extend(j.refutation[1:])  # the wrong move itself is played above
            if self.outcome is None:
                self.outcome = "failed"
        return events

    # ------------------------------------------------------------------ after a wrong move
    def _rewind(self) -> None:
        """The position before the move being asked for (the line's ``step``)."""
        self.match = store.position_at(self.puzzle, self.step)
        self.queue.clear()
        self._pending.clear()
        self.rewinds += 1

    def try_again(self) -> bool:
        """Put back the position before the wrong move; False when there is none to undo."""
        if self.phase != "wrong":
            return False
        self._rewind()
        self.phase = "move"
        self.retries += 1
        return True

    def show_solution(self) -> bool:
        """From the position before the wrong move, the puzzle's own line to its end."""
        if self.phase != "wrong":
            return False
        self._rewind()
        self.phase = "solution"
        self.queue.extend((s, self.puzzle.action(i)) for i, (s, _) in enumerate(self.puzzle.line) if i >= self.step)
        return True

    def undo(self) -> bool:
        return False  # Ctrl+Z takes nothing back: Try again does, after a wrong move

    def truncate_to(self, k: int) -> None:
        raise RuntimeError("a puzzle rewinds only to its own steps (try_again, show_solution)")


def play_answer(s: PuzzleSession, right: bool = True) -> Action:
    """Tests and screenshots: submit the right move at the step asked (``right``), else the
    first legal move that is not it; returns the move played."""
    want = s.puzzle.action(s.step)
    legal = s.legal_actions()
    move = want if right else next(a for a in legal if a != want)
    s.submit(move)
    return move


def play_out(s: PuzzleSession) -> None:
    """Tests and screenshots: play every queued move at once."""
    while s.poll():
        pass


__all__ = ["PUZZLE", "PHASES", "PuzzleSession", "play_answer", "play_out"]
