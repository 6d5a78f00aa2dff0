"""The one replay (game.replay): every game's simulated records walk to the same decisions,
states and totals the match driver made, a record may end where its ending allows, and a
line the rules do not walk names its line and rule."""

from __future__ import annotations

import pytest

from game.ai.bots import make_bot
from game.config import get_config
from game.match import Match
from game.replay import ReplayError, decisions_of, follow, replay
from game.rulesets import game_ids, make_rules


def cases() -> list[tuple[str, int]]:
    config = get_config()
    return [(gid, n) for gid in game_ids() for n in config.game(gid).players]


def simulated(gid: str, players: int, seed: int = 7, deals: int | None = 2) -> Match:
    rules = make_rules(gid, None, players, {})
    bots = [make_bot("random", rules, s, seed) for s in range(players)]
    m = Match(rules, seed, bots, deals=deals)
    m.run()
    return m


@pytest.mark.parametrize("gid,players", cases())
def test_a_record_walks_to_the_matchs_own_decisions_and_totals(gid: str, players: int) -> None:
    m = simulated(gid, players)
    rules = m.rules
    steps = list(replay(rules, m.events, ending="never"))
    assert [s.line for s in steps if s.kind != "decision"] == list(range(1, len(m.events)))
    decisions = [(s.seat, s.action) for s in steps if s.kind == "decision"]
    assert decisions == m.decisions
    assert decisions_of(rules, m.events) == m.decisions
    for s in steps:
        if s.kind in ("consequence", "deal_end"):
            assert s.expected is not None
            assert {k: v for k, v in s.expected.items() if k != "detail"} == {
                k: v for k, v in s.event.items() if k != "detail"
            }
    ends = [s for s in steps if s.kind == "deal_end"]
    assert ends and ends[-1].totals == m.totals
    assert steps[-1].kind == "match_end"


@pytest.mark.parametrize("gid,players", cases())
def test_a_decision_step_shows_the_position_before_the_action(gid: str, players: int) -> None:
    m = simulated(gid, players, seed=3, deals=1)
    rules = m.rules
    for s in replay(rules, m.events):
        if s.kind == "decision":
            assert s.seat == rules.to_act(s.state)
            assert s.action in rules.legal_actions(s.state)


def test_a_record_may_end_where_its_ending_allows() -> None:
    m = simulated("briscola", 2, deals=1)
    rules = m.rules
    cut = m.events[:5]  # match, deal and a few plays: a decision is due or a consequence
    list(replay(rules, cut))  # anywhere: no error
    with pytest.raises(ReplayError) as e:
        list(replay(rules, cut, ending="never"))
    assert e.value.cut_short and e.value.line is None
    prefix = m.events[:2]  # just before the first decision
    assert [s.kind for s in replay(rules, prefix, ending="decision")] == ["deal"]


def test_a_line_the_rules_do_not_walk_names_its_line_and_rule() -> None:
    m = simulated("briscola", 2, deals=1)
    events = [dict(ev) for ev in m.events]
    events[2]["seat"] = 1 - events[2]["seat"]
    with pytest.raises(ReplayError, match="acts, but it is seat") as e:
        list(replay(m.rules, events))
    assert e.value.line == 3 and not e.value.cut_short


def test_follow_plays_a_record_into_a_match_from_its_seed() -> None:
    m = simulated("scopa", 2, seed=11, deals=2)
    again = Match(m.rules, m.seed, deals=2)
    again.start()
    follow(again, m.events[: len(m.events) // 2])
    assert again.events[: len(m.events) // 2] == m.events[: len(m.events) // 2]
    assert again.decisions == m.decisions[: len(again.decisions)]
