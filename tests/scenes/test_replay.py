"""The replay viewer and watching.

- The viewer steps through records of every registered game forward and back (← / →, Page
  Up / Page Down, Home / End, Space and the speed), and at every position the table it shows
  (its TableModel) is the state the rules core rebuilds from the record (make_rules +
  state_from_deal + action_from_record + apply), its caption and log are narrate's of the
  lines shown so far, every hand face up or one seat's.
- Damaged records — cut short, not JSON, a rule broken at line k — open with verify's
  message and can be followed up to where they break, never past it; nothing crashes.
- ``--screenshot FILE --scene replay --record FILE --step N`` and ``main.py replay FILE``.
- A record dropped on the window opens in the viewer; the results screen watches the match
  again and saves its record (never over a file unasked); the menu lists the kept matches;
  a watched match of computers grows in the viewer; open hands practice shows the computer's
  cards and counts as practice.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pygame
import pytest

from game.ai.bots import BOTS, make_bot
from game.config import get_config
from game.match import Match
from game.rulesets import game_ids, make_rules
from game.services import replays
from game.services.i18n import I18n
from game.services.settings import Settings
from game.verify import verify_events, verify_file
from scenes.app import TICK, App
from scenes.launch import main as launch
from scenes.registry import make_scene
from scenes.replay import timeline as T
from scenes.table.narrate import narrate
from tests.scenes.test_table_model import check

DECISIONS = ("play", "exchange", "marriage", "close")


# ---------------------------------------------------------------------- helpers
def make_app(lang: str = "en", **settings) -> App:
    return App(
        get_config(),
        Settings(language=lang, animation_speed="instant", **settings),
        I18n(lang),
        window=False,
        persist=False,
    )


def key(app: App, k: int, mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def click(app: App, pos) -> None:
    pos = (int(pos[0]), int(pos[1]))
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def widget(scene, name: str):
    return next(w for w in scene.ui.widgets if w.name == name)


def simulate(game: str, players: int, seed: int) -> list[dict]:
    rules = make_rules(game, None, players)
    bots = [make_bot("random" if s % 2 else "greedy", rules, s, seed + s) for s in range(rules.players)]
    return Match(rules, seed, bots).run()


def record_text(events: list[dict]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def open_viewer(app: App, **params):
    app.open_path("menu")
    app.open_scene("replay", **params)
    app.update(TICK)
    return app.stack.top


def reference(events: list[dict]) -> dict[int, tuple]:
    """The rules core's own account of a record, independent of the table model: for every
    position after which the rules' state is what the table shows (a deal just dealt, a
    decision and all that followed from it), (state, totals). Replayed as the referee does:
    state_from_deal for each deal line, action_from_record + apply for each decision."""
    head = events[0]
    rules = make_rules(head["game"], head["deck"], head["players"], head["options"])
    out: dict[int, tuple] = {}
    totals = rules.initial_totals()
    state = None
    i = 1
    while i < len(events):
        kind = events[i]["event"]
        if kind == "deal":
            state = rules.state_from_deal(events[i])
            i += 1
            out[i] = (rules.clone(state), list(totals))
        elif kind in DECISIONS or kind in {d.name for d in rules.decision_kinds}:
            produced = rules.apply(state, rules.action_from_record(events, i))
            assert [e["event"] for e in produced] == [e["event"] for e in events[i : i + len(produced)]]
            i += len(produced)
            out[i] = (rules.clone(state), list(totals))
        elif kind == "deal_end":
            totals = rules.add_deal(totals, rules.deal_result(state))
            assert totals == events[i]["totals"]
            i += 1
        else:  # redeal, match_end
            i += 1
    return out


def cards_on_the_table(m) -> int:
    """Every card the model shows, wherever it is: no card appears or vanishes in a step."""
    return sum(len(h) for h in m.hands) + len(m.table) + len(m.trick) + m.stock_count + sum(m.piles)


def _cases():
    cfg = get_config()
    for gid in game_ids():
        for n in cfg.games[gid].players:
            yield gid, n


# ---------------------------------------------------------------------- every game, every position
@pytest.mark.parametrize("game,players", list(_cases()))
def test_the_viewer_steps_every_game_forward_and_back_showing_the_rules_state(game, players):
    events = simulate(game, players, seed=7)
    app = make_app()
    scene = open_viewer(app, text=record_text(events))
    tl = scene.timeline
    rules = scene.rules
    assert tl.problem is None and tl.limit == len(events) and tl.finished
    ref = reference(events)
    deck = len(rules.cards)
    key(app, pygame.K_HOME)
    assert scene.pos == 1
    seen = 0
    for direction in (pygame.K_RIGHT, pygame.K_LEFT):
        while True:
            p = scene.pos
            m = scene.model
            if p in ref:
                state, totals = ref[p]
                check(m, state, rules, totals, f"{game} {players}p line {p}")
                seen += 1
            if p > 1 and any(e["event"] == "deal" for e in events[:p]):
                assert cards_on_the_table(m) == deck, f"line {p}"
            key(app, direction)
            if scene.pos == p:  # the end (or the start) was reached: a further key changes nothing
                break
            assert scene.pos == p + (1 if direction == pygame.K_RIGHT else -1)
        assert scene.pos == (len(events) if direction == pygame.K_RIGHT else 1)
    assert seen == 2 * len(ref) and scene.model.match_over is False  # back at the match line
    key(app, pygame.K_END)
    assert scene.model.match_over and scene.model.totals == events[-1]["totals"]


@pytest.mark.parametrize("game", game_ids())
def test_captions_log_and_scores_are_those_of_the_lines_shown_so_far(game):
    events = simulate(game, max(get_config().games[game].players), seed=3)
    app = make_app("it")
    scene = open_viewer(app, events=events)
    rules = scene.rules
    for p in range(1, len(events) + 1, 5):
        scene.go(p)
        # A record without seats is nobody's: its seats are numbered.
        told = narrate(events[:p], rules, app.t, "it", scene.naming_seat)
        said = [ln.caption for ln in told.deal.lines if ln.caption]
        assert scene.caption() == (said[-1] if said and told.deals else None), f"line {p}"
        assert scene.model.totals == told.totals or p < 3
    # The log (L) tells exactly the lines shown, not one more.
    scene.go(len(events) // 2)
    key(app, pygame.K_l)
    log = app.stack.top
    assert app.stack.names()[-2:] == ["replay", ""] and log.events == events[: len(events) // 2]
    assert [ln.text for ln in log.story.deal.lines] == [
        ln.text for ln in narrate(events[: len(events) // 2], rules, app.t, "it", scene.seat).deal.lines
    ]
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_s)  # the score sheet of the deals scored so far
    assert app.stack.top.events == events[: len(events) // 2]


def test_deal_keys_home_end_and_the_timeline_bar():
    events = simulate(game_ids()[0], 2, seed=5)
    app = make_app()
    scene = open_viewer(app, events=events)
    starts = [i + 1 for i, e in enumerate(events) if e["event"] == "deal"]
    assert len(starts) >= 2 and scene.pos == starts[0]  # it opens on the first deal
    for s in starts[1:]:
        key(app, pygame.K_PAGEDOWN)
        assert scene.pos == s
    key(app, pygame.K_PAGEDOWN)
    assert scene.pos == len(events)
    key(app, pygame.K_PAGEUP)
    assert scene.pos == starts[-1]
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_PAGEUP)  # within a deal: back to its first line
    assert scene.pos == starts[-1]
    key(app, pygame.K_HOME)
    assert scene.pos == 1
    key(app, pygame.K_END)
    assert scene.pos == len(events)
    from scenes.replay.view import BAR

    click(app, (BAR.x, BAR.centery))
    assert scene.pos == 1
    click(app, (BAR.centerx, BAR.centery))
    assert abs(scene.pos - len(events) // 2) <= 2


def test_space_plays_and_pauses_and_the_speed_changes_the_pace():
    events = simulate(game_ids()[0], 2, seed=5)
    app = make_app()
    scene = open_viewer(app, events=events)
    start = scene.pos
    for _ in range(round(3 / TICK)):  # paused: nothing moves
        app.update(TICK)
    assert scene.pos == start and not scene.playing
    key(app, pygame.K_SPACE)
    assert scene.playing
    for _ in range(round(10 / TICK)):
        app.update(TICK)
    slow = scene.pos - start
    assert slow >= 3
    key(app, pygame.K_SPACE)
    paused = scene.pos
    for _ in range(round(2 / TICK)):
        app.update(TICK)
    assert scene.pos == paused
    for _ in range(3):
        key(app, pygame.K_PLUS)
    assert scene.speed_text() == "8×"
    key(app, pygame.K_SPACE)
    for _ in range(round(10 / TICK)):
        app.update(TICK)
    assert scene.pos - paused > 3 * slow  # eight times as fast
    widget(scene, "slower").activate()
    assert scene.speed_text() == "4×"
    for _ in range(round(120 / TICK)):
        app.update(TICK)
    assert scene.pos == len(events) and not scene.playing  # it stops at the end


def test_every_hand_face_up_or_only_one_seat_s_and_another_seat_at_the_bottom():
    events = simulate(game_ids()[0], 4 if 4 in get_config().games[game_ids()[0]].players else 2, seed=2)
    app = make_app()
    scene = open_viewer(app, events=events)
    key(app, pygame.K_RIGHT)
    m = scene.model
    from scenes.replay.view import targets

    def faces() -> set[str]:
        return {c for c, (_, face) in targets(scene, m).items() if face}

    others = {c for s, h in enumerate(m.hands) if s != scene.seat for c in h}
    assert others and others <= faces()
    key(app, pygame.K_v)
    assert not scene.open_hands and not (others & faces()) and set(m.hands[scene.seat]) <= faces()
    app.render()
    key(app, pygame.K_TAB)
    assert scene.seat == 1 and scene.layout.side(1) == "bottom"
    assert set(m.hands[1]) <= faces() and not (set(m.hands[0]) & faces())
    widget(scene, "hands").activate()
    assert scene.open_hands
    # A click on a plate sees the table from that seat.
    click(app, scene.layout.plate(3 % m.players).center)
    assert scene.seat == 3 % m.players
    app.render()


# ---------------------------------------------------------------------- damaged records
def _broken_play(events: list[dict]) -> tuple[list[dict], int]:
    """The record with one play changed to a card its seat does not hold; (events, its line)."""
    for i, ev in enumerate(events):
        if ev["event"] == "play" and i > 4:
            deal = next(e for e in reversed(events[:i]) if e["event"] == "deal")
            played = {e.get("card") for e in events[:i]}
            neighbour = deal["hands"][(ev["seat"] + 1) % len(deal["hands"])]
            other = next(c for c in neighbour if c not in played)  # the next seat's, never this one's
            bad = [dict(e) for e in events]
            bad[i]["card"] = other
            return bad, i + 1
    raise AssertionError("no play")


@pytest.mark.parametrize("how", ["truncated", "not_json", "rule", "cut_at_a_line"])
def test_a_damaged_record_opens_with_verify_s_message_and_is_followed_up_to_its_break(how, tmp_path):
    events = simulate(next(g for g in reversed(game_ids()) if 2 in get_config().games[g].players), 2, seed=9)
    lines = record_text(events).splitlines()
    if how == "truncated":
        k = 12
        text = "\n".join(lines[: k - 1] + [lines[k - 1][:17]])
        last = k - 1  # the cut line cannot be shown
    elif how == "not_json":
        k = 9
        text = "\n".join(lines[: k - 1] + ["{not json at all"] + lines[k:]) + "\n"
        last = k - 1
    elif how == "rule":
        bad, k = _broken_play(events)
        text = record_text(bad)
        last = k  # a well-formed line that breaks a rule is shown: it is where the record breaks
    else:
        k = 30
        text = "\n".join(lines[:k]) + "\n"  # cut cleanly after line 30: every line can be shown
        last = k
    path = tmp_path / "damaged.jsonl"
    path.write_text(text, encoding="utf-8")
    verdict = verify_file(str(path))
    assert not verdict.ok and verdict.line == k
    app = make_app()
    scene = open_viewer(app, record=str(path))
    banner = scene.problem_text()
    assert verdict.message in banner and f"line {k}" in banner and f"line {last}" in banner
    key(app, pygame.K_END)
    assert scene.pos == last and scene.at_break()
    key(app, pygame.K_RIGHT)
    assert scene.pos == last  # never past the break
    for _ in range(last + 3):
        key(app, pygame.K_LEFT)
    assert scene.pos == 1
    key(app, pygame.K_SPACE)
    for _ in range(round(60 / TICK)):
        app.update(TICK)
    assert scene.pos == last and not scene.playing
    app.render()  # the banner and the table draw without a fault


@pytest.mark.parametrize("content", [b"", b"\x00\xff\xfe garbage", b"[1, 2, 3]\n", b'{"event": "deal"}\n'])
def test_a_file_that_is_no_record_at_all_opens_with_its_message(content, tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    app = make_app()
    scene = open_viewer(app, record=str(path))
    assert scene.timeline.limit == 0 and scene.problem_text()
    for k in (pygame.K_RIGHT, pygame.K_END, pygame.K_PAGEDOWN, pygame.K_SPACE, pygame.K_v, pygame.K_TAB, pygame.K_l):
        key(app, k)
        app.update(TICK)
    app.render()
    assert app.stack.top is scene


def test_a_folder_or_a_missing_file_opens_with_a_message_not_a_crash(tmp_path):
    app = make_app()
    for target in (tmp_path, tmp_path / "missing.jsonl"):
        scene = open_viewer(app, record=str(target))
        assert scene.timeline.limit == 0 and scene.problem_text()
        app.render()


# ---------------------------------------------------------------------- the command line
def test_screenshot_of_the_viewer_at_a_given_step(tmp_path):
    events = simulate(game_ids()[0], 2, seed=4)
    rec = tmp_path / "match.jsonl"
    rec.write_text(record_text(events), encoding="utf-8")
    shot = tmp_path / "shot.png"
    assert launch(["--screenshot", str(shot), "--scene", "replay", "--record", str(rec), "--step", "9"]) == 0
    assert pygame.image.load(str(shot)).get_size() == (1280, 720)
    again = tmp_path / "again.png"
    assert launch(["replay", str(rec), "--screenshot", str(again), "--step", "9"]) == 0
    assert again.read_bytes() == shot.read_bytes()  # the same position either way
    other = tmp_path / "other.png"
    assert launch(["replay", str(rec), "--screenshot", str(other), "--step", "30"]) == 0
    assert other.read_bytes() != shot.read_bytes()
    # The parameters reach the viewer.
    from scenes.launch import build_parser, scene_params

    args = build_parser().parse_args(["--scene", "replay", "--record", str(rec), "--step", "9"])
    app = make_app()
    scene = open_viewer(app, **{k: v for k, v in scene_params(args, app.config, app.settings).items() if k != "deck"})
    assert scene.pos == 9 and scene.timeline.name == "match.jsonl"


def test_bad_replay_command_lines_are_one_line_and_exit_2(tmp_path, capsys):
    assert launch(["replay"]) == 2
    assert launch(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert launch(["replay", str(tmp_path)]) == 2
    assert launch(["--scene", "menu", "--step", "3"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len([ln for ln in err.splitlines() if ln]) == 4


# ---------------------------------------------------------------------- the window
def test_a_record_dropped_on_the_window_opens_in_the_viewer(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(record_text(simulate(game_ids()[0], 2, seed=1)), encoding="utf-8")
    b.write_text("garbage\n", encoding="utf-8")
    app = make_app()
    app.open_path("menu")
    app.dispatch(pygame.event.Event(pygame.DROPFILE, file=str(a)))
    assert app.stack.names() == ["menu", "replay"] and app.stack.top.timeline.finished
    app.dispatch(pygame.event.Event(pygame.DROPFILE, file=str(b)))  # a viewer on top is replaced
    assert app.stack.names() == ["menu", "replay"] and app.stack.top.problem_text()
    key(app, pygame.K_ESCAPE)
    assert app.stack.names() == ["menu"]


def test_the_menu_lists_the_kept_matches_and_opens_one():
    events = simulate(game_ids()[0], 2, seed=6)
    replays.keep(events, seats=["human", "hard"], now=1_700_000_000)
    (replays.replays_dir() / "20991231-235959-broken.jsonl").write_text("{oops\n")
    app = make_app()
    app.open_path("menu")
    widget(app.stack.top, "replays").activate()
    lib = app.stack.top
    assert lib.name == "replays" and len(lib.matches) == 1 and len(lib.listing.skipped) == 1
    when, head, players, result = lib.row_texts(lib.matches[0])
    assert players == app.t("replay.players_against", count=2, levels=app.t("ai.hard"))
    won = events[-1]["winner"] == 0
    assert result.startswith(app.t("replay.result_won" if won else "replay.result_lost", score="")[:3])
    app.render()
    key(app, pygame.K_RETURN)
    viewer = app.stack.top
    assert viewer.name == "replay" and viewer.seat == 0 and viewer.levels == [None, "hard"]
    assert viewer.timeline.events[1:] == events[1:]


def test_the_results_screen_watches_the_replay_and_saves_the_record(tmp_path):
    from scenes.results import scene as results

    app = make_app()
    s, de, me = results.demo(app, game_ids()[0], None, 2, True, seed=11)
    app.open_path("menu")
    app.open_scene("results", session=s, deal_end=de, match_end=me)
    res = app.stack.top
    widget(res, "watch_replay").activate()
    viewer = app.stack.top
    assert viewer.name == "replay" and viewer.timeline.events == s.match.events and viewer.timeline.problem is None
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is res
    # Save the record as…: a typed path; an existing file is replaced only when asked to.
    target = tmp_path / "kept.jsonl"
    widget(res, "save_record").activate()
    prompt = app.stack.top
    assert prompt.name == "save_record" and prompt.wants_text
    for _ in range(len(prompt.text)):
        key(app, pygame.K_BACKSPACE)
    assert prompt.text == ""
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text=str(target)))
    muted = app.settings.muted
    key(app, pygame.K_m)  # a letter typed (its key, then its text), not the mute key
    app.dispatch(pygame.event.Event(pygame.TEXTINPUT, text="m"))
    assert app.settings.muted == muted and prompt.text == str(target) + "m"
    key(app, pygame.K_BACKSPACE)
    key(app, pygame.K_RETURN)
    assert app.stack.top is res and verify_file(str(target)).ok
    target.write_text("precious\n")
    widget(res, "save_record").activate()
    prompt = app.stack.top
    prompt.text, prompt.caret = str(target), len(str(target))
    key(app, pygame.K_RETURN)
    assert prompt.asking == target and target.read_text() == "precious\n"
    key(app, pygame.K_ESCAPE)  # keep it
    assert prompt.asking is None and target.read_text() == "precious\n"
    key(app, pygame.K_RETURN)
    widget(prompt, "replace").activate()
    assert app.stack.top is res and verify_file(str(target)).ok
    # A folder, or a folder that is not there, is refused with a message: nothing is written
    # and no folder is made.
    widget(res, "save_record").activate()
    prompt = app.stack.top
    for bad in (tmp_path, tmp_path / "typo" / "x.jsonl"):
        prompt.text, prompt.caret = str(bad), len(str(bad))
        key(app, pygame.K_RETURN)
        assert prompt.error and app.stack.top is prompt
    assert not (tmp_path / "typo").exists()
    app.render()


def test_open_a_file_from_the_replays_list(tmp_path):
    rec = tmp_path / "r.jsonl"
    rec.write_text(record_text(simulate(game_ids()[0], 2, seed=8)), encoding="utf-8")
    app = make_app()
    app.open_path("replays")
    widget(app.stack.top, "open_file").activate()
    prompt = app.stack.top
    prompt.text, prompt.caret = str(tmp_path / "nope.jsonl"), 0
    key(app, pygame.K_RETURN)
    assert prompt.error and app.stack.top is prompt
    prompt.text = str(rec)
    key(app, pygame.K_RETURN)
    assert app.stack.names() == ["menu", "replays", "replay"] and app.stack.top.timeline.finished


@pytest.fixture
def quick_bots(monkeypatch):
    for name in ("easy", "normal", "hard"):
        monkeypatch.setitem(BOTS, name, BOTS["random"])


def test_a_watched_match_of_computers_grows_in_the_viewer_to_its_end(quick_bots):
    app = make_app()
    app.open_path("menu")
    games = [g for g in game_ids() if 4 in get_config().games[g].players]
    app.open_scene("watch", game=games[0], players=4)
    watch = app.stack.top
    assert [w.visible for w in watch.seat_choices] == [True] * 4
    watch.seat_choices[2].choose(2)
    widget(watch, "start").activate()
    viewer = app.stack.top
    assert viewer.name == "replay" and viewer.live is not None and viewer.playing
    assert viewer.live.levels == [watch.levels[0], watch.levels[1], "hard", watch.levels[3]]
    key(app, pygame.K_PLUS)
    key(app, pygame.K_PLUS)
    key(app, pygame.K_PLUS)
    for _ in range(round(3000 / TICK)):
        app.update(TICK)
        if viewer.timeline.finished and viewer.pos == viewer.timeline.limit:
            break
    tl = viewer.timeline
    assert tl.finished and verify_events(tl.events).ok
    key(app, pygame.K_HOME)
    key(app, pygame.K_RIGHT)
    assert viewer.pos == 2  # and it can be stepped back through like any record


def test_watch_uses_the_game_screen_s_choices_and_its_own_levels():
    app = make_app()
    gid = next(g for g in game_ids() if get_config().games[g].presets)
    game = get_config().games[gid]
    preset = game.presets[-1]
    n = max(preset.players)
    from game.variants import preset_options

    opts = game.resolve_options({**game.default_options(), **preset_options(game, preset)}, n)
    app.open_path("menu")
    app.open_scene("watch", game=gid, players=n, options=opts)
    watch = app.stack.top
    assert watch.options() == opts and app.t(preset.name) in watch.rules_line()
    app.render()


def test_the_game_screen_has_a_watch_button_per_game():
    app = make_app()
    app.open_path("games", deck=next(iter(get_config().decks)))
    games = app.stack.top
    gid = games.panels[0].game.id
    widget(games, f"watch:{gid}").activate()
    assert app.stack.top.name == "watch" and app.stack.top.game == gid


# ---------------------------------------------------------------------- open hands practice
def test_open_hands_shows_the_computer_s_cards_and_the_match_counts_as_practice(monkeypatch):
    from scenes.table import board
    from sprites.table_draw import CardPainter
    from tests.scenes.test_table import keyboard_play

    drawn: list[str | None] = []
    real = CardPainter.draw
    monkeypatch.setattr(
        CardPainter,
        "draw",
        lambda self, surface, code, *a, **k: (drawn.append(code), real(self, surface, code, *a, **k))[1],
    )
    gid = next(g for g in game_ids() if not make_rules(g).is_capture_game)
    app = make_app(open_hands=True)
    app.open_path("menu")
    scene = make_scene(app, "table", game=gid, players=2, seed=9, ai_level="greedy", threaded=False, autoplay_moves=0)
    app.stack.push(scene)
    for _ in range(5):
        app.update(TICK)
    drawn.clear()
    app.render()
    theirs = set(scene.model.hands[1])
    assert theirs and theirs <= set(drawn) and board.hands_open(scene.view())
    assert scene.session.open_hands  # shown once: practice from now on (the save says so)
    rng = random.Random(1)
    for _ in range(20000):
        if scene.controller.final_panel:
            break
        if app.stack.top is scene and scene.controller.can_act:
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
        elif app.stack.top is not scene:
            app.stack.pop()  # the results screen: go on
        app.update(TICK)
    assert scene.controller.final_panel
    stats = json.loads((Path(replays.user_data_dir()) / "stats.json").read_text())
    r = next(iter(stats.values()))
    assert r["practice"] == 1 and r["played"] == 0
    kept = replays.list_kept().matches
    assert len(kept) == 1 and kept[0].practice and kept[0].human_seat == 0


def test_without_open_hands_the_computer_s_cards_stay_face_down(monkeypatch):
    from sprites.table_draw import CardPainter

    drawn: list[str | None] = []
    real = CardPainter.draw
    monkeypatch.setattr(
        CardPainter,
        "draw",
        lambda self, surface, code, *a, **k: (drawn.append(code), real(self, surface, code, *a, **k))[1],
    )
    app = make_app()
    app.open_path("menu")
    scene = make_scene(
        app, "table", game=game_ids()[0], players=2, seed=9, ai_level="greedy", threaded=False, autoplay_moves=0
    )
    app.stack.push(scene)
    for _ in range(5):
        app.update(TICK)
    drawn.clear()
    app.render()
    assert scene.model.hands[1] and not (set(scene.model.hands[1]) & set(drawn))
    assert not scene.session.open_hands


def test_a_finished_window_match_is_kept_for_replays(monkeypatch):
    from game.ai import levels
    from tests.scenes.test_table import keyboard_play

    # The level's name is what the replay keeps; how well it plays is not checked here.
    monkeypatch.setattr(levels.EasyBot, "ITERATIONS", 12)
    app = make_app()
    app.open_path("menu")
    scene = make_scene(
        app, "table", game=game_ids()[0], players=2, seed=3, ai_level="easy", threaded=False, autoplay_moves=0
    )
    app.stack.push(scene)
    rng = random.Random(2)
    for _ in range(40000):
        if scene.controller.final_panel:
            break
        if app.stack.top is scene and scene.controller.can_act:
            keyboard_play(app, scene, rng.choice(scene.session.legal_actions()))
        elif app.stack.top is not scene:
            app.stack.pop()
        app.update(TICK)
    kept = replays.list_kept().matches
    assert scene.controller.final_panel and len(kept) == 1 and not kept[0].practice
    assert kept[0].seats == ["human", "easy"]
    tl = T.from_file(kept[0].path)
    assert tl.problem is None and tl.events[1:] == scene.session.match.events[1:]


def test_the_viewer_draws_with_the_running_tally_on():
    """The running tally (Settings) belongs to the table; the viewer's HUD draws without it
    (found by the monkey test: a crash drawing Cìcera's replay with the tally on)."""
    events = simulate("cicera", 4, seed=5)
    app = make_app(running_tally=True)
    scene = open_viewer(app, events=events)
    for p in (1, len(events) // 2, len(events)):
        scene.go(p)
        app.render(1.0)
    assert app.settings.running_tally and scene.model.totals == events[-1]["totals"]
