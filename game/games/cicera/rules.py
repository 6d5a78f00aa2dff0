"""Cìcera for four players in two partnerships, exactly as RULES.md states.

52 cards (Bresciane or Trevisane-52), 12 to each seat and 4 to the table, no stock, a random
dealer and play from the dealer's right. Capturing is optional ("place only" is always
legal); a card takes one table card of its rank (courts only this way) or, a numeral only, a
set of table numerals adding up to its value; the player chooses. Four capture bonuses stack
on any capture, the final play included: scùa, picada, simili, quadriglia. At the end the
leftovers go to the last capturing team (no bonus); a deal without any capture is a draw
with no points. Awards (ties score nobody): most cards, most Swords, 2S, 10D, JC; and the
napula. Format "single" (one deal) or "match" to a target, won as in Scopa.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from game.cards import Card, card, codes
from game.games.cicera import vocabulary
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
    partial_sums,
    play_from_record,
    sum_sets,
    target_race,
)
from game.rules.vocabulary import TeamsRule

#: The capture bonuses, in the order a play event lists them.
BONUSES: tuple[str, ...] = ("scua", "picada", "simili", "quadriglia")
_SCUA, _PICADA, _SIMILI, _QUADRIGLIA = range(4)


@dataclass(kw_only=True)
class CiceraState(CaptureState):
    #: bonus counts per team, indexed like BONUSES
    bonuses: list[list[int]]
    #: The card the immediately preceding play placed on the table (None after a capture and
    #: at the start of the deal): the only card a picada can take.
    last_placed: Card | None = None


@dataclass(frozen=True, kw_only=True)
class CiceraView(CaptureView):
    """What one seat may see (CaptureView: the other three hands unseen), and every bonus."""

    bonuses: tuple[tuple[int, ...], ...]
    last_placed: Card | None

    @property
    def team(self) -> int:
        return self.seat % 2


class CiceraRules(GameRules[CiceraState, CiceraView]):
    game_id = "cicera"
    scoring_schema = {
        "capture_values": "numeric_rank_table",
        "hand_size": "int",
        "table_size": "int",
        "most_cards": "int",
        "quadriglia_min": "int",
        "bonus_points": {"scua": "int", "picada": "int", "simili": "int", "quadriglia": "int"},
        "most_suit": {"suit": "suit", "points": "int"},
        "special_cards": "card_table",
        "napula": {"suit": "suit", "min_run": "int"},
    }
    family = "capture"
    decision_kinds = vocabulary.DECISIONS
    event_kinds = vocabulary.EVENTS
    has_stock = False
    table_capacity = 12
    may_place_instead = True
    counted_bonuses = frozenset({"scua", "picada", "simili", "quadriglia"})
    sweep_bonuses = frozenset({"scua"})
    hand_capacity = 12
    bonus_callouts = {"scua": "Scùa!", "picada": "Picada!", "simili": "Simili!", "quadriglia": "Quadriglia!"}
    result_lines = (
        *(
            {"label": f"results.cicera.{b}", "cells": b, "points": b}
            for b in ("scua", "picada", "simili", "quadriglia")
        ),
        {"label": "results.cicera.most_cards", "cells": "card_counts", "points": "cards"},
        {"label": "results.cicera.most_swords", "suit": "S", "cells": "sword_counts", "points": "swords"},
        {"label": "results.cicera.two_swords", "mark": "2S"},
        {"label": "results.cicera.ten_coins", "mark": "10D"},
        {"label": "results.cicera.knave_cups", "mark": "JC"},
        {
            "label": "results.cicera.napula",
            "suit": "S",
            "cells": "napula",
            "text": "results.cicera.run",
            "points": "napula",
        },
        {"label": "results.deal_points", "cells": "@points", "kind": "total"},
        {"label": "results.match_total_to", "cells": "@totals", "kind": "match"},
    )
    detail_is_free_form = True  # RECORD.md: the deal_end breakdown is the writer's

    def __init__(self, game, deck, players, options):
        super().__init__(game, deck, players, options)
        sc = self.scoring
        # Numerals only: courts have no value, so they never join a sum (capture.sums_by_value).
        self.values: dict[Card, int] = {
            c: sc["capture_values"][c.rank] for c in self.cards if c.rank in sc["capture_values"]
        }
        self.max_value: int = max(self.values.values())
        self.hand_size: int = sc["hand_size"]
        self.table_size: int = sc["table_size"]
        bp = sc["bonus_points"]
        self.bonus_points: tuple[int, ...] = tuple(int(bp[b]) for b in BONUSES)
        self.quadriglia_min: int = int(sc["quadriglia_min"])
        self.most_cards_points: int = int(sc["most_cards"])
        self.most_suit: str = sc["most_suit"]["suit"]
        self.most_suit_points: int = int(sc["most_suit"]["points"])
        self.special_cards: dict[Card, int] = {card(k): int(v) for k, v in sc["special_cards"].items()}
        nap = sc["napula"]
        # The napula run: the suit's numerals from A upwards (A, 2, … 10).
        self.napula_run: tuple[Card, ...] = tuple(
            sorted((c for c in self.values if c.suit == nap["suit"]), key=lambda c: self.values[c])
        )
        self.napula_min: int = int(nap["min_run"])
        self.format: str = str(self.options.get("format", "single"))
        self.target: int = int(self.options.get("target", 21))
        self.deck_cards: tuple[Card, ...] = tuple(self.cards)
        # Shared "place only" and single-match actions: the commonest actions, built once.
        self._place: dict[Card, Action] = {c: capture_play(c) for c in self.cards}
        self._match: dict[Card, dict[Card, Action]] = {
            c: {t: capture_play(c, (t,)) for t in self.cards if t.rank == c.rank and t is not c} for c in self.cards
        }
        # A numeral's value as a bit (1 << value), for the capture sums; 0 for a court.
        self._value_bit: dict[Card, int] = {c: 1 << v if (v := self.values.get(c, 0)) > 0 else 0 for c in self.cards}

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, order: list[Card], dealer: int, number: int) -> CiceraState:
        n, h = self.players, self.hand_size
        hands = [list(order[i * h : (i + 1) * h]) for i in range(n)]
        table = list(order[n * h : n * h + self.table_size])
        return CiceraState(
            players=n,
            dealer=dealer,
            number=number,
            hands=hands,
            table=table,
            piles=[[] for _ in range(self.teams)],
            bonuses=[[0] * len(BONUSES) for _ in range(self.teams)],
            to_act=(dealer + 1) % n,
        )

    @property
    def teams_rule(self) -> TeamsRule:
        """Two partnerships sitting opposite at four players."""
        return alternate_teams(self.players)

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> CiceraState:
        order = list(self.cards)
        rng.shuffle(order)
        state = self._deal_from(order, dealer, number)
        state.opening_events = [self.deal_event(state)]
        return state

    def state_from_deal(self, ev: Event) -> CiceraState:
        hands, table, stock = self.read_deal(ev, self.hand_size, self.table_size, 0)
        if ev.get("trump") is not None:
            raise RecordError("Cìcera has no trump: 'trump' must be null")
        dealer, number = ev.get("dealer"), ev.get("number")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.players:
            raise RecordError(f"dealer {dealer!r} is not a seat (0..{self.players - 1})")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise RecordError(f"deal number {number!r} is not a positive whole number")
        order = [c for h in hands for c in h] + table
        return self._deal_from(order, dealer, number)

    # ------------------------------------------------------------------ play
    def captures_for(self, c: Card, table: list[Card] | tuple[Card, ...]) -> list[tuple[Card, ...]]:
        """Every capture card ``c`` may make: same-rank matches, then (numerals only) sums."""
        out: list[tuple[Card, ...]] = [(t,) for t in table if t.rank == c.rank]
        v = self.values.get(c)
        if v is not None:
            out += sum_sets(table, self.values, v)
        return out

    def legal_actions(self, state: CiceraState) -> list[Action]:
        if state.over:
            return []
        table = state.table
        hand = state.hands[state.to_act]
        place = self._place
        if not table:
            return [place[c] for c in hand]
        # The table cards by rank (the same-rank matches), and the totals its numerals make: bit s
        # of r1, some set totals s; of r2, some set of two or more does. (A numeral's bit is
        # 1 << its value: shifting by the value is multiplying by the bit.)
        bit = self._value_bit
        by_rank: dict[str, list[Card]] = {}
        r1 = r2 = 0
        for t in table:
            rank = t.rank
            if rank in by_rank:
                by_rank[rank].append(t)
            else:
                by_rank[rank] = [t]
            b = bit[t]
            if b:
                y = r1 * b
                r2 |= y
                r1 |= y | b
        want = 0
        for c in hand:
            want |= bit[c]
        # The sums are searched only when a numeral in hand has one to take (about half the turns).
        hit = r2 & want
        partial = partial_sums(table, self.values, hit.bit_length() - 1) if hit else []
        match = self._match
        values = self.values
        out: list[Action] = []
        for c in hand:
            out.append(place[c])  # "place only" is always legal
            ts = by_rank.get(c.rank)
            if ts:
                mc = match[c]
                out += [mc[t] for t in ts]
            if hit & bit[c]:
                v = values[c]
                # A single numeral of the value is the same-rank match above, not a sum.
                out += [capture_play(c, cs) for s, cs in partial if s == v and len(cs) > 1]
        return out

    def explain_refusal(self, state: CiceraState, action: Action) -> IllegalAction:
        """Which rule a refused action breaks (diagnosis only: legality is ``legal_actions``)."""
        if state.over:
            return IllegalAction("deal_over", "the deal is over")
        if action.kind != "play" or self.foreign_args(action):
            return IllegalAction("not_in_game", f"Cìcera has no '{action.kind}' action: play a card")
        c = action.card
        if c not in state.hands[state.to_act]:
            return IllegalAction("not_in_hand", f"{c} is not in seat {state.to_act}'s hand", card=str(c))
        cap = captured(action)
        for t in cap:
            if t not in state.table:
                return IllegalAction("not_on_table", f"{t} is not on the table", card=str(t))
        if len(set(cap)) != len(cap):
            return IllegalAction("duplicate", "a card is captured twice")
        if not cap:
            return super().explain_refusal(state, action)  # place only: always allowed, even when a capture exists
        if len(cap) == 1:
            t = cap[0]
            if t.rank != c.rank:
                return IllegalAction(
                    "rank_match",
                    f"a single card is taken only by the same rank: {c} cannot take {t}",
                    card=c.code,
                    target=t.code,
                )
            return super().explain_refusal(state, action)
        if c not in self.values:
            return IllegalAction(
                "court_single_match", f"a court ({c}) takes only one court of the same rank, never a sum", card=c.code
            )
        courts = [t for t in cap if t not in self.values]
        if courts:
            return IllegalAction(
                "sum_no_courts", f"courts never take part in a sum: {courts[0]} has no value", card=courts[0].code
            )
        total = sum(self.values[t] for t in cap)
        v = self.values[c]
        if total != v:
            return IllegalAction("wrong_sum", f"the captured cards add up to {total}, not {v}", total=total, value=v)
        return super().explain_refusal(state, action)

    def capture_bonuses(
        self,
        c: Card,
        cap: tuple[Card, ...] | list[Card],
        table: tuple[Card, ...] | list[Card],
        last_placed: Card | None,
    ) -> list[str]:
        """The bonuses playing ``c`` to take ``cap`` scores, ``table`` being the table before the play.

        Shared by the heuristics and the referee's hints; ``apply`` inlines the same tests.
        """
        if not cap:
            return []
        out = []
        if len(cap) == len(table):
            out.append("scua")
        if len(cap) == 1 and cap[0] is last_placed and cap[0].rank == c.rank:
            out.append("picada")
        if all(t.suit == c.suit for t in cap):
            out.append("simili")
        if len(cap) >= self.quadriglia_min:
            out.append("quadriglia")
        return out

    def apply(self, state: CiceraState, action: Action, check: bool = True) -> list[Event]:
        if check:
            self.validate(state, action)
        seat = state.to_act
        c = action.card
        if c is None:  # Action.played, inlined: the playouts apply every move
            raise ValueError(f"the action {action.kind!r} plays no card")
        hands = state.hands
        hands[seat].remove(c)
        cap = captured(action)
        table = state.table
        bonuses: list[str] = []
        if cap:
            team = seat % 2
            for t in cap:
                table.remove(t)
            pile = state.piles[team]
            pile.append(c)
            pile.extend(cap)
            state.last_capture_team = team
            counts = state.bonuses[team]
            if not table:
                counts[_SCUA] += 1
                bonuses.append("scua")
            # Picada: exactly the card the previous seat placed with the play just before, by rank.
            if len(cap) == 1 and cap[0] is state.last_placed and cap[0].rank == c.rank:
                counts[_PICADA] += 1
                bonuses.append("picada")
            suit = c.suit
            for t in cap:
                if t.suit != suit:
                    break
            else:
                counts[_SIMILI] += 1
                bonuses.append("simili")
            if len(cap) >= self.quadriglia_min:
                counts[_QUADRIGLIA] += 1
                bonuses.append("quadriglia")
            state.last_placed = None
        else:
            table.append(c)
            state.last_placed = c
        state.history.append((seat, c, cap))
        event: Event = {
            "event": "play",
            "seat": seat,
            "card": c.code,
            "capture": [t.code for t in cap],
            "bonuses": bonuses,
        }
        # No stock: the deal ends when the last hand is empty (the dealer plays last).
        if not any(hands):
            state.over = True
        else:
            state.to_act = (seat + 1) % state.players
        return [event]

    # ------------------------------------------------------------------ scoring
    def napula_length(self, pile: list[Card] | set[Card]) -> int:
        """Length of the unbroken run of the napula suit's numerals from A upwards in ``pile``."""
        n = 0
        for c in self.napula_run:
            if c not in pile:
                break
            n += 1
        return n

    def deal_result(self, state: CiceraState) -> DealResult:
        teams = self.teams
        rows = {name: [0] * teams for name in BONUSES}
        points = [0] * teams
        detail: dict[str, Any] = {}
        if state.last_capture_team is None:
            # Nobody captured: the cards stay unclaimed and the deal is a draw with no points.
            detail.update(rows)
            detail["bonuses"] = [0] * teams
            detail["cards"] = [0] * teams
            detail["swords"] = [0] * teams
            for sc in self.special_cards:
                detail[sc.code] = [0] * teams
            detail["napula"] = [0] * teams
            detail["card_counts"] = [0] * teams
            detail["sword_counts"] = [0] * teams
            detail["napula_runs"] = [0] * teams
            detail["no_capture"] = True
            return DealResult(points=points, leftover=None, detail=detail)
        piles = [list(p) for p in state.piles]
        leftover = None
        if state.table:
            # Leftovers join the last capturer's pile: they count for the awards, earn no bonus.
            leftover = {"team": state.last_capture_team, "cards": codes(state.table)}
            piles[state.last_capture_team].extend(state.table)
        bonus_tot = [0] * teams
        for t in range(teams):
            for i, name in enumerate(BONUSES):
                p = state.bonuses[t][i] * self.bonus_points[i]
                rows[name][t] = p
                bonus_tot[t] += p
        detail.update(rows)
        detail["bonuses"] = bonus_tot
        card_counts = [len(p) for p in piles]
        suit_counts = [sum(1 for c in p if c.suit == self.most_suit) for p in piles]
        row = [0] * teams
        w = unique_max(card_counts)
        if w is not None:
            row[w] = self.most_cards_points
        detail["cards"] = row
        row = [0] * teams
        w = unique_max(suit_counts)
        if w is not None:
            row[w] = self.most_suit_points
        detail["swords"] = row
        pile_sets = [set(p) for p in piles]
        for sc, pts in self.special_cards.items():
            row = [0] * teams
            for t in range(teams):
                if sc in pile_sets[t]:
                    row[t] = pts
            detail[sc.code] = row
        runs = [self.napula_length(s) for s in pile_sets]
        detail["napula"] = [r if r >= self.napula_min else 0 for r in runs]
        detail["card_counts"] = card_counts
        detail["sword_counts"] = suit_counts
        detail["napula_runs"] = runs
        detail["no_capture"] = False
        award_keys = ["bonuses", "cards", "swords", *(sc.code for sc in self.special_cards), "napula"]
        for k in award_keys:
            for t in range(teams):
                points[t] += detail[k][t]
        return DealResult(points=points, leftover=leftover, detail=detail)

    def tally(self, piles: list[list[str]], bonuses: list[list[str]]) -> DealResult:
        """The awards as they stand (GameRules.tally): deal_result's own scoring of these
        piles and bonuses, as if the deal ended now with nothing left on the table."""
        won = [[card(c) for c in p] for p in piles]
        state = CiceraState(
            players=self.players,
            dealer=0,
            number=0,
            hands=[[] for _ in range(self.players)],
            table=[],
            piles=won,
            bonuses=[[bs.count(b) for b in BONUSES] for bs in bonuses],
            to_act=0,
            last_capture_team=0 if any(won) else None,
        )
        return self.deal_result(state)

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        if self.format == "single":
            w = unique_max(totals)
            if w is None:
                return True, None, f"a single deal, equal totals {totals}: a draw"
            return True, w, f"a single deal: team {w} has the higher total"
        return target_race(totals, self.target)

    # ------------------------------------------------------------------ views, copies, records
    def view(self, state: CiceraState, seat: int) -> CiceraView:
        return CiceraView(
            seat=seat,
            players=state.players,
            dealer=state.dealer,
            to_act=state.to_act,
            hand=tuple(state.hands[seat]),
            table=tuple(state.table),
            hand_counts=tuple(len(h) for h in state.hands),
            piles=tuple(tuple(p) for p in state.piles),
            bonuses=tuple(tuple(b) for b in state.bonuses),
            history=tuple(state.history),
            last_capture_team=state.last_capture_team,
            last_placed=state.last_placed,
            deck=self.deck_cards,
        )

    def clone(self, s: CiceraState) -> CiceraState:
        return CiceraState(
            players=s.players,
            dealer=s.dealer,
            number=s.number,
            hands=[list(h) for h in s.hands],
            table=list(s.table),
            piles=[list(p) for p in s.piles],
            bonuses=[list(b) for b in s.bonuses],
            to_act=s.to_act,
            last_capture_team=s.last_capture_team,
            last_placed=s.last_placed,
            over=s.over,
            history=list(s.history),
        )

    def action_from_record(self, events: EventLines, i: int) -> Action:
        return play_from_record(events[i], "Cìcera")

    def explain_mismatch(self, before: CiceraState, expected: Event, recorded: Event) -> str | None:
        if expected.get("event") != "play":
            return None
        exp = expected.get("bonuses") or []
        rec = recorded.get("bonuses")
        if not isinstance(rec, list):
            return "'bonuses' must be a list"
        extra = [b for b in rec if b not in exp]
        missing = [b for b in exp if b not in rec]
        why = {
            "scua": "a scùa needs a capture that clears the table",
            "picada": "a picada takes, alone and by rank, exactly the card the previous seat placed with the play just before",
            "simili": "simili needs the played card and every captured card in one suit",
            "quadriglia": f"a quadriglia needs at least {self.quadriglia_min} captured table cards",
        }
        if extra:
            b = extra[0]
            return why.get(b, f"{b!r} is not a Cìcera bonus (bonuses: {', '.join(BONUSES)})")
        if missing:
            return f"this capture scores {missing[0]}: {why[missing[0]]}"
        if rec != exp:
            return f"bonuses are listed in the order {', '.join(BONUSES)}"
        return None
