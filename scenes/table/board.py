"""The cards on the felt: the stock and its turned card, the piles, the table cards and the
trick, the other seats' backs and the human's hand (lifted where the player points), with
the hints' outlines and veils. ``v`` is the table's view (scenes.table.view.TableView): the
model's cards, the motion's sprites and lifts, the choice the controller holds.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from game.rules.capture import captured
from scenes.table.view import TableView
from sprites import hidpi, theme
from sprites import table_layout as TL
from sprites.fans import card_art
from sprites.table_draw import CANDIDATE, OUTLINE, CardPainter, CardSprite, badge, outline, stack

Highlight = tuple[tuple[int, int, int], float]


def pile_text(v: TableView, team: int) -> str | None:
    """The pile's badge: its count, and with partners whose pile it is ("Them · 12": one pile
    per side, wherever its cards were won)."""
    n = v.model.piles[team]
    if v.teams < v.players:
        return f"{v.names.team_name(team)} · {n}" if n else None
    return str(n) if n else None


def pile_label(surface: pygame.Surface, v: TableView, team: int, rect: pygame.Rect) -> None:
    """An empty team pile still says whose it is, under its outline."""
    if v.teams < v.players and not v.model.piles[team]:
        badge(surface, v.names.team_name(team), (rect.centerx, rect.bottom + 2), theme.CREAM_DIM)


def draw_cards(surface: pygame.Surface, v: TableView, P: CardPainter) -> None:
    L, m = v.layout, v.model
    # The trump under the stock, then the stock, then everything else by depth.
    sprites = sorted(v.motion.sprites.values(), key=lambda sp: (sp.moving, sp.z))
    trump_sp = v.motion.sprites.get(m.trump) if m.trump else None
    if trump_sp is not None and not trump_sp.moving and not m.closed:
        draw_sprite(surface, v, P, trump_sp)
    st = L.stock()
    if st is not None:
        label = v.t("table.stock_closed") if m.closed else v.t("story.stock_left", count=m.stock_count)
        count = m.stock_count - (1 if (m.trump and not m.closed and trump_sp is not None) else 0)
        if count > 0 or m.stock_count == 0:
            stack(P, surface, st, count, label if m.stock_count or m.closed else None)
        elif m.trump:
            badge(surface, label, (round(st.x), round(st.y + st.h / 2 + 2)))
    if trump_sp is not None and not trump_sp.moving and m.closed:
        draw_sprite(surface, v, P, trump_sp)
    if st is not None and m.trump_suit and v.rules.has_trump:
        trump_chip(surface, v, P, m.trump_suit, (round(st.x), round(st.y + st.h / 2 + 28)))
    for t in range(v.teams):
        pile_label(surface, v, t, stack(P, surface, L.pile(t), m.piles[t], pile_text(v, t)))
    highlights = highlights_of(v)
    hand_set = set(m.hand)
    # Open hands practice: the other seats' cards face up where their backs rest.
    faces = open_hand_places(v) if hands_open(v) else {}
    backs = {k for keys in v.motion.backs.values() for k in keys} if faces else set()
    for code, p in faces.items():
        P.draw(surface, code, p.x, p.y, p.angle, p.h, 0.0, 1.0, 60)
    for sp in sprites:
        if sp is trump_sp and not sp.moving:
            continue
        if (sp.key in hand_set or sp.key in backs) and not sp.moving:
            continue
        draw_sprite(surface, v, P, sp, highlight=highlights.get(sp.key))
    # The hand last, left to right, lifted where the player points.
    dim = dimmed(v)
    for code in m.hand:
        held = v.motion.sprites.get(code)
        if held is None or held.moving:
            continue
        lift = v.motion.lifts[code].value_at(v.alpha) if code in v.motion.lifts else 0.0
        draw_sprite(surface, v, P, held, lift=lift, highlight=highlights.get(code), dim=code in dim)
    for sp in sprites:
        if sp.key in hand_set and sp.moving:
            draw_sprite(surface, v, P, sp)


def hands_open(v: TableView) -> bool:
    """Open hands practice (the ``open_hands`` setting): the computer's hands face up; the
    controller counts such a match as practice. Never at an online table: the other hands
    arrive hidden (None), drawn as backs."""
    return (
        bool(getattr(v.app.settings, "open_hands", False))
        and not v.choice.spectator
        and v.session.capabilities.open_hands
    )


def open_hand_places(v: TableView) -> dict[str, TL.Place]:
    """The other seats' cards face up, in hand order, where the layout puts their backs."""
    m = v.model
    out: dict[str, TL.Place] = {}
    for seat in range(m.players):
        if seat == m.viewer:
            continue
        hand = sorted(m.hands[seat], key=m.sort_key) if m.sort_key else list(m.hands[seat])
        out.update(zip(hand, v.layout.backs(seat, len(hand))))
    return out


class CardsShown(Protocol):
    """What :func:`card_places` reads of a model (the table's, or a replay's display of it)."""

    @property
    def hand(self) -> list[str]: ...
    @property
    def viewer(self) -> int: ...
    @property
    def table(self) -> list[str]: ...
    @property
    def trick(self) -> list[tuple[int, str]]: ...
    @property
    def trump(self) -> str | None: ...
    @property
    def closed(self) -> bool: ...


def card_places(L: TL.TableLayout, m: CardsShown, backs: dict[int, list[str]]) -> dict[str, TL.Place]:
    """Where the model's cards go on layout ``L`` (sprite key -> place): the viewer's hand,
    the other seats' backs (``backs``: their sprite keys), the table, the trick, the trump."""
    out: dict[str, TL.Place] = {}
    for code, p in zip(m.hand, L.hand(len(m.hand))):
        out[code] = p
    for seat, keys in backs.items():
        if seat == m.viewer:
            continue
        for k, p in zip(keys, L.backs(seat, len(keys))):
            out[k] = p
    for code, p in zip(m.table, L.table(len(m.table))):
        out[code] = p
    for seat, code in m.trick:
        out[code] = L.trick(seat)
    tp = L.trump()
    if m.trump is not None and tp is not None:
        st = L.stock()
        if m.closed and st is not None:
            tp = TL.Place(st.x, st.y, st.h, -90.0)  # turned face down across the closed stock
        out[m.trump] = tp
    return out


def _chip_parts(v: TableView, art: Any, suit: str) -> tuple[str, str, pygame.Surface | None, int]:
    """The trump chip's head ("TRUMPS"), the suit's name in the player's language, the
    suit's sign (None when the art has no inks) and the chip's width."""
    try:
        name = v.deck.suit_name(suit, v.lang)
    except (KeyError, TypeError):
        name = suit
    head = v.t("story.trumps")
    sign = None
    inks = getattr(art, "inks", None)
    if inks and suit in inks:
        from sprites.suits import sign_surface

        style = getattr(art, "style", None)
        curved = getattr(style, "curved_swords", True)
        ui = hidpi.scale()
        key = (art.system, suit, inks[suit], curved, ui)
        sign = _SIGNS.get(key)
        if sign is None:  # drawn at the window's pixels
            sign = _SIGNS[key] = hidpi.wrap(
                sign_surface(art.system, suit, round(18 * ui), inks[suit], curved), None, ui
            )
    sign_w = sign.get_width() + 6 if sign is not None else 0
    w = (
        14
        + theme.text_width(head, "cond_bold", 11, 11 * 0.16, True)
        + 8
        + sign_w
        + theme.text_width(name, "sans_bold", 14)
        + 14
    )
    return head, name, sign, w


def trump_chip_box(v: TableView) -> pygame.Rect | None:
    """Where the trump chip stands on this table (None: no chip), so that what is drawn
    after it (the caption) can keep clear of it."""
    m, st = v.model, v.layout.stock()
    if st is None or not m.trump_suit or not v.rules.has_trump:
        return None
    w = _chip_parts(v, card_art(v.deck), m.trump_suit)[3]
    r = pygame.Rect(0, 0, w, 28)
    r.midtop = (round(st.x), round(st.y + st.h / 2 + 28))
    return r


def trump_chip(
    surface: pygame.Surface, v: TableView, P: CardPainter, suit: str, midtop: tuple[int, int]
) -> pygame.Rect:
    """ "TRUMPS ⟨sign⟩ Coins" under the stock, all deal long: also once the turned card is
    drawn, and after a close, when it lies face down."""
    head, name, sign, w = _chip_parts(v, P.art, suit)
    head_w = theme.text_width(head, "cond_bold", 11, 11 * 0.16, True)
    name_img = theme.text(name, "sans_bold", 14, theme.CREAM)
    sign_w = sign.get_width() + 6 if sign is not None else 0
    r = pygame.Rect(0, 0, w, 28)
    r.midtop = midtop
    surface.blit(theme.rounded(r.size, 14, (8, 24, 16, 220), 1, (*theme.BRASS_DARK, 255)), r)
    x = r.x + 14
    theme.small_caps(surface, head, (x, r.centery - 7), 11, theme.BRASS)
    x += head_w + 8
    if sign is not None:
        # A light disc behind the sign: the suits' own inks (dark Spades, brown Acorns) on felt.
        pygame.draw.circle(surface, (243, 234, 215), (x + sign.get_width() // 2, r.centery), 12)
        surface.blit(sign, sign.get_rect(center=(x + sign.get_width() // 2, r.centery)))
        x += sign_w
    surface.blit(name_img, name_img.get_rect(midleft=(x, r.centery + 1)))
    return r


def draw_sprite(
    surface: pygame.Surface,
    v: TableView,
    P: CardPainter,
    sp: CardSprite,
    lift: float = 0.0,
    highlight: Highlight | None = None,
    dim: bool = False,
) -> None:
    x, y, a, h = sp.value(v.alpha)
    code = sp.code
    squash = 1.0
    if sp.flip is not None and not sp.flip.done:
        f = float(sp.flip.value)
        code = sp.old_code if f < 0.5 else sp.code
        squash = max(0.04, abs(1 - 2 * f))
    shadow = 60 if h < 80 else 110
    rect = P.draw(surface, code, x, y, a, h, lift, squash, shadow)
    if dim:
        veil = theme.rounded(rect.size, max(4, rect.w // 10), (8, 20, 14, 120))
        surface.blit(veil, rect)
    if sp.glow > 0:
        outline(surface, rect, OUTLINE, sp.glow)
    if highlight is not None:
        color, strength = highlight
        outline(surface, rect, color, strength)


def highlights_of(v: TableView) -> dict[str, Highlight]:
    """The chosen card glows; the capture it would take is outlined; hints show the rest."""
    out: dict[str, Highlight] = {}
    if not v.choice.can_act:
        return out
    hints = bool(getattr(v.app.settings, "hints", True))
    hand = v.model.hand
    if v.choice.selected is not None:
        out[v.choice.selected] = (OUTLINE, 1.0)
        if hints:
            for a in v.choice.cands:
                for c in captured(a):
                    out[c.code] = (CANDIDATE, 0.45)
        if v.choice.built:
            for built in v.choice.built:
                out[built] = (OUTLINE, 1.0)
        elif v.choice.cands and v.choice.mode == "capture":
            for c in captured(v.choice.cands[v.choice.cand_i % len(v.choice.cands)]):
                out[c.code] = (OUTLINE, 1.0)
    elif hints and v.capture_game and 0 <= v.choice.cursor < len(hand):
        for a in v.choice.candidates_for(hand[v.choice.cursor]):
            for c in captured(a):
                out[c.code] = (CANDIDATE, 0.55)
    return out


def dimmed(v: TableView) -> set[str]:
    """Hints in trick games: cards the rules would refuse now are veiled."""
    if not v.choice.can_act or v.capture_game or not getattr(v.app.settings, "hints", True):
        return set()
    playable = {a.card.code for a in v.choice.legal() if a.kind == "play" and a.card is not None}
    return {c for c in v.model.hand if c not in playable}


def plays_a_card(v: TableView) -> bool:
    """Whether the decision in front of the player may be a card from the hand (not while it
    is only a bid, a pass or a call: the hand then stays down under the key cursor)."""
    return v.choice.can_act and any(a.card is not None for a in v.choice.legal())


def lift_target(v: TableView, code: str, card_now: bool | None = None) -> float:
    """How far a hand card rises: the chosen one fully, the pointed-at one half; none while
    no card may be played (``card_now``: :func:`plays_a_card`, worked out once per frame)."""
    hand = v.model.hand
    if not v.choice.can_act or code not in hand:
        return 0.0
    if not (plays_a_card(v) if card_now is None else card_now):
        return 0.0
    if code == v.choice.selected:
        return TL.LIFT
    i = hand.index(code)
    if v.choice.selected is None and (i == v.choice.cursor or code == v.hover_code):
        return TL.LIFT * 0.55
    return 0.0


def card_rect(v: TableView, code: str) -> pygame.Rect | None:
    """Where a card is drawn now (lift included): the mouse's target."""
    sp = v.motion.sprites.get(code)
    if sp is None:
        return None
    x, y, a, h = sp.value()
    r = TL.Place(x, y, round(h), a).bounds(v.deck.aspect)
    lift = v.motion.lifts[code].value if code in v.motion.lifts and code in v.model.hand else 0.0
    return r.move(0, -round(lift))


def hand_card_at(v: TableView, pos: tuple[int, int]) -> str | None:
    for code in reversed(v.model.hand):
        r = card_rect(v, code)
        if r is not None and r.collidepoint(pos):
            return code
    return None


_SIGNS: dict[tuple, pygame.Surface] = {}  # the trump chip's sign, per look and scale
hidpi.on_rescale(_SIGNS.clear)

__all__ = [
    "draw_cards",
    "draw_sprite",
    "trump_chip",
    "trump_chip_box",
    "card_places",
    "hands_open",
    "open_hand_places",
    "highlights_of",
    "dimmed",
    "lift_target",
    "plays_a_card",
    "card_rect",
    "hand_card_at",
]
