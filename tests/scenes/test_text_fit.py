"""Every scene in every language renders, and no text is wider than the box it is drawn in.

The measure is ``sprites.theme.measure_text``: while it is open, ``fit`` (labels that shrink to
their box), ``wrap`` (paragraphs), ``blit_text`` (text running off its surface) and
``note_box`` (boxes measured by hand) record (text, width, box). A German label that still
does not fit at the smallest size, or a word wider than its column, is an overflow.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import pygame
import pytest

from game.ai.bots import BOTS
from game.coach import job as coach_job
from game.coach.analysis import COACH_SEED, analyse_events
from game.config import get_config
from game.rules.base import Action
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import App
from scenes.launch import scene_params
from scenes.registry import available_scenes
from sprites import theme

LANGS = ("en", "nl", "de", "it")
SEED = 7  # a fixed mid-deal table
GROUP = pytest.mark.xdist_group("text-fit")  # one worker: the languages share the computers' choices


def views() -> list[tuple[str, dict]]:
    """(scene, params) for every screen a player can reach, as bench/screens.py shoots them."""
    cfg = get_config()
    out: list[tuple[str, dict]] = [("menu", {}), ("decks", {}), ("settings", {}), ("pause", {})]
    out += [("games", {"deck": d}) for d in cfg.decks]
    out += [("rules", {"game": g}) for g in cfg.games]
    for g, game in cfg.games.items():
        out += [("table", {"game": g, "players": n, "seed": SEED}) for n in game.players]
        out += [("results", {"game": g}), ("results", {"game": g, "match_end": True})]
    # The house rules: Custom open on the game select, the rules in force on the rules page,
    # the variant's name on the table (every house rule at its last value: the longest name).
    for g, game in cfg.games.items():
        house = {k: spec.allowed[-1] for k, spec in game.options.items() if spec.describe}
        if game.presets:
            for d, deck in cfg.decks.items():
                if g in deck.games:
                    out += [
                        ("games", {"deck": d, "game": g, "players": n, "custom": True})
                        for n in (min(game.players), max(game.players))
                    ]
        opts = {k: spec.allowed[-1] for k, spec in game.options.items()}
        out.append(("rules", {"game": g, "options": opts, "players": max(game.players)}))
        if house:
            out.append(("table", {"game": g, "players": max(game.players), "seed": SEED, "options": house}))
    # The lessons: a wrong move explained, in the side panel (two players) and in the
    # four-player band (tests/scenes/test_learn.py wraps every lesson's words to its panel).
    from game.lessons.lesson import get_lesson, lesson_names

    two, four = (next(n for n in lesson_names() if (get_lesson(n).players == 4) == band) for band in (False, True))
    out += [("lesson", {"game": g, "step": 2, "overlay": "wrong"}) for g in (two, four)]
    # A puzzle of each game at the table, chosen by its place in the shipped set (the default
    # is a random one near the player's rating).
    out += [("puzzle", {"game": g, "step": 1}) for g in cfg.games]
    known = {name for name, _ in out}
    # Scenes added later are covered too, opened with their defaults.
    out += [(name, {}) for name in available_scenes() if name not in known]
    return out


VIEWS = views()


def make_app(lang: str) -> App:
    return App(get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False)


def render(app: App, scene: str, params: dict, ticks: int = 20) -> theme.TextMeasure:
    """Open ``scene`` as ``--screenshot --scene`` does, let it settle, draw one frame, measured."""
    ns = type(
        "Args",
        (),
        {
            "deck": params.get("deck"),
            "game": params.get("game"),
            "match_end": params.get("match_end"),
            "players": params.get("players"),
            "seed": params.get("seed"),
        },
    )()
    extra = {k: v for k, v in params.items() if k not in ("deck", "game", "match_end", "players", "seed")}
    app.open_path(scene, **scene_params(ns, app.config, app.settings), **extra)
    app.settle(ticks)
    with theme.measure_text() as m:
        app.render(1.0)
    return m


# ---------------------------------------------------------------------- the computers' choices, once
#: (bot, game, seat, seed, every (decision, view, legal) it was asked so far) -> its choice.
_CHOICES: dict[tuple, Action] = {}


class _Remembered:
    """A real bot whose choices are remembered for the next language. The tables are seeded and
    a bot sees only its views (``game.match.Bot``): with the same history of questions it gives
    the same answer, so each language's table reaches the same positions and only the repeated
    search is spared. A question asked for the first time goes to the real bot."""

    path = ""  # the real bot, as in game.ai.bots.BOTS

    def __init__(self, rules: Any, seat: int, seed: int = 0):
        module, cls = self.path.split(":")
        self.bot = getattr(importlib.import_module(module), cls)(rules, seat, seed)
        self.history: tuple = (
            self.path,
            rules.game_id,
            rules.players,
            repr(getattr(rules, "options", None)),
            seat,
            seed,
        )
        self.number: int | None = None

    def begin_decision(self, number: int) -> None:
        self.number = number
        begin = getattr(self.bot, "begin_decision", None)
        if begin is not None:
            begin(number)

    def choose(self, view: Any, legal: list[Action], should_stop: Any = None) -> Action:
        self.history = (self.history, self.number, repr(view), tuple(map(repr, legal)))
        if self.history not in _CHOICES:
            _CHOICES[self.history] = self.bot.choose(view, legal, should_stop)
        return _CHOICES[self.history]

    def __getattr__(self, name: str) -> Any:  # anything else the table asks of its bot
        if name == "bot":
            raise AttributeError(name)
        return getattr(self.bot, name)


#: (record, seat, budget, seed, deals) -> the coach's finished analysis of it.
_ANALYSES: dict[tuple, Any] = {}


def _remembered_analysis(events, seat, budget=None, seed=COACH_SEED, progress=None, should_stop=None, deals=None):
    """The coach's analysis, searched once per record and budget and shown in every language:
    the same record, seat, budget and seed give the same analysis (its search is seeded), and
    the coach view only reads it; its words are drawn in the view's language each time."""
    key = (json.dumps(events, sort_keys=True), seat, budget, seed, None if deals is None else tuple(sorted(deals)))
    if key not in _ANALYSES:
        found = analyse_events(events, seat, budget, seed, progress, should_stop, deals)
        if not found.complete:  # cut short: not the analysis to show again
            return found
        _ANALYSES[key] = found
    return _ANALYSES[key]


@pytest.fixture
def remembered_bots(monkeypatch):
    # The tables only need their positions reached, not well played: every level is the greedy
    # bot here (a searching level spent half this file's time on its playouts).
    for name in list(BOTS):
        cls = type(f"_Remembered_{name}", (_Remembered,), {"path": BOTS["greedy"]})
        monkeypatch.setattr(sys.modules[__name__], cls.__name__, cls, raising=False)
        monkeypatch.setitem(BOTS, name, f"{__name__}:{cls.__name__}")
    monkeypatch.setattr(coach_job, "analyse_events", _remembered_analysis)


@GROUP
@pytest.mark.parametrize("lang", LANGS)
def test_every_scene_renders_and_every_text_fits_its_box(lang, remembered_bots):
    app = make_app(lang)
    problems = []
    for scene, params in VIEWS:
        m = render(app, scene, params)
        label = f"{scene} {params}"
        if not m.entries:
            problems.append(f"{label}: no text was measured")
        problems += [f"{label}: {s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]
        # A key that was not found shows as the key itself ("results.scopa.cards"): never on screen.
        problems += [
            f"{label}: raw key {s!r}"
            for s, _, _ in m.entries
            if "." in s and " " not in s and s.split(".")[0] in _SECTIONS
        ]
    assert not problems, "\n".join(problems)


@GROUP
@pytest.mark.parametrize("lang", ["de", "it"])
def test_every_screen_fits_at_the_largest_text_size(lang, remembered_bots):
    """Extra large text (Settings → Accessibility): every screen but the tables (their layout
    at each text size is tests/scenes/test_card_sizes.py's) keeps its words in their boxes,
    in the two longest languages."""
    app = App(
        get_config(), Settings(language=lang, animation_speed="instant", text_size="xlarge"), I18n(lang), window=False
    )
    assert theme.TEXT_SCALE[0] == theme.TEXT_SCALES["xlarge"]
    problems = []
    try:
        for scene, params in VIEWS:
            if scene in ("table", "lesson", "puzzle"):
                continue
            m = render(app, scene, params)
            problems += [f"{scene} {params}: {s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]
    finally:
        theme.set_text_scale(1.0)  # the next test in this worker draws at the usual size
    assert not problems, "\n".join(problems)


_SECTIONS = {
    "app",
    "common",
    "menu",
    "decks",
    "games",
    "ai",
    "option",
    "line",
    "blurb",
    "settings",
    "hint",
    "scene",
    "toast",
    "results",
    "rules",
    "table",
    "callouts",
    "refusals",
    "pause",
    "resume",
    "stats",
    "house_rules",
    "preset",
}


def test_the_check_fails_when_a_label_is_too_long(tmp_path):
    """The measure is real: a German-length label on a button is reported, a short one is not."""
    app = make_app("de")
    long = "Sehr lange Spielbeschreibung " * 4
    app.i18n._table("de")["menu.play"] = long  # as if a translation were far too long
    try:
        m = render(app, "menu", {})
        assert any(s.upper() == long.upper() or s == long for s, _, _ in m.overflows), m.overflows
    finally:
        app.i18n._tables.pop("de", None)
    app = make_app("de")
    m = render(app, "menu", {})
    assert m.entries and not m.overflows


def test_measure_records_fit_wrap_and_text_off_the_surface():
    pygame.font.init()
    with theme.measure_text() as m:
        assert theme.fit("Kurz", "sans", 16, 200, 10) == 16
        theme.fit("Donaudampfschifffahrtsgesellschaftskapitän", "sans", 16, 60, 10)
        theme.wrap("ein Wort", "sans", 14, 300)
        theme.wrap("Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz", "sans", 14, 80)
        surf = pygame.Surface((100, 40))
        theme.blit_text(surf, "passt", (2, 2), "sans", 12)
        theme.blit_text(surf, "ragt über den Rand hinaus", (60, 2), "sans", 12)
    texts = [s for s, _, _ in m.overflows]
    assert texts == [
        "Donaudampfschifffahrtsgesellschaftskapitän",
        "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
        "ragt über den Rand hinaus",
    ]
    assert {s for s, _, _ in m.entries} >= {"Kurz", "ein Wort", "passt"}
    # Outside the block nothing is recorded.
    theme.fit("Donaudampfschifffahrtsgesellschaftskapitän", "sans", 16, 60, 10)
    assert len(m.entries) == 6


@pytest.mark.parametrize("lang", LANGS)
def test_every_callout_fits_its_band(lang):
    """Call-outs flash by during play (no screenshot catches them): draw each one, with the
    longest seat name, and measure its words against the band."""
    from sprites import tween
    from sprites.table_draw import Callout

    pygame.font.init()
    tween.set_animation_speed("normal")  # an earlier app may have left "instant" (no call-outs at all)
    i18n = I18n(lang)
    names = [
        i18n.t(k)
        for k in (
            "table.you",
            "table.partner",
            "table.subject.partner",
            "table.west",
            "table.north",
            "table.east",
            "table.us",
            "table.them",
        )
    ]
    name = max(names, key=len)
    suit = max((d.suit_name(s, lang) for d in get_config().decks.values() for s in "DCSB"), key=len)
    subs = {
        "close": i18n.t("callouts.close_sub", name=name),
        "redeal": i18n.t("callouts.redeal_sub"),
        "close ": i18n.t("callouts.close_sub_you"),
        "leftover": i18n.t("callouts.leftover_sub", name=name),
        "exchange": "",
        "last_trick": "",
    }
    surf = pygame.Surface((1280, 720), pygame.SRCALPHA)
    with theme.measure_text() as m:
        for key, sub in subs.items():
            c = Callout(i18n.t(f"callouts.{key.strip()}"), sub)
            c.update(0.5)  # fully grown
            c.draw(surf, (640, 330))
        c = Callout("40!", i18n.t("callouts.marriage_sub", name=name, suit=suit))
        c.update(0.5)
        c.draw(surf, (640, 330))
    assert len(m.entries) >= 10
    assert not m.overflows, m.overflows
