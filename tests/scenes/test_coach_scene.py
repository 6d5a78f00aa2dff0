"""The coach in the window: results → coach view → try again → back, by keys and by
mouse; the analysis runs in the background and never blocks input; the coach view shows no
card the player could not see."""

from __future__ import annotations

import pygame
import pytest

from scenes.app import TICK
from scenes.coach import common
from scenes.coach.scene import CoachScene
from scenes.replay import view as RV
from tests.scenes.test_results import FakeTable, click, demo, key, make_app, open_over_table


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(common, "HEADLESS_RESULTS", True)
    monkeypatch.setattr(common, "BUDGET", 8)


def settle_job(app, job) -> None:
    for _ in range(500):  # bounded: a few seconds at most
        if job.finished:
            break
        job.wait(0.01)
        app.update(TICK)
    assert job.finished
    app.update(TICK)


def results_with_coach(app, game: str = "scopa"):
    scene, table = open_over_table(app, game)
    line = scene.coach_line
    assert line is not None
    settle_job(app, line.job)
    return scene, table, line


def no_hidden_card_shown(view: CoachScene) -> None:
    m = view.model
    others = {c for s, h in enumerate(m.hands) if s != view.seat for c in h}
    faces = RV.targets(view, m)
    assert others and all(not faces[c][1] for c in others if c in faces)


def test_by_keys_results_coach_view_try_again_and_back(quick):
    app = make_app()
    scene, table, line = results_with_coach(app)
    assert line.enabled and line.text().startswith("Your deal: ") and "see why" in line.text()
    for _ in range(12):  # Tab to the coach's line, Enter opens the coach view
        if scene.ui.focused is line:
            break
        app.dispatch(key(pygame.K_TAB))
    assert scene.ui.focused is line
    app.dispatch(key(pygame.K_RETURN))
    view = app.stack.top
    assert isinstance(view, CoachScene) and view.job is line.job
    app.update(TICK)
    mistakes = view.mistakes
    assert mistakes and view.current is mistakes[0]
    assert view.pos == mistakes[0].line  # the table just before the decision
    no_hidden_card_shown(view)
    app.dispatch(key(pygame.K_v))  # "all hands" is not the coach's: still only the player's
    assert view.open_hands is False
    if len(mistakes) > 1:
        app.dispatch(key(pygame.K_RIGHT))
        assert view.current is mistakes[1] and view.pos == mistakes[1].line
        no_hidden_card_shown(view)
        app.dispatch(key(pygame.K_LEFT))
    assert view.current is mistakes[0]
    app.dispatch(key(pygame.K_ESCAPE))  # back to the results
    assert app.stack.top is scene
    app.dispatch(key(pygame.K_RETURN))  # the line still has the focus: the coach again
    view = app.stack.top
    assert isinstance(view, CoachScene)
    d = view.current
    app.dispatch(key(pygame.K_t))  # try it again from here
    top = app.stack.top
    assert top.name == "table" and top is not table and table not in app.stack.scenes
    s = top.session
    assert len(s.decisions) == d.index and s.to_act == 0 and s.undos >= 1  # practice
    assert s.match.events[: len(s.match.events)] == scene.session.match.events[: len(s.match.events)]


def test_by_mouse_results_coach_view_next_try_again(quick):
    app = make_app("de")
    scene, table, line = results_with_coach(app, "briscola")
    click(app, line.rect.center)
    view = app.stack.top
    assert isinstance(view, CoachScene)
    app.update(TICK)
    assert view.mistakes, "the demo deal has mistakes at this budget"
    nxt = next(w for w in view.ui.widgets if w.name == "next")
    if len(view.mistakes) > 1:
        click(app, nxt.rect.center)
        assert view.cursor == 1
    back = next(w for w in view.ui.widgets if w.name == "back")
    click(app, back.rect.center)
    assert app.stack.top is scene
    click(app, line.rect.center)
    view = app.stack.top
    d = view.current
    click(app, view.try_button.rect.center)
    assert app.stack.top.name == "table" and len(app.stack.top.session.decisions) == d.index


def test_the_analysis_never_blocks_input_and_stops_when_nobody_waits(monkeypatch):
    monkeypatch.setattr(common, "HEADLESS_RESULTS", True)
    monkeypatch.setattr(common, "BUDGET", 4000)  # long: still running when Esc comes
    monkeypatch.setattr(common, "GRACE", 0.2)
    app = make_app()
    scene, table = open_over_table(app, "scopa")
    job = scene.coach_line.job
    assert job.thread is not None and not job.finished
    assert not scene.coach_line.enabled  # a progress bar, nothing to open yet
    scene.draw(app.surface) if hasattr(app, "surface") else None
    app.dispatch(key(pygame.K_ESCAPE))  # the results go at once
    assert app.stack.top is table
    assert job.wait(5.0)  # nobody holds it any more: it ends
    assert job.analysis is None or not job.analysis.complete


def test_no_coach_line_for_a_match_without_a_player(quick):
    app = make_app()
    s, de, _ = demo("tressette")
    s.human_seat = None
    app.open_path("menu")
    app.stack.push(FakeTable(app))
    app.open_scene("results", session=s, deal_end=de, match_end=None)
    assert app.stack.top.coach_line is None
    s.human_seat = 0  # the cached demo is shared with other tests


def test_from_replays_a_kept_match_is_analysed_for_the_players_seat(quick, tmp_path):
    from game.ai.bots import make_bot
    from game.match import Match
    from game.rulesets import make_rules
    from game.services import replays

    rules = make_rules("briscola", None, 2, {"format": "single"})
    events = Match(rules, 6, [make_bot("greedy", rules, s, 6) for s in range(2)]).run()
    replays.keep(events, ["normal", "human"], folder=tmp_path)
    app = make_app("it")
    app.open_path("menu")
    app.open_scene("replays", folder=tmp_path)
    library = app.stack.top
    button = next(w for w in library.ui.widgets if w.name == "analyse")
    assert button.visible and button.label() == "Analizza le mie mosse"
    click(app, button.rect.center)
    view = app.stack.top
    assert isinstance(view, CoachScene) and view.seat == 1 and view.job.finished
    assert {d.seat for d in view.job.analysis.decisions} == {1} and len(view.job.analysis.decisions) == 20
    no_hidden_card_shown(view) if view.mistakes else None
    app.dispatch(key(pygame.K_ESCAPE))
    assert app.stack.top is library
    # The viewer: C analyses the seat at the bottom, any seat (Tab turns it).
    app.open_scene("replay", events=events)
    viewer = app.stack.top
    app.dispatch(key(pygame.K_TAB))
    app.dispatch(key(pygame.K_c))
    view = app.stack.top
    assert isinstance(view, CoachScene) and view.seat == viewer.seat and view.job.analysis.seat == viewer.seat


def test_with_four_players_h_folds_the_panel_off_the_right_hand_seat(quick):
    from game.ai.bots import make_bot
    from game.match import Match
    from game.rulesets import make_rules
    from scenes.coach.scene import FOLDED, PANEL

    rules = make_rules("briscola", None, 4)
    events = Match(rules, 4, [make_bot("greedy", rules, s, 4) for s in range(4)], deals=1).run()
    app = make_app("nl")
    app.open_path("menu")
    app.open_scene("coach", events=events, seat=0)
    view = app.stack.top
    assert isinstance(view, CoachScene) and view.job.finished
    app.update(TICK)
    right = next(s for s in range(4) if view.layout.side(s) == "right")
    seat_rects = [view.layout.hand_box(right), view.layout.plate(right)]
    assert all(PANEL.colliderect(r) for r in seat_rects)  # the panel is over that seat
    assert not any(FOLDED.colliderect(r) for r in seat_rects)  # its folded tab is not
    panel_buttons = [w for w in view.ui.widgets if w.name in ("previous", "next", "try")]
    unfold = next(w for w in view.ui.widgets if w.name == "unfold")
    assert all(w.visible for w in panel_buttons) and not unfold.visible
    surface = pygame.Surface((1280, 720))
    view.draw(surface)
    covered = surface.copy()
    app.dispatch(key(pygame.K_h))
    assert view.folded and not any(w.visible for w in panel_buttons) and unfold.visible
    assert unfold.label() == "Trainer (H)"
    view.draw(surface)
    box = view.layout.hand_box(right)
    changed = sum(
        covered.get_at((x, y)) != surface.get_at((x, y))
        for x in range(box.x, box.right, 4)
        for y in range(box.y, box.bottom, 4)
    )
    assert changed > 100  # the seat's cards, no longer under the panel
    no_hidden_card_shown(view)  # still face down
    click(app, unfold.rect.center)
    assert not view.folded and all(w.visible for w in panel_buttons)
