"""One test per rule of the Tressette section of RULES.md, on hand-built positions, plus the
record (deal line, draws, deal_end detail), verify's verdicts, the view and the greedy
heuristic."""

from __future__ import annotations

import json
import random

import pytest

from game.ai.bots import make_bot
from game.cards import card, cards, codes
from game.config import get_config
from game.games.schnapsen.vocabulary import CLOSE
from game.games.tressette import heuristics as ht
from game.games.tressette.rules import TressetteRules, TressetteState, thirds_text
from game.match import Match
from game.record import parse_lines
from game.rules.base import IllegalAction, RecordError, play
from game.rulesets import make_rules
from game.verify import verify_events

STRENGTH = ["3", "2", "A", "K", "Q", "J", "7", "6", "5", "4"]
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}


def rules(players: int = 2, deck: str = "piacentine", **options) -> TressetteRules:
    return make_rules("tressette", deck, players, options)


def position(
    r: TressetteRules,
    hands: list[str],
    stock: str = "",
    leader: int = 0,
    trick: str = "",
    thirds=(0, 0),
    dealer: int | None = None,
) -> TressetteState:
    """A hand-built position: ``hands`` per seat, ``stock`` top first, ``trick`` the cards
    already played to the trick in progress (led by ``leader``)."""
    n = r.players
    played = cards(trick)
    st = TressetteState(
        players=n,
        dealer=(leader - 1) % n if dealer is None else dealer,
        number=1,
        hands=[cards(h) for h in hands],
        stock=cards(stock),
        leader=leader,
        to_act=(leader + len(played)) % n,
        trick=played,
        thirds=list(thirds),
        known=[[] for _ in range(n)],
        voids=[frozenset() for _ in range(n)],
        history=[((leader + i) % n, c) for i, c in enumerate(played)],
    )
    return st


def play_trick(r, st, *codes_: str) -> list[dict]:
    events: list[dict] = []
    for c in codes_:
        events += r.apply(st, play(c))
    return events


def play_out(r, st, rng) -> list[dict]:
    events = []
    while not st.over:
        events += r.apply(st, rng.choice(r.legal_actions(st)))
    return events


def run_match(players: int, seed: int, names=None, **options) -> list[dict]:
    r = rules(players, **options)
    names = names or ["random"] * players
    return Match(r, seed, [make_bot(n, r, s, seed) for s, n in enumerate(names)]).run()


# ---------------------------------------------------------------- the cards
@pytest.mark.parametrize("deck", ["piacentine", "napoletane", "piemontesi", "bresciane", "trevisane"])
def test_forty_cards_of_any_italian_or_french_pack_without_8_9_10(deck):
    r = rules(deck=deck)
    assert len(r.cards) == 40 == len(set(r.cards))
    assert {c.rank for c in r.cards} == set(STRENGTH)
    assert {c.suit for c in r.cards} == set("DCSB")


def test_every_40_card_italian_or_french_pack_and_the_52_card_packs_offer_it():
    cfg = get_config()
    for d in cfg.decks.values():
        fits = d.suit_system in ("italian", "french") and d.cards in (40, 52)
        assert ("tressette" in d.games) == fits, d.id


def test_two_players_or_four_in_partnerships():
    assert rules(2).teams == 2 and rules(4).teams == 2
    r = rules(4)
    assert [r.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="2 or 4 players"):
        make_rules("tressette", "piacentine", 3)


@pytest.mark.parametrize("hi, lo", list(zip(STRENGTH, STRENGTH[1:])))
def test_strength_3_2_a_k_q_j_7_6_5_4(hi, lo):
    r = rules()
    for first, second, winner in ((hi, lo, 0), (lo, hi, 1)):
        st = position(r, [first + "C", second + "C"])
        assert play_trick(r, st, first + "C", second + "C")[-1]["winner"] == winner


def test_no_trump_a_card_of_another_suit_never_wins():
    r = rules(4)
    # Coins led with a 4; a 3 of Cups, a 3 of Swords and an Ace of Batons cannot take it.
    st = position(r, ["4D", "3C", "3S", "AB"])
    ev = play_trick(r, st, "4D", "3C", "3S", "AB")
    assert ev[-1] == {"event": "trick", "winner": 0, "cards": ["4D", "3C", "3S", "AB"], "points": 5}
    assert r.has_trump is False and r.deal_event(position(r, ["", "", "", ""]))["trump"] is None


@pytest.mark.parametrize("rank, thirds", sorted(THIRDS.items()))
def test_card_values_in_thirds_a3_32kqj1_others_0(rank, thirds):
    r = rules()
    assert r.card_thirds[card(rank + "S")] == thirds
    st = position(r, [rank + "S", "4D"])
    assert play_trick(r, st, rank + "S", "4D")[-1]["points"] == thirds


def test_32_thirds_in_the_pack():
    assert rules().total_thirds == 32  # 10 whole points and 2 thirds: with the last trick, 11


# ---------------------------------------------------------------- the deal
def test_deal_ten_each_two_players_keep_a_20_card_stock():
    r = rules(2)
    st = r.new_deal(random.Random(3), dealer=0)
    assert [len(h) for h in st.hands] == [10, 10] and len(st.stock) == 20
    (ev,) = st.opening_events
    assert ev["event"] == "deal" and ev["table"] == [] and ev["trump"] is None
    assert ev["stock"] == codes(st.stock)  # top first: the next card drawn is stock[0]
    assert sorted(ev["hands"][0] + ev["hands"][1] + ev["stock"]) == sorted(codes(r.cards))
    assert r.state_from_deal(ev).hands == st.hands


def test_deal_ten_each_four_players_leave_nothing():
    r = rules(4)
    st = r.new_deal(random.Random(4), dealer=2)
    assert [len(h) for h in st.hands] == [10] * 4 and st.stock == []
    assert st.opening_events[0]["stock"] == [] and r.has_stock is False and rules(2).has_stock is True


def test_the_player_to_the_dealers_right_leads_the_first_trick():
    for players in (2, 4):
        r = rules(players)
        for dealer in range(players):
            st = r.new_deal(random.Random(dealer), dealer)
            assert st.to_act == st.leader == (dealer + 1) % players


def test_first_dealer_random_then_the_deal_rotates_one_seat():
    firsts = set()
    for seed in range(30):
        m = Match(rules(4), seed, [make_bot("random", rules(4), s, seed) for s in range(4)])
        events = m.run()
        dealers = [e["dealer"] for e in events if e["event"] == "deal"]
        firsts.add(dealers[0])
        assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:]))
    assert firsts == {0, 1, 2, 3}


# ---------------------------------------------------------------- a trick
def test_the_leader_plays_any_card():
    r = rules()
    st = position(r, ["4D 3C KS AB", "5D"])
    assert {a.card.code for a in r.legal_actions(st)} == {"4D", "3C", "KS", "AB"}


def test_follow_the_led_suit_when_able():
    r = rules(4)
    st = position(r, ["7S", "5D 3C AS 2D", "4B", "6B"], trick="KD", leader=0)
    assert {a.card.code for a in r.legal_actions(st)} == {"5D", "2D"}
    with pytest.raises(IllegalAction) as e:
        r.apply(st, play("3C"))
    assert e.value.rule == "must_follow"
    assert e.value.params == {"led": "KD", "suit": "D", "options": "5D, 2D"}
    assert st.hands[1] == cards("5D 3C AS 2D") and st.to_act == 1  # nothing changed


def test_without_the_led_suit_play_any_card():
    r = rules()
    st = position(r, ["7S", "3C AS 7B"], trick="KD", leader=0)
    assert {a.card.code for a in r.legal_actions(st)} == {"3C", "AS", "7B"}
    r.apply(st, play("AS"))
    assert st.voids[1] == frozenset("D")  # public: seat 1 has no Coins among its dealt cards


def test_the_highest_card_of_the_led_suit_wins_and_leads_next():
    r = rules(4)
    st = position(r, ["5S 7C", "2S 4D", "KS 5B", "AC 6D"], leader=0)
    ev = play_trick(r, st, "5S", "2S", "KS", "AC")
    assert ev[-1] == {"event": "trick", "winner": 1, "cards": ["5S", "2S", "KS", "AC"], "points": 5}
    assert st.to_act == st.leader == 1 and st.trick == []
    assert st.thirds == [0, 5] and st.tricks == [0, 1] and st.piles[1] == cards("5S 2S KS AC")
    # The partners share a pile: seat 3's trick counts for team 1 too.
    ev = play_trick(r, st, "4D", "5B", "6D", "7C")
    assert ev[-1]["winner"] == 3 and st.tricks == [0, 2]


def test_two_players_winner_draws_first_then_the_loser_and_both_cards_are_shown():
    r = rules()
    st = position(r, ["4C 6D", "AC 2S"], stock="QD KS JC 5B", leader=0)
    ev = play_trick(r, st, "4C", "AC")
    assert ev[2:] == [
        {"event": "trick", "winner": 1, "cards": ["4C", "AC"], "points": 3},
        {"event": "draw", "seat": 1, "card": "QD"},
        {"event": "draw", "seat": 0, "card": "KS"},
    ]
    assert st.hands == [cards("6D KS"), cards("2S QD")] and st.stock == cards("JC 5B")
    assert st.to_act == 1
    # Each drawn card is public: the other seat's view knows it until it is played.
    assert r.view(st, 0).known[1] == (card("QD"),) and r.view(st, 1).opponent_known == (card("KS"),)
    r.apply(st, play("QD"))
    assert r.view(st, 0).known[1] == ()


def test_two_players_after_the_stock_the_last_ten_tricks_are_played_from_the_hands():
    r = rules()
    st = r.new_deal(random.Random(5), dealer=1)
    events = play_out(r, st, random.Random(5))
    tricks = [i for i, e in enumerate(events) if e["event"] == "trick"]
    draws = [e for e in events if e["event"] == "draw"]
    assert len(tricks) == 20 and len(draws) == 20
    # Two draws follow each of the first ten tricks, none the last ten.
    for k, i in enumerate(tricks):
        after = [e["event"] for e in events[i + 1 : i + 3]]
        if k < 10:
            assert after == ["draw", "draw"]
        else:
            assert "draw" not in after
    assert st.hands == [[], []] and st.stock == []


# ---------------------------------------------------------------- scoring
def test_deal_points_are_whole_points_of_the_thirds_plus_one_for_the_last_trick():
    r = rules()
    # Team 0 holds 13 thirds, team 1 17; the last trick (Ace + King: 4 thirds) decides.
    st = position(r, ["AB", "KB"], leader=0, thirds=(13, 15))
    play_trick(r, st, "AB", "KB")
    assert st.over and st.thirds == [17, 15] and st.last_trick == 0
    res = r.deal_result(st)
    assert res.points == [17 // 3 + 1, 15 // 3] == [6, 5]
    assert res.detail == {"thirds": [17, 15], "last_trick": 0}
    assert res.leftover is None


def test_the_deal_always_totals_11():
    for players in (2, 4):
        r = rules(players)
        for seed in range(30):
            st = r.new_deal(random.Random(seed), seed % players)
            play_out(r, st, random.Random(seed))
            res = r.deal_result(st)
            assert sum(res.points) == 11 and sum(res.detail["thirds"]) == 32


@pytest.mark.parametrize("target", [11, 21, 31])
def test_match_to_target_won_by_a_unique_leader_at_or_above_it(target):
    r = rules(target=target)
    assert r.match_status([target - 1, target - 2], 3)[0] is False
    assert r.match_status([target, target - 1], 3)[:2] == (True, 0)
    assert r.match_status([target - 5, target + 3], 3)[:2] == (True, 1)
    assert r.match_status([target + 1, target + 1], 3)[:2] == (False, None)  # tied: another deal
    assert r.match_goal() == ("target", target)


def test_target_21_by_default_11_and_31_allowed():
    assert rules().options == {"target": 21}
    with pytest.raises(ValueError, match="not allowed"):
        rules(target=16)


def test_a_played_match_ends_only_after_a_deal_at_a_unique_leader():
    for players in (2, 4):
        for seed in range(6):
            events = run_match(players, seed, target=11)
            ends = [e for e in events if e["event"] == "deal_end"]
            for e in ends[:-1]:
                t = e["totals"]
                assert max(t) < 11 or t[0] == t[1]
            last = ends[-1]["totals"]
            assert max(last) >= 11 and last[0] != last[1]
            assert events[-1] == {"event": "match_end", "winner": last.index(max(last)), "totals": last}


# ---------------------------------------------------------------- refusals, views, copies
def test_illegal_actions_name_the_rule():
    r = rules()
    st = position(r, ["4C 6D", "AC 2S"])
    for action, rule in (
        (play("AC"), "not_in_hand"),
        (CLOSE, "not_in_game"),
        (play("4C", marriage=True), "not_in_game"),
        (play("4C", ["6D"]), "not_in_game"),
    ):
        with pytest.raises(IllegalAction) as e:
            r.apply(st, action)
        assert e.value.rule == rule
    st.over = True
    with pytest.raises(IllegalAction) as e:
        r.apply(st, play("4C"))
    assert e.value.rule == "deal_over"


def test_view_shows_own_hand_public_draws_and_voids_only():
    r = rules()
    st = r.new_deal(random.Random(8), dealer=1)
    rng = random.Random(8)
    for _ in range(9):
        r.apply(st, rng.choice(r.legal_actions(st)))
    v = r.view(st, 0)
    shown = set(st.known[1])
    hidden = set(st.hands[1]) - shown
    assert set(v.opponent_known) == shown and shown <= set(st.hands[1])
    fields = {getattr(v, f) for f in ("hand", "trick", "history", "known") if isinstance(getattr(v, f), tuple)}
    seen = {c for x in fields for c in _flatten(x)}
    assert not (seen & hidden) and not (seen & set(st.stock))
    assert v.unseen == hidden | set(st.stock)
    assert v.stock_count == len(st.stock) and v.hand_counts == (len(st.hands[0]), len(st.hands[1]))


def _flatten(x):
    if isinstance(x, tuple):
        for y in x:
            yield from _flatten(y)
    elif hasattr(x, "suit"):
        yield x


def test_clone_is_independent():
    r = rules(4)
    st = r.new_deal(random.Random(9), dealer=0)
    c = r.clone(st)
    r.apply(c, r.legal_actions(c)[0])
    assert len(st.history) == 0 and len(c.history) == 1 and sum(map(len, st.hands)) == 40


def test_thirds_text():
    assert [thirds_text(t) for t in (0, 1, 2, 3, 14, 17, 32)] == ["0", "⅓", "⅔", "1", "4 ⅔", "5 ⅔", "10 ⅔"]


# ---------------------------------------------------------------- records and verify
def _record(players: int = 2, seed: int = 3) -> list[dict]:
    return run_match(players, seed, target=11)


def test_records_of_both_player_counts_verify_and_parse():
    for players in (2, 4):
        events = _record(players)
        text = "\n".join(json.dumps(e) for e in events)
        assert parse_lines(text.split("\n")) == events
        assert verify_events(events).ok
        deal_end = next(e for e in events if e["event"] == "deal_end")
        assert {"thirds", "last_trick"} <= set(deal_end["detail"]) and sum(deal_end["points"]) == 11


def test_verify_rejects_a_play_that_does_not_follow_suit_when_able():
    events = _record(2)
    # Find a follow where the follower held the led suit, and swap in another suit's card.
    r = rules()
    state = r.state_from_deal(events[1])
    for i in range(2, len(events)):
        ev = events[i]
        if ev["event"] == "play" and state.trick:
            led = state.trick[0]
            hand = state.hands[ev["seat"]]
            other = [c for c in hand if c.suit != led.suit]
            if any(c.suit == led.suit for c in hand) and other:
                bad = [dict(e) for e in events]
                bad[i]["card"] = other[0].code
                verdict = verify_events(bad)
                assert not verdict.ok and verdict.line == i + 1
                assert "follow suit" in verdict.message and f"{led.suit} was led" in verdict.message
                return
        if ev["event"] == "play":
            r.apply(state, play(ev["card"]))
        elif ev["event"] == "deal":
            state = r.state_from_deal(ev)
    pytest.fail("no follow with a choice in the record")


def test_verify_names_the_rule_of_a_wrong_trick_winner_and_points():
    events = _record(4)
    i = next(i for i, e in enumerate(events) if e["event"] == "trick")
    bad = [dict(e) for e in events]
    bad[i]["winner"] = (bad[i]["winner"] + 1) % 4
    v = verify_events(bad)
    assert not v.ok and v.line == i + 1 and "highest card of the led suit" in v.message
    bad = [dict(e) for e in events]
    bad[i]["points"] = bad[i]["points"] + 3
    v = verify_events(bad)
    assert not v.ok and v.line == i + 1 and "thirds" in v.message


def test_verify_names_the_rule_of_a_wrong_draw_order():
    events = _record(2)
    i = next(i for i, e in enumerate(events) if e["event"] == "draw")
    bad = [dict(e) for e in events]
    bad[i], bad[i + 1] = dict(bad[i + 1]), dict(bad[i])
    v = verify_events(bad)
    assert not v.ok and v.line == i + 1 and "winner draws first" in v.message


def test_verify_demands_the_deal_end_detail_and_whole_points():
    events = _record(2)
    i = next(i for i, e in enumerate(events) if e["event"] == "deal_end")
    for key in ("thirds", "last_trick"):
        bad = [dict(e) for e in events]
        bad[i]["detail"] = {k: v for k, v in bad[i]["detail"].items() if k != key}
        v = verify_events(bad)
        assert not v.ok and v.line == i + 1 and key in v.message
    bad = [dict(e) for e in events]
    bad[i]["points"] = [p * 3 for p in bad[i]["points"]]  # thirds instead of whole points
    v = verify_events(bad)
    assert not v.ok and v.line == i + 1


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda ev: ev.update(trump=ev["stock"][0]), "no trump"),
        (lambda ev: ev.update(stock=ev["stock"][:-1]), "stock holds 19"),
        (lambda ev: ev["hands"][0].pop(), "dealt 9 cards"),
    ],
)
def test_state_from_deal_rejects_a_bad_deal(mutate, words):
    r = rules()
    ev = json.loads(json.dumps(r.new_deal(random.Random(1), 0).opening_events[0]))
    mutate(ev)
    with pytest.raises(RecordError, match=words):
        r.state_from_deal(ev)


# ---------------------------------------------------------------- the greedy heuristic
def _choose(r, st):
    bot = make_bot("greedy", r, st.to_act, 1)
    return bot.choose(r.view(st, st.to_act), r.legal_actions(st)).card.code


def test_greedy_takes_a_trick_worth_thirds_and_throws_its_cheapest_card_on_a_lost_one():
    r = rules()
    st = position(r, ["7S", "4D AD 5C"], trick="KD", leader=0)
    assert _choose(r, st) == "AD"  # the Ace beats the King and banks 4 thirds
    st = position(r, ["7S", "4D KD 5C"], trick="3D", leader=0)
    assert _choose(r, st) == "4D"  # the 3 wins anyway: follow with the worthless 4


def test_greedy_feeds_its_partner_a_sure_trick():
    r = rules(4)
    # Partner (seat 0) leads the 3 of Coins, the master: seat 1 followed; seat 2 has no Coins.
    st = position(r, ["7S", "7B", "AS 4B 5C", "6D"], trick="3D 4D", leader=0)
    assert _choose(r, st) == "AS"


def test_greedy_leads_a_master_card():
    r = rules()
    # Every stronger Spade is gone: the 3 of Spades is played, the 2 is the master.
    st = position(r, ["2S 5C 6D", "4S 7C KD"], leader=0)
    st.history = [(1, card("3S")), (0, card("4C"))]
    assert _choose(r, st) == "2S"


def test_evaluate_counts_thirds():
    r = rules()
    st = position(r, ["7S", "KD 4C"], trick="AD", leader=0)
    v = r.view(st, 1)
    assert ht.evaluate(r, v, play("KD")) < ht.evaluate(r, v, play("4C")) < 0
