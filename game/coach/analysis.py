"""One seat's decisions in a record, each valued on what the seat knew.

A record is walked with the rules (``state_from_deal``, ``action_from_record``, ``apply``, as
the referee does) to every decision of the seat. At each one only **the seat's view** is
read (``rules.view(state, seat)``: its hand, the table, what was played; the other hands and
the stock are determinized by the game's own hooks, never read). Where the view fixes the
state (the stock gone in Briscola, Schnapsen, Scopa …) the game's exact solver gives the
values (``method`` "exact"), as the hard level's search uses it. Elsewhere every legal action
is played out on the same determinized worlds (game.coach.flat: common random numbers, moves
clearly worse than the leader dropped as the worlds go on; ``method`` "flat"), for the game's
budget of playouts (its coach module's ``BUDGET``). Every random draw is seeded by the
analysis seed, the seat and the decision's number, so the same record always gives the same
analysis, on any machine.

The best action: sampled values are estimates, and two moves whose values lie within the
game's ``TIE`` (its coach module: the resolution of the values at the shipped budget, in its
points) of the highest are ones the coach cannot tell apart — **tied best**. Which of them
is shown as the best must not depend on the analysis seed's noise, so it is the one the
game's own rule of thumb (its ``prior`` on the view, which reads no seed and no hidden card)
ranks first, then the first in the legal order (:func:`tied_best`). Exact values are compared
exactly (ties within ``TIE`` = 1e-6 only). A move tied best loses nothing and is "best";
another loses the shown best's value minus its own, in the game's own points (the game's
``coach`` part converts the search's utility). The class comes from the game's thresholds in
rules.yaml (``coach:``, checked by game.config_check).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field

from game.ai.hooks import State, View, load_hooks
from game.ai.levels import HardBot
from game.ai.search import solve_exact
from game.ai.suggest import reason_for
from game.coach.flat import flat_values
from game.coach.hooks import CoachHooks, Reason, load_coach
from game.replay import ReplayError, replay
from game.rules.base import Action, GameRules
from game.rulesets import make_rules

#: The classes of a decision, from the best to the worst.
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: The classes the coach explains and steps through (worse than "good").
MISTAKES = ("inaccuracy", "mistake", "blunder")
#: The analysis seed when none is given (a seed of its own, not the match's).
COACH_SEED = 1
#: A loss this small is no loss (equal values, e.g. two exact moves worth the same).
TIE = 1e-6
#: The reason a worse move gets when no rule of thumb of the game fits: the values speak.
VALUES_REASON = "coach.reason.kept_more"


class CoachError(ValueError):
    """A record or a seat the coach cannot analyse (one line, for the command line)."""


@dataclass(frozen=True)
class MoveValue:
    action: Action
    #: The action's value for the seat's side, in the game's own points (search mean or exact).
    points: float
    #: Search visits (the budget for an exact value; 0 for the only legal move).
    visits: int


@dataclass(frozen=True)
class Position:
    """A decision of the seat as the record shows it: what the seat saw and did. ``state`` is
    the true state (for the tests' checks only: the analysis never reads it)."""

    index: int
    deal: int
    seat: int
    view: View
    legal: tuple[Action, ...]
    played: Action
    state: State = field(compare=False, repr=False)
    #: The record line (0-based) of the decision: the viewer shows the table before it.
    line: int = 0


@dataclass(frozen=True)
class DecisionAnalysis:
    #: The decision's index in the match (0-based: ``session.decisions[index]``).
    index: int
    deal: int
    seat: int
    played: Action
    best: Action
    loss: float
    klass: str
    values: tuple[MoveValue, ...]
    #: "forced" (the only legal move), "exact" (the game's solver) or "ismcts" (the search).
    method: str
    #: (locale key, params) — why the played move is worse, or why it is good; None: nothing to say.
    reason: Reason | None
    cpu: float = field(default=0.0, compare=False)
    #: The record line (0-based) of the decision (see Position.line).
    line: int = 0
    #: The seat's own decision in its deal, counted from 1 (0: not known, e.g. one position
    #: analysed alone): "your 5th decision" rather than the match's count of every seat's.
    turn: int = 0
    #: Values within this of the highest are tied best (the analysis's tolerance: the game's
    #: TIE for sampled values, TIE for exact ones).
    tie: float = field(default=TIE, compare=False)

    @property
    def number(self) -> int:
        """The decision's number in the match, every seat's counted, from 1 (the record's)."""
        return self.index + 1

    @property
    def own_number(self) -> int:
        """The seat's own decision in its deal, from 1 (what the player reads)."""
        return self.turn or self.number

    def value_of(self, action: Action) -> float | None:
        return next((m.points for m in self.values if m.action == action), None)

    def shortfall(self, action: Action) -> float | None:
        """How much less ``action`` is worth than the best move shown, in the game's points:
        0.0 for a move tied best (the coach cannot tell it from the best), None for a move
        that was not legal. The played move's shortfall is the decision's ``loss``."""
        mine = self.value_of(action)
        if mine is None:
            return None
        top = max(m.points for m in self.values)
        if mine >= top - self.tie:
            return 0.0
        best = self.value_of(self.best)
        if best is None:  # the best move is always among the values
            raise ValueError(f"the best move {self.best} has no value")
        return max(0.0, round(best - mine, 6))


@dataclass
class Analysis:
    game_id: str
    seat: int
    budget: int
    decisions: list[DecisionAnalysis]
    seconds: float = 0.0
    cpu: float = 0.0
    #: False when a stop request cut the analysis short (the decisions so far are kept).
    complete: bool = True

    @property
    def mean_loss(self) -> float:
        return sum(d.loss for d in self.decisions) / len(self.decisions) if self.decisions else 0.0

    def count(self, klass: str) -> int:
        return sum(1 for d in self.decisions if d.klass == klass)

    @property
    def mistakes(self) -> list[DecisionAnalysis]:
        """The decisions worse than good, in the order they were made."""
        return [d for d in self.decisions if d.klass in MISTAKES]


# ---------------------------------------------------------------------- the record
def rules_of(events: list[dict]) -> GameRules:
    head = events[0] if events else None
    if not isinstance(head, dict) or head.get("event") != "match":
        raise CoachError("the record does not start with its match line")
    try:
        return make_rules(head["game"], head["deck"], head["players"], head.get("options") or {})
    except (KeyError, TypeError, ValueError) as e:
        raise CoachError(f"match: {e}") from None


def check_seat(rules: GameRules, seat: object) -> int:
    """The seat, when the record shows its cards (a seat of the match); CoachError otherwise."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise CoachError(
            f"seat {seat!r} is not a seat of this record: its cards are not in it (seats 0 to {rules.players - 1})"
        )
    return seat


def _walk(rules: GameRules, events: list[dict], seat: int | None) -> Iterator[tuple[int, Action, Position | None]]:
    """(seat acting, its action, the Position when it is ``seat``'s) for every decision of the
    record, in order (the record is trusted to be one the referee accepts: game.verify)."""
    try:
        for step in replay(rules, events):
            if step.kind != "decision" or step.seat is None or step.action is None:
                continue
            actor, action, state = step.seat, step.action, step.state
            pos = None
            if actor == seat:
                pos = Position(
                    step.decisions,
                    step.deal,
                    actor,
                    rules.view(state, actor),
                    tuple(rules.legal_actions(state)),
                    action,
                    rules.clone(state),
                    step.line,
                )
            yield actor, action, pos
    except ReplayError as e:
        raise CoachError(f"line {e.line}: {e}" if e.line is not None else str(e)) from None


def positions(rules: GameRules, events: list[dict], seat: int) -> Iterator[Position]:
    """Every decision of ``seat`` in the record, in order."""
    for _, _, pos in _walk(rules, events, seat):
        if pos is not None:
            yield pos


def decisions_of(rules: GameRules, events: list[dict]) -> list[tuple[int, Action]]:
    """Every decision of the record as (seat, action), in order: what ``Match.rebuild`` and
    ``Session.rebuild`` replay ("Try it again from here")."""
    return [(actor, action) for actor, action, _ in _walk(rules, events, None)]


# ---------------------------------------------------------------------- one decision
def classify(loss: float, thresholds: Mapping[str, float] | None, is_best: bool) -> str:
    """The class of a decision that lost ``loss`` points (thresholds: rules.yaml ``coach:``)."""
    if is_best or loss <= TIE:
        return "best"
    for klass in reversed(MISTAKES):
        limit = thresholds.get(klass) if thresholds else None
        if limit is not None and loss >= limit:
            return klass
    return "good"


def tied_best(
    legal: list[Action],
    points: dict[Action, float],
    tolerance: float = TIE,
    rank: Callable[[Action], float] | None = None,
) -> tuple[Action, list[Action]]:
    """(the best shown, the moves tied best): the tied are the moves whose value is within
    ``tolerance`` of the highest, in the legal order; the best shown is the one ``rank`` (the
    game's prior on the view: no seed, no hidden card) puts highest, between equal ranks the
    first legal one. The shown best thus depends on the values only through which moves are
    tied, not on the order the noise gave them."""
    top = max(points[a] for a in legal)
    tied = [a for a in legal if points[a] >= top - tolerance]
    if rank is None or len(tied) == 1:
        return tied[0], tied
    ranks = {a: rank(a) for a in tied}
    return max(tied, key=lambda a: ranks[a]), tied  # max keeps the first of equal ranks


def exact_values(
    rules: GameRules, view: View, seat: int, index: int, seed: int, should_stop: Callable[[], bool] | None = None
) -> dict[Action, float] | None:
    """The game's exact solver's utilities when the view fixes the state (as the hard level
    runs it: game.ai.search.SearchBot.analyse); None when it does not or the solver gives up."""
    hooks = load_hooks(rules.game_id)
    if hooks.complete is None or not hooks.complete(rules, view):
        return None
    bot = HardBot(rules, seat, seed)
    bot.begin_decision(index)
    state = hooks.determinize(rules, view, bot.rng)
    if hooks.solve is not None:
        return hooks.solve(rules, state, seat)
    return solve_exact(rules, state, seat, should_stop=should_stop)


def analyse_position(
    rules: GameRules,
    view: View,
    legal: list[Action] | tuple[Action, ...],
    played: Action,
    seat: int,
    index: int,
    deal: int = 1,
    budget: int | None = None,
    seed: int = COACH_SEED,
    should_stop: Callable[[], bool] | None = None,
    line: int = 0,
    turn: int = 0,
) -> DecisionAnalysis:
    """The analysis of one decision from the seat's ``view`` alone (see the module); ``turn``
    is the seat's own decision number in the deal (DecisionAnalysis.turn)."""
    coach = load_coach(rules.game_id)
    legal = list(legal)
    if played not in legal:
        raise CoachError(f"decision {index + 1}: {played} is not a legal move here")
    start = time.thread_time()
    if len(legal) == 1:
        return DecisionAnalysis(
            index,
            deal,
            seat,
            played,
            played,
            0.0,
            "best",
            (MoveValue(played, 0.0, 0),),
            "forced",
            reason_for(rules, view, legal, played),
            line=line,
            turn=turn,
        )
    budget = budget or coach.budget
    exact = None
    if coach.exact is None or coach.exact(rules, view):
        exact = exact_values(rules, view, seat, index, seed, should_stop)
    if exact is not None:
        raw = {a: (exact.get(a, -math.inf), budget) for a in legal}
        method = "exact"
    else:
        playout_kw = {**(HardBot(rules, seat).playout_kw or {}), **coach.playout_kw}
        raw = flat_values(
            rules,
            view,
            legal,
            seat,
            f"{seed}:{seat}:{index}",
            budget,
            playout_kw,
            should_stop,
            coach.max_worlds,
            coach.apply,
        )
        method = "flat"
    scale = coach.points_per_utility(rules)
    values = tuple(MoveValue(a, raw[a][0] * scale, raw[a][1]) for a in legal)
    by_action = {m.action: m.points for m in values}
    prior = load_hooks(rules.game_id).prior
    rank = None if prior is None else (lambda a: prior(rules, view, a))
    tolerance = max(TIE, coach.tie) if method == "flat" else TIE
    best, tied = tied_best(legal, by_action, tolerance, rank)
    loss = 0.0 if played in tied else max(0.0, by_action[best] - by_action[played])
    klass = classify(loss, rules.game.coach, played in tied)
    reason = explain(rules, view, legal, played, best, loss, klass, coach)
    return DecisionAnalysis(
        index,
        deal,
        seat,
        played,
        best,
        round(loss, 6),
        klass,
        values,
        method,
        reason,
        time.thread_time() - start,
        line,
        turn,
        tolerance,
    )


def explain(
    rules: GameRules,
    view: View,
    legal: list[Action],
    played: Action,
    best: Action,
    loss: float,
    klass: str,
    coach: CoachHooks | None = None,
) -> Reason | None:
    """Why: for a move worse than good, the game's rule of thumb or else the values; for a good
    one, what makes it good (the suggestion's reason), or None."""
    if klass not in MISTAKES:
        return reason_for(rules, view, legal, played)
    coach = coach or load_coach(rules.game_id)
    if coach.reason is not None:
        out = coach.reason(rules, view, played, best)
        if out is not None:
            key, params = out
            params = dict(params or {})
            if "loss" in params:  # a reason that states the value lost gets the analysis's
                params["loss"] = round(loss, 1)
            return (str(key), params)
    return (VALUES_REASON, {"move": best, "points": round(loss, 1), "units": coach.units})


# ---------------------------------------------------------------------- a record
def _turns(found: list[Position]) -> dict[int, int]:
    """Each position's number among the seat's own decisions of its deal, from 1."""
    out: dict[int, int] = {}
    count: dict[int, int] = {}
    for p in found:
        count[p.deal] = count.get(p.deal, 0) + 1
        out[p.index] = count[p.deal]
    return out


def analyse_events(
    events: list[dict],
    seat: int,
    budget: int | None = None,
    seed: int = COACH_SEED,
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    deals: Collection[int] | None = None,
) -> Analysis:
    """Every decision of ``seat`` in the record ``events`` (one the referee accepts), or only
    those of the deals numbered in ``deals``.
    ``progress(done, total)`` is told after each decision; ``should_stop`` ends the analysis
    early (``complete`` False; the decisions analysed so far are kept)."""
    rules = rules_of(events)
    seat = check_seat(rules, seat)
    every = list(positions(rules, events, seat))
    turns = _turns(every)
    found = [p for p in every if deals is None or p.deal in deals]
    if not found:
        raise CoachError(f"seat {seat} makes no decision in this record" + (" in those deals" if deals else ""))
    coach = load_coach(rules.game_id)
    budget = budget or coach.budget
    start, start_cpu = time.perf_counter(), time.thread_time()
    out: list[DecisionAnalysis] = []
    complete = True
    if progress is not None:
        progress(0, len(found))
    for n, p in enumerate(found):
        if should_stop is not None and should_stop():
            complete = False
            break
        out.append(
            analyse_position(
                rules,
                p.view,
                p.legal,
                p.played,
                seat,
                p.index,
                p.deal,
                budget,
                seed,
                should_stop,
                p.line,
                turns[p.index],
            )
        )
        if progress is not None:
            progress(n + 1, len(found))
    if should_stop is not None and should_stop():
        complete = False
    return Analysis(
        rules.game_id, seat, budget, out, time.perf_counter() - start, time.thread_time() - start_cpu, complete
    )


__all__ = [
    "Analysis",
    "CLASSES",
    "COACH_SEED",
    "CoachError",
    "DecisionAnalysis",
    "MISTAKES",
    "MoveValue",
    "Position",
    "analyse_events",
    "analyse_position",
    "check_seat",
    "classify",
    "decisions_of",
    "exact_values",
    "explain",
    "positions",
    "rules_of",
    "tied_best",
]
