"""Which sounds a game event calls for. Pure data in, names out: no pygame, no device.

Each event sounds as its game declares it (game.rules.vocabulary.EventKind: its ``sound``),
judged by its table ``effect`` where that says more: a capture's sweep or bonus, another
seat's draw, a deal or a match won or lost.

The events are the record events of RECORD.md (what ``Match.play`` returns), so the table
scene, a replay viewer and the tests all get the same sounds for the same game. Results
are judged from the human's side: ``deal_end`` and ``match_end`` sound as won or lost for
``human_team``; with ``human_team=None`` (bots only, a replay) they stay quiet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from game.registry import rules_class

TeamsOf = Callable[[int], int] | Sequence[int] | None
#: A record event, as Match.play returns it (RECORD.md).
Event = Mapping[str, object]


def _team(teams_of: TeamsOf, seat: object) -> int | None:
    """The team of ``seat``: teams_of may be rules.team_of, a list indexed by seat, or None
    (seat == team, as in every 2- and 3-player game)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return None
    if teams_of is None:
        return seat
    try:
        return teams_of(seat) if callable(teams_of) else teams_of[seat]
    except (IndexError, KeyError, TypeError, ValueError):
        return None


def bonus_sounds(game: str) -> tuple[frozenset[str], frozenset[str], bool]:
    """(the bonuses that earn the sweep flourish, those that earn the chime, whether the game
    captures), from the game's facts: its ``sweep_bonuses`` sweep, its other
    ``counted_bonuses`` chime. An unknown game: no bonus sounds, captures judged per event."""
    try:
        facts = rules_class(game)
    except (ValueError, ImportError, TypeError):
        return frozenset(), frozenset(), False
    sweep = frozenset(facts.sweep_bonuses)
    return sweep, frozenset(facts.counted_bonuses) - sweep, facts.family == "capture"


def _result(points: object, human_team: int | None, won: str, lost: str) -> list[str]:
    """Won if the human's team has strictly the most points, lost if another team has more;
    a tie (or no human at the table) is silent."""
    if human_team is None or not isinstance(points, Sequence) or not 0 <= human_team < len(points):
        return []
    try:
        mine = points[human_team]
        best_other = max(p for t, p in enumerate(points) if t != human_team)
        if mine > best_other:
            return [won]
        if mine < best_other:
            return [lost]
    except (TypeError, ValueError):  # malformed points: stay quiet rather than guess
        pass
    return []


#: One effect's sounds: (event, its declared sound, game, human_team, teams_of) -> names.
Sounder = Callable[[Event, str, str, int | None, TeamsOf], list[str]]
#: The sounds of the table effects that sound more than their declared one (or judge it); an
#: event of any other effect sounds its declared ``sound`` (none when it declares none).
SOUNDS: dict[str, Sounder] = {}


def _sounds(*effects: str) -> Callable[[Sounder], Sounder]:
    def register(fn: Sounder) -> Sounder:
        for effect in effects:
            SOUNDS[effect] = fn
        return fn

    return register


@lru_cache(maxsize=32)
def declared(game: str) -> dict[str, tuple[str, str]]:
    """The record events ``game`` declares: name -> (its table effect, its sound)."""
    try:
        kinds = rules_class(game).event_kinds
    except (ValueError, ImportError, TypeError, AttributeError):
        return {}
    return {k.name: (k.effect, k.sound) for k in kinds}


@_sounds("deal")
def _deal(event: Event, sound: str, game: str, human_team: int | None, teams_of: TeamsOf) -> list[str]:
    return ["shuffle", sound or "deal"]


@_sounds("play_card")
def _play(event: Event, sound: str, game: str, human_team: int | None, teams_of: TeamsOf) -> list[str]:
    capture = event.get("capture")
    sweeps, chimes, captures = bonus_sounds(game)
    if captures or "capture" in event:
        if not capture:
            return [sound or "play"]
        listed = event.get("bonuses")
        bonuses = set(listed) if isinstance(listed, (list, tuple)) else set()
        out = ["capture"]
        if bonuses & sweeps:
            out.append("sweep")
        if bonuses & chimes:
            out.append("bonus")
        return out
    return [sound or "play"]


@_sounds("draw")
def _draw(event: Event, sound: str, game: str, human_team: int | None, teams_of: TeamsOf) -> list[str]:
    # Both players draw at once: one flick for the human's own card is enough (two
    # identical flicks together only sound louder). Bots only: every draw flicks.
    if human_team is None or _team(teams_of, event.get("seat")) == human_team:
        return [sound or "deal"]
    return []


@_sounds("deal_end")
def _deal_end(event: Event, sound: str, game: str, human_team: int | None, teams_of: TeamsOf) -> list[str]:
    return _result(event.get("points"), human_team, "deal_won", "deal_lost")


@_sounds("match_end")
def _match_end(event: Event, sound: str, game: str, human_team: int | None, teams_of: TeamsOf) -> list[str]:
    winner = event.get("winner")
    if human_team is None or winner is None or isinstance(winner, bool) or not isinstance(winner, int):
        return []
    return ["match_won"] if winner == human_team else ["match_lost"]


def sounds_for(event: Event, game: str, human_team: int | None, teams_of: TeamsOf = None) -> list[str]:
    """The sound names for one record event, in the order to play them (usually one; a
    scopa gives ``["capture", "sweep"]``). Unknown or malformed events give ``[]``.

    ``game`` is the record's game id; ``teams_of`` maps a seat to its team (``rules.team_of``
    or a list); ``human_team`` is the human's team, or None when only bots play.
    """
    if not isinstance(event, Mapping):
        return []
    name = event.get("event")
    effect, sound = declared(game).get(name, ("", "")) if isinstance(name, str) else ("", "")
    fn = SOUNDS.get(effect)
    if fn is not None:
        return fn(event, sound, game, human_team, teams_of)
    return [sound] if sound else []  # an event the game does not declare is quiet


def _effect(game: str, event: Event) -> str:
    name = event.get("event")
    return declared(game).get(name, ("", ""))[0] if isinstance(name, str) else ""


def sounds_for_batch(
    events: Sequence[Event], game: str, human_team: int | None, teams_of: TeamsOf = None
) -> list[list[str]]:
    """:func:`sounds_for` for each event of a batch (what one ``Match.play`` returns),
    aligned with ``events``. A deal result directly followed by the match result is
    dropped, so the last deal of a match plays only the match fanfare."""
    out = [sounds_for(e, game, human_team, teams_of) for e in events]
    for i in range(len(events) - 1):
        if (
            isinstance(events[i], Mapping)
            and _effect(game, events[i]) == "deal_end"
            and isinstance(events[i + 1], Mapping)
            and _effect(game, events[i + 1]) == "match_end"
            and out[i + 1]
        ):
            out[i] = []
    return out


__all__ = ["SOUNDS", "declared", "sounds_for", "sounds_for_batch", "bonus_sounds"]
