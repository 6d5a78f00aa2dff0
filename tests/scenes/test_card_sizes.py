"""Card sizes: at every size, for every game, deck and player count (the 4-player
tables and Scopone's nine- and ten-card hands too), every hand, pile, plate, the stock, the
trick and the table cards stay on the screen, and nothing the player reads lies under
anything else: no plate, pile or count under a hand, the status line clear of the lifted
hand and the trick, the trick and the table cards clear of the hand."""

from __future__ import annotations

import itertools

import pygame
import pytest

from game.services.settings import CARD_SIZES
from sprites import table_layout as TL
from sprites.table_layout import CANVAS, TableLayout
from tests.scenes.test_layout_four import CASES, _furniture, _hand_rects, _layout

STATUS_W = 700  # the widest status line drawn (German, the longest language)


def sized(gid, players, deck, opt, size) -> tuple[TableLayout, object]:
    L, rules = _layout(gid, players, deck, opt)
    return TableLayout(players, rules.deck.aspect, rules, 0, card_size=size), rules


@pytest.mark.parametrize("size", CARD_SIZES)
def test_every_table_fits_at_every_card_size(size):
    checked = 0
    for gid, players, deck, opt in CASES:
        L, rules = sized(gid, players, deck, opt, size)
        where = f"{gid} {players}p {deck} {opt or ''} at {size}"
        things = _furniture(L, rules)
        hand = _hand_rects(L, 0, L.hand_capacity)
        for seat in range(players):
            for n in range(1, L.hand_capacity + 1):
                for r in _hand_rects(L, seat, n):
                    assert CANVAS.contains(r), f"{where}: seat {seat}'s card {r} leaves the screen"
                    for what, box in things.items():
                        assert not box.colliderect(r), f"{where}: {what} {box} under seat {seat}'s hand at {r}"
        for (a, ra), (b, rb) in itertools.combinations(things.items(), 2):
            assert not ra.colliderect(rb), f"{where}: {a} overlaps {b}"
        for what, box in things.items():
            assert CANVAS.contains(box), f"{where}: {what} {box} leaves the screen"
        status = pygame.Rect(0, 0, STATUS_W, 28)
        status.center = L.status_pos
        felt = [L.trick(s).bounds(L.aspect) for s in range(players)]
        if not L.trick_game:
            felt = [p.bounds(L.aspect) for n in range(1, 17) for p in L.table(n)]
        for p in (L.stock(), L.trump()):
            if p is not None:
                assert CANVAS.contains(p.bounds(L.aspect)), where
        for r in felt:
            assert CANVAS.contains(r), f"{where}: a card on the felt leaves the screen"
            assert not status.colliderect(r), f"{where}: the status line covers a card on the felt {r}"
            assert not any(r.colliderect(h) for h in hand), f"{where}: a card on the felt {r} under the hand"
        assert not any(status.colliderect(h) for h in hand), f"{where}: the status line covers the lifted hand"
        checked += 1
    assert checked == len(CASES) > 20


def test_larger_cards_are_larger():
    L = {s: TableLayout(2, 1.8, "briscola", 0, card_size=s) for s in CARD_SIZES}
    assert L["normal"].hand_h < L["large"].hand_h < L["xlarge"].hand_h
    assert L["normal"].table_h < L["large"].table_h < L["xlarge"].table_h
    assert L["normal"].status_pos == TL.STATUS_POS  # the usual table is unchanged


@pytest.mark.parametrize("game,players", [("briscola", 2), ("scopa", 4)])
@pytest.mark.parametrize("text", ["large", "xlarge"])
def test_the_drawn_table_keeps_its_words_in_their_boxes_at_larger_sizes(game, players, text):
    """The table drawn at the largest cards and a larger text: no boxed text (plate, badge,
    status, buttons, score panel) runs out of its box."""
    from sprites import theme
    from tests.scenes.test_table import make_app, table

    app = make_app("de", card_size="xlarge", text_size=text)
    try:
        scene = table(app, game, players, seed=4, moves=players + 1)
        assert scene.layout.card_size == "xlarge"
        canvas = pygame.Surface((1280, 720))
        with theme.measure_text() as m:
            scene.draw(canvas)
        assert theme.TEXT_SCALE[0] > 1
        assert m.entries, "the drawing was measured"
        assert not m.overflows, m.overflows
    finally:
        theme.set_text_scale(1.0)  # the other tests draw at the usual size
