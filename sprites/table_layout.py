"""Where everything sits on the card table: seats, hands, table cards, trick, stock, piles.

Pure geometry on the 1280×720 canvas (pygame.Rect is used as a value; nothing is drawn), so
the placement rules are tested on their own: no card leaves the canvas and the human's hand
never reaches into the table area, for every player count and every deck's proportions.

Seats are numbered in turn order, anticlockwise seen from above: the human sits at the
bottom, the next seat to the right, the last one to the left and the seats between them
along the top, side by side. Two players face each other; three sit bottom, right, left;
four sit bottom, right, top, left; five and six put two and three seats along the top. The
geometry is a function of the count (and of the teams the rules declare, for the piles),
never a case per count.

Every seat's name plate sits beside its own hand (left of the human's, right of the top row,
above the side columns) and every capture pile near a seat of its team (under the human's
plate, left of the top row, inside a side column below its plate), so no count is ever
under a hand. Plates and piles are placed for the deal's largest hand (``hand_capacity``),
so nothing moves as the hands shrink; the top edge left of the menu (``TOP_STRIP``) is the
HUD's. With three players or more the trick lies in a cross (a row at the top where
several seats sit there), every card whole.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, cast

import pygame

from game.registry import rules_class
from game.seat_names import seat_side

CANVAS = pygame.Rect(0, 0, 1280, 720)
#: Inside the wooden rim, with a little breathing room.
SAFE = CANVAS.inflate(-2 * 22, -2 * 22)

HAND_HEIGHT = 150  # the human's cards
HAND_MAX_WIDTH = 104  # wide packs (French Schnapsen) get slightly shorter cards
TABLE_HEIGHT = 118  # cards on the felt and in the trick
TABLE_MIN_HEIGHT = 64  # a crowded Cìcera table shrinks down to this
BACK_HEIGHT = 84  # the opponent opposite
SIDE_HEIGHT = 74  # opponents at the sides (cards lie sideways)
PILE_HEIGHT = 66  # capture piles
LIFT = 24  # how far a hovered / chosen card rises
TOP_Y = 30  # the top seat's row of backs starts here
PLATE_W, PLATE_H = 176, 30
CHIP_R = 11  # the dealer chip's radius
BADGE_W, BADGE_H = 44, 20  # a pile's count badge ("52" and room to spare)

HAND_AREA = pygame.Rect(250, 720 - 22 - HAND_HEIGHT, 780, HAND_HEIGHT)
#: The felt between the opponents and the human's hand: table cards, trick, stock.
TABLE_AREA = pygame.Rect(204, 132, 872, 366)
#: From the status line's centre up to the top of a one-line caption above it.
CAPTION_CLEAR = 71
STATUS_POS = (640, 507)  # "Your turn" / "North is thinking…", between table and hand
SCORE_RECT = pygame.Rect(26, 24, 300, 98)
MENU_RECT = pygame.Rect(1256 - 128, 24, 128, 38)
#: The top edge left of the menu button holds the HUD's buttons (log, score sheet): no
#: plate, chip or pile reaches into it.
TOP_STRIP = pygame.Rect(880, 0, 1280 - 880, 56)
BUTTONS_X = 1072
BUTTON_W = 178
BUTTON_H = 40
#: The help buttons over a table's decisions: Suggest and Undo (an online table: its messages).
HELP_BUTTONS = 2


#: Card sizes (Settings): how much larger the hand's cards and the felt's cards are drawn.
CARD_SCALES: dict[str, tuple[float, float]] = {"normal": (1.0, 1.0), "large": (1.15, 1.08), "xlarge": (1.3, 1.15)}


@dataclass(frozen=True)
class Place:
    """One card: centre, height in pixels, rotation in degrees (anticlockwise, like pygame)."""

    x: float
    y: float
    h: int
    angle: float = 0.0

    def size(self, aspect: float) -> tuple[int, int]:
        return max(1, round(self.h / aspect)), self.h

    def rect(self, aspect: float) -> pygame.Rect:
        """The upright card's rectangle (before rotation)."""
        w, h = self.size(aspect)
        r = pygame.Rect(0, 0, w, h)
        r.center = (round(self.x), round(self.y))
        return r

    def bounds(self, aspect: float) -> pygame.Rect:
        """The axis-aligned box around the (possibly rotated) card."""
        w, h = self.size(aspect)
        a = math.radians(self.angle)
        bw = abs(w * math.cos(a)) + abs(h * math.sin(a))
        bh = abs(w * math.sin(a)) + abs(h * math.cos(a))
        r = pygame.Rect(0, 0, math.ceil(bw), math.ceil(bh))
        r.center = (round(self.x), round(self.y))
        return r


class LayoutFacts(Protocol):
    """What the layout reads of a game's rules (a rules class or a rules object)."""

    @property
    def game_id(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def has_stock(self) -> bool: ...
    @property
    def has_trump(self) -> bool: ...
    @property
    def hand_capacity(self) -> int: ...


def score_bottom(players: int) -> int:
    """The lowest the score panel reaches: one row per seat at most (its tallest)."""
    return SCORE_RECT.y + 34 + 22 * players + 8


def _seat_teams(facts: object, players: int) -> Callable[[int], int]:
    """The score column of each seat as the rules declare it: a rules object's ``team_of``,
    else the game's rules for this count (each seat for itself where the count is not offered)."""
    team_of = getattr(facts, "team_of", None) if not isinstance(facts, type) else None
    if team_of is None and isinstance(facts, type):
        from game.rulesets import make_rules

        try:
            team_of = make_rules(str(getattr(facts, "game_id", "")), None, players).team_of
        except (ValueError, KeyError):
            team_of = None
    return team_of if callable(team_of) else (lambda seat: seat)


def edges(players: int) -> set[str]:
    """The edges of the felt where the other seats sit ("left", "top", "right"): what a panel
    over the felt keeps clear of."""
    return {seat_side(rel, players) for rel in range(1, players)}


def every_edge_taken(players: int) -> bool:
    """Whether seats sit along the left, the top and the right of the felt alike."""
    return edges(players) >= {"left", "top", "right"}


class TableLayout:
    """The placement rules for one game, player count and deck shape (``aspect`` = h / w).

    ``game`` is a game id, a rules class or a rules object: the layout reads its facts
    (``family``, ``has_stock``, ``has_trump``, ``hand_capacity``), never its name. Plates and
    piles are placed for the largest hand, so they stay put while the hands shrink."""

    def __init__(
        self,
        players: int,
        aspect: float,
        game: str | LayoutFacts,
        human_seat: int = 0,
        card_size: str = "normal",
        team_of: Callable[[int], int] | None = None,
    ):
        facts = cast(LayoutFacts, rules_class(game)) if isinstance(game, str) else game
        self.players = players
        #: The score column (pile) of each seat, as the rules declare the teams.
        self.team_of: Callable[[int], int] = team_of or _seat_teams(facts, players)
        self.aspect = float(aspect)
        self.game = facts.game_id
        self.human_seat = human_seat
        self.trick_game = facts.family != "capture"
        self.has_stock = bool(facts.has_stock)
        self.has_trump = bool(facts.has_trump)
        # The largest hand this deal can hold: the rules object's own hand size when its
        # options set one (Scopa deals 3, 9 or 10), else the game's largest.
        self.hand_capacity = int(min(facts.hand_capacity, getattr(facts, "hand_size", None) or facts.hand_capacity))
        # Every card of a hand at one height; wide packs are scaled so they are not too broad.
        # Larger cards (Settings): the hand grows most, the felt's cards a little less,
        # and the status line rises to stay above the lifted card.
        self.card_size = card_size if card_size in CARD_SCALES else "normal"
        hand_scale, table_scale = CARD_SCALES[self.card_size]
        self.hand_h = round(min(HAND_HEIGHT, int(HAND_MAX_WIDTH * self.aspect)) * hand_scale)
        self.table_h = round(TABLE_HEIGHT * table_scale)
        hand_top = HAND_AREA.bottom - self.hand_h
        self.status_pos = (STATUS_POS[0], min(STATUS_POS[1], hand_top - LIFT - 17))
        #: The buttons stacked right of the hand at most: the decisions with a button of
        #: their own (and "place only"), with the help above them (suggest, undo or messages).
        kinds = getattr(facts, "decision_kinds", None) or ()
        own = sum(1 for k in kinds if getattr(k, "label", ""))
        self.button_count = own + int(bool(getattr(facts, "may_place_instead", False))) + HELP_BUTTONS

    # ------------------------------------------------------------------ seats
    def side(self, seat: int) -> str:
        """ "bottom", "right", "top" or "left" for a seat."""
        return seat_side((seat - self.human_seat) % self.players, self.players)

    @property
    def top_seats(self) -> int:
        """How many seats sit along the top."""
        others = self.players - 1
        return others if others < 2 else others - 2

    def top_slot(self, seat: int) -> int:
        """A top seat's place along the top, left to right (in turn order, anticlockwise)."""
        rel = (seat - self.human_seat) % self.players
        return self.top_seats - 1 - (rel - 1 if self.players - 1 < 2 else rel - 2)

    def _top_span(self) -> tuple[float, float]:
        """The stretch of the top edge one top seat has (left x, width): the whole middle
        for one seat; for several, the width between the score panel and the HUD's buttons
        shared out."""
        if self.top_seats <= 1:
            return 0.0, 1280.0
        left = SCORE_RECT.right + 12
        return left, (TOP_STRIP.x - 8 - left) / self.top_seats

    def _top_center(self, seat: int) -> float:
        """The middle of a top seat's row of backs."""
        if self.top_seats <= 1:
            return 640.0
        left, width = self._top_span()
        pile = self._pile_room()  # each slot keeps its pile's room at its left
        return left + width * self.top_slot(seat) + pile + (width - pile) / 2

    def _pile_room(self) -> float:
        """The width a pile and its count badge take at the left of a top seat's share."""
        return max(self.card_w(PILE_HEIGHT), BADGE_W) + 14

    def card_w(self, h: int) -> int:
        return max(1, round(h / self.aspect))

    # ------------------------------------------------------------------ hands
    def hand(self, n: int) -> list[Place]:
        """The human's cards, left to right, resting (not lifted)."""
        if n <= 0:
            return []
        h = self.hand_h
        w = self.card_w(h)
        step = w + 14.0 if n == 1 else min(w + 14.0, (HAND_AREA.w - w) / (n - 1))
        total = w + step * (n - 1)
        x0 = HAND_AREA.centerx - total / 2 + w / 2
        y = HAND_AREA.bottom - h / 2
        return [Place(x0 + i * step, y, h) for i in range(n)]

    def _top_row(self, n: int) -> tuple[float, float]:
        """(card width, step) of the top seat's face-down row of ``n`` cards: 330 pixels of
        steps at most, less where several seats share the top."""
        w = self.card_w(BACK_HEIGHT)
        span = 330.0
        if self.top_seats > 1:
            span = min(span, self._top_span()[1] - self._pile_room() - 10 - w)
        return w, (min(w * 0.62, max(0.0, span) / max(1, n - 1)) if n > 1 else 0.0)

    def _side_column(self, n: int) -> tuple[float, float]:
        """(card width, step) of a side seat's column of ``n`` sideways cards: 230 pixels of
        steps at most, less where the score panel's rows (one per seat) reach down to it, or
        the stack of decision buttons up to it (a game with many decisions: bid, call, pass)."""
        w = self.card_w(SIDE_HEIGHT)
        room = 2 * (self.side_center_y - score_bottom(self.players) - 12 - PLATE_H - CHIP_R - 2) - w
        below = 2 * (self.buttons(self.button_count)[0].y - 8 - self.side_center_y) - w
        span = min(230.0, max(0.0, room), max(0.0, below))
        return w, (min(w * 0.7, span / max(1, n - 1)) if n > 1 else 0.0)

    def backs(self, seat: int, n: int) -> list[Place]:
        """An opponent's face-down cards: a tight row at the top, a column at the sides."""
        side = self.side(seat)
        if side == "bottom":
            return self.hand(n)
        if n <= 0:
            return []
        if side == "top":
            h = BACK_HEIGHT
            w, step = self._top_row(n)
            total = w + step * (n - 1)
            x0 = self._top_center(seat) - total / 2 + w / 2
            return [Place(x0 + i * step, TOP_Y + h / 2, h) for i in range(n)]
        h = SIDE_HEIGHT
        w, step = self._side_column(n)
        total = w + step * (n - 1)
        y0 = self.side_center_y - total / 2 + w / 2
        x = self._side_x(side)
        angle = -90.0 if side == "left" else 90.0
        return [Place(x, y0 + i * step, h, angle) for i in range(n)]

    side_center_y = 352

    @property
    def felt_y(self) -> float:
        """The middle of the felt's cards (trick, stock): raised as larger cards push the status up."""
        return TABLE_AREA.centery - (STATUS_POS[1] - self.status_pos[1]) * 0.5

    def table_area_bottom(self) -> int:
        """The lowest the felt's cards may reach: just above the caption over the status line."""
        return round(self.status_pos[1] - 14 - 30)

    @staticmethod
    def _side_x(side: str) -> float:
        return 24 + 14 + SIDE_HEIGHT / 2 if side == "left" else 1280 - 24 - 14 - SIDE_HEIGHT / 2

    def hand_box(self, seat: int, n: int | None = None) -> pygame.Rect:
        """The box round a seat's hand of ``n`` cards (the largest by default), the human's
        lifted cards included: what no plate, pile or count may cover."""
        n = self.hand_capacity if n is None else n
        places = self.backs(seat, max(1, n))
        rects = [p.bounds(self.aspect) for p in places]
        if self.side(seat) == "bottom":
            rects += [r.move(0, -LIFT) for r in rects]
        return rects[0].unionall(rects[1:])

    def seat_origin(self, seat: int) -> Place:
        """Where a card played from ``seat`` starts (a face-down card leaving that hand)."""
        side = self.side(seat)
        if side == "top":
            return Place(self._top_center(seat), TOP_Y + BACK_HEIGHT / 2, BACK_HEIGHT)
        if side in ("left", "right"):
            return Place(self._side_x(side), self.side_center_y, SIDE_HEIGHT, -90.0 if side == "left" else 90.0)
        return Place(HAND_AREA.centerx, HAND_AREA.centery, self.hand_h)

    def plate(self, seat: int) -> pygame.Rect:
        """The seat's name plate (name, turn glow, dealer chip), beside its hand: left of the
        human's, right of the top row, just above a side column (placed for the largest hand)."""
        side = self.side(seat)
        box = self.hand_box(seat)
        if side == "bottom":
            top = min(HAND_AREA.y, HAND_AREA.bottom - self.hand_h)  # level with the hand's top
            return pygame.Rect(max(40, box.x - 18 - PLATE_W), top, PLATE_W, PLATE_H)
        if side == "top" and self.top_seats > 1:
            # Several seats share the top: each plate under its own row, as wide as its share,
            # from the row's left end, by the seat's pile (and clear of the next seat's).
            left, width = self._top_span()
            w = min(PLATE_W, round(width) - 2 * CHIP_R - 8)
            r = pygame.Rect(0, box.bottom + CHIP_R + 4, w, PLATE_H)
            r.x = max(round(left + width * self.top_slot(seat) + self._pile_room() - 14), box.x - 4)
            r.x = min(r.x, round(left + width * (self.top_slot(seat) + 1)) - w - CHIP_R - 4)
            return r
        if side == "top":
            # Level with the row's lower half: the dealer chip stays below the HUD's buttons.
            return pygame.Rect(box.right + 18, TOP_STRIP.bottom + CHIP_R + 2, PLATE_W, PLATE_H)
        w = PLATE_W - 16
        x = 30 if side == "left" else 1280 - 30 - CHIP_R - w  # the dealer chip stays on the felt
        return pygame.Rect(x, box.y - 12 - PLATE_H, w, PLATE_H)

    def plate_box(self, seat: int) -> pygame.Rect:
        """The plate with its dealer chip (drawn at its top-right corner)."""
        r = self.plate(seat)
        chip = pygame.Rect(0, 0, 2 * CHIP_R + 2, 2 * CHIP_R + 2)
        chip.center = (r.right + 2, r.y + 2)
        return r.union(chip)

    # ------------------------------------------------------------------ the felt
    def stock(self) -> Place | None:
        """The face-down stock (Scopa, Briscola, Schnapsen), at the left of the felt."""
        if not self.has_stock:
            return None
        h = self.table_h - 8
        return Place(TABLE_AREA.x + 26 + self.card_w(h) / 2, self.felt_y, h)

    def trump(self) -> Place | None:
        """The turned trump, sideways under the stock and sticking out to its right."""
        s = self.stock()
        if s is None or not self.has_trump:
            return None
        w = self.card_w(s.h)
        return Place(s.x + w * 0.55, s.y, s.h, -90.0)

    def table_area(self) -> pygame.Rect:
        """Where table cards go: the felt right of the stock (all of it in Cìcera)."""
        a = TABLE_AREA.copy()
        if self.top_seats > 1:  # the top seats' plates lie under their rows
            top = max(self.plate_box(s).bottom for s in range(self.players) if self.side(s) == "top") + 8
            a.h -= max(0, top - a.y)
            a.y = max(a.y, top)
        if self.status_pos != STATUS_POS:  # larger cards: the felt ends above the risen status line
            a.h = min(a.h, self.table_area_bottom() - a.y)
        s = self.stock()
        if s is not None:
            cut = round(s.x + self.card_w(s.h) / 2 + 30 - a.x)
            a.x += cut
            a.w -= cut + 20
        return a

    def table(self, n: int) -> list[Place]:
        """Table cards in neat rows, centred; the cards shrink when the table is crowded."""
        if n <= 0:
            return []
        area = self.table_area()
        h = self.table_h
        while True:
            w = self.card_w(h)
            gap = max(8, w // 6)
            cols = max(1, (area.w + gap) // (w + gap))
            rows = math.ceil(n / cols)
            if rows * h + (rows - 1) * gap <= area.h or h <= TABLE_MIN_HEIGHT:
                break
            h -= 4
        cols = min(cols, math.ceil(n / rows))
        out: list[Place] = []
        total_h = rows * h + (rows - 1) * gap
        y0 = area.centery - total_h / 2 + h / 2
        for i in range(n):
            r, c = divmod(i, cols)
            in_row = min(cols, n - r * cols)
            total_w = in_row * w + (in_row - 1) * gap
            x0 = area.centerx - total_w / 2 + w / 2
            out.append(Place(x0 + c * (w + gap), y0 + r * (h + gap), h))
        return out

    def trick(self, seat: int, order: int = 0) -> Place:
        """A card in the trick: in front of the seat that played it, slightly askew. Two
        players' cards overlap a little; with more they lie in a cross that leaves every card
        whole (the partner's play is seen as well as the opponents'), several top seats'
        cards side by side with the side seats' moved out to make room."""
        side = self.side(seat)
        cx, cy = TABLE_AREA.centerx + 40, self.felt_y
        h = self.table_h
        off: tuple[float, float, float]
        if self.players - 1 < 2:
            off = {"bottom": (22, 52, 5.0), "top": (-22, -52, -4.0)}[side]
        else:
            # Between the top row (its hands and plates) and the status line: the cross's
            # cards are as tall as both allow (larger cards at a full top row shrink a little).
            tops = [s for s in range(self.players) if self.side(s) == "top"]
            row = max([self.plate_box(s).bottom for s in tops] + [self.hand_box(s).bottom for s in tops], default=0)
            top_edge = row + 8 if tops else TABLE_AREA.y
            if tops:
                h = min(h, int((self.status_pos[1] - 14 - 6 - top_edge) / 2 - 8))
            k = self.top_seats
            step, dy = self.card_w(h) + 14, h / 2 + 8
            dx = step * max(1.0, (k + 1) / 2)
            top_x = (self.top_slot(seat) - (k - 1) / 2) * step if side == "top" else 0.0
            off = {"bottom": (0, dy, 3.0), "top": (top_x, -dy, -2.0), "left": (-dx, 0, -3.0), "right": (dx, 0, 2.0)}[
                side
            ]
            # The bottom card stays above the caption's line (what was just played, in words)
            # where the felt has the room: the cross rises, never into the top row.
            cy = max(min(cy, self.caption_top() - 6 - dy - h / 2), top_edge + (dy if tops else 0) + h / 2)
        return Place(cx + off[0], cy + off[1], h, off[2])

    def caption_top(self) -> int:
        """The top of a one-line caption over the status line (scenes.table.hud draws it)."""
        return round(self.status_pos[1] - CAPTION_CLEAR)

    def pile(self, team: int) -> Place:
        """A team's capture pile (the cards it has won), face down, near a seat of that
        team: under the human's plate, left of the top row, inside a side column just below
        its plate."""
        h = PILE_HEIGHT
        w = self.card_w(h)
        human_team = self.team_of(self.human_seat)
        if team == human_team:
            r = self.plate(self.human_seat)
            return Place(r.x + 88, r.bottom + 16 + h / 2, h)
        seats = [s for s in range(self.players) if self.team_of(s) == team]
        seat = seats[0]
        side = self.side(seat)
        if side == "top":  # left of the row: right of it are the plate and the HUD's buttons
            x = self.hand_box(seat).x - 14 - w / 2
            if self.top_seats > 1:  # at the left of the seat's share of the top
                left, width = self._top_span()
                x = left + width * self.top_slot(seat) + (self._pile_room() - 14) / 2
            return Place(x, TOP_Y + h / 2, h)
        box = self.hand_box(seat)
        x = box.right + 14 + w / 2 if side == "left" else box.x - 14 - w / 2
        return Place(x, box.y + 4 + h / 2, h)

    def pile_badge(self, team: int) -> pygame.Rect:
        """Where the pile's count badge goes (under the pile, as ``table_draw.stack`` puts it)."""
        r = self.pile(team).rect(self.aspect)
        b = pygame.Rect(0, 0, BADGE_W, BADGE_H)
        b.midtop = (r.centerx, r.bottom + 2)
        return b

    def buttons(self, n: int) -> list[pygame.Rect]:
        """Action buttons stacked at the right of the hand, bottom up."""
        out = []
        y = 720 - 26 - BUTTON_H
        for _ in range(n):
            out.append(pygame.Rect(BUTTONS_X + (1256 - BUTTONS_X - BUTTON_W) // 2, y, BUTTON_W, BUTTON_H))
            y -= BUTTON_H + 10
        return out[::-1]

    # ------------------------------------------------------------------ for tests and checks
    def max_hand(self) -> int:
        return self.hand_capacity

    def every_place(self, table_cards: int = 20) -> list[Place]:
        """Every card position the game can produce, at the largest counts (for checks)."""
        out: list[Place] = []
        out += self.hand(self.max_hand())
        for s in range(self.players):
            if s != self.human_seat:
                out += self.backs(s, self.max_hand())
                out.append(self.seat_origin(s))
            out.append(self.trick(s))
        for t in sorted({self.team_of(s) for s in range(self.players)}):
            out.append(self.pile(t))
        if not self.trick_game:
            for n in range(1, table_cards + 1):
                out += self.table(n)
        for p in (self.stock(), self.trump()):
            if p is not None:
                out.append(p)
        return out


__all__ = [
    "CARD_SCALES",
    "LayoutFacts",
    "seat_side",
    "edges",
    "every_edge_taken",
    "score_bottom",
    "TableLayout",
    "Place",
    "CANVAS",
    "SAFE",
    "HAND_AREA",
    "TABLE_AREA",
    "STATUS_POS",
    "SCORE_RECT",
    "MENU_RECT",
    "TOP_STRIP",
    "LIFT",
]
