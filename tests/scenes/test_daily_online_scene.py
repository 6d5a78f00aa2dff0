"""A club server's daily deal in the window: from the daily deals screen to the
server's form, today's deal played at a real table against a real server on 127.0.0.1, the
server's line on the results screen, and the day's leaderboard — rank, name, score, par,
over par, time, the player's own line — with the commitment while the day is open and the
seed and nonce (which check out against it) once it is over; by keys and by mouse, and the
texts fit in all four languages. Every wait is bounded."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pygame
import pytest

import game.services.par
from game.config import get_config
from game.online.server.daily import commitment
from game.online.server.serving import start_server_in_thread
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import TICK, App
from scenes.online import daily as online_daily
from scenes.online import daily_board, fields, hosting
from sprites import theme

LIMIT = 90.0
LANGS = ("en", "nl", "de", "it")


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.services.par, "HOUSE_ITERATIONS", 8)


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    monkeypatch.setattr(fields, "copy_text", lambda text: False)
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1)
    yield handle
    handle.stop()


def make_app(lang: str = "en") -> App:
    return App(
        get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False
    )


def press(app: App, key: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.update(TICK)


def type_text(app: App, text: str) -> None:
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.update(TICK)


def click(app: App, widget: Any) -> None:
    pos = widget.rect.center
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(TICK)


def widget(scene: Any, name: str) -> Any:
    return next(w for w in scene.ui.widgets if w.name == name)


def pump(app: App, done, what: str, also=None) -> None:
    deadline = time.monotonic() + LIMIT
    while not done():
        if time.monotonic() > deadline:
            top = app.stack.top
            raise AssertionError(
                f"gave up waiting for {what}: {app.stack.names()} "
                f"({getattr(top, 'problem', None)!r}, {getattr(top, 'status', None)!r})"
            )
        if also is not None:
            also()
        app.update(TICK)
        time.sleep(0.003)


def focus_by_tab(app: App, name: str) -> None:
    for _ in range(12):
        if app.stack.top.ui.focused.name == name:
            return
        press(app, pygame.K_TAB)
    raise AssertionError(f"Tab never reached {name}")


def test_the_servers_daily_deal_and_its_leaderboard_in_the_window(server):
    app = make_app()
    app.open_path("daily", game="briscola")
    app.update(TICK)
    focus_by_tab(app, "online")
    press(app, pygame.K_RETURN)  # the daily screen's "on a club server" button, by keys
    scene = app.stack.top
    assert scene.name == "online_daily" and scene.game == "briscola" and scene.board is None
    assert scene.ui.focused is scene.address_field
    type_text(app, f"127.0.0.1:{server.port}")
    press(app, pygame.K_TAB)
    assert scene.ui.focused is scene.name_field
    type_text(app, "Anna")
    press(app, pygame.K_RETURN)  # Enter in the name field plays today's deal
    assert scene.problem is None, scene.problem
    pump(app, lambda: app.stack.top.name == "table", "the day's table")
    table = app.stack.top
    s = table.session
    day = dt.date.today().isoformat()
    board = server.server.play.daily_board
    deal, word = board.rules_deal(day, "briscola", None)
    assert s.human_seat == 0 and s.context.kind == "online_daily"
    # The day's deal is played with an account: the server made one and the window keeps it.
    from game.online.client.clubclient import kept_accounts

    assert any(a["name"] == "Anna" for a in kept_accounts(app.settings.extra).values())
    assert scene.recovery and len(scene.recovery) == 19
    assert s.context.info["hash"] == board.public(day, "briscola", None, dt.datetime.now())["hash"]
    # The table shows the day's hash-sealed deal before any card: it is on the form too.
    assert scene.seal_lines()[0] == app.t("daily_online.sealed", hash=s.context.info["hash"])

    def step() -> None:
        if app.stack.top is table and table.controller.can_act:
            press(app, pygame.K_RETURN)

    pump(app, lambda: app.stack.top.name == "results", "the deal's results", step)
    res = app.stack.top
    pump(app, lambda: s.daily_result is not None, "the server's line")
    line = board.leaderboard(day, "briscola")[0]
    assert line["name"] == "Anna"
    assert (
        app.t(
            "daily.result",
            score=f"{line['score']:g}",
            par=f"{line['par']:.1f}",
            diff=game.services.par.par_words(app.t, line["score"], line["par"]),
        )
        in res.model().notes
    )
    # One deal: the deal's words; the seats named as the table names them ("Computer 2").
    computer = app.t("online.computer_seat", n=2)
    assert res.model().columns == [table.names.team_name(t) for t in range(2)] and computer in res.model().columns
    assert res.verdict()[0] in (
        app.t("one_deal.deal_won"),
        app.t("one_deal.deal_draw"),
        app.t("one_deal.deal_lost", name=computer),
    )
    button = widget(res, "new_match")
    assert button.label() == app.t("daily_online.see_board")
    for _ in range(40):  # the results' input guard
        app.update(TICK)
    click(app, button)  # by mouse: back to the form, which asks for the board again
    assert app.stack.top is scene
    pump(app, lambda: scene.request is None and scene.board and scene.board["lines"], "the leaderboard")
    rank, mine, lit = scene.rows()[0]
    assert (rank, mine["name"], lit) == ("1", "Anna", True)
    assert mine["over_par"] == pytest.approx(line["over_par"]) and mine["seconds"] == pytest.approx(line["seconds"])
    info = scene.board["info"]
    assert info["seed"] is None and info["nonce"] is None and info["date"] == day
    assert scene.seal_lines()[1] == app.t("daily_online.not_revealed")
    app.render(1.0)
    # An earlier day (PageUp): closed, so its seed and nonce are shown and check out.
    scene.ui.focus(widget(scene, "play"))
    press(app, pygame.K_PAGEUP)
    pump(app, lambda: scene.request is None and scene.board["info"]["date"] != day, "yesterday's board")
    info = scene.board["info"]
    assert info["seed"] is not None and scene.rows() == []
    assert commitment(info["date"], "briscola", word, info["seed"], info["nonce"]) == info["hash"]
    assert scene.seal_lines()[1] == app.t("daily_online.revealed", seed=info["seed"], nonce=info["nonce"])
    assert widget(scene, "later").enabled  # a past day: the next one may be asked for
    press(app, pygame.K_PAGEDOWN)
    pump(app, lambda: scene.request is None and scene.board["info"]["date"] == day, "today's board again")
    press(app, pygame.K_PAGEDOWN)  # never a day after today
    assert scene.day == dt.date.today() and scene.request is None and not widget(scene, "later").enabled
    # A second play of the day: refused, said in one line, and the board is shown.
    click(app, widget(scene, "play"))
    pump(app, lambda: scene.problem == app.t("daily_online.played") and scene.request is None, "the refusal")
    assert app.stack.top is scene and scene.rows()[0][1]["name"] == "Anna"
    assert len(board.leaderboard(day, "briscola")) == 1
    # Nothing the window received names today's seed (the day is open).
    assert deal.seed not in (scene.board["info"]["seed"], s.context.info["seed"], s.match.seed)


def test_a_server_nobody_answers_at_is_one_line(monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = make_app("de")
    app.open_path("online_daily", game="scopa")
    app.update(TICK)
    scene = app.stack.top
    click(app, widget(scene, "board"))
    assert scene.problem == app.t("online.no_address")
    scene.address_field.set_text(f"127.0.0.1:{port}")
    click(app, widget(scene, "board"))
    pump(app, lambda: scene.request is None, "the answer")
    assert scene.problem == hosting.describe(
        hosting.OnlineError("error_unreachable", address=f"127.0.0.1:{port}"), app.t
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_online_daily_texts_fit(lang):
    """The sample board (no network: screenshots), every status and problem line, an open
    and a closed day: no text wider than its box."""
    app = make_app(lang)
    app.open_path("online_daily", game="tressette")
    app.update(TICK)
    scene = app.stack.top
    assert scene.board is not None and len(scene.rows()) == daily_board.ROWS + 1  # your line below the board
    problems = []
    lines = [
        app.t(f"daily_online.{k}", address="club.example.org:65535", reason="x" * 60)
        for k in ("asking", "fetching", "dealing", "played", "refused")
    ]
    for text in [None, *lines]:
        scene.status = text
        with theme.measure_text() as m:
            app.render(1.0)
        problems += [f"{s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]
    scene.shift(-1)  # a closed day: its seed and nonce
    assert scene.board["info"]["seed"] is not None
    with theme.measure_text() as m:
        app.render(1.0)
    problems += [f"{s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]
    assert not problems, "\n".join(problems)


def test_a_deal_left_mid_way_is_taken_back_where_it_stood(server):
    """Quit in the middle of the day's deal (or the window closed): Play takes the same seat
    at the same table back — no second table, no second deal — and the seat is forgotten
    once the deal is over."""
    app = make_app("it")
    app.open_path("online_daily", game="briscola")  # any card may be played: Enter always plays
    app.update(TICK)
    scene = app.stack.top
    scene.address_field.set_text(f"127.0.0.1:{server.port}")
    scene.name_field.set_text("Bert")
    click(app, widget(scene, "play"))
    pump(app, lambda: app.stack.top.name == "table", "the day's table")
    first = app.stack.top.session
    moves = [0]

    def two_moves() -> None:
        table = app.stack.top
        if table.name == "table" and table.controller.can_act:
            press(app, pygame.K_RETURN)
            moves[0] += 1

    pump(app, lambda: moves[0] >= 2, "two moves", two_moves)
    made = len(first.match.decisions)
    app.stack.pop_to("online_daily")  # Quit: the table closes its seat's connection
    app.update(TICK)
    assert app.stack.top is scene and online_daily.kept_seat(app)["code"] == first.code
    daily_tables = lambda: [t for t in server.server.tables.values() if t.daily is not None]  # noqa: E731
    assert len(daily_tables()) == 1
    pump(app, lambda: scene.request is None, "the board asked for on the way back")
    assert scene.ui.focused.name == "play"  # the focus is back where it was: Enter plays
    press(app, pygame.K_RETURN)
    pump(app, lambda: app.stack.top.name == "table", "the same table again")
    again = app.stack.top
    assert again.session is not first and again.session.code == first.code and len(daily_tables()) == 1
    pump(app, lambda: len(again.session.match.decisions) >= made, "the deal so far")

    def step() -> None:
        if app.stack.top is again and again.controller.can_act:
            press(app, pygame.K_RETURN)

    pump(app, lambda: app.stack.top.name == "results", "the deal's results", step)
    pump(app, lambda: again.session.daily_result is not None, "the server's line")
    for _ in range(40):
        app.update(TICK)
    click(app, widget(app.stack.top, "new_match"))
    assert app.stack.top is scene and online_daily.kept_seat(app) is None
    pump(app, lambda: scene.request is None and scene.board and scene.board["lines"], "the leaderboard")
    assert [ln["name"] for _, ln, _ in scene.rows()] == ["Bert"]
