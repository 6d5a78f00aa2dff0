"""The chooser (scenes.table.chooser): a decision with a declared payload asked from its
declared fields and the LEGAL actions alone — a row of buttons for a text field with
choices, a stepper for a number, card faces for a card — shown where the values chosen
above need it; by keys and by the mouse, read aloud, never offering a value no legal action
gives. Generic first (a made-up decision), then Briscola chiamata's bid and call."""

from __future__ import annotations

import random

import pygame
import pytest

from game.cards import card
from game.rules.base import Action
from game.rules.vocabulary import DecisionKind, Field
from game.rulesets import make_rules
from game.services.i18n import I18n
from scenes.table import chooser_view
from scenes.table.chooser import Chooser
from tests.game.test_chiamata import make
from tests.scenes.test_table import click, key, make_app, table

# ---------------------------------------------------------------------- generic: a made-up decision
WAGER = DecisionKind(
    "wager",
    fields=(
        Field("colour", "str", choices=("red", "green", "blue")),
        Field("stake", "int", optional=True, nullable=True, low=1, high=30),
        Field("token", "card", optional=True, nullable=True),
    ),
    label="table.wager",
)


def wager(colour: str, stake: int | None = None, token: str | None = None) -> Action:
    return Action("wager", None, (("colour", colour), ("stake", stake), ("token", card(token) if token else None)))


#: Red alone; green at 5 to 12; blue with one of two tokens. "play" is another decision.
LEGAL = [
    wager("red"),
    *(wager("green", n) for n in range(5, 13)),
    wager("blue", token="AD"),
    wager("blue", token="KC"),
    Action("play", card("7S")),
]


def test_rows_follow_the_values_chosen_and_offer_only_legal_ones():
    ch = Chooser(WAGER, LEGAL)
    assert [r.field.name for r in ch.rows] == ["colour"]  # red takes no stake and no token
    assert ch.rows[0].values == ["red", "green", "blue"] and ch.action == wager("red")
    ch.set(0, "green")
    assert [r.field.name for r in ch.rows] == ["colour", "stake"]
    assert ch.rows[1].values == list(range(5, 13)) and ch.action == wager("green", 5)
    ch.focus = 1
    ch.step(5)
    assert ch.action == wager("green", 10)
    ch.step(5)  # held at the highest legal value
    assert ch.action == wager("green", 12)
    ch.set(0, "blue")
    assert [r.field.name for r in ch.rows] == ["colour", "token"] and ch.action == wager("blue", token="AD")
    ch.set(1, card("KC"))
    assert ch.action == wager("blue", token="KC")
    ch.set(1, card("QS"))  # a card no legal action names: nothing changes
    assert ch.action == wager("blue", token="KC")


def test_every_reachable_action_is_legal_and_every_legal_one_reachable():
    legal = [a for a in LEGAL if a.kind == "wager"]
    reached = set()
    for colour in ("red", "green", "blue"):
        ch = Chooser(WAGER, LEGAL)
        ch.set(0, colour)
        if len(ch.rows) > 1:
            for v in ch.rows[1].values:
                ch.set(1, v)
                reached.add(ch.action)
        else:
            reached.add(ch.action)
    assert reached == set(legal)


def test_a_decision_with_one_legal_action_or_no_payload_needs_no_chooser():
    assert Chooser.needed(WAGER, LEGAL)
    assert not Chooser.needed(WAGER, [wager("red"), Action("play", card("7S"))])
    assert not Chooser.needed(DecisionKind("pass", label="x"), [Action("pass"), Action("pass")])


def test_keys_change_the_focused_row_tab_moves_enter_and_esc_answer():
    pygame.init()
    ch = Chooser(WAGER, LEGAL)
    assert chooser_view.key(ch, pygame.K_RIGHT) == "changed" and ch.action == wager("green", 5)
    assert chooser_view.key(ch, pygame.K_TAB) == "changed" and ch.focus == 1
    chooser_view.key(ch, pygame.K_PAGEUP)
    chooser_view.key(ch, pygame.K_PLUS)
    assert ch.action == wager("green", 11)
    chooser_view.key(ch, pygame.K_HOME)
    assert ch.action == wager("green", 5)
    assert chooser_view.key(ch, pygame.K_RETURN) == "confirm"
    assert chooser_view.key(ch, pygame.K_ESCAPE) == "cancel"
    assert chooser_view.key(ch, pygame.K_a) is None  # a reading key goes on


# ---------------------------------------------------------------------- Briscola chiamata
def auction(*speeches: Action):
    r = make()
    state = r.new_deal(random.Random(4), 0)
    for a in speeches:
        r.apply(state, a)
    return r, state


def bid_kind(r) -> DecisionKind:
    return next(k for k in r.decision_kinds if k.name == "bid")


def test_the_bid_offers_the_ranks_lower_than_the_last_and_points_only_after_a_two():
    from game.games.chiamata.vocabulary import bid

    r, state = auction(bid("K"))
    legal = r.legal_actions(state)
    ch = Chooser(bid_kind(r), legal)
    assert [x.field.name for x in ch.rows] == ["rank"]
    assert ch.rows[0].values == ["Q", "J", "7", "6", "5", "4", "2"]
    ch.set(0, "2")
    assert [x.field.name for x in ch.rows] == ["rank"] and ch.action == bid("2")  # a first 2: no points
    r, state = auction(bid("K"), bid("2"))
    legal = r.legal_actions(state)
    ch = Chooser(bid_kind(r), legal)
    assert ch.rows[0].values == ["2"] and ch.rows[1].field.name == "points"
    assert ch.rows[1].values == list(range(62, 121)) and ch.focus == 1
    ch.step(13)
    assert ch.action == bid("2", 75) and ch.action in legal
    r, state = auction(bid("K"), bid("2"), bid("2", 75))
    ch = Chooser(bid_kind(r), r.legal_actions(state))
    assert ch.rows[1].values[0] == 76


def test_the_call_offers_the_four_cards_of_the_contracts_rank():
    from game.games.chiamata.vocabulary import PASS, bid

    r, state = auction(bid("3"), PASS, PASS, PASS, PASS)
    legal = r.legal_actions(state)
    kind = next(k for k in r.decision_kinds if k.name == "call")
    ch = Chooser(kind, legal)
    assert len(ch.rows) == 1 and ch.rows[0].field.type == "card"
    assert sorted(c.code for c in ch.rows[0].values) == ["3B", "3C", "3D", "3S"]
    t = I18n("en").t
    assert ch.focus_text(t, r.deck, "en").startswith("Called card: 3 of ")


@pytest.fixture
def chiamata_table():
    app = make_app("en")
    scene = table(app, "chiamata", players=5, deck="piacentine", seed=3, moves=0)
    for _ in range(200):  # the computer seats speak until it is the human's turn
        if scene.controller.can_act:
            break
        app.update(1 / 60)
    assert scene.controller.can_act
    return app, scene


def test_the_bid_by_keys_opens_the_chooser_and_enter_takes_a_legal_bid(chiamata_table):
    app, scene = chiamata_table
    c = scene.controller
    legal = scene.session.legal_actions()
    key(app, pygame.K_b)
    assert c.chooser is not None and c.submitted == []
    key(app, pygame.K_ESCAPE)  # Esc cancels: nothing was taken
    assert c.chooser is None and c.submitted == [] and scene.session.human_to_act
    key(app, pygame.K_b)
    key(app, pygame.K_RIGHT)
    expected = c.chooser.action
    key(app, pygame.K_RETURN)
    assert c.submitted == [expected] and expected in legal and c.chooser is None


def test_the_bid_by_mouse_a_rank_then_confirm(chiamata_table):
    app, scene = chiamata_table
    c = scene.controller
    legal = scene.session.legal_actions()
    click(app, scene.buttons["bid"].rect.center)
    ch = c.chooser
    assert ch is not None
    _, boxes = chooser_view.boxes(ch, scene.deck.aspect, scene.chooser_bottom())
    values = [b for b in boxes if b.what[0] == "value"]
    offered = [b for b in values if b.what[2] in ch.rows[0].values]
    refused = [b for b in values if b.what[2] not in ch.rows[0].values]
    if refused:  # a rank no legal bid names: its button does nothing
        before = ch.action
        click(app, refused[0].rect.center)
        assert ch.action == before
    click(app, offered[-1].rect.center)
    assert ch.action.arg("rank") == offered[-1].what[2]
    confirm = next(b for b in boxes if b.what == ("confirm",))
    click(app, confirm.rect.center)
    assert len(c.submitted) == 1 and c.submitted[0] in legal and c.submitted[0].arg("rank") == offered[-1].what[2]


def test_the_chooser_is_read_aloud(chiamata_table):
    app, scene = chiamata_table
    key(app, pygame.K_b)
    assert scene.reader.focus().startswith("Rank: ")
    key(app, pygame.K_RIGHT)
    assert scene.reader.focus().startswith("Rank: ")


def test_a_rank_field_is_named_as_the_deck_names_its_ranks():
    r = make_rules("chiamata", "piacentine", 5)
    ch = Chooser(bid_kind(r), r.legal_actions(r.new_deal(random.Random(1), 0)))
    t = I18n("it").t
    assert ch.words(t, r.deck, "it", ch.rows[0].field, "A") == t("table.rank.A")
    assert ch.words(t, r.deck, "it", ch.rows[0].field, "K") == r.deck.court_name("K", "it")
