"""The leak property: no event a seat receives names a card that seat may not see then —
and no event a spectator receives names a card that any seat may not see (nobody's hand).

Over seeded matches of every registered game (each player count, default options and each
preset), every decision's events are redacted for every seat (game.online.wire.redact) and every
card code in them must be one the seat may know: the rules' own ``view`` is the oracle —
the cards reachable in the seat's view before and after the decision (the finished deal's
state too, when the decision ended it) and in the view of every deal as dealt
(``state_from_deal``: a voided Scopa deal was seen face up), united with everything the seat
could know earlier (played cards stay known). The view's ``deck`` field is the whole pack,
a reference every view carries, not knowledge: it is left out.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from game.ai.bots import make_bot
from game.cards import Card, is_card_code
from game.config import get_config
from game.match import Match
from game.online.server.spectate import NOBODY, spectator_events
from game.online.wire.redact import SeatRedactor, seat_events
from game.rulesets import game_ids, make_rules

#: View fields that are not what a seat knows (the whole pack, for the bots' bookkeeping).
NOT_KNOWLEDGE = {"deck"}


def view_cards(value: Any, depth: int = 0) -> set[str]:
    """Codes of the Card objects reachable in ``value`` (dataclass fields, containers)."""
    assert depth < 12, "a view nests deeper than expected"
    if isinstance(value, Card):
        return {value.code}
    out: set[str] = set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name not in NOT_KNOWLEDGE:
                out |= view_cards(getattr(value, f.name), depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            out |= view_cards(k, depth + 1) | view_cards(v, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            out |= view_cards(v, depth + 1)
    return out


def named_cards(value: Any) -> set[str]:
    """Every card code a JSON value names (as a text anywhere in it, keys included)."""
    if isinstance(value, str):
        return {value} if is_card_code(value) else set()
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out |= named_cards(k) | named_cards(v)
    elif isinstance(value, list):
        for v in value:
            out |= named_cards(v)
    return out


def has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(has_null(v) for v in value)
    return False


def cases() -> list[tuple[str, int, dict, int]]:
    config = get_config()
    out = []
    for gid in game_ids():
        game = config.game(gid)
        for n in game.players:
            out += [(gid, n, {}, seed) for seed in (1, 2, 3)]
            for preset in game.presets_for(n):
                if preset.options:
                    out.append((gid, n, dict(preset.options), 4))
    return out


def run_checked(gid: str, players: int, options: dict, seed: int, deals: int | None = None) -> dict[str, int]:
    rules = make_rules(gid, None, players, options)
    bots = [make_bot("greedy", rules, s, seed) for s in range(players)]
    m = Match(rules, seed, bots, deals=deals)
    redactors = [SeatRedactor(rules, s) for s in range(players)]
    # A spectator (game.online.server.spectate) may know only what every seat knows: nobody's hand.
    spectator = SeatRedactor(rules, NOBODY)
    watched: list[dict] = []
    known: list[set[str]] = [set() for _ in range(players)]
    stream: list[list[dict]] = [[] for _ in range(players)]
    counts = {"hidden": 0, "checked": 0, "spectator_hidden": 0}

    def check(batch: list[dict], states: list[Any]) -> None:
        for ev in batch:
            if ev["event"] == "deal":  # the deal as dealt, seen through the rules' view
                states = [*states, rules.state_from_deal(ev)]
        for seat in range(players):
            for st in states:
                known[seat] |= view_cards(rules.view(st, seat))
            out = redactors[seat].feed(batch)
            stream[seat] += out
            leaked = named_cards(out) - known[seat]
            assert not leaked, (
                f"{gid} {players}p seed {seed}: seat {seat} is sent {sorted(leaked)} "
                f"in {[e for e in out if named_cards(e) & leaked]}"
            )
            counts["checked"] += len(out)
            counts["hidden"] += sum(1 for e in out if has_null(e))
        seen = spectator.feed(batch)
        watched.extend(seen)
        public = set.intersection(*known)
        leaked = named_cards(seen) - public
        assert not leaked, f"{gid} {players}p seed {seed}: a spectator is sent {sorted(leaked)}"
        counts["spectator_hidden"] += sum(1 for e in seen if has_null(e))

    check(m.start(), [m.state])
    while not m.over:
        before = m.state
        bot, view, legal = m.bot_turn()
        batch = m.play(bot.choose(view, legal))
        check(batch, [before] + ([m.state] if m.state is not before else []))
    assert watched == spectator_events(rules, m.events)
    for seat in range(players):
        # The streaming redactor and the one-shot function agree, and nothing else changes.
        assert stream[seat] == seat_events(rules, m.events, seat)
        assert len(stream[seat]) == len(m.events)
        for got, ev in zip(stream[seat], m.events):
            assert got["event"] == ev["event"]
            if ev["event"] in ("play", "trick", "deal_end", "match_end"):
                assert got == ev
    return counts


@pytest.mark.parametrize("gid,players,options,seed", cases(), ids=lambda v: v if isinstance(v, str) else None)
def test_no_seat_is_sent_a_card_it_may_not_see(gid, players, options, seed):
    counts = run_checked(gid, players, options, seed)
    assert counts["checked"] > 0
    assert counts["hidden"] > 0, "nothing was hidden: the check would pass vacuously"
    assert counts["spectator_hidden"] > 0


def test_own_hand_and_face_up_card_stay_and_the_seed_goes():
    config = get_config()
    for gid in game_ids():
        for n in config.game(gid).players:
            rules = make_rules(gid, None, n)
            m = Match(rules, 7)
            events = m.start()
            for seat in range(n):
                got = seat_events(rules, events, seat)
                assert got[0]["seed"] is None and events[0]["seed"] == 7
                deal = next(e for e in got if e["event"] == "deal")
                real = next(e for e in events if e["event"] == "deal")
                assert deal["hands"][seat] == real["hands"][seat]
                for other in range(n):
                    if other != seat:
                        assert deal["hands"][other] == [None] * len(real["hands"][other])
                assert deal["table"] == real["table"]
                assert len(deal["stock"]) == len(real["stock"])
                if rules.has_trump and real["stock"]:
                    assert deal["stock"][-1] == real["stock"][-1] == real["trump"]
                    assert deal["stock"][:-1] == [None] * (len(real["stock"]) - 1)
                else:
                    assert deal["stock"] == [None] * len(real["stock"])


def daily_cases() -> list[tuple[str, str]]:
    from game.services.daily import presets_of

    return [(gid, p) for gid in game_ids() for p in presets_of(gid)]


@pytest.mark.parametrize("gid,preset", daily_cases())
def test_a_server_daily_deal_sends_no_hidden_card_and_no_seed(gid, preset, tmp_path):
    """The club server's daily deal (game.online.server.daily): its table deals a 256-bit secret
    seed, its first deal only; every seat's stream keeps the property above, and neither the
    seed nor anything but its commitment is in what a client may be sent while the day is open."""
    import datetime as dt

    from game.online.server.daily import DailyBoard

    board = DailyBoard(tmp_path)
    today = dt.date.today()
    deal, word = board.rules_deal(today.isoformat(), gid, preset)
    counts = run_checked(gid, deal.players, dict(deal.options), deal.seed, deals=1)
    assert counts["checked"] > 0 and counts["hidden"] > 0
    rules = deal.rules()
    events = Match(rules, deal.seed, [make_bot("greedy", rules, s, 1) for s in range(rules.players)], deals=1).run()
    for seat in range(rules.players):
        got = seat_events(rules, events, seat)
        assert got[0]["seed"] is None and got[0]["deals"] == 1
        assert str(deal.seed) not in str(got)
    info = board.public(today.isoformat(), gid, preset, dt.datetime.now())
    assert info["seed"] is None and info["nonce"] is None and str(deal.seed) not in str(info)
