"""The tournament of the day: a secret 128-bit seed committed by its hash and revealed after
the day, the same deals for everyone, one entry per account, the deals in order and each
once, matchpoint standings equal to an independent recompute from the records, the field of
a deal, and nobody seeing a result on a deal before ending it."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from game.online.server.daily import GRACE
from game.online.server.events.common import EventRefusal
from game.online.server.events.deals import score_record
from game.online.server.events.store import SqliteEventStore
from game.online.server.events.tourday import TourOfDay, matchpoints, standings
from game.verify import verify_events
from tests.online.server.events.helpers import GAME, jsonl, play
from tests.online.server.events.recompute import recompute

DAY = dt.date(2026, 12, 7)
NOON = dt.datetime.combine(DAY, dt.time(12))
NEXT_MORNING = NOON + dt.timedelta(hours=13)  # the day over, the deadline not yet
AFTER_DEADLINE = dt.datetime.combine(DAY + dt.timedelta(days=1), dt.time()) + GRACE


@pytest.fixture
def tod(tmp_path):
    store = SqliteEventStore(tmp_path)
    yield TourOfDay(store, deals=3)
    store.close()


def play_through(tod: TourOfDay, tid: str, player: str, seed: int, records: dict[str, str], upto: int | None = None):
    """``player`` plays the day's deals (up to ``upto``) at tables of their own."""
    n = len(tod.deals_of(tid)) if upto is None else upto
    for i in range(n):
        code = f"T{player[2:]}X{i}"
        deal = tod.begin(tid, player, i, code, NOON)
        events = play(deal, seed * 100 + i)
        score = score_record(deal, events, 0)
        records[code] = jsonl(events)
        tod.finish(tid, player, i, code, score, NOON)


def test_seed_is_secret_until_the_day_is_over_then_matches_the_commitment_and_the_deals(tod):
    tid = tod.ensure(DAY.isoformat(), GAME, None, NOON)
    assert tod.ensure(DAY.isoformat(), GAME, None, NOON) == tid  # one secret a day
    shown = tod.public(tid, NOON)
    assert shown["seed"] is None and shown["nonce"] is None and len(shown["hash"]) == 64
    assert tod.public(tid, NEXT_MORNING)["seed"] is not None  # nobody had begun a deal
    tod.enter(tid, "p:1", "Anna", NOON)
    tod.begin(tid, "p:1", 0, "CODE0", NOON)
    assert tod.public(tid, NEXT_MORNING)["seed"] is None  # a table still open keeps it secret
    out = tod.public(tid, AFTER_DEADLINE)
    seed, nonce = int(out["seed"]), out["nonce"]
    assert seed.bit_length() <= 128 and seed.bit_length() > 64
    text = f"cardavia-online-tournament|{DAY.isoformat()}|{GAME}|{out['preset']}|3|{seed}|{nonce}"
    assert hashlib.sha256(text.encode()).hexdigest() == shown["hash"]
    # each deal's seed is the published derivation, computed here on its own
    for i, deal in enumerate(tod.deals_of(tid)):
        want = int.from_bytes(hashlib.sha256(f"cardavia-online-tournament|{seed}|{i}".encode()).digest(), "big")
        assert deal.seed == want
    assert len({d.seed for d in tod.deals_of(tid)}) == 3


def test_one_entry_per_account_deals_in_order_each_once(tod):
    tid = tod.ensure(DAY.isoformat(), GAME, None, NOON)
    with pytest.raises(EventRefusal) as e:
        tod.begin(tid, "p:1", 0, "C0", NOON)
    assert e.value.code == "not_entered"
    tod.enter(tid, "p:1", "Anna", NOON)
    with pytest.raises(EventRefusal) as e:
        tod.enter(tid, "p:1", "Anna again", NOON)
    assert e.value.code == "entered"
    with pytest.raises(EventRefusal) as e:
        tod.enter(tid, "p:2", "Bea", NEXT_MORNING)
    assert e.value.code == "closed"
    with pytest.raises(EventRefusal) as e:
        tod.begin(tid, "p:1", 1, "C1", NOON)
    assert e.value.code == "order"
    deal = tod.begin(tid, "p:1", 0, "C0", NOON)
    with pytest.raises(EventRefusal) as e:
        tod.begin(tid, "p:1", 1, "C1", NOON)
    assert e.value.code == "busy"
    with pytest.raises(EventRefusal) as e:
        tod.finish(tid, "p:1", 0, "OTHER", 10, NOON)
    assert e.value.code == "record"
    events = play(deal, 5)
    tod.finish(tid, "p:1", 0, "C0", score_record(deal, events, 0), NOON)
    with pytest.raises(EventRefusal) as e:
        tod.finish(tid, "p:1", 0, "C0", 99, NOON)
    assert e.value.code == "played"
    with pytest.raises(EventRefusal):
        tod.begin(tid, "p:1", 0, "C0b", NOON)
    tod.begin(tid, "p:1", 1, "C1", NOON)
    tod.finish(tid, "p:1", 1, "C1", 7, NEXT_MORNING)  # a deal under way at midnight ends after it
    with pytest.raises(EventRefusal) as e:
        tod.begin(tid, "p:1", 2, "C2", NEXT_MORNING)  # but none begins after the day
    assert e.value.code == "closed"
    tod.begin(tid, "p:1", 2, "C2", NOON)
    tod.close_deal(tid, "p:1", 2, NOON)  # the table closed unfinished: that deal is over for them
    assert tod.progress(tid, "p:1") == {
        "entered": True,
        "ended": 3,
        "next": None,
        "scores": {"0": tod.progress(tid, "p:1")["scores"]["0"], "1": 7.0},
    }
    with pytest.raises(EventRefusal) as e:
        tod.finish(tid, "p:1", 2, "C2", 1, NOON)
    assert e.value.code == "record"  # its table closed unfinished: no result any more
    tod.enter(tid, "p:2", "Bea", NOON)
    tod.begin(tid, "p:2", 0, "D0", NOON)
    with pytest.raises(EventRefusal) as e:
        tod.finish(tid, "p:2", 0, "D0", 1, AFTER_DEADLINE)
    assert e.value.code == "closed"


def test_a_record_of_another_deal_or_that_does_not_verify_is_refused(tod):
    tid = tod.ensure(DAY.isoformat(), GAME, None, NOON)
    d0, d1 = tod.deals_of(tid)[:2]
    events = play(d0, 1)
    with pytest.raises(EventRefusal) as e:
        score_record(d1, events, 0)
    assert e.value.code == "record"
    broken = [dict(ev) for ev in events]
    last_play = max(i for i, ev in enumerate(broken) if ev["event"] == "play")
    broken[last_play]["card"] = "XX"
    with pytest.raises(EventRefusal):
        score_record(d0, broken, 0)


def test_standings_equal_an_independent_recompute_from_the_records(tod):
    tid = tod.ensure(DAY.isoformat(), GAME, None, NOON)
    records: dict[str, str] = {}
    names = {f"p:{k}": f"Player {k}" for k in range(1, 9)}
    for k, (p, name) in enumerate(names.items()):
        tod.enter(tid, p, name, NOON)
        # two players stop after a deal: they count in the field, not in the ranking
        play_through(tod, tid, p, seed=k % 5, records=records, upto=1 if k >= 6 else None)
    shown = tod.standings(tid, "p:1", NOON)
    entries = []
    for p, name in names.items():
        prog = tod.progress(tid, p)
        entries.append(
            {
                "player": p,
                "name": name,
                "ended": prog["ended"],
                "results": {i: f"T{p[2:]}X{i}" for i in range(int(prog["ended"]))},
            }
        )
    for code, text in records.items():  # every record verifies
        import json

        assert verify_events([json.loads(line) for line in text.splitlines()]).ok, code
    want = recompute(entries, records, deals=3)
    got = [(s.rank, s.name, f"{s.percent:.2f}") for s in shown if s.rank is not None]
    assert got == want
    assert len(got) == 6 and [s.rank for s in shown[6:]] == [None, None]
    # some real spread (the seeds differ), so the comparison means something
    assert len({s.percent for s in shown}) > 2


def test_nobody_sees_a_result_on_a_deal_before_ending_it(tod):
    tid = tod.ensure(DAY.isoformat(), GAME, None, NOON)
    records: dict[str, str] = {}
    for k in (1, 2, 3):
        tod.enter(tid, f"p:{k}", f"P{k}", NOON)
    play_through(tod, tid, "p:1", 1, records)
    play_through(tod, tid, "p:2", 2, records, upto=1)
    # p:3 has played nothing: no field, no standings
    for i in range(3):
        assert not tod.may_see(tid, "p:3", i, NOON)
        with pytest.raises(EventRefusal) as e:
            tod.field(tid, "p:3", i, NOON)
        assert e.value.code == "hidden"
    assert not tod.may_see(tid, None, 0, NOON)  # the web pages, while the day is open
    with pytest.raises(EventRefusal):
        tod.standings(tid, "p:3", NOON)
    # p:2 has ended deal 0 only
    assert tod.may_see(tid, "p:2", 0, NOON) and not tod.may_see(tid, "p:2", 1, NOON)
    with pytest.raises(EventRefusal):
        tod.standings(tid, "p:2", NOON)
    view = tod.field(tid, "p:2", 0, NOON)
    assert view.players == 2 and view.score is not None
    # p:1 has ended everything
    assert tod.standings(tid, "p:1", NOON)
    # once revealed, everyone
    assert tod.may_see(tid, "p:3", 2, AFTER_DEADLINE) and tod.standings(tid, None, AFTER_DEADLINE)


def test_the_field_of_a_deal_spread_rank_best_records_and_par(tod):
    tid = tod.ensure(DAY.isoformat(), GAME, None, NOON)
    deal = tod.deals_of(tid)[0]
    scores = {}
    for k in range(1, 7):
        p = f"p:{k}"
        tod.enter(tid, p, f"P{k}", NOON)
        d = tod.begin(tid, p, 0, f"C{k}", NOON)
        assert d == deal  # the same deal for everyone
        scores[p] = score_record(d, play(d, k), 0)
        tod.finish(tid, p, 0, f"C{k}", scores[p], NOON)
    tod.set_par(tid, 0, 61.333333)
    view = tod.field(tid, "p:3", 0, NOON)
    assert view.par == 61.333
    assert sum(n for _, n in view.spread) == 6
    assert [s for s, _ in view.spread] == sorted(set(scores.values()), reverse=True)
    assert view.rank == 1 + sum(1 for s in scores.values() if s > scores["p:3"])
    top = max(scores.values())
    assert (
        view.best[0]["score"] == top
        and view.best[0]["record"] == f"C{min(k for k in range(1, 7) if scores[f'p:{k}'] == top)}"
    )
    assert len(view.best) == 3


def test_matchpoints_by_hand():
    mp = matchpoints({"a": 10, "b": 10, "c": 5, "d": 20})
    assert mp == {"a": (1.5, 3), "b": (1.5, 3), "c": (0.0, 3), "d": (3.0, 3)}
    lines = standings(
        {0: {"a": 10, "b": 10, "c": 5}, 1: {"a": 1, "b": 2}},
        {"a": "A", "b": "B", "c": "C"},
        {"a": 2, "b": 2, "c": 1},
        2,
    )
    # a: deal 0 75 %, deal 1 0 % -> 37.5; b: 75 and 100 -> 87.5; c: unranked (one deal), 0 %
    assert [(s.rank, s.name, s.percent) for s in lines] == [(1, "B", 87.5), (2, "A", 37.5), (None, "C", 0.0)]
    alone = standings({0: {"a": 3}}, {"a": "A"}, {"a": 1}, 1)
    assert alone[0].percent == 50.0
