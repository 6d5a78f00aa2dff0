"""What a decision sends, made cheaply (docs/ONLINE.md, "The cost of a decision"): the legal
actions once per position, the ``turn`` and ``events`` texts written from their parts (the
same bytes as the messages built and encoded), and the decisions' JSON for the worker made once
per decision. The play loop (game.online.server.play) calls these."""

from __future__ import annotations

from collections.abc import Sequence
from weakref import WeakKeyDictionary

from game.match import Match
from game.online.wire import messages as M
from game.online.wire import protocol as P
from game.rules.base import Action, Event

#: Per match: its decisions as the worker takes them (each turned into JSON once).
_json_of: WeakKeyDictionary[Match, list[list]] = WeakKeyDictionary()


def legal_now(m: Match) -> list[Action]:
    """``m.legal_actions()``, once per position (kept in ``m.legal_memo``): for the ``turn``
    sent to the seat, then for the rules' check of its ``act`` through ``Match.play``'s
    ``legal`` and for a computer's fallback. A match changes only by ``play``, which adds a
    decision (a refused one changes nothing)."""
    made = len(m.decisions)
    hit = m.legal_memo
    if hit is not None and hit[0] == made:
        return hit[1]
    legal = m.legal_actions()
    m.legal_memo = (made, legal)
    return legal


#: Each action's JSON text as a ``turn`` offers it (an Action's JSON is its own: the decisions'
#: declarations are the same for every table), kept for the next turn that offers it.
_action_text: dict[Action, str] = {}
_ACTION_TEXT_MAX = 4096


def _legal_text(legal: Sequence[Action]) -> str:
    texts = []
    for a in legal:
        try:
            text = _action_text.get(a)
        except TypeError:  # an action that cannot be a key (a list in its payload): made each time
            texts.append(P.encode(P.action_to_json(a)))
            continue
        if text is None:
            text = P.encode(P.action_to_json(a))
            if len(_action_text) >= _ACTION_TEXT_MAX:
                _action_text.clear()
            _action_text[a] = text
        texts.append(text)
    return ",".join(texts)


_TURN = M.TURN.encoded_all
_EVENTS = M.EVENTS.encoded_all


def turn_text(seat: int, k: int, legal: Sequence[Action] = ()) -> str:
    """``P.encode(M.TURN(seat=seat, decision=k, legal=[its actions' JSON]))``, the same bytes
    (tested), written from the parts without building the message per decision: each
    action's JSON is made once."""
    return _TURN(str(int(seat)), str(int(k)), f"[{_legal_text(legal)}]")


def events_text(start: int, events: list[Event]) -> str:
    """``P.encode(M.EVENTS(**{"from": start, "events": events}))``, the same bytes (tested)."""
    return _EVENTS(str(int(start)), P.encode(events))


def decisions_json(m: Match) -> list[list]:
    """``m.decisions`` as the worker takes them (``[[seat, action JSON], …]``), each made once
    and kept: a computer's decision no longer turns the whole match into JSON. A new list
    each time (the pool sends it later, from another thread)."""
    done = _json_of.get(m)
    if done is None:
        done = _json_of[m] = []
    for seat, action in m.decisions[len(done) :]:
        done.append([seat, P.action_to_json(action)])
    return list(done)


__all__ = ["decisions_json", "events_text", "legal_now", "turn_text"]
