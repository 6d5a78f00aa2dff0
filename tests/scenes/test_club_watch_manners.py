"""The club in the window, part two: watching a table and the players' manners, by
key events (and a click) under the dummy video driver, against a real club server on
127.0.0.1 started by the test. Every wait is bounded (``pump``'s deadline).

- Watch: two scripted players (tests.online.wshelp.Player) play a public table; from the
  club's lobby, Tab reaches the row's Watch button, Enter opens the spectator's view (the
  replay viewer fed by the server's stream). At every frame no hand holds a known card and
  every card drawn face up lies on the table, in the trick or is the turned trump; at the end
  the stream is exactly the server's spectator redaction of the whole record. Esc goes back
  to the lobby.
- Manners at a club table: the window's player and a scripted one at a public table; a
  spectator makes the table say "1 watching"; R opens the Players panel; Mute stops the
  other's quick messages (Unmute lets them through again); Block and Report are kept in the
  server's database (the report with the reason typed and the table's code); chat is refused
  in words while the server has it off, and goes through (then the second message within a
  second is refused as too fast) on a server started with chat on.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pygame

from game.online.client.watchclient import SpectatorFeed
from game.online.server.accounts import DB_NAME
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from game.online.server.spectate import spectator_events
from game.rulesets import make_rules
from scenes.online import fields, hosting
from scenes.replay.view import HIDDEN
from sprites import theme
from tests.online.wshelp import Client, Player, create, record_file
from tests.scenes.test_daily_online_scene import click
from tests.scenes.test_online_scenes import TICK, make_app, press, pump, top, type_text, widget


def open_lobby(app, h) -> object:
    app.open_scene("online_club_lobby", server={"name": "Club", "address": f"127.0.0.1:{h.port}"}, player="Lucia")
    lobby = top(app)
    pump(app, lambda: lobby.link is not None and lobby.link.signed_in, "signed in")
    return lobby


def tab_to(app, scene, name: str, limit: int = 40) -> None:
    """Tab until the widget ``name`` has the keyboard (bounded)."""
    for _ in range(limit):
        if scene.ui.focused is not None and getattr(scene.ui.focused, "name", "") == name:
            return
        press(app, pygame.K_TAB)
    raise AssertionError(f"Tab never reached {name}")


def shows_no_hidden_card(scene) -> None:
    """The spectator's screen: no hand holds a card known to it (but the turned trump, which
    everyone saw), and each card drawn face up is one the stream shown so far named (played,
    on the table, turned) — never a card in a hand."""
    m = scene.model
    if m is None:
        return
    # The one card a hand may show: the turned trump a player drew or took (everyone saw it).
    turned = set()
    for ev in scene.timeline.events[: scene.pos]:
        if ev.get("event") == "deal" and ev.get("trump"):
            turned.add(ev["trump"])
        elif ev.get("event") == "exchange" and ev.get("gave"):
            turned.add(ev["gave"])
    known = {c for hand in m.hands for c in hand if c is not None}
    assert known <= turned, f"a spectator knows {known - turned} in a hand"
    told = json.dumps(scene.timeline.events[: scene.pos])  # all the spectator was sent so far
    for key, sp in scene.sprites.items():
        if sp.code is not None:
            assert not key.startswith(HIDDEN) and f'"{key}"' in told, f"{key} drawn face up"
            assert key not in {c for hand in m.hands for c in hand} or key in turned, f"{key} face up in a hand"


def test_watch_a_club_table_from_the_lobby_shows_no_hidden_card(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=ServerLimits())
    try:
        host, created = create(h.url, "briscola", 2, ["friend", "friend"], name="Host")
        host.request({"type": "publish", "public": True}, "published")
        # Slow until the window watches (a quick match could end before the list shows it), then brisk.
        anna = Player(h.url, created["code"], created["tokens"]["0"], "Anna", seed=1, pace=0.3, deadline=120).start()
        bruno = Player(h.url, created["code"], created["tokens"]["1"], "Bruno", seed=2, pace=0.3, deadline=120).start()
        app = make_app("de")
        lobby = open_lobby(app, h)
        pump(app, lambda: any(r.get("started") for r in lobby.link.tables), "the table playing, in the list")
        row = next(i for i, r in enumerate(lobby.rows()) if r["code"] == created["code"])
        assert widget(lobby, f"watch{row}").visible and not widget(lobby, f"join{row}").visible
        app.render()
        app.screenshot(tmp_path / "lobby_watch_de.png")
        tab_to(app, lobby, f"watch{row}")
        press(app, pygame.K_RETURN)
        pump(app, lambda: top(app).name == "online_watch", "the spectator's view")
        watch = top(app)
        anna.pace = bruno.pace = 0.01
        assert not widget(watch, "hands").visible  # nothing to turn face up
        press(app, pygame.K_v)
        assert not watch.open_hands
        assert watch.feed.watchers >= 1 and watch.names_source.seat_names() == {0: "Anna", 1: "Bruno"}

        def check() -> None:
            if top(app) is watch:
                shows_no_hidden_card(watch)

        for _ in range(20):
            app.update(TICK)
        app.render()
        app.screenshot(tmp_path / "watch_de.png")
        pump(app, lambda: watch.timeline.finished, "the watched match's end", check)
        # Leaf through it by keys: every position is shown as a spectator sees it.
        press(app, pygame.K_HOME)
        for _ in range(0, watch.timeline.limit, 3):
            shows_no_hidden_card(watch)
            for _ in range(3):
                press(app, pygame.K_RIGHT)
        app.render()
        anna.join(30)
        bruno.join(30)
        full = [
            json.loads(ln) for ln in Path(record_file(tmp_path, anna.record)).read_text().splitlines() if ln.strip()
        ]
        head = full[0]
        rules = make_rules(head["game"], head["deck"], head["players"], head["options"])
        assert watch.feed.events == spectator_events(rules, full)  # the server's redaction, whole and in order
        press(app, pygame.K_ESCAPE)
        assert top(app) is lobby
        host.close()
    finally:
        h.stop()


def seat_friend(h, name: str = "Bruno") -> tuple[Client, Client, dict]:
    """A public table for two people: the host's connection, Bruno (signed in) and the code."""
    host, created = create(h.url, "briscola", 2, ["friend", "friend"], name="Host")
    host.request({"type": "publish", "public": True}, "published")
    bruno = Client(h.url, name)
    bruno.request({"type": "account", "name": name, "secret": None}, "account")
    return host, bruno, created


def sit_at_table(app, lobby, code: str, bruno: Client, created: dict) -> object:
    pump(app, lambda: any(r["code"] == code for r in lobby.link.tables), "the table in the list")
    row = next(i for i, r in enumerate(lobby.rows()) if r["code"] == code)
    tab_to(app, lobby, f"join{row}")
    press(app, pygame.K_RETURN)
    pump(app, lambda: top(app).name == "online_lobby", "the table's lobby")
    bruno.request({"type": "join", "code": code, "name": "Bruno", "token": None}, "joined")
    pump(app, lambda: top(app).name == "table", "the table")
    return top(app)


def panel_note(app, panel, key: str, **params) -> None:
    want = app.i18n.t(key, **params)
    pump(app, lambda: panel.note is not None and panel.note[0] == want, f"the panel saying {want!r}")


def test_mute_block_report_and_chat_off_at_a_club_table(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    monkeypatch.setattr(fields, "copy_text", lambda text: False)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=ServerLimits())
    try:
        host, bruno, created = seat_friend(h)
        code = created["code"]
        app = make_app("en")
        lobby = open_lobby(app, h)
        table = sit_at_table(app, lobby, code, bruno, created)
        session = table.controller.session
        feed = SpectatorFeed(h.url, code, "Watcher")
        pump(app, lambda: session.watchers == 1, "the players told one watches")
        with theme.measure_text() as shown:
            app.render()
        assert app.i18n.t("club.watchers", count=1) in {s for s, _, _ in shown.entries}  # on the table screen
        app.screenshot(tmp_path / "club_table.png")
        assert table.club.button is not None and table.club.button.visible
        press(app, pygame.K_r)
        panel = top(app)
        assert panel.name == "online_manners" and [n for _, n in panel.others()] == ["Bruno"]
        assert not widget(panel, "chat").visible  # the server has chat off (its account reply says)
        # Mute: Bruno's phrase does not reach this seat; after Unmute the next one does.
        tab_to(app, panel, "mute0")
        press(app, pygame.K_RETURN)
        panel_note(app, panel, "manners.done_muted", name="Bruno")
        assert widget(panel, "mute0").label() == app.i18n.t("manners.unmute")
        bruno.send({"type": "say", "phrase": "oops"})
        bruno.request({"type": "ping"}, "pong")
        press(app, pygame.K_RETURN)  # Unmute (the button keeps the keyboard)
        panel_note(app, panel, "manners.done_unmuted", name="Bruno")
        bruno.send({"type": "say", "phrase": "thanks"})
        pump(app, lambda: session.said, "Bruno's phrase after Unmute")
        assert [p for _, p in session.said] == ["thanks"]  # the muted "oops" never came
        # Report with a reason typed, then Block.
        tab_to(app, panel, "reason")
        type_text(app, "rude words")
        tab_to(app, panel, "report0")
        press(app, pygame.K_RETURN)
        panel_note(app, panel, "manners.done_reported", name="Bruno")
        tab_to(app, panel, "block0")
        press(app, pygame.K_RETURN)
        panel_note(app, panel, "manners.done_blocked", name="Bruno")
        app.render()
        app.screenshot(tmp_path / "manners.png")
        # Chat while the server has it off: refused, in words.
        session.chat("hello")
        panel_note(app, panel, "manners.refused_chat_off")
        db = sqlite3.connect(tmp_path / "server" / DB_NAME)
        try:
            names = dict(db.execute("SELECT id, name FROM players"))
            blocks = [(names[a], names[b]) for a, b in db.execute("SELECT player, other FROM blocks")]
            reports = [
                (names[a], names[b], c, r)
                for a, b, c, r in db.execute("SELECT reporter, reported, code, reason FROM reports")
            ]
        finally:
            db.close()
        assert blocks == [("Lucia", "Bruno")]
        assert reports == [("Lucia", "Bruno", code, "rude words")]
        meta = next((tmp_path / "server").rglob(f"{code}.table.json"))
        deadline = time.monotonic() + 5  # a lobby mark is written within a quarter second, in a thread
        while not json.loads(meta.read_text()).get("reported") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert json.loads(meta.read_text())["reported"] is True  # the table's files are kept for the owner
        press(app, pygame.K_ESCAPE)
        assert top(app) is table
        # The mouse: a click on Bruno's name plate opens the panel too.
        plate = table.layout.plate(1 - session.human_seat).center
        app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=plate, button=1))
        app.update(TICK)
        assert top(app).name == "online_manners"
        press(app, pygame.K_ESCAPE)
        feed.close()
        bruno.close()
        host.close()
    finally:
        h.stop()


def test_chat_at_a_club_table_when_the_server_allows_it(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=ServerLimits(chat=True))
    try:
        host, bruno, created = seat_friend(h)
        app = make_app("it")
        lobby = open_lobby(app, h)
        table = sit_at_table(app, lobby, created["code"], bruno, created)
        session = table.controller.session
        pump(app, lambda: session.chat_allowed, "the server saying it takes chat")
        click(app, widget(table, "players"))  # the mouse: the Players button under the scores
        panel = top(app)
        assert panel.name == "online_manners" and widget(panel, "chat").visible
        tab_to(app, panel, "chat")
        type_text(app, "ciao   a tutti")
        press(app, pygame.K_RETURN)
        type_text(app, "ancora")
        press(app, pygame.K_RETURN)  # a few milliseconds after the first: too fast
        said = bruno.expect("chat")
        assert said["text"] == "ciao a tutti" and said["seat"] == session.human_seat
        panel_note(app, panel, "manners.refused_rate", max=200)
        bruno.send({"type": "chat", "text": "grazie"})
        panel.back()
        pump(app, lambda: any(b[1] == "grazie" for b in table.online.bubbles), "Bruno's line by his plate")
        app.render()
        app.screenshot(tmp_path / "chat_it.png")
        bruno.close()
        host.close()
    finally:
        h.stop()
