"""Statistics per game, mode and variant: played, won, lost, drawn, best margin, current streak.

A record's key is ``game/mode`` for the rules as written and ``game/mode/variant`` for a
preset or a custom set of house rules (:func:`game.variants.variant_key`): a statistics file
written before house rules existed (only ``game/mode`` keys) reads unchanged.

A match in which a decision was taken back (undo) is practice, not a fair result: it counts
in ``practice`` only, never as played, won or lost. A match in which moves were suggested counts
as usual and also in ``suggested``.

A game whose seats play roles that change from deal to deal (the caller, the partner and the
defenders of a game with an auction and a called partner) declares them in its results module: ``ROLES``, the roles'
names in the order they are shown, and ``role_of(deal_end, seat)``, a seat's role in the deal
a ``deal_end`` line scores (None: no role, a deal thrown in). A record then also counts, per
role, the deals the player played in it, won and lost (a contract made, as caller) and the
points they brought (:func:`roles_in`); nothing here names a game or a role.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from game.services.settings import user_data_dir
from game.services.storage import read_json, serialised, write_json

FILE_NAME = "stats.json"
OUTCOMES = ("won", "lost", "drawn")
#: The counts kept per role (a deal in it, won, lost, and the points it brought).
ROLE_COUNTS = ("deals", "won", "lost", "points")


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass
class Record:
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    best_margin: int | None = None
    #: Positive: wins in a row; negative: losses in a row; a draw resets it.
    streak: int = 0
    #: Finished matches with a decision taken back: practice, not in played/won/lost/drawn.
    practice: int = 0
    #: Of the played matches, those in which a move was suggested to the player.
    suggested: int = 0
    #: Role name -> ROLE_COUNTS -> count, for a game whose seats play roles (the module's doc).
    roles: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: object) -> Record:
        r = cls()
        if isinstance(data, dict):
            for f in fields(cls):
                v = data.get(f.name)
                if isinstance(v, int) and not isinstance(v, bool) and (v >= 0 or f.name in ("streak", "best_margin")):
                    setattr(r, f.name, v)
            r.roles = _roles_from_json(data.get("roles"))
        return r


def _roles_from_json(data: object) -> dict[str, dict[str, int]]:
    """The roles' counts of a file; a role whose counts are not whole numbers (deals, won and
    lost not negative) is left out, as a hand-edited file may hold anything."""
    out: dict[str, dict[str, int]] = {}
    if not isinstance(data, dict):
        return out
    for role, counts in data.items():
        if not isinstance(role, str) or not isinstance(counts, dict):
            continue
        values = {k: counts.get(k, 0) for k in ROLE_COUNTS}
        if all(_whole(v) for v in values.values()) and all(values[k] >= 0 for k in ("deals", "won", "lost")):
            out[role] = {k: int(v) for k, v in values.items()}
    return out


def declared_roles(game: str) -> tuple[str, ...]:
    """The roles ``game`` declares (its results module's ``ROLES``), in order; () for none."""
    from game.registry import game_module

    try:
        module = game_module(game, "results", optional=True)
    except ValueError:  # not a registered game (a file from another version)
        return ()
    roles = getattr(module, "ROLES", ())
    return tuple(r for r in roles if isinstance(r, str))


def roles_in(game: str, events: Sequence[Mapping[str, object]], seat: int, team: int) -> dict[str, dict[str, int]]:
    """What ``seat`` (scoring in column ``team``) did in each role over a match's record
    ``events``: per role its ROLE_COUNTS, from every ``deal_end`` line; {} for a game
    without roles."""
    from game.registry import game_module

    module = game_module(game, "results", optional=True)
    role_of = getattr(module, "role_of", None)
    if role_of is None:
        return {}
    out: dict[str, dict[str, int]] = {}
    for ev in events:
        if ev.get("event") != "deal_end":
            continue
        role = role_of(ev, seat)
        points = ev.get("points")
        if not isinstance(role, str) or not isinstance(points, list) or not 0 <= team < len(points):
            continue
        got = int(points[team])
        c = out.setdefault(role, dict.fromkeys(ROLE_COUNTS, 0))
        c["deals"] += 1
        c["won"] += got > 0
        c["lost"] += got < 0
        c["points"] += got
    return out


def stats_path() -> Path:
    return user_data_dir() / FILE_NAME


def key(game: str, mode: str, variant: str = "") -> str:
    return f"{game}/{mode}/{variant}" if variant else f"{game}/{mode}"


def split_key(k: str) -> tuple[str, str, str]:
    """(game, mode, variant) of a record's key; the variant is "" for the rules as written."""
    game, _, rest = k.partition("/")
    mode, _, variant = rest.partition("/")
    return game, mode, variant


def load_stats() -> tuple[dict[str, Record], str | None]:
    """All records; a corrupt file gives empty statistics and is kept aside."""
    data, problem = read_json(stats_path(), expect=dict, what="a statistics file")  # [1, 2, 3] is kept aside too
    if not isinstance(data, dict):
        return {}, problem
    return {str(k): Record.from_json(v) for k, v in data.items()}, problem


@serialised(stats_path)  # two windows: each adds its match to what the file holds now
def record_result(
    game: str,
    mode: str,
    outcome: str,
    margin: int,
    *,
    practice: bool = False,
    suggested: bool = False,
    variant: str = "",
    roles: Mapping[str, Mapping[str, int]] | None = None,
) -> str | None:
    """Add one finished match (outcome for the human's side, margin in its favour).
    ``practice``: a decision was taken back — counted as practice only (no outcome, streak
    or margin). ``suggested``: moves were suggested — counted as usual and as suggested.
    ``variant``: the house rules' own record (:func:`game.variants.variant_key`; "" for the
    rules as written). ``roles``: the player's deals by role (:func:`roles_in`), added to the
    record's (a practice match's are not)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {OUTCOMES}")
    stats, _ = load_stats()
    r = stats.setdefault(key(game, mode, variant), Record())
    if practice:
        r.practice += 1
        return write_json(stats_path(), {k: asdict(v) for k, v in stats.items()})
    r.played += 1
    for role, counts in (roles or {}).items():
        mine = r.roles.setdefault(role, dict.fromkeys(ROLE_COUNTS, 0))
        for k in ROLE_COUNTS:
            mine[k] += int(counts.get(k, 0))
    if suggested:
        r.suggested += 1
    if outcome == "won":
        r.won += 1
        r.streak = r.streak + 1 if r.streak > 0 else 1
        r.best_margin = margin if r.best_margin is None else max(r.best_margin, margin)
    elif outcome == "lost":
        r.lost += 1
        r.streak = r.streak - 1 if r.streak < 0 else -1
    else:
        r.drawn += 1
        r.streak = 0
    return write_json(stats_path(), {k: asdict(v) for k, v in stats.items()})


@serialised(stats_path)
def reset_stats() -> str | None:
    return write_json(stats_path(), {})
