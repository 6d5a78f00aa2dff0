"""Colours of the card art: hex and mixing helpers, a deck's palette (from rules.yaml's
colours) and the ink of each suit, one table per pattern so a four-colour deck is a
setting, not a rewrite."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Color = tuple[int, int, int]


def hex_rgb(value: str) -> Color:
    v = value.lstrip("#")
    return (int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16))


def mix(a: Sequence[int], b: Sequence[int], t: float) -> Color:
    """Blend a towards b by t (0 = a, 1 = b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def darker(c: Sequence[int], t: float = 0.35) -> Color:
    return mix(c, (0, 0, 0), t)


def lighter(c: Sequence[int], t: float = 0.35) -> Color:
    return mix(c, (255, 255, 255), t)


@dataclass(frozen=True)
class SuitInk:
    """The colours of one suit sign: body, shade, highlight and two decoration colours."""

    main: Color
    dark: Color
    light: Color
    band: Color
    band2: Color
    outline: Color


_TARGETS: dict[str, Color] = {
    "red": (200, 50, 40),
    "blue": (46, 80, 160),
    "gold": (224, 168, 40),
    "green": (60, 130, 64),
    "teal": (47, 127, 122),
    "brown": (122, 74, 35),
}


def pick(accents: Sequence[Color], want: str, limit: float = 140.0) -> Color:
    """The deck accent nearest to a named hue, or a sensible default when none is close."""
    t = _TARGETS[want]
    best = min(accents, key=lambda c: sum((c[i] - t[i]) ** 2 for i in range(3)), default=t)
    return best if math.dist(best, t) <= limit else t


@dataclass(frozen=True)
class Palette:
    """A deck's colours, resolved once: paper, ink, accents and the colours used by figures."""

    paper: Color
    ink: Color
    accents: tuple[Color, ...]
    red: Color
    blue: Color
    gold: Color
    green: Color
    brown: Color


def palette_for(colors: dict) -> Palette:
    accents = tuple(hex_rgb(c) for c in colors["accents"])
    red = pick(accents, "red")
    gold = pick(accents, "gold")
    # The cool colour of the pack: blue if it has one, else teal or green.
    cool = pick(accents, "blue", 90)
    if cool == _TARGETS["blue"]:
        cool = pick(accents, "teal", 60)
        if cool == _TARGETS["teal"]:
            cool = pick(accents, "green", 90)
            if cool == _TARGETS["green"]:
                cool = _TARGETS["blue"]
    green = pick(accents, "green", 45)  # teal is not green: Trevisane batons stay green
    return Palette(
        paper=hex_rgb(colors["paper"]),
        ink=hex_rgb(colors["ink"]),
        accents=accents,
        red=red,
        blue=cool,
        gold=gold,
        green=green,
        brown=pick(accents, "brown", 60),
    )


FRENCH_RED: Color = (0xC0, 0x26, 0x2D)
FRENCH_BLACK: Color = (0x1C, 0x1C, 0x1C)
STEEL: Color = (0xC4, 0xCF, 0xDA)


def suit_colors(system: str, pal: Palette, four_colour: bool = False) -> dict[str, SuitInk]:
    """The one table of suit colours for a pattern (suit letter -> SuitInk)."""
    ink = darker(pal.ink, 0.1)
    if system == "french":
        red = pal.red if math.dist(pal.red, FRENCH_RED) < 60 else FRENCH_RED
        black = FRENCH_BLACK

        def flat(c: Color) -> SuitInk:
            return SuitInk(c, darker(c, 0.3), lighter(c, 0.3), c, c, darker(c, 0.35))

        table = {"D": flat(red), "C": flat(red), "S": flat(black), "B": flat(black)}
        if four_colour:  # the usual four-colour convention: blue diamonds, green clubs
            table["D"] = flat((0x1F, 0x4E, 0xA8))
            table["B"] = flat((0x2E, 0x7D, 0x32))
        return table
    if system == "german":
        red = pal.red
        gold = pal.gold
        green = pal.green if pal.green != _TARGETS["green"] else (0x3C, 0x7D, 0x3A)
        brown = pal.brown
        return {
            "C": SuitInk(red, darker(red, 0.35), lighter(red, 0.45), gold, red, ink),
            "D": SuitInk(gold, darker(gold, 0.4), lighter(gold, 0.5), red, green, ink),
            "S": SuitInk(green, darker(green, 0.4), lighter(green, 0.4), gold, red, ink),
            "B": SuitInk(mix(brown, gold, 0.45), darker(brown, 0.2), lighter(gold, 0.3), brown, green, ink),
        }
    # Italian suits.
    gold, red, blue = pal.gold, pal.red, pal.blue
    baton = pal.green if pal.green != _TARGETS["green"] else (0x4A, 0x85, 0x3C)
    wood = (0x8A, 0x3E, 0x22)
    table = {
        "D": SuitInk(gold, darker(gold, 0.45), lighter(gold, 0.45), red, blue, ink),
        "C": SuitInk(gold, darker(gold, 0.45), lighter(gold, 0.45), red, blue, ink),
        "S": SuitInk(STEEL, (0x5E, 0x6C, 0x7C), (0xF4, 0xF7, 0xFA), blue, red, ink),
        "B": SuitInk(baton, darker(baton, 0.4), lighter(baton, 0.35), wood, gold, ink),
    }
    if four_colour:
        table["C"] = SuitInk(red, darker(red, 0.4), lighter(red, 0.45), gold, blue, ink)
        table["S"] = SuitInk(lighter(blue, 0.55), blue, lighter(blue, 0.8), red, gold, ink)
    return table


#: Clear suits: one colour per suit, the same in every pack — Coins, Bells and
#: Diamonds orange; Cups and Hearts red; Swords, Leaves and Spades black; Batons, Acorns and
#: Clubs blue — chosen so the four stay apart from each other and from the paper with typical
#: vision and under protanopia, deuteranopia and tritanopia (Machado 2009 in sprites.vision:
#: every pair at least 21 ΔE00 on the colours, checked on the drawn cards by
#: tests/scenes/test_clear_suits.py).
CLEAR_SUITS: dict[str, Color] = {"D": (230, 150, 0), "C": (200, 20, 30), "S": (25, 25, 25), "B": (0, 100, 200)}


def clear_inks(pal: Palette) -> dict[str, SuitInk]:
    """The clear suits' inks: each sign in its one colour, outlined in a shade of the same hue
    (the pack's own ink would turn a small sign's colour to brown or grey)."""
    return {s: SuitInk(c, darker(c, 0.12), lighter(c, 0.2), c, c, darker(c, 0.1)) for s, c in CLEAR_SUITS.items()}


__all__ = [
    "CLEAR_SUITS",
    "clear_inks",
    "Color",
    "hex_rgb",
    "mix",
    "darker",
    "lighter",
    "SuitInk",
    "pick",
    "Palette",
    "palette_for",
    "suit_colors",
]
