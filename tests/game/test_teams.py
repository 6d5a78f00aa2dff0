"""Teams and seats come from each game's declared TeamsRule: the score columns, a seat's
team and its partners agree with one another at every player count a game lists."""

from __future__ import annotations

import pytest

from game.config import get_config
from game.rules.base import alternate_teams
from game.rulesets import game_ids, make_rules


def cases() -> list[tuple[str, int]]:
    config = get_config()
    return [(gid, n) for gid in game_ids() for n in config.game(gid).players]


@pytest.mark.parametrize("gid,players", cases())
def test_teams_partners_and_columns_agree(gid: str, players: int) -> None:
    rules = make_rules(gid, None, players, {})
    rule = rules.teams_rule
    assert rules.teams == rule.teams(players)
    assert sorted({rules.team_of(s) for s in range(players)}) == list(range(rules.teams))
    for seat in range(players):
        for p in rules.partners_of(seat):
            assert rules.team_of(p) == rules.team_of(seat) and p != seat
        same = {s for s in range(players) if s != seat and rules.team_of(s) == rules.team_of(seat)}
        assert set(rules.partners_of(seat)) == same
    assert rules.partnerships == any(rules.partners_of(s) for s in range(players))


def test_partners_sit_opposite_in_a_four_handed_partnership_game() -> None:
    rules = make_rules("briscola", None, 4, {})
    assert rules.partnerships and rules.teams == 2
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.partners_of(1) == (3,)
    two = make_rules("briscola", None, 2, {})
    assert not two.partnerships and two.teams == 2 and two.partners_of(0) == ()


def test_alternate_teams_seat_every_other_player_together() -> None:
    rule = alternate_teams(6, 3)
    assert rule.partners == ((0, 3), (1, 4), (2, 5))
    assert rule.teams(6) == 3 and rule.team_of(4) == 1


def test_a_view_knows_fixed_teams() -> None:
    rules = make_rules("tressette", None, 4, {})
    state = rules.new_deal(__import__("random").Random(1), 0)
    view = rules.view(state, 0)
    assert [rules.seen_team_of(view, s) for s in range(4)] == [0, 1, 0, 1]
