"""Arenas: six bot players for three minutes with the computer filling after the wait, points
(win 2, draw 1, a win after two wins in a row doubled), pause and come back, live standings,
nothing paired after the end; the state read back from the store at every step."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from game.online.server.events.arena import LOSS, WIN, Arena, Arenas
from game.online.server.events.common import EventRefusal
from game.online.server.events.store import SqliteEventStore
from game.online.server.ratings import computer_display
from tests.online.server.events.helpers import GAME

START = dt.datetime(2026, 12, 7, 20, 0)
WAIT = 10.0


@pytest.fixture
def arenas(tmp_path):
    store = SqliteEventStore(tmp_path)
    yield Arenas(store)
    store.close()


def expected_points(history: list[str]) -> int:
    points, streak = 0, 0
    for r in history:
        if r == "win":
            points += 4 if streak >= 2 else 2
            streak += 1
        else:
            points += 1 if r == "draw" else 0
            streak = 0
    return points


def test_six_bots_for_three_minutes_with_computer_fill(arenas):
    rng = random.Random(7)
    aid = arenas.create(None, GAME, "standard", START, 180, 2, WAIT, START - dt.timedelta(minutes=5))
    players = [f"p:{k}" for k in range(1, 7)]
    for p in players:
        arenas.join(aid, p, f"Bot {p[2:]}", START - dt.timedelta(minutes=1))
    running: dict[str, tuple[dt.datetime, list[str]]] = {}  # match -> (ends, players)
    results: dict[str, list[str]] = {p: [] for p in players}
    waiting_since: dict[str, dt.datetime] = {p: START for p in players}
    paused_at: dict[str, dt.datetime] = {}
    filled = 0
    now = START - dt.timedelta(seconds=5)
    while now < START + dt.timedelta(seconds=240):
        # before the start and after the end nothing is paired
        made = arenas.pair(aid, now, {p: 25.0 for p in players})
        if now < START or now >= START + dt.timedelta(seconds=180):
            assert made == []
        for m in made:
            group = m["players"]
            for p in group:
                assert all(p not in ps for _, ps in running.values()), "a player in two matches at once"
                assert p not in paused_at, "a paused player was paired"
            if m["computers"]:
                filled += 1
                assert m["level"] in ("easy", "normal", "hard") and m["computer_rating"] == computer_display(m["level"])
                assert len(group) == 1
                assert (now - waiting_since[group[0]]).total_seconds() >= WAIT
            else:
                assert len(group) == 2
            running[m["id"]] = (now + dt.timedelta(seconds=rng.randint(8, 30)), group)
        for mid, (ends, group) in list(running.items()):
            if now >= ends:
                outcome = rng.choice(["a", "b", "draw"])
                res = {
                    p: ("draw" if outcome == "draw" else WIN if (outcome == "a") == (i == 0) else LOSS)
                    for i, p in enumerate(group)
                }
                arenas.finish(aid, mid, res, now)
                for p, r in res.items():
                    results[p].append(r)
                    waiting_since[p] = now
                del running[mid]
        # bot 6 pauses a while in the middle, then comes back
        if now == START + dt.timedelta(seconds=60):
            arenas.pause(aid, "p:6")
            paused_at["p:6"] = now
        if now == START + dt.timedelta(seconds=120):
            arenas.come_back(aid, "p:6", now)
            del paused_at["p:6"]
            if not any("p:6" in ps for _, ps in running.values()):
                waiting_since["p:6"] = now
        now += dt.timedelta(seconds=1)
    assert not running  # every match begun before the end was played out and counted
    assert filled >= 1, "five players left for a while: someone waited and the computer filled"
    lines = arenas.standings(aid)
    assert {ln.player for ln in lines} == set(players)  # the computer is in no standing
    for ln in lines:
        assert ln.points == expected_points(results[ln.player]), ln
        assert ln.games == len(results[ln.player]) and ln.games >= 3
    assert [ln.points for ln in lines] == sorted((ln.points for ln in lines), reverse=True)
    with pytest.raises(EventRefusal) as e:
        arenas.join(aid, "p:9", "Late", START + dt.timedelta(seconds=200))
    assert e.value.code == "over"


def test_points_streak_pause_and_ranks_by_hand():
    a = Arena.new("arena:x", GAME, "standard", START, 600, 2, WAIT)
    for p in ("p:1", "p:2"):
        a.join(p, p.upper(), START)
    seq = ["win", "win", "win", "draw", "win", "win", "win", "loss"]
    now = START
    for r in seq:
        (m,) = a.pair(now)
        other = "loss" if r == "win" else "win" if r == "loss" else "draw"
        a.finish(m["id"], {"p:1": r, "p:2": other}, now)
        last = now
        now += dt.timedelta(seconds=30)  # both waited: the rematch is allowed
    lines = {ln.player: ln for ln in a.standings()}
    assert lines["p:1"].points == 2 + 2 + 4 + 1 + 2 + 2 + 4 + 0
    assert lines["p:2"].points == 1 + 2
    # a paused player is not paired; the other waits, then the computer fills
    a.pause("p:2")
    assert a.pair(last + dt.timedelta(seconds=WAIT - 1)) == []
    (m,) = a.pair(last + dt.timedelta(seconds=WAIT))
    assert m["players"] == ["p:1"] and m["computers"] == 1
    a.finish(m["id"], {"p:1": "loss"}, now + dt.timedelta(seconds=20))
    a.come_back("p:2", now + dt.timedelta(seconds=20))
    assert a.pair(now + dt.timedelta(seconds=20)) == []  # p:1 is the one p:2 met last: a wait first
    (m,) = a.pair(now + dt.timedelta(seconds=20 + WAIT))
    assert sorted(m["players"]) == ["p:1", "p:2"] and m["computers"] == 0
    with pytest.raises(EventRefusal) as e:
        a.finish(m["id"], {"p:1": "win"}, now)
    assert e.value.code == "result"
    a.finish(m["id"], {"p:1": "draw", "p:2": "draw"}, now + dt.timedelta(seconds=40))
    with pytest.raises(EventRefusal) as e:
        a.finish(m["id"], {"p:1": "draw", "p:2": "draw"}, now)
    assert e.value.code == "finished"


def test_the_one_just_met_waits_while_someone_else_is_free():
    a = Arena.new("arena:y", GAME, "standard", START, 600, 2, WAIT)
    for p in ("p:1", "p:2", "p:3", "p:4"):
        a.join(p, p, START)
    first = a.pair(START)
    assert len(first) == 2
    m1 = first[0]
    x, y = m1["players"]
    a.finish(m1["id"], {x: "win", y: "loss"}, START + dt.timedelta(seconds=5))
    later = START + dt.timedelta(seconds=6)
    assert a.pair(later) == []  # only each other free: no instant rematch
    m2 = first[1]
    u, v = m2["players"]
    a.finish(m2["id"], {u: "draw", v: "draw"}, later)
    (n1, n2) = a.pair(later)
    assert {frozenset(n1["players"]), frozenset(n2["players"])}.isdisjoint({frozenset((x, y)), frozenset((u, v))})
