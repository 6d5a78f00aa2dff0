"""Capture helpers shared by the fishing games (Scopa, Cìcera)."""
from __future__ import annotations

from game.cards import Card


def sum_sets(table: list[Card], values: dict[Card, int], target: int, min_size: int = 2) -> list[tuple[Card, ...]]:
    """Every set of table cards (at least ``min_size``) whose values add up to ``target``.

    Cards without a value (Cìcera courts) never join a sum. Sets are returned sorted by
    card index so the same set always has the same tuple.
    """
    cands = sorted((c for c in table if values.get(c, 0) > 0 and values[c] < target), key=lambda c: c.index)
    out: list[tuple[Card, ...]] = []
    n = len(cands)

    def rec(start: int, remaining: int, chosen: list[Card]) -> None:
        for i in range(start, n):
            c = cands[i]
            v = values[c]
            if v == remaining:
                if len(chosen) + 1 >= min_size:
                    out.append(tuple(chosen) + (c,))
            elif v < remaining:
                chosen.append(c)
                rec(i + 1, remaining - v, chosen)
                chosen.pop()

    rec(0, target, [])
    return out
