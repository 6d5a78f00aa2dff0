"""The rules scene: a tab per game, scrolling by every path (clamped), text that fits, and
complete, really translated rule texts in all four languages."""

from __future__ import annotations

import re

import pygame
import pytest

from game.config import get_config
from game.services.i18n import I18n, load_locale
from game.services.settings import Settings
from scenes import rules
from scenes.app import TICK, App
from scenes.launch import main
from scenes.menu import MenuScene
from sprites import theme

LANGS = ("en", "nl", "de", "it")


def make_app(lang: str = "en") -> App:
    return App(get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False)


def open_rules(app: App, **params) -> rules.RulesScene:
    app.open_path("menu")
    assert app.open_scene("rules", **params)
    app.settle(2)
    return app.stack.top


def key(app: App, k: int, mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    app.update(TICK)


def mouse(app: App, kind: int, pos, **kw) -> None:
    app.stack.handle(pygame.event.Event(kind, pos=pos, **kw))


# ---------------------------------------------------------------------- opening
@pytest.mark.parametrize(
    "params,game,deck",
    [
        ({"deck": "piacentine"}, "scopa", "piacentine"),
        ({"deck": "schnapsen-german"}, "schnapsen", "schnapsen-german"),
        ({"deck": "bresciane", "game": "cicera"}, "cicera", "bresciane"),
        ({"deck": "piemontesi", "game": "briscola"}, "briscola", "piemontesi"),
        ({"deck": "piacentine", "game": "schnapsen"}, "schnapsen", "schnapsen-german"),  # names from a deck that has it
        ({}, "scopa", "piacentine"),
    ],
)
def test_opens_on_the_requested_game_with_the_decks_names(params, game, deck):
    app = make_app()
    scene = open_rules(app, **params)
    assert scene.game == game and scene.deck().id == deck


def test_court_and_suit_names_follow_the_deck():
    app = make_app()
    french = open_rules(app, deck="piemontesi", game="scopa")
    body = app.i18n.t("rules.scopa.scoring.body", **french.names())
    assert "7 of Diamonds" in body and "Coins" not in body
    german = open_rules(app, deck="schnapsen-german", game="schnapsen")
    assert "the King and Ober of one suit" in app.i18n.t("rules.schnapsen.special.body", **german.names())


# ---------------------------------------------------------------------- tabs
def test_tabs_switch_by_keyboard():
    app = make_app()
    scene = open_rules(app, deck="piacentine")
    key(app, pygame.K_RIGHT)
    assert scene.game == "cicera"
    key(app, pygame.K_TAB)
    assert scene.game == "briscola"
    key(app, pygame.K_TAB, pygame.KMOD_SHIFT)
    assert scene.game == "cicera"
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)
    assert scene.game == rules.GAMES[-1]  # wraps around (the last registered game)
    key(app, pygame.K_2)
    assert scene.game == "cicera"


def test_tabs_switch_by_mouse_and_start_at_the_top():
    app = make_app()
    scene = open_rules(app)
    key(app, pygame.K_END)
    assert scene.offset > 0
    for i, game in enumerate(rules.GAMES):
        r = scene.tab_rects()[i]
        mouse(app, pygame.MOUSEBUTTONDOWN, r.center, button=1)
        mouse(app, pygame.MOUSEBUTTONUP, r.center, button=1)
        assert scene.game == game
    assert scene.offset == 0


def test_contents_entry_jumps_to_its_section():
    app = make_app()
    scene = open_rules(app)
    _, tops = scene.page()
    r = scene.section_rects()[3]
    mouse(app, pygame.MOUSEBUTTONDOWN, r.center, button=1)
    assert scene.offset == min(tops[3], scene.max_offset()) > 0


# ---------------------------------------------------------------------- scrolling
@pytest.mark.parametrize("game", rules.GAMES)
def test_scrolls_by_keys_and_is_clamped_at_both_ends(game):
    app = make_app("de")
    scene = open_rules(app, game=game)
    top = scene.max_offset()
    assert top > 0, "every game's rules are longer than one screen"
    key(app, pygame.K_UP)
    assert scene.offset == 0
    key(app, pygame.K_DOWN)
    assert scene.offset == rules.LINE_STEP
    key(app, pygame.K_PAGEDOWN)
    assert scene.offset == pytest.approx(rules.LINE_STEP + scene.view_h() * 0.9) or scene.offset == top
    for _ in range(40):
        key(app, pygame.K_PAGEDOWN)
    assert scene.offset == top
    key(app, pygame.K_DOWN)
    assert scene.offset == top
    key(app, pygame.K_PAGEUP)
    assert scene.offset < top
    key(app, pygame.K_HOME)
    assert scene.offset == 0
    for _ in range(30):  # the drawn position follows the target
        app.update(TICK)
    assert scene.shown.value == pytest.approx(0, abs=0.5)


def test_scrolls_by_wheel_and_drag():
    app = make_app()
    scene = open_rules(app, game="schnapsen")
    app.stack.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, pos=rules.PAGE.center))
    assert scene.offset == 2 * rules.WHEEL_STEP
    app.stack.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=10, pos=rules.PAGE.center))
    assert scene.offset == 0
    # Drag the page up by 150 px: the text follows the hand.
    start = rules.PAGE.center
    mouse(app, pygame.MOUSEBUTTONDOWN, start, button=1)
    mouse(app, pygame.MOUSEMOTION, (start[0], start[1] - 150), rel=(0, -150), buttons=(1, 0, 0))
    mouse(app, pygame.MOUSEBUTTONUP, (start[0], start[1] - 150), button=1)
    assert scene.offset == 150 and scene.shown.value == 150
    # Dragging down past the top stops at 0.
    mouse(app, pygame.MOUSEBUTTONDOWN, start, button=1)
    mouse(app, pygame.MOUSEMOTION, (start[0], start[1] + 600), rel=(0, 600), buttons=(1, 0, 0))
    mouse(app, pygame.MOUSEBUTTONUP, (start[0], start[1] + 600), button=1)
    assert scene.offset == 0
    # The scrollbar thumb dragged to the bottom reaches the end.
    _, thumb = scene.scrollbar()
    mouse(app, pygame.MOUSEBUTTONDOWN, thumb.center, button=1)
    mouse(app, pygame.MOUSEMOTION, (thumb.centerx, 719), rel=(0, 500), buttons=(1, 0, 0))
    mouse(app, pygame.MOUSEBUTTONUP, (thumb.centerx, 719), button=1)
    assert scene.offset == scene.max_offset()


def test_esc_and_back_button_return():
    app = make_app()
    open_rules(app, deck="piacentine")
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, MenuScene)
    scene = open_rules(app, deck="piacentine")
    r = scene.back_button.rect
    mouse(app, pygame.MOUSEMOTION, r.center, rel=(0, 0), buttons=(0, 0, 0))
    mouse(app, pygame.MOUSEBUTTONDOWN, r.center, button=1)
    mouse(app, pygame.MOUSEBUTTONUP, r.center, button=1)
    assert isinstance(app.stack.top, MenuScene)


# ---------------------------------------------------------------------- every game, every language
@pytest.mark.parametrize("lang", LANGS)
def test_every_game_renders_and_every_line_fits(lang):
    app = make_app(lang)
    scene = open_rules(app)
    for game in rules.GAMES:
        scene.select(game)
        for where in (0, scene.max_offset()):
            scene.scroll_to(where)
            app.update(TICK)
            app.render(1.0)
            over = [x for x in scene.text_log if x[1] > x[2]]
            assert not over, f"{lang} {game}: {over}"
        page, tops = scene.page()
        assert len(tops) == len(scene.sections()) and page.get_width() <= rules.TEXT_W + 4
        names = scene.names()
        for sec in rules.SECTIONS:
            title = app.i18n.t(f"rules.{game}.{sec}.title")
            assert theme.text_width(title, rules.HEAD_FACE, rules.HEAD_SIZE) + 40 <= rules.TEXT_W
            body = app.i18n.t(f"rules.{game}.{sec}.body", **names)
            assert "{" not in body and "rules." not in body
            for kind, text in rules.parse_body(body):
                width = rules.TEXT_W - (rules.BULLET_INDENT if kind == "li" else 0)
                for line in theme.wrap(text, rules.BODY_FACE, rules.BODY_SIZE, width):
                    assert theme.text_width(line, rules.BODY_FACE, rules.BODY_SIZE) <= width, line


def _section(lang: str, name: str) -> dict[str, str]:
    table, problem = load_locale(lang)
    assert problem is None
    return {k: v for k, v in table.items() if k.startswith(name + ".")}


@pytest.mark.parametrize("name", ["rules", "results"])
def test_every_key_in_all_four_locales_with_the_same_structure(name):
    en = _section("en", name)
    assert en
    for lang in ("nl", "de", "it"):
        other = _section(lang, name)
        assert set(other) == set(en), f"{lang}: missing {set(en) - set(other)}, extra {set(other) - set(en)}"
        for k, v in en.items():
            assert type(other[k]) is type(v), k
            if isinstance(v, str):  # the same placeholders, so nothing is lost in translation
                assert set(re.findall(r"{(\w+)}", other[k])) == set(re.findall(r"{(\w+)}", v)), f"{lang} {k}"
                if k.endswith(".body"):  # the same bullet points: no rule dropped in a language
                    bullets = [len([b for b in rules.parse_body(x) if b[0] == "li"]) for x in (v, other[k])]
                    assert bullets[0] == bullets[1], f"{lang} {k}: {bullets}"
    if name == "rules":
        for game in rules.GAMES:
            for sec in rules.SECTIONS:
                assert f"rules.{game}.{sec}.title" in en and f"rules.{game}.{sec}.body" in en


@pytest.mark.parametrize("name", ["rules", "results"])
def test_nothing_left_in_english(name):
    en = _section("en", name)
    common_english = re.compile(r"\b(the|and|with|player|cards|trick|points|you|your|wins?)\b", re.I)
    for lang in ("nl", "de", "it"):
        other = _section(lang, name)
        same = [k for k, v in en.items() if other[k] == v]
        assert not same, f"{lang}: still English: {same}"
        for k, v in other.items():
            text = v if isinstance(v, str) else " ".join(v.values())
            words = common_english.findall(text)
            # A stray English word or two could be a name; whole English sentences are not.
            assert len(words) <= 1, f"{lang} {k}: {words}"


# Facts from RULES.md that every language must state (numbers survive translation).
FACTS = {
    ("scopa", "deal"): ["40", "3", "4"],
    ("scopa", "turn"): ["8", "9", "10"],
    ("scopa", "scoring"): ["21", "18", "16", "15", "14", "13", "12", "10"],
    ("scopa", "objective"): ["11", "16", "21", "31"],
    ("cicera", "deal"): ["52", "12", "4"],
    ("cicera", "scoring"): ["2 ", "13", "10"],
    ("cicera", "end"): ["21", "51"],
    ("briscola", "scoring"): ["11", "10", "4", "3", "2", "120", "60"],
    ("briscola", "end"): ["2", "3"],
    ("schnapsen", "deal"): ["20", "11", "10", "4", "3", "2", "120", "9"],
    ("schnapsen", "special"): ["20", "40"],
    ("schnapsen", "scoring"): ["66", "33", "1", "2", "3", "10"],
    ("schnapsen", "end"): ["7", "0"],
    ("chiamata", "deal"): ["40", "8", "11", "10", "120"],
    ("chiamata", "turn"): ["2", "62", "120", "61"],
    ("chiamata", "scoring"): ["61", "60", "+2", "+1", "−1", "−2", "+4", "−4", " 0"],
    ("chiamata", "end"): ["10", "5", "15", "20"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_numbers_of_the_rules_are_stated_in_every_language(lang):
    i18n = I18n(lang)
    for (game, sec), numbers in FACTS.items():
        body = i18n.t(f"rules.{game}.{sec}.body")
        for n in numbers:
            assert n in body, f"{lang} {game}.{sec}: {n!r} missing"
    # Each section is real prose: paragraphs or bullets, several of them in the longer ones.
    for game in rules.GAMES:
        blocks = [b for s in rules.SECTIONS for b in rules.parse_body(i18n.t(f"rules.{game}.{s}.body"))]
        assert sum(1 for k, _ in blocks if k == "li") >= 6, game


def test_screenshot_of_the_rules(tmp_path):
    out = tmp_path / "rules.png"
    assert main(["--screenshot", str(out), "--scene", "rules", "--game", "cicera", "--lang", "it", "--ticks", "3"]) == 0
    assert pygame.image.load(str(out)).get_size() == (1280, 720)


# ---------------------------------------------------------------------- house rules
#: RULES.md's "House rules (options)": a section for each.
HOUSE = {
    "scopa": ["deal", "capture", "aces", "re_bello", "napola"],
    "cicera": ["format"],
    "briscola": ["partners"],
    "chiamata": ["cappotto", "first_lead"],
}
HOUSE_FACTS = {
    ("scopa", "deal"): ["9", "4", "10"],
    ("scopa", "capture"): ["15", "7", "8", "5", "3", "1", "10"],
    ("scopa", "napola"): ["2", "3", "4", "10"],
    ("scopa", "re_bello"): ["1"],
    ("cicera", "format"): ["21", "51", "0"],
    ("briscola", "partners"): ["3", "28", "10", "60", "2"],
    ("chiamata", "cappotto"): ["120", "+4", "+2", "+8"],
}


def test_every_house_rule_has_its_section_after_the_standard_ones():
    app = make_app()
    cfg = get_config()
    for game in rules.GAMES:
        assert rules.house_sections(cfg, game, app.i18n.has) == HOUSE.get(game, [])
    scene = open_rules(app, game="scopa")
    assert scene.sections() == [
        *(("base", s) for s in rules.SECTIONS),
        *(("house", h) for h in HOUSE["scopa"]),
        *(("common", c) for c in rules.COMMON),
    ]
    labels = [label for label, _ in scene.contents()]
    assert labels[-2] == "House rules" and len(labels) == len(rules.SECTIONS) + 1 + len(rules.COMMON)
    assert labels[-1] == "Daily deal, par and duplicate"
    # Its contents entry jumps to the first house rule.
    r = scene.section_rects()[-2]
    mouse(app, pygame.MOUSEBUTTONDOWN, r.center, button=1)
    assert scene.offset == min(scene.page()[1][len(rules.SECTIONS)], scene.max_offset()) > 0


def test_house_rule_texts_in_all_four_languages_with_the_same_structure():
    en = _section("en", "house_rules")
    assert en
    for lang in ("nl", "de", "it"):
        other = _section(lang, "house_rules")
        assert set(other) == set(en), f"{lang}: missing {set(en) - set(other)}, extra {set(other) - set(en)}"
        for k, v in en.items():
            assert set(re.findall(r"{(\w+)}", other[k])) == set(re.findall(r"{(\w+)}", v)), f"{lang} {k}"
            if k.endswith(".body"):
                assert other[k] != v, f"{lang} {k}: still English"
                bullets = [len([b for b in rules.parse_body(x) if b[0] == "li"]) for x in (v, other[k])]
                assert bullets[0] == bullets[1], f"{lang} {k}: {bullets}"
                words = re.findall(r"\b(the|and|with|player|cards|trick|points|you|your|wins?)\b", other[k], re.I)
                assert len(words) <= 1, f"{lang} {k}: {words}"
    for game, ids in HOUSE.items():
        for i in ids:
            assert f"house_rules.page.{game}.{i}.title" in en and f"house_rules.page.{game}.{i}.body" in en


@pytest.mark.parametrize("lang", LANGS)
def test_the_numbers_of_the_house_rules_are_stated_in_every_language(lang):
    i18n = I18n(lang)
    for (game, sec), numbers in HOUSE_FACTS.items():
        body = i18n.t(f"house_rules.page.{game}.{sec}.body")
        for n in numbers:
            assert n in body, f"{lang} {game}.{sec}: {n!r} missing"


def _table_with(app: App, game: str, players: int, options: dict):
    app.open_path("table", game=game, players=players, options=options, ai_level="greedy")
    table = app.stack.top
    assert table.name == "table" and table.rules.options == get_config().games[game].resolve_options(options)
    return table


def test_the_rules_opened_from_a_table_show_the_rules_in_force_first():
    app = make_app()
    table = _table_with(app, "scopa", 4, {"deal": "scopone", "napola": True})
    key(app, pygame.K_ESCAPE)  # the pause overlay
    pause = app.stack.top
    assert pause.name == "pause"
    next(w for w in pause.ui.widgets if w.name == "rules").activate()
    scene = app.stack.top
    assert scene.name == "rules" and scene.game == "scopa"
    secs = scene.sections()
    # The rules in force, the house rules in force, then the standard rules and the others.
    assert secs[:3] == [("force", ""), ("house", "deal"), ("house", "napola")]
    assert secs[3 : 3 + len(rules.SECTIONS)] == [("base", s) for s in rules.SECTIONS]
    assert secs[3 + len(rules.SECTIONS) :] == [
        ("house", "capture"),
        ("house", "aces"),
        ("house", "re_bello"),
        *(("common", c) for c in rules.COMMON),
    ]
    body = scene.in_force_body()
    assert body.startswith("Custom: Scopone · Napola · 4 players")
    for line in (
        "- Deal: Scopone: nine each",
        "- Napola (run of Coins): On",
        "- Capture: Match first",
        "- Match to: 11",
    ):
        assert line in body.split("\n")
    assert scene.contents()[0] == ("At this table", [0]) and scene.offset == 0
    app.render()
    drawn = [s for s, _, _ in scene.text_log]
    assert "At this table" in drawn
    # Another game's tab shows its rules as written; back on this game, the table's rules again.
    scene.select("cicera")
    assert scene.sections()[0] == ("base", "objective")
    scene.select("scopa")
    assert scene.sections()[0] == ("force", "")
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is pause and table in app.stack.scenes


def test_the_rules_in_force_for_the_classic_game_and_for_briscola_for_four():
    app = make_app()
    scene = open_rules(app, game="scopa", options={}, players=2)
    assert scene.sections()[0] == ("force", "") and scene.sections()[1] == ("base", "objective")
    body = scene.in_force_body()
    assert body.startswith("Classic Scopa · 2 players") and "Deal:" not in body  # Scopone is for four
    assert "No house rule is in force" in body
    scene = open_rules(app, game="briscola", options={"format": "match", "deals_to_win": 3}, players=4)
    assert scene.sections()[:2] == [("force", ""), ("house", "partners")]
    assert "- Deals to win: 3" in scene.in_force_body().split("\n")
    # Nonsense from an old save: the rules as written, no crash.
    scene = open_rules(app, game="scopa", options={"deal": "thirteen"}, players=4)
    assert scene.sections()[0] == ("base", "objective")


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_in_force_fit_in_every_language(lang):
    app = make_app(lang)
    cases = [
        (
            "scopa",
            4,
            {
                "deal": "scopone10",
                "capture": "fifteen",
                "aces": "take_all",
                "re_bello": True,
                "napola": True,
                "target": 31,
            },
        ),
        ("cicera", 4, {"format": "match", "target": 51}),
        ("briscola", 4, {"format": "match"}),
    ]
    for game, players, options in cases:
        scene = open_rules(app, game=game, options=options, players=players)
        for where in (0, scene.max_offset() / 2, scene.max_offset()):
            scene.scroll_to(where)
            app.update(TICK)
            with theme.measure_text() as m:
                app.render(1.0)
            over = [x for x in scene.text_log if x[1] > x[2]] + m.overflows
            assert not over, f"{lang} {game}: {over}"
        assert scene.section_rects()[-1].bottom + 18 + 100 <= scene.back_button.rect.top + 10
