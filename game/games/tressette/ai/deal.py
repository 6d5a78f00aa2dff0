"""Tressette AI: determinization. Known cards stay in their hands (with two players every
card drawn from the stock is shown to both), and the unseen cards are dealt so that no hand
gets a suit it showed void in (``view.voids``): a constrained deal (:func:`deal_around_voids`).
"""

from __future__ import annotations

import random
from itertools import combinations

import game.games.tressette.ai.tuning as tuning
from game.ai.determinize import check_count, hidden_cards, split_hidden
from game.cards import Card
from game.games.tressette.rules import TressetteRules, TressetteState, TressetteView


def _feasible(counts: dict[str, int], caps: list[int], forbidden: list[frozenset[str]]) -> bool:
    """Hall's condition: every set of suits has room enough in the slots that accept them."""
    suits = [s for s, n in counts.items() if n]
    for k in range(1, len(suits) + 1):
        for group in combinations(suits, k):
            need = sum(counts[s] for s in group)
            room = sum(c for c, f in zip(caps, forbidden) if any(s not in f for s in group))
            if need > room:
                return False
    return True


def deal_around_voids(
    rng: random.Random, hidden: list[Card], caps: list[int], forbidden: list[frozenset[str]]
) -> list[list[Card]]:
    """``hidden`` dealt at random into slots of ``caps`` cards, no slot getting a suit it
    forbids. A few plain uniform deals are tried first (exactly uniform when one fits);
    otherwise the most constrained slots are filled first, each with a random sample of the
    cards it may hold that leaves the rest dealable (Hall's condition on the suit counts)."""
    if sum(caps) != len(hidden):
        raise ValueError(f"{len(hidden)} hidden cards for slots of {sum(caps)}")
    cards = list(hidden)
    if not any(forbidden):
        rng.shuffle(cards)
        out, i = [], 0
        for n in caps:
            out.append(cards[i : i + n])
            i += n
        return out
    for _ in range(tuning.UNIFORM_TRIES):
        rng.shuffle(cards)
        out, i, ok = [], 0, True
        for n, f in zip(caps, forbidden):
            part = cards[i : i + n]
            if f and any(c.suit in f for c in part):
                ok = False
                break
            out.append(part)
            i += n
        if ok:
            return out
    slots = sorted(range(len(caps)), key=lambda j: -len(forbidden[j]))
    out = [[] for _ in caps]
    pool = list(hidden)
    left_caps = list(caps)
    for j in slots:
        left_caps[j] = 0
        allowed = [c for c in pool if c.suit not in forbidden[j]]
        if len(allowed) < caps[j]:
            allowed = list(pool)  # impossible in a real deal: drop the constraint, never fail
        pick = rng.sample(allowed, caps[j])
        for _ in range(20):
            rest = [c for c in pool if c not in set(pick)]
            counts = {s: 0 for s in "DCSB"}
            for c in rest:
                counts[c.suit] += 1
            if _feasible(counts, left_caps, forbidden):
                break
            pick = rng.sample(allowed, caps[j])
        taken = set(pick)
        pool = [c for c in pool if c not in taken]
        out[j] = pick
    return out


def determinize(rules: TressetteRules, view: TressetteView, rng: random.Random) -> TressetteState:
    """A full state with this view: the other hands hold their known cards (public draws)
    and, around them, unseen cards of no suit they showed void in; the rest is the stock."""
    n = view.players
    me = view.seat
    hidden = hidden_cards(view.unseen)
    need = [view.hand_counts[s] - len(view.known[s]) if s != me else 0 for s in range(n)]
    if min(need) < 0:
        raise ValueError(f"a hand holds fewer cards than are known in it ({view.hand_counts}, {view.known})")
    check_count(hidden, sum(need) + view.stock_count)
    hands: list[list[Card]] = [[] for _ in range(n)]
    stock: list[Card] = []
    if n == 2:
        opp = 1 - me
        void = view.voids[opp]
        excluded = [c for c in hidden if c.suit in void] if void else ()
        dealt, stock = split_hidden(rng, hidden, need[opp], excluded)
        hands[opp] = list(view.known[opp]) + dealt
    else:
        others = [s for s in range(n) if s != me]
        parts = deal_around_voids(rng, hidden, [need[s] for s in others], [view.voids[s] for s in others])
        for s, part in zip(others, parts):
            hands[s] = list(view.known[s]) + part
    hands[me] = list(view.hand)
    teams = rules.teams
    piles: list[list[Card]] = [[] for _ in range(teams)]
    # The piles are public: every trick was seen. Rebuild them from the history.
    hist = view.history
    done = len(hist) - len(view.trick)
    leader = None
    for k in range(0, done, n):
        cs = [c for _, c in hist[k : k + n]]
        leader = hist[k][0]
        w = rules.trick_winner(cs, leader)
        piles[rules.team_of(w)] += cs
    return TressetteState(
        players=n,
        dealer=view.dealer,
        number=1,
        hands=hands,
        stock=stock,
        leader=view.leader,
        to_act=view.to_act,
        trick=list(view.trick),
        piles=piles,
        thirds=list(view.thirds),
        tricks=list(view.tricks),
        last_trick=None,
        over=False,
        known=[list(k) for k in view.known],
        voids=list(view.voids),
        history=list(hist),
    )
