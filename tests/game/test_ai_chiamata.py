"""Briscola chiamata's computer player (game/games/chiamata/ai): its hooks conform to the
search's interface, bots of every level play whole matches legally, no bid is made on a
hand below the threshold, the call is sensible, the determinizer keeps to what the view
knows: its hand, the cards played, the counts, and the partner where it is known, the
reading weighing the seats by their play (and, as an option, the caller's hand bearing his
bid), and hard's playouts load a mate's trick only where no seat after them can beat it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import game.games.chiamata.ai as ai
import game.games.chiamata.ai.tuning as tuning
from game.ai.bots import make_bot
from game.ai.hooks import LEVEL_NAMES, GameHooks, check_hooks, load_hooks, tuning_module
from game.ai.search import SearchBot
from game.cards import Card, card
from game.games.chiamata.ai import bidding
from game.games.chiamata.ai.policy import pick, playout, policy_action
from game.games.chiamata.ai.reading import bears_the_call, candidates, determinize, partner_hit, partner_weights
from game.games.chiamata.rules import ChiamataRules, ChiamataState
from game.games.chiamata.vocabulary import PASS, bid, call
from game.match import Match
from game.rules.base import Action, play
from game.verify import verify_events
from tests.game.test_chiamata import dealt, installed, make, run

__all__ = ["installed"]  # the fixture, imported for the tests below


# ----------------------------------------------------------------------------- the hooks


def test_the_hooks_module_conforms() -> None:
    assert isinstance(ai, GameHooks)
    assert check_hooks(ai) == []
    hooks = load_hooks("chiamata")
    assert hooks.playout is not None
    assert tuning_module("chiamata") is tuning


def test_the_levels_take_their_settings_from_the_hooks() -> None:
    rules = make()
    hooks = load_hooks("chiamata")
    for level in LEVEL_NAMES:
        bot = make_bot(level, rules, 0, 1)
        assert isinstance(bot, SearchBot)
        settings = hooks.level_settings(level, rules.players, rules.options)
        assert settings, f"{level}: no settings of its own"
        for key, value in settings.items():
            assert getattr(bot, key) == value, f"{level}: {key}"
    budgets = []
    for level in LEVEL_NAMES:
        bot = make_bot(level, rules, 0, 1)
        assert isinstance(bot, SearchBot)
        budgets.append(bot.iterations)
    assert budgets == sorted(budgets) and len(set(budgets)) == 3


@pytest.mark.parametrize("seed", range(3))
def test_hooks_determinize_a_real_position_and_score_it_per_seat(seed: int) -> None:
    rules = make()
    rng = random.Random(seed)
    state = rules.new_deal(rng, 0, 1)
    seat = rules.to_act(state)
    hooks = load_hooks("chiamata")
    det = hooks.determinize(rules, rules.view(state, seat), random.Random(4))
    assert isinstance(det, ChiamataState)
    assert rules.view(det, seat) == rules.view(state, seat)
    while not rules.is_over(det):
        rules.apply(det, rng.choice(rules.legal_actions(det)))
    u = hooks.utilities(rules, det)
    assert len(u) == rules.teams == 5 and all(-2.0 <= x <= 2.0 for x in u)
    assert [hooks.utility(rules, det, s) for s in range(5)] == [u[rules.team_of(s)] for s in range(5)]


def test_the_utilities_follow_the_game_points() -> None:
    rules = make()
    state = _played_out(rules, 5)
    u = ai.utilities(rules, state)
    points = rules.deal_result(state).points
    for a in range(5):
        for b in range(5):
            if points[a] > points[b]:
                assert u[a] > u[b]


def test_the_playout_plays_a_deal_to_its_end_with_the_rules() -> None:
    rules = make()
    for seed in range(20):
        rng = random.Random(seed)
        state = rules.new_deal(rng, seed % 5)
        copy = rules.clone(state)
        trace: list[object] = []
        playout(rules, state, random.Random(seed), trace=trace)
        assert state.over
        if state.caller is None:
            continue
        # The same moves through the engine (the trace: each bid, pass and call, then each
        # card) give the same points.
        for item in trace:
            assert isinstance(item, (Action, Card))
            rules.apply(copy, item if isinstance(item, Action) else play(item))
        assert copy.points == state.points and copy.partner == state.partner


# ----------------------------------------------------------------------------- whole matches


# One seed at normal and hard (the suite's time); easy, cheap, on two.
@pytest.mark.parametrize(("level", "seed"), [(level, 1) for level in LEVEL_NAMES] + [(LEVEL_NAMES[0], 2)])
def test_bots_of_every_level_play_whole_matches_legally(installed: None, level: str, seed: int) -> None:
    rules = make()
    bots = [make_bot(level, rules, s, seed) for s in range(5)]
    if level == "hard":
        for b in bots:
            assert isinstance(b, SearchBot)
            b.iterations = 150  # the suite's time: the search is the same at any budget
    events = Match(rules, seed, bots, deals=2).run()
    assert verify_events(events).ok
    _every_bid_is_sound(rules, events)


def _every_bid_is_sound(rules: ChiamataRules, events: list[dict]) -> None:
    hands: list[list[Card]] = []
    dealer = 0
    for e in events:
        if e["event"] == "deal":
            hands = [[card(c) for c in h] for h in e["hands"]]
            dealer = e["dealer"]
        elif e["event"] == "bid":
            action = bid(e["rank"], e.get("points"))
            hand = hands[e["seat"]]
            offset = bidding.lead_offset(rules, e["seat"], dealer)
            assert bidding.bid_is_sound(rules, hand, action, offset), f"{hand} bid {action}"


# ----------------------------------------------------------------------------- the auction and the call


def _auction(rules: ChiamataRules, seed: int) -> tuple[ChiamataState, list[tuple[int, Action]]]:
    rng = random.Random(seed)
    state = rules.new_deal(rng, seed % 5)
    said = []
    while not state.over and state.phase == "auction":
        seat = state.to_act
        a = policy_action(rules, state, rng)
        said.append((seat, a))
        rules.apply(state, a)
    return state, said


def test_no_seat_bids_on_a_hand_below_the_threshold() -> None:
    rules = make()
    bids = passes = 0
    for seed in range(200):
        state, said = _auction(rules, seed)
        for seat, a in said:
            if a == PASS:
                passes += 1
                continue
            bids += 1
            hand = state.hands[seat]
            rank, points = a.arg("rank"), a.arg("points")
            assert isinstance(rank, str) and (points is None or isinstance(points, int))
            contract = points or rules.contract_points
            c, p = bidding.best_call(rules, hand, rank, contract, bidding.lead_offset(rules, seat, state.dealer))
            margin = tuning.ALONE_MARGIN if c in hand else tuning.BID_MARGIN
            assert p >= contract + margin
    assert bids and passes


def test_a_weak_hand_passes_and_a_strong_one_bids_and_calls_a_card_it_lacks() -> None:
    rules = make()
    state = dealt(rules)
    weak = state.hands[4]  # fours and twos
    assert bidding.choose_bid(rules, weak, None, None) == PASS
    strong = [card(c) for c in "3D KD QD 7D AC 3C AS 2B".split()]
    first = bidding.choose_bid(rules, strong, None, None)
    assert first != PASS
    # It calls the Ace of its long suit (the only stronger trump), and keeps a partner.
    assert bidding.choose_call(rules, strong, "A", None) == call(card("AD"))


def test_alone_only_with_an_overwhelming_hand() -> None:
    rules = make()
    state = dealt(rules)
    run(rules, state, bid("A"), PASS, PASS, PASS, PASS)
    view = rules.view(state, 0)
    assert view.phase == "call"
    # The whole D run but the 4 and 2: so strong it plays alone.
    assert bidding.choose_call(rules, view.hand, "A", None) == call(card("AD"))
    assert bidding.best_call(rules, view.hand, "A", 61)[0] in view.hand
    # A hand with the Ace of its long suit and little else calls another suit's Ace.
    modest = [card(c) for c in "AD 3D 7D 5D 4C 2C 6S 4B".split()]
    c, _ = bidding.best_call(rules, modest, "A", 61)
    assert c not in modest


def test_every_level_bids_the_bidding_rules_choice() -> None:
    rules = make()
    for seed in range(4):
        rng = random.Random(seed)
        state = rules.new_deal(rng, seed % 5)
        seat = rules.to_act(state)
        want = policy_action(rules, state, rng)
        for level in LEVEL_NAMES:
            bot = make_bot(level, rules, seat, seed)
            assert bot.choose(rules.view(state, seat), rules.legal_actions(state)) == want


# ----------------------------------------------------------------------------- determinization


def _positions(rules: ChiamataRules, seeds: range) -> Iterator[ChiamataState]:
    """Every position of policy-played deals, the play included."""
    for seed in seeds:
        rng = random.Random(seed)
        state = rules.new_deal(rng, seed % 5)
        while not state.over:
            yield state
            if state.phase == "play":
                c = rng.choice(state.hands[state.to_act])
                rules.apply(state, play(c))
            else:
                rules.apply(state, policy_action(rules, state, rng))


def test_the_determinizer_keeps_to_what_the_view_knows() -> None:
    rules = make()
    checked = 0
    for state in _positions(rules, range(6)):
        for seat in range(5):
            view = rules.view(state, seat)
            played = {c for _, c in view.history}
            for k in range(3):
                det = determinize(rules, view, random.Random(k))
                assert rules.view(det, seat) == view
                assert det.hands[seat] == list(view.hand)
                for s, h in enumerate(det.hands):
                    assert len(h) == view.hand_counts[s]
                    assert not played & set(h), "a played card dealt again"
                assert {c for h in det.hands for c in h} == set(rules.cards) - played
                if view.called is not None:
                    holder = next((s for s, h in enumerate(det.hands) if view.called in h), None)
                    if view.partner is not None:
                        assert det.partner == view.partner
                        assert holder in (None, view.partner)
                    assert det.partner == state.partner or view.partner is None
                    if holder is not None:
                        assert det.partner == holder
                        assert holder in candidates(view) or holder == seat
                checked += 1
    assert checked > 1000


def test_auction_worlds_deal_the_caller_a_hand_that_bears_his_bid_and_call(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = make()
    kept = {True: 0, False: 0}
    tried = {True: 0, False: 0}
    for state in _positions(rules, range(3)):
        if state.phase != "play" or state.history or state.caller is None:
            continue
        seat = (state.caller + 1) % 5  # a defender, at the first lead
        view = rules.view(state, seat)
        # The bots bid by the bidding rules: the caller's true hand bears the call.
        assert bears_the_call(rules, view, list(state.hands[state.caller]))
        for on in (False, True):
            monkeypatch.setattr(tuning, "AUCTION_WORLDS", on)
            for k in range(40):
                det = determinize(rules, view, random.Random(k))
                assert rules.view(det, seat) == view  # still what the view knows
                kept[on] += bears_the_call(rules, view, det.hands[state.caller])
                tried[on] += 1
    assert tried[True] >= 80
    # Dealt at random, few hands would have bid so (about one in ten); most of the auction's
    # worlds do (a deal whose tries all fail keeps its last: a human may bid on little).
    assert kept[False] / tried[False] < 0.25 and kept[True] / tried[True] > 0.5


def test_the_determinizer_never_gives_the_called_card_to_a_seat_with_no_card_left() -> None:
    rules = make()
    for state in _positions(rules, range(6, 10)):
        if state.phase != "play":
            continue
        for seat in range(5):
            view = rules.view(state, seat)
            for s in partner_weights(rules, view):
                assert view.hand_counts[s] > 0 and s != seat


def test_the_reading_favours_a_seat_that_loads_the_callers_trick_and_shuns_one_that_fails_him() -> None:
    rules = make()
    hands = (
        "3S 4D 5D 6D 7D 2C 4C 5C",  # seat 0: the partner (the called 3S)
        "AS 2S 4S 5S 6S 7S JS QS",  # seat 1: the caller
        "AC 3C KC QC JC 6C 7C 2D",  # seat 2
        "AB KB QB JB 7B 6B 5B KS",  # seat 3
        "AD 3D KD QD JD 3B 4B 2B",  # seat 4
    )
    state = dealt(rules, hands, dealer=4)
    run(rules, state, PASS, bid("3"), PASS, PASS, PASS, call(card("3S")))
    assert state.caller == 1 and state.partner == 0 and state.leader == 0
    # Seat 0 leads low, the caller takes it with a trump, seats 2 and 3 give nothing to it,
    # seat 4, last, loads it with an Ace.
    run(rules, state, play(card("4D")), play(card("2S")), play(card("6C")), play(card("5B")), play(card("AD")))
    view = rules.view(state, 2)  # a defender
    w = partner_weights(rules, view)
    assert set(w) == {0, 1, 3, 4}
    assert w[4] > w[0] > w[3] and abs(sum(w.values()) - 1.0) < 1e-9
    assert w[1] < w[3]  # the caller alone: possible, unlikely
    assert partner_hit(rules, view, 4) == 1.0 and partner_hit(rules, view, 0) == 0.0
    # The partner holds it: nothing to read. The caller reads the same play without himself.
    assert partner_weights(rules, rules.view(state, 0)) == {}
    mine = partner_weights(rules, rules.view(state, 1))
    assert set(mine) == {0, 2, 3, 4} and mine[4] > mine[0] > mine[3] == mine[2]
    # The determinizer deals the called card by those weights.
    counts = dict.fromkeys(range(5), 0)
    for k in range(400):
        det = determinize(rules, view, random.Random(k))
        assert det.partner is not None and card("3S") in det.hands[det.partner]
        counts[det.partner] += 1
    assert counts[2] == 0 and counts[4] > counts[0] > counts[3]


def test_without_card_reading_the_called_card_goes_by_the_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuning, "CARD_READING", False)
    rules = make()
    state = dealt(rules)
    run(rules, state, PASS, bid("3"), PASS, PASS, PASS, call(card("3B")))
    w = partner_weights(rules, rules.view(state, 4))
    assert w[0] == w[2] == w[3] and w[1] < w[0]
    # Three seats share the top weight: a third of the credit each.
    assert partner_hit(rules, rules.view(state, 4), 3) == pytest.approx(1 / 3)
    assert partner_hit(rules, rules.view(state, 3), 3) is None  # it holds the card


def test_a_played_out_deal_has_a_result() -> None:
    rules = make()
    state = _played_out(rules, 3)
    assert state.over


def _played_out(rules: ChiamataRules, seed: int) -> ChiamataState:
    for k in range(seed, seed + 50):
        state = rules.new_deal(random.Random(k), k % 5)
        playout(rules, state, random.Random(k))
        if state.caller is not None:
            return state
    raise AssertionError("every deal thrown in")


def _partner_to_play_on_the_callers_king(beater: str) -> tuple[ChiamataRules, ChiamataState]:
    """Seat 0 called the 3S (seat 1's) and leads the KS; ``beater`` holds the AS."""
    rules = make()
    hands = {
        0: "KS 4D 5D 6D 7D 2C 4C 5C",
        1: "3S AC XX 3D 7C 6C JC QC",
        2: "QS JS KC 3C KD QD JD AD",
        3: "XX 7S 6S AB 3B KB QB JB",
        4: "5S 4S 2S 7B 6B 5B 4B 2B",
    }
    hands = {s: h.replace("XX", "AS" if str(s) == beater else "2D") for s, h in hands.items()}
    state = dealt(rules, tuple(hands[s] for s in range(5)), dealer=4)
    run(rules, state, bid("3"), PASS, PASS, PASS, PASS, call(card("3S")), play(card("KS")))
    assert state.caller == 0 and state.partner == 1 and state.to_act == 1
    return rules, state


def test_with_sight_the_partner_loads_the_callers_trick_only_when_no_seat_after_him_can_beat_it() -> None:
    def still() -> float:
        return 0.0

    # A defender after the partner holds the AS: the KS may fall, so no Ace on it.
    rules, state = _partner_to_play_on_the_callers_king("3")
    assert pick(rules, state, 1, still) == card("AC")  # the plain policy loads it blind
    sighted = pick(rules, state, 1, still, sight=True)
    assert sighted != card("AC") and rules.card_points[sighted] == 0
    # The partner holds the AS himself: nobody after him can beat the KS, so he loads it.
    rules, state = _partner_to_play_on_the_callers_king("1")
    assert pick(rules, state, 1, still, sight=True) == card("AC")


# ----------------------------------------------------------------------------- the coach


def test_the_coach_names_an_ace_thrown_onto_the_callers_trick() -> None:
    from game.coach.hooks import load_coach
    from game.games.chiamata import coach

    rules = make()
    hands = (
        "3S 4D 5D 6D 7D 2C 4C 5C",
        "AS 2S 4S 5S 6S 7S JS QS",
        "AC 3C KC QC JC 6C 7C 2D",
        "AB KB QB JB 7B 6B 5B KS",
        "AD 3D KD QD JD 3B 4B 2B",
    )
    state = dealt(rules, hands, dealer=4)
    run(rules, state, PASS, bid("3"), PASS, PASS, PASS, call(card("3S")))
    run(rules, state, play(card("4D")), play(card("2S")), play(card("6C")), play(card("5B")))
    view = rules.view(state, 4)  # a defender, last to play on the caller's trick
    why = coach.reason(rules, view, play(card("AD")), play(card("2B")))
    assert why is not None and why[0] == "coach.reason.throws_points"
    assert coach.reason(rules, view, play(card("2B")), play(card("4B"))) is None
    hooks = load_coach("chiamata")
    assert hooks.units == "coach.units.game_points" and hooks.points_per_utility(rules) > 1.0


def test_a_later_place_in_the_first_trick_predicts_more() -> None:
    rules = make()
    hand = [card(c) for c in "3D KD QD 7D AC 3C AS 2B".split()]
    first = bidding.predicted(rules, hand, card("AD"), 0)
    last = bidding.predicted(rules, hand, card("AD"), 4)
    assert first < bidding.predicted(rules, hand, card("AD")) < last
    assert bidding.lead_offset(rules, 1, 0) == 0 and bidding.lead_offset(rules, 0, 0) == 4
    assert bidding.lead_offset(make(first_lead="caller"), 3, 0) == 0


def test_the_suggestions_reason_reads_only_the_sides_the_view_knows() -> None:
    rules = make()
    hands = (
        "3S 4D 5D 6D 7D 2C 4C 5C",
        "AS 2S 4S 5S 6S 7S JS QS",
        "AC 3C KC QC JC 6C 7C 2D",
        "AB KB QB JB 7B 6B 5B KS",
        "AD 3D KD QD JD 3B 4B 2B",
    )
    state = dealt(rules, hands, dealer=4)
    run(rules, state, PASS, bid("3"), PASS, PASS, PASS, call(card("3S")))
    assert ai.reason(rules, rules.view(state, 0), play(card("4D"))) == ("suggest.reason.lead_low", {})
    run(rules, state, play(card("4D")), play(card("2S")), play(card("6C")), play(card("5B")))
    view = rules.view(state, 4)  # a defender, last, on the caller's trick
    assert ai.reason(rules, view, play(card("2B"))) == ("suggest.reason.gives_nothing", {})
    assert ai.reason(rules, view, play(card("AD"))) is None
