"""The game-select screen's house rules: the named presets (only those that fit the player
count) and Custom with its toggles, by keys and by mouse; each choice starts a table playing
exactly those options, and is remembered per game."""

from __future__ import annotations

import pygame
import pytest

from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings, load_settings
from game.variants import CUSTOM, house_rules
from scenes.app import TICK, App
from scenes.registry import register_scene, unregister_scene
from scenes.scene import Scene
from sprites import theme

CFG = get_config()
GAME = next(g for g in CFG.games.values() if g.presets)  # the game with presets (Scopa)
DECK = next(d for d in CFG.decks.values() if GAME.id in d.games)


def make_app(lang: str = "en", settings: Settings | None = None) -> App:
    s = settings or Settings(language=lang, animation_speed="instant")
    return App(CFG, s, I18n(lang), window=False)


def open_games(app: App, **params):
    app.open_path("games", deck=DECK.id, game=GAME.id, **params)
    app.update(TICK)
    return app.stack.top


def press(app: App, *keys: int, mod: int = 0) -> None:
    for k in keys:
        app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
        app.update(TICK)


def click(app: App, pos) -> None:
    pos = (round(pos[0]), round(pos[1]))
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(TICK)


def widget(app: App, name: str):
    return next(w for w in app.stack.top.ui.widgets if w.name == name)


def focused(app: App) -> str:
    w = app.stack.top.ui.focused
    return w.name if w else ""


def tab_to(app: App, name: str) -> None:
    """Tab (the keyboard's only way round the screen) until ``name`` has the focus."""
    for _ in range(len(app.stack.top.ui.widgets) + 1):
        if focused(app) == name:
            return
        press(app, pygame.K_TAB)
    raise AssertionError(f"Tab never reaches {name}")


def right_until(app: App, name: str, value) -> None:
    """Press Right on the chooser ``name`` until it shows ``value``."""
    tab_to(app, name)
    w = widget(app, name)
    for _ in range(len(w.options) + 1):
        if w.get() == value:
            return
        press(app, pygame.K_RIGHT)
    raise AssertionError(f"{name} never shows {value!r} (offers {[v for v, _ in w.options]})")


def segment(w, value):
    """The centre of ``value``'s segment of a segmented chooser."""
    i = [v for v, _ in w.options].index(value)
    seg = w.body.w / len(w.options)
    return (w.body.x + seg * (i + 0.5), w.body.centery)


def click_until(app: App, name: str, value) -> None:
    """Click the right arrow of a compact chooser (or the value's segment) until it shows ``value``."""
    w = widget(app, name)
    if not w._is_compact():
        click(app, segment(w, value))
    for _ in range(len(w.options) + 1):
        if w.get() == value:
            return
        click(app, (w.body.right - 12, w.body.centery))
    assert w.get() == value


def players_for(preset) -> int:
    return 4 if 4 in preset.players and 2 not in preset.players else min(preset.players)


def expected(preset, players: int) -> dict:
    return GAME.resolve_options(dict(preset.options), players)


# ---------------------------------------------------------------------- every preset starts its table
@pytest.mark.parametrize("preset", GAME.presets, ids=lambda p: p.id)
def test_each_preset_chosen_by_keys_starts_a_table_with_its_options(preset):
    app = make_app()
    open_games(app)
    n = players_for(preset)
    right_until(app, f"players:{GAME.id}", n)
    right_until(app, f"preset:{GAME.id}", preset.id)
    tab_to(app, f"start:{GAME.id}")
    press(app, pygame.K_RETURN)
    table = app.stack.top
    assert table.name == "table"
    assert table.rules.players == n and table.rules.options == expected(preset, n)


@pytest.mark.parametrize("preset", GAME.presets, ids=lambda p: p.id)
def test_each_preset_chosen_by_mouse_starts_a_table_with_its_options(preset):
    app = make_app()
    open_games(app)
    n = players_for(preset)
    click_until(app, f"players:{GAME.id}", n)
    click_until(app, f"preset:{GAME.id}", preset.id)
    click(app, widget(app, f"start:{GAME.id}").rect.center)
    table = app.stack.top
    assert table.name == "table"
    assert table.rules.players == n and table.rules.options == expected(preset, n)


# ---------------------------------------------------------------------- the player count
def test_only_the_presets_and_rules_that_fit_the_player_count_are_offered():
    app = make_app()
    scene = open_games(app)
    choice = widget(app, f"preset:{GAME.id}")
    for n in GAME.players:
        right_until(app, f"players:{GAME.id}", n)
        offered = [v for v, _ in choice.options]
        assert offered == [p.id for p in GAME.presets if n in p.players] + [CUSTOM]
        # Scopone is a four-player deal.
        assert ("scopone" in offered) == (n == 4)
        scene.open_custom(scene.panel_of(GAME.id))
        app.update(TICK)
        shown = {w.name for w in scene.ui.widgets if w.visible and w.name.startswith("rule:")}
        assert shown == {f"rule:{s.name}:{GAME.id}" for s in house_rules(GAME, n)}
        assert (f"rule:deal:{GAME.id}" in shown) == (n == 4)
        press(app, pygame.K_ESCAPE)
        assert scene.custom is None and app.stack.top is scene


def test_a_preset_for_four_gives_way_at_two_players_and_comes_back():
    app = make_app()
    open_games(app)
    right_until(app, f"players:{GAME.id}", 4)
    right_until(app, f"preset:{GAME.id}", "scopone")
    right_until(app, f"players:{GAME.id}", 2)
    assert widget(app, f"preset:{GAME.id}").get() == GAME.presets[0].id
    tab_to(app, f"start:{GAME.id}")
    press(app, pygame.K_RETURN)
    assert app.stack.top.rules.options["deal"] == GAME.options["deal"].default
    app.stack.pop()
    app.update(TICK)
    right_until(app, f"players:{GAME.id}", 4)
    assert widget(app, f"preset:{GAME.id}").get() == "scopone"


# ---------------------------------------------------------------------- Custom
def test_custom_toggles_by_keys_with_their_explanations():
    app = make_app()
    scene = open_games(app)
    right_until(app, f"players:{GAME.id}", 4)
    right_until(app, f"preset:{GAME.id}", CUSTOM)
    tab_to(app, f"edit:{GAME.id}")
    press(app, pygame.K_RETURN)
    assert scene.custom is not None
    assert focused(app) == f"rule:deal:{GAME.id}"  # the first rule has the focus
    # While the panel is open, the rest of the screen is out of the way of Tab.
    names = set()
    for _ in range(12):
        press(app, pygame.K_TAB)
        names.add(focused(app))
    assert names == {f"rule:{s.name}:{GAME.id}" for s in house_rules(GAME, 4)} | {f"done:{GAME.id}"}
    right_until(app, f"rule:deal:{GAME.id}", "scopone")
    right_until(app, f"rule:napola:{GAME.id}", True)
    with theme.measure_text() as m:
        app.render(1.0)
    drawn = {s for s, _, _ in m.entries}
    for spec in house_rules(GAME, 4):
        about = app.i18n.t(spec.describe)
        assert about.split()[0] in " ".join(drawn) and any(line in about for line in drawn if len(line) > 20)
    assert not m.overflows, m.overflows
    press(app, pygame.K_ESCAPE)  # closes the panel, not the screen
    assert scene.custom is None and focused(app) == f"edit:{GAME.id}"
    tab_to(app, f"start:{GAME.id}")
    press(app, pygame.K_RETURN)
    opts = app.stack.top.rules.options
    assert opts == GAME.resolve_options({"deal": "scopone", "napola": True}, 4)


def test_custom_toggles_by_mouse():
    app = make_app()
    scene = open_games(app)
    click_until(app, f"preset:{GAME.id}", CUSTOM)
    click(app, widget(app, f"edit:{GAME.id}").rect.center)
    assert scene.custom is not None
    for name in ("re_bello", "napola"):
        w = widget(app, f"rule:{name}:{GAME.id}")
        click(app, segment(w, True))
        assert w.get() is True
    click_until(app, f"rule:capture:{GAME.id}", "fifteen")
    assert not widget(app, f"rule:deal:{GAME.id}").visible  # two players: no Scopone deal
    click(app, widget(app, f"done:{GAME.id}").rect.center)
    assert scene.custom is None
    click(app, widget(app, f"start:{GAME.id}").rect.center)
    assert app.stack.top.rules.options == GAME.resolve_options(
        {"capture": "fifteen", "re_bello": True, "napola": True}, 2
    )


def test_custom_rules_that_match_a_preset_are_named_after_it():
    from game.variants import variant_name

    app = make_app()
    scene = open_games(app, players=4, custom=True)
    p = scene.custom
    right_until(app, f"rule:deal:{GAME.id}", "scopone")
    assert variant_name(app.i18n, GAME, p.in_force(), 4) == "Scopone scientifico"
    right_until(app, f"rule:aces:{GAME.id}", "take_all")
    assert variant_name(app.i18n, GAME, p.in_force(), 4) == "Custom: Scopone · Ace takes all"


def test_trying_presets_keeps_the_custom_toggles():
    app = make_app()
    scene = open_games(app, custom=True)
    right_until(app, f"rule:napola:{GAME.id}", True)
    press(app, pygame.K_ESCAPE)
    right_until(app, f"preset:{GAME.id}", "quindici")
    assert scene.panel_of(GAME.id).in_force()["napola"] is False  # the preset's own rules
    right_until(app, f"preset:{GAME.id}", CUSTOM)
    assert scene.panel_of(GAME.id).in_force()["napola"] is True


# ---------------------------------------------------------------------- remembered per game
def test_the_choice_is_remembered_per_game_and_restored():
    app = make_app()
    open_games(app)
    right_until(app, f"players:{GAME.id}", 4)
    right_until(app, f"preset:{GAME.id}", "scopone10")
    right_until(app, f"target:{GAME.id}", 21)
    other = next(g for g in DECK.games if g != GAME.id and "format" in CFG.games[g].options)
    right_until(app, f"format:{other}", "match")
    saved = load_settings().settings  # written to disk
    assert saved.variants[GAME.id]["preset"] == "scopone10"
    assert saved.game_options[GAME.id]["deal"] == "scopone10" and saved.game_options[GAME.id]["target"] == 21
    app2 = make_app(settings=saved)
    open_games(app2)
    assert widget(app2, f"players:{GAME.id}").get() == 4
    assert widget(app2, f"preset:{GAME.id}").get() == "scopone10"
    assert widget(app2, f"target:{GAME.id}").get() == 21
    assert widget(app2, f"format:{other}").get() == "match"
    assert widget(app2, f"players:{other}").get() == min(CFG.games[other].players)  # its own memory


@pytest.mark.parametrize(
    "variants,options",
    [
        (
            {GAME.id: {"preset": "no_such_preset", "custom": {"aces": "all", "napola": 1}}},
            {GAME.id: {"players": 7, "target": "eleven", "deal": "scopone", "napola": "yes"}},
        ),
        ({GAME.id: "not a mapping"}, {GAME.id: {"players": True, "capture": ["fifteen"]}}),
        ({GAME.id: {"preset": ["scopone"], "custom": "napola"}}, {GAME.id: {"deal": "scopone"}}),
    ],
)
def test_a_bad_remembered_choice_falls_back_to_the_defaults(variants, options):
    s = Settings.from_json(
        {"language": "en", "animation_speed": "instant", "variants": variants, "game_options": options}
    )
    app = make_app(settings=s)
    open_games(app)
    app.render(1.0)
    choice = widget(app, f"preset:{GAME.id}")
    assert widget(app, f"players:{GAME.id}").get() in GAME.players
    assert choice.get() in [v for v, _ in choice.options]
    tab_to(app, f"start:{GAME.id}")
    press(app, pygame.K_RETURN)
    table = app.stack.top
    assert table.name == "table"
    # Whatever survived is allowed for the table's player count.
    assert table.rules.options == GAME.resolve_options(table.rules.options, table.rules.players)


# ---------------------------------------------------------------------- games without presets
def test_games_without_presets_keep_their_option_controls():
    app = make_app()
    scene = open_games(app)
    for p in scene.panels:
        names = {s.widget.name for s in p.slots}
        if p.game.presets:
            continue
        assert f"preset:{p.game.id}" not in names
        for k, spec in p.game.options.items():
            if len(spec.allowed) > 1:
                assert f"{k}:{p.game.id}" in names
    other = next(p for p in scene.panels if not p.game.presets and "deals_to_win" in p.game.options)
    gid = other.game.id
    right_until(app, f"format:{gid}", "single")
    assert not widget(app, f"deals_to_win:{gid}").visible  # only for a match
    right_until(app, f"format:{gid}", "match")
    right_until(app, f"deals_to_win:{gid}", 3)
    right_until(app, f"players:{gid}", 4)
    seen: dict = {}

    def fake_table(a, **params):  # what the table is asked for (its bots are not the point here)
        seen.update(params)
        return Scene(a)

    register_scene("table", fake_table)
    try:
        tab_to(app, f"start:{gid}")
        press(app, pygame.K_RETURN)
    finally:
        unregister_scene("table")
    assert seen["players"] == 4 and seen["options"] == other.game.resolve_options(
        {"format": "match", "deals_to_win": 3}, 4
    )


def test_the_ai_level_is_one_control_for_every_game():
    app = make_app()
    open_games(app)
    right_until(app, "ai", "hard")
    assert app.settings.ai_level == "hard"
    tab_to(app, f"start:{GAME.id}")
    press(app, pygame.K_RETURN)
    assert app.stack.top.session.bot_name == "hard"
