"""One test per rule of the Scopa section of RULES.md, on hand-built positions."""

from __future__ import annotations

import random

import pytest

from game.cards import card, cards, codes
from game.games.scopa.rules import ScopaState
from game.rules.base import IllegalAction, play
from game.rules.capture import captured
from game.rulesets import make_rules


def rules(players: int = 2, target: int = 11, deck: str = "piacentine", **options):
    return make_rules("scopa", deck, players, {"target": target, **options})


def position(r, hands, table, stock="", to_act=0, dealer=None, piles=None):
    n = r.players
    st = ScopaState(
        players=n,
        dealer=(to_act - 1) % n if dealer is None else dealer,
        number=1,
        hands=[cards(h) for h in hands],
        table=cards(table),
        stock=cards(stock),
        piles=[cards(p) for p in piles] if piles else [[] for _ in range(r.teams)],
        scope=[0] * r.teams,
        to_act=to_act,
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
    got = {captured(a) for a in r.legal_actions(st) if a.card.code == "5D"}
    assert got == {tuple(cards("5S")), tuple(cards("5B"))}


def test_choice_among_several_sum_sets():
    r = rules()
    st = position(r, ["6D 2C", "3C"], "AS 5B 2B 4S", stock="4D 6C")
    got = {tuple(c.code for c in captured(a)) for a in r.legal_actions(st) if a.card.code == "6D"}
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
    ev = {
        "event": "deal",
        "number": 1,
        "dealer": 0,
        "hands": [["AD", "2D", "3D"], ["4D", "5D", "6D"]],
        "table": ["KD", "KC", "KS", "AC"],
        "stock": [
            c
            for c in "7D JD QD 2C 3C 4C 5C 6C 7C JC QC AS 2S 3S 4S 5S 6S 7S JS QS AB 2B 3B 4B 5B 6B 7B JB QB KB".split()
        ],
        "trump": None,
    }
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


# ====================================================================== house rules (options)
DEALS = ["three", "scopone", "scopone10"]


def refused(r, st, action) -> str:
    with pytest.raises(IllegalAction) as e:
        r.validate(st, action)
    return e.value.rule


def deal_line(r, hands, table, dealer=3):
    """A valid deal line: the given hands and table, every other card in the stock."""
    dealt = cards(" ".join(hands) + " " + table)
    return {
        "event": "deal",
        "number": 1,
        "dealer": dealer,
        "hands": [h.split() for h in hands],
        "table": table.split(),
        "stock": [c.code for c in r.cards if c not in dealt],
        "trump": None,
    }


def play_deal(r, seed: int) -> tuple[ScopaState, list[dict]]:
    rng = random.Random(seed)
    st = r.new_deal(rng, rng.randrange(r.players))
    events = list(st.opening_events)
    while not st.over:
        events += r.apply(st, rng.choice(r.legal_actions(st)))
    return st, events


# ---- deal
def test_scopone_deals_nine_each_and_four_to_table():
    r = rules(4, deal="scopone")
    st = r.new_deal(random.Random(1), 0)
    assert [len(h) for h in st.hands] == [9, 9, 9, 9] and len(st.table) == 4 and st.stock == []
    assert r.view(st, 1).stock_count == 0 and st.to_act == 1


def test_scopone_has_no_stock_and_no_new_hands():
    r = rules(4, deal="scopone")
    for seed in range(5):
        st, events = play_deal(r, seed)
        kinds = [e["event"] for e in events]
        assert "hands" not in kinds and kinds.count("play") == 36
        assert sum(len(p) for p in st.piles) + len(st.table) == 40


def test_scopone10_deals_ten_each_and_nothing_to_table():
    r = rules(4, deal="scopone10")
    st = r.new_deal(random.Random(2), 3)
    assert [len(h) for h in st.hands] == [10] * 4 and st.table == [] and st.stock == []
    assert st.opening_events[0]["table"] == [] and st.opening_events[0]["stock"] == []


def test_scopone10_first_play_is_placed_on_the_empty_table():
    r = rules(4, deal="scopone10")
    st = r.new_deal(random.Random(3), 0)
    legal = r.legal_actions(st)
    assert legal and all(captured(a) == () for a in legal) and len(legal) == 10
    r.apply(st, legal[0])
    assert st.table == [legal[0].card]


def test_scopone_is_for_four_players_only():
    for deal in ("scopone", "scopone10"):
        for n in (2, 3):
            with pytest.raises(ValueError, match=f"deal={deal} is for 4 players, not {n}"):
                rules(n, deal=deal)


@pytest.mark.parametrize("deal,hand,table", [("scopone", 9, 4), ("scopone10", 10, 0)])
def test_scopone_deal_lines_are_read_with_their_sizes(deal, hand, table):
    r = rules(4, deal=deal)
    st = r.new_deal(random.Random(4), 0)
    ev = st.opening_events[-1]
    again = r.state_from_deal(ev)
    assert again.hands == st.hands and again.table == st.table and again.stock == []
    bad = dict(ev, hands=[h[:3] for h in ev["hands"]], stock=[c for h in ev["hands"] for c in h[3:]])
    with pytest.raises(Exception, match=f"deals {hand}"):
        r.state_from_deal(bad)


@pytest.mark.parametrize("deal", DEALS)
def test_last_card_never_scores_scopa(deal):
    r = rules(4, deal=deal)
    # The last card of the deal sweeps the table: a capture, but no scopa, with every deal.
    st = position(r, ["", "", "7D", ""], "3S 4B", stock="", to_act=2, piles=["2C", "QB"])
    st.last_capture_team = 1
    ev = r.apply(st, play("7D", ["3S", "4B"]))
    assert sorted(ev[0]["capture"]) == ["3S", "4B"]
    assert ev[0]["bonuses"] == [] and st.scope == [0, 0] and st.over


@pytest.mark.parametrize("deal", DEALS)
def test_a_sweep_before_the_last_card_scores_scopa_with_every_deal(deal):
    r = rules(4, deal=deal)
    st = position(r, ["2C", "", "7D", "5S"], "3S 4B", stock="", to_act=2)
    ev = r.apply(st, play("7D", ["3S", "4B"]))
    assert ev[0]["bonuses"] == ["scopa"] and st.scope == [1, 0]


# ---- capture: fifteen
def test_fifteen_takes_a_set_that_makes_fifteen_with_the_played_card():
    r = rules(capture="fifteen")
    st = position(r, ["7D 2C", "3C"], "5S 3B QB", stock="4D 5D")  # 7 + 5 + 3 = 15
    got = {captured(a) for a in r.legal_actions(st) if a.card.code == "7D"}
    assert got == {tuple(sorted(cards("5S 3B")))}
    r.apply(st, play("7D", ["5S", "3B"]))
    assert codes(st.table) == ["QB"] and sorted(codes(st.piles[0])) == ["3B", "5S", "7D"]


def test_fifteen_a_single_card_set_counts():
    r = rules(capture="fifteen")
    st = position(r, ["5D 2C", "3C"], "KS 4B", stock="4D 5D")  # 5 + K(10) = 15
    assert {captured(a) for a in r.legal_actions(st) if a.card.code == "5D"} == {(card("KS"),)}


def test_fifteen_has_no_match_step():
    r = rules(capture="fifteen")
    # A 7 on the table does not pair with the 7 in hand (14); the 8-valued Fante makes 15.
    st = position(r, ["7D 2C", "3C"], "7S JB", stock="4D 5D")
    assert {captured(a) for a in r.legal_actions(st) if a.card.code == "7D"} == {(card("JB"),)}
    assert refused(r, st, play("7D", ["7S"])) == "wrong_fifteen"


def test_fifteen_player_chooses_among_sets():
    r = rules(capture="fifteen")
    st = position(r, ["5D", "3C"], "KS 6B 4B QC AC", stock="4D 5D 6D 7C 7S 7B")
    got = {tuple(sorted(c.code for c in captured(a))) for a in r.legal_actions(st)}
    assert got == {("KS",), ("4B", "6B"), ("AC", "QC")}


def test_fifteen_capture_is_mandatory():
    r = rules(capture="fifteen")
    st = position(r, ["5D 2C", "3C"], "KS", stock="4D 5D")
    assert refused(r, st, play("5D")) == "capture_mandatory"


def test_fifteen_without_a_set_the_card_is_placed():
    r = rules(capture="fifteen")
    st = position(r, ["2D 3C", "3B"], "AS 2S", stock="4D 5D")  # 2 + 3 = 5 at most: no 15
    assert r.legal_actions(st) == [play("2D"), play("3C")]
    r.apply(st, play("2D"))
    assert codes(st.table) == ["AS", "2S", "2D"]


def test_fifteen_wrong_total_is_refused_naming_the_rule():
    r = rules(capture="fifteen")
    st = position(r, ["7D 2C", "3C"], "5S 3B 2B", stock="4D 5D")
    with pytest.raises(IllegalAction) as e:
        r.validate(st, play("7D", ["5S", "2B"]))
    assert e.value.rule == "wrong_fifteen" and e.value.params == {"card": "7D", "total": 14, "value": 15}


def test_fifteen_sweep_scores_scopa():
    r = rules(capture="fifteen")
    st = position(r, ["6D 2C", "3C"], "4S 5B", stock="4D 5D")
    ev = r.apply(st, play("6D", ["4S", "5B"]))
    assert ev[0]["bonuses"] == ["scopa"]


# ---- aces: take_all
def test_ace_takes_all_on_a_table_without_an_ace():
    r = rules(aces="take_all")
    st = position(r, ["AD 2C", "3C"], "5S KB 7D", stock="4D 5D")
    assert [a for a in r.legal_actions(st) if a.card.code == "AD"] == [play("AD", ["5S", "KB", "7D"])]
    r.apply(st, play("AD", ["5S", "KB", "7D"]))
    assert st.table == [] and len(st.piles[0]) == 4


def test_ace_takes_all_never_scores_scopa():
    r = rules(aces="take_all")
    st = position(r, ["AD 2C", "3C"], "5S KB", stock="4D 5D")
    ev = r.apply(st, play("AD", ["5S", "KB"]))
    assert st.table == [] and ev[0]["bonuses"] == [] and st.scope == [0, 0]


def test_ace_taking_an_ace_scores_no_scopa_either():
    r = rules(aces="take_all")
    # The table holds an Ace: the capture rule in force (match first) takes it; it clears the
    # table, but a capture made by an Ace never scores a scopa with take_all.
    st = position(r, ["AD 2C", "3C"], "AS", stock="4D 5D")
    assert [a for a in r.legal_actions(st) if a.card.code == "AD"] == [play("AD", ["AS"])]
    ev = r.apply(st, play("AD", ["AS"]))
    assert st.table == [] and ev[0]["bonuses"] == []


def test_ace_on_a_table_with_an_ace_follows_the_capture_rule():
    r = rules(aces="take_all")
    st = position(r, ["AD 2C", "3C"], "AS 5B KC", stock="4D 5D")
    assert {captured(a) for a in r.legal_actions(st) if a.card.code == "AD"} == {(card("AS"),)}
    assert refused(r, st, play("AD", ["AS", "5B", "KC"])) == "match_before_sum"
    r15 = rules(aces="take_all", capture="fifteen")
    st = position(r15, ["AD 2C", "3C"], "AS 5B KC", stock="4D 5D")  # no set of these makes 14 with the Ace
    assert {captured(a) for a in r15.legal_actions(st) if a.card.code == "AD"} == {()}
    st = position(r15, ["AD 2C", "3C"], "AS 4B KC", stock="4D 5D")  # A + 4 + K = 15
    assert {captured(a) for a in r15.legal_actions(st) if a.card.code == "AD"} == {tuple(sorted(cards("4B KC")))}


def test_ace_on_an_empty_table_is_placed():
    r = rules(aces="take_all")
    st = position(r, ["AD 2C", "3C"], "", stock="4D 5D")
    assert play("AD") in r.legal_actions(st)
    r.apply(st, play("AD"))
    assert st.table == [card("AD")]


def test_ace_that_leaves_cards_behind_is_refused():
    r = rules(aces="take_all")
    st = position(r, ["AD 2C", "3C"], "5S KB", stock="4D 5D")
    assert refused(r, st, play("AD", ["5S"])) == "ace_takes_all"
    assert refused(r, st, play("AD")) == "ace_takes_all"


def test_normal_aces_capture_like_any_card():
    r = rules()
    st = position(r, ["AD 2C", "3C"], "5S KB", stock="4D 5D")
    assert [a for a in r.legal_actions(st) if a.card.code == "AD"] == [play("AD")]
    st = position(r, ["AD 2C", "3C"], "AS", stock="4D 5D")
    assert r.apply(st, play("AD", ["AS"]))[0]["bonuses"] == ["scopa"]


# ---- the Kings redeal and the options
KINGS = ["KD KC KS AC", "KD KC KS KB"]


@pytest.mark.parametrize("table", KINGS)
def test_kings_redeal_only_with_match_first_and_normal_aces(table):
    hands = ["AD 2D 3D", "4D 5D 6D"]
    assert rules().needs_redeal(rules().state_from_deal(deal_line(rules(), hands, table, dealer=1)))
    for opts in ({"capture": "fifteen"}, {"aces": "take_all"}, {"capture": "fifteen", "aces": "take_all"}):
        r = rules(**opts)
        assert not r.needs_redeal(r.state_from_deal(deal_line(r, hands, table, dealer=1))), opts


def test_kings_redeal_applies_to_scopone():
    r = rules(4, deal="scopone")
    rest = [c for c in r.cards if c not in cards("KD KC KS AC")]
    hands = [" ".join(c.code for c in rest[i * 9 : (i + 1) * 9]) for i in range(4)]
    assert r.needs_redeal(r.state_from_deal(deal_line(r, hands, "KD KC KS AC")))


def test_no_kings_redeal_without_a_table():
    r = rules(4, deal="scopone10")
    assert not r.kings_redeal
    for seed in range(50):
        assert [e["event"] for e in r.new_deal(random.Random(seed), 0).opening_events] == ["deal"]


def test_redeal_never_happens_with_fifteen_or_take_all():
    for opts in ({"capture": "fifteen"}, {"aces": "take_all"}):
        r = rules(**opts)
        for seed in range(400):
            assert len(r.new_deal(random.Random(seed), 0).opening_events) == 1, (opts, seed)


# ---- re bello, napola, the deal's points
def test_re_bello_scores_one_for_the_king_of_coins():
    r = rules(re_bello=True)
    res = _result(r, ["KD 2C", "4D 5C"])
    assert res.detail["re_bello"] == [1, 0]
    assert res.points == [1, 0]  # no other award: cards and coins tied, primiera nobody


def test_re_bello_counts_the_leftover_cards():
    r = rules(re_bello=True)
    st = position(r, ["2S", ""], "KD", stock="", piles=["5C", "7B 2B"])
    st.last_capture_team = 1
    r.apply(st, play("2S"))
    assert r.deal_result(st).detail["re_bello"] == [0, 1]


def test_re_bello_off_scores_nothing():
    r = rules()
    res = _result(r, ["KD 2C", "4D 5C"])
    assert "re_bello" not in res.detail and res.points == [0, 0]


@pytest.mark.parametrize(
    "pile,run",
    [
        ("AD 2D 3D", 3),
        ("AD 2D 3D 4D", 4),
        ("AD 2D 3D 4D 5D 6D 7D JD", 8),
        ("AD 2D 3D 4D 5D 6D 7D JD QD KD", 10),
        ("AD 2D 3D 5D 6D 7D", 3),
    ],
)
def test_napola_scores_the_run_of_coins_from_the_ace(pile, run):
    r = rules(napola=True)
    assert r.napola_value(cards(pile)) == run


@pytest.mark.parametrize("pile", ["AD 2D", "2D 3D 4D 5D", "AD 3D 4D 5D", "AC 2C 3C"])
def test_napola_needs_ace_two_and_three_of_coins(pile):
    r = rules(napola=True)
    assert r.napola_value(cards(pile)) == 0


def test_napola_off_scores_nothing():
    res = _result(rules(), ["AD 2D 3D 4C", "5B 6C"])
    assert "napola" not in res.detail


def test_deal_points_are_scope_awards_re_bello_and_napola():
    r = rules(re_bello=True, napola=True)
    # Team 0: cards, coins, settebello, primiera, 2 scope, re bello, napola of 4.
    res = _result(r, ["AD 2D 3D 4D 7D KD 6C 5S 4B 2C", "5C 6S"], scope=(2, 1))
    d = res.detail
    assert (d["cards"], d["coins"], d["settebello"], d["primiera"]) == ([1, 0], [1, 0], [1, 0], [1, 0])
    assert d["re_bello"] == [1, 0] and d["napola"] == [4, 0] and d["scope"] == [2, 1]
    assert res.points == [4 + 2 + 1 + 4, 1]


@pytest.mark.parametrize("target", [11, 16, 21, 31])
def test_target_option_values(target):
    r = rules(target=target)
    assert r.match_status([target, target - 1], 1)[:2] == (True, 0)
    assert r.match_status([target - 1, 0], 1)[0] is False


def test_every_option_combination_makes_rules_for_four_players():
    import itertools

    for deal, cap, aces, rb, nap in itertools.product(
        DEALS, ["match_first", "fifteen"], ["normal", "take_all"], [False, True], [False, True]
    ):
        r = rules(4, deal=deal, capture=cap, aces=aces, re_bello=rb, napola=nap)
        assert r.options == {"target": 11, "deal": deal, "capture": cap, "aces": aces, "re_bello": rb, "napola": nap}
