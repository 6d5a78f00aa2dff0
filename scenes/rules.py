"""The rules of every game: one tab per game, a scrollable page of sections.

Opened from the game select (``open_scene("rules", deck=, game=)``), the menu (deck only:
the deck's first game) and the table's pause overlay. The texts live in the locales under
``rules.<game>.<section>.title/body``; a body is short paragraphs (blank line between) and
bullet lines ("- …"). ``{J} {Q} {K}`` and ``{D} {C} {S} {B}`` are filled with the court and
suit names of the deck, so the page speaks the language of the cards on the table.

After the standard sections come the house rules: one section per option (or mode) that has
a text under ``house_rules.page.<game>.<option or mode>`` (Scopa's deal, capture, aces, re
bello and napola; Cìcera's format; Briscola for four). Opened from a table (``options=`` and
``players=`` of the match), the page starts with "Rules in force at this table" — the
variant's name and every option chosen — followed by the sections of the house rules in
force, then the standard rules and the other house rules.

Keys: ←/→, Tab/Shift+Tab or 1–9 switch game; ↑/↓, PgUp/PgDn, Home/End scroll; Esc goes back
(Enter does not: nothing on the page has the focus).
Mouse: click a tab or a contents entry, wheel, drag the page or the scrollbar.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.config_types import Config, DeckConfig
from game.rules.vocabulary import JsonObject
from game.rulesets import game_ids
from scenes.scene import AppServices, UIScene
from sprites import hidpi, theme
from sprites.tween import Smooth, Tween, ease_out_cubic
from sprites.widgets import Button

#: One tab per registered game, in rules.yaml's order.
GAMES: tuple[str, ...] = game_ids()
SECTIONS = ("objective", "deal", "turn", "special", "scoring", "end")
#: Sections every game's page ends with, the same text for each (``rules.common.<id>``).
COMMON = ("daily",)

PAGE = pygame.Rect(360, 96, 880, 572)  # the scrolling text panel
SIDE = pygame.Rect(40, 96, 300, 572)  # contents and card names
TEXT_X = 40  # text inset inside the page
TEXT_W = PAGE.w - 2 * TEXT_X - 14  # room for the scrollbar
TAB_Y, TAB_H, TAB_W, TAB_GAP = 30, 46, 200, 12
#: A tab's label size; a name that would shrink below the two-line size takes two lines.
TAB_SIZE, TAB_TWO_LINE_SIZE, TAB_LINE_H = 19, 16, 19
BODY_FACE, BODY_SIZE, LINE_H = "serif", 17, 25
HEAD_FACE, HEAD_SIZE = "serif_bold", 22
BULLET_INDENT = 26
LINE_STEP = 42  # ↑/↓
WHEEL_STEP = 64


def deck_for(config: Config, game: str, deck: str | None) -> DeckConfig:
    """The deck whose card names the page uses: the requested one if it offers the game."""
    if deck is not None and deck in config.decks and game in config.decks[deck].games:
        return config.decks[deck]
    offering = config.decks_for(game)
    return offering[0] if offering else next(iter(config.decks.values()))


def parse_body(body: str) -> list[tuple[str, str]]:
    """A body as blocks: ("p", text), ("li", text) and ("gap", "") between paragraphs."""
    blocks: list[tuple[str, str]] = []
    for raw in body.strip().split("\n"):
        line = raw.strip()
        if not line:
            if blocks and blocks[-1][0] != "gap":
                blocks.append(("gap", ""))
        elif line.startswith("- "):
            blocks.append(("li", line[2:].strip()))
        else:
            blocks.append(("p", line))
    return blocks


def house_sections(config: Config, game: str, has: Callable[[str], bool]) -> list[str]:
    """The ids of ``game``'s house-rule sections (options, then modes), in rules.yaml's order:
    those with a text in the locales (``has(key)``)."""
    g = config.games[game]
    ids = [*g.options, *(m.id for m in g.modes)]
    return [i for i in ids if has(f"house_rules.page.{game}.{i}.title")]


def in_force_ids(config: Config, game: str, options: JsonObject, players: int | None) -> set[str]:
    """The house-rule sections a table with ``options`` and ``players`` plays: an option away
    from its default, and the mode of a game with several (Briscola for four)."""
    g = config.games[game]
    out = {k for k, spec in g.options.items() if k in options and options[k] != spec.default}
    if players is not None and len(g.modes) > 1:
        try:
            out.add(g.mode_for(players).id)
        except ValueError:
            pass
    return out


class RulesScene(UIScene):
    def __init__(
        self,
        app: AppServices,
        deck: str | None = None,
        game: str | None = None,
        options: JsonObject | None = None,
        players: int | None = None,
    ):
        cfg = app.config
        self.deck_id = deck if deck in cfg.decks else None
        if game not in GAMES:
            offered = cfg.decks[deck].games if deck is not None and deck in cfg.decks else []
            game = next((g for g in offered if g in GAMES), GAMES[0])
        self.game = game
        #: The table's rules, shown first on its game's page (None: opened from a menu).
        self.force: tuple[str, JsonObject, int | None] | None = None
        if isinstance(options, dict) and game in cfg.games:
            try:
                opts = cfg.games[game].resolve_options(options)
            except ValueError:  # a save from another version: show the rules as written
                opts = None
            if opts is not None:
                self.force = (game, opts, players if players in cfg.games[game].players else None)
        self.offset = 0.0  # the scroll target, clamped to [0, max_offset]
        self.shown = Smooth(0.0, rate=18)  # what is drawn: eases towards the target
        self.dragging: str | None = None  # "page" or "thumb"
        self._drag_from = (0, 0.0)
        self.hover_tab: int | None = None
        self.appear = Tween(0.0, 1.0, 0.35, ease_out_cubic)
        self._pages: dict[tuple, tuple[pygame.Surface, list[int]]] = {}
        #: (text, rendered width, box width) for every fitted text drawn (tests check them).
        self.text_log: list[tuple[str, int, int]] = []
        super().__init__(app)
        # The keys read the page: nothing has the focus, so ↓ then Enter does not
        # leave it by surprise; Esc (or Backspace, or a click on Back) goes back.
        self.ui.focus_index = -1

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        self.back_button = self.ui.add(
            Button(
                (SIDE.x + 20, SIDE.bottom - 60, 150, 42),
                self.label("common.back"),
                self.back,
                icon="‹",
                size=15,
                name="back",
            )
        )

    def tab_rects(self) -> list[pygame.Rect]:
        n = len(GAMES)
        w = min(TAB_W, (PAGE.w - (n - 1) * TAB_GAP) // n)  # more games: narrower tabs over the page
        x0 = PAGE.right - n * w - (n - 1) * TAB_GAP
        return [pygame.Rect(x0 + i * (w + TAB_GAP), TAB_Y, w, TAB_H) for i in range(n)]

    # ------------------------------------------------------------------ the page
    def deck(self) -> DeckConfig:
        return deck_for(self.app.config, self.game, self.deck_id)

    def names(self) -> dict[str, str]:
        d, lang = self.deck(), self.app.language
        out = {s: d.suit_name(s, lang) for s in ("D", "C", "S", "B")}
        out.update({r: d.court_name(r, lang) for r in ("J", "Q", "K")})
        return out

    def _has(self, key: str) -> bool:
        return self.app.i18n.has(key) or self.app.i18n.has(key, "en")

    def forced(self) -> tuple[JsonObject, int | None] | None:
        """The table's options and player count when the page shows its game, else None."""
        if self.force is None or self.force[0] != self.game:
            return None
        return self.force[1], self.force[2]

    def sections(self) -> list[tuple[str, str]]:
        """The page's sections in order, as (group, id): group "force" (the rules in force),
        "base" (a standard section), "house" (a house rule) or "common" (the same for every
        game: the daily deal, par and duplicate), which always come last."""
        house = house_sections(self.app.config, self.game, self._has)
        common = [("common", c) for c in COMMON]
        forced = self.forced()
        if forced is None:
            return [*(("base", s) for s in SECTIONS), *(("house", h) for h in house), *common]
        on = in_force_ids(self.app.config, self.game, *forced)
        first = [h for h in house if h in on]
        rest = [h for h in house if h not in on]
        return [
            ("force", ""),
            *(("house", h) for h in first),
            *(("base", s) for s in SECTIONS),
            *(("house", h) for h in rest),
            *common,
        ]

    def contents(self) -> list[tuple[str, list[int]]]:
        """The side column's entries: (label, the sections it stands for). One entry per
        standard section; one for all the house rules; one for the rules in force."""
        out: list[tuple[str, list[int]]] = []
        house: list[int] = []
        for i, (group, sid) in enumerate(self.sections()):
            if group == "force":
                out.append((self.t("house_rules.in_force.contents"), [i]))
            elif group == "base":
                out.append((self.t(f"rules.{self.game}.{sid}.title"), [i]))
            elif group == "house":
                house.append(i)
        if house:
            # The entry sits after the standard sections and jumps to the first house rule
            # after them (or, when every one is in force, to the first of those).
            after = [i for i in house if i > max(j for _, js in out for j in js)]
            out.append((self.t("house_rules.contents"), (after or house) + [i for i in house if i not in after]))
        for i, (group, sid) in enumerate(self.sections()):
            if group == "common":
                out.append((self.t(f"rules.common.{sid}.title"), [i]))
        return out

    def section_text(self, group: str, sid: str, names: dict[str, str]) -> tuple[str, str]:
        """A section's (title, body)."""
        if group == "base":
            return self.t(f"rules.{self.game}.{sid}.title"), self.t(f"rules.{self.game}.{sid}.body", **names)
        if group == "common":
            return self.t(f"rules.common.{sid}.title"), self.t(f"rules.common.{sid}.body", **names)
        if group == "house":
            key = f"house_rules.page.{self.game}.{sid}"
            return self.t(f"{key}.title"), self.t(f"{key}.body", **names)
        return self.t("house_rules.in_force.title"), self.in_force_body()

    def in_force_body(self) -> str:
        """The variant's name and player count, a line per option offered, and a word on
        where the house rules in force are explained."""
        from game.variants import preset_of, rule_value_label, variant_name

        forced = self.forced()
        if forced is None:
            return ""
        opts, players = forced
        g = self.app.config.games[self.game]
        lang = self.app.language
        name = variant_name(self.app.i18n, g, opts, players)
        if name is None:
            preset = preset_of(g, opts, players) if g.presets else None
            name = self.t(preset.name) if preset is not None else g.name.get(lang, g.name["en"])
        head = name if players is None else f"{name} · {self.t('line.players', count=players)}"
        lines = [head, ""]
        for k, spec in g.options.items():
            if len(spec.allowed) < 2 or (players is not None and not spec.offered_for(players)):
                continue
            lines.append(f"- {self.t(f'option.{k}')}: {rule_value_label(self.app.i18n, k, opts[k])}")
        on = in_force_ids(self.app.config, self.game, opts, players)
        house = house_sections(self.app.config, self.game, self._has)
        lines += ["", self.t("house_rules.in_force.note" if on & set(house) else "house_rules.in_force.none")]
        return "\n".join(lines)

    def page(self) -> tuple[pygame.Surface, list[int]]:
        """The whole text of the current game, rendered once per (game, language, deck, rules
        in force); with the top of each section."""
        forced = self.forced()
        key = (
            self.game,
            self.app.language,
            self.deck().id,
            hidpi.scale(),
            None if forced is None else (tuple(sorted(forced[0].items(), key=str)), forced[1]),
        )
        if key in self._pages:
            return self._pages[key]
        names = self.names()
        # Lay out first (to know the height), then draw.
        items: list[tuple[str, str, int]] = []  # (kind, text, y)
        tops: list[int] = []
        y = 8
        for i, (group, sid) in enumerate(self.sections()):
            if i:
                y += 22
            tops.append(max(0, y - 8))
            title, body = self.section_text(group, sid, names)
            items.append(("h", title, y))
            y += 40
            for kind, text in parse_body(body):
                if kind == "gap":
                    y += 12
                    continue
                width = TEXT_W - (BULLET_INDENT if kind == "li" else 0)
                for j, line in enumerate(theme.wrap(text, BODY_FACE, BODY_SIZE, width)):
                    items.append(("li" if kind == "li" and j == 0 else "lc" if kind == "li" else "p", line, y))
                    y += LINE_H
                y += 6 if kind == "li" else 2
        height = y + 24
        surf = hidpi.surface((TEXT_W + 4, height), pygame.SRCALPHA)
        for kind, text, yy in items:
            if kind == "h":
                surf.blit(theme.ornament(28), (0, yy + 12))
                theme.blit_text(surf, text, (40, yy), HEAD_FACE, HEAD_SIZE, theme.BRASS_LIGHT, shadow=1)
                pygame.draw.line(surf, (*theme.BRASS_DARK, 255), (0, yy + 34), (TEXT_W, yy + 34))
                continue
            x = BULLET_INDENT if kind in ("li", "lc") else 0
            if kind == "li":
                cy = yy + LINE_H // 2 - 1
                pygame.draw.polygon(surf, theme.BRASS, [(9, cy - 4), (13, cy), (9, cy + 4), (5, cy)])
            theme.blit_text(surf, text, (x, yy), BODY_FACE, BODY_SIZE, theme.CREAM)
        self._pages[key] = (surf, tops)
        return surf, tops

    def view_h(self) -> int:
        return PAGE.h - 40

    def max_offset(self) -> float:
        return float(max(0, self.page()[0].get_height() - self.view_h()))

    def scroll_to(self, value: float) -> None:
        self.offset = max(0.0, min(self.max_offset(), float(value)))

    def scroll_by(self, delta: float) -> None:
        self.scroll_to(self.offset + delta)

    def speech_focus(self) -> str:
        """What a screen reader reads (scenes.speak): the game and the section at the top of
        the page, so scrolling or a contents entry reads the rules on, section by section."""
        tops = self.page()[1]
        i = max((j for j, y in enumerate(tops) if y <= self.offset + 4), default=0)
        group, sid = self.sections()[min(i, len(self.sections()) - 1)]
        title, body = self.section_text(group, sid, self.names())
        g = self.app.config.games[self.game].name
        return f"{g.get(self.app.language, g['en'])}. {title}. {' '.join(body.split())}"

    def select(self, game: str) -> None:
        """Show another game's rules, from the top."""
        if game in GAMES and game != self.game:
            self.game = game
            self.offset = 0.0
            self.shown.snap(0.0)
            self.app.sound("click")

    def cycle(self, step: int) -> None:
        self.select(GAMES[(GAMES.index(self.game) + step) % len(GAMES)])

    def jump(self, entry: int) -> None:
        """Scroll to the first section of contents entry ``entry``."""
        self.scroll_to(self.page()[1][self.contents()[entry][1][0]])

    def section_rects(self) -> list[pygame.Rect]:
        """The contents entries' rects (closer together when there are more of them)."""
        n = len(self.contents())
        step = 34 if n <= 7 else 30 if n <= 8 else 28
        y0 = SIDE.y + 150
        return [pygame.Rect(SIDE.x + 16, y0 + i * step, SIDE.w - 32, step - 4) for i in range(n)]

    def scrollbar(self) -> tuple[pygame.Rect, pygame.Rect]:
        track = pygame.Rect(PAGE.right - 22, PAGE.y + 20, 6, self.view_h())
        total = self.page()[0].get_height()
        h = max(36, round(track.h * min(1.0, self.view_h() / max(1, total))))
        m = self.max_offset()
        y = track.y + (0 if m <= 0 else round((track.h - h) * self.shown.value / m))
        return track, pygame.Rect(track.x - 2, y, track.w + 4, h)

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            k, mod = event.key, getattr(event, "mod", 0)
            if k == pygame.K_TAB:
                self.cycle(-1 if mod & pygame.KMOD_SHIFT else 1)
            elif k in (pygame.K_LEFT, pygame.K_RIGHT):
                self.cycle(-1 if k == pygame.K_LEFT else 1)
            elif pygame.K_1 <= k <= pygame.K_9 and k - pygame.K_1 < len(GAMES):
                self.select(GAMES[k - pygame.K_1])
            elif k == pygame.K_UP:
                self.scroll_by(-LINE_STEP)
            elif k == pygame.K_DOWN:
                self.scroll_by(LINE_STEP)
            elif k == pygame.K_PAGEUP:
                self.scroll_by(-self.view_h() * 0.9)
            elif k in (pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.scroll_by(self.view_h() * 0.9)
            elif k == pygame.K_HOME:
                self.scroll_to(0)
            elif k == pygame.K_END:
                self.scroll_to(self.max_offset())
            elif k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.back()
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * WHEEL_STEP)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, r in enumerate(self.tab_rects()):
                if r.collidepoint(event.pos):
                    self.select(GAMES[i])
                    return
            for i, r in enumerate(self.section_rects()):
                if r.collidepoint(event.pos):
                    self.jump(i)
                    return
            track, thumb = self.scrollbar()
            if thumb.inflate(10, 0).collidepoint(event.pos):
                self.dragging, self._drag_from = "thumb", (event.pos[1], self.offset)
                return
            if PAGE.collidepoint(event.pos):
                self.dragging, self._drag_from = "page", (event.pos[1], self.offset)
                return
        if event.type == pygame.MOUSEMOTION:
            if self.dragging is not None:
                y0, off0 = self._drag_from
                dy = event.pos[1] - y0
                if self.dragging == "thumb":
                    track, thumb = self.scrollbar()
                    room = max(1, track.h - thumb.h)
                    self.scroll_to(off0 + dy * self.max_offset() / room)
                else:
                    self.scroll_to(off0 - dy)
                    self.shown.snap(self.offset)  # the page follows the hand exactly
                return
            self.hover_tab = next((i for i, r in enumerate(self.tab_rects()) if r.collidepoint(event.pos)), None)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging is not None:
            self.dragging = None
            return
        super().handle(event)

    # ------------------------------------------------------------------ loop
    def update(self, dt: float) -> None:
        super().update(dt)
        self.appear.update(dt)
        self.offset = max(0.0, min(self.max_offset(), self.offset))
        self.shown.target = self.offset
        self.shown.update(dt)

    # ------------------------------------------------------------------ drawing
    def _fit(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        face: str,
        size: int,
        color,
        anchor: str = "topleft",
        min_size: int = 10,
        caps: bool = False,
        tracking: float = 0.0,
    ) -> None:
        size = theme.fit(s, face, size, width, min_size, tracking, caps)
        theme.blit_text(surface, s, pos, face, size, color, anchor, tracking=tracking * size, caps=caps)
        self.text_log.append((s, theme.text_width(s, face, size, tracking * size, caps), width))

    def _tab_label(self, surface: pygame.Surface, name: str, r: pygame.Rect, color) -> None:
        """A game's name on its tab: one line, or two where the tabs are narrow (more games)
        and a long name would otherwise shrink below a readable size."""
        width = r.w - 40
        lines = [name]
        if " " in name and theme.text_width(name, "serif_bold", TAB_TWO_LINE_SIZE) > width:
            cut = min((i for i, ch in enumerate(name) if ch == " "), key=lambda i: abs(2 * i - len(name)))
            lines = [name[:cut], name[cut + 1 :]]
        size = TAB_SIZE if len(lines) == 1 else TAB_TWO_LINE_SIZE
        for k, line in enumerate(lines):
            y = r.centery + 1 + round((k - (len(lines) - 1) / 2) * TAB_LINE_H)
            self._fit(surface, line, (r.centerx, y), width, "serif_bold", size, color, "center")

    def draw(self, surface: pygame.Surface) -> None:
        self.text_log = []
        surface.blit(theme.table_background(), (0, 0))
        lang = self.app.language
        cfg = self.app.config
        a = float(self.appear.value_at(self.alpha))
        # --- title and tabs
        title = self.t("rules.title")
        size = theme.fit(title, "serif_bold", 30, self.tab_rects()[0].x - 80, 16, 0.22, True)
        theme.heading(surface, title, (SIDE.x + 4, 34), size)
        self.text_log.append(
            (title, theme.text_width(title, "serif_bold", size, size * 0.22, True), self.tab_rects()[0].x - 80)
        )
        for i, (g, r) in enumerate(zip(GAMES, self.tab_rects())):
            active = g == self.game
            if active:
                surface.blit(theme.shadow(r.size, 12, 6, 110), (r.x - 6, r.y - 6 + 3))
                grad = theme.rounded(r.size, 12, (*theme.BRASS, 255), 1, (*theme.BRASS_DARK, 255))
                surface.blit(grad, r)
            else:
                fill = (20, 50, 34, 220) if self.hover_tab == i else (12, 34, 24, 190)
                surface.blit(theme.rounded(r.size, 12, fill, 1, (*theme.BRASS_DARK, 255)), r)
            name = cfg.games[g].name.get(lang, cfg.games[g].name["en"])
            color = (40, 28, 12) if active else theme.CREAM
            self._tab_label(surface, name, r, color)
            theme.blit_text(
                surface, str(i + 1), (r.x + 12, r.y + 6), "sans_bold", 11, (90, 66, 30) if active else theme.CREAM_FAINT
            )
        # --- side column: contents and the deck's card names
        surface.blit(theme.shadow(SIDE.size, 16, 10, 120), (SIDE.x - 10, SIDE.y - 10 + 6))
        surface.blit(theme.panel(SIDE.size, 16), SIDE)
        gname = cfg.games[self.game].name.get(lang, cfg.games[self.game].name["en"])
        self._fit(
            surface,
            gname,
            (SIDE.centerx, SIDE.y + 24),
            SIDE.w - 40,
            "serif_bold",
            28,
            theme.CREAM,
            "midtop",
            caps=True,
            tracking=0.12,
        )
        surface.blit(theme.ornament(SIDE.w - 80), (SIDE.x + 40, SIDE.y + 70))
        self._fit(
            surface,
            self.t("rules.contents"),
            (SIDE.x + 24, SIDE.y + 118),
            SIDE.w - 48,
            "cond_bold",
            13,
            theme.BRASS,
            caps=True,
            tracking=0.16,
        )
        _, tops = self.page()
        shown = self.shown.value
        current = max((i for i, t in enumerate(tops) if t <= shown + 40), default=0)
        if self.max_offset() > 0 and shown >= self.max_offset() - 1:
            current = len(tops) - 1  # at the very end the last section is the one being read
        rects = self.section_rects()
        for (label, secs), r in zip(self.contents(), rects):
            if current in secs:
                surface.blit(theme.rounded(r.size, 8, (201, 164, 92, 46)), r)
                pygame.draw.rect(surface, theme.BRASS, (r.x, r.y + 6, 3, r.h - 12))
            self._fit(
                surface,
                label,
                (r.x + 14, r.centery),
                r.w - 24,
                "sans",
                15,
                theme.BRASS_LIGHT if current in secs else theme.CREAM_DIM,
                "midleft",
            )
        d = self.deck()
        y = max(SIDE.y + 372, rects[-1].bottom + 18)
        dname = d.name.get(lang, d.name["en"])
        self._fit(
            surface,
            self.t("rules.card_names"),
            (SIDE.x + 24, y),
            SIDE.w - 48,
            "cond_bold",
            12,
            theme.BRASS,
            caps=True,
            tracking=0.16,
        )
        y += 22
        self._fit(surface, dname, (SIDE.x + 24, y), SIDE.w - 48, "serif_bold", 16, theme.BRASS_LIGHT)
        y += 28
        suits = " · ".join(d.suit_name(s, lang) for s in ("D", "C", "S", "B"))
        courts = " · ".join(d.court_name(r, lang) for r in ("J", "Q", "K"))
        for value in (suits, courts):
            self._fit(surface, value, (SIDE.x + 24, y), SIDE.w - 48, "sans", 14, theme.CREAM)
            y += 24
        # --- the page
        r = PAGE.move(0, round((1 - a) * 18))
        surface.blit(theme.shadow(r.size, 16, 10, 120), (r.x - 10, r.y - 10 + 6))
        surface.blit(theme.panel(r.size, 16, fill=(9, 30, 20, 210)), r)
        page, _ = self.page()
        clip = pygame.Rect(r.x + TEXT_X, r.y + 20, TEXT_W + 4, self.view_h())
        old = surface.get_clip()
        surface.set_clip(clip)
        surface.blit(page, (clip.x, clip.y - round(shown)))
        surface.set_clip(old)
        # Soft fades where the text runs under the panel's edges.
        if shown > 1:
            surface.blit(theme.vertical_gradient((clip.w, 22), (9, 30, 20, 230), (9, 30, 20, 0)), (clip.x, clip.y))
        if shown < self.max_offset() - 1:
            surface.blit(
                theme.vertical_gradient((clip.w, 22), (9, 30, 20, 0), (9, 30, 20, 230)), (clip.x, clip.bottom - 22)
            )
        if self.max_offset() > 0:
            track, thumb = self.scrollbar()
            track, thumb = track.move(0, r.y - PAGE.y), thumb.move(0, r.y - PAGE.y)
            surface.blit(theme.rounded(track.size, 3, (255, 255, 255, 22)), track)
            col = theme.BRASS_LIGHT if self.dragging == "thumb" else theme.BRASS
            surface.blit(theme.rounded(thumb.size, 5, (*col, 230)), thumb)
        self.ui.draw(surface)
        self._fit(
            surface, self.t("rules.hint"), (PAGE.centerx, 712), PAGE.w, "sans", 13, theme.CREAM_FAINT, "midbottom"
        )


def create(
    app: AppServices,
    deck: str | None = None,
    game: str | None = None,
    options: JsonObject | None = None,
    players: int | None = None,
    **params: object,
) -> RulesScene:
    return RulesScene(app, deck=deck, game=game, options=options, players=players)


__all__ = [
    "RulesScene",
    "GAMES",
    "SECTIONS",
    "COMMON",
    "parse_body",
    "deck_for",
    "house_sections",
    "in_force_ids",
    "create",
]
