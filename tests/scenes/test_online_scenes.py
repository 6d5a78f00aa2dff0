"""Online tables in the window, driven by key events under the dummy video driver,
against a real table server on 127.0.0.1 started by the test (the in-game one for the host,
a test-started one for the joiner), with a bot client in a thread playing the other
friend's seat (game.online.client.headless.play_seat over a RemoteSession).

- Host: menu → Play online → Host a table → name, port, Open the table → the lobby (the
  address, the code, the link, the port-forwarding line) → the bot sits down → the ordinary
  table, which plays the match to its end: no Suggest and no Undo, the quick messages both
  ways, the other hand hidden (None in the model, drawn face down), no local save; leaving
  the online screens stops the server.
- Join: address, code and name typed (or a link pasted) → the lobby → the table.
- A friend who drops out: the table counts down, then the computer plays the seat.
- What goes wrong is one translated line: nobody answers, no such table, the table full,
  another version, a bad address, code or name, a port in use.
- The table model takes a seat's redacted stream (game.online.wire.redact): hidden cards are
  None, and every hand keeps the size the full record gives it.

Every wait is bounded (a deadline raises with what the window showed); none is a timing claim.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import pygame
import pytest

from game.config import get_config
from game.online.client import client, headless
from game.online.server.serving import start_server_in_thread
from game.rules.base import play
from game.services.i18n import I18n
from game.services.settings import Settings
from game.services.table_session import ONLINE
from scenes.app import TICK, App
from scenes.online import fields, hosting
from scenes.table import model as M
from sprites import theme

LIMIT = 90.0  # seconds any one wait may take before the test fails (2 shared cores)


# ---------------------------------------------------------------------- helpers
def single_deal_game() -> str:
    """A two-player game played as a single deal by default (a short match), by its facts."""
    cfg = get_config()
    return next(
        g
        for g, c in cfg.games.items()
        if 2 in c.players and "format" in c.options and c.options["format"].default == "single"
    )


def make_app(lang: str = "en") -> App:
    return App(
        get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False
    )


def press(app: App, key: int, mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    app.update(TICK)


def type_text(app: App, text: str) -> None:
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=text))
    app.update(TICK)


def top(app: App) -> Any:
    return app.stack.top


def pump(
    app: App,
    done: Callable[[], bool],
    what: str,
    also: Callable[[], None] | None = None,
    context: Callable[[], str] | None = None,
) -> None:
    """Tick the app until ``done()``; a deadline says what was awaited, what was shown and
    (``context``) what else the test can tell."""
    deadline = time.monotonic() + LIMIT
    while not done():
        if time.monotonic() > deadline:
            shown = top(app)
            raise AssertionError(
                f"gave up waiting for {what}: the window shows {app.stack.names()} "
                f"({getattr(shown, 'problem', None)!r})" + (f"; {context()}" if context else "")
            )
        if also is not None:
            also()
        app.update(TICK)
        time.sleep(0.003)


def play_to_results(app: App, table: Any, also: Callable[[], None] | None = None) -> int:
    """Enter on the pointed-at card whenever it is the player's turn, until the results show."""
    moves = [0]

    def step() -> None:
        if top(app) is table and table.controller.can_act:
            press(app, pygame.K_RETURN)
            moves[0] += 1
        if also is not None:
            also()

    pump(app, lambda: top(app).name == "results", "the match's results", step)
    return moves[0]


def widget(scene: Any, name: str) -> Any:
    return next(w for w in scene.ui.widgets if w.name == name)


class BotThread(threading.Thread):
    """A seat played by a greedy bot client; what it printed is kept for a failing test's message."""

    def __init__(self, session: Any, seed: int):
        self.out, self.err = io.StringIO(), io.StringIO()
        super().__init__(
            target=headless.play_seat, args=(session, "greedy", seed, LIMIT, self.out, self.err), daemon=True
        )

    def said(self) -> str:
        return f"bot client: alive={self.is_alive()} out={self.out.getvalue()!r} err={self.err.getvalue()!r}"


def session_state(scene: Any) -> str:
    """What a scene's online session knows, for a failing wait's message."""
    s = getattr(scene, "session", None)
    if s is None:
        return "no session"
    return (
        f"window's session: connected={s.connected} started={s.started} seat={s.human_seat} "
        f"rules={'yes' if s.rules is not None else 'no'} failed={s.failed!r} errors={list(s.errors)[-3:]!r}"
    )


def bot_thread(session: Any, seed: int = 5) -> BotThread:
    th = BotThread(session, seed)
    th.start()
    return th


@pytest.fixture
def online(monkeypatch):
    """Network allowed without a window, the in-game server on the loopback only; any
    server a test leaves running is stopped."""
    monkeypatch.setattr(hosting, "HEADLESS_NETWORK", True)
    monkeypatch.setattr(hosting, "BIND_HOST", "127.0.0.1")
    monkeypatch.setattr(fields, "copy_text", lambda text: False)  # no clipboard under the dummy driver
    yield
    hosting.stop_server()


@pytest.fixture
def server(tmp_path, online):
    handle = start_server_in_thread("127.0.0.1", 0, tmp_path / "server", workers=1)
    yield handle
    handle.stop()


def open_online(app: App) -> None:
    """Menu → Play online, by keys (Down twice from Play reaches it)."""
    app.open_path("menu")
    app.settle(2)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)
    assert top(app).ui.focused.name == "online"
    press(app, pygame.K_RETURN)
    assert top(app).name == "online"


def host_by_keys(app: App, game: str, name: str = "Anna") -> Any:
    """Play online → Host a table → the game, the name, port 0 (any free one) → Open the table."""
    open_online(app)
    press(app, pygame.K_RETURN)  # "Host a table" has the focus
    host = top(app)
    assert host.name == "online_host"
    host.ui.focus(widget(host, "game"))
    for _ in range(len(get_config().games)):
        if host.game == game:
            break
        press(app, pygame.K_RIGHT)
    assert host.game == game and host.players == 2
    host.ui.focus(host.name_field)
    type_text(app, name)
    press(app, pygame.K_TAB)
    assert host.ui.focused is host.port_field
    for _ in range(6):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "0")
    press(app, pygame.K_RETURN)  # Enter in a field opens the table
    assert host.problem is None, host.problem
    pump(app, lambda: top(app).name == "online_lobby", "the lobby")
    return top(app)


# ---------------------------------------------------------------------- hosting
def test_host_lobby_table_flow_by_keys(online):
    from game.services import saves

    game = single_deal_game()
    app = make_app("en")
    lobby = host_by_keys(app, game)
    h = lobby.hosted
    assert h is not None and hosting.running_server() is not None and h.port == hosting.running_server().port
    assert h.link == f"cardavia://{h.address}:{h.port}/{h.code}"
    # The lobby opens on the table's first message; the one that counts the host's own
    # connection may come a tick later (seen under a parallel run).
    pump(app, lambda: lobby.waiting() == 1, "the host's own seat counted as connected")
    assert lobby.waiting() == 1  # the other friend's seat
    assert lobby.seat_lines()[1] == (lobby.t("table.north"), lobby.t("online.seat_free"), lobby.seat_lines()[1][2])
    with theme.measure_text() as m:
        app.render(1.0)
    shown = " ".join(s for s, _, _ in m.entries)
    # The address, the code, the link, and that across the internet the port must be reachable.
    assert f"{h.address}:{h.port}" in shown and h.code in shown and h.link in shown
    assert lobby.t("online.internet_note", port=h.port) in shown and lobby.t("online.not_copied") in shown
    # A friend (a bot client) takes the other seat: the match starts, the table takes the lobby's place.
    bot = client.RemoteSession(f"ws://127.0.0.1:{h.port}", h.code, "Bruno")
    th = bot_thread(bot)
    pump(app, lambda: top(app).name == "table", "the table")
    table = top(app)
    assert app.stack.names()[-3:] == ["online", "online_host", "table"]
    assert table.session.capabilities is ONLINE and table.human == 0
    assert "suggest" not in table.buttons and "undo" not in table.buttons and "say" in table.buttons
    pump(app, lambda: table.controller.can_act, "the player's first turn")
    # The other hand arrives hidden: the model holds None for each of its cards, drawn face down.
    other = table.model.hands[1]
    assert other and all(c is None for c in other) and all(c is not None for c in table.model.hand)
    assert len(table.motion.backs[1]) == len(other)
    # The friend is called by the name they chose: on their plate and in the told plays.
    assert table.names.seat_name(1) == "Bruno" and table.names.seat_name(0) == table.t("table.you")
    assert table.motion.narrator.name(1) == "Bruno"
    if table.players != 4:  # two players: the scores are the seats' own, named alike
        assert table.names.team_name(1) == "Bruno" and table.motion.narrator.team(1) == "Bruno"
    with theme.measure_text() as m:
        app.render(1.0)
    assert "Bruno" in {s for s, _, _ in m.entries}
    # No suggestion, no undo online: G and Ctrl+Z change nothing.
    before = list(table.model.hand)
    press(app, pygame.K_g)
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert table.controller.suggestion is None and table.refusal is None and table.model.hand == before
    # Quick messages: Q opens them, 1 sends the first; the friend's arrives as a bubble by its plate.
    press(app, pygame.K_q)
    assert table.online.menu_open
    app.render(1.0)
    press(app, pygame.K_1)
    assert not table.online.menu_open
    bot.say("thanks")
    pump(app, lambda: any(b[0] == 1 for b in table.online.bubbles), "the friend's quick message")
    assert [b[1] for b in table.online.bubbles if b[0] == 1] == ["Thanks"]
    app.render(1.0)
    # A play the server refuses comes back with its rule id and is shown in the player's words.
    pump(app, lambda: table.controller.can_act, "the player's turn")
    seen = set(table.model.hand) | set(table.model.table) | {c for _, c in table.model.trick}
    stranger = next(f"{r}{suit}" for r in table.rules.deck.ranks() for suit in "DCSB" if f"{r}{suit}" not in seen)
    assert table.controller.submit(play(stranger))  # sent: only the server judges it
    pump(app, lambda: table.refusal is not None, "the server's refusal")
    assert table.refusal[0] == app.t("refusals.not_in_hand")
    moves = play_to_results(app, table)
    assert moves >= 5 and table.session.over and (0, "well_played") in bot.said
    # The server kept the record: nothing was saved as the local match in progress.
    assert saves.load_match() == (None, None)
    results = top(app)
    assert widget(results, "new_match") and not [w for w in results.ui.widgets if w.name == "watch_replay"]
    th.join(timeout=LIMIT)
    assert not th.is_alive()
    # "New match" leads back to hosting or joining; the menu then stops the in-game server.
    results.age = 10.0  # past the results screen's input guard
    results.ui.focus(widget(results, "new_match"))  # Enter alone opens the score sheet
    press(app, pygame.K_RETURN)
    assert top(app).name == "online" and hosting.running_server() is not None
    press(app, pygame.K_ESCAPE)
    assert top(app).name == "menu" and hosting.running_server() is None


def test_a_dropped_friend_is_counted_down_then_the_computer_plays(online, monkeypatch):
    monkeypatch.setattr(hosting, "PAUSE_SECONDS", 2)
    app = make_app("it")
    lobby = host_by_keys(app, single_deal_game(), name="Carla")
    h = lobby.hosted
    bot = client.RemoteSession(f"ws://127.0.0.1:{h.port}", h.code, "Bruno")
    pump(app, lambda: top(app).name == "table", "the table", bot.poll)
    table = top(app)
    pump(app, lambda: bool(table.session.match.events), "the deal", bot.poll)
    bot.close()  # the friend's window is gone (whoever is to play first)
    pump(app, lambda: table.session.paused is not None, "the pause")
    countdown = {table.t("online.paused_ai", name="Bruno", time=f"0:0{k}") for k in range(3)}
    assert table.online.paused_text() in countdown | {table.t("online.paused_ai_now", name="Bruno")}
    app.render(1.0)
    pump(app, lambda: 1 in table.session.ai_seats, "the computer taking the seat")
    assert table.online.paused_text() == table.t("online.ai_plays", name="Bruno")
    play_to_results(app, table)
    assert table.session.over


def test_a_busy_port_is_one_line(online):
    app = make_app("de")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        open_online(app)
        press(app, pygame.K_RETURN)
        host = top(app)
        host.name_field.set_text("Dora")
        host.port_field.set_text(str(port))
        host.ui.focus(widget(host, "start"))
        press(app, pygame.K_RETURN)
        assert host.problem == app.t("online.error_port_busy", port=port)
        assert top(app) is host and hosting.running_server() is None


# ---------------------------------------------------------------------- joining
def join_by_keys(app: App, address: str, code: str, name: str) -> Any:
    open_online(app)
    press(app, pygame.K_RIGHT)
    assert top(app).ui.focused.name == "join"
    press(app, pygame.K_RETURN)
    join = top(app)
    assert join.name == "online_join" and join.ui.focused is join.address_field
    type_text(app, address)
    press(app, pygame.K_TAB)
    type_text(app, code)
    press(app, pygame.K_TAB)
    assert join.ui.focused is join.name_field
    type_text(app, name)
    press(app, pygame.K_RETURN)
    return join


def test_join_flow_by_keys(server):
    game = single_deal_game()
    created = client.create_table(server.url, "Bea", game, 2, ["friend", "friend"])
    code = created["code"]
    # The host's own seat, played by a bot client with its token.
    bot = client.RemoteSession(server.url, code, "Bea", token=created["tokens"]["0"])
    th = bot_thread(bot, seed=9)
    # The host's client sits down before the window joins: a join by code takes the next seat
    # nobody has claimed (docs/ONLINE.md), and seat 0 is unclaimed until its token is used.
    deadline = time.monotonic() + LIMIT
    while bot.human_seat is None and th.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bot.human_seat == 0, th.said()
    app = make_app("nl")
    join = join_by_keys(app, f"127.0.0.1:{server.port}", code.lower(), "Carl")
    assert join.problem is None, join.problem
    pump(app, lambda: top(app).name in ("online_lobby", "table"), "the lobby", context=th.said)
    pump(app, lambda: top(app).name == "table", "the table", context=lambda: f"{th.said()}; {session_state(top(app))}")
    table = top(app)
    assert table.human == 1 and table.session.capabilities is ONLINE
    # Two moves, then the window leaves the table (Esc, Quit to menu) in the middle of the match…
    moves = [0]

    def two_moves() -> None:
        if top(app) is table and table.controller.can_act:
            press(app, pygame.K_RETURN)
            moves[0] += 1

    pump(app, lambda: moves[0] >= 2 and not table.controller.can_act, "two moves", two_moves)
    press(app, pygame.K_ESCAPE)
    assert top(app).name == "pause"
    for _ in range(3):
        press(app, pygame.K_DOWN)
    assert top(app).ui.focused.name == "quit"
    press(app, pygame.K_RETURN)
    assert top(app).name == "menu"
    # … and joins again: the seat's kept secret takes the same seat back, the match where it stood.
    open_online(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    join = top(app)
    assert join.address_field.text == f"127.0.0.1:{server.port}" and join.name_field.text == "Carl"
    assert join.code_field.text == code  # the table left is kept too
    join.ui.focus(join.code_field)
    press(app, pygame.K_RETURN)
    assert join.token is not None
    pump(app, lambda: top(app).name == "table", "the table again")
    again = top(app)
    assert again is not table and again.human == 1
    # The table opens on the server's "joined" and lobby; the match's events may come a frame later.
    pump(
        app,
        lambda: len(again.session.match.decisions) >= 2,
        "the match where it stood",
        context=lambda: session_state(again),
    )
    assert top(app) is again
    play_to_results(app, again)
    assert again.session.over
    th.join(timeout=LIMIT)


def test_a_pasted_link_fills_the_address_and_the_code(online, monkeypatch):
    link = "cardavia://192.168.1.20:7421/K7QMZ2HXPA"
    monkeypatch.setattr(fields, "paste_text", lambda: link)
    app = make_app("en")
    open_online(app)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    join = top(app)
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert join.address_field.text == "192.168.1.20:7421" and join.code_field.text == "K7QMZ2HXPA"
    assert join.ui.focused is join.name_field  # the name is what is left to type
    # Typed as well: the whole link, letter by letter, into the code field.
    join.address_field.set_text("")
    join.code_field.set_text("")
    join.ui.focus(join.code_field)
    for ch in "cardavia://10.0.0.7:7420/ABCDEFGH23":
        type_text(app, ch)
    assert join.address_field.text == "10.0.0.7:7420" and join.code_field.text == "ABCDEFGH23"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VersionServer:
    """A server of another protocol version: it answers every hello with the version error."""

    def __init__(self) -> None:
        from websockets.sync.server import serve

        def handler(ws: Any) -> None:
            ws.recv()  # hello
            try:
                ws.recv(timeout=2.0)  # the join right behind it: answered once the greeting is in
            except TimeoutError:
                pass
            ws.send(
                '{"type": "error", "code": "version", "message": "this server speaks version 2", "server_version": 2}'
            )
            ws.close(1002, "protocol version")  # as game.online.server.server closes it

        self.server = serve(handler, "127.0.0.1", 0)
        self.port = self.server.socket.getsockname()[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)


@pytest.mark.parametrize("lang", ("de", "it"))
def test_what_goes_wrong_is_one_translated_line(server, lang, monkeypatch):
    monkeypatch.setattr(hosting, "FIRST_CONNECT", 1.5)  # nobody answers: said after 1.5 s here
    game = single_deal_game()
    app = make_app(lang)
    t = app.t
    here = f"127.0.0.1:{server.port}"

    def attempt(address: str, code: str, name: str = "Ezio") -> str | None:
        app.open_path("online_join")
        join = top(app)
        join.address_field.set_text(address)
        join.code_field.set_text(code)
        join.name_field.set_text(name)
        join.ui.focus(widget(join, "join"))
        press(app, pygame.K_RETURN)
        pump(app, lambda: join.connecting is None, "an answer")
        assert top(app) is join  # still on the form, nothing crashed
        return join.problem

    # Typing mistakes, said before anything is sent.
    assert attempt("", "ABCDEFGH23") == t("online.no_address")
    assert attempt("not an address!", "ABCDEFGH23") == t("online.bad_address")
    assert attempt(here, "ABC") == t("online.bad_code", length=10)
    assert attempt(here, "ABCDEFGH23", name="  ") == t("online.no_name")
    # Nobody answers on that port.
    closed = f"127.0.0.1:{free_port()}"
    assert attempt(closed, "ABCDEFGH23") == t("online.error_unreachable", address=closed)
    # No table with that code.
    assert attempt(here, "ABCDEFGH23") == t("online.error_no_table")
    # A full table: its only friend's seat is taken.
    created = client.create_table(server.url, "Bea", game, 2, ["friend", "ai:easy"])
    seated = client.RemoteSession(server.url, created["code"], "Bea", token=created["tokens"]["0"])
    try:
        deadline = time.monotonic() + LIMIT
        while seated.human_seat is None and time.monotonic() < deadline:
            seated.wait(0.05)
        assert attempt(here, created["code"]) == t("online.error_full")
    finally:
        seated.close()
    # Another version of the protocol.
    other = VersionServer()
    try:
        assert attempt(f"127.0.0.1:{other.port}", "ABCDEFGH23") == t("online.error_version")
    finally:
        other.stop()


# ---------------------------------------------------------------------- hidden cards in the model
def test_the_model_takes_a_seat_s_redacted_stream():
    """For every game: the seat's redacted stream (other hands None) gives the same hand
    sizes, table, trick and scores as the full record, and the seat's own hand exactly."""
    from game.ai.bots import make_bot
    from game.match import Match
    from game.online.wire.redact import seat_events
    from game.rulesets import game_ids, make_rules

    for gid in game_ids():
        rules = make_rules(gid, None, 2 if 2 in get_config().games[gid].players else None)
        events = Match(rules, 41, [make_bot("random", rules, s, 41) for s in range(rules.players)]).run()
        seat = rules.players - 1
        full, seen = M.new_model(rules, seat), M.new_model(rules, seat)
        for ev, red in zip(events, seat_events(rules, events, seat)):
            M.apply_event(full, ev)
            M.apply_event(seen, red)
            assert [len(h) for h in seen.hands] == [len(h) for h in full.hands], (gid, ev)
            assert seen.hand == full.hand and seen.table == full.table and seen.trick == full.trick, (gid, ev)
            assert seen.piles == full.piles and seen.totals == full.totals, (gid, ev)
            for s in range(rules.players):
                if s != seat:
                    assert set(seen.hands[s]) <= {None} | set(full.hands[s]), (gid, ev)


def test_hidden_cards_leave_a_hand_and_sort_last():
    m = M.TableModel(
        players=2,
        teams=2,
        viewer=0,
        team_of=lambda s: s,
        capture=False,
        initial_totals=[0, 0],
        sort_key=M.rank_key(["A", "2", "3"]),
    )
    m.hands[1] = [None, None, None]
    M.play_card(m, 1, "3C")
    assert m.hands[1] == [None, None] and m.trick == [(1, "3C")]
    assert sorted(["2D", None, "AD"], key=m.sort_key) == ["AD", "2D", None]


# ---------------------------------------------------------------------- every online text fits
ERROR_KEYS = (
    "error_unreachable",
    "error_no_table",
    "error_full",
    "error_version",
    "error_kicked",
    "error_replaced",
    "error_lost",
    "error_server",
    "error_port_busy",
    "error_config",
    "error_other",
    "error_headless",
    "bad_port",
    "bad_address",
    "bad_link",
    "no_address",
    "no_code",
    "bad_code",
    "no_name",
    "bad_name",
)


def errors(t: Callable[..., str]) -> list[str]:
    params = {"reason": "no route to host", "address": "192.168.100.200:65535", "port": 65535, "length": 10, "max": 20}
    return [t(f"online.{k}", **params) for k in ERROR_KEYS]


def overflows(app: App, scene: Any) -> list[str]:
    with theme.measure_text() as m:
        app.render(1.0)
    return [f"{scene.name}: {s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]


@pytest.mark.parametrize("lang", ("en", "nl", "de", "it"))
def test_the_online_texts_fit_in_every_language(lang):
    """What the default screens (the text-fit test) do not show: every error line on each
    form and the lobby, a guest's lobby, and the online table's extras — the quick messages'
    menu, a bubble by every plate, each kind of pause line."""
    from types import SimpleNamespace

    from game.services.session import Session
    from scenes.online.lobby import sample
    from scenes.registry import make_scene

    app = make_app(lang)
    problems: list[str] = []
    for name in ("online_host", "online_join", "online_lobby"):
        app.open_path(name)
        app.settle(3)
        scene = top(app)
        for text in errors(app.t):
            scene.problem = text
            problems += overflows(app, scene)
    # A guest's lobby (no invitation block), with long names.
    lobby, _ = sample(app)
    for seat in lobby["seats"]:
        if seat["kind"] == "friend":
            seat.update(name="Wwwwwwwwwwwwwwwwwwww", connected=True)
    guest = SimpleNamespace(
        lobby={**lobby, "you": 1, "host": False},
        poll=lambda: False,
        failed=None,
        connected=True,
        started=False,
        rules=None,
        human_seat=1,
        close=lambda: None,
    )
    app.open_path("online")
    app.open_scene("online_lobby", session=guest)
    app.update(TICK)
    problems += overflows(app, top(app))
    # The table of an online match: a local session dressed as a remote one (nothing is sent).
    cfg = get_config()
    game = next(g for g, c in cfg.games.items() if 4 in c.players)
    s = Session.new(game, None, 4, None, 7, human_seat=0, threaded=False)
    s.capabilities = ONLINE
    s.lobby = {"seats": [{"name": "Wwwwwwwwwwwwwwwwwwww"} for _ in range(4)]}
    app.open_path("menu")
    table = make_scene(app, "table", session=s)
    app.stack.push(table)
    app.settle(30)
    table.online.menu_open = True
    for seat in range(4):
        table.online.bubbles.append(
            [
                seat,
                max((app.t(f"online.phrase_{p}") for p in ("well_played", "good_game", "oops", "thanks")), key=len),
                3.0,
            ]
        )
    for then, left in (("ai", 42.0), ("wait", 3599.0), ("ai", -1.0)):
        s.paused, s.paused_then = (2, time.monotonic() + left), then
        assert table.online.paused_text()
        problems += overflows(app, table)
    s.paused, s.ai_seats = None, {1, 2, 3}
    assert table.online.paused_text() == app.t("online.ai_plays", name=", ".join(["Wwwwwwwwwwwwwwwwwwww"] * 3))
    problems += overflows(app, table)
    assert not problems, "\n".join(problems)


def test_house_rules_and_length_are_chosen_on_the_game_screen(online):
    """The host's "House rules and length…" opens the game screen for that deck, game and
    count; its Start reads Choose and brings every option in force back to the host."""
    game = single_deal_game()
    app = make_app("en")
    open_online(app)
    press(app, pygame.K_RETURN)
    host = top(app)
    host.set_game(game)
    assert host.options()["format"] == "single"
    host.ui.focus(widget(host, "rules"))
    press(app, pygame.K_RETURN)
    games = top(app)
    assert games.name == "games" and games.deck.id == host.deck
    start = widget(games, f"start:{game}")
    assert start.label() == app.t("online.choose")
    games.ui.focus(widget(games, f"format:{game}"))
    press(app, pygame.K_RIGHT)  # Single deal → Match
    games.ui.focus(start)
    press(app, pygame.K_RETURN)
    assert top(app) is host and host.given is not None and host.options()["format"] == "match"
    assert app.t("line.single_deal") not in host.rules_line()


def test_the_host_s_link_goes_on_the_clipboard(online, monkeypatch):
    from types import SimpleNamespace

    from scenes.online.lobby import sample

    copied: list[str] = []
    monkeypatch.setattr(fields, "copy_text", lambda text: copied.append(text) or True)
    app = make_app("de")
    lobby, hosted = sample(app)
    seat = SimpleNamespace(
        lobby=lobby,
        poll=lambda: False,
        failed=None,
        connected=True,
        started=False,
        rules=None,
        human_seat=0,
        close=lambda: None,
    )
    app.open_path("online")
    app.open_scene("online_lobby", session=seat, hosted=hosted)
    scene = top(app)
    assert copied == [hosted.link]
    with theme.measure_text() as m:
        app.render(1.0)
    assert app.t("online.copied") in " ".join(s for s, _, _ in m.entries)
    assert scene.ui.focused.name == "copy"
    press(app, pygame.K_RETURN)  # "Copy the link" again
    assert copied == [hosted.link, hosted.link]
