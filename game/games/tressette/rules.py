"""Tressette for 2 players or for 4 in two partnerships, exactly as RULES.md states.

40 cards (the 52-card packs without 8, 9 and 10), ten to each player; with two players the
other twenty are a face-down stock from which, after every trick, the winner and then the
loser draw one card each, shown to both. No trump; every follower must follow the led suit
when able; the highest card of the led suit wins (strength 3, 2, A, K, Q, J, 7, 6, 5, 4) and
leads next. Cards count in thirds of a point (A 3, 3/2/K/Q/J 1, 7–4 nothing); a team's deal
points are its whole points (thirds // 3) plus 1 for the last trick, always 11 in all. The
match goes to ``target`` (21; 11 or 31), checked after each deal, won by a unique leader at
or above it. The first dealer is random, the deal passes one seat, ``dealer + 1`` leads.

What is public (and so in every seat's view): every card played, who played it, the cards
drawn from the stock (a drawn card is shown to both players: it stays *known* while in the
hand that drew it), and each suit a player failed to follow (that player's hidden cards, the
ones dealt, hold none of it — a card drawn later is known anyway).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.cards import Card, codes
from game.games.tressette import vocabulary
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


@dataclass(slots=True)
class TressetteState:
    players: int
    dealer: int
    number: int
    hands: list[list[Card]]
    stock: list[Card]  # top first; empty with four players
    leader: int  # who led the trick in progress (or leads the next one)
    to_act: int
    #: Cards of the trick in progress, in play order (the leader's first).
    trick: list[Card] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=lambda: [[], []])  # cards won, per team
    thirds: list[int] = field(default_factory=lambda: [0, 0])  # thirds won, per team (running)
    tricks: list[int] = field(default_factory=lambda: [0, 0])  # tricks won, per team
    last_trick: int | None = None  # the team that won the last trick, once the deal is over
    over: bool = False
    #: Per seat: cards drawn from the stock (shown to all) and not played yet.
    known: list[list[Card]] = field(default_factory=list)
    #: Per seat: suits the seat failed to follow; its dealt (hidden) cards hold none of them.
    voids: list[frozenset[str]] = field(default_factory=list)
    #: Every card played so far, as (seat, card) — public information.
    history: list[tuple[int, Card]] = field(default_factory=list)
    opening_events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class TressetteView(TrickView):
    """What one seat may see: its own hand, the trick on the table, every card played (and
    by whom), the cards each other seat is known to hold (public draws not yet played), the
    suits each seat is known to lack, the thirds and tricks won, and the counts of the hidden
    cards. Never another hand's dealt cards or the stock's order."""

    seat: int
    players: int
    dealer: int
    leader: int
    to_act: int
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]  # () when leading; else the cards played so far, leader first
    hand_counts: tuple[int, ...]
    stock_count: int
    known: tuple[tuple[Card, ...], ...]  # per seat (own seat included: its drawn cards)
    voids: tuple[frozenset[str], ...]
    thirds: tuple[int, ...]  # per team
    tricks: tuple[int, ...]  # per team
    history: tuple[tuple[int, Card], ...]
    deck: tuple[Card, ...]

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """Cards known to be in the other seats' hands (the public draws they still hold)."""
        return tuple(c for s, cs in enumerate(self.known) if s != self.seat for c in cs)

    @property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place this seat does not know: in another hand's dealt cards or in the stock."""
        return frozenset(self.deck) - set(self.hand) - self.played - set(self.opponent_known)


class TressetteRules(TrickRules[TressetteState, TressetteView]):
    # Every fact GameRules declares, stated here (defaults included) so a reader sees the game whole.
    game_id = "tressette"
    family = "trick"
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    #: True for the game (two players draw); the instance says it per player count
    #: (``self.has_stock`` is False with four: nothing is left after the deal).
    has_stock = True
    #: Each card drawn from the stock is shown to both players (RULES.md).
    draws_public = True
    has_trump = False
    table_capacity = 4  # one trick of up to four cards
    hand_capacity = 10
    may_place_instead = False
    counted_bonuses = frozenset()
    sweep_bonuses = frozenset()
    bonus_callouts = {}
    totals_count_down = False
    #: The score board shows the match points per team and the deal's count so far in thirds.
    hud_scores = "thirds"
    scoring_schema = {"strength": "rank_order", "thirds": "rank_table", "hand_size": "int", "last_trick": "int"}
    #: The results rows (see GameRules.result_lines); game/games/tressette/results.py shows the
    #: thirds as "5 ⅔" and adds the whole points and the last trick.
    result_lines = (
        {"label": "results.tressette.thirds", "cells": "thirds"},
        {"label": "results.tressette.deal_total", "cells": "@points", "points": "@points", "kind": "total"},
        {"label": "results.match_total_to", "cells": "@totals", "kind": "match"},
    )
    #: RULES.md: deal_end.detail must hold the thirds per team and the last trick's team; the
    #: reader checks them (the detail is not free-form).
    required_detail = ("thirds", "last_trick")
    detail_is_free_form = False
    record_variants = frozenset()
    dealer_rotates = True  # one seat after each deal

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        # Strength (TrickRules) and the value table (in thirds) are separate.
        self.card_thirds: dict[Card, int] = {c: int(sc["thirds"][c.rank]) for c in self.cards}
        self.hand_size: int = int(sc["hand_size"])
        self.last_trick_points: int = int(sc["last_trick"])
        self.target: int = int(self.options.get("target", 21))
        self.stock_size: int = len(self.cards) - players * self.hand_size
        if self.stock_size < 0 or self.stock_size % players:
            raise ValueError(
                f"{len(self.cards)} cards cannot deal {self.hand_size} to {players} players "
                "and draw evenly from the rest"
            )
        # Only the two-player deal leaves a stock (the fact above is for the game as a whole).
        self.has_stock = self.stock_size > 0
        self.draws_public = self.has_stock  # nothing drawn: no K to recall draws
        #: All the thirds in the pack (32 in a 40-card pack: 10 whole points and 2 thirds).
        self.total_thirds: int = sum(self.card_thirds.values())

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, hands: list[list[Card]], stock: list[Card], dealer: int, number: int) -> TressetteState:
        n = self.players
        lead = (dealer + 1) % n  # the player to the dealer's right leads
        return TressetteState(
            players=n,
            dealer=dealer,
            number=number,
            hands=hands,
            stock=stock,
            leader=lead,
            to_act=lead,
            known=[[] for _ in range(n)],
            voids=[frozenset() for _ in range(n)],
        )

    @property
    def teams_rule(self) -> TeamsRule:
        """Two partnerships sitting opposite at four players; each for himself otherwise."""
        return alternate_teams(self.players) if self.players == 4 else TeamsRule()

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> TressetteState:
        order = list(self.cards)
        rng.shuffle(order)
        n, h = self.players, self.hand_size
        # Ten to each, starting with the player to the dealer's right; the rest is the stock.
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(dealer + 1 + i) % n] = order[i * h : (i + 1) * h]
        stock = order[n * h :]
        state = self._deal_from(hands, stock, dealer, number)
        state.opening_events = [self.deal_event(state)]
        return state

    def state_from_deal(self, ev: Event) -> TressetteState:
        hands, _table, stock = self.read_deal(ev, self.hand_size, 0, self.stock_size)
        if ev.get("trump") is not None:
            raise RecordError(f"Tressette has no trump: 'trump' must be null, not {ev.get('trump')!r}")
        return self._deal_from(hands, stock, *self.read_dealer(ev))

    # ------------------------------------------------------------------ play
    def follows(self, hand: list[Card], led: Card) -> list[Card]:
        """The cards of ``hand`` that may answer ``led``: its suit when the hand holds it, else any."""
        suit = led.suit
        same = [c for c in hand if c.suit == suit]
        return same or hand

    def legal_actions(self, state: TressetteState) -> list[Action]:
        if state.over:
            return []
        hand = state.hands[state.to_act]
        p = self._play
        if not state.trick:
            return [p[c] for c in hand]  # the leader plays any card
        return [p[c] for c in self.follows(hand, state.trick[0])]

    def explain_refusal(self, state: TressetteState, action: Action) -> IllegalAction:
        """Which rule a refused action breaks (diagnosis only: legality is ``legal_actions``)."""
        if (
            state.over
            or action.kind != "play"
            or set(self.foreign_args(action)) - {CAPTURE_FIELD}
            or action.card is None
        ):
            return super().explain_refusal(state, action)
        if captured(action):
            return IllegalAction("not_in_game", "Tressette is a trick game: a card captures nothing")
        seat = state.to_act
        hand = state.hands[seat]
        c = action.card
        if c not in hand:
            return IllegalAction("not_in_hand", f"{c} is not in seat {seat}'s hand", card=c.code)
        if state.trick:
            led = state.trick[0]
            allowed = self.follows(hand, led)
            if c not in allowed:
                opts = ", ".join(codes(allowed))
                return IllegalAction(
                    "must_follow",
                    f"follow suit when able: {led.suit} was led, play {opts}",
                    led=led.code,
                    suit=led.suit,
                    options=opts,
                )
        return super().explain_refusal(state, action)

    def apply(self, state: TressetteState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        c = action.card
        if c is None:  # Action.played, inlined: the playouts apply every move
            raise ValueError(f"the action {action.kind!r} plays no card")
        state.hands[seat].remove(c)
        kn = state.known[seat]
        if kn and c in kn:
            kn.remove(c)
        state.history.append((seat, c))
        trick = state.trick
        if trick and c.suit != trick[0].suit:
            # Not following is legal only without the led suit: the table now knows the void.
            state.voids[seat] = state.voids[seat] | {trick[0].suit}
        trick.append(c)
        events: list[Event] = [{"event": "play", "seat": seat, "card": c.code}]
        n = state.players
        if len(trick) < n:
            state.to_act = (seat + 1) % n
            return events
        winner = self.trick_winner(trick, state.leader)
        team = self.team_of(winner)
        pts = 0
        ct = self.card_thirds
        for x in trick:
            pts += ct[x]
        state.piles[team] += trick
        state.thirds[team] += pts
        state.tricks[team] += 1
        events.append({"event": "trick", "winner": winner, "cards": codes(trick), "points": pts})
        state.trick = []
        state.leader = state.to_act = winner  # the winner leads the next trick
        stock = state.stock
        if stock:
            # Winner draws first, then the loser; both cards are shown (public).
            a, b = stock[0], stock[1]
            del stock[:2]
            loser = (winner + 1) % n
            state.hands[winner].append(a)
            state.hands[loser].append(b)
            state.known[winner].append(a)
            state.known[loser].append(b)
            events.append({"event": "draw", "seat": winner, "card": a.code})
            events.append({"event": "draw", "seat": loser, "card": b.code})
        elif not state.hands[winner]:
            state.last_trick = team
            state.over = True
        return events

    # ------------------------------------------------------------------ scoring
    def deal_points(self, thirds: list[int], last_trick: int | None) -> list[int]:
        """Whole points of each team's thirds, plus the last-trick point."""
        return [t // 3 + (self.last_trick_points if i == last_trick else 0) for i, t in enumerate(thirds)]

    def deal_result(self, state: TressetteState) -> DealResult:
        if not state.over:
            raise ValueError("the deal is not over")
        # Only what RULES.md names: a reader compares every detail key both records hold, and
        # another writer's extra keys may mean something else.
        return DealResult(
            points=self.deal_points(state.thirds, state.last_trick),
            leftover=None,
            detail={
                "thirds": list(state.thirds),
                "last_trick": state.last_trick,
            },
        )

    def points_text(self, points: int) -> str:
        """A trick's points are thirds: "1 ⅔" (GameRules.points_text)."""
        return thirds_text(points)

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        w = unique_max(totals, minimum=self.target)
        if w is not None:
            return True, w, f"team {w} has {totals[w]}, at least {self.target} and the most"
        if max(totals) >= self.target:
            return False, None, f"tied for the lead at {max(totals)}: another deal"
        return False, None, f"nobody has {self.target} yet (totals {totals})"

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: TressetteState, seat: int) -> TressetteView:
        return TressetteView(
            seat=seat,
            players=state.players,
            dealer=state.dealer,
            leader=state.leader,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            trick=tuple(state.trick),
            hand_counts=tuple(len(h) for h in state.hands),
            stock_count=len(state.stock),
            known=tuple(tuple(k) for k in state.known),
            voids=tuple(state.voids),
            thirds=tuple(state.thirds),
            tricks=tuple(state.tricks),
            history=tuple(state.history),
            deck=self.deck_cards,
        )

    def clone(self, s: TressetteState) -> TressetteState:
        return TressetteState(
            players=s.players,
            dealer=s.dealer,
            number=s.number,
            hands=[h[:] for h in s.hands],
            stock=s.stock[:],
            leader=s.leader,
            to_act=s.to_act,
            trick=s.trick[:],
            piles=[p[:] for p in s.piles],
            thirds=s.thirds[:],
            tricks=s.tricks[:],
            last_trick=s.last_trick,
            over=s.over,
            known=[k[:] for k in s.known],
            voids=s.voids[:],
            history=s.history[:],
        )

    def action_from_record(self, events: EventLines, i: int) -> Action:
        ev = events[i]
        if ev.get("event") != "play":
            raise RecordError(f"a '{ev.get('event')}' event is not a Tressette decision")
        if ev.get("capture"):
            raise RecordError("Tressette is a trick game: a play captures nothing")
        return play(ev["card"])

    def explain_mismatch(self, before: TressetteState, expected: Event, recorded: Event) -> str | None:
        kind = expected.get("event")
        if kind == "trick":
            if recorded.get("winner") != expected["winner"]:
                order = ", ".join(self.scoring["strength"])
                return f"the highest card of the led suit wins ({order}); there is no trump"
            if recorded.get("points") != expected["points"]:
                return "a trick counts its cards' thirds: A 3, and 3, 2, K, Q, J 1 each; 7, 6, 5, 4 nothing"
            return None
        if kind == "draw":
            if recorded.get("seat") != expected["seat"]:
                return "the trick's winner draws first, then the loser"
            return "cards are drawn from the top of the stock"
        if kind == "deal_end":
            return (
                "a team scores its thirds // 3, plus 1 for the last trick; the deal totals 11"
                if recorded.get("points") != expected.get("points")
                else None
            )
        return None


def thirds_text(thirds: int) -> str:
    """Thirds as a mixed number for the table and results: 14 → "4 ⅔", 3 → "1", 1 → "⅓"."""
    whole, rest = divmod(thirds, 3)
    frac = ("", "⅓", "⅔")[rest]
    if not whole:
        return frac or "0"
    return f"{whole} {frac}" if frac else str(whole)


__all__ = ["TressetteRules", "TressetteState", "TressetteView", "thirds_text"]
