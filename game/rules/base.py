"""What every game module offers, and the values they share.

A game state is plain mutable data owned by its module. The module's rules object offers
``new_deal``, ``legal_actions``, ``apply`` (→ the record's events), ``deal_result`` and
``view``; the match driver, the verifier, the bots and the table scene use nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from game.cards import Card, card, codes

if TYPE_CHECKING:  # the types only: they import no registry, so no circle even here
    from game.config_types import DeckConfig, GameConfig

Event = dict[str, Any]


class EventLines(Protocol):
    """Record lines by index, as ``action_from_record`` reads them: a list, or the verifier's
    window that reads the next line only when asked (game.verify)."""

    def __getitem__(self, i: int, /) -> Event: ...

    def __len__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of the seat to act.

    kind: "play" (play ``card``, capturing ``capture`` in capture games; ``marriage`` True
    when a Schnapsen K/Q lead declares its marriage), "close" or "exchange" (Schnapsen).
    ``capture`` is sorted by card index so equal actions compare equal.
    """

    kind: str
    card: Card | None = None
    capture: tuple[Card, ...] = ()
    marriage: bool = False

    @property
    def played(self) -> Card:
        """``card``, for an action that plays one; a ValueError (as ``hand.remove(None)`` raised
        before) for one that plays none."""
        c = self.card
        if c is None:
            raise ValueError(f"the action {self.kind!r} plays no card")
        return c

    def __str__(self) -> str:
        if self.kind != "play":
            return self.kind
        s = self.played.code
        if self.capture:
            s += " x " + "+".join(c.code for c in self.capture)
        if self.marriage:
            s += " (marriage)"
        return s


def play(c: Card | str, capture=(), marriage: bool = False) -> Action:
    """Convenience constructor: ``play("7D", ["3C", "4S"])``."""
    c = c if isinstance(c, Card) else card(c)
    cap = tuple(sorted(x if isinstance(x, Card) else card(x) for x in capture))
    return Action("play", c, cap, marriage)


CLOSE = Action("close")
EXCHANGE = Action("exchange")


class IllegalAction(ValueError):
    """An action the rules forbid. ``rule`` is a stable id for translation; ``params`` fill it."""

    def __init__(self, rule: str, message: str, **params: Any):
        self.rule = rule
        self.params = params
        super().__init__(message)


class RecordError(ValueError):
    """A record line that cannot be what the rules produce."""


@dataclass
class DealResult:
    """The scored deal. ``points[t]`` per team; ``leftover`` as in RECORD.md; ``detail`` free-form."""

    points: list[int]
    leftover: dict | None = None
    detail: dict = field(default_factory=dict)


class GameRules:
    """Base for the game modules. Subclasses set ``game_id``, declare their facts and implement the hooks.

    The facts below are what the rest of the program asks about a game (records, verify, the
    table and its layout, results, rules pages, audio, the AI levels): they read these and
    never compare game ids.
    """

    game_id: ClassVar[str] = ""
    #: "capture" (cards are taken from the table: Scopa, Cìcera) or "trick" (Briscola, Schnapsen).
    family: ClassVar[str] = "trick"
    #: Record events this game writes beyond match, deal, play, deal_end and match_end.
    record_events: ClassVar[tuple[str, ...]] = ()
    #: Decision kinds: "play" always; "close", "exchange" and "marriage" (a lead declaring one).
    decisions: ClassVar[tuple[str, ...]] = ("play",)
    #: Whether undealt cards wait in a stock (drawn after tricks, or dealt in later rounds).
    #: These two may depend on the player count: a game may set them per rules object.
    has_stock: bool = True
    #: Whether a card drawn from the stock is shown to every player (Tressette) rather than
    #: seen by its drawer only: what views, and a seat's knowledge, may hold.
    draws_public: bool = False
    #: Whether a card is turned face up under the stock and names the trump suit.
    has_trump: ClassVar[bool] = False
    #: The most cards the table (the middle of it) shows at once, for the layout.
    table_capacity: ClassVar[int] = 12
    #: Capture games: a capture may be declined ("place only") even when one is possible.
    may_place_instead: ClassVar[bool] = False
    #: Bonuses scored during play that the HUD counts per team (Scopa's scope, Cìcera's four).
    counted_bonuses: ClassVar[frozenset[str]] = frozenset()
    #: The bonuses that mean the table was swept clean (audio, banners).
    sweep_bonuses: ClassVar[frozenset[str]] = frozenset()
    #: True when a lower match total is better (the Schnapsen Bummerl counts down).
    totals_count_down: ClassVar[bool] = False
    #: What the HUD's score board shows per seat or team: "totals" (match points per team),
    #: "card_points" (card points of the deal per seat), "bummerl" (game points left per seat)
    #: or "thirds" (match points per team, beside them the deal's trick points in thirds: "4 ⅔").
    hud_scores: ClassVar[str] = "totals"
    #: The keys of the game's ``scoring:`` table in rules.yaml and their kinds ("int", "suit",
    #: "card", "rank_table", "numeric_rank_table", "card_table", "rank_order", or a nested
    #: mapping); ``game.config`` checks every game's table with one routine.
    scoring_schema: ClassVar[dict[str, Any]] = {}
    #: The most cards one hand holds at once (the table's layout is checked up to it).
    hand_capacity: ClassVar[int] = 12
    #: The call-out for a bonus scored during play, in the game's own words and the same in
    #: every language ("Scopa!"): bonus name (as in the ``play`` event) -> text.
    bonus_callouts: ClassVar[dict[str, str]] = {}
    #: The results screen's breakdown of a deal, one mapping per row, top to bottom:
    #:   "label"  locale key of the row's label (given the deck's suit and court names as
    #:            {D} {C} {S} {B} {J} {Q} {K}, the match goal as {target} and {count});
    #:   "suit"   a suit letter named in the label as {suit};
    #:   "cells"  what each team's cell shows: a ``deal_end.detail`` key holding one value per
    #:            team, "@points" (the deal's points) or "@totals" (the match totals; the row
    #:            is left out of a single deal); None shows "—", a missing key 0;
    #:   "text"   a locale key the value fills as {count} ("5 in a row"; 0 shows "—");
    #:   "points" a detail key (or "@points") whose value is drawn as a "+n" pill;
    #:   "mark"   a detail key: a ✓ (and the pill) where its value is not 0;
    #:   "kind"   "line" (default), "total", "match" or "bummerl" (drawn as tally strokes);
    #:   "none_note" a locale key added below the table when a cell's value is None;
    #:   "option" the row is shown only when that option (a house rule) is in force.
    #: Sentences about a deal (who won it and why) come from the game's part ``results`` (game/games/<id>/results.py).
    result_lines: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: ``deal_end.detail`` keys a record must hold (RECORD.md: Schnapsen's card_points, reason).
    required_detail: ClassVar[tuple[str, ...]] = ()
    #: True when RECORD.md leaves ``deal_end.detail`` to the writer (its keys and their meaning):
    #: a reader then compares the points, never the breakdown.
    detail_is_free_form: ClassVar[bool] = False
    #: Record events a writer may state in more than one way (a Scopa ``hands`` round split
    #: among the seats as it likes): the rules class's ``accept_variant(state, expected,
    #: recorded)`` judges the record's form and returns None (then it adopts it) or why not.
    record_variants: ClassVar[frozenset[str]] = frozenset()
    #: True when RULES.md moves the deal one seat each deal; False when it leaves each deal's
    #: first player to chance (Briscola): a reader then accepts any dealer, this program rotates.
    dealer_rotates: ClassVar[bool] = True

    def __init__(self, game: GameConfig, deck: DeckConfig, players: int, options: Mapping[str, Any]):
        if game.id not in deck.games:
            raise ValueError(f"the {deck.id} deck does not offer {game.id}")
        if players not in game.players:
            raise ValueError(f"{game.id} is played by {', '.join(map(str, game.players))} players, not {players}")
        self.game = game
        self.deck = deck
        self.players = players
        self.options = dict(options)
        self.scoring = game.scoring
        self.cards: list[Card] = deck.cards_for(game)

    # ---- facts that depend on the options
    @property
    def is_capture_game(self) -> bool:
        return self.family == "capture"

    def match_goal(self) -> tuple[str, int | None]:
        """How the match is won, for the HUD's caption: ("target", points), ("deals", deals to
        win), ("bummerl", game points to lose) or ("single", None) for one deal."""
        opts = self.options
        if opts.get("format") == "single":
            return ("single", None)
        if "deals_to_win" in opts:
            return ("deals", opts["deals_to_win"])
        if "bummerl" in opts:
            return ("bummerl", opts["bummerl"])
        return ("target", opts.get("target"))

    # ---- seats and teams
    @property
    def partnerships(self) -> bool:
        """Two teams of two partners sitting opposite (four players)."""
        return self.players == 4

    @property
    def teams(self) -> int:
        return 2 if self.players == 4 else self.players

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.players == 4 else seat

    # ---- deal
    def first_dealer(self, rng: random.Random) -> int:
        return rng.randrange(self.players)

    def next_dealer(self, dealer: int) -> int:
        return (dealer + 1) % self.players

    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> Any:
        """Shuffle and deal. The returned state's ``opening_events`` are the deal's first events."""
        raise NotImplementedError

    def state_from_deal(self, event: Event) -> Any:
        """Rebuild the state from a record's ``deal`` event; raise RecordError if it is not a valid deal."""
        raise NotImplementedError

    def turned_card(self, state: Any) -> Card | None:
        """The face-up card under the stock (Briscola's trump, Schnapsen's indicator), else None."""
        return None

    def deal_event(self, state: Any) -> Event:
        """The record's ``deal`` line for a freshly dealt state."""
        trump = self.turned_card(state)
        return {
            "event": "deal",
            "number": state.number,
            "dealer": state.dealer,
            "hands": [codes(h) for h in state.hands],
            "table": codes(getattr(state, "table", ())),
            "stock": codes(getattr(state, "stock", ())),
            "trump": trump.code if trump is not None else None,
        }

    def read_deal(
        self, ev: Event, hand_size: int, table_size: int, stock_size: int | None
    ) -> tuple[list[list[Card]], list[Card], list[Card]]:
        """The cards of a record's ``deal`` line, checked against this game's deal
        (hand, table and stock sizes, every card of the deck exactly once); RecordError if not."""
        name = self.game.name.get("en", self.game_id)
        try:
            hands = [[card(c) for c in h] for h in ev["hands"]]
            table = [card(c) for c in ev["table"]]
            stock = [card(c) for c in ev["stock"]]
        except (TypeError, ValueError) as e:
            raise RecordError(f"deal has a bad card list: {e}") from None
        if len(hands) != self.players:
            raise RecordError(f"deal has {len(hands)} hands for {self.players} players")
        for i, h in enumerate(hands):
            if len(h) != hand_size:
                raise RecordError(f"seat {i} is dealt {len(h)} cards, {name} deals {hand_size}")
        if len(table) != table_size:
            raise RecordError(
                f"{name} deals nothing to the table: 'table' must be []"
                if table_size == 0
                else f"the table is dealt {len(table)} cards, {name} deals {table_size}"
            )
        if stock_size is not None and len(stock) != stock_size:
            raise RecordError(
                f"{name} deals every card: the stock must be empty"
                if stock_size == 0
                else f"the stock holds {len(stock)} cards, {name} leaves {stock_size}"
            )
        check_permutation(hands, table, stock, self.cards)
        return hands, table, stock

    def needs_redeal(self, state: Any) -> bool:
        return False

    # ---- play
    def to_act(self, state: Any) -> int:
        return state.to_act

    def legal_actions(self, state: Any) -> list[Action]:
        raise NotImplementedError

    def validate(self, state: Any, action: Action) -> None:
        """Raise IllegalAction naming the rule if ``action`` is not legal now.

        Legality has one source, ``legal_actions``; the rule a refused action breaks is
        worked out only when refusing, by ``explain_refusal``."""
        if action not in self.legal_actions(state):
            raise self.explain_refusal(state, action)

    def explain_refusal(self, state: Any, action: Action) -> IllegalAction:
        """The rule that ``action`` (not among ``legal_actions``) breaks, as an IllegalAction.
        Only diagnosis: it never decides legality. Games override it to name their rules."""
        if self.is_over(state):
            return IllegalAction("deal_over", "the deal is over")
        if action.kind not in self.decisions or (action.marriage and "marriage" not in self.decisions):
            name = self.game.name.get("en", self.game_id)
            return IllegalAction("not_in_game", f"{name} has no '{action.kind}' action: play a card")
        return IllegalAction("illegal", f"{action} is not a legal action now")

    def apply(self, state: Any, action: Action, check: bool = True) -> list[Event]:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        return state.over

    def deal_result(self, state: Any) -> DealResult:
        raise NotImplementedError

    def view(self, state: Any, seat: int) -> Any:
        raise NotImplementedError

    def points_text(self, points: int) -> str:
        """Trick points as a player reads them ("11"; Tressette counts thirds: "1 ⅔")."""
        return str(points)

    def tally(self, piles: list[list[str]], bonuses: list[list[str]]) -> DealResult | None:
        """The deal's awards as they stand (the table's "running tally", a learning aid): what
        ``deal_result`` would give if the deal ended with these piles (card codes won per team)
        and these bonuses (the names each team scored in play). None: the game has no such
        awards (trick games count their points as they go)."""
        return None

    def clone(self, state: Any) -> Any:
        raise NotImplementedError

    def action_from_record(self, events: EventLines, i: int) -> Action:
        """The decision that record line ``events[i]`` (and, for Schnapsen marriages, the next) shows."""
        ev = events[i]
        if ev.get("event") != "play":
            raise RecordError(f"a '{ev.get('event')}' event is not a decision in {self.game_id}")
        return play(ev["card"], ev.get("capture") or ())

    def explain_mismatch(self, state_before: Any, expected: Event, recorded: Event) -> str | None:
        """A rule-naming hint when a recorded consequence differs from the rules (optional)."""
        return None

    def accept_variant(self, state: Any, expected: Event, recorded: Event) -> str | None:
        """Judge the record's form of an event in ``record_variants``: None (the state then
        adopts it) or what is wrong with it. A game with such events defines it."""
        raise NotImplementedError(f"{self.game_id} has no record variants")

    # ---- match
    def initial_totals(self) -> list[int]:
        return [0] * self.teams

    def add_deal(self, totals: list[int], result: DealResult) -> list[int]:
        return [t + p for t, p in zip(totals, result.points)]

    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        """(over, winner team or None for a draw, reason). Subclasses decide."""
        raise NotImplementedError


def unique_max(values: list[int], minimum: int | None = None) -> int | None:
    """Index of the unique highest value, or None on a tie (or when below ``minimum``)."""
    top = max(values)
    if minimum is not None and top < minimum:
        return None
    winners = [i for i, v in enumerate(values) if v == top]
    return winners[0] if len(winners) == 1 else None


def check_permutation(hands, table, stock, deck: list[Card]) -> None:
    dealt = [c for h in hands for c in h] + list(table) + list(stock)
    seen: set[Card] = set()
    for c in dealt:
        if c in seen:
            raise RecordError(f"{c} is dealt twice")
        seen.add(c)
    missing = set(deck) - seen
    extra = seen - set(deck)
    if extra:
        raise RecordError(f"{', '.join(sorted(codes(extra)))} not in this game's deck")
    if missing:
        raise RecordError(f"{', '.join(codes(sorted(missing)))} missing from the deal")
