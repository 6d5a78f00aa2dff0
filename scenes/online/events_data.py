"""The events screen's data (scenes.online.events): reading what a server sent with care,
the list's lines, and sample events for screenshots and the text-fit checks."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from game.rules.vocabulary import JsonObject


def obj_of(v: object) -> JsonObject:
    return v if isinstance(v, dict) else {}


def list_of(v: object) -> list[object]:
    return v if isinstance(v, list) else []


def num_of(v: object) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


@dataclass(frozen=True)
class Item:
    """A line of the list: the kind of event (tod, arena, swiss, challenge) and the event as
    the server sent it (every field checked where it is read)."""

    kind: str
    event: JsonObject


def text_of(v: object, limit: int = 60) -> str:
    return str(v)[:limit] if v is not None else ""


def sample(today: dt.date | None = None) -> JsonObject:
    """Events as a server sends them, for screenshots and the text-fit checks."""
    from game.rulesets import game_ids

    first, second, third = game_ids()[:3]
    day = (today or dt.date.today()).isoformat()
    tours = [
        {"id": f"tod:{day}:{g}:standard", "date": day, "game": g, "preset": "standard", "deals": 8, "hash": "5e" * 32}
        | {"seed": None, "nonce": None, "me": me}
        for g, me in (
            (first, {"entered": True, "ended": 8, "next": None, "scores": {}}),
            (second, {"entered": True, "ended": 3, "next": 3, "scores": {}}),
            (third, {"entered": False, "ended": 0, "next": 0, "scores": {}}),
        )
    ]
    names = ["Giulia", "Wwwwwwwwwwwwwwwwwwww", "Anna", "Matthias", "Luca", "Sofie", "Jan", "Greta", "Marco", "Elena"]
    lines = [
        {"rank": i + 1 if i != 3 else 3, "name": n, "percent": round(71.25 - 4.375 * i, 2), "played": 8, "ended": 8}
        for i, n in enumerate(names)
    ]
    field = {
        "index": 2,
        "par": 64.5,
        "score": 71,
        "rank": 2,
        "percent": 83.33,
        "players": 7,
        "spread": [[78, 1], [71, 1], [64, 2], [60, 2], [42, 1]],
        "best": [
            {"name": "Giulia", "score": 78, "record": "ABCDEFGH23"},
            {"name": "Anna", "score": 71, "record": "ABCDEFGH24"},
            {"name": "Luca", "score": 64, "record": "ABCDEFGH25"},
        ],
    }
    return {
        "listing": {
            "tournaments": tours,
            "arenas": [
                {
                    "id": "arena:evening-blitz",
                    "game": first,
                    "preset": "standard",
                    "start": f"{day}T20:00:00",
                    "end": f"{day}T20:45:00",
                    "running": True,
                    "players": 14,
                    "joined": False,
                }
            ],
            "swiss": [
                {
                    "id": "swiss:december-club",
                    "game": second,
                    "preset": "standard",
                    "start": f"{day}T21:00:00",
                    "rounds": 5,
                    "round": 0,
                    "team_size": 1,
                    "entrants": 9,
                    "open": True,
                    "registered": False,
                },
                {
                    "id": "swiss:christmas-pairs",
                    "game": first,
                    "preset": "standard",
                    "start": f"{day}T21:30:00",
                    "rounds": 4,
                    "round": 0,
                    "team_size": 2,
                    "entrants": 6,
                    "open": True,
                    "registered": False,
                },
            ],
            "challenges": [
                {
                    "id": "challenge:2",
                    "game": second,
                    "opponent": "Giulia",
                    "sent": True,
                    "deals": 4,
                    "status": "accepted",
                    "mine": {"0": 64, "1": 52},
                    "theirs": {"0": 58},
                    "difference": None,
                    "outcome": None,
                },
                {
                    "id": "challenge:1",
                    "game": first,
                    "opponent": "Matthias",
                    "deals": 4,
                    "status": "done",
                    "mine": {"0": 60, "1": 71, "2": 40, "3": 66},
                    "theirs": {"0": 55, "1": 60, "2": 41, "3": 58},
                    "difference": 23,
                    "outcome": "won",
                },
            ],
        },
        "standings": lines,
        "field": field,
        "arena": [
            {"rank": i + 1, "name": n, "points": 14 - 2 * i, "games": 7 - i // 2, "wins": 5 - i // 2, "fire": i == 0}
            for i, n in enumerate(names[:8])
        ],
        "swiss": [
            {
                "rank": i + 1,
                "name": n,
                "score": 3 - i * 0.5 if i < 6 else 0.5,
                "buchholz": 7.5 - i,
                "sonneborn_berger": 4.0,
            }
            for i, n in enumerate(names[:9])
        ],
    }


def sample_choice(items: list[Item], view: str) -> int:
    """The sample line a screenshot's ``view`` shows: the challenge to play ("challenge"), the
    one over ("result"), the Swiss tournament of pairs ("partner"; "asked": Marco asked the
    player, made so here; "waiting": the player waits for Marco)."""
    for i, item in enumerate(items):
        e = item.event
        if view in ("partner", "asked", "waiting") and item.kind == "swiss" and num_of(e.get("team_size")) > 1:
            if view != "partner":
                e[view] = ["Marco"] if view == "asked" else "Marco"
            return i
        status = {"challenge": "accepted", "result": "done"}.get(view)
        if item.kind == "challenge" and e.get("status") == status:
            return i
    return 0


__all__ = ["Item", "list_of", "num_of", "obj_of", "sample", "sample_choice", "text_of"]
