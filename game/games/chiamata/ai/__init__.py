"""Search hooks for Briscola chiamata (five players, an auction, a hidden partner): the
package's public face, what game.ai.hooks asks of a game. The parts:

- :mod:`.tuning` — the constants a test or a tuning run sets (read at call time);
- :mod:`.bidding` — the auction and the call from an evaluation of the hand;
- :mod:`.reading` — who holds the called card, read from the play, and determinization;
- :mod:`.values` — each seat's utility of a finished deal, the worth of a kept card;
- :mod:`.policy` — the playout policy.

The search plays the cards only: the auction and the call are decided by the bidding rules,
handed to the search as exact values (``complete`` says yes in those phases, ``solve``
names the bidding rules' choice), so every level bids as conservatively. Every score is a
seat's own, so the utilities are per seat and each seat maximises its own, which in each
determinized deal means its side's (the partner is that deal's holder of the called card).
"""

from __future__ import annotations

from game.games.chiamata.ai.policy import playout, speech
from game.games.chiamata.ai.reading import determinize, partner_weights
from game.games.chiamata.ai.values import utilities
from game.games.chiamata.heuristics import play_value
from game.games.chiamata.rules import ChiamataRules, ChiamataState, ChiamataView
from game.rules.base import Action

#: A prior at or above this marks a move the easy level never overlooks (game.ai.hooks.OBVIOUS,
#: written here: the hooks module imports this package, so importing it back would close a
#: circle).
OBVIOUS = 1.0

__all__ = [
    "LEVELS",
    "complete",
    "determinize",
    "partner_weights",
    "playout",
    "prior",
    "reason",
    "solve",
    "utilities",
]

#: The levels' settings in Briscola chiamata (game.ai.levels applies them under the caller's
#: keywords). All flat Monte Carlo (tree depth 1): with five seats a shared tree fuses four
#: opponents' replies over every hand they may hold, where the playout policy answers with the
#: hand each determinization gives them (hard with the full tree: +0.06 ± 0.10 game points a
#: seat a deal over normal, flat +0.10 ± 0.08, tuning deals 300-319 of bench/chiamata_ai.py;
#: hard's playouts without random cards +0.12 ± 0.09, no better; after the auction's place
#: correction, on the same deals, +0.16 ± 0.08 at the search's c = 0.5, +0.04 ± 0.06 at 1.0).
#: Easy: a small budget whose search only vetoes the greedy card (the prior marks it obvious),
#: and the exact bidding rules (``exact``). Normal: a smaller budget and noisier playouts than
#: hard. Hard: playouts with sight (policy.pick reads the hands still to play to a trick in
#: each determinized deal, so a card is loaded or spent on a trick only when it holds there):
#: with the plain playouts, 2500 iterations played no better than normal's 200 (+0.013 ±
#: 0.050 game points a seat a deal, tuning deals 2000-2059), with sight +0.120 ± 0.051, the
#: hard caller making 55 of 60 contracts to normal's 46. A playout costs about 0.1 ms (0.15
#: with sight): hard's 2500 take some 0.35 s a decision (docs/AI.md has the fresh figures).
LEVELS: dict[str, dict[str, object]] = {
    "easy": {"iterations": 40, "exact": True, "tree_depth": 1},
    "normal": {"iterations": 200, "tree_depth": 1, "playout_kw": {"epsilon": 0.2}},
    "hard": {"iterations": 2500, "tree_depth": 1, "playout_kw": {"sight": True}},
}


def complete(rules: ChiamataRules, view: ChiamataView) -> bool:
    """The auction and the call are decided exactly (by the bidding rules); the play is
    searched (its last trick too: a few playouts settle it)."""
    return view.phase in ("auction", "call")


def solve(rules: ChiamataRules, state: ChiamataState, seat: int) -> dict[Action, float] | None:
    """In the auction and the call: 1 for the bidding rules' choice, -1 for every other (a
    gap no level's choice among near-best moves bridges). None in the play (the search's)."""
    if state.phase not in ("auction", "call"):
        return None
    choice = speech(rules, state.hands[seat], state.phase, state.high_rank, state.high_points, seat, state.dealer)
    return {a: (1.0 if a == choice else -1.0) for a in rules.legal_actions(state)}


def prior(rules: ChiamataRules, view: ChiamataView, action: Action) -> float:
    """In the auction and the call, 1 (obvious) for the bidding rules' choice, else 0. In the
    play, the greedy evaluation scaled, its best card obvious (above 1): the easy level plays
    it unless its search finds it clearly worse."""
    if view.phase in ("auction", "call"):
        choice = speech(rules, view.hand, view.phase, view.high_rank, view.high_points, view.seat, view.dealer)
        return OBVIOUS if action == choice else 0.0
    c = action.card
    if c is None:
        return 0.0
    values = {x: play_value(rules, view, x) for x in view.hand}
    best = max(values.values())
    v = values[c]
    if v >= best - 1e-9:
        return OBVIOUS + 0.1
    return max(-0.9, min(0.9, v / 20.0))


def reason(rules: ChiamataRules, view: ChiamataView, action: Action) -> tuple[str, dict[str, object]] | None:
    """One line on why a play is good (game.ai.suggest): a sure trick (the last card of the
    trick wins it), a known mate's trick loaded, nothing given away, a low lead; None else.
    Only the sides the view knows count."""
    c = action.card
    if c is None:
        return None
    cp = rules.card_points
    trick = list(view.trick)
    if not trick:
        if cp[c] == 0 and c.suit != view.trump_suit:
            return ("suggest.reason.lead_low", {})
        return None
    cards = [*trick, c]
    winner = rules.trick_winner(cards, view.leader, view.trump_suit)
    points = sum(cp[x] for x in cards)
    mine = view.team_of(view.seat)
    ours = winner == view.seat or (mine is not None and view.team_of(winner) == mine)
    if len(cards) == view.players:  # the last card: the trick is decided
        if winner == view.seat:
            led = trick[0]
            if cp[led] >= 10 and len(trick) == 1:
                return ("suggest.reason.takes_card", {"card": led.code, "points": points})
            return ("suggest.reason.sure_trick", {"points": points})
        if ours:
            return ("suggest.reason.partner_trick", {"points": points})
    if not ours and cp[c] == 0 and c.suit != view.trump_suit:
        return ("suggest.reason.gives_nothing", {})
    return None
