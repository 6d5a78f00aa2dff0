"""The window's match session: bots in a worker thread, human submissions, save and resume."""

from __future__ import annotations

import json
import time

import pytest

from game.ai import levels
from game.config import get_config
from game.match import Match
from game.rules.base import IllegalAction
from game.rulesets import game_ids, make_rules
from game.services.session import Session
from game.verify import verify_events


def drive(s: Session, chooser=None, limit=20000):
    """Run the session to the end; the human plays the first legal action (or chooser's)."""
    s.start()
    for _ in range(limit):
        if s.over:
            return
        if s.human_to_act:
            legal = s.legal_actions()
            s.submit(chooser(legal) if chooser else legal[0])
        elif not s.poll():
            time.sleep(0.0005)
    raise AssertionError("the session did not finish")


@pytest.mark.parametrize("threaded", [False, True])
def test_whole_match_with_a_human_seat_verifies(threaded):
    s = Session.new("scopa", "piacentine", 2, None, seed=3, human_seat=0, threaded=threaded)
    drive(s)
    assert s.over and verify_events(s.match.events).ok
    assert s.take_events()[0]["event"] == "match"


def test_illegal_human_action_is_refused_and_nothing_changes():
    s = Session.new("scopa", "piacentine", 2, None, seed=5, human_seat=1, threaded=False)
    s.start()
    while not s.human_to_act:
        s.poll()
    before = json.dumps(s.match.events)
    legal = s.legal_actions()
    hand = s.view().hand
    other = next(c for c in s.rules.cards if c not in hand)
    with pytest.raises(IllegalAction):
        s.submit(legal[0].__class__("play", other))
    assert json.dumps(s.match.events) == before


def test_save_and_resume_restores_the_same_position():
    s = Session.new("scopa", "piacentine", 4, {"target": 11}, seed=11, human_seat=0, threaded=False)
    s.start()
    for _ in range(30):
        if s.human_to_act:
            s.submit(s.legal_actions()[-1])
        else:
            s.poll()
    saved = json.loads(json.dumps(s.to_save()))
    r = Session.from_save(saved, threaded=False)
    assert r.match.events == s.match.events
    assert r.to_act == s.to_act and r.match.totals == s.match.totals
    assert r.view(0) == s.view(0)
    drive_rest = r
    while not drive_rest.over:
        if drive_rest.human_to_act:
            drive_rest.submit(drive_rest.legal_actions()[0])
        else:
            drive_rest.poll()
    assert verify_events(drive_rest.match.events).ok


def test_resume_rejects_a_tampered_save():
    s = Session.new("scopa", "piacentine", 2, None, seed=2, human_seat=0, threaded=False)
    s.start()
    saved = s.to_save()
    saved["events"][1]["hands"][0][0] = "7D" if saved["events"][1]["hands"][0][0] != "7D" else "6D"
    with pytest.raises(ValueError):
        Session.from_save(saved, threaded=False)
    with pytest.raises(ValueError):
        Session.from_save({"game": "scopa"}, threaded=False)


def test_partner_seat_uses_partner_bot():
    s = Session.new("scopa", None, 4, None, seed=1, human_seat=0, bot_name="random")
    assert s.match.bots[0] is None
    assert [type(b).__name__ for b in s.match.bots[1:]] == ["RandomBot"] * 3


# ---------------------------------------------------------------- replayable sessions
def _match_options(game: str) -> dict:
    """Options that make the game a match of several deals when it can be one (rebuilds must
    cross deal boundaries)."""
    fmt = get_config().game(game).options.get("format")
    return {"format": "match"} if fmt is not None and "match" in fmt.allowed else {}


def _uncapped(s: Session) -> Session:
    """Bots decide by their iteration budget alone: the same work on any machine, so the same
    choices (a time cap would let a loaded machine decide otherwise)."""
    for bot in s.match.bots:
        if bot is not None and hasattr(bot, "time_cap"):
            bot.time_cap = None
    return s


def _advance(s: Session, decisions: int) -> set[int]:
    """Let the bots (and a human playing the last legal action) reach ``decisions`` decisions
    or the end; the deal starts (decision indices) seen on the way."""
    starts = {s.match.deal_start}
    while len(s.match.decisions) < decisions and not s.over:
        if s.human_to_act:
            s.submit(s.legal_actions()[-1])
        else:
            assert s.poll()
        starts.add(s.match.deal_start)
    return starts


def _bot_session(game: str, bot: str, seed: int) -> Session:
    rules = make_rules(game, None, None, _match_options(game))
    return _uncapped(Session(rules, seed, human_seat=None, bot_name=bot, threaded=False))


@pytest.mark.parametrize("game", game_ids())
def test_the_match_keeps_its_decisions_and_they_rebuild_it(game):
    s = _bot_session(game, "greedy", 21)
    s.start()
    _advance(s, 10**6)
    assert s.over and s.decisions
    # The decisions read back from the record are the match's, seat by seat (a Schnapsen
    # marriage that ends the deal at once records no lead: either of its cards stands for it).
    resumed = Session.from_save(json.loads(json.dumps(s.to_save())), threaded=False)
    assert [seat for seat, _ in resumed.decisions] == [seat for seat, _ in s.decisions]
    assert sum(a != b for (_, a), (_, b) in zip(resumed.decisions, s.decisions)) <= s.match.deal_number
    assert Match.rebuild(s.rules, 21, resumed.decisions).events == s.match.events
    again = Match.rebuild(s.rules, 21, s.decisions)
    assert again.events == s.match.events and again.over and again.totals == s.match.totals


@pytest.mark.parametrize("bot", ["greedy", "easy"])
@pytest.mark.parametrize("game", game_ids())
def test_a_session_rebuilt_at_any_decision_plays_on_identically(game, bot, monkeypatch):
    """Play to decision k; rebuild from the first j < k decisions and let the bots continue:
    the same events, because the bots' randomness is per decision (seed, seat, number)."""
    monkeypatch.setattr(levels.EasyBot, "ITERATIONS", 12)  # the same code path, in seconds
    first = _bot_session(game, bot, 5)
    first.start()
    # Greedy: the whole match (over several deals where the game has them); easy: a part.
    deal_starts = _advance(first, 10**6 if bot == "greedy" else 16)
    k = len(first.decisions)
    points = (
        {0, 1, k // 3, k // 2, k - 1} | {d for d in deal_starts if d < k} | {d + 1 for d in deal_starts if d + 1 < k}
    )
    for j in sorted(points):
        again = _uncapped(
            Session.rebuild(first.rules, 5, first.decisions[:j], human_seat=None, bot_name=bot, threaded=False)
        )
        assert again.take_events() == [] and len(again.decisions) == j
        _advance(again, k)
        assert again.match.events == first.match.events, f"rebuilt at decision {j} of {k}, the bots played otherwise"


def test_a_resumed_save_plays_on_as_the_original_would_have():
    first = Session.new("scopa", None, 2, None, seed=13, human_seat=0, bot_name="greedy", threaded=False)
    first.start()
    _advance(first, 9)
    saved = json.loads(json.dumps(first.to_save()))
    _advance(first, 30)
    resumed = Session.from_save(saved, threaded=False)
    _advance(resumed, 30)
    assert resumed.match.events == first.match.events


def test_rebuild_refuses_decisions_that_do_not_replay():
    s = _bot_session("scopa", "greedy", 3)
    s.start()
    _advance(s, 4)
    decisions = s.decisions
    wrong_seat = [(1 - decisions[0][0], decisions[0][1])] + decisions[1:]
    with pytest.raises(ValueError, match="is to act"):
        Session.rebuild(s.rules, 3, wrong_seat, human_seat=None)
    with pytest.raises(IllegalAction):
        Session.rebuild(s.rules, 3, [decisions[0], (decisions[1][0], decisions[0][1])], human_seat=None)
    with pytest.raises(ValueError, match="cannot rewind"):
        s.truncate_to(len(decisions) + 1)


def _to_second_human_decision(s: Session) -> None:
    """Play (the human taking the last legal action) until the human is to act, having
    decided at least twice in the current deal."""
    s.start()
    while True:
        assert not s.over, "the match ended before the human decided twice in a deal"
        if s.human_to_act:
            mine = [i for i in range(s.match.deal_start, len(s.decisions)) if s.decisions[i][0] == s.human_seat]
            if len(mine) >= 2:
                return
            s.submit(s.legal_actions()[-1])
        else:
            assert s.poll()


@pytest.mark.parametrize("bot", ["greedy", "easy"])
@pytest.mark.parametrize("game", game_ids())
def test_undo_then_the_same_decision_gives_the_same_record(game, bot, monkeypatch):
    """Undo takes back the human's last decision and the bots' plays after it; deciding the
    same again, the bots answer as before: the record the match had without the undo."""
    monkeypatch.setattr(levels.EasyBot, "ITERATIONS", 40)
    rules = make_rules(game)
    plain = _uncapped(Session(rules, 8, human_seat=0, bot_name=bot, threaded=False))
    _to_second_human_decision(plain)
    k = len(plain.decisions)
    last = max(i for i, (seat, _) in enumerate(plain.decisions) if seat == 0)
    undone = _uncapped(Session.rebuild(rules, 8, plain.decisions, human_seat=0, bot_name=bot, threaded=False))
    assert undone.undo_point() == last
    assert undone.undo() is True
    assert undone.match.events == Match.rebuild(rules, 8, plain.decisions[:last]).events
    assert undone.human_to_act and undone.undos == 1 and undone.rewinds == 1 and undone.take_events() == []
    undone.submit(plain.decisions[last][1])
    _advance(undone, k)
    assert undone.match.events == plain.match.events
    # The count survives a save (an undone match counts as practice).
    assert Session.from_save(json.loads(json.dumps(undone.to_save())), threaded=False).undos == 1


def test_undo_stays_within_the_deal_and_needs_a_human_decision():
    s = Session.new("scopa", None, 2, None, seed=4, human_seat=1, bot_name="greedy", threaded=False)
    s.start()
    assert s.undo() is False  # nothing decided yet
    while s.match.deal_number < 2:
        if s.human_to_act:
            s.submit(s.legal_actions()[0])
        else:
            s.poll()
    while not s.human_to_act:
        s.poll()
    # The second deal has begun and the human has not decided in it yet: the scored deal stands.
    assert not any(seat == 1 for seat, _ in s.decisions[s.match.deal_start :])
    assert any(seat == 1 for seat, _ in s.decisions)
    before = json.dumps(s.match.events)
    assert s.undo() is False and json.dumps(s.match.events) == before
    s.submit(s.legal_actions()[0])
    assert s.undo() is True and s.human_to_act and json.dumps(s.match.events) == before
    assert Session.new("scopa", None, 2, None, seed=4, human_seat=None).undo() is False


def test_undo_abandons_a_search_in_progress():
    s = Session.new("scopa", None, 2, None, seed=6, human_seat=0, bot_name="hard", threaded=True)
    s.start()
    while not s.human_to_act:
        s.poll()
        time.sleep(0.001)
    before = list(s.match.events)
    s.submit(s.legal_actions()[0])
    s.poll()  # the bot starts thinking in its thread
    assert s.thinking
    assert s.undo() is True
    assert not s.thinking and s.human_to_act and s.match.events == before
    s.close()
