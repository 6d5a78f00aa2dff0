"""A puzzle in the player's words: the question, a right move's why, a wrong move with the line
that refutes it and the right move, the solution, the rating's change.

The panel draws these lines and a screen reader is given the same ones. Cards, moves and
seats are named by the coach's words (game.coach.words.Words: the deck's own card names,
the seats round the table as the table names them); the reasons are the coach's and the
suggestion's own sentences. No pygame here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.coach.words import Translate, Words
from game.puzzles.model import Puzzle
from game.rules.base import PLAY_KIND, Action
from game.rules.capture import captured

if TYPE_CHECKING:
    from game.puzzles.store import Judgement
    from game.rules.base import GameRules
    from scenes.puzzles.common import Change

#: The refutation's moves named in words at most (the table plays every one of them out, and
#: its play log and narration tell them all).
LINE_SHOWN = 4


def signed(value: float) -> str:
    """A rating's change as the panel shows it: "+12", "−7" (a true minus sign), "±0"."""
    n = round(value)
    if n == 0:
        return "±0"
    return f"+{n}" if n > 0 else f"\u2212{-n}"


class PuzzleWords:
    """The words of one puzzle at one table, in the app's language (``t`` is ``app.t``)."""

    def __init__(self, t: Translate, rules: GameRules, lang: str, puzzle: Puzzle):
        self.t = t
        self.puzzle = puzzle
        self.words = Words(t, rules, lang, puzzle.seat)
        self.rules = rules
        self.lang = lang

    # ------------------------------------------------------------------ the puzzle
    def game_name(self) -> str:
        g = self.rules.game
        return g.name.get(self.lang) or g.name.get("en", self.puzzle.game)

    def theme(self) -> str:
        return self.t(f"puzzles.theme.{self.puzzle.theme}")

    def question(self) -> str:
        """ "Your move: win the deal." — and how many moves the line asks for."""
        q = self.t(f"puzzles.question.{self.puzzle.question}")
        n = self.puzzle.answer_moves
        return q if n <= 1 else f"{q} {self.t('puzzle_ui.moves_to_find', count=n)}"

    def title(self, mode: str) -> str:
        """The panel's head: the game, the theme and the puzzle's rating (a mistake of your own
        or the day's puzzle says so)."""
        key = {"daily": "puzzle_ui.head_daily", "mistakes": "puzzle_ui.head_mistake"}.get(mode, "puzzle_ui.head")
        return self.t(key, game=self.game_name(), theme=self.theme(), rating=round(self.puzzle.rating))

    # ------------------------------------------------------------------ moves
    def move(self, action: Action) -> str:
        return self.words.move(action)

    def reason(self, judgement: Judgement | None) -> str:
        return self.words.reason(getattr(judgement, "reason", None)) if judgement is not None else ""

    def short_move(self, action: Action) -> str:
        """A move in a line, briefly: the card alone ("7 of Coins"), a capture "7 of Coins takes
        Ace of Coins + 6 of Batons"; a marriage, closing or the exchange in full."""
        # Anything beyond the card and its capture (a declaration with it) is told in full.
        declares = any(name != "capture" for name, _ in action.args)
        if action.kind != PLAY_KIND or declares or action.card is None:
            return self.move(action)
        card = self.words.card(action.card.code)
        if captured(action):
            return self.t(
                "puzzle_ui.line_take", card=card, cards=" + ".join(self.words.card(c.code) for c in captured(action))
            )
        return card

    def line(self, moves: list[tuple[int, Action]]) -> str:
        """Moves one after the other: "North: 3 of Cups; You: 7 of Coins takes …"."""
        return "; ".join(f"{self.words.seat(s)}: {self.short_move(a)}" for s, a in moves)

    def right(self, judgement: Judgement | None) -> str:
        """Why the move found is right (the coach's or the suggestion's words)."""
        why = self.reason(judgement)
        return self.t("puzzle_ui.right_why", why=why) if why else self.t("puzzle_ui.right")

    def right_because(self, judgement: Judgement | None) -> str:
        """After a wrong move: why the right one is right."""
        why = self.reason(judgement)
        return self.t("puzzle_ui.why", why=why) if why else ""

    def next_move(self, found: int) -> str:
        return self.t("puzzle_ui.next_move", n=found + 1, total=self.puzzle.answer_moves)

    def wrong(self, judgement: Judgement, with_line: bool = True) -> list[str]:
        """A wrong move: what it was and why it is worse, the line that refutes it (not
        ``with_line``: left to the table, which plays and narrates it), the right move."""
        return [text for kind, text in self.wrong_parts(judgement) if with_line or kind != "line"]

    def wrong_parts(self, judgement: Judgement) -> list[tuple[str, str]]:
        """:meth:`wrong`'s lines, each with its kind: "played", "reason", "line", "right"."""
        played = judgement.refutation[0][1] if judgement.refutation else None
        why = self.reason(judgement)
        parts = []
        if played is not None:
            parts.append(("played", self.t("puzzle_ui.wrong_move", move=self.short_move(played))))
        if why:  # the coach's words on the move played ("misses a scopa: …"), as a sentence
            parts.append(("reason", why[:1].upper() + why[1:]))
        answer = judgement.refutation[1 : 1 + LINE_SHOWN]
        if answer:
            more = len(judgement.refutation) > 1 + LINE_SHOWN
            parts.append(
                ("line", self.t("puzzle_ui.refuted_more" if more else "puzzle_ui.refuted", line=self.line(answer)))
            )
        parts.append(("right", self.t("puzzle_ui.right_move", move=self.move(judgement.right))))
        return parts

    def solution(self, step: int) -> str:
        """The puzzle's line from ``step`` on, in words."""
        p = self.puzzle
        return self.t(
            "puzzle_ui.solution_line",
            line=self.line([(s, p.action(i)) for i, (s, _) in enumerate(p.line) if i >= step]),
        )

    # ------------------------------------------------------------------ the rating
    def rating_change(self, change: Change | None) -> list[str]:
        """The player's rating and the puzzle's, before → after (Glicko-2)."""
        if change is None:
            return []
        if not change.rated:  # one of your own mistakes: practice, back after an interval
            if change.due is None:
                return [self.t("puzzle_ui.mistake_retired")]
            days = round(change.due / 86400)
            return [self.t("puzzle_ui.mistake_soon") if days < 1 else self.t("puzzle_ui.mistake_back", count=days)]
        you = self.t(
            "puzzle_ui.rating_player",
            before=round(change.player_before),
            after=round(change.player_after),
            diff=signed(change.player_after - change.player_before),
        )
        it = self.t(
            "puzzle_ui.rating_puzzle",
            before=round(change.puzzle_before),
            after=round(change.puzzle_after),
            diff=signed(change.puzzle_after - change.puzzle_before),
        )
        return [you, it]


__all__ = ["PuzzleWords", "signed"]
