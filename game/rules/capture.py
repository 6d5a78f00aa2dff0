"""Capture helpers shared by the fishing games (Scopa, Cìcera)."""
from __future__ import annotations

from game.cards import Card


def sums_by_value(table: list[Card], values: dict[Card, int], max_value: int, min_size: int = 2) -> dict[int, list[tuple[Card, ...]]]:
    """Every set of table cards (at least ``min_size``) with a total of at most ``max_value``,
    grouped by that total.

    Computed once per turn and shared by all hand cards. Cards without a value (Cìcera courts)
    never join a sum. Each set is sorted by card index, so the same set is always the same tuple.
    """
    partial: list[tuple[int, tuple[Card, ...]]] = [(0, ())]
    for c in sorted(table, key=_index):
        v = values.get(c, 0)
        if v <= 0 or v > max_value:
            continue
        partial += [(s + v, cs + (c,)) for s, cs in partial if s + v <= max_value]
    out: dict[int, list[tuple[Card, ...]]] = {}
    for s, cs in partial:
        if len(cs) >= min_size:
            out.setdefault(s, []).append(cs)
    return out


def sum_sets(table: list[Card], values: dict[Card, int], target: int, min_size: int = 2) -> list[tuple[Card, ...]]:
    """Every set of table cards (at least ``min_size``) whose values add up to ``target``."""
    return sums_by_value(table, values, target, min_size).get(target, [])


def _index(c: Card) -> int:
    return c.index
