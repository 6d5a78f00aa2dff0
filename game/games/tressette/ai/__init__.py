"""Search hooks for Tressette (2 players, or 4 in partnerships): the package's public face,
what game.ai.hooks asks of a game (determinize, utilities, the playout policy, the prior, the
exact solver for the end of the deal, the suggestion's reason). The parts:

- :mod:`.tuning` — the constants a test or a tuning run sets (read at call time);
- :mod:`.deal` — determinization around the known cards and the shown voids;
- :mod:`.solver` — the exact end of the deal (two and four players);
- :mod:`.policy` — the playout policy.

What a seat knows beyond its hand and the cards played:
- with two players every card drawn from the stock is shown to both, so it is known to be in
  the drawer's hand until played (``view.known``); the drawer's *other* cards are the ones
  dealt to him;
- a player who did not follow the led suit holds none of it among those dealt cards
  (``view.voids``; a card drawn later is public anyway).
"""

from __future__ import annotations

from game.games.tressette.ai.deal import deal_around_voids, determinize
from game.games.tressette.ai.policy import playout, rollout
from game.games.tressette.ai.solver import complete, exact_margins, solve
from game.games.tressette.heuristics import evaluate
from game.games.tressette.rules import TressetteRules, TressetteState, TressetteView
from game.rules.base import Action

__all__ = [
    "LEVELS",
    "complete",
    "deal_around_voids",
    "determinize",
    "exact_margins",
    "playout",
    "prior",
    "reason",
    "rollout",
    "solve",
    "utilities",
]


#: The levels' settings in Tressette (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Hard: with two players the budget that fits its 0.9 s cap on one quiet core
    # (bench/ai_speed.py, CPU p95 0.87 s at 4000 iterations; four players: 0.66 s).
    "hard": {"by_players": {2: {"iterations": 3600}}},
    # Normal: a smaller budget, no exact solver at the end of the deal, playouts that play
    # the last tricks by the policy (hard solves them exactly), and small human slips: a
    # softmax over the searched values (temperature 0.04 ≈ 0.45 deal points; a move a point
    # worse is chosen about a tenth as often as the best). Measured on duplicate deals: with
    # the solver normal was only +0.35 ± 0.42 points per deal below hard after 20 seeds (2p:
    # both played the last ten tricks perfectly); without it +0.82 ± 0.26 (2p, 50 seeds) but
    # +0.25 ± 0.53 in 4p (20 seeds). With the slips, and hard's playouts no longer solving
    # their last two tricks (EXACT_PLAYOUT_TRICKS), hard vs normal is +1.80 ± 0.23 (2p) and
    # +1.60 ± 0.37 (4p), 50 seeds each; normal vs easy +1.28 ± 0.36 (2p) and +2.03 ± 0.55 (4p).
    "normal": {"iterations": 300, "exact": False, "playout_kw": {"exact_tricks": 0}, "temperature": 0.04},
    "easy": {"playout_kw": {"exact_tricks": 0}},
}


def _points(rules: TressetteRules, state: TressetteState) -> list[int]:
    return rules.deal_points(state.thirds, state.last_trick)


def utilities(rules: TressetteRules, state: TressetteState) -> list[float]:
    """Per team: the deal-point margin over 11 (the whole deal's points)."""
    p = _points(rules, state)
    u0 = (p[0] - p[1]) / 11.0
    return [u0, -u0]


def prior(rules: TressetteRules, view: TressetteView, action: Action) -> float:
    """The greedy evaluation, scaled to (-0.9, 0.9): no Tressette move is "obvious"."""
    return max(-0.9, min(0.9, evaluate(rules, view, action) / 5.0))


def reason(rules: TressetteRules, view: TressetteView, action: Action) -> tuple[str, dict] | None:
    """One line on why a play is good (game.ai.suggest): the last card of a trick that wins
    it for the side, or a partner's trick; nothing given away on a lost one; None else."""
    c = action.card
    if action.kind != "play" or c is None or not view.trick:
        return None
    cards = [*view.trick, c]
    winner = rules.trick_winner(cards, view.leader)
    mine = rules.team_of(winner) == rules.team_of(view.seat)
    if len(cards) == view.players:
        if winner == view.seat:
            return ("suggest.reason.sure_trick_plain", {})
        if mine:
            return ("suggest.reason.partner_trick_plain", {})
    if not mine and rules.card_thirds[c] == 0:
        return ("suggest.reason.gives_nothing", {})
    return None
