"""Property tests: random legal Schnapsen play conserves cards, points add up, records verify."""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.bots import make_bot
from game.games.schnapsen.vocabulary import CLOSE, EXCHANGE
from game.match import Match
from game.rules.base import IllegalAction, play
from game.rulesets import make_rules
from game.verify import verify_events

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
DECKS = st.sampled_from(["schnapsen-german", "schnapsen-french"])


def every_action(r, s):
    """Every action shape there is, legal or not, for the seat to act."""
    out = [EXCHANGE, CLOSE]
    for c in r.cards:
        out.append(play(c))
        out.append(play(c, marriage=True))
    return out


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, deck=DECKS)
def test_random_play_never_loses_or_duplicates_a_card(seed, deck):
    r = make_rules("schnapsen", deck)
    rng = random.Random(seed)
    s = r.new_deal(rng, rng.randrange(2))
    full = Counter(r.cards)
    while True:
        where = Counter(s.hands[0]) + Counter(s.hands[1]) + Counter(s.stock) + Counter(s.won[0]) + Counter(s.won[1])
        if s.led is not None:
            where[s.led] += 1
        assert where == full
        assert len(s.hands[0]) == len(s.hands[1]) + (s.led is not None and s.leader == 1) - (
            s.led is not None and s.leader == 0
        )
        if s.over:
            break
        r.apply(s, rng.choice(r.legal_actions(s)))


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_legal_actions_are_exactly_the_actions_validate_accepts(seed):
    r = make_rules("schnapsen")
    rng = random.Random(seed)
    s = r.new_deal(rng, rng.randrange(2))
    while not s.over:
        legal = set(r.legal_actions(s))
        for a in every_action(r, s):
            try:
                r.validate(s, a)
                ok = True
            except IllegalAction as e:
                ok = False
                assert e.rule and str(e)
            assert ok == (a in legal), (a, s)
        r.apply(s, rng.choice(sorted(legal, key=str)))


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_points_add_up_as_the_rules_say(seed):
    r = make_rules("schnapsen")
    rng = random.Random(seed)
    s = r.new_deal(rng, rng.randrange(2))
    trick_points = [0, 0]
    declared = [0, 0]
    while not s.over:
        for e in r.apply(s, rng.choice(r.legal_actions(s))):
            if e["event"] == "trick":
                trick_points[e["winner"]] += e["points"]
            elif e["event"] == "marriage":
                declared[e["seat"]] += e["points"]
    res = r.deal_result(s)
    d = res.detail
    assert d["card_points"] == trick_points
    assert d["card_points"] == [sum(r.points[c] for c in w) for w in s.won]
    for p in (0, 1):
        # Marriages are credited when their declarer has a trick, else they stay pending.
        assert d["marriages"][p] + d["pending"][p] == declared[p]
        assert d["pending"][p] == 0 or d["tricks"][p] == 0
        assert d["points"][p] == d["card_points"][p] + d["marriages"][p]
    w = d["winner"]
    assert res.points[1 - w] == 0 and 1 <= res.points[w] <= 3
    if d["reason"] in ("66", "closed_won"):
        assert d["points"][w] >= 66 and d["points"][1 - w] < 66
    else:
        assert max(d["points"]) < 66 or d["reason"] == "closed_lost"
    if d["reason"] == "last_trick":
        assert sum(d["card_points"]) == 120 and s.closed_by is None
    if d["reason"] == "66" and d["tricks"][1 - w] == 0:
        assert res.points[w] == 3


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_clone_is_independent(seed):
    r = make_rules("schnapsen")
    rng = random.Random(seed)
    s = r.new_deal(rng, 0)
    for _ in range(rng.randrange(12)):
        if s.over:
            break
        r.apply(s, rng.choice(r.legal_actions(s)))
    c = r.clone(s)
    snapshot = copy.deepcopy(s)
    while not c.over:
        r.apply(c, rng.choice(r.legal_actions(c)))
    for f in (
        "hands",
        "stock",
        "won",
        "card_points",
        "marriage_points",
        "pending",
        "known",
        "history",
        "over",
        "closed_by",
        "led",
        "to_act",
    ):
        assert getattr(s, f) == getattr(snapshot, f), f


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, deck=DECKS, bots=st.sampled_from(["random", "greedy", "random,greedy"]))
def test_every_simulated_record_passes_verify(seed, deck, bots):
    r = make_rules("schnapsen", deck)
    names = bots.split(",") * (2 // len(bots.split(",")))
    m = Match(r, seed, [make_bot(n, r, i, seed) for i, n in enumerate(names)])
    ev = m.run()
    assert ev[-1]["event"] == "match_end"
    assert verify_events(copy.deepcopy(ev)).ok


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=10_000), data=st.data())
def test_a_record_with_one_play_mutated_fails_with_a_line_number(seed, pick, data):
    r = make_rules("schnapsen")
    m = Match(r, seed, [make_bot("random", r, i, seed) for i in range(2)])
    ev = copy.deepcopy(m.run())
    plays = [i for i, e in enumerate(ev) if e["event"] == "play"]
    i = plays[pick % len(plays)]
    ev[i]["card"] = data.draw(st.sampled_from([c.code for c in r.cards if c.code != ev[i]["card"]]))
    verdict = verify_events(ev)
    # The failing line is the play's own line or later, or the marriage line it belongs to.
    assert not verdict.ok and verdict.line is not None and verdict.line >= i


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=10_000))
def test_a_record_with_a_marriage_or_close_dropped_fails(seed, pick):
    # (A dropped exchange can leave a record of another legal deal, so it is not a property.)
    r = make_rules("schnapsen")
    m = Match(r, seed, [make_bot("greedy", r, i, seed) for i in range(2)])
    ev = copy.deepcopy(m.run())
    extra = [i for i, e in enumerate(ev) if e["event"] in ("marriage", "close")]
    if not extra:
        return
    i = extra[pick % len(extra)]
    del ev[i]
    verdict = verify_events(ev)
    assert not verdict.ok and verdict.line is not None
