"""Briscola for 2 players, exactly as RULES.md states.

40 cards, three each, the turned trump lying under the stock and drawn last, the non-dealer
(a random seat, since the first dealer is random) leading first, no duty to follow suit or to
trump, the trick won by the highest trump or else the highest card of the led suit (strength
A, 3, K, Q, J, 7 … 2), card points A 11, 3 10, K 4, Q 3, J 2, the winner drawing first and
leading, the hands played out once the stock is gone, and 60–60 a draw.

Match totals. Format ``single`` (one deal): ``totals`` are the card points and the higher wins.
Format ``match``: each deal_end's ``points`` are still that deal's card points, while
``totals`` count the deals each player has won (a 60–60 deal counts for nobody); the first to
``deals_to_win`` deal wins takes the match.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.cards import Card, card
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


@dataclass(frozen=True)
class BriscolaView:
    """What one seat may see: its own hand, the trick on the table, the turned trump, every
    card played (and by whom), the points won so far and the counts of the hidden cards."""

    seat: int
    players: int
    dealer: int
    to_act: int
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]  # () when leading, (led card,) when following
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
    def leading(self) -> bool:
        return not self.trick

    @property
    def played(self) -> frozenset[Card]:
        return frozenset(c for _, c in self.history)

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place this seat does not know: in the other hand or in the stock.

        The turned trump is never unseen: it is the stock's last card, or in the hand of
        ``trump_drawn_by`` (or played, or in this seat's hand).
        """
        return frozenset(self.deck) - set(self.hand) - self.played - {self.trump_card}

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """Cards known to be in the other hand: the turned trump, once the other seat drew it."""
        if self.trump_drawn_by is not None and self.trump_drawn_by != self.seat and self.trump_card not in self.played:
            return (self.trump_card,)
        return ()


class BriscolaRules(GameRules):
    game_id = "briscola"
    scoring_schema = {"strength": "rank_order", "card_points": "rank_table", "hand_size": "int",
                      "total_points": "int"}
    family = "trick"
    record_events = ("trick", "draw")
    has_trump = True
    table_capacity = 3
    hud_scores = "card_points"
    #: verify demands these deal_end detail keys.
    required_detail = ("card_points",)

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        order = list(sc["strength"])
        # Higher number = stronger card; strength and points are separate tables (RULES.md).
        self.strength: dict[Card, int] = {c: len(order) - order.index(c.rank) for c in self.cards}
        self.card_points: dict[Card, int] = {c: sc["card_points"][c.rank] for c in self.cards}
        self.hand_size: int = sc["hand_size"]
        self.total_points: int = sc["total_points"]
        self.format: str = str(self.options.get("format", "single"))
        self.deals_to_win: int = int(self.options.get("deals_to_win", 2))
        self.deck_cards: tuple[Card, ...] = tuple(self.cards)
        self.stock_size: int = len(self.cards) - players * self.hand_size
        # Shared, immutable play actions: legal_actions allocates nothing per card.
        self._play: dict[Card, Action] = {c: Action("play", c, (), False) for c in self.cards}

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, hands: list[list[Card]], stock: list[Card], dealer: int, number: int) -> BriscolaState:
        trump = stock[-1]
        return BriscolaState(
            players=self.players, dealer=dealer, number=number, hands=hands, stock=stock,
            trump_card=trump, trump_suit=trump.suit, piles=[[] for _ in range(self.players)],
            points=[0] * self.players, to_act=(dealer + 1) % self.players,  # the non-dealer leads
        )

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> BriscolaState:
        order = list(self.cards)
        rng.shuffle(order)
        n, h = self.players, self.hand_size
        hands = [order[i * h:(i + 1) * h] for i in range(n)]
        turned = order[n * h]
        # The turned card lies face up under the stock: it is the last card drawn.
        stock = order[n * h + 1:] + [turned]
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
        dealer, number = ev["dealer"], ev["number"]
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.players:
            raise RecordError(f"dealer {dealer!r} is not a seat")
        return self._deal_from(hands, stock, dealer, number)

    # ------------------------------------------------------------------ play
    def legal_actions(self, state: BriscolaState) -> list[Action]:
        if state.over:
            return []
        # No duty to follow suit or to trump: every card in hand may be played.
        p = self._play
        return [p[c] for c in state.hands[state.to_act]]

    def validate(self, state: BriscolaState, action: Action) -> None:
        if state.over:
            raise IllegalAction("deal_over", "the deal is over")
        if action.kind != "play" or action.marriage:
            what = "marriage" if action.kind == "play" else action.kind
            raise IllegalAction("not_in_game", f"Briscola has no '{what}' action: play a card", action=what)
        if action.capture:
            raise IllegalAction("no_capture", "Briscola is a trick game: a card captures nothing")
        c = action.card
        if c not in state.hands[state.to_act]:
            code = c.code if c is not None else None
            raise IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=code)

    def beats(self, follow: Card, led: Card, trump_suit: str) -> bool:
        """Does the second card win the trick? A higher card of the led suit, or a trump on a
        non-trump; a card of a third suit never wins."""
        if follow.suit == led.suit:
            return self.strength[follow] > self.strength[led]
        return follow.suit == trump_suit

    def apply(self, state: BriscolaState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        c = action.card
        state.hands[seat].remove(c)
        state.history.append((seat, c))
        events: list[Event] = [{"event": "play", "seat": seat, "card": c.code}]
        led = state.led
        if led is None:
            state.led = c
            state.to_act = 1 - seat
            return events
        # Second card: the trick is complete.
        leader = 1 - seat
        winner = seat if self.beats(c, led, state.trump_suit) else leader
        cp = self.card_points
        pts = cp[led] + cp[c]
        state.piles[winner] += (led, c)
        state.points[winner] += pts
        state.led = None
        state.to_act = winner  # the winner leads the next trick
        events.append({"event": "trick", "winner": winner, "cards": [led.code, c.code], "points": pts})
        stock = state.stock
        if stock:
            # Winner draws first, then the other; the turned trump (last) goes to the second drawer.
            a, b = stock[0], stock[1]
            del stock[:2]
            loser = 1 - winner
            state.hands[winner].append(a)
            state.hands[loser].append(b)
            if not stock:
                state.trump_drawn_by = loser
            events.append({"event": "draw", "seat": winner, "card": a.code})
            events.append({"event": "draw", "seat": loser, "card": b.code})
        elif not state.hands[winner]:
            # Stock gone and hands played out: all 40 cards are in the piles.
            state.over = True
        return events

    # ------------------------------------------------------------------ scoring
    def deal_result(self, state: BriscolaState) -> DealResult:
        pts = list(state.points)
        return DealResult(points=pts, leftover=None, detail={
            "card_points": list(pts),
            "tricks": [len(p) // 2 for p in state.piles],
            "deal_winner": unique_max(pts),  # None on 60–60
        })

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
            return True, w, f"seat {w} has {totals[w]} of {self.total_points} card points"
        top = max(totals)
        if top < self.deals_to_win:
            return False, None, f"nobody has won {self.deals_to_win} deals"
        w = totals.index(top)
        return True, w, f"seat {w} has won {top} deals (first to {self.deals_to_win})"

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: BriscolaState, seat: int) -> BriscolaView:
        return BriscolaView(
            seat=seat, players=state.players, dealer=state.dealer, to_act=state.to_act,
            hand=tuple(state.hands[seat]), trick=() if state.led is None else (state.led,),
            trump_card=state.trump_card, trump_suit=state.trump_suit, trump_drawn_by=state.trump_drawn_by,
            hand_counts=tuple(len(h) for h in state.hands), stock_count=len(state.stock),
            piles=tuple(tuple(p) for p in state.piles), points=tuple(state.points),
            history=tuple(state.history), deck=self.deck_cards,
        )

    def clone(self, s: BriscolaState) -> BriscolaState:
        return BriscolaState(
            players=s.players, dealer=s.dealer, number=s.number, hands=[list(h) for h in s.hands],
            stock=list(s.stock), trump_card=s.trump_card, trump_suit=s.trump_suit,
            piles=[list(p) for p in s.piles], points=list(s.points), to_act=s.to_act, led=s.led,
            over=s.over, trump_drawn_by=s.trump_drawn_by, history=list(s.history),
        )

    def action_from_record(self, events: list[Event], i: int) -> Action:
        ev = events[i]
        if ev.get("event") != "play":
            raise RecordError(f"a '{ev.get('event')}' event is not a Briscola decision")
        return play(ev["card"])

    def explain_mismatch(self, before: BriscolaState, expected: Event, recorded: Event) -> str | None:
        kind = expected.get("event")
        if kind == "trick":
            led, follow = (card(x) for x in expected["cards"])
            if recorded.get("winner") != expected["winner"]:
                if follow.suit == led.suit:
                    return "in the led suit the stronger card wins (A, 3, K, Q, J, 7, 6, 5, 4, 2)"
                if follow.suit == before.trump_suit:
                    return f"a trump ({before.trump_suit}) beats any card of another suit"
                if led.suit == before.trump_suit:
                    return "a trump led wins against a card of another suit"
                return "a card of neither the led suit nor trumps never wins the trick"
            if recorded.get("points") != expected["points"]:
                return "card points are A=11, 3=10, K=4, Q=3, J=2, others 0"
            return None
        if kind == "draw":
            if recorded.get("seat") != expected["seat"]:
                return "the trick winner draws first, then the other player"
            return "cards are drawn from the top of the stock; the turned trump is drawn last"
        return None
