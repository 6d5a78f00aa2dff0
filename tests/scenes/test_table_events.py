"""One handler per record event kind and concern (model, animation, narration, sound),
registered by kind: every kind a game can write is handled, or left alone on purpose, by each."""

from __future__ import annotations

import pytest

from audio.cues import SOUNDS
from game.events import KINDS, EventHandlers
from game.registry import rules_class
from game.rulesets import game_ids
from scenes.table.animate import ANIMATE
from scenes.table.model import APPLY
from scenes.table.narrate import TELL

CONCERNS = (APPLY, ANIMATE, TELL, SOUNDS)


@pytest.mark.parametrize("concern", CONCERNS, ids=lambda c: c.concern)
def test_every_record_event_kind_is_handled_or_ignored_by_each_concern(concern):
    assert concern.missing() == []
    assert concern.handled | concern.ignores == frozenset(KINDS)


def test_every_kind_a_game_writes_is_a_known_kind():
    for game in game_ids():
        assert set(rules_class(game).record_events) <= set(KINDS), game


def test_a_kind_is_registered_once_and_only_a_known_kind_can_be():
    table = EventHandlers("test", ignores=("redeal",))

    @table.on("play")
    def one(ev):
        return "one"

    assert table.handler({"event": "play"}) is one and table.handler("play") is one
    assert table.handler({"event": "trick"}) is None and table.handler({}) is None
    with pytest.raises(ValueError, match="twice"):
        table.on("play")(lambda ev: None)
    with pytest.raises(ValueError, match="twice"):
        table.on("redeal")(lambda ev: None)
    with pytest.raises(ValueError, match="not a record event kind"):
        table.on("shuffle")(lambda ev: None)
    assert "trick" in table.missing() and "redeal" not in table.missing()
