"""Every card of every deck, drawn in code at the size asked.

    art = get_card_art(deck_config)         # one CardArt per deck id
    art.face("7D", 180, lang="it")           # SRCALPHA surface with rounded corners
    art.back(180)
    art.size(180)                            # (round(180 / deck.aspect), 180)

Faces are drawn at twice the size and smoothscaled (supersampling gives smooth edges without
per-shape anti-aliasing), then kept in an LRU cache keyed by (code, height, lang) — the
language only matters for courts, so numerals share one entry across languages.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.cards import RANKS, SUITS
from game.config import DeckConfig
from sprites import courts as fig
from sprites import hidpi
from sprites.ink import Palette, SuitInk, clear_inks, darker, mix, palette_for, suit_colors
from sprites.ornaments import BACKS, back_lozenges, laurel
from sprites.pips import Pip, pip_layout, pip_size
from sprites.shapes import circle
from sprites.suits import SIGN_ASPECT, blit_sign, draw_baton, draw_sign, draw_sword
from sprites.theme import render_line

SS = 2  # supersampling factor
FACE_CACHE_SIZE = 600
MIN_HEIGHT = 12
MAX_HEIGHT = 2400

# --------------------------------------------------------------------------- fonts

_FONT_DIRS = (Path(__file__).resolve().parent / "fonts", Path("/usr/share/fonts/truetype/dejavu"))
_FONTS: dict[tuple[str, int], pygame.font.Font] = {}


def _font(kind: str, px: float) -> pygame.font.Font:
    """A cached font: kind is "sans" (bold), "narrow" (condensed bold) or "serif" (bold)."""
    px = max(6, int(px))
    key = (kind, px)
    f = _FONTS.get(key)
    if f is not None:
        return f
    wanted = {
        "sans": ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
        "narrow": ("DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
        "serif": ("DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
    }[kind]
    if not pygame.font.get_init():
        pygame.font.init()
    for name in wanted:
        for folder in _FONT_DIRS:
            path = folder / name
            if path.is_file():
                try:
                    f = pygame.font.Font(str(path), px)
                except (OSError, pygame.error):
                    continue
                if "Bold" not in name:
                    f.bold = True  # synthetic bold keeps small indices legible
                _FONTS[key] = f
                return f
    f = pygame.font.Font(None, round(px * 1.3))
    f.bold = True
    _FONTS[key] = f
    return f


# --------------------------------------------------------------------------- pattern styles


@dataclass(frozen=True)
class PatternStyle:
    """What sets one regional pattern apart besides its colours."""

    curved_swords: bool = True  # northern Italian patterns curve and interlace their blades
    double_headed: bool = False  # French-suited packs mirror the court in two halves
    court_label: bool = True  # Italian packs print the court's name along the bottom
    back: str = "lozenges"
    frame_courts: bool = False


STYLES: dict[str, PatternStyle] = {
    "piacentine": PatternStyle(back="lozenges"),
    "napoletane": PatternStyle(curved_swords=False, back="rosette"),
    "bresciane": PatternStyle(back="tartan"),
    "trevisane": PatternStyle(back="scales"),
    "piemontesi": PatternStyle(double_headed=True, court_label=False, back="checks", frame_courts=True),
    "schnapsen-german": PatternStyle(court_label=False, back="medallion", frame_courts=True),
    "schnapsen-french": PatternStyle(double_headed=True, court_label=False, back="lattice", frame_courts=True),
}
_SYSTEM_STYLE = {
    "italian": PatternStyle(),
    "french": PatternStyle(double_headed=True, court_label=False, back="lattice", frame_courts=True),
    "german": PatternStyle(court_label=False, back="medallion", frame_courts=True),
}


def style_for(deck: DeckConfig) -> PatternStyle:
    return STYLES.get(deck.id, _SYSTEM_STYLE.get(deck.suit_system, PatternStyle()))


# --------------------------------------------------------------------------- card art


class CardArt:
    """Draws and caches the faces and back of one deck."""

    def __init__(self, deck: DeckConfig, four_colour: bool = False, clear: bool = False):
        self.deck = deck
        self.style = style_for(deck)
        self.pal: Palette = palette_for(dict(deck.colors))
        self.inks: dict[str, SuitInk] = (
            clear_inks(self.pal) if clear else suit_colors(deck.suit_system, self.pal, four_colour)
        )
        self.system = deck.suit_system
        #: Clear suits: the suits' clear colours and a suit mark in the two free corners.
        self.clear = clear
        self.marks = suit_marks(deck) if clear else {}
        self._faces: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._bases: dict[tuple[int, int], tuple[pygame.Surface, pygame.Surface]] = {}  # (canvas, mask)
        self._labels: dict[str, dict[str, str]] = {}

    # ------------------------------------------------------------------ public API

    def size(self, height: int) -> tuple[int, int]:
        h = int(height)
        return (max(1, round(h / self.deck.aspect)), h)

    def face(self, code: str, height: int, lang: str = "en") -> pygame.Surface:
        """The face of card ``code`` at ``height`` pixels; raises ValueError for a card not in the deck."""
        rank, suit = self._parse(code)
        height = self._check_height(height)
        ui = hidpi.scale()
        key = (rank + suit, height, lang if rank in ("J", "Q", "K") else "", ui)
        return self._cached(key, lambda: self._at_scale(height, ui, lambda h: self._render_face(rank, suit, h, lang)))

    def back(self, height: int) -> pygame.Surface:
        height = self._check_height(height)
        ui = hidpi.scale()
        return self._cached(("back", height, "", ui), lambda: self._at_scale(height, ui, self._render_back))

    def _at_scale(self, height: int, ui: float, render) -> pygame.Surface:
        """Drawn at the window's pixels (``height`` × the UI scale), measured in logical ones."""
        if ui == 1.0:
            return render(height)
        return hidpi.wrap(render(min(MAX_HEIGHT, max(MIN_HEIGHT, round(height * ui)))), self.size(height), ui)

    def index_label(self, rank: str, lang: str = "en") -> str:
        """The rank shown in the corner: A, 2..10, or the localised court initial when unambiguous."""
        if rank not in ("J", "Q", "K"):
            return rank
        table = self._labels.get(lang)
        if table is None:
            self._labels[lang] = table = court_indices({r: self.deck.court_name(r, lang) for r in ("J", "Q", "K")})
        return table[rank]

    # ------------------------------------------------------------------ plumbing

    def _parse(self, code: str) -> tuple[str, str]:
        if not isinstance(code, str) or len(code) < 2 or code[-1] not in SUITS or code[:-1] not in RANKS:
            raise ValueError(f"{code!r} is not a card code (like 7D, 10S, KB)")
        rank, suit = code[:-1], code[-1]
        if rank not in self.deck.ranks():
            raise ValueError(f"the {self.deck.id} deck has no card {code}")
        return rank, suit

    @staticmethod
    def _check_height(height: int) -> int:
        try:
            h = int(height)
        except (TypeError, ValueError):
            raise ValueError(f"card height must be a whole number of pixels, not {height!r}") from None
        if h < 1:
            raise ValueError(f"card height must be positive, not {height!r}")
        return min(max(h, MIN_HEIGHT), MAX_HEIGHT)

    def _cached(self, key: tuple, make) -> pygame.Surface:
        hit = self._faces.get(key)
        if hit is not None:
            self._faces.move_to_end(key)
            return hit
        surf = make()
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            surf = surf.convert_alpha()  # faster blits once a window exists
        self._faces[key] = surf
        if len(self._faces) > FACE_CACHE_SIZE:
            self._faces.popitem(last=False)
        return surf

    def _base(self, W: int, H: int) -> pygame.Surface:
        """An opaque supersampled canvas: paper inside a thin ink border.

        Drawing happens on an opaque surface because gfxdraw's anti-aliasing writes partial
        alpha into SRCALPHA surfaces; the rounded corners are cut out at the end (_finish).
        """
        hit = self._bases.get((W, H))
        if hit is None:
            if len(self._bases) > 64:
                self._bases.clear()
            r, b = self._corner(W)
            canvas = pygame.Surface((W, H))
            canvas.fill(self.pal.ink)
            pygame.draw.rect(
                canvas, self.pal.paper, canvas.get_rect().inflate(-2 * b, -2 * b), border_radius=max(1, r - b)
            )
            mask = pygame.Surface((W, H), pygame.SRCALPHA)
            mask.fill((255, 255, 255, 0))
            pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=r)
            self._bases[(W, H)] = hit = (canvas, mask)
        return hit[0].copy()

    @staticmethod
    def _corner(W: int) -> tuple[int, int]:
        return max(2, round(W * 0.065)), max(1, round(W * 0.012))

    def _finish(self, surf: pygame.Surface, w: int, h: int) -> pygame.Surface:
        """Cut the rounded corners out (the colour there stays ink, so edges do not fringe) and scale down."""
        W, H = surf.get_size()
        self._base(W, H)  # make sure the mask exists
        out = pygame.Surface((W, H), pygame.SRCALPHA)
        out.blit(surf, (0, 0))
        out.blit(self._bases[(W, H)][1], (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        return pygame.transform.smoothscale(out, (w, h))

    # ------------------------------------------------------------------ geometry

    def _metrics(self, W: int, H: int) -> tuple[float, float, float]:
        """(margin, index column width, index text height) in supersampled pixels."""
        m = W * 0.05
        fs = min(W * 0.17, H * 0.1)
        iw = fs * 1.05
        return m, iw, fs

    # ------------------------------------------------------------------ faces

    def _render_face(self, rank: str, suit: str, height: int, lang: str) -> pygame.Surface:
        w, h = self.size(height)
        W, H = w * SS, h * SS
        surf = self._base(W, H)
        m, iw, fs = self._metrics(W, H)
        if rank in ("J", "Q", "K"):
            self._court(surf, rank, suit, lang, W, H, m, iw)
        elif rank == "A":
            self._ace(surf, suit, W, H, m, iw, fs)
        else:
            self._numeral(surf, rank, suit, W, H, m, iw)
        lift = H * 0.075 + m * 0.2 if rank in ("J", "Q", "K") and self.style.court_label else 0.0
        self._indices(surf, rank, suit, lang, W, H, m, iw, fs, lift)
        return self._finish(surf, w, h)

    def _indices(
        self,
        surf: pygame.Surface,
        rank: str,
        suit: str,
        lang: str,
        W: int,
        H: int,
        m: float,
        iw: float,
        fs: float,
        lift: float = 0.0,
    ) -> None:
        label = self.index_label(rank, lang)
        ink = self.inks[suit]
        colour = ink.main if self.system == "french" else self.pal.ink
        font = _font("narrow" if len(label) > 1 else "sans", fs)
        text = render_line(font, label, colour)  # a court initial may be a zero-width character
        if text.get_width() > iw * 1.05:  # "10" on a narrow card: squeeze rather than overflow
            text = pygame.transform.smoothscale(text, (round(iw * 1.05), text.get_height()))
        ssize = fs * (1.3 if self.system == "italian" and suit in "SB" else 0.8)
        block = pygame.Surface((round(iw * 1.2), round(fs * 1.25 + ssize * 1.15)), pygame.SRCALPHA)
        block.fill((*colour, 0))
        bw = block.get_width()
        block.blit(text, text.get_rect(midtop=(bw // 2, -round(fs * 0.1))))
        blit_sign(block, self.system, suit, (bw / 2, fs * 1.1 + ssize * 0.5), ssize, ink, self.style.curved_swords)
        surf.blit(block, (round(m * 0.55 + iw / 2 - bw / 2), round(m * 0.8)))
        flipped = pygame.transform.rotate(block, 180)
        surf.blit(flipped, (round(W - m * 0.55 - iw / 2 - bw / 2), round(H - m * 0.8 - lift - block.get_height())))
        if self.clear:  # the suit's mark in the other two corners: every corner names the suit
            mark = render_line(_font("sans", fs * 1.05), self.marks[suit], ink.main)
            surf.blit(mark, mark.get_rect(topright=(round(W - m * 0.7), round(m * 0.7))))
            mark = pygame.transform.rotate(mark, 180)
            surf.blit(mark, mark.get_rect(bottomleft=(round(m * 0.7), round(H - m * 0.7 - lift))))

    def _pip_box(self, W: int, H: int, m: float, iw: float) -> pygame.Rect:
        if self.system == "italian":
            return pygame.Rect(round(iw + m * 0.9), round(m * 2.2), round(W - 2 * iw - m * 1.8), round(H - m * 4.4))
        return pygame.Rect(round(iw + m * 1.1), round(m * 2.6), round(W - 2 * iw - m * 2.2), round(H - m * 5.2))

    def _numeral(self, surf: pygame.Surface, rank: str, suit: str, W: int, H: int, m: float, iw: float) -> None:
        box = self._pip_box(W, H, m, iw)
        pips = pip_layout(self.system, suit, rank, self.style.curved_swords)
        ink = self.inks[suit]
        if pips and pips[0].kind != "sign":
            self._long_pips(surf, pips, box, ink)
            return
        aspect = SIGN_ASPECT[(self.system, suit)]
        if self.system == "italian":
            size = pip_size(pips, box, aspect)
            size = min(size, box.w * (0.62 if suit == "D" else 0.8))
        else:
            # French and German packs keep one pip size on every numeral, as printed packs do.
            most = max((r for r in self.deck.ranks() if r.isdigit()), key=int, default="10")
            size = min(pip_size(pip_layout(self.system, suit, most), box, aspect) * 1.05, box.w * 0.36)
        for p in pips:
            c = (box.x + p.x * box.w, box.y + p.y * box.h)
            blit_sign(surf, self.system, suit, c, size, ink, self.style.curved_swords, rotate=p.rotated)

    def _long_pips(self, surf: pygame.Surface, pips: list[Pip], box: pygame.Rect, ink: SuitInk) -> None:
        n = len(pips)
        width = box.w * (0.16 if n <= 3 else 0.125 if n <= 6 else 0.095 if n <= 8 else 0.08)
        for p in pips:
            a = (box.x + p.x * box.w, box.y + p.y * box.h)
            b = (box.x + p.x1 * box.w, box.y + p.y1 * box.h)
            length = math.dist(a, b) or 1.0
            if p.kind == "sword":
                # bow is in box widths; the curve's control point sits at twice the bulge
                bend = 2 * p.bow * box.w / length
                draw_sword(surf, a, b, width, ink, bend)
            else:
                draw_baton(surf, a, b, width * 1.2, ink)

    # ------------------------------------------------------------------ aces

    def _ace(self, surf: pygame.Surface, suit: str, W: int, H: int, m: float, iw: float, fs: float) -> None:
        ink = self.inks[suit]
        box = self._pip_box(W, H, m, iw)
        # Between the corner indices the whole width is free for the one big sign.
        top = m * 0.8 + fs * 2.4
        wide = pygame.Rect(round(m * 1.5), round(top), round(W - 3 * m), round(H - 2 * top))
        cx, cy = box.centerx, box.centery
        acc = self.pal
        if self.system == "italian" and suit in "SB":
            laurel(
                surf,
                (cx, cy + box.h * 0.18),
                box.w * 0.46,
                box.h * 0.28,
                acc.green if acc.green != (60, 130, 64) else (0x4A, 0x85, 0x3C),
                acc.red,
                self.pal.ink,
            )
            tip, hilt = (cx + box.w * 0.03, box.y), (cx - box.w * 0.03, box.bottom)
            if suit == "S":
                draw_sword(surf, hilt, tip, box.w * 0.26, ink, 0.06 if self.style.curved_swords else 0.0, ornate=True)
            else:
                draw_baton(
                    surf,
                    (cx - box.w * 0.08, box.bottom),
                    (cx + box.w * 0.08, box.y + box.h * 0.02),
                    box.w * 0.36,
                    ink,
                    ornate=True,
                )
            return
        cx, cy = wide.centerx, wide.centery
        size = min(wide.w * 0.8, wide.h * 0.62)
        if self.system != "italian":
            # A decorative medallion behind the single big sign of French and German aces.
            r = min(wide.w * 0.45, wide.h * 0.45)
            circle(surf, self.pal.accents[min(1, len(self.pal.accents) - 1)], (cx, cy), r)
            circle(surf, self.pal.paper, (cx, cy), r - max(2, W * 0.012))
            circle(surf, self.pal.gold, (cx, cy), r - max(3, W * 0.025))
            circle(surf, mix(self.pal.paper, self.pal.gold, 0.14), (cx, cy), r - max(4, W * 0.032))
            for i in range(12):
                a = 2 * math.pi * i / 12
                circle(
                    surf,
                    self.pal.gold,
                    (cx + math.cos(a) * (r - W * 0.021), cy + math.sin(a) * (r - W * 0.021)),
                    W * 0.012,
                )
            size = r * 1.2
        else:
            laurel(
                surf,
                (cx, cy),
                size * 0.62,
                size * 0.62,
                acc.green if acc.green != (60, 130, 64) else (0x4A, 0x85, 0x3C),
                acc.red,
                self.pal.ink,
            )
            size *= 0.8
        draw_sign(
            surf,
            self.system,
            suit,
            (cx, cy + (size * 0.06 if suit == "C" and self.system == "italian" else 0)),
            size,
            ink,
            self.style.curved_swords,
            ornate=True,
        )

    # ------------------------------------------------------------------ courts

    def _court(
        self, surf: pygame.Surface, rank: str, suit: str, lang: str, W: int, H: int, m: float, iw: float
    ) -> None:
        ink = self.inks[suit]
        si = SUITS.index(suit)
        dress = fig.dress_for(self.pal.accents, self.pal.gold, darker(self.pal.ink, 0.1), si)
        mirror = si % 2 == 1
        system = self.system
        if self.style.double_headed:
            self._double(surf, rank, suit, W, H, m, iw, dress, ink, mirror)
            return
        label_h = H * 0.075 if self.style.court_label else 0.0
        top = m * 1.6
        bottom = H - m * 1.4 - label_h
        frame = pygame.Rect(round(iw + m * 0.4), round(top), round(W - 2 * iw - m * 0.8), round(bottom - top))
        if self.style.frame_courts:
            pygame.draw.rect(surf, mix(self.pal.paper, dress.robe, 0.12), frame, border_radius=round(W * 0.03))
            pygame.draw.rect(surf, self.pal.ink, frame, max(1, round(W * 0.008)), border_radius=round(W * 0.03))
            frame = frame.inflate(-round(m * 0.6), -round(m * 0.6))
        if rank == "Q" and system == "italian":
            # The Cavallo: the horse needs width, so squeeze it only as much as the card demands.
            sy = frame.h
            sx = min(sy, frame.w / 0.76)
            pen = fig.Pen(surf, frame.centerx, frame.y, sx, sy, mirror, dress.ink)
            fig.rider(pen, dress, system, suit, ink, self.style.curved_swords)
        else:
            role = {"J": "fante", "Q": "queen", "K": "king"}[rank]
            if system == "german":
                role = {"J": "unter", "Q": "ober", "K": "king"}[rank]
            sy = frame.h
            sx = min(sy, frame.w / 0.56)
            pen = fig.Pen(surf, frame.centerx, frame.y, sx, sy, mirror, dress.ink)
            fig.standing(pen, role, dress, system, suit, ink, self.style.curved_swords)
        if self.style.court_label:
            self._court_name(surf, self.deck.court_name(rank, lang), W, H, m, label_h, dress)

    def _court_name(
        self, surf: pygame.Surface, name: str, W: int, H: int, m: float, label_h: float, dress: fig.Dress
    ) -> None:
        """The court's name in the player's language, in a cartouche along the bottom."""
        band = pygame.Rect(round(m * 1.3), round(H - m * 1.1 - label_h), round(W - m * 2.6), round(label_h))
        pygame.draw.rect(surf, mix(self.pal.paper, dress.trim, 0.35), band, border_radius=round(label_h * 0.3))
        pygame.draw.rect(surf, self.pal.ink, band, max(1, round(W * 0.008)), border_radius=round(label_h * 0.3))
        text = name.upper()
        font = _font("serif", label_h * 0.62)
        img = render_line(font, text, self.pal.ink)
        room = band.w - label_h * 0.5
        if img.get_width() > room:
            font = _font("narrow", label_h * 0.62)
            img = render_line(font, text, self.pal.ink)
            if img.get_width() > room:
                img = pygame.transform.smoothscale(img, (round(room), img.get_height()))
        surf.blit(img, img.get_rect(center=(band.centerx, band.centery + round(label_h * 0.03))))

    def _double(
        self,
        surf: pygame.Surface,
        rank: str,
        suit: str,
        W: int,
        H: int,
        m: float,
        iw: float,
        dress: fig.Dress,
        ink: SuitInk,
        mirror: bool,
    ) -> None:
        """A double-headed court: the upper half figure, mirrored through the centre."""
        frame = pygame.Rect(round(iw + m * 0.5), round(m * 1.4), round(W - 2 * iw - m), round(H - m * 2.8))
        half = pygame.Surface((frame.w, frame.h // 2))  # opaque: see _base
        tint = mix(self.pal.paper, self.pal.gold, 0.12)
        half.fill(tint)
        role = {"J": "fante", "Q": "queen", "K": "king"}[rank]
        sy = half.get_height() / 0.5
        sx = min(sy, half.get_width() / 0.5)
        pen = fig.Pen(half, half.get_width() * 0.5, half.get_height() * 0.04 - 0.03 * sy, sx, sy, mirror, dress.ink)
        attribute = {"J": "halberd", "Q": "flower", "K": "sceptre"}[rank]
        fig.standing(pen, role, dress, self.system, suit, ink, self.style.curved_swords, attribute=attribute)
        # The suit sign in the frame corner, as on printed French courts.
        s = min(frame.w * 0.2, half.get_height() * 0.2)
        corner = (s * 0.75, s * 0.75) if not mirror else (half.get_width() - s * 0.75, s * 0.75)
        draw_sign(half, self.system, suit, corner, s, ink)
        surf.blit(half, frame.topleft)
        surf.blit(pygame.transform.rotate(half, 180), (frame.x, frame.y + frame.h - half.get_height()))
        lw = max(1, round(W * 0.008))
        mid = frame.y + frame.h // 2
        pygame.draw.line(surf, self.pal.ink, (frame.x, mid), (frame.right - 1, mid), lw)
        pygame.draw.rect(surf, self.pal.ink, frame, lw)

    # ------------------------------------------------------------------ backs

    def _render_back(self, height: int) -> pygame.Surface:
        w, h = self.size(height)
        W, H = w * SS, h * SS
        surf = self._base(W, H)
        margin = round(W * 0.075)
        inner = pygame.Rect(margin, margin, W - 2 * margin, H - 2 * margin)
        field = pygame.Surface(inner.size)  # opaque while drawing, rounded afterwards
        BACKS.get(self.style.back, back_lozenges)(field, self.pal)
        rounded = pygame.Surface(inner.size, pygame.SRCALPHA)
        rounded.blit(field, (0, 0))
        mask = pygame.Surface(inner.size, pygame.SRCALPHA)
        mask.fill((255, 255, 255, 0))
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=round(W * 0.04))
        rounded.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surf.blit(rounded, inner.topleft)
        pygame.draw.rect(surf, self.pal.ink, inner, max(1, round(W * 0.01)), border_radius=round(W * 0.04))
        return self._finish(surf, w, h)


# --------------------------------------------------------------------------- registry

_ARTS: dict[tuple[str, bool, bool], CardArt] = {}  # (deck id, four colours, clear suits)


def court_indices(names: dict[str, str]) -> dict[str, str]:
    """The courts' corner indices from their names (rank token -> name): the initials when
    they differ (Fante, Cavallo, Re: F C R; Unter, Ober, König: U O K). When they clash
    (Knave, Knight, King) the highest court keeps the initial, the next takes its name's
    first two letters (Knight: "Kn", as tarot packs print it) and the last the rank token
    (Knave: "J", the Jack it is). Never a letter that names another court ("Q" beside the
    word KNIGHT reads Queen)."""
    initials = {r: (n[:1].upper() or r) for r, n in names.items()}
    if len(set(initials.values())) == len(initials):
        return initials
    out: dict[str, str] = {}
    for r in sorted(names, key=lambda r: "KQJ".find(r)):  # King first, then Knight / Queen, then Knave
        name = names[r]
        taken = set(out.values())
        out[r] = next(
            (label for label in (name[:1].upper(), name[:2].capitalize(), r) if label and label not in taken), r
        )
    return out


#: Clear suits for every pack (the setting; App.apply_settings sets it).
_CLEAR = [False]
#: French suits' marks: the suit signs themselves (DejaVu has them).
FRENCH_MARKS = {"D": "\u2666", "C": "\u2665", "S": "\u2660", "B": "\u2663"}


def set_clear_suits(on: bool) -> None:
    _CLEAR[0] = bool(on)


def clear_suits() -> bool:
    return _CLEAR[0]


def suit_marks(deck: DeckConfig) -> dict[str, str]:
    """Each suit's corner mark: the sign for French suits, else the initial of the suit's
    name in the pack's own language (Italian D C S B, German S H L E), the letter code when
    two initials would clash."""
    if deck.suit_system == "french":
        return dict(FRENCH_MARKS)
    lang = "de" if deck.suit_system == "german" else "it"
    marks = {s: (deck.suit_name(s, lang) or s)[:1].upper() for s in SUITS}
    return marks if len(set(marks.values())) == len(marks) else {s: s for s in SUITS}


def get_card_art(deck: DeckConfig, four_colour: bool = False, clear: bool | None = None) -> CardArt:
    """The CardArt of a deck, cached per deck id and look (rebuilt if the deck's config
    changed); ``clear`` defaults to the clear-suits setting."""
    clear = _CLEAR[0] if clear is None else clear
    key = (deck.id, four_colour, clear)
    art = _ARTS.get(key)
    if art is None or (art.deck is not deck and art.deck != deck):
        art = _ARTS[key] = CardArt(deck, four_colour, clear)
    return art


__all__ = [
    "set_clear_suits",
    "clear_suits",
    "suit_marks",
    "FRENCH_MARKS",
    "CardArt",
    "Pip",
    "PatternStyle",
    "STYLES",
    "get_card_art",
    "pip_layout",
    "style_for",
    "court_indices",
]
