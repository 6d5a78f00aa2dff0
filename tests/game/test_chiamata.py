"""Briscola chiamata (../shared/RULES.md, "Briscola chiamata"): the auction, the call, the
play, the hidden partner and what each seat may know of it, every scoring case, and whole
matches of random legal actions that the referee replays line for line.

The game's config is rules.yaml's (``make``: the piacentine pack).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from game.ai.bots import make_bot
from game.cards import Card, card
from game.games.chiamata import heuristics, results
from game.games.chiamata.rules import CALLER_SIDE, DEFENDERS, ChiamataRules, ChiamataState
from game.games.chiamata.vocabulary import PASS, bid, call
from game.match import Match
from game.replay import decisions_of
from game.rules.base import Action, IllegalAction, RecordError, play
from game.rulesets import make_rules
from game.verify import verify_events

STRENGTH = ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2")


def make(**options: object) -> ChiamataRules:
    """The rules from rules.yaml (the piacentine pack), with ``options`` over the defaults."""
    r = make_rules("chiamata", "piacentine", 5, options)
    assert isinstance(r, ChiamataRules)
    return r


@pytest.fixture
def installed() -> Iterator[None]:
    """Once the game was registered here in code; rules.yaml offers it now. Kept as a
    no-op, as other test files still name it."""
    yield


def hands_from(*codes: str) -> list[list[Card]]:
    """Five hands from five space-separated strings of card codes."""
    return [[card(c) for c in h.split()] for h in codes]


#: A deal where every seat holds one suit's run, for positions built by hand.
HANDS = (
    "AD 3D KD QD JD 7D 6D 5D",
    "AC 3C KC QC JC 7C 6C 5C",
    "AS 3S KS QS JS 7S 6S 5S",
    "AB 3B KB QB JB 7B 6B 5B",
    "4D 2D 4C 2C 4S 2S 4B 2B",
)


def dealt(r: ChiamataRules, hands: tuple[str, ...] = HANDS, dealer: int = 4) -> ChiamataState:
    return r.state_from_deal(
        {
            "event": "deal",
            "number": 1,
            "dealer": dealer,
            "hands": [h.split() for h in hands],
            "table": [],
            "stock": [],
            "trump": None,
        }
    )


def run(r: ChiamataRules, state: ChiamataState, *actions: Action) -> list[dict]:
    out: list[dict] = []
    for a in actions:
        out += r.apply(state, a)
    return out


def refused(r: ChiamataRules, state: ChiamataState, action: Action) -> str:
    with pytest.raises(IllegalAction) as e:
        r.validate(state, action)
    return e.value.rule


# ----------------------------------------------------------------------------- the deal


def test_the_deal_gives_eight_cards_to_each_of_five_and_leaves_nothing() -> None:
    r = make()
    state = r.new_deal(random.Random(3), dealer=2)
    assert [len(h) for h in state.hands] == [8] * 5
    assert sorted(c for h in state.hands for c in h) == sorted(r.cards)
    (line,) = state.opening_events
    assert line["table"] == [] and line["stock"] == [] and line["trump"] is None
    assert r.deal_event(state) == line
    again = r.state_from_deal(line)
    assert again.hands == state.hands and again.dealer == 2 and again.to_act == 3


def test_a_deal_line_with_a_trump_or_a_stock_is_refused() -> None:
    r = make()
    line = r.new_deal(random.Random(1), 0).opening_events[0]
    with pytest.raises(RecordError):
        r.state_from_deal({**line, "trump": "AD"})
    with pytest.raises(RecordError):
        r.state_from_deal({**line, "hands": [h[:7] for h in line["hands"]], "stock": [h[7] for h in line["hands"]]})


# ----------------------------------------------------------------------------- the auction


def test_the_dealers_right_speaks_first_and_the_turn_goes_round() -> None:
    r = make()
    state = dealt(r, dealer=4)
    assert state.to_act == 0 and state.phase == "auction"
    run(r, state, bid("A"))
    assert state.to_act == 1
    run(r, state, bid("3"), PASS)
    assert state.to_act == 3


def test_every_bid_is_lower_than_the_one_before() -> None:
    r = make()
    state = dealt(r)
    assert r.legal_actions(state) == [*(bid(x) for x in STRENGTH), PASS]
    run(r, state, bid("K"))
    assert r.legal_actions(state) == [*(bid(x) for x in STRENGTH[3:]), PASS]
    assert refused(r, state, bid("A")) == "bid_not_lower"
    assert refused(r, state, bid("K")) == "bid_not_lower"
    assert refused(r, state, bid("2", 70)) == "points_only_after_two"
    assert refused(r, state, bid("8")) == "no_such_rank"


def test_after_a_bid_of_two_only_two_at_more_points_follows() -> None:
    r = make()
    state = dealt(r)
    run(r, state, bid("2"))
    assert r.legal_actions(state) == [*(bid("2", n) for n in range(62, 121)), PASS]
    assert refused(r, state, bid("2")) == "points_after_two"
    run(r, state, bid("2", 64))
    assert bid("2", 64) not in r.legal_actions(state)
    assert refused(r, state, bid("2", 64)) == "points_too_low"
    assert r.legal_actions(state)[0] == bid("2", 65)
    run(r, state, bid("2", 120))
    assert r.legal_actions(state) == [PASS]  # nothing is higher: pass


def test_a_pass_is_final() -> None:
    r = make()
    state = dealt(r)
    run(r, state, PASS, bid("A"), bid("3"), bid("K"), bid("Q"))  # seat 0 passed
    assert state.to_act == 1  # seat 0 is skipped
    run(r, state, bid("J"), PASS, PASS, PASS)  # seats 2, 3, 4 pass
    assert state.phase == "call" and state.to_act == 1  # the last bidder left calls
    assert state.passed == [True, False, True, True, True]


def test_the_auction_ends_when_one_bidder_is_left() -> None:
    r = make()
    state = dealt(r, dealer=2)
    events = run(r, state, PASS, PASS, PASS, PASS, bid("7"))
    assert state.phase == "call" and state.to_act == 2
    assert events[-1] == {"event": "bid", "seat": 2, "rank": "7"}
    assert r.legal_actions(state) == [call(card(f"7{s}")) for s in "DCSB"]


def test_five_passes_throw_the_deal_in() -> None:
    r = make()
    state = dealt(r, dealer=1)
    events = run(r, state, PASS, PASS, PASS, PASS, PASS)
    assert [e["seat"] for e in events] == [2, 3, 4, 0, 1]
    assert state.over and r.legal_actions(state) == []
    result = r.deal_result(state)
    assert result.points == [0] * 5 and result.leftover is None
    assert result.detail == {"caller": None, "partner": None, "called": None, "card_points": None, "won": None}


def test_a_thrown_in_deal_counts_and_the_next_dealer_deals() -> None:
    r = make(deals=5)
    m = Match(r, 7)
    m.start()
    first = m.dealer
    assert first is not None
    for _ in range(5):
        m.play(PASS)
    assert m.deal_number == 2 and m.dealer == (first + 1) % 5 and m.totals == [0] * 5
    end = next(e for e in m.events if e["event"] == "deal_end")
    assert end["points"] == [0] * 5 and end["detail"]["caller"] is None


def test_bid_and_pass_lines_are_as_the_record_writes_them() -> None:
    r = make()
    state = dealt(r)
    assert run(r, state, bid("3"), bid("2"), bid("2", 64), PASS) == [
        {"event": "bid", "seat": 0, "rank": "3"},
        {"event": "bid", "seat": 1, "rank": "2"},
        {"event": "bid", "seat": 2, "rank": "2", "points": 64},
        {"event": "pass", "seat": 3},
    ]


# ----------------------------------------------------------------------------- the call


def called_by(r: ChiamataRules, caller_rank: str, called: str, *, dealer: int = 4) -> ChiamataState:
    """Seat ``dealer + 1`` bids ``caller_rank``, the others pass, and it calls ``called``."""
    state = dealt(r, dealer=dealer)
    run(r, state, bid(caller_rank), PASS, PASS, PASS, PASS, call(card(called)))
    return state


def test_the_call_names_the_trump_and_the_hidden_partner() -> None:
    r = make()
    state = called_by(r, "A", "AC")
    assert (state.caller, state.called, state.trump_suit, state.partner) == (0, card("AC"), "C", 1)
    assert state.phase == "play" and state.to_act == 0  # the dealer's right leads


def test_a_caller_holding_the_called_card_plays_alone() -> None:
    r = make()
    state = called_by(r, "A", "AD")
    assert state.caller == state.partner == 0


def test_the_called_card_is_of_the_contracts_rank() -> None:
    r = make()
    state = dealt(r)
    run(r, state, bid("K"), PASS, PASS, PASS, PASS)
    assert refused(r, state, call(card("AC"))) == "call_contract_rank"
    assert refused(r, state, play("KD")) == "call_first"
    events = run(r, state, call(card("KS")))
    assert events == [{"event": "call", "seat": 0, "card": "KS"}]


def test_the_caller_leads_first_with_the_option() -> None:
    r = make(first_lead="caller")
    state = dealt(r, dealer=4)
    run(r, state, PASS, bid("A"), PASS, PASS, PASS, call(card("AS")))
    assert state.caller == 1 and state.to_act == 1


# ----------------------------------------------------------------------------- the play


def test_any_card_may_be_played_and_the_highest_trump_wins() -> None:
    r = make()
    state = called_by(r, "A", "AC")  # trump: C
    assert r.legal_actions(state) == [play(c) for c in state.hands[0]]
    assert refused(r, state, play("AC")) == "not_in_hand"
    assert refused(r, state, bid("2")) == "auction_over"
    # Seat 0 leads 5D; seat 1 trumps with 5C; seat 2 plays off-suit; seat 3 too; seat 4 a low trump.
    events = run(r, state, play("5D"), play("5C"), play("AS"), play("AB"), play("4C"))
    assert events[-1] == {"event": "trick", "winner": 1, "cards": ["5D", "5C", "AS", "AB", "4C"], "points": 22}
    assert state.to_act == 1 and state.points[1] == 22


def test_without_a_trump_the_highest_card_of_the_led_suit_wins() -> None:
    r = make()
    # Trumps are B: none in the trick; a card of another suit never wins, whatever its rank.
    assert r.trick_winner([card(c) for c in ("5D", "7D", "AC", "4D", "3S")], 0, "B") == 1
    assert r.trick_winner([card(c) for c in ("5D", "7D", "AC", "4D", "2B")], 3, "B") == 2
    assert r.trick_winner([card(c) for c in ("KS", "QS", "3S", "AS", "2S")], 2, "D") == 0


def test_eight_tricks_end_the_deal() -> None:
    r = make()
    state = called_by(r, "A", "AC")
    rng = random.Random(5)
    n = 0
    while not state.over:
        run(r, state, rng.choice(r.legal_actions(state)))
        n += 1
    assert n == 40 and all(not h for h in state.hands) and sum(state.points) == 120


def test_the_partner_is_revealed_when_the_called_card_is_played() -> None:
    r = make()
    state = called_by(r, "A", "AC")  # seat 1 holds AC
    before = [r.view(state, s) for s in range(5)]
    assert before[1].partner == 1 and None not in before[1].sides  # the partner knows
    for s in (0, 2, 3, 4):
        assert before[s].partner is None
        assert before[s].sides[0] == CALLER_SIDE and before[s].sides[1] is None
    assert before[2].sides[2] == DEFENDERS
    assert r.seen_team_of(before[3], 1) is None and r.seen_team_of(before[1], 0) == CALLER_SIDE
    run(r, state, play("5D"), play("AC"))
    for s in range(5):
        v = r.view(state, s)
        assert v.partner == 1 and v.sides == (CALLER_SIDE, CALLER_SIDE, DEFENDERS, DEFENDERS, DEFENDERS)


def test_a_lone_caller_is_known_only_to_himself_until_the_called_card_shows() -> None:
    r = make()
    state = called_by(r, "A", "AD")
    assert r.view(state, 0).partner == 0 and r.view(state, 0).sides == (0, 1, 1, 1, 1)
    for s in range(1, 5):
        assert r.view(state, s).partner is None
    run(r, state, play("AD"))
    assert all(r.view(state, s).partner == 0 for s in range(5))


# ----------------------------------------------------------------------------- scoring


def finished(r: ChiamataRules, caller: int, partner: int, side: int, *, points: int | None = None) -> ChiamataState:
    """A played-out deal: ``caller`` (with ``partner``) won ``side`` card points."""
    state = dealt(r)
    state.phase, state.over, state.revealed = "done", True, True
    state.caller, state.partner, state.called = caller, partner, card("AC")
    state.high_seat, state.high_rank, state.high_points = caller, "2" if points else "A", points
    state.points = [0] * 5
    state.points[caller] += side
    state.points[next(s for s in range(5) if s not in (caller, partner))] = 120 - side
    return state


@pytest.mark.parametrize(
    "side,won,points",
    [
        (61, True, [2, 1, -1, -1, -1]),
        (120, True, [2, 1, -1, -1, -1]),
        (60, False, [-2, -1, 1, 1, 1]),
        (0, False, [-2, -1, 1, 1, 1]),
    ],
)
def test_game_points_with_a_partner(side: int, won: bool, points: list[int]) -> None:
    r = make()
    result = r.deal_result(finished(r, 0, 1, side))
    assert result.points == points and sum(result.points) == 0
    assert result.detail == {"caller": 0, "partner": 1, "called": "AC", "card_points": [side, 120 - side], "won": won}


@pytest.mark.parametrize("side,points", [(61, [-1, -1, 4, -1, -1]), (60, [1, 1, -4, 1, 1])])
def test_game_points_alone(side: int, points: list[int]) -> None:
    r = make()
    result = r.deal_result(finished(r, 2, 2, side))
    assert result.points == points and result.detail["partner"] == 2


def test_a_bid_of_two_at_points_needs_those_points() -> None:
    r = make()
    assert r.deal_result(finished(r, 3, 0, 70, points=70)).points == [1, -1, -1, 2, -1]
    assert r.deal_result(finished(r, 3, 0, 69, points=70)).points == [-1, 1, 1, -2, 1]


@pytest.mark.parametrize(
    "caller,partner,side,points",
    [
        (0, 1, 120, [4, 2, -2, -2, -2]),
        (0, 1, 0, [-4, -2, 2, 2, 2]),  # the defenders took them all: doubled too
        (4, 4, 120, [-2, -2, -2, -2, 8]),
        (0, 1, 119, [2, 1, -1, -1, -1]),
    ],
)
def test_cappotto_doubles_when_one_side_takes_every_card_point(
    caller: int, partner: int, side: int, points: list[int]
) -> None:
    doubled = make(cappotto=True)
    assert doubled.deal_result(finished(doubled, caller, partner, side)).points == points
    plain = make().deal_result(finished(make(), caller, partner, side)).points
    assert plain == ([p // 2 for p in points] if side in (0, 120) else points)  # the option is off by default


def test_the_match_is_a_fixed_number_of_deals_won_by_a_unique_highest_total() -> None:
    r = make(deals=5)
    assert r.match_status([0] * 5, 4)[0] is False
    assert r.match_status([3, -1, -1, 0, -1], 5)[:2] == (True, 0)
    assert r.match_status([2, 2, -2, -1, -1], 5)[:2] == (True, None)
    assert r.initial_totals() == [0] * 5 and r.teams == 5


# ----------------------------------------------------------------------------- what a seat may know


def others_shuffled(r: ChiamataRules, state: ChiamataState, seat: int, rng: random.Random) -> ChiamataState:
    """The same position with the other seats' unplayed cards dealt among them anew (each
    keeping its count): a seat's view must not tell the two apart. The holder of an unplayed
    called card moves with it, unless the viewer already knows him."""
    other = r.clone(state)
    pool = [c for s, h in enumerate(other.hands) if s != seat for c in h]
    rng.shuffle(pool)
    for s, h in enumerate(other.hands):
        if s != seat:
            k = len(h)
            other.hands[s], pool = pool[:k], pool[k:]
    if other.called is not None and not other.revealed and seat != state.partner:
        other.partner = next(s for s, h in enumerate(other.hands) if other.called in h)
    return other


@pytest.mark.parametrize("seed", range(40))
def test_no_view_tells_another_hand_or_the_hidden_partner(seed: int) -> None:
    rng = random.Random(seed)
    r = make(first_lead=rng.choice(["dealer_right", "caller"]))
    state = r.new_deal(rng, dealer=seed % 5)
    while not state.over:
        for seat in range(5):
            view = r.view(state, seat)
            assert view.hand == tuple(state.hands[seat])
            assert r.view(others_shuffled(r, state, seat, rng), seat) == view
            knows = state.revealed or seat == state.partner
            if state.caller is not None and not knows:
                assert view.partner is None
                assert [s for s, side in enumerate(view.sides) if side is not None] == sorted({state.caller, seat})
        r.apply(state, rng.choice(r.legal_actions(state)))


def test_each_seat_sees_its_own_hand_in_the_deal_line_and_every_auction_line(installed: None) -> None:
    r = make()
    events = Match(r, 11, [make_bot("random", r, s, 11) for s in range(5)]).run()
    for seat in (None, 0, 3):
        redact = r.vocabulary.redactor(seat)
        for ev in events:
            seen = redact.one(ev)
            assert seen is not None
            if ev["event"] == "deal":
                hands = seen.get("hands")
                assert isinstance(hands, list)
                for s, hand in enumerate(hands):
                    assert hand == (ev["hands"][s] if s == seat else [None] * 8)
            elif ev["event"] in ("bid", "pass", "call", "play", "trick"):
                assert seen == ev


# ----------------------------------------------------------------------------- decisions, records


def test_the_declared_decisions_and_events() -> None:
    assert ChiamataRules.decisions == ("bid", "pass", "call", "play")
    assert ChiamataRules.vocabulary.event_names == (
        "match",
        "deal",
        "bid",
        "pass",
        "call",
        "play",
        "trick",
        "deal_end",
        "match_end",
    )
    assert ChiamataRules.record_events == ("bid", "pass", "call", "trick")
    vocab = ChiamataRules.vocabulary
    call_kind = vocab.decision("call")
    assert call_kind is not None and not call_kind.plays_card
    assert make().teams_rule.kind == "hidden" and make().teams_rule.scores == "seat"


def test_bids_and_passes_go_over_the_wire_and_back() -> None:
    vocab = ChiamataRules.vocabulary
    for action in (bid("A"), bid("2", 77), PASS, play("3C")):
        decision = vocab.decision(action.kind)
        assert decision is not None
        assert vocab.action_from_wire(decision.to_wire(action)) == action
    call_kind = vocab.decision("call")
    assert call_kind is not None and call_kind.to_wire(call(card("3C"))) == {"kind": "call", "card": "3C"}


def test_a_call_comes_back_from_the_wire() -> None:
    assert ChiamataRules.vocabulary.action_from_wire({"kind": "call", "card": "3C"}) == call(card("3C"))


def test_action_from_record_reads_each_decision() -> None:
    r = make()
    lines = [
        {"event": "bid", "seat": 0, "rank": "3"},
        {"event": "bid", "seat": 1, "rank": "2", "points": None},
        {"event": "bid", "seat": 2, "rank": "2", "points": 64},
        {"event": "pass", "seat": 3},
        {"event": "call", "seat": 2, "card": "2C"},
        {"event": "play", "seat": 0, "card": "AD"},
    ]
    got = [r.action_from_record(lines, i) for i in range(len(lines))]
    assert got == [bid("3"), bid("2"), bid("2", 64), PASS, call(card("2C")), play("AD")]
    with pytest.raises(RecordError):
        r.action_from_record([{"event": "bid", "seat": 0, "rank": "9"}], 0)
    with pytest.raises(RecordError):
        r.action_from_record([{"event": "bid", "seat": 0, "rank": "2", "points": True}], 0)
    with pytest.raises(RecordError):
        r.action_from_record([{"event": "trick", "winner": 0}], 0)


@pytest.mark.parametrize("seed", range(6))
def test_a_match_of_random_legal_actions_replays_identically(installed: None, seed: int) -> None:
    r = make(deals=5, cappotto=seed % 2 == 0, first_lead="caller" if seed % 3 == 0 else "dealer_right")
    bots = [make_bot("random", r, s, seed) for s in range(5)]
    events = Match(r, seed, bots).run()
    assert events[-1]["event"] == "match_end"
    ends = [e for e in events if e["event"] == "deal_end"]
    assert len(ends) == 5 and all(sum(e["points"]) == 0 for e in ends)
    assert events[-1]["totals"] == [sum(e["points"][s] for e in ends) for s in range(5)]
    for strict in (False, True):
        verdict = verify_events(events, strict=strict)
        assert verdict.ok, verdict
    again = Match.rebuild(make(**r.options), seed, decisions_of(r, events))
    assert again.events == events


def test_verify_names_the_broken_auction_rule(installed: None) -> None:
    r = make(deals=5)
    events = Match(r, 4, [make_bot("random", r, s, 4) for s in range(5)]).run()
    first = next(i for i, e in enumerate(events) if e["event"] == "bid")
    bad = [dict(e) for e in events]
    bad[first] = {**bad[first], "rank": "8"}
    verdict = verify_events(bad)
    assert not verdict.ok and verdict.line == first + 1


def test_a_greedy_match_plays_through(installed: None) -> None:
    r = make(deals=5)
    events = Match(r, 9, [make_bot("greedy", r, s, 9) for s in range(5)]).run()
    assert verify_events(events).ok
    assert any(e["event"] == "call" for e in events)


def test_the_greedy_bids_while_the_hand_bears_it_and_calls_its_strongest_suit() -> None:
    r = make()
    state = dealt(r)  # seat 0 holds the whole D run but the 4 and 2
    view = r.view(state, 0)
    values = {a: heuristics.evaluate(r, view, a) for a in r.legal_actions(state)}
    assert max(values, key=lambda a: values[a]) == bid("A")
    run(r, state, bid("A"), PASS, PASS, PASS, PASS)
    view = r.view(state, 0)
    calls = {a: heuristics.evaluate(r, view, a) for a in r.legal_actions(state)}
    assert max(calls, key=lambda a: calls[a]) == call(card("AD"))  # so strong it goes alone


class Passer:
    """A seat that never bids (and plays its first legal action otherwise)."""

    def choose(self, view: object, legal: list[Action], should_stop: object = None) -> Action:
        return PASS if PASS in legal else legal[0]


def test_a_match_of_thrown_in_deals_verifies_and_has_no_winner(installed: None) -> None:
    r = make(deals=5)
    events = Match(r, 3, [Passer() for _ in range(5)]).run()
    ends = [e for e in events if e["event"] == "deal_end"]
    assert len(ends) == 5 and all(e["points"] == [0] * 5 and e["totals"] == [0] * 5 for e in ends)
    first = events[1]["dealer"]  # a thrown-in deal passes the deal on too
    assert [e["dealer"] for e in events if e["event"] == "deal"] == [(first + k) % 5 for k in range(5)]
    assert events[-1] == {"event": "match_end", "winner": None, "totals": [0] * 5}
    assert verify_events(events, strict=True).ok


def test_a_plain_bid_written_with_null_points_verifies(installed: None) -> None:
    r = make(deals=5)
    events = Match(r, 21, [make_bot("random", r, s, 21) for s in range(5)]).run()
    plain = [i for i, e in enumerate(events) if e["event"] == "bid" and "points" not in e]
    assert plain
    other = [dict(e, points=None) if i in plain else e for i, e in enumerate(events)]
    assert verify_events(other).ok and verify_events(other, strict=True).ok


class Board:
    def __init__(self) -> None:
        self.headline = ""
        self.bar: tuple[int, int] | None = None
        self.subjects = ["South", "East", "North", "West", "Centre"]
        self.within = list(self.subjects)
        self.mine: int | None = None
        self.notes: list[str] = []


def words(key: str, **params: object) -> str:
    return key + (" " + " ".join(f"{k}={v}" for k, v in sorted(params.items())) if params else "")


def test_the_results_sentences_name_the_caller_the_partner_and_the_split() -> None:
    r = make(cappotto=True)
    b = Board()
    detail = {"caller": 2, "partner": 0, "called": "3C", "card_points": [120, 0], "won": True}
    results.explain(b, words, r, {"detail": detail}, {})
    assert b.headline == "results.chiamata.made card=3C name=North partner=South points=120"
    assert b.bar == (120, 0) and b.notes == ["results.chiamata.cappotto"]
    b = Board()
    results.explain(b, words, r, {"detail": {**detail, "partner": 2, "won": False, "card_points": [50, 70]}}, {})
    assert b.headline.startswith("results.chiamata.lost_alone ") and b.bar == (50, 70) and not b.notes
    b = Board()
    results.explain(b, words, r, {"detail": dict.fromkeys(detail)}, {})
    assert b.headline == "results.chiamata.thrown_in" and b.bar is None
