"""The coach view in words, for a screen reader: each mistake as it opens (the decision, the
position the player saw, the move played, the better one, the value lost, the reason), every
move's value on demand, and the keys.

The words are the panel's (game.coach.words.Words, the locale's ``coach.*`` messages); the
position is the replay model's at the line before the decision — only what the player could
see: their own hand, the trick or the table, the trump and the stock.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from game.coach.analysis import DecisionAnalysis, MoveValue
from game.coach.words import Translate, Words
from game.rules.base import Action

if TYPE_CHECKING:
    from game.coach.job import AnalysisJob
    from game.rules.base import GameRules
    from scenes.scene import AppServices


def value_text(d: DecisionAnalysis, action: Action, t: Translate) -> str:
    """A move's value as the panel shows it: "best" for a move tied best, else how much less it
    is worth than the best move ("−4.9", a true minus sign)."""
    short = d.shortfall(action)
    if short is None or short <= 0.0:
        return t("coach.view.best_value")
    return f"\u2212{short:.1f}"


def ranked_values(d: DecisionAnalysis) -> list[MoveValue]:
    """The moves best first: by shortfall to the best shown (the tied best first), then value."""
    return sorted(d.values, key=lambda m: (d.shortfall(m.action) or 0.0, m.action != d.best, -m.points))


class CoachView(Protocol):
    """What the reader reads of the coach view (scenes.coach.scene.CoachScene)."""

    @property
    def app(self) -> AppServices: ...
    @property
    def rules(self) -> GameRules: ...
    @property
    def job(self) -> AnalysisJob: ...
    @property
    def seat(self) -> int: ...
    @property
    def cursor(self) -> int: ...
    @property
    def mistakes(self) -> list[DecisionAnalysis]: ...
    @property
    def current(self) -> DecisionAnalysis | None: ...

    def t(self, key: str, **params: object) -> str: ...
    def words(self) -> Words: ...


class CoachReader:
    """The words a screen reader gets from one coach view (``scene``: scenes.coach.scene.CoachScene)."""

    def __init__(self, scene: CoachView):
        self.scene = scene

    def t(self, key: str, **params: object) -> str:
        return self.scene.t(key, **params)

    def units(self) -> str:
        from game.coach.hooks import load_coach

        return self.t(load_coach(self.scene.rules.game_id).units)

    # ------------------------------------------------------------------ the state of the analysis
    def status(self) -> list[str]:
        """What the panel says instead of a mistake (still looking, failed, none); [] when a
        mistake is shown."""
        s = self.scene
        job = s.job
        if not job.finished:
            return [self.t("coach.view.working", done=job.done, total=job.total or "…")]
        if job.error:
            return [self.t("coach.failed", reason=job.error)]
        if s.current is None:
            return [self.t("coach.view.none")]
        return []

    # ------------------------------------------------------------------ one mistake
    def mistake(self) -> list[str]:
        """The mistake shown, line by line: which one, where, what was played and what was better,
        the value lost and why."""
        s = self.scene
        d = s.current
        if d is None:
            return self.status()
        w = s.words()
        lines = [
            self.t(
                "coach.speech.decision",
                index=s.cursor + 1,
                total=len(s.mistakes),
                deal=d.deal,
                number=d.own_number,
                klass=w.klass(d.klass),
            )
        ]
        lines += self.position()
        lines += [
            self.t("coach.view.played", move=w.move(d.played)),
            self.t("coach.view.better", move=w.move(d.best)),
            self.t("coach.view.lost", points=f"{d.loss:.1f}", units=self.units()),
        ]
        reason = w.reason(d.reason)
        if reason:
            lines.append(reason)
        return lines

    def position(self) -> list[str]:
        """What the player saw before the decision: their hand, the trick or the table, the
        trump and the stock."""
        s = self.scene
        m = getattr(s, "model", None)
        if m is None or s.rules is None:
            return []
        w = s.words()
        hand = m.hands[s.seat] if 0 <= s.seat < len(m.hands) else []
        lines = [
            self.t("access.hand", count=len(hand), cards=", ".join(w.card(c) for c in hand if c))
            if hand
            else self.t("access.hand_empty")
        ]
        if m.capture:
            lines.append(
                self.t("access.table", cards=", ".join(w.card(c) for c in m.table))
                if m.table
                else self.t("access.table_empty")
            )
        elif m.trick:
            plays = [self.t("access.played_by", name=w.seat(seat), card=w.card(code)) for seat, code in m.trick]
            lines.append(self.t("access.trick", plays="; ".join(plays)))
        else:
            lines.append(self.t("access.trick_empty"))
        rules, lang = s.rules, s.app.language
        if rules.has_trump and m.trump_suit:
            suit = rules.deck.suit_name(m.trump_suit, lang)
            lines.append(
                self.t("access.trump_card", suit=suit, card=w.card(m.trump))
                if m.trump and not m.closed
                else self.t("access.trump", suit=suit)
            )
        if rules.has_stock:
            lines.append(
                self.t("access.stock_closed", count=m.stock_count)
                if m.closed
                else self.t("access.stock", count=m.stock_count)
            )
        return lines

    def values(self) -> str:
        """Every legal move's value against the best move, in one line."""
        s = self.scene
        d = s.current
        if d is None:
            return " ".join(self.status())
        w = s.words()
        items = []
        for m in ranked_values(d):
            short = d.shortfall(m.action) or 0.0
            if short <= 0.0:
                items.append(self.t("coach.speech.value_best", move=w.move(m.action)))
            else:
                items.append(self.t("coach.speech.value_less", move=w.move(m.action), points=f"{short:.1f}"))
        head = self.t("coach.view.values", units=self.units())
        if d.method == "exact":
            head = f"{head} ({self.t('coach.view.exact')})"
        return f"{head} {'; '.join(items)}."

    # ------------------------------------------------------------------ the screen
    def opening(self) -> list[str]:
        """What a screen reader gets as the view opens: the first mistake (or what stands in for
        it), then the keys once there is something to step through."""
        lines = self.mistake()
        if self.scene.current is not None:
            lines.append(self.t("coach.speech.keys"))
        return lines


__all__ = ["CoachReader", "ranked_values", "value_text"]
