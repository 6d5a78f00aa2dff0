"""Briscola chiamata for 5 players, exactly as ../shared/RULES.md states.

All 40 cards, eight to each. An auction from the dealer's right (``dealer + 1``): a seat bids
a rank lower than the bid before (A, 3, K, Q, J, 7, 6, 5, 4, 2) or passes for good; after a
bid of 2 only a 2 at more points follows (62 up to 120; a plain bid counts 61). The last
bidder left calls a card of the bid rank: its suit is trump, its holder the hidden partner
(a caller holding it plays alone). If all five pass the deal is thrown in (0 for everyone).
Play as in Briscola: any card, the highest trump or else the highest card of the led suit
wins, the winner leads; eight tricks of five. The caller's side makes the contract with 61
card points (or N after a bid of 2 at N). Game points: caller +2, partner +1, each defender
−1 (alone: +4 and −1 each), the reverse when lost; ``cappotto`` doubles them when one side
takes all 120. A match is ``deals`` deals; a seat's total is its own.

Who knows the sides (the views): before the called card is played, its holder knows he is
the partner (and a lone caller that he is alone); every other seat knows only the caller.
Once the called card is played, everyone knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from game.cards import Card, card, codes
from game.games.chiamata import vocabulary
from game.games.chiamata.vocabulary import (
    CALL_KIND,
    PASS,
    PASS_KIND,
    POINTS_FIELD,
    RANK_FIELD,
    bid,
    call,
    called_card,
)
from game.rules import common
from game.rules.base import (
    Action,
    DealResult,
    Event,
    EventLines,
    IllegalAction,
    RecordError,
    TableFact,
    play,
    unique_max,
)
from game.rules.trick import TrickRules, TrickView
from game.rules.vocabulary import TeamsRule

if TYPE_CHECKING:
    from game.config_types import DeckConfig, GameConfig

Phase = Literal["auction", "call", "play", "done"]
#: A seat's side as a view knows it: the caller's (0), the defenders' (1), or None (unknown).
CALLER_SIDE = 0
DEFENDERS = 1
#: One line of the auction as everyone heard it: (seat, rank or None for a pass, points or None).
Speech = tuple[int, str | None, int | None]


@dataclass
class ChiamataState:
    players: int
    dealer: int
    number: int
    hands: list[list[Card]]
    to_act: int
    phase: Phase = "auction"
    #: The auction: who has passed (for good), the highest bid so far and who made it
    #: (``high_points`` None for a plain bid), and every bid and pass in order.
    passed: list[bool] = field(default_factory=list)
    high_seat: int | None = None
    high_rank: str | None = None
    high_points: int | None = None
    auction: list[Speech] = field(default_factory=list)
    #: The call: the caller, the called card (its suit is trump), the seat holding it (the
    #: partner; the caller himself when alone) and whether it has been played (the reveal).
    caller: int | None = None
    called: Card | None = None
    trump_suit: str | None = None
    partner: int | None = None
    revealed: bool = False
    #: The play: who led the trick in progress, its cards in play order, cards and card
    #: points won per seat, every card played as (seat, card).
    leader: int = 0
    trick: list[Card] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    history: list[tuple[int, Card]] = field(default_factory=list)
    over: bool = False
    opening_events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class ChiamataView(TrickView):
    """What one seat may know: its own hand, the auction, the call, the trick on the table,
    every card played (and by whom), the card points each seat has won, the counts of the
    hidden cards, and of the sides only what the seat knows (``sides``: None where unknown)."""

    seat: int
    players: int
    dealer: int
    to_act: int
    phase: Phase
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    passed: tuple[bool, ...]
    high_seat: int | None
    high_rank: str | None
    high_points: int | None
    auction: tuple[Speech, ...]
    caller: int | None
    called: Card | None
    trump_suit: str | None
    #: The partner's seat (the caller's when alone) where this seat knows it, else None.
    partner: int | None
    revealed: bool
    #: Per seat: CALLER_SIDE, DEFENDERS, or None where this seat does not know it.
    sides: tuple[int | None, ...]
    leader: int
    trick: tuple[Card, ...]
    points: tuple[int, ...]
    history: tuple[tuple[int, Card], ...]
    deck: tuple[Card, ...]

    def team_of(self, seat: int) -> int | None:
        """``seat``'s side as this seat knows it (GameRules.seen_team_of asks it)."""
        return self.sides[seat]

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards in the other hands: every card but this hand's and those played."""
        return frozenset(self.deck) - set(self.hand) - self.played

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """No card in another hand is ever known (nothing is drawn or shown)."""
        return ()


@dataclass
class _Sight:
    """What a seat has seen of the auction and the sides (ChiamataRules._sight)."""

    high: Mapping[str, object] | None = None
    caller: int | None = None
    called: str | None = None
    partner: int | None = None


def _seat(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class ChiamataRules(TrickRules[ChiamataState, ChiamataView]):
    game_id = "chiamata"
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    scoring_schema = {"strength": "rank_order", "card_points": "rank_table", "hand_size": "int", "total_points": "int"}
    has_stock = False
    draws_public = False
    has_trump = False  # no card is turned: the call names the trump
    table_capacity = 5  # one trick of five
    hand_capacity = 8
    hud_scores = "totals"
    result_lines = (
        {"label": "results.chiamata.game_points", "cells": "@points", "kind": "total"},
        {"label": "results.chiamata.match_total", "cells": "@totals", "kind": "match"},
    )
    # RECORD.md names the detail's keys and their meaning: a reader compares them.
    required_detail = ("caller", "partner", "called", "card_points", "won")
    detail_is_free_form = False
    dealer_rotates = True  # one seat after every deal, a thrown-in one included

    def __init__(self, game: GameConfig, deck: DeckConfig, players: int, options: Mapping[str, object]):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        self.card_points: dict[Card, int] = {c: int(sc["card_points"][c.rank]) for c in self.cards}
        self.hand_size: int = int(sc["hand_size"])
        if self.hand_size * players != len(self.cards):
            raise ValueError(f"{len(self.cards)} cards do not deal {self.hand_size} to each of {players} players")
        #: Bids go down the ranks as the cards rank (RULES.md): strongest first.
        self.bid_order: tuple[str, ...] = tuple(sc["strength"])
        self.lowest_rank: str = self.bid_order[-1]
        self.total_points: int = int(sc["total_points"])
        if self.total_points != sum(self.card_points.values()):
            raise ValueError(f"the card points add up to {sum(self.card_points.values())}, not {self.total_points}")
        #: A plain bid's contract: more than half the card points (61 of 120).
        self.contract_points: int = self.total_points // 2 + 1
        deals = self.options.get("deals", 10)
        if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
            raise ValueError(f"chiamata option deals={deals!r} is not a number of deals")
        self.deals: int = deals
        self.cappotto: bool = self.options.get("cappotto", False) is True
        self.first_lead: str = str(self.options.get("first_lead", "dealer_right"))
        # Shared, immutable actions: legal_actions allocates nothing per turn.
        self._bids: dict[str, Action] = {r: bid(r) for r in self.bid_order}
        self._points_bids: dict[int, Action] = {
            n: bid(self.lowest_rank, n) for n in range(self.contract_points + 1, self.total_points + 1)
        }
        self._calls: dict[Card, Action] = {c: call(c) for c in self.cards}

    @property
    def teams_rule(self) -> TeamsRule:
        """The sides change every deal and stay hidden until the called card is played;
        every score is a seat's own."""
        return TeamsRule(kind="hidden", scores="seat")

    @property
    def partnerships(self) -> bool:
        """No team keeps a score: a side lasts one deal, and each seat's points, totals and
        match are its own (the results and the narration speak of a player, not a team)."""
        return False

    def match_goal(self) -> tuple[str, int | None]:
        """A fixed number of deals, whoever leads (no target, no deals to win)."""
        return ("fixed_deals", self.deals)

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, hands: list[list[Card]], dealer: int, number: int) -> ChiamataState:
        n = self.players
        return ChiamataState(
            players=n,
            dealer=dealer,
            number=number,
            hands=hands,
            to_act=(dealer + 1) % n,  # the dealer's right speaks first
            passed=[False] * n,
            piles=[[] for _ in range(n)],
            points=[0] * n,
        )

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> ChiamataState:
        order = list(self.cards)
        rng.shuffle(order)
        h = self.hand_size
        state = self._deal_from([order[i * h : (i + 1) * h] for i in range(self.players)], dealer, number)
        state.opening_events = [self.deal_event(state)]
        return state

    def state_from_deal(self, event: Event) -> ChiamataState:
        hands, _table, _stock = self.read_deal(event, self.hand_size, 0, 0)
        if event.get("trump") is not None:
            raise RecordError(f"no trump before the call: 'trump' must be null, not {event.get('trump')!r}")
        dealer, number = self.read_dealer(event)
        return self._deal_from(hands, dealer, number)

    # ------------------------------------------------------------------ the auction
    def legal_bids(self, state: ChiamataState) -> list[Action]:
        """The bids the seat to speak may make: any rank first, then only lower ranks; after
        a 2, only a 2 at more points (a plain bid counting as ``contract_points``)."""
        if state.high_rank is None:
            return [self._bids[r] for r in self.bid_order]
        lower = self.bid_order[self.bid_order.index(state.high_rank) + 1 :]
        out = [self._bids[r] for r in lower]
        if state.high_rank == self.lowest_rank:
            low = (state.high_points or self.contract_points) + 1
            out += [self._points_bids[n] for n in range(low, self.total_points + 1)]
        return out

    def contract(self, state: ChiamataState) -> int:
        """The card points the caller's side needs: 61, or N after a bid of 2 at N."""
        return state.high_points or self.contract_points

    def _after_speech(self, state: ChiamataState, seat: int) -> None:
        """Who speaks next, or the auction's end: the call when one bidder is left, the deal
        thrown in when all have passed."""
        n = self.players
        active = [s for s in range(n) if not state.passed[s]]
        if not active:
            state.phase = "done"
            state.over = True
        elif state.high_seat is not None and active == [state.high_seat]:
            state.phase = "call"
            state.to_act = state.high_seat
        else:
            state.to_act = next(s for s in ((seat + k) % n for k in range(1, n + 1)) if not state.passed[s])

    # ------------------------------------------------------------------ play
    def legal_actions(self, state: ChiamataState) -> list[Action]:
        if state.over:
            return []
        if state.phase == "auction":
            return [*self.legal_bids(state), PASS]
        if state.phase == "call":
            # A card of the contract's rank in any suit; the caller's own makes him alone.
            return [self._calls[c] for c in self.cards if c.rank == state.high_rank]
        # No duty to follow suit or to trump: every card in hand.
        return [self._play[c] for c in state.hands[state.to_act]]

    def explain_refusal(self, state: ChiamataState, action: Action) -> IllegalAction:
        """The rule a refused action breaks (legality itself is ``legal_actions``' alone)."""
        if state.over or self.foreign_args(action):
            return super().explain_refusal(state, action)
        kind = action.kind
        if kind in (vocabulary.BID_KIND.name, PASS_KIND.name):
            if state.phase != "auction":
                return IllegalAction("auction_over", "the auction is over: nobody bids or passes now")
            return self._refused_bid(state, action)
        if kind == CALL_KIND.name:
            if state.phase != "call":
                return IllegalAction("call_after_auction", "the last bidder left calls a card when the auction is over")
            c = called_card(action)
            return IllegalAction(
                "call_contract_rank",
                f"the called card must be a {state.high_rank} (the contract's rank), not {c}",
                rank=state.high_rank,
            )
        if state.phase == "auction":
            return IllegalAction("auction_first", "the auction comes first: bid or pass")
        if state.phase == "call":
            return IllegalAction("call_first", "the caller names the called card before the play")
        c = action.card
        if c is not None and c not in state.hands[state.to_act]:
            return IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=c.code)
        return super().explain_refusal(state, action)

    def _refused_bid(self, state: ChiamataState, action: Action) -> IllegalAction:
        rank, points = action.arg(RANK_FIELD), action.arg(POINTS_FIELD)
        order = ", ".join(self.bid_order)
        if action == PASS:
            return super().explain_refusal(state, action)
        if rank not in self.bid_order:
            return IllegalAction("no_such_rank", f"a bid names a rank: {order}", ranks=order)
        if points is not None:
            if rank != self.lowest_rank or state.high_rank != self.lowest_rank:
                return IllegalAction(
                    "points_only_after_two",
                    f"a bid at points is a {self.lowest_rank} at points, allowed only after a bid of {self.lowest_rank}",
                )
            low = (state.high_points or self.contract_points) + 1
            return IllegalAction(
                "points_too_low",
                f"the next bid must be {self.lowest_rank} at {low} to {self.total_points} points",
                low=low,
                high=self.total_points,
            )
        if state.high_rank == self.lowest_rank:
            return IllegalAction(
                "points_after_two",
                f"after a bid of {self.lowest_rank} the next names points: "
                f"{self.lowest_rank} at {self.contract_points + 1} or more",
            )
        # The ranks still open to a bid, below the last one: what the player may say instead.
        above = self.bid_order.index(state.high_rank) + 1 if state.high_rank in self.bid_order else 0
        lower = ", ".join(self.bid_order[above:])
        return IllegalAction(
            "bid_not_lower",
            f"a bid must be lower than the last one ({state.high_rank}); bids go {order}",
            rank=state.high_rank,
            ranks=lower,
        )

    def apply(self, state: ChiamataState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        kind = action.kind
        if kind == PASS_KIND.name:
            state.passed[seat] = True
            state.auction.append((seat, None, None))
            self._after_speech(state, seat)
            return [{"event": PASS_KIND.name, "seat": seat}]
        if kind == vocabulary.BID_KIND.name:
            rank, points = action.arg(RANK_FIELD), action.arg(POINTS_FIELD)
            if not isinstance(rank, str) or not (points is None or isinstance(points, int)):
                raise ValueError(f"a bid names a rank and maybe points, not {action}")
            state.high_seat, state.high_rank, state.high_points = seat, rank, points
            state.auction.append((seat, rank, points))
            self._after_speech(state, seat)
            line: Event = {"event": kind, "seat": seat, RANK_FIELD: rank}
            if points is not None:
                line[POINTS_FIELD] = points
            return [line]
        if kind == CALL_KIND.name:
            c = called_card(action)
            if c is None:
                raise ValueError(f"a call names a card, not {action}")
            self._call(state, seat, c)
            return [{"event": kind, "seat": seat, vocabulary.CALLED_FIELD: c.code}]
        return self._play_card(state, seat, action)

    def _call(self, state: ChiamataState, seat: int, c: Card) -> None:
        state.caller, state.called, state.trump_suit = seat, c, c.suit
        state.partner = next(s for s, h in enumerate(state.hands) if c in h)
        state.phase = "play"
        lead = seat if self.first_lead == "caller" else (state.dealer + 1) % self.players
        state.leader = state.to_act = lead

    def _play_card(self, state: ChiamataState, seat: int, action: Action) -> list[Event]:
        c = action.card
        if c is None:  # Action.played, inlined: the playouts apply every move
            raise ValueError(f"the action {action.kind!r} plays no card")
        n = self.players
        state.hands[seat].remove(c)
        state.history.append((seat, c))
        if c == state.called:
            state.revealed = True  # the table now sees who held it
        state.trick.append(c)
        events: list[Event] = [{"event": "play", "seat": seat, "card": c.code}]
        if len(state.trick) < n:
            state.to_act = (seat + 1) % n
            return events
        winner = self.trick_winner(state.trick, state.leader, state.trump_suit)
        pts = sum(self.card_points[x] for x in state.trick)
        state.piles[winner] += state.trick
        state.points[winner] += pts
        events.append({"event": "trick", "winner": winner, "cards": codes(state.trick), "points": pts})
        state.trick = []
        state.leader = state.to_act = winner  # the winner leads the next trick
        if not state.hands[winner]:
            state.phase = "done"
            state.over = True
        return events

    # ------------------------------------------------------------------ scoring
    def side_points(self, state: ChiamataState) -> int:
        """The card points of the caller's side (the caller alone when alone)."""
        side = {state.caller, state.partner}
        return sum(p for s, p in enumerate(state.points) if s in side)

    def game_points(self, caller: int, partner: int, won: bool, doubled: bool) -> list[int]:
        """Each seat's game points of a played deal (they add up to 0)."""
        n = self.players
        if caller == partner:
            out = [-1] * n
            out[caller] = n - 1  # alone: +4, each of the other four -1
        else:
            out = [-1] * n
            out[caller], out[partner] = 2, 1
        sign = 1 if won else -1
        factor = 2 if doubled else 1
        return [sign * factor * p for p in out]

    def deal_result(self, state: ChiamataState) -> DealResult:
        if not state.over:
            raise ValueError("the deal is not over")
        if state.caller is None or state.partner is None or state.called is None:
            # Thrown in: no call, no play, nobody scores (RECORD.md: the detail's fields null).
            detail: dict[str, object] = dict.fromkeys(self.required_detail)
            return DealResult(points=[0] * self.players, leftover=None, detail=detail)
        side = self.side_points(state)
        won = side >= self.contract(state)
        doubled = self.cappotto and side in (0, self.total_points)
        return DealResult(
            points=self.game_points(state.caller, state.partner, won, doubled),
            leftover=None,
            detail={
                "caller": state.caller,
                "partner": state.partner,
                "called": state.called.code,
                "card_points": [side, self.total_points - side],
                "won": won,
            },
        )

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        if deals_played < self.deals:
            return False, None, f"{deals_played} of {self.deals} deals played"
        w = unique_max(totals)
        if w is None:
            return True, None, f"after {self.deals} deals the highest total, {max(totals)}, is shared"
        return True, w, f"after {self.deals} deals seat {w} has the highest total, {totals[w]}"

    # ------------------------------------------------------------------ views, copies, records
    def known_sides(self, state: ChiamataState, seat: int) -> tuple[int | None, ...]:
        """Each seat's side as ``seat`` knows it. Before the called card is played, its holder
        knows every side (a lone caller too); any other seat knows the caller's and its own."""
        n = self.players
        caller, partner = state.caller, state.partner
        if caller is None or partner is None:
            return (None,) * n  # each for himself until the call
        every = tuple(CALLER_SIDE if s in (caller, partner) else DEFENDERS for s in range(n))
        if state.revealed or seat == partner:
            return every
        return tuple(CALLER_SIDE if s == caller else DEFENDERS if s == seat else None for s in range(n))

    def view(self, state: ChiamataState, seat: int) -> ChiamataView:
        sides = self.known_sides(state, seat)
        # Knowing every side is knowing the partner (the caller's own seat when alone).
        knows_partner = None not in sides
        return ChiamataView(
            seat=seat,
            players=self.players,
            dealer=state.dealer,
            to_act=state.to_act,
            phase=state.phase,
            hand=tuple(state.hands[seat]),
            hand_counts=tuple(len(h) for h in state.hands),
            passed=tuple(state.passed),
            high_seat=state.high_seat,
            high_rank=state.high_rank,
            high_points=state.high_points,
            auction=tuple(state.auction),
            caller=state.caller,
            called=state.called,
            trump_suit=state.trump_suit,
            partner=state.partner if knows_partner else None,
            revealed=state.revealed,
            sides=sides,
            leader=state.leader,
            trick=tuple(state.trick),
            points=tuple(state.points),
            history=tuple(state.history),
            deck=self.deck_cards,
        )

    def clone(self, state: ChiamataState) -> ChiamataState:
        return ChiamataState(
            players=state.players,
            dealer=state.dealer,
            number=state.number,
            hands=[list(h) for h in state.hands],
            to_act=state.to_act,
            phase=state.phase,
            passed=list(state.passed),
            high_seat=state.high_seat,
            high_rank=state.high_rank,
            high_points=state.high_points,
            auction=list(state.auction),
            caller=state.caller,
            called=state.called,
            trump_suit=state.trump_suit,
            partner=state.partner,
            revealed=state.revealed,
            leader=state.leader,
            trick=list(state.trick),
            piles=[list(p) for p in state.piles],
            points=list(state.points),
            history=list(state.history),
            over=state.over,
            opening_events=list(state.opening_events),
        )

    # ------------------------------------------------------------------ what the table shows
    def _sight(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> _Sight:
        """The last bid, the call and the partner among the lines ``viewer`` has seen: the
        partner where they show it (the called card played or in the viewer's hand, the end)."""
        sight = _Sight()
        own: list[object] = []
        for ev in deal:
            kind = ev.get("event")
            if kind == "deal":
                hands = ev.get("hands")
                mine = hands[viewer] if isinstance(hands, list) and viewer is not None and viewer < len(hands) else None
                own = list(mine) if isinstance(mine, list) else []
            elif kind == vocabulary.BID_KIND.name:
                sight.high = ev
            elif kind == CALL_KIND.name:
                sight.caller, sight.called = _seat(ev.get("seat")), str(ev.get(vocabulary.CALLED_FIELD))
                sight.partner = viewer if sight.called in own else None
            elif kind == "play" and sight.called is not None and ev.get("card") == sight.called:
                sight.partner = _seat(ev.get("seat"))
            elif kind == "deal_end":
                detail = ev.get("detail")
                if isinstance(detail, dict):  # the end shows every side
                    sight.partner = _seat(detail.get("partner")) if detail.get("partner") is not None else sight.partner
        return sight

    def seen_teams(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> tuple[int | None, ...]:
        """``known_sides`` worked out from the lines: the call names the caller; the called
        card in the viewer's hand, or played, names the partner and so every side."""
        sight = self._sight(deal, viewer)
        caller, partner = sight.caller, sight.partner
        if caller is None:
            return (None,) * self.players
        if partner is not None:
            return tuple(CALLER_SIDE if s in (caller, partner) else DEFENDERS for s in range(self.players))
        return tuple(CALLER_SIDE if s == caller else DEFENDERS if s == viewer else None for s in range(self.players))

    def table_facts(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> tuple[TableFact, ...]:
        """The highest bid (the contract once called), the called card with its trump, and the
        caller's and the partner's plates as far as ``viewer`` knows them (every seat's part
        once the deal is scored)."""
        sight = self._sight(deal, viewer)
        high, caller, partner = sight.high, sight.caller, sight.partner
        facts: list[TableFact] = []
        if high is not None:
            points = high.get(POINTS_FIELD)
            facts.append(
                TableFact(
                    "table.chiamata.contract" if sight.called is not None else "table.chiamata.high_bid",
                    "table.chiamata.contract_points" if points is not None else "table.chiamata.contract_rank",
                    {"rank": high.get(RANK_FIELD), "points": points, "seat": high.get("seat")},
                )
            )
        if sight.called is not None and caller is not None:
            code = sight.called
            facts.append(TableFact("table.chiamata.called", "table.chiamata.called_card", {"card": code}, code[-1:]))
            alone = partner == caller
            facts.append(TableFact("table.chiamata.alone" if alone else "table.chiamata.caller", seat=caller))
            if partner is not None and not alone:
                facts.append(TableFact("table.chiamata.partner", seat=partner))
            if any(ev.get("event") == "deal_end" for ev in deal[-2:]):
                others = (s for s in range(self.players) if s not in (caller, partner))
                facts += [TableFact("table.chiamata.defender", seat=s) for s in others]
        return tuple(facts)

    def decisions_ahead(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> frozenset[str] | None:
        """Once the card is called only cards are played: the auction's buttons go."""
        return None if self._sight(deal, viewer).called is None else frozenset({common.PLAY.name})

    def action_from_record(self, events: EventLines, i: int) -> Action:
        ev = events[i]
        kind = ev.get("event")
        if kind == PASS_KIND.name:
            return PASS
        if kind == vocabulary.BID_KIND.name:
            rank, points = ev.get(RANK_FIELD), ev.get(POINTS_FIELD)
            if not isinstance(rank, str) or rank not in self.bid_order:
                raise RecordError(f"a bid names a rank ({', '.join(self.bid_order)}), not {rank!r}")
            if points is not None and (not isinstance(points, int) or isinstance(points, bool)):
                raise RecordError(f"a bid's points are a whole number or null, not {points!r}")
            return bid(rank, points)
        if kind == CALL_KIND.name:
            code = ev.get(vocabulary.CALLED_FIELD)
            if not isinstance(code, str):
                raise RecordError(f"a call names a card, not {code!r}")
            return call(card(code))
        if kind == "play":
            if ev.get("capture"):
                raise RecordError("Briscola chiamata is a trick game: a play captures nothing")
            return play(ev["card"])
        raise RecordError(f"a '{kind}' event is not a Briscola chiamata decision")

    def explain_mismatch(self, before: ChiamataState, expected: Event, recorded: Event) -> str | None:
        kind = expected.get("event")
        if kind == "trick":
            if recorded.get("winner") != expected["winner"]:
                return (
                    f"the highest trump ({before.trump_suit}, the called card's suit) wins, else the highest "
                    f"card of the led suit ({', '.join(self.bid_order)})"
                )
            if recorded.get("points") != expected["points"]:
                return "card points are A=11, 3=10, K=4, Q=3, J=2, others 0"
            return None
        if kind == "deal_end" and recorded.get("points") != expected.get("points"):
            return (
                "game points: caller +2, partner +1, each defender -1 (alone +4 and -1 each), "
                "the reverse when the contract is lost"
                + ("; doubled when one side takes all the card points" if self.cappotto else "")
            )
        return None


__all__ = ["CALLER_SIDE", "DEFENDERS", "ChiamataRules", "ChiamataState", "ChiamataView"]
