"""Search hooks for Scopa (2, 3 or 4 players): determinize, utility, playout policy, prior.

Everything a seat has seen is in its hand, on the table or in a pile (the history only repeats
what the piles and table show), and Scopa gives no other clue about a hand, so the unseen
cards are exactly the other hands plus the stock, in any arrangement with the right counts.
"""
from __future__ import annotations

import math
import random

from game.ai.heuristics_scopa import evaluate, play_score
from game.cards import Card
from game.rules.base import Action
from game.rules.capture import sums_by_value
from game.rules.scopa import ScopaRules, ScopaState, ScopaView

#: Deal-point margins are divided by this so utilities sit roughly in [-1, 1].
SCALE = 4.0
#: Chance that the playout policy plays a uniformly random card instead of its greedy choice.
EPSILON = 0.05
#: Smart playout: worth of a scopa, and of the next seat surely holding the card that sweeps.
SCOPA_BONUS = 6.0
SWEEP_RISK = 6.0


def deal_hidden(view, rng: random.Random, stock_count: int,
                preset: tuple[int, list[Card]] | None = None) -> tuple[list[list[Card]], list[Card]]:
    """The seat's own hand plus the unseen cards dealt at random into the other hands (with
    their counts) and a stock of ``stock_count``. ``preset`` = (seat, cards) gives one other
    seat a hand already chosen from the unseen cards. Shared by the fishing games' hooks."""
    # Sorted first: a frozenset's order is not reproducible, the bot's rng must be.
    hidden = sorted(view.unseen, key=lambda c: c.index)
    need = sum(n for s, n in enumerate(view.hand_counts) if s != view.seat) + stock_count
    if len(hidden) != need:
        raise ValueError(f"the view hides {len(hidden)} cards but the hands and stock hold {need}")
    if preset is not None:
        taken = set(preset[1])
        hidden = [c for c in hidden if c not in taken]
    rng.shuffle(hidden)
    hands: list[list[Card]] = []
    i = 0
    for s, n in enumerate(view.hand_counts):
        if s == view.seat:
            hands.append(list(view.hand))
        elif preset is not None and s == preset[0]:
            hands.append(list(preset[1]))
        else:
            hands.append(hidden[i:i + n])
            i += n
    return hands, hidden[i:]


#: Card reading: when the seat before this one has just played from a hand it still holds
#: cards of, determinizations give it hands in proportion to how well they explain that play
#: under a "sensible player" model (a softmax over the greedy evaluation, READ_TEMPERATURE
#: points wide, mixed with READ_UNIFORM random play). Why: a player who drops a card on the
#: table when he could have taken one most likely had nothing to take with. Rejection
#: sampling, at most READ_TRIES draws of that hand.
CARD_READING = True
READ_TEMPERATURE = 1.5
READ_UNIFORM = 0.15
READ_TRIES = 24
_read_cache: dict[int, tuple[object, object]] = {}


def _option_values(rules: ScopaRules, table: list[Card], c: Card, sums: dict) -> dict:
    """The greedy evaluation of every legal play of ``c`` on ``table`` (mid-deal), keyed by
    the captured cards (a frozenset; empty: placed)."""
    values = rules.values
    matches = [(t,) for t in table if values[t] == values[c]]
    caps = matches or sums.get(values[c]) or [()]
    return {frozenset(cap): play_score(rules, table, c, cap) for cap in caps}


def _reading(rules: ScopaRules, view: ScopaView) -> tuple[int, dict, float] | None:
    """What the previous play says about its player's hand: (seat, option values per hand
    card, the value of the play he made) — None when there is nothing to read (no play yet,
    this seat's own, or a hand dealt since)."""
    if not CARD_READING or not view.history:
        return None
    cached = _read_cache.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]  # type: ignore[return-value]
    p, played, cap = view.history[-1]
    out = None
    if p != view.seat and 0 < view.hand_counts[p] < rules.hand_size:
        table = list(view.table)
        if cap:
            table += cap
        else:
            table.remove(played)
        sums = sums_by_value(table, rules.values, rules.max_value) if len(table) > 1 else {}
        per_card = {c: list(_option_values(rules, table, c, sums).values()) for c in [*view.unseen, played]}
        made = _option_values(rules, table, played, sums)[frozenset(cap)]
        out = (p, per_card, made)
    if len(_read_cache) > 64:
        _read_cache.clear()
    _read_cache[id(view)] = (view, out)
    return out


def _read_likelihood(reading: tuple[int, dict, float], hand: list[Card], played: Card) -> float:
    """P(the model makes the play it made) if its player held ``hand`` besides ``played``."""
    _, per_card, made = reading
    opts = list(per_card[played])
    for c in hand:
        opts += per_card[c]
    top = max(opts)
    z = sum(math.exp((v - top) / READ_TEMPERATURE) for v in opts)
    return (1.0 - READ_UNIFORM) * math.exp((made - top) / READ_TEMPERATURE) / z + READ_UNIFORM / len(opts)


def determinize(rules: ScopaRules, view: ScopaView, rng: random.Random) -> ScopaState:
    """A full state with this view: the unseen cards dealt at random into hands and stock —
    the previous player's hand drawn in proportion to how well it explains his play (card
    reading, see ``_reading``)."""
    reading = _reading(rules, view)
    if reading is None:
        hands, stock = deal_hidden(view, rng, view.stock_count)
    else:
        p = reading[0]
        played = view.history[-1][1]
        hidden = sorted(view.unseen, key=lambda c: c.index)
        for _ in range(READ_TRIES):
            pick = rng.sample(hidden, view.hand_counts[p])
            if rng.random() < _read_likelihood(reading, pick, played):
                break
        hands, stock = deal_hidden(view, rng, view.stock_count, preset=(p, pick))
    return ScopaState(
        players=view.players, dealer=view.dealer, number=1, hands=hands, table=list(view.table),
        stock=stock, piles=[list(p) for p in view.piles], scope=list(view.scope), to_act=view.to_act,
        last_capture_team=view.last_capture_team, over=False, history=list(view.history),
    )


def utilities(rules: ScopaRules, state: ScopaState) -> list[float]:
    """Per team: its deal points minus the mean of the other teams' points, scaled."""
    pts = rules.deal_result(state).points
    n = len(pts)
    total = sum(pts)
    return [(p - (total - p) / (n - 1)) / SCALE for p in pts]


def utility(rules: ScopaRules, state: ScopaState, seat: int) -> float:
    return utilities(rules, state)[rules.team_of(seat)]


def complete(rules: ScopaRules, view: ScopaView) -> bool:
    """The view fixes the state when the stock is empty and at most one other hand holds cards."""
    if view.stock_count:
        return False
    return sum(1 for s, n in enumerate(view.hand_counts) if s != view.seat and n) <= 1


def _worth_table(rules: ScopaRules) -> dict[Card, float]:
    """Per card, :func:`_worth` — computed once per rules object (read-only afterwards, so
    threads may share it; a race only computes the same table twice)."""
    cached = getattr(rules, "_ai_scopa_worth", None)
    if cached is None:
        cached = {c: _worth(rules, c) for c in rules.deck_cards}
        rules._ai_scopa_worth = cached  # type: ignore[attr-defined]
    return cached


def _worth(rules: ScopaRules, c: Card) -> float:
    """Rough worth of owning ``c``: a card, a coin, a primiera 7 or 6, the settebello."""
    w = 1.0
    if c.suit == rules.scoring_suit:
        w += 0.7
    if c.rank == "7":
        w += 0.8
    elif c.rank == "6":
        w += 0.4
    if c is rules.settebello:
        w += 4.0
    return w


def rollout(rules: ScopaRules, state: ScopaState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout: sweep, take valuable cards, and do not leave an easy sweep."""
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    values = rules.values
    worth = _worth_table(rules)
    top = rules.max_value
    table = state.table
    table_sum = 0
    for t in table:
        table_sum += values[t]
    final = not state.stock and sum(len(h) for h in state.hands) == 1
    best = legal[0]
    best_v = -1e9
    for a in legal:
        c = a.card
        cap = a.capture
        if cap:
            v = worth[c]
            left = table_sum
            for t in cap:
                v += worth[t]
                left -= values[t]
            if left == 0:
                if not final:
                    v += 6.0
            elif left <= top:
                v -= 2.5
        else:
            v = -worth[c]
            if table_sum + values[c] <= top:
                v -= 2.5
        v += rng.random() * 0.1  # break ties at random
        if v > best_v:
            best_v, best = v, a
    return best


def playout(rules: ScopaRules, state: ScopaState, rng: random.Random, trace: list | None = None, *,
            epsilon: float = EPSILON, smart: bool = True) -> None:
    """Play the deal to its end with an epsilon-greedy policy, straight on the state.

    The search's hot loop: no Action objects, no events, no history. It follows the rules
    exactly as ``ScopaRules.apply`` does (tests replay ``trace`` through the engine to prove it).

    ``smart`` (the default) weighs sweep risks with what the acting seat could know: the chance
    that the next seat holds a card of the value a play leaves on the table, from the cards of
    that value still out of sight (not in a pile, on the table or in the seat's own hand) —
    why: a fixed penalty also shies from sums no unseen card can take, and ignores how likely
    a take is. It also prefers to place "dead" cards (whose value nobody else can still pair).
    ``smart=False`` is the plain policy of :func:`rollout` (a fixed penalty for any table
    summing <= 10), which the normal level uses.
    """
    values = rules.values
    hands, table, stock, piles = state.hands, state.table, state.stock, state.piles
    n = state.players
    h = rules.hand_size
    seat = state.to_act
    worth = _worth_table(rules)
    top = rules.max_value
    # Cards of each value still in some hand or the stock (what nobody has seen leave play).
    out = [0] * (top + 1)
    for x in hands:
        for c in x:
            out[values[c]] += 1
    for c in stock:
        out[values[c]] += 1
    in_play = sum(out)
    risk = [0.0] * (top + 1)
    while True:
        hand = hands[seat]
        table_sum = 0
        for t in table:
            table_sum += values[t]
        # The legal plays, as in ScopaRules.legal_actions: a match first, else a sum, else place.
        options: list[tuple[Card, tuple[Card, ...]]] = []
        unmatched: list[Card] = []
        for c in hand:
            v = values[c]
            matched = False
            for t in table:
                if values[t] == v:
                    options.append((c, (t,)))
                    matched = True
            if not matched:
                unmatched.append(c)
        if unmatched:
            # Sums once per turn, only up to the highest unmatched card (as legal_actions does).
            sums = sums_by_value(table, values, max(values[c] for c in unmatched)) if len(table) > 1 else {}
            for c in unmatched:
                caps = sums.get(values[c])
                if caps:
                    for cap in caps:
                        options.append((c, cap))
                else:
                    options.append((c, ()))
        final = not stock and sum(len(x) for x in hands) == 1
        if len(options) == 1:
            c, cap = options[0]
        elif rng.random() < epsilon:
            c, cap = options[rng.randrange(len(options))]
        elif smart:
            # risk[v]: chance the next seat holds a card of value v (as this seat can judge it),
            # filled in lazily (-1: not yet) — only the values the options leave matter.
            for i in range(top + 1):
                risk[i] = -1.0
            unknown = in_play - len(hand)
            nxt = hands[(seat + 1) % n]
            hn = len(nxt) if nxt else (h if stock else 0)

            def chance(i: int, hand: list[Card] = hand, hn: int = hn, unknown: int = unknown) -> float:
                r = risk[i]
                if r < 0.0:
                    k = out[i]
                    for x in hand:
                        if values[x] == i:
                            k -= 1
                    if k <= 0 or hn == 0:
                        r = 0.0
                    elif k >= unknown:
                        r = 1.0
                    else:
                        r = 1.0 - (1.0 - k / unknown) ** hn
                    risk[i] = r
                return r

            best_v = -1e9
            for oc, ocap in options:
                if ocap:
                    v = worth[oc]
                    left = table_sum
                    for t in ocap:
                        v += worth[t]
                        left -= values[t]
                    if left == 0:
                        if not final:
                            v += SCOPA_BONUS
                    elif left <= top:
                        v -= SWEEP_RISK * chance(left)
                else:
                    ov = values[oc]
                    # A placed card is lost when someone pairs it; a dead card is safer.
                    v = -worth[oc] * (0.5 + 0.5 * chance(ov))
                    s = table_sum + ov
                    if s <= top:
                        v -= SWEEP_RISK * chance(s)
                v += rng.random() * 0.1
                if v > best_v:
                    best_v, c, cap = v, oc, ocap
        else:
            best_v = -1e9
            for oc, ocap in options:
                if ocap:
                    v = worth[oc]
                    left = table_sum
                    for t in ocap:
                        v += worth[t]
                        left -= values[t]
                    if left == 0:
                        if not final:
                            v += 6.0
                    elif left <= top:
                        v -= 2.5
                else:
                    v = -worth[oc]
                    if table_sum + values[oc] <= top:
                        v -= 2.5
                v += rng.random() * 0.1
                if v > best_v:
                    best_v, c, cap = v, oc, ocap
        if trace is not None:
            trace.append(Action("play", c, cap, False))
        hand.remove(c)
        out[values[c]] -= 1
        in_play -= 1
        team = seat % 2 if n == 4 else seat
        if cap:
            for t in cap:
                table.remove(t)
            pile = piles[team]
            pile.append(c)
            pile.extend(cap)
            state.last_capture_team = team
            if not table and not final:
                state.scope[team] += 1
        else:
            table.append(c)
        if final:
            state.over = True
            return
        seat = (seat + 1) % n
        state.to_act = seat
        if not any(hands):
            for i in range(n):
                s = (state.dealer + 1 + i) % n
                hands[s] = stock[i * h:(i + 1) * h]
            del stock[:n * h]


def prior(rules: ScopaRules, view: ScopaView, action: Action) -> float:
    """The greedy evaluation, scaled; a sweep or taking the settebello counts as obvious (>= 1)."""
    c = action.card
    cap = action.capture
    if cap:
        final = view.stock_count == 0 and sum(view.hand_counts) == 1
        if len(cap) == len(view.table) and not final:
            return 1.5
        if c is rules.settebello or rules.settebello in cap:
            return 1.2
    return max(-0.9, min(0.9, evaluate(rules, view, action) / 10.0))
