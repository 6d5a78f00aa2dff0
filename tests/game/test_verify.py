"""The referee: well-formed records that break one rule fail, naming the line and the rule."""

from __future__ import annotations

import copy
import json
import random

from game.ai.bots import make_bot
from game.match import Match
from game.record import dumps, parse_lines, write_record
from game.rulesets import make_rules
from game.verify import verify_events, verify_file, verify_text

DECK40 = [r + s for s in "DCSB" for r in ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]]


def simulated(seed: int, players: int = 2, bots: str = "greedy", game: str = "scopa", **opts) -> list[dict]:
    rules = make_rules(game, None, players, opts or None)
    m = Match(rules, seed, [make_bot(bots, rules, s, seed) for s in range(players)])
    return copy.deepcopy(m.run())


def handmade(hands, table, plays, dealer=1):
    dealt = [c for h in hands for c in h] + table
    stock = [c for c in DECK40 if c not in dealt]
    ev = [
        {
            "event": "match",
            "format": 1,
            "game": "scopa",
            "deck": "piacentine",
            "players": 2,
            "seed": 1,
            "options": {"target": 11},
        },
        {"event": "deal", "number": 1, "dealer": dealer, "hands": hands, "table": table, "stock": stock, "trump": None},
    ]
    return ev + plays


def test_simulated_records_pass():
    for players in (2, 3, 4):
        assert verify_events(simulated(players, players)).ok


def test_sum_taken_while_a_match_was_on_the_table_fails():
    ev = handmade(
        [["7D", "2C", "3C"], ["4D", "5D", "6D"]],
        ["7S", "3B", "4B", "QB"],
        [{"event": "play", "seat": 0, "card": "7D", "capture": ["3B", "4B"], "bonuses": []}],
    )
    v = verify_events(ev)
    assert not v.ok and v.line == 3 and "a match comes before a sum" in v.message


def test_play_out_of_turn_fails():
    ev = handmade(
        [["7D", "2C", "3C"], ["4D", "5D", "6D"]],
        ["7S", "3B", "4B", "QB"],
        [{"event": "play", "seat": 1, "card": "4D", "capture": ["4B"], "bonuses": []}],
    )
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
                cut = ev[: i + 1] + [{"event": "match_end", "winner": 0, "totals": totals}]
                v = verify_events(cut)
                assert not v.ok and v.line == i + 2 and "tied for the lead" in v.message
                return
    raise AssertionError("no tied lead at the target found")


def test_match_declared_over_below_target_fails():
    ev = simulated(3)
    first_end = _lines(ev, "deal_end")[0]
    cut = ev[: first_end + 1] + [{"event": "match_end", "winner": 0, "totals": ev[first_end]["totals"]}]
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


# ---------------------------------------------------------------- what RECORD.md allows
def _one_at_a_time(hands: list[list[str]], dealer: int) -> list[list[str]]:
    """A round dealt one card at a time from the seat after the dealer (this program deals
    three at a time): the same cards of the stock, another split RECORD.md allows."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    drawn = [c for s in order for c in hands[s]]  # the stock's order
    out: list[list[str]] = [[] for _ in range(n)]
    for k, c in enumerate(drawn):
        out[order[k % n]].append(c)
    return out


def _swap_first_two(hands: list[list[str]], dealer: int) -> list[list[str]]:
    out = [list(h) for h in hands]
    out[0][0], out[1][0] = out[1][0], out[0][0]
    return out


def other_writer(seed: int, players: int, split, **opts) -> list[dict]:
    """A record by another writer: it splits every ``hands`` round with ``split`` (and its
    players then hold those hands), random legal play."""
    from game.cards import cards

    rules = make_rules("scopa", None, players, opts or None)
    m = Match(rules, seed)
    rng = random.Random(seed)
    m.start()
    while not m.over:
        for e in m.play(rng.choice(m.legal_actions())):
            if e["event"] == "hands":
                e["hands"] = split(e["hands"], m.state.dealer)  # the record's line, changed in place
                m.state.hands = [cards(h) for h in e["hands"]]
    return copy.deepcopy(m.events)


def test_a_missing_option_is_its_default():
    ev = simulated(20, players=4, deal="scopone", napola=True)
    assert verify_events(ev, strict=True).ok
    del ev[0]["options"]["target"], ev[0]["options"]["re_bello"]
    assert verify_events(ev).ok
    ev[0]["options"] = {"deal": "scopone", "napola": True}
    assert verify_events(ev).ok
    v = verify_events(ev, strict=True)
    assert not v.ok and v.line == 1 and "every option" in v.message


def test_options_left_out_change_the_rules_that_are_checked():
    ev = simulated(21, players=4, deal="scopone")
    ev[0]["options"] = {}  # the default deal is three each: this deal line is not one
    v = verify_events(ev)
    assert not v.ok and v.line == 2 and "dealt 9 cards" in v.message


def test_an_unknown_option_fails_naming_it():
    ev = simulated(22)
    ev[0]["options"]["jokers"] = True
    v = verify_events(ev)
    assert not v.ok and v.line == 1 and "'jokers'" in v.message


def test_a_bad_option_value_fails_naming_it():
    for opts, words in (
        ({"deal": "scopa9"}, "deal='scopa9'"),
        ({"napola": 1}, "napola=1"),
        ({"target": "11"}, "target='11'"),
        ({"deal": "scopone"}, "for 4 players, not 2"),
    ):
        ev = simulated(23)
        ev[0]["options"].update(opts)
        v = verify_events(ev)
        assert not v.ok and v.line == 1 and words in v.message, (opts, str(v))


def test_options_must_be_an_object():
    ev = simulated(24)
    ev[0]["options"] = ["target", 11]
    v = verify_events(ev)
    assert not v.ok and v.line == 1 and "options" in v.message


def test_any_split_of_a_hands_round_is_accepted():
    for players in (2, 3, 4):
        ev = other_writer(25 + players, players, _one_at_a_time)
        assert verify_events(ev).ok, (players, str(verify_events(ev)))
        # Strict: only this program's split.
        v = verify_events(ev, strict=True)
        first = _lines(ev, "hands")[0]
        assert not v.ok and v.line == first + 1 and "three cards at a time" in v.message, str(v)


def test_a_swapped_split_between_two_seats_is_accepted_and_followed():
    ev = other_writer(30, 3, _swap_first_two)
    assert verify_events(ev).ok
    # The seats hold the record's hands from then on: with the round put back to this
    # program's split, the plays that follow no longer fit and the record fails later on.
    i = _lines(ev, "hands")[0]
    ev[i]["hands"] = _swap_first_two(ev[i]["hands"], 0)
    v = verify_events(ev)
    assert not v.ok and v.line > i + 1 and "is not in seat" in v.message, str(v)


def test_a_hands_round_of_the_wrong_cards_fails():
    ev = simulated(31)
    i = _lines(ev, "hands")[0]
    later = next(c for c in ev[1]["stock"] if all(c not in h for h in ev[i]["hands"]))
    ev[i]["hands"][0][0] = later
    v = verify_events(ev)
    assert not v.ok and v.line == i + 1 and "the next 6 cards of the stock" in v.message


def test_a_hands_round_that_is_not_three_each_fails():
    ev = simulated(32)
    i = _lines(ev, "hands")[0]
    ev[i]["hands"][1].append(ev[i]["hands"][0].pop())
    v = verify_events(ev)
    assert not v.ok and v.line == i + 1 and "seat 0 2 cards" in v.message


def test_a_hands_round_with_a_bad_card_fails():
    ev = simulated(33)
    i = _lines(ev, "hands")[0]
    ev[i]["hands"][0][0] = "ZZ"
    v = verify_events(ev)
    assert not v.ok and v.line == i + 1 and "bad card" in v.message


def _free_form(ev: list[dict]) -> list[dict]:
    ev = copy.deepcopy(ev)
    for e in ev:
        if e["event"] == "deal_end":
            # Another writer's breakdown: other keys, and a known key with another meaning.
            e["detail"] = {"primiera": [78, 70], "summary": "mine", "cards": "many"}
    return ev


def test_any_detail_is_accepted_for_scopa_cicera_and_briscola():
    for game, players in (("scopa", 2), ("scopa", 4), ("cicera", 4), ("briscola", 2), ("briscola", 4)):
        ev = simulated(34, players=players, game=game)
        assert verify_events(_free_form(ev)).ok, (game, players)
        empty = copy.deepcopy(ev)
        for e in empty:
            if e["event"] == "deal_end":
                e["detail"] = {}
        assert verify_events(empty).ok, (game, players)
        v = verify_events(_free_form(ev), strict=True)
        assert not v.ok and "detail" in v.message, (game, players)


def test_a_free_form_detail_still_has_its_points_checked():
    for game, players in (("scopa", 2), ("cicera", 4), ("briscola", 4)):
        ev = _free_form(simulated(35, players=players, game=game))
        i = _lines(ev, "deal_end")[0]
        ev[i]["points"][0] += 1
        v = verify_events(ev)
        assert not v.ok and v.line == i + 1 and "points" in v.message, (game, str(v))


def test_a_schnapsen_detail_is_checked():
    ev = simulated(36, game="schnapsen")
    i = _lines(ev, "deal_end")[0]
    del ev[i]["detail"]["reason"]
    v = verify_events(ev)
    assert not v.ok and v.line == i + 1 and "lacks 'reason'" in v.message


def test_schnapsen_accepts_target_for_bummerl():
    ev = simulated(37, game="schnapsen")
    ev[0]["options"] = {"target": 7}
    assert verify_events(ev).ok
    ev[0]["options"] = {"target": 7, "bummerl": 7}
    v = verify_events(ev)
    assert not v.ok and "twice" in v.message


def test_the_order_of_leftover_and_captured_cards_carries_no_meaning():
    for seed in range(40, 80):
        ev = simulated(seed)
        ends = [i for i in _lines(ev, "deal_end") if ev[i]["leftover"] and len(ev[i]["leftover"]["cards"]) > 1]
        caps = [i for i in _lines(ev, "play") if len(ev[i]["capture"]) > 1]
        if ends and caps:
            ev[ends[0]]["leftover"]["cards"].reverse()
            ev[caps[0]]["capture"].reverse()
            assert verify_events(ev).ok
            v = verify_events(ev, strict=True)
            assert not v.ok and v.line == caps[0] + 1
            return
    raise AssertionError("no record with a long leftover and a long capture")


def test_the_order_of_cicera_bonuses_carries_no_meaning():
    for seed in range(60):
        ev = simulated(seed, players=4, game="cicera")
        multi = [i for i in _lines(ev, "play") if len(ev[i]["bonuses"]) > 1]
        if multi:
            ev[multi[0]]["bonuses"].reverse()
            assert verify_events(ev).ok
            return
    raise AssertionError("no play with two bonuses")


def test_simulated_records_pass_strict():
    for players, opts in (
        (2, {}),
        (3, {"capture": "fifteen"}),
        (4, {"deal": "scopone10", "re_bello": True}),
        (2, {"aces": "take_all", "napola": True}),
    ):
        v = verify_events(simulated(38, players=players, **opts), strict=True)
        assert v.ok, (players, opts, str(v))


def test_a_briscola_match_may_choose_each_deals_dealer_at_random():
    # RULES.md: in Briscola the first player is chosen at random, in every deal; the dealer
    # line names it. Another writer's match whose dealer does not rotate is a valid record.
    r = make_rules("briscola", None, 2, {"format": "match", "deals_to_win": 3})
    r.next_dealer = lambda dealer: dealer  # type: ignore[method-assign]  # that writer's choice
    ev = Match(r, 39, [make_bot("random", r, s, 39) for s in range(2)]).run()
    deals = _lines(ev, "deal")
    assert len(deals) >= 3 and len({ev[i]["dealer"] for i in deals}) == 1
    assert verify_events(ev).ok
    v = verify_events(ev, strict=True)
    assert not v.ok and v.line == deals[1] + 1 and "passes to seat" in v.message
