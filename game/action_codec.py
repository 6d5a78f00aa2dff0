"""Actions as JSON: the form the wire, the puzzles and any other JSON carries a decision in,
through each game's declared decision kinds (game.rules.vocabulary.DecisionKind). Pure
Python, part of the rules core: the protocol (game.online.wire.protocol) and the puzzles
both use it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

from game.rules.action import Action
from game.rules.vocabulary import DecisionKind, JsonObject


@functools.lru_cache(maxsize=1)
def wire_decisions() -> dict[str, DecisionKind]:
    """Every decision any game declares (its rules' ``decision_kinds``), merged by name: a
    decision's wire form holds every field some game gives it (each optional, since another
    game's same decision has none of it). The rules then judge an action of their table:
    a field their game does not declare makes it no legal action."""
    from game.registry import rules_class
    from game.rulesets import game_ids

    merged: dict[str, DecisionKind] = {}
    for gid in game_ids():
        for kind in rules_class(gid).decision_kinds:
            have = merged.get(kind.name)
            fields = {f.name: f for f in (have.fields if have is not None else ())}
            for f in kind.fields:
                other = fields.get(f.name)
                if other is not None and other.type != f.type:
                    raise ValueError(f"the decision {kind.name!r} has a field {f.name!r} of two types")
                fields[f.name] = other or dataclasses.replace(f, optional=True)
            plays_card = kind.plays_card or (have is not None and have.plays_card)
            merged[kind.name] = DecisionKind(kind.name, plays_card=plays_card, fields=tuple(fields.values()))
    return merged


def _decision(name: str) -> DecisionKind:
    kind = wire_decisions().get(name)
    if kind is None:
        raise ValueError(f"unknown action kind {name[:24]!r}")
    return kind


def action_to_json(action: Action) -> JsonObject:
    """The action as the protocol sends it, through its declaration
    (game.rules.vocabulary.DecisionKind.to_wire): ``{"kind": …, "card": …, <its fields>}``."""
    return _decision(action.kind).to_wire(action)


def action_from_json(data: Mapping[str, object]) -> Action:
    """The Action a JSON action states, through its declaration (DecisionKind.from_wire).
    ValueError for a bad one."""
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise ValueError("an action names its kind")
    return _decision(kind).from_wire(data)


__all__ = ["action_from_json", "action_to_json", "wire_decisions"]
