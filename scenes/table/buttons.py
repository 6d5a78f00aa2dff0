"""The table's buttons: one per decision the game declares beyond playing a card (its
rules' ``decision_kinds``, each with its label, and ``may_place_instead``), Suggest and Undo
above them, the menu button, and the toggle's question (declare the marriage, or just play)
with its two buttons over the hand; they act on the controller and read the table's view
(scenes.table.view.TableView). Labels follow the language at draw time.

A decision declared ``confirm`` (closing the stock) asks first (the controller's
``ask_decision``): its button then reads ``confirm.<name>_button`` ("Confirm close") and a
second click takes it; a toggle's reads ``<label>_on`` while it is on.
"""

from __future__ import annotations

from collections.abc import Callable

from game.rules.vocabulary import DecisionKind
from scenes.table.controller import TOGGLE_MODE, TableController, declared_toggle
from scenes.table.hud import deal_lines
from scenes.table.view import TableView
from sprites import table_layout as TL
from sprites.widgets import UI, Button

Spec = tuple[str, Callable[[], str], Callable[[], None], Callable[[], bool]]  # name, label, action, legal now


def _label(c: TableController, kind: DecisionKind, t: Callable[..., str]) -> Callable[[], str]:
    """The decision's button label: its declared one; "… on" for a toggle switched on, the
    confirmation's words while it is asked."""

    def label() -> str:
        if kind.toggle and c.toggled:
            return t(f"{kind.label}_on")
        if kind.confirm and c.confirming == kind.name:
            return t(f"confirm.{kind.name}_button")
        return t(kind.label)

    return label


def _spec(c: TableController, kind: DecisionKind, t: Callable[..., str]) -> Spec:
    # A toggle's button is named by what it declares (the marriage), not by the play it rides on.
    return (kind.toggle or kind.name, _label(c, kind, t), lambda: c.decide(kind.name), lambda: c.is_legal(kind))


def _specs(c: TableController, may_place_instead: bool, t: Callable[..., str]) -> list[Spec]:
    specs: list[Spec] = []
    if may_place_instead:
        specs.append(("place", lambda: t("table.place_only"), c.place_only, lambda: True))
    # The toggles first, then the other decisions in the declared order, those that cannot
    # be taken back (closing the stock) last.
    kinds = [k for k in c.kinds.values() if k.label]
    order = sorted(kinds, key=lambda k: 0 if k.toggle else 2 if k.confirm else 1)
    specs.extend(_spec(c, k, t) for k in order)
    return specs


def still_ahead(v: TableView, name: str) -> bool:
    """Whether decision ``name`` may still come in this deal as the viewer has seen it (the
    rules' ``decisions_ahead``): a button the deal has left behind is hidden, not greyed."""
    if v.rules.vocabulary.decision(name) is None:
        return True  # placing instead, a toggle: the play's own
    ahead = v.rules.decisions_ahead(deal_lines(v), v.model.viewer)
    return ahead is None or name in ahead


def build(
    ui: UI, view: Callable[[], TableView], c: TableController, open_pause: Callable[[], None], say: Callable[[], None]
) -> tuple[dict[str, Button], Button, list[Button]]:
    """(the decision buttons by name — "suggest" and "undo" among them —, the menu button,
    the toggle's question's two), for the table ``view()`` shows; they act on the controller
    ``c``, the menu button opens the pause overlay, the Messages button (online) ``say``."""
    v = view()
    t, rules = v.t, v.rules
    specs = _specs(c, bool(rules.may_place_instead), t)
    buttons: dict[str, Button] = {}
    # Help against the computer above the decisions (an all-computer table has none); an
    # online table has the quick messages there instead.
    caps = v.session.capabilities
    helpers = 0 if c.spectator else int(caps.chat) + int(caps.suggest) + int(caps.undo)
    rects = v.layout.buttons(len(specs) + helpers)
    for (name, label, fn, legal), rect in zip(specs, rects[helpers:]):
        b = Button(
            rect,
            label,
            fn,
            size=14,
            name=name,
            enabled=(lambda legal=legal: c.can_act and legal()),
            visible=(lambda name=name: still_ahead(view(), name)),
        )
        buttons[name] = ui.add(b)
    free = iter(rects[:helpers])
    if helpers and caps.chat:
        buttons["say"] = ui.add(Button(next(free), lambda: t("online.say_button"), say, size=14, name="say"))
    if helpers and caps.suggest:
        buttons["suggest"] = ui.add(
            Button(
                next(free),
                lambda: t("suggest.button"),
                c.suggest,
                size=14,
                name="suggest",
                enabled=lambda: c.can_act and not c.suggesting,
            )
        )
    if helpers and caps.undo:
        buttons["undo"] = ui.add(
            Button(next(free), lambda: t("undo.button"), c.take_back, size=14, name="undo", enabled=c.can_take_back)
        )
    menu = ui.add(
        Button(TL.MENU_RECT, lambda: t("table.menu"), open_pause, style="secondary", size=14, icon="≡", name="menu")
    )
    # The toggle's question: two buttons over the hand, shown only while it is asked.
    ask = lambda: c.mode == TOGGLE_MODE  # noqa: E731
    ask_buttons = [
        ui.add(
            Button(
                (0, 0, 170, 40),
                lambda: declare_label(view()),
                lambda: c.choose(0),
                style="primary",
                size=14,
                visible=ask,
                name="declare",
            )
        ),
        ui.add(
            Button(
                (0, 0, 170, 40),
                lambda: t("table.just_play"),
                lambda: c.choose(1),
                size=14,
                visible=ask,
                name="just_play",
            )
        ),
    ]
    ui.focus_index = -1  # the hand, not a button, has the keyboard
    return buttons, menu, ask_buttons


def declare_label(v: TableView) -> str:
    """ "Declare 40" or "Declare 20": the points the chosen card's toggle would declare (the
    rules' ``<toggle>_value``, ``trump_<toggle>_value`` in trumps)."""
    cands = v.choice.cands
    trump = bool(cands) and cands[0].played.suit == v.model.trump_suit
    toggle = declared_toggle(v.rules)
    pts = getattr(v.rules, f"trump_{toggle}_value" if trump else f"{toggle}_value", 40 if trump else 20)
    return v.t("table.declare", points=pts)


def place_ask_buttons(v: TableView, ask_buttons: list[Button]) -> None:
    """The question's buttons just above the chosen card, inside the hand's width."""
    hand = v.model.hand
    i = hand.index(v.choice.selected) if v.choice.selected in hand else 0
    p = v.layout.hand(len(hand))[i]
    y = round(p.y - p.h / 2 - TL.LIFT - 58)
    x = max(220, min(1060 - 350, round(p.x) - 175))
    ask_buttons[0].rect.topleft = (x, y)
    ask_buttons[1].rect.topleft = (x + 180, y)


__all__ = ["build", "declare_label", "place_ask_buttons"]
