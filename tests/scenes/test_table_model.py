"""The table model, fed the events of real simulated matches (every registered game, every
player count), says after every decision what the rules' own state says: hands, table,
trick, stock and turned card, piles, bonuses, card points, marriages and totals. And the
model module never imports pygame."""

from __future__ import annotations

import ast
import inspect

import pytest

from game.ai.bots import make_bot
from game.config import get_config
from game.match import Match
from game.rulesets import game_ids, make_rules
from scenes.table import model as M


def _cases():
    cfg = get_config()
    for gid in game_ids():
        for n in cfg.games[gid].players:
            for seed in (1, 2):
                yield gid, n, seed


def _codes(cards) -> list[str]:
    return sorted(c.code for c in cards)


def _current_trick(state, players: int) -> list[str]:
    """The cards of the trick in progress, from the public history of plays."""
    history = getattr(state, "history", None) or []
    k = len(history) % players
    return sorted(h[1].code for h in history[len(history) - k :]) if k else []


def check(m: M.TableModel, state, rules, totals: list[int], where: str) -> None:
    n = rules.players
    for seat in range(n):
        assert sorted(m.hands[seat]) == _codes(state.hands[seat]), f"{where}: hand of seat {seat}"
    assert m.hand == sorted(m.hand, key=m.sort_key), f"{where}: the viewer's hand is in hand order"
    if rules.is_capture_game:
        assert sorted(m.table) == _codes(state.table), f"{where}: table"
        assert m.trick == []
    else:
        assert m.table == []
        assert sorted(c for _, c in m.trick) == _current_trick(state, n), f"{where}: trick"
    stock = getattr(state, "stock", None)
    if stock is not None:
        assert m.stock_count == len(stock), f"{where}: stock"
        if rules.has_trump:
            assert m.trump == (stock[-1].code if stock else None), f"{where}: turned card"
    piles = getattr(state, "piles", None) or getattr(state, "won", None)
    if piles is not None:
        per_team = [0] * rules.teams
        for i, p in enumerate(piles):  # per team in capture games, per seat in trick games
            per_team[i if len(piles) == rules.teams else rules.team_of(i)] += len(p)
        assert m.piles == per_team, f"{where}: piles"
    if hasattr(state, "scope"):
        assert m.bonus_count == list(state.scope), f"{where}: scope"
    if hasattr(state, "bonuses"):
        assert m.bonus_count == [sum(b) for b in state.bonuses], f"{where}: bonuses"
    points = getattr(state, "card_points", None)
    if not isinstance(points, list):
        points = getattr(state, "points", None)
    if isinstance(points, list) and rules.hud_scores != "totals":
        assert m.card_points == points, f"{where}: card points"
    for name in ("declared_points", "pending"):
        if hasattr(state, name):
            assert getattr(m, name) == list(getattr(state, name)), f"{where}: {name}"
    if hasattr(state, "won"):
        assert m.won_cards == [len(w) for w in state.won], f"{where}: won cards"
    if hasattr(state, "closed_by"):
        assert m.closed == (state.closed_by is not None), f"{where}: closed"
    assert m.dealer == state.dealer and m.deal_number == state.number, where
    assert m.totals == list(totals), f"{where}: totals"


@pytest.mark.parametrize("game,players,seed", list(_cases()))
def test_the_model_follows_the_rules_state_through_whole_matches(game, players, seed):
    rules = make_rules(game, None, players)
    bots = [make_bot("random" if s % 2 else "greedy", rules, s, seed + s) for s in range(players)]
    match = Match(rules, seed, bots)
    m = M.new_model(rules, viewer=0)
    for ev in match.start():
        M.apply_event(m, ev)
    check(m, match.state, rules, match.totals, "after the first deal")
    decisions = deals = 0
    while not match.over:
        before, totals_before = match.state, list(match.totals)
        events = match.step_bot()
        decisions += 1
        end = next((i for i, e in enumerate(events) if e["event"] == "deal_end"), None)
        if end is None:
            for ev in events:
                M.apply_event(m, ev)
            check(m, match.state, rules, match.totals, f"decision {decisions}")
            continue
        deals += 1
        for ev in events[:end]:
            M.apply_event(m, ev)
        # The finished deal, before its result: the table still holds what nobody took.
        check(m, before, rules, totals_before, f"end of deal {deals}")
        left = events[end].get("leftover")
        piles = list(m.piles)
        M.apply_event(m, events[end])
        if left and rules.is_capture_game:
            piles[left["team"]] += len(left["cards"])
            assert m.piles == piles and m.table == [], "the leftover goes to the last capturer"
        assert m.totals == events[end]["totals"]
        for ev in events[end + 1 :]:
            M.apply_event(m, ev)
        if not match.over:
            check(m, match.state, rules, match.totals, f"deal {deals + 1} dealt")
    assert m.match_over and m.totals == list(match.totals) and deals >= 1


def test_the_model_never_imports_pygame():
    tree = ast.parse(inspect.getsource(M))
    mods = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    # The standard library, and the rules' class for its type only (pure, no pygame either).
    mods |= {
        n.module if n.module.startswith("game.") else n.module.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module
    }
    assert "pygame" not in mods and mods <= {"__future__", "collections", "dataclasses", "typing", "game.rules.base"}


def test_a_capture_lands_before_it_is_gathered():
    """The steps the animation takes one by one leave the model consistent in between."""
    rules = make_rules("scopa", None, 2)
    m = M.new_model(rules, viewer=0)
    M.start_deal(m, {"dealer": 1, "number": 1, "stock": ["1X"] * 30, "trump": None})
    M.deal_hands(m, [["7D", "KC", "3S"], ["2B", "4B", "JD"]])
    M.deal_table(m, ["7C", "5S"])
    assert m.hand == ["7D", "KC", "3S"] and m.first_seat() == 0
    M.play_card(m, 0, "7D", captures=True)
    assert "7D" not in m.hand and m.table == ["7C", "5S"]
    M.take(m, 0, ["7D", "7C"], ["nonsense", *sorted(rules.counted_bonuses)[:1]])
    assert m.table == ["5S"] and m.piles[0] == 2 and m.bonus_count[0] == min(1, len(rules.counted_bonuses))
    M.play_card(m, 1, "2B")
    assert m.table == ["5S", "2B"] and m.hands[1] == ["4B", "JD"]
