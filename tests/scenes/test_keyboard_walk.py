"""Every screen reached and left by keys alone: from the menu, Tab to each control
and Enter, a level deeper from every screen that opens, and Esc back; each screen says its
name to a screen reader as it opens (the speech log)."""

from __future__ import annotations

import pygame

from game.services.speech import Speech
from scenes.app import TICK
from tests.scenes.test_table import key, make_app

#: Controls that end something rather than open a screen: left alone by the walk.
WAYS_BACK = {"back", "done", "menu", "close", "cancel"}
LEAVE_ALONE = {"quit", "reset", "discard", "new", "connect", "start"}


def settle(app, n: int = 4) -> None:
    for _ in range(n):
        app.update(TICK)


def focusable(scene) -> list:
    """The controls that can be pressed (choosers and sliders change a value, open nothing)."""
    ui = getattr(scene, "ui", None)
    if ui is None:
        return []
    return [
        w for w in ui.widgets if w.can_focus() and w.enabled and not hasattr(w, "options") and not hasattr(w, "fmt")
    ]


def press_widget(app, scene, widget) -> bool:
    """Tab until ``widget`` has the focus (the keys a person presses), then Enter; False when
    Tab never reaches it (a screen whose Tab has a job of its own: its Esc is the way back)."""
    for _ in range(len(scene.ui.widgets) + 1):
        if scene.ui.focused is widget:
            break
        key(app, pygame.K_TAB)
    if scene.ui.focused is not widget:
        return False
    key(app, pygame.K_RETURN)
    settle(app)
    return True


def back_to(app, scene) -> None:
    """Esc until ``scene`` is the top again (a table's Esc opens its pause; Esc there resumes)."""
    for _ in range(6):
        if app.stack.top is scene:
            return
        key(app, pygame.K_ESCAPE)
        settle(app)
    assert app.stack.top is scene, f"Esc does not lead back from {app.stack.top.name!r}"


UNREACHED: list[tuple[str, str]] = []


def walk(app, scene, depth: int, seen: set[str]) -> None:
    widgets = sorted(focusable(scene), key=lambda w: w.name in WAYS_BACK)  # the way back last
    for w in widgets:
        if not w.name or w.name.split(":")[0] in LEAVE_ALONE:
            continue
        if not press_widget(app, scene, w):
            UNREACHED.append((scene.name, w.name))
            continue
        if scene not in app.stack.scenes:
            return  # that control was the way back
        top = app.stack.top
        if top is not scene and top is not None:
            seen.add(top.name)
            if depth > 1:
                walk(app, top, depth - 1, seen)
            back_to(app, scene)


def test_every_screen_is_reached_and_left_by_keys(tmp_path):
    log = tmp_path / "speech.txt"
    app = make_app("en")
    app.speech = Speech("off", "en", log)
    app.open_path("menu")
    settle(app)
    menu = app.stack.top
    seen: set[str] = set()
    walk(app, menu, 2, seen)
    # The menu's own screens and the ones a level below them.
    assert {
        "decks",
        "rules",
        "stats",
        "settings",
        "accessibility",
        "online",
        "replays",
        "online_host",
        "online_join",
        "watch",
        "learn",
    } <= seen, seen
    assert {"games"} <= seen, seen  # Play → a deck → its games
    # Only a way back is ever out of Tab's reach, and Esc takes it (back_to checked that).
    assert all(name in WAYS_BACK for _, name in UNREACHED), UNREACHED
    # Play on by keys: the first deck, its first game, Start: the table; Esc there pauses.
    key(app, pygame.K_TAB)  # (the walk left the focus somewhere: the Play button by name)
    menu.ui.focus(menu.play)
    key(app, pygame.K_RETURN)
    settle(app)
    assert app.stack.top.name == "decks"
    key(app, pygame.K_RETURN)
    settle(app)
    assert app.stack.top.name == "games"
    games = app.stack.top
    start = next(w for w in focusable(games) if w.name.startswith("start:"))
    games.ui.focus(start)
    key(app, pygame.K_RETURN)
    settle(app, 10)
    assert app.stack.top.name == "table"
    key(app, pygame.K_ESCAPE)
    settle(app)
    assert app.stack.top.name == "pause"
    app.speech.close()
    said = log.read_text(encoding="utf-8").splitlines()
    for name in ("menu", "decks", "games", "settings", "accessibility", "table", "pause", "rules"):
        assert app.t(f"access.scene_{name}") in said, name
    # Every control said in words, none by its internal name.
    assert not [s for s in said if s.startswith("deck:")]
    assert any(s.startswith("Piacentine") and "Scopa" in s for s in said)


def test_the_club_screens_by_keys_against_a_real_server(tmp_path, monkeypatch):
    """Play online → Club servers → a server typed in → its lobby (game, quick match, the
    leaderboard and back, the open tables) → Watch a table being played → Esc back to the
    lobby, the list, Play online and the menu; every step by Tab, typing, Enter and Esc, and
    each screen says its name. A real club server on 127.0.0.1; every wait bounded."""
    from game.online.server.limits import ServerLimits
    from game.online.server.serving import start_server_in_thread
    from scenes.online import hosting
    from tests.online.wshelp import Player, create
    from tests.scenes.test_online_scenes import pump, type_text

    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    h = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1, limits=ServerLimits())
    log = tmp_path / "speech.txt"
    try:
        host, created = create(h.url, "scopa", 2, ["friend", "friend"], name="Host")
        host.request({"type": "publish", "public": True}, "published")
        # Slow players: the table is still being played while the window walks to it.
        players = [
            Player(h.url, created["code"], created["tokens"][str(s)], name, seed=s, pace=0.3, deadline=60).start()
            for s, name in ((0, "Anna"), (1, "Bruno"))
        ]
        app = make_app("nl")
        app.speech = Speech("off", "nl", log)
        app.open_path("menu")
        settle(app)
        menu = app.stack.top
        assert press_widget(app, menu, next(w for w in focusable(menu) if w.name == "online"))
        online = app.stack.top
        assert online.name == "online" and press_widget(
            app, online, next(w for w in focusable(online) if w.name == "club")
        )
        club = app.stack.top
        assert club.name == "online_club"
        for name, text in (("player", "Lucia"), ("server_name", "Club"), ("server_address", f"127.0.0.1:{h.port}")):
            field = next(w for w in club.ui.widgets if w.name == name)
            for _ in range(len(club.ui.widgets) + 1):
                if club.ui.focused is field:
                    break
                key(app, pygame.K_TAB)
            assert club.ui.focused is field, name
            field.set_text("")
            type_text(app, text)
        key(app, pygame.K_RETURN)  # Enter in the address field adds the server
        settle(app)
        assert press_widget(app, club, next(w for w in club.ui.widgets if w.name == "server0"))
        lobby = app.stack.top
        assert lobby.name == "online_club_lobby"
        pump(app, lambda: lobby.link.signed_in, "signed in")
        for name in ("game_next", "board", "board", "game_prev"):  # the leaderboard and back to the tables
            assert press_widget(app, lobby, next(w for w in lobby.ui.widgets if w.name == name)), name
        assert not lobby.showing_board
        pump(app, lambda: any(r.get("started") for r in lobby.rows()), "the table being played, in the list")
        assert press_widget(app, lobby, next(w for w in lobby.ui.widgets if w.name == "watch0"))
        pump(app, lambda: app.stack.top.name == "online_watch", "the spectator's view")
        watch = app.stack.top
        for k in (pygame.K_LEFT, pygame.K_HOME, pygame.K_END, pygame.K_SPACE, pygame.K_TAB):  # the viewer's keys
            key(app, k)
            settle(app)
        assert app.stack.top is watch
        back_to(app, lobby)
        for scene in (club, online, menu):
            back_to(app, scene)
        app.speech.close()
        said = log.read_text(encoding="utf-8").splitlines()
        for name in ("online", "online_club", "online_club_lobby", "online_watch"):
            assert app.t(f"access.scene_{name}") in said, name
        assert lobby.link is None  # leaving the lobby closed its link
        for p in players:
            p.deadline = 0  # the players stop at their next message
        host.close()
    finally:
        h.stop()
