"""What every game module offers, and the values they share.

A game state is plain mutable data owned by its module. The module's rules object offers
``new_deal``, ``legal_actions``, ``apply`` (→ the record's events), ``deal_result`` and
``view``; the match driver, the verifier, the bots and the table scene use nothing else.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from game.cards import Card, card, codes
from game.rules import common
from game.rules.action import Action
from game.rules.vocabulary import DecisionKind, EventKind, TeamsRule, Vocabulary

if TYPE_CHECKING:  # the types only: they import no registry, so no circle even here
    from game.config_types import DeckConfig, GameConfig

Event = dict[str, Any]


class EventLines(Protocol):
    """Record lines by index, as ``action_from_record`` reads them: a list, or the verifier's
    window that reads the next line only when asked (game.verify)."""

    def __getitem__(self, i: int, /) -> Event: ...

    def __len__(self) -> int: ...


def play(c: Card | str, capture: Iterable[Card | str] = (), **args: object) -> Action:
    """Convenience constructor: ``play("7D", ["3C", "4S"])``; a game's other payload values by
    name (``play("KS", marriage=True)``)."""
    c = c if isinstance(c, Card) else card(c)
    cap = tuple(sorted(x if isinstance(x, Card) else card(x) for x in capture))
    return Action.make(PLAY_KIND, c, capture=cap, **args)


#: The decision every game has: play a card from the hand.
PLAY_KIND = common.PLAY.name


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


class DealState(Protocol):
    """What every game's state holds, whatever else it keeps: the shared code reads these."""

    number: int
    dealer: int
    hands: list[list[Card]]
    to_act: int
    over: bool
    #: The deal's first events (its ``deal`` line, and any redeal before it).
    opening_events: list[Event]


@dataclass(frozen=True)
class TableFact:
    """One fact the table keeps in sight for a viewer (``GameRules.table_facts``): a contract,
    a called card. ``label`` and ``value`` are locale keys, ``value`` formatted with ``params``
    (a ``card`` code, a ``rank``, a ``suit`` and a ``seat`` are named in the viewer's words);
    ``suit`` is shown as a chip beside it (a trump named by it). With ``seat`` set, the fact is
    about that seat and goes on its name plate (``label`` alone: "Caller", "Partner")."""

    label: str
    value: str = ""
    params: Mapping[str, object] = field(default_factory=dict)
    suit: str | None = None
    seat: int | None = None


#: A game's state (plain mutable data the rules change) and a seat's view of it (what the seat
#: may know); each rules class names its own: ``class BriscolaRules(TrickRules[BriscolaState, BriscolaView])``.
S = TypeVar("S", bound=DealState)
V = TypeVar("V")


def alternate_teams(players: int, teams: int = 2) -> TeamsRule:
    """Fixed partnerships of seats sitting alternately round the table (opposite each other
    at four: seats 0 and 2 against 1 and 3), the teams keeping the score."""
    return TeamsRule("fixed", tuple(tuple(range(t, players, teams)) for t in range(teams)), "team")


class GameRules(ABC, Generic[S, V]):
    """Base for the game modules. Subclasses set ``game_id``, declare their facts and implement the hooks.

    The facts below are what the rest of the program asks about a game (records, verify, the
    table and its layout, results, rules pages, audio, the AI levels): they read these and
    never compare game ids.
    """

    game_id: ClassVar[str] = ""
    #: "capture" (cards are taken from the table: Scopa, Cìcera) or "trick" (Briscola, Schnapsen).
    family: ClassVar[str] = ""
    #: The decisions a seat may take (game.rules.vocabulary.DecisionKind), "play" always:
    #: each game declares its own in game/games/<id>/vocabulary.py.
    decision_kinds: ClassVar[tuple[DecisionKind, ...]] = (common.PLAY,)
    #: The record events this game writes (game.rules.vocabulary.EventKind): the shared ones
    #: (game.rules.common.EVENTS, a mechanism's) and the game's own.
    event_kinds: ClassVar[tuple[EventKind, ...]] = common.EVENTS
    #: Derived from the declarations for each class (``__init_subclass__``): the declared
    #: vocabulary, the decisions' names (and their toggles'), and the record events this
    #: game writes beyond the shared ones.
    vocabulary: ClassVar[Vocabulary] = Vocabulary((common.PLAY,), common.EVENTS)
    decisions: ClassVar[tuple[str, ...]] = (common.PLAY.name,)
    record_events: ClassVar[tuple[str, ...]] = ()
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
    #: The game's own lines of a deal result's breakdown (``detail``) and the puzzle theme
    #: each stands for (game.puzzles.themes), beside the shared ones.
    detail_themes: ClassVar[Mapping[str, str]] = {}
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
    #: The line the rules write before the same dealer deals again (``needs_redeal``: Scopa's
    #: three Kings), None where a deal is never void; and why such a line is refused where
    #: the deal is not void.
    redeal_line: ClassVar[Event | None] = None
    redeal_refused: ClassVar[str] = "this deal is not dealt again"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.vocabulary = Vocabulary(tuple(cls.decision_kinds), tuple(cls.event_kinds))
        cls.decisions = cls.vocabulary.decision_names
        cls.record_events = tuple(e.name for e in cls.event_kinds if e.name not in common.EVENT_NAMES)

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
    def teams_rule(self) -> TeamsRule:
        """Who plays with whom at this table. Each for himself unless the game declares
        otherwise (a game overrides it, per player count where its teams depend on it)."""
        return TeamsRule()

    @property
    def partnerships(self) -> bool:
        """Whether some seats play together (a seat's points count for its team)."""
        return self.teams_rule.kind != "seats"

    @property
    def teams(self) -> int:
        """How many score columns the match keeps (teams, or seats where each is for himself)."""
        return self.teams_rule.teams(self.players)

    def team_of(self, seat: int) -> int:
        """The score column ``seat`` plays for."""
        return self.teams_rule.team_of(seat)

    def partners_of(self, seat: int) -> tuple[int, ...]:
        """The seats playing with ``seat`` (itself excluded), as far as the rule fixes them."""
        return self.teams_rule.partners_of(seat)

    def seen_team_of(self, view: V, seat: int) -> int | None:
        """``seat``'s team as the viewer of ``view`` knows it: None while it is hidden from
        the viewer (a partner not yet revealed). A game with hidden teams keeps them in its
        state and says in its view what the viewer knows (``view.team_of(seat)``)."""
        if self.teams_rule.kind != "hidden":
            return self.team_of(seat)
        known = getattr(view, "team_of", None)
        return known(seat) if callable(known) else None

    def seen_teams(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> tuple[int | None, ...]:
        """Each seat's team as ``viewer`` (None: a spectator) knows it from the lines of this
        deal it has seen, its ``deal`` line first (the table follows the record, not the
        state): the teams rule's where it is not hidden; a game with hidden teams works out
        from the lines what ``seen_team_of`` would answer (None where still unknown)."""
        if self.teams_rule.kind != "hidden":
            return tuple(self.team_of(s) for s in range(self.players))
        return (None,) * self.players

    def table_facts(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> tuple[TableFact, ...]:
        """What the table keeps in sight for ``viewer`` from the lines of this deal it has
        seen (a contract, a called card and its trump, who is whose partner): none by default."""
        return ()

    def decisions_ahead(self, deal: Sequence[Mapping[str, object]], viewer: int | None) -> frozenset[str] | None:
        """The decisions (by name) that may still come in this deal as ``viewer`` has seen its
        lines: the table keeps only their buttons in sight (an auction's bids and passes go
        once the play has begun). None, the default: every declared decision stays."""
        return None

    # ---- deal
    def first_dealer(self, rng: random.Random) -> int:
        return rng.randrange(self.players)

    def next_dealer(self, dealer: int) -> int:
        return (dealer + 1) % self.players

    @abstractmethod
    def new_deal(self, rng: random.Random, dealer: int, number: int = 1) -> S:
        """Shuffle and deal. The returned state's ``opening_events`` are the deal's first events."""

    @abstractmethod
    def state_from_deal(self, event: Event) -> S:
        """Rebuild the state from a record's ``deal`` event; raise RecordError if it is not a valid deal."""

    def turned_card(self, state: S) -> Card | None:
        """The face-up card under the stock (Briscola's trump, Schnapsen's indicator), else None."""
        return None

    def deal_event(self, state: S) -> Event:
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

    def needs_redeal(self, state: S) -> bool:
        return False

    # ---- play
    def to_act(self, state: S) -> int:
        return state.to_act

    @abstractmethod
    def legal_actions(self, state: S) -> list[Action]:
        """Every action the seat to act may take now, in a stable order."""

    def validate(self, state: S, action: Action) -> None:
        """Raise IllegalAction naming the rule if ``action`` is not legal now.

        Legality has one source, ``legal_actions``; the rule a refused action breaks is
        worked out only when refusing, by ``explain_refusal``."""
        if action not in self.legal_actions(state):
            raise self.explain_refusal(state, action)

    def explain_refusal(self, state: S, action: Action) -> IllegalAction:
        """The rule that ``action`` (not among ``legal_actions``) breaks, as an IllegalAction.
        Only diagnosis: it never decides legality. Games override it to name their rules."""
        if self.is_over(state):
            return IllegalAction("deal_over", "the deal is over")
        kind = self.vocabulary.decision(action.kind)
        if kind is None or any(kind.field(name) is None for name, _ in action.args):
            name = self.game.name.get("en", self.game_id)
            return IllegalAction("not_in_game", f"{name} has no '{action.kind}' action: play a card")
        return IllegalAction("illegal", f"{action} is not a legal action now")

    def foreign_args(self, action: Action) -> tuple[str, ...]:
        """The payload values ``action`` holds that its decision kind does not declare here
        (every one, for a kind this game does not declare)."""
        kind = self.vocabulary.decision(action.kind)
        return tuple(n for n, _ in action.args if kind is None or kind.field(n) is None)

    @abstractmethod
    def apply(self, state: S, action: Action, check: bool = True) -> list[Event]:
        """Play ``action`` (checked first unless ``check`` is False) and return the record's
        events it produces, the decision's own line first."""

    def is_over(self, state: S) -> bool:
        return state.over

    @abstractmethod
    def deal_result(self, state: S) -> DealResult:
        """The scored deal, once ``is_over``."""

    @abstractmethod
    def view(self, state: S, seat: int) -> V:
        """What ``seat`` may know of the state (its hand, the table, what was played)."""

    def points_text(self, points: int) -> str:
        """Trick points as a player reads them ("11"; Tressette counts thirds: "1 ⅔")."""
        return str(points)

    def tally(self, piles: list[list[str]], bonuses: list[list[str]]) -> DealResult | None:
        """The deal's awards as they stand (the table's "running tally", a learning aid): what
        ``deal_result`` would give if the deal ended with these piles (card codes won per team)
        and these bonuses (the names each team scored in play). None: the game has no such
        awards (trick games count their points as they go)."""
        return None

    @abstractmethod
    def clone(self, state: S) -> S:
        """A copy of ``state`` that the rules may change without touching the original."""

    def action_from_record(self, events: EventLines, i: int) -> Action:
        """The decision that record line ``events[i]`` (and, where a declaration is written as a
        line before its play, the next) shows: here a card played, the one decision every game
        has; a game with others (or a payload: a capture's cards, game.rules.capture) reads them."""
        ev = events[i]
        if ev.get("event") != PLAY_KIND:
            raise RecordError(f"a '{ev.get('event')}' event is not a decision in {self.game_id}")
        return play(ev["card"])

    def explain_mismatch(self, state_before: S, expected: Event, recorded: Event) -> str | None:
        """A rule-naming hint when a recorded consequence differs from the rules (optional)."""
        return None

    def accept_variant(self, state: S, expected: Event, recorded: Event) -> str | None:
        """Judge the record's form of an event in ``record_variants``: None (the state then
        adopts it) or what is wrong with it. A game with such events defines it."""
        raise NotImplementedError(f"{self.game_id} has no record variants")

    # ---- match
    def initial_totals(self) -> list[int]:
        return [0] * self.teams

    def add_deal(self, totals: list[int], result: DealResult) -> list[int]:
        return [t + p for t, p in zip(totals, result.points)]

    @abstractmethod
    def match_status(self, totals: list[int], deals_played: int) -> tuple[bool, int | None, str]:
        """(over, winner team or None for a draw, reason). Subclasses decide."""


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
