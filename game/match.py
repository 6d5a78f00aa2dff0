"""The match driver: deals, asks the seats for actions, keeps the totals, emits the events.

The table scene and the headless simulator run the same driver: the scene animates the
events, the simulator writes them to a record. ``Match.events`` is the whole record so far.
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from game.rules.base import Action, DealResult, Event, GameRules

RECORD_FORMAT = 1


class Bot(Protocol):
    def choose(self, view: Any, legal: list[Action], should_stop: Any = None) -> Action: ...


def deal_end_event(number: int, result: DealResult, totals: list[int]) -> Event:
    return {
        "event": "deal_end", "number": number, "leftover": result.leftover,
        "points": list(result.points), "totals": list(totals), "detail": result.detail,
    }


class Match:
    """One match (or single-deal game) from the ``match`` line to ``match_end``.

    ``bots[seat]`` is a Bot or None for a human seat. Drive it with :meth:`play` (one action
    of the seat to act) or :meth:`run` (all bots). Every produced event is appended to
    ``events`` and returned by the call that produced it.
    """

    def __init__(self, rules: GameRules, seed: int, bots: list[Bot | None] | None = None):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.bots: list[Bot | None] = list(bots) if bots is not None else [None] * rules.players
        if len(self.bots) != rules.players:
            raise ValueError(f"{len(self.bots)} seats given for {rules.players} players")
        self.totals: list[int] = rules.initial_totals()
        self.deal_number = 0
        self.dealer: int | None = None
        self.state: Any = None
        self.over = False
        self.winner: int | None = None
        self.last_result: DealResult | None = None
        self.events: list[Event] = []

    # ------------------------------------------------------------------ flow
    def start(self) -> list[Event]:
        """The ``match`` line and the first deal."""
        if self.events:
            raise RuntimeError("the match has already started")
        r = self.rules
        out: list[Event] = [{
            "event": "match", "format": RECORD_FORMAT, "game": r.game_id, "deck": r.deck.id,
            "players": r.players, "seed": self.seed, "options": dict(r.options),
        }]
        out += self._next_deal()
        self.events += out
        return out

    def _next_deal(self) -> list[Event]:
        r = self.rules
        self.dealer = r.first_dealer(self.rng) if self.dealer is None else r.next_dealer(self.dealer)
        self.deal_number += 1
        self.state = r.new_deal(self.rng, self.dealer, self.deal_number)
        return list(self.state.opening_events)

    @property
    def to_act(self) -> int | None:
        return None if self.over or self.state is None else self.rules.to_act(self.state)

    def view(self, seat: int) -> Any:
        return self.rules.view(self.state, seat)

    def legal_actions(self) -> list[Action]:
        return [] if self.over else self.rules.legal_actions(self.state)

    def play(self, action: Action) -> list[Event]:
        """Apply the seat-to-act's action (raises IllegalAction naming the rule) and everything
        that follows from it: deal end, the next deal, match end."""
        if self.over:
            raise RuntimeError("the match is over")
        r = self.rules
        out = r.apply(self.state, action)
        if r.is_over(self.state):
            result = r.deal_result(self.state)
            self.last_result = result
            self.totals = r.add_deal(self.totals, result)
            out.append(deal_end_event(self.deal_number, result, self.totals))
            over, winner, _ = r.match_status(self.totals, self.deal_number)
            if over:
                self.over = True
                self.winner = winner
                out.append({"event": "match_end", "winner": winner, "totals": list(self.totals)})
            else:
                out += self._next_deal()
        self.events += out
        return out

    def bot_to_act(self) -> Bot | None:
        seat = self.to_act
        return None if seat is None else self.bots[seat]

    def step_bot(self) -> list[Event]:
        """Let the bot in the seat to act choose and play once."""
        seat = self.to_act
        bot = self.bots[seat]
        if bot is None:
            raise RuntimeError(f"seat {seat} is a human seat")
        return self.play(bot.choose(self.rules.view(self.state, seat), self.rules.legal_actions(self.state)))

    def run(self) -> list[Event]:
        """Play the whole match with bots in every seat; return the full record."""
        if not self.events:
            self.start()
        while not self.over:
            self.step_bot()
        return self.events
