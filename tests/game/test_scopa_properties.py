"""Property tests: random legal Scopa play conserves cards, scores add up, records verify."""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai.bots import make_bot
from game.match import Match
from game.rules.capture import captured
from game.rulesets import make_rules
from game.verify import verify_events

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
PLAYERS = st.sampled_from([2, 3, 4])
KEYS = ("cards", "coins", "settebello", "primiera", "scope", "re_bello", "napola")


@st.composite
def variants(draw) -> tuple[int, dict]:
    """A player count and a combination of house rules that fits it (Scopone: four players)."""
    players = draw(PLAYERS)
    opts = {
        "deal": draw(st.sampled_from(["three", "scopone", "scopone10"])) if players == 4 else "three",
        "capture": draw(st.sampled_from(["match_first", "fifteen"])),
        "aces": draw(st.sampled_from(["normal", "take_all"])),
        "re_bello": draw(st.booleans()),
        "napola": draw(st.booleans()),
        "target": draw(st.sampled_from([11, 16])),
    }
    return players, opts


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_random_play_never_loses_or_duplicates_a_card(seed, players):
    r = make_rules("scopa", None, players)
    rng = random.Random(seed)
    s = r.new_deal(rng, rng.randrange(players))
    deck = Counter(r.cards)
    while True:
        where = Counter(c for h in s.hands for c in h) + Counter(s.table) + Counter(s.stock)
        where += Counter(c for p in s.piles for c in p)
        assert where == deck
        if s.over:
            break
        r.apply(s, rng.choice(r.legal_actions(s)))
    res = r.deal_result(s)
    assert sum(res.detail["card_counts"]) == 40


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_deal_points_equal_awards_plus_scope(seed, players):
    r = make_rules("scopa", None, players)
    rng = random.Random(seed)
    s = r.new_deal(rng, 0)
    scope_seen = [0] * r.teams
    while not s.over:
        a = rng.choice(r.legal_actions(s))
        ev = r.apply(s, a)
        if "scopa" in ev[0]["bonuses"]:
            scope_seen[r.team_of(ev[0]["seat"])] += 1
    res = r.deal_result(s)
    d = res.detail
    for t in range(r.teams):
        assert res.points[t] == d["cards"][t] + d["coins"][t] + d["settebello"][t] + d["primiera"][t] + d["scope"][t]
    assert d["scope"] == scope_seen
    assert sum(d["settebello"]) == 1 and sum(d["cards"]) <= 1 and sum(d["primiera"]) <= 1


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS, bots=st.sampled_from(["random", "greedy"]))
def test_every_simulated_record_passes_verify(seed, players, bots):
    r = make_rules("scopa", None, players)
    m = Match(r, seed, [make_bot(bots, r, i, seed) for i in range(players)])
    assert verify_events(copy.deepcopy(m.run())).ok


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, pick=st.integers(min_value=0, max_value=10_000), data=st.data())
def test_a_record_with_one_play_mutated_fails(seed, pick, data):
    r = make_rules("scopa", None, 2)
    m = Match(r, seed, [make_bot("random", r, i, seed) for i in range(2)])
    ev = copy.deepcopy(m.run())
    plays = [i for i, e in enumerate(ev) if e["event"] == "play"]
    i = plays[pick % len(plays)]
    field = data.draw(st.sampled_from(["card", "capture", "bonuses"]))
    if field == "card":
        ev[i]["card"] = data.draw(st.sampled_from([c.code for c in r.cards if c.code != ev[i]["card"]]))
    elif field == "capture":
        ev[i]["capture"] = ev[i]["capture"][:-1] if ev[i]["capture"] else [ev[i]["card"]]
    else:
        ev[i]["bonuses"] = [] if ev[i]["bonuses"] else ["scopa"]
    v = verify_events(ev)
    assert not v.ok and v.line is not None and v.line >= i + 1


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, variant=variants())
def test_house_rules_conserve_the_cards(seed, variant):
    players, opts = variant
    r = make_rules("scopa", None, players, opts)
    rng = random.Random(seed)
    s = r.new_deal(rng, rng.randrange(players))
    deck = Counter(r.cards)
    while True:
        where = Counter(c for h in s.hands for c in h) + Counter(s.table) + Counter(s.stock)
        where += Counter(c for p in s.piles for c in p)
        assert where == deck
        if s.over:
            break
        r.apply(s, rng.choice(r.legal_actions(s)))
    assert sum(r.deal_result(s).detail["card_counts"]) == 40


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, variant=variants())
def test_house_rules_points_add_up(seed, variant):
    players, opts = variant
    r = make_rules("scopa", None, players, opts)
    rng = random.Random(seed)
    s = r.new_deal(rng, 0)
    scope_seen = [0] * r.teams
    while not s.over:
        a = rng.choice(r.legal_actions(s))
        final = not s.stock and sum(len(h) for h in s.hands) == 1
        ev = r.apply(s, a)
        if "scopa" in ev[0]["bonuses"]:
            assert not final and not s.table and captured(a)
            assert not (opts["aces"] == "take_all" and a.card.rank == "A")
            scope_seen[r.team_of(ev[0]["seat"])] += 1
        elif captured(a) and not s.table and not final:
            assert opts["aces"] == "take_all" and a.card.rank == "A"  # the only sweep without a scopa
    res = r.deal_result(s)
    d = res.detail
    assert ("re_bello" in d) == opts["re_bello"] and ("napola" in d) == opts["napola"]
    for t in range(r.teams):
        assert res.points[t] == sum(d[k][t] for k in KEYS if k in d)
    assert d["scope"] == scope_seen
    if opts["re_bello"]:
        assert sum(d["re_bello"]) <= 1
    if opts["napola"]:
        assert sum(1 for v in d["napola"] if v) <= 1 and all(v == 0 or 3 <= v <= 10 for v in d["napola"])


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, variant=variants(), bots=st.sampled_from(["random", "greedy"]))
def test_house_rule_records_pass_verify_and_strict_verify(seed, variant, bots):
    players, opts = variant
    r = make_rules("scopa", None, players, opts)
    m = Match(r, seed, [make_bot(bots, r, i, seed) for i in range(players)])
    events = m.run()
    assert events[0]["options"] == r.options and set(r.options) == set(opts)
    assert verify_events(copy.deepcopy(events)).ok
    v = verify_events(copy.deepcopy(events), strict=True)
    assert v.ok, str(v)
