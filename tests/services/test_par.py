"""Par, a record of the first deals only, and duplicate matches."""

from __future__ import annotations

import pytest

from game.ai.bots import make_bot
from game.match import Match
from game.record import read_record
from game.rulesets import make_rules
from game.services.cli import main as cli_main
from game.services.par import (
    Deal,
    deal_points,
    duplicate_margin,
    over_par,
    par,
    play_duplicate,
    seat_score,
    sub_seed,
    swapped,
)
from game.verify import verify_events, verify_file

# Small budgets: the tests check what par is, not how strong the bots are.
SMALL = {"runs": 2, "iterations": 12, "house_iterations": 12}


def _deal(game: str, seed: int = 7, players: int | None = None) -> Deal:
    r = make_rules(game, players=players)
    return Deal(game, r.deck.id, r.players, r.options, seed)


def test_a_record_of_the_first_deal_only_verifies_and_says_so():
    for game in ("scopa", "schnapsen", "tressette"):
        r = make_rules(game)
        m = Match(r, 11, [make_bot("greedy", r, s, 3) for s in range(r.players)], deals=1)
        events = m.run()
        assert m.deal_number == 1 and events[0]["deals"] == 1 and events[-1]["event"] == "match_end"
        assert verify_events(events).ok
        # Without the field the same record ends a match that the rules say goes on.
        head = dict(events[0])
        del head["deals"]
        assert not verify_events([head, *events[1:]]).ok


def test_the_deal_limits_winner_is_the_highest_deal_points():
    r = make_rules("tressette")
    m = Match(r, 5, [make_bot("greedy", r, s, 1) for s in range(2)], deals=1)
    events = m.run()
    pts = deal_points(events)
    assert events[-1]["winner"] == (None if pts[0] == pts[1] else pts.index(max(pts)))


@pytest.mark.parametrize("bad", [0, -1, "1", True, 1.0])
def test_a_bad_deal_limit_is_refused(bad):
    r = make_rules("briscola")
    events = Match(r, 2, [make_bot("greedy", r, s, 1) for s in range(2)], deals=1).run()
    head = dict(events[0], deals=bad)
    v = verify_events([head, *events[1:]])
    assert not v.ok and "deals" in v.message


def test_par_is_reproducible_and_is_the_hard_bots_average_on_those_cards():
    deal = _deal("briscola", seed=21)
    p = par(deal, 1, **SMALL)
    assert par(deal, 1, **SMALL).scores == p.scores
    # The same built by hand: a hard bot at seat 1 with the run's seed, no time cap, against
    # the house bots (normal, seeded from the deal and their seat), one deal.
    scores = []
    for run in range(2):
        rules = deal.rules()
        bots = []
        for s in range(2):
            level, seed = ("hard", sub_seed("par", 21, 1, run)) if s == 1 else ("normal", sub_seed("house", 21, s))
            b = make_bot(level, rules, s, seed)
            b.time_cap, b.iterations = None, 12
            bots.append(b)
        m = Match(rules, 21, bots, deals=1)
        m.run()
        scores.append(m.deal_points[rules.team_of(1)])
    assert p.scores == scores
    assert p.value == pytest.approx(sum(scores) / 2)


def test_a_seats_score_is_its_teams_points():
    rules = _deal("briscola", players=4).rules()
    assert seat_score(rules, [70, 50], 2) == 70 and seat_score(rules, [70, 50], 3) == 50


def test_over_par_reads_as_a_person_reads_it():
    assert over_par(5, 3.6) == "+1.4"
    assert over_par(2, 2.6) == "−0.6"
    assert over_par(3, 3.0) == "±0"


def test_swapped_moves_everyone_one_seat_on():
    assert swapped(["a", "b"]) == ["b", "a"]
    assert swapped(["a", "b", "a", "b"]) == ["b", "a", "b", "a"]
    assert swapped(["a", "b", "c"]) == ["b", "c", "a"]


@pytest.mark.parametrize("game,players", [("scopa", 2), ("briscola", 4), ("schnapsen", 2)])
def test_duplicate_halves_hold_the_same_cards_with_the_players_swapped(game, players):
    r = make_rules(game, players=players)
    dup = play_duplicate(game, r.deck.id, players, r.options, 99, ["greedy", "random"] * (players // 2))
    first, second = dup.records()
    assert verify_events(first).ok and verify_events(second).ok
    deals1 = [e for e in first if e["event"] == "deal"]
    deals2 = [e for e in second if e["event"] == "deal"]
    n = min(len(deals1), len(deals2))
    # Seat for seat the same hands (and table, stock, dealer) in every deal both halves reach …
    for d1, d2 in zip(deals1[:n], deals2[:n]):
        assert d1["hands"] == d2["hands"] and d1["stock"] == d2["stock"] and d1["dealer"] == d2["dealer"]
    # … held by the other side: the player of seat s+1 now sits at seat s.
    assert second[0]["seats"] == swapped(first[0]["seats"]) != first[0]["seats"]
    assert (first[0]["duplicate"], second[0]["duplicate"]) == ({"half": 1, "seed": 99}, {"half": 2, "seed": 99})
    a, b = dup.halves
    assert dup.margin == duplicate_margin(a.rules, a.deal_points, b.deal_points)


def test_duplicate_margin_cancels_the_cards():
    r = make_rules("scopa")
    # Points are per seat. Both sides score the same with the same cards (seat 0's cards make
    # 9 whoever holds them): the duplicate margin is 0 however good the cards.
    assert duplicate_margin(r, [9, 2], [9, 2]) == 0
    # Seat 0's side: +7 with seat 0's cards, then 3 - 8 = -5 with seat 1's.
    assert duplicate_margin(r, [9, 2], [8, 3]) == 2


def test_simulate_duplicate_writes_verifiable_halves(tmp_path, capsys):
    code = cli_main(
        [
            "simulate",
            "--game",
            "briscola",
            "--matches",
            "2",
            "--duplicate",
            "--bots",
            "greedy,random",
            "--out",
            str(tmp_path),
            "--quiet",
        ]
    )
    assert code == 0
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == [
        "briscola-2p-1-0001a.jsonl",
        "briscola-2p-1-0001b.jsonl",
        "briscola-2p-1-0002a.jsonl",
        "briscola-2p-1-0002b.jsonl",
    ]
    for f in files:
        assert verify_file(str(f)).ok
    a, b = read_record(files[0]), read_record(files[1])
    assert a[0]["seed"] == b[0]["seed"] and a[1]["hands"] == b[1]["hands"]
    assert a[0]["seats"] == ["greedy", "random"] and b[0]["seats"] == ["random", "greedy"]
    assert "duplicate" in capsys.readouterr().out
