"""Greedy evaluation for Scopa: what a play captures, minus what it leaves to the next player —
under every house rule: the sweep the next player may make is the one the rules in force allow
(a card of the table's total, or of 15 minus it with ``capture: fifteen``; an Ace on a table
without one with ``aces: take_all``, which takes the cards but scores no scopa), and the cards
the house rules score are worth more (the King of Coins with ``re_bello``, the Ace, Two and
Three of Coins that start a ``napola``)."""

from __future__ import annotations

from game.cards import Card
from game.rules.base import Action
from game.rules.capture import captured

PRIMIERA_WEIGHT = {"7": 1.2, "6": 0.7, "A": 0.4, "5": 0.2}
#: Re bello: the King of Coins scores a point by itself, as the settebello does (which is
#: worth 4.0 here with its primiera value).
RE_BELLO_WORTH = 3.0
#: Napola: the run of Coins from the Ace scores its length, at least three — its first three
#: cards (A, 2, 3) are worth chasing; each later card of the run adds a point to a run made.
NAPOLA_START_WORTH = 1.2
NAPOLA_LATER_WORTH = 0.3
#: The next player sweeps the table (a scopa) / takes it all with an Ace (no scopa).
SWEEP_PENALTY = 5.0
ACE_TAKES_ALL_PENALTY = 1.5
SCOPA_BONUS = 8.0


def card_worth(rules, c: Card) -> float:
    """Rough worth of owning card ``c`` at the end of the deal, under the rules in force."""
    w = 1.0 + PRIMIERA_WEIGHT.get(c.rank, 0.0)
    if c.suit == rules.scoring_suit:
        w += 0.6
    if c is rules.settebello:
        w += 4.0
    return w + house_worth(rules, c)


def house_worth(rules, c: Card) -> float:
    """What the house rules in force add to owning ``c``: re bello's King of Coins, napola's run."""
    w = 0.0
    if rules.re_bello and c is rules.re_bello_card:
        w += RE_BELLO_WORTH
    if rules.napola and c in rules.napola_run:
        w += NAPOLA_START_WORTH if rules.napola_run.index(c) < rules.napola_min else NAPOLA_LATER_WORTH
    return w


def sweeper(rules, total: int) -> int:
    """The card value that takes a whole table of ``total`` in one capture (a scopa for the
    next player), 0 for none: the total itself, or 15 minus it under ``capture: fifteen``."""
    if rules.fifteen is not None:
        v = rules.fifteen - total
        return v if 1 <= v <= rules.max_value else 0
    return total if total <= rules.max_value else 0


def ace_takes_all(rules, left) -> bool:
    """Under ``aces: take_all``, would an Ace take every card of ``left`` (no Ace among them)?"""
    return rules.aces_take_all and bool(left) and all(t.rank != "A" for t in left)


def scores_scopa(rules, c: Card) -> bool:
    """Can a capture made with ``c`` score a scopa? Not an Ace's under ``aces: take_all``."""
    return not (rules.aces_take_all and c.rank == "A")


def evaluate(rules, view, action: Action) -> float:
    final = view.stock_count == 0 and sum(view.hand_counts) == 1
    return play_score(rules, view.table, action.played, captured(action), final)


def play_score(rules, table, c: Card, capture, final: bool = False) -> float:
    """The greedy value of playing ``c`` on ``table`` taking ``capture`` (empty: placed)."""
    score = 0.0
    if capture:
        score += card_worth(rules, c) + sum(card_worth(rules, t) for t in capture)
        left = [t for t in table if t not in capture]
        if not left and not final and scores_scopa(rules, c):
            score += SCOPA_BONUS
    else:
        left = list(table) + [c]
        score -= card_worth(rules, c)
    if left:
        total = sum(rules.values[t] for t in left)
        # The next player sweeps with one card when the whole table makes its capture, and
        # an Ace that takes all (no scopa: an Ace's capture never scores one) is a threat too.
        v = sweeper(rules, total)
        if v and not (v == 1 and rules.aces_take_all):
            score -= SWEEP_PENALTY
        elif ace_takes_all(rules, left):
            score -= ACE_TAKES_ALL_PENALTY
    return score
