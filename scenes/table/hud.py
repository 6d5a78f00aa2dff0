"""The table's HUD: name plates, the score panel, the status line and the match-over panel.

Drawn from the table's view (``v``: scenes.table.view.TableView — the model, the motion's
caption, the controller's choice); what the score panel shows per game comes from the rules'
facts (``hud_scores``, ``match_goal()``, ``counted_bonuses``), never from the game's name.
"""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from game.rules.base import TableFact
from scenes.names import rank_name
from scenes.table.board import trump_chip_box
from scenes.table.controller import declared_toggle
from scenes.table.narrate import plate_words
from scenes.table.view import TableView
from sprites import hidpi, theme
from sprites import table_layout as TL
from sprites.table_draw import TEAM_COLORS, CardPainter, plate
from sprites.table_layout import score_bottom
from sprites.widgets import card_art

Row = tuple[tuple[int, int, int], str, str, str]  # colour, label, value, note


#: A seat whose team the viewer does not know yet (a hidden partner): no team's colour.
NEUTRAL = (112, 124, 116)


def deal_lines(v: TableView) -> list[Mapping[str, object]]:
    """The lines of the deal in view as the table has told them (its ``deal`` line first)."""
    narrator = v.motion.narrator  # None: the replay viewer's own HUD
    return list(narrator.deal.events) if narrator is not None else []


def seen_teams(v: TableView) -> tuple[int | None, ...]:
    """Each seat's team as the viewer knows it now (the rules' ``seen_teams`` over the lines
    told so far): a hidden partner has no team's colour until it shows."""
    narrator = v.motion.narrator
    seen = narrator.deal.seen if narrator is not None else ()
    if len(seen) == v.players:
        return seen
    return v.rules.seen_teams([], v.model.viewer)


def facts(v: TableView) -> tuple[TableFact, ...]:
    """What the rules keep in sight for the viewer (a contract, a called card)."""
    return v.rules.table_facts(deal_lines(v), v.model.viewer)


def fact_words(v: TableView, key: str, params: Mapping[str, object]) -> str:
    """A fact's words: its card, rank, suit and seat named in the viewer's language."""
    words: dict[str, object] = {}
    for k, x in params.items():
        if k == "card" and isinstance(x, str):
            x = v.names.card_name(x)
        elif k == "rank" and isinstance(x, str):
            x = rank_name(v.t, v.deck, v.lang, x)
        elif k == "suit" and isinstance(x, str):
            x = v.deck.suit_name(x, v.lang)
        elif k == "seat" and isinstance(x, int):
            x = v.names.seat_name(x)
        words[k] = x
    return v.t(key, **words)


def chooser_open(v: TableView) -> bool:
    """A decision's values are being chosen (scenes.table.chooser: its panel has the words);
    a table without choices (a replay's) has no chooser."""
    return getattr(v.choice, "chooser", None) is not None


def seat_color(v: TableView, seat: int) -> tuple[int, int, int]:
    """A seat's colour on its plate and score row. Where the teams are hidden (a called
    partner) only what the viewer knows: its own side's colour, the other side's, or none."""
    if v.rules.teams_rule.kind != "hidden":
        return team_color(v, v.rules.team_of(seat))
    seen = seen_teams(v)
    team = seen[seat] if seat < len(seen) else None
    if team is None:
        return NEUTRAL
    mine = seen[v.model.viewer] if v.model.viewer < len(seen) else None
    return TEAM_COLORS[0] if team == mine else TEAM_COLORS[1]


def team_color(v: TableView, team: int) -> tuple[int, int, int]:
    """The viewer's team in its own colour; the others in one colour where there is one
    other team, alternating where there are several."""
    if v.rules.teams_rule.kind == "hidden":  # the score columns are the seats
        return seat_color(v, team)
    if team == v.human_team:
        return TEAM_COLORS[0]
    return TEAM_COLORS[1 + (team % 2 if v.teams > 2 else 0)]


def draw_hud(surface: pygame.Surface, v: TableView) -> None:
    L, m = v.layout, v.model
    known = facts(v)
    tags = {f.seat: v.t(f.label) for f in known if f.seat is not None}
    narrator = v.motion.narrator
    fields = narrator.fields if narrator is not None else None
    # Name plates.
    for seat in range(v.players):
        r = L.plate(seat)
        n = len(m.hand) if seat == v.human else len(v.motion.backs.get(seat, []))
        color = seat_color(v, seat)
        thinking = 1.0 if (v.session.thinking and v.session.to_act == seat and v.motion.idle) else 0.0
        # A seat's announcement (a bid, a pass) shows on its plate while the play has not begun.
        said = plate_words(v.t, m.said, seat, fields)
        count = said or (v.t("table.cards_left", count=n) if seat != v.human else "")
        plate(
            surface,
            r,
            v.names.seat_name(seat),
            count,
            color,
            v.active_glow[seat].value,
            m.dealer == seat,
            thinking,
            v.time,
            rating=v.names.rating(seat),
            tag=tags.get(seat, ""),
        )
    # The score panel.
    R = TL.SCORE_RECT
    rows = score_rows(v)
    from game.variants import variant_name  # the house rules' name, under the game's

    variant = variant_name(v.app.i18n, v.rules.game, v.rules.options, v.players)
    vsize = 13 if variant and theme.text_width(variant, "sans_bold", 13) <= R.w - 28 else 12
    vlines = theme.wrap(variant, "sans_bold", vsize, R.w - 28, max_lines=2) if variant else []
    names = v.rules.game.name
    name = names.get(v.lang) or names.get("en", v.game)
    caption = score_caption(v)
    # The caption beside the game's name; under it where a long name leaves no room ("Deal 1
    # of 10" beside a two-word name), the rows then a little closer to keep the panel's size.
    room = R.w - 26 - theme.text_width(name, "serif_bold", 16, 1.5, True) - 14
    below = theme.text_width(caption, "cond_bold", 9, 9 * 0.16, True) > room
    top = 34 + 17 * len(vlines) + (15 if below else 0)
    pitch = 22 if not below else max(18, min(22, (score_bottom(v.players) - R.y - top - 8) // max(1, len(rows))))
    h = top + pitch * len(rows) + 8
    rect = pygame.Rect(R.x, R.y, R.w, h)
    surface.blit(theme.shadow(rect.size, 12, 6, 110), (rect.x - 6, rect.y - 6 + 3))
    surface.blit(theme.panel(rect.size, 12), rect)
    theme.blit_text(surface, name, (rect.x + 14, rect.y + 9), "serif_bold", 16, theme.CREAM, tracking=1.5, caps=True)
    if below:
        size = theme.fit(caption, "cond_bold", 11, R.w - 28, 8, tracking_ratio=0.16, caps=True)
        theme.small_caps(surface, caption, (rect.x + 14, rect.y + 31), size, theme.BRASS)
    else:
        size = theme.fit(caption, "cond_bold", 11, room, 8, tracking_ratio=0.16, caps=True)
        theme.small_caps(surface, caption, (rect.right - 12, rect.y + 12), size, theme.BRASS, anchor="topright")
    for i, line in enumerate(vlines):
        y0 = rect.y + 31 + (15 if below else 0) + 17 * i
        theme.blit_text(surface, line, (rect.x + 14, y0), "sans_bold", vsize, theme.BRASS_LIGHT)
    y = rect.y + top
    for color, label, value, note in rows:
        pygame.draw.rect(surface, color, (rect.x + 14, y + 4, 3, 13), border_radius=1)
        lr = theme.blit_text(surface, label, (rect.x + 24, y), "sans_bold", 14, theme.CREAM)
        if note:  # smaller rather than over the name (Tressette's "2 ⅓ in questa smazzata" at large text)
            nsize = theme.fit(note, "sans", 12, rect.right - 58 - (lr.right + 8), 8)
            nr = theme.blit_text(
                surface, note, (rect.right - 58, y + 2), "sans", nsize, theme.CREAM_DIM, anchor="topright"
            )
            theme.note_box(f"{label} | {note}", lr.w + 8 + nr.w, rect.right - 58 - lr.x)  # no overlap
        theme.blit_text(surface, value, (rect.right - 14, y - 1), "sans_bold", 16, theme.BRASS_LIGHT, anchor="topright")
        y += pitch
    shown = [f for f in known if f.seat is None]
    if shown:
        draw_facts(surface, v, shown)


FACTS_W = 330


def facts_rect(v: TableView, shown: list[TableFact]) -> pygame.Rect:
    """The facts' panel: under the top row of buttons, at the right."""
    h = 12 + 22 * len(shown) + 34 * sum(1 for f in shown if f.suit)
    r = pygame.Rect(0, 0, FACTS_W, h)
    r.topright = (TL.MENU_RECT.right, TL.MENU_RECT.bottom + 10)
    return r


def draw_facts(surface: pygame.Surface, v: TableView, shown: list[TableFact]) -> None:
    """The rules' facts in a small panel: "CONTRACT  King · West", "CALLED CARD  Knight of
    Cups", and a fact's suit as the trump chip."""
    box = facts_rect(v, shown)
    surface.blit(theme.shadow(box.size, 12, 6, 110), (box.x - 6, box.y - 3))
    surface.blit(theme.panel(box.size, 12), box)
    y = box.y + 8
    for f in shown:
        label = v.t(f.label)
        value = fact_words(v, f.value, f.params) if f.value else ""
        lsize = theme.fit(label, "cond_bold", 11, 120, 8, tracking_ratio=0.16, caps=True)
        lr = theme.small_caps(surface, label, (box.x + 14, y + 3), lsize, theme.BRASS)
        room = box.right - 14 - (lr.right + 10)
        vsize = theme.fit(value, "sans_bold", 14, room, 9)
        theme.blit_text(surface, value, (box.right - 14, y), "sans_bold", vsize, theme.CREAM, anchor="topright")
        y += 22
    for f in shown:
        if f.suit:
            from scenes.table.board import trump_chip

            trump_chip(surface, v, CardPainter(card_art(v.deck), v.deck.aspect, v.lang), f.suit, (box.centerx, y + 2))
            y += 34


def one_deal(v: TableView) -> bool:
    """A match of one deal: the house rule, or a record of one deal (``deals: 1`` on its
    match line: a daily deal, a duplicate half)."""
    events = getattr(getattr(v.session, "match", None), "events", None) or []
    return v.rules.match_goal()[0] == "single" or bool(events and events[0].get("deals") == 1)


def score_caption(v: TableView) -> str:
    """The panel's caption: the deal and the target, the Bummerl, or "single deal"."""
    deal = v.t("table.deal_number", number=max(1, v.model.deal_number))
    goal, value = v.rules.match_goal()
    if one_deal(v):
        return v.t("table.single_deal")
    if goal == "target":
        return f"{deal} · {v.t('table.target', target=value)}"
    if goal == "bummerl":
        return v.t("table.bummerl")
    if goal == "fixed_deals":  # a set number of deals, whoever leads: "Deal 3 of 10"
        return v.t("table.fixed_deals", number=max(1, v.model.deal_number), count=value)
    if goal == "single":
        return v.t("table.single_deal")
    return deal


def _bonus_key(v: TableView) -> str:
    """The game's own word for its counted bonuses ("3 scope"), else "3 bonuses"."""
    key = f"table.bonuses_{v.game}"
    return key if v.app.i18n.has(key) or v.app.i18n.has(key, "en") else "table.bonuses"


def score_rows(v: TableView) -> list[Row]:
    """The score panel's rows, one per side, the player's own first (a duplicate's second
    half and a second seat online sit in another chair: still "You" on top)."""
    rows = _score_rows(v)
    mine = v.human_team
    if len(rows) == v.teams and 0 < mine < len(rows):
        rows = [rows[mine], *(r for t, r in enumerate(rows) if t != mine)]
    return rows


def _score_rows(v: TableView) -> list[Row]:
    """The rows in team order (a seat is a team where the players play alone)."""
    m, rules = v.model, v.rules
    single = one_deal(v)
    scores = rules.hud_scores
    rows: list[Row] = []
    if scores == "card_points" and v.teams < v.players:
        return team_card_points(v, single)
    if scores == "card_points":
        # Card points of the deal per seat; in a match, the deals won beside them.
        for seat in range(v.players):
            note = v.t("table.card_points")
            if not single:
                note = f"{v.t('table.deals_won')} {m.totals[rules.team_of(seat)]}"
            rows.append((team_color(v, seat), v.names.seat_name(seat), str(m.card_points[seat]), note))
        return rows
    if scores == "bummerl":
        # The Bummerl counts, your own points as you would keep them, their won cards.
        for seat in range(v.players):
            if seat == v.human:
                pts = m.card_points[seat] + m.declared_points[seat]
                # "your points" only from a person's chair (a computer-only replay has none)
                mine = v.names.human is not None
                note = f"{v.t('table.your_points' if mine else 'table.card_points')} {pts}"
                if m.pending[seat]:
                    note += "  " + v.t("table.pending", points=m.pending[seat])
            else:
                note = v.t("table.won_cards", count=m.won_cards[seat])
            team = rules.team_of(seat)
            total = m.totals[team] if team < len(m.totals) else rules.initial_totals()[team]
            rows.append((team_color(v, seat), v.names.seat_name(seat), str(total), note))
        return rows
    # Match points per team, with the bonuses counted so far.
    key = _bonus_key(v)
    tally = tally_points(v)
    for t in range(v.teams):
        note = v.t(key, count=m.bonus_count[t]) if m.bonus_count[t] else ""
        if tally is not None:  # the running tally: what the awards would give now
            now = v.t("story.tally_now", points=tally[t])
            note = f"{note} · {now}" if note else now
        if scores == "thirds":
            # The deal's trick points so far, as players count them: "4 ⅔".
            won = sum(m.card_points[p] for p in range(v.players) if rules.team_of(p) == t)
            note = v.t("table.deal_thirds", value=rules.points_text(won))
        total = m.totals[t] if t < len(m.totals) else 0
        if single:  # one deal: its points are shown when it is over
            total = m.totals[t] if m.deal_number > 1 or m.match_over else 0
        rows.append((team_color(v, t), v.names.team_name(t), str(total), note))
    return rows


def team_card_points(v: TableView, single: bool) -> list[Row]:
    """Partners count their tricks together (Briscola for four): the deal's card points per
    team, "Us" and "Them", and in a match the deals each team has won."""
    m, rules = v.model, v.rules
    rows: list[Row] = []
    for t in range(v.teams):
        points = sum(m.card_points[p] for p in range(v.players) if rules.team_of(p) == t)
        note = v.t("table.card_points") if single else f"{v.t('table.deals_won')} {m.totals[t]}"
        rows.append((team_color(v, t), v.names.team_name(t), str(points), note))
    return rows


def tally_points(v: TableView) -> list[int] | None:
    """The running tally (Settings, off by default): per team, the points the deal's awards
    and bonuses would give if it ended now (the rules' ``tally``); None when off or the
    game has no such awards."""
    narrator = v.motion.narrator  # None: the replay viewer's HUD tells no tally
    if not v.app.settings.running_tally or narrator is None:
        return None
    deal = narrator.deal
    result = v.rules.tally(deal.piles, deal.bonuses)
    return None if result is None else list(result.points)


def draw_status(surface: pygame.Surface, v: TableView) -> None:
    text = sub = None
    if v.choice.can_act and chooser_open(v):
        pass  # the chooser's panel has the words now
    elif v.choice.can_act and not any(a.card is not None for a in v.choice.legal()):
        text = v.t("table.your_turn")  # a decision with no card to play (an auction): its buttons
    elif v.choice.can_act:
        if v.choice.mode == "capture":
            text = v.t("table.choose_capture_or_place" if v.rules.may_place_instead else "table.choose_capture")
        elif v.choice.mode == "toggle":
            text = v.t(f"table.choose_{declared_toggle(v.rules)}")
        elif v.choice.selected is not None:  # chosen by a click: a second click (or Enter) plays it
            text = v.t("confirm.play_selected")
        else:
            text = v.t("table.your_turn_choose")
            key = f"table.keys_{v.game}"
            if v.rules.draws_public and v.app.i18n.has(key + "_public_draws", "en"):
                key += "_public_draws"  # … K: the cards drawn face up
            sub = v.t(key) if v.app.i18n.has(key) or v.app.i18n.has(key, "en") else None
    elif v.motion.idle and not v.session.over and v.session.to_act is not None:
        seat = v.session.to_act
        if not (seat == v.human and getattr(v.session, "covered", False)):  # the notice says who plays
            text = v.t(
                "table.thinking" if v.session.thinking else "table.to_play", name=v.names.seat_name(seat, subject=True)
            )
    elif v.motion.waiting:  # a finished trick stays until a click or a key (Settings)
        text = v.t("story.go_on")
    draw_caption(surface, v)
    if text:
        img = theme.text(text, "sans_bold", 15, theme.CREAM, shadow=1)
        w = img.get_width() + 36
        r = pygame.Rect(0, 0, w, 28)
        r.center = v.layout.status_pos
        surface.blit(theme.rounded(r.size, 14, (8, 24, 16, 170), 1, (*theme.BRASS_DARK, 200)), r)
        surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))
    if sub and v.choice.selected is None:
        theme.blit_text(
            surface, sub, (640, v.layout.status_pos[1] - 17), "sans", 12, theme.CREAM_FAINT, anchor="midbottom"
        )


def caption_lines(v: TableView) -> list[str]:
    """The caption in view, wrapped as it is drawn: what the last play was, in words."""
    return caption_layout(v)[0]


CAPTION_SIZE = 15
CAPTION_W = 820
#: The caption's bottom edge: just above the status line (and its key hints).
CAPTION_BOTTOM = 466


def caption_bottom(v: TableView) -> int:
    """The caption's bottom edge on this table (larger cards raise the status line)."""
    return CAPTION_BOTTOM - (TL.STATUS_POS[1] - round(getattr(v.layout, "status_pos", TL.STATUS_POS)[1]))


def caption_step() -> int:
    """The caption's line spacing: larger text (Settings) needs taller lines."""
    return round(20 * theme.TEXT_SCALE[0])


def caption_layout(v: TableView) -> tuple[list[str], pygame.Rect | None]:
    """The caption's lines and box: two lines at most, centred above the status line —
    unless that would cover the trump chip under the stock (a long caption, large text):
    then it is wrapped into the felt right of the chip (three lines at most)."""
    text = v.motion.caption
    if not text:
        return [], None

    def box(lines: list[str], centre: int) -> pygame.Rect:
        w = max(theme.text_width(ln, "sans_bold", CAPTION_SIZE) for ln in lines) + 36
        r = pygame.Rect(0, 0, w, 10 + caption_step() * len(lines))
        r.midbottom = (centre, caption_bottom(v))
        return r

    lines = theme.wrap(text, "sans_bold", CAPTION_SIZE, CAPTION_W - 36, max_lines=2)
    r = box(lines, 640)
    chip = trump_chip_box(v)
    if chip is not None and r.colliderect(chip.inflate(16, 8)):
        left, right = chip.right + 12, TL.TABLE_AREA.right
        lines = theme.wrap(text, "sans_bold", CAPTION_SIZE, right - left - 36, max_lines=3)
        r = box(lines, (left + right) // 2)
    return lines, r


def draw_caption(surface: pygame.Surface, v: TableView) -> None:
    """What happened, in words, over the felt above the status line; it dims once it is old
    (it stays until the next one, so a play can be read while you think)."""
    if v.caption_hidden or chooser_open(v):  # a suggestion or a question has the line now
        return
    lines, r = caption_layout(v)
    if not lines or r is None:
        return
    from scenes.table.motion import CAPTION_FRESH

    fresh = v.motion.caption_age < CAPTION_FRESH
    step = caption_step()
    layer = hidpi.surface(r.size, pygame.SRCALPHA)
    layer.blit(theme.rounded(r.size, 12, (6, 20, 13, 200), 1, (*theme.BRASS_DARK, 220)), (0, 0))
    for i, ln in enumerate(lines):
        img = theme.text(ln, "sans_bold", CAPTION_SIZE, theme.BRASS_LIGHT if fresh else theme.CREAM, shadow=1)
        layer.blit(img, img.get_rect(midtop=(r.w // 2, 5 + step * i)))
        theme.note_box(ln, img.get_width(), CAPTION_W - 36)
    layer.set_alpha(255 if fresh else 170)
    surface.blit(layer, r)


# ---------------------------------------------------------------------- the match is over
def final_buttons() -> tuple[pygame.Rect, pygame.Rect]:
    """ "Play again" and "Back to the menu" on the match-over panel."""
    return pygame.Rect(640 - 230, 400, 220, 48), pygame.Rect(640 + 10, 400, 220, 48)


def draw_final(surface: pygame.Surface, v: TableView) -> None:
    veil = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 120))
    surface.blit(veil, (0, 0))
    box = pygame.Rect(0, 0, 560, 250)
    box.center = (640, 360)
    surface.blit(theme.shadow(box.size, 16, 10, 140), (box.x - 10, box.y - 4))
    surface.blit(theme.panel(box.size, 16, (10, 30, 20, 240), theme.BRASS), box)
    w = v.session.match.winner
    one = one_deal(v)
    outcome = 0 if w is None else (1 if w == v.human_team else 2)
    if one:  # a daily deal, a duplicate half: the end of the deal, not of a match
        title, msg = (
            "one_deal.table_over",
            ("one_deal.table_drawn", "one_deal.table_won", "one_deal.table_lost")[outcome],
        )
    else:
        title, msg = "table.match_over", ("table.drawn", "table.you_won", "table.you_lost")[outcome]
    theme.heading(surface, v.t(title), (640, box.y + 28), 26, anchor="midtop")
    theme.blit_text(surface, v.t(msg), (640, box.y + 84), "serif", 20, theme.CREAM, anchor="midtop")
    a, b = final_buttons()
    again = "online.again" if v.session.capabilities.again == "another_table" else "table.play_again"
    for r, key, primary in ((a, again, True), (b, "table.to_menu", False)):
        body = theme.rounded(
            r.size, 12, (*theme.BRASS, 255) if primary else (12, 34, 24, 220), 1, (*theme.BRASS_DARK, 255)
        )
        surface.blit(body, r)
        theme.blit_text(
            surface, v.t(key), r.center, "sans_bold", 15, (40, 28, 12) if primary else theme.CREAM, anchor="center"
        )


__all__ = [
    "draw_hud",
    "score_caption",
    "score_rows",
    "draw_status",
    "final_buttons",
    "draw_final",
    "team_color",
    "draw_caption",
    "caption_lines",
    "caption_layout",
    "caption_step",
    "tally_points",
    "caption_bottom",
]
