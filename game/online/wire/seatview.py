"""A seat's view rebuilt from the redacted events it received: what a bot client decides on.

The bots decide on ``rules.view(state, seat)``. An online client has no state, only the
seat's redacted stream (game.online.wire.redact: other hands, the stock and the seed are null).
But a view holds only what its seat may know (the leak test checks exactly that), so *any*
full deal that agrees with everything the seat saw gives the same view. This module finds
one such deal — a determinization — and replays the deal's decisions through the rules:

1. the current deal's ``deal`` line with its hidden cards filled with the unseen cards;
2. walk the deal through the one replay (game.replay) from the filled deal, with
   ``check=False`` (legality was checked by the server; a determinized hand may not explain
   an opponent's play);
3. where the replay disagrees with the stream — an opponent plays a card the filled deal put
   elsewhere, the seat draws (or is dealt) a card other than the one the stream shows — swap
   the two cards' places in the filled deal and replay again. Both cards were still unseen
   by the seat at that point, so everything before it replays the same: each swap moves the
   first disagreement later, and the loop ends (bounded anyway).

Nothing here names a game: it needs ``state_from_deal``, ``action_from_record``, ``apply``,
``clone``, ``view`` and the states' ``hands`` lists, which every rules module has.
"""

from __future__ import annotations

from typing import Any

from game.cards import Card, CardCodeError, card
from game.replay import ReplayError, replay
from game.rules.base import Action, Event, GameRules

#: Replays tried per determinization before giving up (each fixes one disagreement; a
#: deal has at most one per card).
MAX_REPLAYS = 400


class Undeterminable(ValueError):
    """No full deal agreeing with the stream was found (the caller falls back on the legal
    actions alone)."""


def _codes_in(value: object, out: set[str]) -> None:
    """Every card code named anywhere in an event (nested lists and dicts)."""
    if isinstance(value, str):
        if _is_code(value):
            out.add(value)
    elif isinstance(value, list):
        for v in value:
            _codes_in(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _codes_in(v, out)


def _is_code(text: str) -> bool:
    try:
        card(text)
    except CardCodeError:
        return False
    return True


def current_deal(events: list[Event]) -> int:
    """Index of the last ``deal`` line (the deal being played)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("event") == "deal":
            return i
    raise Undeterminable("no deal has been dealt yet")


class SeatReplay:
    """Keeps one determinization per deal, extended as the stream grows (a deal fixed for
    the first k events stays good for them)."""

    def __init__(self, rules: GameRules, seat: int):
        self.rules = rules
        self.seat = seat
        self._deal_at: int | None = None
        self._filled: Event | None = None
        #: Replays run so far (the tests and the bench read it).
        self.replays = 0

    def state(self, events: list[Event]) -> object:
        """A full state agreeing with the seat's ``events`` (its whole redacted stream) at
        their end. Raises Undeterminable when none is found."""
        d = current_deal(events)
        deal = events[d:]
        if self._deal_at != d or self._filled is None:
            self._deal_at, self._filled = d, self._fill(deal[0])
        filled = self._filled
        for _ in range(MAX_REPLAYS):
            self.replays += 1
            outcome = self._replay(filled, deal)
            if not isinstance(outcome, tuple):
                self._filled = filled
                return outcome
            a, b = outcome
            filled = _swapped(filled, a, b)
        raise Undeterminable(f"no deal agrees with the stream after {MAX_REPLAYS} replays")

    def view(self, events: list[Event]) -> Any:
        return self.rules.view(self.state(events), self.seat)

    # ------------------------------------------------------------------ internals
    def _fill(self, deal: Event) -> Event:
        """The redacted ``deal`` line with every null replaced by an unseen card (deck order)."""
        shown: set[str] = set()
        _codes_in(deal, shown)
        pool = [c.code for c in self.rules.cards if c.code not in shown]
        pool.reverse()

        def fill(cards: object) -> list[str]:
            if not isinstance(cards, list):
                raise Undeterminable("the deal line has no card list where one is expected")
            out = []
            for c in cards:
                if c is None:
                    if not pool:
                        raise Undeterminable("the deal hides more cards than the deck has")
                    c = pool.pop()
                out.append(c)
            return out

        filled = dict(deal)
        filled["hands"] = [fill(h) for h in deal.get("hands") or []]
        filled["table"] = fill(deal.get("table") or [])
        filled["stock"] = fill(deal.get("stock") or [])
        if pool:
            raise Undeterminable(f"{len(pool)} cards of the deck are nowhere in the deal")
        return filled

    def _replay(self, filled: Event, deal: list[Event]) -> object:
        """Replay ``deal`` (the stream from its ``deal`` line) on the filled deal, through the
        one replay (game.replay): the state at the end, or (a, b) — two card codes to swap in
        the filled deal."""
        rules = self.rules

        def dealt(_line: Event) -> object:
            try:
                return rules.state_from_deal(filled)
            except (ValueError, KeyError, TypeError) as e:
                raise Undeterminable(f"the filled deal is refused: {e}") from None

        # The deal walked on its own: a match line, the deal as the first (its number 1),
        # its lines up to its end (the scores are the stream's to tell, not the replay's).
        end = next((k for k, ev in enumerate(deal) if ev.get("event") == "deal_end"), len(deal))
        lines = [{"event": "match"}, {**deal[0], "number": 1}, *deal[1:end]]
        seen: set[str] = set()  # codes the seat has seen so far in this deal
        _codes_in(deal[0], seen)
        state: object = None
        before: object = None
        step_seat: int | None = None
        step_action: Action | None = None
        named: set[str] = set()
        chosen: set[str] = set()
        steps = replay(rules, lines, check=False, adopt_variants=False, deal_state=dealt)
        try:
            for step in steps:
                state = step.state
                if step.kind == "decision" and step.action is not None and step.seat is not None:
                    step_seat, step_action = step.seat, step.action
                    named = set()
                    _codes_in(step.event, named)
                    if step.action.card is not None:
                        named.add(step.action.card.code)
                    # A card the decision chooses as a value (a called card) is named, not held
                    # or placed: its own line does not tell where it is.
                    chosen = {v.code for _, v in step.action.args if isinstance(v, Card)}
                    named -= chosen
                    if step.seat != self.seat:
                        swap = self._bring(state, step.seat, step.action, named, seen)
                        if swap is not None:
                            return swap
                    before = rules.clone(state)
                elif step.kind == "consequence":
                    diff = _disagreement(step.expected, step.event)
                    if diff is not None:
                        if not diff:  # () : any other difference
                            raise Undeterminable(
                                f"the replay disagrees with the stream at line {step.line} of the deal"
                            )
                        if diff[0] in seen or diff[1] in seen:
                            raise Undeterminable(f"card {diff[1]} at line {step.line} of the deal was already placed")
                        return diff
                    placed: set[str] = set()
                    _codes_in(step.event, placed)
                    seen |= placed - chosen
        except Undeterminable:
            raise
        except ReplayError as e:
            raise Undeterminable(f"the stream does not replay: {e}") from None
        except (ValueError, KeyError, IndexError, AttributeError, TypeError):
            # A card the action needs is not where the filled deal put it (a Jack to
            # exchange): bring any card this decision names into the actor's hand.
            if before is None or step_seat is None or step_action is None:
                raise Undeterminable("the deal cannot be replayed") from None
            swap = self._bring(before, step_seat, step_action, named, seen, force=True)
            if swap is None:
                raise Undeterminable("a decision of the deal cannot be replayed") from None
            return swap
        if state is None:
            raise Undeterminable("the stream holds no deal")
        return state

    def _bring(
        self, state: object, actor: int, action: Action, named: set[str], seen: set[str], force: bool = False
    ) -> tuple[str, str] | None:
        """A swap putting a card the decision plays (or names) into the actor's hand, or None
        when nothing needs moving."""
        hands = getattr(state, "hands", None)
        if not isinstance(hands, list) or not 0 <= actor < len(hands):
            return None
        hand: list[Card] = hands[actor]
        held = {c.code for c in hand}
        wanted = [action.card.code] if action.card is not None and not force else sorted(named)
        for code in wanted:
            if code in held or code in seen:
                continue
            spare = [c.code for c in hand if c.code not in seen and c.code not in named]
            if spare:
                return (code, spare[0])
        return None


def _disagreement(produced: object, got: object) -> tuple[str, str] | tuple[()] | None:
    """Where a replayed event differs from the stream's (null in the stream matches
    anything): None when they agree, (replayed code, stream code) for the first differing
    card, () for any other difference."""
    if got is None:
        return None
    if isinstance(produced, dict) and isinstance(got, dict):
        if produced.keys() != got.keys():
            return ()
        for k in produced:
            d = _disagreement(produced[k], got[k])
            if d is not None:
                return d
        return None
    if isinstance(produced, list) and isinstance(got, list):
        if len(produced) != len(got):
            return ()
        for p, g in zip(produced, got):
            d = _disagreement(p, g)
            if d is not None:
                return d
        return None
    if produced == got and type(produced) is type(got):
        return None
    if isinstance(produced, str) and isinstance(got, str) and _is_code(produced) and _is_code(got):
        return (produced, got)
    return ()


def _swapped(deal: Event, a: str, b: str) -> Event:
    """The filled deal with cards ``a`` and ``b`` trading places."""

    def sw(cards: list[str]) -> list[str]:
        return [b if c == a else a if c == b else c for c in cards]

    out = dict(deal)
    out["hands"] = [sw(h) for h in deal["hands"]]
    out["table"] = sw(deal["table"])
    out["stock"] = sw(deal["stock"])  # the face-up trump is seen: never swapped
    return out


__all__ = ["MAX_REPLAYS", "SeatReplay", "Undeterminable", "current_deal"]
