"""The table tells the story, driven by keys and by the mouse like a player: the
caption and the play log of a seeded deal in four languages, every computer play visible
for at least 0.8 s at Normal speed with its seat's plate lit, a finished trick that waits
for a click, the review of the last trick and of your own pile, the log after a resume,
the score sheet from the table and from the results screen, the HUD's trump and stock,
the running tally, the settings and ``--overlay``."""

from __future__ import annotations

import pygame
import pytest

from game.games.schnapsen.vocabulary import CLOSE
from game.services import saves
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes import names
from scenes.app import TICK
from scenes.table import board, hud
from scenes.table.narrate import Trick, narrate
from scenes.table.overlays import LogPanel, PilePanel, ReviewPanel
from scenes.table.sheet import SheetPanel
from tests.scenes.test_table import click, free_felt_point, key, keyboard_play, make_app, table

LANGS = ("en", "nl", "de", "it")
PLAYS = {"en": "plays", "nl": "speelt", "de": "spielt", "it": "gioca"}


def play_until(app, scene, done, max_ticks: int = 6000, choose=lambda legal: legal[0]) -> None:
    """Tick the table, the human playing ``choose(legal)`` by keys, until ``done()``."""
    for _ in range(max_ticks):
        if done():
            return
        if app.stack.top is scene and scene.controller.can_act:
            keyboard_play(app, scene, choose(scene.session.legal_actions()))
        app.update(TICK)
    raise AssertionError("the table never got there")


def settle(app, n: int = 30) -> None:
    for _ in range(n):
        app.update(TICK)


def bot_plays(scene) -> list[dict]:
    return [e for e in scene.story.shown_events() if e["event"] == "play" and e["seat"] != scene.human]


# ---------------------------------------------------------------------- captions and the log
GOLDEN_EN = [
    "Deal 1: you deal. On the table: the King of Coins, the 5 of Swords, the Knight of Swords, the 6 of Coins.",
    "North plays the 4 of Swords.",
    "You play the Knight of Batons and take the Knight of Swords.",
    "North plays the Knave of Cups.",
    "You play the 4 of Coins and take the 4 of Swords.",
    "North plays the 7 of Coins.",
    "You play the 3 of Cups.",
    "New hands are dealt; 24 cards are left in the stock.",
    "North plays the 7 of Cups and takes the 7 of Coins.",
]


@pytest.mark.parametrize("lang", LANGS)
def test_the_caption_and_the_log_tell_a_seeded_deal(lang):
    app = make_app(lang)
    scene = table(app, "scopa", players=2, seed=21, moves=0)

    def three_of_mine() -> bool:
        return (
            sum(1 for e in scene.story.shown_events() if e["event"] == "play" and e["seat"] == 0) >= 3
            and scene.motion.idle
        )

    play_until(app, scene, three_of_mine)
    last = bot_plays(scene)[-1]
    t = app.t
    card = names.card_name(t, scene.deck, lang, last["card"])
    north = names.seat_name(t, last["seat"], 0, 2, True)
    # The caption says who played what, in the language, with the deck's own card names.
    caption = scene.motion.caption
    assert caption.startswith(north) and card in caption and PLAYS[lang] in caption
    for c in last["capture"]:
        assert names.card_name(t, scene.deck, lang, c) in caption or scene.motion.narrator.rank(c) in caption
    # L opens the log: the deal's plays in words, newest last, with the running score.
    key(app, pygame.K_l)
    log = app.stack.top
    assert isinstance(log, LogPanel)
    app.render()
    texts = log.visible_texts()
    plays = [ln for ln in log.lines() if ln.kind in ("play", "place", "capture")]
    assert len(plays) == sum(1 for e in scene.story.shown_events() if e["event"] == "play")
    assert texts[-1] == log.lines()[-1].text and card in texts[-1]
    assert any(ln.score for ln in plays if ln.kind == "capture")
    if lang == "en":
        assert [ln.text for ln in log.lines()] == GOLDEN_EN
        assert log.lines()[-1].score == "You 4  ·  North 2"
    # Scrolling: PgUp and the wheel move up, End goes back to the newest line.
    key(app, pygame.K_PAGEUP)
    app.stack.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, pos=(640, 360)))
    assert log.offset == 0 or log.max_offset() == 0 or log.offset < log.max_offset()
    key(app, pygame.K_END)
    assert log.offset == log.max_offset()
    key(app, pygame.K_l)  # L again closes it
    assert app.stack.top is scene


def test_the_log_button_opens_the_log_and_the_log_scrolls_a_long_deal():
    app = make_app()
    scene = table(app, "briscola", players=4, seed=12, moves=0)
    play_until(app, scene, lambda: len(bot_plays(scene)) >= 18)
    click(app, scene.story.buttons["log"].rect.center)
    log = app.stack.top
    assert isinstance(log, LogPanel)
    app.render()
    assert log.max_offset() > 0 and log.offset == log.max_offset()  # opened at the newest line
    newest = log.visible_texts()
    key(app, pygame.K_HOME)
    assert log.offset == 0 and log.visible_texts()[0].startswith("Deal 1") and log.visible_texts() != newest
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene


# ---------------------------------------------------------------------- pace
@pytest.mark.parametrize("game,players", [("scopa", 4), ("briscola", 4), ("tressette", 2)])
def test_every_computer_play_rests_on_the_table_with_its_plate_lit(game, players):
    app = make_app(speed="normal")
    scene = table(app, game, players=players, seed=7, moves=0)
    m = scene.model

    def snapshot():
        return (tuple(m.table), tuple(m.trick), tuple(m.piles), tuple(len(h) for h in m.hands))

    seen = 0
    prev = snapshot()
    start: tuple[int, float, str] | None = None  # (seat, time, caption) of a computer play being shown
    clock = 0.0
    for _ in range(20000):
        if seen >= 10:
            break
        if scene.controller.can_act:
            keyboard_play(app, scene, scene.session.legal_actions()[0])
        app.update(TICK)
        clock += TICK
        now = snapshot()
        if now == prev:
            if start is not None and scene.motion.caption == start[2] and not scene.motion.idle:
                assert scene._active_seat() == start[0]  # the acting seat's plate is lit meanwhile
            continue
        if start is not None:
            assert clock - start[1] >= 0.8 - 1e-6, f"the table changed {clock - start[1]:.2f} s after a play"
            start = None
        played = [
            s for s in range(players) if s != scene.human and now[3][s] < prev[3][s] and sum(now[3]) == sum(prev[3]) - 1
        ]
        if played:
            start = (played[0], clock, scene.motion.caption)
            seen += 1
            who = scene.names.seat_name(played[0], subject=True)
            assert scene.motion.caption.startswith(who) and scene._active_seat() == played[0]
        prev = now
    assert seen >= 10


# ---------------------------------------------------------------------- a finished trick
def test_a_finished_trick_waits_for_a_click_or_a_key():
    app = make_app(trick_hold="click")
    scene = table(app, "briscola", players=2, seed=41, moves=0)
    play_until(app, scene, lambda: scene.motion.waiting)
    assert len(scene.model.trick) == 2 and not scene.controller.can_act and not scene.motion.idle
    settle(app, 600)  # ten seconds: it stays
    assert scene.motion.waiting and len(scene.model.trick) == 2
    app.render()
    click(app, free_felt_point(scene))
    settle(app, 5)
    assert not scene.motion.waiting and len(scene.model.trick) < 2
    # The next one: Enter gathers it (and plays nothing); Esc would pause instead.
    play_until(app, scene, lambda: scene.motion.waiting)
    before = list(scene.controller.submitted)
    key(app, pygame.K_ESCAPE)
    assert app.stack.top.name == "pause" and scene.motion.waiting
    app.stack.pop()
    key(app, pygame.K_RETURN)
    settle(app, 5)
    assert not scene.motion.waiting and scene.controller.submitted == before


def test_a_timed_trick_stays_its_time_unless_clicked():
    app = make_app(speed="normal")  # the default: 1.5 s
    scene = table(app, "briscola", players=2, seed=41, moves=0)
    play_until(app, scene, lambda: scene.motion.trick_shown)
    ticks = 0
    while scene.motion.trick_shown:
        app.update(TICK)
        ticks += 1
    assert ticks * TICK >= 1.5 - TICK
    play_until(app, scene, lambda: scene.motion.trick_shown and scene.motion.hold > 0.5)
    click(app, free_felt_point(scene))
    settle(app, 2)
    assert not scene.motion.trick_shown


# ---------------------------------------------------------------------- reviews
def test_t_shows_the_last_trick_and_a_click_on_a_pile_shows_what_it_took():
    app = make_app()
    scene = table(app, "briscola", players=2, seed=43, moves=0)
    play_until(
        app,
        scene,
        lambda: sum(e["event"] == "trick" for e in scene.story.shown_events()) >= 3 and scene.controller.can_act,
    )
    tricks = [e for e in scene.story.shown_events() if e["event"] == "trick"]
    key(app, pygame.K_t)
    review = app.stack.top
    assert isinstance(review, ReviewPanel)
    take = review.take()
    assert isinstance(take, Trick) and [c for _, c in take.cards] == tricks[-1]["cards"]
    assert take.winner == tricks[-1]["winner"]
    app.render()
    key(app, pygame.K_SPACE)  # any key closes it
    assert app.stack.top is scene and scene.controller.can_act
    # A click on the other pile: the last trick that went there (if it took one).
    other = 1 - scene.human_team
    click(app, scene.layout.pile(other).bounds(scene.deck.aspect).center)
    review = app.stack.top
    assert isinstance(review, ReviewPanel) and review.team == other
    theirs = [e for e in tricks if e["winner"] == other]
    got = review.take()
    assert (got is None) == (not theirs) and (got is None or [c for _, c in got.cards] == theirs[-1]["cards"])
    app.render()
    click(app, (5, 5))
    # A click on your own pile fans the cards your side has won.
    click(app, scene.layout.pile(scene.human_team).bounds(scene.deck.aspect).center)
    pile = app.stack.top
    assert isinstance(pile, PilePanel)
    mine = sorted(c for e in tricks if e["winner"] == scene.human_team for c in e["cards"])
    assert sorted(pile.story.deal.piles[scene.human_team]) == mine
    app.render()
    key(app, pygame.K_t)  # T from the pile: the last trick
    assert isinstance(app.stack.top, ReviewPanel)
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene


def test_your_pile_in_a_capture_game_with_the_running_tally():
    app = make_app(running_tally=True)
    scene = table(app, "cicera", players=4, deck="bresciane", seed=31, moves=0)
    play_until(
        app, scene, lambda: sum(len(p) for p in scene.motion.narrator.deal.piles) >= 8 and scene.controller.can_act
    )
    deal = scene.motion.narrator.deal
    tally = scene.rules.tally(deal.piles, deal.bonuses)
    notes = [row[3] for row in hud.score_rows(scene.view())]
    for team, note in enumerate(notes):
        assert app.t("story.tally_now", points=tally.points[team]) in note
    click(app, scene.layout.pile(scene.human_team).bounds(scene.deck.aspect).center)
    pile = app.stack.top
    assert isinstance(pile, PilePanel)
    rows = pile.tally_rows()
    assert rows and [c.text for c in rows[-1].cells] == [str(p) for p in tally.points]
    app.render()
    key(app, pygame.K_ESCAPE)
    app.set_setting("running_tally", False)
    assert all("+" not in row[3] for row in hud.score_rows(scene.view()))


# ---------------------------------------------------------------------- resume
def test_the_log_survives_a_resume():
    from tests.scenes.test_resume import leave_a_match

    app = make_app("it")
    left = leave_a_match(app, "briscola", 2, moves=8, seed=5)
    before = [ln.text for d in narrate(left.match.events, left.rules, app.t, "it", 0).deals for ln in d.lines]
    menu = app.stack.top
    key(app, pygame.K_RETURN)  # Continue
    resumed = app.stack.top
    assert resumed.name == "table" and resumed.session is not left
    settle(app, 3)
    key(app, pygame.K_l)
    log = app.stack.top
    assert isinstance(log, LogPanel)
    assert [ln.text for d in log.story.deals for ln in d.lines] == before
    assert log.lines()[-1].text == before[-1]
    assert menu is not resumed and saves.load_match() is not None


# ---------------------------------------------------------------------- the score sheet
def test_the_score_sheet_from_the_table_and_from_the_results_screen():
    app = make_app()
    scene = table(app, "scopa", players=2, seed=21, moves=0)
    play_until(app, scene, lambda: app.stack.top is not scene and app.stack.top.name == "results")
    results = app.stack.top
    settle(app, 90)  # past the results screen's input guard
    deal_end = [e for e in scene.session.match.events if e["event"] == "deal_end"][0]
    click(app, next(w for w in results.ui.widgets if w.name == "sheet").rect.center)
    sheet = app.stack.top
    assert isinstance(sheet, SheetPanel)
    cells = sheet.cells()
    labels = [c[0] for c in cells]
    assert labels[-2:] == [app.t("results.deal_points"), app.t("results.match_total_to", target=11, count=11)]
    assert cells[-2][2][0] == [str(p) for p in deal_end["points"]]
    assert cells[-1][2][0] == [str(v) for v in deal_end["totals"]]
    settle_detail = deal_end["detail"]
    for (label, _kind, per_deal), field in zip(cells, ("cards", "coins", "settebello", "primiera", "scope")):
        want = [("✓" if v else "–") if field == "settebello" else (str(v) if v else "–") for v in settle_detail[field]]
        assert per_deal[0] == want, label
    app.render()
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is results
    results.continue_()
    settle(app, 5)
    assert app.stack.top is scene
    key(app, pygame.K_s)
    assert isinstance(app.stack.top, SheetPanel) and len(app.stack.top.deal_ends()) == 1
    key(app, pygame.K_s)
    click(app, scene.story.buttons["sheet"].rect.center)
    assert isinstance(app.stack.top, SheetPanel)
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene


# ---------------------------------------------------------------------- the HUD
def test_the_trump_suit_stays_named_after_a_close_and_the_stock_says_how_many_are_left(monkeypatch):
    app = make_app()
    scene = table(app, "schnapsen", players=2, seed=4, moves=1, close_stock=True)
    chips, labels = [], []
    real_chip, real_stack = board.trump_chip, board.stack
    monkeypatch.setattr(
        board, "trump_chip", lambda surface, s, P, suit, pos: chips.append(suit) or real_chip(surface, s, P, suit, pos)
    )
    monkeypatch.setattr(
        board,
        "stack",
        lambda P, surface, place, count, label=None, **kw: (
            labels.append(label) or real_stack(P, surface, place, count, label, **kw)
        ),
    )
    app.render()
    m = scene.model
    assert chips == [m.trump_suit] and m.trump_suit
    assert app.t("story.stock_left", count=m.stock_count) in labels
    play_until(app, scene, lambda: m.closed, choose=lambda legal: CLOSE if CLOSE in legal else legal[0])
    chips.clear()
    labels.clear()
    app.render()
    assert chips == [m.trump_suit] and app.t("table.stock_closed") in labels
    assert app.t("story.trumps")


def test_whose_turn_is_shown_while_a_bot_thinks_and_while_its_play_is_shown():
    app = make_app(speed="normal")
    scene = table(app, "briscola", players=2, seed=8, moves=0)
    lit = set()
    for _ in range(600):
        if scene.controller.can_act:
            keyboard_play(app, scene, scene.session.legal_actions()[0])
        app.update(TICK)
        lit.add(scene._active_seat())
    assert {0, 1} <= lit


# ---------------------------------------------------------------------- settings and --overlay
def test_the_new_settings_are_kept_and_checked():
    s = Settings.from_json({"trick_hold": "click", "running_tally": True})
    assert s.trick_hold == "click" and s.running_tally is True
    bad = Settings.from_json({"trick_hold": "forever", "running_tally": "yes"})
    assert bad.trick_hold == "timed" and bad.running_tally is False
    app = make_app()
    app.open_path("settings")
    panel = app.stack.top
    choice = next(w for w in panel.ui.widgets if w.name == "trick_hold")
    assert choice.visible
    panel.ui.focus(choice)
    key(app, pygame.K_RIGHT)
    assert app.settings.trick_hold != "timed"
    app.render()


@pytest.mark.parametrize("overlay", ["log", "review", "pile", "sheet"])
def test_a_screenshot_can_show_each_panel(overlay, tmp_path):
    from scenes.launch import main

    out = tmp_path / f"{overlay}.png"
    assert (
        main(["--screenshot", str(out), "--scene", "table", "--game", "briscola", "--seed", "5", "--overlay", overlay])
        == 0
    )
    assert out.stat().st_size > 10000


def test_a_screenshot_opens_the_panel_over_the_table():
    app = make_app()
    app.open_path("table", game="scopa", players=2, seed=5, overlay="log")
    top = app.stack.top
    assert isinstance(top, LogPanel) and app.stack.scenes[-2].name == "table"
    assert I18n("en").t("log.title")


# ---------------------------------------------------------------------- every panel fits, everywhere
def _panel_views() -> list[tuple[str, int]]:
    from game.rulesets import game_ids, make_rules

    return [
        (g, n) for g in game_ids() for n in sorted({min(make_rules(g).game.players), max(make_rules(g).game.players)})
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_panel_renders_and_its_text_fits_in_every_game(lang):
    from sprites import theme

    app = make_app(lang, running_tally=True)
    problems = []
    for game, players in _panel_views():
        scene = table(app, game, players=players, seed=9, moves=players * 7)
        for kind in ("log", "review", "pile", "sheet"):
            panel = scene.story.open(kind)
            settle(app, 2)
            with theme.measure_text() as m:
                app.render()
            problems += [f"{game} {players} {kind}: {s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]
            problems += [
                f"{game} {players} {kind}: raw key {s!r}"
                for s, _, _ in m.entries
                if s.split(".")[0] in ("narrate", "log", "review", "sheet", "story") and " " not in s
            ]
            assert app.stack.top is panel
            app.stack.pop()
        with theme.measure_text() as m:
            app.render()  # the table itself: the caption, the trump and stock labels
        problems += [f"{game} {players} table: {s!r} is {w}px in a {box}px box" for s, w, box in m.overflows]
    assert not problems, "\n".join(problems)
