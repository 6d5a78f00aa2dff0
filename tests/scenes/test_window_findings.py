"""What the window test found (issue 17, item 10), each checked as a player meets it:
Settings says "no audio device" when the sound has nowhere to go; the pause overlay's hint
and the toasts never cover the player's hand."""

from __future__ import annotations

import pygame
import pytest

from audio.mixer import Audio, AudioUnavailable
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


class NoDevice:
    """A sound backend on a machine without a sound card."""

    def init(self) -> None:
        raise AudioUnavailable("no sound card")


class Device:
    def init(self) -> None:
        pass

    def load(self, name, wav):
        return name

    def set_volume(self, sound, volume) -> None:
        pass

    def play(self, sound) -> None:
        pass

    def stop(self) -> None:
        pass


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "No audio device"),
        ("nl", "Geen audioapparaat"),
        ("de", "Kein Audiogerät"),
        ("it", "Nessun dispositivo audio"),
    ],
)
def test_settings_say_no_audio_device_when_there_is_none(lang, words):
    app = make_app(lang)
    app.audio = Audio(backend=NoDevice())
    app.open_path("settings")
    scene = app.stack.top
    assert scene.audio_note() == words
    app.render()


def test_settings_say_nothing_about_the_device_when_sound_works_or_is_off_by_design():
    app = make_app()
    app.audio = Audio(backend=Device())
    app.open_path("settings")
    assert app.stack.top.audio_note() is None
    quiet = make_app()  # no window (tests, screenshots): silent by design, not a missing device
    quiet.open_path("settings")
    assert quiet.stack.top.audio_note() is None


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


@pytest.mark.parametrize(
    "lang,mouse,keys",
    [
        ("en", ("click table cards", "click your card", "click the felt"), ("Tab", "Enter", "P")),
        ("nl", ("klik op tafelkaarten", "je kaart", "het laken"), ("Tab", "Enter", "P")),
        ("de", ("Tischkarten anklicken", "deine Karte", "den Tisch"), ("Tab", "Enter", "P")),
        ("it", ("clic sulle carte in tavola", "la tua carta", "il tappeto"), ("Tab", "Invio", "P")),
    ],
)
def test_the_capture_prompt_of_a_game_that_may_place_explains_the_mouse_and_the_keys(lang, mouse, keys):
    """The three choices — another capture, take it, place only — each by key and by mouse
    (the mouse paths themselves are played in test_table's mouse-only games)."""
    text = I18n(lang).t("table.choose_capture_or_place")
    for words in (*mouse, *keys):
        assert words in text, (lang, words, text)
