"""The table: layout geometry, every legal action reachable by keyboard alone and by mouse
alone, localised refusals that change nothing, saves, hints and the pause overlay."""

from __future__ import annotations

import itertools
import random

import pygame
import pytest

from game.config import get_config
from game.games.schnapsen.vocabulary import CLOSE, EXCHANGE
from game.rules.base import IllegalAction
from game.rules.capture import captured
from game.services.i18n import I18n
from game.services.settings import Settings
from scenes.app import TICK, App
from scenes.registry import make_scene
from scenes.table import board
from sprites import table_layout as TL
from sprites.table_layout import CANVAS, TableLayout


# ---------------------------------------------------------------------- helpers
def make_app(lang: str = "en", speed: str = "instant", **settings) -> App:
    return App(
        get_config(),
        Settings(language=lang, animation_speed=speed, **settings),
        I18n(lang),
        window=False,
        persist=False,
    )


def table(app: App, game: str, players: int = 2, deck: str | None = None, seed: int = 3, moves: int = 4, **kw):
    app.open_path("menu")
    scene = make_scene(
        app,
        "table",
        deck=deck,
        game=game,
        players=players,
        seed=seed,
        autoplay_moves=moves,
        preselect=False,
        ai_level="greedy",
        threaded=False,
        **kw,
    )
    app.stack.push(scene)
    for _ in range(3):  # a new match animates its deal (instantly at this speed)
        app.update(TICK)
    return scene


def key(app: App, k: int, mod: int = 0) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def click(app: App, pos) -> None:
    # Canvas coordinates straight to the stack (the hidden test display has no letterbox).
    pos = (int(pos[0]), int(pos[1]))
    app.stack.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.stack.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def keyboard_play(app: App, scene, action) -> None:
    """The keys a player presses for ``action``: the scene's own offer, step by step."""
    kind = scene.controller.kinds.get(action.kind)
    if kind is not None and not kind.toggle and not kind.plays_card:
        key(app, pygame.key.key_code(kind.key))  # its declared key
        chooser = scene.controller.chooser
        if chooser is not None:  # its values, row by row, with the chooser's keys
            for row in range(len(chooser.rows)):
                if not chooser.rows[row].choice:
                    continue  # one value only: nothing to choose there
                while chooser.focus != row:
                    key(app, pygame.K_TAB)
                key(app, pygame.K_HOME)
                want = action.arg(chooser.rows[row].field.name)
                for _ in range(len(chooser.rows[row].values)):
                    if chooser.rows[row].chosen == want:
                        break
                    key(app, pygame.K_RIGHT)
            assert chooser.action == action
        if kind.confirm or chooser is not None:
            key(app, pygame.K_RETURN)  # asked first (closing the stock), or the chooser's values: Enter takes it
        return
    i = scene.model.hand.index(action.card.code)
    if i < 9:
        key(app, pygame.K_1 + i)
    else:
        key(app, pygame.K_1)
        for _ in range(i):
            key(app, pygame.K_RIGHT)
    assert scene.controller.cursor == i
    key(app, pygame.K_RETURN)
    if scene.controller.mode is None:
        return
    if action not in scene.controller.cands:
        assert scene.capture_game and not captured(action)
        key(app, pygame.K_p)
        return
    for _ in range(len(scene.controller.cands)):
        if scene.controller.cands[scene.controller.cand_i] == action:
            break
        key(app, pygame.K_TAB)
    key(app, pygame.K_RETURN)


def free_felt_point(scene) -> tuple[int, int]:
    area = scene.layout.table_area()
    rects = [board.card_rect(scene.view(), c) for c in scene.model.table]
    for x, y in itertools.product(range(area.x + 4, area.right - 4, 9), range(area.y + 4, area.bottom - 4, 9)):
        if not any(r.inflate(4, 4).collidepoint(x, y) for r in rects if r is not None):
            return x, y
    raise AssertionError("no free felt")


def mouse_play(app: App, scene, action) -> None:
    """Clicks only: the card, then (if asked) table cards, the felt or a button."""
    if action in (CLOSE, EXCHANGE):
        click(app, scene.buttons["close" if action == CLOSE else "exchange"].rect.center)
        if action == CLOSE:  # closing is asked first: a second click confirms
            click(app, scene.buttons["close"].rect.center)
        return
    code = action.card.code
    r = board.card_rect(scene.view(), code)
    click(app, (r.x + 6, r.bottom - 24))  # the visible edge of an overlapped card
    if scene.controller.mode is None and scene.controller.selected == code:
        r = board.card_rect(scene.view(), code)
        click(app, (r.x + 6, r.bottom - 24))  # one click chooses the card, a second plays it
        return
    if scene.controller.mode == "toggle":
        b = scene.ask_buttons[0 if action.arg("marriage", False) else 1]
        click(app, b.rect.center)
        return
    if scene.controller.mode != "capture":
        return
    if not captured(action):
        click(app, free_felt_point(scene))
        return
    for c in captured(action):
        if scene.controller.mode != "capture":
            break
        click(app, board.card_rect(scene.view(), c.code).center)
    if scene.controller.mode == "capture":
        r = board.card_rect(scene.view(), code)
        click(app, (r.x + 6, r.bottom - 24))  # a second click on the chosen card confirms


class Recorder:
    """Stands in for session.submit: records the action, changes nothing."""

    def __init__(self, session):
        self.actions = []
        self.real = session.submit

    def __call__(self, action):
        self.actions.append(action)
        return []


def positions(game: str, players: int, seeds, moves_list):
    yield from itertools.product(seeds, moves_list)


# ---------------------------------------------------------------------- layout geometry
def _cases():
    cfg = get_config()
    for g in cfg.games.values():
        for n in g.players:
            for d in cfg.decks_for(g.id):
                yield g.id, n, d.id, d.aspect


@pytest.mark.parametrize("game,players,deck,aspect", list(_cases()))
def test_no_card_leaves_the_canvas_and_the_hand_stays_out_of_the_table(game, players, deck, aspect):
    L = TableLayout(players, aspect, game)
    for p in L.every_place(24):
        assert CANVAS.contains(p.bounds(aspect)), (p, p.bounds(aspect))
    hand = [p.rect(aspect).move(0, -TL.LIFT) for p in L.hand(L.max_hand())]
    for r in hand:
        assert not r.colliderect(L.table_area()), "the lifted hand reaches into the table area"
        assert not r.colliderect(TL.SCORE_RECT)
        for s in range(players):
            assert not r.colliderect(L.plate(s))
        for b in L.buttons(3 if game == "schnapsen" else 1):
            assert not r.colliderect(b)
    # Table cards stay apart and inside their area for every count a deal can reach.
    for n in range(1, 21):
        rects = [p.rect(aspect) for p in L.table(n)]
        assert all(L.table_area().contains(r) for r in rects) or rects[0].h <= TL.TABLE_MIN_HEIGHT
        for a, b in itertools.combinations(rects, 2):
            assert not a.colliderect(b)
    # Seats: the partner sits opposite in four-player games, opponents at the sides.
    if players == 4:
        assert [L.side(s) for s in range(4)] == ["bottom", "right", "top", "left"]
    if players == 3:
        assert [L.side(s) for s in range(3)] == ["bottom", "right", "left"]


def test_hand_cards_share_one_height_and_shrink_step_not_size():
    L = TableLayout(4, 2.05, "cicera")
    hand = L.hand(12)
    assert len({p.h for p in hand}) == 1
    steps = [b.x - a.x for a, b in zip(hand, hand[1:])]
    assert max(steps) - min(steps) < 1e-6 and steps[0] > 20


# ---------------------------------------------------------------------- every action, by keyboard and by mouse
REACH = [
    ("scopa", 2, None, range(1, 12), (0, 3, 6, 11, 20)),
    ("scopa", 3, None, range(1, 6), (0, 4, 9)),
    ("scopa", 4, None, range(1, 8), (0, 5, 13)),
    ("cicera", 4, "bresciane", range(1, 15), (6, 14, 24, 30)),
    ("briscola", 2, None, range(1, 4), (0, 5, 20)),
    ("schnapsen", 2, None, range(1, 25), (0, 1, 2, 3, 4)),
]


@pytest.mark.parametrize("how", ["keyboard", "mouse"])
@pytest.mark.parametrize("game,players,deck,seeds,moves_list", REACH)
def test_every_legal_action_is_reachable(how, game, players, deck, seeds, moves_list):
    app = make_app()
    seen_kinds = set()
    for seed, moves in positions(game, players, seeds, moves_list):
        scene = table(app, game, players, deck, seed, moves)
        if not scene.controller.can_act:
            continue
        rec = Recorder(scene.session)
        scene.session.submit = rec
        for action in scene.session.legal_actions():
            before = len(rec.actions)
            (keyboard_play if how == "keyboard" else mouse_play)(app, scene, action)
            assert rec.actions[before:] == [action], f"{how}: wanted {action}, got {rec.actions[before:]}"
            seen_kinds.add(
                (action.kind, bool(captured(action)), len(captured(action)) > 1, action.arg("marriage", False))
            )
            key(app, pygame.K_ESCAPE) if scene.controller.selected else None
            scene.controller.clear_choice()
            scene.controller.toggled = False
    # The positions cover the interesting shapes: multi-card captures, exchanges, marriages.
    if game in ("scopa", "cicera"):
        assert ("play", True, True, False) in seen_kinds
    if game == "cicera":
        assert ("play", False, False, False) in seen_kinds
    if game == "schnapsen":
        assert {
            ("exchange", False, False, False),
            ("close", False, False, False),
            ("play", False, False, True),
        } <= seen_kinds


# ---------------------------------------------------------------------- refusals
def _scopa_with_capture(app, lang_seed_range=range(1, 40)):
    for seed in lang_seed_range:
        scene = table(app, "scopa", 2, None, seed, 2)
        for code in scene.model.hand:
            if any(captured(a) for a in scene.controller.candidates_for(code)):
                return scene, code
    raise AssertionError("no position with a capture")


@pytest.mark.parametrize("lang", ["en", "de", "it", "nl"])
def test_an_illegal_choice_is_refused_in_the_players_language_and_nothing_changes(lang):
    app = make_app(lang)
    scene, code = _scopa_with_capture(app)
    events = len(scene.session.match.events)
    hand, tbl = list(scene.model.hand), list(scene.model.table)
    key(app, pygame.K_1 + scene.model.hand.index(code))
    key(app, pygame.K_p)  # place only, though the card can capture
    assert scene.refusal is not None
    name = scene.names.card_name(code)
    assert scene.refusal[0] == app.t("refusals.capture_mandatory", card=name)
    assert name in scene.refusal[0] and "{" not in scene.refusal[0]
    assert len(scene.session.match.events) == events and scene.model.hand == hand and scene.model.table == tbl
    assert scene.controller.can_act
    app.render()  # the refusal banner draws


def test_every_rule_id_has_a_translation_in_every_language():
    import pathlib
    import re

    game_dir = pathlib.Path(__file__).resolve().parents[2] / "game"
    ids = set()
    for f in [*game_dir.glob("rules/*.py"), *game_dir.glob("games/*/rules.py")]:
        ids |= set(re.findall(r'IllegalAction\(\s*"(\w+)"', f.read_text()))
    assert {"match_before_sum", "must_trump", "rank_match", "no_capture"} <= ids
    for lang in ("en", "nl", "de", "it"):
        i18n = I18n(lang)
        missing = [r for r in ids if not i18n.has(f"refusals.{r}", lang)]
        assert not missing, f"{lang}: {missing}"


def test_refusal_params_become_card_names():
    app = make_app("de")
    scene = table(app, "schnapsen", 2, "schnapsen-german", 5, 0)
    # In the German pack "C" is Herz (hearts).
    e = IllegalAction("must_follow_suit", "x", led="KC", options="AC, 10C")
    text = scene.controller.refusal_text(e)
    assert "Ass oder Zehner (Herz)" in text and "AC" not in text  # Schnapsen's Ten, as the table names it
    beat = scene.controller.refusal_text(IllegalAction("must_follow_and_beat", "x", led="KC", options="AC"))
    assert "Herz-König" in beat


def test_a_wrong_mouse_built_set_is_refused_by_the_rules():
    app = make_app()
    for seed in range(1, 80):
        scene = table(app, "scopa", 2, None, seed, 2)
        if not scene.controller.can_act:
            continue
        for code in scene.model.hand:
            caps = [a for a in scene.controller.candidates_for(code) if captured(a)]
            others = [t for t in scene.model.table if all(t not in {c.code for c in captured(a)} for a in caps)]
            if len(caps) >= 2 and others:
                r = board.card_rect(scene.view(), code)
                click(app, (r.x + 6, r.bottom - 24))
                assert scene.controller.mode == "capture"
                events = len(scene.session.match.events)
                click(app, board.card_rect(scene.view(), others[0]).center)
                click(app, (r.x + 6, r.bottom - 24))
                assert scene.refusal is not None and len(scene.session.match.events) == events
                return
    pytest.skip("no position with two captures and a stray table card in these seeds")


# ---------------------------------------------------------------------- saves, hints, pause
def test_every_batch_is_saved_and_a_resumed_table_shows_the_same_position(_private_home):
    from game.services import saves

    app = make_app()
    scene = table(app, "briscola", 2, None, 11, 0)
    action = scene.session.legal_actions()[0]
    keyboard_play(app, scene, action)
    data, problem = saves.load_match()
    assert problem is None and data["events"] == scene.session.match.events
    session, problem = saves.resume_session(threaded=False)
    assert problem is None
    again = make_scene(app, "table", session=session)
    assert sorted(again.model.hand) == sorted(c.code for c in session.view().hand)
    for _ in range(20):  # the bot answers, the trick is gathered, both draw
        again.update(TICK)
    assert again.motion.idle and again.controller.can_act
    assert sorted(again.model.hand) == sorted(c.code for c in session.view().hand)
    assert len(again.motion.sprites) >= len(again.model.hand) + len(again.motion.backs[1])


def test_hints_key_toggles_the_setting_and_the_outline():
    app = make_app(hints=True)
    scene, code = _scopa_with_capture(app)
    key(app, pygame.K_1 + scene.model.hand.index(code))
    assert board.highlights_of(scene.view()), "with hints the cursor card shows what it would take"
    key(app, pygame.K_h)
    assert app.settings.hints is False
    assert not board.highlights_of(scene.view())


def test_escape_opens_the_pause_overlay_and_quit_goes_to_the_menu_with_the_match_saved(_private_home):
    from game.services import saves

    app = make_app()
    scene = table(app, "scopa", 2, None, 4, 2)
    key(app, pygame.K_ESCAPE)
    assert app.stack.top.name == "pause" and app.stack.top.is_overlay
    app.render()
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is scene
    key(app, pygame.K_ESCAPE)
    quit_button = next(w for w in app.stack.top.ui.widgets if w.name == "quit")
    click(app, quit_button.rect.center)
    assert app.stack.top.name == "menu"
    assert saves.has_saved_match()


def test_selection_glow_and_capture_highlight_are_drawn():
    app = make_app()
    scene, code = _scopa_with_capture(app)
    key(app, pygame.K_1 + scene.model.hand.index(code))
    key(app, pygame.K_RETURN)
    if scene.controller.mode == "capture":
        hi = board.highlights_of(scene.view())
        assert hi[code][1] == 1.0
        assert any(c.code in hi for c in captured(scene.controller.cands[scene.controller.cand_i]))
    app.render()


def test_random_seeds_start_a_table_in_every_language():
    for lang in ("en", "nl", "de", "it"):
        app = make_app(lang)
        g = random.Random(lang).choice(["scopa", "briscola", "schnapsen", "cicera"])
        scene = table(app, g, 4 if g == "cicera" else 2, None, 9, 3)
        app.render()
        assert scene.names.seat_name(scene.human) == app.t("table.you")


# ---------------------------------------------------------------------- motion and call-outs
def test_cards_fly_rather_than_teleport_and_a_scopa_is_called_out():
    app = make_app(speed="normal")
    scene = table(app, "scopa", 2, None, 6, 2)
    assert scene.controller.can_act
    action = scene.session.legal_actions()[0]
    code = action.card.code
    start = scene.motion.sprites[code].value()[:2]
    keyboard_play(app, scene, action)
    positions_seen = []
    for _ in range(40):
        app.update(TICK)
        sp = scene.motion.sprites.get(code)
        if sp is not None:
            positions_seen.append(sp.value()[:2])
    end = positions_seen[-1] if positions_seen else start
    between = [p for p in positions_seen if p != start and p != end]
    assert between, "the played card must pass through the space between hand and table"
    # A capture that clears the table is called out, in the game's own word, as it lands.
    for _ in range(200):
        app.update(TICK)
        if scene.motion.idle and scene.model.table:
            break
    seen = set(scene.model.hand) | set(scene.model.table)
    card = next(c.code for c in scene.rules.cards if c.code not in seen and c.code not in scene.motion.sprites)
    scene.motion.queue.append(
        {"event": "play", "seat": 1, "card": card, "capture": list(scene.model.table), "bonuses": ["scopa"]}
    )
    texts = set()
    for _ in range(120):
        app.update(TICK)
        texts |= {c.text for c in scene.motion.callouts}
    assert "Scopa!" in texts and not scene.model.table
    app.render()


def test_seat_names_follow_where_the_layout_seats_them():
    """The names module and the layout count seats the same way round the table."""
    from game.rulesets import make_rules
    from scenes import names

    app = make_app()
    compass = {"top": "North", "left": "West", "right": "East"}
    for players in (2, 3, 4):
        for viewer in range(players):
            L = TableLayout(players, 1.8, "scopa", viewer)
            for seat in range(players):
                side = L.side(seat)
                assert names.side(seat, viewer, players) == side
                teams = make_rules("scopa", None, players).team_of  # the partnership the game declares
                name = names.seat_name(app.i18n.t, seat, viewer, players, team_of=teams)
                if seat == viewer:
                    assert name == "You"
                elif players == 4 and seat % 2 == viewer % 2:
                    assert name == "Partner"
                else:
                    assert name == compass[side]


def test_choices_of_one_suit_name_the_suit_once_in_every_language():
    from scenes.names import cards_list

    expected = {
        "en": ("5, 7 or King of Coins", "Ace of Cups or 3 of Swords"),
        "it": ("5, 7 o Re di Denari", "Asso di Coppe o 3 di Spade"),
        "de": ("5, 7 oder König (Münzen)", "Kelch-Ass oder Schwerter-3"),
        "nl": ("5, 7 of Koning van Munten", "Aas van Bekers of 3 van Zwaarden"),
    }
    for lang, (one_suit, mixed) in expected.items():
        app = make_app(lang)
        deck = table(app, "tressette", 2, "piacentine", 5, 0).deck
        assert cards_list(app.t, deck, lang, ["5D", "7D", "KD"]) == one_suit
        assert cards_list(app.t, deck, lang, ["AC", "3S"]) == mixed
        assert cards_list(app.t, deck, lang, ["KD"]) == app.t(
            "table.card", rank=deck.court_name("K", lang), suit=deck.suit_name("D", lang)
        )
