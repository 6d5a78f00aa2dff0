"""Puzzles in the window: menu → Learn → Puzzles → a puzzle at the real table → a wrong move
refuted on the table and explained, the rating down → try again → the right move → the next
puzzle at once; a right answer by the mouse, the rating up; a line of several moves with the
replies; the day's puzzle; "Your mistakes" (practice, spaced); the dashboard and the
statistics; what a screen reader hears; the panel's words fit, in the side panel and the band.

The puzzles are the shipped ones, picked by what a test needs (two players, several moves …),
so a new shipped set does not break these tests.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import pygame
import pytest

from game.config import get_config
from game.puzzles import store
from game.puzzles.model import Puzzle
from game.puzzles.progress import PuzzleProgress
from game.services.i18n import I18n
from game.services.settings import Settings
from game.services.speech import Speech
from scenes.app import TICK, App
from scenes.puzzles import panel
from scenes.puzzles.words import signed
from sprites import theme
from tests.scenes.test_table import click, key, keyboard_play, mouse_play

CFG = get_config()


def make_app(lang: str = "en", **settings) -> App:
    app = App(CFG, Settings(language=lang, animation_speed="instant", **settings), I18n(lang), window=False)
    app.speech = Speech("off", lang, None)  # every line kept in app.speech.lines
    return app


def settle(app: App, ticks: int = 40) -> None:
    for _ in range(ticks):
        app.update(TICK)


def widget(scene, name: str):
    widgets = scene.ui.widgets + getattr(scene, "panel_ui", scene.ui).widgets
    return next(w for w in widgets if getattr(w, "name", None) == name)


def panel_button(scene, label_key: str):
    """The panel's button doing ``label_key`` (its place follows the phase)."""
    for i, (k, _) in enumerate(scene._actions()):
        if k == label_key:
            return scene.panel_buttons[i]
    raise AssertionError(f"no {label_key} button in {scene.phase}: {scene._actions()}")


def pick(pred=lambda p: True, game: str | None = None):
    found = [p for p in store.shipped(game) if pred(p)]
    assert found, "no shipped puzzle fits the test"
    return found[0]


def wait_for_move(app: App, scene) -> None:
    for _ in range(400):
        app.update(TICK)
        if scene.session.human_to_act and scene.controller.can_act:
            return
    raise AssertionError(f"the puzzle never asked for a move (phase {scene.phase})")


def wrong_move(scene):
    s = scene.session
    right = s.puzzle.action(s.step)
    return next(a for a in s.legal_actions() if a != right)


def to_puzzles_by_keys(app: App) -> None:
    app.open_path("menu")
    settle(app, 3)
    menu = app.stack.top
    for _ in range(len(menu.ui.widgets)):
        if getattr(menu.ui.focused, "name", None) == "learn":
            break
        key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)
    settle(app, 3)
    assert app.stack.top.name == "learn"
    key(app, pygame.K_p)
    settle(app, 3)
    assert app.stack.top.name == "puzzles"


# ---------------------------------------------------------------------- the keys, a wrong move, the next puzzle
def test_from_the_menu_by_the_keys_a_wrong_move_refuted_then_tried_again_and_the_next_puzzle():
    app = make_app()
    to_puzzles_by_keys(app)
    chooser = app.stack.top
    assert chooser.ui.focused.name == "solve"
    assert app.t("puzzle_ui.intro") in app.speech.lines  # the screen's words, then the dashboard
    game = next(g for g in chooser.games if any(p.players == 2 for p in store.shipped(g)))
    key(app, pygame.K_UP)
    key(app, pygame.K_UP)  # up to the game chooser
    assert chooser.ui.focused.name == "game"
    while chooser.game != game:
        key(app, pygame.K_RIGHT)
    settle(app, 1)
    assert app.speech.lines[-1].endswith(chooser.game_name(game))  # the focus's value is said
    key(app, pygame.K_DOWN)
    key(app, pygame.K_DOWN)
    assert chooser.ui.focused.name == "solve"
    key(app, pygame.K_RETURN)
    settle(app, 3)
    scene = app.stack.top
    assert scene.name == "puzzle" and scene.puzzle.game == game and scene.phase == "move"
    first = scene.puzzle.id
    before = PuzzleProgress.load().rating(game).rating
    wait_for_move(app, scene)
    # The opening lines: the puzzle, the question, the position as the table reads it.
    assert scene.words.question() in app.speech.lines
    assert any(line.startswith("Your hand, ") for line in app.speech.lines)
    mark = len(app.speech.lines)
    at = len(scene.session.match.decisions)
    bad = wrong_move(scene)
    keyboard_play(app, scene, bad)  # through the table's own keys
    settle(app, 60)
    s = scene.session
    assert s.phase == "wrong" and s.outcome == "failed" and not s.busy
    # The wrong move and the line refuting it, played out on the table.
    assert s.match.decisions[at:] == s.judgement.refutation and s.judgement.refutation[0][1] == bad
    head, paras = scene.panel_text()
    texts = [p for p, *_ in paras]
    assert app.t("puzzle_ui.wrong") in texts
    assert app.t("puzzle_ui.right_move", move=scene.words.move(s.judgement.right)) in texts
    change = scene.change
    assert change is not None and change.rated and change.player_after < change.player_before == before
    assert change.puzzle_after > change.puzzle_before
    rating_line = app.t(
        "puzzle_ui.rating_player",
        before=round(before),
        after=round(change.player_after),
        diff=signed(change.player_after - before),
    )
    said = app.speech.lines[mark:]
    assert app.t("puzzle_ui.wrong") in said and rating_line in said and app.t("puzzle_ui.wrong_said") in said
    assert PuzzleProgress.load().rating(game).rating == pytest.approx(change.player_after)  # saved at once
    # Backspace: the position before the wrong move, to try again (practice: unrated).
    key(app, pygame.K_BACKSPACE)
    settle(app)
    assert s.phase == "move" and bad.card.code in scene.model.hand
    wait_for_move(app, scene)
    while s.human_to_act:
        keyboard_play(app, scene, s.puzzle.action(s.step))
        settle(app, 60)
    assert s.phase == "solved" and s.outcome == "failed"
    assert app.t("puzzle_ui.practice") in [p for p, *_ in scene.panel_text()[1]]
    assert PuzzleProgress.load().rating(game).rating == pytest.approx(change.player_after)  # no second rating
    # Enter: the next puzzle at once, the same game.
    key(app, pygame.K_RETURN)
    settle(app, 3)
    nxt = app.stack.top
    assert nxt.name == "puzzle" and nxt is not scene and nxt.puzzle.id != first and nxt.puzzle.game == game
    assert [n for n in app.stack.names()][-2] == "puzzles"
    key(app, pygame.K_ESCAPE)
    settle(app, 3)
    assert app.stack.top is chooser
    assert str(round(change.player_after)) in chooser.dashboard_words()


# ---------------------------------------------------------------------- the mouse, a line of several moves
def test_by_the_mouse_a_line_of_several_moves_solved_and_the_rating_up():
    p = (
        pick(lambda p: p.players == 2 and p.answer_moves >= 2 and any(s != p.seat for s, _ in p.line))
        if any(q.answer_moves >= 2 and q.players == 2 for q in store.shipped())
        else pick(lambda p: p.players == 2)
    )
    app = make_app("de")
    app.open_path("puzzles")
    settle(app, 3)
    app.open_scene("puzzle", puzzle=p)
    settle(app, 3)
    scene = app.stack.top
    s = scene.session
    replies_before = len(s.match.decisions)
    found = 0
    while True:
        wait_for_move(app, scene)
        mouse_play(app, scene, s.puzzle.action(s.step))
        settle(app, 80)
        found += 1
        if s.phase == "solved":
            break
        assert s.phase == "move" and s.found == found
        assert scene.words.next_move(found) in [t for t, *_ in scene.panel_text()[1]]
        wait_for_move(app, scene)
        assert app.speech.lines.count(scene.words.next_move(found)) == 1  # asked aloud once the replies are shown
    assert found == p.answer_moves and s.outcome == "solved"
    assert len(s.match.decisions) - replies_before == len(p.line)  # the replies were played too
    c = scene.change
    assert c.rated and c.player_after > c.player_before and c.puzzle_after < c.puzzle_before
    assert "Richtig" in " ".join(t for t, *_ in scene.panel_text()[1])
    click(app, panel_button(scene, "puzzle_ui.next").rect.center)
    settle(app, 3)
    assert app.stack.top.name == "puzzle" and app.stack.top.puzzle.id != p.id


def test_the_solution_after_a_wrong_move_by_its_button_and_by_s():
    p = pick(lambda p: p.players == 2)
    for how in ("button", "key"):
        app = make_app()
        app.open_path("puzzles")
        app.open_scene("puzzle", puzzle=p)
        scene = app.stack.top
        wait_for_move(app, scene)
        mouse_play(app, scene, wrong_move(scene))
        settle(app, 80)
        if how == "button":
            click(app, panel_button(scene, "puzzle_ui.solution").rect.center)
        else:
            key(app, pygame.K_s)
        settle(app, 80)
        s = scene.session
        assert s.phase == "solution" and s.finished
        assert s.match.decisions[-len(p.line) :] == [(seat, p.action(i)) for i, (seat, _) in enumerate(p.line)]
        assert scene.words.solution(0) in [t for t, *_ in scene.panel_text()[1]]


# ---------------------------------------------------------------------- the day's puzzle, your mistakes
def test_the_puzzle_of_the_day_opens_from_its_button_and_is_marked_solved():
    app = make_app()
    app.open_path("puzzles")
    settle(app, 3)
    chooser = app.stack.top
    game = chooser.games[0]
    button = widget(chooser, f"daily_{game}")
    assert button.label() == chooser.game_name(game)
    click(app, button.rect.center)
    settle(app, 3)
    scene = app.stack.top
    from scenes.puzzles.common import daily

    assert scene.mode == "daily" and scene.puzzle.id == daily(game).id
    assert scene.panel_text()[0].startswith(app.t("puzzle_ui.head_daily", game="", theme="", rating="")[:10])
    s = scene.session
    while s.human_to_act or s.busy or not s.finished:
        wait_for_move(app, scene)
        keyboard_play(app, scene, s.puzzle.action(s.step))
        settle(app, 80)
    key(app, pygame.K_ESCAPE)
    settle(app, 3)
    assert app.stack.top is chooser and button.label() == f"✓ {chooser.game_name(game)}"
    assert button.spoken() == app.t("puzzle_ui.daily_spoken_done", game=chooser.game_name(game))


def test_your_mistakes_come_due_are_practice_and_come_back_later():
    made = pick(lambda p: p.players == 2)
    mine = replace(made, id=f"{made.game}-mine-test", origin="mistake")
    progress = PuzzleProgress.load()
    progress.add_mistake_puzzles([mine])
    progress.save()
    app = make_app()
    app.open_path("puzzles")
    settle(app, 3)
    chooser = app.stack.top
    b = widget(chooser, "mistakes")
    assert b.label() == app.t("puzzle_ui.mistakes_due", count=1)
    click(app, b.rect.center)
    settle(app, 3)
    scene = app.stack.top
    assert scene.mode == "mistakes" and scene.puzzle.id == mine.id
    assert scene.panel_text()[0] == scene.words.title("mistakes")
    s = scene.session
    while not s.finished:
        wait_for_move(app, scene)
        keyboard_play(app, scene, s.puzzle.action(s.step))
        settle(app, 80)
    c = scene.change
    assert not c.rated and c.player_after == c.player_before and c.due == pytest.approx(86400, abs=5)
    assert app.t("puzzle_ui.mistake_back", count=1) in [t for t, *_ in scene.panel_text()[1]]
    key(app, pygame.K_RETURN)  # none due any more: back to the puzzles, saying so
    settle(app, 3)
    assert app.stack.top is chooser and app.t("puzzle_ui.none_left_mistakes") in app.toasts.active
    assert b.label() == app.t("puzzle_ui.mistakes_none")


def test_a_played_deals_blunders_found_by_the_coach_wait_in_your_mistakes(monkeypatch):
    from scenes.coach import common as coach
    from scenes.coach.banner import keep_mistakes
    from tests.scenes.test_coach_scene import results_with_coach

    monkeypatch.setattr(coach, "HEADLESS_RESULTS", True)
    monkeypatch.setattr(coach, "BUDGET", 8)  # a quick analysis: a played-at-random seat blunders
    app = make_app()
    results, _, line = results_with_coach(app, "briscola")  # the results screen of a played deal
    blunders = line.job.analysis.count("blunder")
    assert blunders and app.t("puzzle_ui.mistakes_added", count=blunders) in app.toasts.active
    keep_mistakes(app, line.job)  # once per analysis, however many frames pass
    assert len(PuzzleProgress.load().mistakes) == blunders
    app.open_path("puzzles")
    settle(app, 3)
    chooser = app.stack.top
    b = widget(chooser, "mistakes")
    assert b.label() == app.t("puzzle_ui.mistakes_due", count=blunders)
    click(app, b.rect.center)
    settle(app, 3)
    scene = app.stack.top
    assert scene.name == "puzzle" and scene.mode == "mistakes" and scene.puzzle.origin == "mistake"
    assert scene.session.human_to_act or not scene.motion.idle


# ---------------------------------------------------------------------- the dashboard and the statistics
def test_the_dashboard_and_the_statistics_after_two_attempts():
    from scenes.puzzles import common

    game = next(g for g in CFG.games if store.shipped(g))
    a, b = store.shipped(game)[:2]
    common.record(a, True)
    common.record(b, False)
    app = make_app()
    app.open_path("puzzles", game=game)
    settle(app, 3)
    chooser = app.stack.top
    d = chooser.boards()[0]
    assert d["tried"] == 2 and d["solved"] == 1 and len(d["history"]) == 3
    words = chooser.dashboard_words()
    assert app.t("puzzle_ui.dash_rating", game=chooser.game_name(game), rating=d["rating"], solved=1, tried=2) in words
    assert app.t("puzzle_ui.dash_trend", count=2, first=1500, last=d["rating"]) in words
    key(app, pygame.K_d)
    assert app.speech.lines[-1] == words
    app.render(1.0)  # the chart with three points
    app.open_path("stats")
    settle(app, 3)
    stats = app.stack.top
    row = next(r for r in stats.rows() if r.key == f"puzzles:{game}")
    assert (row.played, row.won, row.lost) == (2, 1, 1) and row.mode == app.t("stats.mode.puzzles")
    assert row.best == str(round(max(v for _, v in d["history"])))
    assert stats.rows()[-1].played == 0  # puzzles are not matches: not in the totals


# ---------------------------------------------------------------------- the words fit, in every language
@pytest.fixture
def usual_text_size():
    yield
    theme.set_text_scale(1.0)  # the next test in this worker draws at the usual size


@functools.cache
def _widest_hand(players: int) -> Puzzle | None:
    """The shipped puzzle for ``players`` with the widest hand: the one most likely to reach
    under the panel. The same in every language and size, so found once per worker (every
    puzzle's position is rebuilt to find it: most of these tests' time)."""
    pool = [q for q in store.shipped() if q.players == players]
    return max(pool, key=lambda q: len(store.position(q).view(q.seat).hand)) if pool else None


@pytest.mark.xdist_group("puzzle-panel")  # one worker: the three share _widest_hand
@pytest.mark.parametrize(
    "lang,text_size,card_size", [("de", "xlarge", "xlarge"), ("it", "normal", "normal"), ("nl", "large", "large")]
)
def test_the_panel_shows_its_words_whole_and_leaves_the_hand_and_the_key_line_clear(
    lang, text_size, card_size, usual_text_size
):
    from scenes.table import board

    app = make_app(lang, text_size=text_size, card_size=card_size)
    for players in (2, 4):
        p = _widest_hand(players)
        if p is None:
            continue
        for overlay in (None, "wrong", "solved"):
            app.open_path("puzzle", puzzle=p, overlay=overlay)
            settle(app, 10)
            scene = app.stack.top
            assert scene.session.phase == (overlay or "move")
            with theme.measure_text() as m:
                app.render(1.0)
            assert m.entries
            _, paras = scene.shown_text()
            tall = scene.tall_panel()
            box = panel.body_box(players, len(scene._actions()), tall)
            # Every paragraph shows whole (the rating's change last of all).
            assert panel.fits([t for t, _ in paras], box), (lang, p.id, [t for t, _ in paras])
            if overlay:
                assert paras[-1][0] == scene.words.rating_change(scene.change)[-1]
            r = panel.panel_rect(players, tall)
            for rect in panel.button_rects(players, 4, tall):
                assert r.contains(rect)
            if panel.side(players):  # clear of the hand, and of the key line while you play
                v = scene.view()
                assert not [c for c in scene.model.hand if r.colliderect(board.card_rect(v, c))], (p.id, overlay)
                if overlay is None:
                    assert r.bottom < scene.layout.status_pos[1] - 17 - 8


def test_screenshots_of_the_chooser_and_a_wrong_move_from_the_command_line(tmp_path, capfd):
    from main import main

    for args in (
        ["--scene", "puzzles", "--lang", "it"],
        [
            "--scene",
            "puzzle",
            "--game",
            next(g for g in CFG.games if store.shipped(g)),
            "--step",
            "2",
            "--overlay",
            "wrong",
            "--text-size",
            "xlarge",
        ],
    ):
        out = tmp_path / f"{args[1]}.png"
        assert main(["--screenshot", str(out), *args]) == 0, capfd.readouterr().err
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["--screenshot", str(tmp_path / "x.png"), "--scene", "puzzle", "--overlay", "bogus"]) == 2
    assert "unknown overlay 'bogus' for the puzzle scene" in capfd.readouterr().err


def test_the_session_and_the_words_are_pygame_free():
    """What the puzzle table decides and says is plain Python (as the table's model and
    controller are): only the scenes that draw import pygame."""
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "scenes" / "puzzles"
    for name in ("session.py", "words.py", "common.py"):
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in mods if m.split(".")[0] == "pygame"}, name
