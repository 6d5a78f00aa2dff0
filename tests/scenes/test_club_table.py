"""A club table: R opens the players panel, the computer playing for a silent player is said,
shown and handed back, a rated match shows its rating change, ratings sit on the plates and
never in the names. The club tables here are real ClubSessions fed the server's messages by
hand (what the server sends is in docs/ONLINE.md); what the table sends back is kept."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.ai.bots import make_bot
from game.match import Match
from game.online.client.clubclient import ClubSession
from game.online.wire import protocol as P
from game.online.wire.redact import seat_events
from game.rulesets import make_rules
from game.services.speech import Speech
from scenes.app import TICK
from scenes.registry import make_scene
from scenes.results import scene as results
from sprites import table_draw, theme
from tests.scenes.test_table import key, make_app


@pytest.fixture(autouse=True)
def normal_text_after():
    yield
    theme.set_text_scale(1.0)  # a test with larger text leaves the others at the usual size


# ---------------------------------------------------------------------- a club table, by hand
SEED = 5


def club_session(
    plates: list[dict] | None = None, seats: list[dict] | None = None, game: str = "briscola", chat: bool = False
) -> tuple[ClubSession, Match]:
    """Seat 0 ("Lucia") of a two-seat club table whose match has begun: the session has had
    the server's greeting, lobby, stream and turn; its ``sent`` keeps what the table sends."""
    rules = make_rules(game, None, 2)
    m = Match(rules, SEED)
    events = m.start()
    s = ClubSession(
        "ws://127.0.0.1:7420", P.CODE_ALPHABET[: P.CODE_LENGTH], "Lucia", None, "0" * 32, plates=plates, connect=False
    )
    s.sent = []  # type: ignore[attr-defined]
    s.conn.send = lambda msg: s.sent.append(msg) or True  # type: ignore[method-assign]
    s.chat_allowed = chat
    seats = seats or [{"kind": "friend", "name": "Lucia"}, {"kind": "ai", "name": None, "level": "normal"}]
    feed(
        s,
        {"type": "_open"},
        {"type": "joined", "code": s.code, "seat": 0, "token": "1" * 32},
        {
            "type": "lobby",
            "game": game,
            "deck": rules.deck.id,
            "players": 2,
            "options": {},
            "seats": seats,
            "you": 0,
            "started": True,
        },
        {"type": "events", "from": 0, "events": seat_events(rules, events, 0)},
    )
    turn(s, m)
    return s, m


def feed(session: ClubSession, *messages: dict) -> None:
    for msg in messages:
        session.conn.inbox.put(msg)


def turn(session: ClubSession, m: Match, covered: bool = False) -> None:
    """The server's ``turn``: the legal moves go to the seat whose turn it is, unless the
    computer holds that seat."""
    mine = m.to_act == 0 and not covered
    feed(
        session,
        {
            "type": "turn",
            "seat": m.to_act,
            "decision": len(m.decisions),
            "legal": [P.action_to_json(a) for a in m.legal_actions()] if mine else [],
        },
    )


def play(session: ClubSession, m: Match, action: Any) -> None:
    """A decision made at the server: the seat's view of its events."""
    before = len(m.events)
    m.play(action)
    feed(session, {"type": "events", "from": before, "events": seat_events(m.rules, m.events, 0)[before:]})


def open_club_table(app, session: ClubSession):
    session.poll()  # as the online lobby has, before it hands the seat to the table
    app.open_path("menu")
    scene = make_scene(app, "table", session=session)
    app.stack.push(scene)
    for _ in range(5):
        app.update(TICK)
    return scene


def text_input(app, text: str) -> None:
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=text))


# ---------------------------------------------------------------------- R at a club table
@pytest.mark.parametrize("others", [False, True])
def test_r_opens_the_players_panel_and_types_nothing(others):
    seats = [
        {"kind": "friend", "name": "Lucia"},
        {"kind": "friend", "name": "Bruno"} if others else {"kind": "ai", "name": None, "level": "easy"},
    ]
    app = make_app("en")
    session, _ = club_session(seats=seats, chat=True)
    scene = open_club_table(app, session)
    key(app, pygame.K_r)
    text_input(app, "r")  # SDL sends the letter too, in the same batch of events
    panel = app.stack.top
    assert panel.name == "online_manners"
    assert panel.reason.text == "" and panel.chat_field.text == ""
    assert panel.reason.visible == others  # nobody to report: no reason to write
    app.update(TICK)
    panel.ui.focus(panel.chat_field)
    text_input(app, "ciao")  # typing afterwards types
    assert panel.chat_field.text == "ciao"
    assert scene.online.active


# ---------------------------------------------------------------------- the computer for a silent player
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_computer_playing_for_a_silent_player_is_said_shown_and_handed_back(lang, tmp_path):
    app = make_app(lang)
    app.speech = Speech("off", lang, tmp_path / "speech.txt")
    session, m = club_session()
    scene = open_club_table(app, session)
    assert m.to_act == 0 and scene.controller.can_act
    k = len(m.decisions)
    # Silent for --bot-after seconds: the server's computer takes the seat for this decision.
    feed(session, {"type": "resumed", "seat": 0, "by": "ai", "silent": True})
    turn(session, m, covered=True)
    app.update(TICK)
    covered = app.t("online.covered")
    assert scene.online.notice_text() == covered and covered in app.speech.lines
    assert not scene.controller.can_act
    with theme.measure_text() as measure:
        app.render(1.0)
    assert covered in " ".join(s for s, _, _ in measure.entries)  # drawn (wrapped where long)
    # It plays; the play log and the voice credit the computer, not you.
    action = make_bot("greedy", m.rules, 0, 1).choose(m.view(0), m.legal_actions())
    play(session, m, action)
    feed(session, {"type": "resumed", "seat": 0})  # the decision made: the seat is given back
    turn(session, m)
    for _ in range(30):
        app.update(TICK)
    line = next(ln for ln in scene.motion.narrator.deal.lines if ln.kind == "play")
    card = scene.motion.narrator.card(action.card.code)
    assert line.text == app.t("narrate.lead", name=app.t("narrate.computer_for_you"), card=card)
    assert line.text != app.t("narrate.lead_you", card=card)
    assert line.text in app.speech.lines
    plays = [e for e in session.match.events if e["event"] == "play"]
    assert plays[-1]["seat"] == 0 and plays[-1]["by"] == "computer"  # marked as the server's record marks it
    # Still covered until a key: the table offers no turn of yours yet.
    assert scene.online.notice_text() == covered and not scene.controller.can_act
    sent = len(session.sent)
    key(app, pygame.K_a)  # any key takes over (and reads nothing aloud)
    assert not session.covered and scene.online.notice_text() != covered
    assert app.t("online.took_over") in app.toasts.active
    assert len(session.sent) == sent  # the seat was already given back: nothing to ask
    assert len(m.decisions) == k + 1


def test_a_key_while_the_computer_holds_the_seat_asks_for_it_back_with_no_move():
    app = make_app("en")
    session, m = club_session()
    scene = open_club_table(app, session)
    k = len(m.decisions)
    feed(session, {"type": "resumed", "seat": 0, "by": "ai", "silent": True})
    turn(session, m, covered=True)
    app.update(TICK)
    pygame_click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(640, 300), button=1)
    app.stack.handle(pygame_click)  # a click takes over too
    act = session.sent[-1]
    assert act["type"] == "act" and act["decision"] == k
    P.check_message(act)  # a well-formed act …
    action = P.action_from_json(act["action"])
    assert action not in m.legal_actions()  # … that no rules allow: it can never be played
    # The server had played already: its refusal of that act is no news to the player.
    feed(session, {"type": "refused", "rule": "stale", "params": {}, "decision": k, "message": "stale"})
    app.update(TICK)
    assert scene.refusal is None and session.last_refusal is None
    # Given back (the server's "resumed" without "by"), the turn is the player's again.
    feed(session, {"type": "resumed", "seat": 0})
    turn(session, m)
    for _ in range(5):
        app.update(TICK)
    assert scene.controller.can_act and scene.online.notice_text() is None


def test_a_move_sent_as_the_computer_took_over_counts_as_being_back():
    session, m = club_session()
    session.poll()
    k = len(m.decisions)
    session.submit(m.legal_actions()[0])  # on its way as the server's patience runs out
    feed(
        session, {"type": "resumed", "seat": 0, "by": "ai", "silent": True}, {"type": "resumed", "seat": 0}
    )  # the server took the act as "I am back", not as a move
    turn(session, m)
    session.poll()
    assert not session.covered and session.human_to_act and session.decision == k


def test_a_computer_decision_in_a_record_is_told_as_the_computers():
    from scenes.table.narrate import Narrator

    app = make_app("de")
    rules = make_rules("briscola", None, 2)
    m = Match(rules, SEED)
    m.start()
    seat = m.to_act
    m.play(m.legal_actions()[0])
    n = Narrator(rules, app.t, "de", viewer=1 - seat)
    for ev in m.events:
        n.feed({**ev, "by": "computer"} if ev["event"] == "play" else ev)
    assert n.deal.lines[-1].text.startswith(app.t("narrate.computer_for", name=app.t("table.north")))


# ---------------------------------------------------------------------- the rating on the results
def finished_club_match(app) -> tuple[ClubSession, dict, dict]:
    session, m = club_session(
        plates=[{"name": "Lucia", "rating": 1000, "provisional": True}, {"level": "normal", "rating": 1760}]
    )
    bots = [make_bot("greedy", m.rules, s, 3) for s in range(2)]
    while not m.over:
        m.play(bots[m.to_act].choose(m.view(m.to_act), m.legal_actions()))
    feed(session, {"type": "events", "from": 0, "events": seat_events(m.rules, m.events, 0)})
    session.poll()
    ends = [e for e in session.match.events if e["event"] in ("deal_end", "match_end")]
    return session, ends[-2], ends[-1]


def test_a_rated_club_match_shows_the_rating_change_on_its_results():
    app = make_app("en")
    session, deal_end, match_end = finished_club_match(app)
    app.open_path("menu")
    app.open_scene("results", session=session, deal_end=deal_end, match_end=match_end)
    res = app.stack.top
    assert app.t("club.rating_waiting") in res.model().notes  # the server's word is on its way
    rect = res.rect.copy()
    feed(
        session,
        {
            "type": "rated",
            "game": "briscola",
            "rated": True,
            "result": "won",
            "old": 1000,
            "new": 1012,
            "matches": 1,
            "provisional": True,
        },
        {"type": "over", "record": "/x"},
    )
    app.update(TICK)  # the results screen reads it (the table beneath is not polling)
    line = app.t("club.rated_change", old=1000, new="1012? (+12)")
    assert line in res.model().notes and app.t("club.rating_waiting") not in res.model().notes
    assert res.rect == rect  # the line's room was kept: nothing moves
    with theme.measure_text() as measure:
        app.render(1.0)
    assert line in [s for s, _, _ in measure.entries] or line in [s for s, _, _ in res.text_log]
    session.rated = {
        "type": "rated",
        "rated": True,
        "result": "left",
        "old": 1012,
        "new": 990,
        "matches": 2,
        "provisional": True,
    }
    assert app.t("club.rated_left", old=1012, new="990? (−22)") in res.model().notes
    session.rated = {"type": "rated", "rated": False, "result": "won", "old": None, "new": None}
    assert app.t("club.not_rated") in res.model().notes


def test_a_match_that_is_not_the_clubs_has_no_rating_line():
    app = make_app("en")
    s, de, me = results.demo(app, "briscola", None, 2, True)
    scene = results.ResultsScene(app, s, de, me, standalone=True)
    assert not scene.rating_lines()


# ---------------------------------------------------------------------- ratings on the plates only
def test_club_ratings_sit_on_the_plates_never_in_the_names(monkeypatch):
    app = make_app("en")
    session, m = club_session(
        plates=[
            {"name": "Lucia", "rating": 1000, "provisional": True},
            {"name": "Bot1", "rating": 1105, "provisional": True},
        ],
        seats=[{"kind": "friend", "name": "Lucia"}, {"kind": "friend", "name": "Bot1"}],
    )
    scene = open_club_table(app, session)
    names = scene.names
    assert names.seat_name(0) == app.t("table.you") and names.rating(0) == "1000?"
    assert names.seat_name(1) == "Bot1" and names.rating(1) == "1105?"
    assert scene.motion.narrator.name(1) == "Bot1"  # the captions: "Bot1 deals", never "Bot1 1105? deals"
    deal = next(ln for ln in scene.motion.narrator.deal.lines if ln.kind == "deal")
    assert "1105" not in deal.text and "1000" not in " ".join(ln.text for ln in scene.motion.narrator.deal.lines)
    # The plates: name, rating and count each in a place of their own.
    drawn: list[tuple[str, pygame.Rect]] = []
    real = theme.blit_text

    def record(surface, s, pos, *a, **kw):
        r = real(surface, s, pos, *a, **kw)
        drawn.append((s, r))
        return r

    monkeypatch.setattr(table_draw.theme, "blit_text", record)
    app.render(1.0)
    for seat, name, count in ((0, app.t("table.you"), None), (1, "Bot1", app.t("table.cards_left", count=3))):
        plate = scene.layout.plate(seat)
        mine = [(s, r) for s, r in drawn if plate.contains(r)]
        texts = [s for s, _ in mine]
        assert name in texts and names.rating(seat) in texts, texts
        rects = [r for s, r in mine if s in (name, names.rating(seat), count)]
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :]), mine


def test_a_computers_plate_shows_its_published_rating_and_its_name_stays_the_tables():
    app = make_app("en")
    session, _ = club_session(
        plates=[
            {"name": "Lucia", "rating": 1000, "provisional": True},
            {"name": None, "level": "normal", "rating": 1760},
        ]
    )
    scene = open_club_table(app, session)
    assert scene.names.seat_name(1) == app.t("online.computer_seat", n=2)
    assert scene.names.rating(1) == "1760"
    assert session.seat_names() == {0: "Lucia"}  # the names as chosen, no rating in them
