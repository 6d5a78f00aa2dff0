"""The window shell: scene stack, fixed-tick loop, keyboard and mouse paths, screenshots, CLI."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings, load_settings
from scenes.app import CANVAS_SIZE, TICK, App
from scenes.launch import main
from scenes.registry import available_scenes, register_scene, scene_parents, unregister_scene
from scenes.scene import Scene, SceneStack
from sprites import theme


# ---------------------------------------------------------------------- helpers
class FakeClock:
    """Returns a fixed number of milliseconds per tick and records the requested frame rate."""

    def __init__(self, ms: int):
        self.ms = ms
        self.calls: list[int] = []

    def tick(self, framerate: int = 0) -> int:
        self.calls.append(framerate)
        return self.ms


def make_app(lang: str = "en", clock=None, **settings) -> App:
    return App(get_config(), Settings(language=lang, **settings), I18n(lang), clock=clock, window=False)


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def press(app: App, *keys: int, mod: int = 0) -> None:
    for k in keys:
        app.dispatch(key(k, mod))
        app.update(TICK)


def click(app: App, pos: tuple[int, int]) -> None:
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(TICK)


def focused_name(app: App) -> str:
    w = app.stack.top.ui.focused
    return w.name if w else ""


def widget(app: App, name: str):
    return next(w for w in app.stack.top.ui.widgets if w.name == name)


class Recorder(Scene):
    def __init__(self, app, label, log, overlay=False):
        super().__init__(app)
        self.label, self.log, self.is_overlay = label, log, overlay

    def handle(self, event):
        self.log.append(("handle", self.label))

    def update(self, dt):
        self.log.append(("update", self.label))

    def draw(self, surface):
        self.log.append(("draw", self.label))

    def enter(self):
        self.log.append(("enter", self.label))

    def leave(self):
        self.log.append(("leave", self.label))

    def close(self):
        self.log.append(("close", self.label))


# ---------------------------------------------------------------------- scene stack
def test_stack_push_pop_replace_and_top():
    log: list = []
    st = SceneStack()
    a, b, c = (Recorder(None, n, log) for n in "abc")
    st.push(a)
    st.push(b)
    assert st.top is b and len(st) == 2
    st.replace(c)
    assert st.scenes == [a, c]
    assert st.pop() is c and st.top is a
    assert st.pop() is a and st.top is None and st.pop() is None
    assert log == [
        ("enter", "a"),
        ("leave", "a"),
        ("enter", "b"),
        ("leave", "b"),
        ("enter", "c"),
        ("leave", "c"),
        ("enter", "a"),
        ("leave", "a"),
    ]


def test_only_the_top_scene_gets_input_and_updates():
    log: list = []
    st = SceneStack()
    st.push(Recorder(None, "under", log))
    st.push(Recorder(None, "top", log, overlay=True))
    log.clear()
    st.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a))
    st.update(TICK)
    assert log == [("handle", "top"), ("update", "top")]


def test_overlays_draw_over_the_scene_beneath_and_opaque_scenes_hide_it():
    log: list = []
    st = SceneStack()
    st.push(Recorder(None, "hidden", log))
    st.push(Recorder(None, "base", log))
    st.push(Recorder(None, "overlay1", log, overlay=True))
    st.push(Recorder(None, "overlay2", log, overlay=True))
    log.clear()
    st.draw(pygame.Surface((4, 4)), 0.5)
    assert log == [("draw", "base"), ("draw", "overlay1"), ("draw", "overlay2")]
    assert all(s.alpha == 0.5 for s in st.visible())


def test_registry_lists_the_shell_scenes_and_accepts_new_ones():
    names = available_scenes()
    for n in ("menu", "decks", "games", "settings"):
        assert n in names
    register_scene("zz_test", lambda app, **p: Recorder(app, "zz", []))
    try:
        assert "zz_test" in available_scenes()
    finally:
        unregister_scene("zz_test")
    assert "zz_test" not in available_scenes()


def test_a_stand_in_shadows_a_scene_until_it_is_unregistered():
    app = make_app()
    register_scene("menu", lambda a, **p: Recorder(a, "fake menu", []))
    try:
        app.open_path("menu")
        assert app.stack.top.label == "fake menu" and app.stack.top.name == "menu"
        assert scene_parents("menu") == ()  # the stand-in keeps the real entry's parents
    finally:
        unregister_scene("menu")
    app.open_path("menu")
    assert type(app.stack.top).__name__ == "MenuScene"


def test_every_registered_scene_opens_by_name_over_its_parents():
    app = make_app()
    for name in ("menu", "decks", "games", "settings", "rules", "stats"):
        app.open_path(name, deck="piacentine")
        assert app.stack.names() == [*scene_parents(name), name]


# ---------------------------------------------------------------------- by-name stack operations
def _named_stack(app, log, *names):
    for n in names:
        register_scene(
            f"zz_{n}",
            lambda a, n=n, **p: Recorder(a, n, log, overlay=p.get("overlay", False)),
            parents=("zz_a",) if n != "a" else (),
        )
    return [f"zz_{n}" for n in names]


def test_push_replace_find_and_pop_to_by_name():
    app, log = make_app(), []
    names = _named_stack(app, log, "a", "b", "c")
    try:
        st = app.stack
        st.reset("zz_c")  # opened directly: its registered parent beneath it
        assert st.names() == ["zz_a", "zz_c"]
        st.push("zz_b")
        st.push("zz_c", overlay=True)
        assert st.names() == ["zz_a", "zz_c", "zz_b", "zz_c"] and st.top.is_overlay
        assert st.find("zz_c") is st.top and st.find("zz_b") is st.scenes[2] and st.find("zz_x") is None
        st.replace("zz_b")
        assert st.names() == ["zz_a", "zz_c", "zz_b", "zz_b"]
        log.clear()
        first_b = st.scenes[2]
        assert st.pop_to("zz_b") is st.top and len(st) == 4  # already on top: nothing happens
        st.pop()
        assert st.top is first_b
        log.clear()
        assert st.pop_to("zz_a") is st.scenes[0] and st.names() == ["zz_a"]
        # Every scene that went got leave() once after it was off the stack; only the target entered.
        assert [e for e in log if e[0] in ("enter", "leave")] == [("leave", "b"), ("leave", "c"), ("enter", "a")]
    finally:
        for n in names:
            unregister_scene(n)


def test_pop_to_a_scene_that_is_not_there_starts_over_with_it():
    app = make_app()
    app.open_path("settings")
    register_scene("zz_lone", lambda a, **p: Recorder(a, "lone", []), parents=())
    try:
        app.stack.reset("zz_lone")
    finally:
        unregister_scene("zz_lone")
    menu = app.stack.pop_to("menu")
    assert app.stack.names() == ["menu"] and app.stack.top is menu


def test_pop_to_is_one_transition_however_many_scenes_go():
    app = make_app()
    app.open_path("games", deck="piacentine")
    app.stack.push("settings")
    changes = []
    app.stack.on_change = lambda old, new: changes.append((old.name, new.name))
    app.stack.pop_to("menu")
    assert changes == [("settings", "menu")]


def test_an_unknown_name_is_a_lookup_error_and_a_toast_through_the_app():
    app = make_app()
    app.open_path("menu")
    with pytest.raises(LookupError):
        app.stack.push("no_such_scene")
    with pytest.raises(LookupError):
        SceneStack().push("menu")  # a stack without an app knows scene objects only
    assert app.stack.names() == ["menu"]


def test_shutdown_closes_every_scene_on_the_stack_top_first_even_when_one_fails(capsys):
    app, log = make_app(), []

    class Broken(Recorder):
        def close(self):
            super().close()
            raise RuntimeError("disk full")

    for scene in (Recorder(app, "bottom", log), Broken(app, "middle", log), Recorder(app, "top", log, True)):
        app.stack.push(scene)
    log.clear()
    app.shutdown()
    assert [e for e in log if e[0] == "close"] == [("close", "top"), ("close", "middle"), ("close", "bottom")]
    err = capsys.readouterr().err
    assert "disk full" in err and err.count("\n") == 1


def test_closing_the_window_closes_the_scenes():
    app, log = make_app(clock=FakeClock(16)), []
    app.open_path("menu")
    app.stack.push(Recorder(app, "top", log))
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(max_frames=10)
    assert ("close", "top") in log


# ---------------------------------------------------------------------- the loop
def test_fixed_tick_loop_counts_updates_from_the_clock():
    clock = FakeClock(11)
    app = make_app(clock=clock)
    app.open_path("menu")
    app.run(max_frames=40)
    # 40 frames × 11 ms = 440 ms → 26 whole ticks of 1/60 s; the remainder is render alpha.
    assert app.updates == 26
    assert app.frames == 40
    assert 0.0 <= app.alpha < 1.0
    assert set(clock.calls) == {60}  # paced by the clock's frame cap, not a busy loop


def test_a_long_stall_does_not_trigger_a_catch_up_storm():
    app = make_app(clock=FakeClock(5000))
    app.open_path("menu")
    app.run(max_frames=2)
    assert app.updates == 30  # 2 frames, each clamped to 0.25 s = 15 ticks


def test_quit_stops_the_loop():
    app = make_app(clock=FakeClock(16))
    app.open_path("menu")
    app.quit()
    assert app.run(max_frames=100) == 0
    assert app.frames == 0


# ---------------------------------------------------------------------- keyboard paths
def test_keyboard_walks_from_menu_to_game_start():
    app = make_app()
    seen = {}

    def fake_table(a, **params):
        seen.update(params)
        return Recorder(a, "table", [])

    register_scene("table", fake_table)
    try:
        app.open_path("menu")
        assert focused_name(app) == "play"
        press(app, pygame.K_DOWN)
        assert focused_name(app) == "rules"
        press(app, pygame.K_UP, pygame.K_RETURN)
        assert app.stack.top.name == "decks"
        assert focused_name(app) == "deck:piacentine"
        press(app, pygame.K_RIGHT, pygame.K_RIGHT)
        assert focused_name(app) == "deck:bresciane"
        press(app, pygame.K_RETURN)
        assert app.stack.top.name == "games"
        assert app.settings.last_deck == "bresciane"
        assert focused_name(app) == "start:scopa"
        # Tab reaches the players chooser; Right changes it.
        for _ in range(10):
            if focused_name(app) == "players:scopa":
                break
            press(app, pygame.K_TAB)
        assert focused_name(app) == "players:scopa"
        press(app, pygame.K_RIGHT, pygame.K_RIGHT)
        app.stack.top.ui.focus(widget(app, "start:scopa"))
        press(app, pygame.K_RETURN)
        assert seen == {
            "deck": "bresciane",
            "game": "scopa",
            "players": 4,
            "options": get_config().games["scopa"].default_options(),
            "ai_level": "normal",
        }
        assert app.stack.top.name == "table"
    finally:
        unregister_scene("table")


def test_escape_goes_back_and_settings_overlay_adjusts_the_picture():
    app = make_app()
    app.open_path("menu")
    press(app, pygame.K_RETURN)
    assert app.stack.top.name == "decks"
    press(app, pygame.K_ESCAPE)
    assert app.stack.top.name == "menu"
    app.stack.top.ui.focus(widget(app, "settings"))
    press(app, pygame.K_RETURN)
    top = app.stack.top
    assert top.name == "settings" and top.is_overlay
    assert [s.name for s in app.stack.visible()] == ["menu", "settings"]
    press(app, pygame.K_DOWN)
    assert focused_name(app) == "contrast"
    press(app, pygame.K_RIGHT, pygame.K_RIGHT)
    assert app.settings.contrast == 60 and app.postfx.contrast == 60
    press(app, pygame.K_LEFT, mod=pygame.KMOD_SHIFT)
    assert app.settings.contrast == 59
    press(app, pygame.K_ESCAPE)
    assert app.stack.top.name == "menu"
    assert load_settings().settings.contrast == 59  # saved on the way out


def test_language_switch_relabels_every_scene_at_once():
    app = make_app()
    app.open_path("games", deck="piacentine")
    assert widget(app, "start:scopa").label() == "Start"
    app.set_setting("language", "it")
    assert widget(app, "start:scopa").label() == "Inizia"
    menu = app.stack.scenes[0]
    play = next(w for w in menu.ui.widgets if w.name == "play")
    assert play.label() == "Gioca"


def test_games_the_deck_cannot_play_are_not_offered():
    app = make_app()
    app.open_path("games", deck="schnapsen-french")
    names = {w.name for w in app.stack.top.ui.widgets}
    assert "start:schnapsen" in names
    assert not any(n.startswith("start:scopa") or n.startswith("start:briscola") for n in names)


def test_game_line_follows_config_options_and_language():
    from scenes.game_select import game_line

    cfg = get_config()
    en, de = I18n("en"), I18n("de")
    assert game_line(en.t, cfg.games["scopa"], {"target": 11}) == "2–4 players · AI opponents / partner · Match to 11"
    assert game_line(en.t, cfg.games["scopa"], {"target": 21}).endswith("Match to 21")
    assert (
        game_line(en.t, cfg.games["cicera"], {"format": "single", "target": 21})
        == "4 players · You + AI partner against two AI opponents · Single deal"
    )
    assert game_line(en.t, cfg.games["briscola"], {"format": "match", "deals_to_win": 3}).endswith(
        "First to win 3 deals"
    )
    assert game_line(de.t, cfg.games["schnapsen"], {"bummerl": 7}) == "2 Spieler · Du gegen KI · Sieben-Punkte-Match"


def test_missing_scene_gives_a_toast_not_a_crash():
    app = make_app()
    app.open_path("menu")
    assert app.open_scene("no_such_scene_yet") is False
    assert app.toasts.active and app.toasts.active[-1].startswith("Coming soon")
    assert app.stack.top.name == "menu"


# ---------------------------------------------------------------------- mouse paths
def test_mouse_click_and_slider_drag():
    app = make_app()
    app.open_path("menu")
    slider = widget(app, "grain")
    tr = slider.track
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(tr.right - 1, tr.centery), button=1))
    app.stack.handle(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(tr.x + tr.w // 4, tr.centery), rel=(0, 0), buttons=(1, 0, 0))
    )
    assert app.settings.grain == 25 and app.postfx.grain == 25
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(tr.x + tr.w // 4, tr.centery), button=1))
    # The wheel over a slider nudges it by one; the app gives wheel events a canvas position.
    wheel = app.map_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, pos=slider.rect.center))
    app.stack.handle(wheel)
    assert app.settings.grain == 26
    click(app, widget(app, "play").rect.center)
    assert app.stack.top.name == "decks"


def test_clicks_in_the_letterbox_bars_are_dropped_and_positions_stay_on_the_canvas():
    """SDL reports positions in canvas pixels; in the bars they fall outside the canvas."""
    app = make_app()
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(640, -12), button=1)
    assert app.map_event(down) is None
    inside = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(640, 12), button=1)
    assert app.map_event(inside) is inside
    motion = app.map_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(1400, -5), rel=(3, 0), buttons=(0, 0, 0)))
    assert motion.pos == (1279, 0) and motion.rel == (3, 0)


_WINDOW_CHECK = r"""
import json, sys
import pygame
from game.config import get_config
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import App

app = App(get_config(), Settings(language="en"), I18n("en"), window=True, persist=False, window_size=(1920, 1200))
app.open_path("menu")
app.render(); app.present()
out = {"canvas": app.canvas.get_size(), "pixels": app.window.frame.get_size(), "box": app.window.box,
       "window": app.window.window_size(), "display": pygame.display.get_surface().get_size()}
pygame.event.clear()
play = next(w for w in app.stack.top.ui.widgets if w.name == "play")
x, y, s = app.window.box[0], app.window.box[1], app.window.scale
pygame.mouse.set_pos((x + play.rect.centerx * s, y + play.rect.centery * s))  # window pixels
out["motion"] = [list(app.map_event(e).pos) for e in pygame.event.get(pygame.MOUSEMOTION)]
out["play"] = list(play.rect.center)
for key in (pygame.K_F11, pygame.K_F11):
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.render(); app.present()
    out.setdefault("fullscreen", []).append([app.settings.fullscreen, pygame.display.is_fullscreen(),
                                             list(app.window.window_size()), list(app.canvas.get_size()),
                                             list(app.window.frame.get_size())])
# A resize: the canvas follows at the next frame, at the new size's pixels (scale 2 here).
app.window.window.size = (2560, 1440)
for e in pygame.event.get():
    app.dispatch(e)
app.render(); app.present()
from sprites import hidpi, theme
app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode="", scancode=0))  # F12
from game.services.settings import user_data_dir
shot = sorted((user_data_dir() / "screenshots").glob("*.png"))[-1]
out["resized"] = [list(app.window.frame.get_size()), app.window.scale, hidpi.scale(),
                  getattr(theme.text("Cardavia", "sans", 18), "_s", 1.0), list(pygame.image.load(str(shot)).get_size())]
print(json.dumps(out))
"""


def test_the_window_draws_at_its_own_pixels_and_fullscreen_toggles(tmp_path):
    """A real (dummy-driver) window of 1920×1200: the canvas is 1280×720 logical pixels drawn
    at 1920×1080 (letterboxed 16:9 in the window), the pointer maps back to logical pixels,
    and F11 goes fullscreen and back."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CARDAVIA_HOME=str(tmp_path))
    r = subprocess.run(
        [sys.executable, "-c", _WINDOW_CHECK], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["canvas"] == list(CANVAS_SIZE) and out["pixels"] == [1920, 1080]
    assert out["window"] == [1920, 1200] and out["display"] == [1920, 1200] and out["box"] == [0, 60, 1920, 1080]
    # Window pixels → logical canvas pixels (within a pixel of rounding at 1.5× scale).
    assert out["motion"] and all(abs(a - b) <= 1 for a, b in zip(out["motion"][-1], out["play"]))
    on, off = out["fullscreen"]
    assert on[0] is True and on[1] is True and on[3] == list(CANVAS_SIZE)
    assert off[:3] == [False, False, [1920, 1200]] and off[3] == list(CANVAS_SIZE) and off[4] == [1920, 1080]
    # Text is set again at the new scale; F12 saves the picture at the window's size.
    assert out["resized"] == [[2560, 1440], 2.0, 2.0, 2.0, [2560, 1440]]
    assert "Traceback" not in r.stderr and "Warning" not in r.stderr


# ---------------------------------------------------------------------- screenshots
def test_f12_saves_a_screenshot_in_the_user_data_folder(_private_home):
    app = make_app()
    app.open_path("menu")
    app.render()
    app.dispatch(key(pygame.K_F12))
    shots = list((Path(_private_home) / "screenshots").glob("*.png"))
    assert len(shots) == 1
    assert pygame.image.load(str(shots[0])).get_size() == CANVAS_SIZE
    assert app.toasts.active and shots[0].name in app.toasts.active[-1]


def _is_rich_picture(path: Path) -> bool:
    img = pygame.image.load(str(path))
    assert img.get_size() == CANVAS_SIZE
    colours = {tuple(img.get_at((x, y))) for x in range(0, 1280, 37) for y in range(0, 720, 23)}
    return len(colours) > 200


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it"])
def test_every_scene_renders_in_every_language(tmp_path, lang):
    for scene in ("menu", "decks", "games", "settings"):
        out = tmp_path / f"{scene}-{lang}.png"
        assert main(["--screenshot", str(out), "--scene", scene, "--lang", lang, "--ticks", "20"]) == 0
        assert _is_rich_picture(out), f"{scene} in {lang} looks blank"


def test_screenshot_with_sliders_differs_from_neutral(tmp_path):
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["--screenshot", str(a), "--ticks", "5"]) == 0
    assert main(["--screenshot", str(b), "--ticks", "5", "--contrast", "80", "--temperature", "90"]) == 0
    assert pygame.image.tobytes(pygame.image.load(str(a)), "RGB") != pygame.image.tobytes(
        pygame.image.load(str(b)), "RGB"
    )


def test_screenshot_run_does_not_touch_saved_settings(tmp_path, _private_home):
    assert main(["--screenshot", str(tmp_path / "x.png"), "--contrast", "90", "--ticks", "1"]) == 0
    assert not (Path(_private_home) / "settings.json").exists()


# ---------------------------------------------------------------------- command line
@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--bogus"], "unknown option --bogus"),
        (["--contrast", "150"], "--contrast"),
        (["--grain", "lots"], "--grain"),
        (["--lang", "fr"], "--lang"),
        (["--scene", "nowhere"], "unknown scene 'nowhere'"),
        (["--deck", "tarot"], "unknown deck 'tarot'"),
        (["--deck", "piacentine", "--game", "cicera"], "does not offer cicera"),
        (["--screenshot"], "--screenshot needs a value"),
        (["--window", "10x10"], "--window"),
        (["--window", "big"], "--window"),
    ],
)
def test_bad_arguments_exit_2_with_one_clear_line(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "--screenshot" in capsys.readouterr().out


def test_broken_rules_yaml_is_one_message_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "rules.yaml").write_text("languages: [en, nl, de, it]\ngames: {\n", encoding="utf-8")
    monkeypatch.setenv("CARDAVIA_DATA", str(tmp_path))
    assert main(["--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "rules.yaml" in err and "Traceback" not in err and err.count("\n") == 1


# ---------------------------------------------------------------------- typography
def test_digits_are_tabular_so_numbers_do_not_jitter():
    for face in ("sans", "sans_bold", "serif_bold"):
        f = theme.font(face, 17)
        widths = {f.size(d)[0] for d in "0123456789"}
        assert len(widths) == 1, face


def test_fonts_are_shipped_with_their_licence():
    folder = Path(theme.FONT_DIR)
    for name in theme.FACES.values():
        assert (folder / name).is_file()
    assert "Bitstream" in (folder / "LICENSE").read_text()
    assert os.path.getsize(folder / "LICENSE") > 1000


def test_screenshot_of_a_table_never_touches_the_players_saves(tmp_path, _private_home):
    """A --screenshot plays a demo match: it must not write over the match in progress."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    save = Path(_private_home) / "match.json"
    save.write_text('{"kept": true}', encoding="utf-8")
    env = dict(os.environ, CARDAVIA_HOME=str(_private_home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    r = subprocess.run(
        [
            sys.executable,
            str(root / "main.py"),
            "--screenshot",
            str(tmp_path / "t.png"),
            "--scene",
            "table",
            "--game",
            "scopa",
            "--seed",
            "2",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "t.png").exists()
    assert save.read_text(encoding="utf-8") == '{"kept": true}'
    assert not (Path(_private_home) / "stats.json").exists()


def test_settings_sound_toggle_mutes_and_persists(_private_home):
    """The mute button (besides the M key): Sound Off mutes, and the choice is saved."""
    from game.config import get_config
    from game.services.i18n import I18n
    from game.services.settings import Settings, load_settings
    from scenes.app import App

    app = App(get_config(), Settings(language="en"), I18n("en"), window=False, persist=True)
    app.open_path("settings")
    scene = app.stack.top
    sound = next(w for w in scene.ui.widgets if getattr(w, "name", "") == "sound")
    assert app.settings.muted is False
    sound.set(False)
    assert app.settings.muted is True
    assert load_settings().settings.muted is True
    sound.set(True)
    assert load_settings().settings.muted is False
