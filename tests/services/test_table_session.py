"""The sessions behind a table declare what they offer: every kind is a TableSession, and its
capabilities — not its class — say what the table may show (undo, suggest, chat …)."""

from __future__ import annotations

from game.online.client.client import RemoteSession
from game.services.session import Session
from game.services.table_session import LOCAL, ONLINE, RECORD, RecordSession, TableSession


def _sessions():
    local = Session.new("scopa", None, 2, None, 5, threaded=False)
    remote = RemoteSession("ws://127.0.0.1:9", "ABCDEFGHJK", "Ann", connect=False)
    record = RecordSession(local.rules, 1, [{"event": "match"}])
    return local, remote, record


def test_every_kind_of_session_is_a_table_session_with_its_capabilities():
    local, remote, record = _sessions()
    for s in (local, remote, record):
        assert isinstance(s, TableSession), type(s).__name__
    assert local.capabilities is LOCAL and remote.capabilities is ONLINE and record.capabilities is RECORD
    assert LOCAL.undo and LOCAL.suggest and LOCAL.save and LOCAL.statistics and LOCAL.replays and not LOCAL.chat
    assert ONLINE.chat and ONLINE.streamed and ONLINE.given_names and not (ONLINE.undo or ONLINE.save)
    assert ONLINE.again == "another_table" and LOCAL.again == "rematch"
    assert not any((RECORD.undo, RECORD.suggest, RECORD.save, RECORD.chat, RECORD.streamed))


def test_a_record_session_has_nothing_to_decide():
    _, _, record = _sessions()
    assert record.over and not record.human_to_act and record.to_act is None and not record.thinking
    assert record.legal_actions() == [] and record.take_events() == [] and not record.poll() and not record.undo()
    assert record.match.events == [{"event": "match"}] and record.human_seat == 1 and record.seat_names() == {}
