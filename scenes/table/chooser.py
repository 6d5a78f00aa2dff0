"""The chooser: a decision with a declared payload (a bid's rank and points, a called card)
asked as a small panel over the felt, built from the decision's declared fields and the
LEGAL actions of that kind alone — the table never decides what is legal, it only offers
values that appear in ``legal_actions``.

Each declared field becomes a row, in the declared order, shown only where the values
chosen in the rows above leave it something to say (a bid's points only after choosing
the rank that takes points):

- a ``str`` field with ``choices``: a row of buttons, one per declared choice, those no
  legal action gives disabled (a rank's name where the choices are the deck's ranks);
- an ``int`` field: a stepper (− value +) over the values the legal actions give;
- a ``card`` field: the legal cards as faces.

Keys: ←/→ (or −/+) change the focused row, PgUp/PgDn by five, Home/End to its ends, the
digits pick the n-th value, Tab/Shift+Tab move between rows, Enter confirms, Esc cancels.
The mouse: a click on a value chooses it, − and + step, Confirm and Cancel. The focused
row is said in words (``focus_text``) as it changes.

The state (:class:`Chooser`) is plain Python, no pygame; scenes.table.chooser_view maps the
keys and draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.cards import Card
from game.rules.base import Action
from game.rules.vocabulary import DecisionKind, Field
from scenes import names

Translate = Callable[..., str]
#: How far PgUp/PgDn move a stepper.
PAGE = 5


def _values_of(field: Field, actions: list[Action]) -> list[object]:
    """The distinct values ``actions`` give ``field``, in the declared order (a ``str``'s
    choices; numbers rising; cards as the rules list them); None (left out) first."""
    seen: list[object] = []
    for a in actions:
        v = a.arg(field.name)
        if v not in seen:
            seen.append(v)
    if field.type == "str" and field.choices:
        seen.sort(key=lambda v: -1 if v is None else field.choices.index(str(v)) if v in field.choices else 999)
    elif field.type == "int":
        seen.sort(key=lambda v: -1 if not isinstance(v, int) else v)
    elif None in seen:
        seen.remove(None)
        seen.insert(0, None)
    return seen


@dataclass
class Row:
    """One field of the chooser: its legal values now and the one chosen."""

    field: Field
    values: list[object]
    chosen: object

    @property
    def index(self) -> int:
        return self.values.index(self.chosen) if self.chosen in self.values else 0

    @property
    def choice(self) -> bool:
        """More than one value: the player has something to choose here."""
        return len(self.values) > 1


class Chooser:
    """The values of a decision ``kind`` being chosen among its ``legal`` actions."""

    def __init__(self, kind: DecisionKind, legal: list[Action], start: Action | None = None):
        self.kind = kind
        self.actions = [a for a in legal if a.kind == kind.name]
        #: The values shown first: ``start``'s (a suggestion), else each row's first.
        self.chosen: dict[str, object] = {f.name: start.arg(f.name) for f in kind.fields} if start else {}
        self.rows: list[Row] = []
        self._settle()
        #: The row the keyboard changes: the first with a choice in it.
        self.focus = next((i for i, r in enumerate(self.rows) if r.choice), 0)

    @staticmethod
    def needed(kind: DecisionKind, legal: list[Action]) -> bool:
        """Whether taking ``kind`` needs a chooser: it declares a payload and the rules leave
        more than one action of it (one action is simply taken)."""
        return bool(kind.fields) and sum(1 for a in legal if a.kind == kind.name) > 1

    def _settle(self) -> None:
        """Each field's values given the ones chosen above it; a chosen value no longer
        offered gives way to the first that is. Rows with nothing to say are left out."""
        rows: list[Row] = []
        left = self.actions
        for f in self.kind.fields:
            values = _values_of(f, left)
            value = self.chosen.get(f.name)
            if value not in values:
                value = values[0] if values else None
            self.chosen[f.name] = value
            left = [a for a in left if a.arg(f.name) == value]
            if values and values != [None]:
                rows.append(Row(f, values, value))
        self.rows = rows
        self.focus = min(getattr(self, "focus", 0), max(0, len(rows) - 1))

    @property
    def action(self) -> Action | None:
        """The legal action the chosen values name (always one of ``legal``)."""
        return next(
            (a for a in self.actions if all(a.arg(f.name) == self.chosen.get(f.name) for f in self.kind.fields)),
            None,
        )

    # ------------------------------------------------------------------ changes
    def set(self, row: int, value: object) -> None:
        """Choose ``value`` in row ``row`` (a value the row offers; anything else is ignored)."""
        if 0 <= row < len(self.rows) and value in self.rows[row].values:
            self.focus = row
            self.chosen[self.rows[row].field.name] = value
            self._settle()

    def step(self, by: int) -> None:
        """The focused row's value ``by`` places on (a stepper: its legal values), held at the ends."""
        if not self.rows:
            return
        r = self.rows[self.focus]
        i = max(0, min(len(r.values) - 1, r.index + by))
        self.set(self.focus, r.values[i])

    def to_end(self, last: bool) -> None:
        if self.rows:
            r = self.rows[self.focus]
            self.set(self.focus, r.values[-1 if last else 0])

    def pick(self, n: int) -> None:
        """The digit ``n`` (1 = the first value) in the focused row."""
        if self.rows and 1 <= n <= len(self.rows[self.focus].values):
            self.set(self.focus, self.rows[self.focus].values[n - 1])

    def move_focus(self, by: int) -> None:
        """Tab: the next row with a choice in it (round)."""
        choosing = [i for i, r in enumerate(self.rows) if r.choice] or list(range(len(self.rows)))
        if not choosing:
            return
        at = choosing.index(self.focus) if self.focus in choosing else -1
        self.focus = choosing[(at + by) % len(choosing)]

    # ------------------------------------------------------------------ words
    def label(self, t: Translate, f: Field) -> str:
        """The row's name: the decision's label with the field's (``table.<game>.bid_points``)."""
        key = f"{self.kind.label}_{f.name}"
        text = t(key)
        return f.name if text == key else text

    def words(self, t: Translate, deck: object, lang: str, f: Field, value: object) -> str:
        """A value in words: a card by its name, a rank (a text field whose choices are the
        deck's ranks) by the deck's word for it, None as "none"."""
        if value is None:
            return t("table.chooser.none")
        if isinstance(value, Card):
            return names.card_name(t, deck, lang, value.code)  # type: ignore[arg-type]
        ranks = getattr(deck, "ranks", None)
        if f.type == "str" and f.choices and callable(ranks) and set(f.choices) <= set(ranks()):
            return names.rank_name(t, deck, lang, str(value))  # type: ignore[arg-type]
        return str(value)

    def focus_text(self, t: Translate, deck: object, lang: str) -> str:
        """The focused row in words, for speech: "Points: 75, from 62 to 120"."""
        if not self.rows:
            return t(self.kind.label)
        r = self.rows[self.focus]
        label, value = self.label(t, r.field), self.words(t, deck, lang, r.field, r.chosen)
        ints = [v for v in r.values if isinstance(v, int)]
        if r.field.type == "int" and ints:
            return t("table.chooser.stepper", field=label, value=value, low=min(ints), high=max(ints))
        return t("table.chooser.option", field=label, value=value, n=r.index + 1, total=len(r.values))

    def opening_text(self, t: Translate, deck: object, lang: str) -> str:
        """What is said as it opens: the decision, then the focused row."""
        return f"{t(self.kind.label)}. {self.focus_text(t, deck, lang)}"


__all__ = ["Chooser", "Row", "PAGE"]
