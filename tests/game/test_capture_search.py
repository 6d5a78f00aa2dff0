"""The capture search of the fishing games (game.rules.capture, Scopa's and Cìcera's
``legal_actions`` and ``captures_for``) against a plain copy of the algorithm it replaced:
the same actions, the same captures and the same sums, in the same order, on random positions
of every table size, under every Scopa house rule and in Cìcera.

The reference below is the search as it was before it was made cheaper, kept here on purpose
(bench/capture_speed.py times the two against each other).
"""

from __future__ import annotations

import random
from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st

from game.cards import Card
from game.config import get_config
from game.games.cicera.rules import CiceraRules
from game.games.scopa.rules import ScopaRules
from game.rules import capture
from game.rules.action import Action
from game.rules.capture import capture_play, sum_sets, sums_by_value
from game.rulesets import make_rules

# ---------------------------------------------------------------- the reference (old code)


def ref_sums_by_value(
    table: list[Card], values: dict[Card, int], max_value: int, min_size: int = 2
) -> dict[int, list[tuple[Card, ...]]]:
    """The old capture.sums_by_value, word for word."""
    partial: list[tuple[int, tuple[Card, ...]]] = [(0, ())]
    for c in sorted(table, key=lambda c: c.index):
        v = values.get(c, 0)
        if v <= 0 or v > max_value:
            continue
        partial += [(s + v, cs + (c,)) for s, cs in partial if s + v <= max_value]
    out: dict[int, list[tuple[Card, ...]]] = {}
    for s, cs in partial:
        if len(cs) >= min_size:
            out.setdefault(s, []).append(cs)
    return out


def ref_sum_sets(table: list[Card], values: dict[Card, int], target: int, min_size: int = 2) -> list[tuple[Card, ...]]:
    return ref_sums_by_value(table, values, target, min_size).get(target, [])


def ref_play(c: Card, cap: tuple[Card, ...] = ()) -> Action:
    """The old capture.capture_play: a new Action every time."""
    return Action("play", c, (("capture", cap),) if cap else ())


def ref_scopa_captures_for(rules, c: Card, table: list[Card]) -> list[tuple[Card, ...]]:
    if rules.aces_take_all and c.rank == "A" and table and all(t.rank != "A" for t in table):
        return [tuple(sorted(table))]
    v = rules.values[c]
    if rules.fifteen is not None:
        return ref_sum_sets(table, rules.values, rules.fifteen - v, min_size=1)
    matches: list[tuple[Card, ...]] = [(t,) for t in table if rules.values[t] == v]
    if matches:
        return matches
    return ref_sum_sets(table, rules.values, v)


def ref_scopa_legal(rules, state) -> list[Action]:
    """The old ScopaRules.legal_actions (with _match_first_actions and _fifteen_actions)."""
    if state.over:
        return []
    hand = state.hands[state.to_act]
    table = state.table
    values = rules.values
    out: list[Action] = []
    if rules.aces_take_all and table and all(t.rank != "A" for t in table):
        sweep = tuple(sorted(table))
        out.extend(ref_play(c, sweep) for c in hand if c.rank == "A")
        hand = [c for c in hand if c.rank != "A"]
    if rules.fifteen is not None:
        if hand:
            total = rules.fifteen
            sums = ref_sums_by_value(table, values, total - min(values[c] for c in hand), min_size=1) if table else {}
            for c in hand:
                caps = sums.get(total - values[c])
                if caps:
                    out.extend([ref_play(c, cap) for cap in caps])
                else:
                    out.append(ref_play(c))
        return out
    table_values = [values[t] for t in table]
    unmatched: list[Card] = []
    for c in hand:
        v = values[c]
        if v in table_values:
            out.extend([ref_play(c, (t,)) for t in table if values[t] == v])
        else:
            unmatched.append(c)
    if unmatched:
        sums = ref_sums_by_value(table, values, max(values[c] for c in unmatched)) if len(table) > 1 else {}
        for c in unmatched:
            caps = sums.get(values[c])
            if caps:
                out.extend([ref_play(c, cap) for cap in caps])
            else:
                out.append(ref_play(c))
    return out


def ref_cicera_captures_for(rules, c: Card, table: list[Card]) -> list[tuple[Card, ...]]:
    out: list[tuple[Card, ...]] = [(t,) for t in table if t.rank == c.rank]
    v = rules.values.get(c)
    if v is not None:
        out += ref_sums_by_value(list(table), rules.values, v).get(v, [])
    return out


_CICERA_SHARED: dict[int, tuple[object, dict[Card, Action], dict[Card, dict[Card, Action]]]] = {}


def ref_cicera_legal(rules, state) -> list[Action]:
    """The old CiceraRules.legal_actions (with its shared place-only and single-match actions)."""
    if state.over:
        return []
    table = state.table
    hand = state.hands[state.to_act]
    shared = _CICERA_SHARED.get(id(rules))
    if shared is None or shared[0] is not rules:
        place = {c: ref_play(c) for c in rules.cards}
        match = {c: {t: ref_play(c, (t,)) for t in rules.cards if t.rank == c.rank and t is not c} for c in rules.cards}
        shared = _CICERA_SHARED[id(rules)] = (rules, place, match)
    _, place, match = shared
    values = rules.values
    by_rank: dict[str, list[Card]] = {}
    for t in table:
        if t.rank in by_rank:
            by_rank[t.rank].append(t)
        else:
            by_rank[t.rank] = [t]
    top = 0
    for c in hand:
        v = values.get(c, 0)
        if v > top:
            top = v
    sums = ref_sums_by_value(table, values, top) if top >= 2 and len(table) > 1 else {}
    out: list[Action] = []
    for c in hand:
        out.append(place[c])
        matches = by_rank.get(c.rank)
        if matches:
            mc = match[c]
            out.extend([mc[t] for t in matches])
        if sums:
            caps = sums.get(values.get(c, 0))
            if caps:
                out.extend([ref_play(c, cap) for cap in caps])
    return out


# ---------------------------------------------------------------- the comparisons

#: Every Scopa setting the options allow that changes the capture search (the deal only
#: changes the sizes, covered by the hand and table sizes drawn), with a player count each.
SCOPA_VARIANTS: tuple[tuple[int, dict[str, object]], ...] = tuple(
    (players, {"capture": capture, "aces": aces, **({"deal": deal} if players == 4 else {})})
    for capture in ("match_first", "fifteen")
    for aces in ("normal", "take_all")
    for players, deal in ((2, "three"), (4, "scopone10"))
)
SCOPA = [cast(ScopaRules, make_rules("scopa", None, players, opts)) for players, opts in SCOPA_VARIANTS]
CICERA = cast(CiceraRules, make_rules("cicera"))
EVERY: tuple[ScopaRules | CiceraRules, ...] = (*SCOPA, CICERA)


def _position(rules, rng: random.Random, table_size: int, hand_size: int):
    """A state of ``rules`` with a random hand of ``hand_size`` for the seat to act and a random
    table of ``table_size`` (distinct cards, in random order)."""
    state = rules.new_deal(random.Random(rng.random()), 0)
    cards = list(rules.cards)
    rng.shuffle(cards)
    state.table = cards[:table_size]
    state.hands[state.to_act] = cards[table_size : table_size + hand_size]
    return state


def _check(rules, state, ref_legal, ref_captures) -> None:
    new = rules.legal_actions(state)
    old = ref_legal(rules, state)
    assert new == old, (state.hands[state.to_act], state.table)
    assert all(type(a) is Action for a in new)
    table = list(state.table)
    for c in state.hands[state.to_act]:
        assert rules.captures_for(c, table) == ref_captures(rules, c, table), (c, table)


def test_every_preset_matches_the_old_search():
    """Each Scopa preset of rules.yaml, at each player count it allows, on random positions."""
    presets = get_config().game("scopa").presets
    assert {p.id for p in presets} >= {"classica", "scopone", "scopone10", "assi", "quindici"}
    rng = random.Random(62)
    for preset in presets:
        for players in preset.players:
            rules = cast(ScopaRules, make_rules("scopa", None, players, preset.options))
            for table_size in range(11):
                for _ in range(4):
                    state = _position(rules, rng, table_size, rng.randint(0, rules.hand_size))
                    _check(rules, state, ref_scopa_legal, ref_scopa_captures_for)


def test_scopa_legal_actions_match_the_old_search_on_random_positions():
    rng = random.Random(63)
    for rules in SCOPA:
        for table_size in range(11):
            for _ in range(18):
                hand_size = rng.randint(0, min(10, rules.hand_size))
                _check(rules, _position(rules, rng, table_size, hand_size), ref_scopa_legal, ref_scopa_captures_for)


def test_cicera_legal_actions_match_the_old_search_on_random_positions():
    rng = random.Random(64)
    for table_size in range(11):
        for _ in range(60):
            hand_size = rng.randint(0, 12)
            _check(CICERA, _position(CICERA, rng, table_size, hand_size), ref_cicera_legal, ref_cicera_captures_for)


def test_low_cards_tables_with_many_sums_match():
    """Tables of Aces to Fours only: the most sets per total, the longest lists to keep in order."""
    rng = random.Random(65)
    for rules in EVERY:
        low = [c for c in rules.cards if rules.values.get(c, 99) <= 4]
        for _ in range(40):
            state = rules.new_deal(random.Random(rng.random()), 0)
            cards = rng.sample(rules.cards, len(rules.cards))
            table = rng.sample(low, rng.randint(2, 10))
            state.table = table
            state.hands[state.to_act] = [c for c in cards if c not in table][: rng.randint(1, 3)]
            ref = ref_cicera_legal if rules is CICERA else ref_scopa_legal
            caps = ref_cicera_captures_for if rules is CICERA else ref_scopa_captures_for
            _check(rules, state, ref, caps)


def test_positions_of_random_play_match():
    rng = random.Random(66)
    for rules in (*SCOPA, make_rules("scopa", None, 4, {"deal": "scopone"}), CICERA):
        ref = ref_cicera_legal if rules is CICERA else ref_scopa_legal
        caps = ref_cicera_captures_for if rules is CICERA else ref_scopa_captures_for
        state = rules.new_deal(rng, 0)
        while not state.over:
            _check(rules, state, ref, caps)
            rules.apply(state, rng.choice(rules.legal_actions(state)))
        assert rules.legal_actions(state) == ref(rules, state) == []


def test_sums_by_value_keeps_its_sets_totals_and_order():
    """The same dict (totals in the same order) and the same sets in the same order, for any
    values: cards without one, zero or negative ones never join a sum."""
    rng = random.Random(67)
    deck = list(CICERA.cards)
    for _ in range(300):
        values: dict[Card, int] = {c: rng.randint(-1, 10) for c in deck if rng.random() < 0.9}
        table = rng.sample(deck, rng.randint(0, 11))
        max_value = rng.randint(-1, 16)
        min_size = rng.randint(0, 3)
        new = sums_by_value(table, values, max_value, min_size)
        old = ref_sums_by_value(table, values, max_value, min_size)
        assert list(new.items()) == list(old.items())
        target = rng.randint(0, 12)
        assert sum_sets(table, values, target, min_size) == ref_sum_sets(table, values, target, min_size)
        assert sum_sets(tuple(table), values, target, min_size) == ref_sum_sets(table, values, target, min_size)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    variant=st.sampled_from(range(len(SCOPA_VARIANTS) + 1)),
    table_size=st.integers(min_value=0, max_value=12),
    hand_size=st.integers(min_value=0, max_value=10),
)
def test_any_position_matches(seed, variant, table_size, hand_size):
    rules = CICERA if variant == len(SCOPA) else SCOPA[variant]
    state = _position(rules, random.Random(seed), table_size, hand_size)
    if rules is CICERA:
        _check(rules, state, ref_cicera_legal, ref_cicera_captures_for)
    else:
        _check(rules, state, ref_scopa_legal, ref_scopa_captures_for)


def test_capture_play_is_the_same_action_shared():
    rules = SCOPA[0]
    c, t, u = rules.cards[6], rules.cards[2], rules.cards[3]
    a = capture_play(c, (t, u))
    assert a == ref_play(c, (t, u)) and hash(a) == hash(ref_play(c, (t, u))) and repr(a) == repr(ref_play(c, (t, u)))
    assert capture_play(c, (t, u)) is a
    assert capture_play(c) == ref_play(c) and capture_play(c).args == ()
    # A capture given as a list (not hashable) is still built, as before, just not shared.
    listed = capture_play(c, [t, u])  # type: ignore[arg-type]
    assert listed.card is c and listed.args == (("capture", [t, u]),)


def test_the_shared_plays_stay_bounded():
    cards = SCOPA[0].cards
    plays = [(c, (t, u)) for c in cards for t in cards for u in cards if t.index < u.index]
    assert len(plays) > capture._PLAYS_MAX
    for c, cap in plays:
        assert capture_play(c, cap) == ref_play(c, cap)
        assert len(capture._PLAYS) <= capture._PLAYS_MAX
