"""Sound: every synthesised sound is sane, the player honours volume/mute/speed and survives
having no device, and game events map to the right sounds (down to a whole Scopa deal)."""

from __future__ import annotations

import io
import logging
import math
import wave

import pytest

from audio import cues, mixer, synth
from audio.cues import sounds_for, sounds_for_batch
from audio.mixer import IMPORTANT, Audio

# ---------------------------------------------------------------- synth

#: Upper length limits (seconds) per sound: short ones must stay snappy.
MAX_LEN = {
    "click": 0.08,
    "deal": 0.15,
    "play": 0.25,
    "capture": 0.4,
    "close": 0.3,
    "trick": 0.5,
    "shuffle": 1.0,
    "bonus": 1.2,
    "sweep": 1.5,
    "deal_won": 1.5,
    "deal_lost": 1.5,
    "match_won": 2.5,
    "match_lost": 2.5,
}


def test_the_sound_list_is_the_one_the_brief_names():
    assert set(synth.SOUND_NAMES) == set(MAX_LEN)


@pytest.mark.parametrize("name", synth.SOUND_NAMES)
def test_sound_length_level_and_ends(name):
    s = synth.samples(name)
    secs = len(s) / synth.RATE
    assert 0.02 < secs <= MAX_LEN[name], f"{name}: {secs:.3f} s"
    peak = max(abs(v) for v in s)
    rms = math.sqrt(sum(v * v for v in s) / len(s))
    # Never clipped: peak at most -3 dBFS, so even summed with a second sound there is headroom.
    assert peak <= synth.MAX_PEAK * 32767 + 1
    assert peak < 32767
    # Not silent: the loudest part is clearly audible and the whole has body.
    assert 20 * math.log10(peak / 32767) > -14
    assert 20 * math.log10(rms / 32767) > -32, f"{name} too quiet"
    # No click at either end: it starts from zero and ramps up (even a hard knock takes a
    # fraction of a millisecond), and it has died away to near silence by the last 2 ms.
    assert s[0] == 0 and s[-1] == 0
    assert max(abs(v) for v in s[:5]) < 0.1 * peak
    edge = int(0.002 * synth.RATE)
    assert max(abs(v) for v in s[-edge:]) < 0.01 * 32767
    # No DC offset (it thumps on some speakers and clicks at start/stop).
    assert abs(sum(s) / len(s)) < 0.01 * 32767


def test_sounds_are_deterministic_and_valid_wav():
    first = {n: synth.pcm(n) for n in synth.SOUND_NAMES}
    synth.clear_cache()
    for n in synth.SOUND_NAMES:
        assert synth.pcm(n) == first[n], f"{n} differs between renders"
        with wave.open(io.BytesIO(synth.wav_bytes(n))) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, synth.RATE)
            assert w.readframes(w.getnframes()) == first[n]


def test_sounds_differ_from_each_other():
    pcms = [synth.pcm(n) for n in synth.SOUND_NAMES]
    assert len(set(pcms)) == len(pcms)


def test_won_and_lost_phrases_are_major_and_minor():
    # The won phrases sit on C major (C, E, G), the lost ones on A minor (A, C, E): the
    # ratio of the third to the root tells them apart.
    assert synth.note("E5") / synth.note("C5") == pytest.approx(2 ** (4 / 12))
    assert synth.note("C5") / synth.note("A4") == pytest.approx(2 ** (3 / 12))
    assert synth.note("A4") == pytest.approx(440.0)


# ---------------------------------------------------------------- mixer


class FakeBackend:
    """Records what the player asks of the device."""

    def __init__(self, fail_init: bool = False, fail_play: bool = False):
        self.fail_init, self.fail_play = fail_init, fail_play
        self.inits = 0
        self.played: list[str] = []
        self.volumes: dict[str, float] = {}
        self.stops = 0

    def init(self):
        self.inits += 1
        if self.fail_init:
            raise RuntimeError("no device here")

    def load(self, name, wav):
        assert wav[:4] == b"RIFF"
        return name

    def set_volume(self, sound, volume):
        self.volumes[sound] = volume

    def play(self, sound):
        if self.fail_play:
            raise RuntimeError("device vanished")
        self.played.append(sound)

    def stop(self):
        self.stops += 1


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def make_audio(**kw):
    be, clock = FakeBackend(), Clock()
    return Audio(backend=be, clock=clock, **kw), be, clock


def test_device_opens_lazily_and_once():
    a, be, clock = make_audio()
    assert be.inits == 0
    assert a.play("click")
    clock.t += 1
    assert a.play("deal")
    assert be.inits == 1 and be.played == ["click", "deal"]


def test_volume_is_applied_to_sounds_and_follows_changes():
    a, be, _ = make_audio(volume=100)
    a.play("play")
    assert be.volumes["play"] == pytest.approx(1.0)
    a.set_volume(50)
    assert be.volumes["play"] == pytest.approx(0.25)  # squared slider curve
    a.set_volume(250)
    assert a.volume == 100 and be.volumes["play"] == pytest.approx(1.0)
    a.set_volume("loud")  # bad input ignored, nothing raised
    assert a.volume == 100
    a.set_volume(0)
    assert be.volumes["play"] == 0.0
    assert not a.play("capture")  # volume 0: nothing sent to the device


def test_mute_silences_playing_sounds_and_blocks_new_ones():
    a, be, clock = make_audio(volume=80)
    a.play("sweep")
    assert be.volumes["sweep"] == pytest.approx(0.64)
    assert a.toggle_mute() is True
    assert be.volumes["sweep"] == 0.0
    clock.t += 5
    assert not a.play("sweep") and be.played == ["sweep"]
    assert a.toggle_mute() is False
    assert be.volumes["sweep"] == pytest.approx(0.64)
    assert a.play("sweep") and be.played == ["sweep", "sweep"]


def test_muted_from_the_start_never_opens_the_device():
    a, be, _ = make_audio(muted=True)
    assert not a.play("click")
    assert be.inits == 0


def test_apply_settings_reads_volume_mute_and_speed():
    from game.services.settings import Settings

    a, be, _ = make_audio()
    a.apply_settings(Settings(volume=30, muted=True, animation_speed="instant"))
    assert (a.volume, a.muted, a.speed) == (30, True, "instant")
    a.apply_settings(Settings(volume=30, muted=False, animation_speed="fast"))
    assert a.play("click")
    assert be.volumes["click"] == pytest.approx(0.09)


def test_real_pygame_mixer_volume_follows():
    # With the dummy audio driver pygame opens a silent device: check the real Sound volume.
    pygame = pytest.importorskip("pygame")
    was_open = pygame.mixer.get_init() is not None
    a = Audio(volume=100, backend=mixer.PygameBackend())
    if not a.start():
        pytest.fail("the dummy SDL audio driver should give a working mixer in tests")
    try:
        assert a.play("click")
        snd = a._sounds["click"]
        assert isinstance(snd, pygame.mixer.Sound)
        assert snd.get_volume() == pytest.approx(1.0, abs=1 / 128)
        a.set_volume(50)
        assert snd.get_volume() == pytest.approx(0.25, abs=1 / 128)
        a.set_muted(True)
        assert snd.get_volume() == 0.0
        a.stop()
    finally:
        if not was_open:  # leave the mixer as other tests found it
            pygame.mixer.quit()


def test_no_audio_device_plays_silently_with_one_log_line(monkeypatch, caplog):
    pygame = pytest.importorskip("pygame")

    def broken_init(*args, **kwargs):
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    a = Audio(backend=mixer.PygameBackend())
    with caplog.at_level(logging.INFO, logger="cardavia"):
        for name in synth.SOUND_NAMES:
            assert a.play(name) is False
        a.set_volume(20)
        a.toggle_mute()
        a.toggle_mute()
        a.play_all(["capture", "sweep"])
        a.update(1.0)
        a.stop()
    assert not a.available
    lines = [r for r in caplog.records if r.name == "cardavia"]
    assert len(lines) == 1 and "silently" in lines[0].getMessage()


def test_device_failing_mid_game_goes_silent(caplog):
    be, clock = FakeBackend(fail_play=True), Clock()
    a = Audio(backend=be, clock=clock)
    with caplog.at_level(logging.INFO, logger="cardavia"):
        assert a.play("play") is False
        clock.t += 1
        assert a.play("play") is False
    assert not a.available
    assert len([r for r in caplog.records if r.name == "cardavia"]) == 1


def test_unknown_sound_is_ignored_with_a_warning(caplog):
    a, be, _ = make_audio()
    with caplog.at_level(logging.INFO, logger="cardavia"):
        assert a.play("kazoo") is False
        assert a.play("kazoo") is False
    assert be.played == [] and len(caplog.records) == 1


def test_rate_limit_per_sound_follows_speed():
    a, be, clock = make_audio(speed="normal")
    assert a.play("deal")
    clock.t += 0.02
    assert not a.play("deal")  # too soon after the same sound
    assert a.play("play")  # a different sound is not held back
    clock.t += mixer.SPEED_INTERVALS["normal"]
    assert a.play("deal")
    a.set_speed("fast")
    clock.t += mixer.SPEED_INTERVALS["normal"]  # fine at normal, too soon at fast
    assert not a.play("deal")
    clock.t += mixer.SPEED_INTERVALS["fast"]
    assert a.play("deal")
    assert mixer.SPEED_INTERVALS["slow"] < mixer.SPEED_INTERVALS["normal"] < mixer.SPEED_INTERVALS["fast"]


def test_instant_speed_keeps_only_the_important_sounds():
    a, be, clock = make_audio(speed="instant")
    for name in synth.SOUND_NAMES:
        clock.t += 1
        a.play(name)
    assert set(be.played) == IMPORTANT | {"click"}
    a.set_speed("warp")  # unknown speed: normal
    assert a.speed == "normal"


def test_play_all_staggers_with_update():
    a, be, _ = make_audio()
    a.play_all(["capture", "sweep"], gap=0.15)
    assert be.played == ["capture"]
    a.update(0.1)
    assert be.played == ["capture"]
    a.update(0.1)
    assert be.played == ["capture", "sweep"]


# ---------------------------------------------------------------- cues


def test_cues_for_capture_game_plays():
    assert sounds_for({"event": "play", "seat": 0, "card": "7D", "capture": [], "bonuses": []}, "scopa", 0) == ["play"]
    assert sounds_for(
        {"event": "play", "seat": 1, "card": "7D", "capture": ["3C", "4S"], "bonuses": []}, "scopa", 0
    ) == ["capture"]
    assert sounds_for(
        {"event": "play", "seat": 1, "card": "7D", "capture": ["7C"], "bonuses": ["scopa"]}, "scopa", 0
    ) == ["capture", "sweep"]
    assert sounds_for(
        {"event": "play", "seat": 0, "card": "7D", "capture": ["7C"], "bonuses": ["scua"]}, "cicera", 0
    ) == ["capture", "sweep"]
    for b in ("picada", "simili", "quadriglia"):
        assert sounds_for(
            {"event": "play", "seat": 0, "card": "7D", "capture": ["7C"], "bonuses": [b]}, "cicera", 0
        ) == ["capture", "bonus"]
    assert sounds_for(
        {"event": "play", "seat": 0, "card": "7D", "capture": ["7C"], "bonuses": ["scua", "picada"]}, "cicera", 0
    ) == ["capture", "sweep", "bonus"]


def test_cues_for_trick_game_events():
    assert sounds_for({"event": "play", "seat": 0, "card": "AC"}, "briscola", 0) == ["play"]
    assert sounds_for({"event": "trick", "winner": 1, "cards": ["AC", "3C"], "points": 21}, "briscola", 0) == ["trick"]
    assert sounds_for({"event": "marriage", "seat": 1, "suit": "C", "points": 20}, "schnapsen", 0) == ["bonus"]
    assert sounds_for({"event": "close", "seat": 0}, "schnapsen", 0) == ["close"]
    assert sounds_for({"event": "exchange", "seat": 0, "gave": "JC", "took": "AC"}, "schnapsen", 0) == ["capture"]


def test_cues_for_draws_flick_only_for_the_humans_side():
    draw0, draw1 = {"event": "draw", "seat": 0, "card": "5S"}, {"event": "draw", "seat": 1, "card": "6S"}
    assert sounds_for(draw0, "briscola", 0) == ["deal"]
    assert sounds_for(draw1, "briscola", 0) == []
    # 4 players: teams_of maps seat 2 to team 0, the human's partner.
    team_of = [0, 1, 0, 1]
    assert sounds_for({"event": "draw", "seat": 2, "card": "5S"}, "briscola", 0, team_of) == ["deal"]
    assert sounds_for({"event": "draw", "seat": 3, "card": "5S"}, "briscola", 0, lambda s: s % 2) == []
    assert sounds_for(draw1, "briscola", None) == ["deal"]  # bots only: every draw


def test_cues_for_deal_flow_events():
    assert sounds_for({"event": "match", "format": 1, "game": "scopa"}, "scopa", 0) == []
    assert sounds_for(
        {"event": "deal", "number": 1, "dealer": 0, "hands": [], "table": [], "stock": [], "trump": None}, "scopa", 0
    ) == ["shuffle", "deal"]
    assert sounds_for({"event": "redeal", "reason": "kings"}, "scopa", 0) == ["trick"]
    assert sounds_for({"event": "hands", "hands": [[], []]}, "scopa", 0) == ["deal"]


def test_cues_for_results_follow_the_humans_team():
    end = {"event": "deal_end", "number": 1, "leftover": None, "points": [3, 2], "totals": [3, 2], "detail": {}}
    assert sounds_for(end, "scopa", 0) == ["deal_won"]
    assert sounds_for(end, "scopa", 1) == ["deal_lost"]
    assert sounds_for({**end, "points": [2, 2]}, "scopa", 0) == []  # a tied deal is quiet
    assert sounds_for({**end, "points": [1, 4, 2]}, "scopa", 2) == ["deal_lost"]  # 3 players
    assert sounds_for({**end, "points": [0, 2]}, "schnapsen", 1) == ["deal_won"]  # game points
    assert sounds_for(end, "scopa", None) == []
    won = {"event": "match_end", "winner": 1, "totals": [9, 12]}
    assert sounds_for(won, "scopa", 1) == ["match_won"]
    assert sounds_for(won, "scopa", 0) == ["match_lost"]
    assert sounds_for({**won, "winner": None}, "scopa", 0) == []


def test_cues_never_raise_on_bad_events():
    for bad in (
        None,
        42,
        {},
        {"event": "nonsense"},
        {"event": "deal_end", "points": "x"},
        {"event": "deal_end", "points": [1]},
        {"event": "deal_end", "points": [1, None]},
        {"event": "draw", "seat": "x"},
        {"event": "play", "capture": ["7C"], "bonuses": None},
        {"event": "match_end", "winner": True},
    ):
        out = sounds_for(bad, "scopa", 0, [0, 1])
        assert isinstance(out, list) and all(n in synth.RECIPES for n in out)


def test_batch_drops_the_deal_result_before_the_match_result():
    evs = [
        {"event": "play", "seat": 0, "card": "7D", "capture": ["7C"], "bonuses": []},
        {"event": "deal_end", "number": 3, "points": [4, 1], "totals": [12, 8]},
        {"event": "match_end", "winner": 0, "totals": [12, 8]},
    ]
    assert sounds_for_batch(evs, "scopa", 0) == [["capture"], [], ["match_won"]]
    drawn = [evs[1], {"event": "match_end", "winner": None, "totals": [11, 11]}]
    assert sounds_for_batch(drawn, "scopa", 0) == [["deal_won"], []]


def _scopa_deal(seed: int):
    from game.ai.bots import make_bot
    from game.match import Match
    from game.rulesets import make_rules

    rules = make_rules("scopa", None, 2)
    m = Match(rules, seed, [make_bot("greedy", rules, s, seed + s) for s in range(2)])
    events = m.start()
    while not any(e["event"] == "deal_end" for e in events):
        events += m.step_bot()
    end = next(i for i, e in enumerate(events) if e["event"] == "deal_end")
    return rules, events[: end + 1]


def test_a_whole_scopa_deal_maps_to_the_expected_sounds():
    # Find a (deterministic) deal with a scopa in it.
    for seed in range(60):
        rules, events = _scopa_deal(seed)
        if any("scopa" in e.get("bonuses", ()) for e in events):
            break
    else:
        pytest.fail("no scopa in 60 greedy deals")
    per_event = sounds_for_batch(events, "scopa", 0, rules.team_of)
    flat = [n for names in per_event for n in names]
    # The deal opens with a shuffle and a deal; nothing sounds before.
    assert flat[:2] == ["shuffle", "deal"]
    plays = [(e, s) for e, s in zip(events, per_event) if e["event"] == "play"]
    dealt = sum(len(h) for e in events if e["event"] in ("deal", "hands") for h in e["hands"])
    assert len(plays) == dealt == 36  # 40 cards, 4 of them opened on the table
    for e, s in plays:
        expect = ["capture"] if e["capture"] else ["play"]
        if "scopa" in e["bonuses"]:
            expect.append("sweep")
        assert s == expect, e
    assert flat.count("sweep") == sum("scopa" in e["bonuses"] for e, _ in plays) >= 1
    assert flat.count("deal") == 1 + sum(e["event"] == "hands" for e in events)
    end = events[-1]
    me, them = end["points"]
    assert me != them, "pick a seed whose deal is not tied"
    assert flat[-1] == ("deal_won" if me > them else "deal_lost")
    # Through the player at "normal" speed, one event every 0.4 s, every cue is heard;
    # at "instant" only the sweep and the result.
    for speed, step in (("normal", 0.4), ("instant", 0.01)):
        a, be, clock = make_audio(speed=speed)
        for names in per_event:
            clock.t += step
            a.play_all(names, gap=0.12)
            a.update(0.2)
        if speed == "normal":
            assert be.played == flat
        else:
            assert be.played == [n for n in flat if n in IMPORTANT]


def test_cues_module_has_no_pygame_dependency():
    import ast
    import inspect

    for mod in (cues, synth):
        tree = ast.parse(inspect.getsource(mod))
        names = {
            a.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for a in node.names
        }
        mods = {
            node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
        }
        assert not ({"pygame", "numpy"} & (names | mods)), mod.__name__
