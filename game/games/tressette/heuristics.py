"""Greedy evaluation for Tressette: win tricks worth thirds with cards that surely win, feed
points to a partner who surely wins, throw cheap cards on tricks that are lost, lead masters.

One ply, in thirds of a point. A card is a *master* when no card still out of the player's
sight (in another hand or the stock) beats it in its suit — there is no trump, so a master
always wins the trick it leads or beats. The value of a play is the expected thirds the
team wins or loses on this trick (by a rough chance of winning it), minus what the card is
worth kept: a strong card wins a later trick.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.cards import Card
from game.rules.base import Action

#: What keeping a card is worth, per step of strength (3 is 10 steps, 4 is 1): a strong card
#: takes a later trick. Small beside the thirds at stake, so it mostly breaks ties.
KEEP = 0.12
#: The chance that a card which beats the trick so far, but is no master, still wins it when
#: players are still to come (four players); and that a partner still to come takes a trick
#: the opponents lead so far.
UNSURE_WIN = 0.45
PARTNER_LATER = 0.3
#: Leading: a master wins its trick (the others follow with what they have: about a third
#: each); a suit's length makes a low lead safer (the others run out first).
MASTER_LEAD = 1.0
LENGTH_BONUS = 0.15


def top_out(rules, outstanding: Iterable[Card]) -> dict[str, int]:
    """Per suit, the strength of the strongest card still out (0 when none is)."""
    st = rules.strength
    top = {"D": 0, "C": 0, "S": 0, "B": 0}
    for c in outstanding:
        s = st[c]
        if s > top[c.suit]:
            top[c.suit] = s
    return top


def play_value(
    rules,
    c: Card,
    hand: Iterable[Card],
    trick: tuple[Card, ...] | list[Card],
    seat: int,
    leader: int,
    top: dict[str, int],
    players: int,
) -> float:
    """The greedy value of ``seat`` playing ``c`` from ``hand`` on ``trick`` (leader first)."""
    st = rules.strength
    th = rules.card_thirds
    s = st[c]
    if not trick:
        length = sum(1 for x in hand if x.suit == c.suit)
        if s > top[c.suit]:
            return MASTER_LEAD + 0.5 * th[c] + 0.05 * length - KEEP * s
        return -th[c] - KEEP * s + LENGTH_BONUS * length
    led = trick[0]
    suit = led.suit
    best_i = 0
    for i in range(1, len(trick)):
        x = trick[i]
        if x.suit == suit and st[x] > st[trick[best_i]]:
            best_i = i
    best = trick[best_i]
    win_seat = (leader + best_i) % players
    after = players - 1 - len(trick)
    stake = th[c]
    for x in trick:
        stake += th[x]
    if c.suit == suit and s > st[best]:
        p = 1.0 if after == 0 or s > top[suit] else UNSURE_WIN
    elif players == 4 and (win_seat - seat) % 2 == 0:
        # The partner holds the trick: sure when nobody is to come or nothing out beats it.
        p = 1.0 if after == 0 or st[best] > top[suit] else UNSURE_WIN
    elif after == 0 or st[best] > top[suit]:
        p = 0.0
    else:
        # The opponents hold it; the partner may still come (four players, second to play).
        p = PARTNER_LATER if players == 4 and after == 2 else 0.0
    return (2.0 * p - 1.0) * stake - KEEP * s


def outstanding_of(view) -> frozenset[Card]:
    """The cards out of the viewer's sight or in another hand: not in its hand, not played."""
    return frozenset(view.deck) - set(view.hand) - view.played


def evaluate(rules, view, action: Action) -> float:
    top = top_out(rules, outstanding_of(view))
    return play_value(rules, action.played, view.hand, view.trick, view.seat, view.leader, top, view.players)
