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
from scenes.online.events import ROWS
from tests.scenes.test_daily_online_scene import click, pump

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
        assert scene.name == "online_events" and len(scene.items()) == 8
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


def test_joining_an_arena_a_swiss_tournament_and_answering_challenges_in_the_window(tmp_path, monkeypatch):
    """By keys: an arena joined (its match's table opens, the computer filling the other seat
    after the quick wait), paused and come back to; a Swiss tournament registered for, left
    and registered for again, its first round's table opening in the window; one challenge
    declined (D) and another accepted (J). Each answer is said."""
    from tests.online.wshelp import Client, Player

    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    now = dt.datetime.now()
    schedule = tmp_path / "events.yaml"
    schedule.write_text(
        f"arenas:\n  - name: club-blitz\n    game: briscola\n"
        f"    start: {(now - dt.timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M')}\n    minutes: 60\n"
        f"swiss:\n  - name: club-swiss\n    game: briscola\n    rounds: 3\n"
        f"    start: {(now + dt.timedelta(minutes=5)).strftime('%Y-%m-%d %H:%M')}\n"
    )
    limits = ServerLimits(tournament_deals=1, events_file=str(schedule), quick_wait=0.3)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=limits)
    others = []
    try:
        app = make_app()
        app.open_scene("online_events", server={"name": "The club", "address": f"127.0.0.1:{h.port}"}, player="Lucia")
        scene = app.stack.top
        pump(app, lambda: scene.listing is not None and scene.request is None, "the events list")
        assert account_secret(app.settings.extra, h.url, "Lucia")  # the list's sign-in made the account
        for name in ("Marco", "Nina"):  # two challenges to Lucia
            c = Client(h.url, name)
            c.request({"type": "account", "name": name, "secret": None}, "account")
            c.request({"type": "challenge", "name": "Lucia", "game": "briscola", "preset": None}, "challenge")
            others.append(c)
        scene.refresh()
        pump(app, lambda: scene.request is None and len(scene.listing["challenges"]) == 2, "the challenges")

        def choose(kind: str, nth: int = 0) -> None:
            """Down or up the list (it scrolls past its last row) to the event, then Enter."""
            k = [i for i, item in enumerate(scene.items()) if item.kind == kind][nth]
            while k - scene.first >= ROWS:
                scene.ui.focus(widget(scene, f"event{ROWS - 1}"))
                press(app, pygame.K_DOWN)
            while k < scene.first:
                scene.ui.focus(widget(scene, "event0"))
                press(app, pygame.K_UP)
            scene.ui.focus(widget(scene, f"event{k - scene.first}"))
            press(app, pygame.K_RETURN)
            assert scene.selected == k

        def answered(key: str) -> None:
            pump(app, lambda: app.t(key) in said(app) and scene.request is None, key)
            app.speech.lines.clear()

        # a challenge: declined with D, the other accepted with J (Enter on it chosen also would)
        choose("challenge")
        assert widget(scene, "join").visible and widget(scene, "decline").visible
        assert widget(scene, "join").label() == app.t("club_events.accept")
        press(app, pygame.K_d)
        answered("club_events.declined")
        statuses = sorted(str(c["status"]) for c in scene.listing["challenges"])
        assert statuses == ["declined", "pending"]
        choose("challenge", statuses.index("pending"))
        press(app, pygame.K_j)
        answered("club_events.accepted")
        assert sorted(str(c["status"]) for c in scene.listing["challenges"]) == ["accepted", "declined"]
        assert not widget(scene, "decline").visible  # nothing left to answer
        # the Swiss tournament: registered, then left
        choose("swiss")
        assert widget(scene, "join").label() == app.t("club_events.register")
        press(app, pygame.K_j)
        answered("club_events.registered")
        swiss = next(i.event for i in scene.items() if i.kind == "swiss")
        assert swiss["registered"] and swiss["entrants"] == 1
        assert widget(scene, "join").label() == app.t("club_events.leave_swiss")
        scene.ui.focus(widget(scene, f"event{scene.selected - scene.first}"))
        press(app, pygame.K_RETURN)  # Enter on it again never withdraws
        assert scene.status != app.t("club_events.asking") and scene.selected_item().event["registered"]
        click(app, widget(scene, "join"))  # the mouse: the button withdraws
        answered("club_events.left")
        assert not next(i.event for i in scene.items() if i.kind == "swiss")["registered"]
        press(app, pygame.K_j)
        answered("club_events.registered")
        # the arena: joined (J), paused (P) before anyone is free, come back to: a match
        choose("arena")
        assert widget(scene, "join").label() == app.t("club_events.join_arena")
        press(app, pygame.K_j)
        pump(app, lambda: app.t("club_events.joined") in said(app), "joined")
        press(app, pygame.K_p)
        pump(app, lambda: app.t("club_events.paused") in said(app), "paused")
        pump(app, lambda: scene.request is None, "the list")
        assert widget(scene, "join").label() == app.t("club_events.come_back")
        assert scene.link is not None and not scene.link.arenas
        press(app, pygame.K_j)
        pump(app, lambda: app.stack.top.name == "table", "the arena's table")
        table = app.stack.top
        assert table.session.human_seat == 0 and app.t("club_events.table_ready") in said(app)
        assert table.session.code in h.server.events.arenas.tables
        app.stack.pop()
        app.update(TICK)
        assert app.stack.top is scene
        # the Swiss tournament begins (a second entrant, the clock past its start): the first
        # round's table is sent on the screen's connection and opens
        zeno = Client(h.url, "Zeno")
        others.append(zeno)
        zeno.request({"type": "account", "name": "Zeno", "secret": None}, "account")
        zeno.request({"type": "swiss_register", "id": "swiss:club-swiss", "partner": None}, "swiss")
        h.server.events.clock = lambda: dt.datetime.now() + dt.timedelta(minutes=6)
        found = zeno.expect("swiss_round")
        Player(h.url, found["code"], found["token"], "Zeno").start()  # Zeno takes the other seat
        pump(app, lambda: app.stack.top.name == "table", "the Swiss round's table")
        assert app.stack.top.session.code == found["code"] and found["code"] in h.server.events.swiss.tables
        app.stack.pop()
        app.update(TICK)
        link = scene.link
        app.stack.pop()  # leaving the screen pauses the arena joined from it
        app.update(TICK)
        assert scene.link is None and link is not None and not link.arenas
        arena = h.server.events.hub.arenas.get("arena:club-blitz")
        deadline = dt.datetime.now() + dt.timedelta(seconds=5)
        while not all(v.paused for v in arena.standings()) and dt.datetime.now() < deadline:
            arena = h.server.events.hub.arenas.get("arena:club-blitz")
        assert [v.paused for v in arena.standings()] == [True]
    finally:
        for c in others:
            c.close()
        h.stop()


def test_a_no_show_said_in_words():
    """An event's table closed for a no-show: the one at the table hears that the game is
    theirs (the table's line and the list's), the one who never sat that it counts as lost."""

    class Closed:
        failed, failed_code, over = "the table closed", "no_show", False

    app = make_app()
    app.open_scene(
        "online_events", server={"name": "The club", "address": "127.0.0.1:7420"}, player="Anna", view="list"
    )
    scene = app.stack.top
    app.update(TICK)
    won = app.t("club_events.no_show_won")
    assert hosting.describe(hosting.session_problem(Closed()), app.t) == app.t("online.error_no_show")
    scene.playing = Closed()
    scene.enter()  # back from the table
    assert scene.playing is None and won in said(app) and scene.status == won  # until the list comes
    scene._heard({"type": "error", "code": "no_show", "message": "you did not take your seat in time"})
    assert app.t("club_events.no_show_lost") in said(app) and scene.problem is None
