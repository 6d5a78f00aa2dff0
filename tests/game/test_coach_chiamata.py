"""The coach on Briscola chiamata: the auction and the call are played out like the cards (the
AI's bidding rules give a choice, not a value), every value is in game points, a worse bid,
pass or call is explained from the hand with the value it lost, in four languages, and
``main.py analyse`` reads a chiamata record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.ai.bots import make_bot
from game.cards import card
from game.coach.analysis import analyse_position, explain
from game.coach.hooks import load_coach
from game.coach.words import Words
from game.games.chiamata.coach import speech_reason
from game.games.chiamata.vocabulary import PASS, bid, call
from game.match import Match
from game.record import write_record
from game.rulesets import make_rules
from game.services import cli
from game.services.i18n import I18n

LANGS = ("en", "nl", "de", "it")
#: The first lesson's deal: seat 0 holds five Cups (Ace, 3, Knight, Knave, 7) and the King
#: of Swords, and speaks first.
HANDS = [
    ["AC", "3C", "QC", "JC", "7C", "AS", "KS", "2D"],
    ["KC", "6C", "AB", "3B", "QB", "4D", "5S", "7D"],
    ["4C", "2B", "4S", "AD", "3D", "JS", "6S", "5D"],
    ["5C", "7B", "5B", "KD", "QD", "3S", "7S", "6D"],
    ["2C", "4B", "6B", "JB", "KB", "JD", "QS", "2S"],
]
#: The most a seat can win or lose in a deal without cappotto (alone: 4), plus the card-point
#: margin's share of the utility read as game points.
BOUND = 6.0


@pytest.fixture(scope="module")
def rules():
    return make_rules("chiamata", None, 5, {})


def deal(rules):
    return rules.state_from_deal(
        {"event": "deal", "number": 1, "dealer": 4, "hands": HANDS, "table": [], "stock": [], "trump": None}
    )


def at_the_call(rules):
    """Seat 0 has won the auction with a King and is to call."""
    state = deal(rules)
    for action in (bid("A"), bid("3"), PASS, PASS, PASS, bid("K"), PASS):
        rules.apply(state, action)
    assert state.phase == "call" and state.to_act == 0
    return state


def test_the_auction_is_played_out_not_read_from_the_bidding_rules(rules):
    assert load_coach("chiamata").exact is not None
    state = deal(rules)
    view = rules.view(state, 0)
    legal = rules.legal_actions(state)
    d = analyse_position(rules, view, legal, bid("2"), 0, 0, budget=240)
    assert d.method == "flat"
    assert all(abs(m.points) <= BOUND for m in d.values)
    # Played out, the values differ from move to move (the bidding rules' 1 against -1 would
    # give every move but one the same value).
    assert len({round(m.points, 6) for m in d.values}) > 2


def test_the_call_is_played_out_and_calling_alone_is_explained(rules):
    state = at_the_call(rules)
    view = rules.view(state, 0)
    legal = rules.legal_actions(state)
    assert {str(a) for a in legal} == {f"call (card K{s})" for s in "DCSB"}
    d = analyse_position(rules, view, legal, call(card("KS")), 0, 7, budget=240)
    assert d.method == "flat" and all(abs(m.points) <= BOUND for m in d.values)
    # Five Cups with the King of Cups called against two Swords alone: the lesson's call is
    # best, going alone a blunder, and the reason says so with the value lost.
    assert d.best == call(card("KC")) and d.klass == "blunder"
    assert d.reason is not None and d.reason[0] == "coach.reason.chiamata.calls_alone"
    assert d.reason[1]["loss"] == round(d.loss, 1) > 1.0


def test_each_worse_speech_has_its_reason_from_the_hand(rules):
    view = rules.view(deal(rules), 0)
    r = speech_reason(rules, view, bid("3"), PASS)
    assert r == ("coach.reason.chiamata.overbid", {"ranks": ["3"], "count": 5, "loss": None})
    r = speech_reason(rules, view, PASS, bid("A"))
    assert r == ("coach.reason.chiamata.underbid", {"count": 5, "suit": "C", "move": bid("A"), "loss": None})
    r = speech_reason(rules, view, bid("2", 75), PASS)
    assert r == ("coach.reason.chiamata.overbid_points", {"ranks": ["2"], "count": 5, "points": 75, "loss": None})
    assert (speech_reason(rules, view, bid("2"), bid("A")) or ("",))[0] == "coach.reason.chiamata.too_low"
    assert (speech_reason(rules, view, bid("A"), bid("K")) or ("",))[0] == "coach.reason.chiamata.too_high"
    view = rules.view(at_the_call(rules), 0)
    r = speech_reason(rules, view, call(card("KS")), call(card("KC")))
    assert r == ("coach.reason.chiamata.calls_alone", {"card": "KS", "move": call(card("KC")), "loss": None})
    r = speech_reason(rules, view, call(card("KD")), call(card("KC")))
    assert r == (
        "coach.reason.chiamata.calls_short",
        {"card": "KD", "count": 1, "move": call(card("KC")), "loss": None},
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_reasons_state_the_value_lost_in_every_language(rules, lang):
    state = deal(rules)
    view = rules.view(state, 0)
    legal = rules.legal_actions(state)
    words = Words(I18n(lang).t, rules, lang, 0)
    reason = explain(rules, view, legal, bid("3"), PASS, 1.64, "blunder")
    assert reason == ("coach.reason.chiamata.overbid", {"ranks": ["3"], "count": 5, "loss": 1.6})
    text = words.reason(reason)
    if lang == "en":
        assert text == "bidding 3 with at most 5 trumps of your own lost 1.6 game points on average: passing was better"
    points = explain(rules, view, legal, bid("2", 75), PASS, 2.26, "blunder")
    assert "75" in words.reason(points) and "2.3" in words.reason(points)
    cases = [
        points,
        explain(rules, view, legal, PASS, bid("A"), 0.84, "mistake"),
        explain(rules, view, legal, bid("2"), bid("A"), 0.5, "mistake"),
        explain(rules, view, legal, bid("A"), bid("K"), 0.5, "mistake"),
    ]
    call_view = rules.view(at_the_call(rules), 0)
    calls = rules.legal_actions(at_the_call(rules))
    cases += [
        explain(rules, call_view, calls, call(card("KS")), call(card("KC")), 2.0, "blunder"),
        explain(rules, call_view, calls, call(card("KD")), call(card("KC")), 2.0, "blunder"),
    ]
    for r in [reason, *cases]:
        assert r is not None and r[0].startswith("coach.reason.chiamata.")
        text = words.reason(r)
        assert "{" not in text and "coach.reason" not in text and str(r[1]["loss"]) in text, text
    assert words.card("KS") in words.reason(cases[4])
    # A bid at points is named with its points wherever a move is named.
    assert words.move(bid("2", 75)) != words.move(bid("2", 76))


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    rules = make_rules("chiamata", None, 5, {})
    for seed in range(1, 40):  # a deal with a call (one that all five pass has no play)
        events = Match(rules, seed, [make_bot("greedy", rules, s, seed) for s in range(5)], deals=1).run()
        if any(e["event"] == "call" for e in events):
            break
    path = tmp_path_factory.mktemp("chiamata") / "deal.jsonl"
    write_record(path, events)
    return path


def test_main_analyse_reads_a_chiamata_record(record, capsys):
    events = [json.loads(x) for x in record.read_text().splitlines()]
    caller = next(e["seat"] for e in events if e["event"] == "call")
    assert cli.main(["analyse", str(record), "--seat", str(caller), "--budget", "24", "--json", "--lang", "it"]) == 0
    *decisions, summary = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    mine = [e for e in events if e.get("seat") == caller and e["event"] in ("bid", "pass", "call", "play")]
    assert summary["decisions"] == len(decisions) == len(mine)
    played = [d["played"] for d in decisions]
    assert any(p.startswith("bid") for p in played) and any(p.startswith("call") for p in played)
    for d in decisions:
        assert 0 <= d["loss"] <= 2 * BOUND and "{" not in d["reason"]
