"""The table follows each record event by the table effect its game declares for it (model,
animation, narration, sound), never by the event's name: every effect a game declares is
handled by each concern, or told by its declared words alone, and a new game's new event
(an auction's bid) needs no change to the table."""

from __future__ import annotations

from typing import Any

import pytest

from audio.cues import SOUNDS, sounds_for
from audio.synth import SOUND_NAMES
from game.registry import rules_class
from game.rules.vocabulary import EventKind, Field
from game.rulesets import game_ids, make_rules
from game.services.i18n import I18n
from scenes.table import model as M
from scenes.table.animate import ANIMATE, animation, shown
from scenes.table.narrate import TELL, Narrator, plate_words

EN = I18n("en")


def _declared() -> list[tuple[str, EventKind]]:
    return [(game, kind) for game in game_ids() for kind in rules_class(game).event_kinds]


@pytest.mark.parametrize("game,kind", _declared(), ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_declared_event_is_applied_animated_told_and_sounded(game, kind):
    effect = kind.effect
    # The model applies it through its effect; an effect the table only tells changes nothing.
    assert effect in M.EFFECTS or effect == "", (game, kind.name, effect)
    # Animated by its effect, else shown by its sound and call-out.
    assert effect in ANIMATE or animation(effect) is shown
    # Told by its effect's own sentences, or by declared words the language has.
    key = kind.narration or f"narrate.{kind.name}"
    assert effect in TELL or kind.name == "match" or EN.has(key) or EN.has(f"{key}_you"), (game, kind.name)
    # Sounded by its effect, or by a declared sound the synthesiser has.
    assert effect in SOUNDS or kind.sound in SOUND_NAMES or kind.sound == "", (game, kind.name, kind.sound)


def test_the_table_names_no_event_of_a_game():
    # The effects, not the events: every game's events map to the table's mechanisms.
    for game in game_ids():
        effects = M.event_effects(rules_class(game))
        assert effects["match"] == "match_start"
        assert {e for e in effects.values() if e} <= set(M.EFFECTS) | {""}


BID = EventKind(
    "bid",
    (Field("seat", "seat"), Field("value", "int")),
    narration="narrate.close",  # any sentence with a {name}: the test's language has no bids
    sound="bonus",
    effect="announce",
)


class _WithBid:
    """A game's rules with one more declared event: an auction's bid."""

    def __init__(self, rules: Any):
        self._rules = rules
        self.event_kinds = (*rules.event_kinds, BID)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def test_a_new_announcement_is_told_applied_and_sounded_without_a_table_change(monkeypatch):
    rules = _WithBid(make_rules("briscola", None, 2))
    n = Narrator(rules, EN.t, "en", 0)
    line = n.feed({"event": "bid", "seat": 1, "value": 70})
    assert line is not None and line.seat == 1 and line.caption == line.text and line.text.endswith("closes the stock.")
    mine = n.feed({"event": "bid", "seat": 0, "value": 80})
    assert mine is not None and mine.text == EN.t("narrate.close_you")
    m = M.new_model(rules, 0)
    before = (list(m.totals), [list(h) for h in m.hands], list(m.declared_points))
    M.apply_event(m, {"event": "bid", "seat": 1, "value": 70, "points": 70})  # words only: a bid scores nothing
    assert (list(m.totals), [list(h) for h in m.hands], list(m.declared_points)) == before
    # Its words on the seat's plate (the language's call-out for it) until the play begins.
    assert m.said[1]["value"] == 70 and not m.pending[1]
    t = lambda key, **p: "bids {value}".format(**p) if key == "callouts.bid" else key  # noqa: E731
    assert plate_words(t, m.said, 1) == "bids 70" and plate_words(t, m.said, 0) == ""
    M.apply_event(m, {"event": "deal", "dealer": 0, "hands": [["AC"], ["3C"]], "stock": [], "table": []})
    assert m.said == {}  # a new deal: nobody has said anything yet
    M.apply_event(m, {"event": "bid", "seat": 0, "value": 80})
    assert plate_words(t, m.said, 0) == "bids 80"
    M.apply_event(m, {"event": "play", "seat": 1, "card": "3C"})
    assert m.said == {} and m.trick == [(1, "3C")]
    monkeypatch.setattr("audio.cues.declared", lambda game: {"bid": ("announce", "bonus")})
    assert sounds_for({"event": "bid", "seat": 1, "value": 70}, "briscola", 0) == ["bonus"]


def test_an_event_a_game_does_not_declare_is_left_alone():
    rules = make_rules("briscola", None, 2)
    n = Narrator(rules, EN.t, "en", 0)
    assert n.feed({"event": "shuffle", "seat": 0}) is None
    m = M.new_model(rules, 0)
    M.apply_event(m, {"event": "shuffle", "seat": 0})
    assert sounds_for({"event": "shuffle", "seat": 0}, "briscola", 0) == []


def test_a_new_announcement_shows_at_the_table_on_its_seats_plate(_private_home):
    """The table itself: a declared announcement fed to the animation is told in the caption
    and shown on its seat's plate, and the plate goes back to the card count once play begins."""
    from scenes.app import TICK
    from scenes.table import hud
    from tests.scenes.test_table import make_app, table

    app = make_app(speed="normal")
    app.i18n._table("en")["plate.bid"] = "bids {value}"  # the test's game has its words for the plate
    scene = table(app, "briscola", moves=0)
    for _ in range(400):
        app.update(TICK)
        if scene.motion.idle:
            break
    scene.model.effects = {**scene.model.effects, "bid": "announce"}
    scene.motion.narrator.effects = {**scene.motion.narrator.effects, "bid": "announce"}
    scene.motion.narrator.kinds["bid"] = BID
    scene.motion.feed([{"event": "bid", "seat": 1, "value": 70}], [[]])
    for _ in range(40):
        app.update(TICK)
    assert scene.model.said[1]["value"] == 70 and scene.motion.caption == app.t("narrate.close", name="North")
    seen: list[str] = []
    monkey = pytest.MonkeyPatch()
    monkey.setattr(hud, "plate", lambda surface, rect, name, count, *a, **k: seen.append(count))
    try:
        hud.draw_hud(app.canvas, scene.view())
    finally:
        monkey.undo()
    assert "bids 70" in seen


def test_the_table_names_no_decision_of_a_game():
    """The decisions' keys, buttons, confirmations and toggles come from the declarations: no
    module of the table's choice holds a game's decision (or toggle) name as a literal."""
    import ast
    from pathlib import Path

    names = set()
    for game in game_ids():
        for d in rules_class(game).decision_kinds:
            names |= {d.name, d.toggle} - {"", "play"}
    names |= {"close", "exchange", "marriage"}
    root = Path(__file__).resolve().parents[2]
    for rel in (
        "scenes/table/controller.py",
        "scenes/table/scene.py",
        "scenes/table/buttons.py",
        "scenes/table/assist.py",
        "scenes/table/reading.py",
        "scenes/learn/table.py",
    ):
        tree = ast.parse((root / rel).read_text())
        found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in names]
        assert not found, f"{rel}: {found}"
