"""The results scene: each game's breakdown, Continue / Menu / New match, the match result,
keyboard and mouse paths, and text that fits its box in every language."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pygame
import pytest

from game.config import get_config
from game.rulesets import make_rules
from game.services.i18n import I18n
from game.services.settings import Settings
from game.services.table_session import ONLINE
from scenes.app import TICK, App
from scenes.launch import main
from scenes.menu import MenuScene
from scenes.registry import register_scene, unregister_scene
from scenes.results import scene as results
from scenes.scene import Scene

GAMES = ("scopa", "cicera", "briscola", "schnapsen")
LANGS = ("en", "nl", "de", "it")


def make_app(lang: str = "en") -> App:
    return App(get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False)


_DEMOS: dict[tuple, tuple] = {}


def demo(game: str, to_end: bool = False, players: int | None = None, options: dict | None = None):
    """(session, deal_end, match_end) of a bot match; cached (the events are never mutated)."""
    key = (game, to_end, players, tuple(sorted((options or {}).items())))
    if key not in _DEMOS:
        fake = SimpleNamespace(settings=Settings())
        _DEMOS[key] = results.demo(fake, game, None, players, to_end, options=options)
    return _DEMOS[key]


class FakeTable(Scene):
    name = "table"


def open_over_table(app: App, game: str, to_end: bool = False, **kw):
    s, de, me = demo(game, to_end, **kw)
    app.open_path("menu")
    table = FakeTable(app)
    app.stack.push(table)
    assert app.open_scene("results", session=s, deal_end=de, match_end=me if to_end else None)
    app.settle(round((results.INPUT_GUARD + 0.1) / TICK))  # past the input guard
    return app.stack.top, table


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def click(app: App, pos: tuple[int, int]) -> None:
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(TICK)


def texts(scene) -> list[str]:
    m = scene.model()
    out = [m.headline, *m.notes]
    for row in m.rows:
        out.append(row.label)
        out += [c.text for c in row.cells]
    return out


# ---------------------------------------------------------------------- the breakdown per game
def test_scopa_breakdown_shows_every_award_with_counts_values_and_totals():
    app = make_app()
    scene, _ = open_over_table(app, "scopa")
    d = scene.deal_end["detail"]
    m = scene.model()
    labels = [r.label for r in m.rows]
    assert labels[:5] == [
        "Most cards",
        "Most Coins",
        "Settebello (7 of Coins)",
        "Best primiera",
        "Scope (table sweeps)",
    ]
    assert [c.text for c in m.rows[0].cells] == [str(v) for v in d["card_counts"]]
    assert [c.text for c in m.rows[1].cells] == [str(v) for v in d["coin_counts"]]
    assert [c.mark for c in m.rows[2].cells] == [bool(v) for v in d["settebello"]]
    assert [c.text for c in m.rows[3].cells] == ["—" if v is None else str(v) for v in d["primiera_values"]]
    # The "+n" pills are exactly the points each award gave.
    for row, name in zip(m.rows[:5], ("cards", "coins", "settebello", "primiera", "scope")):
        assert [c.points or 0 for c in row.cells] == d[name]
    assert [c.text for c in m.rows[5].cells] == [str(p) for p in scene.deal_end["points"]]
    assert m.rows[6].label == "Match total (to 11)" and m.rows[6].kind == "match"
    assert [c.text for c in m.rows[6].cells] == [str(v) for v in scene.deal_end["totals"]]
    assert m.columns == ["You", "North"] and m.mine == 0  # as the table names the seats


def test_re_bello_and_napola_have_their_rows_only_when_in_force_and_the_pills_add_up():
    from scenes.results.breakdown import shown_lines

    app = make_app()
    plain, _ = open_over_table(app, "scopa")
    assert not any("Re bello" in r.label or "Napola" in r.label for r in plain.model().rows)
    for seed in range(1, 40):
        s, de, me = results.demo(
            SimpleNamespace(settings=Settings()),
            "scopa",
            None,
            2,
            False,
            seed=seed,
            options={"re_bello": True, "napola": True},
        )
        if any(de["detail"]["napola"]) and any(de["detail"]["re_bello"]):
            break
    else:
        raise AssertionError("no deal with a napola found")
    d = de["detail"]
    lines = [ln.get("option") for ln in shown_lines(s.rules)]
    assert "re_bello" in lines and "napola" in lines
    app.open_path("menu")
    app.stack.push(FakeTable(app))
    assert app.open_scene("results", session=s, deal_end=de, match_end=None)
    m = app.stack.top.model()
    rows = {r.label: r for r in m.rows}
    bello, napola = rows["Re bello (King of Coins)"], rows["Napola (a run of Coins from the Ace)"]
    assert [c.mark for c in bello.cells] == [bool(v) for v in d["re_bello"]]
    assert [c.points or 0 for c in napola.cells] == d["napola"]
    assert [c.text for c in napola.cells] == [f"run of {v}" if v else "—" for v in d["napola"]]
    # Every point of the deal is on a row: the pills of each column add up to its points.
    award_rows = [r for r in m.rows if r.kind == "line"]
    assert [sum(r.cells[i].points or 0 for r in award_rows) for i in range(2)] == de["points"]


def test_scopa_four_players_are_teams_and_three_players_have_sides():
    app = make_app()
    scene, _ = open_over_table(app, "scopa", players=4)
    assert scene.model().columns == ["Us", "Them"]
    t = app.i18n.t
    # The seats as the table names them: the next player sits to the viewer's right (East).
    assert results.team_names(t, 3, 0) == ["You", "East", "West"]
    assert results.team_names(t, 3, 1) == ["West", "You", "East"]
    partners = make_rules("scopa", None, 4).team_of  # the teams the game declares
    assert results.team_names(t, 4, 1, team_of=partners) == ["Them", "Us"]
    assert results.team_names(t, 2, None) == ["Player 1", "Player 2"]


def test_cicera_breakdown_has_bonuses_awards_and_napula():
    app = make_app()
    scene, _ = open_over_table(app, "cicera")
    d = scene.deal_end["detail"]
    rows = {r.label: r for r in scene.model().rows}
    for label, key_ in (
        ("Scùa (table cleared)", "scua"),
        ("Picada (took the card just placed)", "picada"),
        ("Simili (all of one suit)", "simili"),
        ("Quadriglia (3 or more cards taken)", "quadriglia"),
    ):
        assert [c.text for c in rows[label].cells] == [str(v) for v in d[key_]]
    assert [c.points or 0 for c in rows["Most cards"].cells] == d["cards"]
    assert [c.text for c in rows["Most Swords"].cells] == [str(v) for v in d["sword_counts"]]
    assert [c.mark for c in rows["2 of Swords (La Mata)"].cells] == [bool(v) for v in d["2S"]]
    assert [c.mark for c in rows["10 of Coins"].cells] == [bool(v) for v in d["10D"]]
    assert [c.mark for c in rows["Knave of Cups"].cells] == [bool(v) for v in d["JC"]]
    assert [c.points or 0 for c in rows["Napula (run of Swords)"].cells] == d["napula"]
    assert [c.text for c in rows["Points this deal"].cells] == [str(p) for p in scene.deal_end["points"]]
    assert "Match total (to 21)" not in rows  # a single deal has no match total


def test_cicera_napula_run_and_no_capture_draw_are_explained():
    app = make_app()
    s, de, _ = demo("cicera")
    ev = copy.deepcopy(de)
    ev["detail"]["napula"] = [5, 0]
    m = results.breakdown(app.i18n.t, s.rules, ev, 0, "en")
    nap = next(r for r in m.rows if r.label.startswith("Napula"))
    assert [c.text for c in nap.cells] == ["5 in a row", "—"] and nap.cells[0].points == 5
    ev["detail"]["no_capture"] = True
    assert "Nobody captured" in results.breakdown(app.i18n.t, s.rules, ev, 0, "en").headline


def test_a_game_that_declares_no_lines_still_shows_its_points_and_totals():
    """A new game gets a results screen before it declares its rows: the deal's points and,
    in a match, the totals (the rows come from the rules' result_lines, not from the scene)."""
    app = make_app()
    s, de, _ = demo("scopa")
    rules = copy.copy(s.rules)
    rules.result_lines = ()
    m = results.breakdown(app.i18n.t, rules, de, 0, "en")
    assert [(r.label, r.kind) for r in m.rows] == [("Points this deal", "total"), ("Match total (to 11)", "match")]
    assert [c.text for c in m.rows[0].cells] == [str(p) for p in de["points"]]
    assert [c.text for c in m.rows[1].cells] == [str(v) for v in de["totals"]]
    rules.options = {**rules.options, "format": "single"}
    assert [r.kind for r in results.breakdown(app.i18n.t, rules, de, 0, "en").rows] == ["total"]


def test_briscola_breakdown_card_points_tricks_winner_and_match_deals():
    app = make_app()
    scene, _ = open_over_table(app, "briscola")
    d = scene.deal_end["detail"]
    m = scene.model()
    assert [c.text for c in m.rows[0].cells] == [str(p) for p in d["card_points"]]
    assert [c.text for c in m.rows[1].cells] == [str(p) for p in d["tricks"]]
    assert m.bar == tuple(d["card_points"])
    w = d["deal_winner"]
    assert m.headline == f"Deal winner: {m.columns[w]} · {d['card_points'][w]} card points"
    s, de, _ = demo("briscola", options={"format": "match", "deals_to_win": 2})
    mm = results.breakdown(app.i18n.t, s.rules, de, 0, "en")
    assert mm.rows[-1].label == "Deals won (first to 2)"
    assert [c.text for c in mm.rows[-1].cells] == [str(v) for v in de["totals"]]
    draw = copy.deepcopy(de)
    draw["detail"].update(card_points=[60, 60], deal_winner=None)
    assert results.breakdown(app.i18n.t, s.rules, draw, 0, "en").headline == "60–60: a drawn deal"


def test_schnapsen_breakdown_points_reason_and_bummerl():
    app = make_app()
    scene, _ = open_over_table(app, "schnapsen")
    ev = scene.deal_end
    d = ev["detail"]
    rows = {r.label: r for r in scene.model().rows}
    assert [c.text for c in rows["Card points"].cells] == [str(v) for v in d["card_points"]]
    assert [c.text for c in rows["Marriages"].cells] == [str(v) for v in d["marriages"]]
    assert [c.text for c in rows["Points (cards + marriages)"].cells] == [str(v) for v in d["points"]]
    assert [c.points or 0 for c in rows["Game points"].cells] == ev["points"]
    bummerl = rows["Match count (7 → 0)"]
    assert bummerl.kind == "bummerl" and [c.text for c in bummerl.cells] == [str(v) for v in ev["totals"]]


@pytest.mark.parametrize(
    "reason,closed_by,gp,headline,why",
    [
        ("66", None, 1, "You reached 66", "1 game point: the loser has 33 points or more."),
        ("66", None, 2, "You reached 66", "2 game points: the loser has won a trick but has fewer than 33 points."),
        ("66", None, 3, "You reached 66", "3 game points: the loser has not won a single trick."),
        ("closed_won", 0, 2, "You closed the stock and made 66", "2 game points"),
        ("closed_lost", 1, 2, "North closed the stock but missed 66", "whoever closes the stock and misses 66"),
        ("closed_lost", 1, 3, "North closed the stock but missed 66", "had no trick at the closure"),
        ("last_trick", None, 1, "Nobody reached 66: you took the last trick", "1 game point for the last trick"),
    ],
)
def test_schnapsen_reasons_say_why(reason, closed_by, gp, headline, why):
    app = make_app()
    s, de, _ = demo("schnapsen")
    ev = copy.deepcopy(de)
    ev["detail"].update(reason=reason, winner=0, closed_by=closed_by)
    ev["points"] = [gp, 0]
    m = results.breakdown(app.i18n.t, s.rules, ev, 0, "en")
    assert m.headline == headline
    assert why in m.notes[0]
    assert any("when the stock was closed" in n for n in m.notes) == (reason == "closed_won")
    # From the other chair the same deal reads in the third person (or "you" for the closer).
    other = results.breakdown(app.i18n.t, s.rules, ev, 1, "en").headline
    if reason == "closed_lost":
        assert other == "You closed the stock but missed 66"
    else:
        assert other != headline and "North" in other


# ---------------------------------------------------------------------- Continue, Menu, Esc, mouse
def test_continue_by_enter_pops_back_to_the_table():
    app = make_app()
    scene, table = open_over_table(app, "scopa")
    assert scene.is_overlay and app.stack.visible()[0] is table  # the table shows beneath
    assert scene.ui.focused is scene.primary and scene.primary.name == "continue"
    app.dispatch(key(pygame.K_RETURN))
    assert app.stack.top is table


def test_continue_by_mouse_and_by_esc():
    app = make_app()
    scene, table = open_over_table(app, "briscola")
    click(app, scene.primary.rect.center)
    assert app.stack.top is table
    scene, table = open_over_table(app, "schnapsen")
    app.dispatch(key(pygame.K_ESCAPE))
    assert app.stack.top is table


def test_an_enter_the_moment_the_results_appear_does_nothing_and_a_later_one_continues():
    """The Enter (or click) that finished the last trick must not also dismiss the results:
    input is ignored for a moment, a key held down acts only once let go, focus on Continue."""
    app = make_app()
    s, de, _ = demo("scopa")
    app.open_path("menu")
    table = FakeTable(app)
    app.stack.push(table)
    assert app.open_scene("results", session=s, deal_end=de, match_end=None)
    scene = app.stack.top
    assert scene.ui.focused is scene.primary and scene.primary.name == "continue"
    app.dispatch(key(pygame.K_RETURN))  # t = 0
    click(app, scene.primary.rect.center)
    assert app.stack.top is scene
    app.settle(round(results.INPUT_GUARD / TICK) + 2)
    app.dispatch(key(pygame.K_RETURN))  # the same Enter still held: its auto-repeat
    assert app.stack.top is scene
    app.dispatch(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="", scancode=0))
    app.dispatch(key(pygame.K_RETURN))  # a new press
    assert app.stack.top is table


def test_an_enter_the_moment_the_match_result_appears_starts_no_new_match():
    app = make_app()
    s, de, me = demo("scopa", True)
    app.open_path("menu")
    table = FakeTable(app)
    app.stack.push(table)
    made = []
    register_scene("table", lambda app_, **params: made.append(params) or FakeTable(app_))
    try:
        assert app.open_scene("results", session=s, deal_end=de, match_end=me)
        scene = app.stack.top
        app.dispatch(key(pygame.K_RETURN))
        app.dispatch(key(pygame.K_KP_ENTER))
        assert app.stack.top is scene and not made
        app.settle(round(results.INPUT_GUARD / TICK) + 2)
        click(app, scene.primary.rect.center)  # a deliberate click after the guard
        assert made and app.stack.top is not scene
    finally:
        unregister_scene("table")


@pytest.mark.parametrize("game,players", [("scopa", 2), ("scopa", 3), ("scopa", 4), ("schnapsen", 2)])
def test_the_results_name_the_seats_as_the_table_does(game, players):
    from scenes.registry import make_scene

    app = make_app()
    app.open_path("menu")
    table = make_scene(
        app,
        "table",
        game=game,
        players=players,
        seed=3,
        autoplay_moves=1,
        ai_level="greedy",
        threaded=False,
        preselect=False,
    )
    s, de, _ = demo(game, players=players)
    cols = results.breakdown(app.i18n.t, s.rules, de, 0, "en").columns
    assert cols == [table.names.team_name(t) for t in range(s.rules.teams)]
    if players < 4:  # a seat is its own team: the names on the plates
        assert cols == [table.names.seat_name(seat) for seat in range(players)]


def test_menu_button_returns_to_the_menu_by_tab_and_enter():
    app = make_app()
    scene, _ = open_over_table(app, "scopa")
    app.dispatch(key(pygame.K_TAB))
    assert scene.ui.focused is scene.menu_button
    app.dispatch(key(pygame.K_RETURN))
    assert isinstance(app.stack.top, MenuScene) and len(app.stack) == 1


def test_menu_without_a_menu_below_opens_one():
    app = make_app()
    s, de, _ = demo("scopa")
    app.stack.push(results.ResultsScene(app, s, de, None))
    app.stack.top.to_menu()
    assert isinstance(app.stack.top, MenuScene) and len(app.stack) == 1


# ---------------------------------------------------------------------- the match result
def test_match_end_shows_winner_totals_and_new_match_replaces_the_table():
    app = make_app()
    scene, table = open_over_table(app, "scopa", to_end=True)
    me = scene.match_end
    assert scene.over and scene.primary.name == "new_match"
    title, tone = results.match_verdict(app.i18n.t, scene.rules, me, 0, scene.model().columns)
    assert tone == ("win" if me["winner"] == 0 else "loss")
    assert max(me["totals"]) >= 11
    made = []

    def factory(app_, **params):
        made.append(params)
        return FakeTable(app_)

    register_scene("table", factory)
    try:
        assert scene.ui.focused.name == "sheet"  # Enter alone never starts a new match
        scene.ui.focus(scene.primary)
        app.dispatch(key(pygame.K_RETURN))
    finally:
        unregister_scene("table")
    assert made == [
        {
            "deck": scene.rules.deck.id,
            "game": "scopa",
            "players": 2,
            "options": dict(scene.rules.options),
            "ai_level": app.settings.ai_level,
        }
    ]
    assert isinstance(app.stack.top, FakeTable) and app.stack.top is not table
    assert table not in app.stack.scenes and isinstance(app.stack.scenes[0], MenuScene)


def test_enter_on_the_match_result_opens_the_score_sheet_not_a_new_match():
    app = make_app()
    scene, table = open_over_table(app, "scopa", to_end=True)
    made = []
    register_scene("table", lambda app_, **params: made.append(params) or FakeTable(app_))
    try:
        app.settle(round(results.INPUT_GUARD / TICK) + 2)
        app.dispatch(key(pygame.K_RETURN))
        app.update(TICK)
    finally:
        unregister_scene("table")
    assert not made and app.stack.top.name == "scoresheet" and scene in app.stack.scenes


def test_match_end_esc_goes_to_the_menu():
    app = make_app()
    open_over_table(app, "schnapsen", to_end=True)
    app.dispatch(key(pygame.K_ESCAPE))
    assert isinstance(app.stack.top, MenuScene)


@pytest.mark.parametrize(
    "winner,players,title,tone",
    [
        (0, 2, "You win the match!", "win"),
        (1, 2, "North wins the match", "loss"),
        (None, 2, "The match is drawn", "draw"),
        (0, 4, "Your team wins the match!", "win"),
        (1, 4, "The opponents win the match", "loss"),
    ],
)
def test_match_verdicts_and_celebration_only_for_a_win(winner, players, title, tone):
    app = make_app()
    s, de, _ = demo("scopa", players=players)
    me = {"event": "match_end", "winner": winner, "totals": [11, 7]}
    cols = results.team_names(app.i18n.t, players, 0, team_of=s.rules.team_of)
    assert results.match_verdict(app.i18n.t, s.rules, me, 0, cols) == (title, tone)
    scene = results.ResultsScene(app, s, de, me)
    assert (scene.confetti is not None) == (tone == "win")


# ---------------------------------------------------------------------- text fits in every language
@pytest.mark.parametrize("lang", LANGS)
def test_every_text_fits_its_box(lang):
    app = make_app(lang)
    for game in GAMES:
        for to_end in (False, True):
            scene, _ = open_over_table(app, game, to_end=to_end)
            app.render(1.0)
            assert scene.text_log, "nothing was measured"
            over = [(s, w, box) for s, w, box in scene.text_log if w > box]
            assert not over, f"{lang} {game}: {over}"
            assert scene.rect.top >= 0 and scene.rect.bottom <= 720
            for w in scene.ui.widgets:
                assert scene.rect.contains(w.rect)
            # Every translated message was found (no raw keys on screen).
            assert not [t for t in texts(scene) if t.startswith("results.")]
    four, _ = open_over_table(app, "scopa", players=4)
    app.render(1.0)
    assert not [x for x in four.text_log if x[1] > x[2]]


def test_language_switch_relabels_the_breakdown():
    app = make_app("en")
    scene, _ = open_over_table(app, "scopa")
    assert scene.model().rows[0].label == "Most cards"
    app.set_setting("language", "it", commit=False)
    assert scene.model().rows[0].label == "Carte (maggioranza)"
    assert scene.model().columns == ["Tu", "Nord"]


# ---------------------------------------------------------------------- screenshots
def test_screenshot_of_a_demo_deal_and_a_match_end(tmp_path):
    for args in (
        ["--scene", "results", "--game", "cicera"],
        ["--scene", "results", "--game", "schnapsen", "--match-end", "--lang", "de"],
    ):
        out = tmp_path / f"{args[3]}.png"
        assert main(["--screenshot", str(out), *args, "--ticks", "5"]) == 0
        img = pygame.image.load(str(out))
        assert img.get_size() == (1280, 720)


def test_standalone_demo_is_opaque_and_match_end_demo_is_over():
    app = make_app()
    scene = results.create(app, game="briscola", match_end=True)
    assert not scene.is_overlay and scene.over
    scene = results.create(app, game="nonsense")  # unknown game: a Scopa demo, never a traceback
    assert scene.rules.game_id == "scopa" and not scene.over


def test_an_online_match_end_has_no_replay_row_and_no_room_kept_for_it():
    from types import SimpleNamespace as NS

    app = make_app()
    local, _ = open_over_table(app, "scopa", to_end=True)
    assert local.offers_replay and {"watch_replay", "save_record"} <= {w.name for w in local.ui.widgets}
    s, de, me = demo("scopa", True)
    remote = NS(**{k: getattr(s, k) for k in ("rules", "match", "human_seat", "seed")}, capabilities=ONLINE)
    app.stack.push(FakeTable(app))
    assert app.open_scene("results", session=remote, deal_end=de, match_end=me)
    online = app.stack.top
    assert not online.offers_replay and not {"watch_replay", "save_record"} & {w.name for w in online.ui.widgets}
    assert online.rect.h == local.rect.h - results.REPLAY_ROW  # the panel closes up: no empty band
