"""The table's help, drawn over the cards: the suggested move (its card and capture outlined,
or its button, and one line saying what and why), the question before a decision that
cannot be taken back ("Close the stock?"), and "looking for a move…" while a suggestion is
worked out. ``v`` is the table's view (scenes.table.view.TableView); what is suggested and
asked is the controller's (``v.choice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.rules.base import Action
from game.rules.capture import captured
from scenes.table.board import card_rect
from scenes.table.controller import decision_kinds, declares_toggle
from scenes.table.hud import CAPTION_BOTTOM, caption_bottom
from scenes.table.view import ChoiceState, TableView
from sprites import hidpi, theme
from sprites.table_draw import outline

if TYPE_CHECKING:
    from game.ai.suggest import Suggestion

#: The suggestion's colour: apart from the choice's brass and the hints' green.
SUGGEST = (132, 196, 255)
#: The widest the line may be (clear of the trump badge at the felt's left), its lines and
#: text size; it sits where the caption of the last play does (which it replaces while
#: shown: the scene asks ``shows_line`` for the view's ``caption_hidden``).
WIDTH = 600
LINES = 3
SIZE = 15


def shows_line(c: ChoiceState) -> bool:
    """Whether the help has a line to show now (a question, a suggestion, or the search)."""
    return c.can_act and (c.confirming is not None or c.current_suggestion() is not None or c.suggesting)


def draw(surface: pygame.Surface, v: TableView) -> None:
    c = v.choice
    if not c.can_act:
        return
    if v.refusal is not None:  # the refusal's banner has the word; the marks stay
        sg = c.current_suggestion()
        if sg is not None:
            mark(surface, v, sg.action)
        return
    if c.confirming is not None:
        line(surface, v.t(f"confirm.{c.confirming}"), theme.BRASS, caption_bottom(v))
        return
    sg = c.current_suggestion()
    if sg is not None:
        mark(surface, v, sg.action)
        line(surface, suggestion_line(v, sg), SUGGEST, caption_bottom(v))
    elif c.suggesting:
        line(surface, v.t("suggest.thinking"), SUGGEST, caption_bottom(v))


def line(surface: pygame.Surface, text: str, color: tuple[int, int, int], bottom: int = CAPTION_BOTTOM) -> pygame.Rect:
    """The help's words in a pill (LINES at most) just above the status line."""
    lines = theme.wrap(text, "sans_bold", SIZE, WIDTH - 36, max_lines=LINES)
    w = max(theme.text_width(ln, "sans_bold", SIZE) for ln in lines) + 36
    r = pygame.Rect(0, 0, w, 10 + 20 * len(lines))
    r.midbottom = (640, bottom)
    layer = hidpi.surface(r.size, pygame.SRCALPHA)
    layer.blit(theme.rounded(r.size, 12, (6, 20, 13, 225), 1, (*color, 235)), (0, 0))
    for i, ln in enumerate(lines):
        img = theme.text(ln, "sans_bold", SIZE, theme.CREAM, shadow=1)
        layer.blit(img, img.get_rect(midtop=(r.w // 2, 5 + 20 * i)))
        theme.note_box(ln, img.get_width(), WIDTH - 36)  # the text-fit check sees it
    surface.blit(layer, r)
    return r


def mark(surface: pygame.Surface, v: TableView, action: Action) -> None:
    """The suggested card and what it takes outlined, or the decision's button."""
    if action.card is None:
        b = v.buttons.get(action.kind)
        if b is not None:
            outline(surface, b.rect, SUGGEST, 1.0, 2)
        return
    for code in [action.card.code, *(t.code for t in captured(action))]:
        r = card_rect(v, code)
        if r is not None:
            outline(surface, r, SUGGEST, 1.0)


def move_text(v: TableView, action: Action) -> str:
    """The suggested move in words: "play the 7 of Coins and take the 3 of Cups + the …"; a
    decision of the game's own in its declared words ("close the stock", "declare the
    marriage with …")."""
    kinds = decision_kinds(v.rules)
    if action.card is None:
        kind = next((k for k in kinds if k.name == action.kind), None)
        return v.t(kind.words if kind is not None and kind.words else f"suggest.move.{action.kind}")
    # Each card with the article its language puts before it ("the Knave of Coins", "il 7 di
    # Denari"): the narrator's, as the play log says them.
    narrator = v.motion.narrator
    name = narrator.card if narrator is not None else v.names.card_name
    card = name(action.card.code)
    if captured(action):
        return v.t("suggest.move.capture", card=card, cards=" + ".join(name(t.code) for t in captured(action)))
    toggle = next((k for k in kinds if k.toggle and declares_toggle(action, k)), None)
    if toggle is not None:
        field = toggle.field(toggle.toggle)
        words = getattr(field, "words", "") or f"suggest.move.{toggle.toggle}"
        return v.t(words, card=card)
    return v.t("suggest.move.play", card=card)


def reason_text(v: TableView, reason: tuple[str, dict] | None) -> str | None:
    """The hook's reason in the player's language, its card codes and bonuses named."""
    if reason is None:
        return None
    key, params = reason
    if not v.app.i18n.has(key) and not v.app.i18n.has(key, "en"):
        return None
    out: dict[str, object] = {}
    words = v.rules.bonus_callouts
    name = v.names.card_name
    for k, val in params.items():
        if k in ("card", "led", "partner") and isinstance(val, str):
            out[k] = name(val)
        elif k == "cards" and isinstance(val, (list, tuple)):
            out[k] = " + ".join(name(x) for x in val)
        elif k == "bonus":
            bonuses = [val] if isinstance(val, str) else list(val)
            out[k] = " ".join(words.get(b, b) for b in bonuses)
        elif k == "suit" and isinstance(val, str):
            try:
                out[k] = v.deck.suit_name(val, v.lang)
            except (KeyError, TypeError):
                out[k] = val
        else:
            out[k] = val
    return v.t(key, **out)


def suggestion_line(v: TableView, sg: Suggestion) -> str:
    move = move_text(v, sg.action)
    why = reason_text(v, sg.reason)
    return v.t("suggest.line", move=move, reason=why) if why else v.t("suggest.line_plain", move=move)


__all__ = ["draw", "line", "mark", "move_text", "reason_text", "shows_line", "suggestion_line", "SUGGEST"]
