"""Where a seat sits round the felt, seen from a viewer's chair, as a message key: one maker of
a seat's direction name for the window (scenes/names.py) and the coach (game/coach/words.py).

The table's geometry (sprites/table_layout.py): seats are counted in turn order, anticlockwise
seen from above, so the seat after the viewer sits on the viewer's right (East), the last one
on the left (West) and the others along the top, right to left in turn order. One seat along
the top is North; several are North-East (rightmost), North (the middle one, where there is a
middle) and North-West (leftmost).

Pure functions: no pygame, no scene.
"""

from __future__ import annotations

_SIDE_KEYS = {"left": "table.west", "right": "table.east"}


def seat_side(rel: int, players: int) -> str:
    """ "bottom" (the viewer), "right", "top" or "left" for the seat ``rel`` places after the
    viewer in turn order: the next seat on the right, the last on the left, the others along
    the top (the one other seat of a two-seat table sits opposite)."""
    rel %= players
    if not rel:
        return "bottom"
    last = players - 1
    if rel == last and rel == 1:  # the only other seat sits opposite
        return "top"
    return "right" if rel == 1 else "left" if rel == last else "top"


def _top_slot(rel: int, players: int) -> tuple[int, int]:
    """(place along the top from the left, how many seats sit there) of a top seat."""
    tops = [r for r in range(1, players) if seat_side(r, players) == "top"]
    return len(tops) - 1 - tops.index(rel), len(tops)


def direction_key(rel: int, players: int) -> str | None:
    """The message key naming the seat ``rel`` places after the viewer by its direction
    ("table.east", "table.north_west" …); None for the viewer's own seat, and for a top seat
    with no direction of its own (a fourth seat or more along the top)."""
    side = seat_side(rel, players)
    if side == "bottom":
        return None
    if side != "top":
        return _SIDE_KEYS[side]
    slot, count = _top_slot(rel % players, players)
    if 2 * slot == count - 1:  # the only top seat, or the middle one
        return "table.north"
    if slot == count - 1:
        return "table.north_east"
    if slot == 0:
        return "table.north_west"
    return None


__all__ = ["seat_side", "direction_key"]
