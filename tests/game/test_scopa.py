"""One test per rule of the Scopa section of RULES.md, on hand-built positions."""
from __future__ import annotations

import random

import pytest

from game.cards import cards
from game.rules import make_rules
from game.rules.base import IllegalAction, play
from game.rules.scopa import ScopaState


def rules(players: int = 2, target: int = 11, deck: str = "piacentine"):
    return make_rules("scopa", deck, players, {"target": target})


def position(r, hands, table, stock="", to_act=0, dealer=None, piles=None):
    n = r.players
    st = ScopaState(
        players=n, dealer=(to_act - 1) % n if dealer is None else dealer, number=1,
        hands=[cards(h) for h in hands], table=cards(table), stock=cards(stock),
        piles=[cards(p) for p in piles] if piles else [[] for _ in range(r.teams)],
        scope=[0] * r.teams, to_act=to_act,
    )
    return st


def test_capture_values_courts_take_part_in_sums():
    r = rules()
    st = position(r, ["KD 2C", "3C"], "JS 2S 5B", stock="4D 5D")  # K=10 = J(8)+2
    assert play("KD", ["JS", "2S"]) in r.legal_actions(st)


def test_match_before_sum():
    r = rules()
    st = position(r, ["7D 2C", "3C"], "7S 3B 4B", stock="4D 5D")
    legal = [a for a in r.legal_actions(st) if a.card.code == "7D"]
    assert legal == [play("7D", ["7S"])]
    with pytest.raises(IllegalAction) as e:
        r.validate(st, play("7D", ["3B", "4B"]))
    assert e.value.rule == "match_before_sum"


def test_choice_among_several_matches():
    r = rules()
    st = position(r, ["5D 2C", "3C"], "5S 5B", stock="4D 6D")
    got = {a.capture for a in r.legal_actions(st) if a.card.code == "5D"}
    assert got == {tuple(cards("5S")), tuple(cards("5B"))}


def test_choice_among_several_sum_sets():
    r = rules()
    st = position(r, ["6D 2C", "3C"], "AS 5B 2B 4S", stock="4D 6C")
    got = {tuple(c.code for c in a.capture) for a in r.legal_actions(st) if a.card.code == "6D"}
    assert {tuple(sorted(g)) for g in got} == {("5B", "AS"), ("2B", "4S")}


def test_capture_is_mandatory():
    r = rules()
    st = position(r, ["6D 2C", "3C"], "AS 5B", stock="4D 6C")
    with pytest.raises(IllegalAction) as e:
        r.validate(st, play("6D"))
    assert e.value.rule == "capture_mandatory"
    assert play("6D", ["AS", "5B"]) in r.legal_actions(st)


def test_no_capture_leaves_card_on_table():
    r = rules()
    st = position(r, ["6D 2C", "3C"], "KS QB", stock="4D 6C")
    r.apply(st, play("6D"))
    assert "6D" in [c.code for c in st.table]


def test_wrong_sum_refused():
    r = rules()
    st = position(r, ["6D 2C", "3C"], "AS 4B 2S", stock="4D 6C")
    with pytest.raises(IllegalAction) as e:
        r.validate(st, play("6D", ["AS", "4B"]))
    assert e.value.rule == "wrong_sum"


def test_scopa_clearing_the_table_scores_one():
    r = rules()
    st = position(r, ["7D 2C", "3C"], "3S 4B", stock="4D 6C")
    ev = r.apply(st, play("7D", ["3S", "4B"]))
    assert ev[0]["bonuses"] == ["scopa"] and st.scope == [1, 0]


def test_no_scopa_on_final_play():
    r = rules()
    st = position(r, ["7D", ""], "3S 4B", stock="", piles=["2C", "QB"])
    st.last_capture_team = 1
    ev = r.apply(st, play("7D", ["3S", "4B"]))
    assert ev[0]["bonuses"] == [] and st.scope == [0, 0] and st.over


def test_new_hands_of_three_from_stock_nothing_to_table():
    r = rules()
    st = position(r, ["7D", "2C"], "KS", stock="AD 2D 3D 4D 5D 6D", to_act=0, dealer=1)
    r.apply(st, play("7D"))
    ev = r.apply(st, play("2C"))
    assert ev[-1]["event"] == "hands"
    assert [len(h) for h in st.hands] == [3, 3] and st.stock == []
    assert len(st.table) == 3  # KS, 7D, 2C: no new table cards
    assert [c.code for c in st.hands[0]] == ["AD", "2D", "3D"]  # first player is served first


@pytest.mark.parametrize("players,rounds", [(2, 6), (3, 4), (4, 3)])
def test_rounds_per_deal(players, rounds):
    r = rules(players)
    st = r.new_deal(random.Random(players), 0)
    hands_events = 0
    rng = random.Random(1)
    while not st.over:
        ev = r.apply(st, rng.choice(r.legal_actions(st)))
        hands_events += sum(e["event"] == "hands" for e in ev)
    assert hands_events + 1 == rounds


def test_leftovers_go_to_last_capturer_without_scopa():
    r = rules()
    st = position(r, ["KD", ""], "2S", stock="", piles=["5C", "7B 2B"])
    st.last_capture_team = 1
    r.apply(st, play("KD"))
    res = r.deal_result(st)
    assert res.leftover == {"team": 1, "cards": ["2S", "KD"]}
    assert res.detail["scope"] == [0, 0]
    assert res.detail["card_counts"] == [1, 4]


def test_no_leftover_when_nobody_captured():
    r = rules()
    st = position(r, ["KD", ""], "2S", stock="")
    r.apply(st, play("KD"))
    assert r.deal_result(st).leftover is None


def _result(r, piles, scope=(0, 0)):
    st = position(r, ["", ""], "", piles=piles)
    st.scope = list(scope)
    st.over = True
    return r.deal_result(st)


def test_award_most_cards():
    r = rules()
    res = _result(r, ["AD 2C 3S", "4B 5C"])
    assert res.detail["cards"] == [1, 0]


def test_tie_for_most_cards_awards_nobody():
    r = rules()
    res = _result(r, ["AC 2C", "4B 5C"])
    assert res.detail["cards"] == [0, 0]


def test_award_most_coins_and_tie():
    r = rules()
    assert _result(r, ["AD 2D", "4D 5C 6C"]).detail["coins"] == [1, 0]
    assert _result(r, ["AD 2C", "4D 5C"]).detail["coins"] == [0, 0]


def test_settebello():
    r = rules()
    assert _result(r, ["AC", "7D"]).detail["settebello"] == [0, 1]


def test_primiera_requires_every_suit():
    r = rules()
    # Team 0 has three sevens but no Batons: it does not qualify; team 1 wins with low cards.
    res = _result(r, ["7D 7C 7S 6D 6C", "2D 2C 2S 2B"])
    assert res.detail["primiera_values"] == [None, 48]
    assert res.detail["primiera"] == [0, 1]


def test_primiera_values_table():
    r = rules()
    assert r.primiera_value(cards("7D 6C AS 5B")) == 21 + 18 + 16 + 15
    assert r.primiera_value(cards("4D 3C 2S KB QB JB")) == 14 + 13 + 12 + 10


def test_primiera_tie_awards_nobody():
    r = rules()
    res = _result(r, ["7D 7C 6S 6B", "6D 6C 7S 7B"])
    assert res.detail["primiera_values"] == [78, 78] and res.detail["primiera"] == [0, 0]


def test_primiera_nobody_qualifies():
    r = rules()
    assert _result(r, ["7D 7C", "7S 6S"]).detail["primiera"] == [0, 0]


def test_deal_points_add_awards_and_scope():
    r = rules()
    res = _result(r, ["7D 6D AD 2C 3S 4B", "5C 6C"], scope=(2, 1))
    assert res.points == [2 + 4, 1]  # cards, coins, settebello, primiera + 2 scope; 1 scopa


def test_three_kings_on_the_table_redeal():
    r = rules()
    ev = {"event": "deal", "number": 1, "dealer": 0, "hands": [["AD", "2D", "3D"], ["4D", "5D", "6D"]],
          "table": ["KD", "KC", "KS", "AC"], "stock": [c for c in
          "7D JD QD 2C 3C 4C 5C 6C 7C JC QC AS 2S 3S 4S 5S 6S 7S JS QS AB 2B 3B 4B 5B 6B 7B JB QB KB".split()],
          "trump": None}
    assert r.needs_redeal(r.state_from_deal(ev))
    ev["table"] = ["KD", "KC", "AC", "KS"]
    assert r.needs_redeal(r.state_from_deal(ev))
    ev["table"], ev["stock"][0] = ["KD", "KC", "7D", "AC"], "KS"
    assert not r.needs_redeal(r.state_from_deal(ev))


def test_redeal_keeps_the_same_dealer():
    r = rules()
    for seed in range(400):
        st = r.new_deal(random.Random(seed), 1)
        kinds = [e["event"] for e in st.opening_events]
        if "redeal" in kinds:
            dealers = {e["dealer"] for e in st.opening_events if e["event"] == "deal"}
            assert dealers == {1} and kinds[-1] == "deal"
            assert not r.needs_redeal(st)
            return
    pytest.fail("no redeal in 400 seeds")


def test_first_player_is_dealers_right():
    r = rules(3)
    st = r.new_deal(random.Random(3), 2)
    assert st.to_act == 0


def test_dealer_rotates_one_seat():
    r = rules(3)
    assert [r.next_dealer(d) for d in range(3)] == [1, 2, 0]


def test_four_players_partners_share_pile():
    r = rules(4)
    st = position(r, ["2C", "3B", "7D", "4C"], "5S 2S", stock="AD AC AS AB 2D 3D 4D 5D 6D 6C 6S 6B", to_act=2)
    r.apply(st, play("7D", ["5S", "2S"]))
    assert len(st.piles[0]) == 3 and st.scope == [1, 0]


def test_match_needs_target_and_unique_lead():
    r = rules(2, target=11)
    assert r.match_status([10, 9], 1)[0] is False
    assert r.match_status([12, 11], 1)[:2] == (True, 0)
    assert r.match_status([12, 12], 1)[0] is False  # tied for the lead: play on
    r3 = rules(3, target=11)
    assert r3.match_status([12, 12, 3], 2)[0] is False
    assert r3.match_status([9, 11, 3], 2)[:2] == (True, 1)


def test_match_target_option_allowed_values():
    with pytest.raises(ValueError):
        rules(2, target=12)
    assert rules(2, target=31).target == 31


def test_52_card_deck_plays_scopa_without_8_9_10():
    r = rules(deck="bresciane")
    assert len(r.cards) == 40 and not {c.rank for c in r.cards} & {"8", "9", "10"}


def test_illegal_card_not_in_hand():
    r = rules()
    st = position(r, ["7D 2C", "3C"], "KS", stock="4D 5D")
    with pytest.raises(IllegalAction) as e:
        r.validate(st, play("3C"))
    assert e.value.rule == "not_in_hand"


def test_view_hides_other_hands_and_stock():
    r = rules()
    st = r.new_deal(random.Random(5), 0)
    v = r.view(st, 0)
    assert v.hand == tuple(st.hands[0])
    assert v.hand_counts == (3, 3) and v.stock_count == 30
    assert set(v.unseen) == set(st.hands[1]) | set(st.stock)
    assert not hasattr(v, "stock")
