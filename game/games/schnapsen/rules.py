"""Schnapsen for two players with the seven-point Bummerl, exactly as RULES.md states.

20 cards (A 10 K Q J); deal 3, turn up the trump indicator, deal 2; a 10-card stock whose
last card is the indicator; the non-dealer leads. Open stock: no duty to follow, winner draws
first and the loser of the last draw takes the indicator. Closed or exhausted stock: follow
and beat, else follow lower, else trump, else anything. The leader may exchange the trump J
for the indicator, declare a marriage (20 / 40, pending until the declarer's first trick) by
leading its K or Q, and close the stock. The deal ends the moment a player reaches 66; game
points 1 / 2 / 3, the closer scored with the opponent's record at closure; the last trick
wins 1 on an unclosed stock. Both players start at 7; game points count a player down to 0.

Points: a player's ``points`` are trick card points plus credited marriages. The deal_end
detail records both: ``card_points`` (tricks only) and ``points`` (what the thresholds use).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.cards import SUITS, Card, card, codes
from game.games.schnapsen import vocabulary
from game.games.schnapsen.vocabulary import CLOSE, EXCHANGE, MARRIAGE_FIELD
from game.rules.base import Action, DealResult, Event, EventLines, IllegalAction, RecordError, play
from game.rules.trick import TrickRules

REASONS = ("66", "closed_won", "closed_lost", "last_trick")


@dataclass(slots=True)
class SchnapsenState:
    dealer: int
    number: int
    hands: list[list[Card]]
    #: Undrawn cards, top first; while the stock lies there its last card is the face-up indicator.
    stock: list[Card]
    trump: str  # trump suit
    indicator: Card  # the card turned up at the deal (the record's "trump")
    leader: int  # who leads the current trick
    to_act: int
    led: Card | None = None  # the current trick's lead, None before it
    closed_by: int | None = None
    #: The closer's opponent's record at closure (points, has won a trick).
    closure_points: int = 0
    closure_trick: bool = False
    won: list[list[Card]] = field(default_factory=lambda: [[], []])  # cards of tricks won
    card_points: list[int] = field(default_factory=lambda: [0, 0])  # trick card points
    marriage_points: list[int] = field(default_factory=lambda: [0, 0])  # credited marriages
    pending: list[int] = field(default_factory=lambda: [0, 0])  # declared before a first trick
    #: Cards in each hand that the other player knows of (marriage partner, exchanged indicator,
    #: the indicator taken in the last draw).
    known: list[list[Card]] = field(default_factory=lambda: [[], []])
    marriages: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, suit, points)
    history: list[tuple[int, Card]] = field(default_factory=list)  # every play, in order
    last_trick: int | None = None  # winner of the latest trick
    over: bool = False
    winner: int | None = None
    reason: str | None = None
    opening_events: list[Event] = field(default_factory=list)

    def points(self, seat: int) -> int:
        """Trick card points plus credited marriages: what 66 and 33 are measured on."""
        return self.card_points[seat] + self.marriage_points[seat]


@dataclass(frozen=True)
class SchnapsenView:
    """What one seat may know: its hand and everything shown at the table, nothing hidden.

    ``known_opponent`` are cards the opponent is known to hold (a marriage partner shown and
    not yet played, the indicator taken in an exchange or in the last draw). ``unseen`` are
    the cards that are in the opponent's hand or face down in the stock, apart from those.
    """

    seat: int
    dealer: int
    leader: int
    to_act: int
    hand: tuple[Card, ...]
    trump: str
    indicator: Card | None  # the face-up card while the stock lies there
    led: Card | None
    stock_count: int
    opponent_count: int
    closed_by: int | None
    closure: tuple[int, bool] | None  # (closer's opponent's points, had a trick) at closure
    won: tuple[tuple[Card, ...], tuple[Card, ...]]
    points: int  # own points (credited)
    pending: tuple[int, int]
    marriages: tuple[tuple[int, str, int], ...]
    known_opponent: tuple[Card, ...]
    history: tuple[tuple[int, Card], ...]
    deck: tuple[Card, ...]

    @property
    def strict(self) -> bool:
        """Follow-and-beat applies (stock closed or exhausted)."""
        return self.closed_by is not None or self.stock_count == 0

    @property
    def unseen(self) -> frozenset[Card]:
        seen = set(self.hand) | set(self.known_opponent)
        seen.update(c for _, c in self.history)
        if self.indicator is not None:
            seen.add(self.indicator)
        return frozenset(self.deck) - seen


class SchnapsenRules(TrickRules[SchnapsenState, SchnapsenView]):
    game_id = "schnapsen"
    scoring_schema = {
        "strength": "rank_order",
        "card_points": "rank_table",
        "marriage": "int",
        "trump_marriage": "int",
        "win_points": "int",
        "schneider": "int",
    }
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    #: The points of the marriages declared: a puzzle about declaring one.
    detail_themes = {"marriages": vocabulary.MARRIAGE_THEME}
    has_trump = True
    table_capacity = 5
    totals_count_down = True
    hud_scores = "bummerl"
    hand_capacity = 5
    result_lines = (
        {"label": "results.schnapsen.card_points", "cells": "card_points"},
        {"label": "results.schnapsen.marriages", "cells": "marriages"},
        {"label": "results.schnapsen.points", "cells": "points", "kind": "total"},
        {"label": "results.schnapsen.tricks", "cells": "tricks"},
        {"label": "results.schnapsen.game_points", "cells": "@points", "points": "@points", "kind": "total"},
        {"label": "results.schnapsen.bummerl", "cells": "@totals", "kind": "bummerl"},
    )
    required_detail = ("card_points", "reason")

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        # Strength (TrickRules) and the points table are separate (A 11, 10 10, K 4, Q 3, J 2).
        self.points: dict[Card, int] = {c: int(sc["card_points"][c.rank]) for c in self.cards}
        self.marriage_value: int = int(sc["marriage"])
        self.trump_marriage_value: int = int(sc["trump_marriage"])
        self.win_points: int = int(sc["win_points"])
        self.schneider: int = int(sc["schneider"])
        self.start_count: int = int(self.options.get("bummerl", 7))
        # Precomputed actions and lookups (the plays: TrickRules): no Action is built in the hot paths.
        self._marry: dict[Card, Action] = {}
        self.partner: dict[Card, Card] = {}
        for s in SUITS:
            k, q = card("K" + s), card("Q" + s)
            self.partner[k], self.partner[q] = q, k
            self._marry[k] = play(k, marriage=True)
            self._marry[q] = play(q, marriage=True)
        self.trump_jack: dict[str, Card] = {s: card("J" + s) for s in SUITS}

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, hands: list[list[Card]], stock: list[Card], dealer: int, number: int) -> SchnapsenState:
        ind = stock[-1]
        lead = 1 - dealer
        return SchnapsenState(
            dealer=dealer,
            number=number,
            hands=hands,
            stock=stock,
            trump=ind.suit,
            indicator=ind,
            leader=lead,
            to_act=lead,
        )

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> SchnapsenState:
        o = list(self.cards)
        rng.shuffle(o)
        # Three each (non-dealer first), the indicator, two each; nine more lie over the indicator.
        hands: list[list[Card]] = [[], []]
        hands[1 - dealer] = [o[0], o[1], o[2], o[7], o[8]]
        hands[dealer] = [o[3], o[4], o[5], o[9], o[10]]
        stock = o[11:]
        stock.append(o[6])
        state = self._deal_from(hands, stock, dealer, number)
        state.opening_events = [self.deal_event(state)]
        return state

    def turned_card(self, state) -> Card:
        return state.indicator

    def state_from_deal(self, ev: Event) -> SchnapsenState:
        hands, table, stock = self.read_deal(ev, 5, 0, 10)
        if ev.get("trump") != stock[-1].code:
            raise RecordError(
                f"'trump' must be the indicator, the last card of the stock ({stock[-1].code}), not {ev.get('trump')!r}"
            )
        return self._deal_from(hands, stock, *self.read_dealer(ev))

    # ------------------------------------------------------------------ play
    def strict_follows(self, hand: list[Card], led: Card, trump: str) -> list[Card]:
        """Closed or exhausted stock: beat in suit, else follow lower, else trump, else anything."""
        ls = led.suit
        same = [c for c in hand if c.suit == ls]
        if same:
            st = self.strength
            s = st[led]
            higher = [c for c in same if st[c] > s]
            return higher or same
        trumps = [c for c in hand if c.suit == trump]
        return trumps or hand

    def legal_actions(self, state: SchnapsenState) -> list[Action]:
        if state.over:
            return []
        hand = state.hands[state.to_act]
        P = self._play
        led = state.led
        if led is not None:
            if state.closed_by is None and state.stock:
                return [P[c] for c in hand]
            return [P[c] for c in self.strict_follows(hand, led, state.trump)]
        out = [P[c] for c in hand]
        partner = self.partner
        for c in hand:
            p = partner.get(c)
            if p is not None and p in hand:
                out.append(self._marry[c])
        if state.closed_by is None and len(state.stock) >= 2:
            if self.trump_jack[state.trump] in hand:
                out.append(EXCHANGE)
            if len(hand) == 5:
                out.append(CLOSE)
        return out

    def explain_refusal(self, state: SchnapsenState, action: Action) -> IllegalAction:
        """Which rule a refused action breaks (diagnosis only: legality is ``legal_actions``)."""
        if state.over:
            return IllegalAction("deal_over", "the deal is over")
        seat = state.to_act
        hand = state.hands[seat]
        leading = state.led is None
        kind = action.kind
        if kind == "exchange":
            if not leading:
                return IllegalAction(
                    "exchange_only_leader", "only the player about to lead may exchange the trump Jack"
                )
            if state.closed_by is not None:
                return IllegalAction("exchange_stock_closed", "the stock is closed: no trump exchange")
            if len(state.stock) < 2:
                return IllegalAction(
                    "exchange_needs_stock",
                    "the trump exchange needs a stock of at least two cards (one face down and the indicator)",
                    stock=len(state.stock),
                )
            j = self.trump_jack[state.trump]
            if j not in hand:
                return IllegalAction(
                    "exchange_needs_trump_jack", f"the exchange needs the trump Jack ({j}) in hand", card=j.code
                )
            return super().explain_refusal(state, action)
        if kind == "close":
            if not leading:
                return IllegalAction("close_only_leader", "only the player about to lead may close the stock")
            if state.closed_by is not None:
                return IllegalAction("close_already_closed", "the stock is already closed")
            if len(state.stock) < 2:
                return IllegalAction(
                    "close_needs_stock", "closing needs a stock of at least two cards", stock=len(state.stock)
                )
            if len(hand) != 5:
                return IllegalAction("close_needs_five_cards", "closing needs five cards in hand", cards=len(hand))
            return super().explain_refusal(state, action)
        if kind != "play" or self.foreign_args(action) or action.card is None:
            return IllegalAction("not_in_game", f"Schnapsen has no '{action}' action: play a card, exchange or close")
        c = action.card
        if c not in hand:
            return IllegalAction("not_in_hand", f"{c} is not in seat {seat}'s hand", card=c.code)
        if action.arg(MARRIAGE_FIELD):
            if not leading:
                return IllegalAction("marriage_only_leader", "only the player about to lead may declare a marriage")
            p = self.partner.get(c)
            if p is None:
                return IllegalAction(
                    "marriage_needs_king_or_queen",
                    f"a marriage is declared by leading a King or Queen, not {c}",
                    card=c.code,
                )
            if p not in hand:
                return IllegalAction(
                    "marriage_needs_pair", f"a marriage needs both {c} and {p} in hand", card=c.code, partner=p.code
                )
            return super().explain_refusal(state, action)
        led = state.led
        if led is None or (state.closed_by is None and state.stock):
            return super().explain_refusal(state, action)  # any lead; open stock: no duty to follow or to trump
        allowed = self.strict_follows(hand, led, state.trump)
        if c in allowed:
            return super().explain_refusal(state, action)
        opts = ", ".join(codes(allowed))
        if allowed[0].suit == led.suit:
            if self.strength[allowed[0]] > self.strength[led]:
                return IllegalAction(
                    "must_follow_and_beat",
                    f"the stock is closed or exhausted: follow suit and beat {led} ({opts})",
                    led=led.code,
                    options=opts,
                )
            return IllegalAction(
                "must_follow_suit",
                f"the stock is closed or exhausted: follow suit ({opts})",
                led=led.code,
                options=opts,
            )
        return IllegalAction(
            "must_trump",
            f"the stock is closed or exhausted: with no {led.suit} card you must trump ({opts})",
            led=led.code,
            options=opts,
        )

    def apply(self, state: SchnapsenState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        s = state.to_act
        kind = action.kind
        if kind == "exchange":
            hand = state.hands[s]
            j = self.trump_jack[state.trump]
            took = state.stock[-1]
            hand[hand.index(j)] = took
            state.stock[-1] = j
            state.known[s].append(took)  # the opponent saw the indicator go into this hand
            return [{"event": "exchange", "seat": s, "gave": j.code, "took": took.code}]
        if kind == "close":
            o = 1 - s
            state.closed_by = s
            state.closure_points = state.card_points[o] + state.marriage_points[o]
            state.closure_trick = bool(state.won[o])
            return [{"event": "close", "seat": s}]
        c = action.card
        if c is None:  # Action.played, inlined: the playouts apply every move
            raise ValueError(f"the action {action.kind!r} plays no card")
        hand = state.hands[s]
        led = state.led
        if led is None:
            events: list[Event] = []
            if action.arg(MARRIAGE_FIELD):
                suit = c.suit
                pts = self.trump_marriage_value if suit == state.trump else self.marriage_value
                state.marriages.append((s, suit, pts))
                events.append({"event": "marriage", "seat": s, "suit": suit, "points": pts})
                if state.won[s]:
                    state.marriage_points[s] += pts
                    if state.card_points[s] + state.marriage_points[s] >= self.win_points:
                        # The marriage itself reaches 66: the deal ends before the card is led.
                        self._end(state, s)
                        return events
                else:
                    state.pending[s] += pts  # counts when this player wins a first trick
                kn = state.known[s]
                p = self.partner[c]
                if p not in kn:
                    kn.append(p)
            hand.remove(c)
            kn = state.known[s]
            if kn and c in kn:
                kn.remove(c)
            state.history.append((s, c))
            state.led = c
            state.to_act = 1 - s
            events.append({"event": "play", "seat": s, "card": c.code})
            return events
        # Follow: the trick is complete.
        hand.remove(c)
        kn = state.known[s]
        if kn and c in kn:
            kn.remove(c)
        state.history.append((s, c))
        leader = 1 - s
        if c.suit == led.suit:
            w = s if self.strength[c] > self.strength[led] else leader
        elif c.suit == state.trump:
            w = s
        else:
            w = leader
        pts = self.points[c] + self.points[led]
        won = state.won[w]
        won.append(led)
        won.append(c)
        state.card_points[w] += pts
        if state.pending[w]:
            state.marriage_points[w] += state.pending[w]
            state.pending[w] = 0
        state.led = None
        state.leader = w
        state.to_act = w
        state.last_trick = w
        events = [
            {"event": "play", "seat": s, "card": c.code},
            {"event": "trick", "winner": w, "cards": [led.code, c.code], "points": pts},
        ]
        if state.card_points[w] + state.marriage_points[w] >= self.win_points:
            self._end(state, w)
        elif not hand:
            # All tricks played, nobody at 66: a closer failed; otherwise the last trick wins.
            if state.closed_by is not None:
                state.over, state.winner, state.reason = True, 1 - state.closed_by, "closed_lost"
            else:
                state.over, state.winner, state.reason = True, w, "last_trick"
        elif state.closed_by is None:
            stock = state.stock
            if stock:
                a, b = stock[0], stock[1]
                del stock[:2]
                state.hands[w].append(a)
                hand_l = state.hands[1 - w]
                hand_l.append(b)
                if not stock:
                    state.known[1 - w].append(b)  # the loser of the last draw takes the indicator
                events.append({"event": "draw", "seat": w, "card": a.code})
                events.append({"event": "draw", "seat": 1 - w, "card": b.code})
        return events

    def _end(self, state: SchnapsenState, reached: int) -> None:
        """``reached`` got to 66 first: with a closed stock that decides the closer's fate."""
        state.over = True
        state.winner = reached
        cb = state.closed_by
        if cb is None:
            state.reason = "66"
        else:
            state.reason = "closed_won" if reached == cb else "closed_lost"

    # ------------------------------------------------------------------ scoring
    def game_points(self, loser_points: int, loser_has_trick: bool) -> int:
        """1 if the loser has at least 33, 2 with a trick but fewer than 33, 3 without a trick."""
        if not loser_has_trick:
            return 3
        return 1 if loser_points >= self.schneider else 2

    def deal_result(self, state: SchnapsenState) -> DealResult:
        if not state.over:
            raise ValueError("the deal is not over")
        w, reason = state.winner, state.reason
        if w is None:
            raise ValueError("the deal is over without a winner")
        lo = 1 - w
        if reason == "66":
            gp = self.game_points(state.points(lo), bool(state.won[lo]))
        elif reason == "closed_won":
            gp = self.game_points(state.closure_points, state.closure_trick)
        elif reason == "closed_lost":
            gp = 2 if state.closure_trick else 3
        else:
            gp = 1
        points = [0, 0]
        points[w] = gp
        closure = None
        if state.closed_by is not None:
            closure = {"seat": 1 - state.closed_by, "points": state.closure_points, "had_trick": state.closure_trick}
        detail = {
            "reason": reason,
            "winner": w,
            "card_points": list(state.card_points),  # card points of the tricks won only
            "marriages": list(state.marriage_points),  # credited marriage points
            "points": [state.points(0), state.points(1)],  # card points + credited marriages
            "pending": list(state.pending),  # declared, never credited (no trick won)
            "tricks": [len(state.won[0]) // 2, len(state.won[1]) // 2],
            "closed_by": state.closed_by,
            "closure": closure,
        }
        return DealResult(points=points, leftover=None, detail=detail)

    # ------------------------------------------------------------------ match: the Bummerl
    def initial_totals(self) -> list[int]:
        return [self.start_count, self.start_count]

    def add_deal(self, totals: list[int], result: DealResult) -> list[int]:
        # Game points count the winner's own number down; it never goes below 0.
        return [max(0, t - p) for t, p in zip(totals, result.points)]

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        for seat, t in enumerate(totals):
            if t <= 0:
                return True, seat, f"seat {seat} has counted down from {self.start_count} to 0"
        return False, None, f"nobody has reached 0 yet (counts {totals})"

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: SchnapsenState, seat: int) -> SchnapsenView:
        o = 1 - seat
        closure = (state.closure_points, state.closure_trick) if state.closed_by is not None else None
        return SchnapsenView(
            seat=seat,
            dealer=state.dealer,
            leader=state.leader,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            trump=state.trump,
            indicator=state.stock[-1] if state.stock else None,
            led=state.led,
            stock_count=len(state.stock),
            opponent_count=len(state.hands[o]),
            closed_by=state.closed_by,
            closure=closure,
            won=(tuple(state.won[0]), tuple(state.won[1])),
            points=state.points(seat),
            pending=(state.pending[0], state.pending[1]),
            marriages=tuple(state.marriages),
            known_opponent=tuple(state.known[o]),
            history=tuple(state.history),
            deck=self.deck_cards,
        )

    def clone(self, s: SchnapsenState) -> SchnapsenState:
        return SchnapsenState(
            dealer=s.dealer,
            number=s.number,
            hands=[s.hands[0][:], s.hands[1][:]],
            stock=s.stock[:],
            trump=s.trump,
            indicator=s.indicator,
            leader=s.leader,
            to_act=s.to_act,
            led=s.led,
            closed_by=s.closed_by,
            closure_points=s.closure_points,
            closure_trick=s.closure_trick,
            won=[s.won[0][:], s.won[1][:]],
            card_points=s.card_points[:],
            marriage_points=s.marriage_points[:],
            pending=s.pending[:],
            known=[s.known[0][:], s.known[1][:]],
            marriages=s.marriages[:],
            history=s.history[:],
            last_trick=s.last_trick,
            over=s.over,
            winner=s.winner,
            reason=s.reason,
        )

    def action_from_record(self, events: EventLines, i: int) -> Action:
        ev = events[i]
        kind = ev.get("event")
        if kind == "exchange":
            return EXCHANGE
        if kind == "close":
            return CLOSE
        if kind == "play":
            return play(ev["card"])
        if kind == "marriage":
            suit = ev.get("suit")
            if suit not in SUITS:
                raise RecordError(f"marriage suit {suit!r} is not a suit ({', '.join(SUITS)})")
            nxt = events[i + 1] if i + 1 < len(events) else None
            if nxt is not None and nxt.get("event") == "play":
                if nxt.get("seat") != ev.get("seat"):
                    raise RecordError("a marriage must be followed by the declarer's lead of its King or Queen")
                return play(nxt["card"], marriage=True)
            # No lead follows: the marriage reached 66 and ended the deal (either card declares it).
            return play("K" + suit, marriage=True)
        raise RecordError(f"a '{kind}' event is not a Schnapsen decision")

    def explain_mismatch(self, before: SchnapsenState, expected: Event, recorded: Event) -> str | None:
        kind = expected.get("event")
        if kind == "trick" and recorded.get("winner") != expected.get("winner"):
            return "the higher card of the led suit wins unless a trump is played; the higher trump wins"
        if kind == "trick" and recorded.get("points") != expected.get("points"):
            return "a trick is worth its two cards' points (A 11, 10 10, K 4, Q 3, J 2)"
        if kind == "draw":
            return "the trick's winner draws first, then the loser; the loser of the last draw takes the indicator"
        if kind == "marriage" and recorded.get("points") != expected.get("points"):
            return "a marriage is worth 20, or 40 in trumps"
        return None
