"""The club servers in the window, by key events under the dummy video driver,
against a real club server on 127.0.0.1: Play online → Club servers → a server added by
typing its name and address → its lobby signs in (a new account: its secret kept in the
settings, the recovery code shown once), shows the rating and the open tables → Quick match:
nobody else waits, the computer fills and the player is told → the table, whose plates show
the ratings → back in the lobby, its leaderboard. Every wait is bounded."""

from __future__ import annotations

import pygame

from game.online.client.clubclient import account_secret, kept_servers
from game.online.server.limits import ServerLimits
from game.online.server.serving import start_server_in_thread
from scenes.online import fields, hosting
from tests.online.wshelp import create
from tests.scenes.test_online_scenes import TICK, make_app, open_online, press, pump, top, type_text, widget


def test_club_servers_lobby_quick_match_and_leaderboard_in_the_window(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    monkeypatch.setattr(fields, "copy_text", lambda text: False)
    limits = ServerLimits(quick_wait=0.5, bot_after=30.0, fill_levels=("easy",))
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=limits)
    try:
        host, created = create(h.url, "scopa", 2, ["friend", "ai:easy"], name="Host")
        host.request({"type": "publish", "public": True}, "published")
        app = make_app("it")
        app.settings.extra.setdefault("online", {})["name"] = "Lucia"
        open_online(app)
        app.open_scene("online_club")
        scene = top(app)
        assert scene.name == "online_club"
        scene.ui.focus(widget(scene, "server_name"))
        type_text(app, "Il circolo")
        scene.ui.focus(widget(scene, "server_address"))
        type_text(app, f"127.0.0.1:{h.port}")
        press(app, pygame.K_RETURN)
        assert kept_servers(app.settings.extra) == [{"name": "Il circolo", "address": f"127.0.0.1:{h.port}"}]
        scene.ui.focus(widget(scene, "server0"))
        press(app, pygame.K_RETURN)
        lobby = top(app)
        assert lobby.name == "online_club_lobby"
        pump(app, lambda: lobby.link is not None and lobby.link.signed_in and lobby.link.tables, "signed in, the list")
        app.update(TICK)
        assert lobby.recovery and account_secret(app.settings.extra, h.url, "lucia") == lobby.link.secret
        assert any(row["code"] == created["code"] for row in lobby.link.tables)
        assert widget(lobby, "join0").visible  # the public table has a free seat: one click joins it
        app.render()
        app.screenshot(tmp_path / "club_lobby_it.png")
        # Quick match in the first game (scopa): nobody else waits, the computer fills.
        lobby.ui.focus(widget(lobby, "quick"))
        press(app, pygame.K_RETURN)
        assert lobby.link.quick_since is not None
        pump(app, lambda: lobby.connecting is not None or top(app) is not lobby, "the quick match found")
        assert app.i18n.t("club.quick_filled") in app.toasts.active  # the player is told
        pump(app, lambda: top(app).name == "table", "the quick match's table")
        table = top(app)
        assert table.controller.session.own_rating == "1000?"  # a new player: provisional
        seat = table.controller.session.human_seat
        view = next(v for v in vars(table).values() if hasattr(v, "seat_name") and hasattr(v, "given"))
        assert view.rating(seat) == "1000?" and view.seat_name(seat) == app.i18n.t("table.you")  # on the plate
        other = 1 - seat
        assert view.rating(other) == "1480"  # the computer's published rating (easy), beside its name
        assert view.seat_name(other) == app.i18n.t("online.computer_seat", n=other + 1)
        app.stack.pop()  # leave the table: back to the club's lobby
        pump(app, lambda: top(app).name == "online_club_lobby", "the club's lobby again")
        lobby = top(app)
        lobby.ui.focus(widget(lobby, "board"))
        press(app, pygame.K_RETURN)
        pump(app, lambda: lobby.link.boards.get("scopa") is not None, "the leaderboard")
        app.render()
        assert lobby.showing_board
        host.close()
        app.stack.pop()
        app.update(TICK)
        assert lobby.link is None  # leaving the lobby closes its connection
    finally:
        h.stop()
