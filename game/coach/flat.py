"""Every legal move valued on the same worlds: the coach's flat evaluation.

A tree search (UCT) spreads its visits unevenly and names as best whichever of two near-equal
moves it happened to visit more: two analysis seeds then disagree on the verdict. Here every
legal action is instead played in the **same** determinized deals (common random
numbers): world *w* is drawn from the seat's view alone by the game's ``determinize`` hook
with a generator seeded by (analysis seed, seat, decision, *w*), each action is applied to a
copy of it, and the deal is finished by the game's playout policy whose generator is seeded
by the same (…, *w*) for every action. Two actions are thus compared on identical hidden
cards and, as far as the moves allow, identical playouts: the noise of their *difference*
is much smaller than that of either value.

The worlds come in rounds (the first spends about a quarter of the budget on every action);
after each, an action whose paired shortfall to the leader exceeds ``Z`` standard errors is
dropped, so the rest of the budget goes to the moves that are still close, and the loop ends
early when one move is left. The leader's value is its mean over all its worlds; a dropped
move's is the leader's value plus its mean paired difference over the worlds it was played
in. Which move is shown as the best is the analysis's choice (game.coach.analysis.tied_best).

Only the view is read (determinize never sees the true state), and the numbers depend on
the seeds alone: the same record gives the same values on any machine.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from game.ai.hooks import State, View, load_hooks
from game.ai.search import play_to_end
from game.rules.base import Action, GameRules

#: Fewest worlds in a round (a smaller sample is too noisy to rule a move out).
MIN_WORLDS = 24
#: Most worlds per decision (unless the game's coach module names its own ``MAX_WORLDS``): a cap
#: on one decision's time when few moves are left, each world's determinization shared by fewer.
MAX_WORLDS = 4000
#: A move is ruled out when its paired shortfall to the leader exceeds this many standard errors.
Z = 3.0


def flat_values(
    rules: GameRules,
    view: View,
    legal: list[Action],
    seat: int,
    key: str,
    budget: int,
    playout_kw: dict[str, Any] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_worlds: int = MAX_WORLDS,
    apply: Callable[[GameRules, State, Action], None] | None = None,
) -> dict[Action, tuple[float, int]]:
    """(value for ``seat``'s team, worlds) per legal action; ``key`` names the decision (its
    seeds), ``budget`` the playouts to spend, ``max_worlds`` the cap on worlds (see the
    module), ``apply`` how an action is applied to a world (the game's coach module's; default
    the rules'). A stop request ends the loop early with the worlds done so far (at least one
    round)."""
    hooks = load_hooks(rules.game_id)
    playout, rollout = hooks.playout, hooks.rollout
    if playout_kw:
        if playout is not None:
            playout = functools.partial(playout, **playout_kw)
        elif rollout is not None:
            rollout = functools.partial(rollout, **playout_kw)
    team = rules.team_of(seat)
    utilities = hooks.utilities
    if apply is None:

        def apply(rules: GameRules, state: State, action: Action) -> None:
            rules.apply(state, action, check=False)

    scores: dict[Action, list[float]] = {a: [] for a in legal}
    alive = list(legal)
    step = first_round(budget, len(legal))
    spent = 0
    w = 0
    while len(alive) > 1 and spent < budget and w < max_worlds:
        if w and should_stop is not None and should_stop():
            break
        for _ in range(step):
            world = hooks.determinize(rules, view, random.Random(f"{key}:world:{w}"))
            for a in alive:
                state = rules.clone(world)
                apply(rules, state, a)
                play_to_end(rules, state, random.Random(f"{key}:play:{w}"), playout, rollout)
                scores[a].append(utilities(rules, state)[team])
            spent += len(alive)
            w += 1
        alive = _survivors(alive, scores)
    return _values(legal, scores, alive)


def first_round(budget: int, actions: int) -> int:
    """Worlds per round: the first round (every action) spends about a quarter of the budget,
    at least MIN_WORLDS worlds — unless the whole budget is smaller (a test's, a demo's)."""
    actions = max(1, actions)
    return max(budget // (4 * actions), min(MIN_WORLDS, max(1, budget // actions)))


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _survivors(alive: list[Action], scores: dict[Action, list[float]]) -> list[Action]:
    """The actions not clearly worse than the leader: paired over the worlds both were played
    in, their mean shortfall is below Z standard errors (or no more than a tie)."""
    leader = max(alive, key=lambda a: _mean(scores[a]))
    lead = scores[leader]
    keep = []
    for a in alive:
        diffs = [x - y for x, y in zip(lead, scores[a])]
        n = len(diffs)
        m = _mean(diffs)
        var = sum((d - m) ** 2 for d in diffs) / max(1, n - 1)
        if a is leader or m <= 1e-9 or m <= Z * (var / n) ** 0.5:
            keep.append(a)
    return keep


def _values(
    legal: list[Action], scores: dict[Action, list[float]], alive: list[Action]
) -> dict[Action, tuple[float, int]]:
    """Every action's value: the leader's mean over all its worlds; another action's, the
    leader's value plus its paired difference to the leader over the worlds it was played in
    (a control variate: the shared worlds' luck cancels)."""
    leader = max(alive, key=lambda a: _mean(scores[a]))
    lead = scores[leader]
    top = _mean(lead)
    out = {}
    for a in legal:
        mine = scores[a]
        if not mine:  # a single legal action: nothing was played out
            out[a] = (0.0, 0)
            continue
        out[a] = (top + _mean([x - y for x, y in zip(mine, lead)]), len(mine))
    return out


__all__ = ["MAX_WORLDS", "MIN_WORLDS", "Z", "first_round", "flat_values"]
