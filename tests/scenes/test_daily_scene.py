"""The daily deal and duplicate deals in the window (issue 31): reached from every game's
block on the games screen, played at a table, scored on the results screen, kept in the
daily calendar and not in the statistics or over the saved match."""
from __future__ import annotations

import datetime as dt

import pytest

import game.par
from game import saves
from game.config import get_config
from game.daily import calendar, load_days
from game.i18n import I18n
from game.settings import Settings
from game.stats import load_stats
from scenes.app import TICK, App

CFG = get_config()


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.par, "HOUSE_ITERATIONS", 8)


def make_app(lang: str = "en") -> App:
    return App(CFG, Settings(language=lang, animation_speed="instant", ai_level="easy"), I18n(lang), window=False)


def widget(scene, name: str):
    return next(w for w in scene.ui.widgets if getattr(w, "name", None) == name)


def play_out(app: App) -> None:
    """Play the table's match to its end with the greedy bot in the human's seat, then let
    the table notice (the controller's tick) and show the results."""
    from game.ai.bots import make_bot

    table = app.stack.find("table")
    s = table.session
    helper = make_bot("greedy", s.rules, s.human_seat, 1)
    for _ in range(5000):
        if s.over:
            break
        if s.human_to_act:
            table.controller.submit(helper.choose(s.view(), s.legal_actions()))
        app.update(TICK)
    for _ in range(400):
        app.update(TICK)
        if app.stack.top.name == "results":
            break


@pytest.mark.parametrize("gid", list(CFG.games))
def test_every_game_block_opens_its_daily_deals(gid):
    app = make_app()
    deck = next(d for d in CFG.decks.values() if gid in d.games)
    app.open_path("games", deck=deck.id, game=gid)
    app.update(TICK)
    widget(app.stack.top, f"daily:{gid}").on_click()
    app.update(TICK)
    top = app.stack.top
    assert top.name == "daily" and top.game == gid
    assert {"today", "duplicate", "game", "preset", "back"} <= {w.name for w in top.ui.widgets}


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it"])
def test_the_daily_screen_draws_in_every_language(lang):
    app = make_app(lang)
    app.open_path("daily", game="scopa")
    app.update(TICK)
    app.render(1.0)
    assert app.t("daily.title") != "daily.title"


def test_todays_deal_is_scored_against_par_and_kept_apart(_private_home):
    from game.session import Session

    ordinary = Session.new("scopa", None, 2, None, 5, threaded=False)
    ordinary.start()
    assert saves.save_match(ordinary.to_save()) is None  # a match in progress, which must stay
    app = make_app()
    app.open_path("daily", game="briscola")
    app.update(TICK)
    before = saves.save_path().read_bytes()
    widget(app.stack.top, "today").on_click()
    app.update(TICK)
    table = app.stack.top
    assert table.name == "table"
    s = table.session
    assert s.context.kind == "daily" and s.match.deal_limit == 1 and s.human_seat == 0
    assert s.match.seed == s.context.daily.deal.seed
    play_out(app)
    res = app.stack.top
    assert res.name == "results"
    notes = " ".join(res.model().notes)
    assert "par" in notes and "over par" in notes
    # The day is kept in the calendar, not in the statistics; no saved match was written.
    key = "briscola/standard"
    days, _ = load_days()
    today = dt.date.today().isoformat()
    assert today in days[key] and days[key][today]["par"] == round(s.context.par.value, 3)
    assert calendar(key).streak == 1
    assert load_stats()[0] == {}
    assert saves.save_path().read_bytes() == before
    # Back to the daily screen, which now offers practice.
    widget(res, "new_match").on_click()
    app.update(TICK)
    assert app.stack.top.name == "daily"
    assert widget(app.stack.top, "today").label() == app.t("daily.play_again")


def test_a_duplicate_deal_is_played_twice_with_the_cards_swapped():
    app = make_app()
    app.open_path("daily", game="schnapsen")
    app.update(TICK)
    widget(app.stack.top, "duplicate").on_click()
    app.update(TICK)
    first = app.stack.top.session
    assert first.context.kind == "duplicate" and first.human_seat == 0
    play_out(app)
    res = app.stack.top
    assert res.name == "results" and widget(res, "new_match").label() == app.t("duplicate.second_half")
    widget(res, "new_match").on_click()
    app.update(TICK)
    second = app.stack.find("table").session
    assert second is not first and second.human_seat == 1 and second.seed == first.seed
    deal1 = next(e for e in first.match.events if e["event"] == "deal")
    deal2 = next(e for e in second.match.events if e["event"] == "deal")
    assert deal1["hands"] == deal2["hands"]  # the same cards, seat for seat: the human now holds seat 1's
    play_out(app)
    res = app.stack.top
    notes = res.model().notes
    assert any(app.t("duplicate.total", diff="")[:10] in n for n in notes)
    both = next(n for n in notes if n.startswith("First half"))
    assert "Second half" in both  # the two halves side by side on one line
    assert load_stats()[0] == {}
