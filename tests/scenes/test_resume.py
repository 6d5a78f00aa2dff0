"""Continue a match: the menu's offer (game, deck, deal, score), Enter or a click resumes
exactly where it was, "New match" asks before discarding, damaged saves are moved aside
with a toast — and a process killed at any moment between saves leaves a usable save."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from game.config import get_config
from game.services import saves
from game.services.i18n import I18n
from game.services.session import Session
from game.services.settings import Settings
from scenes.app import TICK, App
from scenes.registry import make_scene

ROOT = Path(__file__).resolve().parents[2]


def make_app(lang: str = "en") -> App:
    return App(
        get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False
    )


def key(app: App, k: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.update(TICK)


def click(app: App, pos) -> None:
    pos = (int(pos[0]), int(pos[1]))
    for t in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        data = (
            {"pos": pos, "button": 1} if t != pygame.MOUSEMOTION else {"pos": pos, "rel": (0, 0), "buttons": (0, 0, 0)}
        )
        app.stack.handle(pygame.event.Event(t, data))
    app.update(TICK)


def widget(scene, name: str):
    return next(w for w in scene.ui.widgets if w.name == name)


def leave_a_match(app: App, game: str = "scopa", players: int = 2, moves: int = 6, seed: int = 7):
    """Play a few moves at a table, then Quit to menu (the table saves); returns the session."""
    app.open_path("menu")
    table = make_scene(
        app,
        "table",
        game=game,
        players=players,
        seed=seed,
        autoplay_moves=moves,
        ai_level="greedy",
        threaded=False,
        preselect=False,
    )
    app.stack.push(table)
    for _ in range(5):
        app.update(TICK)
    table.to_menu()
    assert app.stack.top.name == "menu"
    return table.session


@pytest.mark.parametrize("game,players", [("scopa", 3), ("cicera", 4), ("briscola", 2), ("schnapsen", 2)])
def test_the_menu_offers_the_saved_match_and_enter_resumes_it_exactly(game, players):
    app = make_app()
    left = leave_a_match(app, game, players, moves=players * 3)
    menu = app.stack.top
    assert menu.saved is not None and menu.saved.game == game
    cont = widget(menu, "continue")
    assert cont.visible and menu.ui.focused is cont  # Enter is all it takes
    head, score = menu.offer_lines()
    cfg = get_config()
    assert cfg.games[game].name["en"] in head and f"{players} players" in head
    assert all(str(v) in score for v in left.match.totals) and ("You" in score or "Us" in score)  # the table's names
    app.render()  # the offer is drawn
    key(app, pygame.K_RETURN)
    table = app.stack.top
    assert table.name == "table" and table.session is not left
    s = table.session
    assert s.match.events == left.match.events
    assert s.to_act == left.to_act and list(s.match.totals) == list(left.match.totals)
    assert s.view().hand == left.view().hand
    assert s.rules.options == left.rules.options and s.bot_name == left.bot_name
    for _ in range(10):
        app.update(TICK)
    app.render()
    assert sorted(table.model.hand) == sorted(c.code for c in s.view().hand) or not s.human_to_act


def test_a_click_on_continue_resumes_and_the_offer_follows_the_language():
    app = make_app("de")
    left = leave_a_match(app, "briscola", 2)
    menu = app.stack.top
    assert "Runde" in menu.offer_lines()[1] and "Du" in menu.offer_lines()[1]
    click(app, widget(menu, "continue").rect.center)
    assert app.stack.top.name == "table" and app.stack.top.session.match.events == left.match.events


def test_new_match_asks_first_keep_keeps_and_discard_starts_afresh():
    app = make_app()
    leave_a_match(app)
    menu = app.stack.top
    key(app, pygame.K_RIGHT)  # Continue -> New match
    assert menu.ui.focused.name == "new"
    key(app, pygame.K_RETURN)
    assert menu.confirming and menu.ui.focused.name == "keep"  # the safe answer first
    app.render()
    key(app, pygame.K_RETURN)  # Keep it
    assert not menu.confirming and saves.has_saved_match()
    widget(menu, "new").activate()
    key(app, pygame.K_ESCAPE)  # Esc while asking also keeps it
    assert not menu.confirming and saves.has_saved_match() and app.stack.top is menu
    widget(menu, "new").activate()
    click(app, widget(menu, "discard").rect.center)
    assert not saves.has_saved_match() and menu.saved is None
    assert app.stack.top.name == "decks"  # on to choose the new match


def test_play_with_a_saved_match_asks_before_overwriting_it():
    app = make_app()
    leave_a_match(app)
    menu = app.stack.top
    widget(menu, "play").activate()
    assert menu.confirming and app.stack.top is menu and saves.has_saved_match()
    widget(menu, "keep").activate()
    assert saves.has_saved_match()


def test_no_save_no_offer_and_play_goes_straight_on():
    app = make_app()
    app.open_path("menu")
    menu = app.stack.top
    assert menu.saved is None and not widget(menu, "continue").visible and menu.ui.focused.name == "play"
    widget(menu, "play").activate()
    assert app.stack.top.name == "decks"


def test_a_damaged_save_is_moved_aside_with_a_toast_never_a_crash(_private_home):
    (_private_home / "match.json").write_text('{"version": 1, "events": [', encoding="utf-8")
    app = make_app()
    app.open_path("menu")
    menu = app.stack.top
    assert menu.saved is None and not widget(menu, "continue").visible
    assert any("match.json.bad" in t for t in app.toasts.active)
    assert (_private_home / "match.json.bad").exists() and not (_private_home / "match.json").exists()
    app.render()


def test_a_save_missing_its_facts_is_moved_aside(_private_home):
    saves.save_match({"events": [], "deck": "piacentine"})  # no game, no players
    app = make_app("it")
    app.open_path("menu")
    assert app.stack.top.saved is None and (_private_home / "match.json.bad").exists()
    assert app.toasts.active  # said so (in Italian)


def test_a_save_that_does_not_replay_is_moved_aside_on_continue(_private_home):
    app = make_app()
    leave_a_match(app, "scopa", 2, moves=6)
    data = json.loads((_private_home / "match.json").read_text(encoding="utf-8"))
    plays = [i for i, e in enumerate(data["events"]) if e["event"] == "play"]
    data["events"][plays[0]]["card"] = "XX"  # no such card: the replay refuses it
    (_private_home / "match.json").write_text(json.dumps(data), encoding="utf-8")
    app.stack.top.refresh_saved()
    menu = app.stack.top
    assert menu.saved is not None  # it still reads; only the replay can tell
    widget(menu, "continue").activate()
    assert app.stack.top is menu and menu.saved is None
    assert any("match.json.bad" in t for t in app.toasts.active)
    assert (_private_home / "match.json.bad").exists()


def test_a_finished_match_is_not_offered(_private_home):
    s = Session.new("briscola", None, 2, {"format": "single"}, seed=3, human_seat=0, threaded=False)
    s.start()
    while not s.over:
        if s.human_to_act:
            s.submit(s.legal_actions()[0])
        else:
            s.poll()
    saves.save_match(s.to_save())
    app = make_app()
    app.open_path("menu")
    menu = app.stack.top
    widget(menu, "continue").activate()  # the save was there; resuming finds it over and clears it
    assert app.stack.top is menu and not saves.has_saved_match() and menu.saved is None


# ---------------------------------------------------------------------- a real kill between saves
CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
from game.services import saves
from game.services.session import Session
s = Session.new("scopa", "piacentine", 2, None, seed=12, human_seat=0, threaded=False)
s.start()
n = 0
while True:  # save after every move, as the table does, until killed
    if s.human_to_act:
        s.submit(s.legal_actions()[0])
    else:
        s.poll()
    if s.over:  # a finished match is not resumed (resume_session clears it): save the next
        s = Session.new("scopa", "piacentine", 2, None, seed=12 + n, human_seat=0, threaded=False)
        s.start()
    assert saves.save_match(s.to_save()) is None
    n += 1
    if n == 5:
        print("saving", flush=True)
"""


@pytest.mark.parametrize("run", range(3))
def test_a_process_killed_between_saves_leaves_a_save_that_resumes(_private_home, run):
    env = dict(os.environ, CARDAVIA_HOME=str(_private_home))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(ROOT)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "saving"
        time.sleep(0.05 + 0.07 * run)  # let it be somewhere in its write loop (no timing is asserted)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    session, problem = saves.resume_session(threaded=False)
    assert problem is None and session is not None and session.match.events
    assert not (_private_home / "match.json.bad").exists()
