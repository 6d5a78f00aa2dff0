"""Clear suits: in every pack the four suits stay apart — with typical vision and
under protanopia, deuteranopia and tritanopia (Machado 2009, sprites.vision) — measured
on the cards as drawn: each suit's colour is read off a rendered card (not taken from the
palette), then the closest two suits must differ by a clear CIEDE2000 margin."""

from __future__ import annotations

import pygame
import pytest

from game.config import get_config
from sprites.cards import CardArt, suit_marks
from sprites.vision import DEFICIENCIES, ciede2000, closest_pair, dominant_colour, simulate

#: A clearly visible difference between two colours (ΔE00; 1 is a just-noticeable one, the
#: usual four-colour deck's red and green are under 10 for a deuteranope).
APART = 18.0


def suit_colours(art: CardArt, height: int = 150) -> dict[str, tuple[int, int, int]]:
    """Each suit's colour as drawn on its lowest numeral card at the hand's size (inside the
    card's printed border, which is the pack's ink on every card)."""
    rank = next(r for r in art.deck.ranks() if r.isdigit())
    out = {}
    for suit in "DCSB":
        card = art.face(rank + suit, height)
        inner = card.get_rect().inflate(-card.get_width() // 8, -card.get_height() // 12)
        surf = card.subsurface(inner).copy()
        raw = pygame.image.tobytes(surf, "RGBA")
        pixels = [raw[i : i + 3] for i in range(0, len(raw), 4) if raw[i + 3] == 255]
        out[suit] = dominant_colour(pixels, art.pal.paper, art.pal.ink)
    return out


@pytest.fixture(scope="module")
def display():
    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)
    yield


def test_the_simulation_and_the_difference_are_the_published_ones():
    # CIEDE2000: Sharma, Wu & Dalal's test pairs 1, 7 and 17.
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    # Machado 2009: a dichromat's pure red and green meet (protanopia, deuteranopia); white stays white.
    for d in DEFICIENCIES:
        assert simulate((255, 255, 255), d) == pytest.approx((255, 255, 255), abs=1)
    red, green = (200, 40, 40), (90, 110, 40)
    assert ciede2000_rgb(red, green) > 30
    assert ciede2000_rgb(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 8


def ciede2000_rgb(a, b) -> float:
    from sprites.vision import delta_e

    return delta_e(a, b)


@pytest.mark.parametrize("deck", sorted(get_config().decks))
def test_every_pack_s_clear_suits_stay_apart_for_every_eye(deck, display):
    d = get_config().decks[deck]
    colours = suit_colours(CardArt(d, clear=True))
    for deficiency in (None, *DEFICIENCIES):
        gap, a, b = closest_pair(colours, deficiency)
        assert gap >= APART, f"{deck}, {deficiency or 'typical vision'}: {a} and {b} only {gap:.1f} ΔE00 apart"
    marks = suit_marks(d)
    assert len(set(marks.values())) == 4  # and every corner names its suit


def test_the_usual_packs_do_not_pass_the_check(display):
    """The check can fail: the packs as printed have suits that share a colour (the
    French packs' two reds, Italian Coins and Cups in gold), or meet for a dichromat."""
    for deck in ("piemontesi", "schnapsen-german", "napoletane"):
        colours = suit_colours(CardArt(get_config().decks[deck]))
        worst = min(closest_pair(colours, d)[0] for d in (None, *DEFICIENCIES))
        assert worst < APART, deck
