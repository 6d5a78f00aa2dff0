"""One test per rule of the Schnapsen section of RULES.md, on hand-built positions."""

from __future__ import annotations

import copy
import random

import pytest

from game.ai.bots import make_bot
from game.cards import card, cards
from game.games.schnapsen.rules import SchnapsenState
from game.games.schnapsen.vocabulary import CLOSE, EXCHANGE
from game.match import Match
from game.rules.base import DealResult, IllegalAction, RecordError, play
from game.rulesets import make_rules
from game.verify import verify_events

R = make_rules("schnapsen", "schnapsen-german")


def position(
    hands,
    stock="",
    trump="C",
    to_act=0,
    led=None,
    closed_by=None,
    won=("", ""),
    marriages=(0, 0),
    pending=(0, 0),
    closure=(0, False),
    dealer=1,
) -> SchnapsenState:
    """A mid-deal position. ``led`` is the card the other seat led to the current trick."""
    st = cards(stock)
    won_c = [cards(won[0]), cards(won[1])]
    s = SchnapsenState(
        dealer=dealer,
        number=1,
        hands=[cards(hands[0]), cards(hands[1])],
        stock=st,
        trump=trump,
        indicator=st[-1] if st else card("A" + trump),
        leader=to_act if led is None else 1 - to_act,
        to_act=to_act,
        led=card(led) if led else None,
        closed_by=closed_by,
        closure_points=closure[0],
        closure_trick=closure[1],
        won=won_c,
        card_points=[sum(R.points[c] for c in w) for w in won_c],
        marriage_points=list(marriages),
        pending=list(pending),
    )
    if led:
        s.history.append((1 - to_act, card(led)))
    return s


def deal(h0, h1, stock, dealer=1) -> SchnapsenState:
    """A fresh deal through the record's deal event."""
    st = stock.split()
    return R.state_from_deal(
        {
            "event": "deal",
            "number": 1,
            "dealer": dealer,
            "hands": [h0.split(), h1.split()],
            "table": [],
            "stock": st,
            "trump": st[-1],
        }
    )


def run(s: SchnapsenState, *moves) -> list[dict]:
    """Apply moves ("close", "exchange", "KS", "KS+" for a marriage lead); return all events."""
    out = []
    for m in moves:
        if m == "close":
            a = CLOSE
        elif m == "exchange":
            a = EXCHANGE
        elif m.endswith("+"):
            a = play(m[:-1], marriage=True)
        else:
            a = play(m)
        out += R.apply(s, a)
    return out


def rule_of(s, action) -> str:
    with pytest.raises(IllegalAction) as e:
        R.validate(s, action)
    return e.value.rule


def legal_cards(s) -> set[str]:
    return {a.card.code for a in R.legal_actions(s) if a.kind == "play" and not a.arg("marriage", False)}


# A start-of-deal layout: trump C (indicator JC); seat 0 (non-dealer) has the spade marriage.
START = ("KS QS JD QD JB", "AS 10S 10D AD JS", "KD AB 10B KB QB AC 10C KC QC JC")


# ---------------------------------------------------------------- cards and deal
def test_twenty_cards_a_10_k_q_j_worth_11_10_4_3_2_total_120():
    assert len(R.cards) == 20 and {c.rank for c in R.cards} == {"A", "10", "K", "Q", "J"}
    assert [R.points[card(r + "S")] for r in ("A", "10", "K", "Q", "J")] == [11, 10, 4, 3, 2]
    assert sum(R.points.values()) == 120
    order = sorted((card(r + "D") for r in ("J", "K", "A", "Q", "10")), key=R.strength.get, reverse=True)
    assert [c.rank for c in order] == ["A", "10", "K", "Q", "J"]


def test_deal_three_each_indicator_two_each_ten_card_stock_ending_with_indicator():
    rng = random.Random(42)
    s = R.new_deal(rng, dealer=0)
    order = list(R.cards)
    random.Random(42).shuffle(order)
    assert s.hands[1] == order[0:3] + order[7:9]  # non-dealer first
    assert s.hands[0] == order[3:6] + order[9:11]
    assert s.indicator is order[6] and s.stock[-1] is order[6] and s.trump == order[6].suit
    assert len(s.stock) == 10 and s.stock[:9] == order[11:]
    ev = s.opening_events
    assert len(ev) == 1 and ev[0]["table"] == [] and ev[0]["trump"] == ev[0]["stock"][-1] == order[6].code
    assert [len(h) for h in ev[0]["hands"]] == [5, 5]


@pytest.mark.parametrize("dealer", [0, 1])
def test_non_dealer_leads_the_first_trick(dealer):
    s = R.new_deal(random.Random(3), dealer)
    assert s.to_act == s.leader == 1 - dealer


def test_dealer_alternates_each_deal():
    m = Match(R, 11, [make_bot("random", R, i, 11) for i in range(2)])
    dealers = [e["dealer"] for e in m.run() if e["event"] == "deal"]
    assert len(dealers) >= 2
    assert all(b == 1 - a for a, b in zip(dealers, dealers[1:]))


# ---------------------------------------------------------------- open stock
def test_open_stock_no_duty_to_follow_or_to_trump():
    s = position(["AS JS KC JD KB", "QB JB 10D AD"], stock="AB 10B KD QD", to_act=0, led="10S")
    assert legal_cards(s) == {"AS", "JS", "KC", "JD", "KB"}
    run(s, "JD")  # a discard of another suit is legal while the stock is open


def test_open_stock_higher_card_of_the_led_suit_wins():
    s = position(["JB KB", "AS JD"], stock="AB 10B KD QD", to_act=1, led="QS")
    ev = run(s, "AS")
    assert ev[1] == {"event": "trick", "winner": 1, "cards": ["QS", "AS"], "points": 14}


def test_open_stock_a_card_of_another_suit_does_not_win_even_if_higher():
    s = position(["JB KB", "AD JD"], stock="AB 10B KD QD", to_act=1, led="QS")
    assert run(s, "AD")[1]["winner"] == 0


def test_a_trump_beats_the_led_suit_and_the_higher_trump_wins():
    s = position(["JB KB", "JC AD"], stock="AB 10B KD QD", to_act=1, led="AS")
    assert run(s, "JC")[1]["winner"] == 1
    s = position(["JB KB", "KC AD"], stock="AB 10B KD QD", to_act=1, led="QC")
    assert run(s, "KC")[1]["winner"] == 1
    s = position(["JB KB", "JC AD"], stock="AB 10B KD QD", to_act=1, led="QC")
    assert run(s, "JC")[1]["winner"] == 0


def test_winner_draws_first_then_the_loser_and_the_winner_leads():
    s = position(["JB KB", "AS AD"], stock="AB 10B KD QD", to_act=1, led="QS")
    ev = run(s, "AS")
    assert ev[2:] == [{"event": "draw", "seat": 1, "card": "AB"}, {"event": "draw", "seat": 0, "card": "10B"}]
    assert s.to_act == s.leader == 1 and s.led is None and s.stock == cards("KD QD")


def test_the_loser_of_the_last_draw_takes_the_indicator():
    s = position(["QS JB", "AS AD"], stock="KD 10C", to_act=0)
    ev = run(s, "QS", "AS")
    assert ev[-2:] == [{"event": "draw", "seat": 1, "card": "KD"}, {"event": "draw", "seat": 0, "card": "10C"}]
    assert card("10C") in s.hands[0] and not s.stock
    v = R.view(s, 1)
    assert v.indicator is None and card("10C") in v.known_opponent  # seen going into that hand


# ---------------------------------------------------------------- closed or exhausted stock
def closed(hand, led, trump="C"):
    """Seat 0 follows ``led`` after seat 1 closed the stock."""
    return position([hand, "QB"], stock="KD QD", trump=trump, to_act=0, led=led, closed_by=1)


def test_closed_stock_follower_must_follow_suit_and_beat_if_able():
    s = closed("AS 10S JS AC JD", "KS")
    assert legal_cards(s) == {"AS", "10S"}
    assert rule_of(s, play("JS")) == "must_follow_and_beat"
    assert rule_of(s, play("AC")) == "must_follow_and_beat"  # no trumping while holding the suit


def test_closed_stock_unable_to_beat_follow_suit_with_a_lower_card():
    s = closed("10S JS AC JD", "AS")
    assert legal_cards(s) == {"10S", "JS"}
    assert rule_of(s, play("AC")) == "must_follow_suit"


def test_closed_stock_without_the_led_suit_trump_if_possible():
    s = closed("AC JC KD JD", "AS")
    assert legal_cards(s) == {"AC", "JC"}
    assert rule_of(s, play("KD")) == "must_trump"


def test_closed_stock_without_led_suit_or_trump_play_any_card():
    s = closed("KD JD KB", "AS")
    assert legal_cards(s) == {"KD", "JD", "KB"}


def test_led_trump_must_be_beaten_with_a_higher_trump():
    s = closed("KC JC AS", "QC")
    assert legal_cards(s) == {"KC"}
    assert rule_of(s, play("AS")) == "must_follow_and_beat"


def test_exhausted_stock_follow_and_beat_applies_without_closing():
    s = position(["AS JS AC", "QB KB JB"], stock="", to_act=0, led="KS")
    assert legal_cards(s) == {"AS"}
    assert rule_of(s, play("AC")) == "must_follow_and_beat"


# ---------------------------------------------------------------- trump exchange
def test_trump_jack_exchange_swaps_for_the_indicator_and_the_leader_still_leads():
    s = deal("JC KS QS JD QD", "AS 10S 10D AD JS", "KD AB 10B KB QB JB 10C KC QC AC")
    assert EXCHANGE in R.legal_actions(s)  # also before the first trick
    ev = run(s, "exchange")
    assert ev == [{"event": "exchange", "seat": 0, "gave": "JC", "took": "AC"}]
    assert card("AC") in s.hands[0] and card("JC") not in s.hands[0] and s.stock[-1] is card("JC")
    assert s.to_act == 0 and s.led is None and EXCHANGE not in R.legal_actions(s)
    assert R.view(s, 1).known_opponent == (card("AC"),) and R.view(s, 1).indicator is card("JC")


def test_exchange_refused_on_a_stock_of_fewer_than_two_cards():
    s = position(["JC AS", "QB KB"], stock="", to_act=0)
    assert EXCHANGE not in R.legal_actions(s)
    assert rule_of(s, EXCHANGE) == "exchange_needs_stock"
    s = position(["JC AS", "QB KB"], stock="AC", to_act=0)  # the indicator alone
    assert rule_of(s, EXCHANGE) == "exchange_needs_stock"
    s = position(["JC AS KS QS 10S", "QB KB JB AB 10B"], stock="KD AC", to_act=0)  # two: allowed
    assert run(s, "exchange")[0]["took"] == "AC"


def test_exchange_refused_when_the_stock_is_closed():
    s = position(["JC AS KS QS 10S", "QB KB JB AB 10B"], stock="KD QD AC", to_act=0, closed_by=1)
    assert rule_of(s, EXCHANGE) == "exchange_stock_closed"


def test_exchange_only_by_the_player_about_to_lead_holding_the_trump_jack():
    s = position(["JC AS KS QS", "QB KB JB AB 10B"], stock="KD QD 10D AC", to_act=0, led="10B")
    assert rule_of(s, EXCHANGE) == "exchange_only_leader"
    s = position(["JS AS KS QS 10S", "QB KB JB AB 10B"], stock="KD QD 10D AC", to_act=0)
    assert rule_of(s, EXCHANGE) == "exchange_needs_trump_jack"


# ---------------------------------------------------------------- marriages
def test_marriage_is_20_and_40_in_trumps():
    s = position(["KS QS KC QC JD", "AS 10S 10D AD JS"], stock="KD AC", to_act=0, won=("AB 10B", ""))
    assert run(s, "QS+")[0] == {"event": "marriage", "seat": 0, "suit": "S", "points": 20}
    s = position(["KS QS KC QC JD", "AS 10S 10D AD JS"], stock="KD AC", to_act=0, won=("AB 10B", ""))
    assert run(s, "KC+")[0] == {"event": "marriage", "seat": 0, "suit": "C", "points": 40}
    assert s.marriage_points == [40, 0]


def test_marriage_is_declared_by_leading_k_or_q_followed_by_that_play():
    s = deal(*START)
    ev = run(s, "KS+")
    assert ev == [
        {"event": "marriage", "seat": 0, "suit": "S", "points": 20},
        {"event": "play", "seat": 0, "card": "KS"},
    ]
    assert s.led is card("KS") and s.to_act == 1
    assert R.view(s, 1).known_opponent == (card("QS"),)  # the partner was shown


def test_marriage_needs_both_cards_a_king_or_queen_and_the_lead():
    s = position(["KS JS KC QC JD", "AS 10S 10D AD QS"], stock="KD AC", to_act=0)
    assert rule_of(s, play("KS", marriage=True)) == "marriage_needs_pair"
    assert rule_of(s, play("JS", marriage=True)) == "marriage_needs_king_or_queen"
    s = position(["KS QS KC JD", "AS 10S 10D AD"], stock="KD AC", to_act=0, led="10D")
    assert rule_of(s, play("KS", marriage=True)) == "marriage_only_leader"


def test_each_marriage_suit_is_declared_once_per_player():
    s = deal(*START)
    run(s, "KS+", "JS")  # seat 0 wins and leads again, QS still in hand
    assert s.to_act == 0 and card("QS") in s.hands[0] and card("KD") in s.hands[0]
    legal = R.legal_actions(s)
    assert play("QS") in legal and {a.card.suit for a in legal if a.arg("marriage", False)} == {"D"}


def test_marriage_before_the_first_trick_is_credited_only_with_that_trick():
    s = deal(*START)
    run(s, "QS+", "AS")  # seat 1 wins the trick: seat 0 has none yet
    assert s.pending == [20, 0] and s.marriage_points == [0, 0] and s.points(0) == 0
    run(s, "JS", "KS")  # seat 0's first trick: 2 + 4, and the marriage now counts
    assert s.pending == [0, 0] and s.marriage_points == [20, 0] and s.points(0) == 26


def test_marriage_counts_at_once_for_a_player_with_a_trick():
    s = position(["KS QS JD", "AS 10S 10D"], stock="KD AC", to_act=0, won=("QB JB", ""))
    run(s, "KS+")
    assert s.marriage_points == [20, 0] and s.pending == [0, 0] and s.points(0) == 25


def test_a_marriage_that_reaches_66_ends_the_deal_at_once():
    s = position(["KD QD JS", "AC 10C 10D"], stock="JB JC", to_act=0, won=("AS 10S AB 10B KB QB", ""))
    assert s.points(0) == 49
    ev = run(s, "KD+")
    assert ev == [{"event": "marriage", "seat": 0, "suit": "D", "points": 20}]  # the K is not led
    assert s.over and card("KD") in s.hands[0]
    res = R.deal_result(s)
    assert res.detail["reason"] == "66" and res.detail["points"] == [69, 0] and res.points == [3, 0]
    # The record's marriage line alone is the decision when deal_end follows it.
    events = [{"event": "marriage", "seat": 0, "suit": "D", "points": 20}, {"event": "deal_end"}]
    assert R.action_from_record(events, 0) == play("KD", marriage=True)


def test_marriage_allowed_after_closing_and_after_exhaustion():
    s = position(["KS QS JD", "AS 10S 10D"], stock="KD AC", to_act=0, closed_by=0)
    assert play("QS", marriage=True) in R.legal_actions(s)
    s = position(["KS QS JD", "AS 10S 10D"], stock="", to_act=0)
    assert play("KS", marriage=True) in R.legal_actions(s)


def test_a_record_where_a_marriage_ends_the_deal_passes_verify():
    for seed in range(200):
        m = Match(R, seed, [make_bot("greedy", R, i, seed) for i in range(2)])
        ev = m.run()
        if any(e["event"] == "marriage" and ev[i + 1]["event"] == "deal_end" for i, e in enumerate(ev)):
            assert verify_events(copy.deepcopy(ev)).ok
            return
    pytest.fail("no simulated match had a marriage reaching 66")


# ---------------------------------------------------------------- closing
def test_close_needs_five_cards_and_a_stock_of_at_least_two():
    s = position(["AS KS QS JS", "AB KB QB JB"], stock="KD QD JD AC", to_act=0)
    assert CLOSE not in R.legal_actions(s) and rule_of(s, CLOSE) == "close_needs_five_cards"
    s = position(["AS KS QS JS 10S", "AB KB QB JB 10B"], stock="", to_act=0)
    assert CLOSE not in R.legal_actions(s) and rule_of(s, CLOSE) == "close_needs_stock"
    s = position(["AS KS QS JS 10S", "AB KB QB JB 10B"], stock="KD AC", to_act=0)
    assert CLOSE in R.legal_actions(s)


def test_close_only_by_the_player_about_to_lead_and_only_once():
    s = position(["AS KS QS JS 10S", "AB KB QB JB"], stock="KD QD JD AC", to_act=0, led="10B")
    assert rule_of(s, CLOSE) == "close_only_leader"
    s = position(["AS KS QS JS 10S", "AB KB QB JB 10B"], stock="KD QD JD AC", to_act=0, closed_by=1)
    assert rule_of(s, CLOSE) == "close_already_closed"


def test_close_allowed_before_the_first_trick_and_the_leader_still_leads():
    s = deal(*START)
    assert run(s, "close") == [{"event": "close", "seat": 0}]
    assert s.closed_by == 0 and s.to_act == 0 and (s.closure_points, s.closure_trick) == (0, False)


def test_close_records_the_opponents_points_and_trick_at_that_moment():
    s = position(
        ["AS KS QS JS 10S", "AB KB QB JB 10B"], stock="KD QD JD AC", to_act=0, won=("", "AD 10D"), marriages=(0, 20)
    )
    run(s, "close")
    assert (s.closure_points, s.closure_trick) == (41, True)
    run(s, "JS", "JB")  # later tricks do not change the record
    assert (s.closure_points, s.closure_trick) == (41, True)


def test_after_closing_no_more_draws_and_strict_rules_at_once():
    s = position(["AS KS QS JS 10S", "AB KB QB JB 10B"], stock="KD QD JD AC", to_act=0)
    run(s, "close", "JS")
    assert legal_cards(s) == {"AB", "KB", "QB", "JB", "10B"}  # no spade, no trump: anything
    s = position(["AS KS QS JS 10S", "AB KB QB JB JD"], stock="KD QD 10D AC", to_act=0)
    run(s, "close", "QS")
    ev = run(s, "JD")
    assert [e["event"] for e in ev] == ["play", "trick"] and len(s.stock) == 4 and len(s.hands[0]) == 4


# ---------------------------------------------------------------- points and the end of a deal
def test_points_are_trick_card_points_plus_credited_marriages():
    s = position(["JS", "QS"], stock="", to_act=0, won=("AB QB", "KD QD"), marriages=(20, 0), pending=(0, 0))
    run(s, "JS", "QS")
    res = R.deal_result(s)
    assert res.detail["card_points"] == [14, 7 + 5] and res.detail["points"] == [34, 12]
    assert res.detail["marriages"] == [20, 0]


def test_deal_ends_the_moment_a_trick_reaches_66_without_draws():
    s = position(["AS JD", "10S JB"], stock="KD AC", to_act=0, won=("AB 10B AD 10D", ""))  # 42
    ev = run(s, "AS", "10S")  # + 21 = 63: goes on, draws
    assert not s.over and ev[-1]["event"] == "draw"
    s = position(["AS JD", "10S JB"], stock="KD AC", to_act=0, won=("AB 10B AD 10D KB", ""))  # 46
    ev = run(s, "AS", "10S")  # + 21 = 67
    assert s.over and ev[-1]["event"] == "trick" and len(s.stock) == 2


def end_by_66(loser_won: str, loser_marriages=0, loser_pending=0) -> DealResult:
    s = position(
        ["KC", "JC"],
        stock="",
        to_act=0,
        won=("AS 10S AB 10B AD 10D", loser_won),
        marriages=(0, loser_marriages),
        pending=(0, loser_pending),
    )
    run(s, "KC", "JC")  # 63 + 6
    assert s.over and s.reason == "66"
    return R.deal_result(s)


def test_game_points_one_when_the_loser_has_at_least_33():
    res = end_by_66("KS QS KB QB", loser_marriages=20)  # 14 + 20 = 34: marriages count
    assert res.points == [1, 0] and res.detail["reason"] == "66"


def test_game_points_two_when_the_loser_has_a_trick_but_fewer_than_33():
    assert end_by_66("KS QS KB QB", loser_marriages=0).points == [2, 0]


def test_game_points_three_when_the_loser_has_no_trick():
    assert end_by_66("").points == [3, 0]
    assert end_by_66("", loser_pending=40).points == [3, 0]  # a pending marriage is no trick


def test_successful_close_is_scored_with_the_opponents_record_at_closure_not_at_the_end():
    # Seat 1 has no trick at closure, wins one afterwards: still 3.
    s = position(["AC 10C AD 10D JS", "KS KD QD JD QS"], stock="JB QB KB KC QC JC", to_act=0, won=("AS 10S AB 10B", ""))
    run(s, "close", "JS", "KS", "KD", "AD", "AC", "QD")
    assert s.over and s.won[1]
    res = R.deal_result(s)
    assert res.detail["reason"] == "closed_won" and res.points == [3, 0]
    assert res.detail["closure"] == {"seat": 1, "points": 0, "had_trick": False}
    # Seat 1 has 7 with a trick at closure and reaches 33 afterwards: 2, not 1.
    s = position(["AC 10C AD 10D JS", "KS QS KD QD JD"], stock="JB KC QC JC", to_act=0, won=("AS 10S AB 10B", "KB QB"))
    run(s, "close", "JS", "KS", "KD+", "AD", "AC", "QD")
    assert s.over and s.points(1) == 33
    res = R.deal_result(s)
    assert res.detail["reason"] == "closed_won" and res.points == [2, 0]


def test_failed_close_gives_the_opponent_three_if_no_trick_at_closure():
    s = deal("JS QS JB QB JD", "AS 10S AB 10B AD", "KS KB 10D KD QD AC 10C KC QC JC")
    run(s, "close")
    while not s.over:
        R.apply(s, R.legal_actions(s)[0])
    res = R.deal_result(s)
    assert res.detail["points"] == [0, 65]  # seat 1 won every trick but never reached 66
    assert res.detail["reason"] == "closed_lost" and res.points == [0, 3]


def test_failed_close_gives_the_opponent_two_if_it_had_a_trick_at_closure():
    s = position(["JS QS JB QB JD", "KS 10S KB 10B KD"], stock="AS AB 10D AC 10C KC QC JC", to_act=0, won=("", "AD QD"))
    run(s, "close")
    while not s.over:
        R.apply(s, R.legal_actions(s)[0])
    res = R.deal_result(s)
    assert res.detail["points"] == [0, 58]
    assert res.detail["reason"] == "closed_lost" and res.points == [0, 2]


def test_close_fails_when_the_opponent_reaches_66_first():
    s = position(["JS QS JB QB JD", "AS 10S AB 10B AD"], stock="KB AC 10C KC QC JC", to_act=0, won=("", "KD QD 10D KS"))
    run(s, "close")
    while not s.over:
        R.apply(s, R.legal_actions(s)[0])
    assert s.hands[0] and s.points(1) >= 66  # the deal ended before the last trick
    res = R.deal_result(s)
    assert res.detail["reason"] == "closed_lost" and res.points == [0, 2]


def test_last_trick_on_an_unclosed_exhausted_stock_gives_one_game_point():
    s = position(["AS", "JS"], stock="", to_act=0, won=("10D 10B", "AD AB"))
    run(s, "AS", "JS")
    res = R.deal_result(s)
    assert res.detail["reason"] == "last_trick" and res.points == [1, 0]
    assert res.detail["card_points"] == [33, 22]  # no 10-point last-trick bonus


def test_required_detail_keys_and_json_shapes():
    res = end_by_66("")
    assert set(R.required_detail) <= set(res.detail) and res.leftover is None
    assert all(not isinstance(v, tuple) for v in res.detail.values())


# ---------------------------------------------------------------- the Bummerl
def test_bummerl_both_start_at_seven_and_game_points_count_the_winner_down():
    assert R.initial_totals() == [7, 7]
    assert R.add_deal([7, 7], DealResult([0, 2])) == [7, 5]
    assert R.match_status([7, 5], 1)[0] is False


def test_bummerl_count_never_below_zero_and_first_to_zero_wins():
    assert R.add_deal([2, 6], DealResult([3, 0])) == [0, 6]
    over, winner, _ = R.match_status([0, 6], 4)
    assert over and winner == 0


def test_match_ends_with_the_player_who_reached_zero():
    m = Match(R, 5, [make_bot("greedy", R, i, 5) for i in range(2)])
    ev = m.run()
    end = ev[-1]
    assert end["event"] == "match_end" and end["totals"][end["winner"]] == 0
    assert end["totals"][1 - end["winner"]] > 0
    totals = [7, 7]
    for e in ev:
        if e["event"] == "deal_end":
            totals = [max(0, t - p) for t, p in zip(totals, e["points"])]
            assert e["totals"] == totals and sorted(e["points"])[0] == 0 and 1 <= max(e["points"]) <= 3


# ---------------------------------------------------------------- views, records, bad input
def test_view_holds_what_a_careful_player_knows_and_no_hidden_card():
    s = deal(*START)
    run(s, "QS+")
    v = R.view(s, 1)
    assert v.hand == tuple(cards("AS 10S 10D AD JS")) and v.trump == "C" and v.indicator is card("JC")
    assert v.led is card("QS") and v.known_opponent == (card("KS"),) and v.pending == (20, 0)
    assert v.stock_count == 10 and v.opponent_count == 4 and v.closed_by is None and v.leader == 0
    assert v.marriages == ((0, "S", 20),) and v.history == ((0, card("QS")),)
    hidden = set(s.hands[0]) | set(s.stock[:-1])
    assert v.unseen == frozenset(hidden) - {card("KS")}
    assert not any(c in v.hand for c in s.hands[0])


def test_state_from_deal_rejects_a_deal_the_rules_cannot_produce():
    h0, h1, st = START
    good = {
        "event": "deal",
        "number": 1,
        "dealer": 1,
        "hands": [h0.split(), h1.split()],
        "table": [],
        "stock": st.split(),
        "trump": "JC",
    }
    R.state_from_deal(good)
    bad = [
        dict(good, trump="AC"),
        dict(good, table=["AC"]),
        dict(good, stock=st.split()[1:]),
        dict(good, hands=[h0.split()[:4], h1.split()]),
        dict(good, hands=[h0.split(), h0.split()]),
        dict(good, stock=st.split()[:-1] + ["7C"]),
        dict(good, hands="nonsense"),
        dict(good, dealer=2),
    ]
    for ev in bad:
        with pytest.raises(RecordError):
            R.state_from_deal(ev)


def test_action_from_record_reads_each_decision():
    ev = [
        {"event": "exchange", "seat": 0, "gave": "JC", "took": "AC"},
        {"event": "close", "seat": 0},
        {"event": "marriage", "seat": 0, "suit": "S", "points": 20},
        {"event": "play", "seat": 0, "card": "QS"},
        {"event": "trick", "winner": 0, "cards": [], "points": 0},
    ]
    assert R.action_from_record(ev, 0) == EXCHANGE and R.action_from_record(ev, 1) == CLOSE
    assert R.action_from_record(ev, 2) == play("QS", marriage=True)
    assert R.action_from_record(ev, 3) == play("QS")
    with pytest.raises(RecordError):
        R.action_from_record(ev, 4)
    with pytest.raises(RecordError):
        R.action_from_record([{"event": "marriage", "seat": 0, "suit": "X", "points": 20}], 0)


def test_an_illegal_action_raises_with_its_rule_id_and_changes_nothing():
    m = Match(R, 9)
    m.start()
    seat = m.to_act
    before = R.clone(m.state)
    other = next(c for c in R.cards if c not in m.state.hands[seat])
    with pytest.raises(IllegalAction) as e:
        m.play(play(other))
    assert e.value.rule == "not_in_hand" and e.value.params == {"card": other.code}
    with pytest.raises(IllegalAction) as e:
        m.play(play(m.state.hands[seat][0], ["AS"]))
    assert e.value.rule == "not_in_game"
    assert m.state.hands == before.hands and m.state.stock == before.stock and m.to_act == seat


# ---------------------------------------------------------------- the greedy heuristic
def test_greedy_exchanges_the_jack_first_and_declares_marriages():
    from game.games.schnapsen.heuristics import evaluate

    s = deal("JC KS QS JD QD", "AS 10S 10D AD JS", "KD AB 10B KB QB JB 10C KC QC AC")
    v, legal = R.view(s, 0), R.legal_actions(s)
    best = max(legal, key=lambda a: evaluate(R, v, a))
    assert best == EXCHANGE
    run(s, "exchange")
    v, legal = R.view(s, 0), R.legal_actions(s)
    assert max(legal, key=lambda a: evaluate(R, v, a)).arg("marriage", False)
    assert evaluate(R, v, CLOSE) < 0  # no trick yet: no reason to close


def test_greedy_beats_random_over_fixed_seeds():
    wins = 0
    for seed in range(40):
        m = Match(R, seed, [make_bot("greedy", R, 0, seed), make_bot("random", R, 1, seed)])
        m.run()
        wins += m.winner == 0
    assert wins >= 34
