"""The table's layout for every registered game, deck and player count (four players most of
all): each name plate beside its own hand, each pile near a seat of its team, no plate, pile
or count badge under any hand at any hand size up to the game's largest, every card of the
largest hands on the screen, a four-player trick whose cards all stay whole — and digit keys
that reach every card of a twelve-card hand."""

from __future__ import annotations

import itertools

import pygame
import pytest

from game.config import get_config
from game.rulesets import game_ids, make_rules
from sprites import table_layout as TL
from sprites.table_layout import CANVAS, TableLayout


def _options(gid: str, players: int) -> list[tuple[str, object] | None]:
    """The defaults, and each option value on its own (Scopone deals 9 or 10 cards) where
    the game offers it for this many players."""
    out: list[tuple[str, object] | None] = [None]
    for key, opt in get_config().games[gid].options.items():
        for v in opt.allowed:
            try:
                make_rules(gid, None, players, {key: v})
            except ValueError:
                continue
            out.append((key, v))
    return out


def _cases():
    """Every game, player count and deck, with each option that changes what the layout
    reads (the hand's size, a stock): one case per distinct table."""
    cfg = get_config()
    for gid in game_ids():
        for n in cfg.games[gid].players:
            for d in cfg.decks_for(gid):
                seen = set()
                for opt in _options(gid, n):
                    L = _layout(gid, n, d.id, opt)[0]
                    facts = (L.hand_capacity, L.has_stock, L.has_trump, L.trick_game)
                    if facts not in seen:
                        seen.add(facts)
                        yield gid, n, d.id, opt


def _layout(gid: str, players: int, deck: str, opt=None, human: int = 0) -> tuple[TableLayout, object]:
    rules = make_rules(gid, deck, players, dict([opt]) if opt else None)
    return TableLayout(players, rules.deck.aspect, rules, human), rules


CASES = list(_cases())
IDS = [f"{g}-{n}-{d}" + (f"-{o[0]}={o[1]}" if o else "") for g, n, d, o in CASES]
SIZES = sorted({(g, n, d) for g, n, d, _ in CASES})  # without the options


def _hand_rects(L: TableLayout, seat: int, n: int) -> list[pygame.Rect]:
    rects = [p.bounds(L.aspect) for p in L.backs(seat, n)]
    if L.side(seat) == "bottom":
        rects += [r.move(0, -TL.LIFT) for r in rects]  # the pointed-at / chosen card rises
    return rects


def _furniture(L: TableLayout, rules) -> dict[str, pygame.Rect]:
    """Every plate (with its dealer chip), pile and pile count of the table."""
    out: dict[str, pygame.Rect] = {}
    for s in range(L.players):
        out[f"plate {s} ({L.side(s)})"] = L.plate_box(s)
    for t in range(rules.teams):
        out[f"pile {t}"] = L.pile(t).bounds(L.aspect)
        out[f"pile {t} count"] = L.pile_badge(t)
    return out


@pytest.mark.parametrize("gid,players,deck,opt", CASES, ids=IDS)
def test_no_plate_pile_or_count_lies_under_a_hand_at_any_hand_size(gid, players, deck, opt):
    L, rules = _layout(gid, players, deck, opt)
    assert L.hand_capacity <= rules.hand_capacity
    things = _furniture(L, rules)
    for seat in range(players):
        for n in range(1, L.hand_capacity + 1):
            for r in _hand_rects(L, seat, n):
                for what, box in things.items():
                    assert not box.colliderect(r), f"{what} {box} under seat {seat}'s hand of {n} at {r}"
    # Nor do they cover each other, the score panel (its tallest: one row per seat) or the menu.
    score = pygame.Rect(TL.SCORE_RECT.x, TL.SCORE_RECT.y, TL.SCORE_RECT.w, 34 + 22 * players + 8)
    for (a, ra), (b, rb) in itertools.combinations(things.items(), 2):
        assert not ra.colliderect(rb), f"{a} {ra} overlaps {b} {rb}"
    for what, box in things.items():
        assert CANVAS.contains(box), f"{what} {box} leaves the screen"
        assert not box.colliderect(score) and not box.colliderect(TL.MENU_RECT), what
        assert not box.colliderect(TL.TOP_STRIP), f"{what} {box} reaches the HUD's buttons"


@pytest.mark.parametrize("gid,players", sorted({(g, n) for g, n, _ in SIZES}))
def test_no_button_of_the_real_table_covers_a_plate_a_pile_or_a_hand(gid, players):
    """The table as built (its decision, help and HUD buttons, whatever they are now)
    against the layout's furniture and every hand at its largest."""
    from game.services.i18n import I18n
    from game.services.settings import Settings
    from scenes.app import App
    from scenes.registry import make_scene

    app = App(get_config(), Settings(language="en", animation_speed="instant"), I18n("en"), window=False, persist=False)
    app.open_path("menu")
    scene = make_scene(
        app,
        "table",
        game=gid,
        players=players,
        seed=3,
        autoplay_moves=1,
        ai_level="greedy",
        threaded=False,
        preselect=False,
    )
    L, rules = scene.layout, scene.rules
    things = _furniture(L, rules)
    for seat in range(players):
        for i, r in enumerate(_hand_rects(L, seat, L.hand_capacity)):
            things[f"seat {seat} card {i}"] = r
    buttons = [w for w in scene.ui.widgets if w.visible and w.name not in ("declare", "just_play")]
    assert buttons, "the table has its buttons"
    for w in buttons:
        for what, box in things.items():
            assert not w.rect.colliderect(box), f"the {w.name} button {w.rect} covers {what} {box}"


@pytest.mark.parametrize("gid,players,deck,opt", CASES, ids=IDS)
def test_every_card_of_the_largest_hands_is_on_the_screen(gid, players, deck, opt):
    L, _ = _layout(gid, players, deck, opt)
    for seat in range(players):
        for r in _hand_rects(L, seat, L.hand_capacity):
            assert CANVAS.contains(r), (seat, r)
    # The human's hand: legible, each card showing at least its corner index column.
    hand = L.hand(L.hand_capacity)
    w = L.card_w(L.hand_h)
    step = hand[1].x - hand[0].x if len(hand) > 1 else w
    assert step >= min(w, 40), f"{step:.0f}px of each {w}px card shows: the index is hidden"
    assert all(TL.SAFE.inflate(2, 2).contains(p.rect(L.aspect)) for p in hand)  # 1 px: rounding


@pytest.mark.parametrize("gid,players,deck,opt", CASES, ids=IDS)
def test_plates_sit_beside_their_own_hands(gid, players, deck, opt):
    L, _ = _layout(gid, players, deck, opt)
    for seat in range(players):
        plate, box = L.plate(seat), L.hand_box(seat)
        side = L.side(seat)
        # Beside: touching distance, nearer to this hand than to any other seat's.
        gap = _gap(plate, box)
        assert gap <= 40, f"{side} plate {plate} is {gap}px from its hand {box}"
        for other in range(players):
            if other != seat:
                assert _gap(plate, L.hand_box(other)) > gap, (side, L.side(other))


@pytest.mark.parametrize(
    "gid,players,deck,opt", [c for c in CASES if c[1] > 2], ids=[i for c, i in zip(CASES, IDS) if c[1] > 2]
)
def test_each_pile_is_near_a_plate_of_its_own_team(gid, players, deck, opt):
    L, rules = _layout(gid, players, deck, opt)
    for team in range(rules.teams):
        pile = L.pile(team).bounds(L.aspect)
        own = min(_gap(pile, L.plate(s)) for s in range(players) if rules.team_of(s) == team)
        others = [_gap(pile, L.plate(s)) for s in range(players) if rules.team_of(s) != team]
        assert own <= 60 and all(own < g for g in others), (team, own, others)


@pytest.mark.parametrize("gid,players,deck", [c for c in SIZES if c[1] == 4])
def test_a_four_player_trick_shows_every_card_whole(gid, players, deck):
    """The partner's play is seen as well as the opponents': no trick card covers another,
    nor a hand, plate or pile."""
    L, rules = _layout(gid, players, deck)
    cards = [L.trick(s).bounds(L.aspect) for s in range(players)]
    for a, b in itertools.combinations(cards, 2):
        # Askew by a few degrees: the boxes may touch at a corner, never cover a card's face.
        overlap = a.clip(b)
        assert overlap.w * overlap.h <= 0.03 * a.w * a.h, (a, b)
    things = list(_furniture(L, rules).values())
    for r in cards:
        assert TL.TABLE_AREA.contains(r)
        assert not any(r.colliderect(t) for t in things)
        for seat in range(players):
            assert not any(r.colliderect(h) for h in _hand_rects(L, seat, L.hand_capacity))


def test_the_layout_follows_the_viewer_round_the_table():
    """Seen from any seat, the furniture obeys the same rules (plates by their hands)."""
    L0, rules = _layout("cicera", 4, "bresciane", None, 0)
    for human in range(4):
        L, _ = _layout("cicera", 4, "bresciane", None, human)
        for seat in range(4):
            assert L.plate(seat) == L0.plate((seat - human) % 4)
        assert L.pile(rules.team_of(human)) == L0.pile(0)


def _gap(a: pygame.Rect, b: pygame.Rect) -> int:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0, b.x - a.right, a.x - b.right)
    dy = max(0, b.y - a.bottom, a.y - b.bottom)
    return max(dx, dy) if min(dx, dy) == 0 else round((dx * dx + dy * dy) ** 0.5)


# ---------------------------------------------------------------------- digit keys
def test_digit_keys_reach_every_card_of_a_twelve_card_hand_and_the_hint_says_which():
    from game.services.i18n import I18n
    from game.services.settings import Settings
    from scenes.app import TICK, App
    from scenes.registry import make_scene

    app = App(get_config(), Settings(language="en", animation_speed="instant"), I18n("en"), window=False, persist=False)
    app.open_path("menu")
    gid = next(g for g in game_ids() if make_rules(g, None, 4).hand_capacity >= 12)
    scene = make_scene(
        app, "table", game=gid, players=4, seed=5, ai_level="greedy", threaded=False, autoplay_moves=0, preselect=False
    )
    app.stack.push(scene)
    for _ in range(400):  # the deal, then the bots before the human's first turn
        app.update(TICK)
        if scene.controller.can_act:
            break
    assert scene.controller.can_act and len(scene.model.hand) == 12
    presses = [(getattr(pygame, f"K_{i}"), 0) for i in range(1, 10)] + [(pygame.K_0, 0)]
    presses += [(pygame.K_MINUS, pygame.KSCAN_MINUS), (pygame.K_EQUALS, pygame.KSCAN_EQUALS)]
    seen = []
    for k, sc in presses:
        app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=sc))
        seen.append(scene.controller.cursor)
    assert seen == list(range(12))
    # By position: the German keyboard's ß sits where "-" is and picks the same card.
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode="", scancode=0))
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=223, mod=0, unicode="ß", scancode=pygame.KSCAN_MINUS))
    assert scene.controller.cursor == 10
    # A period (keycode 46, the "=" key's scancode number) is not a card key.
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PERIOD, mod=0, unicode=".", scancode=0))
    assert scene.controller.cursor == 10
    # The hint names the keys, in every language.
    for lang, keys in (("en", "0, -, ="), ("nl", "0, -, ="), ("de", "0, ß, ´"), ("it", "0, ', ì")):
        assert keys in I18n(lang).t(f"table.keys_{gid}")
