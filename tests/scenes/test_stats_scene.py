"""The statistics scene: per game and mode, reachable from the menu by keyboard and mouse,
a reset that asks first, a damaged file kept aside, every text fitting in four languages."""

from __future__ import annotations

import json

import pygame
import pytest

from game.config import get_config
from game.services import stats
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import TICK, App


def make_app(lang: str = "en") -> App:
    return App(
        get_config(), Settings(language=lang, animation_speed="instant"), I18n(lang), window=False, persist=False
    )


def key(app: App, k: int) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    app.update(TICK)


def click(app: App, pos) -> None:
    pos = (int(pos[0]), int(pos[1]))
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(TICK)


def widget(scene, name: str):
    return next(w for w in scene.ui.widgets if w.name == name)


def some_results() -> None:
    for outcome, margin in (("won", 4), ("won", 9), ("lost", 3), ("drawn", 0), ("won", 2), ("won", 1)):
        assert stats.record_result("scopa", "versus", outcome, margin) is None
    stats.record_result("briscola", "versus", "lost", 30)
    stats.record_result("briscola", "versus", "lost", 8)
    stats.record_result("cicera", "partners", "drawn", 0)


def open_stats(app: App):
    app.open_path("menu")
    widget(app.stack.top, "stats").activate()
    assert app.stack.top.name == "stats"
    return app.stack.top


def row(scene, k: str):
    return next(r for r in scene.rows() if r.key == k)


def test_rows_show_played_won_lost_drawn_best_margin_and_streak():
    some_results()
    scene = open_stats(make_app())
    keys = [r.key for r in scene.rows()]
    # One row per game and mode rules.yaml offers, in its order, then the totals.
    cfg = get_config()
    assert keys == [f"{gid}/{m.id}" for gid, g in cfg.games.items() for m in g.modes] + ["all"]
    assert keys[:3] == ["scopa/versus", "scopa/partners", "cicera/partners"]
    s = row(scene, "scopa/versus")
    assert (s.played, s.won, s.lost, s.drawn, s.best, s.streak, s.streak_sign) == (6, 4, 1, 1, "9", "2 wins", 1)
    b = row(scene, "briscola/versus")
    assert (b.played, b.won, b.lost, b.best, b.streak, b.streak_sign) == (2, 0, 2, "—", "2 losses", -1)
    c = row(scene, "cicera/partners")
    assert (c.played, c.drawn, c.streak) == (1, 1, "—")
    assert (row(scene, "schnapsen/versus").played, row(scene, "scopa/partners").played) == (0, 0)
    total = row(scene, "all")
    assert total.total and (total.played, total.won, total.lost, total.drawn) == (9, 4, 3, 2)
    scene.app.render()
    # However many games there are, the table of rows ends above the buttons.
    assert scene.rows_bottom <= scene.back_button.rect.top - 40


def test_reached_from_the_menu_by_keyboard_and_left_with_escape():
    app = make_app()
    app.open_path("menu")
    menu = app.stack.top
    assert menu.ui.focused.name == "play"
    key(app, pygame.K_DOWN)
    assert menu.ui.focused.name == "rules"
    key(app, pygame.K_RIGHT)
    assert menu.ui.focused.name == "stats"
    key(app, pygame.K_RETURN)
    scene = app.stack.top
    assert scene.name == "stats" and scene.ui.focused.name == "back"
    app.render()
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is menu


def test_reached_by_mouse_and_back_by_mouse():
    app = make_app()
    app.open_path("menu")
    menu = app.stack.top
    click(app, widget(menu, "stats").rect.center)
    scene = app.stack.top
    assert scene.name == "stats"
    click(app, widget(scene, "back").rect.center)
    assert app.stack.top is menu


def test_reset_asks_first_and_keep_keeps_everything():
    some_results()
    app = make_app()
    scene = open_stats(app)
    key(app, pygame.K_TAB)
    assert scene.ui.focused.name == "reset"
    key(app, pygame.K_RETURN)
    assert scene.confirming and scene.ui.focused.name == "reset_no"  # the safe answer first
    app.render()
    key(app, pygame.K_RETURN)
    assert not scene.confirming and row(scene, "all").played == 9
    widget(scene, "reset").activate()
    key(app, pygame.K_ESCAPE)  # Esc while asking means no, and stays here
    assert not scene.confirming and app.stack.top is scene and row(scene, "all").played == 9
    assert stats.load_stats()[0]["scopa/versus"].played == 6


def test_reset_confirmed_by_mouse_empties_the_statistics():
    some_results()
    app = make_app()
    scene = open_stats(app)
    click(app, widget(scene, "reset").rect.center)
    click(app, widget(scene, "reset_yes").rect.center)
    assert not scene.confirming
    assert stats.load_stats() == ({}, None)
    assert all(r.played == 0 for r in scene.rows())
    assert "Statistics reset." in app.toasts.active


def test_a_damaged_statistics_file_is_kept_aside_and_counting_starts_afresh(_private_home):
    (_private_home / "stats.json").write_text('{"scopa/versus": {"played": 3', encoding="utf-8")
    app = make_app("nl")
    scene = open_stats(app)
    assert all(r.played == 0 for r in scene.rows())
    assert (_private_home / "stats.json.bad").read_text(encoding="utf-8").startswith('{"scopa/versus"')
    assert any("stats.json.bad" in t for t in app.toasts.active)
    app.render()
    # The next finished match is counted in a fresh file.
    assert stats.record_result("schnapsen", "versus", "won", 7) is None
    assert json.loads((_private_home / "stats.json").read_text(encoding="utf-8"))["schnapsen/versus"]["won"] == 1


def test_nonsense_values_in_a_valid_file_are_ignored(_private_home):
    (_private_home / "stats.json").write_text(
        json.dumps({"scopa/versus": {"played": "many", "won": -4, "lost": 2}, "poker/versus": {"played": 5}, "x": 7}),
        encoding="utf-8",
    )
    scene = open_stats(make_app())
    s = row(scene, "scopa/versus")
    assert (s.played, s.won, s.lost) == (0, 0, 2)
    assert row(scene, "all").played == 0  # unknown games are not shown or counted


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it"])
def test_every_text_fits_its_box_in_every_language(lang):
    some_results()
    stats.record_result("schnapsen", "versus", "lost", 7)
    app = make_app(lang)
    scene = open_stats(app)
    for confirming in (False, True):
        scene.confirming = confirming
        app.render()
        assert scene.text_log
        too_wide = [(s, w, box) for s, w, box in scene.text_log if w > box]
        assert not too_wide, too_wide
        untranslated = [s for s, _, _ in scene.text_log if s.startswith("stats.")]
        assert not untranslated
    if lang != "en":
        en = I18n("en")
        assert all(scene.t(f"stats.{k}") != en.t(f"stats.{k}") for k in ("title", "subtitle", "reset", "confirm"))


# ---------------------------------------------------------------------- variants (house rules)
def variant_results() -> None:
    stats.record_result("scopa", "partners", "won", 5, variant="scopone")
    stats.record_result("scopa", "partners", "lost", 2, variant="scopone")
    stats.record_result("scopa", "versus", "won", 3, variant="custom:capture=fifteen+napola=true")
    stats.record_result("scopa", "versus", "won", 1, variant="quindici")
    stats.record_result("scopa", "versus", "won", 2)


@pytest.mark.parametrize(
    "lang,scopone,custom",
    [
        ("en", "Scopone scientifico", "Custom: Fifteen · Napola"),
        ("it", "Scopone scientifico", "Personalizzata: A quindici · Napola"),
    ],
)
def test_each_variant_played_has_its_own_named_row_under_its_game_and_mode(lang, scopone, custom):
    variant_results()
    scene = open_stats(make_app(lang))
    keys = [r.key for r in scene.rows()]
    # Under its mode's row, presets in rules.yaml's order, then the custom sets.
    i = keys.index("scopa/versus")
    assert keys[i : i + 3] == [
        "scopa/versus",
        "scopa/versus/quindici",
        "scopa/versus/custom:capture=fifteen+napola=true",
    ]
    assert keys[keys.index("scopa/partners") + 1] == "scopa/partners/scopone"
    r = row(scene, "scopa/partners/scopone")
    assert (r.variant, r.played, r.won, r.lost, r.best) == (scopone, 2, 1, 1, "5")
    assert row(scene, "scopa/versus/custom:capture=fifteen+napola=true").variant == custom
    assert row(scene, "scopa/versus").variant == "" and row(scene, "scopa/versus").played == 1
    assert row(scene, "all").played == 5
    scene.app.render()
    drawn = [s for s, _, _ in scene.text_log]
    assert any(scopone in s for s in drawn) and any(custom in s for s in drawn)
    assert not [x for x in scene.text_log if x[1] > x[2]]


def test_an_old_statistics_file_reads_as_the_rules_as_written(_private_home):
    """stats.json from before house rules: game/mode keys only. They are the classic rows."""
    (_private_home / "stats.json").write_text(
        json.dumps(
            {
                "scopa/versus": {"played": 4, "won": 3, "lost": 1, "drawn": 0, "best_margin": 6, "streak": 2},
                "briscola/versus": {"played": 2, "won": 0, "lost": 2, "drawn": 0, "best_margin": None, "streak": -2},
            }
        ),
        encoding="utf-8",
    )
    scene = open_stats(make_app())
    s = row(scene, "scopa/versus")
    assert (s.played, s.won, s.best, s.streak, s.variant) == (4, 3, "6", "2 wins", "")
    assert row(scene, "briscola/versus").streak == "2 losses"
    # A new variant is added beside them; the old records stay as they were.
    stats.record_result("scopa", "versus", "won", 1, variant="assi")
    st = stats.load_stats()[0]
    assert st["scopa/versus"].played == 4 and st["scopa/versus/assi"].played == 1


def test_an_unknown_variant_key_is_shown_as_custom_not_a_crash(_private_home):
    (_private_home / "stats.json").write_text(
        json.dumps(
            {"scopa/versus/no_such_preset": {"played": 1, "won": 1}, "scopa/versus/custom:napola=maybe": {"played": 1}}
        ),
        encoding="utf-8",
    )
    scene = open_stats(make_app())
    assert row(scene, "scopa/versus/no_such_preset").variant == "Custom"
    assert row(scene, "scopa/versus/custom:napola=maybe").variant == "Custom"
    scene.app.render()


CUSTOMS = [
    "custom:napola=true",
    "custom:re_bello=true",
    "custom:aces=take_all+napola=true",
    "custom:capture=fifteen+re_bello=true",
    "custom:re_bello=true+napola=true",
    "custom:capture=fifteen+aces=take_all",
    "custom:capture=fifteen+napola=true",
    "custom:aces=take_all",
    "custom:aces=take_all+re_bello=true",
    "custom:capture=fifteen+aces=take_all+napola=true",
]


def _many_variants(home, n: int) -> None:
    data = {f"scopa/versus/{v}": {"played": 1, "won": 1} for v in CUSTOMS[:n]}
    data["tressette/versus"] = {"played": 2, "lost": 2}
    (home / "stats.json").write_text(json.dumps(data), encoding="utf-8")


def test_more_rows_than_the_panel_holds_the_never_played_make_way(_private_home):
    _many_variants(_private_home, 5)
    app = make_app()
    scene = open_stats(app)
    app.render()
    shown = [r.key for r in scene.shown_rows]
    assert len(scene.rows()) > scene.room >= len(shown) and shown[-1] == "all" and scene.first == 0
    played = [r.key for r in scene.rows() if r.played and not r.total]
    assert set(played) <= set(shown)
    assert "scopa/versus" in shown  # the heading its variants are read under, though never played
    assert shown.index("scopa/versus") < min(shown.index(k) for k in played if k.startswith("scopa/versus/"))
    assert scene.rows_bottom <= scene.back_button.rect.top - 40


def test_more_played_rows_than_the_panel_holds_scroll(_private_home):
    _many_variants(_private_home, 10)
    app = make_app()
    scene = open_stats(app)
    app.render()
    assert "tressette/versus" not in [r.key for r in scene.shown_rows]
    key(app, pygame.K_DOWN)
    assert scene.first == 1
    key(app, pygame.K_PAGEDOWN)
    app.render()
    assert "tressette/versus" in [r.key for r in scene.shown_rows] and scene.shown_rows[-1].key == "all"
    assert scene.rows_bottom <= scene.back_button.rect.top - 40
    key(app, pygame.K_PAGEDOWN)  # clamped at the end
    last = scene.first
    key(app, pygame.K_DOWN)
    assert scene.first == last
    app.stack.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=30, pos=(640, 300)))
    assert scene.first == 0
    assert not [x for x in scene.text_log if x[1] > x[2]]


# ---------------------------------------------------------------------- daily deals
def test_daily_deals_have_their_own_rows_apart_from_the_matches_totals():
    import datetime as dt

    from game.services import daily

    today = daily.today()
    some_results()
    # Three days in a row of Briscola's standard daily deal: over, under and at par.
    for back, score, par_value in ((2, 70, 61.0), (1, 50, 58.25), (0, 60, 60.04)):
        kept, problem = daily.record_day("briscola/standard", today - dt.timedelta(days=back), score, par_value)
        assert kept and problem is None
    daily.record_day("scopa/standard", today - dt.timedelta(days=5), 3, 1.5)  # long ago: no streak
    scene = open_stats(make_app())
    b, s = row(scene, "daily:briscola/standard"), row(scene, "daily:scopa/standard")
    assert (b.played, b.won, b.lost, b.drawn, b.best, b.streak) == (3, 1, 1, 1, "+9.0", "3 days")
    assert b.mode == "Daily deal" and b.streak_sign == 1 and b.game == "Briscola"
    assert (s.played, s.won, s.best, s.streak, s.streak_sign) == (1, 1, "+1.5", "—", 0)
    # Apart: the matches' totals count only the matches.
    total = scene.rows()[-1]
    assert total.total and total.played == 9
    keys = [r.key for r in scene.rows()]
    assert keys.index("daily:scopa/standard") < keys.index("daily:briscola/standard")  # config order
    app = scene.app
    app.render()
    assert any(r.key.startswith("daily:") for r in scene.shown_rows)
    assert not [(t, w, box) for t, w, box in scene.text_log if w > box]


def test_a_damaged_daily_file_is_said_once_and_the_statistics_open(_private_home):
    from game.services import daily

    daily.daily_path().parent.mkdir(parents=True, exist_ok=True)
    daily.daily_path().write_text("{not json", encoding="utf-8")
    app = make_app("de")
    scene = open_stats(app)
    assert not any(r.key.startswith("daily:") for r in scene.rows())
    assert daily.daily_path().with_name("daily.json.bad").exists()
    assert app.speech.lines.count(app.t("stats.daily_damaged")) == 1  # the toast, read out once
    assert "daily.json.bad" in app.t("stats.daily_damaged") != "stats.daily_damaged"


@pytest.mark.parametrize("lang,caller", [("en", "As caller"), ("it", "Da chiamante")])
def test_deals_by_role_have_their_own_rows_apart_from_the_matches_totals(lang, caller):
    """A game whose seats play roles (Briscola chiamata): a row per role played, in the game's
    order, summed over its variants — deals, won (a contract made as caller), lost, neither."""
    some_results()
    mine = {"caller": {"deals": 3, "won": 2, "lost": 1, "points": 2}, "defender": {"deals": 6, "won": 4, "lost": 2}}
    stats.record_result("chiamata", "versus", "won", 3, roles=mine)
    stats.record_result("chiamata", "versus", "lost", 1, roles={"caller": {"deals": 1, "lost": 1}}, variant="cappotto")
    scene = open_stats(make_app(lang))
    keys = [r.key for r in scene.rows()]
    assert [k for k in keys if k.startswith("role:")] == ["role:chiamata/caller", "role:chiamata/defender"]
    c, d = row(scene, "role:chiamata/caller"), row(scene, "role:chiamata/defender")
    assert (c.played, c.won, c.lost, c.drawn, c.mode) == (4, 2, 2, 0, caller)
    assert (d.played, d.won, d.lost, d.drawn) == (6, 4, 2, 0)
    assert row(scene, "all").played == 11  # the matches only: 9 before, and the two here
    scene.app.render()
    assert any(r.key.startswith("role:") for r in scene.shown_rows)
    assert not [(t, w, box) for t, w, box in scene.text_log if w > box]


def test_a_finished_table_match_counts_the_players_deals_by_role():
    """The table's end of a match (scenes.table.keeping) passes the match's deals to the
    statistics: a Briscola chiamata match of five deals adds its player's deals by role."""
    from types import SimpleNamespace

    from game.services.session import Session
    from scenes.table.keeping import MatchKeeping

    s = Session.new("chiamata", "piacentine", 5, {"deals": 5}, seed=3, human_seat=2, threaded=False)
    s.start()
    while not s.over:
        if s.human_to_act:
            s.submit(s.legal_actions()[0])
        else:
            s.poll()
    toasts: list[str] = []
    app = SimpleNamespace(toast=toasts.append, t=lambda k, **_: k, settings=SimpleNamespace(replays_kept=0))
    MatchKeeping(app, s).finish_match()  # type: ignore[arg-type]
    assert not toasts
    got = stats.load_stats()[0]["chiamata/versus"]
    ends = [e for e in s.match.events if e["event"] == "deal_end"]
    assert got.played == 1 and sum(c["deals"] for c in got.roles.values()) == sum(
        e["detail"]["caller"] is not None for e in ends
    )
    assert sum(c["points"] for c in got.roles.values()) == s.match.totals[2]
