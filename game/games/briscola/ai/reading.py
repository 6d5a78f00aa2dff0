"""Briscola AI: card reading and determinization.

Briscola has no duty to follow suit or to trump, so play gives no hard clue about a hand.
What a seat knows beyond its hand and the table: the turned trump lies under the stock (drawn
last), and once drawn it is in the drawer's hand until played (``view.opponent_known``).
Determinizations deal the other unseen cards at random into the other hands and the face
down part of the stock, the hand of the player who made the last play drawn in proportion to
how well it explains that play (card reading, tuning.CARD_READING).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from itertools import accumulate, combinations

import game.games.briscola.ai.tuning as tuning
from game.ai.determinize import check_count, hidden_cards, sample_by_likelihood, split_hidden, without
from game.cards import Card
from game.games.briscola.heuristics import after_me, follow_value, play_value, trick_so_far
from game.games.briscola.rules import BriscolaRules, BriscolaState, BriscolaView

#: Two players: cards drawn from the stock before it runs out: 34 cards, two per trick,
#: tricks 0–16 (four players: 28 cards, four per trick, tricks 0–6 — ``_last_draw_trick``).
_LAST_DRAW_TRICK = 16


def _last_draw_trick(rules: BriscolaRules) -> int:
    """The last trick after which the players draw (counted from 0)."""
    return rules.stock_size // rules.players - 1


def _play_likelihood(rules: BriscolaRules, hand: list[Card], played: Card, led: Card | None, trump: str) -> float:
    """P(the model plays ``played`` from ``hand``) — hand includes the played card."""
    return _model_likelihood({x: play_value(rules, x, led, trump) for x in hand}, hand, played)


def _clues(view: BriscolaView, plays: int | None = None) -> list[tuple[Card, Card | None, bool]]:
    """The opponent's most recent plays, the latest first, at most ``plays`` of them
    (tuning.READ_PLAYS): (card, the card it answered or None when it led, whether he drew a
    card after it). Empty before he has played."""
    opp = 1 - view.seat
    hist = view.history
    completed = len(hist) // 2
    out: list[tuple[Card, Card | None, bool]] = []
    limit = tuning.READ_PLAYS if plays is None else plays
    for j in range(len(hist) - 1, -1, -1):
        if len(out) >= limit:
            break
        if hist[j][0] != opp:
            continue
        led = None if j % 2 == 0 else hist[j - 1][1]
        trick = j // 2
        out.append((hist[j][1], led, trick < completed and trick <= _LAST_DRAW_TRICK))
    return out


def _last_clue(view: BriscolaView) -> tuple[Card, Card | None, bool] | None:
    """The opponent's most recent play: (card, the card it answered or None when it led,
    whether it has drawn one card since). None before he has played."""
    found = _clues(view, 1)
    return found[0] if found else None


def _clue_likelihood(
    rules: BriscolaRules, view: BriscolaView, clue: tuple[Card, Card | None, bool], opp_hand: list[Card]
) -> float:
    """How likely the opponent's last play was had he held ``opp_hand`` now."""
    card, led, drew = clue
    vals = {x: play_value(rules, x, led, view.trump_suit) for x in (*view.unseen, *view.opponent_known, card)}
    if not drew:
        return _model_likelihood(vals, [card, *opp_hand], card)
    if view.stock_count == 0 and view.trump_drawn_by == 1 - view.seat and view.trump_card in opp_hand:
        # The last draw gave him the turned trump: the rest of his hand he held before.
        before = [x for x in opp_hand if x is not view.trump_card]
        return _model_likelihood(vals, [card, *before], card)
    # One of his cards is new, we do not know which: average over the three.
    total = 0.0
    for i in range(len(opp_hand)):
        total += _model_likelihood(vals, [card, *opp_hand[:i], *opp_hand[i + 1 :]], card)
    return total / len(opp_hand)


class _Reading:
    """Card reading of one two-player view: how likely the opponent's recent plays (``clues``,
    the latest first) all were had he held a given hand now. His hand before each play is
    rebuilt backwards — the card he played put back, the card he drew after it (one of the
    hand's, we do not know which: averaged over them) taken out — and the model's chances of
    the plays multiplied. Only used while the stock still hides cards (the turned trump is
    then in no hand). The hands before the older plays repeat from one hand to the next, so
    their values are remembered."""

    def __init__(self, rules: BriscolaRules, view: BriscolaView, clues: list[tuple[Card, Card | None, bool]]) -> None:
        self.clues = clues
        pool = (*view.unseen, *view.opponent_known, *(c for c, _, _ in clues))
        self.values = [{x: play_value(rules, x, led, view.trump_suit) for x in pool} for _, led, _ in clues]
        self._memo: dict[tuple[int, frozenset[Card]], float] = {}
        self._posterior: tuple[list[tuple[Card, ...]], list[float]] | None = None

    def likelihood(self, hand: list[Card]) -> float:
        """P(the model makes the clues' plays | the opponent holds ``hand`` now)."""
        return self._back(0, hand)

    def _back(self, k: int, after: list[Card] | tuple[Card, ...]) -> float:
        card, _, drew = self.clues[k]
        options = [[*after[:i], *after[i + 1 :]] for i in range(len(after))] if drew and after else [list(after)]
        total = 0.0
        last = k == len(self.clues) - 1
        for held in options:
            before = [card, *held]
            p = _model_likelihood(self.values[k], before, card)
            if not last:
                key = (k + 1, frozenset(before))
                rest = self._memo.get(key)
                if rest is None:
                    rest = self._memo[key] = self._back(k + 1, before)
                p *= rest
            total += p
        return total / len(options)

    def sample(self, rng: random.Random, hidden: list[Card], need: int, known: list[Card]) -> list[Card]:
        """``need`` of the ``hidden`` cards for his hand (beside the ``known`` ones), drawn in
        proportion to :meth:`likelihood`: every such hand is weighed once per view, then each
        determinization is one draw from the table."""
        if self._posterior is None:
            hands = list(combinations(hidden, need))
            self._posterior = (hands, list(accumulate(self.likelihood([*known, *h]) for h in hands)))
        hands, cumulative = self._posterior
        return list(hands[min(bisect_right(cumulative, rng.random() * cumulative[-1]), len(hands) - 1)])


_read_cache_2p: dict[int, tuple[object, int, _Reading]] = {}


def _reading(rules: BriscolaRules, view: BriscolaView) -> _Reading | None:
    """The view's card reading (tuning.READ_PLAYS clues), made once per view: the search
    determinizes the same view thousands of times. None before the opponent has played."""
    cached = _read_cache_2p.get(id(view))
    if cached is not None and cached[0] is view and cached[1] == tuning.READ_PLAYS:
        return cached[2]
    clues = _clues(view)
    if not clues:
        return None
    reading = _Reading(rules, view, clues)
    if len(_read_cache_2p) > 64:
        _read_cache_2p.clear()
    _read_cache_2p[id(view)] = (view, tuning.READ_PLAYS, reading)
    return reading


def _clues_likelihood(
    rules: BriscolaRules, view: BriscolaView, clues: list[tuple[Card, Card | None, bool]], opp_hand: list[Card]
) -> float:
    """How likely the opponent's recent plays (``clues``, the latest first) all were had he
    held ``opp_hand`` now (:class:`_Reading`; one clue: exactly :func:`_clue_likelihood`)."""
    reading = _reading(rules, view)
    if reading is not None and reading.clues == clues:
        return reading.likelihood(opp_hand)
    return _Reading(rules, view, clues).likelihood(opp_hand)


def _determinize_2p(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """Two players: the opponent's hand drawn by card reading (``_clue_likelihood``), the rest
    of the unseen cards shuffled into the stock."""
    me = view.seat
    opp = 1 - me
    known = list(view.opponent_known)
    hidden = hidden_cards(view.unseen)
    stock_hidden = view.stock_count - 1 if view.stock_count else 0
    need = view.hand_counts[opp] - len(known)
    if need < 0:
        raise ValueError(f"the opponent holds {view.hand_counts[opp]} cards but {len(known)} are known")
    check_count(hidden, need + stock_hidden)
    reading = _reading(rules, view) if tuning.CARD_READING and need and stock_hidden else None
    if reading is None:
        drawn, stock = split_hidden(rng, hidden, need)
    else:
        drawn = reading.sample(rng, hidden, need, known)
        stock = without(hidden, drawn)
        rng.shuffle(stock)
    opp_hand = known + drawn
    if view.stock_count:
        stock.append(view.trump_card)
    hands = [list(view.hand), opp_hand] if me == 0 else [opp_hand, list(view.hand)]
    return BriscolaState(
        players=view.players,
        dealer=view.dealer,
        number=1,
        hands=hands,
        stock=stock,
        trump_card=view.trump_card,
        trump_suit=view.trump_suit,
        piles=[list(p) for p in view.piles],
        points=list(view.points),
        to_act=view.to_act,
        led=view.trick[0] if view.trick else None,
        over=False,
        trump_drawn_by=view.trump_drawn_by,
        history=list(view.history),
    )


_read_cache: dict[int, tuple[object, dict[Card, float]]] = {}


def _last_clue_team(rules: BriscolaRules, view: BriscolaView) -> tuple | None:
    """Four players: the most recent play by another seat, as (seat, card, the trick's cards
    before it, whether he has drawn a card since) — None before anyone else has played."""
    n = view.players
    hist = view.history
    for j in range(len(hist) - 1, -1, -1):
        if hist[j][0] != view.seat:
            break
    else:
        return None
    p, played = hist[j]
    start = j - j % n
    before = tuple(c for _, c in hist[start:j])
    trick = j // n
    drew = trick < len(hist) // n and trick <= _last_draw_trick(rules)
    return p, played, before, drew


def _clue_values(rules: BriscolaRules, view: BriscolaView, clue: tuple) -> dict[Card, float]:
    """The sensible-player model's value of every card the clue's player may have held, in
    the trick as he found it (heuristics: play_value leading, follow_value
    following, with the fixed chances). Cached per view: the search asks once per iteration."""
    cached = _read_cache.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]
    p, played, before, _ = clue
    trump = view.trump_suit
    pool = [*view.unseen, *view.opponent_known, played]
    if not before:
        vals = {x: play_value(rules, x, None, trump) for x in pool}
    else:
        leader = (p - len(before)) % view.players
        best, best_seat, on_table = trick_so_far(rules, before, leader, trump)
        ours = rules.team_of(best_seat) == rules.team_of(p)
        opp_after, mate_after = after_me(rules, p, len(before))
        vals = {x: follow_value(rules, x, best, on_table, ours, opp_after, mate_after, trump) for x in pool}
    if len(_read_cache) > 64:
        _read_cache.clear()
    _read_cache[id(view)] = (view, vals)
    return vals


def _model_likelihood(vals: dict[Card, float], hand: list[Card], played: Card) -> float:
    """P(the sensible-player model plays ``played`` from ``hand``) — hand includes it."""
    top = max(vals[x] for x in hand)
    z = 0.0
    mine = 0.0
    for x in hand:
        e = math.exp((vals[x] - top) / tuning.TEMPERATURE)
        z += e
        if x is played:
            mine = e
    return (1.0 - tuning.UNIFORM) * mine / z + tuning.UNIFORM / len(hand)


def _team_clue_likelihood(view: BriscolaView, clue: tuple, vals: dict[Card, float], hand: list[Card]) -> float:
    """How likely the clue's play was had its player held ``hand`` now (a drawn card averaged
    out, as with two players)."""
    p, played, _, drew = clue
    if not drew or not hand:
        return _model_likelihood(vals, [played, *hand], played)
    if view.stock_count == 0 and view.trump_drawn_by == p and view.trump_card in hand:
        held = [x for x in hand if x is not view.trump_card]
        return _model_likelihood(vals, [played, *held], played)
    total = 0.0
    for i in range(len(hand)):
        total += _model_likelihood(vals, [played, *hand[:i], *hand[i + 1 :]], played)
    return total / len(hand)


def _team_need(view: BriscolaView) -> tuple[list[list[Card]], list[int], list[Card]]:
    """Four players: (each hand's known cards, the unseen cards each other hand needs besides
    them, the unseen cards in deck order), checked against the view's counts."""
    n = view.players
    known: list[list[Card]] = [[] for _ in range(n)]
    drawer = view.trump_drawn_by  # set whenever a card is known in another hand
    if drawer is not None and view.opponent_known:
        known[drawer].extend(view.opponent_known)
    need = [0 if s == view.seat else view.hand_counts[s] - len(known[s]) for s in range(n)]
    if min(need) < 0:
        raise ValueError(f"a hand holds fewer cards than are known in it ({view.hand_counts})")
    hidden = hidden_cards(view.unseen)
    check_count(hidden, sum(need) + (view.stock_count - 1 if view.stock_count else 0))
    return known, need, hidden


def _team_state(view: BriscolaView, hands: list[list[Card]], stock: list[Card]) -> BriscolaState:
    trick = view.trick
    return BriscolaState(
        players=view.players,
        dealer=view.dealer,
        number=1,
        hands=hands,
        stock=stock,
        trump_card=view.trump_card,
        trump_suit=view.trump_suit,
        piles=[list(p) for p in view.piles],
        points=list(view.points),
        to_act=view.to_act,
        led=trick[0] if trick else None,
        over=False,
        trump_drawn_by=view.trump_drawn_by,
        history=list(view.history),
        following=list(trick[1:]),
    )


def _determinize_team(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """Four players: the hand of the seat that played last drawn by card reading, the other
    unseen cards shuffled into the other two hands and the stock (the turned trump last, or in
    its known drawer's hand)."""
    n = view.players
    me = view.seat
    known, need, hidden = _team_need(view)
    hands = [list(view.hand) if s == me else list(known[s]) for s in range(n)]
    pool = hidden
    read = None
    clue = _last_clue_team(rules, view) if tuning.CARD_READING else None
    if clue is not None and 0 < need[clue[0]] < len(hidden):
        read = clue[0]
        vals = _clue_values(rules, view, clue)
        base = known[read]
        pick = sample_by_likelihood(
            rng, hidden, need[read], lambda pk: _team_clue_likelihood(view, clue, vals, base + pk), tuning.READ_TRIES
        )
        hands[read] = base + pick
        pool = without(hidden, pick)
    else:
        pool = list(hidden)
    rng.shuffle(pool)
    i = 0
    for s in range(n):
        if s != me and s != read:
            hands[s] += pool[i : i + need[s]]
            i += need[s]
    stock = pool[i:]
    if view.stock_count:
        stock.append(view.trump_card)
    return _team_state(view, hands, stock)


def determinize(rules: BriscolaRules, view: BriscolaView, rng: random.Random) -> BriscolaState:
    """A full state with this view: the unseen cards dealt at random into the other hands and
    the stock, the turned trump at the bottom of the stock (or with its known drawer). With
    CARD_READING the hand of the player who made the last play is drawn in proportion to how
    well it explains that play (``_clue_likelihood``, ``_team_clue_likelihood``)."""
    if view.players == 2:
        return _determinize_2p(rules, view, rng)
    return _determinize_team(rules, view, rng)
