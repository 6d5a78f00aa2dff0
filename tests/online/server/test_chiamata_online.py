"""Briscola chiamata on the club server (127.0.0.1): a hosted five-seat table of one friend
and four computers plays to its end, each seat sent exactly its own view and the record
verifying strictly; a lone player's quick match is filled by four computers and rated as one
of five, ranked by the match totals (the sides change every deal: no team is rated)."""

from __future__ import annotations

import pytest

from game.online.server.limits import ServerLimits
from game.online.server.ratings import SeatOutcome, new_rating, ranks_for, rate
from game.online.server.serving import start_server_in_thread
from game.online.wire.redact import seat_events
from game.record import read_record
from game.rulesets import make_rules
from game.verify import verify_file
from tests.online.server.test_club import line, quick_cli, rating_change
from tests.online.wshelp import Player, create, record_file


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    # The computer fills at level easy only: the matches stay fast.
    limits = ServerLimits(quick_wait=0.5, bot_after=1.0, fill_levels=("easy",))
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path_factory.mktemp("club"), workers=1, limits=limits)
    yield handle
    assert handle.stop(timeout=10)


def test_a_hosted_five_seat_table_with_computers_plays_to_the_end(club):
    options = {"deals": 5, "cappotto": True, "first_lead": "caller"}
    host, created = create(club.url, "chiamata", 5, ["ai:greedy", "friend", "ai:easy", "ai:greedy", "ai:easy"], options)
    p = Player(club.url, created["code"], created["tokens"]["1"], "Chiara", seed=2).start()
    p.join(timeout=60)
    record = record_file(club.data_dir, p.record)
    assert verify_file(record, strict=True).ok, verify_file(record, strict=True)
    events = read_record(record)
    assert events[0]["options"] == options and events[0]["players"] == 5
    assert sum(e["event"] == "deal_end" for e in events) == 5 and len(events[-1]["totals"]) == 5
    assert p.events == seat_events(make_rules("chiamata", None, 5, options), events, 1)
    assert not p.refused
    host.close()


def test_a_lone_players_quick_match_is_filled_and_rated_as_one_of_five(club):
    t, box = quick_cli(club.url, "chiamata", "Chiara", seed=5)
    t.join(90)
    assert box.get("code") == 0, box
    out = box["out"]
    assert line(out, "opponents").count("computer easy") == 4 and line(out, "rated") == "yes"
    record = record_file(club.data_dir, line(out, "record"))
    assert verify_file(record).ok
    end = read_record(record)[-1]
    seat = int(next(ln for ln in out.splitlines() if ln.startswith("seat "))[5:].split(":")[0])
    totals, winner = end["totals"], end["winner"]
    # The player's result is their place among the five: first alone won, first shared drew.
    expected = "won" if winner == seat else "draw" if winner is None and totals[seat] == max(totals) else "lost"
    assert out.rstrip().endswith(f"({expected})"), out
    old, new = rating_change(out)
    assert old == 1000
    # Ranked by the totals among five: first alone gains, last alone loses; a place between
    # may round to no change (the deals are the server's, so the place differs run to run).
    others = totals[:seat] + totals[seat + 1 :]
    if totals[seat] > max(others):
        assert new > old
    elif totals[seat] < min(others):
        assert new < old


def test_the_five_are_ranked_by_their_totals_when_the_sides_change():
    """Ranked by the totals (ties share a place, a leaver last): a second place gains on the
    three behind, where a plain winner-against-the-rest would rank them all alike."""
    totals = {0: 7, 1: 3, 2: 3, 3: -4, 4: -9}
    assert ranks_for(list(totals), 0, set(), totals) == {0: 1, 1: 2, 2: 2, 3: 4, 4: 5}
    assert ranks_for(list(totals), 0, {1}, totals) == {0: 1, 1: 6, 2: 2, 3: 4, 4: 5}
    assert ranks_for([0, 1], 1, set()) == {0: 2, 1: 1}  # without totals: as before
    seats = [SeatOutcome(t, player=t + 1) for t in totals]
    placed = {0: 7, 1: 3, 2: 1, 3: -4, 4: -9}
    new = rate({}, seats, 0, placed)
    mu = {t: new[f"p:{t + 1}"].mu for t in totals}
    assert mu[0] > mu[1] > mu[2] > mu[3] > mu[4] and mu[1] > new_rating().mu
    plain = rate({}, seats, 0)  # winner against the rest: the four behind alike
    assert len({round(plain[f"p:{t + 1}"].mu, 9) for t in (1, 2, 3, 4)}) == 1
