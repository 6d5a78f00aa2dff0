"""Scopa for 2, 3 and 4 players, exactly as RULES.md states, with its house rules.

Match before sum, the player's choice among captures, mandatory capture, scopa except on the
final play, new hands of three from the stock, leftovers to the last capturer, the four awards
with their tie rules, primiera with the every-suit requirement, the Kings redeal, the dealer
moving one seat each deal, and the match won only by a unique leader at or above the target.

House rules (RULES.md, "House rules"), each an option of rules.yaml: ``deal`` (three, or
Scopone's nine or ten each for four players, no stock), ``capture`` (match_first, or fifteen:
the played card and the set it takes total 15), ``aces`` (normal, or take_all: an Ace sweeps
a table without an Ace, and no Ace's capture scores a scopa), ``re_bello`` (the King of Coins
scores 1) and ``napola`` (the run of Coins from the Ace scores its length, at least A-2-3).
The Kings redeal only applies with match_first, normal aces and a deal with a table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.cards import SUITS, Card, card, codes
from game.games.scopa import vocabulary
from game.rules.base import (
    Action,
    DealResult,
    Event,
    EventLines,
    GameRules,
    IllegalAction,
    RecordError,
    alternate_teams,
    unique_max,
)
from game.rules.capture import (
    CaptureState,
    CaptureView,
    capture_play,
    captured,
    card_index,
    partial_sums,
    play_from_record,
    sum_sets,
    target_race,
)
from game.rules.vocabulary import TeamsRule

#: The ``deal`` option's values; rules.yaml's ``scoring.deals`` gives each one's sizes.
DEAL_KINDS: tuple[str, ...] = ("three", "scopone", "scopone10")
#: The rank that sweeps the table under ``aces: take_all``.
ACE = "A"


@dataclass(kw_only=True)
class ScopaState(CaptureState):
    stock: list[Card]  # top first
    scope: list[int]  # per team


@dataclass(frozen=True, kw_only=True)
class ScopaView(CaptureView):
    """What one seat may see (CaptureView), and the stock's count and the scope."""

    stock_count: int
    scope: tuple[int, ...]


class ScopaRules(GameRules[ScopaState, ScopaView]):
    game_id = "scopa"
    scoring_schema = {
        "capture_values": "rank_table",
        "primiera": "rank_table",
        "scoring_suit": "suit",
        "settebello": "card",
        "deals": {d: {"hand": "int", "table": "int"} for d in DEAL_KINDS},
        "redeal_kings": "int",
        "fifteen": "int",
        "re_bello": "card",
        "napola": {"suit": "suit", "min_run": "int"},
    }
    family = "capture"
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    redeal_line = vocabulary.REDEAL_LINE
    redeal_refused = "a redeal is only allowed with three or four Kings on the opening table"
    table_capacity = 12
    counted_bonuses = frozenset({"scopa"})
    sweep_bonuses = frozenset({"scopa"})
    hand_capacity = 10  # scopone10 deals ten to each hand
    bonus_callouts = {"scopa": "Scopa!"}
    result_lines = (
        {"label": "results.scopa.cards", "cells": "card_counts", "points": "cards"},
        {"label": "results.scopa.coins", "suit": "D", "cells": "coin_counts", "points": "coins"},
        {"label": "results.scopa.settebello", "suit": "D", "mark": "settebello"},
        {
            "label": "results.scopa.primiera",
            "cells": "primiera_values",
            "points": "primiera",
            "none_note": "results.scopa.no_primiera",
        },
        {"label": "results.scopa.scope", "cells": "scope", "points": "scope"},
        # House rules: their rows only when they are in force (``option``).
        {"label": "results.scopa.re_bello", "suit": "D", "mark": "re_bello", "option": "re_bello"},
        {
            "label": "results.scopa.napola",
            "suit": "D",
            "cells": "napola",
            "points": "napola",
            "option": "napola",
            "text": "results.scopa.napola_run",
        },
        {"label": "results.deal_points", "cells": "@points", "kind": "total"},
        {"label": "results.match_total_to", "cells": "@totals", "kind": "match"},
    )
    # RECORD.md: the breakdown of deal_end is the writer's, and so is how a new round of
    # hands is split among the seats (see accept_variant).
    detail_is_free_form = True
    record_variants = frozenset({"hands"})

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        self.values: dict[Card, int] = {c: sc["capture_values"][c.rank] for c in self.cards}
        self.primiera_table: dict[Card, int] = {c: sc["primiera"][c.rank] for c in self.cards}
        self.scoring_suit: str = sc["scoring_suit"]
        self.settebello: Card = card(sc["settebello"])
        self.redeal_kings: int = sc["redeal_kings"]
        self.target: int = int(self._option("target"))
        self.deck_cards: tuple[Card, ...] = tuple(self.cards)
        self.max_value: int = max(self.values.values())
        # ---- the house rules in force
        self.deal: str = str(self._option("deal"))
        self.capture_rule: str = str(self._option("capture"))
        self.aces_take_all: bool = self._option("aces") == "take_all"
        self.re_bello: bool = bool(self._option("re_bello"))
        self.napola: bool = bool(self._option("napola"))
        sizes = sc["deals"][self.deal]
        #: Cards to each hand (at the deal and in every new round) and to the table.
        self.hand_size: int = sizes["hand"]
        self.table_size: int = sizes["table"]
        self.stock_size: int = len(self.cards) - players * self.hand_size - self.table_size
        if self.stock_size < 0 or self.stock_size % (players * self.hand_size):
            raise ValueError(
                f"{len(self.cards)} cards do not deal {self.hand_size} to each of {players} players "
                f"and {self.table_size} to the table in whole rounds"
            )
        #: With ``capture: fifteen``, the total a capture makes with the played card; else None.
        self.fifteen: int | None = sc["fifteen"] if self.capture_rule == "fifteen" else None
        # The Kings redeal belongs to the classic capture rule, and needs a table.
        self.kings_redeal: bool = self.fifteen is None and not self.aces_take_all and self.table_size > 0
        self.re_bello_card: Card = card(sc["re_bello"])
        nap = sc["napola"]
        # The napola run: the suit's cards in capture-value order (A, 2 … 7, J, Q, K).
        self.napola_run: tuple[Card, ...] = tuple(
            sorted((c for c in self.cards if c.suit == nap["suit"]), key=lambda c: self.values[c])
        )
        self.napola_min: int = int(nap["min_run"])
        #: Neither capture house rule in force: legal_actions goes straight to match-first.
        self._plain_captures: bool = self.fifteen is None and not self.aces_take_all
        self._aces: frozenset[Card] = frozenset(c for c in self.cards if c.rank == ACE)
        # For the capture sums: a card's value as a bit (1 << value), and what it adds to a sum
        # (nothing for a card without a positive value: it never joins one).
        self._value_bit: dict[Card, int] = {c: 1 << v if v > 0 else 0 for c, v in self.values.items()}
        self._sum_value: dict[Card, int] = {c: max(v, 0) for c, v in self.values.items()}
        # The commonest plays, built once: each card placed, and each card taking one table card
        # of its value (legal_actions lists the same objects every turn: an Action is immutable).
        self._place: dict[Card, Action] = {c: capture_play(c) for c in self.cards}
        self._match: dict[Card, dict[Card, Action]] = {
            c: {t: capture_play(c, (t,)) for t in self.cards if self.values[t] == self.values[c] and t is not c}
            for c in self.cards
        }

    def _option(self, name: str):
        """An option in force (a rules object built with fewer options uses the defaults)."""
        return self.options.get(name, self.game.options[name].default)

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, order: list[Card], dealer: int, number: int) -> ScopaState:
        n, h = self.players, self.hand_size
        hands = [order[i * h : (i + 1) * h] for i in range(n)]
        table = order[n * h : n * h + self.table_size]
        stock = order[n * h + self.table_size :]
        return ScopaState(
            players=n,
            dealer=dealer,
            number=number,
            hands=hands,
            table=list(table),
            stock=list(stock),
            piles=[[] for _ in range(self.teams)],
            scope=[0] * self.teams,
            to_act=(dealer + 1) % n,
        )

    def needs_redeal(self, state: ScopaState) -> bool:
        return self.kings_redeal and sum(1 for c in state.table if c.rank == "K") >= self.redeal_kings

    @property
    def teams_rule(self) -> TeamsRule:
        """Two partnerships sitting opposite at four players; each for himself otherwise."""
        return alternate_teams(self.players) if self.players == 4 else TeamsRule()

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
            events.append(dict(vocabulary.REDEAL_LINE))
        state.opening_events = events
        return state

    def state_from_deal(self, ev: Event) -> ScopaState:
        hands, table, stock = self.read_deal(ev, self.hand_size, self.table_size, self.stock_size)
        if ev.get("trump") is not None:
            raise RecordError("Scopa has no trump: 'trump' must be null")
        order = [c for h in hands for c in h] + table + stock
        return self._deal_from(order, ev["dealer"], ev["number"])

    # ------------------------------------------------------------------ play
    def captures_for(self, c: Card, table: list[Card]) -> list[tuple[Card, ...]]:
        """The captures card ``c`` may make on ``table`` under the rules in force ([] : it is placed)."""
        if self._takes_all(c, table):
            return [tuple(sorted(table, key=card_index))]
        v = self.values[c]
        if self.fifteen is not None:
            return sum_sets(table, self.values, self.fifteen - v, min_size=1)
        matches: list[tuple[Card, ...]] = [(t,) for t in table if self.values[t] == v]
        if matches:
            return matches
        return sum_sets(table, self.values, v)

    def _takes_all(self, c: Card, table: list[Card]) -> bool:
        """Asso piglia tutto: an Ace on a table that holds cards but no Ace takes them all."""
        return self.aces_take_all and c.rank == ACE and bool(table) and all(t.rank != ACE for t in table)

    def legal_actions(self, state: ScopaState) -> list[Action]:
        if state.over:
            return []
        hand = state.hands[state.to_act]
        table = state.table
        place = self._place
        if not table:
            return [place[c] for c in hand]
        out: list[Action] = []
        if not self._plain_captures:
            # Asso piglia tutto: an Ace sweeps a table without an Ace.
            if self.aces_take_all and self._aces.isdisjoint(table) and not self._aces.isdisjoint(hand):
                sweep = tuple(sorted(table, key=card_index))
                out = [capture_play(c, sweep) for c in hand if c.rank == ACE]
                hand = [c for c in hand if c.rank != ACE]
            if self.fifteen is not None:
                return out + self._fifteen_actions(hand, table, self.fifteen)
        # Match first: a card takes a table card of its value (each such card is one play);
        # failing that, any set of two or more adding up to its value; else it is placed.
        values = self.values
        on_table = {values[t] for t in table}
        bit = self._value_bit
        unmatched: list[Card] = []
        want = 0  # bit v: an unmatched card of value v
        for c in hand:
            if values[c] in on_table:
                mc = self._match[c]
                out += [mc[t] for t in table if t in mc]
            else:
                unmatched.append(c)
                want |= bit[c]
        if not unmatched:
            return out
        # The totals the table's sets make (bit s: total s): the search for sets runs only when
        # some unmatched card's value is among them (in most turns none is).
        if len(table) > 1:
            reach = 1
            sum_value = self._sum_value
            for t in table:
                reach |= reach << sum_value[t]
            want &= reach
        else:
            want = 0
        if not want:
            out += [place[c] for c in unmatched]
            return out
        # No single table card has an unmatched card's value: each set with it has two or more.
        partial = partial_sums(table, values, want.bit_length() - 1)
        for c in unmatched:
            if want & bit[c]:
                v = values[c]
                out += [capture_play(c, cs) for s, cs in partial if s == v]
            else:
                out.append(place[c])
        return out

    def _fifteen_actions(self, hand: list[Card], table: list[Card], total: int) -> list[Action]:
        """Scopa a quindici: a set of one or more table cards that makes the ``total`` (the
        rule's, ``self.fifteen``) with the card."""
        place = self._place
        if not table:
            return [place[c] for c in hand]
        values = self.values
        # Bit s: a set of the table totals s (the empty one: 0); bit n: a hand card needs n.
        reach = 1
        sum_value = self._sum_value
        for t in table:
            reach |= reach << sum_value[t]
        want = 0
        for c in hand:
            need = total - values[c]
            if need > 0:
                want |= 1 << need
        want &= reach
        if not want:
            return [place[c] for c in hand]
        # Every set up to the largest total a hand card needs, once per turn.
        partial = partial_sums(table, values, want.bit_length() - 1)
        out: list[Action] = []
        for c in hand:
            need = total - values[c]
            if need > 0 and want >> need & 1:
                out += [capture_play(c, cs) for s, cs in partial if s == need]
            else:
                out.append(place[c])
        return out

    def explain_refusal(self, state: ScopaState, action: Action) -> IllegalAction:
        """The rule a refused play breaks (legality itself is ``legal_actions``' alone)."""
        if state.over or action.kind != "play" or self.foreign_args(action) or action.card is None:
            return super().explain_refusal(state, action)
        c = action.card
        if c not in state.hands[state.to_act]:
            return IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=c.code)
        cap = captured(action)
        for t in cap:
            if t not in state.table:
                return IllegalAction("not_on_table", f"{t} is not on the table", card=t.code)
        if len(set(cap)) != len(cap):
            return IllegalAction("duplicate", "a card is captured twice")
        table = state.table
        if self._takes_all(c, table):
            return IllegalAction("ace_takes_all", f"the {c} takes every card on the table", card=c.code)
        if not cap:
            return IllegalAction("capture_mandatory", f"a capture is mandatory: {c} must capture", card=c.code)
        v = self.values[c]
        if self.fifteen is not None:
            total = v + sum(self.values[t] for t in cap)
            return IllegalAction(
                "wrong_fifteen",
                f"{c} and the captured cards add up to {total}, not {self.fifteen}",
                card=c.code,
                total=total,
                value=self.fifteen,
            )
        matches = [t for t in table if self.values[t] == v]
        if matches:
            return IllegalAction(
                "match_before_sum",
                f"a match comes before a sum: {c} must take one card of value {v} ({', '.join(codes(matches))})",
                card=c.code,
                match=matches[0].code,
            )
        if len(cap) == 1:
            return IllegalAction("no_match", f"{cap[0]} does not match {c}", card=c.code)
        total = sum(self.values[t] for t in cap)
        if total != v:
            return IllegalAction("wrong_sum", f"the captured cards add up to {total}, not {v}", total=total, value=v)
        return super().explain_refusal(state, action)

    def apply(self, state: ScopaState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        c = action.card
        if c is None:  # Action.played, inlined: the playouts apply every move
            raise ValueError(f"the action {action.kind!r} plays no card")
        hand = state.hands[seat]
        hand.remove(c)
        team = seat % 2 if state.players == 4 else seat
        cap = captured(action)
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
        # No scopa on the deal's last card (every deal), nor for an Ace's capture (take_all).
        if cap and not table and not final and not (self.aces_take_all and c.rank == ACE):
            state.scope[team] += 1
            bonuses.append("scopa")
        state.history.append((seat, c, cap))
        events: list[Event] = [
            {
                "event": "play",
                "seat": seat,
                "card": c.code,
                "capture": [t.code for t in cap],
                "bonuses": bonuses,
            }
        ]
        n = state.players
        if final:
            state.over = True
            return events
        state.to_act = (seat + 1) % n
        if not any(hands):
            # Everyone is out of cards and the stock is not: a new round each, nothing to the table.
            h = self.hand_size
            stock = state.stock
            for i in range(n):
                s = (state.dealer + 1 + i) % n
                hands[s] = stock[i * h : (i + 1) * h]
            del stock[: n * h]
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

    def napola_value(self, pile: list[Card]) -> int:
        """The length of the pile's unbroken run of Coins from the Ace, when at least A-2-3."""
        held = set(pile)
        run = 0
        for c in self.napola_run:
            if c not in held:
                break
            run += 1
        return run if run >= self.napola_min else 0

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
        detail: dict[str, object] = {}
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
        # The house rules' points, each only when in force.
        extra: dict[str, list[int]] = {}
        if self.re_bello:
            extra["re_bello"] = [1 if self.re_bello_card in p else 0 for p in piles]
        if self.napola:
            extra["napola"] = [self.napola_value(p) for p in piles]
        for name, row in extra.items():
            detail[name] = row
            points = [a + b for a, b in zip(points, row)]
        detail["card_counts"] = card_counts
        detail["coin_counts"] = coin_counts
        detail["primiera_values"] = prim
        return DealResult(points=points, leftover=leftover, detail=detail)

    def tally(self, piles: list[list[str]], bonuses: list[list[str]]) -> DealResult:
        """The awards as they stand (GameRules.tally): deal_result's own scoring of these
        piles and scope, as if the deal ended now with nothing left on the table."""
        state = ScopaState(
            players=self.players,
            dealer=0,
            number=0,
            hands=[[] for _ in range(self.players)],
            table=[],
            stock=[],
            piles=[[card(c) for c in p] for p in piles],
            scope=[sum(1 for b in bs if b == "scopa") for bs in bonuses],
            to_act=0,
        )
        return self.deal_result(state)

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        return target_race(totals, self.target)

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: ScopaState, seat: int) -> ScopaView:
        return ScopaView(
            seat=seat,
            players=state.players,
            dealer=state.dealer,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            table=tuple(state.table),
            hand_counts=tuple(len(h) for h in state.hands),
            stock_count=len(state.stock),
            piles=tuple(tuple(p) for p in state.piles),
            scope=tuple(state.scope),
            history=tuple(state.history),
            last_capture_team=state.last_capture_team,
            deck=self.deck_cards,
        )

    def clone(self, s: ScopaState) -> ScopaState:
        return ScopaState(
            players=s.players,
            dealer=s.dealer,
            number=s.number,
            hands=[list(h) for h in s.hands],
            table=list(s.table),
            stock=list(s.stock),
            piles=[list(p) for p in s.piles],
            scope=list(s.scope),
            to_act=s.to_act,
            last_capture_team=s.last_capture_team,
            over=s.over,
            history=list(s.history),
        )

    def action_from_record(self, events: EventLines, i: int) -> Action:
        return play_from_record(events[i], "Scopa")

    def accept_variant(self, state: ScopaState, expected: Event, recorded: Event) -> str | None:
        """A ``hands`` round as the record splits it: RECORD.md lets the writer give the next
        3n stock cards to the seats as it likes, three each. None when the record's split is
        such a split (the state then holds the record's hands), else what is wrong with it."""
        if expected.get("event") != "hands":
            return f"a '{expected.get('event')}' event has one form only"
        n, h = self.players, self.hand_size
        given = recorded.get("hands")
        if not isinstance(given, list) or len(given) != n:
            return f"hands must list {n} hands, one per seat"
        try:
            hands = [[card(x) for x in hh] for hh in given]
        except (TypeError, ValueError) as e:
            return f"hands has a bad card list: {e}"
        for seat, hh in enumerate(hands):
            if len(hh) != h:
                return f"hands gives seat {seat} {len(hh)} cards: a new round deals {h} to each seat"
        due = sorted(card(x) for hh in expected["hands"] for x in hh)
        if sorted(c for hh in hands for c in hh) != due:
            return (
                f"hands must deal the next {n * h} cards of the stock ({', '.join(codes(due))}), "
                f"the record deals {', '.join(sorted(x for hh in given for x in hh))}"
            )
        for seat, hh in enumerate(hands):
            state.hands[seat] = hh
        return None

    def explain_mismatch(self, before: ScopaState, expected: Event, recorded: Event) -> str | None:
        if expected.get("event") == "play" and recorded.get("bonuses") != expected.get("bonuses"):
            if "scopa" in recorded.get("bonuses", []) and "scopa" not in expected["bonuses"]:
                if not before.stock and sum(len(h) for h in before.hands) == 1:
                    return "no scopa is scored on the final play of the deal"
                if expected.get("capture") and self.aces_take_all and card(expected["card"]).rank == ACE:
                    return "a capture made by an Ace never scores a scopa (aces: take_all)"
                return "a scopa needs a capture that clears the table"
            return "this capture clears the table: it scores a scopa"
        if expected.get("event") == "hands":
            return "this program deals a new round three cards at a time, from the seat after the dealer in turn order"
        return None
