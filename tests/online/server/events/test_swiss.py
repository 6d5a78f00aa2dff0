"""Swiss tournaments: a four-round Swiss of seven players (a bye each round, nobody met twice,
Buchholz and Sonneborn-Berger recomputed here), pairing properties over random tournaments
(no pair twice, a bye at most once and only for an odd number, to the lowest eligible, the
score differences the least possible — checked against every pairing of a small field),
registration, teams of two, a player who leaves, rounds at set times."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.online.server.events.common import EventRefusal
from game.online.server.events.store import SqliteEventStore
from game.online.server.events.swiss import DRAW, A, B, NoPairing, Swiss, Swisses, floor_cost, pair_round
from tests.online.server.events.helpers import GAME

T0 = dt.datetime(2026, 12, 7, 18, 0)
START = T0 + dt.timedelta(hours=1)


def new_swiss(rounds: int, team_size: int = 1, times=()) -> Swiss:
    return Swiss.new("swiss:t", GAME, "standard", rounds, START, team_size, times)


def play_round(s: Swiss, tables, rng: random.Random, now: dt.datetime) -> None:
    for t in tables:
        if t["b"] is not None:
            s.report(t["match"], rng.choice([A, B, DRAW]), now)


def own_tie_breaks(s: Swiss) -> tuple[dict, dict, dict]:
    """Scores, Buchholz and Sonneborn-Berger from the rounds, computed here."""
    score = {e: 0.0 for e in s.entrants()}
    games = []
    for r in s.rounds():
        for t in r:
            if t["b"] is None:
                score[t["a"]] += 1
                continue
            pa = {A: 1.0, B: 0.0, DRAW: 0.5}[t["result"]]
            score[t["a"]] += pa
            score[t["b"]] += 1 - pa
            games.append((t["a"], t["b"], pa))
    bh = {e: 0.0 for e in score}
    sb = {e: 0.0 for e in score}
    for a, b, pa in games:
        bh[a] += score[b]
        bh[b] += score[a]
        sb[a] += pa * score[b]
        sb[b] += (1 - pa) * score[a]
    return score, bh, sb


def test_four_rounds_of_seven_players_with_byes_and_tie_breaks(tmp_path):
    store = SqliteEventStore(tmp_path)
    swisses = Swisses(store)
    sid = swisses.create(None, GAME, "standard", 4, START, T0)
    for k in range(1, 8):
        swisses.register(sid, [f"p:{k}"], f"Player {k}", 1000 + 10 * k, T0)
    assert swisses.advance(sid, T0) is None  # not before the start
    rng = random.Random(3)
    now = START
    seen: set[frozenset] = set()
    byes = []
    for rnd in range(4):
        tables = swisses.advance(sid, now)
        assert tables is not None, f"round {rnd + 1} did not begin"
        assert swisses.advance(sid, now) is None  # not before this round's results are in
        bye = [t["a"] for t in tables if t["b"] is None]
        assert len(bye) == 1
        byes.append(bye[0])
        for t in tables:
            if t["b"] is not None:
                pair = frozenset((t["a"], t["b"]))
                assert pair not in seen
                seen.add(pair)
                swisses.report(sid, t["match"], rng.choice([A, B, DRAW]), now)
        now += dt.timedelta(minutes=20)
    assert len(set(byes)) == 4  # at most once each
    s = swisses.get(sid)
    assert s.finished and swisses.advance(sid, now) is None
    score, bh, sb = own_tie_breaks(s)
    lines = swisses.standings(sid)
    assert len(lines) == 7
    for ln in lines:
        assert (ln.score, ln.buchholz, ln.sonneborn_berger) == (score[ln.entrant], bh[ln.entrant], sb[ln.entrant])
    keys = [(-ln.score, -ln.buchholz, -ln.sonneborn_berger) for ln in lines]
    assert keys == sorted(keys)
    assert sum(ln.score for ln in lines) == 4 * 3 + 4  # three games a round, and a bye
    store.close()


def all_costs(order: list[str], scores: dict, met: set) -> list[int]:
    """The cost (sum of squared differences in half points) of every pairing without repeats."""
    if not order:
        return [0]
    top, rest = order[0], order[1:]
    out = []
    for e in rest:
        if frozenset((top, e)) in met:
            continue
        c = round(2 * (scores[top] - scores[e])) ** 2
        out += [c + x for x in all_costs([x for x in rest if x != e], scores, met)]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=2, max_value=11),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=10**6),
    drops=st.lists(st.integers(min_value=0, max_value=10), max_size=3),
)
def test_pairing_properties_over_random_tournaments(n, rounds, seed, drops):
    rng = random.Random(seed)
    s = new_swiss(rounds)
    for k in range(n):
        s.register([f"p:{k}"], f"P{k}", rng.randint(900, 1900), T0)
    now = START
    for rnd in range(rounds):
        if rnd and drops:  # someone leaves between rounds
            who = f"p:{drops.pop() % n}"
            s.leave(who, now)
        active = [e for e, v in s.entrants().items() if not v["dropped"]]
        scores_before = s.scores()
        met_before = s.met()
        byes_before = s.had_bye()
        tables = s.start_round(now)
        if tables is None:
            assert s.finished  # too few players, or nobody can be paired without a repeat
            if len(active) >= 2:
                assert s.s["why"] == "no pairing without a repeat is left"
            break
        seated = [t["a"] for t in tables] + [t["b"] for t in tables if t["b"] is not None]
        assert sorted(seated) == sorted(active)  # everyone active, once; nobody dropped
        bye = [t["a"] for t in tables if t["b"] is None]
        assert len(bye) == len(active) % 2
        for b in bye:
            assert b not in byes_before
        games = [frozenset((t["a"], t["b"])) for t in tables if t["b"] is not None]
        assert not set(games) & met_before
        rest = [e for e in active if e not in bye]
        if len(rest) <= 8:  # the least score difference any pairing without repeats has
            ours = sum(round(2 * (scores_before[t["a"]] - scores_before[t["b"]])) ** 2 for t in tables if t["b"])
            assert ours == min(all_costs(rest, scores_before, met_before))
        if bye and len(active) <= 9:  # the bye went to the lowest eligible that leaves a pairing
            lower = [
                e
                for e in active
                if e not in byes_before
                and scores_before[e] < scores_before[bye[0]]
                and all_costs([x for x in active if x != e], scores_before, met_before)
            ]
            assert not lower
        play_round(s, tables, rng, now)
        now += dt.timedelta(minutes=30)
    for e in s.entrants():
        assert sum(1 for r in s.rounds() for t in r if t["a"] == e and t["b"] is None) <= 1


def test_dutch_order_within_a_score_group():
    ranked = [f"e{k}" for k in range(1, 7)]
    pairs, bye = pair_round(ranked, {e: 1.0 for e in ranked}, set(), set())
    assert bye is None and pairs == [("e1", "e4"), ("e2", "e5"), ("e3", "e6")]
    with pytest.raises(NoPairing):
        pair_round(["x", "y"], {"x": 0.0, "y": 0.0}, {frozenset(("x", "y"))}, set())


def test_registration_teams_and_leaving():
    s = new_swiss(3, team_size=2)
    with pytest.raises(EventRefusal) as e:
        s.register(["p:1"], "Alone", 1000, T0)
    assert e.value.code == "team"
    with pytest.raises(EventRefusal):
        s.register(["p:1", "p:1"], "Twice", 1000, T0)
    t1 = s.register(["p:2", "p:1"], "One and two", 1000, T0)
    assert t1 == "t:p:1+p:2"
    with pytest.raises(EventRefusal) as e:
        s.register(["p:1", "p:3"], "Again", 1000, T0)
    assert e.value.code == "registered"
    s.register(["p:3", "p:4"], "Three and four", 1000, T0)
    s.register(["p:5", "p:6"], "Five and six", 1000, T0)
    s.leave("p:6", T0)  # before the start: the team's entry is gone
    assert set(s.entrants()) == {"t:p:1+p:2", "t:p:3+p:4"}
    s.register(["p:5", "p:6"], "Five and six", 1000, T0)
    with pytest.raises(EventRefusal) as e:
        s.register(["p:7", "p:8"], "Late", 1000, START)
    assert e.value.code == "started"
    tables = s.start_round(START)
    assert tables is not None and len(tables) == 2  # three teams: one game and a bye
    play_round(s, tables, random.Random(1), START)
    s.leave("p:3", START)  # after the start: the team is dropped, its results kept
    tables = s.start_round(START)
    assert tables is not None and all("t:p:3+p:4" not in (t["a"], t["b"]) for t in tables)
    assert "t:p:3+p:4" in {ln.entrant for ln in s.standings()}


def test_rounds_wait_for_their_set_time():
    times = [START, START + dt.timedelta(hours=1), START + dt.timedelta(hours=2)]
    s = new_swiss(3, times=times)
    for k in range(4):
        s.register([f"p:{k}"], f"P{k}", 1000, T0)
    tables = s.start_round(START)
    assert tables is not None
    play_round(s, tables, random.Random(2), START + dt.timedelta(minutes=10))
    assert s.start_round(START + dt.timedelta(minutes=30)) is None  # results in, its time not yet
    assert s.start_round(times[1]) is not None
    with pytest.raises(EventRefusal) as e:
        s.report("swiss:t/1/1", A, times[1])
    assert e.value.code == "finished"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=12), min_size=2, max_size=10).filter(lambda h: len(h) % 2 == 0))
def test_the_floor_is_what_the_best_pairing_costs_without_repeats(halves):
    """floor_cost (the bound the search prunes with) is never above any pairing's cost, and
    is the cost of the best one when nobody has met."""
    names = [f"e{i}" for i in range(len(halves))]
    scores = {n: h / 2 for n, h in zip(names, halves)}
    order = sorted(names, key=lambda n: -scores[n])
    assert floor_cost(halves) == min(all_costs(order, scores, set()))
