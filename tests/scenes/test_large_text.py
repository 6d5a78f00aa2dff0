"""Extra large text on the menu and the settings pages, in every language: the title block keeps
left of the card fan, a slider's caption keeps clear of its value, and labels that stand
together (the settings' rows, their buttons, the menu's grid) share one size — as large as
the text size asks, not each shrunk to its own length."""

from __future__ import annotations

import pytest

from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import TICK, App
from scenes.settings import label_size
from sprites import theme
from sprites.controls import Button, Slider

CFG = get_config()
LANGS = ("en", "nl", "de", "it")


@pytest.fixture
def xlarge():
    theme.set_text_scale(theme.TEXT_SCALES["xlarge"])
    yield
    theme.set_text_scale(1.0)


def make_app(lang: str, text_size: str = "xlarge") -> App:
    return App(CFG, Settings(language=lang, animation_speed="instant", text_size=text_size), I18n(lang), window=False)


def opened(lang: str, scene: str, text_size: str = "xlarge"):
    app = make_app(lang, text_size)
    app.open_path(scene)
    for _ in range(30):  # the fades in
        app.update(TICK)
    app.render(1.0)
    return app, app.stack.top


@pytest.mark.parametrize("lang", LANGS)
def test_the_menus_title_block_keeps_left_of_the_card_fan(lang, xlarge):
    _, menu = opened(lang, "menu")
    assert theme.TEXT_SCALE[0] == theme.TEXT_SCALES["xlarge"]
    assert len(menu.title_rects) == 3 and menu.fan_rect is not None
    for r in menu.title_rects:  # the title, the games' names, the subtitle
        assert r.right <= menu.fan_rect.left, (r, menu.fan_rect)


@pytest.mark.parametrize("lang", LANGS)
def test_a_slider_caption_keeps_clear_of_its_value(lang, xlarge):
    _, menu = opened(lang, "menu")
    sliders = [w for w in menu.ui.widgets if isinstance(w, Slider) and w.caption is not None]
    assert len(sliders) == 3
    sizes = set()
    for s in sliders:
        size = s.caption_fit()
        caption = theme.text_width(s.caption(), "cond_bold", size, 0.16 * size, True)
        value = theme.text_width(s.fmt(s.hi), "sans_bold", 15)
        assert 2 + caption + 12 + value <= s.rect.w + 2, (s.caption(), caption, value, s.rect.w)
        sizes.add(min(p.caption_fit() for p in s.caption_peers))
    assert len(sizes) == 1  # the bar's captions at one size


@pytest.mark.parametrize("lang", LANGS)
def test_the_settings_labels_share_one_size_as_large_as_asked(lang, xlarge):
    for scene, size in (("settings", 16), ("accessibility", 17)):
        _, page = opened(lang, scene)
        module = __import__(f"scenes.{'access_settings' if scene == 'accessibility' else 'settings'}", fromlist=["x"])
        labels = [page.t(k) for k, _ in page.rows]
        # Every label fits its column at the full size: none is shrunk, so none differs.
        assert label_size(labels, size, module.CONTROL_X - module.LABEL_X - 16) == size, scene
        buttons = [w for w in page.ui.widgets if isinstance(w, Button)]
        if scene == "settings":
            assert len({min(b.fitted_size() for b in w.peers) for w in buttons}) == 1
            assert all(w.peers == tuple(buttons) for w in buttons)


@pytest.mark.parametrize("lang", LANGS)
def test_the_menus_buttons_grow_with_the_text(lang):
    _, normal = opened(lang, "menu", "normal")
    widths = {b.name: b.rect.w for b in normal.column}
    shown = min(b.fitted_size() for b in normal.column[2:])  # the grid's one size, in pixels
    try:
        _, large = opened(lang, "menu")
        grid = large.column[2:]
        assert all(b.peers == tuple(grid) for b in grid)  # drawn at one size
        assert all(b.rect.w > widths[b.name] for b in large.column)
        assert max(b.rect.right for b in large.column) <= large.title_rects[0].right  # still left of the fan
        # The larger text is larger on the buttons too.
        assert min(b.fitted_size() for b in grid) * theme.TEXT_SCALE[0] > shown
    finally:
        theme.set_text_scale(1.0)


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_step_shows_whole_at_extra_large_text(lang, xlarge):
    """The lesson's panel grows with the text (beside the table; in the four players' band
    as far as the table's cards) and shows each step whole, never smaller than usual."""
    from game.lessons.lesson import get_lesson, lesson_names
    from scenes.learn import panel

    i18n = I18n(lang)
    cut = []
    for name in lesson_names():
        lesson = get_lesson(name)
        texts = [i18n.t(k) for k in lesson.keys]
        if name == "schnapsen":  # step 2 with the marriage on: its guidance under the step's words
            from scenes.names import cards_list

            pair = cards_list(i18n.t, lesson.make_rules().deck, lang, ["KC", "QC"])
            texts.append(f"{i18n.t('lessons.schnapsen.s2')}\n{i18n.t('lessons.marriage_on', cards=pair)}")
        for text in texts:
            size = panel.body_size(text, lesson.players)
            assert size * theme.TEXT_SCALE[0] >= panel.BODY_SIZE  # never below the usual size
            lines = theme.wrap(text, "sans", size, panel.body_width(lesson.players))
            if len(lines) > panel.body_lines(lesson.players, size):
                cut.append(f"{name}: {text[:40]}…")
    assert not cut, cut
    assert panel.panel_rect(2).right == panel.SIDE.right and panel.panel_rect(2).w > panel.SIDE.w
