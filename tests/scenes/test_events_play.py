"""Events played and entered from the window, against a real club server on 127.0.0.1: a
challenge's deal played at a table from the Events list (its opponent playing theirs headless
with ``online challenge --play``), the list showing the challenge deal by deal and the
duplicate difference once both have played; a partnership Swiss tournament entered with the
partner's name typed in the field (the team entered once the partner registers naming the
player back), and the invited player's side (the asker named, one key to confirm). Then the
new screens drawn from the sample events in two languages. Every wait is bounded."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pygame
import pytest

from game.online.cli import main as cli
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from scenes.app import TICK
from scenes.online import hosting
from scenes.online.events import ROWS
from tests.scenes.test_daily_online_scene import click, pump
from tests.scenes.test_events_scene import make_app, press, said, widget
from tests.scenes.test_events_scene import small_par as small_par  # the fixture: par with small budgets

SHOTS = Path("/work/shots61b")


def choose(app, scene, kind: str, nth: int = 0) -> None:
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


def test_a_challenge_played_from_the_window(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1)
    h.server.events.hub.challenges.deals = 1
    try:
        app = make_app()
        app.open_scene("online_events", server={"name": "The club", "address": f"127.0.0.1:{h.port}"}, player="Lucia")
        scene = app.stack.top
        pump(app, lambda: scene.listing is not None and scene.request is None, "the events list")
        # Marco challenges Lucia from the command line; Lucia accepts in the window (J)
        base = ["online", "challenge", "--server", h.url, "--name", "Marco"]
        assert cli([*base, "--send", "Lucia", "--game", "briscola"]) == 0
        cid = re.search(r"^challenge: (\S+)$", capsys.readouterr().out, re.M).group(1)
        scene.refresh()
        pump(app, lambda: scene.request is None and scene.listing["challenges"], "the challenge")
        choose(app, scene, "challenge")
        assert not widget(scene, "play").visible  # nothing to play before it is accepted
        press(app, pygame.K_j)
        pump(app, lambda: app.t("club_events.accepted") in said(app) and scene.request is None, "accepted")
        # Marco plays his deal headless; Lucia's is offered in the window
        assert cli([*base, "--play", cid, "--bot", "greedy", "--seed", "3"]) == 0
        assert "deal 1: record" in capsys.readouterr().out
        scene.refresh()
        pump(app, lambda: scene.request is None, "the list again")
        item = scene.selected_item()
        assert item.kind == "challenge" and item.event["status"] == "accepted" and item.event["theirs"] == {}
        assert widget(scene, "play").visible and widget(scene, "play").label() == app.t(
            "club_events.play_next", n=1, deals=1
        )
        assert scene.challenge_rows(item) == [
            ("1.", app.t("club_events.challenge_row", mine="–", opponent="Marco", theirs="–"), "")
        ]
        # Enter on the challenge chosen plays its next deal: the table opens, Lucia plays it by keys
        scene.ui.focus(widget(scene, f"event{scene.selected - scene.first}"))
        press(app, pygame.K_RETURN)
        pump(app, lambda: app.stack.top.name == "table", "the challenge's table")
        table = app.stack.top
        assert table.session.human_seat == 0

        def step() -> None:
            if app.stack.top is table and table.controller.can_act:
                press(app, pygame.K_RETURN)

        pump(app, lambda: app.stack.top.name == "results", "the deal's end", step)
        pump(app, lambda: table.session.challenge is not None, "the server's result")
        c = table.session.challenge
        mine, theirs = float(c["mine"]["0"]), float(c["theirs"]["0"])
        assert c["status"] == "done" and c["difference"] == mine - theirs
        for _ in range(40):  # the results' input guard
            app.update(TICK)
        for _ in range(5):
            if app.stack.top is scene:
                break
            app.stack.pop()
            app.update(TICK)
        assert app.stack.top is scene, app.stack.names()
        # back on the list: the deal's score and the outcome said, the list asked again
        assert app.t("club_events.challenge_result", n=1, score=f"{mine:g}") in said(app)
        pump(app, lambda: scene.request is None and scene.selected_item().event["status"] == "done", "the result")
        item = scene.selected_item()
        outcome = item.event["outcome"]
        assert outcome == ("draw" if mine == theirs else "won" if mine > theirs else "lost")
        detail = scene.describe(item)[1]
        if outcome == "draw":
            assert detail == app.t("club_events.challenge_draw")
        else:
            assert detail == app.t(f"club_events.challenge_{outcome}", difference=f"{abs(mine - theirs):g}")
        assert detail in said(app)
        row = app.t("club_events.challenge_row", mine=f"{mine:g}", opponent="Marco", theirs=f"{theirs:g}")
        assert scene.challenge_rows(item) == [("1.", row, f"{mine - theirs:+g}")]
        assert not widget(scene, "play").visible  # every deal played
    finally:
        h.stop()


def test_a_partnership_swiss_entered_with_the_partner_named(tmp_path, monkeypatch):
    from tests.online.wshelp import Client

    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    start = (dt.datetime.now() + dt.timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    schedule = tmp_path / "events.yaml"
    schedule.write_text(
        f"swiss:\n  - name: club-pairs\n    game: scopa\n    preset: scopone\n    rounds: 2\n    start: {start}\n"
    )
    h = start_server_in_thread(
        "127.0.0.1", 0, tmp_path / "server", workers=1, limits=ServerLimits(events_file=str(schedule))
    )
    marco = Client(h.url, "Marco")
    try:
        marco.request({"type": "account", "name": "Marco", "secret": None}, "account")
        app = make_app()
        app.open_scene("online_events", server={"name": "The club", "address": f"127.0.0.1:{h.port}"}, player="Lucia")
        scene = app.stack.top
        pump(app, lambda: scene.listing is not None and scene.request is None, "the events list")
        choose(app, scene, "swiss")
        field = widget(scene, "partner")
        assert field.visible and widget(scene, "join").label() == app.t("club_events.register_team")
        assert app.t("club_events.swiss_teams") in scene.describe(scene.selected_item())[1]
        # J without a partner: said, and the field takes the focus
        press(app, pygame.K_j)
        assert app.t("club_events.partner_needed") in said(app) and scene.ui.focused is field
        # a name nobody has: the server's refusal shown
        for ch in "Nobody":
            app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        press(app, pygame.K_RETURN)  # Enter in the field registers
        pump(app, lambda: scene.problem is not None, "the refusal")
        assert "Nobody" in scene.problem
        # the partner's name typed (the letters go to the field, not to the screen's keys)
        field.set_text("")
        for ch in "Marco":
            app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        app.update(TICK)
        assert field.text == "Marco"
        click(app, widget(scene, "join"))  # the mouse: the button asks Marco
        assert app.t("club_events.registering_team", partner="Marco") in said(app)
        pump(app, lambda: app.t("club_events.waiting_partner", partner="Marco") in said(app), "waiting")
        pump(app, lambda: scene.request is None and scene.selected_item().event["waiting"] == "Marco", "the list")
        assert app.t("club_events.swiss_waiting", partner="Marco") in scene.describe(scene.selected_item())[1]
        assert widget(scene, "join").label() == app.t("club_events.leave_swiss") and not field.visible
        assert h.server.events.hub.swisses.get("swiss:club-pairs").entrants() == {}  # not entered yet
        # Marco sees that Lucia asked him, and confirms by registering naming her
        line = marco.request({"type": "event_list"}, "event_list")["swiss"][0]
        assert line["asked"] == ["Lucia"] and not line["registered"] and line["waiting"] is None
        confirmed = marco.request({"type": "swiss_register", "id": "swiss:club-pairs", "partner": "Lucia"}, "swiss")
        assert confirmed["me"]["name"] == "Lucia & Marco" and confirmed["waiting"] is None
        team = "Lucia & Marco"
        pump(app, lambda: app.t("club_events.registered_team", team=team) in said(app), "registered")
        pump(app, lambda: scene.request is None and scene.selected_item().event["registered"], "the list again")
        assert not field.visible and widget(scene, "join").label() == app.t("club_events.leave_swiss")
        assert app.t("club_events.swiss_team", team=team) in scene.describe(scene.selected_item())[1]
        entrants = h.server.events.hub.swisses.get("swiss:club-pairs").entrants()
        assert [v["name"] for v in entrants.values()] == [team] and len(next(iter(entrants.values()))["members"]) == 2
        # Marco finds it registered in his own list
        assert marco.request({"type": "event_list"}, "event_list")["swiss"][0]["registered"]
        # a round's table sent for both of the team's seats on this connection: one opens
        for seat in (0, 2):
            msg = {"type": "swiss_round", "id": "swiss:club-pairs", "round": 1, "code": "ABCDEFGHJK"}
            scene._heard(msg | {"seat": seat, "token": f"t{seat}", "opponent": "Anna & Bea"})
        assert scene.tables == [("ABCDEFGHJK", "t0")]
        scene.tables.clear()
    finally:
        marco.close()
        h.stop()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_challenge_and_partner_screens_drawn(lang, tmp_path):
    for view in ("list", "challenge", "result", "partner", "asked", "waiting"):
        app = make_app(lang)
        app.open_scene(
            "online_events", server={"name": "Il circolo", "address": "127.0.0.1:7420"}, player="Anna", view=view
        )
        scene = app.stack.top
        app.update(TICK)
        app.render(1.0)
        name = f"window-events-{view}-{lang}.png"
        app.screenshot(tmp_path / name)
        assert (tmp_path / name).stat().st_size > 10_000
        if SHOTS.is_dir():
            shutil.copy(tmp_path / name, SHOTS / name)
        item = scene.selected_item()
        if view == "challenge":
            assert widget(scene, "play").visible and item.event["status"] == "accepted"
            assert [r[2] for r in scene.challenge_rows(item)] == ["+6", "", "", ""]
        elif view == "result":
            assert scene.describe(item)[1] == app.t("club_events.challenge_won", difference="23")
            assert sum(float(r[2]) for r in scene.challenge_rows(item)) == 23
        elif view == "partner":
            assert widget(scene, "partner").visible and scene.ui.focused is widget(scene, "partner")
        elif view in ("asked", "waiting"):
            sent: list[dict] = []
            scene._send = sent.append
            detail, join = scene.describe(item)[1], widget(scene, "join")
            if view == "asked":  # Marco asked: the button registers with him, the field left empty
                assert app.t("club_events.swiss_asked", partner="Marco") in detail
                assert join.label() == app.t("club_events.register_with", partner="Marco")
                scene.join()
                assert sent == [{"type": "swiss_register", "id": item.event["id"], "partner": "Marco"}]
            else:  # waiting for Marco: said in the line, the button withdraws the offer
                assert app.t("club_events.swiss_waiting", partner="Marco") in detail
                assert join.label() == app.t("club_events.leave_swiss") and not widget(scene, "partner").visible
                scene.join()
                assert sent == [{"type": "swiss_leave", "id": item.event["id"]}]
