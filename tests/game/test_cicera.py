"""Cìcera: one test per rule of RULES.md's Cìcera section, on hand-built positions."""

from __future__ import annotations

import json
import random

import pytest

from game.ai.bots import make_bot
from game.cards import SUITS, card, cards, codes
from game.games.cicera.rules import CiceraState
from game.games.schnapsen.vocabulary import CLOSE
from game.match import Match
from game.rules.base import IllegalAction, RecordError, play
from game.rules.capture import captured
from game.rulesets import make_rules
from game.verify import verify_events, verify_text


@pytest.fixture(scope="module")
def rules():
    return make_rules("cicera")


def pos(hands, table, to_act=0, last_placed=None, piles=None, last_capture_team=None):
    """A hand-built position. Seats not listed get an empty hand."""
    hs = [cards(h) for h in hands] + [[] for _ in range(4 - len(hands))]
    return CiceraState(
        players=4,
        dealer=(to_act - 1) % 4,
        number=1,
        hands=hs,
        table=cards(table),
        piles=[cards(p) for p in piles] if piles else [[], []],
        bonuses=[[0] * 4, [0] * 4],
        to_act=to_act,
        last_capture_team=last_capture_team,
        last_placed=card(last_placed) if last_placed else None,
    )


def full_deal(rules, seed=0, dealer=0):
    """A hand-written style deal event for the whole pack (12 per seat, 4 to the table, no stock)."""
    order = list(rules.cards)
    random.Random(seed).shuffle(order)
    return {
        "event": "deal",
        "number": 1,
        "dealer": dealer,
        "hands": [codes(order[i * 12 : (i + 1) * 12]) for i in range(4)],
        "table": codes(order[48:]),
        "stock": [],
        "trump": None,
    }


def legal_strs(rules, state):
    return {str(a) for a in rules.legal_actions(state)}


def bonuses_of(rules, state, action):
    return rules.apply(state, action)[0]["bonuses"]


# ---------------------------------------------------------------- cards, players, deal
@pytest.mark.parametrize("deck", ["bresciane", "trevisane"])
def test_52_cards_bresciane_or_trevisane(deck):
    r = make_rules("cicera", deck)
    assert len(r.cards) == 52 and len(set(r.cards)) == 52
    assert {c.suit for c in r.cards} == set(SUITS)
    assert {c.rank for c in r.cards} == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


def test_40_card_decks_cannot_play_cicera():
    with pytest.raises(ValueError, match="cannot play cicera"):
        make_rules("cicera", "piacentine")


def test_four_players_partners_opposite(rules):
    with pytest.raises(ValueError, match="4 players"):
        make_rules("cicera", players=2)
    assert rules.teams == 2
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_partners_share_one_pile(rules):
    # Seat 2 captures for team 0, like seat 0.
    s = pos([["KB"], ["KD"], ["5C"], ["KS"]], ["5D", "9B"], to_act=2)
    rules.apply(s, play("5C", ["5D"]))
    assert s.piles[0] == cards("5C 5D") and s.piles[1] == []


def test_deal_12_each_and_4_to_the_table_no_stock(rules):
    s = rules.new_deal(random.Random(4), dealer=1)
    assert [len(h) for h in s.hands] == [12] * 4
    assert len(s.table) == 4
    ev = s.opening_events
    assert len(ev) == 1 and ev[0]["event"] == "deal" and ev[0]["stock"] == [] and ev[0]["trump"] is None
    dealt = [c for h in s.hands for c in h] + s.table
    assert sorted(dealt) == sorted(rules.cards)


def test_dealer_chosen_at_random_and_dealers_right_starts(rules):
    dealers = set()
    for seed in range(40):
        m = Match(make_rules("cicera"), seed)
        m.start()
        dealers.add(m.dealer)
        assert m.to_act == (m.dealer + 1) % 4
        assert m.events[1]["dealer"] == m.dealer
    assert dealers == {0, 1, 2, 3}


def test_single_deal_is_the_default_no_match(rules):
    assert rules.options == {"format": "single", "target": 21}
    m = Match(make_rules("cicera"), 11, [make_bot("random", rules, s, 11) for s in range(4)])
    events = m.run()
    assert [e["event"] for e in events].count("deal") == 1
    assert events[-1]["event"] == "match_end" and events[-2]["event"] == "deal_end"


# ---------------------------------------------------------------- ranks and captures
def test_numerals_are_worth_their_rank_and_courts_have_no_value(rules):
    assert rules.values[card("AS")] == 1 and rules.values[card("10D")] == 10
    assert all(c not in rules.values for c in cards("JC QC KC JS"))


def test_same_rank_capture_of_one_numeral(rules):
    s = pos([["7D"], ["KB"]], ["7C", "7B", "2S"])
    assert {"7D x 7C", "7D x 7B"} <= legal_strs(rules, s)
    rules.apply(s, play("7D", ["7B"]))
    assert s.table == cards("7C 2S") and s.piles[0] == cards("7D 7B")


def test_court_captures_only_one_court_of_the_same_rank(rules):
    s = pos([["QD"], ["KB"]], ["QC", "KC", "JC", "5S"])
    assert legal_strs(rules, s) == {"QD", "QD x QC"}
    with pytest.raises(IllegalAction) as e:
        rules.validate(s, play("QD", ["KC"]))
    assert e.value.rule == "rank_match"


def test_court_cannot_take_a_sum(rules):
    s = pos([["QD"], ["KB"]], ["QC", "JC"])
    with pytest.raises(IllegalAction) as e:
        rules.validate(s, play("QD", ["QC", "JC"]))
    assert e.value.rule == "court_single_match"


def test_numeral_sum_capture(rules):
    s = pos([["9D"], ["KB"]], ["2C", "3S", "4B", "5D", "KS"])
    legal = legal_strs(rules, s)
    # 2+3+4 and 4+5 make nine; a single card matching by rank would be a 9.
    assert legal == {"9D", "9D x 2C+3S+4B", "9D x 5D+4B"}


def test_a_sum_with_a_fante_in_it_is_refused(rules):
    s = pos([["10D"], ["KB"]], ["2C", "JS", "8B"])
    assert "10D x 2C+8B" in legal_strs(rules, s)
    assert not any(card("JS") in captured(a) for a in rules.legal_actions(s))
    with pytest.raises(IllegalAction) as e:
        rules.validate(s, play("10D", ["2C", "JS"]))
    assert e.value.rule == "sum_no_courts"


def test_a_sum_must_add_up_to_the_played_value(rules):
    s = pos([["8D"], ["KB"]], ["2C", "3S", "4B"])
    with pytest.raises(IllegalAction) as e:
        rules.apply(s, play("8D", ["2C", "3S"]))
    assert e.value.rule == "wrong_sum" and e.value.params == {"total": 5, "value": 8}
    assert s.hands[0] == cards("8D")  # nothing changed


def test_two_captures_two_aces_by_sum(rules):
    s = pos([["2D"], ["KB"]], ["AC", "AS"])
    assert "2D x AC+AS" in legal_strs(rules, s)


def test_choice_between_a_match_and_a_sum(rules):
    # The product page's example: a 7 onto 7, 3 and 4.
    s = pos([["7D"], ["KB"]], ["7C", "3S", "4B"])
    assert legal_strs(rules, s) == {"7D", "7D x 7C", "7D x 3S+4B"}
    for a in (play("7D", ["7C"]), play("7D", ["3S", "4B"])):
        rules.validate(s, a)


def test_place_only_is_legal_with_a_capture_available(rules):
    s = pos([["7D"], ["KB"]], ["7C", "3S", "4B"])
    rules.validate(s, play("7D"))
    events = rules.apply(s, play("7D"))
    assert events == [{"event": "play", "seat": 0, "card": "7D", "capture": [], "bonuses": []}]
    assert s.table == cards("7C 3S 4B 7D") and s.piles == [[], []]
    assert s.to_act == 1


def test_illegal_actions_name_their_rule(rules):
    s = pos([["7D"], ["KB"]], ["7C", "3S"])
    cases = [
        (play("5D"), "not_in_hand"),
        (play("7D", ["7B"]), "not_on_table"),
        (play("7D", ["3S"]), "rank_match"),
        (CLOSE, "not_in_game"),
    ]
    for action, rule in cases:
        with pytest.raises(IllegalAction) as e:
            rules.apply(s, action)
        assert e.value.rule == rule, action
        assert str(e.value)  # a short English reason
    s.over = True
    with pytest.raises(IllegalAction) as e:
        rules.validate(s, play("7D"))
    assert e.value.rule == "deal_over"


# ---------------------------------------------------------------- capture bonuses
def test_scua_capture_clears_the_table(rules):
    s = pos([["KD", "2B"], ["KB"]], ["KC"])
    assert bonuses_of(rules, s, play("KD", ["KC"])) == ["scua"]
    assert s.bonuses[0] == [1, 0, 0, 0]


def test_no_scua_when_cards_remain(rules):
    s = pos([["KD", "2B"], ["KB"]], ["KC", "4S"])
    assert bonuses_of(rules, s, play("KD", ["KC"])) == []


def test_picada_takes_the_card_the_previous_seat_just_placed(rules):
    s = pos([["5C", "2B"], ["5S", "KB"]], ["9D", "KC"])
    rules.apply(s, play("5C"))
    assert s.last_placed is card("5C")
    assert bonuses_of(rules, s, play("5S", ["5C"])) == ["picada"]
    assert s.bonuses[1] == [0, 1, 0, 0]


def test_picada_with_a_court(rules):
    s = pos([["JC", "2B"], ["JS", "KB"]], ["9D"])
    rules.apply(s, play("JC"))
    assert bonuses_of(rules, s, play("JS", ["JC"])) == ["picada"]


def test_picada_on_a_card_placed_two_turns_ago_earns_nothing(rules):
    s = pos([["5C", "2B"], ["9D", "KB"], ["5S", "KS"]], ["KC"])
    rules.apply(s, play("5C"))
    rules.apply(s, play("9D"))
    assert bonuses_of(rules, s, play("5S", ["5C"])) == []


def test_picada_not_after_a_capture_by_the_previous_seat(rules):
    # Seat 0 places 5C; seat 1 captures (so it placed nothing); seat 2 takes the 5C.
    s = pos([["5C", "2B"], ["QD", "KB"], ["5S", "KS"]], ["QC", "8B"])
    rules.apply(s, play("5C"))
    rules.apply(s, play("QD", ["QC"]))
    assert s.last_placed is None
    assert bonuses_of(rules, s, play("5S", ["5C"])) == []


def test_picada_needs_that_exact_card_not_another_of_its_rank(rules):
    s = pos([["5C", "2B"], ["5S", "KB"]], ["5D", "KC"])
    rules.apply(s, play("5C"))
    assert bonuses_of(rules, s, play("5S", ["5D"])) == []


def test_picada_needs_the_card_alone_not_in_a_sum(rules):
    s = pos([["3C", "2B"], ["7S", "KB"]], ["4D", "KC"])
    rules.apply(s, play("3C"))
    assert bonuses_of(rules, s, play("7S", ["3C", "4D"])) == []


def test_no_picada_on_an_opening_table_card(rules):
    # The opening table cards were placed by nobody: taking one alone by rank is no picada.
    s = pos([["5C", "2B"], ["KB"]], ["5D", "KC"])
    assert bonuses_of(rules, s, play("5C", ["5D"])) == []


def test_simili_played_card_and_every_captured_card_share_one_suit(rules):
    s = pos([["9S", "2B"], ["KB"]], ["4S", "5S", "KC"])
    assert bonuses_of(rules, s, play("9S", ["4S", "5S"])) == ["simili"]
    s = pos([["9S", "2B"], ["KB"]], ["4S", "5D", "KC"])
    assert bonuses_of(rules, s, play("9S", ["4S", "5D"])) == []


def test_quadriglia_takes_at_least_three_table_cards(rules):
    s = pos([["9S", "2B"], ["KB"]], ["2C", "3D", "4B", "KC"])
    assert bonuses_of(rules, s, play("9S", ["2C", "3D", "4B"])) == ["quadriglia"]
    s = pos([["9S", "2B"], ["KB"]], ["4C", "5D", "KC"])
    assert bonuses_of(rules, s, play("9S", ["4C", "5D"])) == []


def test_bonuses_stack(rules):
    # Scùa + simili + quadriglia on one capture.
    s = pos([["10S", "2B"], ["KB"]], ["AS", "4S", "5S"])
    assert bonuses_of(rules, s, play("10S", ["AS", "4S", "5S"])) == ["scua", "simili", "quadriglia"]
    assert s.bonuses[0] == [1, 0, 1, 1]
    # Scùa + picada: the previous seat placed the only table card.
    s = pos([["8C", "2B"], ["8D", "KB"]], [])
    rules.apply(s, play("8C"))
    assert bonuses_of(rules, s, play("8D", ["8C"])) == ["scua", "picada"]


def test_bonuses_stack_on_the_final_play(rules):
    # The dealer (seat 3) plays the deal's last card and sweeps three Coins.
    s = pos([[], [], [], ["10D"]], ["2D", "3D", "5D"], to_act=3, piles=[["KB"], ["KC"]], last_capture_team=0)
    assert bonuses_of(rules, s, play("10D", ["2D", "3D", "5D"])) == ["scua", "simili", "quadriglia"]
    assert s.over
    res = rules.deal_result(s)
    assert res.detail["scua"] == [0, 1] and res.detail["simili"] == [0, 1] and res.detail["quadriglia"] == [0, 1]
    assert res.detail["bonuses"] == [0, 3]
    assert res.leftover is None


# ---------------------------------------------------------------- end of deal
def test_deal_ends_when_all_hands_are_empty(rules):
    s = pos([["2B"], ["3B"], ["4B"], ["5B"]], ["KC"])
    for c in ("2B", "3B", "4B"):
        rules.apply(s, play(c))
        assert not s.over
    assert rules.legal_actions(s)
    rules.apply(s, play("5B"))
    assert s.over and rules.legal_actions(s) == []


def test_leftovers_go_to_the_last_capturing_team_without_bonus(rules):
    s = pos([["KD"], ["2B"], ["9C"], ["AS"]], ["KC", "3S", "4C"])
    rules.apply(s, play("KD", ["KC"]))  # team 0 captures
    rules.apply(s, play("2B"))
    rules.apply(s, play("9C"))
    rules.apply(s, play("AS"))  # the table still holds cards at the end
    res = rules.deal_result(s)
    assert res.leftover == {"team": 0, "cards": ["3S", "4C", "2B", "9C", "AS"]}
    assert res.detail["card_counts"] == [7, 0]
    assert res.detail["bonuses"] == [0, 0]  # the leftovers earn no scùa
    assert res.detail["sword_counts"] == [2, 0]


def test_leftovers_count_for_the_napula(rules):
    s = pos([[], [], [], []], ["2S", "3S"], piles=[["AS", "AD"], ["KB", "KC"]], last_capture_team=0)
    s.over = True
    res = rules.deal_result(s)
    assert res.detail["napula"] == [3, 0] and res.detail["napula_runs"] == [3, 0]


def test_deal_with_no_capture_is_a_draw_with_zero_points(rules):
    s = rules.state_from_deal(full_deal(rules, seed=2, dealer=3))
    while not s.over:
        rules.apply(s, play(s.hands[s.to_act][0]))  # place only, every time
    assert len(s.table) == 52
    res = rules.deal_result(s)
    assert res.points == [0, 0] and res.leftover is None and res.detail["no_capture"] is True
    assert rules.match_status(res.points, 1)[:2] == (True, None)


# ---------------------------------------------------------------- awards
def finished(piles, table=(), last=0):
    s = pos([[], [], [], []], list(table), piles=piles, last_capture_team=last)
    s.over = True
    return s


def _split(rules, team0_codes):
    t0 = cards(team0_codes)
    t1 = [c for c in rules.cards if c not in t0]
    return [codes(t0), codes(t1)]


def test_most_cards_scores_two(rules):
    t0 = [c.code for c in rules.cards if c.suit in "DC"] + ["QB"]  # 27 cards
    res = rules.deal_result(finished(_split(rules, t0)))
    assert res.detail["card_counts"] == [27, 25] and res.detail["cards"] == [2, 0]


def test_a_26_26_card_split_gives_nobody_the_two_points(rules):
    t0 = [c.code for c in rules.cards if c.suit in "DC"]
    res = rules.deal_result(finished(_split(rules, t0)))
    assert res.detail["card_counts"] == [26, 26] and res.detail["cards"] == [0, 0]


def test_most_swords_counts_all_13_swords_courts_included(rules):
    swords = [c.code for c in rules.cards if c.suit == "S"]
    t0 = swords[:6] + ["JS", "QS"]  # 8 swords incl. two courts
    res = rules.deal_result(finished(_split(rules, t0)))
    assert res.detail["sword_counts"] == [8, 5] and res.detail["swords"] == [1, 0]


def test_tied_sword_majority_awards_nobody(rules):
    # 13 Swords cannot split evenly in a full deal; the tie rule still holds for equal counts.
    res = rules.deal_result(finished([["AS", "2S", "KD"], ["3S", "4S"]]))
    assert res.detail["sword_counts"] == [2, 2] and res.detail["swords"] == [0, 0]


def test_la_mata_two_of_swords_scores_one(rules):
    res = rules.deal_result(finished([["2S"], ["AS", "4D"]]))
    assert res.detail["2S"] == [1, 0]


def test_coins_ten_scores_one(rules):
    res = rules.deal_result(finished([["4D"], ["10D", "AS"]]))
    assert res.detail["10D"] == [0, 1]


def test_cups_fante_scores_one(rules):
    res = rules.deal_result(finished([["JC"], ["10D", "AS"]]))
    assert res.detail["JC"] == [1, 0]


# ---------------------------------------------------------------- napula
@pytest.mark.parametrize(
    "pile,score",
    [
        ("AS 2S", 0),  # A-2 only: nothing
        ("2S 3S 4S 5S", 0),  # no Ace: nothing
        ("AS 2S 4S 5S", 0),  # the run breaks at 3
        ("AS 2S 3S", 3),
        ("AS 2S 3S 4S", 4),
        ("AS 2S 3S 5S 6S", 3),  # unbroken run only
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 10),  # courts do not extend it
        ("AD 2D 3D", 0),  # Swords only
    ],
)
def test_napula_needs_a_2_3_and_scores_the_run_length(rules, pile, score):
    res = rules.deal_result(finished([pile.split(), ["KB"]]))
    assert res.detail["napula"] == [score, 0]


# ---------------------------------------------------------------- result and format
def test_points_are_bonuses_plus_awards_plus_napula(rules):
    t0 = [c.code for c in rules.cards if c.suit in "SC"] + ["AD"]  # 27 cards, 13 Swords, 2S, JC, full napula
    s = finished(_split(rules, t0))
    s.bonuses = [[2, 1, 0, 1], [0, 0, 3, 0]]
    res = rules.deal_result(s)
    assert res.detail["bonuses"] == [4, 3]
    # team 0: 4 bonuses + 2 cards + 1 swords + 1 (2S) + 1 (JC) + 10 napula; team 1: 3 + 1 (10D)
    assert res.points == [19, 4]


def test_single_deal_higher_total_wins_equal_totals_draw(rules):
    assert rules.match_status([7, 5], 1) == (True, 0, rules.match_status([7, 5], 1)[2])
    assert rules.match_status([3, 9], 1)[:2] == (True, 1)
    assert rules.match_status([6, 6], 1)[:2] == (True, None)


def test_match_format_uses_scopas_end_rule():
    r = make_rules("cicera", options={"format": "match", "target": 21})
    assert r.match_status([20, 3], 1)[:2] == (False, None)
    assert r.match_status([21, 20], 2)[:2] == (True, 0)
    assert r.match_status([22, 22], 3)[:2] == (False, None)  # tied leaders go on
    assert r.match_status([19, 25], 3)[:2] == (True, 1)
    r51 = make_rules("cicera", options={"format": "match", "target": 51})
    assert r51.match_status([40, 30], 2)[:2] == (False, None)


def test_match_format_moves_the_dealer_one_seat_per_deal():
    r = make_rules("cicera", options={"format": "match", "target": 21})
    m = Match(r, 5, [make_bot("greedy", r, s, 5) for s in range(4)])
    events = m.run()
    dealers = [e["dealer"] for e in events if e["event"] == "deal"]
    assert len(dealers) >= 2
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:]))
    assert max(m.totals) >= 21 and verify_events(events).ok


def test_unknown_option_value_is_refused():
    with pytest.raises(ValueError, match="not allowed"):
        make_rules("cicera", options={"target": 30})


# ---------------------------------------------------------------- records, views, copies
def test_state_from_deal_rebuilds_the_deal(rules):
    ev = full_deal(rules, seed=9, dealer=2)
    s = rules.state_from_deal(ev)
    assert codes(s.hands[1]) == ev["hands"][1] and codes(s.table) == ev["table"]
    assert s.to_act == 3 and rules.deal_event(s) == ev


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda ev: ev["stock"].append(ev["hands"][0].pop()), "seat 0 is dealt 11"),
        (lambda ev: ev.update(stock=[ev["table"].pop()]), "table is dealt 3"),
        (lambda ev: ev["hands"][1].__setitem__(0, ev["hands"][0][0]), "dealt twice"),
        (lambda ev: ev.update(trump="AS"), "no trump"),
        (lambda ev: ev["hands"].pop(), "3 hands"),
        (lambda ev: ev["table"].__setitem__(0, "11S"), "bad card"),
    ],
)
def test_state_from_deal_rejects_a_bad_deal(rules, change, message):
    ev = full_deal(rules, seed=1)
    change(ev)
    with pytest.raises(RecordError, match=message):
        rules.state_from_deal(ev)


def test_view_shows_own_hand_and_public_information_only(rules):
    s = rules.new_deal(random.Random(3), dealer=0)
    v = rules.view(s, 2)
    assert v.hand == tuple(s.hands[2]) and v.table == tuple(s.table)
    assert v.hand_counts == (12, 12, 12, 12)
    assert v.unseen == frozenset(s.hands[0] + s.hands[1] + s.hands[3])
    assert not hasattr(v, "hands")


def test_clone_is_independent(rules):
    s = rules.new_deal(random.Random(3), dealer=0)
    c = rules.clone(s)
    rules.apply(c, rules.legal_actions(c)[0])
    assert len(s.hands[1]) == 12 and len(c.hands[1]) == 11 and s.history == []


def _record(seed=7, bots="random"):
    r = make_rules("cicera")
    return Match(r, seed, [make_bot(bots, r, s, seed) for s in range(4)]).run()


def test_a_record_with_a_false_picada_fails_with_a_hint():
    events = _record()
    i = next(i for i, e in enumerate(events) if e["event"] == "play" and e["capture"] and "picada" not in e["bonuses"])
    bad = json.loads(json.dumps(events))
    bad[i]["bonuses"] = bad[i]["bonuses"] + ["picada"]
    v = verify_events(bad)
    assert not v.ok and v.line == i + 1 and "picada" in v.message


def test_a_record_claiming_a_wrong_award_fails():
    events = _record(seed=8)
    bad = json.loads(json.dumps(events))
    end = next(e for e in bad if e["event"] == "deal_end")
    end["detail"]["napula"] = [end["detail"]["napula"][0] + 3, end["detail"]["napula"][1]]
    # RECORD.md: the breakdown is the writer's own, so only verify --strict checks it.
    assert verify_events(bad).ok
    v = verify_events(bad, strict=True)
    assert not v.ok and "napula" in v.message


def test_a_record_with_a_stock_fails_at_the_deal_line():
    events = _record(seed=9)
    bad = json.loads(json.dumps(events))
    bad[1]["stock"] = [bad[1]["hands"][0].pop()]
    text = "\n".join(json.dumps(e) for e in bad)
    v = verify_text(text)
    assert not v.ok and v.line == 2


# ---------------------------------------------------------------- greedy bot
def test_greedy_takes_la_mata_over_a_plain_card(rules):
    s = pos([["2C", "5B", "KD"], ["3B"], ["4B"], ["6B"]], ["2S", "9B", "KS"])
    bot = make_bot("greedy", rules, 0, 1)
    a = bot.choose(rules.view(s, 0), rules.legal_actions(s))
    assert a == play("2C", ["2S"])


def test_greedy_takes_a_scua_when_offered(rules):
    s = pos([["7C", "JB", "3B"], ["3D"], ["4B"], ["6B"]], ["3C", "4D"])
    bot = make_bot("greedy", rules, 0, 1)
    assert bot.choose(rules.view(s, 0), rules.legal_actions(s)) == play("7C", ["3C", "4D"])


def test_greedy_team_beats_random_team():
    wins = [0, 0]
    for seed in range(30):
        r = make_rules("cicera")
        bots = [make_bot("greedy" if s % 2 == 0 else "random", r, s, seed) for s in range(4)]
        m = Match(r, seed, bots)
        m.run()
        if m.winner is not None:
            wins[m.winner] += 1
    assert wins[0] >= 25
