"""Scopa's coach facts (game.coach.hooks): values in Scopa points, and why a move was worse —
a scopa missed, the settebello given away or left, a table the next player may sweep."""

from __future__ import annotations

from game.cards import Card
from game.games.scopa import ai as hooks
from game.games.scopa.rules import ScopaRules, ScopaView
from game.rules.base import Action
from game.rules.capture import captured

UNITS = "coach.units.points"
#: The coach's playouts per decision (game.coach.flat): at most about 17 s of one core per deal
#: (bench/coach.py), the most the verdict's stability buys within the issue's 20 s.
BUDGET = 8000
#: Moves whose values lie within this many Scopa points of the highest are tied best
#: (game.coach.analysis.tied_best): the values' resolution at BUDGET, the 90th percentile of how
#: far two analysis seeds put a near-best move below the best (bench/coach.py, three seeds on the
#: tuning deals 201–203), to two figures.
TIE = 0.06


def points_per_utility(rules: ScopaRules) -> float:
    """The search's utility is the deal-point margin over ``SCALE``: one utility is SCALE points."""
    return float(hooks.SCALE)


def _taken(a: Action) -> tuple[Card, ...]:
    return (a.played, *captured(a)) if captured(a) else ()


def _is_sweep(rules: ScopaRules, view: ScopaView, a: Action, final: bool) -> bool:
    return (
        bool(captured(a))
        and len(captured(a)) == len(view.table)
        and not final
        and not (rules.aces_take_all and a.played.rank == "A")
    )


def sweepers(rules: ScopaRules, view: ScopaView, left: list[Card]) -> list[Card]:
    """The cards the seat has not seen that could take all of ``left`` (a scopa)."""
    if not left:
        return []
    return sorted(
        (x for x in view.unseen if any(len(cap) == len(left) for cap in rules.captures_for(x, left))),
        key=lambda c: c.index,
    )


def reason(rules: ScopaRules, view: ScopaView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if played.kind != "play" or best.kind != "play" or played.card is None:
        return None
    table = list(view.table)
    final = view.stock_count == 0 and sum(view.hand_counts) == 1
    if _is_sweep(rules, view, best, final) and not _is_sweep(rules, view, played, final):
        return ("coach.reason.missed_sweep", {"move": best})
    sb = rules.settebello
    if not captured(played) and played.card == sb:
        return ("coach.reason.gives_settebello", {"card": sb.code})
    if sb in _taken(best) and sb not in _taken(played):
        return ("coach.reason.leaves_settebello", {"card": sb.code, "move": best})
    left = [t for t in table if t not in captured(played)] if captured(played) else [*table, played.card]
    # The next play is the deal's last (no scopa on it) when only one card stays in the hands.
    next_final = view.stock_count == 0 and sum(view.hand_counts) - 1 <= 1
    nxt = (view.seat + 1) % view.players
    if not next_final and rules.team_of(nxt) != rules.team_of(view.seat):
        found = sweepers(rules, view, left)
        if found:
            total = sum(rules.values[t] for t in left)
            return (
                "coach.reason.leaves_sweep",
                {
                    "total": total,
                    "seat": nxt,
                    "ranks": sorted(
                        {c.rank for c in found}, key=lambda r: rules.values[next(c for c in found if c.rank == r)]
                    ),
                    "count": len(found),
                },
            )
    return None
