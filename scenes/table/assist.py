"""The table's help, drawn over the cards: the suggested move (its card and capture outlined,
or its button, and one line saying what and why), the question before a decision that
cannot be taken back ("Close the stock?"), and "looking for a move…" while a suggestion is
worked out. ``s`` is the table scene; what is suggested and asked is the controller's.
"""
from __future__ import annotations

from typing import Any

import pygame

from scenes.table.hud import CAPTION_BOTTOM
from sprites import theme
from sprites.table_draw import outline

#: The suggestion's colour: apart from the choice's brass and the hints' green.
SUGGEST = (132, 196, 255)
#: The widest the line may be (clear of the trump badge at the felt's left), its lines and
#: text size; it sits where the caption of the last play does (which it replaces while
#: shown: hud.draw_caption asks ``shows_line``).
WIDTH = 600
LINES = 3
SIZE = 15


def shows_line(s: Any) -> bool:
    """Whether the help has a line to show now (a question, a suggestion, or the search)."""
    c = s.controller
    return s.can_act and (c.confirming is not None or c.current_suggestion() is not None or c.suggesting)


def draw(surface: pygame.Surface, s: Any) -> None:
    c = s.controller
    if not s.can_act:
        return
    if s.refusal is not None:  # the refusal's banner has the word; the marks stay
        sg = c.current_suggestion()
        if sg is not None:
            mark(surface, s, sg.action)
        return
    if c.confirming is not None:
        line(surface, s.t(f"confirm.{c.confirming}"), theme.BRASS)
        return
    sg = c.current_suggestion()
    if sg is not None:
        mark(surface, s, sg.action)
        line(surface, suggestion_line(s, sg), SUGGEST)
    elif c.suggesting:
        line(surface, s.t("suggest.thinking"), SUGGEST)


def line(surface: pygame.Surface, text: str, color: tuple[int, int, int]) -> pygame.Rect:
    """The help's words in a pill (LINES at most) just above the status line."""
    lines = theme.wrap(text, "sans_bold", SIZE, WIDTH - 36, max_lines=LINES)
    w = max(theme.text_width(ln, "sans_bold", SIZE) for ln in lines) + 36
    r = pygame.Rect(0, 0, w, 10 + 20 * len(lines))
    r.midbottom = (640, CAPTION_BOTTOM)
    layer = pygame.Surface(r.size, pygame.SRCALPHA)
    layer.blit(theme.rounded(r.size, 12, (6, 20, 13, 225), 1, (*color, 235)), (0, 0))
    for i, ln in enumerate(lines):
        img = theme.text(ln, "sans_bold", SIZE, theme.CREAM, shadow=1)
        layer.blit(img, img.get_rect(midtop=(r.w // 2, 5 + 20 * i)))
        theme.note_box(ln, img.get_width(), WIDTH - 36)  # the text-fit check sees it
    surface.blit(layer, r)
    return r


def mark(surface: pygame.Surface, s: Any, action: Any) -> None:
    """The suggested card and what it takes outlined, or the decision's button."""
    if action.kind != "play" or action.card is None:
        b = s.buttons.get(action.kind)
        if b is not None:
            outline(surface, b.rect, SUGGEST, 1.0, 2)
        return
    for code in [action.card.code, *(t.code for t in action.capture)]:
        r = s.card_rect(code)
        if r is not None:
            outline(surface, r, SUGGEST, 1.0)


def move_text(s: Any, action: Any) -> str:
    """The suggested move in words: "play the 7 of Coins and take the 3 of Cups + the …"."""
    if action.kind != "play" or action.card is None:
        return s.t(f"suggest.move.{action.kind}")
    # Each card with the article its language puts before it ("the Knave of Coins", "il 7 di
    # Denari"): the narrator's, as the play log says them (issue 29).
    told = getattr(getattr(s.motion, "narrator", None), "card", None)
    name = told if callable(told) else s.card_name
    card = name(action.card.code)
    if action.capture:
        return s.t("suggest.move.capture", card=card, cards=" + ".join(name(t.code) for t in action.capture))
    if action.marriage:
        return s.t("suggest.move.marriage", card=card)
    return s.t("suggest.move.play", card=card)


def reason_text(s: Any, reason: tuple[str, dict] | None) -> str | None:
    """The hook's reason in the player's language, its card codes and bonuses named."""
    if reason is None:
        return None
    key, params = reason
    if not s.app.i18n.has(key) and not s.app.i18n.has(key, "en"):
        return None
    out: dict[str, Any] = {}
    words = s.rules.bonus_callouts
    for k, v in params.items():
        if k in ("card", "led", "partner") and isinstance(v, str):
            out[k] = s.card_name(v)
        elif k == "cards" and isinstance(v, (list, tuple)):
            out[k] = " + ".join(s.card_name(x) for x in v)
        elif k == "bonus":
            names = [v] if isinstance(v, str) else list(v)
            out[k] = " ".join(words.get(b, b) for b in names)
        elif k == "suit" and isinstance(v, str):
            try:
                out[k] = s.deck.suit_name(v, s.lang)
            except (KeyError, TypeError):
                out[k] = v
        else:
            out[k] = v
    return s.t(key, **out)


def suggestion_line(s: Any, sg: Any) -> str:
    move = move_text(s, sg.action)
    why = reason_text(s, sg.reason)
    return s.t("suggest.line", move=move, reason=why) if why else s.t("suggest.line_plain", move=move)


__all__ = ["draw", "line", "mark", "move_text", "reason_text", "shows_line", "suggestion_line", "SUGGEST"]
