"""The Tressette AI: determinizations honour what a seat knows (public draws, shown voids),
the exact solver agrees with the framework's max-n search and is used once the information
is complete, the fast playout replays through the engine, and every level plays legally."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from game.ai.bots import make_bot
from game.ai.search import solve_exact
from game.cards import card, cards
from game.games.tressette import ai as H
from game.games.tressette.ai import tuning as HT
from game.games.tressette.rules import TressetteState
from game.rulesets import make_rules


def rules(players: int = 2):
    return make_rules("tressette", "piacentine", players)


def advance(r, seed: int, until) -> TressetteState:
    """A random deal played at random until ``until(state)`` holds (between two plays)."""
    rng = random.Random(seed)
    st = r.new_deal(rng, rng.randrange(r.players))
    while not until(st):
        r.apply(st, rng.choice(r.legal_actions(st)))
    return st


# ---------------------------------------------------------------- determinizing
@pytest.mark.parametrize("seed", range(6))
def test_cards_shown_when_drawn_stay_in_the_hand_that_drew_them(seed):
    r = rules(2)
    st = advance(r, seed, lambda s: len(s.stock) <= 10 and s.known[1 - s.to_act])
    me = st.to_act
    view = r.view(st, me)
    known = set(view.known[1 - me])
    assert known and known <= set(st.hands[1 - me])
    for k in range(20):
        det = H.determinize(r, view, random.Random(k))
        assert known <= set(det.hands[1 - me])
        assert r.view(det, me) == view


def test_a_suit_a_player_failed_to_follow_is_void_in_that_hand():
    r = rules(4)
    # Seat 1 has shown it holds no Coins, seat 3 no Coins and no Cups.
    deck = list(r.cards)
    coins_cups = [c for c in deck if c.suit in "DC"]
    random.Random(1).shuffle(coins_cups)
    hands = [coins_cups[:10], [c for c in deck if c.suit == "B"], coins_cups[10:], [c for c in deck if c.suit == "S"]]
    st = TressetteState(
        players=4,
        dealer=3,
        number=1,
        hands=hands,
        stock=[],
        leader=0,
        to_act=0,
        known=[[], [], [], []],
        voids=[frozenset(), frozenset("D"), frozenset(), frozenset("DC")],
    )
    view = r.view(st, 0)
    spread = Counter()
    for k in range(40):
        det = H.determinize(r, view, random.Random(k))
        assert not any(c.suit == "D" for c in det.hands[1])
        assert not any(c.suit in "DC" for c in det.hands[3])
        assert r.view(det, 0) == view
        spread.update(c.suit for c in det.hands[1])
    assert spread["C"] and spread["S"] and spread["B"]  # otherwise still at random


def test_void_deals_are_possible_even_when_tight_and_spread_otherwise():
    hidden = cards("AD 2D 3D 4D AC 2C 3C 4C AS 2S 3S 4S")
    # Slot 0 holds no Coins and no Cups: it must take exactly the four Swords.
    for k in range(30):
        parts = H.deal_around_voids(
            random.Random(k), list(hidden), [4, 4, 4], [frozenset("DC"), frozenset(), frozenset("S")]
        )
        assert sorted(parts[0]) == sorted(cards("AS 2S 3S 4S"))
        assert not any(c.suit == "S" for c in parts[2])
        assert sorted(parts[0] + parts[1] + parts[2]) == sorted(hidden)
    # Without voids every card reaches every slot.
    where = Counter()
    for k in range(200):
        parts = H.deal_around_voids(random.Random(k), list(hidden), [4, 4, 4], [frozenset()] * 3)
        for j, part in enumerate(parts):
            for c in part:
                where[(c, j)] += 1
    assert all(where[(c, j)] > 30 for c in hidden for j in range(3))


def test_the_hidden_cards_are_dealt_never_the_real_ones():
    r = rules(2)
    st = advance(r, 11, lambda s: len(s.stock) == 12)
    me = st.to_act
    view = r.view(st, me)
    opp_hands = {frozenset(H.determinize(r, view, random.Random(k)).hands[1 - me]) for k in range(15)}
    assert len(opp_hands) > 10  # samples, not the truth


# ---------------------------------------------------------------- the exact solver
@pytest.mark.parametrize("players,tricks,seed", [(2, 3, 1), (2, 4, 2), (4, 2, 3), (4, 3, 4), (4, 3, 5)])
def test_the_exact_solver_agrees_with_max_n_search(players, tricks, seed):
    r = rules(players)
    st = advance(r, seed, lambda s: not s.stock and len(s.hands[s.to_act]) <= tricks and len(s.trick) == seed % players)
    seat = st.to_act
    mine = H.exact_margins(r, st, seat)
    ref = solve_exact(r, st, seat, node_limit=10**7)
    best = max(mine.values())
    assert best == pytest.approx(max(ref.values()) * 11)
    for a, v in mine.items():
        if v == best:
            assert ref[a] * 11 == pytest.approx(best)  # a move the solver calls best is best
        else:
            assert ref[a] * 11 < best + 1e-9


def test_complete_two_players_once_the_stock_is_gone_four_in_the_last_four_tricks():
    r = rules(2)
    st = advance(r, 4, lambda s: len(s.stock) == 2 and not s.trick)
    assert not H.complete(r, r.view(st, st.to_act))
    st = advance(r, 4, lambda s: not s.stock)
    assert H.complete(r, r.view(st, st.to_act))
    r4 = rules(4)
    st = advance(r4, 4, lambda s: len(s.hands[0]) == 5 and not s.trick)
    assert not H.complete(r4, r4.view(st, st.to_act))
    st = advance(r4, 4, lambda s: len(s.hands[0]) == HT.EXACT_TRICKS_4P and not s.trick)
    assert H.complete(r4, r4.view(st, st.to_act))


def test_four_player_solve_uses_only_what_the_seat_sees():
    r = rules(4)
    st = advance(r, 9, lambda s: len(s.hands[s.to_act]) == 3 and len(s.trick) == 1)
    assert H.complete(r, r.view(st, st.to_act))
    view = r.view(st, st.to_act)
    a = H.solve(r, H.determinize(r, view, random.Random(1)), st.to_act)
    b = H.solve(r, H.determinize(r, view, random.Random(2)), st.to_act)
    assert a == b and set(a) == set(r.legal_actions(st))


def test_exact_solver_takes_the_last_trick_point():
    r = rules(2)
    # Seat 0 to lead with 3C and 4S; seat 1 holds 2C and 5S. Leading the 3 of Cups first
    # wins the two Cups, then the 5 of Swords takes the last trick: 5 points each. Leading
    # the 4 of Swords gives that trick away (no thirds in it), and the 3 takes the 2 in the
    # last trick: 16 thirds and the last trick, 6 points to 4.
    st = TressetteState(
        players=2,
        dealer=1,
        number=1,
        hands=[cards("3C 4S"), cards("2C 5S")],
        stock=[],
        leader=0,
        to_act=0,
        thirds=[14, 14],
        known=[[], []],
        voids=[frozenset(), frozenset()],
    )
    m = H.exact_margins(r, st, 0)
    best = max(m, key=m.get)
    assert best.card == card("4S") and m[best] == 2 and m[next(a for a in m if a.card == card("3C"))] < 2


# ---------------------------------------------------------------- the playout
@pytest.mark.parametrize("players,exact", [(2, 0), (2, 2), (4, 0), (4, 3)])
def test_the_playout_plays_legal_cards_that_replay_to_its_score(players, exact):
    r = rules(players)
    for seed in range(4):
        st = advance(r, seed, lambda s, n=3 * seed: len(s.history) >= n)
        fast, ref = r.clone(st), r.clone(st)
        trace: list = []
        H.playout(r, fast, random.Random(seed), trace=trace, exact_tricks=exact)
        assert fast.over
        for c in trace:
            legal = r.legal_actions(ref)
            a = next(x for x in legal if x.card is c)
            r.apply(ref, a)
        assert ref.over and ref.thirds == fast.thirds and ref.last_trick == fast.last_trick
        assert H.utilities(r, fast) == H.utilities(r, ref)


def test_utilities_are_the_deal_point_margin_over_11():
    r = rules(4)
    st = advance(r, 2, lambda s: s.over)
    p = r.deal_result(st).points
    assert H.utilities(r, st) == [(p[0] - p[1]) / 11, (p[1] - p[0]) / 11]


# ---------------------------------------------------------------- the levels
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "greedy"])
def test_every_level_plays_legal_cards(players, level):
    r = rules(players)
    st = advance(r, 5, lambda s: len(s.history) == 5)
    seat = st.to_act
    bot = make_bot(level, r, seat, 1)
    if hasattr(bot, "time_cap"):
        bot.time_cap = None
        bot.iterations = 60
    legal = r.legal_actions(st)
    assert bot.choose(r.view(st, seat), legal) in legal


def test_hard_solves_exactly_once_the_stock_is_gone():
    r = rules(2)
    st = advance(r, 6, lambda s: not s.stock and not s.trick and len(s.hands[0]) == 8)
    seat = st.to_act
    bot = make_bot("hard", r, seat, 1)
    bot.time_cap = None
    legal = r.legal_actions(st)
    choice = bot.choose(r.view(st, seat), legal)
    assert bot.last_stats["method"] == "exact"
    m = H.exact_margins(r, st, seat)
    assert m[choice] == max(m.values())


def test_the_levels_settings_come_from_the_hooks():
    assert make_bot("normal", rules(2), 0, 1).iterations == H.LEVELS["normal"]["iterations"]
    assert make_bot("hard", rules(2), 0, 1).iterations > make_bot("normal", rules(2), 0, 1).iterations
