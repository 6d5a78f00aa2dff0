"""Messages the player sees where they look and that hide nothing (undo, the cards drawn, the
quick messages); a computer-only record's seats named by number; thirds and captures in
words."""

from __future__ import annotations

import pygame

from game.registry import rules_class
from sprites import theme
from tests.scenes.test_table import key, make_app, table


def _text_shown(app) -> str:
    """Everything drawn, one line after another (a wrapped sentence reads whole)."""
    with theme.measure_text() as m:
        app.render(1.0)
    return " ".join(s for s, _, _ in m.entries)


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
        text = move_text(scene, Action.make("play", card("JC"), capture=(card("JD"),)))
        assert text == want, text
