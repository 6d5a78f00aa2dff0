"""The search AI plays Cìcera: consistent determinizations, no peeking, picada and simili taken,
no easy scùa left to the next opponent, the team's margin as the goal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.search import OBVIOUS, SearchBot, load_hooks
from game.cards import cards
from game.games.cicera import ai as hooks_cicera
from game.games.cicera.rules import CiceraState
from game.rules.base import play
from game.rulesets import make_rules


def position(hands: list[str], table: str, to_act: int, dealer: int, last_placed: str | None = None) -> tuple:
    """A hand-built Cìcera deal: the given hands and table, every other card already captured
    (split between the two teams' piles)."""
    rules = make_rules("cicera", None, 4)
    hs = [cards(h) for h in hands]
    tb = cards(table)
    used = {c for h in hs for c in h} | set(tb)
    rest = [c for c in rules.cards if c not in used]
    state = CiceraState(
        players=4,
        dealer=dealer,
        number=1,
        hands=hs,
        table=tb,
        piles=[rest[0::2], rest[1::2]],
        bonuses=[[0] * 4, [0] * 4],
        to_act=to_act,
        last_capture_team=0,
        last_placed=cards(last_placed)[0] if last_placed else None,
    )
    return rules, state


def midgame(seed: int, plies: int):
    rules = make_rules("cicera", None, 4)
    rng = random.Random(seed)
    state = rules.new_deal(rng, rng.randrange(4), 1)
    for _ in range(plies):
        a = rng.choice(rules.legal_actions(state))
        probe = rules.clone(state)
        rules.apply(probe, a)
        if rules.is_over(probe):
            break
        rules.apply(state, a)
    return rules, state


def decide(rules, state, seed: int, iterations: int = 800) -> str:
    seat = state.to_act
    bot = SearchBot(rules, seat, seed, iterations=iterations, time_cap=None)
    return str(bot.choose(rules.view(state, seat), rules.legal_actions(state)))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 50), dseed=st.integers(0, 10**6))
def test_determinize_is_consistent_with_the_view(seed, plies, dseed):
    rules, state = midgame(seed, plies)
    seat = state.to_act
    view = rules.view(state, seat)
    d = hooks_cicera.determinize(rules, view, random.Random(dseed))
    assert d.hands[seat] == list(view.hand) and d.table == list(view.table)
    assert [len(h) for h in d.hands] == list(view.hand_counts)
    assert d.last_placed is view.last_placed and d.bonuses == [list(b) for b in view.bonuses]
    everything = [c for h in d.hands for c in h] + d.table + [c for p in d.piles for c in p]
    assert len(everything) == len(set(everything)) and set(everything) == set(rules.cards)
    assert rules.view(d, seat) == view


@pytest.mark.parametrize("seed,plies", [(1, 3), (2, 10)])
def test_decision_does_not_depend_on_hidden_cards(seed, plies):
    rules, state = midgame(seed, plies)
    seat = state.to_act
    other = rules.clone(state)
    pool = [c for i, h in enumerate(other.hands) if i != seat for c in h]
    random.Random(seed).shuffle(pool)
    k = 0
    for i in range(4):
        if i != seat:
            n = len(other.hands[i])
            other.hands[i] = pool[k : k + n]
            k += n
    assert other.hands != state.hands and rules.view(other, seat) == rules.view(state, seat)
    picks = [
        SearchBot(rules, seat, 3, iterations=60, time_cap=None).choose(rules.view(s, seat), rules.legal_actions(s))
        for s in (state, other)
    ]
    assert picks[0] == picks[1]


@pytest.mark.parametrize("seed", [1, 2])
def test_goes_for_the_picada(seed):
    # Seat 3 just placed 5C. 5S x 5C is a picada (+1); 8D x 8B takes a card with no bonus.
    # KD stays either way, so neither capture leaves a single-card sweep.
    rules, state = position(
        ["5S 8D 3B", "9C 4B 6S", "2B 7C AD", "QC 6D 4C"], "5C 8B KD", to_act=0, dealer=3, last_placed="5C"
    )
    assert decide(rules, state, seed) == "5S x 5C"


@pytest.mark.parametrize("seed", [1, 2])
def test_goes_for_simili(seed):
    # 7C takes 3C+4C (one suit: simili, +1) or 7B alone; both leave 9D.
    rules, state = position(["7C 2D JS", "9C 4B 6S", "2B 8C AD", "QC 6D 4D"], "3C 4C 7B 9D", to_act=0, dealer=3)
    assert decide(rules, state, seed) == "7C x 3C+4C"


@pytest.mark.parametrize("seed", [1, 2])
def test_does_not_leave_a_scua_to_the_next_opponent(seed):
    # Table 6D. Placing 4B leaves 6D+4B = 10 for seat 1 (an opponent), and three of the six unseen
    # cards are 10s. Placing JB leaves a court, which joins no sum, and no J is unseen.
    rules, state = position(["4B JB", "10C 2S", "10S AB", "10D 3C"], "6D", to_act=0, dealer=3)
    assert decide(rules, state, seed) == "JB"


def test_team_utility_is_shared_by_partners():
    rules, state = position(["AB", "", "", ""], "AD", to_act=0, dealer=3)
    rules.apply(state, rules.legal_actions(state)[1])  # AB x AD
    assert rules.is_over(state)
    u = hooks_cicera.utilities(rules, state)
    assert (
        u[0] == load_hooks("cicera").utility(rules, state, 0) == load_hooks("cicera").utility(rules, state, 2) == -u[1]
    )
    pts = rules.deal_result(state).points
    assert u[0] == pytest.approx((pts[0] - pts[1]) / hooks_cicera.SCALE)


def test_prior_marks_bonus_captures_obvious():
    rules, state = position(
        ["5S 8D 3B", "9C 4B 6S", "2B 7C AD", "QC 6D 4C"], "5C 8B KD", to_act=0, dealer=3, last_placed="5C"
    )
    view = rules.view(state, 0)
    pri = {str(a): hooks_cicera.prior(rules, view, a) for a in rules.legal_actions(state)}
    assert pri["5S x 5C"] >= OBVIOUS
    assert pri["3B"] < OBVIOUS


def test_rollout_policy_plays_legal_actions_to_the_end():
    rules = make_rules("cicera", None, 4)
    rng = random.Random(2)
    for _ in range(5):
        s = rules.new_deal(rng, 0, 1)
        while not rules.is_over(s):
            rules.apply(s, hooks_cicera.rollout(rules, s, rules.legal_actions(s), rng))  # checked: legal


@pytest.mark.parametrize("coupled", [False, True])
def test_fast_playout_follows_the_rules_exactly(coupled):
    """The search's fast playout (and the coach's coupled one), replayed move by move through
    the rules engine (validated), ends in the same state: same piles, bonuses, table, last
    capturer and result."""
    rules = make_rules("cicera", None, 4)
    rng = random.Random(7)
    for i in range(25):
        s = rules.new_deal(rng, i % 4, 1)
        for _ in range(rng.randrange(0, 40)):
            rules.apply(s, rng.choice(rules.legal_actions(s)))
        fast = rules.clone(s)
        trace: list = []
        hooks_cicera.playout(rules, fast, random.Random(i), trace, coupled=coupled)
        slow = rules.clone(s)
        for a in trace:
            assert a in rules.legal_actions(slow)
            rules.apply(slow, a)
        assert fast.over and slow.over
        assert (fast.piles, fast.bonuses, fast.table, fast.last_capture_team, fast.last_placed) == (
            slow.piles,
            slow.bonuses,
            slow.table,
            slow.last_capture_team,
            slow.last_placed,
        )
        assert rules.deal_result(fast).points == rules.deal_result(slow).points


def test_coupled_playouts_of_two_interchangeable_cards_are_the_same_play():
    """K♣ and K♦ score nothing apart (neither is of the most-cards suit nor special): placing
    one or the other, the coupled playout with the same seed plays the same deal but for the
    two Kings and ends with the same points."""
    rules = make_rules("cicera", None, 4)
    kings = cards("KC KD")
    for i in range(10):
        s = rules.new_deal(random.Random(i), i % 4, 1)
        me = s.hands[s.to_act]
        for k, spot in zip(kings, [c for c in me if c not in kings][:2]):  # both Kings into the hand to act
            if k not in me:
                holder = next(h for h in (*s.hands, s.table) if k in h)
                holder[holder.index(k)] = spot
                me[me.index(spot)] = k
        ends = []
        for k in kings:
            t = rules.clone(s)
            rules.apply(t, play(k.code))
            hooks_cicera.playout(rules, t, random.Random(f"w{i}"), coupled=True)
            ends.append((rules.deal_result(t).points, t.bonuses))
        assert ends[0] == ends[1]
