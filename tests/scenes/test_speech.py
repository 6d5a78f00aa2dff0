"""Speech: a seeded deal played by keys alone, in four languages, and what its
speech log says — every computer play and every refusal once, in order, and the focus
moves — plus the speech layer itself (a real espeak-ng voice, a missing one, the queue)."""

from __future__ import annotations

import shutil
import time
import wave

import pygame
import pytest

from game.services.speech import EspeakBackend, Speech
from scenes.app import TICK
from scenes.registry import make_scene, register_scene, unregister_scene
from scenes.scene import Scene
from scenes.table.narrate import Narrator
from tests.scenes.test_table import key, make_app


class StandInResults(Scene):
    def update(self, dt):
        self.app.stack.pop()


@pytest.fixture
def no_results():
    register_scene("results", lambda app, **p: StandInResults(app))
    yield
    unregister_scene("results")


def number_key(i: int) -> int:
    """The key for the hand's (i+1)-th card: 1–9, then 0."""
    return pygame.K_1 + i if i < 9 else pygame.K_0


def play_by_keys(app, scene, max_ticks: int = 4000) -> list[tuple[int, str]]:
    """The deal to its end by keys: at each turn first a card the rules refuse (when there
    is one), then the leftmost legal card, each by its number key and Enter. Returns the
    refusals as (events shown before it, text)."""
    refusals: list[tuple[int, str]] = []
    for _ in range(max_ticks):
        dealt_out = any(e["event"] == "deal_end" for e in scene.session.match.events)
        if scene.controller.final_panel or scene.session.over or (dealt_out and scene.motion.idle):
            break
        c = scene.controller
        if app.stack.top is scene and c.can_act:
            hand = scene.model.hand
            legal = {a.card.code for a in c.legal() if a.kind == "play" and a.card is not None}
            bad = [i for i, code in enumerate(hand) if code not in legal]
            if bad:
                key(app, number_key(bad[0]))
                app.update(TICK)  # a key a frame, as a person presses them
                assert (
                    "cannot be played now" in app.speech.last
                    or "mag nu niet" in app.speech.last
                    or "darf jetzt nicht" in app.speech.last
                    or "non si può" in app.speech.last
                )
                key(app, pygame.K_RETURN)
                assert scene.refusal is not None, "a card the rules refuse is refused"
                refusals.append((len(scene.session.match.events), scene.refusal[0]))
            good = next(i for i, code in enumerate(hand) if code in legal)
            key(app, number_key(good))
            app.update(TICK)  # the focus is said on the next tick
            assert app.speech.last == scene.reader.focus(), "the card under the keys is said"
            key(app, pygame.K_RETURN)
        app.update(TICK)
    return refusals


@pytest.mark.parametrize("lang,seed", [("en", 11), ("nl", 12), ("de", 13), ("it", 14)])
def test_a_tressette_deal_by_keys_is_told_in_order(lang, seed, tmp_path, no_results):
    log = tmp_path / "speech.txt"
    app = make_app(lang)
    app.speech = Speech("off", lang, log)
    app.open_path("menu")
    scene = make_scene(
        app, "table", game="tressette", players=2, seed=seed, ai_level="greedy", threaded=False, autoplay_moves=0
    )
    app.stack.push(scene)
    refusals = play_by_keys(app, scene)
    app.speech.close()
    said = log.read_text(encoding="utf-8").splitlines()
    # What should be said, in order: each computer play's caption, each refusal between them.
    events = scene.session.match.events
    narrator = Narrator(scene.rules, app.t, lang, scene.human)
    expected: list[str] = []
    pending = list(refusals)
    assert any(e["event"] == "deal_end" for e in events), "the deal was played out"
    for i, ev in enumerate(events):
        while pending and pending[0][0] <= i:
            expected.append(pending.pop(0)[1])
        line = narrator.feed(ev)
        if line is not None and line.kind == "play" and line.seat != scene.human:
            expected.append(line.caption)
    expected += [text for _, text in pending]
    assert refusals, "the seed gives the player cards that must not be played"
    for text in set(expected):
        assert said.count(text) == expected.count(text), f"said {said.count(text)} times: {text!r}"
    assert [s for s in said if s in expected] == expected
    # The focus moves are spoken (the card a number key points at), in the run's language.
    focus_word = {"en": "Card", "nl": "Kaart", "de": "Karte", "it": "Carta"}[lang]
    assert sum(s.startswith(focus_word + " ") for s in said) >= 10
    assert app.t("access.your_turn") in said


def test_reading_keys_read_the_table_and_do_not_play(tmp_path):
    from tests.scenes.test_table import table

    app = make_app("en")
    app.speech = Speech("off", "en", tmp_path / "log.txt")
    scene = table(app, "briscola", 2, seed=5, moves=0)
    for _ in range(5):
        app.update(TICK)
    decisions = len(scene.session.match.decisions)
    m = scene.model
    key(app, pygame.K_a)
    assert app.speech.last.startswith("Your hand, 3 cards:")
    assert all(scene.names.card_name(c) in app.speech.last for c in m.hand)
    key(app, pygame.K_w)
    assert f"{m.stock_count} cards left in the stock" in app.speech.last
    assert scene.names.card_name(m.trump) in app.speech.last
    key(app, pygame.K_f)
    assert "North holds 3 cards" in app.speech.last
    key(app, pygame.K_v)
    assert "You 0" in app.speech.last
    key(app, pygame.K_UP)
    first = app.speech.last
    assert first == scene.motion.narrator.deal.lines[-1].text
    key(app, pygame.K_DOWN)
    assert app.speech.last == "End of the log."
    key(app, pygame.K_o)
    assert app.speech.lines[-1] == app.speech.lines[-2] == "End of the log."
    key(app, pygame.K_F1)
    assert app.speech.last == app.t("access.keys_table")
    assert len(scene.session.match.decisions) == decisions  # reading never plays


# ---------------------------------------------------------------------- the speech layer
def test_espeak_writes_each_line_as_sound(tmp_path):
    # `make test` installs espeak-ng (the Makefile's system step): a missing one is a failure.
    assert shutil.which("espeak-ng"), "espeak-ng is not installed: apt-get install espeak-ng"
    voice = EspeakBackend("it", str(tmp_path))
    speech = Speech("on", "it", tmp_path / "log.txt", backends=[lambda: voice])
    t0 = time.perf_counter()
    speech.say("Tocca a te.")
    speech.say("Carta 1 di 3: Asso di Coppe")
    assert time.perf_counter() - t0 < 1.0  # queued: the frame does not wait for the two lines to be spoken
    assert speech.busy()  # …while the table can ask whether it is still speaking
    deadline = time.monotonic() + 10
    while len(list(tmp_path.glob("*.wav"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # the second line waits until the first would have been heard
    speech.close()
    voice.close()
    wavs = sorted(tmp_path.glob("*.wav"))
    assert len(wavs) == 2
    with wave.open(str(wavs[1])) as w:
        assert w.getnframes() / w.getframerate() > 0.5  # a spoken line, not an empty file
    assert (tmp_path / "log.txt").read_text(encoding="utf-8").splitlines() == [
        "Tocca a te.",
        "Carta 1 di 3: Asso di Coppe",
    ]


def test_a_missing_voice_leaves_the_log_and_silence(tmp_path, capfd):
    def missing():
        raise RuntimeError("no such voice here")

    speech = Speech("on", "en", tmp_path / "log.txt", backends=[missing, missing])
    speech.say("Your turn.")
    speech.say("Card 1 of 3: Ace of Cups", interrupt=True)
    speech.close()  # the worker has tried every voice for the queued lines, then stops
    assert speech.backend is None
    assert (tmp_path / "log.txt").read_text(encoding="utf-8").splitlines() == ["Your turn.", "Card 1 of 3: Ace of Cups"]
    err = capfd.readouterr().err
    # One line, once, naming why each voice was missing.
    assert err.count("no voice is available") == 1 and "no such voice here; no such voice here" in err


class _Heard:
    """A voice that keeps what it was given."""

    name = "heard"

    def __init__(self) -> None:
        self.lines: list[str] = []

    def speak(self, text, interrupt):
        self.lines.append(text)

    def speaking(self):
        return False

    def stop(self):
        pass

    def close(self):
        pass


def _spoken(speech: Speech, voice: _Heard, line: str) -> None:
    speech.say(line)
    deadline = time.monotonic() + 3
    while not voice.lines and time.monotonic() < deadline:
        time.sleep(0.01)
    speech.close()


def test_a_missing_voice_before_one_that_speaks_is_not_reported(capfd):
    """The screen reader bridge finding nothing, then espeak-ng speaking: the usual start on
    Linux. Nothing is printed, since a voice speaks."""
    voice = _Heard()

    def no_bridge():
        raise ValueError("Invalid or unsupported backend")

    _spoken(Speech("on", "en", None, backends=[no_bridge, lambda: voice]), voice, "Your turn.")
    assert voice.lines == ["Your turn."]
    assert capfd.readouterr().err == ""


def test_the_bridge_finding_no_screen_reader_is_not_a_problem(monkeypatch, capfd):
    """The bridge's "Invalid or unsupported backend" (nothing running) is "no screen reader":
    screen reader only stays silent without a word; on, it is one reason among others."""
    import sys
    import types

    import game.services.speech as S

    class Context:
        def acquire_best(self):
            raise ValueError("Invalid or unsupported backend")

    monkeypatch.setitem(sys.modules, "prism", types.SimpleNamespace(Context=Context))
    with pytest.raises(S.NoScreenReader):
        S.PrismBackend(True, "en")
    with pytest.raises(RuntimeError, match="found no voice"):
        S.PrismBackend(False, "en")
    quiet = Speech("screen_reader", "en", None, backends=[lambda: S.PrismBackend(True, "en")])
    quiet.say("Your turn.")
    quiet.close()
    assert quiet.backend is None and capfd.readouterr().err == ""


def test_a_voice_that_hangs_as_it_opens_gives_way_to_the_next(tmp_path, monkeypatch, capfd):
    import threading

    import game.services.speech as S

    monkeypatch.setattr(S, "OPEN_TIMEOUT", 0.2)
    hang = threading.Event()
    heard: list[str] = []

    class Next:
        name = "next"

        def speak(self, text, interrupt):
            heard.append(text)

        def speaking(self):
            return False

        def stop(self):
            pass

        def close(self):
            pass

    speech = Speech("on", "en", None, backends=[lambda: (hang.wait(5), Next())[1], Next])
    speech.say("Your turn.")
    deadline = time.monotonic() + 3
    while not heard and time.monotonic() < deadline:
        time.sleep(0.02)
    hang.set()
    speech.close()
    assert heard == ["Your turn."]
    assert capfd.readouterr().err == ""  # the next voice speaks: nothing to report
    # With no other voice, the one that hung is the reason given.
    hang.clear()
    alone = Speech("on", "en", None, backends=[lambda: (hang.wait(5), Next())[1]])
    alone.say("Your turn.")
    alone.close()  # waits for the worker, which gives up on the voice after OPEN_TIMEOUT
    hang.set()
    assert "no voice is available" in capfd.readouterr().err and heard == ["Your turn."]


def test_an_interruption_drops_what_was_queued(tmp_path):
    spoken: list[str] = []

    class Slow:
        name = "slow"

        def speak(self, text, interrupt):
            time.sleep(0.2)
            spoken.append(text)

        def stop(self):
            pass

        def close(self):
            pass

    speech = Speech("on", "en", None, backends=[Slow])
    for i in range(5):
        speech.say(f"line {i}")
    speech.say("now", interrupt=True)
    time.sleep(0.5)
    speech.close()
    assert spoken[-1] == "now" and len(spoken) <= 3  # the queued lines were not all said


def test_a_screenshot_run_writes_its_opening_lines(tmp_path):
    from scenes.launch import main

    log = tmp_path / "speech.txt"
    code = main(
        [
            "--screenshot",
            str(tmp_path / "t.png"),
            "--scene",
            "table",
            "--game",
            "briscola",
            "--seed",
            "7",
            "--lang",
            "de",
            "--speech-log",
            str(log),
            "--clear-suits",
            "--card-size",
            "large",
        ]
    )
    assert code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Am Tisch"
    assert lines[1].startswith("Deine Hand, 3 Karten:")
    assert any(ln.startswith("Trumpf ist ") for ln in lines)
    assert any(ln.startswith("Noch ") and ln.endswith("Karten im Stapel.") for ln in lines)
    assert "Du bist am Zug." in lines
    # An existing log is not replaced without --force (one line, exit 2).
    assert main(["--screenshot", str(tmp_path / "u.png"), "--speech-log", str(log)]) == 2


def test_the_rules_are_read_section_by_section():
    app = make_app("it")
    app.speech = Speech("off", "it", None)
    app.open_path("rules", game="briscola")
    for _ in range(3):
        app.update(TICK)
    first = app.speech.last
    assert first.startswith("Briscola. " + app.t("rules.briscola.objective.title"))
    for _ in range(12):  # scroll down by keys: the next section is read as it reaches the top
        key(app, pygame.K_DOWN)
        for _ in range(3):
            app.update(TICK)
    assert app.speech.last != first and app.speech.last.startswith("Briscola. ")


def test_the_results_are_read_row_by_row(tmp_path):
    from scenes.launch import main

    log = tmp_path / "results.txt"
    assert (
        main(
            [
                "--screenshot",
                str(tmp_path / "r.png"),
                "--scene",
                "results",
                "--game",
                "scopa",
                "--lang",
                "nl",
                "--speech-log",
                str(log),
            ]
        )
        == 0
    )
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Uitslag"
    assert any(ln.startswith("Settebello") for ln in lines)
    assert sum(": " in ln for ln in lines) >= 5  # a row a line, every side's value in it


def test_every_screen_has_a_name_to_be_said_in_every_language():
    """A screen reader says each screen's name as it opens: every registered scene has one."""
    from game.services.i18n import I18n
    from scenes.registry import scene_names

    for lang in ("en", "nl", "de", "it"):
        i18n = I18n(lang)
        missing = [n for n in scene_names() if not i18n.has(f"access.scene_{n}", lang)]
        assert not missing, (lang, missing)
