"""Search hooks for Briscola (2 players, or 4 in partnerships): the package's public face,
what game.ai.hooks asks of a game (determinize, utilities, the playout policy, the prior, the
exact solver for the end of the deal, the suggestion's reason). The parts:

- :mod:`.tuning` — the constants a test or a tuning run sets (read at call time);
- :mod:`.reading` — card reading and determinization (two and four players);
- :mod:`.values` — the utility of a margin, team totals, the value of keeping a card;
- :mod:`.solver` / :mod:`.team_solver` — the exact end of the deal, two / four players;
- :mod:`.policy` / :mod:`.team_policy` — the playout policy, two / four players.

With four players a seat maximises its team's points (seats 0 + 2 against 1 + 3).
"""

from __future__ import annotations

from game.games.briscola.ai.policy import playout, rollout
from game.games.briscola.ai.reading import determinize
from game.games.briscola.ai.solver import complete, solve
from game.games.briscola.ai.values import team_points, utilities
from game.games.briscola.heuristics import evaluate, trick_so_far
from game.games.briscola.rules import BriscolaRules, BriscolaView
from game.rules.base import Action

__all__ = [
    "LEVELS",
    "complete",
    "determinize",
    "playout",
    "prior",
    "reason",
    "rollout",
    "solve",
    "team_points",
    "utilities",
]


#: The levels' settings in Briscola (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Hard: flat Monte Carlo (tree depth 1). The full tree fuses the opponent's replies over
    # all the hands he might hold; the playout policy answers with the hand each sample gives
    # him, a better model of a real player — measured +12.7 ± 3.0 card points per deal against
    # greedy, the full tree +8.1 ± 3.1 on the same 40 seeds (docs/AI.md).
    "hard": {"tree_depth": 1},
    # Normal: a smaller budget and playouts that play the last tricks by the policy (hard
    # finishes them exactly): 700 iterations with exact finishes was only +3.7 ± 2.5 card
    # points per deal below hard (docs/AI.md).
    "normal": {"iterations": 300, "playout_kw": {"exact": False}},
}


def prior(rules: BriscolaRules, view: BriscolaView, action: Action) -> float:
    """The greedy evaluation, scaled; taking an opponent's Ace or Three (10 points or more on
    the trick) with the trick's last card is obvious (>= 1)."""
    v = evaluate(rules, view, action)
    trick = view.trick
    if trick and len(trick) == view.players - 1:
        leader = (view.to_act - len(trick)) % view.players
        best, best_seat, pts = trick_so_far(rules, trick, leader, view.trump_suit)
        if (
            pts >= 10
            and rules.team_of(best_seat) != rules.team_of(view.seat)
            and rules.beats(action.played, best, view.trump_suit)
        ):
            return 1.0 + max(0.0, min(0.5, (v + 20.0) / 80.0))
    return max(-0.9, min(0.9, v / 20.0))


def reason(rules: BriscolaRules, view: BriscolaView, action: Action) -> tuple[str, dict] | None:
    """One line on why a play is good (game.ai.suggest): a sure trick (the last card of the
    trick wins it for the side), a partner's trick loaded, nothing given away; None else."""
    c = action.card
    if action.kind != "play" or c is None:
        return None
    cp = rules.card_points
    n = view.players
    trick = list(view.trick)
    if not trick:
        if cp[c] == 0 and c.suit != view.trump_suit:
            return ("suggest.reason.lead_low", {})
        return None
    leader = (view.to_act - len(trick)) % n
    cards = [*trick, c]
    winner = rules.trick_winner(cards, leader, view.trump_suit)
    points = sum(cp[x] for x in cards)
    mine = rules.team_of(winner) == rules.team_of(view.seat)
    if len(cards) == n:  # the last card: the trick is decided
        if winner == view.seat:
            led = trick[0]
            if cp[led] >= 10 and len(trick) == 1:
                return ("suggest.reason.takes_card", {"card": led.code, "points": points})
            return ("suggest.reason.sure_trick", {"points": points})
        if mine:
            return ("suggest.reason.partner_trick", {"points": points})
    if not mine and cp[c] == 0 and c.suit != view.trump_suit:
        return ("suggest.reason.gives_nothing", {})
    return None
