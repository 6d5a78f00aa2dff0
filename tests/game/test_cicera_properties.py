"""Cìcera property tests: random legal play keeps the cards, the points and the records honest."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ai.bots import make_bot
from game.cards import card
from game.games.cicera.rules import BONUSES
from game.match import Match
from game.rules.capture import captured
from game.rulesets import make_rules
from game.verify import verify_events

RULES = make_rules("cicera")
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def random_deal(seed: int):
    rng = random.Random(seed)
    state = RULES.new_deal(rng, rng.randrange(4))
    events = []
    while not state.over:
        events += RULES.apply(state, rng.choice(RULES.legal_actions(state)))
    return state, events


@SETTINGS
@given(seeds)
def test_cards_are_conserved_through_random_legal_play(seed):
    rng = random.Random(seed)
    state = RULES.new_deal(rng, rng.randrange(4))
    deck = sorted(RULES.cards)
    plays = 0
    while not state.over:
        assert state.to_act == (state.dealer + 1 + plays) % 4
        action = rng.choice(RULES.legal_actions(state))
        RULES.apply(state, action)
        plays += 1
        held = [c for h in state.hands for c in h] + state.table + [c for p in state.piles for c in p]
        assert sorted(held) == deck
    assert plays == 48 and not any(state.hands)


@SETTINGS
@given(seeds)
def test_every_legal_action_validates_and_place_only_is_always_there(seed):
    rng = random.Random(seed)
    state = RULES.new_deal(rng, rng.randrange(4))
    while not state.over:
        legal = RULES.legal_actions(state)
        assert len(set(legal)) == len(legal)
        hand = state.hands[state.to_act]
        assert {a.card for a in legal if not captured(a)} == set(hand)
        for a in legal:
            RULES.validate(state, a)
            if len(captured(a)) > 1:  # sums: numerals only, adding up to the played value
                assert a.card in RULES.values and all(t in RULES.values for t in captured(a))
                assert sum(RULES.values[t] for t in captured(a)) == RULES.values[a.card]
            elif captured(a):
                assert captured(a)[0].rank == a.card.rank
        RULES.apply(state, rng.choice(legal), check=False)


@SETTINGS
@given(seeds)
def test_points_add_up_as_the_rules_say(seed):
    state, events = random_deal(seed)
    res = RULES.deal_result(state)
    d = res.detail
    if state.last_capture_team is None:
        assert res.points == [0, 0]
        return
    # Bonuses: exactly those listed on the play events, per team.
    per_team = {b: [0, 0] for b in BONUSES}
    for e in events:
        for b in e["bonuses"]:
            per_team[b][e["seat"] % 2] += 1
    for b in BONUSES:
        assert d[b] == per_team[b]
    assert d["bonuses"] == [sum(d[b][t] for b in BONUSES) for t in range(2)]
    # Every card ends in a pile; the awards follow the counts.
    assert sum(d["card_counts"]) == 52 and sum(d["sword_counts"]) == 13
    assert sum(d["cards"]) == (0 if d["card_counts"][0] == 26 else 2)
    assert sum(d["swords"]) == 1
    assert sum(d["2S"]) == sum(d["10D"]) == sum(d["JC"]) == 1
    nap = [r if r >= 3 else 0 for r in d["napula_runs"]]
    assert d["napula"] == nap and min(d["napula_runs"]) == 0  # A of Swords is in one pile only
    fixed = sum(d["cards"]) + 1 + 3
    assert sum(res.points) == sum(d["bonuses"]) + fixed + sum(nap)
    for t in range(2):
        assert res.points[t] == (
            d["bonuses"][t] + d["cards"][t] + d["swords"][t] + d["2S"][t] + d["10D"][t] + d["JC"][t] + d["napula"][t]
        )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seeds,
    st.sampled_from(["random", "greedy"]),
    st.sampled_from(["bresciane", "trevisane"]),
    st.sampled_from([{"format": "single"}, {"format": "match", "target": 21}]),
)
def test_simulated_records_pass_the_referee(seed, bot, deck, options):
    r = make_rules("cicera", deck, options=options)
    m = Match(r, seed, [make_bot(bot, r, s, seed) for s in range(4)])
    events = m.run()
    v = verify_events(json.loads(json.dumps(events)))
    assert v.ok, str(v)


def _play_lines(events):
    return [i for i, e in enumerate(events) if e["event"] == "play"]


@SETTINGS
@given(seeds, st.data())
def test_a_record_with_one_decision_mutated_fails_with_its_line(seed, data):
    r = make_rules("cicera")
    events = json.loads(json.dumps(Match(r, seed, [make_bot("random", r, s, seed) for s in range(4)]).run()))
    i = data.draw(st.sampled_from(_play_lines(events)))
    ev = events[i]
    kind = data.draw(st.sampled_from(["card", "capture", "bonus", "seat"]))
    if kind == "card":
        # A card the acting seat was never dealt, so it cannot hold it now.
        dealt = events[1]["hands"][ev["seat"]]
        ev["card"] = data.draw(st.sampled_from([c.code for c in r.cards if c.code not in dealt]))
    elif kind == "capture":
        # Take a card of another rank alone: never a legal capture.
        played = card(ev["card"])
        others = [c.code for c in r.cards if c.rank != played.rank]
        ev["capture"] = [data.draw(st.sampled_from(others))]
    elif kind == "bonus":
        b = data.draw(st.sampled_from(BONUSES))
        ev["bonuses"] = [x for x in ev["bonuses"] if x != b] if b in ev["bonuses"] else ev["bonuses"] + [b]
    else:
        ev["seat"] = (ev["seat"] + data.draw(st.integers(1, 3))) % 4
    v = verify_events(events)
    assert not v.ok
    assert v.line == i + 1, str(v)
