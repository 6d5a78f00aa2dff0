"""Scopa for 2, 3 and 4 players, exactly as RULES.md states.

Match before sum, the player's choice among captures, mandatory capture, scopa except on the
final play, new hands of three from the stock, leftovers to the last capturer, the four awards
with their tie rules, primiera with the every-suit requirement, the Kings redeal, the dealer
moving one seat each deal, and the match won only by a unique leader at or above the target.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from game.cards import SUITS, Card, card, codes
from game.rules.base import (
    Action,
    DealResult,
    Event,
    GameRules,
    IllegalAction,
    RecordError,
    play,
    unique_max,
)
from game.rules.capture import sum_sets, sums_by_value


@dataclass
class ScopaState:
    players: int
    dealer: int
    number: int
    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]  # top first
    piles: list[list[Card]]  # per team
    scope: list[int]  # per team
    to_act: int
    last_capture_team: int | None = None
    over: bool = False
    opening_events: list[Event] = field(default_factory=list)
    #: Every play so far, as (seat, card, captured cards) — public information.
    history: list[tuple[int, Card, tuple[Card, ...]]] = field(default_factory=list)


@dataclass(frozen=True)
class ScopaView:
    """What one seat may see: its own hand, the table, every pile, the counts of the rest."""

    seat: int
    players: int
    dealer: int
    to_act: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    piles: tuple[tuple[Card, ...], ...]
    scope: tuple[int, ...]
    history: tuple[tuple[int, Card, tuple[Card, ...]], ...]
    last_capture_team: int | None
    deck: tuple[Card, ...]

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards this seat has not seen: in other hands or in the stock."""
        seen = set(self.hand) | set(self.table)
        for p in self.piles:
            seen.update(p)
        return frozenset(self.deck) - seen



class ScopaRules(GameRules):
    game_id = "scopa"
    scoring_schema = {"capture_values": "rank_table", "primiera": "rank_table", "scoring_suit": "suit",
                      "settebello": "card", "hand_size": "int", "table_size": "int", "redeal_kings": "int"}
    family = "capture"
    record_events = ("redeal", "hands")
    table_capacity = 12
    counted_bonuses = frozenset({"scopa"})
    sweep_bonuses = frozenset({"scopa"})

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        self.values: dict[Card, int] = {c: sc["capture_values"][c.rank] for c in self.cards}
        self.primiera_table: dict[Card, int] = {c: sc["primiera"][c.rank] for c in self.cards}
        self.scoring_suit: str = sc["scoring_suit"]
        self.settebello: Card = card(sc["settebello"])
        self.hand_size: int = sc["hand_size"]
        self.table_size: int = sc["table_size"]
        self.redeal_kings: int = sc["redeal_kings"]
        self.target: int = int(self.options.get("target", 11))
        self.deck_cards: tuple[Card, ...] = tuple(self.cards)
        self.max_value: int = max(self.values.values())

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, order: list[Card], dealer: int, number: int) -> ScopaState:
        n, h = self.players, self.hand_size
        hands = [order[i * h:(i + 1) * h] for i in range(n)]
        table = order[n * h:n * h + self.table_size]
        stock = order[n * h + self.table_size:]
        return ScopaState(
            players=n, dealer=dealer, number=number, hands=hands, table=list(table), stock=list(stock),
            piles=[[] for _ in range(self.teams)], scope=[0] * self.teams, to_act=(dealer + 1) % n,
        )

    def needs_redeal(self, state: ScopaState) -> bool:
        return sum(1 for c in state.table if c.rank == "K") >= self.redeal_kings

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> ScopaState:
        events: list[Event] = []
        while True:
            order = list(self.cards)
            rng.shuffle(order)
            state = self._deal_from(order, dealer, number)
            events.append(self.deal_event(state))
            if not self.needs_redeal(state):
                break
            # Three or four Kings on the opening table: same dealer collects and redeals.
            events.append({"event": "redeal", "reason": "kings"})
        state.opening_events = events
        return state

    def state_from_deal(self, ev: Event) -> ScopaState:
        stock_size = len(self.cards) - self.players * self.hand_size - self.table_size
        hands, table, stock = self.read_deal(ev, self.hand_size, self.table_size, stock_size)
        if ev.get("trump") is not None:
            raise RecordError("Scopa has no trump: 'trump' must be null")
        order = [c for h in hands for c in h] + table + stock
        return self._deal_from(order, ev["dealer"], ev["number"])

    # ------------------------------------------------------------------ play
    def captures_for(self, c: Card, table: list[Card]) -> list[tuple[Card, ...]]:
        """The captures card ``c`` may make: matches first; sums only when no card matches."""
        v = self.values[c]
        matches = [(t,) for t in table if self.values[t] == v]
        if matches:
            return matches
        return sum_sets(table, self.values, v)

    def legal_actions(self, state: ScopaState) -> list[Action]:
        if state.over:
            return []
        values = self.values
        table = state.table
        table_values = [values[t] for t in table]
        out: list[Action] = []
        unmatched: list[Card] = []
        for c in state.hands[state.to_act]:
            v = values[c]
            if v in table_values:
                out.extend([Action("play", c, (t,), False) for t in table if values[t] == v])
            else:
                unmatched.append(c)
        if unmatched:
            # Sums are computed once for every card that has no match.
            sums = sums_by_value(table, values, max(values[c] for c in unmatched)) if len(table) > 1 else {}
            for c in unmatched:
                caps = sums.get(values[c])
                if caps:
                    out.extend([Action("play", c, cap, False) for cap in caps])
                else:
                    out.append(Action("play", c, (), False))
        return out

    def validate(self, state: ScopaState, action: Action) -> None:
        if state.over:
            raise IllegalAction("deal_over", "the deal is over")
        if action.kind != "play" or action.marriage:
            raise IllegalAction("not_in_game", f"Scopa has no '{action.kind}' action: play a card")
        c = action.card
        hand = state.hands[state.to_act]
        if c not in hand:
            raise IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=c.code)
        cap = action.capture
        for t in cap:
            if t not in state.table:
                raise IllegalAction("not_on_table", f"{t} is not on the table", card=t.code)
        if len(set(cap)) != len(cap):
            raise IllegalAction("duplicate", "a card is captured twice")
        v = self.values[c]
        matches = [t for t in state.table if self.values[t] == v]
        if not cap:
            if matches or self.captures_for(c, state.table):
                raise IllegalAction("capture_mandatory", f"a capture is mandatory: {c} must capture", card=c.code)
            return
        if matches:
            if len(cap) != 1 or cap[0] not in matches:
                raise IllegalAction(
                    "match_before_sum",
                    f"a match comes before a sum: {c} must take one card of value {v} ({', '.join(codes(matches))})",
                    card=c.code, match=matches[0].code,
                )
            return
        if len(cap) == 1:
            raise IllegalAction("no_match", f"{cap[0]} does not match {c}", card=c.code)
        total = sum(self.values[t] for t in cap)
        if total != v:
            raise IllegalAction("wrong_sum", f"the captured cards add up to {total}, not {v}", total=total, value=v)

    def apply(self, state: ScopaState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        c = action.card
        hand = state.hands[seat]
        hand.remove(c)
        team = seat % 2 if state.players == 4 else seat
        cap = action.capture
        bonuses: list[str] = []
        table = state.table
        if cap:
            for t in cap:
                table.remove(t)
            pile = state.piles[team]
            pile.append(c)
            pile.extend(cap)
            state.last_capture_team = team
        else:
            table.append(c)
        hands = state.hands
        final = not state.stock and not any(hands)
        if cap and not table and not final:
            state.scope[team] += 1
            bonuses.append("scopa")
        state.history.append((seat, c, cap))
        events: list[Event] = [{
            "event": "play", "seat": seat, "card": c.code, "capture": [t.code for t in cap], "bonuses": bonuses,
        }]
        n = state.players
        if final:
            state.over = True
            return events
        state.to_act = (seat + 1) % n
        if not any(hands):
            # Everyone is out of cards and the stock is not: three more each, nothing to the table.
            h = self.hand_size
            stock = state.stock
            for i in range(n):
                s = (state.dealer + 1 + i) % n
                hands[s] = stock[i * h:(i + 1) * h]
            del stock[:n * h]
            events.append({"event": "hands", "hands": [[x.code for x in hh] for hh in hands]})
        return events

    # ------------------------------------------------------------------ scoring
    def primiera_value(self, pile: list[Card]) -> int | None:
        """Sum of the best card per suit; None when the pile lacks a suit."""
        best: dict[str, int] = {}
        for c in pile:
            v = self.primiera_table[c]
            if v > best.get(c.suit, 0):
                best[c.suit] = v
        if len(best) < len(SUITS):
            return None
        return sum(best.values())

    def deal_result(self, state: ScopaState) -> DealResult:
        teams = self.teams
        piles = [list(p) for p in state.piles]
        leftover = None
        if state.table and state.last_capture_team is not None:
            leftover = {"team": state.last_capture_team, "cards": codes(state.table)}
            piles[state.last_capture_team].extend(state.table)
        card_counts = [len(p) for p in piles]
        coin_counts = [sum(1 for c in p if c.suit == self.scoring_suit) for p in piles]
        prim = [self.primiera_value(p) for p in piles]
        award = {
            "cards": unique_max(card_counts),
            "coins": unique_max(coin_counts),
            "settebello": next((t for t in range(teams) if self.settebello in piles[t]), None),
            "primiera": unique_max([-1 if v is None else v for v in prim], minimum=0),
        }
        detail: dict[str, Any] = {}
        points = [0] * teams
        for name, winner in award.items():
            row = [0] * teams
            if winner is not None:
                row[winner] = 1
                points[winner] += 1
            detail[name] = row
        detail["scope"] = list(state.scope)
        for t in range(teams):
            points[t] += state.scope[t]
        detail["card_counts"] = card_counts
        detail["coin_counts"] = coin_counts
        detail["primiera_values"] = prim
        return DealResult(points=points, leftover=leftover, detail=detail)

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        top = max(totals)
        if top < self.target:
            return False, None, f"nobody has reached {self.target}"
        leaders = [t for t, v in enumerate(totals) if v == top]
        if len(leaders) > 1:
            return False, None, f"teams {leaders} are tied for the lead at {top}: the match goes on"
        return True, leaders[0], f"team {leaders[0]} leads with {top} (target {self.target})"

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: ScopaState, seat: int) -> ScopaView:
        return ScopaView(
            seat=seat, players=state.players, dealer=state.dealer, to_act=state.to_act,
            hand=tuple(state.hands[seat]), table=tuple(state.table),
            hand_counts=tuple(len(h) for h in state.hands), stock_count=len(state.stock),
            piles=tuple(tuple(p) for p in state.piles), scope=tuple(state.scope),
            history=tuple(state.history), last_capture_team=state.last_capture_team,
            deck=self.deck_cards,
        )

    def clone(self, s: ScopaState) -> ScopaState:
        return ScopaState(
            players=s.players, dealer=s.dealer, number=s.number, hands=[list(h) for h in s.hands],
            table=list(s.table), stock=list(s.stock), piles=[list(p) for p in s.piles], scope=list(s.scope),
            to_act=s.to_act, last_capture_team=s.last_capture_team, over=s.over, history=list(s.history),
        )

    def action_from_record(self, events: list[Event], i: int) -> Action:
        ev = events[i]
        if ev.get("event") != "play":
            raise RecordError(f"a '{ev.get('event')}' event is not a Scopa decision")
        return play(ev["card"], ev["capture"])

    def explain_mismatch(self, before: ScopaState, expected: Event, recorded: Event) -> str | None:
        if expected.get("event") == "play" and recorded.get("bonuses") != expected.get("bonuses"):
            if "scopa" in recorded.get("bonuses", []) and "scopa" not in expected["bonuses"]:
                if not before.stock and sum(len(h) for h in before.hands) == 1:
                    return "no scopa is scored on the final play of the deal"
                return "a scopa needs a capture that clears the table"
            return "this capture clears the table: it scores a scopa"
        return None
