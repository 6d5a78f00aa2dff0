"""The results of a deal, and of the match when it is over.

The table pushes this scene when a deal has been animated::

    app.open_scene("results", session=session, deal_end=<deal_end event>, match_end=<match_end or None>)

"Continue" (Enter, Esc; it has the focus) pops it and the table goes on with the next deal; "Menu" pops down
to the menu. With ``match_end`` the scene also announces the match result (a celebration
for a win) and offers "New match" (same game and options: the table is replaced) and "Menu";
the focus is then on the score sheet, so that Enter never starts a new match by surprise.
For the first ``INPUT_GUARD`` seconds keys and clicks are ignored, so the Enter that ended
the deal does not also dismiss its results.

The breakdown is built by :func:`scenes.results.breakdown.breakdown` from the game's
``deal_end.detail`` into plain rows (the game declares them: its rules class's
``result_lines``), so tests can read exactly what is shown; :mod:`scenes.results.rows`
draws it, :mod:`scenes.results.halves` a duplicate's halves, :mod:`scenes.results.confetti`
a win's celebration.

Without a session (``--screenshot F --scene results --game G [--match-end]``) the scene
plays a match headless with bots up to its first ``deal_end`` (or to ``match_end``).
"""

from __future__ import annotations

import random

import pygame

from game.coach.job import AnalysisJob
from game.rulesets import game_ids
from game.services.challenge import HalvesTable
from game.services.table_session import TableSession
from scenes.coach import banner as coach_banner
from scenes.names import game_and_deck, team_names
from scenes.results import halves as halves_block
from scenes.results import rows as rows_block
from scenes.results.breakdown import (
    Breakdown,
    Cell,
    Row,
    breakdown,
    deal_lines,
    demo,
    is_one_deal,
    match_verdict,
    viewer_first,
)
from scenes.results.confetti import Confetti
from scenes.results.rows import WIN
from scenes.scene import AppServices, UIScene
from sprites import hidpi, theme
from sprites.tween import Tween, ease_out_back, ease_out_cubic
from sprites.widgets import Button

PANEL_W = 960
TABLE_PAD = 40
ROW_H = 31
DEMO_SEED = 11
#: Seconds after the screen appears during which keys and clicks are ignored: the Enter (or
#: click) that finished the last trick must not also start the next deal or a new match.
INPUT_GUARD = 0.4
LOSS = (214, 120, 100)
REPLAY_ROW = 50  # "Watch the replay" and "Save the record as…" above the buttons, once the match is over


class ResultsScene(UIScene):
    is_overlay = True
    #: The coach's analysis of the deal (scenes.coach.banner), kept across relayouts, and
    #: whether its counts were said.
    coach_job: AnalysisJob | None = None
    coach_said = False

    def __init__(
        self,
        app: AppServices,
        session: TableSession,
        deal_end: dict,
        match_end: dict | None,
        *,
        standalone: bool = False,
    ):
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
        self._extra: list[str] = []
        #: Seconds shown so far (the input guard), and keys pressed during the guard: one
        #: held down (auto-repeat) acts only after it has been let go and pressed again.
        self.age = 0.0
        self._held: set[int] = set()
        super().__init__(app)
        self.confetti: Confetti | None = None
        if self.over and self.tone == "win":
            self.confetti = Confetti(random.Random(deal_end.get("number", 1)))

    # ------------------------------------------------------------------ model
    def model(self) -> Breakdown:
        lang = self.app.language
        # A daily or duplicate deal (game.services.challenge) adds its lines: score, par, both halves.
        ctx = getattr(self.session, "context", None)
        extra = ctx.lines(self.t, self.session) if ctx is not None else []
        extra += self.rating_lines()
        if self._model is None or self._lang != lang or self._extra != extra:
            self._model = viewer_first(
                breakdown(
                    self.t,
                    self.rules,
                    self.deal_end,
                    self.human_seat,
                    lang,
                    self.single_deal,
                    self.table_names(),
                    deal_lines(
                        list(getattr(getattr(self.session, "match", None), "events", None) or []), self.deal_end
                    ),
                )
            )
            self._model.notes = [*extra, *self._model.notes]
            self._lang, self._extra = lang, extra
        return self._model

    def rating_lines(self) -> list[str]:
        """A club match's rating, once the match is over: "Rating 1000? → 1012 (+12)", from
        the server's ``rated`` message (a line saying it is on its way until it comes);
        nothing for any other match."""
        s = self.session
        if not self.over or not hasattr(s, "rated"):
            return []
        r = s.rated
        if not isinstance(r, dict):
            return [self.t("club.rating_waiting")]
        old, new = r.get("old"), r.get("new")
        if not r.get("rated") or not isinstance(old, int) or not isinstance(new, int):
            return [self.t("club.not_rated")]
        change = f"+{new - old}" if new >= old else f"−{old - new}"
        shown = f"{new}{'?' if r.get('provisional') else ''} ({change})"
        return [self.t("club.rated_left" if r.get("result") == "left" else "club.rated_change", old=old, new=shown)]

    def table_names(self) -> list[str] | None:
        """The teams as the table beneath names them when it has names of its own (an
        online table: friends by name, each computer seat by its number), else None."""
        if not self.session.capabilities.given_names:
            return None
        table = self.app.stack.find("table")
        names = getattr(table, "names", None)
        if names is None or getattr(table, "session", None) is not self.session:
            return None
        return [names.team_name(t) for t in range(self.rules.teams)]

    @property
    def over(self) -> bool:
        return self.match_end is not None

    @property
    def tone(self) -> str:
        if self.match_end is None:
            return ""
        return self.verdict()[1]

    def verdict(self) -> tuple[str, str]:
        """(title, tone) of the finished match: a daily or duplicate deal's own verdict
        (game.services.challenge: the duplicate's over both halves) or the deal's or match's outcome."""
        ctx = getattr(self.session, "context", None)
        own = ctx.verdict(self.t) if ctx is not None and hasattr(ctx, "verdict") else None
        if own is not None:
            return own
        if self.match_end is None:  # asked once the match is over
            raise ValueError("no verdict before the match ends")
        return match_verdict(
            self.t,
            self.rules,
            self.match_end,
            self.human_seat,
            self.model().columns,
            one_deal=self.single_deal,
            names=self.table_names(),
        )

    # ------------------------------------------------------------------ layout
    def speech_opening(self) -> list[str]:
        """What a screen reader is told as the results open (scenes.speak): the verdict, the
        deal's headline, each row with every side's value, the notes."""
        m = self.model()
        lines = [self.verdict()[0]] if self.over else []
        if m.headline:
            lines.append(m.headline)
        for row in m.rows:
            cells = [
                " ".join(
                    x
                    for x in (col, c.text, (f"+{c.points}" if c.points > 0 else f"−{-c.points}") if c.points else "")
                    if x
                )
                for col, c in zip(m.columns, row.cells)
                if c.text or c.points
            ]
            if cells:
                lines.append(f"{row.label}: " + ", ".join(cells))
        return lines + list(m.notes)

    @property
    def single_deal(self) -> bool:
        """One deal: the single-deal house rule, a daily deal, a duplicate half."""
        return is_one_deal(self.rules, list(getattr(getattr(self.session, "match", None), "events", None) or []))

    def _height(self, row_h: int) -> int:
        """The panel's height, block by block as :meth:`draw` lays them out."""
        m = self.model()
        top = (22 + 80 + (0 if self.single_deal else 30 + 22) + 22) if self.over else (22 + 46 + 24 + 22)
        notes = sum(len(theme.wrap(n, "serif", 15, PANEL_W - 2 * TABLE_PAD - 20)) for n in m.notes)
        return (
            top
            + (34 if m.headline else 0)
            + (30 if m.bar else 0)
            + 32
            + len(m.rows) * (row_h + 2)
            + 10
            + halves_block.height(self.halves())
            + notes * 21
            + 18
            + 48
            + 26
            + (REPLAY_ROW if self.offers_replay else 0)
            + (coach_banner.ROW if coach_banner.offers(self) else 0)
        )

    def halves(self) -> HalvesTable | None:
        """A duplicate deal's halves side by side, else None."""
        ctx = getattr(self.session, "context", None)
        table = ctx.halves(self.t) if ctx is not None and hasattr(ctx, "halves") else None
        return table if isinstance(table, HalvesTable) else None

    @property
    def offers_replay(self) -> bool:
        """Watch again / keep the record: a finished match that is ours — an online
        match's record is the server's, with the other hands hidden."""
        return self.over and self.session.capabilities.replays

    def build(self) -> None:
        # Rows shrink a little when a long breakdown (Cìcera's match end) would not fit.
        self.row_h = ROW_H
        least = 20 if self.halves() is not None else 24  # a duplicate's halves need room too
        while self._height(self.row_h) > 700 and self.row_h > least:
            self.row_h -= 1
        h = max(400, self._height(self.row_h))
        self.rect = pygame.Rect((1280 - PANEL_W) // 2, (720 - h) // 2 - 6, PANEL_W, h)
        y = self.rect.bottom - 70
        bw, gap = 230, 22
        x = self.rect.centerx - bw - gap // 2
        ctx = getattr(self.session, "context", None)
        if self.over and ctx is not None:  # a daily or duplicate deal: its next step
            key = (
                "duplicate.second_half"
                if ctx.next_session(threaded=False) is not None
                else getattr(ctx, "back_label", "daily.back")
            )
            self.primary = self.ui.add(
                Button((x, y, bw, 48), self.label(key), self.new_match, style="primary", size=17, name="new_match")
            )
        elif self.over:
            self.primary = self.ui.add(
                Button(
                    (x, y, bw, 48),
                    self.label("results.new_match"),
                    self.new_match,
                    style="primary",
                    size=17,
                    name="new_match",
                )
            )
        else:
            self.primary = self.ui.add(
                Button(
                    (x, y, bw, 48),
                    self.label("results.continue"),
                    self.continue_,
                    style="primary",
                    size=17,
                    name="continue",
                )
            )
        self.menu_button = self.ui.add(
            Button((x + bw + gap, y + 3, bw, 42), self.label("results.menu"), self.to_menu, size=15, name="menu")
        )
        # The match's score sheet, deal by deal (scenes.table.sheet, the "scoresheet" scene).
        self.sheet_button = self.ui.add(
            Button(
                (self.rect.right - TABLE_PAD - 180, y + 3, 180, 42),
                self.label("sheet.title"),
                lambda: self.app.open_scene("scoresheet", session=self.session),
                size=14,
                name="sheet",
            )
        )
        if self.offers_replay:
            ry, rw = y - REPLAY_ROW, 260
            self.ui.add(
                Button(
                    (self.rect.centerx - rw - 8, ry, rw, 40),
                    self.label("replay.watch_replay"),
                    lambda: self.app.open_scene("replay", session=self.session),
                    size=14,
                    name="watch_replay",
                )
            )
            self.ui.add(
                Button(
                    (self.rect.centerx + 8, ry, rw, 40),
                    self.label("replay.save_record"),
                    lambda: self.app.open_scene("save_record", session=self.session),
                    size=14,
                    name="save_record",
                )
            )
        # The coach's line: the deal analysed in the background, "see why".
        self.coach_line = coach_banner.offer(self, y - (REPLAY_ROW if self.offers_replay else 0) - coach_banner.ROW)
        # Once the match is over Enter opens the score sheet: a stray Enter (the one that
        # ended the last deal, say) must not start a new match.
        self.ui.focus(self.sheet_button if self.over else self.primary)

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
        self.app.stack.pop_to("menu")  # the menu beneath, or a new one when there is none

    def new_match(self) -> None:
        """The same game and options again: the table below is replaced by a fresh one.
        Online: back to hosting or joining a table."""
        ctx = getattr(self.session, "context", None)
        if self.session.capabilities.again == "another_table":
            self.session.close()
            # A club server's daily deal: back to its leaderboard; any other table: to the online screens.
            self.app.stack.pop_to(getattr(ctx, "back_scene", "online"))
            return

        r = self.rules
        params = {
            "deck": r.deck.id,
            "game": r.game_id,
            "players": r.players,
            "options": dict(r.options),
            "ai_level": self.app.settings.ai_level,
        }
        if ctx is not None:
            nxt = ctx.next_session(self.app.has_window)
            if nxt is None:  # done: back to the daily deals screen
                self.app.stack.pop_to(getattr(ctx, "back_scene", "daily"))
                return
            params = {"session": nxt, "fresh": True}
        try:
            table = self.app.stack.make("table", **params)
        except (ValueError, TypeError, KeyError) as e:  # the table refused: say so, lose nothing
            self.app.toast(str(e))
            return
        except LookupError:  # no table scene registered (a test's stand-in stack)
            table = None
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

    # ------------------------------------------------------------------ input
    @property
    def guarded(self) -> bool:
        """True while the screen has only just appeared: input is ignored."""
        return self.age < INPUT_GUARD

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYUP:
            self._held.discard(event.key)
        elif event.type == pygame.KEYDOWN:
            if self.guarded or event.key in self._held:
                self._held.add(event.key)
                return
            if coach_banner.on_key(self, event.key):  # C: the coach's "see why"
                return
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and self.guarded:
            return
        super().handle(event)

    # ------------------------------------------------------------------ loop
    def update(self, dt: float) -> None:
        super().update(dt)
        ctx = getattr(self.session, "context", None)
        if ctx is not None and hasattr(ctx, "poll"):  # a daily deal's par, a server's answer
            ctx.poll()
        if self.over and hasattr(self.session, "rated") and self.session.rated is None:
            try:  # the club's rating comes after the match's last events: the table is not polling now
                self.session.poll()
            except Exception:  # noqa: BLE001 - a broken connection: the line keeps waiting
                pass
        self.age += dt
        self.appear.update(dt)
        self.pop.update(dt)
        if self.confetti is not None:
            self.confetti.update(dt)

    # ------------------------------------------------------------------ drawing helpers
    def _fit(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        face: str = "sans",
        size: int = 16,
        color=theme.CREAM,
        anchor: str = "topleft",
        min_size: int = 11,
    ) -> pygame.Rect:
        """Text shrunk to fit ``width`` (German is long); logged so tests can check every box."""
        size = theme.fit(s, face, size, width, min_size)
        rect = theme.blit_text(surface, s, pos, face, size, color, anchor)
        self.text_log.append((s, theme.text_width(s, face, size), width))
        return rect

    def _caps(
        self,
        surface: pygame.Surface,
        s: str,
        pos: tuple[int, int],
        width: int,
        size: int = 13,
        color=theme.BRASS,
        anchor: str = "topleft",
    ) -> pygame.Rect:
        size = theme.fit(s, "cond_bold", size, width, 9, 0.16, True)
        rect = theme.small_caps(surface, s, pos, size, color, anchor)
        self.text_log.append((s, theme.text_width(s, "cond_bold", size, size * 0.16, True), width))
        return rect

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        self.text_log = []
        if self.standalone:
            surface.blit(theme.table_background(), (0, 0))
        a = float(self.appear.value_at(self.alpha))
        dim = hidpi.surface(surface.get_size(), pygame.SRCALPHA)
        dim.fill((0, 0, 0, int(110 * a)))
        surface.blit(dim, (0, 0))
        if self.confetti is not None:
            self.confetti.draw(surface)
        r = self.rect.move(0, round((1 - a) * 24))
        surface.blit(theme.shadow(r.size, 18, 12, 150), (r.x - 12, r.y - 12 + 8))
        # Opaque: the table's caption and plates must not show through the rows.
        surface.blit(theme.panel(r.size, 18, fill=(10, 30, 21, 255)), r)
        m = self.model()
        lang = self.app.language
        inner_w = r.w - 2 * TABLE_PAD
        y = r.y + 22
        game_name = self.rules.game.name.get(lang, self.rules.game.name["en"])
        deck_name = self.rules.deck.name.get(lang, self.rules.deck.name["en"])
        # --- title block
        if self.match_end is not None:  # (self.over)
            title, tone = self.verdict()
            color = WIN if tone == "win" else LOSS if tone == "loss" else theme.CREAM
            over = "one_deal.deal_over" if self.single_deal else "results.match_over"
            ctx = getattr(self.session, "context", None)
            own = ctx.caption(self.t, self.session, game_name) if ctx is not None and hasattr(ctx, "caption") else None
            self._caps(surface, own or self.t(over, game=game_name), (r.centerx, y), inner_w, 14, anchor="midtop")
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
            # One deal: its points are the table's own rows (a match count would say nothing).
            if not self.single_deal:
                final = list(self.match_end.get("totals", []))
                totals = "   ·   ".join(f"{c} {final[t]}" for c, t in zip(m.columns, m.order) if t < len(final))
                self._fit(
                    surface,
                    self.t("results.final_totals", totals=totals),
                    (r.centerx, y),
                    inner_w,
                    "sans_bold",
                    16,
                    theme.BRASS_LIGHT,
                    "midtop",
                )
                y += 30
                self._caps(
                    surface,
                    self.t("results.last_deal", number=self.deal_end.get("number", 1)),
                    (r.centerx, y),
                    inner_w,
                    12,
                    anchor="midtop",
                )
                y += 22
        else:
            title = self.t("results.deal_title", number=self.deal_end.get("number", 1))
            size = theme.fit(title, "serif_bold", 30, inner_w, 16, 0.22, True)
            theme.heading(surface, title, (r.centerx, y), size, anchor="midtop")
            self.text_log.append((title, theme.text_width(title, "serif_bold", size, size * 0.22, True), inner_w))
            y += 46
            sub = game_and_deck(game_name, deck_name)
            self._caps(surface, sub, (r.centerx, y), inner_w, 13, anchor="midtop")
            y += 24
        orn = theme.ornament(min(520, inner_w))
        surface.blit(orn, orn.get_rect(midtop=(r.centerx, y)))
        y += 22
        if m.headline:
            self._fit(surface, m.headline, (r.centerx, y), inner_w, "serif_bold", 20, theme.CREAM, "midtop")
            y += 34
        x0 = r.x + TABLE_PAD
        y = rows_block.draw(self, surface, m, x0, y, inner_w)
        y += 10
        y = halves_block.draw(self, surface, self.halves(), x0, y, inner_w)
        for note in m.notes:
            for line in theme.wrap(note, "serif", 15, inner_w - 20):
                self._fit(surface, line, (r.centerx, y), inner_w - 20, "serif", 15, theme.CREAM_DIM, "midtop")
                y += 21
        self.ui.draw(surface)
        hint = self.t("results.hint_over" if self.over else "results.hint")
        self._fit(surface, hint, (640, 714), 1200, "sans", 13, theme.CREAM_FAINT, "midbottom")


def _truthy(v: object) -> bool:
    return v is True or str(v).lower() in ("1", "true", "yes", "on")


def create(
    app: AppServices,
    session: TableSession | None = None,
    deal_end: dict | None = None,
    match_end: object = None,
    game: str | None = None,
    deck: str | None = None,
    players: int | None = None,
    **params: object,
) -> ResultsScene:
    """From the table: a session and its events. Alone (screenshots, smoke): a demo deal of
    ``game`` (the first registered game by default); ``match_end=True`` plays the demo to the
    end of the match."""
    if session is not None and deal_end is not None:
        return ResultsScene(app, session, deal_end, match_end if isinstance(match_end, dict) else None)
    cfg = app.config
    game = game if game is not None and game in cfg.games else game_ids()[0]
    if deck is None or deck not in cfg.decks or game not in cfg.decks[deck].games:
        deck = cfg.decks_for(game)[0].id
    s, de, me = demo(app, game, deck, players, _truthy(match_end), seed=DEMO_SEED)
    return ResultsScene(app, s, de, me, standalone=True)


__all__ = ["ResultsScene", "Breakdown", "Row", "Cell", "breakdown", "team_names", "match_verdict", "demo", "create"]
