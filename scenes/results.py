"""The results of a deal, and of the match when it is over.

The table pushes this scene when a deal has been animated::

    app.open_scene("results", session=session, deal_end=<deal_end event>, match_end=<match_end or None>)

"Continue" (Enter, Esc) pops it and the table goes on with the next deal; "Menu" pops down
to the menu. With ``match_end`` the scene also announces the match result (a celebration
for a win) and offers "New match" (same game and options: the table is replaced) and "Menu".

The breakdown is built by :func:`breakdown` from the game's ``deal_end.detail`` (see each
game module's ``deal_result``) into plain rows, so tests can read exactly what is shown.

Without a session (``--screenshot F --scene results --game G [--match-end]``) the scene
plays a match headless with bots up to its first ``deal_end`` (or to ``match_end``).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import pygame

from scenes.scene import UIScene
from sprites import theme
from sprites.tween import Tween, ease_out_back, ease_out_cubic
from sprites.widgets import Button

PANEL_W = 960
TABLE_PAD = 40
LABEL_W = 340
ROW_H = 31
DEMO_SEED = 11
WIN = (236, 202, 128)
LOSS = (214, 120, 100)


# ====================================================================== the breakdown model
@dataclass
class Cell:
    text: str = ""
    points: int | None = None  # points this line earned (drawn as a "+n" pill); None: no pill
    mark: bool = False         # a ✓ (the card is held)


@dataclass
class Row:
    label: str
    cells: list[Cell]
    kind: str = "line"  # line | total | match | bummerl


@dataclass
class Breakdown:
    columns: list[str]             # one per team (or player), in team order
    mine: int | None               # the human's team, highlighted
    rows: list[Row]
    headline: str = ""             # the deal's one-line verdict
    notes: list[str] = field(default_factory=list)
    bar: tuple[int, int] | None = None  # Briscola: the two card-point totals for the split bar


def _deck_names(deck: Any, lang: str) -> dict[str, str]:
    names = {s: deck.suit_name(s, lang) for s in ("D", "C", "S", "B")}
    names.update({r: deck.court_name(r, lang) for r in ("J", "Q", "K")})
    return names


def team_names(t: Any, players: int, human_seat: int | None, subject: bool = False) -> list[str]:
    """Column names in team order: "Your team"/"Opponents" with four players, else "You"
    and the opponents by where they sit (the next player, anticlockwise, sits to your right).

    ``subject``: the names as a sentence's subject ("L'avversario ha raggiunto 66"), which
    take an article in nl/de/it (results.subject.*)."""
    sub = "subject." if subject else ""
    if players == 4:
        if human_seat is None:
            return [t("results.team_n", n=1), t("results.team_n", n=2)]
        mine = human_seat % 2
        return [t("results.your_team") if team == mine else t("results.opponents") for team in range(2)]
    names = []
    for seat in range(players):
        if human_seat is None:
            names.append(t(f"results.{sub}player_n", n=seat + 1))
        elif seat == human_seat:
            names.append(t("results.you"))
        elif players == 2:
            names.append(t(f"results.{sub}opponent"))
        else:
            rel = (seat - human_seat) % players
            names.append(t(f"results.{sub}opponent_right" if rel == 1 else f"results.{sub}opponent_left"))
    return names


def breakdown(t: Any, rules: Any, deal_end: dict, human_seat: int | None, lang: str) -> Breakdown:
    """The rows of the results table for one ``deal_end`` event (any game)."""
    cols = team_names(t, rules.players, human_seat)
    mine = None if human_seat is None else rules.team_of(human_seat)
    builder = {"scopa": _scopa, "cicera": _cicera, "briscola": _briscola, "schnapsen": _schnapsen}[rules.game_id]
    b = Breakdown(columns=cols, mine=mine, rows=[])
    builder(b, t, rules, deal_end, _deck_names(rules.deck, lang))
    left = deal_end.get("leftover")
    if left and rules.game_id in ("scopa", "cicera"):
        n = len(left.get("cards", []))
        b.notes.append(t("results.leftover", count=n, team=cols[left["team"]]))
    return b


def _pts(v: int) -> int | None:
    return v if v else None


def _target_line(t: Any, rules: Any) -> str:
    return t("results.match_total_to", target=rules.options.get("target"))


def _scopa(b: Breakdown, t: Any, rules: Any, ev: dict, names: dict[str, str]) -> None:
    d = ev["detail"]
    n = len(b.columns)
    b.rows.append(Row(t("results.scopa.cards"), [Cell(str(d["card_counts"][i]), _pts(d["cards"][i])) for i in range(n)]))
    b.rows.append(Row(t("results.scopa.coins", suit=names["D"]),
                      [Cell(str(d["coin_counts"][i]), _pts(d["coins"][i])) for i in range(n)]))
    b.rows.append(Row(t("results.scopa.settebello", suit=names["D"]),
                      [Cell("", _pts(d["settebello"][i]), mark=bool(d["settebello"][i])) for i in range(n)]))
    prim = d["primiera_values"]
    b.rows.append(Row(t("results.scopa.primiera"),
                      [Cell("—" if prim[i] is None else str(prim[i]), _pts(d["primiera"][i])) for i in range(n)]))
    b.rows.append(Row(t("results.scopa.scope"), [Cell(str(d["scope"][i]), _pts(d["scope"][i])) for i in range(n)]))
    b.rows.append(Row(t("results.deal_points"), [Cell(str(p)) for p in ev["points"]], "total"))
    b.rows.append(Row(_target_line(t, rules), [Cell(str(v)) for v in ev["totals"]], "match"))
    if any(v is None for v in prim):
        b.notes.append(t("results.scopa.no_primiera"))


def _cicera(b: Breakdown, t: Any, rules: Any, ev: dict, names: dict[str, str]) -> None:
    d = ev["detail"]
    n = len(b.columns)
    if d.get("no_capture"):
        b.headline = t("results.cicera.no_capture")
    for name in ("scua", "picada", "simili", "quadriglia"):
        b.rows.append(Row(t(f"results.cicera.{name}"), [Cell(str(d[name][i]), _pts(d[name][i])) for i in range(n)]))
    b.rows.append(Row(t("results.cicera.most_cards"),
                      [Cell(str(d["card_counts"][i]), _pts(d["cards"][i])) for i in range(n)]))
    b.rows.append(Row(t("results.cicera.most_swords", suit=names["S"]),
                      [Cell(str(d["sword_counts"][i]), _pts(d["swords"][i])) for i in range(n)]))
    for code, key in (("2S", "two_swords"), ("10D", "ten_coins"), ("JC", "knave_cups")):
        row = d.get(code, [0] * n)
        b.rows.append(Row(t(f"results.cicera.{key}", **names),
                          [Cell("", _pts(row[i]), mark=bool(row[i])) for i in range(n)]))
    b.rows.append(Row(t("results.cicera.napula", suit=names["S"]),
                      [Cell(t("results.cicera.run", count=d["napula"][i]) if d["napula"][i] else "—",
                            _pts(d["napula"][i])) for i in range(n)]))
    b.rows.append(Row(t("results.deal_points"), [Cell(str(p)) for p in ev["points"]], "total"))
    if rules.options.get("format") == "match":
        b.rows.append(Row(_target_line(t, rules), [Cell(str(v)) for v in ev["totals"]], "match"))


def _briscola(b: Breakdown, t: Any, rules: Any, ev: dict, names: dict[str, str]) -> None:
    d = ev["detail"]
    n = len(b.columns)
    b.rows.append(Row(t("results.briscola.card_points"), [Cell(str(p)) for p in d["card_points"]], "total"))
    b.rows.append(Row(t("results.briscola.tricks"), [Cell(str(x)) for x in d["tricks"]]))
    w = d.get("deal_winner")
    b.headline = t("results.briscola.draw") if w is None else t("results.briscola.won", name=b.columns[w],
                                                                  points=d["card_points"][w])
    b.bar = (d["card_points"][0], d["card_points"][1])
    if rules.options.get("format") == "match":
        b.rows.append(Row(t("results.briscola.deals_won", count=rules.options.get("deals_to_win", 2)),
                          [Cell(str(ev["totals"][i])) for i in range(n)], "match"))


def _schnapsen(b: Breakdown, t: Any, rules: Any, ev: dict, names: dict[str, str]) -> None:
    d = ev["detail"]
    w = d["winner"]
    closer = d.get("closed_by")
    reason = d["reason"]
    # The subject changes the verb in nl/de/it: a "_you" message when it is the player.
    actor = closer if reason == "closed_lost" and closer is not None else w
    you = "_you" if b.mine == actor else ""
    subjects = team_names(t, rules.players, b.mine, subject=True)  # two players: team = seat
    b.headline = t(f"results.schnapsen.reason_{reason}{you}", name=subjects[actor])
    gp = ev["points"][w]
    # Why this many game points: the loser's points and tricks (as recorded at the closure).
    if reason == "closed_lost":
        why = t(f"results.schnapsen.why_closed_lost_{3 if gp >= 3 else 2}")
    elif reason == "last_trick":
        why = t("results.schnapsen.why_last_trick")
    else:
        why = t("results.schnapsen." + {1: "why_33", 2: "why_under_33", 3: "why_no_trick"}.get(gp, "why_33"))
    b.notes.append(why)
    if reason == "closed_won":
        b.notes.append(t("results.schnapsen.closure_note"))
    b.rows.append(Row(t("results.schnapsen.card_points"), [Cell(str(p)) for p in d["card_points"]]))
    b.rows.append(Row(t("results.schnapsen.marriages"), [Cell(str(p)) for p in d["marriages"]]))
    b.rows.append(Row(t("results.schnapsen.points"), [Cell(str(p)) for p in d["points"]], "total"))
    b.rows.append(Row(t("results.schnapsen.tricks"), [Cell(str(x)) for x in d["tricks"]]))
    b.rows.append(Row(t("results.schnapsen.game_points"), [Cell(str(p), _pts(p)) for p in ev["points"]], "total"))
    b.rows.append(Row(t("results.schnapsen.bummerl"), [Cell(str(v)) for v in ev["totals"]], "bummerl"))
    for seat, p in enumerate(d.get("pending") or [0, 0]):
        if p:
            b.notes.append(t("results.schnapsen.pending", name=b.columns[seat], points=p))


def match_verdict(t: Any, rules: Any, match_end: dict, human_seat: int | None, columns: list[str]) -> tuple[str, str]:
    """(title, tone) for the match result; tone is win, loss or draw."""
    w = match_end.get("winner")
    if w is None:
        return t("results.match_draw"), "draw"
    if human_seat is not None and rules.team_of(human_seat) == w:
        return t("results.match_won_team" if rules.players == 4 else "results.match_won"), "win"
    if rules.players == 4 and human_seat is not None:
        return t("results.match_lost_team"), "loss"
    return t("results.match_lost", name=team_names(t, rules.players, human_seat, subject=True)[w]), "loss"


# ====================================================================== a demo deal for screenshots
def demo(app: Any, game: str, deck: str | None, players: int | None, to_match_end: bool,
         seed: int = DEMO_SEED, options: dict | None = None) -> tuple[Any, dict, dict | None]:
    """Play a match headless with bots up to its first deal_end (or its match_end)."""
    from game.session import Session

    saved = dict(app.settings.game_options.get(game, {}))
    n = players or saved.pop("players", None)
    saved.pop("players", None)
    if options is not None:
        saved.update(options)
    s = Session.new(game, deck, n, saved or None, seed, human_seat=None, bot_name="greedy", threaded=False)
    s.start()
    deal_end = match_end = None
    while not s.over:
        s.poll()
        for ev in s.take_events():
            if ev["event"] == "deal_end":
                deal_end = ev
            elif ev["event"] == "match_end":
                match_end = ev
        if deal_end is not None and not to_match_end:
            break
    for ev in s.take_events():
        if ev["event"] == "deal_end" and deal_end is None:
            deal_end = ev
        elif ev["event"] == "match_end":
            match_end = ev
    s.human_seat = 0  # shown from seat 0's chair
    return s, deal_end, match_end


# ====================================================================== celebration
class Confetti:
    """Paper scraps falling in brass, cream and the card colours: the celebration of a win."""

    COLORS = [(236, 202, 128), (243, 234, 215), (192, 38, 45), (46, 90, 168), (224, 165, 38), (63, 143, 74)]

    def __init__(self, rng: random.Random, n: int = 150):
        self.bits = []
        for _ in range(n):
            self.bits.append([rng.uniform(40, 1240), rng.uniform(-720, 700), rng.uniform(-40, 40),
                              rng.uniform(70, 170), rng.uniform(0, 6.28), rng.uniform(-5, 5),
                              rng.choice(self.COLORS), rng.uniform(5, 10)])

    def update(self, dt: float) -> None:
        for b in self.bits:
            b[0] += (b[2] + 30 * math.sin(b[4] * 0.7)) * dt
            b[1] += b[3] * dt
            b[4] += b[5] * dt
            if b[1] > 740:
                b[1] -= 760

    def draw(self, surface: pygame.Surface) -> None:
        for x, y, _vx, _vy, ang, _sp, col, size in self.bits:
            if y < -12:
                continue
            w = size * abs(math.cos(ang)) + 1.5  # the scrap turns: its width flickers
            h = size * 0.55
            ca, sa = math.cos(ang * 0.5), math.sin(ang * 0.5)
            pts = [(x + dx * ca - dy * sa, y + dx * sa + dy * ca)
                   for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]
            pygame.draw.polygon(surface, col, pts)


# ====================================================================== the scene
class ResultsScene(UIScene):
    is_overlay = True

    def __init__(self, app: Any, session: Any, deal_end: dict, match_end: dict | None, *, standalone: bool = False):
        self.session = session
        self.rules = session.rules
        self.deal_end = deal_end
        self.match_end = match_end
        self.human_seat = session.human_seat
        self.standalone = standalone
        # Over the table it is an overlay (the table shows through); alone it draws its own felt.
        self.is_overlay = not standalone
        #: (text, rendered width, box width) of every fitted text drawn last frame (tests).
        self.text_log: list[tuple[str, int, int]] = []
        self.appear = Tween(0.0, 1.0, 0.45, ease_out_cubic)
        self.pop = Tween(0.0, 1.0, 0.6, ease_out_back, delay=0.15)
        self._lang: str | None = None
        self._model: Breakdown | None = None
        super().__init__(app)
        self.confetti: Confetti | None = None
        if self.over and self.tone == "win":
            self.confetti = Confetti(random.Random(deal_end.get("number", 1)))

    # ------------------------------------------------------------------ model
    def model(self) -> Breakdown:
        lang = self.app.language
        if self._model is None or self._lang != lang:
            self._model = breakdown(self.t, self.rules, self.deal_end, self.human_seat, lang)
            self._lang = lang
        return self._model

    @property
    def over(self) -> bool:
        return self.match_end is not None

    @property
    def tone(self) -> str:
        if self.match_end is None:
            return ""
        return match_verdict(self.t, self.rules, self.match_end, self.human_seat, self.model().columns)[1]

    # ------------------------------------------------------------------ layout
    @property
    def single_deal(self) -> bool:
        return self.rules.options.get("format") == "single"

    def _height(self, row_h: int) -> int:
        """The panel's height, block by block as :meth:`draw` lays them out."""
        m = self.model()
        top = (22 + 80 + 30 + (0 if self.single_deal else 22) + 22) if self.over else (22 + 46 + 24 + 22)
        notes = sum(len(theme.wrap(n, "serif", 15, PANEL_W - 2 * TABLE_PAD - 20)) for n in m.notes)
        return (top + (34 if m.headline else 0) + (30 if m.bar else 0) + 32 + len(m.rows) * (row_h + 2) + 10
                + notes * 21 + 18 + 48 + 26)

    def build(self) -> None:
        # Rows shrink a little when a long breakdown (Cìcera's match end) would not fit.
        self.row_h = ROW_H
        while self._height(self.row_h) > 700 and self.row_h > 24:
            self.row_h -= 1
        h = max(400, self._height(self.row_h))
        self.rect = pygame.Rect((1280 - PANEL_W) // 2, (720 - h) // 2 - 6, PANEL_W, h)
        y = self.rect.bottom - 70
        bw, gap = 230, 22
        x = self.rect.centerx - bw - gap // 2
        if self.over:
            self.primary = self.ui.add(Button((x, y, bw, 48), self.label("results.new_match"), self.new_match,
                                              style="primary", size=17, name="new_match"))
        else:
            self.primary = self.ui.add(Button((x, y, bw, 48), self.label("results.continue"), self.continue_,
                                              style="primary", size=17, name="continue"))
        self.menu_button = self.ui.add(Button((x + bw + gap, y + 3, bw, 42), self.label("results.menu"),
                                              self.to_menu, size=15, name="menu"))
        self.ui.focus(self.primary)

    # ------------------------------------------------------------------ actions
    def continue_(self) -> None:
        """Back to the table, which goes on with the next deal."""
        if self.app.stack.top is self:
            self.app.stack.pop()

    def back(self) -> None:
        # Esc: the same as Continue during a match; to the menu once it is over.
        if self.over:
            self.to_menu()
        else:
            self.continue_()

    def to_menu(self) -> None:
        from scenes.menu import MenuScene
        from scenes.scene import make_scene

        stack = self.app.stack
        if any(isinstance(s, MenuScene) for s in stack.scenes):
            stack.pop_to(MenuScene)
        else:
            stack.scenes.clear()
            stack.push(make_scene(self.app, "menu"))

    def new_match(self) -> None:
        """The same game and options again: the table below is replaced by a fresh one."""
        from scenes.scene import make_scene

        r = self.rules
        params = {"deck": r.deck.id, "game": r.game_id, "players": r.players, "options": dict(r.options),
                  "ai_level": self.app.settings.ai_level}
        try:
            table = make_scene(self.app, "table", **params)
        except (ValueError, TypeError, KeyError) as e:  # the table refused: say so, lose nothing
            self.app.toast(str(e))
            return
        if table is None:
            self.app.toast(self.t("toast.not_ready", what=self.t("scene.table")))
            return
        stack = self.app.stack
        if stack.top is self:
            stack.pop()
        if stack.top is not None and getattr(stack.top, "name", "") == "table":
            stack.replace(table)
        else:
            stack.push(table)

    # ------------------------------------------------------------------ loop
    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)
        self.pop.update(dt)
        if self.confetti is not None:
            self.confetti.update(dt)

    def label_width(self) -> int:
        """The label column: wide enough for the longest label (German), never starving the
        numbers (each column keeps at least 150 px)."""
        m = self.model()
        need = max(theme.text_width(r.label, "sans_bold" if r.kind != "line" else "sans", 16) for r in m.rows) + 28
        most = PANEL_W - 2 * TABLE_PAD - 150 * len(m.columns)
        return max(LABEL_W, min(need, most, 430))

    # ------------------------------------------------------------------ drawing helpers
    def _fit(self, surface: pygame.Surface, s: str, pos: tuple[int, int], width: int, face: str = "sans",
             size: int = 16, color=theme.CREAM, anchor: str = "topleft", min_size: int = 11) -> pygame.Rect:
        """Text shrunk to fit ``width`` (German is long); logged so tests can check every box."""
        size = theme.fit(s, face, size, width, min_size)
        rect = theme.blit_text(surface, s, pos, face, size, color, anchor)
        self.text_log.append((s, theme.text_width(s, face, size), width))
        return rect

    def _caps(self, surface: pygame.Surface, s: str, pos: tuple[int, int], width: int, size: int = 13,
              color=theme.BRASS, anchor: str = "topleft") -> pygame.Rect:
        size = theme.fit(s, "cond_bold", size, width, 9, 0.16, True)
        rect = theme.small_caps(surface, s, pos, size, color, anchor)
        self.text_log.append((s, theme.text_width(s, "cond_bold", size, size * 0.16, True), width))
        return rect

    def _pill(self, surface: pygame.Surface, n: int, center: tuple[int, int]) -> None:
        img = theme.text(f"+{n}", "sans_bold", 14, (40, 28, 12))
        w = max(32, img.get_width() + 14)
        pill = theme.rounded((w, 22), 11, (*theme.BRASS_LIGHT, 255), 1, (*theme.BRASS_DARK, 255))
        r = pill.get_rect(center=center)
        surface.blit(pill, r)
        surface.blit(img, img.get_rect(center=(r.centerx, r.centery + 1)))

    def _bummerl(self, surface: pygame.Surface, count: int, start: int, centre: tuple[int, int]) -> None:
        """The count as tally strokes: ``count`` standing in cream, the spent ones faint."""
        step = 11
        x0 = centre[0] - (start * step) // 2
        cy = centre[1]
        for i in range(start):
            x = x0 + i * step
            standing = i < count
            col = theme.CREAM if standing else (78, 104, 88)
            pygame.draw.line(surface, col, (x, cy - 9), (x + 3, cy + 9), 3 if standing else 2)
        if count == 0:  # the Bummerl is paid off: a bold stroke through the tally
            pygame.draw.line(surface, WIN, (x0 - 6, cy + 7), (x0 + start * step, cy - 7), 3)

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        self.text_log = []
        if self.standalone:
            surface.blit(theme.table_background(), (0, 0))
        a = float(self.appear.value_at(self.alpha))
        dim = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        dim.fill((0, 0, 0, int(110 * a)))
        surface.blit(dim, (0, 0))
        if self.confetti is not None:
            self.confetti.draw(surface)
        r = self.rect.move(0, round((1 - a) * 24))
        surface.blit(theme.shadow(r.size, 18, 12, 150), (r.x - 12, r.y - 12 + 8))
        surface.blit(theme.panel(r.size, 18, fill=(10, 30, 21, 238)), r)
        m = self.model()
        lang = self.app.language
        inner_w = r.w - 2 * TABLE_PAD
        y = r.y + 22
        game_name = self.rules.game.name.get(lang, self.rules.game.name["en"])
        deck_name = self.rules.deck.name.get(lang, self.rules.deck.name["en"])
        # --- title block
        if self.over:
            title, tone = match_verdict(self.t, self.rules, self.match_end, self.human_seat, m.columns)
            color = WIN if tone == "win" else LOSS if tone == "loss" else theme.CREAM
            self._caps(surface, self.t("results.match_over", game=game_name), (r.centerx, y), inner_w, 14,
                       anchor="midtop")
            size = theme.fit(title, "serif_bold", 38, inner_w, 18, 0.16, True)
            img = theme.text(title, "serif_bold", size, color, tracking=size * 0.16, caps=True, shadow=3)
            self.text_log.append((title, theme.text_width(title, "serif_bold", size, size * 0.16, True), inner_w))
            p = float(self.pop.value_at(self.alpha))
            if p < 0.999:
                img = pygame.transform.rotozoom(img, 0, max(0.05, p))
            rect = img.get_rect(center=(r.centerx, y + 50))
            if tone == "win":
                g = theme.spotlight((min(1200, rect.w + 260), 130), (64, 50, 18), 1.5)
                surface.blit(g, g.get_rect(center=rect.center), special_flags=pygame.BLEND_RGB_ADD)
            surface.blit(img, rect)
            y += 80
            totals = "   ·   ".join(f"{c} {v}" for c, v in zip(m.columns, self.match_end.get("totals", [])))
            self._fit(surface, self.t("results.final_totals", totals=totals), (r.centerx, y), inner_w, "sans_bold",
                      16, theme.BRASS_LIGHT, "midtop")
            y += 30
            if not self.single_deal:
                self._caps(surface, self.t("results.last_deal", number=self.deal_end.get("number", 1)),
                           (r.centerx, y), inner_w, 12, anchor="midtop")
                y += 22
        else:
            title = self.t("results.deal_title", number=self.deal_end.get("number", 1))
            size = theme.fit(title, "serif_bold", 30, inner_w, 16, 0.22, True)
            theme.heading(surface, title, (r.centerx, y), size, anchor="midtop")
            self.text_log.append((title, theme.text_width(title, "serif_bold", size, size * 0.22, True), inner_w))
            y += 46
            sub = deck_name if deck_name.startswith(game_name) else f"{game_name} · {deck_name}"
            self._caps(surface, sub, (r.centerx, y), inner_w, 13, anchor="midtop")
            y += 24
        orn = theme.ornament(min(520, inner_w))
        surface.blit(orn, orn.get_rect(midtop=(r.centerx, y)))
        y += 22
        if m.headline:
            self._fit(surface, m.headline, (r.centerx, y), inner_w, "serif_bold", 20, theme.CREAM, "midtop")
            y += 34
        x0 = r.x + TABLE_PAD
        n = len(m.columns)
        label_w = self.label_width()
        col_w = (inner_w - label_w) // n
        if m.bar:
            self._split_bar(surface, pygame.Rect(x0 + label_w + 16, y, n * col_w - 32, 14), m)
            y += 30
        # --- the table: a header of names, then one band per line
        for i, name in enumerate(m.columns):
            cx = x0 + label_w + i * col_w + col_w // 2
            self._caps(surface, name, (cx, y + 4), col_w - 16, 14, theme.BRASS_LIGHT if i == m.mine else theme.BRASS,
                       anchor="midtop")
        y += 28
        pygame.draw.line(surface, theme.BRASS_DARK, (x0, y), (x0 + inner_w, y))
        y += 4
        for k, row in enumerate(m.rows):
            band = pygame.Rect(x0, y, inner_w, self.row_h)
            if row.kind != "line":
                surface.blit(theme.rounded(band.size, 6, (201, 164, 92, 40 if row.kind == "total" else 26)), band)
            elif k % 2 == 0:
                surface.blit(theme.rounded(band.size, 6, (255, 255, 255, 11)), band)
            if m.mine is not None:  # the player's own column is lit a little
                mine = pygame.Rect(x0 + label_w + m.mine * col_w + 6, y, col_w - 12, self.row_h)
                surface.blit(theme.rounded(mine.size, 6, (255, 230, 170, 14)), mine)
            strong = row.kind != "line"
            self._fit(surface, row.label, (x0 + 12, band.centery), label_w - 24, "sans_bold" if strong else "sans",
                      16, theme.BRASS_LIGHT if strong else theme.CREAM, "midleft")
            for i, cell in enumerate(row.cells):
                c = pygame.Rect(x0 + label_w + i * col_w, y, col_w, self.row_h)
                if row.kind == "bummerl":
                    start = int(self.rules.initial_totals()[i])
                    self._bummerl(surface, int(cell.text), start, (c.centerx - 20, c.centery))
                    self._fit(surface, cell.text, (c.centerx + start * 6 - 6, c.centery), 30, "sans_bold", 17,
                              theme.BRASS_LIGHT, "midleft")
                    continue
                pill = cell.points is not None
                centre = c.centerx - (22 if pill else 0)
                if cell.mark:
                    theme.blit_text(surface, "✓", (centre, c.centery), "sans_bold", 20, theme.BRASS_LIGHT,
                                    anchor="center")
                elif cell.text:
                    self._fit(surface, cell.text, (centre, c.centery), col_w - (96 if pill else 16),
                              "sans_bold" if strong else "sans", 17 if strong else 16,
                              theme.BRASS_LIGHT if strong else theme.CREAM, "center")
                if pill:
                    self._pill(surface, cell.points, (c.centerx + 34, c.centery))
            y += self.row_h + 2
        y += 10
        for note in m.notes:
            for line in theme.wrap(note, "serif", 15, inner_w - 20):
                self._fit(surface, line, (r.centerx, y), inner_w - 20, "serif", 15, theme.CREAM_DIM, "midtop")
                y += 21
        self.ui.draw(surface)
        hint = self.t("results.hint_over" if self.over else "results.hint")
        self._fit(surface, hint, (640, 714), 1200, "sans", 13, theme.CREAM_FAINT, "midbottom")

    def _split_bar(self, surface: pygame.Surface, rect: pygame.Rect, m: Breakdown) -> None:
        """Briscola's 120 card points as one bar split between the two players; a tick at 60."""
        a, b = m.bar
        wa = round(rect.w * a / max(1, a + b))
        surface.blit(theme.rounded(rect.size, 7, (255, 255, 255, 18)), rect)
        cols = [WIN if m.mine == i else (132, 160, 176) for i in range(2)]
        if wa > 0:
            surface.blit(theme.rounded((wa, rect.h), 7, (*cols[0], 225)), rect.topleft)
        if rect.w - wa > 0:
            surface.blit(theme.rounded((rect.w - wa, rect.h), 7, (*cols[1], 170)), (rect.x + wa, rect.y))
        mid = rect.centerx
        pygame.draw.line(surface, theme.CREAM, (mid, rect.y - 4), (mid, rect.bottom + 3), 2)


def _truthy(v: Any) -> bool:
    return v is True or str(v).lower() in ("1", "true", "yes", "on")


def create(app: Any, session: Any = None, deal_end: dict | None = None, match_end: Any = None,
           game: str | None = None, deck: str | None = None, players: int | None = None,
           **params: Any) -> ResultsScene:
    """From the table: a session and its events. Alone (screenshots, smoke): a demo deal of
    ``game`` (Scopa by default); ``match_end=True`` plays the demo to the end of the match."""
    if session is not None and deal_end is not None:
        return ResultsScene(app, session, deal_end, match_end if isinstance(match_end, dict) else None)
    cfg = app.config
    game = game if game in cfg.games else "scopa"
    if deck not in cfg.decks or game not in cfg.decks[deck].games:
        deck = cfg.decks_for(game)[0].id
    s, de, me = demo(app, game, deck, players, _truthy(match_end))
    return ResultsScene(app, s, de, me, standalone=True)


__all__ = ["ResultsScene", "Breakdown", "Row", "Cell", "breakdown", "team_names", "match_verdict", "demo", "create"]
