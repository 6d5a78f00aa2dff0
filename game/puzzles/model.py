"""A puzzle: a position from a real deal with one right move, and the line that proves it.

A puzzle is data (one line of ``game/puzzles/data/<game>.jsonl.gz``, see docs/PUZZLES.md):
the record prefix that leads to the position (the match line and every event up to the
decision: it verifies with the referee, so the position is one the rules reach), the seat
whose move it is, and the solution ``line`` — the seat's moves and the other seats' replies,
each ``[seat, action]`` with the action in the online protocol's JSON form
(``game.action_codec.action_to_json``). The first ``answer_moves`` of the seat's own moves
in the line are what the player must find; every other seat's move in it is a reply the
puzzle plays for them.

``known`` puzzles stand where every card is known from the seat (the game's exact solver
proved the margin, and every later move of the seat in the line is the only one that keeps
the value); the others were valued by the coach (its flat valuation on the seat's view), the
margin confirmed on a second, independent seed, and ask for one move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from game import registry
from game.action_codec import action_from_json as protocol_action_from_json
from game.action_codec import action_to_json
from game.rules.base import Action, Event
from game.rules.vocabulary import JsonObject

#: Where every puzzle starts on the rating scale before its first attempts (Glicko-2's 1500
#: scale: game.puzzles.rating), and the deviation a new rating has.
BASE_RATING = 1500.0
NEW_RD = 350.0
#: A puzzle's starting deviation: its starting rating is an estimate (game.puzzles.make).
PUZZLE_RD = 200.0


def _declared_themes() -> tuple[str, ...]:
    """The themes the games declare (their decisions' and breakdown lines'), in game order."""
    out: list[str] = []
    for gid in registry.folder_game_ids():
        rules = registry.rules_class(gid)
        for theme in (*(t for d in rules.decision_kinds for t in d.themes), *rules.detail_themes.values()):
            if theme not in out:
                out.append(theme)
    return tuple(out)


#: The themes a puzzle may have (locale keys ``puzzles.theme.<id>``). A theme names what the
#: right move is about, read from the position and the move (game.puzzles.themes): the
#: shared ones and those the games declare.
THEMES: tuple[str, ...] = (
    "sweep",
    "settebello",
    "primiera",
    "coins",
    "cards",
    "bonus",
    "napula",
    *_declared_themes(),
    "trump_partner",
    "last_trick",
    "count",
    "trump",
    "lead",
    "take",
)
#: The questions (locale keys ``puzzles.question.<id>``): what the player is asked to do.
QUESTIONS: tuple[str, ...] = ("win_deal", "save_deal", "most_points", "best_move")

#: How a puzzle came to be: the shipped set ("made": the generator), or a player's own match
#: ("mistake": game.puzzles.mistakes).
ORIGINS = ("made", "mistake")


class PuzzleError(ValueError):
    """A puzzle the data cannot hold (one line naming the field)."""


def action_from_json(data: object) -> Action:
    """The Action a JSON action names (game.online.wire.protocol's form); PuzzleError for one that
    names none."""
    if not isinstance(data, Mapping):
        raise PuzzleError(f"an action must be an object, not {data!r}")
    kind = data.get("kind")
    if kind == "play" and not isinstance(data.get("capture") or [], list):
        raise PuzzleError("an action's capture must be a list of cards")
    try:
        return protocol_action_from_json(data)
    except (KeyError, TypeError, ValueError) as e:
        raise PuzzleError(f"action {json.dumps(data)[:80]}: {e}") from None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module). Lists are tuples: a puzzle is never changed in place;
    ``dataclasses.replace`` makes a new one (a rating moved)."""

    id: str
    game: str
    deck: str
    players: int
    options: Mapping[str, object]
    seed: int
    #: The record prefix: the match line and every event up to the position (a decision of ``seat``).
    prefix: tuple[Event, ...]
    seat: int
    #: The solution line from the position: (seat, action JSON) per move, the seat's and the replies.
    line: tuple[tuple[int, JsonObject], ...]
    #: How many of the line's moves are the seat's (the moves the player must find).
    answer_moves: int
    #: How much the right first move is worth over the next best, in the game's own points
    #: (the coach's units: game.coach.hooks).
    margin: float
    theme: str
    #: A key under ``puzzles.question.``.
    question: str
    #: Every card is known from the seat and the exact solver proved the line.
    known: bool
    rating: float = BASE_RATING
    rd: float = PUZZLE_RD
    #: Every legal first move's value in the game's points, as (action JSON, points), best first
    #: (the solver's or the coach's): what a wrong first move loses.
    values: tuple[tuple[JsonObject, float], ...] = ()
    origin: str = "made"
    #: For a mistake puzzle: the move the player made in the match (action JSON), else None.
    played: JsonObject | None = field(default=None)

    # ------------------------------------------------------------------ reading the line
    def action(self, step: int) -> Action:
        """The line's move at ``step`` (an index into ``line``) as an Action."""
        return action_from_json(self.line[step][1])

    def seat_steps(self) -> list[int]:
        """The indices in ``line`` of the seat's own moves (the answers), in order."""
        return [i for i, (s, _) in enumerate(self.line) if s == self.seat][: self.answer_moves]

    def value_of(self, action: Action) -> float | None:
        """A first move's value (from ``values``), or None when not listed."""
        for a, v in self.values:
            if action_from_json(a) == action:
                return v
        return None

    # ------------------------------------------------------------------ data
    def to_json(self) -> JsonObject:
        """The data file's form: the match facts are read back from the prefix's match line."""
        out: JsonObject = {
            "id": self.id,
            "prefix": list(self.prefix),
            "seat": self.seat,
            "line": [[s, a] for s, a in self.line],
            "answer_moves": self.answer_moves,
            "margin": round(self.margin, 4),
            "theme": self.theme,
            "question": self.question,
            "known": self.known,
            "rating": round(self.rating, 1),
            "rd": round(self.rd, 1),
            "values": [[a, round(v, 4)] for a, v in self.values],
        }
        if self.origin != "made":
            out["origin"] = self.origin
        if self.played is not None:
            out["played"] = self.played
        return out

    @classmethod
    def from_json(cls, data: object) -> Puzzle:
        """A puzzle from its data-file form; PuzzleError (one line) for anything malformed."""
        if not isinstance(data, Mapping):
            raise PuzzleError("a puzzle must be a JSON object")
        try:
            prefix = data["prefix"]
            if (
                not isinstance(prefix, list)
                or not prefix
                or not isinstance(prefix[0], Mapping)
                or prefix[0].get("event") != "match"
            ):
                raise PuzzleError("prefix must start with the record's match line")
            head = prefix[0]
            line = tuple((_int(s, "line seat"), _obj(a, "line action")) for s, a in data["line"])
            p = cls(
                id=_text(data["id"], "id"),
                game=_text(head["game"], "game"),
                deck=_text(head["deck"], "deck"),
                players=_int(head["players"], "players"),
                options=dict(_obj(head.get("options") or {}, "options")),
                seed=_int(head["seed"], "seed"),
                prefix=tuple(_obj(e, "prefix event") for e in prefix),
                seat=_int(data["seat"], "seat"),
                line=line,
                answer_moves=_int(data["answer_moves"], "answer_moves"),
                margin=_num(data["margin"], "margin"),
                theme=_text(data["theme"], "theme"),
                question=_text(data["question"], "question"),
                known=_bool(data["known"], "known"),
                rating=_num(data.get("rating", BASE_RATING), "rating"),
                rd=_num(data.get("rd", PUZZLE_RD), "rd"),
                values=tuple((_obj(a, "values action"), _num(v, "value")) for a, v in data.get("values", ())),
                origin=_text(data.get("origin", "made"), "origin"),
                played=None if data.get("played") is None else _obj(data["played"], "played"),
            )
        except KeyError as e:
            raise PuzzleError(f"a puzzle lacks {e.args[0]!r}") from None
        except (TypeError, ValueError) as e:
            if isinstance(e, PuzzleError):
                raise PuzzleError(f"puzzle {data.get('id', '?')}: {e}") from None
            raise PuzzleError(f"puzzle {data.get('id', '?')}: {e}") from None
        if not 1 <= p.answer_moves <= len(p.line) or not p.line or p.line[0][0] != p.seat:
            raise PuzzleError(f"puzzle {p.id}: the line must start with the seat's move and hold its answer moves")
        if p.theme not in THEMES:
            raise PuzzleError(f"puzzle {p.id}: unknown theme {p.theme!r}")
        if p.question not in QUESTIONS:
            raise PuzzleError(f"puzzle {p.id}: unknown question {p.question!r}")
        if p.origin not in ORIGINS:
            raise PuzzleError(f"puzzle {p.id}: unknown origin {p.origin!r}")
        for _, a in p.line:
            action_from_json(a)
        return p

    def with_rating(self, rating: float, rd: float) -> Puzzle:
        return replace(self, rating=rating, rd=rd)


def _text(v: object, name: str) -> str:
    if not isinstance(v, str) or not v:
        raise PuzzleError(f"{name} must be a text")
    return v


def _int(v: object, name: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise PuzzleError(f"{name} must be a whole number")
    return v


def _num(v: object, name: str) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v != v or v in (float("inf"), float("-inf")):
        raise PuzzleError(f"{name} must be a number")
    return float(v)


def _bool(v: object, name: str) -> bool:
    if not isinstance(v, bool):
        raise PuzzleError(f"{name} must be true or false")
    return v


def _obj(v: object, name: str) -> JsonObject:
    if not isinstance(v, Mapping):
        raise PuzzleError(f"{name} must be an object")
    return dict(v)


__all__ = [
    "BASE_RATING",
    "NEW_RD",
    "ORIGINS",
    "PUZZLE_RD",
    "Puzzle",
    "PuzzleError",
    "QUESTIONS",
    "THEMES",
    "action_from_json",
    "action_to_json",
]
