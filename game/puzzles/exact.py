"""Exact play where every card is known: the games' own endgame solvers, for puzzles.

Each game's ``ai`` part may offer ``solve(rules, state, seat)`` (exact values of the seat's
legal moves); the others are solved by the shared max-n search (game.ai.search.solve_exact).
Here they are used on states that the seat's view fixes (:func:`known`), so the true state
is what the seat knows. Values are in the game's own points (the coach's units,
game.coach.hooks): the search's utility times the game's ``points_per_utility``.

A line is played with every seat choosing its solver-best move, ties broken by the legal
order (the rules list moves in a fixed order), so the same position always gives the same
line.
"""

from __future__ import annotations

from collections.abc import Callable

from game.ai.hooks import State, View, load_hooks
from game.ai.search import solve_exact
from game.coach.hooks import load_coach
from game.rules.base import Action, GameRules

#: Values closer than this are equal (the solvers' values are exact up to float rounding).
EPS = 1e-6
#: Nodes the shared search may visit per solve before it gives up (the games' own solvers
#: have their own limits).
NODE_LIMIT = 200_000


def known(rules: GameRules, view: View) -> bool:
    """True when the seat's ``view`` fixes the whole state: no stock left face down and at most
    one other hand still holding cards (its cards are then exactly the unseen ones)."""
    if getattr(view, "stock_count", 0):
        return False
    seat = getattr(view, "seat", None)
    counts: list[int] | None = getattr(view, "hand_counts", None)
    if counts is None:  # a view that counts no hand: every other seat may still hold cards
        counts = [1] * rules.players
    return sum(1 for s, n in enumerate(counts) if s != seat and n) <= 1


def values(rules: GameRules, state: State, seat: int | None = None) -> dict[Action, float] | None:
    """The exact value of every legal move of the seat to act (``seat``, default the one to
    act), for that seat's team, in the game's points; None when the solver gives up."""
    actor = rules.to_act(state) if seat is None else seat
    hooks = load_hooks(rules.game_id)
    out = None
    if hooks.solve is not None:
        out = hooks.solve(rules, state, actor)
    if out is None:
        out = solve_exact(rules, state, actor, node_limit=NODE_LIMIT)
    if out is None:
        return None
    scale = load_coach(rules.game_id).points_per_utility(rules)
    return {a: v * scale for a, v in out.items()}


def ranked(rules: GameRules, state: State) -> list[tuple[Action, float]] | None:
    """The legal moves of the seat to act with their values, best first (ties in the legal
    order); None when the solver gives up."""
    vals = values(rules, state)
    if vals is None:
        return None
    legal = rules.legal_actions(state)
    order = {a: i for i, a in enumerate(legal)}
    return sorted(((a, vals[a]) for a in legal if a in vals), key=lambda av: (-av[1], order[av[0]]))


def best(rules: GameRules, state: State) -> Action | None:
    """The seat to act's solver-best move (the first of equal ones), None when unsolved."""
    r = ranked(rules, state)
    return None if not r else r[0][0]


def play_line(
    rules: GameRules, state: State, max_moves: int = 12, stop: Callable[[State], bool] | None = None
) -> list[tuple[int, Action]]:
    """Every seat plays its solver-best move from ``state`` (changed in place) until the deal
    ends, ``max_moves`` are made, ``stop(state)`` says so, or the solver gives up."""
    out: list[tuple[int, Action]] = []
    while not rules.is_over(state) and len(out) < max_moves:
        if stop is not None and out and stop(state):
            break
        seat = rules.to_act(state)
        a = best(rules, state)
        if a is None:
            break
        rules.apply(state, a, check=False)
        out.append((seat, a))
    return out


__all__ = ["EPS", "NODE_LIMIT", "best", "known", "play_line", "ranked", "values"]
