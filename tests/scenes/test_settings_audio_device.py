"""Settings says "no audio device" when the sound has nowhere to go, in every language, and
nothing about the device when the sound works or is off by choice."""

from __future__ import annotations

import pytest

from audio.mixer import Audio, AudioUnavailable
from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import App


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
