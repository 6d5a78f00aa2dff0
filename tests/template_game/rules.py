"""Knock: the template game, the whole contract of a game in one short folder.

Two or three players, twelve cards (Ace, King, Queen of each suit; the Ace strongest), all
dealt. The seat after the dealer leads; the others must follow suit when they can; the
strongest card of the led suit wins the trick and leads the next. A trick is worth a point;
once a deal, the seat about to lead may knock: the trick it leads then counts two. A match
is one deal; the most points win it (a tie is a draw).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.cards import Card, codes
from game.rules.base import Action, DealResult, Event, EventLines, IllegalAction, RecordError, unique_max
from game.rules.trick import TrickRules, TrickView
from tests.template_game import vocabulary
from tests.template_game.vocabulary import KNOCK


@dataclass
class KnockState:
    players: int
    dealer: int
    number: int
    hands: list[list[Card]]
    to_act: int
    piles: list[list[Card]]
    points: list[int]
    trick: list[Card] = field(default_factory=list)
    leader: int = 0
    #: The seat that knocked this deal, and whether the trick in progress counts double.
    knocked: int | None = None
    doubled: bool = False
    over: bool = False
    history: list[tuple[int, Card]] = field(default_factory=list)
    opening_events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class KnockView(TrickView):
    seat: int
    players: int
    dealer: int
    to_act: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    trick: tuple[Card, ...]
    history: tuple[tuple[int, Card], ...]
    points: tuple[int, ...]
    knocked: int | None
    doubled: bool


class KnockRules(TrickRules[KnockState, KnockView]):
    game_id = "template"
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    scoring_schema = {"strength": "rank_order"}
    has_stock = False
    table_capacity = 3
    hand_capacity = 6
    result_lines = ({"label": "results.points", "cells": "@points", "kind": "total"},)

    @property
    def hand_size(self) -> int:
        return len(self.cards) // self.players

    # ---- deal
    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> KnockState:
        order = list(self.cards)
        rng.shuffle(order)
        state = self._deal_from(order, dealer, number)
        state.opening_events = [self.deal_event(state)]
        return state

    def _deal_from(self, order: list[Card], dealer: int, number: int) -> KnockState:
        n, k = self.players, self.hand_size
        first = (dealer + 1) % n
        return KnockState(
            players=n,
            dealer=dealer,
            number=number,
            hands=[order[s * k : (s + 1) * k] for s in range(n)],
            to_act=first,
            leader=first,
            piles=[[] for _ in range(n)],
            points=[0] * n,
        )

    def state_from_deal(self, event: Event) -> KnockState:
        hands, _, _ = self.read_deal(event, self.hand_size, 0, 0)
        if event.get("trump") is not None:
            raise RecordError("Knock has no trump: 'trump' must be null")
        dealer, number = self.read_dealer(event)
        return self._deal_from([c for h in hands for c in h], dealer, number)

    # ---- play
    def may_knock(self, state: KnockState) -> bool:
        return not state.over and not state.trick and state.knocked is None

    def follows(self, hand: list[Card], led: Card) -> list[Card]:
        same = [c for c in hand if c.suit == led.suit]
        return same or list(hand)

    def legal_actions(self, state: KnockState) -> list[Action]:
        if state.over:
            return []
        hand = state.hands[state.to_act]
        cards = self.follows(hand, state.trick[0]) if state.trick else hand
        return [self._play[c] for c in cards] + ([KNOCK] if self.may_knock(state) else [])

    def explain_refusal(self, state: KnockState, action: Action) -> IllegalAction:
        if state.over or self.foreign_args(action) or self.vocabulary.decision(action.kind) is None:
            return super().explain_refusal(state, action)
        if action == KNOCK:
            return IllegalAction("illegal", "only the seat about to lead may knock, once a deal")
        c, hand = action.played, state.hands[state.to_act]
        if c not in hand:
            return IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=c.code)
        led = state.trick[0]
        opts = ", ".join(codes(self.follows(hand, led)))
        return IllegalAction("must_follow", f"follow {led.suit}: {opts}", led=led.code, suit=led.suit, options=opts)

    def apply(self, state: KnockState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        if action == KNOCK:
            state.knocked, state.doubled = seat, True
            return [{"event": vocabulary.KNOCK_EVENT.name, "seat": seat}]
        c = action.played
        state.hands[seat].remove(c)
        state.trick.append(c)
        state.history.append((seat, c))
        events: list[Event] = [{"event": "play", "seat": seat, "card": c.code}]
        if len(state.trick) < self.players:
            state.to_act = (seat + 1) % self.players
            return events
        winner = self.trick_winner(state.trick, state.leader)
        pts = 2 if state.doubled else 1
        state.points[winner] += pts
        state.piles[winner] += state.trick
        events.append({"event": "trick", "winner": winner, "cards": codes(state.trick), "points": pts})
        state.trick, state.doubled = [], False
        state.leader = state.to_act = winner
        state.over = not any(state.hands)
        return events

    def deal_result(self, state: KnockState) -> DealResult:
        return DealResult(points=list(state.points), leftover=None, detail={"knocked": state.knocked})

    def view(self, state: KnockState, seat: int) -> KnockView:
        return KnockView(
            seat=seat,
            players=self.players,
            dealer=state.dealer,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            hand_counts=tuple(len(h) for h in state.hands),
            trick=tuple(state.trick),
            history=tuple(state.history),
            points=tuple(state.points),
            knocked=state.knocked,
            doubled=state.doubled,
        )

    def clone(self, state: KnockState) -> KnockState:
        return KnockState(
            players=state.players,
            dealer=state.dealer,
            number=state.number,
            hands=[list(h) for h in state.hands],
            to_act=state.to_act,
            piles=[list(p) for p in state.piles],
            points=list(state.points),
            trick=list(state.trick),
            leader=state.leader,
            knocked=state.knocked,
            doubled=state.doubled,
            over=state.over,
            history=list(state.history),
            opening_events=list(state.opening_events),
        )

    def action_from_record(self, events: EventLines, i: int) -> Action:
        if events[i].get("event") == KNOCK.kind:
            return KNOCK
        return super().action_from_record(events, i)

    # ---- match: one deal
    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        winner = unique_max(totals)
        return True, winner, "one deal" if winner is not None else "one deal, a tie"
