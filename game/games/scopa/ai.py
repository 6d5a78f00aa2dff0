"""Search hooks for Scopa (2, 3 or 4 players): determinize, utility, playout policy, prior.

Everything a seat has seen is in its hand, on the table or in a pile (the history only repeats
what the piles and table show), and Scopa gives no other clue about a hand, so the unseen
cards are exactly the other hands plus the stock, in any arrangement with the right counts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import cast

from game.ai.determinize import deal_hidden, hidden_cards, sample_by_likelihood
from game.cards import Card
from game.games.scopa.heuristics import evaluate, house_worth, play_score
from game.games.scopa.rules import ACE, ScopaRules, ScopaState, ScopaView
from game.rules.base import Action
from game.rules.capture import capture_play, captured, sums_by_value

#: Deal-point margins are divided by this so utilities sit roughly in [-1, 1].
SCALE = 4.0
#: Chance that the playout policy plays a uniformly random card instead of its greedy choice.
EPSILON = 0.05
#: Smart playout: worth of a scopa, and of the next seat surely holding the card that sweeps.
SCOPA_BONUS = 6.0
SWEEP_RISK = 6.0

#: The levels' settings in Scopa (game.ai.levels applies them under the caller's keywords).
LEVELS: dict[str, dict] = {
    # Hard: the budget that fits its 0.9 s cap on one quiet core (bench/ai_speed.py, CPU p95
    # 0.86 s at 4000 iterations with two players, 0.94 s with three or four).
    # Scopa a quindici and d'assi weigh more captures per play: the same budget took about a
    # quarter more time per decision than classic Scopa in real deals (bench/ai_strength.py,
    # seeds 601-603: mean 1.56 and 1.60 s against 1.27 s), so they get three quarters of it.
    # Classic Scopa for two: 1800, half the budget that fit the first host, for the slower
    # hosts since (CPU p95 1.24-1.96 s at 3600): on the 294 fixed positions
    # (bench/ai_positions.py score) the half budget's regret is +0.0004 ± 0.0009 above 3600's,
    # 2 % of the gap to normal (+0.0215 ± 0.0046). The house rules keep the budgets their
    # goals were measured at (docs/AI.md).
    "hard": {
        "iterations": 1800,
        "by_players": {3: {"iterations": 3200}, 4: {"iterations": 3200}},
        "by_option": {
            house: {"iterations": 2700, "by_players": {3: {"iterations": 2400}, 4: {"iterations": 2400}}}
            for house in ("capture=fifteen", "aces=take_all")
        },
    },
    # Normal: 200 iterations with the plain playout policy (fixed sweep penalty, 25 % random
    # moves) — measured clearly below hard and still clearly above easy (docs/AI.md).
    "normal": {"iterations": 200, "playout_kw": {"smart": False, "epsilon": 0.25}},
    # Easy: the plain playout policy too (the smart one is hard's edge).
    "easy": {"playout_kw": {"smart": False}},
}


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
_read_cache: dict[int, tuple[object, tuple[int, dict, float] | None]] = {}


def _option_values(rules: ScopaRules, table: list[Card], c: Card) -> dict:
    """The greedy evaluation of every legal play of ``c`` on ``table`` (mid-deal), keyed by
    the captured cards (a frozenset; empty: placed) — the captures are the rules' own."""
    caps = rules.captures_for(c, table) or [()]
    return {frozenset(cap): play_score(rules, table, c, cap) for cap in caps}


def _reading(rules: ScopaRules, view: ScopaView) -> tuple[int, dict, float] | None:
    """What the previous play says about its player's hand: (seat, option values per hand
    card, the value of the play he made) — None when there is nothing to read (no play yet,
    this seat's own, or a hand dealt since)."""
    if not CARD_READING or not view.history:
        return None
    cached = _read_cache.get(id(view))
    if cached is not None and cached[0] is view:
        return cached[1]
    p, played, cap = view.history[-1]
    out = None
    if p != view.seat and 0 < view.hand_counts[p] < rules.hand_size:
        table = list(view.table)
        if cap:
            table += cap
        else:
            table.remove(played)
        per_card = {c: list(_option_values(rules, table, c).values()) for c in [*view.unseen, played]}
        made = _option_values(rules, table, played)[frozenset(cap)]
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
        pick = sample_by_likelihood(
            rng,
            hidden_cards(view.unseen),
            view.hand_counts[p],
            lambda hand: _read_likelihood(reading, hand, played),
            READ_TRIES,
        )
        hands, stock = deal_hidden(view, rng, view.stock_count, preset=(p, pick))
    return ScopaState(
        players=view.players,
        dealer=view.dealer,
        number=1,
        hands=hands,
        table=list(view.table),
        stock=stock,
        piles=[list(p) for p in view.piles],
        scope=list(view.scope),
        to_act=view.to_act,
        last_capture_team=view.last_capture_team,
        over=False,
        history=list(view.history),
    )


def utilities(rules: ScopaRules, state: ScopaState) -> list[float]:
    """Per team: its deal points minus the mean of the other teams' points, scaled."""
    pts = rules.deal_result(state).points
    n = len(pts)
    total = sum(pts)
    return [(p - (total - p) / (n - 1)) / SCALE for p in pts]


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
        rules.__dict__["_ai_scopa_worth"] = cached
    return cached


def _worth(rules: ScopaRules, c: Card) -> float:
    """Rough worth of owning ``c``: a card, a coin, a primiera 7 or 6, the settebello — and
    what the house rules in force add (re bello's King of Coins, napola's run: the greedy
    heuristics' own ``house_worth``)."""
    w = 1.0
    if c.suit == rules.scoring_suit:
        w += 0.7
    if c.rank == "7":
        w += 0.8
    elif c.rank == "6":
        w += 0.4
    if c is rules.settebello:
        w += 4.0
    return w + house_worth(rules, c)


Option = tuple[Card, tuple[Card, ...]]


def classic_captures(rules: ScopaRules) -> bool:
    """Whether the standard captures are in force: match before sum, no Ace that sweeps (the
    options ``capture`` and ``aces`` at their defaults — RULES.md, "House rules")."""
    opts = rules.options
    return opts.get("capture", "match_first") == "match_first" and opts.get("aces", "normal") == "normal"


def _plain_pick(
    options: list[Option],
    table_sum: int,
    final: bool,
    values: dict[Card, int],
    worth: dict[Card, float],
    top: int,
    rand: Callable[[], float],
    sweep_of: list[int] | None = None,
    take_all: bool = False,
) -> Option:
    """The plain policy's choice among ``options`` ((card, captured cards) pairs): sweep, take
    valuable cards, and do not leave a table that one card sweeps (a fixed penalty); a little
    noise (``rand``) breaks ties at random. The one scoring of both :func:`rollout` and
    ``playout(smart=False)``; its arguments are what the playout's loop already holds (a
    call per turn that looks nothing up costs the playout about 2 %, measured).

    House rules: ``sweep_of`` (:func:`_sweep_table`; None: the standard captures) gives per
    table total the card value that sweeps it; with ``take_all`` an Ace's capture scores no
    scopa (a table it sweeps is not penalised as a scopa)."""
    best = options[0]
    best_v = -1e9
    for o in options:
        c, cap = o
        if cap:
            v = worth[c]
            left = table_sum
            for t in cap:
                v += worth[t]
                left -= values[t]
            if left == 0:
                if not final and not (take_all and c.rank == ACE):
                    v += 6.0
            elif (left <= top) if sweep_of is None else sweep_of[left] > 0:
                v -= 2.5
        else:
            v = -worth[c]
            s = table_sum + values[c]
            if (s <= top) if sweep_of is None else sweep_of[s] > 0:
                v -= 2.5
        v += rand() * 0.1  # break ties at random
        if v > best_v:
            best_v, best = v, o
    return best


def _sweep_table(rules: ScopaRules) -> list[int] | None:
    """Per table total (0 … the whole deck's), the card value that takes the whole table in
    one capture (0: none) under the rules in force — None under the standard captures (the
    playout then tests ``total <= top`` itself). With ``aces: take_all`` a lone Ace on the
    table (total 1) is no scopa threat: an Ace's capture never scores one. Cached per rules."""
    if classic_captures(rules):
        return None
    cached = getattr(rules, "_ai_scopa_sweep", None)
    if cached is None:
        top = rules.max_value
        total = sum(rules.values[c] for c in rules.deck_cards)
        cached = []
        for s in range(total + 1):
            if rules.fifteen is not None:
                v = rules.fifteen - s
                v = v if 1 <= v <= top and s > 0 else 0
            else:
                v = s if 0 < s <= top else 0
            cached.append(0 if (v == 1 and rules.aces_take_all) else v)
        rules.__dict__["_ai_scopa_sweep"] = cached
    return cached


def rollout(rules: ScopaRules, state: ScopaState, legal: list[Action], rng: random.Random) -> Action:
    """Epsilon-greedy playout through the engine: the plain policy (:func:`_plain_pick`)."""
    if rng.random() < EPSILON:
        return legal[rng.randrange(len(legal))]
    values = rules.values
    final = not state.stock and sum(len(h) for h in state.hands) == 1
    # Every Scopa action plays a card (the playout's hot path: no check per action).
    options = cast("list[tuple[Card, tuple[Card, ...]]]", [(a.card, captured(a)) for a in legal])
    choice = _plain_pick(
        options,
        sum(values[t] for t in state.table),
        final,
        values,
        _worth_table(rules),
        rules.max_value,
        rng.random,
        _sweep_table(rules),
        rules.aces_take_all,
    )
    return legal[options.index(choice)]


#: Smart playout, ``aces: take_all``: an Ace the next seat may hold takes every card left on a
#: table without one (no scopa): this share of their worth is the play's expected loss.
ACE_TAKES_ALL_RISK = 0.7


def playout(
    rules: ScopaRules,
    state: ScopaState,
    rng: random.Random,
    trace: list | None = None,
    *,
    epsilon: float | None = None,
    smart: bool = True,
) -> None:
    """Play the deal to its end with an epsilon-greedy policy, straight on the state.

    The search's hot loop: no Action objects, no events, no history. It follows the rules
    exactly as ``ScopaRules.apply`` does, under every house rule (tests and the conformance
    suite replay ``trace``, every move, through the engine to prove it): the legal plays as
    ``ScopaRules.legal_actions`` lists them — a match first, else a sum (``capture:
    match_first``), or every set making 15 with the card (``capture: fifteen``), and an Ace
    taking a table without one (``aces: take_all``), whose capture scores no scopa.

    ``smart`` (the default) weighs sweep risks with what the acting seat could know: the chance
    that the next seat holds a card of the value that sweeps what a play leaves on the table,
    from the cards of that value still out of sight (not in a pile, on the table or in the
    seat's own hand) — why: a fixed penalty also shies from sums no unseen card can take, and
    ignores how likely a take is. It also prefers to place "dead" cards (that nobody else can
    still take alone), and under ``take_all`` weighs the chance of an Ace taking the table.
    ``smart=False`` is the plain policy of :func:`rollout` (:func:`_plain_pick`: a fixed
    penalty for a table one card sweeps), which the normal and easy levels use.
    """
    if epsilon is None:  # read at the call, so that a tuning run's setting takes effect
        epsilon = EPSILON
    values = rules.values
    hands, table, stock, piles = state.hands, state.table, state.stock, state.piles
    n = state.players
    h = rules.hand_size
    seat = state.to_act
    worth = _worth_table(rules)
    top = rules.max_value
    fifteen = rules.fifteen
    take_all = rules.aces_take_all
    # Per table total, the value that sweeps it (None: the standard captures, ``<= top``).
    sweep_of = _sweep_table(rules)
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
        # The legal plays, as ScopaRules.legal_actions lists them (inlined: the rules' own list
        # of Actions costs this loop about 40 %).
        options: list[Option] = []
        rest = hand
        ace_free = False
        if take_all and table:
            ace_free = True
            for t in table:
                if t.rank == ACE:
                    ace_free = False
                    break
            if ace_free:
                # Asso piglia tutto: an Ace takes the whole table (the rules' sorted tuple).
                rest = []
                sweep = None
                for c in hand:
                    if c.rank == ACE:
                        if sweep is None:
                            sweep = tuple(sorted(table))
                        options.append((c, sweep))
                    else:
                        rest.append(c)
        if fifteen is None:
            unmatched: list[Card] = []
            for c in rest:
                cv = values[c]
                matched = False
                for t in table:
                    if values[t] == cv:
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
        elif rest:
            # Scopa a quindici: every set of one or more table cards making 15 with the card.
            sums = sums_by_value(table, values, fifteen - min(values[c] for c in rest), min_size=1) if table else {}
            for c in rest:
                caps = sums.get(fifteen - values[c])
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

            if take_all:
                table_worth = 0.0
                for t in table:
                    table_worth += worth[t]
            best_v = -1e9
            for oc, ocap in options:
                if ocap:
                    v = worth[oc]
                    left = table_sum
                    for t in ocap:
                        v += worth[t]
                        left -= values[t]
                    if left == 0:
                        if not final and not (take_all and oc.rank == ACE):
                            v += SCOPA_BONUS
                    elif sweep_of is None:
                        if left <= top:
                            v -= SWEEP_RISK * chance(left)
                    else:
                        sv = sweep_of[left]
                        if sv:
                            v -= SWEEP_RISK * chance(sv)
                        if take_all and ace_free and oc.rank != ACE:
                            # What is left holds no Ace (the table had none): an Ace takes it.
                            lw = table_worth
                            for t in ocap:
                                lw -= worth[t]
                            v -= ACE_TAKES_ALL_RISK * lw * chance(1)
                else:
                    ov = values[oc]
                    s = table_sum + ov
                    if sweep_of is None:
                        # A placed card is lost when someone pairs it; a dead card is safer.
                        v = -worth[oc] * (0.5 + 0.5 * chance(ov))
                        if s <= top:
                            v -= SWEEP_RISK * chance(s)
                    else:
                        taker = ov if fifteen is None else fifteen - ov
                        v = -worth[oc] * (0.5 + 0.5 * (chance(taker) if 1 <= taker <= top else 0.0))
                        sv = sweep_of[s]
                        if sv:
                            v -= SWEEP_RISK * chance(sv)
                        if take_all and oc.rank != ACE and (ace_free or not table):
                            v -= ACE_TAKES_ALL_RISK * ((table_worth if table else 0.0) + worth[oc]) * chance(1)
                v += rng.random() * 0.1
                if v > best_v:
                    best_v, c, cap = v, oc, ocap
        else:
            c, cap = _plain_pick(options, table_sum, final, values, worth, top, rng.random, sweep_of, take_all)
        out[values[c]] -= 1
        in_play -= 1
        if trace is not None:
            trace.append(capture_play(c, cap))
        hand.remove(c)
        team = seat % 2 if n == 4 else seat
        if cap:
            for t in cap:
                table.remove(t)
            pile = piles[team]
            pile.append(c)
            pile.extend(cap)
            state.last_capture_team = team
            # No scopa on the deal's last card, nor for an Ace's capture under take_all.
            if not table and not final and not (take_all and c.rank == ACE):
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
                hands[s] = stock[i * h : (i + 1) * h]
            del stock[: n * h]


def prior(rules: ScopaRules, view: ScopaView, action: Action) -> float:
    """The greedy evaluation, scaled; a scopa or taking the settebello (with ``re_bello`` the
    King of Coins too) counts as obvious (>= 1) — an Ace that takes all under ``aces:
    take_all`` scores no scopa, so it is left to the evaluation."""
    c = action.played
    cap = captured(action)
    if cap:
        final = view.stock_count == 0 and sum(view.hand_counts) == 1
        if len(cap) == len(view.table) and not final and not (rules.aces_take_all and c.rank == ACE):
            return 1.5
        if c is rules.settebello or rules.settebello in cap:
            return 1.2
        if rules.re_bello and (c is rules.re_bello_card or rules.re_bello_card in cap):
            return 1.1
    return max(-0.9, min(0.9, evaluate(rules, view, action) / 10.0))


# ---------------------------------------------------------------------- the suggestion's reason
def _sweepable(rules: ScopaRules, view: ScopaView, left: list[Card]) -> bool:
    """Could a card the seat has not seen take all of ``left`` (a scopa for the next player)?"""
    if not left:
        return False
    return any(len(cap) == len(left) for x in view.unseen for cap in rules.captures_for(x, left))


def reason(rules: ScopaRules, view: ScopaView, action: Action) -> tuple[str, dict] | None:
    """One line on why a play is good (game.ai.suggest): a scopa, the settebello, a seven for
    the primiera, Coins, a table left with no sweep for the next player; None for a plain play."""
    c, cap = action.card, captured(action)
    if action.kind != "play" or c is None:
        return None
    table = list(view.table)
    final = view.stock_count == 0 and sum(view.hand_counts) == 1
    if cap:
        taken = (c, *cap)
        # As the rules score it: no scopa on the deal's last card, nor for an Ace taking all.
        if len(cap) == len(table) and not final and not (rules.aces_take_all and c.rank == "A"):
            return ("suggest.reason.sweep", {})
        if rules.settebello in taken:
            return ("suggest.reason.settebello", {"card": rules.settebello.code})
        # The cards a house rule scores: re bello's King of Coins, the start of a napola.
        special = [t for t in taken if house_worth(rules, t) >= 1.0]
        if special:
            return ("suggest.reason.special", {"card": special[0].code})
        sevens = [t for t in taken if t.rank == "7"]
        if sevens:
            return ("suggest.reason.primiera", {"card": sevens[0].code})
        coins = [t for t in taken if t.suit == rules.scoring_suit]
        if len(coins) >= 2:
            return ("suggest.reason.suit_cards", {"count": len(coins), "suit": rules.scoring_suit})
        left = [t for t in table if t not in cap]
        if left and not final and not _sweepable(rules, view, left):
            return ("suggest.reason.takes_safe", {"count": len(taken)})
        return ("suggest.reason.takes", {"count": len(taken)})
    if not final and not _sweepable(rules, view, [*table, c]):
        return ("suggest.reason.no_sweep", {})
    return None
