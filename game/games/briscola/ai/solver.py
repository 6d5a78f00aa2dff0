"""Briscola AI: the exact solver for the end of the deal, two players (four players:
:mod:`game.games.briscola.ai.team_solver`, to which ``solve`` hands over).

Once the stock is gone the view fixes the state; with one or two draws left every deal of
the unseen cards is solved (tuning.EXACT_STOCK), or a fixed sample of them
(tuning.SAMPLED_STOCK, tuning.WORLDS: PIMC with exact play).
"""

from __future__ import annotations

import random
from itertools import combinations

import game.games.briscola.ai.tuning as tuning
from game.ai.determinize import hidden_cards
from game.cards import Card
from game.games.briscola.ai.reading import _clues, _clues_likelihood, determinize
from game.games.briscola.ai.team_solver import _solve_team
from game.games.briscola.ai.values import _utility_of_margin
from game.games.briscola.rules import BriscolaRules, BriscolaState, BriscolaView
from game.rules.base import Action


def complete(rules: BriscolaRules, view: BriscolaView) -> bool:
    """Two players: the stock is gone (the opponent holds exactly the unseen cards), or only
    the last draws remain (few worlds: all solved, or a sample). Four: the stock is gone."""
    if view.players == 2:
        return view.stock_count <= max(tuning.EXACT_STOCK, tuning.SAMPLED_STOCK)
    return view.stock_count == 0 and sum(view.hand_counts) <= tuning.SOLVE_CARDS_4P


def _negamax(
    rules: BriscolaRules,
    hands: list[list[Card]],
    to_act: int,
    led: Card | None,
    stock: list[Card],
    trump: str,
    alpha: int = -999,
    beta: int = 999,
) -> int:
    """Card points the side to act gains minus what the other side gains from here on, both
    playing perfectly on the known cards (alpha-beta; small trees: at most 5 tricks)."""
    mine = hands[to_act]
    if led is None:
        if not mine:
            return 0
        if len(mine) == 1 and not stock:
            # The last trick: nothing to choose (a leaf shortcut; most nodes are here).
            c, r = mine[0], hands[1 - to_act][0]
            pts = rules.card_points[c] + rules.card_points[r]
            if r.suit == c.suit:
                return -pts if rules.strength[r] > rules.strength[c] else pts
            return -pts if r.suit == trump else pts
        for i in range(len(mine)):
            c = mine.pop(i)
            v = -_negamax(rules, hands, 1 - to_act, c, stock, trump, -beta, -alpha)
            mine.insert(i, c)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
        return alpha
    cp = rules.card_points
    st = rules.strength
    leader = 1 - to_act
    led_suit = led.suit
    led_pts = cp[led]
    for i in range(len(mine)):
        c = mine.pop(i)
        # rules.beats, inlined: this solver runs at the end of every hard playout and in
        # ``solve``, and the call costs the whole playout about 5 % (measured).
        if c.suit == led_suit:
            winner = to_act if st[c] > st[led] else leader
        else:
            winner = to_act if c.suit == trump else leader
        pts = led_pts + cp[c]
        # The value for to_act is pts + sub (to_act wins and leads) or −(pts + sub) (the other
        # side wins and leads); translate the window to the next leader's view.
        if winner == to_act:
            lo, hi = alpha - pts, beta - pts
        else:
            lo, hi = -beta - pts, -alpha - pts
        if stock:
            hands[winner].append(stock[0])
            hands[1 - winner].append(stock[1])
            sub = pts + _negamax(rules, hands, winner, None, stock[2:], trump, lo, hi)
            hands[winner].pop()
            hands[1 - winner].pop()
        else:
            sub = pts + _negamax(rules, hands, winner, None, stock, trump, lo, hi)
        mine.insert(i, c)
        v = sub if winner == to_act else -sub
        if v > alpha:
            alpha = v
            if alpha >= beta:
                break
    return alpha


def _exact_margins(rules: BriscolaRules, state: BriscolaState, seat: int) -> dict[Action, int]:
    """Final deal margin (seat minus opponent) per legal action on a fully known state."""
    hands = [list(h) for h in state.hands]
    base = state.points[seat] - state.points[1 - seat]
    to_act = state.to_act
    out: dict[Action, int] = {}
    mine = hands[to_act]
    for a in rules.legal_actions(state):
        c = a.played
        i = mine.index(c)
        mine.pop(i)
        if state.led is None:
            v = -_negamax(rules, hands, 1 - to_act, c, list(state.stock), state.trump_suit)
        else:
            led = state.led
            winner = to_act if rules.beats(c, led, state.trump_suit) else 1 - to_act
            pts = rules.card_points[led] + rules.card_points[c]
            stock = list(state.stock)
            if stock:
                hands[winner].append(stock[0])
                hands[1 - winner].append(stock[1])
            sub = pts + _negamax(rules, hands, winner, None, stock[2:], state.trump_suit)
            if stock:
                hands[winner].pop()
                hands[1 - winner].pop()
            v = sub if winner == to_act else -sub
        mine.insert(i, c)
        out[a] = v if to_act == seat else -v
    return {a: base + v for a, v in out.items()}


def solve(rules: BriscolaRules, state: BriscolaState, seat: int) -> dict[Action, float] | None:
    """Exact values for ``seat`` (to act): with the stock gone the state is the truth; with
    only the last draw left the mean utility over every placement of the unseen cards
    (PIMC over all worlds — only what ``seat`` sees is used, never the sampled state's hidden
    cards). Four players: ``_solve_team``."""
    if state.players != 2:
        return _solve_team(rules, state, seat)
    if not state.stock:
        return {a: _utility_of_margin(m) for a, m in _exact_margins(rules, state, seat).items()}
    view = rules.view(state, seat)
    if view.stock_count > tuning.EXACT_STOCK:
        # Too many worlds to enumerate: a fixed sample. The rng is seeded from the view alone,
        # so the answer cannot depend on the sampled state's hidden cards.
        key = " ".join(c.code for c in view.hand) + "|" + " ".join(c.code for _, c in view.history)
        rng = random.Random(key)
        totals: dict[Action, float] = {}
        for _ in range(tuning.WORLDS):
            w = determinize(rules, view, rng)
            for a, m in _exact_margins(rules, w, seat).items():
                totals[a] = totals.get(a, 0.0) + _utility_of_margin(m)
        return {a: t / tuning.WORLDS for a, t in totals.items()}
    known = list(view.opponent_known)
    hidden = hidden_cards(view.unseen)
    opp = 1 - seat
    k = view.hand_counts[opp] - len(known)
    totals = {}
    worlds = 0.0
    clues = _clues(view) if tuning.CARD_READING and k else []
    for combo in combinations(range(len(hidden)), k):
        chosen = set(combo)
        w = rules.clone(state)
        w.hands[opp] = known + [hidden[j] for j in combo]
        w.stock = [hidden[j] for j in range(len(hidden)) if j not in chosen]
        if view.stock_count:
            w.stock.append(view.trump_card)
        if len(w.stock) > 2:
            # Orderings of a bigger stock would matter; EXACT_STOCK keeps us at one hidden card.
            raise ValueError("solve: more than one hidden stock card")
        # Each world counts as much as it explains the opponent's recent plays (card reading).
        weight = _clues_likelihood(rules, view, clues, w.hands[opp]) if clues else 1.0
        for a, m in _exact_margins(rules, w, seat).items():
            totals[a] = totals.get(a, 0.0) + weight * _utility_of_margin(m)
        worlds += weight
    return {a: t / worlds for a, t in totals.items()}
