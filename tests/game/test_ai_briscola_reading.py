"""Two-player Briscola card reading over several plays (tuning.READ_PLAYS): the hand before
each of the opponent's plays rebuilt backwards, every order of draws averaged, and the
determinizations drawn from the exact posterior."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cards import card, cards
from game.games.briscola import ai as H
from game.games.briscola.ai import reading as HR
from game.games.briscola.ai import tuning as HT
from game.games.briscola.rules import BriscolaState
from game.rules.base import play
from game.rulesets import make_rules

R = make_rules("briscola", "piacentine", 2)


@pytest.fixture
def read_plays():
    old = HT.READ_PLAYS

    def set_plays(k: int) -> None:
        HT.READ_PLAYS = k

    yield set_plays
    HT.READ_PLAYS = old


def _walk(seed: int, steps: int) -> BriscolaState:
    rng = random.Random(seed)
    s = R.new_deal(rng, rng.randrange(2))
    for _ in range(steps):
        if len(s.stock) <= 2:
            break
        R.apply(s, rng.choice(R.legal_actions(s)))
    return s


def _brute_likelihood(view, clues, hand) -> float:
    """The same quantity the slow way: every path of 'which card was the new one' listed, each
    path's weight the product of 1 / (the choices at each draw), the model's probabilities
    (HR._play_likelihood) multiplied along it."""
    paths = [(list(hand), 1.0, 1.0)]  # (the hand after the play, path weight, likelihood)
    for c, led, drew in clues:
        grown = []
        for after, weight, p in paths:
            choices = [after[:i] + after[i + 1 :] for i in range(len(after))] if drew else [after]
            for held in choices:
                before = [c, *held]
                grown.append(
                    (before, weight / len(choices), p * HR._play_likelihood(R, before, c, led, view.trump_suit))
                )
        paths = grown
    return sum(weight * p for _, weight, p in paths)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(1, 30))
def test_several_plays_are_read_as_every_order_of_draws_would_say(seed, steps):
    s = _walk(seed, steps)
    seat = s.to_act
    v = R.view(s, seat)
    clues = HR._clues(v, 4)
    if not clues or not s.stock:
        return
    reading = HR._Reading(R, v, clues)
    hand = s.hands[1 - seat]
    assert reading.likelihood(hand) == pytest.approx(_brute_likelihood(v, clues, hand))
    # One clue is the last play's reading.
    assert HR._Reading(R, v, clues[:1]).likelihood(hand) == pytest.approx(HR._clue_likelihood(R, v, clues[0], hand))


def test_the_clues_are_the_opponents_plays_latest_first_with_their_draws():
    s = _after_plays(["AC", "7C", "4S", "5C"])
    v = R.view(s, 0)
    assert HR._clues(v, 5) == [(card("5C"), card("4S"), True), (card("7C"), card("AC"), True)]
    assert HR._clues(v, 1) == [(card("5C"), card("4S"), True)]
    # Seat 1 facing the lead of the 4 of swords: seat 0 has drawn nothing since it.
    s2 = _after_plays(["AC", "7C", "4S"])
    assert HR._clues(R.view(s2, 1), 5) == [(card("4S"), None, False), (card("AC"), None, True)]


def test_determinizations_are_drawn_from_the_posterior(read_plays):
    read_plays(3)
    s = _walk(28, 31)  # four cards left in the stock: ten hands he may hold
    seat = s.to_act
    v = R.view(s, seat)
    assert len(HR._clues(v)) == 3 and v.stock_count == 4
    opp = 1 - seat
    reading = HR._reading(R, v)
    hidden = sorted((c for c in v.unseen if c is not v.trump_card), key=lambda c: c.index)
    need = v.hand_counts[opp]
    hands = [frozenset(h) for h in itertools.combinations(hidden, need)]
    weights = {h: reading.likelihood(list(h)) for h in hands}
    z = sum(weights.values())
    rng = random.Random(5)
    draws = 8000
    seen = Counter(frozenset(H.determinize(R, v, rng).hands[opp]) for _ in range(draws))
    assert set(seen) <= set(hands)
    distance = 0.5 * sum(abs(seen[h] / draws - weights[h] / z) for h in hands)
    # Ten hands, 8000 draws: the sampling noise is about 0.01; a uniform deal is 0.59 away.
    assert len(hands) == 10
    assert distance < 0.04
    assert 0.5 * sum(abs(1 / len(hands) - weights[h] / z) for h in hands) > 0.5


def _after_plays(plays: list[str]) -> BriscolaState:
    hands = [cards("AC 4S 5S"), cards("7C 5C 2B")]
    trump = card("2D")
    rest = sorted(set(R.deck_cards) - set(hands[0]) - set(hands[1]) - {trump}, key=lambda c: c.index)
    s = BriscolaState(
        players=2,
        dealer=1,
        number=1,
        hands=[list(h) for h in hands],
        stock=[*rest, trump],
        trump_card=trump,
        trump_suit="D",
        piles=[[], []],
        points=[0, 0],
        to_act=0,
    )
    for code in plays:
        R.apply(s, play(card(code)))
    return s


def test_reading_more_plays_remembers_a_trump_refused_a_trick_ago(read_plays):
    # Seat 1 let seat 0's Ace of cups go with the 7 of cups (holding a trump it would have
    # taken 11 points), then threw the 5 of cups on a led 4 of swords. Read alone, the last
    # play says little about trumps; read with the one before, seat 1 still mostly holds the
    # two non-trumps it kept then, beside one card drawn since.
    s = _after_plays(["AC", "7C", "4S", "5C"])
    v = R.view(s, s.to_act)
    assert s.to_act == 0

    def mean_trumps(k: int) -> float:
        read_plays(k)
        rng = random.Random(9)
        return sum(sum(c.suit == "D" for c in H.determinize(R, v, rng).hands[1]) for _ in range(2000)) / 2000

    one, two = mean_trumps(1), mean_trumps(2)
    assert two < 0.8 * one
    assert math.isclose(mean_trumps(1), one)  # the view's reading follows READ_PLAYS both ways
