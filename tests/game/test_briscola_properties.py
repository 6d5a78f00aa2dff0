"""Property tests for Briscola: random deals and matches keep every card, add up to 120 and
produce records the referee accepts — and the referee rejects a record with one line changed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.bots import make_bot
from game.cards import card
from game.match import Match
from game.rulesets import make_rules
from game.verify import verify_events

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
decks = st.sampled_from(["piacentine", "bresciane"])
bots = st.sampled_from(["random", "greedy"])


def _rules(deck="piacentine", **options):
    return make_rules("briscola", deck, 2, options)


def _run(seed, deck="piacentine", names=("random", "random"), **options) -> list[dict]:
    r = _rules(deck, **options)
    return Match(r, seed, [make_bot(n, r, s, seed) for s, n in enumerate(names)]).run()


@SETTINGS
@given(seed=seeds, deck=decks)
def test_cards_are_conserved_through_random_play(seed, deck):
    r = _rules(deck)
    rng = random.Random(seed)
    state = r.new_deal(rng, rng.randrange(2))
    everything = sorted(r.cards)
    while not state.over:
        on_table = [state.led] if state.led is not None else []
        held = state.hands[0] + state.hands[1] + state.stock + state.piles[0] + state.piles[1] + on_table
        assert sorted(held) == everything
        # Both hands hold three cards between tricks while the stock lasts.
        if state.stock and state.led is None:
            assert [len(h) for h in state.hands] == [3, 3]
        r.apply(state, rng.choice(r.legal_actions(state)))
    assert state.hands == [[], []] and state.stock == [] and state.led is None
    assert sorted(state.piles[0] + state.piles[1]) == everything


@SETTINGS
@given(seed=seeds, deck=decks)
def test_points_add_up_to_120(seed, deck):
    r = _rules(deck)
    rng = random.Random(seed)
    state = r.new_deal(rng, rng.randrange(2))
    won = [0, 0]
    while not state.over:
        for ev in r.apply(state, rng.choice(r.legal_actions(state))):
            if ev["event"] == "trick":
                assert ev["points"] == sum(r.card_points[card(c)] for c in ev["cards"])
                won[ev["winner"]] += ev["points"]
    res = r.deal_result(state)
    assert res.points == won == [sum(r.card_points[c] for c in p) for p in state.piles]
    assert sum(res.points) == 120


@SETTINGS
@given(seed=seeds, deck=decks, a=bots, b=bots, fmt=st.sampled_from(["single", "match"]), to_win=st.sampled_from([2, 3]))
def test_simulated_records_pass_verify(seed, deck, a, b, fmt, to_win):
    events = _run(seed, deck, (a, b), format=fmt, deals_to_win=to_win)
    verdict = verify_events(events)
    assert verdict.ok, str(verdict)
    end = events[-1]
    assert end["event"] == "match_end"
    if fmt == "single":
        assert sum(end["totals"]) == 120
    else:
        assert max(end["totals"]) == to_win


@SETTINGS
@given(seed=seeds, pick=st.integers(min_value=0, max_value=10**6), field=st.sampled_from(["winner", "points"]))
def test_a_mutated_trick_fails_verify_at_its_line(seed, pick, field):
    events = _run(seed)
    tricks = [i for i, e in enumerate(events) if e["event"] == "trick"]
    i = tricks[pick % len(tricks)]
    bad = dict(events[i])
    bad[field] = 1 - bad["winner"] if field == "winner" else bad["points"] + 1
    events[i] = bad
    verdict = verify_events(events)
    assert not verdict.ok and verdict.line == i + 1, str(verdict)


@SETTINGS
@given(seed=seeds, pick=st.integers(min_value=0, max_value=10**6))
def test_a_mutated_decision_fails_verify_at_its_line(seed, pick):
    events = _run(seed)
    plays = [i for i, e in enumerate(events) if e["event"] == "play"]
    i = plays[pick % len(plays)]
    # Replay a card already played (or, for the very first play, one from the other hand):
    # it cannot be in the seat's hand.
    earlier = [e["card"] for e in events[:i] if e["event"] == "play"]
    other = events[1]["hands"][1 - events[i]["seat"]][0]
    events[i] = dict(events[i], card=earlier[0] if earlier else other)
    verdict = verify_events(events)
    assert not verdict.ok and verdict.line == i + 1 and "illegal play" in verdict.message, str(verdict)


# ---------------------------------------------------------------- four players
@SETTINGS
@given(seed=seeds, deck=decks)
def test_four_players_conserve_the_cards_and_add_up_to_120(seed, deck):
    r = make_rules("briscola", deck, 4)
    rng = random.Random(seed)
    state = r.new_deal(rng, rng.randrange(4))
    everything = sorted(r.cards)
    tricks = 0
    while not state.over:
        trick = ([state.led] if state.led is not None else []) + state.following
        held = [c for h in state.hands for c in h] + state.stock + [c for p in state.piles for c in p] + trick
        assert sorted(held) == everything
        if state.stock and state.led is None:
            assert [len(h) for h in state.hands] == [3, 3, 3, 3]
        for ev in r.apply(state, rng.choice(r.legal_actions(state))):
            tricks += ev["event"] == "trick"
    assert tricks == 10 and sum(r.deal_result(state).points) == 120


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, deck=decks, a=bots, fmt=st.sampled_from(["single", "match"]), to_win=st.sampled_from([2, 3]))
def test_four_player_records_pass_verify(seed, deck, a, fmt, to_win):
    r = make_rules("briscola", deck, 4, {"format": fmt, "deals_to_win": to_win})
    events = Match(r, seed, [make_bot(a, r, s, seed) for s in range(4)]).run()
    assert verify_events(events).ok and verify_events(events, strict=True).ok
    end = events[-1]
    assert len(end["totals"]) == 2
    assert sum(end["totals"]) == 120 if fmt == "single" else max(end["totals"]) == to_win
