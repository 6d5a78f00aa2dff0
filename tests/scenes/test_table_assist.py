"""The table's help and safe decisions: G and the Suggest button show the normal
level's choice and Enter plays it; closing the stock asks first (Enter / Esc, or a second
click); R says why no marriage can be declared; one click chooses a card and a second plays
it; a declared marriage shows its partner card; ``--overlay suggest`` renders."""

from __future__ import annotations

import json
import random

import pygame
import pytest

from game.ai.suggest import suggest_for
from game.cards import card
from game.config import get_config
from game.games.schnapsen.vocabulary import CLOSE
from game.rules.base import play
from game.rulesets import game_ids
from game.services.session import Session
from scenes.app import TICK
from scenes.registry import make_scene
from scenes.table import board
from tests.scenes.test_table import click, key, keyboard_play, make_app, table
from tests.scenes.test_table_e2e import results_log  # noqa: F401 - the stand-in results screen


def settle(app, scene, ticks: int = 400) -> None:
    for _ in range(ticks):
        app.update(TICK)
        if scene.controller.can_act or scene.session.over:
            return


def edge(scene, code):
    r = board.card_rect(scene.view(), code)
    return (r.x + 6, r.bottom - 24)  # the visible edge of an overlapped card


# ---------------------------------------------------------------------- suggest a move
@pytest.mark.parametrize("gid", game_ids())
def test_g_suggests_the_normal_levels_move_and_enter_plays_it(gid, _private_home):
    app = make_app()
    n = min(get_config().games[gid].players)
    scene = table(app, gid, players=n, seed=5, moves=3)
    settle(app, scene)
    expected = suggest_for(scene.session)
    events = list(scene.session.match.events)
    key(app, pygame.K_g)
    sg = scene.controller.current_suggestion()
    assert sg is not None and sg.action == expected.action
    assert scene.session.match.events == events  # suggesting plays nothing
    assert scene.session.suggestions == 1
    key(app, pygame.K_g)  # asked again at the same decision: counted once
    assert scene.session.suggestions == 1
    scene.draw(app.canvas)  # the card outlined and the line drawn, in any game
    if sg.action.kind == "play":
        assert scene.controller.selected == sg.action.card.code
        key(app, pygame.K_RETURN)
    else:
        keyboard_play(app, scene, sg.action)
    assert scene.controller.submitted[-1] == sg.action
    assert scene.controller.current_suggestion() is None  # it held for that decision only


def test_the_suggest_button_and_its_line_in_the_players_language(_private_home):
    app = make_app("it")
    scene = table(app, "scopa", seed=3, moves=3)
    settle(app, scene)
    click(app, scene.buttons["suggest"].rect.center)
    sg = scene.controller.current_suggestion()
    assert sg is not None
    from scenes.table.assist import suggestion_line

    line = suggestion_line(scene, sg)
    assert line.startswith("Consiglio: ") and scene.names.card_name(sg.action.card.code) in line


def test_a_threaded_suggestion_is_worked_out_while_frames_go_on(_private_home):
    app = make_app()
    scene = table(app, "schnapsen", seed=5, moves=3)
    settle(app, scene)
    scene.session.threaded = True
    expected = suggest_for(scene.session)
    key(app, pygame.K_g)
    for _ in range(2000):
        if scene.controller.current_suggestion() is not None:
            break
        app.update(TICK)
        app.render(1.0)
        import time

        time.sleep(0.002)
    assert scene.controller.current_suggestion().action == expected.action


def test_a_match_with_suggestions_counts_as_suggested(results_log, _private_home):  # noqa: F811
    app = make_app()
    app.open_path("menu")
    scene = make_scene(
        app, "table", game="briscola", players=2, seed=9, ai_level="greedy", threaded=False, autoplay_moves=0
    )
    app.stack.push(scene)
    rng = random.Random(9)
    asked = False
    for _ in range(6000):
        if scene.controller.final_panel:
            break
        if app.stack.top is scene and scene.controller.can_act:
            if not asked:
                key(app, pygame.K_g)
                asked = True
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
        app.update(TICK)
    assert asked and scene.controller.final_panel
    records = json.loads((_private_home / "stats.json").read_text())
    r = next(iter(records.values()))
    assert r["played"] == 1 and r["suggested"] == 1 and r["practice"] == 0


# ---------------------------------------------------------------------- one click chooses, a second plays
def test_one_click_chooses_a_card_and_a_second_click_plays_it(_private_home):
    app = make_app()
    scene = table(app, "briscola", seed=4, moves=2)
    settle(app, scene)
    legal = [a.card.code for a in scene.session.legal_actions()]
    first, other = legal[0], legal[1]
    n = len(scene.session.decisions)
    click(app, edge(scene, first))
    assert scene.controller.selected == first and len(scene.session.decisions) == n and not scene.controller.submitted
    assert app.t("confirm.play_selected")  # the status says how to play it
    click(app, edge(scene, other))  # another card: chosen instead, still nothing played
    assert scene.controller.selected == other and len(scene.session.decisions) == n
    click(app, edge(scene, other))
    assert scene.controller.submitted[-1].card.code == other and len(scene.session.decisions) > n


def test_enter_plays_the_card_chosen_by_a_click_and_esc_drops_it(_private_home):
    app = make_app()
    scene = table(app, "tressette", seed=4, moves=2)
    settle(app, scene)
    code = scene.session.legal_actions()[0].card.code
    click(app, edge(scene, code))
    key(app, pygame.K_ESCAPE)
    assert scene.controller.selected is None and app.stack.top is scene  # dropped, not paused
    click(app, edge(scene, code))
    key(app, pygame.K_RETURN)
    assert scene.controller.submitted[-1].card.code == code


# ---------------------------------------------------------------------- closing asks first
def _can_close(app, seeds=range(1, 60)):
    for seed in seeds:
        scene = table(app, "schnapsen", seed=seed, moves=0)
        settle(app, scene)
        if CLOSE in scene.session.legal_actions():
            return scene
    raise AssertionError("no seed where the human may close at once")


def _closed(scene) -> bool:
    return any(e.get("event") == "close" for e in scene.session.match.events)


def test_c_asks_before_closing_and_esc_cancels(_private_home):
    app = make_app()
    scene = _can_close(app)
    key(app, pygame.K_c)
    assert scene.controller.confirming == "close" and not _closed(scene)
    scene.draw(app.canvas)  # the question is drawn
    key(app, pygame.K_ESCAPE)
    assert scene.controller.confirming is None and not _closed(scene) and app.stack.top is scene
    key(app, pygame.K_c)
    key(app, pygame.K_RIGHT)  # anything else drops the question too
    assert scene.controller.confirming is None and not _closed(scene)
    key(app, pygame.K_c)
    key(app, pygame.K_RETURN)
    assert _closed(scene) and scene.controller.submitted[-1] == CLOSE


def test_the_close_button_needs_a_second_click(_private_home):
    app = make_app()
    scene = _can_close(app)
    b = scene.buttons["close"]
    label = b.label()
    click(app, b.rect.center)
    assert scene.controller.confirming == "close" and not _closed(scene) and b.label() != label
    click(app, b.rect.center)
    assert _closed(scene)


def test_a_click_on_the_felt_drops_the_close_question(_private_home):
    app = make_app()
    scene = _can_close(app)
    click(app, scene.buttons["close"].rect.center)
    click(app, (640, 200))
    assert scene.controller.confirming is None and not _closed(scene)


# ---------------------------------------------------------------------- R explains itself
def test_r_says_why_no_marriage_can_be_declared(_private_home):
    app = make_app()
    for seed in range(1, 60):
        scene = table(app, "schnapsen", seed=seed, moves=2)
        settle(app, scene)
        if scene.controller.can_act and not any(a.arg("marriage", False) for a in scene.session.legal_actions()):
            break
    else:
        raise AssertionError("no position without a marriage")
    events = list(scene.session.match.events)
    key(app, pygame.K_r)
    assert not scene.controller.toggled and scene.session.match.events == events
    # The rules' own reason for declaring with one of the hand cards, in the player's words.
    m = scene.session.match
    refusals = [scene.rules.explain_refusal(m.state, play(c, marriage=True)) for c in scene.model.hand]
    assert all(e.rule.startswith("marriage_") for e in refusals)
    assert scene.refusal is not None
    assert scene.refusal[0] in {scene.controller.refusal_text(e) for e in refusals}


def test_r_still_toggles_when_a_marriage_can_be_declared(_private_home):
    app = make_app()
    for seed in range(1, 200):
        scene = table(app, "schnapsen", seed=seed, moves=0)
        settle(app, scene)
        if any(a.arg("marriage", False) for a in scene.session.legal_actions()):
            break
    else:
        raise AssertionError("no position with a marriage")
    key(app, pygame.K_r)
    assert scene.controller.toggled and scene.refusal is None


# ---------------------------------------------------------------------- a marriage shows its partner
def test_a_declared_marriage_shows_its_partner_card_face_up(_private_home):
    for seed in range(1, 200):
        s = Session.new("schnapsen", None, 2, None, seed, human_seat=0, bot_name="greedy", threaded=False)
        s.start()
        rng = random.Random(seed)
        k = None
        while not s.over and s.match.deal_number == 1:
            if s.human_to_act:
                s.submit(
                    rng.choice([a for a in s.legal_actions() if not a.arg("marriage", False)] or s.legal_actions())
                )
                continue
            n = len(s.decisions)
            s.poll()
            if len(s.decisions) > n and s.decisions[-1][0] == 1 and s.decisions[-1][1].arg("marriage", False):
                k = n
                break
        if k is not None:
            break
    else:
        raise AssertionError("no marriage declared by the computer")
    led = s.decisions[k][1].card
    partner = s.rules.partner[card(led.code)].code
    before = Session.rebuild(s.rules, seed, s.decisions[:k], human_seat=0, bot_name="greedy", threaded=False)
    app = make_app(speed="normal")
    app.open_path("menu")
    scene = make_scene(app, "table", session=before)
    app.stack.push(scene)
    seen = False
    start = len(before.match.events)
    for _ in range(900):
        app.update(TICK)
        if any(sp.code == partner and sp.key.startswith("b") for sp in scene.motion.sprites.values()):
            seen = True
        if scene.controller.can_act and len(scene.session.match.events) > start:
            break
    assert seen
    # Once shown, it is face down again in North's hand.
    assert not any(sp.code == partner and sp.key.startswith("b") for sp in scene.motion.sprites.values())


# ---------------------------------------------------------------------- the screenshot
def test_the_suggest_overlay_renders_in_two_languages(tmp_path):
    from scenes.launch import main

    for lang in ("en", "de"):
        out = tmp_path / f"suggest_{lang}.png"
        assert (
            main(
                [
                    "--screenshot",
                    str(out),
                    "--scene",
                    "table",
                    "--game",
                    "scopa",
                    "--seed",
                    "3",
                    "--overlay",
                    "suggest",
                    "--lang",
                    lang,
                ]
            )
            == 0
        )
        assert out.stat().st_size > 10_000
    assert main(["--screenshot", str(tmp_path / "x.png"), "--scene", "table", "--overlay", "nothing"]) == 2
