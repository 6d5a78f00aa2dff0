"""Briscola chiamata as the product offers it: from rules.yaml (every 40-card pack, its
options and presets), simulated by ``main.py simulate`` with every option value and verified
by ``verify --strict``, its records written field for field as ../shared/RECORD.md's lines,
its match of a fixed number of deals with per-player totals, and its daily deal and par."""

from __future__ import annotations

import pytest

from game.config import get_config
from game.games.chiamata.rules import ChiamataRules
from game.puzzles import store
from game.record import read_record
from game.rulesets import make_rules
from game.services import cli, daily, par
from game.verify import verify_events

#: RECORD.md's fields of each line, in its order (the writer may add more after them).
FIELDS = {
    "match": ["event", "format", "game", "deck", "players", "seed", "options"],
    "deal": ["event", "number", "dealer", "hands", "table", "stock", "trump"],
    "bid": ["event", "seat", "rank"],
    "pass": ["event", "seat"],
    "call": ["event", "seat", "card"],
    "play": ["event", "seat", "card"],
    "trick": ["event", "winner", "cards", "points"],
    "deal_end": ["event", "number", "leftover", "points", "totals", "detail"],
    "match_end": ["event", "winner", "totals"],
}
DETAIL = ["caller", "partner", "called", "card_points", "won"]


def test_rules_yaml_offers_it_on_every_40_card_pack_with_its_options() -> None:
    cfg = get_config()
    g = cfg.game("chiamata")
    assert g.players == (5,) and [m.id for m in g.modes] == ["versus"]
    assert {k: (s.default, s.allowed) for k, s in g.options.items()} == {
        "deals": (10, (5, 10, 15, 20)),
        "cappotto": (False, (False, True)),
        "first_lead": ("dealer_right", ("dealer_right", "caller")),
    }
    assert [d.id for d in cfg.decks_for("chiamata")] == [d.id for d in cfg.decks.values() if d.cards in (40, 52)]
    assert not g.puzzles and store.shipped("chiamata") == []  # an auction game for five makes no puzzles
    for deck in cfg.decks_for("chiamata"):
        r = make_rules("chiamata", deck.id, 5, {"deals": 5})
        assert isinstance(r, ChiamataRules) and len(r.cards) == 40 and r.total_points == 120
    with pytest.raises(ValueError, match="5"):
        make_rules("chiamata", None, 4)


@pytest.mark.parametrize(
    "options",
    [
        {"deals": "5", "cappotto": "false", "first_lead": "dealer_right"},
        {"deals": "10", "cappotto": "true", "first_lead": "caller"},
        {"deals": "15", "cappotto": "true", "first_lead": "dealer_right"},
        {"deals": "20", "cappotto": "false", "first_lead": "caller"},
    ],
)
def test_simulate_writes_records_that_verify_strictly_as_record_md_writes_them(options, tmp_path, capsys) -> None:
    args = ["simulate", "--game", "chiamata", "--matches", "1", "--seed", options["deals"], "--out", str(tmp_path)]
    args += ["--bots", "greedy,random,greedy,random,greedy", "--quiet", "--deck", "trevisane"]
    for k, v in options.items():
        args += ["--option", f"{k}={v}"]
    assert cli.main(args) == 0, capsys.readouterr().err
    (path,) = tmp_path.glob("*.jsonl")
    assert cli.main(["verify", "--strict", str(path)]) == 0, capsys.readouterr().out
    events = read_record(path)
    deals = int(options["deals"])
    assert events[0]["options"] == {
        "deals": deals,
        "cappotto": options["cappotto"] == "true",
        "first_lead": options["first_lead"],
    }
    for ev in events:
        want = FIELDS[ev["event"]] + (["points"] if ev["event"] == "bid" and "points" in ev else [])
        assert list(ev)[: len(want)] == want, ev
        if ev["event"] == "deal":
            assert [len(h) for h in ev["hands"]] == [8] * 5 and ev["table"] == ev["stock"] == [] and ev["trump"] is None
        if ev["event"] == "deal_end":
            assert list(ev["detail"])[:5] == DETAIL and ev["leftover"] is None
            assert len(ev["points"]) == len(ev["totals"]) == 5 and sum(ev["points"]) == 0
    ends = [e for e in events if e["event"] == "deal_end"]
    assert len(ends) == deals  # a fixed number of deals, thrown-in ones included
    totals = ends[-1]["totals"]
    assert events[-1] == {"event": "match_end", "winner": events[-1]["winner"], "totals": totals}
    top = [s for s, v in enumerate(totals) if v == max(totals)]
    assert events[-1]["winner"] == (top[0] if len(top) == 1 else None)
    # The caller leads the first trick with first_lead=caller, else the dealer's right.
    for i, ev in enumerate(events):
        if ev["event"] == "call":
            dealer = next(e["dealer"] for e in reversed(events[:i]) if e["event"] == "deal")
            lead = ev["seat"] if options["first_lead"] == "caller" else (dealer + 1) % 5
            assert events[i + 1] == {"event": "play", "seat": lead, "card": events[i + 1]["card"]}


def test_the_match_goal_is_the_fixed_number_of_deals() -> None:
    r = make_rules("chiamata", None, 5, {"deals": 15})
    assert r.match_goal() == ("fixed_deals", 15)
    assert r.match_status([1, 1, 0, -1, -1], 15)[:2] == (True, None)  # the top shared: no winner
    assert r.match_status([1, 2, 0, -1, -2], 14)[:2] == (False, None)


def test_the_daily_deal_and_its_par_for_five() -> None:
    """One deal of the first preset, the player's seat against the house bots; par is the
    hard player's game points in that seat (here one short run, as the tests time it)."""
    d = daily.daily_deal("chiamata")
    assert d.preset == "classica" and d.deal.players == 5 and d.deal.options["cappotto"] is False
    value = par.par(d.deal, d.seat, runs=1, iterations=20, house_iterations=10)
    assert value.value in (-8, -4, -2, -1, 0, 1, 2, 4, 8) and value.scores == [value.value]
    m = par.play_deal(d.deal, d.seat, par.house_bot(d.deal.rules(), d.deal.seed, d.seat, "easy"), "easy")
    events = daily.daily_record(d, m.events, value.value, ["easy"] * 5)
    assert events[0]["deals"] == 1 and sum(e["event"] == "deal_end" for e in events) == 1
    assert verify_events(events).ok, verify_events(events)
    assert par.seat_score(m.rules, m.deal_points, d.seat) == m.deal_points[d.seat]
