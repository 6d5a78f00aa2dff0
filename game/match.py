"""The match driver: deals, asks the seats for actions, keeps the totals, emits the events.

The table scene and the headless simulator run the same driver: the scene animates the
events, the simulator writes them to a record. ``Match.events`` is the whole record so far.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, cast

from game.rules.base import Action, DealResult, Event, GameRules, S, V, unique_max
from game.version import version

RECORD_FORMAT = 1


def limit_status(limit: int | None, deals_played: int, deal_points: list[int]) -> tuple[bool, int | None]:
    """A match line's ``deals`` field (docs/RECORD.md): a record of the match's first
    ``limit`` deals ends after deal ``limit`` even when the rules would go on (a daily deal,
    a duplicate half of one deal). The winner is then the team with the unique highest sum
    of deal ``points`` (None on a tie). (False, None) when there is no limit or it is not reached."""
    if limit is None or deals_played < limit:
        return False, None
    return True, unique_max(list(deal_points))


class Bot(Protocol):
    """A seat's player. A bot may also define ``begin_decision(number)``: the match calls it
    before every choice it asks for, with the decision's number in the match (0, 1, …, across
    deals), so that the bot's random draws depend on the decision and not on what it was
    asked before — a match rebuilt at decision k then plays on exactly as the original did
    (see game.ai.base.BaseBot)."""

    def choose(self, view: object, legal: list[Action], should_stop: Callable[[], bool] | None = None) -> Action: ...


def deal_end_event(number: int, result: DealResult, totals: list[int]) -> Event:
    return {
        "event": "deal_end",
        "number": number,
        "leftover": result.leftover,
        "points": list(result.points),
        "totals": list(totals),
        "detail": result.detail,
    }


class Match(Generic[S, V]):
    """One match (or single-deal game) from the ``match`` line to ``match_end``.

    ``bots[seat]`` is a Bot or None for a human seat. Drive it with :meth:`play` (one action
    of the seat to act) or :meth:`run` (all bots). Every produced event is appended to
    ``events`` and returned by the call that produced it.

    ``decisions`` keeps every decision made, as (seat, Action), in order and across deals:
    with the rules and the seed they are the whole match — :meth:`rebuild` replays any prefix
    of them to the same position (the base of resume, undo, replays and online tables).
    """

    def __init__(
        self, rules: GameRules[S, V], seed: int, bots: Sequence[Bot | None] | None = None, deals: int | None = None
    ):
        if deals is not None and deals < 1:
            raise ValueError("a match of at least one deal")
        self.rules = rules
        #: Play only the first ``deals`` deals (the match line's ``deals`` field), or None.
        self.deal_limit = deals
        self.seed = seed
        self.rng = random.Random(seed)
        self.bots: list[Bot | None] = list(bots) if bots is not None else [None] * rules.players
        if len(self.bots) != rules.players:
            raise ValueError(f"{len(self.bots)} seats given for {rules.players} players")
        self.totals: list[int] = rules.initial_totals()
        self.deal_number = 0
        self.dealer: int | None = None
        #: The deal in play: None until :meth:`start` deals (read it only after).
        self.state: S = cast(S, None)
        self.over = False
        self.winner: int | None = None
        self.last_result: DealResult | None = None
        #: Per team, the sum of its deal ``points`` so far (what a deal limit's winner is read from).
        self.deal_points: list[int] = [0] * rules.teams
        self.events: list[Event] = []
        self.decisions: list[tuple[int, Action]] = []
        #: Index in ``decisions`` of the current deal's first decision.
        self.deal_start = 0
        #: The legal actions of a position as a server worked them out once, with the number
        #: of decisions made then (game.online.server.turns.legal_now), or None.
        self.legal_memo: tuple[int, list[Action]] | None = None

    @classmethod
    def rebuild(
        cls,
        rules: GameRules[S, V],
        seed: int,
        decisions: list[tuple[int, Action]],
        bots: Sequence[Bot | None] | None = None,
        deals: int | None = None,
    ) -> Match[S, V]:
        """The match started with ``seed`` and replayed through ``decisions`` (each checked by
        the rules: IllegalAction naming the rule, or ValueError when a decision is made by
        a seat that is not to act)."""
        m = cls(rules, seed, bots, deals)
        m.start()
        for i, (seat, action) in enumerate(decisions):
            if m.over:
                raise ValueError(f"decision {i + 1} comes after the end of the match")
            if seat != m.to_act:
                raise ValueError(f"decision {i + 1} is seat {seat}'s, but seat {m.to_act} is to act")
            m.play(action)
        return m

    # ------------------------------------------------------------------ flow
    def start(self) -> list[Event]:
        """The ``match`` line and the first deal."""
        if self.events:
            raise RuntimeError("the match has already started")
        r = self.rules
        out: list[Event] = [
            {
                "event": "match",
                "format": RECORD_FORMAT,
                "game": r.game_id,
                "deck": r.deck.id,
                "players": r.players,
                "seed": self.seed,
                "options": dict(r.options),
            }
        ]
        if self.deal_limit is not None:
            out[0]["deals"] = self.deal_limit
        # Which program played it (an extra field RECORD.md allows): a record attached to a bug
        # report names its version.
        out[0]["version"] = version()
        out += self._next_deal()
        self.events += out
        return out

    def keep_version(self, head: Event) -> None:
        """A match rebuilt from a record (a save, a server's table) keeps the version named by
        the record's own ``match`` line, or none where it names none: the rebuilt record then
        equals the one read, whichever version wrote it."""
        line = self.events[0] if self.events else None
        if line is None or line.get("event") != "match":
            return
        line.pop("version", None)
        if isinstance(head, dict) and "version" in head:
            line["version"] = head["version"]

    def _next_deal(self) -> list[Event]:
        r = self.rules
        self.dealer = r.first_dealer(self.rng) if self.dealer is None else r.next_dealer(self.dealer)
        self.deal_number += 1
        self.state = r.new_deal(self.rng, self.dealer, self.deal_number)
        return list(self.state.opening_events)

    @property
    def to_act(self) -> int | None:
        return None if self.over or self.state is None else self.rules.to_act(self.state)

    def view(self, seat: int) -> V:
        return self.rules.view(self.state, seat)

    def legal_actions(self) -> list[Action]:
        return [] if self.over else self.rules.legal_actions(self.state)

    def play(self, action: Action, legal: Sequence[Action] | None = None) -> list[Event]:
        """Apply the seat-to-act's action (raises IllegalAction naming the rule) and everything
        that follows from it: deal end, the next deal, match end.

        ``legal``: this position's ``legal_actions``, when the caller has them already (a
        server sent them in the turn): the rules' check is then the lookup in them, not a
        second ``legal_actions`` — the same check, since legality has that one source."""
        if self.over:
            raise RuntimeError("the match is over")
        r = self.rules
        seat = r.to_act(self.state)
        if legal is not None and action in legal:
            out = r.apply(self.state, action, check=False)
        else:  # the rules check it (and name the rule it breaks)
            out = r.apply(self.state, action)
        self.decisions.append((seat, action))
        if r.is_over(self.state):
            result = r.deal_result(self.state)
            self.last_result = result
            self.totals = r.add_deal(self.totals, result)
            self.deal_points = [a + b for a, b in zip(self.deal_points, result.points)]
            out.append(deal_end_event(self.deal_number, result, self.totals))
            over, winner, _ = r.match_status(self.totals, self.deal_number)
            if not over:
                over, winner = limit_status(self.deal_limit, self.deal_number, self.deal_points)
            if over:
                self.over = True
                self.winner = winner
                out.append({"event": "match_end", "winner": winner, "totals": list(self.totals)})
            else:
                out += self._next_deal()
                self.deal_start = len(self.decisions)
        self.events += out
        return out

    def bot_turn(self) -> tuple[Bot, V, list[Action]] | None:
        """The bot in the seat to act, ready for this decision (``begin_decision`` called with
        the decision's number), with its view and the legal actions; None when the match is
        over or a human is to act."""
        seat = self.to_act
        if seat is None:
            return None
        bot = self.bots[seat]
        if bot is None:
            return None
        begin = getattr(bot, "begin_decision", None)  # optional (see Bot)
        if begin is not None:
            begin(len(self.decisions))
        return bot, self.rules.view(self.state, seat), self.rules.legal_actions(self.state)

    def step_bot(self) -> list[Event]:
        """Let the bot in the seat to act choose and play once."""
        turn = self.bot_turn()
        if turn is None:
            raise RuntimeError(f"seat {self.to_act} is a human seat")
        bot, view, legal = turn
        return self.play(bot.choose(view, legal))

    def run(self) -> list[Event]:
        """Play the whole match with bots in every seat; return the full record."""
        if not self.events:
            self.start()
        while not self.over:
            self.step_bot()
        return self.events
