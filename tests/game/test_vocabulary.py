"""The games' declared vocabulary (game.rules.vocabulary): what they declare, that shared code
refuses what no game declares, that the template game registers and leaves no trace, and that
the shared modules name no game's decision or event (they iterate the declarations)."""

from __future__ import annotations

import ast
import functools
import random
from pathlib import Path

import pytest

from game import registry
from game.ai.bots import make_bot
from game.events import known_kinds
from game.match import Match
from game.record import RecordFormatError, check_event
from game.rules import common
from game.rules.base import Action, play
from game.rules.vocabulary import DecisionKind, VocabularyError
from game.rulesets import game_ids, make_rules
from game.services.i18n import load_locale
from game.verify import verify_events
from tests import template_game
from tests.source_tree import GROUP, Source, sources

ROOT = Path(__file__).resolve().parents[2]


def _record(game: str, seed: int = 3, players: int | None = None) -> list[dict]:
    rules = make_rules(game, None, players)
    return Match(rules, seed, [make_bot("random", rules, s, seed) for s in range(rules.players)]).run()


# ----------------------------------------------------------------------------- declarations


def test_the_declarations_give_the_games_their_decisions_and_events():
    # What the games' rules classes said by hand before, now derived from their declarations.
    expect = {
        "briscola": (("play",), ("trick", "draw")),
        "tressette": (("play",), ("trick", "draw")),
        "schnapsen": (("play", "close", "exchange", "marriage"), ("trick", "draw", "exchange", "marriage", "close")),
        "scopa": (("play",), ("redeal", "hands")),
        "cicera": (("play",), ()),
    }
    for gid, (decisions, events) in expect.items():
        cls = registry.rules_class(gid)
        assert cls.decisions == decisions, gid
        assert cls.record_events == events, gid
        names = cls.vocabulary.event_names
        assert set(common.EVENT_NAMES) <= set(names), gid
        assert len(set(names)) == len(names), gid


def test_the_known_event_kinds_are_the_union_of_the_games_declarations():
    union = {e for gid in registry.folder_game_ids() for e in registry.rules_class(gid).vocabulary.event_names}
    assert set(known_kinds()) == union
    assert union >= {
        "match",
        "deal",
        "redeal",
        "hands",
        "play",
        "trick",
        "draw",
        "exchange",
        "marriage",
        "close",
        "deal_end",
        "match_end",
    }


def test_every_declared_locale_key_has_a_text():
    table, problem = load_locale("en")
    assert problem is None
    for gid in game_ids():
        vocab = registry.rules_class(gid).vocabulary
        keys = [k for d in vocab.decisions for k in (d.label, d.words, *(f.words for f in d.fields))]
        keys += [e.narration for e in vocab.events]
        for key in filter(None, keys):
            assert key in table, f"{gid}: {key} has no English text"


def test_a_legal_action_goes_over_the_wire_and_back_unchanged():
    for gid in game_ids():
        rules = make_rules(gid)
        rng = random.Random(5)
        state = rules.new_deal(rng, 0)
        seen = 0
        while not rules.is_over(state) and seen < 40:
            legal = rules.legal_actions(state)
            for a in legal:
                kind = rules.vocabulary.decision(a.kind)
                assert kind is not None, (gid, a)
                assert rules.vocabulary.action_from_wire(kind.to_wire(a)) == a, (gid, a)
                seen += 1
            rules.apply(state, rng.choice(legal))


# ----------------------------------------------------------------------------- refusals


def test_from_wire_refuses_an_undeclared_kind_or_field():
    briscola = registry.rules_class("briscola").vocabulary
    with pytest.raises(VocabularyError):
        briscola.action_from_wire({"kind": "close"})
    with pytest.raises(VocabularyError):
        briscola.action_from_wire({"kind": "knock"})
    with pytest.raises(VocabularyError):
        common.PLAY.from_wire({"kind": "close", "card": "AD"})
    with pytest.raises(VocabularyError, match="unknown field 'marriage'"):
        common.PLAY.from_wire({"kind": "play", "card": "AD", "marriage": True})
    with pytest.raises(VocabularyError, match="'card'"):
        common.PLAY.from_wire({"kind": "play", "card": "ZZ"})
    assert common.PLAY.from_wire({"kind": "play", "card": "AD"}) == play("AD")
    declared = DecisionKind("bid", fields=())
    assert declared.from_wire({"kind": "bid"}) == Action("bid")


def test_the_rules_refuse_an_action_their_game_does_not_declare():
    rules = make_rules("briscola")
    state = rules.new_deal(random.Random(1), 0)
    c = rules.legal_actions(state)[0].played
    for action in (Action("knock"), Action.make("play", c, marriage=True)):
        with pytest.raises(Exception) as e:
            rules.validate(state, action)
        assert getattr(e.value, "rule", None) == "not_in_game"


def test_verify_refuses_a_line_no_game_declares_and_one_this_game_does_not():
    events = _record("briscola")
    i = next(k for k, ev in enumerate(events) if ev["event"] == "play")
    knock = [*events[:i], {"event": "knock", "seat": events[i]["seat"]}, *events[i:]]
    verdict = verify_events(knock)
    assert not verdict.ok and verdict.line == i + 1 and "unknown event type" in verdict.message
    with template_game.installed():
        verdict = verify_events(knock)
        assert not verdict.ok and verdict.line == i + 1, verdict
        assert "does not occur in briscola" in verdict.message
    # A declared event of the game where a decision is due is not a decision.
    trick = next(ev for ev in events if ev["event"] == "trick")
    verdict = verify_events([*events[:i], dict(trick), *events[i:]])
    assert not verdict.ok and verdict.line == i + 1 and "expected 'play'" in verdict.message


def test_the_record_reader_takes_field_types_from_the_declarations():
    rules_cls = registry.rules_class("schnapsen")
    check_event({"event": "marriage", "seat": 0, "suit": "C", "points": 20}, 5, rules_cls)
    with pytest.raises(RecordFormatError, match="'marriage' field 'points' must be a whole number"):
        check_event({"event": "marriage", "seat": 0, "suit": "C", "points": "20"}, 5, rules_cls)
    with pytest.raises(RecordFormatError, match="lacks field suit"):
        check_event({"event": "marriage", "seat": 0, "points": 20}, 5, rules_cls)
    with pytest.raises(RecordFormatError, match="does not occur in scopa"):
        check_event({"event": "marriage", "seat": 0, "suit": "C", "points": 20}, 5, registry.rules_class("scopa"))


# ----------------------------------------------------------------------------- the template game


def test_the_template_game_is_registered_only_while_installed():
    assert template_game.ID not in game_ids()
    with template_game.installed():
        assert template_game.ID in game_ids()
        assert "knock" in known_kinds()
        for players in (2, 3):
            events = _record(template_game.ID, seed=11, players=players)
            assert verify_events(events).ok
            assert verify_events(events, strict=True).ok
    assert template_game.ID not in game_ids()
    assert "knock" not in known_kinds()
    with pytest.raises(ValueError):
        registry.rules_class(template_game.ID)


def test_the_template_game_knocks_and_the_knocked_trick_counts_double():
    with template_game.installed():
        rules = make_rules(template_game.ID, None, 2)
        state = rules.new_deal(random.Random(2), 0)
        knock = rules.vocabulary.decision("knock")
        assert knock is not None and Action("knock") in rules.legal_actions(state)
        assert rules.apply(state, Action("knock")) == [{"event": "knock", "seat": state.to_act}]
        assert Action("knock") not in rules.legal_actions(state)
        while not rules.is_over(state):
            events = rules.apply(state, rules.legal_actions(state)[0])
            trick = [ev for ev in events if ev["event"] == "trick"]
            if trick:
                assert trick[0]["points"] == 2
                break


# ----------------------------------------------------------------------------- the source scan

#: The shared modules: they iterate the declarations and name no game's decision or event.
SHARED = ("game/*.py", "game/rules/*.py", "game/ai/*.py", "game/coach/*.py")
#: The application's shared modules: the same rule, where the shared record's field names
#: (a deal's ``hands``) and the trick mechanism's words (game.rules.trick: a ``trick`` line,
#: its family; a ``draw``, also a match's result) are no game's own.
SERVICES = ("game/lessons/*.py", "game/puzzles/*.py", "game/services/*.py", "game/online/**/*.py")
SERVICE_WORDS = {"hands", "trick", "draw"}
#: A mechanism module names its own mechanism's events.
MECHANISM = {"game/rules/trick.py": {"trick", "draw"}}
#: Shared modules not yet iterating the declarations (each must still name one: take it off
#: this list once it does).
PENDING: set[str] = set()


def _game_kinds() -> set[str]:
    names: set[str] = set()
    with template_game.installed():
        for gid in registry.folder_game_ids():
            vocab = registry.rules_class(gid).vocabulary
            names |= {*vocab.decision_names, *vocab.decision_events, *vocab.event_names}
    return names - {*common.EVENT_NAMES, common.PLAY.name}


def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``path``'s syntax tree, in ``ast.walk``'s order: from the test process's
    parse of the product (tests/source_tree.py, shared with the structure and locale tests),
    or parsed here for a file it does not hold."""
    parsed = _parsed().get(path.relative_to(ROOT).as_posix())
    if parsed is not None:
        return parsed.nodes
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


@functools.cache
def _parsed() -> dict[str, Source]:
    return {src.rel: src for src in sources()}


def _named(path: Path, names: set[str]) -> list[tuple[int, str]]:
    """String constants equal to one of ``names``, except a field's name (a dict key, an
    index, ``.get(name)`` / ``.arg(name)``, a Field's first argument)."""
    nodes = _nodes(path)
    fields: set[int] = set()
    for node in nodes:
        if isinstance(node, ast.Dict):
            fields |= {id(k) for k in node.keys if k is not None}
        elif isinstance(node, ast.Subscript):
            fields.add(id(node.slice))
        elif isinstance(node, ast.Call) and node.args:
            fn = node.func
            if (isinstance(fn, ast.Attribute) and fn.attr in ("get", "arg")) or (
                isinstance(fn, ast.Name) and fn.id == "Field"
            ):
                fields.add(id(node.args[0]))
    return sorted(
        (node.lineno, node.value)
        for node in nodes
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
        if id(node) not in fields
    )


@pytest.mark.xdist_group(GROUP)  # the product parsed once, with the structure tests
def test_no_shared_module_names_a_games_decision_or_event():
    names = _game_kinds()
    assert {"close", "exchange", "marriage", "redeal", "hands", "trick", "draw", "knock"} <= names
    found: dict[str, list[tuple[int, str]]] = {}
    for pattern in SHARED:
        for path in sorted(ROOT.glob(pattern)):
            rel = path.relative_to(ROOT).as_posix()
            hits = [h for h in _named(path, names) if h[1] not in MECHANISM.get(rel, set())]
            if rel in PENDING:
                assert hits, f"{rel} names no game's kind any more: take it off PENDING"
            elif hits:
                found[rel] = hits
    assert not found, f"shared modules name a game's decision or event: {found}"


#: The window: scenes draw what the declarations say; sprites and audio likewise.
WINDOW = ("scenes/**/*.py", "sprites/**/*.py", "audio/**/*.py", "main.py")


@pytest.mark.xdist_group(GROUP)  # the product parsed once, with the structure tests
def test_no_window_module_names_a_games_decision_or_event():
    names = _game_kinds() - SERVICE_WORDS
    found: dict[str, list[tuple[int, str]]] = {}
    for pattern in WINDOW:
        for path in sorted(ROOT.glob(pattern)):
            hits = _named(path, names)
            if hits:
                found[path.relative_to(ROOT).as_posix()] = hits
    assert not found, f"window modules name a game's decision or event: {found}"


@pytest.mark.xdist_group(GROUP)  # the product parsed once, with the structure tests
def test_no_application_module_names_a_games_decision_or_event():
    names = _game_kinds() - SERVICE_WORDS
    assert {"close", "exchange", "marriage", "redeal", "knock"} <= names
    found: dict[str, list[tuple[int, str]]] = {}
    for pattern in SERVICES:
        for path in sorted(ROOT.glob(pattern)):
            hits = _named(path, names)
            if hits:
                found[path.relative_to(ROOT).as_posix()] = hits
    assert not found, f"application modules name a game's decision or event: {found}"
