"""Property tests for Tressette (2 and 4 players): random play keeps every card, follows suit,
always totals 11 points (32 thirds), and produces records the referee accepts — and the
referee rejects a record with one line changed, at that line."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.bots import make_bot
from game.cards import card
from game.match import Match
from game.rulesets import make_rules
from game.verify import verify_events

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
players = st.sampled_from([2, 4])
decks = st.sampled_from(["piacentine", "napoletane", "piemontesi", "bresciane", "trevisane"])
bots = st.sampled_from(["random", "greedy"])


def _rules(n=2, deck="piacentine", **options):
    return make_rules("tressette", deck, n, options)


def _run(seed, n=2, deck="piacentine", names=None, **options) -> list[dict]:
    r = _rules(n, deck, **options)
    names = names or ["random"] * n
    return Match(r, seed, [make_bot(x, r, s, seed) for s, x in enumerate(names)]).run()


@SETTINGS
@given(seed=seeds, n=players, deck=decks)
def test_cards_are_conserved_and_suit_is_followed_through_random_play(seed, n, deck):
    r = _rules(n, deck)
    rng = random.Random(seed)
    state = r.new_deal(rng, rng.randrange(n))
    everything = sorted(r.cards)
    while not state.over:
        held = [c for h in state.hands for c in h] + state.stock + state.piles[0] + state.piles[1] + state.trick
        assert sorted(held) == everything
        if state.stock and not state.trick:
            assert [len(h) for h in state.hands] == [10] * n  # draws keep ten in each hand
        # Every public draw still held is in its hand; a void is never contradicted by the
        # hidden (dealt) cards of that hand.
        for s in range(n):
            assert set(state.known[s]) <= set(state.hands[s])
            hidden = set(state.hands[s]) - set(state.known[s])
            assert not any(c.suit in state.voids[s] for c in hidden)
        legal = r.legal_actions(state)
        if state.trick:
            suit = state.trick[0].suit
            hand = state.hands[state.to_act]
            if any(c.suit == suit for c in hand):
                assert {a.card.suit for a in legal} == {suit}
            else:
                assert len(legal) == len(hand)
        r.apply(state, rng.choice(legal))
    assert all(h == [] for h in state.hands) and state.stock == [] and state.trick == []
    assert sorted(state.piles[0] + state.piles[1]) == everything


@SETTINGS
@given(seed=seeds, n=players, deck=decks)
def test_every_deal_totals_11_and_tricks_count_thirds(seed, n, deck):
    r = _rules(n, deck)
    rng = random.Random(seed)
    state = r.new_deal(rng, rng.randrange(n))
    won = [0, 0]
    last = None
    while not state.over:
        for ev in r.apply(state, rng.choice(r.legal_actions(state))):
            if ev["event"] == "trick":
                assert ev["points"] == sum(r.card_thirds[card(c)] for c in ev["cards"])
                won[r.team_of(ev["winner"])] += ev["points"]
                last = r.team_of(ev["winner"])
    res = r.deal_result(state)
    assert res.detail["thirds"] == won and sum(won) == 32
    assert res.detail["last_trick"] == last
    assert res.points == [won[t] // 3 + (t == last) for t in (0, 1)]
    assert sum(res.points) == 11


@SETTINGS
@given(seed=seeds, n=players, deck=decks, a=bots, b=bots, target=st.sampled_from([11, 21, 31]))
def test_simulated_records_pass_verify(seed, n, deck, a, b, target):
    names = [a, b] * (n // 2)
    events = _run(seed, n, deck, names, target=target)
    verdict = verify_events(events)
    assert verdict.ok, str(verdict)
    ends = [e for e in events if e["event"] == "deal_end"]
    assert all(sum(e["points"]) == 11 for e in ends)
    final = events[-1]["totals"]
    assert max(final) >= target and final[0] != final[1]


@SETTINGS
@given(
    seed=seeds, n=players, pick=st.integers(min_value=0, max_value=10**6), field=st.sampled_from(["winner", "points"])
)
def test_a_mutated_trick_fails_verify_at_its_line(seed, n, pick, field):
    events = _run(seed, n, target=11)
    tricks = [i for i, e in enumerate(events) if e["event"] == "trick"]
    i = tricks[pick % len(tricks)]
    bad = dict(events[i])
    bad[field] = (bad["winner"] + 1) % n if field == "winner" else bad["points"] + 1
    events[i] = bad
    verdict = verify_events(events)
    assert not verdict.ok and verdict.line == i + 1, str(verdict)


@SETTINGS
@given(seed=seeds, n=players, pick=st.integers(min_value=0, max_value=10**6))
def test_a_play_of_another_suit_when_able_fails_verify_at_its_line(seed, n, pick):
    events = _run(seed, n, target=11)
    r = _rules(n)
    # Replay, collecting every follow at which the follower held the led suit and another.
    chances = []
    state = None
    for i, ev in enumerate(events):
        if ev["event"] == "deal":
            state = r.state_from_deal(ev)
        elif ev["event"] == "play":
            if state.trick:
                suit = state.trick[0].suit
                hand = state.hands[ev["seat"]]
                off = [c for c in hand if c.suit != suit]
                if off and any(c.suit == suit for c in hand):
                    chances.append((i, off[0].code))
            r.apply(state, r.action_from_record(events, i))
    if not chances:
        return
    i, wrong = chances[pick % len(chances)]
    events[i] = dict(events[i], card=wrong)
    verdict = verify_events(events)
    assert not verdict.ok and verdict.line == i + 1, str(verdict)
    assert "illegal play" in verdict.message and "follow suit" in verdict.message
