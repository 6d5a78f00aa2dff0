"""The match as an online seat sees it (:class:`RemoteMatch`, a game.online.client.client.RemoteSession's
``match``): the seat's redacted events as they arrive and what they say — decisions so far,
the current deal's first decision, totals, the end. Pure Python: no pygame here.
"""

from __future__ import annotations

from game.rules.base import Event, GameRules


class RemoteMatch:
    """What the table reads of ``session.match``: the seat's redacted events and what they
    say (decisions so far, the current deal's first decision, totals, the end)."""

    def __init__(self, rules: GameRules | None):
        self.rules = rules
        self.events: list[Event] = []
        #: One placeholder per decision made (the table reads ``len()``).
        self.decisions: list[None] = []
        self.deal_start = 0
        self.totals: list[int] = rules.initial_totals() if rules is not None else []
        self.winner: int | None = None
        self.over = False
        #: No state online (the table's hints that read one return at once on None).
        self.state: object = None
        self.seed = 0

    def extend(self, events: list[Event]) -> None:
        """Append events, keeping the counters in step."""
        rules = self.rules
        for ev in events:
            i = len(self.events)
            self.events.append(ev)
            kind = ev.get("event")
            if kind == "deal":
                self.deal_start = len(self.decisions)
            elif kind == "deal_end":
                totals = ev.get("totals")
                if isinstance(totals, list):
                    self.totals = list(totals)
            elif kind == "match_end":
                self.over = True
                self.winner = ev.get("winner")
                if isinstance(ev.get("totals"), list):
                    self.totals = list(ev["totals"])
            if rules is not None and kind in rules.decisions and not self._continues(rules, i):
                self.decisions.append(None)

    def _continues(self, rules: GameRules, i: int) -> bool:
        """Whether line ``i`` belongs to the decision of line i-1: a decision whose
        declaration opens it with a line of its own first (DecisionKind.opens: a lead that
        declares something, such as a Schnapsen marriage), by the same seat."""
        if i == 0:
            return False
        ev, prev = self.events[i], self.events[i - 1]
        name = ev.get("event")
        kind = rules.vocabulary.decision(name) if isinstance(name, str) else None
        return kind is not None and prev.get("event") in kind.opens and prev.get("seat") == ev.get("seat")


__all__ = ["RemoteMatch"]
