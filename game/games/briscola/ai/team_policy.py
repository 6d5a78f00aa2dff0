"""Briscola AI: the playout policy with four players — who is likely to take a trick from
the cards not yet played (tuning.POOL_CHANCES), the card choice :func:`_pick_team`, the fast
playout and its exact finish (:func:`_finish_team`)."""

from __future__ import annotations

import random
from collections.abc import Callable

import game.games.briscola.ai.tuning as tuning
from game.cards import Card
from game.games.briscola.ai.team_solver import _team_ab
from game.games.briscola.ai.values import _keep_table, _last_keep_table, _team_trick
from game.games.briscola.heuristics import AHEAD, AHEAD_TRUMP, BEHIND, after_me, nobody_beats
from game.games.briscola.rules import BriscolaRules, BriscolaState


def _nobody_table(rules: BriscolaRules) -> list[list[list[float]]]:
    """heuristics.nobody_beats(pool, k, h) for every pool size, beater count and
    hand size of the deal, cached on the rules object (read-only after the first write)."""
    table = rules.__dict__.get("_ai_briscola_nobody")
    if table is None:
        n = len(rules.deck_cards)
        table = [
            [[nobody_beats(pool, k, h) for h in range(rules.hand_size + 1)] for k in range(pool + 1)]
            for pool in range(n + 1)
        ]
        rules.__dict__["_ai_briscola_nobody"] = table
    return table


def _pool_chance(
    cnt: dict[str, list[int]],
    trump: str,
    st: dict[Card, int],
    hand: list[Card],
    pool: int,
    later: list[tuple[bool, int]],
    nobody: list[list[list[float]]],
) -> Callable[[bool, Card], float]:
    """The chance function of :func:`_pick_team` for the player holding ``hand``:
    heuristics.side_chance (its formula inlined on the ``nobody`` table of
    :func:`_nobody_table`: the playout's hot loop), ``cnt`` counting the cards not yet played
    per suit and strength, ``pool`` how many of them he does not hold, ``later`` (is a
    partner, hand size) for the players still to come."""
    trumps = sum(cnt[trump])
    row = nobody[pool]

    def chance(ahead: bool, top: Card) -> float:
        suit = top.suit
        k = sum(cnt[suit][st[top] + 1 :])
        if suit != trump:
            k += trumps
        for y in hand:
            # rules.beats, inlined (his own cards are not in the other hands).
            if (st[y] > st[top]) if y.suit == suit else y.suit == trump:
                k -= 1
        q = row[k]
        if ahead:
            p = 1.0
            opp_seen = False
            for mate, h in later:
                if not mate:
                    p *= q[h]
                    opp_seen = True
                elif opp_seen:
                    p += (1.0 - p) * 0.5 * (1.0 - q[h])
            return p
        for mate, h in later:
            if mate:
                return 1.0 - q[h]
        return 0.0

    return chance


def _pick_team(
    hand: list[Card],
    best: Card | None,
    on_table: int,
    ours: bool,
    opp_after: bool,
    mate_after: bool,
    trump: str,
    keep: dict[Card, float],
    cp: dict[Card, int],
    beats: Callable[[Card, Card, str], bool],
    rand: Callable[[], float],
    chance: Callable[[bool, Card], float] | None = None,
) -> Card:
    """Four players: the playout policy's card from ``hand`` — heuristics.follow_value,
    leading as :func:`_pick`, ``rand`` adding the same noise. Inlined here (the playout's hot
    loop; the tests check it ranks the cards as follow_value does): no trump over a partner's
    winning card, points onto a trick the side holds. ``best`` is the trick's best card (None:
    leading), worth ``on_table`` with the others, ``ours`` whether the partner played it;
    ``chance(ahead, top)`` gives the side's chance to take the trick (:func:`_pool_chance`),
    None the fixed chances (AHEAD, AHEAD_TRUMP, BEHIND). The one scoring of :func:`rollout` and
    :func:`playout` with four players."""
    choice = hand[0]
    best_v = -1e9
    on_best = -1.0  # the chance when the trick's best card stays on top (the same for all)
    for x in hand:
        pts = cp[x]
        if best is None:
            v = -0.8 * pts - keep[x]
        else:
            if beats(x, best, trump):
                # A trump over the partner's winning plain card counts as his card: no gain.
                top = best if ours and x.suit == trump and best.suit != trump else x
                ahead = True
            else:
                top = best
                ahead = ours
            if chance is not None:
                if top is best:
                    if on_best < 0.0:
                        on_best = chance(ahead, top)
                    p = on_best
                else:
                    p = chance(ahead, top)
            elif ahead:
                p = (AHEAD_TRUMP if top.suit == trump else AHEAD) if opp_after else 1.0
            else:
                p = BEHIND if mate_after else 0.0
            v = (2.0 * p - 1.0) * (on_table + pts) - keep[x]
        v += rand() * 0.3
        if v > best_v:
            best_v, choice = v, x
    return choice


def _unplayed_counts(rules: BriscolaRules, state: BriscolaState) -> dict[str, list[int]]:
    """Per suit, the cards in the hands and the stock counted by strength (index = strength)."""
    st = rules.strength
    top = max(st.values())
    cnt = {c.suit: [0] * (top + 1) for c in rules.deck_cards}
    for h in state.hands:
        for c in h:
            cnt[c.suit][st[c]] += 1
    for c in state.stock:
        cnt[c.suit][st[c]] += 1
    return cnt


def _later(rules: BriscolaRules, hands: list[list[Card]], seat: int, count: int) -> list[tuple[bool, int]]:
    """(is a partner, hand size) of each player after ``seat`` in a trick with ``count`` cards on it."""
    n = len(hands)
    me = rules.team_of(seat)
    return [(rules.team_of(s) == me, len(hands[s])) for s in ((seat + k) % n for k in range(1, n - count))]


def _finish_team(rules: BriscolaRules, state: BriscolaState) -> None:
    """Four players, stock gone: credit each team with what perfect play on this (sampled)
    deal gives it (on the first seat of the team: only the team totals are read)."""
    st, cp = rules.strength, rules.card_points
    n = state.players
    team = [rules.team_of(s) for s in range(n)]
    best, best_seat, count, pts = _team_trick(rules, state)
    hands = [list(h) for h in state.hands]
    v = _team_ab(st, cp, team, hands, state.to_act, best, best_seat, count, pts, state.trump_suit, -9999, 9999, [0])
    rest = pts + sum(cp[c] for h in hands for c in h)
    # gains(team 0) − gains(team 1) = v and gains(team 0) + gains(team 1) = rest.
    state.points[team.index(0)] += (rest + v) // 2
    state.points[team.index(1)] += (rest - v) // 2
    for h in state.hands:
        h.clear()
    state.led = None
    state.following = []
    state.over = True


def _seat_tables(rules: BriscolaRules) -> tuple[list[int], list[list[tuple[bool, bool]]], list[list[list[int]]]]:
    """Per seat its team, per (seat, cards on the trick) ``after_me`` and the seats still to
    play after it — cached on the rules object (read-only after the first, idempotent write)."""
    cached = rules.__dict__.get("_ai_briscola_seats")
    if cached is None:
        n = rules.players
        team = [rules.team_of(s) for s in range(n)]
        after = [[after_me(rules, s, k) for k in range(n)] for s in range(n)]
        order = [[[(s + i) % n for i in range(1, n - k)] for k in range(n)] for s in range(n)]
        cached = rules.__dict__["_ai_briscola_seats"] = (team, after, order)
    return cached


def _playout_team(
    rules: BriscolaRules, state: BriscolaState, rng: random.Random, trace: list[Card] | None, exact: bool | None
) -> None:
    """Four players: play the deal out in place by :func:`_pick_team` (inlined on the state's
    lists), a last card forced; with ``exact`` the last EXACT_PLAYOUT_CARDS_4P cards by
    perfect play (:func:`_finish_team`). The same moves as :func:`rollout` through the engine
    with ``exact=False`` (a test checks); the finished state carries the right team points."""
    n = state.players
    hands = state.hands
    stock = state.stock
    points = state.points
    trump = state.trump_suit
    cp = rules.card_points
    beats = rules.beats
    keep = _keep_table(rules, trump) if stock else _last_keep_table(rules)
    rand = rng.random
    epsilon = tuning.EPSILON  # read once: the loop is the search's hot path
    team, after, order = _seat_tables(rules)
    seat = state.to_act
    best, best_seat, count, pts = _team_trick(rules, state)
    left = sum(len(h) for h in hands)
    exact_at = tuning.EXACT_PLAYOUT_CARDS_4P if (tuning.EXACT_PLAYOUT if exact is None else exact) else -1
    st = rules.strength
    cnt = _unplayed_counts(rules, state) if tuning.POOL_CHANCES else None
    nobody = _nobody_table(rules)
    unplayed = left + len(stock)
    while True:
        if left <= exact_at and not stock:
            state.to_act = seat
            _finish_team(rules, state)
            return
        hand = hands[seat]
        if len(hand) == 1:
            c = hand[0]
        elif rand() < epsilon:
            c = hand[int(rand() * len(hand))]
        else:
            opp_after, mate_after = after[seat][count]
            chance = None
            if cnt is not None and best is not None:
                later = [(team[s] == team[seat], len(hands[s])) for s in order[seat][count]]
                chance = _pool_chance(cnt, trump, st, hand, unplayed - len(hand), later, nobody)
            c = _pick_team(
                hand,
                best,
                pts,
                best is not None and team[best_seat] == team[seat],
                opp_after,
                mate_after,
                trump,
                keep,
                cp,
                beats,
                rand,
                chance,
            )
        hand.remove(c)
        left -= 1
        unplayed -= 1
        if cnt is not None:
            cnt[c.suit][st[c]] -= 1
        if trace is not None:
            trace.append(c)
        if best is None or beats(c, best, trump):
            best, best_seat = c, seat
        pts += cp[c]
        count += 1
        if count == 1:
            state.led = c
        else:
            state.following.append(c)
        if count < n:
            seat = (seat + 1) % n
            continue
        # The trick is complete: its winner takes it, draws first and leads.
        points[best_seat] += pts
        seat = best_seat
        best, count, pts = None, 0, 0
        state.led = None
        state.following = []
        if stock:
            for i in range(n):
                hands[(seat + i) % n].append(stock[i])
            del stock[:n]
            left += n
            if not stock:
                keep = _last_keep_table(rules)
        elif not hands[seat]:
            state.to_act = seat
            state.over = True
            return
