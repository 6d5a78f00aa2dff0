"""Briscola's coach facts (game.coach.hooks): values in the side's card points, and why a move
was worse — a trump spent on a trick the partner had won, an Ace or Three thrown to the other
side, a loaded trick let go, a trump wasted on an empty trick."""

from __future__ import annotations

from game.games.briscola.heuristics import trick_so_far
from game.games.briscola.rules import BriscolaRules, BriscolaState, BriscolaView
from game.rules.base import Action

UNITS = "coach.units.card_points"
#: The coach's playouts per decision (game.coach.flat). Third pass: 20000 (from 16000), paid
#: for by the greedy playouts below (about 9 % faster); on the tuning deals 201-212 at most
#: 16.9 s of one core per deal (bench/coach.py's 20 s goal).
BUDGET = 20000
#: A higher cap on worlds than game.coach.flat's: with a hand of three, one move dropped early
#: leaves two close ones, and the budget left goes to them (up to 10000 worlds; 8000 in the
#: second pass, 5332 without a cap of its own).
MAX_WORLDS = 10000
#: The coach's playouts hand the sampled stock out by seat (game.games.briscola.ai.policy.playout):
#: two moves that change who wins a trick are still played on comparable hands (on the tuning
#: deals 201-206 the paired difference's spread fell by about a fifth). And they play no random
#: card (``epsilon`` 0, where the search explores with tuning.EPSILON 0.1): each world's
#: playout follows the policy, so the two moves' playouts part ways less. On the tuning deals
#: 201-212 (three seeds) the best shown agreed in 96.8 % of the pairs instead of 95.0 %, for
#: 9 % less time; the shown best moved (same seed) in 42 of 540 decisions, all but one to a
#: move within 2.1 card points of the old best by the old values.
PLAYOUT_KW = {"coupled": True, "epsilon": 0.0}
#: Moves whose values lie within this many card points of the highest are tied best
#: (game.coach.analysis.tied_best): the values' resolution at BUDGET, the 90th percentile of how
#: far two analysis seeds put a near-best move below the best (bench/coach.py; three seeds on the
#: tuning deals 201–212 at the shipped settings: 1.06), to two figures.
TIE = 1.1
#: A trick worth no more than this is "empty" (a trump spent on it is wasted).
EMPTY_TRICK = 2


def apply(rules: BriscolaRules, state: BriscolaState, action: Action) -> None:
    """The move valued, applied as the coupled playouts deal (game.coach.flat): with two players
    and both cards of the next pair face down, seat 0 takes the pair's first card whoever won the
    trick. The rules deal it winner first, so a move that wins the trick and one that loses it
    handed the two players each other's cards at once: the paired difference of 6♣ and the
    Knight on a led 5♣ had a standard deviation of 72 card points a world, 50 dealt by seat (the
    same as more than twice the worlds). Unbiased: the face-down stock is a shuffle nobody has
    seen. The pair with the turned trump is dealt as the rules deal it."""
    stock = state.stock
    first = stock[0] if state.players == 2 and len(stock) > 2 else None
    rules.apply(state, action, check=False)
    hands = state.hands
    if first is not None and first in hands[1]:  # seat 1 won and drew it: seat 0's instead
        second = hands[0][-1]  # what seat 0 drew after the winner
        hands[1][hands[1].index(first)] = second
        hands[0][-1] = first


def points_per_utility(rules: BriscolaRules) -> float:
    """The utility mixes the deal's sign and the card-point margin over 120 (ai/values.py):
    read as the side's card points, a margin of m is m / 2 (the 120 points are shared) and a
    deal turned from won to lost 120 — so one utility is 120 card points."""
    return float(rules.game.scoring.get("total_points", 120))


def reason(rules: BriscolaRules, view: BriscolaView, played: Action, best: Action) -> tuple[str, dict] | None:
    """Why ``played`` was worse than ``best``, from the view alone; None when no rule fits."""
    if played.kind != "play" or best.kind != "play" or played.card is None or best.card is None:
        return None
    cp = rules.card_points
    trump = view.trump_suit
    trick = list(view.trick)
    n = view.players
    mine = rules.team_of(view.seat)
    if not trick:
        return None
    leader = (view.to_act - len(trick)) % n
    top, top_seat, pts = trick_so_far(rules, trick, leader, trump)
    last = len(trick) == n - 1

    def wins(a: Action) -> bool:
        return rules.trick_winner([*trick, a.played], leader, trump) == view.seat

    partner_has_it = top_seat != view.seat and rules.team_of(top_seat) == mine
    if partner_has_it and played.card.suit == trump and wins(played) and not (best.card.suit == trump and wins(best)):
        return ("coach.reason.trumps_partner", {"card": played.card.code})
    if last:
        taken_by_them = rules.team_of(rules.trick_winner([*trick, played.card], leader, trump)) != mine
        if taken_by_them and cp[played.card] >= 10 and cp[best.card] < cp[played.card]:
            return ("coach.reason.throws_points", {"card": played.card.code, "points": pts + cp[played.card]})
        if taken_by_them and wins(best) and pts >= 10:
            return ("coach.reason.lets_go", {"points": pts + cp[best.card], "move": best})
        if played.card.suit == trump and wins(played) and pts <= EMPTY_TRICK and best.card.suit != trump:
            return ("coach.reason.wastes_trump", {"card": played.card.code, "points": pts + cp[played.card]})
    return None
