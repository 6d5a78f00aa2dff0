"""An independent recompute of a tournament of the day's standings, for the tests: from the
records (RECORD.md JSON Lines, the server's own copies) and the day's entries only, sharing
no code with game.online.server.events (only the game's own rules, for the team of a seat).

Matchpoints as the issue defines them: on each deal, 1 for each other player with a worse
score, ½ for each with the same, out of the number of others (50 % with nobody else); a
player's percentage the mean over the deals they have a result on.
"""

from __future__ import annotations

import json
from fractions import Fraction

from game.rulesets import make_rules

PLAYER_SEAT = 0


def record_score(jsonl: str) -> tuple[int, int]:
    """(the deal's seed, seat 0's team's points) of one record's text."""
    lines = [json.loads(line) for line in jsonl.splitlines() if line.strip()]
    head = lines[0]
    assert head["event"] == "match"
    rules = make_rules(head["game"], head["deck"], head["players"], head["options"])
    end = next(ev for ev in lines if ev["event"] == "deal_end")
    return head["seed"], end["points"][rules.team_of(PLAYER_SEAT)]


def recompute(entries: list[dict], records: dict[str, str], deals: int) -> list[tuple[int | None, str, str]]:
    """``entries``: {"player", "name", "results": {deal index: record code}, "ended": n};
    ``records``: code -> JSONL text. One line per player: (rank or None, name, "PCT" with two
    decimals), ranked players first (every deal ended), by percentage then name."""
    per_deal: dict[int, dict[str, int]] = {}
    for e in entries:
        for index, code in e["results"].items():
            per_deal.setdefault(int(index), {})[e["player"]] = record_score(records[code])[1]
    pct: dict[str, list[Fraction]] = {}
    for scores in per_deal.values():
        for p, s in scores.items():
            others = [o for q, o in scores.items() if q != p]
            got = sum((Fraction(1) if s > o else Fraction(1, 2) if s == o else Fraction(0)) for o in others)
            pct.setdefault(p, []).append(Fraction(50) if not others else 100 * got / len(others))
    rows = []
    for e in entries:
        mine = pct.get(e["player"], [])
        value = sum(mine) / len(mine) if mine else Fraction(0)
        rows.append((e["ended"] >= deals, e["name"], f"{float(value):.2f}", e["player"]))
    done = sorted((r for r in rows if r[0]), key=lambda r: (-float(r[2]), r[1].casefold(), r[3]))
    out: list[tuple[int | None, str, str]] = []
    for i, r in enumerate(done):
        rank = out[-1][0] if out and out[-1][2] == r[2] else i + 1
        out.append((rank, r[1], r[2]))
    return out
