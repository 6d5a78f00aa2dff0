"""Greedy evaluation for Briscola (2 players, or 4 in partnerships): win valuable tricks
cheaply, keep trumps and aces for tricks worth them, lead low non-trumps — and with a partner,
never trump his winning card and load points (A, 3) onto a trick he surely takes.

One ply. Following, the value is the points at stake (the trick's cards and this one) won or
given away, times how sure the side is of the outcome, minus what the card would have been
worth kept for later. With two players, or as the last of four, the outcome is known. Earlier
in a trick of four it is a chance (:func:`side_chance`): that no opponent still to come holds
a card that beats the trick's best, the cards he may hold dealt at random (the greedy from the
view, the playout policy from the cards not yet played); card reading, which cannot know the
player's view, uses fixed chances (AHEAD, AHEAD_TRUMP, BEHIND). Leading,
the value is minus what the card risks: its points, and its future worth as a trump.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from math import comb

from game.cards import Card
from game.rules.base import Action

#: What keeping a trump is worth beyond its own points: it wins a later trick of the
#: opponent's choosing. Higher trumps are worth more (they also beat the other trumps).
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.6
#: Tie-breaker: prefer spending weaker cards.
STRENGTH_COST = 0.05
#: Four players, without the view: the chance the side holding the trick's best card keeps it
#: while an opponent is still to play (a trump is harder to beat than a plain card), and the
#: chance the side behind gets it back while the partner is still to play.
AHEAD = 0.6
AHEAD_TRUMP = 0.85
BEHIND = 0.35


def keep_value(rules, c: Card, trump_suit: str) -> float:
    """What card ``c`` is worth kept in hand, beyond the points it carries into a trick."""
    s = rules.strength[c]
    if c.suit == trump_suit:
        # A trump's points are as good as banked: it wins them later anyway.
        return TRUMP_BASE + TRUMP_PER_STRENGTH * s + rules.card_points[c]
    return STRENGTH_COST * s


def play_value(rules, c: Card, led: Card | None, trump: str) -> float:
    """The greedy value of playing ``c`` on ``led`` (None: leading) under ``trump``, when this
    card ends the trick (two players)."""
    pts = rules.card_points[c]
    if led is not None:
        at_stake = rules.card_points[led] + pts
        if rules.beats(c, led, trump):
            return at_stake - keep_value(rules, c, trump)
        # Losing: everything on the table goes to the opponent; lose the cheapest card.
        return -at_stake - keep_value(rules, c, trump)
    # Leading: the opponent answers; risk the card's points (scaled: it may still win) and
    # its worth as a trump. Low non-trumps come out best.
    return -0.8 * pts - keep_value(rules, c, trump)


def trick_so_far(rules, trick: Sequence[Card], leader: int, trump: str) -> tuple[Card, int, int]:
    """(the best card of a trick in progress, the seat that played it, the points on it)."""
    n = rules.players
    best, seat = trick[0], leader
    pts = rules.card_points[best]
    for i in range(1, len(trick)):
        c = trick[i]
        pts += rules.card_points[c]
        if rules.beats(c, best, trump):
            best, seat = c, (leader + i) % n
    return best, seat, pts


def after_me(rules, seat: int, played: int) -> tuple[bool, bool]:
    """(an opponent plays after ``seat`` in this trick, his partner does), ``played`` cards
    being on the table before his."""
    n = rules.players
    opp = mate = False
    me = rules.team_of(seat)
    for k in range(1, n - played):
        if rules.team_of((seat + k) % n) == me:
            mate = True
        else:
            opp = True
    return opp, mate


def team_top(rules, c: Card, best: Card, ours: bool, trump: str) -> tuple[bool, Card]:
    """(the side of the player of ``c`` holds the trick after it, the trick's best card then).
    On a partner's winning card a card that beats it counts as the partner's card: a trump
    over his winning card buys the side nothing (no trumping a partner's trick)."""
    if ours:
        if rules.beats(c, best, trump) and not (c.suit == trump and best.suit != trump):
            return True, c
        return True, best
    if rules.beats(c, best, trump):
        return True, c
    return False, best


def follow_value(
    rules,
    c: Card,
    best: Card,
    on_table: int,
    ours: bool,
    opp_after: bool,
    mate_after: bool,
    trump: str,
    chance: float | None = None,
) -> float:
    """The value of following with ``c``: (2·P − 1) × the points at stake − ``c``'s keep value,
    P the chance the player's side takes the trick (``chance`` when given, else 1 / 0 when
    the trick is decided, AHEAD / AHEAD_TRUMP / BEHIND when a player is still to come)."""
    stake = on_table + rules.card_points[c]
    ahead, top = team_top(rules, c, best, ours, trump)
    if chance is not None:
        p = chance
    elif ahead:
        p = (AHEAD_TRUMP if top.suit == trump else AHEAD) if opp_after else 1.0
    else:
        p = BEHIND if mate_after else 0.0
    return (2.0 * p - 1.0) * stake - keep_value(rules, c, trump)


def nobody_beats(pool_size: int, beaters: int, hand: int) -> float:
    """P(a hand of ``hand`` cards dealt from ``pool_size`` unseen holds none of ``beaters``)."""
    if beaters <= 0 or hand <= 0:
        return 1.0
    if pool_size - beaters < hand:
        return 0.0
    return comb(pool_size - beaters, hand) / comb(pool_size, hand)


def side_chance(ahead: bool, beaters: int, pool: int, later: Sequence[tuple[bool, int]]) -> float:
    """The chance the side of the player now playing takes the trick: ``ahead`` whether it
    holds the trick's best card after his card, ``beaters`` how many of the ``pool`` cards the
    other seats may hold beat that card, ``later`` (is a partner, hand size) for each player
    still to come, in order. The beaters are taken as dealt at random: the side ahead keeps
    the trick when no opponent after holds one (a partner after that opponent taking it back
    counts as even), the side behind gets it when the partner after holds one."""
    if ahead:
        p = 1.0
        opp_seen = False
        for mate, h in later:
            if not mate:
                p *= nobody_beats(pool, beaters, h)
                opp_seen = True
            elif opp_seen:
                # A partner after the opponent may take it back: half the lost chance.
                p += (1.0 - p) * 0.5 * (1.0 - nobody_beats(pool, beaters, h))
        return p
    for mate, h in later:
        if mate:
            return 1.0 - nobody_beats(pool, beaters, h)
    return 0.0


def win_chance(rules, view, c: Card, best: Card, ours: bool, others: Collection[Card]) -> float:
    """Four players, from ``view``: the chance the side of the seat to act takes the trick if
    it plays ``c`` (:func:`side_chance`). ``others``: the cards the other seats may hold
    (unseen, or known)."""
    trump = view.trump_suit
    n = view.players
    seat = view.seat
    ahead, top = team_top(rules, c, best, ours, trump)
    k = sum(1 for x in others if x is not c and rules.beats(x, top, trump))
    me = rules.team_of(seat)
    later = [
        (rules.team_of(s) == me, view.hand_counts[s]) for s in ((seat + i) % n for i in range(1, n - len(view.trick)))
    ]
    return side_chance(ahead, k, len(others), later)


def evaluate(rules, view, action: Action) -> float:
    """The greedy value of ``action`` for the seat of ``view``: :func:`play_value` leading or
    with two players, :func:`follow_value` with the chance from the view (:func:`win_chance`)
    following with four."""
    c = action.played
    trump = view.trump_suit
    if not view.trick:
        return play_value(rules, c, None, trump)
    if view.players == 2:
        return play_value(rules, c, view.trick[0], trump)
    n = view.players
    leader = (view.to_act - len(view.trick)) % n
    best, best_seat, on_table = trick_so_far(rules, view.trick, leader, trump)
    ours = rules.team_of(best_seat) == rules.team_of(view.seat)
    others = set(view.unseen) | set(view.opponent_known)
    p = win_chance(rules, view, c, best, ours, others)
    return follow_value(rules, c, best, on_table, ours, False, False, trump, chance=p)
