"""An action: one decision of the seat to act, as a kind the game declares, the card it
plays (if it plays one) and its typed payload. game.rules.base re-exports it; the
declarations (game.rules.vocabulary) build one from the wire.

Pure Python: no pygame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game.cards import Card

#: An action's payload: (field name, value) pairs sorted by name, as its decision kind
#: declares them (game.rules.vocabulary.DecisionKind.fields).
Args = tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of the seat to act: a kind the game declares (its rules'
    ``decision_kinds``), the card it plays if it plays one, and its typed payload ``args``.

    ``args`` holds only the values that say something (an empty capture, a ``False`` toggle
    are left out) and is sorted by name, so equal actions compare equal; build one with
    :meth:`make` or :func:`play`.
    """

    kind: str
    card: Card | None = None
    args: Args = ()

    @staticmethod
    def make(kind: str, card: Card | None = None, /, **args: object) -> Action:
        """The action with this payload, empty values (None, False, an empty tuple or list)
        left out and card lists sorted by card index."""
        return Action(kind, card, _args(args))

    def arg(self, name: str, default: object = None) -> object:
        """The payload's value ``name``, or ``default`` when the action has none."""
        for k, v in self.args:
            if k == name:
                return v
        return default

    def with_args(self, **args: object) -> Action:
        """This action with these payload values set (an empty one removes it)."""
        merged = dict(self.args)
        merged.update(args)
        return Action(self.kind, self.card, _args(merged))

    @property
    def played(self) -> Card:
        """``card``, for an action that plays one; a ValueError (as ``hand.remove(None)`` raised
        before) for one that plays none."""
        c = self.card
        if c is None:
            raise ValueError(f"the action {self.kind!r} plays no card")
        return c

    def __str__(self) -> str:
        s = self.kind if self.card is None else self.card.code
        for name, value in self.args:
            if isinstance(value, tuple) and all(isinstance(c, Card) for c in value):
                s += " x " + "+".join(c.code for c in value)
            elif value is True:
                s += f" ({name})"
            else:
                s += f" ({name} {value})"
        return s


def _args(args: Mapping[str, object]) -> Args:
    out: list[tuple[str, object]] = []
    for name, value in args.items():
        if value is None or value is False or (isinstance(value, (tuple, list)) and not value):
            continue
        if isinstance(value, (tuple, list)):
            value = tuple(sorted(value)) if all(isinstance(c, Card) for c in value) else tuple(value)
        out.append((name, value))
    return tuple(sorted(out, key=lambda a: a[0]))


__all__ = ["Action", "Args"]
