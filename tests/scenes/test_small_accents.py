"""Small type keeps the accent of an i readable.

At 10–14 px the font clips the grave of a capital Ì at the top of the line and hints the
grave of a small ì into a dot, so "CÌCERA" read "CİCERA" and "Cìcera" read "Cicera". Those
letters are drawn with a dotless base and a slanted stroke: the tests look at the ink above
the letter and ask for a slant, which a dot or a clipped blob does not have.
"""

from __future__ import annotations

import pygame
import pytest

from sprites import theme


def _ink_rows(surf: pygame.Surface, x0: int, x1: int, y1: int) -> list[list[int]]:
    """For each row above ``y1``, the columns in [x0, x1) with visible ink."""
    rows = []
    for y in range(y1):
        rows.append([x for x in range(x0, x1) if surf.get_at((x, y)).a > 90])
    return rows


def _accent_slant(surf: pygame.Surface, x0: int, x1: int, letter_top: int) -> float:
    """Mean ink column of the accent's lowest row minus that of its highest (> 0: a grave)."""
    rows = [r for r in _ink_rows(surf, x0, x1, letter_top) if r]
    # The font's own accent at these sizes is one or two rows: a dot or a clipped blob.
    assert len(rows) >= 3, f"the accent should be at least three rows tall: {rows}"
    return sum(rows[-1]) / len(rows[-1]) - sum(rows[0]) / len(rows[0])


@pytest.mark.parametrize("face,size", [("sans_bold", 14), ("cond_bold", 12), ("sans_bold", 11)])
def test_a_capital_i_grave_keeps_a_slanted_accent(face, size):
    pygame.font.init()
    f = theme.font(face, size)
    surf = theme.text("CÌ", face, size, caps=True)
    c_width = f.size("C")[0]
    cap_top = theme.text("C", face, size).get_bounding_rect().top
    assert _accent_slant(surf, c_width, surf.get_width(), cap_top) > 0.9


@pytest.mark.parametrize("face,size", [("sans_bold", 11), ("sans_bold", 12), ("sans", 13)])
def test_a_small_i_grave_is_not_a_dot(face, size):
    pygame.font.init()
    f = theme.font(face, size)
    x_top = theme.text("n", face, size).get_bounding_rect().top
    n = f.size("n")[0]
    grave = theme.text("nìn", face, size)
    assert _accent_slant(grave, n, f.size("nì")[0] + 1, x_top) > 0.9
    acute = theme.text("nín", face, size)
    assert _accent_slant(acute, n, f.size("ní")[0] + 1, x_top) < -0.9


def test_large_type_keeps_the_font_s_own_accent_and_widths_follow_the_text():
    pygame.font.init()
    big = theme.font("sans_bold", 24)
    assert (
        theme.render_line(big, "Cìcera", theme.CREAM).get_size() == big.render("Cìcera", True, theme.CREAM).get_size()
    )
    assert abs(theme.text("Cìcera", "sans_bold", 11).get_width() - theme.text_width("Cìcera", "sans_bold", 11)) <= 1
