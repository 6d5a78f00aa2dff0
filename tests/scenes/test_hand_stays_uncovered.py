"""The pause overlay, its hint and the toasts never cover the player's hand (twelve cards
at a four-player table)."""

from __future__ import annotations

import pygame

from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import TICK, App
from scenes.registry import make_scene
from scenes.table import board


def make_app(lang: str = "en") -> App:
    return App(
        get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False
    )


def _table(app: App, game: str = "cicera", players: int = 4):
    app.open_path("menu")
    scene = make_scene(
        app,
        "table",
        game=game,
        players=players,
        seed=5,
        ai_level="greedy",
        threaded=False,
        autoplay_moves=0,
        preselect=False,
    )
    app.stack.push(scene)
    for _ in range(400):
        app.update(TICK)
        if scene.controller.can_act:
            break
    assert scene.controller.can_act
    return scene


def _hand_rects(scene) -> list[pygame.Rect]:
    from sprites import table_layout as TL

    # Every card as drawn now, and as it would be when pointed at or chosen (lifted).
    out = []
    for code in scene.model.hand:
        r = board.card_rect(scene.view(), code)
        out += [r, r.move(0, -TL.LIFT)]
    return out


def test_the_pause_overlay_and_its_hint_end_above_the_hand():
    app = make_app()
    table = _table(app)
    hand = _hand_rects(table)
    assert len(hand) == 24  # twelve cards
    table.open_pause()
    app.settle(30)
    app.render()
    pause = app.stack.top
    assert pause.hint_rect is not None and pause.hint_rect.w > 0
    from scenes.pause import BOX

    for r in hand:
        assert not r.colliderect(pause.hint_rect), (r, pause.hint_rect)
        assert not r.colliderect(BOX), (r, BOX)


def test_toasts_never_cover_the_hand():
    app = make_app()
    table = _table(app)
    hand = _hand_rects(table)
    for text in ("Hints off (H to show them).", "Screenshot saved: cardavia-0001.png", "Sound off"):
        app.toast(text)
    for _ in range(40):  # while they slide in and stay
        app.update(TICK)
        app.render()
        assert len(app.toasts.rects) == 3
        for t in app.toasts.rects:
            assert not any(t.colliderect(r) for r in hand), t
