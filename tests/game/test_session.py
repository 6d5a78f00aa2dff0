"""The window's match session: bots in a worker thread, human submissions, save and resume."""
from __future__ import annotations

import json
import time

import pytest

from game.rules.base import IllegalAction
from game.session import Session
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
        s.submit(legal[0].__class__("play", other, (), False))
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
