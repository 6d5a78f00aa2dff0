"""Leaving and coming back to an online table: the host's quit leaves the table open and the
menu rejoins it, a hosted table survives the game being closed, links typed whole, the
join form keeps the code, computer seats keep one name on every screen, the notes fit in
every language, and a second window's menu keeps saying why no match is offered. The
online ones run a real server on 127.0.0.1 (test_online_scenes.py)."""

from __future__ import annotations

import pygame

from scenes.app import TICK
from sprites import theme
from tests.scenes.test_online_scenes import online  # noqa: F401  (a fixture)
from tests.scenes.test_table import make_app


# ---------------------------------------------------------------------- 1, 4, 5: the host's quit, Rejoin, fixed names
def _names_shown(app) -> set[str]:
    with theme.measure_text() as m:
        app.render(1.0)
    return {s for s, _, _ in m.entries}


def _text_shown(app) -> str:
    """Everything drawn, one line after another (a wrapped sentence reads whole)."""
    with theme.measure_text() as m:
        app.render(1.0)
    return " ".join(s for s, _, _ in m.entries)


def _quit_to_menu(app) -> str:
    """Esc, then Quit to menu by keys; the pause panel's note on the way."""
    from tests.scenes.test_online_scenes import press, top

    press(app, pygame.K_ESCAPE)
    pause = top(app)
    assert pause.name == "pause"
    note = pause.t(pause._note_key())
    assert note in _text_shown(app)
    for _ in range(3):
        press(app, pygame.K_DOWN)
    assert top(app).ui.focused.name == "quit"
    press(app, pygame.K_RETURN)
    assert top(app).name == "menu"
    return note


def test_the_host_s_quit_leaves_the_table_open_and_the_menu_rejoins_it(online):  # noqa: F811  (the fixture imported above)
    import socket

    from game.online.client import client
    from scenes.online import hosting
    from tests.scenes.test_online_scenes import (
        LIMIT,
        bot_thread,
        host_by_keys,
        play_to_results,
        press,
        pump,
        single_deal_game,
        top,
    )
    from tests.scenes.test_online_scenes import make_app as online_app

    app = online_app("en")
    lobby = host_by_keys(app, single_deal_game())
    h = lobby.hosted
    bot = client.RemoteSession(f"ws://127.0.0.1:{h.port}", h.code, "Bruno")
    th = bot_thread(bot)
    pump(app, lambda: top(app).name == "table", "the table")
    table = top(app)
    moves = [0]

    def one_move() -> None:
        if top(app) is table and table.controller.can_act:
            press(app, pygame.K_RETURN)
            moves[0] += 1

    pump(app, lambda: moves[0] >= 1 and not table.controller.can_act, "a move", one_move)
    note = _quit_to_menu(app)
    # The pause panel told the truth: the table stays open while the game runs …
    assert note == app.t("online.pause_note_host")
    menu = top(app)
    assert hosting.running_server() is not None and h.code in hosting.live_tables()
    with socket.create_connection(("127.0.0.1", h.port), timeout=5):
        pass  # … the port still listens …
    # … and the menu says so and offers the seat back.
    assert menu.online_last is not None and menu.online_last["code"] == h.code
    assert app.t("online.rejoin_open", code=h.code) in _text_shown(app)
    rejoin = next(w for w in menu.ui.widgets if w.name == "rejoin")
    menu.ui.focus(rejoin)
    press(app, pygame.K_RETURN)
    pump(app, lambda: top(app).name == "table", "the table again")
    again = top(app)
    assert again is not table and again.human == 0 and len(again.session.match.decisions) >= 1
    play_to_results(app, again)
    th.join(timeout=LIMIT)
    assert not th.is_alive()
    # The match is over: nothing to rejoin; back on the menu the server stops.
    app.stack.pop_to("menu")
    app.update(TICK)
    assert top(app).online_last is None and hosting.running_server() is None


def test_a_hosted_table_comes_back_after_the_game_was_closed(online):  # noqa: F811  (the fixture imported above)
    from game.online.client import client
    from scenes.app import App
    from scenes.online import hosting
    from tests.scenes.test_online_scenes import (
        LIMIT,
        bot_thread,
        host_by_keys,
        play_to_results,
        pump,
        single_deal_game,
        top,
    )
    from tests.scenes.test_online_scenes import make_app as online_app

    app = online_app("de")
    lobby = host_by_keys(app, single_deal_game(), name="Dora")
    h = lobby.hosted
    bot = client.RemoteSession(f"ws://127.0.0.1:{h.port}", h.code, "Bruno")
    pump(app, lambda: top(app).name == "table", "the table", bot.poll)
    table = top(app)
    pump(app, lambda: bool(table.session.match.events), "the deal", bot.poll)
    app.shutdown()  # the window closes: its server with it
    assert hosting.running_server() is None
    # The friend's client keeps trying; the game starts again with the same settings.
    again = App(app.config, app.settings, app.i18n, window=False, persist=False)
    again.open_path("menu")
    again.settle(2)
    menu = top(again)
    assert menu.online_last is not None and menu.online_last["port"] == h.port
    assert again.t("online.rejoin_paused", code=h.code) in _text_shown(again)
    menu._rejoin()
    th = bot_thread(bot)
    pump(again, lambda: top(again).name == "table", "the table, resumed")
    assert hosting.running_server() is not None and hosting.running_server().port == h.port
    resumed = top(again)
    assert resumed.human == 0
    # Seat names are fixed online: the friend by name, a computer seat by its number (none here).
    assert resumed.names.seat_name(1) == "Bruno"
    play_to_results(again, resumed)
    th.join(timeout=LIMIT)


def test_a_typed_link_is_split_only_when_it_is_whole(online):  # noqa: F811  (the fixture imported above)
    from tests.scenes.test_online_scenes import make_app as online_app
    from tests.scenes.test_online_scenes import open_online, press, top, type_text

    app = online_app("en")
    open_online(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    join = top(app)
    assert join.ui.focused is join.address_field
    for ch in "cardavia://127.0.0.1:7420/QGNWELANMY":
        type_text(app, ch)
    assert join.address_field.text == "127.0.0.1:7420" and join.code_field.text == "QGNWELANMY"


def test_the_join_form_keeps_the_code_of_the_table_left(online):  # noqa: F811  (the fixture imported above)
    from scenes.online import rejoin
    from scenes.online.host import remember_seat
    from tests.scenes.test_online_scenes import make_app as online_app
    from tests.scenes.test_online_scenes import open_online, press, top

    app = online_app("it")
    remember_seat(app, "K7QMZ2HXPA", "ab" * 16)
    rejoin.keep(app, "K7QMZ2HXPA", "192.168.1.20:7420")
    open_online(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    join = top(app)
    assert join.address_field.text == "192.168.1.20:7420" and join.code_field.text == "K7QMZ2HXPA"
    app.stack.pop_to("menu")
    assert app.t("online.rejoin_left", code="K7QMZ2HXPA") in _text_shown(app)


def test_computer_seats_online_have_the_same_name_on_every_screen():
    from scenes.table.online import fixed_names

    class Seat:
        lobby = {
            "seats": [
                {"kind": "friend", "name": "Anna"},
                {"kind": "ai", "name": None},
                {"kind": "friend", "name": "Bruno"},
                {"kind": "ai", "name": None},
            ]
        }

    class S:
        session = Seat()
        t = staticmethod(make_app("en").t)

    names = fixed_names(S.session, S.t, {0: "Anna", 2: "Bruno"})
    assert names == {0: "Anna", 1: "Computer 2", 2: "Bruno", 3: "Computer 4"}


def test_the_online_notes_and_the_rejoin_lines_fit_in_every_language():
    from game.services.i18n import I18n
    from scenes.menu import ONLINE, RESUME
    from scenes.pause import BOX

    pygame.font.init()
    for lang in ("en", "nl", "de", "it"):
        t = I18n(lang).t
        for k in ("online.pause_note", "online.pause_note_host"):
            lines = theme.wrap(t(k), "sans", 13, BOX.w - 60)
            assert len(lines) <= 2, (lang, k, lines)
        for k in ("online.rejoin_open", "online.rejoin_paused", "online.rejoin_left"):
            lines = theme.wrap(t(k, code="K7QMZ2HXPA"), "sans_bold", 14, ONLINE.w - 18 - 150 - 28)
            assert len(lines) <= 2, (lang, k, lines)
        assert len(theme.wrap(t("menu.second_window"), "sans", 14, RESUME.w - 36)) <= 2, lang
        assert theme.text_width(t("online.rejoin"), "sans_bold", 15) <= 150 - 24, lang


# ---------------------------------------------------------------------- 7: a lasting note for the second window
def test_a_second_window_s_menu_keeps_saying_why_no_match_is_offered(monkeypatch):
    from game.services import saves

    monkeypatch.setattr(saves, "read_only", True)
    app = make_app("nl")
    app.open_path("menu")
    app.settle(400)  # long after any toast is gone
    menu = app.stack.top
    assert menu.saved is None and menu.second_window_note() == app.t("menu.second_window")
    assert app.t("menu.second_window") in _text_shown(app)
    monkeypatch.setattr(saves, "read_only", False)
    assert menu.second_window_note() is None
