"""What a newcomer met in an hour at the table (issue 29): each fix, held by a test that
fails without it. The online ones run a real server on 127.0.0.1 (test_online_scenes.py)."""

from __future__ import annotations

import pygame

from game.registry import rules_class
from scenes.app import TICK
from scenes.table import hud
from sprites import theme
from tests.scenes.test_online_scenes import online  # noqa: F401  (a fixture)
from tests.scenes.test_table import key, make_app, table


# ---------------------------------------------------------------------- 2: partners' scores
def test_briscola_for_four_scores_the_teams_not_the_seats():
    app = make_app("en")
    game = next(g for g, c in app.config.games.items() if rules_class(g).hud_scores == "card_points" and 4 in c.players)
    scene = table(app, game, players=4, seed=5, moves=9)
    rules = scene.session.match.rules
    won = [0, 0]
    for ev in scene.session.match.events:
        if ev["event"] == "deal":
            won = [0, 0]
        elif ev["event"] == "trick":
            won[rules.team_of(ev["winner"])] += ev["points"]
    rows = hud.score_rows(scene.view())
    assert [r[1] for r in rows] == [scene.names.team_name(t) for t in range(2)]
    assert {r[1] for r in rows} == {app.t("table.us"), app.t("table.them")}
    assert [int(r[2]) for r in rows] == won and any(won)
    # The replay viewer draws the same HUD from the same rows.
    with theme.measure_text() as m:
        app.render(1.0)
    shown = {s for s, _, _ in m.entries}
    assert app.t("table.us") in shown and app.t("table.partner") in shown


# ---------------------------------------------------------------------- 8: K only where cards are drawn
def test_tressette_for_four_offers_no_key_for_cards_drawn():
    app = make_app("en")
    game = next(g for g, c in app.config.games.items() if rules_class(g).draws_public)
    two = table(app, game, players=2, seed=3, moves=0)
    four = table(make_app("en"), game, players=4, seed=3, moves=0)
    assert two.rules.draws_public and not four.rules.draws_public

    def status(scene) -> set[str]:
        for _ in range(200):
            if scene.controller.can_act:
                break
            scene.app.update(TICK)
        assert scene.controller.can_act
        with theme.measure_text() as m:
            scene.app.render(1.0)
        return {s for s, _, _ in m.entries}

    hint = app.t(f"table.keys_{game}_public_draws")
    assert hint in status(two)
    assert hint not in status(four) and app.t(f"table.keys_{game}") in status(four)
    recalled = []
    four.recall_known = lambda: recalled.append(1)
    key(four.app, pygame.K_k)
    assert recalled == []


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


# ---------------------------------------------------------------------- 10, 18: messages that are seen and hide nothing
def test_undo_says_so_where_the_player_looks_and_covers_no_button(_private_home):
    import random

    from tests.scenes.test_table import keyboard_play
    from tests.scenes.test_table_undo import settle, undo_key

    app = make_app("nl")
    game = next(g for g, c in app.config.games.items() if rules_class(g).family == "capture")
    scene = table(app, game, players=2, seed=7, moves=2)
    settle(app, scene)
    keyboard_play(app, scene, random.Random(3).choice(scene.session.legal_actions()))
    settle(app, scene)
    undo_key(app)
    assert app.toasts.active == [app.t("undo.practice")]
    app.render(1.0)
    assert app.toasts.rects and all(r.y >= scene.toast_top for r in app.toasts.rects)
    buttons = [w.rect for w in scene.ui.widgets if w.visible and w.rect.y < 120]
    assert buttons and not any(r.colliderect(b) for r in app.toasts.rects for b in buttons)


def test_the_cards_drawn_toast_leaves_the_scores_button_free():
    app = make_app("de")
    game = next(g for g, c in app.config.games.items() if rules_class(g).draws_public)
    scene = table(app, game, players=2, seed=3, moves=8)
    key(app, pygame.K_k)
    assert app.toasts.active
    app.render(1.0)
    top_row = [w.rect for w in scene.ui.widgets if w.visible and w.rect.y < 120]
    assert top_row and app.toasts.rects
    assert not any(r.colliderect(b) for r in app.toasts.rects for b in top_row)


def test_the_quick_messages_leave_the_hand_s_last_card_free():
    from sprites import table_layout as TL

    app = make_app("it")
    scene = table(app, next(iter(app.config.games)), players=2, seed=3, moves=0)
    scene.buttons["say"] = scene.buttons["suggest"]  # where the Messages button sits online
    menu = scene.online.menu_rect
    assert menu.left > TL.HAND_AREA.right and menu.right == scene.buttons["say"].rect.right
    aspect = scene.deck.aspect
    cards = []
    for p in scene.layout.hand(10):
        w, h = p.size(aspect)
        cards.append(pygame.Rect(round(p.x - w / 2), round(p.y - h / 2), w, h))
    assert cards and not any(menu.colliderect(c) for c in cards)
    assert all(r.width >= 180 for r in scene.online.rows)


# ---------------------------------------------------------------------- 11: nobody's chair in a computer-only record
def test_the_viewer_names_a_computer_only_record_s_seats_by_number():
    from game.rulesets import game_ids
    from game.services.replays import seats_of
    from scenes.replay.view import hud_view
    from tests.scenes.test_replay import open_viewer, record_text, simulate

    for game in game_ids():
        players = max(make_app().config.games[game].players)
        events = simulate(game, players, seed=5)
        app = make_app("en")
        scene = open_viewer(app, text=record_text(events))
        assert scene.player is None and scene.naming_seat is None
        view = hud_view(scene, scene.model, None)
        assert [view.names.seat_name(s) for s in range(players)] == [f"Player {s + 1}" for s in range(players)]
        if players == 4:
            assert [view.names.team_name(t) for t in range(2)] == ["Team 1", "Team 2"]
        key(app, pygame.K_END)
        told = scene.timeline.lines(app.t, "en", None)
        assert len(told) == len(events) and told[-1] is not None  # every line told, the end too
        shown = _text_shown(app)
        for word in ("You", "Partner", "Us", "Them"):
            assert f"{word} " not in shown and not shown.endswith(word), (game, word)
        assert "your points" not in shown, game  # the HUD's notes speak from nobody's chair too
    # A record that says who sat where keeps "You" for that seat.
    events = simulate(game_ids()[0], 2, seed=5)
    events[0] = {**events[0], "seats": seats_of(2, 0, "greedy")}
    app = make_app("en")
    scene = open_viewer(app, text=record_text(events))
    assert scene.player == 0 and hud_view(scene, scene.model, None).names.seat_name(0) == "You"


# ---------------------------------------------------------------------- 14: the words
def test_a_third_is_one_point_s_third_and_a_capture_names_its_cards_with_articles():
    from game.services.i18n import I18n

    en = I18n("en")
    assert en.t("narrate.points", count="⅓") == "⅓ point" and en.t("narrate.points", count="⅔") == "⅔ point"
    assert en.t("narrate.points", count="1 ⅔") == "1 ⅔ points" and en.t("narrate.points", count="1") == "1 point"
    assert en.t("narrate.points", count=0) == "0 points" and en.t("narrate.points", count="12") == "12 points"
    assert I18n("de").t("narrate.points", count="⅓") == "⅓ Punkt"

    from game.cards import card
    from game.rules.base import Action
    from scenes.table.assist import move_text

    for lang, want in (
        ("en", "play the Knave of Cups and take the Knave of Coins"),
        ("it", "gioca il Fante di Coppe e prendi il Fante di Denari"),
    ):
        app = make_app(lang)
        game = next(g for g in app.config.games if rules_class(g).family == "capture")
        scene = table(app, game, players=2, seed=3, moves=0, deck="piacentine")
        text = move_text(scene, Action("play", card("JC"), (card("JD"),)))
        assert text == want, text


# ---------------------------------------------------------------------- 16: every game on its deck's tile
def test_each_deck_tile_names_all_its_games_and_the_fans_differ():
    from sprites.fans import sample_codes

    for lang in ("en", "de", "nl", "it"):
        app = make_app(lang)
        app.open_path("menu")
        app.open_scene("decks")
        app.render(1.0)
        scene = app.stack.top
        tiles = [w for w in scene.ui.widgets if w.name.startswith("deck:")]
        assert tiles
        for tile in tiles:
            tile._static(lang)
            assert tile.chips == len(tile.deck.games), (lang, tile.deck.id)
    cfg = make_app().config
    fans = {tuple(sample_codes(d, 5)) for d in cfg.decks.values() if d.suit_system == "italian"}
    assert len(fans) == sum(1 for d in cfg.decks.values() if d.suit_system == "italian")


# ---------------------------------------------------------------------- 19: a row that keeps still, a page Enter does not leave
def test_choosing_custom_house_rules_moves_no_control_of_the_row():
    from game.variants import CUSTOM
    from tests.scenes.test_game_select import GAME, open_games
    from tests.scenes.test_game_select import make_app as games_app

    for lang in ("en", "de"):
        app = games_app(lang)
        scene = open_games(app)
        panel = next(p for p in scene.panels if p.game.id == GAME.id)
        row = [s.widget for s in panel.slots if s.widget is not panel.edit]

        def layout(scene=scene, panel=panel, row=row):
            scene._reflow(panel)
            return [(w.name, w.rect.x, w.rect.w, getattr(w, "compact", None)) for w in row if w.visible]

        first = next(q.id for q in GAME.presets_for(panel.players))
        scene._set_preset(panel, first)
        before = layout()
        scene._set_preset(panel, CUSTOM)
        assert panel.edit.visible
        assert layout() == before and before


def test_the_rules_page_is_left_by_esc_not_by_down_then_enter():
    app = make_app("en")
    app.open_path("menu")
    app.open_scene("rules")
    app.update(TICK)
    rules = app.stack.top
    assert rules.ui.focused is None
    for k in (pygame.K_DOWN, pygame.K_RETURN):
        key(app, k)
        app.update(TICK)
    assert app.stack.top is rules
    key(app, pygame.K_ESCAPE)
    app.update(TICK)
    assert app.stack.top is not rules


# ---------------------------------------------------------------------- 17: one labelled pile per side
def test_four_player_capture_piles_say_whose_they_are():
    from scenes.table import board

    app = make_app("en")
    game = next(g for g in app.config.games if rules_class(g).family == "capture" and 4 in app.config.games[g].players)
    scene = table(app, game, players=4, seed=11, moves=8)
    m = scene.model
    assert len(m.piles) == 2
    for t in range(2):
        text = board.pile_text(scene.view(), t)
        assert text is None if not m.piles[t] else text == f"{scene.names.team_name(t)} · {m.piles[t]}"
    drawn = []
    real = board.badge
    board.badge = lambda surface, text, *a, **k: drawn.append(text) or real(surface, text, *a, **k)
    try:
        app.render(1.0)
    finally:
        board.badge = real
    import sprites.table_draw as draw

    assert (
        all(
            (f"{scene.names.team_name(t)} · {m.piles[t]}" if m.piles[t] else scene.names.team_name(t)) in drawn
            or m.piles[t]
            for t in range(2)
        )
        and draw.badge is real
    )
    # Two players: the count alone, as before.
    two = table(make_app("en"), game, players=2, seed=11, moves=8)
    assert all(board.pile_text(two, t) in (None, str(two.model.piles[t])) for t in range(2))


def test_the_new_lines_fit_in_every_language():
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
