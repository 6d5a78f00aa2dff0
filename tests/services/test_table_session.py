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


def test_the_match_each_session_shows_the_table_is_read_alike():
    """``session.match`` (the TableMatch the table reads): the record so far, a count of the
    decisions, the current deal's first decision, the totals, the winner, whether it is over."""
    for s in _sessions():
        m = s.match
        assert isinstance(m.events, list) and len(m.decisions) >= 0 and m.deal_start == 0
        assert isinstance(m.totals, list) and m.winner is None and isinstance(m.over, bool)


def test_the_online_daily_results_read_the_seat_s_answer():
    """OnlineDailyPlay reads the server's answer through the DailyAnswer protocol: the player's
    line, a refusal, a lost connection, or nothing yet."""
    from game.services.challenge import DailyAnswer, OnlineDailyPlay

    class Seat:
        context: object = None
        daily_result: dict[str, object] | None = None
        daily_refusal: tuple[str, str] | None = None
        failed: str | None = None
        polls = 0

        def poll(self) -> bool:
            self.polls += 1
            return False

    def t(key: str, **params: object) -> str:
        return key + "".join(f" {k}={v}" for k, v in sorted(params.items()))

    seat = Seat()
    assert isinstance(seat, DailyAnswer)
    play = OnlineDailyPlay({"hash": "ab" * 20})
    assert play.attach(seat) is seat and seat.context is play
    assert play.lines(t) == ["daily_online.waiting", "daily_online.sealed_short hash=" + "ab" * 8]
    play.poll()
    assert seat.polls == 1
    seat.failed = "gone"
    assert play.lines(t)[0] == "daily_online.lost"
    seat.daily_refusal = ("late", "")
    assert play.lines(t)[0] == "daily_online.refused reason=late"
    seat.daily_result = {"score": 42, "par": 40.3}
    assert play.lines(t, seat)[0] == "daily.result diff=daily.over_par diff=1.7 par=40.3 score=42"
    play.poll()
    assert seat.polls == 1  # answered: nothing more to read
