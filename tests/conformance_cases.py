"""What the conformance suite (tests/game/test_conformance.py) runs over, and its instruments.

Nothing here names a game: the cases come from the registry (``game.rulesets.game_ids()``) and
rules.yaml (player counts, option specs, the decks offering each game), so a newly
registered game is checked by every test of the suite without a line added. The template
game (tests/template_game, registered only while one of its cases runs: :func:`installed`)
is one more case.

- :func:`cases` — every game × every player count × a spread of option combinations (each
  value of each option at least once), with the game's decks in turn.
- :class:`Ledger` — where every card is, worked out from the record events alone (the
  deal line and every play, capture, trick, draw, new hand, exchange and leftover), and
  what each seat may have seen. The rules offer no "all cards where they are" method; the
  events are the game's public account of its moves, so the suite holds the state to them.
- :func:`cards_in` — every Card object reachable in a value (dataclasses, tuples, lists,
  sets, dicts), by top-level field.
- :func:`random_deal` — a seeded random legal walk through one deal, feeding a Ledger.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from game.cards import Card, card
from game.config import get_config
from game.rules.base import Event, GameRules
from game.rulesets import game_ids, make_rules
from tests import template_game

#: Above this many option combinations a game is covered by a rotating spread instead.
FULL_PRODUCT_LIMIT = 4
#: Decks per game at least (when the game has that many).
MIN_DECKS = 2


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    deck: str
    options: tuple[tuple[str, Any], ...]
    index: int  # the case's place in the suite: seeds derive from it, stable across runs

    @property
    def id(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game}-{self.players}p-{self.deck}" + (f"-{opts}" if opts else "")

    def rules(self) -> GameRules:
        return make_rules(self.game, self.deck, self.players, dict(self.options))

    def seeds(self, n: int) -> list[int]:
        return [1000 * self.index + k for k in range(n)]


def offered(spec: Any, players: int) -> bool:
    """Whether an option is offered for this player count (elsewhere it keeps its default)."""
    return spec.offered_for(players)


def option_spread(game: Any, players: int) -> list[dict[str, Any]]:
    """Option combinations for ``players`` in which every allowed value of every option
    offered for that count appears: all valid combinations when there are few, else a
    greedy cover (each next combination the one with the most values not yet covered).
    Only combinations the config accepts (player counts, combination rules) are used."""
    specs = game.options
    names = [n for n in specs if offered(specs[n], players)]
    values = [list(specs[n].allowed) for n in names]

    def valid(opts: dict[str, Any]) -> bool:
        try:
            game.resolve_options(opts, players)
        except ValueError:
            return False
        return True

    combos = [dict(zip(names, c)) for c in itertools.product(*values)]
    combos = [c for c in combos if valid(c)]
    if len(combos) <= FULL_PRODUCT_LIMIT:
        return combos
    wanted = {(n, _key(v)) for c in combos for n, v in c.items()}
    out: list[dict[str, Any]] = []
    while wanted:
        best = max(combos, key=lambda c: len(wanted & {(n, _key(v)) for n, v in c.items()}))
        out.append(best)
        wanted -= {(n, _key(v)) for n, v in best.items()}
    return out


def _key(value: Any) -> tuple[str, Any]:
    # True and 1 are different option values: keep them apart in sets.
    return (type(value).__name__, value)


def installed(game: str) -> AbstractContextManager[None]:
    """The game registered for the ``with`` block where it is the template (the registered
    games need nothing)."""
    return template_game.installed() if game == template_game.ID else nullcontext()


def all_game_ids() -> tuple[str, ...]:
    """The registered games and the template."""
    return (*game_ids(), template_game.ID)


def cases() -> list[Case]:
    with template_game.installed():
        return _cases()


def _cases() -> list[Case]:
    config = get_config()
    out: list[Case] = []
    for gid in game_ids():
        game = config.game(gid)
        decks = [d.id for d in config.decks_for(gid)]
        combos = [(p, opts) for p in game.players for opts in option_spread(game, p)]
        # A few decks per game: repeat the combinations when there are fewer than decks wanted.
        want = max(len(combos), min(MIN_DECKS, len(decks)))
        for k in range(want):
            players, opts = combos[k % len(combos)]
            out.append(Case(gid, players, decks[k % len(decks)], tuple(sorted(opts.items())), len(out)))
    return out


# --------------------------------------------------------------------------- cards in values


def cards_in(value: Any) -> list[Card]:
    """Every Card reachable in ``value`` (with repeats), walking dataclass fields, objects'
    attributes, tuples, lists, sets and dict keys and values."""
    out: list[Card] = []
    _walk(value, out, set())
    return out


def cards_by_field(obj: Any) -> dict[str, list[Card]]:
    """The Cards under each top-level field of a dataclass instance."""
    return {f.name: cards_in(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


_SEQUENCES = (list, tuple, set, frozenset)


def _walk(value: Any, out: list[Card], seen: set[int]) -> None:
    if isinstance(value, Card):
        out.append(value)
        return
    if value is None or isinstance(value, (str, bytes, int, float, bool)):
        return
    if id(value) in seen:
        return
    seen.add(id(value))
    kind = type(value)
    if kind in _SEQUENCES:  # the common case first (the ABC check below is slow)
        for v in value:
            if type(v) is Card:
                out.append(v)
            else:
                _walk(v, out, seen)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _walk(k, out, seen)
            _walk(v, out, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _walk(v, out, seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name), out, seen)
    elif hasattr(value, "__dict__"):
        for v in vars(value).values():
            _walk(v, out, seen)


def sublocations(state: Any) -> dict[str, list[Card]]:
    """The places a state may keep cards in, by name: each top-level field, and each item of
    a field that is a list or tuple (``hands[2]``, ``piles[0]``), with the cards under it."""
    out: dict[str, list[Card]] = {}
    fields = [f.name for f in dataclasses.fields(state)] if dataclasses.is_dataclass(state) else list(vars(state))
    for name in fields:
        value = getattr(state, name)
        out[name] = cards_in(value)
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                out[f"{name}[{i}]"] = cards_in(item)
    return out


def containers_in(value: Any) -> list[Any]:
    """Every mutable container (list, dict, set) reachable in ``value``, innermost first."""
    out: list[Any] = []
    _containers(value, out, set())
    return out


def _containers(value: Any, out: list[Any], seen: set[int]) -> None:
    if value is None or isinstance(value, (str, bytes, int, float, bool, Card)) or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Mapping):
        for v in value.values():
            _containers(v, out, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _containers(v, out, seen)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            _containers(getattr(value, f.name), out, seen)
    elif hasattr(value, "__dict__"):
        for v in vars(value).values():
            _containers(v, out, seen)
    if isinstance(value, (list, dict, set)):
        out.append(value)


# --------------------------------------------------------------------------- the ledger


class LedgerError(AssertionError):
    """The events move a card from a place where, by the events so far, it is not."""


class Ledger:
    """Where every card of the deal is, by the record events alone.

    Places: each seat's hand, the table (capture games), the stock (top first), the trick in
    progress (trick games) and each team's pile. ``seen[seat]`` holds every card that seat
    has been shown this deal: its own hands and draws, and everything public (the table
    dealt, the turned card, every card played or captured, exchanges, a marriage's pair,
    the leftovers, and draws where the game shows them: ``rules.draws_public``). Other
    hands and the stock stay private.
    """

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.deck = Counter(rules.cards)
        self.hands: list[list[Card]] = [[] for _ in range(rules.players)]
        self.table: list[Card] = []
        self.stock: list[Card] = []
        self.trick: list[Card] = []
        self.piles: list[list[Card]] = [[] for _ in range(rules.teams)]
        self.public: set[Card] = set()
        self.private: list[set[Card]] = [set() for _ in range(rules.players)]
        #: Cards an announcement named (a call), known to all by name though not by place.
        self.named: set[Card] = set()
        self.dealt = False

    # ---- queries
    def places(self) -> dict[str, list[Card]]:
        out = {f"hand {s}": h for s, h in enumerate(self.hands)}
        out.update({"table": self.table, "stock": self.stock, "trick": self.trick})
        out.update({f"pile {t}": p for t, p in enumerate(self.piles)})
        return out

    def where(self, c: Card) -> str | None:
        for name, cs in self.places().items():
            if c in cs:
                return name
        return None

    def seen(self, seat: int) -> set[Card]:
        return self.public | self.private[seat]

    def check_conserved(self) -> None:
        """Every card of the game's deck is in exactly one place."""
        held = Counter(c for cs in self.places().values() for c in cs)
        if held != self.deck:
            twice = sorted(c.code for c, n in held.items() if n > 1)
            missing = sorted(c.code for c in self.deck if c not in held)
            foreign = sorted(c.code for c in held if c not in self.deck)
            raise LedgerError(f"cards not conserved: twice {twice}, missing {missing}, not in the deck {foreign}")

    # ---- events
    def feed(self, events: list[Event]) -> None:
        for ev in events:
            getattr(self, "_" + ev["event"], self._unknown)(ev)

    def _unknown(self, ev: Event) -> None:
        # An event of the game's own that names no card moves none (the template's knock),
        # and neither does an announcement (its table effect): a called card stays where it is.
        kind = self.rules.vocabulary.event(ev["event"])
        if kind is None:
            raise LedgerError(f"event {ev['event']!r} is not in the record format")
        if kind.effect == "announce":
            # Its cards' names are public, not their places (a view may show the called card).
            self.named.update(card(ev[f.name]) for f in kind.fields if f.type == "card" and ev.get(f.name))
            return
        if any(f.type in ("card", "cards", "hands") for f in kind.fields):
            raise LedgerError(f"event {ev['event']!r} moves cards the ledger does not follow")

    def _take(self, place: list[Card], c: Card, what: str) -> None:
        if c not in place:
            raise LedgerError(f"{what}: {c} is not there (it is in {self.where(c) or 'no place'})")
        place.remove(c)

    def _match(self, ev: Event) -> None:
        pass

    def _deal(self, ev: Event) -> None:
        r = self.rules
        self.hands = [[card(x) for x in h] for h in ev["hands"]]
        self.table = [card(x) for x in ev["table"]]
        self.stock = [card(x) for x in ev["stock"]]
        self.trick = []
        self.piles = [[] for _ in range(r.teams)]
        self.public = set(self.table)
        self.named = set()
        if ev.get("trump") is not None:
            self.public.add(card(ev["trump"]))
        self.private = [set(h) for h in self.hands]
        self.dealt = True
        self.check_conserved()

    def _redeal(self, ev: Event) -> None:
        pass  # the next deal line replaces everything

    def _hands(self, ev: Event) -> None:
        new = [[card(x) for x in h] for h in ev["hands"]]
        got = [c for h in new for c in h]
        for s, h in enumerate(self.hands):
            if h:
                raise LedgerError(f"new hands dealt while seat {s} still holds {h}")
        top = self.stock[: len(got)]
        if sorted(top) != sorted(got):
            raise LedgerError(f"new hands {got} are not the top {len(got)} cards of the stock {top}")
        del self.stock[: len(got)]
        self.hands = new
        for s, h in enumerate(new):
            self.private[s].update(h)

    def _play(self, ev: Event) -> None:
        r = self.rules
        s = ev["seat"]
        c = card(ev["card"])
        self._take(self.hands[s], c, f"seat {s} plays {c}")
        self.public.add(c)
        cap = [card(x) for x in ev.get("capture") or ()]
        if r.is_capture_game:
            if cap:
                for t in cap:
                    self._take(self.table, t, f"seat {s} captures {t} with {c}")
                self.piles[r.team_of(s)] += [c, *cap]
            else:
                self.table.append(c)
        else:
            if cap:
                raise LedgerError(f"a trick game's play captures {cap}")
            self.trick.append(c)

    def _trick(self, ev: Event) -> None:
        cards = [card(x) for x in ev["cards"]]
        if cards != self.trick:
            raise LedgerError(f"the trick {cards} is not the cards played to it {self.trick}")
        self.piles[self.rules.team_of(ev["winner"])] += cards
        self.trick = []

    def _draw(self, ev: Event) -> None:
        s, c = ev["seat"], card(ev["card"])
        if not self.stock or self.stock[0] is not c:
            raise LedgerError(f"seat {s} draws {c}, but the top of the stock is {self.stock[:1]}")
        del self.stock[0]
        self.hands[s].append(c)
        # Drawn cards are the drawer's secret, unless the game shows every draw.
        (self.public if self.rules.draws_public else self.private[s]).add(c)

    def _exchange(self, ev: Event) -> None:
        s, gave, took = ev["seat"], card(ev["gave"]), card(ev["took"])
        if not self.stock or self.stock[-1] is not took:
            raise LedgerError(f"seat {s} takes {took} in an exchange, but the stock's last card is {self.stock[-1:]}")
        self._take(self.hands[s], gave, f"seat {s} gives {gave} in an exchange")
        self.stock[-1] = gave
        self.hands[s].append(took)
        self.public.update((gave, took))

    def _marriage(self, ev: Event) -> None:
        # The declarer shows the King and Queen of the suit (record format: RECORD.md).
        pair = {card("K" + ev["suit"]), card("Q" + ev["suit"])}
        s = ev["seat"]
        for c in pair:
            if c not in self.hands[s]:
                raise LedgerError(f"seat {s} declares a marriage in {ev['suit']} without {c}")
        self.public.update(pair)

    def _close(self, ev: Event) -> None:
        pass

    def _deal_end(self, ev: Event) -> None:
        self.leftover(ev.get("leftover"))

    def _match_end(self, ev: Event) -> None:
        pass

    def leftover(self, leftover: dict | None) -> None:
        """The cards left on the table go to the named team (a deal_end's ``leftover``)."""
        if not leftover:
            return
        for x in leftover["cards"]:
            self._take(self.table, card(x), f"leftover {x} to team {leftover['team']}")
            self.piles[leftover["team"]].append(card(x))
            self.public.add(card(x))


# --------------------------------------------------------------------------- random play


@dataclass
class Step:
    """A position of a random deal: the state, the ledger matching it, the step number."""

    state: Any
    ledger: Ledger
    number: int


def random_deal(rules: GameRules, seed: int) -> Iterator[Step]:
    """Deal with ``seed`` and play random legal actions to the end of the deal, yielding
    every position (the opening one and the one after each apply, the finished one last),
    with the ledger following the events (a deal_end's leftovers are not applied: they are
    the scoring's, the state keeps them on the table)."""
    rng = random.Random(seed)
    dealer = rules.first_dealer(rng)
    state = rules.new_deal(rng, dealer, 1)
    ledger = Ledger(rules)
    ledger.feed(state.opening_events)
    n = 0
    yield Step(state, ledger, n)
    while not rules.is_over(state):
        legal = rules.legal_actions(state)
        assert legal, f"no legal action in an unfinished deal (step {n})"
        action = rng.choice(legal)
        events = rules.apply(state, action)
        ledger.feed(events)
        n += 1
        yield Step(state, ledger, n)


def pick(seq: list, k: int, rng: random.Random) -> list:
    """At most ``k`` items of ``seq``, chosen at random (all of them when there are few)."""
    return list(seq) if len(seq) <= k else rng.sample(list(seq), k)
