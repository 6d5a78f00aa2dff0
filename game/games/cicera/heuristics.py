"""Greedy evaluation for Cìcera: what a play wins for the team, minus what it hands the next seat.

The next seat is always an opponent (partners sit opposite), so a placed card risks a picada
and a small table risks a scùa. Values are in deal points (most cards +2 over 52 cards, most
Swords +1, the special cards +1 each, the napula its run length).
"""

from __future__ import annotations

from game.cards import Card
from game.rules.base import Action
from game.rules.capture import captured

CARD_WORTH = 0.1  # one card's share of the "most cards" +2
SUIT_WORTH = 0.12  # one Sword's share of "most Swords" +1
NAPULA_WORTH = {"A": 0.9, "2": 0.9, "3": 0.9, "4": 0.4, "5": 0.3, "6": 0.25, "7": 0.2, "8": 0.15, "9": 0.1, "10": 0.1}


def card_worth(rules, c: Card) -> float:
    """Rough worth, in deal points, of owning card ``c`` at the end of the deal."""
    w = CARD_WORTH
    if c.suit == rules.most_suit:
        w += SUIT_WORTH
    w += rules.special_cards.get(c, 0)
    if c in rules.napula_run:
        w += NAPULA_WORTH.get(c.rank, 0.1)
    return w


def _p_holds(unseen: frozenset[Card], hand_count: int, wanted) -> float:
    """Chance that a hand of ``hand_count`` cards drawn from ``unseen`` holds a card ``wanted`` accepts."""
    u = len(unseen)
    k = sum(1 for c in unseen if wanted(c))
    if u == 0 or k == 0 or hand_count <= 0:
        return 0.0
    miss = 1.0
    for i in range(min(hand_count, u)):
        if u - i <= 0:
            break
        miss *= max(0.0, (u - k - i) / (u - i))
    return 1.0 - miss


def _sweep_threat(rules, table: list[Card]) -> tuple[str | None, int | None]:
    """What single card clears ``table`` in one capture: (rank, None) for a lone card,
    (None, value) for numerals that add up to at most the top value; (None, None) if nothing does."""
    if not table:
        return None, None
    if len(table) == 1:
        return table[0].rank, None
    total = 0
    for t in table:
        v = rules.values.get(t)
        if v is None:
            return None, None
        total += v
    return (None, total) if total <= rules.max_value else (None, None)


def evaluate(rules, view, action: Action) -> float:
    table = list(view.table)
    c = action.played
    cap = captured(action)
    score = 0.0
    if cap:
        score += card_worth(rules, c) + sum(card_worth(rules, t) for t in cap)
        bonus_pts = dict(zip(("scua", "picada", "simili", "quadriglia"), rules.bonus_points))
        score += sum(bonus_pts[b] for b in rules.capture_bonuses(c, cap, table, view.last_placed))
        left = [t for t in table if t not in cap]
    else:
        left = table + [c]
    nxt = (view.seat + 1) % view.players
    h = view.hand_counts[nxt]
    if h == 0:
        return score
    unseen = view.unseen
    if not cap:
        # The next seat (an opponent) may take the card just placed by rank: a picada.
        p = _p_holds(unseen, h, lambda x: x.rank == c.rank)
        score -= p * (1.0 + 2 * card_worth(rules, c))
    rank, value = _sweep_threat(rules, left)
    if rank is not None or value is not None:
        if rank is not None:
            p = _p_holds(unseen, h, lambda x: x.rank == rank)
        else:
            p = _p_holds(unseen, h, lambda x: rules.values.get(x) == value)
        gain = 1.0 + sum(card_worth(rules, t) for t in left) + (1.0 if len(left) >= rules.quadriglia_min else 0.0)
        score -= p * gain
    return score
