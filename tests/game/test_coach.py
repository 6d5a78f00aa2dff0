"""The coach (game.coach): hand-built positions whose class is known, exact endgame values, the
analysis never reading a hidden card, and the same record always giving the same analysis.

Budgets are small (tens of iterations): the class of the hand-built positions comes from the
games' exact solvers, which the budget does not touch."""

from __future__ import annotations

import random

import pytest

from game.ai.bots import make_bot
from game.ai.hooks import load_hooks
from game.ai.search import solve_exact
from game.cards import card
from game.coach.analysis import (
    CoachError,
    analyse_events,
    analyse_position,
    classify,
    positions,
    rules_of,
)
from game.match import Match
from game.rules.base import play
from game.rulesets import game_ids, make_rules
from game.verify import verify_events

GAMES = game_ids()


def cards(codes: str) -> list:
    return [card(c) for c in codes.split()]


def one_deal(game: str, players: int | None = None, seed: int = 3, bot: str = "greedy") -> list[dict]:
    rules = make_rules(game, None, players)
    return Match(rules, seed, [make_bot(bot, rules, s, seed) for s in range(rules.players)], deals=1).run()


# ---------------------------------------------------------------------- hand-built positions
def scopa_endgame():
    """Scopa for two, the stock gone: South holds K♠ 4♦, North (unseen, but the only cards
    left) Q♣ 5♣; on the table 3♠ 2♣. Placing the 4 leaves 3 + 2 + 4 = 9: North's Queen sweeps."""
    rules = make_rules("scopa", None, 2)
    s = rules.new_deal(random.Random(1), 1, 1)
    hands = [cards("KS 4D"), cards("QC 5C")]
    table = cards("3S 2C")
    used = set(hands[0] + hands[1] + table)
    rest = [c for c in rules.deck_cards if c not in used]
    s.hands, s.table, s.stock = hands, table, []
    s.piles = [rest[: len(rest) // 2], rest[len(rest) // 2 :]]
    s.scope, s.to_act, s.last_capture_team, s.history = [0, 0], 0, 0, []
    return rules, s


def test_handing_a_sure_sweep_is_a_blunder_and_the_reason_says_who_sweeps():
    rules, s = scopa_endgame()
    view, legal = rules.view(s, 0), rules.legal_actions(s)
    bad = analyse_position(rules, view, legal, play("4D"), seat=0, index=0, budget=20)
    assert bad.method == "exact"
    assert bad.best == play("KS") and bad.klass == "blunder"
    assert bad.loss >= rules.game.coach["blunder"]
    assert bad.reason == ("coach.reason.leaves_sweep", {"total": 9, "seat": 1, "ranks": ["Q"], "count": 1})
    good = analyse_position(rules, view, legal, play("KS"), seat=0, index=0, budget=20)
    assert good.klass == "best" and good.loss == 0.0 and good.best == play("KS")


def test_the_only_legal_move_is_best_in_every_game():
    for game in GAMES:
        rules = make_rules(game)
        forced = []
        for seed in range(1, 30):  # a short Schnapsen deal may have no forced move
            forced = [p for p in positions(rules, one_deal(game, seed=seed), 0) if len(p.legal) == 1]
            if forced:
                break
        assert forced, game
        d = analyse_position(rules, forced[0].view, forced[0].legal, forced[0].played, 0, forced[0].index)
        assert (d.klass, d.method, d.loss, d.best) == ("best", "forced", 0.0, forced[0].played)
        assert d.reason == ("suggest.reason.only_move", {})


def briscola_endgame():
    """Briscola for two, the stock gone, Coins trumps: North led the Ace of Cups; South holds
    the 2 of Coins (a trump) and the 4 of Swords, North the 5 of Batons."""
    rules = make_rules("briscola", None, 2, {"format": "single"})
    s = rules.new_deal(random.Random(1), 1, 1)
    hands = [cards("2D 4S"), cards("5B")]
    led = card("AC")
    rest = [c for c in rules.deck_cards if c not in set(hands[0] + hands[1] + [led])]
    piles = [rest[0::2], rest[1::2]]
    s.hands, s.stock, s.piles, s.led, s.following = hands, [], piles, led, []
    s.trump_card, s.trump_suit, s.trump_drawn_by = card("7D") if card("7D") in rest else rest[0], "D", 1
    s.points = [sum(rules.card_points[c] for c in p) for p in piles]
    s.history = [(i % 2, c) for i, c in enumerate(rest)] + [(1, led)]
    s.to_act = 0
    return rules, s


def test_briscola_endgame_values_are_the_solvers_and_letting_the_ace_go_is_named():
    rules, s = briscola_endgame()
    view, legal = rules.view(s, 0), rules.legal_actions(s)
    d = analyse_position(rules, view, legal, play("4S"), seat=0, index=0, budget=20)
    assert d.method == "exact" and d.best == play("2D")
    # Exact: the engine's own max-n search on the true state gives the same values.
    truth = solve_exact(rules, s, 0)
    for m in d.values:
        assert m.points == pytest.approx(truth[m.action] * 120.0)
    assert d.loss == pytest.approx((truth[play("2D")] - truth[play("4S")]) * 120.0)
    assert d.klass in ("mistake", "blunder")
    assert d.reason[0] == "coach.reason.lets_go" and d.reason[1]["points"] == 11


def test_schnapsen_endgame_values_are_exact():
    rules = make_rules("schnapsen")
    for seed in range(1, 40):
        events = one_deal("schnapsen", seed=seed)
        late = [p for p in positions(rules, events, 0) if p.view.stock_count == 0 and len(p.legal) > 1]
        if late:
            break
    assert late
    p = late[0]
    d = analyse_position(rules, p.view, p.legal, p.played, 0, p.index, budget=20)
    assert d.method == "exact"
    truth = solve_exact(rules, p.state, 0)  # the engine, with the true hidden cards
    scale = 3.0
    best_truth = max(truth.values())
    assert d.value_of(d.best) == pytest.approx(best_truth * scale, abs=0.1)  # the tiebreak aside
    assert d.loss == pytest.approx((best_truth - truth[p.played]) * scale, abs=0.1)


def test_classes_follow_the_thresholds():
    th = {"inaccuracy": 1.0, "mistake": 2.0, "blunder": 4.0}
    assert [classify(x, th, False) for x in (0.0, 0.5, 1.0, 2.5, 4.0)] == [
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert classify(9.0, th, True) == "best"
    for game in GAMES:
        t = make_rules(game).game.coach
        assert 0 < t["inaccuracy"] < t["mistake"] < t["blunder"]


# ---------------------------------------------------------------------- never a hidden card
@pytest.mark.parametrize("game", GAMES)
def test_the_analysis_reads_only_the_seats_view(game):
    """Each decision analysed from the true state and from another state that looks the same to
    the seat (the hidden cards dealt again by the game's own determinizer) gives one analysis."""
    rules = make_rules(game)
    events = one_deal(game, seed=5)
    hooks = load_hooks(game)
    checked = 0
    for p in positions(rules, events, 0):
        if len(p.legal) < 2 or checked >= 2:
            continue
        other = hooks.determinize(rules, p.view, random.Random(99))
        assert rules.view(other, 0) == p.view
        a = analyse_position(rules, p.view, p.legal, p.played, 0, p.index, p.deal, budget=24)
        b = analyse_position(
            rules, rules.view(other, 0), rules.legal_actions(other), p.played, 0, p.index, p.deal, budget=24
        )
        assert a == b
        checked += 1
    assert checked == 2


def _permuted(events: list[dict], unseen: set) -> list[dict] | None:
    """The record with the cards the seat never saw swapped among their places (in the deal
    line and the draws of the other seat), or None when the referee refuses the result."""
    order = sorted(unseen, key=lambda c: c.index)
    swap = {a.code: b.code for a, b in zip(order, order[1:] + order[:1])}

    def sub(x):
        if isinstance(x, str):
            return swap.get(x, x)
        if isinstance(x, list):
            return [sub(y) for y in x]
        return x

    out = [dict(events[0])]
    for ev in events[1:]:
        ev = dict(ev)
        if ev["event"] == "deal":
            ev["hands"] = sub(ev["hands"])
            ev["stock"] = sub(ev["stock"])
        elif ev["event"] == "draw" and ev["seat"] != 0:
            ev["card"] = sub(ev["card"])
        out.append(ev)
    return out if verify_events(out).ok else None


def test_permuting_the_cards_the_seat_never_saw_changes_nothing():
    """Schnapsen deals often end with cards nobody showed (the stock, the opponent's last
    cards): swapped round in the record (deal line and the opponent's draws), the record is
    another one that the referee accepts, and the seat's analysis is the same."""
    rules = make_rules("schnapsen")
    found = 0
    for seed in range(1, 60):
        events = one_deal("schnapsen", seed=seed)
        last = list(positions(rules, events, 0))[-1]
        unseen = set(last.view.unseen) - set(last.view.known_opponent)
        if len(unseen) < 3:
            continue
        other = _permuted(events, unseen)
        if other is None or other == events:
            continue
        a = analyse_events(events, 0, budget=30)
        b = analyse_events(other, 0, budget=30)
        assert a.decisions == b.decisions
        found += 1
        if found == 2:
            break
    assert found == 2


# ---------------------------------------------------------------------- determinism, errors
def test_the_same_record_gives_the_same_analysis():
    events = one_deal("briscola", seed=8)
    a = analyse_events(events, 1, budget=40)
    b = analyse_events(events, 1, budget=40)
    assert a.decisions == b.decisions and len(a.decisions) == 20
    assert all(d.loss >= 0 for d in a.decisions)
    c = analyse_events(events, 1, budget=40, seed=2)
    assert [d.index for d in c.decisions] == [d.index for d in a.decisions]


def test_a_seat_the_record_does_not_have_is_refused():
    events = one_deal("scopa")
    with pytest.raises(CoachError, match="not a seat"):
        analyse_events(events, 2)
    with pytest.raises(CoachError, match="not a seat"):
        analyse_events(events, True)
    with pytest.raises(CoachError):
        rules_of([{"event": "deal"}])


def test_progress_is_told_and_a_stop_keeps_what_was_done():
    events = one_deal("tressette", seed=2)
    told = []
    stop = [False]

    def progress(done, total):
        told.append((done, total))
        stop[0] = done >= 3

    a = analyse_events(events, 0, budget=12, progress=progress, should_stop=lambda: stop[0])
    assert not a.complete and len(a.decisions) == 3 and told[-1][0] == 3 and told[0] == (0, told[1][1])


def test_the_records_decisions_rebuild_the_match():
    from game.coach.analysis import decisions_of

    rules = make_rules("schnapsen")
    bots = [make_bot("greedy", rules, s, 4) for s in range(2)]
    m = Match(rules, 4, bots)
    events = m.run()
    found = decisions_of(rules, events)
    assert len(found) == len(m.decisions) and [s for s, _ in found] == [s for s, _ in m.decisions]
    # (A marriage that reaches 66 ends the deal before its card is played: the record cannot
    # say whether the King or the Queen, and either gives the same match.)
    assert Match.rebuild(rules, 4, found).events == events
    assert Match.rebuild(rules, 4, found[:7]).events == Match.rebuild(rules, 4, m.decisions[:7]).events
