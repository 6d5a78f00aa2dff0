"""The coach view for a player who listens: each mistake said as it opens (the decision, the
position, the move played, the better one, the loss, the reason), every move's value on demand
(V), the mistake again (O), the buttons under the focus (Tab), the ends of the list; the
results screen says the coach's counts as they come and opens the view with C; the headless
``--screenshot --scene coach --record REC --speech-log LOG`` writes those lines. And what the
panel shows: the player's own decision number, every value against the best move, the keys
line beside the panel rather than under it."""

from __future__ import annotations

import json

import pygame
import pytest

from game.ai.bots import make_bot
from game.match import Match
from game.rulesets import make_rules
from game.services.speech import Speech
from scenes.app import TICK
from scenes.coach import common
from scenes.coach.scene import PANEL, CoachScene
from scenes.coach.speech import value_text
from sprites import theme
from tests.scenes.test_coach_scene import results_with_coach
from tests.scenes.test_results import key, make_app


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(common, "HEADLESS_RESULTS", True)
    monkeypatch.setattr(common, "BUDGET", 8)


def briscola_deal(seed: int = 5) -> list[dict]:
    """One Briscola deal for two, seat 0 played at random (mistakes to find), seat 1 greedy."""
    rules = make_rules("briscola", None, 2, {"format": "single"})
    return Match(rules, seed, [make_bot("random", rules, 0, seed), make_bot("greedy", rules, 1, seed)], deals=1).run()


def listening_app(lang: str = "en"):
    app = make_app(lang)
    app.speech = Speech("off", lang, None)  # every line kept in app.speech.lines
    return app


def open_view(app, events) -> CoachScene:
    app.open_path("menu")
    app.open_scene("coach", events=events, seat=0)
    for _ in range(3):
        app.update(TICK)
    view = app.stack.top
    assert isinstance(view, CoachScene) and view.job.finished and view.mistakes
    return view


def said_since(app, mark: int) -> list[str]:
    return app.speech.lines[mark:]


def test_the_first_mistake_is_said_as_the_view_opens_and_each_one_as_it_is_reached(quick):
    app = listening_app()
    view = open_view(app, briscola_deal())
    lines = app.speech.lines
    assert lines[0] == "The coach: your deal's mistakes, explained"
    d = view.mistakes[0]
    assert lines[1].startswith(f"Mistake 1 of {len(view.mistakes)}: deal 1, your decision {d.own_number}, ")
    assert lines[2].startswith("Your hand, ") and any(ln.startswith("Trumps are ") for ln in lines)
    assert f"Your move: {view.words().move(d.played)}" in lines
    assert f"Better move: {view.words().move(d.best)}" in lines
    assert f"{d.loss:.1f} card points lost" in lines
    assert view.words().reason(d.reason) in lines
    assert lines[-1].startswith("Left and right arrows: ")
    # Left at the first mistake: said so, then the mistake again.
    mark = len(app.speech.lines)
    app.dispatch(key(pygame.K_LEFT))
    assert said_since(app, mark)[:2] == ["This is the first mistake.", lines[1]]
    if len(view.mistakes) > 1:
        mark = len(app.speech.lines)
        app.dispatch(key(pygame.K_RIGHT))
        heard = said_since(app, mark)
        assert heard[0].startswith(f"Mistake 2 of {len(view.mistakes)}: ")
        assert f"Your move: {view.words().move(view.mistakes[1].played)}" in heard
    # O: the mistake shown, again.
    mark = len(app.speech.lines)
    app.dispatch(key(pygame.K_o))
    assert said_since(app, mark)[0].startswith(f"Mistake {view.cursor + 1} of ")


def test_v_reads_every_moves_value_against_the_best(quick):
    app = listening_app()
    view = open_view(app, briscola_deal())
    d = view.current
    app.dispatch(key(pygame.K_v))
    line = app.speech.last
    assert line.startswith("Every move you had, in card points against the best move: ")
    w = view.words()
    assert f"{w.move(d.best)}: the best" in line
    assert f"{w.move(d.played)}: {d.loss:.1f} less" in line
    assert line.count(";") == len(d.values) - 1


def test_tab_says_the_button_under_the_focus_and_enter_presses_it(quick):
    app = listening_app("nl")
    view = open_view(app, briscola_deal())
    mark = len(app.speech.lines)
    names = []
    for _ in range(4):
        app.dispatch(key(pygame.K_TAB))
        app.update(TICK)
        names.append(view.ui.focused.name)
    heard = said_since(app, mark)
    assert "Terug" in heard and "Probeer het hier opnieuw" in heard  # Back, Try it again
    while view.ui.focused.name != "back":
        app.dispatch(key(pygame.K_TAB))
    app.dispatch(key(pygame.K_RETURN))
    assert app.stack.top is not view


def test_the_results_say_the_coachs_counts_when_they_come_and_c_opens_the_view(quick):
    app = listening_app()
    scene, _table, line = results_with_coach(app, "briscola")
    for _ in range(3):
        app.update(TICK)
    said = [ln for ln in app.speech.lines if ln.startswith("Your deal: ")]
    assert said == [line.text()]  # once, without waiting for Tab
    assert said[0].endswith("press C to see why") or said[0].endswith("press C to see the analysis")
    app.dispatch(key(pygame.K_c))
    assert isinstance(app.stack.top, CoachScene) and app.stack.top.job is line.job


def test_the_headless_command_writes_the_first_mistake_in_words(quick, tmp_path):
    from scenes.launch import main

    record = tmp_path / "deal.jsonl"
    record.write_text("".join(json.dumps(e) + "\n" for e in briscola_deal()), encoding="utf-8")
    for lang, title, first in (
        ("en", "The coach: your deal's mistakes, explained", "Mistake 1 of "),
        ("it", "Il coach: i tuoi errori nella smazzata, spiegati", "Errore 1 di "),
    ):
        log = tmp_path / f"{lang}.txt"
        assert (
            main(
                [
                    "--screenshot",
                    str(tmp_path / f"{lang}.png"),
                    "--scene",
                    "coach",
                    "--record",
                    str(record),
                    "--lang",
                    lang,
                    "--speech-log",
                    str(log),
                ]
            )
            == 0
        )
        lines = log.read_text(encoding="utf-8").splitlines()
        assert lines[0] == title and lines[1].startswith(first)
        assert len(lines) >= 8  # the position, the two moves, the loss, the reason, the keys
    # --record is for the replay and coach scenes only, and a step is the replay's.
    assert (
        main(["--screenshot", str(tmp_path / "x.png"), "--scene", "coach", "--record", str(record), "--step", "3"]) == 2
    )


def test_the_panel_shows_the_players_own_decision_and_values_against_the_best(quick):
    app = listening_app()
    view = open_view(app, briscola_deal())
    a = view.job.analysis
    # Two players, one deal: the seat's 20 decisions are numbered 1 to 20, not 1, 3, 5 … 39.
    assert [d.own_number for d in a.decisions] == list(range(1, 21))
    assert any(d.own_number != d.number for d in a.decisions)
    d = view.current
    t = app.t
    assert value_text(d, d.best, t) == "best"
    played = value_text(d, d.played, t)
    assert played == f"\u2212{d.loss:.1f}" and d.shortfall(d.played) == pytest.approx(d.loss)
    for m in d.values:
        short = d.shortfall(m.action)
        assert short >= 0.0 and (short == 0.0) == (value_text(d, m.action, t) == "best")


@pytest.mark.parametrize("size", ["normal", "xlarge"])
def test_the_keys_line_stays_off_the_panel(quick, size):
    app = listening_app("de")
    view = open_view(app, briscola_deal())
    theme.set_text_scale(theme.TEXT_SCALES[size])
    try:
        box = view.keys_box()
        assert box.right <= PANEL.x and box.x >= 0
        hint = f"{view.t('coach.view.keys')} · {view.t('coach_panel.keys')}"
        assert theme.text_width(hint, "sans", theme.fit(hint, "sans", 12, box.w, 9)) <= box.w
        surface = pygame.Surface((1280, 720))
        view.draw(surface)
    finally:
        theme.set_text_scale(1.0)
    app.dispatch(key(pygame.K_h))  # folded: the line may use the middle of the table again
    assert view.keys_box().centerx == 640


def test_an_analysis_that_ends_after_the_view_opened_is_said_when_it_ends(quick, monkeypatch):
    import threading

    import game.coach.job as job_module

    go = threading.Event()
    real = job_module.analyse_events

    def held(*args, **kw):  # the analysis waits until the view has opened and spoken
        go.wait(10.0)
        return real(*args, **kw)

    monkeypatch.setattr(job_module, "analyse_events", held)
    app = listening_app()
    app.open_path("menu")
    app.open_scene("coach", events=briscola_deal(), seat=0, threaded=True)
    view = app.stack.top
    app.update(TICK)
    assert not view.job.finished
    assert any(ln.startswith("The coach is still looking") for ln in app.speech.lines)
    assert not any(ln.startswith("Mistake 1 of ") for ln in app.speech.lines)
    go.set()
    assert view.job.wait(10.0)
    for _ in range(3):
        app.update(TICK)
    heard = [ln for ln in app.speech.lines if ln.startswith("Mistake 1 of ")]
    assert len(heard) == 1  # said once, as the analysis ended
    assert app.speech.lines[-1].startswith("Left and right arrows: ")
