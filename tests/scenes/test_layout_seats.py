"""The table's layout as a function of the player count, 2 to 6, and of the teams the rules
declare: every seat's plate beside its own hand, every team's pile near one of its seats, no
plate, pile or count under any hand at any hand size, none over another, the score panel
(one row per seat), the menu or the HUD's buttons, every card on the screen and every card
of a full trick whole — for counts no registered game offers yet as much as for those it does."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import pygame
import pytest

from sprites import table_layout as TL
from sprites.table_layout import CANVAS, TableLayout, score_bottom


@dataclass(frozen=True)
class Facts:
    """What the layout reads of a game's rules."""

    game_id: str = "shape"
    family: str = "trick"
    has_stock: bool = False
    has_trump: bool = False
    hand_capacity: int = 10


def _alone(seat: int) -> int:
    return seat


def _teams(n: int) -> Callable[[int], int]:
    return lambda seat: seat % n


#: (players, hand capacity, teams) — each seat for itself, partners in two or three teams.
SHAPES = [
    (players, cap, name, team_of)
    for players in range(2, 7)
    for cap in sorted({min(12, 40 // players), min(10, 52 // players)})
    for name, team_of in [("alone", _alone)]
    + ([("two teams", _teams(2))] if players % 2 == 0 else [])
    + ([("three teams", _teams(3))] if players % 3 == 0 and players > 3 else [])
]
FAMILIES = [Facts(), Facts(family="capture", has_stock=True), Facts(has_stock=True, has_trump=True)]
ASPECTS = (1.5, 1.8, 2.05)
CASES = [
    (players, cap, name, team_of, facts, aspect, size)
    for players, cap, name, team_of in SHAPES
    for facts in FAMILIES
    for aspect in ASPECTS
    for size in TL.CARD_SCALES
]
IDS = [f"{p}p-{c}cards-{n}-{f.family}{'-stock' if f.has_stock else ''}-{a}-{s}" for p, c, n, _, f, a, s in CASES]


def _layout(
    players: int, cap: int, team_of: Callable[[int], int], facts: Facts, aspect: float, size: str, human: int = 0
) -> TableLayout:
    facts = Facts(facts.game_id, facts.family, facts.has_stock, facts.has_trump, cap)
    return TableLayout(players, aspect, facts, human, card_size=size, team_of=team_of)


def _hand_rects(L: TableLayout, seat: int, n: int) -> list[pygame.Rect]:
    rects = [p.bounds(L.aspect) for p in L.backs(seat, n)]
    if L.side(seat) == "bottom":
        rects += [r.move(0, -TL.LIFT) for r in rects]
    return rects


def _furniture(L: TableLayout) -> dict[str, pygame.Rect]:
    out: dict[str, pygame.Rect] = {}
    for s in range(L.players):
        out[f"plate {s} ({L.side(s)})"] = L.plate_box(s)
    for t in sorted({L.team_of(s) for s in range(L.players)}):
        out[f"pile {t}"] = L.pile(t).bounds(L.aspect)
        out[f"pile {t} count"] = L.pile_badge(t)
    return out


@pytest.mark.parametrize("players,cap,name,team_of,facts,aspect,size", CASES, ids=IDS)
def test_plates_and_piles_stay_clear_of_the_hands_and_of_each_other(players, cap, name, team_of, facts, aspect, size):
    L = _layout(players, cap, team_of, facts, aspect, size)
    things = _furniture(L)
    for seat in range(players):
        for n in range(1, cap + 1):
            for r in _hand_rects(L, seat, n):
                for what, box in things.items():
                    assert not box.colliderect(r), f"{what} {box} under seat {seat}'s hand of {n} at {r}"
    score = pygame.Rect(TL.SCORE_RECT.x, TL.SCORE_RECT.y, TL.SCORE_RECT.w, score_bottom(players) - TL.SCORE_RECT.y)
    for (a, ra), (b, rb) in itertools.combinations(things.items(), 2):
        assert not ra.colliderect(rb), f"{a} {ra} overlaps {b} {rb}"
    for what, box in things.items():
        assert CANVAS.contains(box), f"{what} {box} leaves the screen"
        assert not box.colliderect(score), f"{what} {box} covers the score panel {score}"
        assert not box.colliderect(TL.MENU_RECT), what
        assert not box.colliderect(TL.TOP_STRIP), f"{what} {box} reaches the HUD's buttons"
    # The hands stay apart, out of the HUD's corner and the score panel.
    hands = {s: L.hand_box(s) for s in range(players)}
    for (a, ra), (b, rb) in itertools.combinations(hands.items(), 2):
        assert not ra.colliderect(rb), f"seat {a}'s hand {ra} overlaps seat {b}'s {rb}"
    for s, r in hands.items():
        assert not r.colliderect(score) and not r.colliderect(TL.TOP_STRIP), f"seat {s}'s hand {r}"


@pytest.mark.parametrize("players,cap,name,team_of,facts,aspect,size", CASES, ids=IDS)
def test_every_card_stays_on_the_screen_and_a_full_trick_stays_whole(players, cap, name, team_of, facts, aspect, size):
    L = _layout(players, cap, team_of, facts, aspect, size)
    for p in L.every_place(24):
        assert CANVAS.contains(p.bounds(aspect)), (p, p.bounds(aspect))
    if players > 2:
        trick = [L.trick(s).bounds(aspect) for s in range(players)]
        for (a, ra), (b, rb) in itertools.combinations(enumerate(trick), 2):
            assert not ra.colliderect(rb), f"seat {a}'s trick card {ra} covers seat {b}'s {rb}"
        for r in trick:
            assert not r.colliderect(L.hand_box(L.human_seat)), "a trick card under the hand"
            # Every card of the trick is read at a glance: none under a seat's plate or another
            # seat's hand, nor under the caption over the status line — unless larger cards
            # leave no room for that: then the cross has risen as far as the top row allows.
            tops = [s for s in range(players) if L.side(s) == "top"]
            row = max([L.plate_box(s).bottom for s in tops] + [L.hand_box(s).bottom for s in tops], default=0)
            highest = min(t.top for t in trick)
            limit = row + 12 if tops else TL.TABLE_AREA.y + 4
            assert r.bottom <= L.caption_top() or highest <= limit, f"trick card {r} under the caption"
            for s in range(players):
                assert not r.colliderect(L.plate_box(s)), f"trick card {r} over seat {s}'s plate"
                assert not r.colliderect(L.hand_box(s)), f"trick card {r} over seat {s}'s hand"
    for r in (p.rect(aspect).move(0, -TL.LIFT) for p in L.hand(cap)):
        assert not r.colliderect(L.table_area()), "the lifted hand reaches into the table area"


@pytest.mark.parametrize("players", range(2, 7))
def test_seats_go_round_the_table_in_turn_order_whoever_sits_at_the_bottom(players):
    """The next seat on the right, the last on the left, the others along the top from
    right to left; the same places for each viewer, turned."""
    for human in range(players):
        L = _layout(players, 6, _alone, Facts(), 1.8, "normal", human)
        sides = [L.side((human + rel) % players) for rel in range(players)]
        assert sides[0] == "bottom"
        if players == 2:
            assert sides == ["bottom", "top"]
            continue
        assert sides[1] == "right" and sides[-1] == "left" and set(sides[2:-1]) <= {"top"}
        xs = [L.seat_origin((human + rel) % players).x for rel in range(2, players - 1)]
        assert xs == sorted(xs, reverse=True), "the top seats run right to left in turn order"
