"""Undo against the computer at the table: Ctrl+Z and the Undo button take back
the human's last decision and the computer's plays after it, until the deal is scored; the
same decision again gives the same record as without the undo; the save keeps only the
decisions that stood; a match with an undo counts as practice."""

from __future__ import annotations

import json
import random

import pygame
import pytest

from game.config import get_config
from game.rulesets import game_ids
from game.services import saves
from game.services.session import Session
from scenes.app import TICK
from scenes.registry import make_scene
from tests.scenes.test_table import click, key, keyboard_play, make_app, table
from tests.scenes.test_table_e2e import results_log  # noqa: F401 - the stand-in results screen


def settle(app, scene, ticks: int = 400) -> None:
    """Tick until the human is to act again (or the match is over)."""
    for _ in range(ticks):
        app.update(TICK)
        if scene.controller.can_act or scene.session.over:
            return


def undo_key(app) -> None:
    key(app, pygame.K_z, pygame.KMOD_LCTRL)


@pytest.mark.parametrize("gid", game_ids())
def test_undo_then_the_same_decision_again_gives_the_same_record(gid, _private_home):
    app = make_app()
    scene = table(app, gid, players=4 if gid == "cicera" else min(get_config().games[gid].players), seed=7, moves=2)
    settle(app, scene)
    session = scene.session
    rng = random.Random(3)
    before = list(session.match.events)
    hand = list(scene.model.hand)
    action = rng.choice(session.legal_actions())
    keyboard_play(app, scene, action)
    settle(app, scene)
    without_undo = list(session.match.events)
    # The computer played after my decision (what the undo must take back too).
    decisions = session.rules.vocabulary.decision_events  # a card played, a bid, a pass …
    assert any(e.get("event") in decisions and e.get("seat") != 0 for e in without_undo[len(before) :])

    undo_key(app)
    assert session.match.events == before  # my decision and the computer's replies are gone
    assert session.undos == 1 and scene.controller.can_act
    assert scene.model.hand == hand and scene.model.table == _table_before(before, scene)
    saved = saves.load_match()[0]
    assert saved["events"] == before and saved["undos"] == 1

    keyboard_play(app, scene, action)
    settle(app, scene)
    assert session.match.events[: len(without_undo)] == without_undo


def _table_before(events, scene):
    """The table cards the record says lie on the felt (a fresh model replays it)."""
    from scenes.table.model import apply_event, new_model

    m = new_model(scene.rules, scene.human)
    for ev in events:
        apply_event(m, ev)
    return m.table


def test_the_undo_button_takes_back_by_mouse(_private_home):
    app = make_app()
    scene = table(app, "briscola", seed=4, moves=2)
    settle(app, scene)
    before = list(scene.session.match.events)
    keyboard_play(app, scene, scene.session.legal_actions()[0])
    settle(app, scene)
    assert scene.buttons["undo"].enabled
    click(app, scene.buttons["undo"].rect.center)
    assert scene.session.match.events == before and scene.session.undos == 1


def test_nothing_to_take_back_is_said_and_changes_nothing(_private_home):
    app = make_app()
    for seed in range(1, 40):
        scene = table(app, "briscola", seed=seed, moves=0)
        settle(app, scene)
        if not scene.session.decisions:  # the human leads the first trick
            break
    else:
        raise AssertionError("no seed where the human leads first")
    events = list(scene.session.match.events)
    assert not scene.buttons["undo"].enabled
    undo_key(app)
    assert scene.session.match.events == events and scene.session.undos == 0
    assert scene.refusal is not None and scene.refusal[0] == app.t("undo.nothing")


def _just_scored(seeds=range(1, 80)) -> Session:
    """A Scopa session where a deal has just been scored and the human, first to play in the
    new deal, has not decided in it yet."""
    for seed in seeds:
        s = Session.new("scopa", None, 2, None, seed, human_seat=0, bot_name="greedy", threaded=False)
        s.start()
        rng = random.Random(seed)
        while not s.over:
            if s.match.deal_start > 0:
                break
            if s.human_to_act:
                s.submit(rng.choice(s.legal_actions()))
            else:
                s.poll()
        while not s.over and not s.human_to_act:
            s.poll()
        if not s.over and s.match.deal_start > 0 and not s.can_undo and s.decisions:
            s.take_events()
            return s
    raise AssertionError("no such seed")


def test_undo_is_refused_once_the_deal_is_scored(_private_home):
    app = make_app()
    app.open_path("menu")
    session = _just_scored()
    assert any(seat == 0 for seat, _ in session.decisions)  # there were my decisions, in the scored deal
    scene = make_scene(app, "table", session=session)
    app.stack.push(scene)
    settle(app, scene)
    events = list(session.match.events)
    assert not scene.buttons["undo"].enabled
    undo_key(app)
    assert session.match.events == events and session.undos == 0
    assert scene.refusal[0] == app.t("undo.scored")


def test_a_match_with_an_undo_counts_as_practice(results_log, _private_home):  # noqa: F811
    app = make_app()
    app.open_path("menu")
    scene = make_scene(
        app, "table", game="briscola", players=2, seed=9, ai_level="greedy", threaded=False, autoplay_moves=0
    )
    app.stack.push(scene)
    rng = random.Random(9)
    undone = False
    for _ in range(6000):
        if scene.controller.final_panel:
            break
        if app.stack.top is scene and scene.controller.can_act:
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
            if not undone and scene.session.can_undo:
                settle(app, scene)
                undo_key(app)
                undone = True
        app.update(TICK)
    assert undone and scene.session.over and scene.controller.final_panel
    records = json.loads((_private_home / "stats.json").read_text())
    assert len(records) == 1
    r = next(iter(records.values()))
    assert r["practice"] == 1 and r["played"] == r["won"] == r["lost"] == r["drawn"] == 0
