"""A game's vocabulary: the decisions a seat may take, the events its record holds, and who
plays with whom. Each game declares its own (its rules class's ``decision_kinds``,
``event_kinds`` and ``teams_rule``); shared code iterates the declarations and never names a
game's decision, event or number of players.

The mechanisms below are the shared parts a declaration is made of:

- :class:`Field` — one typed value of a decision's payload or an event's line, with the check
  the record reader, ``verify --strict`` and the wire's strict schema apply to it;
- :class:`DecisionKind` — a decision: its payload, its codec for the wire, its key and button,
  whether it asks to be confirmed, and the coach's words for it;
- :class:`EventKind` — a record event: its fields, what each seat and a spectator may see of
  it (:data:`Audience`, given the viewer's :class:`Sight`; a :class:`Redactor` runs a whole
  stream through them), its narration, its sound and the table effect it has;
- :class:`TeamsRule` — who plays with whom: fixed partnerships, one per seat, or a partner
  hidden until an event reveals it.

The events every game writes and the ``play`` decision are declared once in
game.rules.common; a mechanism's own (a trick's ``trick`` and ``draw``, a capture's play) in
game.rules.trick and game.rules.capture; a game includes them in its
game/games/<id>/vocabulary.py and adds its own. tests/template_game shows the whole contract.

Pure Python: no pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from game.cards import Card, card
from game.rules.action import Action

#: The kinds of value a field may hold, as JSON carries them.
FieldType = Literal[
    "card",
    "cards",
    "bool",
    "int",
    "str",
    "seat",
    "int_list",
    "object",
    "any",
    "card_lists",
    "seed",
    "leftover",
    "str_list",
]

#: A JSON object: one record line or one message.
JsonObject = dict[str, object]


class VocabularyError(ValueError):
    """A value that is not what the declaration says (a record line's or a message's field)."""


@dataclass(frozen=True)
class Field:
    """One named value of a decision's payload or of an event line."""

    name: str
    type: FieldType
    #: May be left out (a decision's payload then holds ``default``).
    optional: bool = False
    default: object = None
    #: For "str": the values allowed (empty: any string up to ``max_len``).
    choices: tuple[str, ...] = ()
    #: For "int": the range allowed, both ends included.
    low: int | None = None
    high: int | None = None
    #: For "cards", "int_list" and "str": the longest allowed.
    max_len: int = 64
    #: ``null`` is allowed too (a deal's ``trump`` where the game turns none).
    nullable: bool = False
    #: For a decision's payload: the locale key of the decision's words when this value is
    #: given (a capture: "play the 7 and take …"), formatted as the decision's ``words``.
    words: str = ""
    #: For a decision's payload: the puzzle theme (game.puzzles.themes) of a move that gives
    #: this value as true (a declaration made with the play); "" for none.
    theme: str = ""

    def check(self, value: object, where: str) -> None:
        """Raise VocabularyError when ``value`` is not of this field's type (exact JSON types:
        ``true`` is no ``1``)."""
        ok: bool
        if value is None and self.nullable:
            return
        if self.type == "card":
            ok = isinstance(value, str) and _is_card(value)
        elif self.type == "cards":
            ok = (
                isinstance(value, list)
                and len(value) <= self.max_len
                and all(isinstance(c, str) and _is_card(c) for c in value)
            )
        elif self.type == "bool":
            ok = isinstance(value, bool)
        elif self.type in ("int", "seat"):
            ok = isinstance(value, int) and not isinstance(value, bool)
            if ok and isinstance(value, int):
                low = 0 if self.type == "seat" and self.low is None else self.low
                ok = (low is None or value >= low) and (self.high is None or value <= self.high)
        elif self.type == "int_list":
            ok = (
                isinstance(value, list)
                and len(value) <= self.max_len
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            )
        elif self.type == "str":
            ok = isinstance(value, str) and len(value) <= self.max_len and (not self.choices or value in self.choices)
        elif self.type == "object":
            ok = isinstance(value, dict)
        elif self.type == "str_list":
            ok = (
                isinstance(value, list)
                and len(value) <= self.max_len
                and all(isinstance(v, str) and len(v) <= 64 for v in value)
            )
        elif self.type == "card_lists":
            ok = isinstance(value, list) and all(
                isinstance(h, list) and all(isinstance(c, str) and _is_card(c) for c in h) for h in value
            )
        elif self.type == "seed":
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        elif self.type == "leftover":
            ok = value is None or (
                isinstance(value, dict)
                and isinstance(value.get("cards", []), list)
                and all(isinstance(c, str) for c in value.get("cards", []))
            )
        else:
            ok = True
        if not ok:
            raise VocabularyError(f"{where}: '{self.name}' must be {_describe(self)}")


def _is_card(code: str) -> bool:
    try:
        card(code)
    except (ValueError, KeyError):
        return False
    return True


def _describe(f: Field) -> str:
    if f.type == "str" and f.choices:
        return "one of " + ", ".join(f.choices)
    if f.type in ("int", "seat") and (f.low is not None or f.high is not None):
        return f"a whole number from {f.low if f.low is not None else 0} to {f.high}"
    return {
        "card": "a card code",
        "cards": "a list of card codes",
        "bool": "true or false",
        "int": "a whole number",
        "seat": "a seat number",
        "int_list": "a list of whole numbers",
        "str": "a text",
        "object": "an object",
        "any": "a value",
        "card_lists": "a list of lists of card codes",
        "str_list": "a list of texts",
        "seed": "a whole number from 0",
        "leftover": "null or an object with 'team' and 'cards'",
    }[f.type]


def check_fields(fields: Sequence[Field], obj: Mapping[str, object], where: str, *, closed: bool) -> None:
    """Check ``obj``'s declared fields (required present, each of its type); ``closed``: no
    other key allowed besides ``event``/``kind``."""
    names = {f.name for f in fields}
    for f in fields:
        if f.name not in obj:
            if not f.optional:
                raise VocabularyError(f"{where}: '{f.name}' is missing")
            continue
        f.check(obj[f.name], where)
    if closed:
        extra = sorted(k for k in obj if k not in names and k not in ("event", "kind"))
        if extra:
            raise VocabularyError(f"{where}: unknown field '{extra[0]}'")


@dataclass(frozen=True)
class DecisionKind:
    """A decision a seat may take. ``name`` is the record event and the wire's ``kind``."""

    name: str
    #: The decision plays a card from the hand (chosen by pointing at the card): ``card``.
    plays_card: bool = False
    #: The payload beyond the card, in this order (e.g. a capture's cards, a bid's points).
    fields: tuple[Field, ...] = ()
    #: The table's key for the decision (a letter, "" for none); its button's label and the
    #: words the coach and the suggestion use, as locale keys. ``words`` is formatted with
    #: ``card`` (the card's name) and the payload's fields.
    key: str = ""
    label: str = ""
    words: str = ""
    #: Asked twice at the table: it cannot be taken back (closing the stock).
    confirm: bool = False
    #: A payload field the table offers as a toggle on the played card's decision (a
    #: declaration made with the lead), rather than a decision of its own: its name.
    toggle: str = ""
    #: Record events that may open this decision in a record besides its own name (a
    #: declaration the record writes as a line before the play, e.g. a toggle's event).
    opens: tuple[str, ...] = ()
    #: Costs nothing and leaves the turn with the seat (the trump exchange): a suggestion
    #: takes it first whenever it is legal.
    prefer: bool = False
    #: The puzzle theme (game.puzzles.themes) of a move that takes this decision ("" for
    #: none: the position and the move's consequences name it).
    theme: str = ""

    @property
    def record_events(self) -> tuple[str, ...]:
        """The record events a line of this decision may start with."""
        return (self.name, *self.opens)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def themes(self) -> tuple[str, ...]:
        """The puzzle themes this decision declares: its own, then its payload's."""
        return tuple(t for t in (self.theme, *(f.theme for f in self.fields)) if t)

    def theme_of(self, action: Action) -> str | None:
        """The puzzle theme ``action`` (one of this decision) names by itself, or None."""
        if self.theme:
            return self.theme
        return next((f.theme for f in self.fields if f.theme and action.arg(f.name, False)), None)

    def to_wire(self, action: Action) -> JsonObject:
        """The action as the protocol sends it: ``{"kind": name, "card": …, <fields>}``."""
        out: JsonObject = {"kind": self.name}
        if self.plays_card:
            out["card"] = action.played.code
        for f in self.fields:
            value = action.arg(f.name, f.default)
            out[f.name] = _to_json(value, f)
        return out

    def from_wire(self, obj: Mapping[str, object], where: str = "action") -> Action:
        """The action a wire object states, checked against the declaration (strict: another
        kind and unknown fields refused); VocabularyError if not."""
        if obj.get("kind") != self.name:
            raise VocabularyError(f"{where}: 'kind' must be {self.name!r}")
        fields = ((Field("card", "card"),) if self.plays_card else ()) + self.fields
        check_fields(fields, obj, where, closed=True)
        played = card(str(obj["card"])) if self.plays_card else None
        args = {f.name: _from_json(obj.get(f.name, f.default), f) for f in self.fields}
        return Action.make(self.name, played, **args)


def _to_json(value: object, f: Field) -> object:
    if f.type == "card":
        return value.code if isinstance(value, Card) else value
    if f.type == "cards" and isinstance(value, (list, tuple)):
        return [c.code if isinstance(c, Card) else c for c in value]
    if f.type in ("cards", "int_list"):
        return list(value) if isinstance(value, (list, tuple)) else []
    return value


def _from_json(value: object, f: Field) -> object:
    if f.type == "card" and isinstance(value, str):
        return card(value)
    if f.type == "cards" and isinstance(value, list):
        return tuple(sorted(card(c) for c in value))
    if f.type == "int_list" and isinstance(value, list):
        return tuple(value)
    return value


@dataclass
class Sight:
    """What one viewer's stream of events has shown so far, and the game's facts its
    audiences need: ``seat`` None is a spectator. The audiences of the events update it as
    the stream goes (the face-up card under the stock, followed through deal and exchange)."""

    seat: int | None
    #: The game turns the stock's last card face up (it names the trump).
    has_trump: bool = False
    #: A card drawn from the stock is shown to every player.
    draws_public: bool = False
    #: The face-up card's code while it lies under the stock, else None.
    face_up: str | None = None


#: What one viewer may see of an event: the event itself, a copy with hidden parts replaced
#: by ``null``, or None when the viewer is told nothing. It may note in the :class:`Sight`
#: what the event made public.
Audience = Callable[[JsonObject, Sight], JsonObject | None]


def everyone(event: JsonObject, sight: Sight) -> JsonObject | None:
    """The audience of a public event: every seat and every spectator sees all of it."""
    return dict(event)


def own_hand_only(hands: object, seat: int | None) -> list[object]:
    """A list of hands as ``seat`` sees it: its own, the others as nulls of the same length."""
    out: list[object] = []
    for i, hand in enumerate(hands if isinstance(hands, list) else ()):
        cards = hand if isinstance(hand, list) else []
        out.append(list(cards) if i == seat else [None] * len(cards))
    return out


@dataclass(frozen=True)
class EventKind:
    """A record event. ``fields`` are checked by the record reader and ``verify --strict``."""

    name: str
    fields: tuple[Field, ...] = ()
    #: What each seat (and a spectator) may see of it.
    audience: Audience = everyone
    #: Locale key of its narration (formatted with the event's fields and ``name``, the
    #: acting seat's name), "" when the event is told by a table effect's own words or not at all.
    narration: str = ""
    #: The sound cue it plays ("" none).
    sound: str = ""
    #: The table effect (scenes.table's mechanisms: "deal", "play_card", "collect_trick",
    #: "draw", "swap_face_up", "announce", "reveal", "close_stock", "new_hands", "deal_end",
    #: "match_end", "" for none) the table model applies for it.
    effect: str = ""

    @property
    def required(self) -> tuple[str, ...]:
        """The fields every line of this event holds."""
        return tuple(f.name for f in self.fields if not f.optional)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


#: A seat's team, or None where the viewer does not know it yet.
TeamOf = Callable[[int], int | None]


@dataclass(frozen=True)
class TeamsRule:
    """Who plays with whom, as the game declares it.

    ``kind``: "seats" (each seat for itself), "fixed" (``partners`` lists the teams as tuples
    of seats), or "hidden" (the teams are part of the deal's state: known to a seat when its
    view says so, to everyone once revealed). ``scores``: "team" or "seat" (who a deal's
    points and a match's totals are kept for)."""

    kind: Literal["seats", "fixed", "hidden"] = "seats"
    partners: tuple[tuple[int, ...], ...] = ()
    scores: Literal["team", "seat"] = "seat"

    def teams(self, players: int) -> int:
        """How many score columns the game keeps."""
        return len(self.partners) if self.kind == "fixed" and self.scores == "team" else players

    def team_of(self, seat: int) -> int:
        """The score column of ``seat`` (its team for fixed partnerships, else its seat)."""
        if self.kind == "fixed":
            for t, seats in enumerate(self.partners):
                if seat in seats:
                    return t
        return seat

    def partners_of(self, seat: int) -> tuple[int, ...]:
        """The seats playing with ``seat`` (itself excluded) where the partnership is fixed."""
        if self.kind == "fixed":
            for seats in self.partners:
                if seat in seats:
                    return tuple(s for s in seats if s != seat)
        return ()


@dataclass(frozen=True)
class Vocabulary:
    """Everything a game declares about its shape, gathered for shared code."""

    decisions: tuple[DecisionKind, ...]
    events: tuple[EventKind, ...]
    extra: Mapping[str, object] = field(default_factory=dict)
    #: The declarations by name (the first of a name, as a scan in order finds it): every
    #: event a seat is sent and every act looks its kind up here.
    _decision_by_name: dict[str, DecisionKind] = field(init=False, repr=False, compare=False)
    _event_by_name: dict[str, EventKind] = field(init=False, repr=False, compare=False)
    #: The events every viewer sees whole (their audience is :func:`everyone`, which reads
    #: and changes no sight): a stream of only these is the same for every seat.
    public_events: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        decisions: dict[str, DecisionKind] = {}
        for d in self.decisions:
            decisions.setdefault(d.name, d)
        events: dict[str, EventKind] = {}
        for e in self.events:
            events.setdefault(e.name, e)
        object.__setattr__(self, "_decision_by_name", decisions)
        object.__setattr__(self, "_event_by_name", events)
        object.__setattr__(self, "public_events", frozenset(n for n, e in events.items() if e.audience is everyone))

    def decision(self, name: str) -> DecisionKind | None:
        return self._decision_by_name.get(name)

    def event(self, name: str) -> EventKind | None:
        return self._event_by_name.get(name)

    @property
    def decision_names(self) -> tuple[str, ...]:
        """The decisions' names, then their toggles' (what a seat may decide or declare)."""
        names = [d.name for d in self.decisions]
        names += [d.toggle for d in self.decisions if d.toggle and d.toggle not in names]
        return tuple(names)

    @property
    def decision_events(self) -> tuple[str, ...]:
        """The record events a decision's line may start with, in declaration order."""
        out: list[str] = []
        for d in self.decisions:
            out += [e for e in d.record_events if e not in out]
        return tuple(out)

    @property
    def event_names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.events)

    def action_from_wire(self, obj: Mapping[str, object], where: str = "action") -> Action:
        """The action a wire object names, by its declared kind; VocabularyError for a kind
        this game does not declare or a payload that is not the declared one."""
        kind = obj.get("kind")
        decision = self.decision(kind) if isinstance(kind, str) else None
        if decision is None:
            raise VocabularyError(f"{where}: 'kind' must be one of {', '.join(d.name for d in self.decisions)}")
        return decision.from_wire(obj, where)

    def redactor(self, seat: int | None, *, has_trump: bool = False, draws_public: bool = False) -> Redactor:
        """The events of a record as ``seat`` (None: a spectator) may see them, one by one."""
        return Redactor(self, Sight(seat, has_trump, draws_public))


class Redactor:
    """A viewer's stream: each event through its declared audience, in record order (the
    sight carries what earlier events made public). An undeclared event is shown as is."""

    def __init__(self, vocabulary: Vocabulary, sight: Sight):
        self.vocabulary = vocabulary
        self.sight = sight

    def one(self, event: JsonObject) -> JsonObject | None:
        name = event.get("event")
        kind = self.vocabulary.event(name) if isinstance(name, str) else None
        return kind.audience(event, self.sight) if kind is not None else dict(event)


def merge_events(*groups: Sequence[EventKind]) -> tuple[EventKind, ...]:
    """Event declarations joined in order, a later one of the same name replacing an
    earlier one in its place (a capture game's ``play`` over the shared one)."""
    out: dict[str, EventKind] = {}
    for group in groups:
        for e in group:
            out[e.name] = e
    return tuple(out.values())


__all__ = [
    "Audience",
    "Redactor",
    "Sight",
    "merge_events",
    "own_hand_only",
    "DecisionKind",
    "EventKind",
    "Field",
    "FieldType",
    "JsonObject",
    "TeamOf",
    "TeamsRule",
    "Vocabulary",
    "VocabularyError",
    "check_fields",
    "everyone",
]
