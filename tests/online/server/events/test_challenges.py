"""Challenges: sent by name, accepted or declined, played by the two on different days (a
clock the test moves) in the same seat of the same deals, the duplicate difference listed for
both, nobody seeing the other's deal before playing it, expiry, forfeits, quotas."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from game.online.server.events.arena import Arenas
from game.online.server.events.challenges import Challenges
from game.online.server.events.common import EventRefusal
from game.online.server.events.deals import score_record
from game.online.server.events.quotas import EventQuotas
from game.online.server.events.store import SqliteEventStore
from game.online.server.events.swiss import Swisses
from game.verify import verify_events
from tests.online.server.events.helpers import GAME, Clock, play

T0 = dt.datetime(2026, 12, 7, 9, 0)


@pytest.fixture
def store(tmp_path):
    s = SqliteEventStore(tmp_path)
    yield s
    s.close()


def play_deals(ch: Challenges, cid: str, player: str, seed: int, indices) -> dict[int, int]:
    out = {}
    for i in indices:
        code = f"{player[2:]}C{i}"
        deal = ch.begin(cid, player, i, code)
        events = play(deal, seed + i)
        assert verify_events(events).ok
        out[i] = score_record(deal, events, 0)
        ch.finish(cid, player, i, code, out[i])
    return out


def test_a_challenge_played_on_different_days(store):
    clock = Clock(T0)
    ch = Challenges(store, clock, deals=4, days=3)
    cid = ch.send("p:1", "Anna", "p:2", "Bea", GAME, None)
    with pytest.raises(EventRefusal) as e:
        ch.begin(cid, "p:1", 0, "X")
    assert e.value.code == "pending"
    with pytest.raises(EventRefusal) as e:
        ch.accept(cid, "p:1")
    assert e.value.code == "not_yours"
    clock.move(days=1)
    ch.accept(cid, "p:2")
    deals = ch.deals_of(cid)
    assert len({d.seed for d in deals}) == 4
    a = play_deals(ch, cid, "p:1", 10, range(4))  # Anna plays everything on day 2
    v = ch.view(cid, "p:1")
    assert v.status == "accepted" and v.theirs == {} and v.mine == a and v.seed is None
    clock.move(days=2)  # Bea on day 4, within three days of the acceptance
    b = play_deals(ch, cid, "p:2", 50, [0, 1])
    seen = ch.view(cid, "p:2")
    assert seen.theirs == {0: a[0], 1: a[1]}  # only the deals she has played herself
    b.update(play_deals(ch, cid, "p:2", 50, [2, 3]))
    for viewer in ("p:1", "p:2"):
        (only,) = ch.of(viewer)  # listed for both
        assert only.id == cid and only.status == "done"
        assert only.difference == sum(a[i] - b[i] for i in range(4))
        assert only.winner == (None if only.difference == 0 else "p:1" if only.difference > 0 else "p:2")
        assert not only.forfeit
    done = ch.view(cid, "p:2")
    assert done.seed is not None
    text = f"cardavia-online-challenge|{cid}|{done.seed}|{ch._get(cid).s['nonce']}"
    assert hashlib.sha256(text.encode()).hexdigest() == done.hash
    with pytest.raises(EventRefusal) as e:
        ch.finish(cid, "p:2", 3, "2C3", 0)
    assert e.value.code == "done"


def test_expiry_decline_and_forfeit(store):
    clock = Clock(T0)
    ch = Challenges(store, clock, deals=2, days=2)
    late = ch.send("p:1", "Anna", "p:2", "Bea", GAME, None)
    declined = ch.send("p:1", "Anna", "p:3", "Cleo", GAME, None)
    forfeit = ch.send("p:4", "Dan", "p:1", "Anna", GAME, None)
    ch.decline(declined, "p:3")
    ch.accept(forfeit, "p:1")
    play_deals(ch, forfeit, "p:1", 1, range(2))
    play_deals(ch, forfeit, "p:4", 3, [0])
    clock.move(days=2)
    with pytest.raises(EventRefusal) as e:
        ch.accept(late, "p:2")
    assert e.value.code == "expired"
    by_id = {v.id: v for v in ch.of("p:1")}
    assert by_id[late].status == "expired"
    assert by_id[declined].status == "declined"
    f = by_id[forfeit]
    assert f.status == "done" and f.forfeit and f.winner == "p:1"
    assert f.difference is not None and f.theirs.keys() == {0}


def test_quotas_on_challenges_and_events(store):
    clock = Clock(T0)
    q = EventQuotas(challenges_per_day=3, open_challenges=2, events_per_day=1)
    ch = Challenges(store, clock, quotas=q)
    ch.send("p:1", "A", "p:2", "B", GAME, None)
    ch.send("p:1", "A", "p:3", "C", GAME, None)
    with pytest.raises(EventRefusal) as e:
        ch.send("p:1", "A", "p:4", "D", GAME, None)
    assert e.value.code == "quota"  # two waiting for an answer
    ch.decline(ch.of("p:2")[0].id, "p:2")
    ch.send("p:1", "A", "p:4", "D", GAME, None)  # room again; three today
    ch.decline(ch.of("p:4")[0].id, "p:4")
    with pytest.raises(EventRefusal) as e:
        ch.send("p:1", "A", "p:5", "E", GAME, None)
    assert e.value.code == "quota"  # three a day
    clock.move(days=1, seconds=1)
    ch.send("p:1", "A", "p:5", "E", GAME, None)
    with pytest.raises(EventRefusal) as e:
        ch.send("p:1", "A", "p:1", "A", GAME, None)
    assert e.value.code == "self"
    arenas, swisses = Arenas(store, q), Swisses(store, q)
    arenas.create("p:7", GAME, "standard", T0, 600, 2, 10, T0)
    with pytest.raises(EventRefusal) as e:
        swisses.create("p:7", GAME, "standard", 3, T0, T0)
    assert e.value.code == "quota"  # one event a day, arenas and Swiss together
    swisses.create(None, GAME, "standard", 3, T0, T0)  # the owner's own: no limit
    swisses.create(None, GAME, "standard", 3, T0, T0)
    swisses.create("p:7", GAME, "standard", 3, T0, T0 + dt.timedelta(days=1, seconds=1))
