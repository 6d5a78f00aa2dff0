"""The daily deal and duplicate deals in the window: reached from every game's
block on the games screen, played at a table, scored on the results screen, kept in the
daily calendar and not in the statistics or over the saved match."""

from __future__ import annotations

import datetime as dt

import pytest

import game.services.par
from game.config import get_config
from game.services import saves
from game.services.daily import calendar, load_days
from game.services.i18n import I18n
from game.services.settings import Settings
from game.services.stats import load_stats
from scenes.app import TICK, App

CFG = get_config()


@pytest.fixture(autouse=True)
def small_par(monkeypatch):
    monkeypatch.setattr(game.services.par, "PAR_ITERATIONS", 8)
    monkeypatch.setattr(game.services.par, "PAR_RUNS", 2)
    monkeypatch.setattr(game.services.par, "HOUSE_ITERATIONS", 8)


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


#: The difference to par and the streak in words, in each language: (under, over, level, one day, days).
PAR_WORDS = {
    "en": ("20.3 under par", "1.4 over par", "at par", "Streak: 1 day", "Streak: 3 days"),
    "nl": ("20.3 onder par", "1.4 boven par", "precies par", "Reeks: 1 dag", "Reeks: 3 dagen"),
    "de": ("20.3 unter Par", "1.4 über Par", "genau Par", "Serie: 1 Tag", "Serie: 3 Tage"),
    "it": ("20.3 sotto il par", "1.4 sopra il par", "pari al par", "Serie: 1 giorno", "Serie: 3 giorni"),
}


@pytest.mark.parametrize("lang", list(PAR_WORDS))
def test_under_par_and_a_one_day_streak_read_as_words(lang):
    t = I18n(lang).t
    under, over, level, one, three = PAR_WORDS[lang]
    assert game.services.par.par_words(t, 5, 25.3) == under  # not "−20.3 over par"
    assert game.services.par.par_words(t, 5, 3.6) == over
    assert game.services.par.par_words(t, 4, 4.04) == level
    assert t("daily.streak", count=1) == one and t("daily.streak", count=3) == three
    line = t("daily.result", score=5, par="25.3", diff=game.services.par.par_words(t, 5, 25.3))
    assert line.endswith(under) and "−" not in line


def test_the_calendar_has_weekdays_and_months():
    from scenes.daily import calendar_days, date_words, month_span

    days = calendar_days(dt.date(2026, 3, 4))  # a Wednesday
    # Four weeks, Monday to Sunday, the last one this week.
    assert len(days) == 28 and days[0] == dt.date(2026, 2, 9) and days[-1] == dt.date(2026, 3, 8)
    assert {d.weekday() for d in days[::7]} == {0}
    assert calendar_days(dt.date(2026, 3, 8))[-1] == dt.date(2026, 3, 8)  # a Sunday ends its own grid
    words = {
        "en": ("February – March 2026", "1 March", "December 2025 – January 2026", "Mon"),
        "nl": ("februari – maart 2026", "1 maart", "december 2025 – januari 2026", "ma"),
        "de": ("Februar – März 2026", "1. März", "Dezember 2025 – Januar 2026", "Mo"),
        "it": ("febbraio – marzo 2026", "1 marzo", "dicembre 2025 – gennaio 2026", "lun"),
    }
    for lang, (span, first, new_year, monday) in words.items():
        t = I18n(lang).t
        assert month_span(t, days) == span
        assert month_span(t, [dt.date(2026, 3, 2), dt.date(2026, 3, 8)]).endswith("2026")
        assert date_words(t, dt.date(2026, 3, 1)) == first
        assert month_span(t, [dt.date(2025, 12, 29), dt.date(2026, 1, 4)]) == new_year
        assert t("daily.weekday.1") == monday


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_drawn_calendar_names_its_weekdays_and_months(lang):
    from sprites import theme

    app = make_app(lang)
    app.open_path("daily", game="scopa")
    app.update(TICK)
    with theme.measure_text() as m:
        app.render(1.0)
    drawn = {e[0] for e in m.entries}
    assert {app.t(f"daily.weekday.{d}") for d in range(1, 8)} <= drawn
    today = dt.date.today()
    assert any(app.t(f"daily.month.{today.month}") in s and str(today.year) in s for s in drawn)
    assert app.t("daily.streak", count=0) in " ".join(drawn)
    assert not m.overflows


def test_todays_deal_is_scored_against_par_and_kept_apart(_private_home):
    from game.services.session import Session

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
    ctx = s.context
    words = game.services.par.par_words(app.t, ctx.score, ctx.par.value)
    assert app.t("daily.result", score=ctx.score, par=f"{ctx.par.value:.1f}", diff=words) in res.model().notes
    assert words.endswith(("over par", "under par")) or words == "at par"
    assert "−" not in notes  # the difference in words, never "−20.3 over par"
    # The day is kept in the calendar, not in the statistics; no saved match was written.
    key = "briscola/standard"
    days, _ = load_days()
    today = dt.date.today().isoformat()
    assert today in days[key] and days[key][today]["par"] == round(s.context.par.value, 3)
    assert calendar(key).streak == 1
    assert "Streak: 1 day" in res.model().notes  # the results say where the calendar stands
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
    # One deal: its outcome in a deal's words; the halves table has the first half only.
    assert res.verdict()[0] in {app.t(f"one_deal.deal_{k}") for k in ("won", "draw")} | {
        app.t("one_deal.deal_lost", name=n) for n in ("North",)
    }
    half1 = first.context.scores[1]
    table = res.halves()
    assert table.columns == [app.t("duplicate.col_half1"), app.t("duplicate.col_half2"), app.t("duplicate.col_total")]
    assert table.rows[0] == (app.t("duplicate.side_player"), [f"{half1[0]:g}", "—", "—"])
    assert table.rows[1] == (app.t("duplicate.side_computer"), [f"{half1[1]:g}", "—", "—"])
    widget(res, "new_match").on_click()
    app.update(TICK)
    second = app.stack.find("table").session
    assert second is not first and second.human_seat == 1 and second.seed == first.seed
    deal1 = next(e for e in first.match.events if e["event"] == "deal")
    deal2 = next(e for e in second.match.events if e["event"] == "deal")
    assert deal1["hands"] == deal2["hands"]  # the same cards, seat for seat: the human now holds seat 1's
    play_out(app)
    res = app.stack.top
    ctx = second.context
    assert app.t("duplicate.next") not in res.model().notes
    # Both halves side by side, per side: half 1 | half 2 | total, then the difference.
    (you, mine), (them, theirs), (_, diff) = res.halves().rows
    (m1, t1), (m2, t2) = ctx.scores[1], ctx.scores[2]
    assert mine == [f"{m1:g}", f"{m2:g}", f"{m1 + m2:g}"] and theirs == [f"{t1:g}", f"{t2:g}", f"{t1 + t2:g}"]
    assert diff[2] == game.services.par.over_par(ctx.total, 0) == game.services.par.over_par(m1 - t1 + m2 - t2, 0)
    verdict = "draw" if round(ctx.total, 1) == 0 else "won" if ctx.total > 0 else "lost"
    assert res.verdict() == (app.t(f"duplicate.{verdict}"), {"won": "win", "lost": "loss"}.get(verdict, verdict))
    # No match total on a one-deal record's results (nor "wins the match" anywhere).
    assert all(r.kind != "match" for r in res.model().rows)
    # The score sheet shows the two halves, each with the player's side first.
    widget(res, "sheet").on_click()
    app.update(TICK)
    sheet = app.stack.top
    assert sheet.name == "scoresheet"
    assert [g.heading for g in sheet.groups()] == [
        app.t("duplicate.sheet_half", n=1),
        app.t("duplicate.sheet_half", n=2),
    ]
    game_points = next(per for label, kind, per in sheet.cells() if label == app.t("results.schnapsen.game_points"))
    assert game_points == [[str(m1), f"{t1:g}"], [str(m2), f"{t2:g}"]]
    app.render(1.0)
    assert load_stats()[0] == {}


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it"])
def test_a_one_deal_record_ends_in_a_deals_words(lang):
    """A daily deal (a record of one deal) ends as a deal, not a match: the results' title,
    the table's end panel and the play log say the deal's outcome, in every language."""
    from game.services.challenge import DailyPlay
    from game.services.daily import daily_deal
    from scenes.table.narrate import narrate

    app = make_app(lang)
    play = DailyPlay(daily_deal("scopa"), threaded=False)
    s = play.session(threaded=False)
    app.open_scene("table", session=s, fresh=True)
    play_out(app)
    res = app.stack.top
    assert res.name == "results" and res.single_deal
    title = res.verdict()[0]
    words = {app.t(f"one_deal.deal_{k}") for k in ("won", "draw")} | {
        app.t("one_deal.deal_lost", name=n) for n in names_as_subject(app, s)
    }
    assert title in words
    assert all(r.kind != "match" for r in res.model().rows)
    told = narrate(s.match.events, s.rules, app.t, lang, 0)
    last = told.deal.lines[-1].text
    assert last in {app.t(f"one_deal.log_{k}") for k in ("won_you", "draw")} | {
        app.t("one_deal.log_won", name=told.name(1))
    }
    app.render(1.0)
    assert any(
        text == app.t("one_deal.deal_over", game=s.rules.game.name.get(lang, s.rules.game.name["en"]))
        for text, _, _ in res.text_log
    )


def names_as_subject(app, session) -> list[str]:
    from scenes.names import team_names

    return team_names(app.t, session.rules.players, session.human_seat, subject=True, team_of=session.rules.team_of)


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it"])
def test_a_duplicates_results_fit_the_screen_with_both_halves(lang):
    """The longest breakdown (Cìcera's) with the halves beneath it: the panel stays on the
    screen and no text is wider than its box."""
    from game.ai.bots import make_bot
    from game.services.challenge import DuplicatePlay
    from game.services.daily import daily_deal
    from sprites import theme

    app = make_app(lang)
    d = daily_deal("cicera").deal
    play = DuplicatePlay(d.game, d.deck, d.players, dict(d.options), d.seed, "greedy")
    for half in (1, 2):
        s = play.session(half, threaded=False)
        helper = make_bot("greedy", s.rules, s.human_seat, 1)
        s.start()
        while not s.over:
            if s.human_to_act:
                s.submit(helper.choose(s.view(), s.legal_actions()))
            else:
                s.poll()
        play.finished(s)
    ends = [e for e in s.match.events if e["event"] in ("deal_end", "match_end")]
    app.open_path("daily")
    app.open_scene("table", session=s)
    app.open_scene("results", session=s, deal_end=ends[0], match_end=ends[-1])
    app.update(TICK)
    res = app.stack.top
    assert res.name == "results" and res.halves() is not None and play.total is not None
    assert 0 <= res.rect.top and res.rect.bottom <= 720
    with theme.measure_text() as m:
        app.render(1.0)
    assert not m.overflows, m.overflows
    assert all(w <= box for _, w, box in res.text_log), [t for t in res.text_log if t[1] > t[2]]
    game_name = s.rules.game.name.get(lang, s.rules.game.name["en"])
    assert app.t("duplicate.caption", game=game_name, n=2) in [text for text, _, _ in res.text_log]


def test_a_duplicate_deal_with_the_house_rules_chosen_on_the_games_screen():
    """A duplicate deal for every house rule: the games screen's own choices (here a custom
    Scopa with Napola, three players) are one more entry of the duplicate's rules; today's
    deal stays one per preset."""
    app = make_app("it")
    deck = next(d for d in CFG.decks.values() if "scopa" in d.games)
    app.open_path("games", deck=deck.id, game="scopa")
    app.update(TICK)
    games = app.stack.top
    p = next(q for q in games.panels if q.game.id == "scopa")
    games._set_players(p, 3)
    games._set_rule(p, "napola", True)
    widget(games, "daily:scopa").on_click()
    app.update(TICK)
    daily = app.stack.top
    assert daily.name == "daily" and daily.table["options"]["napola"] is True
    values = dict(daily.preset_choice.options)
    assert "table" in values and "Napola" in values["table"]() and "3" in values["table"]()
    daily._set_preset("table")
    today = widget(daily, "today")
    assert not today.enabled
    today.on_click()  # even called: the day's deal is one per preset, nothing opens
    app.update(TICK)
    assert app.stack.top is daily
    app.render(1.0)
    widget(daily, "duplicate").on_click()
    app.update(TICK)
    s = app.stack.top.session
    assert s.context.kind == "duplicate" and s.rules.players == 3 and s.rules.options["napola"] is True
    # Another game on the daily screen forgets the games screen's Scopa choices.
    app.stack.pop()
    daily.set_game("briscola")
    assert daily.table is None and "table" not in dict(daily._preset_values())
