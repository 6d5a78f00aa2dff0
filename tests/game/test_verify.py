"""The referee: well-formed records that break one rule fail, naming the line and the rule."""
from __future__ import annotations

import copy
import json
import random

from game.ai import make_bot
from game.match import Match
from game.record import dumps, parse_lines, write_record
from game.rules import make_rules
from game.verify import verify_events, verify_file, verify_text

DECK40 = [r + s for s in "DCSB" for r in ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]]


def simulated(seed: int, players: int = 2, bots: str = "greedy", game: str = "scopa", **opts) -> list[dict]:
    rules = make_rules(game, None, players, opts or None)
    m = Match(rules, seed, [make_bot(bots, rules, s, seed) for s in range(players)])
    return copy.deepcopy(m.run())


def handmade(hands, table, plays, dealer=1):
    dealt = [c for h in hands for c in h] + table
    stock = [c for c in DECK40 if c not in dealt]
    ev = [{"event": "match", "format": 1, "game": "scopa", "deck": "piacentine", "players": 2, "seed": 1,
           "options": {"target": 11}},
          {"event": "deal", "number": 1, "dealer": dealer, "hands": hands, "table": table, "stock": stock,
           "trump": None}]
    return ev + plays


def test_simulated_records_pass():
    for players in (2, 3, 4):
        assert verify_events(simulated(players, players)).ok


def test_sum_taken_while_a_match_was_on_the_table_fails():
    ev = handmade([["7D", "2C", "3C"], ["4D", "5D", "6D"]], ["7S", "3B", "4B", "QB"],
                  [{"event": "play", "seat": 0, "card": "7D", "capture": ["3B", "4B"], "bonuses": []}])
    v = verify_events(ev)
    assert not v.ok and v.line == 3 and "a match comes before a sum" in v.message


def test_play_out_of_turn_fails():
    ev = handmade([["7D", "2C", "3C"], ["4D", "5D", "6D"]], ["7S", "3B", "4B", "QB"],
                  [{"event": "play", "seat": 1, "card": "4D", "capture": ["4B"], "bonuses": []}])
    v = verify_events(ev)
    assert not v.ok and v.line == 3 and "seat 0's turn" in v.message


def _lines(ev, kind):
    return [i for i, e in enumerate(ev) if e["event"] == kind]


def test_scopa_claimed_on_final_play_fails():
    ev = simulated(11)
    last_play = [i for i in _lines(ev, "play") if ev[i + 1]["event"] == "deal_end"][0]
    ev[last_play]["bonuses"] = ["scopa"]
    v = verify_events(ev)
    assert not v.ok and v.line == last_play + 1 and "final play" in v.message


def test_primiera_point_given_to_the_wrong_side_fails():
    for seed in range(50):
        ev = simulated(seed)
        for i in _lines(ev, "deal_end"):
            d = ev[i]["detail"]
            if d["primiera"] != [0, 0]:
                winner = d["primiera"].index(1)
                d["primiera"] = d["primiera"][::-1]
                ev[i]["points"][winner] -= 1
                ev[i]["points"][1 - winner] += 1
                v = verify_events(ev)
                assert not v.ok and v.line == i + 1 and "primiera" in v.message
                return
    raise AssertionError("no deal with a primiera winner found")


def test_match_declared_over_on_a_tie_fails():
    for seed in range(2000):
        ev = simulated(seed, bots="random")
        for i in _lines(ev, "deal_end"):
            totals = ev[i]["totals"]
            if max(totals) >= 11 and totals.count(max(totals)) > 1:
                cut = ev[:i + 1] + [{"event": "match_end", "winner": 0, "totals": totals}]
                v = verify_events(cut)
                assert not v.ok and v.line == i + 2 and "tied for the lead" in v.message
                return
    raise AssertionError("no tied lead at the target found")


def test_match_declared_over_below_target_fails():
    ev = simulated(3)
    first_end = _lines(ev, "deal_end")[0]
    cut = ev[:first_end + 1] + [{"event": "match_end", "winner": 0, "totals": ev[first_end]["totals"]}]
    v = verify_events(cut)
    assert not v.ok and "not" in v.message and v.line == first_end + 2


def test_wrong_winner_fails():
    ev = simulated(4)
    ev[-1]["winner"] = 1 - ev[-1]["winner"]
    v = verify_events(ev)
    assert not v.ok and v.line == len(ev)


def test_mutated_card_fails():
    ev = simulated(5)
    i = _lines(ev, "play")[0]
    ev[i]["card"] = "7D" if ev[i]["card"] != "7D" else "6D"
    assert not verify_events(ev).ok


def test_stolen_card_in_deal_fails():
    ev = simulated(6)
    deal = ev[1]
    deal["stock"][0] = deal["hands"][0][0]
    v = verify_events(ev)
    assert not v.ok and v.line == 2 and "dealt twice" in v.message


def test_wrong_dealer_rotation_fails():
    ev = simulated(7)
    deals = _lines(ev, "deal")
    ev[deals[-1]]["dealer"] = ev[deals[-2]]["dealer"]
    v = verify_events(ev)
    assert not v.ok and "passes to seat" in v.message


def test_truncated_record_fails_with_line():
    ev = simulated(8)
    text = "\n".join(dumps(e) for e in ev)
    cut = text[: len(text) // 2]
    v = verify_text(cut)
    assert not v.ok and v.line is not None


def test_other_format_number_is_named():
    ev = simulated(9)
    ev[0]["format"] = 2
    v = verify_text("\n".join(json.dumps(e) for e in ev))
    assert not v.ok and v.line == 1 and "format 2" in v.message and "format 1" in v.message


def test_malformed_json_named():
    v = verify_text('{"event": "match", "format": 1\n')
    assert not v.ok and v.line == 1 and "JSON" in v.message


def test_unknown_event_type_rejected():
    ev = simulated(10)
    ev.insert(2, {"event": "chat", "text": "hi"})
    v = verify_text("\n".join(json.dumps(e) for e in ev))
    assert not v.ok and v.line == 3 and "unknown event" in v.message


def test_missing_field_rejected():
    ev = simulated(12)
    i = _lines(ev, "play")[0]
    del ev[i]["bonuses"]
    v = verify_text("\n".join(json.dumps(e) for e in ev))
    assert not v.ok and v.line == i + 1 and "bonuses" in v.message


def test_extra_fields_are_ignored():
    ev = simulated(13)
    for e in ev:
        e["thinking_ms"] = 3
    assert verify_events(ev).ok


def test_written_file_round_trips(tmp_path):
    ev = simulated(14, players=4)
    p = tmp_path / "m.jsonl"
    write_record(p, ev)
    assert parse_lines(p.read_text(encoding="utf-8").split("\n")) == ev
    assert verify_file(str(p)).ok
    lines = p.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(x)["event"] for x in lines)


def test_missing_file_message(tmp_path):
    v = verify_file(str(tmp_path / "none.jsonl"))
    assert not v.ok and "cannot read" in v.message


def test_random_mutations_always_fail():
    rng = random.Random(0)
    base = simulated(15)
    plays = _lines(base, "play")
    for _ in range(25):
        ev = copy.deepcopy(base)
        i = rng.choice(plays)
        ev[i]["card"] = rng.choice([c for c in DECK40 if c != ev[i]["card"]])
        assert not verify_events(ev).ok
