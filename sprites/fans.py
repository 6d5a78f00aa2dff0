"""Card fans drawn with a deck's art (the menu's hero fan, the game select's deck column),
and ``card_art``: the deck's art from :mod:`sprites.cards`, or plain rounded cards in the
deck's colours when that module is not there, so screens still render."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from game.config_types import DeckConfig
from sprites import hidpi, theme

if TYPE_CHECKING:
    from sprites.cards import CardArt


# ====================================================================== card art
class FallbackCardArt:
    """Plain rounded cards in the deck's colours, used until ``sprites.cards`` exists."""

    def __init__(self, deck: DeckConfig):
        self.deck = deck
        colors = getattr(deck, "colors", {}) or {}
        self.paper = _hex(colors.get("paper", "#f7f1e3"))
        self.ink = _hex(colors.get("ink", "#2b2b2b"))
        self.accents = [_hex(c) for c in colors.get("accents", ["#b53a2d", "#335c9e"])] or [(180, 60, 40)]
        self.aspect = float(getattr(deck, "aspect", 1.6) or 1.6)
        self._cache: dict[tuple, pygame.Surface] = {}

    def size(self, height: int) -> tuple[int, int]:
        return max(1, round(height / self.aspect)), height

    def face(self, code: str, height: int, lang: str = "en") -> pygame.Surface:
        key = ("face", code, height, hidpi.scale())
        if key not in self._cache:
            w, h = self.size(height)
            surf = theme.rounded((w, h), max(3, w // 12), (*self.paper, 255), 1, (*self.ink, 255)).copy()
            suit = code[-1:]
            col = self.accents[("DCSB".find(suit)) % len(self.accents)] if suit else self.ink
            rank = code[:-1]
            size = max(8, h // 7)
            img = theme.text(rank, "serif_bold", size, col)
            surf.blit(img, (max(2, w // 12), max(2, h // 24)))
            big = theme.text(rank, "serif_bold", max(10, h // 3), col)
            surf.blit(big, big.get_rect(center=(w // 2, h // 2)))
            self._cache[key] = surf
        return self._cache[key]

    def back(self, height: int) -> pygame.Surface:
        key = ("back", height, hidpi.scale())
        if key not in self._cache:
            w, h = self.size(height)
            surf = theme.rounded((w, h), max(3, w // 12), (*self.paper, 255), 1, (*self.ink, 255)).copy()
            inner = pygame.Rect(0, 0, w, h).inflate(-max(4, w // 8), -max(4, w // 8))
            pygame.draw.rect(surf, self.accents[0], inner, border_radius=max(2, w // 16))
            for i in range(-h, w + h, max(4, w // 8)):
                pygame.draw.line(surf, self.accents[-1], (inner.x + i, inner.y), (inner.x + i - inner.h, inner.bottom))
            pygame.draw.rect(surf, self.paper, inner, 2, border_radius=max(2, w // 16))
            self._cache[key] = surf
        return self._cache[key]


def _hex(s: str) -> tuple[int, int, int]:
    s = s.lstrip("#")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


_ART: dict[str, FallbackCardArt] = {}


def card_art(deck: DeckConfig) -> CardArt | FallbackCardArt:
    """The deck's card art: ``sprites.cards.get_card_art`` when present, else the fallback."""
    try:
        from sprites.cards import get_card_art
    except ImportError:
        key = getattr(deck, "id", str(deck))
        if key not in _ART:
            _ART[key] = FallbackCardArt(deck)
        return _ART[key]
    return get_card_art(deck)


def sample_codes(deck: DeckConfig, n: int = 5) -> list[str]:
    """A handsome hand for a deck's fan: an ace, a court or two, a seven where it exists."""
    import zlib

    ranks = list(deck.ranks()) if hasattr(deck, "ranks") else ["A", "7", "K", "3", "Q"]
    # Each deck its own suits and court (the Italian packs' fans looked alike),
    # the same every run: from the deck's id.
    h = zlib.crc32(str(getattr(deck, "id", deck)).encode())
    court = ("K", "Q", "J")[h % 3]
    preferred = ["A", "7", court, "3", *(c for c in ("K", "Q", "J") if c != court), "10", "2", "5"]
    chosen = [r for r in preferred if r in ranks][:n]
    suits = ["D", "C", "S", "B"]
    suits = suits[(h >> 4) % 4 :] + suits[: (h >> 4) % 4]
    suits.append(suits[0])
    codes = []
    for i, r in enumerate(chosen):
        codes.append(r + suits[i % len(suits)])
    return codes


_FANS: dict[tuple, pygame.Surface] = {}
hidpi.on_rescale(_FANS.clear)  # made at one window size


def card_fan(
    deck: DeckConfig,
    codes: Sequence[str],
    height: int,
    lang: str = "en",
    spread: float = 34.0,
    step: float | None = None,
) -> pygame.Surface:
    """Cards fanned from a pivot below their centre, each with a soft shadow; cached."""
    key = (getattr(deck, "id", str(deck)), tuple(codes), height, lang, spread, step)
    if key in _FANS:
        return _FANS[key]
    art = card_art(deck)
    cw, ch = art.size(height)
    n = max(1, len(codes))
    step = step if step is not None else cw * 0.42
    pivot_drop = ch * 1.6  # the fan turns around a point well below the cards
    angles = [spread * ((i - (n - 1) / 2) / max(1, (n - 1) / 2)) / 2 if n > 1 else 0.0 for i in range(n)]
    pieces = []
    for i, code in enumerate(codes):
        face = art.face(code, height, lang)
        ang = angles[i]
        rot = pygame.transform.rotozoom(face, -ang, 1.0)
        rad = math.radians(ang)
        # Position: rotate the card's centre about the pivot, then add a sideways step.
        cx = math.sin(rad) * pivot_drop + (i - (n - 1) / 2) * step * 0.35
        cy = -math.cos(rad) * pivot_drop + pivot_drop
        pieces.append((rot, cx, cy))
    min_x = min(cx - r.get_width() / 2 for r, cx, cy in pieces) - 10
    max_x = max(cx + r.get_width() / 2 for r, cx, cy in pieces) + 10
    min_y = min(cy - r.get_height() / 2 for r, cx, cy in pieces) - 10
    max_y = max(cy + r.get_height() / 2 for r, cx, cy in pieces) + 14
    surf = hidpi.surface((int(max_x - min_x), int(max_y - min_y)), pygame.SRCALPHA)
    for rot, cx, cy in pieces:
        x = cx - rot.get_width() / 2 - min_x
        y = cy - rot.get_height() / 2 - min_y
        sh = rot.copy()
        sh.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGB_MIN)
        sh.fill((255, 255, 255, 40), special_flags=pygame.BLEND_RGBA_MULT)
        for off in ((2, 3), (3, 5), (4, 6)):
            surf.blit(sh, (x + off[0], y + off[1]))
        surf.blit(rot, (x, y))
    _FANS[key] = surf
    return surf


def card_fan_fit(
    deck: DeckConfig, codes: Sequence[str], max_w: int, max_h: int, lang: str = "en", spread: float = 34.0
) -> pygame.Surface:
    """The tallest fan (card height ≤ ``max_h``) whose picture fits ``max_w`` pixels across:
    wide packs (French, German) get smaller cards, narrow ones (Bresciane) taller."""
    h = max_h
    fan = card_fan(deck, codes, h, lang, spread)
    while fan.get_width() > max_w and h > 24:
        h -= 6
        fan = card_fan(deck, codes, h, lang, spread)
    return fan


__all__ = ["FallbackCardArt", "card_art", "sample_codes", "card_fan", "card_fan_fit"]
