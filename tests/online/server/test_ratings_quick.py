"""The pure parts of the club: OpenSkill ratings (two players, partnerships with their pair
ratings, computers fixed, a leaver ranked last, provisional) and quick-match pairing (by
rating in a widening window, never two who blocked each other, the computer after the wait),
and 1,000 waiting players paired in one pass."""

from __future__ import annotations

import random
import time

from game.online.server.accounts import Rating
from game.online.server.quick import Waiting, fill_level, pair, window
from game.online.server.ratings import (
    COMPUTER_RATINGS,
    PROVISIONAL_MATCHES,
    SeatOutcome,
    computer_display,
    display,
    new_rating,
    ranks_for,
    rate,
)


def test_a_win_raises_and_a_loss_lowers_and_computers_keep_their_rating():
    new = rate({}, [SeatOutcome(0, player=1), SeatOutcome(1, player=2)], winner=0)
    assert display(new["p:1"].mu, new["p:1"].sigma) > 1000 > display(new["p:2"].mu, new["p:2"].sigma)
    assert new["p:1"].matches == new["p:2"].matches == 1
    vs_computer = rate({}, [SeatOutcome(0, player=1), SeatOutcome(1, level="hard")], winner=0)
    assert set(vs_computer) == {"p:1"}  # the computer's rating is published and fixed
    beat_hard = vs_computer["p:1"].mu - new_rating().mu
    beat_easy = rate({}, [SeatOutcome(0, player=1), SeatOutcome(1, level="easy")], winner=0)["p:1"].mu - new_rating().mu
    assert beat_hard > beat_easy > 0  # beating the stronger computer is worth more
    assert computer_display("easy") < computer_display("normal") < computer_display("hard")
    assert COMPUTER_RATINGS["normal"] == (22.0, 1.0)


def test_partnerships_rate_the_players_and_the_pair_and_a_leaver_loses():
    seats = [SeatOutcome(0, player=1), SeatOutcome(1, player=2), SeatOutcome(0, player=3), SeatOutcome(1, player=4)]
    new = rate({}, seats, winner=0)
    assert new["p:1"].mu > 25 and new["p:3"].mu > 25 and new["p:2"].mu < 25 and new["p:4"].mu < 25
    assert new["t:1+3"].mu > 25 > new["t:2+4"].mu and new["t:1+3"].matches == 1
    # Seat 2 (team 0) left: the side that won on the cards is ranked last.
    left = rate(
        {},
        [
            SeatOutcome(0, player=1),
            SeatOutcome(1, player=2),
            SeatOutcome(0, player=3, left=True),
            SeatOutcome(1, player=4),
        ],
        winner=0,
    )
    assert left["p:3"].mu < 25 and left["p:2"].mu > 25
    assert ranks_for([0, 1], 0, {0}) == {0: 3, 1: 2}
    assert ranks_for([0, 1], None, set()) == {0: 1, 1: 1}
    # A player with a computer partner: a person's own rating only, no pair.
    mixed = rate(
        {},
        [
            SeatOutcome(0, player=1),
            SeatOutcome(1, level="easy"),
            SeatOutcome(0, level="easy"),
            SeatOutcome(1, level="easy"),
        ],
        winner=1,
    )
    assert set(mixed) == {"p:1"}


def test_a_rating_settles_over_matches():
    current: dict[str, Rating] = {}
    sigmas, gains = [new_rating().sigma], []
    for _ in range(PROVISIONAL_MATCHES):
        before = current.get("p:1", new_rating()).mu
        current.update(rate(current, [SeatOutcome(0, player=1), SeatOutcome(1, level="normal")], winner=0))
        sigmas.append(current["p:1"].sigma)
        gains.append(current["p:1"].mu - before)
    assert current["p:1"].matches == PROVISIONAL_MATCHES
    assert sigmas == sorted(sigmas, reverse=True) and sigmas[-1] < 0.75 * sigmas[0]  # surer each match
    assert gains == sorted(gains, reverse=True)  # beating the same computer again earns less each time


def w(player: int, mu: float, waited: float, now: float, blocked: set[int] | None = None) -> Waiting:
    return Waiting(object(), player, mu, now - waited, blocked or set())


def test_pairing_by_rating_in_a_window_that_widens():
    now = 1000.0
    near = pair([w(1, 25, 0, now), w(2, 26, 0, now)], 2, now, 30)
    assert len(near) == 1 and near[0][1] == 0  # close ratings: paired at once
    far = [w(1, 20, 0, now), w(2, 30, 0, now)]
    assert pair(far, 2, now, 30) == []  # 10 apart: not yet
    assert window(16) >= 10
    later = pair([w(1, 20, 17, now), w(2, 30, 16, now)], 2, now, 30)
    assert len(later) == 1 and later[0][1] == 0  # both waited long enough for the window to reach
    # Never two who blocked each other, even after the wait: each gets the computer.
    blocked = pair([w(1, 25, 31, now, {2}), w(2, 25, 31, now)], 2, now, 30)
    assert sorted(len(g) for g, _ in blocked) == [1, 1] and all(c == 1 for _, c in blocked)
    # Alone after the wait: the computer fills; before it, nothing.
    assert pair([w(1, 25, 29, now)], 2, now, 30) == []
    assert [(len(g), c) for g, c in pair([w(1, 25, 30, now)], 4, now, 30)] == [(1, 3)]
    assert fill_level(15) == "easy" and fill_level(23) == "normal" and fill_level(40) == "hard"
    assert fill_level(40, ("easy",)) == "easy"


def test_a_thousand_waiting_players_are_paired_in_one_pass():
    rng = random.Random(3)
    now = 5000.0
    waiting = [w(i, rng.gauss(25, 6), rng.uniform(0, 20), now) for i in range(1000)]
    t = time.process_time()
    groups = pair(waiting, 2, now, 30.0)
    spent = time.process_time() - t
    seated = [x.player for g, _ in groups for x in g]
    assert len(seated) == len(set(seated)) and len(seated) > 900
    assert all(abs(g[0].mu - g[1].mu) <= window(min(now - g[0].since, now - g[1].since)) for g, c in groups if c == 0)
    print(f"1000 waiting players: {len(groups)} tables in {spent * 1000:.1f} ms of CPU")
