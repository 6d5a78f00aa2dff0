"""Suggest a move: what the normal level would play in the human's seat, and why.

The suggestion is the normal level's choice for the seat's own view (never more than the
seat may see), drawn from the same per-decision randomness as a bot in that seat would use
(``BaseBot.begin_decision``: seed, seat, decision number), and searched by iterations only
(no time cap), so a seed and a decision always give the same suggestion on every machine.

Where the search cannot play a game or a variant yet (its hooks refuse the view with a
ValueError), the greedy baseline's choice is suggested instead and ``level`` says so.

The one-line reason comes from the game's optional hook ``reason(rules, view, action)`` in
``game/games/<game>/ai`` (see game.ai.hooks.OPTIONAL): a locale key and its parameters;
card codes in the parameters are under ``card``, ``led``, ``partner`` (one code) or
``cards`` (a list), a bonus under ``bonus``; the table turns them into the deck's names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass, field
from typing import Protocol

from game.ai.bots import make_bot
from game.ai.hooks import View, load_hooks
from game.cards import Card
from game.rules.base import Action, GameRules
from game.rules.capture import CaptureRules, captured
from game.rules.common import PLAY

#: The level whose choice is suggested.
SUGGEST_LEVEL = "normal"
#: What is suggested where the search cannot play the game (ValueError from its hooks).
FALLBACK_LEVEL = "greedy"
#: The reason given to a move that is the only legal one.
ONLY_MOVE = "suggest.reason.only_move"
#: The reason given when the game's hook names none: what the level weighed, by level.
PLAIN_REASON = {SUGGEST_LEVEL: "suggest.reason.looks_ahead", FALLBACK_LEVEL: "suggest.reason.counts_now"}

Reason = tuple[str, dict[str, object]]


class SeatSession(Protocol):
    """What a suggestion reads of a match in progress (game.services.session.Session)."""

    rules: GameRules
    seed: int
    human_seat: int | None

    @property
    def over(self) -> bool: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def decisions(self) -> Sized: ...

    def view(self, seat: int | None = None) -> object: ...

    def legal_actions(self) -> list[Action]: ...


@dataclass(frozen=True)
class Suggestion:
    action: Action
    #: The decision's number in the match (``len(session.decisions)`` when it was asked):
    #: the suggestion holds for that decision only.
    decision: int
    #: (locale key, params) or None when the game's hook gives no reason for this move.
    reason: Reason | None = None
    #: The level that chose it: SUGGEST_LEVEL, or FALLBACK_LEVEL where the search cannot play.
    level: str = SUGGEST_LEVEL
    #: Whether a stop request cut the search short (such a suggestion is not reproducible:
    #: the table throws it away).
    stopped: bool = field(default=False, compare=False)


def suggest(
    rules: GameRules,
    view: View,
    legal: list[Action],
    seat: int,
    seed: int,
    decision: int,
    should_stop: Callable[[], bool] | None = None,
) -> Suggestion:
    """The normal level's choice among ``legal`` for ``seat`` seeing ``view`` at decision
    number ``decision`` of the match dealt by ``seed``. ``should_stop`` abandons the search
    (the result then has ``stopped`` set)."""
    if not legal:
        raise ValueError("there is nothing to suggest: no legal action")
    level = SUGGEST_LEVEL
    try:
        action = _choose(SUGGEST_LEVEL, rules, view, legal, seat, seed, decision, should_stop)
    except ValueError:
        # The search does not play this game or variant yet (e.g. a seat count its
        # determinization does not handle): the baseline's choice, said to be so.
        level = FALLBACK_LEVEL
        action = _choose(FALLBACK_LEVEL, rules, view, legal, seat, seed, decision, should_stop)
    if action not in legal:  # a bot's bug must never become a suggestion the rules refuse
        raise RuntimeError(f"the {level} level chose {action}, which is not legal here")
    action = _vetted(rules, view, legal, action, seat, seed, decision, should_stop)
    stopped = bool(should_stop is not None and should_stop())
    reason = reason_for(rules, view, legal, action) or (PLAIN_REASON[level], {})
    return Suggestion(action, decision, reason, level, stopped)


def _vetted(
    rules: GameRules,
    view: View,
    legal: list[Action],
    action: Action,
    seat: int,
    seed: int,
    decision: int,
    should_stop: Callable[[], bool] | None,
) -> Action:
    """The move a player would accept from a suggestion. A decision its kind declares
    ``prefer`` (a trump exchange), when legal, comes first: it costs nothing and improves the
    hand (the turn goes on).
    In a capture game, placing a card that an unseen card can take while a capture was there
    that leaves the next player no sweep is never suggested: the best such capture (by the
    one-move count) is, instead."""
    vocabulary = rules.vocabulary
    free = next((a for a in legal if (k := vocabulary.decision(a.kind)) is not None and k.prefer), None)
    if free is not None:
        return free
    if (
        rules.family != "capture"
        or not isinstance(rules, CaptureRules)
        or action.kind != PLAY.name
        or captured(action)
        or action.card is None
    ):
        return action
    unseen = getattr(view, "unseen", None)
    captures = [a for a in legal if a.kind == PLAY.name and captured(a)]
    if unseen is None or not captures:
        return action
    table = list(getattr(view, "table", ()))
    placed = [*table, action.card]
    if not any(action.card in cap for x in unseen for cap in rules.captures_for(x, placed)):
        return action  # nobody can take the card placed: a safe way to wait
    safe = [a for a in captures if not _sweepable(rules, unseen, [t for t in table if t not in captured(a)])]
    if not safe:
        return action
    choice = _choose(FALLBACK_LEVEL, rules, view, safe, seat, seed, decision, should_stop)
    return choice if choice in safe else safe[0]


def _sweepable(rules: CaptureRules, unseen: Iterable[Card], left: list[Card]) -> bool:
    """Could an unseen card take all of ``left`` (a sweep for the next player)?"""
    return bool(left) and any(len(cap) == len(left) for x in unseen for cap in rules.captures_for(x, left))


def _choose(
    level: str,
    rules: GameRules,
    view: View,
    legal: list[Action],
    seat: int,
    seed: int,
    decision: int,
    should_stop: Callable[[], bool] | None,
) -> Action:
    bot = make_bot(level, rules, seat, seed)
    if hasattr(bot, "time_cap"):
        bot.time_cap = None  # iterations only: the same suggestion on a slow machine as on a fast one
    bot.begin_decision(decision)
    return bot.choose(view, list(legal), should_stop=should_stop)


def reason_for(rules: GameRules, view: View, legal: list[Action], action: Action) -> Reason | None:
    """Why ``action`` is a good move, as (locale key, params), or None: the only move, else
    what the game's ``reason`` hook says (no hook, or a hook that fails: no reason)."""
    if len(legal) == 1:
        return (ONLY_MOVE, {})
    try:
        hook = load_hooks(rules.game_id).reason
    except ValueError:
        return None
    if hook is None:
        return None
    out = hook(rules, view, action)
    if out is None:
        return None
    key, params = out
    return (str(key), dict(params or {}))


def suggest_for(session: SeatSession, should_stop: Callable[[], bool] | None = None) -> Suggestion:
    """The suggestion for the human seat of a :class:`game.services.session.Session` whose turn it is."""
    seat = session.human_seat
    if seat is None or session.over or session.to_act != seat:
        raise ValueError("a suggestion is for the human seat, on its turn")
    return suggest(
        session.rules,
        session.view(seat),
        session.legal_actions(),
        seat,
        session.seed,
        len(session.decisions),
        should_stop,
    )


__all__ = [
    "Suggestion",
    "suggest",
    "suggest_for",
    "reason_for",
    "SUGGEST_LEVEL",
    "FALLBACK_LEVEL",
    "ONLY_MOVE",
    "PLAIN_REASON",
]
