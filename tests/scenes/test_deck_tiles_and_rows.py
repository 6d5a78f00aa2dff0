"""Every game on its deck's tile; a row of controls that keeps still when a choice adds one;
the rules page left by Esc, not by Down then Enter."""

from __future__ import annotations

import pygame

from scenes.app import TICK
from tests.scenes.test_table import key, make_app


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
