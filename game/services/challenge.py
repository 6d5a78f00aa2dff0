"""The window's daily deal and duplicate deal: the sessions they play and what their results
screen says. Pure Python: no pygame.

A session's ``context`` is one of these. The table then neither saves the match (the
ordinary saved match stays as it was) nor counts it in the statistics: a daily deal's result
goes to the daily calendar (game.services.daily), a duplicate's is shown and kept as replays only.

- :class:`DailyPlay`: the day's deal (game.services.daily) with the human at the player's seat and the
  seeded house bots elsewhere; par is computed in a background thread while the human plays.
- :class:`DuplicatePlay`: one deal played twice against the computer at the chosen level,
  the second time with everyone one seat on (game.services.par.swapped): the human holds the cards
  the computer held. Scored by the difference of the two halves.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from game.rules.base import GameRules
from game.rulesets import make_rules
from game.services.daily import DailyDeal, calendar, record_day
from game.services.par import PAR_OPPONENT, Par, house_bots, margin, over_par, par, par_words, seat_score
from game.services.session import Session
from game.services.table_session import LOCAL, TableSession, Translate

#: A daily or duplicate deal's table: as a local match's, but not saved over the match in
#: progress and not counted in the statistics (its result has its own place).
CHALLENGE = dataclasses.replace(LOCAL, save=False, statistics=False)


def _practice(session: Session) -> bool:
    return session.undos > 0 or session.open_hands


class DailyPlay:
    kind = "daily"

    def __init__(self, daily: DailyDeal, threaded: bool = True):
        self.daily = daily
        self.par: Par | None = None
        self.score: int | None = None
        #: True: kept as the day's result; False: the day was already played (or an undo
        #: made this practice); None: not finished yet.
        self.kept: bool | None = None
        self.problem: str | None = None
        self._lock = threading.Lock()
        self._practice = False
        if threaded:
            threading.Thread(target=self._compute_par, name="par", daemon=True).start()
        else:
            self._compute_par()

    def _compute_par(self) -> None:
        p = par(self.daily.deal, self.daily.seat)
        with self._lock:
            self.par = p

    def session(self, threaded: bool = True) -> Session:
        d = self.daily
        s = Session(
            d.deal.rules(),
            d.deal.seed,
            human_seat=d.seat,
            bot_name=PAR_OPPONENT,
            threaded=threaded,
            deals=1,
            bot_factory=lambda rules: house_bots(rules, d.deal.seed, d.seat),
        )
        s.context = self
        s.capabilities = CHALLENGE
        return s

    def finished(self, session: Session) -> None:
        """The deal is over (called once by the table): the score, and the day kept once par is known."""
        m = session.match
        self.score = seat_score(m.rules, m.deal_points, self.daily.seat)
        self._practice = _practice(session)
        self.poll()

    def poll(self) -> None:
        with self._lock:
            day_par, score = self.par, self.score
            ready = score is not None and day_par is not None and self.kept is None
        if not ready or day_par is None or score is None:
            return
        if self._practice:
            self.kept = False
            return
        self.kept, self.problem = record_day(self.daily.key, self.daily.day, score, day_par.value)

    def lines(self, t: Translate, session: TableSession | None = None) -> list[str]:
        """The results screen's lines: your score, par and the difference."""
        self.poll()
        if self.score is None:
            return []
        if self.par is None:
            return [t("daily.result_waiting", score=self.score)]
        out = [
            t(
                "daily.result",
                score=self.score,
                par=f"{self.par.value:.1f}",
                diff=par_words(t, self.score, self.par.value),
            )
        ]
        if self.kept is False:
            out.append(t("daily.practice"))
        elif self.kept:  # the day counts: where the calendar stands now
            out.append(t("daily.streak", count=calendar(self.daily.key, self.daily.day).streak))
        return out

    def next_session(self, threaded: bool = True) -> Session | None:
        return None


@dataclasses.dataclass
class HalvesTable:
    """A duplicate deal's halves side by side, as plain text (the results screen draws it):
    ``columns`` (half 1, half 2, total), ``rows`` per side ((name, one text per column)),
    the last row the difference."""

    columns: list[str]
    rows: list[tuple[str, list[str]]]


class DuplicatePlay:
    kind = "duplicate"

    def __init__(self, game: str, deck: str | None, players: int, options: dict, seed: int, level: str):
        self.args = (game, deck, players, dict(options))
        self.seed = seed
        self.level = level
        #: Per half (1, 2): the human's margin over the computer's side, once played.
        self.margins: dict[int, float] = {}
        #: Per half: (the human side's points, the computer side's: the mean of its teams').
        self.scores: dict[int, tuple[int, float]] = {}
        #: Per half: its ``deal_end`` (the score sheet shows both halves).
        self.ends: dict[int, dict] = {}

    def _rules(self) -> GameRules:
        game, deck, players, options = self.args
        return make_rules(game, deck, players, options)

    def seat(self, half: int) -> int:
        """The human's seat: 0, then one seat on (the player of seat 0 moves to seat n-1)."""
        return 0 if half == 1 else self._rules().players - 1

    def session(self, half: int = 1, threaded: bool = True) -> Session:
        s = Session(
            self._rules(), self.seed, human_seat=self.seat(half), bot_name=self.level, threaded=threaded, deals=1
        )
        s.context = self
        s.capabilities = CHALLENGE
        s.half = half
        return s

    def finished(self, session: Session) -> None:
        half = session.half
        m = session.match
        team = m.rules.team_of(self.seat(half))
        others = [p for t, p in enumerate(m.deal_points) if t != team]
        self.scores[half] = (m.deal_points[team], sum(others) / len(others))
        self.margins[half] = margin(m.rules, m.deal_points, team)
        self.ends[half] = next(e for e in m.events if e.get("event") == "deal_end")

    @property
    def total(self) -> float | None:
        return self.margins[1] + self.margins[2] if len(self.margins) == 2 else None

    def halves(self, t: Translate) -> HalvesTable:
        """Half 1 | half 2 | total for each side, then the difference; "—" for a half not
        played yet."""
        rules = self._rules()
        you = t("duplicate.side_team" if rules.partnerships else "duplicate.side_player")
        them = t("duplicate.side_computer")
        cols = [t("duplicate.col_half1"), t("duplicate.col_half2"), t("duplicate.col_total")]

        def row(values: Sequence[float | None], signed: bool = False) -> list[str]:
            done = [v for v in values if v is not None]
            total = sum(done) if len(done) == 2 else None
            shown = [*values, total]
            return ["—" if v is None else (over_par(v, 0) if signed else f"{v:g}") for v in shown]

        mine = [self.scores[h][0] if h in self.scores else None for h in (1, 2)]
        theirs = [self.scores[h][1] if h in self.scores else None for h in (1, 2)]
        diff = [self.margins.get(h) for h in (1, 2)]
        return HalvesTable(
            cols, [(you, row(mine)), (them, row(theirs)), (t("duplicate.side_difference"), row(diff, signed=True))]
        )

    def caption(self, t: Translate, session: Session, game: str) -> str:
        """The results' caption: which half the breakdown beneath it is."""
        return t("duplicate.caption", game=game, n=session.half)

    def verdict(self, t: Translate) -> tuple[str, str] | None:
        """The results screen's title once both halves are played: who won the duplicate."""
        total = self.total
        if total is None:
            return None
        if round(total, 1) == 0:
            return t("duplicate.draw"), "draw"
        if total > 0:
            return t("duplicate.won_team" if self._rules().partnerships else "duplicate.won"), "win"
        return t("duplicate.lost"), "loss"

    def lines(self, t: Translate, session: TableSession | None = None) -> list[str]:
        """The line under the halves after the first: what comes next (once both are played,
        the halves' difference row says the duplicate score)."""
        return [t("duplicate.next")] if 1 in self.scores and self.total is None else []

    def next_session(self, threaded: bool = True) -> Session | None:
        """The second half after the first; None when both are played."""
        return self.session(2, threaded) if 1 in self.margins and 2 not in self.margins else None


@runtime_checkable
class DailyAnswer(Protocol):
    """A seat at a server's daily deal (game.online.client.daily_client.DailySession): the
    server's answer once the deal is over, or why there is none."""

    context: object

    @property
    def daily_result(self) -> Mapping[str, object] | None:
        """The player's line on the day's board (score, par …), once the server checked the record."""

    @property
    def daily_refusal(self) -> tuple[str, str] | None:
        """(code, message): the record refused, the board not written."""

    @property
    def failed(self) -> str | None:
        """Why the connection failed, or None."""

    def poll(self) -> bool: ...


_Answer = TypeVar("_Answer", bound=DailyAnswer)


class OnlineDailyPlay:
    """A club server's daily deal played at a seat of the player's own (game.online.server.daily):
    the server deals it, seats the house bots and, once it is over, checks the record and
    answers with the player's line (game.online.client.daily_client.DailySession). The results
    screen says it and leads back to the day's leaderboard (the ``online_daily`` screen)."""

    kind = "online_daily"
    #: Where the results screen's first button leads, and its label.
    back_scene = "online_daily"
    back_label = "daily_online.see_board"

    def __init__(self, info: Mapping[str, object]):
        #: The day's public facts (game.online.client.daily_client.board_info): date, commitment.
        self.info = info
        self.session: DailyAnswer | None = None

    def attach(self, session: _Answer) -> _Answer:
        session.context = self
        self.session = session
        return session

    def finished(self, session: DailyAnswer) -> None:
        self.session = session

    def poll(self) -> None:
        """The server's answer comes after the deal (par may take seconds): keep reading."""
        s = self.session
        if s is not None and s.daily_result is None and s.daily_refusal is None:
            try:
                s.poll()
            except Exception:  # noqa: BLE001 - a broken answer is a line below, never a crash
                pass

    def lines(self, t: Translate, session: object = None) -> list[str]:
        s = session if isinstance(session, DailyAnswer) else self.session
        result = s.daily_result if s is not None else None
        refusal = s.daily_refusal if s is not None else None
        if result is not None:
            score, day_par = _number(result.get("score")), _number(result.get("par"))
            out = [
                t(
                    "daily.result",
                    score=f"{score:g}",
                    par=f"{day_par:.1f}",
                    diff=par_words(t, score, day_par),
                )
            ]
        elif refusal is not None:
            out = [t("daily_online.refused", reason=refusal[1] or refusal[0])]
        elif s is not None and s.failed is not None:
            out = [t("daily_online.lost")]
        else:
            out = [t("daily_online.waiting")]
        return [*out, t("daily_online.sealed_short", hash=str(self.info.get("hash", ""))[:16])]

    def next_session(self, threaded: bool = True) -> Session | None:
        return None


def _number(value: object) -> float:
    """A score or par the server sent (its line is checked on arrival: a number)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise TypeError(f"not a number: {value!r}")


__all__ = ["DailyAnswer", "DailyPlay", "DuplicatePlay", "HalvesTable", "OnlineDailyPlay"]
