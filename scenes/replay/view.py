"""The viewer's pictures: the table at a position (every card where the table's layout puts
it, every hand face up or only one seat's), the HUD and the caption as the table draws them,
the control panel, the timeline bar and the banner that says where a record breaks.

The HUD and the caption are the table's own (scenes.table.hud), drawn from
:func:`hud_view`: the viewer's model as a table's view (scenes.table.view.TableView).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import pygame
from pygame.typing import ColorLike, RectLike

from game.rules.base import GameRules
from game.services.table_session import RecordSession
from scenes.replay.timeline import Timeline
from scenes.scene import AppServices
from scenes.table import board
from scenes.table.model import TableModel
from scenes.table.view import NoChoice, TableNames, TableView
from sprites import table_layout as TL
from sprites import theme
from sprites.table_draw import WARN, CardPainter, CardSprite, badge, stack
from sprites.table_layout import Place, TableLayout
from sprites.tween import Smooth, Tween
from sprites.widgets import Button

#: The control panel, right of the hand and below the side seat's cards.
PANEL = pygame.Rect(1062, 496, 196, 206)
#: The timeline bar inside it: one mark per deal, a red one where the record breaks.
BAR = pygame.Rect(PANEL.x + 12, PANEL.y + 40, PANEL.w - 24, 10)
FLY = 0.24
#: Where the banner about a damaged record sits: the top of the felt.
BANNER_Y = 138
#: The sprite key of a card nobody may see (followed by the seat and its place in the hand).
HIDDEN = "?"


class ReplayShown(Protocol):
    """What the drawing here reads of the replay viewer (scenes.replay.scene.ReplayScene)."""

    @property
    def app(self) -> AppServices: ...
    @property
    def rules(self) -> GameRules: ...
    @property
    def seat(self) -> int: ...
    @property
    def layout(self) -> TableLayout: ...
    @property
    def sprites(self) -> dict[str, CardSprite]: ...

    last_piles: list[int] | None

    @property
    def open_hands(self) -> bool: ...
    @property
    def time(self) -> float: ...
    @property
    def alpha(self) -> float: ...
    @property
    def pos(self) -> int: ...
    @property
    def minus(self) -> Button: ...
    @property
    def plus(self) -> Button: ...
    @property
    def timeline(self) -> Timeline: ...
    @property
    def naming_seat(self) -> int | None: ...

    def t(self, key: str, **params: object) -> str: ...
    def actor(self) -> int | None: ...
    def fresh_caption(self) -> bool: ...
    def at_break(self) -> bool: ...
    def problem_text(self) -> str | None: ...
    def position_text(self) -> str: ...
    def deal_text(self) -> str: ...
    def speed_text(self) -> str: ...
    def seat_label(self) -> str: ...
    def bar_total(self) -> int: ...


class _Glow:
    def __init__(self, value: float):
        self.value = value


class _Words:
    """The viewer's motion as the table's views read it: the caption (fresh or dimmed), each
    seat's cards as backs, nothing moving, no running tally (no narrator)."""

    def __init__(self, model: TableModel, caption: str | None, fresh: bool):
        from scenes.table.motion import CAPTION_FRESH

        self.caption = caption
        self.caption_age = 0.0 if fresh else CAPTION_FRESH
        self.narrator = None
        self.backs = {s: list(model.hands[s]) for s in range(len(model.hands))}
        self.sprites: dict[str, CardSprite] = {}
        self.lifts: dict[str, Smooth] = {}
        self.idle = True
        self.waiting = False


def hud_view(scene: ReplayShown, model: TableModel, caption: str | None) -> TableView:
    """The viewer's position as a table's view (scenes.table.view.TableView), for the
    table's own HUD and caption."""
    rules = scene.rules
    session = RecordSession(rules, scene.seat)
    actor = scene.actor()
    return TableView(
        app=scene.app,
        rules=rules,
        layout=scene.layout,
        session=session,
        # "You" only where a person played: nobody's chair otherwise.
        names=TableNames(scene.app, rules, scene.naming_seat, session=getattr(scene, "names_source", None)),
        model=model,
        motion=_Words(model, caption, scene.fresh_caption()),
        choice=NoChoice(),
        human=scene.seat,
        time=scene.time,
        active_glow={s: _Glow(1.0 if s == actor else 0.0) for s in range(rules.players)},
    )


# ---------------------------------------------------------------------- the cards
def targets(scene: ReplayShown, m: TableModel) -> dict[str, tuple[Place, bool]]:
    """Every card the model shows: where it goes and whether its face shows (another
    seat's hand is face up unless only the bottom seat's hand is shown)."""
    hands = [sorted(h, key=m.sort_key) if m.sort_key else list(h) for h in m.hands]
    # A hidden card (a spectator's stream: null) gets a key of its own, so each is a back.
    hands = [[c if c is not None else f"{HIDDEN}{s}.{i}" for i, c in enumerate(h)] for s, h in enumerate(hands)]
    shown = _Display(m, hands, scene.seat)
    places = board.card_places(scene.layout, shown, {s: hands[s] for s in range(len(hands)) if s != scene.seat})
    out: dict[str, tuple[Place, bool]] = {}
    others = {c for s, h in enumerate(hands) if s != scene.seat for c in h}
    for code, place in places.items():
        hidden = (code in others and not scene.open_hands) or (code == m.trump and m.closed) or code.startswith(HIDDEN)
        out[code] = (place, not hidden)
    return out


class _Display:
    """The model as shown from ``seat``: its hands in hand order, that seat's hand at the bottom."""

    def __init__(self, m: TableModel, hands: list[list[str]], seat: int):
        self.hands = hands
        self.hand = hands[seat]
        self.viewer = seat
        self.table = m.table
        self.trick = m.trick
        self.trump = m.trump
        self.closed = m.closed


def settle_sprites(scene: ReplayShown, m: TableModel, instant: bool) -> None:
    """Move the card sprites to the model's places: cards that leave the table fly to the
    pile that grew (or fade at once), new cards come from the stock."""
    want = targets(scene, m)
    sprites: dict[str, CardSprite] = scene.sprites
    old_piles = scene.last_piles
    grew = [
        t for t in range(len(m.piles)) if old_piles is not None and t < len(old_piles) and m.piles[t] > old_piles[t]
    ]
    origin = scene.layout.stock() or Place(TL.TABLE_AREA.centerx, TL.TABLE_AREA.centery, TL.TABLE_HEIGHT)
    for code in list(sprites):
        if code in want:
            continue
        leaving = sprites[code]
        if instant or len(grew) != 1:
            del sprites[code]
            continue
        leaving.move(scene.layout.pile(grew[0]), FLY)
        leaving.turn(None, 0.0, FLY * 0.6)
        leaving.vanish = True
    for z, (code, (place, face)) in enumerate(want.items()):
        sp = sprites.get(code)
        if sp is None:
            sp = sprites[code] = CardSprite(code, None, place if instant else origin)
        sp.vanish = False  # stepping back: a card on its way to a pile comes back
        sp.z = z
        if instant:
            end = (place.x, place.y, place.angle, float(place.h))
            sp.tween, sp.end_place = Tween(end, end, 0.0), place
            sp.code = sp.old_code = code if face else None
            sp.flip = None
        else:
            sp.move(place, FLY)
            sp.turn(code if face else None, FLY * 0.4, 0.18)
    scene.last_piles = list(m.piles)


def draw_cards(surface: pygame.Surface, scene: ReplayShown, m: TableModel, P: CardPainter) -> None:
    L = scene.layout
    st = L.stock()
    trump_sp = scene.sprites.get(m.trump) if m.trump else None
    if trump_sp is not None and not m.closed:
        _sprite(surface, scene, P, trump_sp)
    if st is not None:
        label = scene.t("table.stock_closed") if m.closed else scene.t("story.stock_left", count=m.stock_count)
        count = m.stock_count - (1 if (m.trump and not m.closed) else 0)
        if count > 0 or m.stock_count == 0:
            stack(P, surface, st, count, label if m.stock_count or m.closed else None)
        elif m.trump:
            badge(surface, label, (round(st.x), round(st.y + st.h / 2 + 2)))
    if trump_sp is not None and m.closed:
        _sprite(surface, scene, P, trump_sp)
    if st is not None and m.trump_suit and scene.rules.has_trump:
        board.trump_chip(surface, hud_view(scene, m, None), P, m.trump_suit, (round(st.x), round(st.y + st.h / 2 + 28)))
    for t in range(scene.rules.teams):
        stack(P, surface, L.pile(t), m.piles[t], str(m.piles[t]) if m.piles[t] else None)
    for sp in sorted(scene.sprites.values(), key=lambda s: (s.moving, s.z)):
        if sp is not trump_sp:
            _sprite(surface, scene, P, sp)


def _sprite(surface: pygame.Surface, scene: ReplayShown, P: CardPainter, sp: CardSprite) -> None:
    x, y, a, h = sp.value(scene.alpha)
    code, squash = sp.code, 1.0
    if sp.flip is not None and not sp.flip.done:
        f = float(sp.flip.value)
        code = sp.old_code if f < 0.5 else sp.code
        squash = max(0.04, abs(1 - 2 * f))
    P.draw(surface, code, x, y, a, h, 0.0, squash, 60 if h < 80 else 110)


# ---------------------------------------------------------------------- the words and the panel
def draw_banner(surface: pygame.Surface, scene: ReplayShown) -> None:
    """The record's problem, in verify's words, over the top of the felt (dimmed while the
    position is before the break)."""
    text = scene.problem_text()
    if not text:
        return
    w = 860
    lines = theme.wrap(text, "sans_bold", 14, w - 40, max_lines=3)
    r = pygame.Rect(0, 0, w, 14 + 19 * len(lines))
    r.midtop = (640, BANNER_Y)
    at_break = scene.at_break()
    surface.blit(theme.rounded(r.size, 12, (40, 14, 10, 225 if at_break else 180), 1, (*WARN, 255)), r)
    for i, ln in enumerate(lines):
        theme.blit_text(
            surface,
            ln,
            (r.centerx, r.y + 7 + 19 * i),
            "sans_bold",
            14,
            theme.CREAM if at_break else theme.CREAM_DIM,
            anchor="midtop",
        )


def draw_panel(surface: pygame.Surface, scene: ReplayShown) -> None:
    r = PANEL
    surface.blit(theme.shadow(r.size, 12, 6, 110), (r.x - 6, r.y - 3))
    surface.blit(theme.panel(r.size, 12, (9, 28, 19, 225)), r)
    head = scene.position_text()
    theme.blit_text(
        surface, head, (r.x + 12, r.y + 8), "sans_bold", theme.fit(head, "sans_bold", 13, r.w - 24, 9), theme.CREAM
    )
    sub = scene.deal_text()
    theme.blit_text(
        surface, sub, (r.x + 12, r.y + 24), "sans", theme.fit(sub, "sans", 12, r.w - 24 - 90, 9), theme.CREAM_DIM
    )
    _draw_bar(surface, scene)
    if scene.rules is not None:
        speed = f"{scene.t('replay.speed')} {scene.speed_text()}"
        cx = (scene.minus.rect.right + scene.plus.rect.x) // 2
        theme.blit_text(
            surface,
            speed,
            (cx, scene.minus.rect.centery + 1),
            "sans_bold",
            theme.fit(speed, "sans_bold", 13, scene.plus.rect.x - scene.minus.rect.right - 8, 9),
            theme.BRASS_LIGHT,
            anchor="center",
        )
        seat = scene.seat_label()
        theme.blit_text(
            surface,
            seat,
            (r.right - 12, r.y + 24),
            "sans",
            theme.fit(seat, "sans", 12, 84, 9),
            theme.CREAM_DIM,
            anchor="topright",
        )


def _draw_bar(surface: pygame.Surface, scene: ReplayShown) -> None:
    tl = scene.timeline
    total = max(1, scene.bar_total())
    surface.blit(theme.rounded(BAR.size, 5, (255, 255, 255, 26)), BAR)
    done = round(BAR.w * min(1.0, scene.pos / total))
    if done > 0:
        surface.blit(theme.rounded((max(4, done), BAR.h), 5, (*theme.BRASS, 235)), BAR.topleft)
    for s in tl.deal_starts():
        x = BAR.x + round(BAR.w * (s - 1) / total)
        pygame.draw.line(surface, theme.CREAM_FAINT, (x, BAR.y - 3), (x, BAR.y - 1))
    k = tl.break_line
    if k is not None:
        x = BAR.x + min(BAR.w, round(BAR.w * k / total))
        pygame.draw.rect(surface, WARN, (x - 1, BAR.y - 4, 3, BAR.h + 8))
    x = BAR.x + done
    pygame.draw.circle(surface, theme.BRASS_LIGHT, (min(BAR.right - 2, max(BAR.x + 2, x)), BAR.centery), 6)


def bar_position(scene: ReplayShown, x: int) -> int:
    """The position a click on the timeline bar at ``x`` goes to."""
    total = max(1, scene.bar_total())
    return round((x - BAR.x) / max(1, BAR.w) * total)


# ---------------------------------------------------------------------- icon buttons
class IconButton(Button):
    """A small button with a drawn symbol (the font has no ⏮): first, prev_deal, prev,
    play, pause, next, next_deal, last, minus, plus."""

    def __init__(self, rect: RectLike, glyph: object, on_click: Callable[[], object], **kw: Any):
        super().__init__(rect, "", on_click, size=12, **kw)
        self.glyph = glyph

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        if not self.visible:
            return
        super().draw(surface, focused)
        glyph = str(self.glyph() if callable(self.glyph) else self.glyph)  # a name, or what says it now
        lift = -round(2 * max(self.hover.value, self.focus_glow.value)) + (1 if self.pressed else 0)
        color = theme.CREAM if self.enabled else theme.CREAM_FAINT
        icon(surface, glyph, (self.rect.centerx, self.rect.centery + lift), color)


def icon(surface: pygame.Surface, glyph: str, center: tuple[int, int], color: ColorLike) -> None:
    cx, cy = center
    s = 5

    def tri(x: float, left: bool) -> None:
        pts = (
            [(x + s, cy - s), (x - s + 1, cy), (x + s, cy + s)]
            if left
            else [(x - s, cy - s), (x + s - 1, cy), (x - s, cy + s)]
        )
        pygame.draw.polygon(surface, color, pts)

    def bar(x: float) -> None:
        pygame.draw.rect(surface, color, (round(x) - 1, cy - s, 3, 2 * s + 1))

    if glyph == "play":
        tri(cx + 1, False)
    elif glyph == "pause":
        bar(cx - 3)
        bar(cx + 3)
    elif glyph == "prev":
        tri(cx, True)
    elif glyph == "next":
        tri(cx, False)
    elif glyph == "prev_deal":
        tri(cx - 3, True)
        tri(cx + 4, True)
    elif glyph == "next_deal":
        tri(cx - 4, False)
        tri(cx + 3, False)
    elif glyph == "first":
        bar(cx - 6)
        tri(cx + 1, True)
    elif glyph == "last":
        tri(cx - 1, False)
        bar(cx + 6)
    elif glyph in ("minus", "plus"):
        pygame.draw.rect(surface, color, (cx - s, cy - 1, 2 * s + 1, 3))
        if glyph == "plus":
            pygame.draw.rect(surface, color, (cx - 1, cy - s, 3, 2 * s + 1))


__all__ = [
    "PANEL",
    "BAR",
    "hud_view",
    "targets",
    "settle_sprites",
    "draw_cards",
    "draw_banner",
    "draw_panel",
    "bar_position",
    "IconButton",
    "icon",
]
