"""What a seat may see (game.seat_view), over every registered game's declared events: no
card a seat may not know reaches its stream (the rules' ``view`` is the oracle), a
spectator sees nobody's hand, and every seat's stream keeps one line per record line."""

from __future__ import annotations

import pytest

from game.ai.bots import make_bot
from game.config import get_config
from game.match import Match
from game.rulesets import game_ids, make_rules
from game.seat_view import SPECTATOR, SeatStream, may_see, seat_events
from tests.online.wire.test_redact_leak import named_cards as named
from tests.online.wire.test_redact_leak import view_cards


def cases() -> list[tuple[str, int, dict[str, object]]]:
    config = get_config()
    out: list[tuple[str, int, dict[str, object]]] = []
    for gid in game_ids():
        game = config.game(gid)
        for n in game.players:
            out.append((gid, n, {}))
            for preset in game.presets_for(n):
                if preset.options:
                    out.append((gid, n, dict(preset.options)))
    return out


@pytest.mark.parametrize("gid,players,options", cases())
def test_no_viewer_is_shown_a_card_it_may_not_know(gid: str, players: int, options: dict[str, object]) -> None:
    rules = make_rules(gid, None, players, options)
    seed = 5
    m = Match(rules, seed, [make_bot("greedy", rules, s, seed) for s in range(players)], deals=2)
    streams = [SeatStream(rules, s) for s in range(players)]
    spectator = SeatStream(rules, SPECTATOR)
    known: list[set[str]] = [set() for _ in range(players)]

    def check(batch: list[dict], states: list[object]) -> None:
        for ev in batch:
            if ev["event"] == "deal":
                states = [*states, rules.state_from_deal(ev)]
        for seat in range(players):
            for st in states:
                known[seat] |= view_cards(rules.view(st, seat))
            leaked = named(streams[seat].feed(batch)) - known[seat]
            assert not leaked, f"seat {seat} is shown {sorted(leaked)}"
        leaked = named(spectator.feed(batch)) - set.intersection(*known)
        assert not leaked, f"a spectator is shown {sorted(leaked)}"

    check(m.start(), [m.state])
    while not m.over:
        before = m.state
        turn = m.bot_turn()
        assert turn is not None
        bot, view, legal = turn
        batch = m.play(bot.choose(view, legal))
        check(batch, [before] + ([m.state] if m.state is not before else []))
    for seat in [*range(players), SPECTATOR]:
        stream = seat_events(rules, m.events, seat)
        assert [e["event"] for e in stream] == [e["event"] for e in m.events]
        assert stream[0]["seed"] is None
    assert may_see(rules, m.events, 0) >= {c.code for c in m.state.hands[0]}


def test_a_seat_keeps_its_own_hand_and_a_spectator_sees_none() -> None:
    rules = make_rules("briscola", None, 2, {})
    m = Match(rules, 9)
    deal = m.start()[1]
    mine = seat_events(rules, [deal], 0)[0]
    assert mine["hands"][0] == deal["hands"][0]
    assert mine["hands"][1] == [None] * len(deal["hands"][1])
    watched = seat_events(rules, [deal], SPECTATOR)[0]
    assert all(c is None for hand in watched["hands"] for c in hand)
    assert watched["stock"][-1] == deal["stock"][-1]  # the face-up trump is public
