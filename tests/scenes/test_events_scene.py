"""A club's events in the window, by keys, against a real club server on 127.0.0.1: the club's
lobby → Events → the list (a tournament of the day per game) → the Briscola tournament played
(Enter: the server deals it at a table of its own, the house bots in the other seats) → back
on the list, the deal's result said and the progress shown → its standings (S) and the
field of the deal (F), both said; the standings hidden before every deal is played. Then the
sample events drawn in two languages (the list, an arena, a Swiss tournament, standings and a
deal's field), kept under /work/shots61 when that folder exists. Every wait is bounded."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pygame
import pytest

import game.services.par
from game.config import get_config
from game.online.client.clubclient import account_secret
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.services.i18n import I18n
from game.services.settings import Settings
from game.services.speech import Speech
from scenes.app import TICK, App
from scenes.online import fields, hosting
from tests.scenes.test_daily_online_scene import pump

SHOTS = Path("/work/shots61")


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.services.par, "HOUSE_ITERATIONS", 8)


def make_app(lang: str = "en") -> App:
    app = App(get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False)
    app.speech = Speech("off", lang, None)  # every line said is kept in app.speech.lines
    return app


def press(app: App, key: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.update(TICK)


def widget(scene, name: str):
    return next(w for w in scene.ui.widgets if w.name == name)


def said(app: App) -> str:
    return " ".join(str(x) for x in app.speech.lines)


def test_the_tournament_of_the_day_in_the_window(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    monkeypatch.setattr(fields, "copy_text", lambda text: False)
    start = (dt.datetime.now() - dt.timedelta(minutes=1)).strftime("%Y-%m-%d %H:%M")
    schedule = tmp_path / "events.yaml"
    schedule.write_text(f"arenas:\n  - name: club-blitz\n    game: briscola\n    start: {start}\n    minutes: 60\n")
    limits = ServerLimits(tournament_deals=1, events_file=str(schedule))
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=limits)
    try:
        app = make_app()
        server = {"name": "The club", "address": f"127.0.0.1:{h.port}"}
        app.open_scene("online_club_lobby", server=server, player="Lucia")
        lobby = app.stack.top
        pump(app, lambda: lobby.link is not None and lobby.link.signed_in, "signed in")
        app.update(TICK)
        assert account_secret(app.settings.extra, h.url, "Lucia")
        lobby.ui.focus(widget(lobby, "events"))
        press(app, pygame.K_RETURN)
        scene = app.stack.top
        assert scene.name == "online_events"
        pump(app, lambda: scene.listing is not None and scene.request is None, "the events list")
        titles = [scene.describe(item)[0] for item in scene.items()]
        assert app.t("club_events.tournament", game="Briscola") in titles
        k = titles.index(app.t("club_events.tournament", game="Briscola"))
        # by keys: down the list to Briscola's tournament, Enter chooses it, Enter again plays
        for _ in range(20):
            if scene.ui.focused.name == f"event{k}":
                break
            press(app, pygame.K_TAB)
        assert scene.ui.focused.name == f"event{k}", scene.ui.focused.name
        press(app, pygame.K_RETURN)
        assert scene.selected == k and widget(scene, "play").label() == app.t("club_events.play_first")
        press(app, pygame.K_s)  # the standings before playing: hidden, and said so
        pump(app, lambda: scene.request is None and scene.standings == [], "the standings refused")
        assert app.t("club_events.hidden_standings") in said(app)
        scene.ui.focus(widget(scene, f"event{k}"))
        press(app, pygame.K_RETURN)
        pump(app, lambda: app.stack.top.name == "table", "the tournament's table")
        table = app.stack.top
        assert table.session.human_seat == 0 and table.session.code

        def step() -> None:
            if app.stack.top is table and table.controller.can_act:
                press(app, pygame.K_RETURN)

        pump(app, lambda: app.stack.top.name == "results", "the deal's end", step)
        pump(app, lambda: table.session.tod_result is not None, "the server's result")
        score = table.session.tod_result["score"]
        for _ in range(40):  # the results' input guard
            app.update(TICK)
        for _ in range(5):
            if app.stack.top is scene:
                break
            app.stack.pop()
            app.update(TICK)
        assert app.stack.top is scene, app.stack.names()
        text = app.t("club_events.result", n=1, score=f"{float(score):g}")
        assert text in said(app)
        pump(app, lambda: scene.request is None and scene._next_deal() is None, "the list again")
        assert not widget(scene, "play").visible  # nothing left to play
        assert scene.describe(scene.selected_item())[1] == app.t("club_events.finished")
        press(app, pygame.K_s)
        pump(app, lambda: scene.request is None and scene.standings, "the standings")
        assert [(ln["rank"], ln["name"], ln["percent"]) for ln in scene.standings] == [(1, "Lucia", 50.0)]
        assert "1. Lucia 50.00%" in said(app)
        press(app, pygame.K_f)
        pump(app, lambda: scene.request is None and scene.field, "the deal's field")
        lines = scene.field_lines()
        assert lines[0].startswith(
            app.t("club_events.your_line", score=f"{float(score):g}", rank=1, players=1, percent="50.00")[:20]
        )
        assert lines[0] in said(app)
        app.render(1.0)
        # the arena of the owner's schedule: its live standings (S)
        h.server.events.hub.arenas.join("arena:club-blitz", "p:77", "Zeno", dt.datetime.now())
        k = next(i for i, item in enumerate(scene.items()) if item.kind == "arena")
        scene.ui.focus(widget(scene, f"event{k}"))
        press(app, pygame.K_RETURN)
        assert scene.selected == k and widget(scene, "standings").visible and not widget(scene, "play").visible
        press(app, pygame.K_s)
        pump(app, lambda: scene.request is None and scene.lines, "the arena's standings")
        assert scene.lines == [("1.", "Zeno", app.t("club_events.arena_points", points="0"))]
        assert "Zeno" in said(app)
    finally:
        h.stop()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_events_screens_drawn(lang, tmp_path):
    for view in (None, "standings", "field", "arena", "swiss"):
        app = make_app(lang)
        app.open_scene(
            "online_events", server={"name": "Il circolo", "address": "127.0.0.1:7420"}, player="Anna", view=view
        )
        scene = app.stack.top
        assert scene.name == "online_events" and len(scene.items()) == 6
        app.update(TICK)
        app.render(1.0)
        name = f"window-events-{view or 'list'}-{lang}.png"
        app.screenshot(tmp_path / name)
        assert (tmp_path / name).stat().st_size > 10_000
        if SHOTS.is_dir():
            shutil.copy(tmp_path / name, SHOTS / name)
        if view == "field":
            assert scene.field_lines()[0] == app.t(
                "club_events.your_line", score="71", rank=2, players=7, percent="83.33"
            )
