"""A partnership Swiss tournament's teams are entered with both players' consent: the first to
register names the other (an offer kept in the event's state), the team is entered when the
other registers naming them back. The rules in the store (one open offer each, one team each,
leaving withdraws, registration closing drops the offers) and over the wire (the one waiting
told ``waiting``, the one asked seeing ``asked`` in the list and the standings, both told
once the team is entered; headless ``online swiss --partner`` waiting for the confirmation)."""

from __future__ import annotations

import argparse
import datetime as dt
import io
import threading

import pytest

from game.online.client.events import swiss as swiss_command
from game.online.server.events.common import EventRefusal
from game.online.server.events.store import SqliteEventStore
from game.online.server.events.swiss import Swisses
from game.online.server.serving import start_server_in_thread
from tests.online.server.events.helpers import signed_in, wait_for

T0 = dt.datetime(2026, 12, 7, 12, 0)
START = T0 + dt.timedelta(hours=2)
ANNA, BEA, CARLO, DORA = "p:1", "p:2", "p:3", "p:4"
NAMES = {ANNA: "Anna", BEA: "Bea", CARLO: "Carlo", DORA: "Dora"}


@pytest.fixture
def pairs(tmp_path):
    store = SqliteEventStore(tmp_path)
    sw = Swisses(store)
    sid = sw.create(None, "scopa", "scopone", 3, START, T0, team_size=2)
    yield sw, sid
    store.close()


def offer(sw: Swisses, sid: str, player: str, partner: str, now: dt.datetime = T0) -> str | None:
    return sw.offer(sid, player, NAMES[player], partner, NAMES[partner], 1500.0, now, {"node": "n", "conn": 1})


def test_a_team_is_entered_only_when_both_named_each_other(pairs):
    sw, sid = pairs
    assert offer(sw, sid, ANNA, BEA) is None
    s = sw.get(sid)
    assert s.entrants() == {} and s.waiting_for(ANNA, T0) == "Bea" and s.asked_by(BEA, T0) == ["Anna"]
    assert s.waiting_for(BEA, T0) is None and s.asked_by(ANNA, T0) == []
    eid = offer(sw, sid, BEA, ANNA)
    s = sw.get(sid)
    assert eid is not None and list(s.entrants()) == [eid]
    team = s.entrants()[eid]
    assert team["name"] == "Anna & Bea" and sorted(team["members"]) == [ANNA, BEA]
    assert set(s.reach()) == {ANNA, BEA}  # both are told their tables where they registered
    assert s.offers() == {} and s.waiting_for(ANNA, T0) is None and s.asked_by(BEA, T0) == []


def test_one_offer_each_and_one_team_each(pairs):
    sw, sid = pairs
    with pytest.raises(EventRefusal) as e:
        offer(sw, sid, ANNA, ANNA)
    assert e.value.code == "team"
    offer(sw, sid, ANNA, BEA)
    offer(sw, sid, ANNA, CARLO)  # a new offer replaces the first: Bea is no longer asked
    s = sw.get(sid)
    assert s.waiting_for(ANNA, T0) == "Carlo" and s.asked_by(BEA, T0) == []
    offer(sw, sid, DORA, CARLO)  # Carlo asked by two
    assert sw.get(sid).asked_by(CARLO, T0) == ["Anna", "Dora"]
    # a player in an offer cannot be entered in a team another way
    with pytest.raises(EventRefusal) as e:
        sw.register(sid, [ANNA, DORA], "Anna & Dora", 1500.0, T0)
    assert e.value.code == "offer"
    eid = offer(sw, sid, CARLO, DORA)  # Carlo chooses Dora: their team; Anna's offer to Carlo dropped
    s = sw.get(sid)
    assert eid is not None and sorted(s.entrants()[eid]["members"]) == [CARLO, DORA]
    assert s.offers() == {} and s.waiting_for(ANNA, T0) is None
    for player, partner in ((ANNA, CARLO), (CARLO, ANNA)):  # one team each
        with pytest.raises(EventRefusal) as e:
            offer(sw, sid, player, partner)
        assert e.value.code == "registered"


def test_leaving_withdraws_and_closing_drops_the_offers(pairs):
    sw, sid = pairs
    offer(sw, sid, ANNA, BEA)
    sw.leave(sid, ANNA, T0)  # withdrawn
    assert sw.get(sid).offers() == {}
    offer(sw, sid, ANNA, BEA)
    sw.leave(sid, BEA, T0)  # the one asked turns it down
    assert sw.get(sid).offers() == {}
    with pytest.raises(EventRefusal) as e:
        sw.leave(sid, BEA, T0)
    assert e.value.code == "not_registered"
    offer(sw, sid, ANNA, BEA)
    offer(sw, sid, CARLO, DORA)
    offer(sw, sid, DORA, CARLO)
    late = START + dt.timedelta(minutes=1)
    assert sw.get(sid).waiting_for(ANNA, late) is None  # no longer shown once registration closed
    with pytest.raises(EventRefusal) as e:
        offer(sw, sid, BEA, ANNA, late)
    assert e.value.code == "started"
    sw.advance(sid, late)  # one team: the tournament ends at once, the offer left is dropped
    s = sw.get(sid)
    assert s.offers() == {} and s.finished and len(s.entrants()) == 1


def test_a_tournament_of_single_players_takes_no_partner(tmp_path):
    store = SqliteEventStore(tmp_path)
    try:
        sw = Swisses(store)
        sid = sw.create(None, "briscola", "standard", 3, START, T0)
        with pytest.raises(EventRefusal) as e:
            offer(sw, sid, ANNA, BEA)
        assert e.value.code == "team"
    finally:
        store.close()


def test_partners_over_the_wire_and_headless(tmp_path):
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "data", workers=1)
    try:
        ev = h.server.events
        sid = ev.hub.swisses.create(
            None, "scopa", "scopone", 2, dt.datetime.now() + dt.timedelta(hours=1), ev.clock(), 2
        )
        anna, _ = signed_in(h.url, "Anna")
        bea, _ = signed_in(h.url, "Bea")
        carlo, _ = signed_in(h.url, "Carlo")
        refused = anna.request({"type": "swiss_register", "id": sid, "partner": "Nobody"}, "error")
        assert refused["code"] == "no_player"
        asked = anna.request({"type": "swiss_register", "id": sid, "partner": "Bea"}, "swiss")
        assert asked["waiting"] == "Bea" and asked["me"] is None and asked["asked"] == []
        assert ev.hub.swisses.get(sid).entrants() == {}
        carlo.request({"type": "swiss_register", "id": sid, "partner": "Bea"}, "swiss")
        line = bea.request({"type": "event_list"}, "event_list")["swiss"][0]
        assert line["asked"] == ["Anna", "Carlo"] and line["waiting"] is None and not line["registered"]
        seen = bea.request({"type": "swiss_standings", "id": sid}, "swiss")
        assert seen["asked"] == ["Anna", "Carlo"] and seen["standings"] == []
        entered = bea.request({"type": "swiss_register", "id": sid, "partner": "Anna"}, "swiss")
        assert entered["me"]["name"] == "Anna & Bea" and entered["waiting"] is None
        told = anna.expect("swiss")  # Anna is told on her connection
        assert told["me"]["name"] == "Anna & Bea" and told["waiting"] is None
        gone = carlo.request({"type": "event_list"}, "event_list")["swiss"][0]
        assert gone["waiting"] is None and not gone["registered"]  # Carlo's offer to Bea dropped

        # headless: Dora names Emil and waits (bounded); then again, and Emil confirms
        def dora_plays(out: io.StringIO, err: io.StringIO, rc: list[int], wait: float) -> None:
            args = argparse.Namespace(
                server=h.url, name="Dora", id=sid, partner="Emil", partner_wait=wait, bot="random", seed=3, timeout=60.0
            )
            rc.append(swiss_command(args, out, err))

        emil, _ = signed_in(h.url, "Emil")
        out, err, rc = io.StringIO(), io.StringIO(), []
        dora_plays(out, err, rc, 0.5)  # nobody confirms: the wait ends, the offer withdrawn
        assert rc == [1] and "waiting for Emil to confirm" in out.getvalue() and "did not confirm" in err.getvalue()
        wait_for(lambda: not ev.hub.swisses.get(sid).offers())
        out, err, rc = io.StringIO(), io.StringIO(), []
        t = threading.Thread(target=dora_plays, args=(out, err, rc, 30.0))
        t.start()
        wait_for(lambda: "waiting for Emil to confirm" in out.getvalue())
        emil.request({"type": "swiss_register", "id": sid, "partner": "Dora"}, "swiss")
        wait_for(lambda: "registered:" in out.getvalue())
        assert len(ev.hub.swisses.get(sid).entrants()) == 2
        for c in (anna, bea, carlo, emil):
            c.close()
    finally:
        h.stop()  # Dora's command, waiting for round 1, ends with the server
    t.join(15)
    assert not t.is_alive() and rc == [1] and "closed the connection" in err.getvalue()
