"""Briscola for 2 players, or 4 in two partnerships, exactly as RULES.md states.

40 cards, three each, the turned trump lying under the stock and drawn last, the player after
the dealer (a random seat, since the first dealer is random) leading first, no duty to follow
suit or to trump, the trick won by the highest trump or else the highest card of the led suit
(strength A, 3, K, Q, J, 7 … 2), card points A 11, 3 10, K 4, Q 3, J 2, the winner drawing
first (then the others in turn order: with four players the fourth to draw in the last round
takes the trump) and leading, the hands played out once the stock is gone, and 60–60 a draw.
With four players seats 0 and 2 play against 1 and 3 and each team adds its tricks' points.

Match totals (per team; a team is a seat with two players). Format ``single`` (one deal):
``totals`` are the card points and the higher wins. Format ``match``: each deal_end's
``points`` are still that deal's card points, while ``totals`` count the deals each team has
won (a 60–60 deal counts for nobody); the first to ``deals_to_win`` deal wins takes the match.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.cards import Card, card
from game.games.briscola import vocabulary
from game.rules.base import (
    Action,
    DealResult,
    Event,
    EventLines,
    IllegalAction,
    RecordError,
    alternate_teams,
    play,
    unique_max,
)
from game.rules.capture import CAPTURE_FIELD, captured
from game.rules.trick import TrickRules, TrickView
from game.rules.vocabulary import TeamsRule


@dataclass
class BriscolaState:
    players: int
    dealer: int
    number: int
    hands: list[list[Card]]
    stock: list[Card]  # top first; the last card is the turned trump
    trump_card: Card
    trump_suit: str
    piles: list[list[Card]]  # cards won, per seat
    points: list[int]  # card points won so far, per seat (kept running: cheap deal_result)
    to_act: int
    led: Card | None = None  # the first card of the trick in progress
    over: bool = False
    #: Seat that drew the turned trump (public: everyone saw it go), None while it is in the stock.
    trump_drawn_by: int | None = None
    opening_events: list[Event] = field(default_factory=list)
    #: Every card played so far, as (seat, card) — public information.
    history: list[tuple[int, Card]] = field(default_factory=list)
    #: The trick's cards after ``led``, in play order: with two players always empty (the
    #: second card completes the trick), so a state built with ``led`` alone is complete.
    following: list[Card] = field(default_factory=list)


@dataclass(frozen=True)
class BriscolaView(TrickView):
    """What one seat may see: its own hand, the trick on the table, the turned trump, every
    card played (and by whom), the points won so far and the counts of the hidden cards."""

    seat: int
    players: int
    dealer: int
    to_act: int
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]  # the trick so far in play order: () when leading, (led card, …) when following
    trump_card: Card
    trump_suit: str
    trump_drawn_by: int | None
    hand_counts: tuple[int, ...]
    stock_count: int
    piles: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    history: tuple[tuple[int, Card], ...]
    deck: tuple[Card, ...]

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place this seat does not know: in the other hand or in the stock.

        The turned trump is never unseen: it is the stock's last card, or in the hand of
        ``trump_drawn_by`` (or played, or in this seat's hand).
        """
        return frozenset(self.deck) - set(self.hand) - self.played - {self.trump_card}

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """Cards known to be in another hand: the turned trump, once another seat drew it."""
        if self.trump_drawn_by is not None and self.trump_drawn_by != self.seat and self.trump_card not in self.played:
            return (self.trump_card,)
        return ()


class BriscolaRules(TrickRules[BriscolaState, BriscolaView]):
    game_id = "briscola"
    scoring_schema = {"strength": "rank_order", "card_points": "rank_table", "hand_size": "int", "total_points": "int"}
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    has_trump = True
    table_capacity = 3
    hud_scores = "card_points"
    hand_capacity = 3
    result_lines = (
        {"label": "results.briscola.card_points", "cells": "card_points", "kind": "total"},
        {"label": "results.briscola.tricks", "cells": "tricks"},
        {"label": "results.briscola.deals_won", "cells": "@totals", "kind": "match"},
    )
    # RECORD.md: deal_end's points are the card points; the detail is the writer's own.
    detail_is_free_form = True
    # RULES.md: each deal's first player is chosen at random (this program rotates the deal).
    dealer_rotates = False

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        # Strength (TrickRules) and points are separate tables (RULES.md).
        self.card_points: dict[Card, int] = {c: sc["card_points"][c.rank] for c in self.cards}
        self.hand_size: int = sc["hand_size"]
        self.total_points: int = sc["total_points"]
        self.format: str = str(self.options.get("format", "single"))
        self.deals_to_win: int = int(self.options.get("deals_to_win", 2))
        self.stock_size: int = len(self.cards) - players * self.hand_size

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, hands: list[list[Card]], stock: list[Card], dealer: int, number: int) -> BriscolaState:
        trump = stock[-1]
        return BriscolaState(
            players=self.players,
            dealer=dealer,
            number=number,
            hands=hands,
            stock=stock,
            trump_card=trump,
            trump_suit=trump.suit,
            piles=[[] for _ in range(self.players)],
            points=[0] * self.players,
            to_act=(dealer + 1) % self.players,  # the dealer's right leads
        )

    @property
    def teams_rule(self) -> TeamsRule:
        """Two partnerships sitting opposite at four players; each for himself otherwise."""
        return alternate_teams(self.players) if self.players == 4 else TeamsRule()

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> BriscolaState:
        order = list(self.cards)
        rng.shuffle(order)
        n, h = self.players, self.hand_size
        hands = [order[i * h : (i + 1) * h] for i in range(n)]
        turned = order[n * h]
        # The turned card lies face up under the stock: it is the last card drawn.
        stock = order[n * h + 1 :] + [turned]
        state = self._deal_from(hands, stock, dealer, number)
        state.opening_events = [self.deal_event(state)]
        return state

    def turned_card(self, state) -> Card:
        return state.trump_card

    def state_from_deal(self, ev: Event) -> BriscolaState:
        hands, table, stock = self.read_deal(ev, self.hand_size, 0, self.stock_size)
        trump = ev.get("trump")
        if trump != stock[-1].code:
            raise RecordError(f"'trump' is {trump!r}, but the turned trump is the stock's last card, {stock[-1]}")
        return self._deal_from(hands, stock, *self.read_dealer(ev))

    # ------------------------------------------------------------------ play
    def legal_actions(self, state: BriscolaState) -> list[Action]:
        if state.over:
            return []
        # No duty to follow suit or to trump: every card in hand may be played.
        p = self._play
        return [p[c] for c in state.hands[state.to_act]]

    def explain_refusal(self, state: BriscolaState, action: Action) -> IllegalAction:
        """The rule a refused action breaks (legality itself is ``legal_actions``' alone)."""
        if state.over:
            return IllegalAction("deal_over", "the deal is over")
        if action.kind != "play" or set(self.foreign_args(action)) - {CAPTURE_FIELD}:
            what = "marriage" if action.kind == "play" else action.kind
            return IllegalAction("not_in_game", f"Briscola has no '{what}' action: play a card", action=what)
        if captured(action):
            return IllegalAction("no_capture", "Briscola is a trick game: a card captures nothing")
        c = action.card
        if c not in state.hands[state.to_act]:
            code = c.code if c is not None else None
            return IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=code)
        return super().explain_refusal(state, action)

    def apply(self, state: BriscolaState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        c = action.card
        if c is None:  # Action.played, inlined: the playouts apply every move
            raise ValueError(f"the action {action.kind!r} plays no card")
        n = state.players
        state.hands[seat].remove(c)
        state.history.append((seat, c))
        events: list[Event] = [{"event": "play", "seat": seat, "card": c.code}]
        led = state.led
        if led is None:
            state.led = c
            state.to_act = (seat + 1) % n
            return events
        following = state.following
        if len(following) + 2 < n:
            following.append(c)
            state.to_act = (seat + 1) % n
            return events
        # The last card of the trick: it is complete.
        cards = [led, *following, c]
        leader = (seat + 1) % n
        winner = self.trick_winner(cards, leader, state.trump_suit)
        cp = self.card_points
        pts = 0
        for x in cards:
            pts += cp[x]
        state.piles[winner] += cards
        state.points[winner] += pts
        state.led = None
        state.following = []
        state.to_act = winner  # the winner leads the next trick
        events.append({"event": "trick", "winner": winner, "cards": [x.code for x in cards], "points": pts})
        stock = state.stock
        if stock:
            # The winner draws first, then the others in turn order; the turned trump (the
            # stock's last card) goes to the last to draw in the last round.
            for i in range(n):
                s = (winner + i) % n
                state.hands[s].append(stock[i])
                events.append({"event": "draw", "seat": s, "card": stock[i].code})
            del stock[:n]
            if not stock:
                state.trump_drawn_by = (winner + n - 1) % n
        elif not state.hands[winner]:
            # Stock gone and hands played out: all 40 cards are in the piles.
            state.over = True
        return events

    # ------------------------------------------------------------------ scoring
    def deal_result(self, state: BriscolaState) -> DealResult:
        pts = [0] * self.teams
        tricks = [0] * self.teams
        for seat in range(self.players):
            t = self.team_of(seat)
            pts[t] += state.points[seat]
            tricks[t] += len(state.piles[seat]) // self.players
        return DealResult(
            points=pts,
            leftover=None,
            detail={
                "card_points": list(pts),
                "tricks": tricks,
                "deal_winner": unique_max(pts),  # None on 60–60
            },
        )

    def add_deal(self, totals: list[int], result: DealResult) -> list[int]:
        if self.format != "match":
            return [t + p for t, p in zip(totals, result.points)]
        # Match format: totals count deals won; a drawn deal counts for nobody.
        w = unique_max(list(result.points))
        return [t + (1 if i == w else 0) for i, t in enumerate(totals)]

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        if self.format != "match":
            w = unique_max(totals)
            if w is None:
                return True, None, f"{totals[0]}–{totals[1]}: a draw"
            return True, w, f"{self._side} {w} has {totals[w]} of {self.total_points} card points"
        top = max(totals)
        if top < self.deals_to_win:
            return False, None, f"nobody has won {self.deals_to_win} deals"
        w = totals.index(top)
        return True, w, f"{self._side} {w} has won {top} deals (first to {self.deals_to_win})"

    @property
    def _side(self) -> str:
        return "team" if self.partnerships else "seat"

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: BriscolaState, seat: int) -> BriscolaView:
        return BriscolaView(
            seat=seat,
            players=state.players,
            dealer=state.dealer,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            trick=() if state.led is None else (state.led, *state.following),
            trump_card=state.trump_card,
            trump_suit=state.trump_suit,
            trump_drawn_by=state.trump_drawn_by,
            hand_counts=tuple(len(h) for h in state.hands),
            stock_count=len(state.stock),
            piles=tuple(tuple(p) for p in state.piles),
            points=tuple(state.points),
            history=tuple(state.history),
            deck=self.deck_cards,
        )

    def clone(self, s: BriscolaState) -> BriscolaState:
        return BriscolaState(
            players=s.players,
            dealer=s.dealer,
            number=s.number,
            hands=[list(h) for h in s.hands],
            stock=list(s.stock),
            trump_card=s.trump_card,
            trump_suit=s.trump_suit,
            piles=[list(p) for p in s.piles],
            points=list(s.points),
            to_act=s.to_act,
            led=s.led,
            over=s.over,
            trump_drawn_by=s.trump_drawn_by,
            history=list(s.history),
            following=list(s.following),
        )

    def action_from_record(self, events: EventLines, i: int) -> Action:
        ev = events[i]
        if ev.get("event") != "play":
            raise RecordError(f"a '{ev.get('event')}' event is not a Briscola decision")
        return play(ev["card"])

    def explain_mismatch(self, before: BriscolaState, expected: Event, recorded: Event) -> str | None:
        kind = expected.get("event")
        if kind == "trick":
            cards = [card(x) for x in expected["cards"]]
            claimed = recorded.get("winner")
            if claimed != expected["winner"]:
                led, trump = cards[0], before.trump_suit
                leader = (before.to_act + 1) % self.players  # the seat after the trick's last player
                win = cards[(expected["winner"] - leader) % self.players]
                if not isinstance(claimed, int) or isinstance(claimed, bool) or not 0 <= claimed < self.players:
                    return None
                other = cards[(claimed - leader) % self.players]
                if other.suit not in (led.suit, trump):
                    return "a card of neither the led suit nor trumps never wins the trick"
                if win.suit == trump and other.suit != trump:
                    return f"a trump ({trump}) beats any card of another suit"
                return "the stronger card wins (A, 3, K, Q, J, 7, 6, 5, 4, 2), a trump over the led suit"
            if recorded.get("points") != expected["points"]:
                return "card points are A=11, 3=10, K=4, Q=3, J=2, others 0"
            return None
        if kind == "draw":
            if recorded.get("seat") != expected["seat"]:
                return (
                    "the trick winner draws first, then the other player"
                    if self.players == 2
                    else "the trick winner draws first, then the other players in turn order"
                )
            return "cards are drawn from the top of the stock; the turned trump is drawn last"
        return None
