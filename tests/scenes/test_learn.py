"""Learn in the window: menu → Learn → a lesson → a wrong move, explained →
taken back → the good moves to the end → back to the list with the done mark kept; by the
keys and by the mouse. And every lesson's words fit its panel in every language."""

from __future__ import annotations

import pygame
import pytest

from game.config import get_config
from game.lessons.lesson import get_lesson, lesson_names
from game.rules.capture import captured
from game.services.i18n import I18n
from game.services.settings import Settings, load_settings
from scenes.app import TICK, App
from scenes.learn import panel
from sprites import theme
from tests.scenes.test_table import click, key, keyboard_play, mouse_play

CFG = get_config()
LANGS = ("en", "nl", "de", "it")


def make_app(lang: str = "en") -> App:
    return App(CFG, Settings(language=lang, animation_speed="instant"), I18n(lang), window=False)


def widget(scene, name: str):
    widgets = scene.ui.widgets + getattr(scene, "lesson_ui", scene.ui).widgets
    return next(w for w in widgets if getattr(w, "name", None) == name)


def settle(app: App, ticks: int = 40) -> None:
    for _ in range(ticks):
        app.update(TICK)


def wait_for_move(app: App, lesson) -> None:
    """Until the lesson waits for the player's move (the scripted seats have played)."""
    for _ in range(400):
        app.update(TICK)
        if lesson.session.human_to_act and lesson.controller.can_act:
            return
    raise AssertionError(f"the lesson never asked for a move (phase {lesson.session.phase})")


def good_and_wrong(lesson):
    s = lesson.session
    step = s.current
    legal = s.legal_actions()
    return next(a for a in legal if step.is_good(a)), [a for a in legal if not step.is_good(a)]


def to_learn_by_keys(app: App) -> None:
    app.open_path("menu")
    settle(app, 3)
    menu = app.stack.top
    for _ in range(len(menu.ui.widgets)):
        if getattr(menu.ui.focused, "name", None) == "learn":
            break
        key(app, pygame.K_TAB)
    assert menu.ui.focused.name == "learn"
    key(app, pygame.K_RETURN)
    settle(app, 3)
    assert app.stack.top.name == "learn"


def test_a_lesson_by_the_keys_from_the_menu_to_the_done_mark():
    app = make_app()
    to_learn_by_keys(app)
    learn = app.stack.top
    assert learn.ui.focused.name == "lesson_scopa"  # the first lesson not yet done
    key(app, pygame.K_RETURN)
    settle(app)
    lesson = app.stack.top
    assert lesson.name == "lesson" and lesson.lesson.name == "scopa" and lesson.phase == "intro"
    assert lesson.panel_text()[1] == app.t("lessons.scopa.intro")
    key(app, pygame.K_RETURN)  # Start
    wait_for_move(app, lesson)
    assert lesson.panel_text() == (app.t("lessons.step", n=1, total=4), app.t("lessons.scopa.s1"))
    good, wrong = good_and_wrong(lesson)
    placed = next(a for a in wrong if not captured(a))  # the 3 of Coins put down
    keyboard_play(app, lesson, placed)
    settle(app)
    assert lesson.phase == "wrong" and "3D" in lesson.model.table
    assert lesson.panel_text()[1] == app.t("lessons.scopa.s1_other")
    key(app, pygame.K_BACKSPACE)  # take back
    settle(app)
    assert lesson.phase == "move" and "3D" in lesson.model.hand and "3D" not in lesson.model.table
    for n in range(len(lesson.lesson.steps)):
        wait_for_move(app, lesson)
        good, _ = good_and_wrong(lesson)
        keyboard_play(app, lesson, good)
        settle(app)
        assert lesson.phase == "good"
        assert lesson.panel_text()[1] == app.t(f"lessons.scopa.s{n + 1}_why")
        key(app, pygame.K_RETURN)  # Next
    settle(app)
    assert lesson.phase == "done" and lesson.panel_text()[1] == app.t("lessons.scopa.outro")
    assert app.settings.lessons_done == ["scopa"]
    key(app, pygame.K_RETURN)  # back to the lessons
    settle(app, 3)
    top = app.stack.top
    assert top.name == "learn" and top.is_done("scopa") and not top.is_done("briscola")
    assert widget(top, "lesson_scopa").label() == app.t("lessons.again")
    assert top.ui.focused.name == "lesson_cicera"  # the next lesson not done yet
    assert load_settings().settings.lessons_done == ["scopa"]  # kept on disk
    key(app, pygame.K_ESCAPE)
    settle(app, 3)
    assert app.stack.top.name == "menu"


def test_a_lesson_by_the_mouse_with_a_wrong_move_taken_back():
    app = make_app("de")
    app.open_path("menu")
    settle(app, 3)
    click(app, widget(app.stack.top, "learn").rect.center)
    settle(app, 3)
    click(app, widget(app.stack.top, "lesson_briscola").rect.center)
    settle(app)
    lesson = app.stack.top
    assert lesson.lesson.name == "briscola"
    action = widget(lesson, "lesson_action")
    click(app, action.rect.center)  # Los
    wait_for_move(app, lesson)
    good, wrong = good_and_wrong(lesson)
    trump = next(a for a in wrong if a.card.code == "4S")
    mouse_play(app, lesson, trump)
    settle(app)
    assert lesson.phase == "wrong" and lesson.panel_text()[1] == app.t("lessons.briscola.s1_trump")
    assert action.label() == app.t("lessons.take_back")
    click(app, action.rect.center)  # Zurücknehmen
    settle(app)
    assert lesson.phase == "move" and "4S" in lesson.model.hand
    for _ in range(3):
        wait_for_move(app, lesson)
        good, _ = good_and_wrong(lesson)
        mouse_play(app, lesson, good)
        settle(app)
        assert lesson.phase == "good"
        click(app, action.rect.center)  # Weiter
    settle(app)
    assert lesson.phase == "done"
    click(app, action.rect.center)  # Lektionen
    settle(app, 3)
    assert app.stack.top.name == "learn" and app.stack.top.is_done("briscola")
    assert app.settings.lessons_done == ["briscola"]


def test_the_schnapsen_lesson_takes_the_exchange_and_the_marriage_from_its_buttons():
    app = make_app()
    app.open_path("lesson", lesson="schnapsen")
    settle(app)
    lesson = app.stack.top
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    click(app, lesson.buttons["exchange"].rect.center)
    settle(app)
    assert lesson.phase == "good"
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    king = next(
        a
        for a in lesson.session.legal_actions()
        if a.card is not None and a.card.code == "KC" and not a.arg("marriage", False)
    )
    mouse_play(app, lesson, king)  # the King played without its marriage
    settle(app)
    assert lesson.phase == "wrong" and lesson.session.wrong_key == "lessons.schnapsen.s2_silent"
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    settle(app)
    assert lesson.phase == "move"
    married = next(a for a in lesson.session.legal_actions() if a.arg("marriage", False) and a.card.code == "KC")
    mouse_play(app, lesson, married)
    settle(app)
    assert lesson.phase == "good"


def test_every_lesson_row_stands_clear_of_the_others_and_of_the_buttons():
    app = make_app()
    app.open_path("learn")
    settle(app, 3)
    learn = app.stack.top
    assert [name for name, _, _ in learn.rows] == lesson_names()
    bands = [band for _, band, _ in learn.rows]
    for above, below in zip(bands, bands[1:]):
        assert above.bottom < below.y and above.h >= 56
    buttons = [widget(learn, "back").rect, widget(learn, "puzzles").rect]
    assert bands[-1].bottom < min(b.y for b in buttons)
    for _, band, button in learn.rows:
        assert band.contains(button.rect)


def _choose_by_keys(app: App, lesson, decision_key: int, want: str) -> None:
    """A decision with a payload by the keys: its key opens the chooser, → steps through
    the values until the move is ``want``, Enter takes it."""
    key(app, decision_key)
    chooser = lesson.controller.chooser
    assert chooser is not None
    for _ in range(12):
        if str(chooser.action) == want:
            break
        key(app, pygame.K_RIGHT)
    assert str(chooser.action) == want
    key(app, pygame.K_RETURN)
    settle(app)


def _fits(app: App, lesson) -> None:
    """Every text of the lesson's panel and its buttons, as it stands now, fits its box."""
    head, body = lesson.panel_text()
    surface = pygame.Surface((1280, 720), pygame.SRCALPHA)
    with theme.measure_text() as m:
        panel.draw_panel(surface, lesson.players, head, body, lesson.phase, app.t(lesson.hint_key()))
        lesson.lesson_ui.draw(surface)
    assert m.entries and not m.overflows, m.overflows


@pytest.mark.parametrize("lang", ["it", "de"])
def test_the_chiamata_lesson_bids_passes_and_calls_by_the_keys(lang):
    app = make_app(lang)
    app.open_path("lesson", lesson="chiamata")
    settle(app)
    lesson = app.stack.top
    _fits(app, lesson)
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    # A bid is no card played: the hint asks for the choice, not for a card.
    assert lesson.hint_key() == "lessons.hint_decide" and app.t("lessons.hint_decide") != app.t("lessons.hint_move")
    _fits(app, lesson)
    _choose_by_keys(app, lesson, pygame.K_b, "bid (rank A)")
    assert lesson.phase == "good" and lesson.panel_text()[1] == app.t("lessons.chiamata.s1_why")
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    key(app, pygame.K_p)  # a pass is final: asked first, P again takes it
    key(app, pygame.K_p)
    settle(app)
    assert lesson.phase == "wrong" and lesson.session.wrong_key == "lessons.chiamata.s2_pass"
    _fits(app, lesson)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    settle(app)
    assert lesson.phase == "move"
    _choose_by_keys(app, lesson, pygame.K_b, "bid (rank K)")
    assert lesson.phase == "good"
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    _choose_by_keys(app, lesson, pygame.K_c, "call (card KC)")
    assert lesson.phase == "good" and lesson.session.match.state.trump_suit == "C"
    for _ in range(2):  # the small trump, then the Knave over the defender's trump
        key(app, pygame.K_RETURN)
        wait_for_move(app, lesson)
        assert lesson.hint_key() == "lessons.hint_move"  # a card to play
        good, _ = good_and_wrong(lesson)
        keyboard_play(app, lesson, good)
        settle(app)
        assert lesson.phase == "good"
    _fits(app, lesson)
    key(app, pygame.K_RETURN)
    settle(app)
    assert lesson.phase == "done" and lesson.session.match.state.partner == 1
    _fits(app, lesson)


@pytest.mark.parametrize("lang", LANGS)
def test_after_r_the_schnapsen_lesson_says_which_cards_to_lead(lang):
    from scenes.names import cards_list

    app = make_app(lang)
    app.open_path("lesson", lesson="schnapsen")
    settle(app)
    lesson = app.stack.top
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    key(app, pygame.K_x)  # the exchange: step 2 is the marriage
    settle(app)
    key(app, pygame.K_RETURN)
    wait_for_move(app, lesson)
    step_text = app.t("lessons.schnapsen.s2")
    assert lesson.panel_text()[1] == step_text  # before R: the step's words alone
    key(app, pygame.K_r)
    guide = app.t("lessons.marriage_on", cards=cards_list(app.t, lesson.rules.deck, lang, ["KC", "QC"]))
    assert lesson.panel_text()[1] == f"{step_text}\n{guide}"
    if lang == "en":
        assert guide.startswith("Marriage on: now lead the King or Ober of Hearts")
    # The step's words and the guidance fit the panel together.
    lines = theme.wrap(lesson.panel_text()[1], "sans", panel.BODY_SIZE, panel.body_width(2))
    assert len(lines) <= panel.body_lines(2), lines
    key(app, pygame.K_r)  # R again: off, and the guidance goes
    assert lesson.panel_text()[1] == step_text


# ---------------------------------------------------------------------- the words fit
@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_text_fits_its_panel(lang):
    pygame.font.init()
    i18n = I18n(lang)
    for name in lesson_names():
        lesson = get_lesson(name)
        players = lesson.players
        for k in lesson.keys:
            text = i18n.t(k)
            lines = theme.wrap(text, "sans", panel.BODY_SIZE, panel.body_width(players))
            assert len(lines) <= panel.body_lines(players), f"{lang} {k}: {len(lines)} lines"
            for line in lines:
                assert theme.text_width(line, "sans", panel.BODY_SIZE) <= panel.body_width(players), (lang, k)
        for phase in ("good", "wrong"):
            head = (
                f"{i18n.t('lessons.step', n=len(lesson.steps), total=len(lesson.steps))} · {i18n.t('lessons.' + phase)}"
            )
            assert theme.text_width(head, "sans_bold", 12) <= panel.body_width(players), (lang, head)


def test_the_lesson_pause_says_nothing_is_kept_and_quits_to_the_menu():
    app = make_app()
    app.open_path("lesson")
    settle(app, 5)
    lesson = app.stack.top
    click(app, lesson.menu_button.rect.center)
    settle(app, 3)
    pause = app.stack.top
    assert pause.name == "pause" and pause._note_key() == "pause.not_saved"
    app.render(1.0)
    widget(pause, "quit").on_click()
    settle(app, 3)
    assert app.stack.top.name == "menu" and app.settings.lessons_done == []


def test_a_broken_lesson_is_not_opened_and_says_why_in_one_line(tmp_path, monkeypatch):
    import game.lessons.lesson as L

    source = (L.lessons_dir() / "scopa.yaml").read_text(encoding="utf-8")
    (tmp_path / "scopa.yaml").write_text(source.replace('good: ["7D:7C"]', 'good: ["3D:7C"]'), encoding="utf-8")
    monkeypatch.setattr(L, "lessons_dir", lambda: tmp_path)
    monkeypatch.setattr(L, "_CACHE", {})
    app = make_app()
    app.open_path("learn")
    settle(app, 3)
    click(app, widget(app.stack.top, "lesson_scopa").rect.center)
    settle(app, 2)
    assert app.stack.top.name == "learn"
    shown = app.toasts.active
    assert len(shown) == 1 and "scopa.yaml: step 1: 3D:7C is not a legal move here" in shown[0]
    assert "\n" not in shown[0]


def test_a_lesson_keeps_no_match_and_no_statistics(_private_home):
    from game.lessons.session import drive

    app = make_app()
    app.open_path("lesson", lesson="tressette")
    settle(app, 5)
    lesson = app.stack.top
    drive(lesson.session)
    settle(app, 20)
    assert lesson.session.finished and app.settings.lessons_done == ["tressette"]
    lesson.to_list()
    settle(app, 3)
    assert sorted(p.name for p in _private_home.iterdir()) == ["settings.json"]


def test_the_lesson_screenshot_options_are_checked(tmp_path):
    from scenes.launch import main

    out = tmp_path / "x.png"
    assert main(["--screenshot", str(out), "--scene", "lesson", "--overlay", "suggest"]) == 2
    assert main(["--screenshot", str(out), "--scene", "menu", "--step", "2"]) == 2
    assert not out.exists()
