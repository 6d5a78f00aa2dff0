"""The title screen: Play, Rules, Statistics, Settings, Quit, a hero fan of cards, and the
product's global controls (language, contrast, grain, colour temperature) always at hand.

When a match was left unfinished (window closed, quit to menu, a crash between two moves),
a "Match in progress" panel offers to continue it — game, deck, deal and score shown — with
the focus on "Continue match", so Enter resumes exactly where it was. "New match" (and Play)
ask before the saved match is discarded. A damaged save is moved aside with a toast."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygame

from game.config_types import DeckConfig
from game.rules.base import GameRules
from game.version import version
from scenes.scene import AppServices, UIScene
from scenes.settings import language_choice, picture_slider
from sprites import panels, theme
from sprites.tween import Tween, ease_out_back, ease_out_cubic
from sprites.widgets import Button, card_fan, same_caption_size, same_label_size, sample_codes

LEFT = 96
#: The title block's width: the title at the usual text size, which ends where the card fan
#: begins. At a larger text size the title, the games and the subtitle keep to it.
TITLE_W = 550
BAR = pygame.Rect(40, 600, 1200, 86)
RESUME = pygame.Rect(688, 394, 484, 160)  # the "Match in progress" panel, under the fan
ONLINE = pygame.Rect(688, 22, 484, 58)  # "Rejoin" an online table left mid-match, above the fan


@dataclass
class SavedMatch:
    """What the menu shows of the saved match (read from the save, without replaying it)."""

    game: str
    deck: str
    players: int
    options: dict
    bot: str
    deal: int
    totals: list
    human_seat: int | None


def saved_match_info(data: dict) -> SavedMatch | None:
    """The offer's facts from a save's data; None when they cannot be read (the resume
    itself then reports the problem and moves the save aside)."""
    try:
        events = data["events"]
        totals = None
        for ev in reversed(events):
            if isinstance(ev, dict) and isinstance(ev.get("totals"), list):
                totals = list(ev["totals"])
                break
        if totals is None:
            from game.rulesets import make_rules

            totals = list(make_rules(data["game"], data["deck"], data["players"], data["options"]).initial_totals())
        deal = sum(1 for ev in events if isinstance(ev, dict) and ev.get("event") == "deal")
        return SavedMatch(
            str(data["game"]),
            str(data["deck"]),
            int(data["players"]),
            dict(data["options"]),
            str(data.get("bot") or "greedy"),
            max(1, deal),
            totals,
            data.get("human_seat", 0),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


class MenuScene(UIScene):
    def build(self) -> None:
        app = self.app
        y = 318
        self.saved: SavedMatch | None = None
        self.version_rect: pygame.Rect | None = None  # where the version was drawn (tests)
        self.title_rects: list[pygame.Rect] = []  # the title, the games and the subtitle, as drawn
        self.fan_rect: pygame.Rect | None = None
        self.confirming = False  # "discard the match in progress?" is being asked
        self._after_discard = self._open_decks
        self.play = self.ui.add(
            Button((LEFT, y, 206, 56), self.label("menu.play"), self._play, style="primary", size=19, name="play")
        )
        # Learn: a guided first deal of each game, beside Play.
        self.ui.add(
            Button(
                (LEFT + 218, y, 102, 56),
                self.label("lessons.menu"),
                lambda: self.app.open_scene("learn"),
                size=15,
                name="learn",
            )
        )
        y += 56 + 14
        # Rules and Statistics share a row, so the column keeps its height.
        self.ui.add(Button((LEFT, y, 154, 46), self.label("menu.rules"), self._rules, name="rules"))
        self.ui.add(Button((LEFT + 166, y, 154, 46), self.label("stats.menu"), self._stats, name="stats"))
        y += 46 + 12
        # Play online and Settings share a row, as Rules and Statistics do.
        self.ui.add(
            Button((LEFT, y, 154, 46), self.label("online.menu"), lambda: self.app.open_scene("online"), name="online")
        )
        self.ui.add(Button((LEFT + 166, y, 154, 46), self.label("menu.settings"), self._settings, name="settings"))
        y += 46 + 12
        # Replays (the kept matches) and Quit share a row, as Rules and Statistics do.
        self.ui.add(
            Button(
                (LEFT, y, 154, 46), self.label("replay.menu"), lambda: self.app.open_scene("replays"), name="replays"
            )
        )
        self.ui.add(Button((LEFT + 166, y, 154, 46), self.label("menu.quit"), app.quit, name="quit"))
        y += 46 + 12
        self.quit_button = self.ui.widgets[-1]
        # Play, Learn and the grid of six (every one a Button, added just above).
        self.column = [w for w in self.ui.widgets[-8:] if isinstance(w, Button)]
        same_label_size(*self.column[2:])  # the grid of six reads alike in every language
        self._column_scale: float | None = None
        self._lay_out_column()
        # The "Match in progress" offer (shown only when a save exists).
        offer = lambda: self.saved is not None and not self.confirming  # noqa: E731
        asking = lambda: self.saved is not None and self.confirming  # noqa: E731
        bx, by, bw = RESUME.x + 24, RESUME.bottom - 60, (RESUME.w - 48 - 16) // 2
        self.continue_button = self.ui.add(
            Button(
                (bx, by, bw, 44),
                self.label("resume.continue"),
                self._continue,
                style="primary",
                size=16,
                name="continue",
                visible=offer,
            )
        )
        self.new_button = self.ui.add(
            Button(
                (bx + bw + 16, by + 2, bw, 40),
                self.label("resume.new"),
                self._ask_new,
                size=15,
                name="new",
                visible=offer,
            )
        )
        self.discard_button = self.ui.add(
            Button(
                (bx, by + 2, bw, 40),
                self.label("resume.discard"),
                self._discard,
                size=15,
                name="discard",
                visible=asking,
            )
        )
        self.keep_button = self.ui.add(
            Button(
                (bx + bw + 16, by, bw, 44),
                self.label("resume.keep"),
                self._keep,
                style="primary",
                size=16,
                name="keep",
                visible=asking,
            )
        )
        # An online table left in the middle of its match: Rejoin takes the seat back.
        self.online_last: Mapping[str, object] | None = None
        self.rejoin_button = self.ui.add(
            Button(
                (ONLINE.right - 14 - 150, ONLINE.y + 9, 150, 40),
                self.label("online.rejoin"),
                self._rejoin,
                size=15,
                name="rejoin",
                visible=lambda: self.online_last is not None,
            )
        )
        # The bottom bar: the same four controls as the product page's header.
        inner = BAR.inflate(-56, 0)
        w = (inner.w - 3 * 40) // 4
        x = inner.x
        top = BAR.y + 16
        self.ui.add(language_choice(app, (x, top, w, 58), caption=self.label("common.language")))
        for i, key in enumerate(("contrast", "grain", "temperature")):
            x = inner.x + (i + 1) * (w + 40)
            self.ui.add(picture_slider(app, key, (x, top, w, 50), caption=self.label(f"common.{key}")))
        same_caption_size(*self.ui.widgets[-4:])  # the bar's four captions read alike
        self.ui.focus(self.play)
        self.intro = Tween(0.0, 1.0, 0.6, ease_out_cubic)
        self.fan_in = Tween(0.0, 1.0, 0.6, ease_out_back, delay=0.08)
        self.refresh_saved()

    def _lay_out_column(self) -> None:
        """The buttons grow wider with the text size (still left of the card fan), so that a
        larger text is larger on them too, not shrunk back to fit."""
        k = min(theme.TEXT_SCALE[0], 1.3)
        if k == self._column_scale:
            return
        self._column_scale = k
        col = round(154 * k)
        play, learn, *grid = self.column
        play.rect.w = round(206 * k)
        learn.rect.x, learn.rect.w = LEFT + play.rect.w + 12, 2 * col - play.rect.w
        for i, b in enumerate(grid):
            b.rect.x, b.rect.w = LEFT + (i % 2) * (col + 12), col

    def enter(self) -> None:
        # Back from a table (quit to menu) or from the results: the save may have changed.
        self.refresh_saved()

    # ------------------------------------------------------------------ the saved match
    def refresh_saved(self) -> None:
        """Read the save (a damaged one is moved aside, with a toast) and show or hide the offer."""
        from game.services import saves
        from scenes.online import rejoin

        self.online_last = rejoin.last_table(self.app)
        had = self.saved is not None
        self.confirming = False
        data, problem = saves.load_match()
        if problem:
            self._problem(problem)
        self.saved = saved_match_info(data) if data is not None else None
        if data is not None and self.saved is None:
            # A save without the facts a resume needs: keep it aside rather than offer it.
            from game.services.storage import quarantine

            self._problem(quarantine(saves.save_path(), "is incomplete"))
        self.play.style = "secondary" if self.saved is not None else "primary"
        if self.saved is not None and not had:
            self.ui.focus(self.continue_button)
        elif self.saved is None and had:
            self.ui.focus(self.play)
        self.ui.ensure_focus()

    def _problem(self, problem: str) -> None:
        self.app.toast(
            self.t("resume.damaged")
            if getattr(problem, "bad", None) or "match.json.bad" in problem
            else self.t("resume.failed", reason=problem)
        )

    def _continue(self) -> None:
        """Replay the save and open its table where it was; a save that does not replay is
        moved aside with a message and the offer disappears."""
        from game.services import saves

        session, problem = saves.resume_session(threaded=bool(self.app.has_window))
        if session is None:
            if problem:
                self._problem(problem)
            self.refresh_saved()
            return
        r = session.rules
        self.app.open_scene(
            "table",
            deck=r.deck.id,
            game=r.game_id,
            players=r.players,
            options=dict(r.options),
            ai_level=session.bot_name,
            session=session,
        )

    def _rejoin(self) -> None:
        """Back to the online table: its join form, joining at once with the kept seat."""
        self.app.open_scene("online")
        self.app.open_scene("online_join", rejoin=True)

    def second_window_note(self) -> str | None:
        """Another window owns the home folder: its match in progress is not offered here
        (a lasting line, not only the start's toast)."""
        from game.services import saves

        return self.t("menu.second_window") if saves.read_only and self.saved is None else None

    def _ask_new(self, then: Callable[[], None] | None = None) -> None:
        self.confirming = True
        self._after_discard = then or self._open_decks
        self.ui.focus(self.keep_button)  # the safe answer is the default

    def _keep(self) -> None:
        self.confirming = False
        self.ui.focus(self.continue_button)

    def _discard(self) -> None:
        from game.services import saves

        saves.clear_match()
        self.confirming = False
        self.saved = None
        self.play.style = "primary"
        self.ui.focus(self.play)
        self._after_discard()

    # ------------------------------------------------------------------ actions
    def _deck(self) -> DeckConfig:
        cfg = self.app.config
        last = self.app.settings.last_deck
        return cfg.decks[last] if last in cfg.decks else next(iter(cfg.decks.values()))

    def _play(self) -> None:
        # A new match would overwrite the saved one: ask first.
        if self.saved is not None:
            self._ask_new(self._open_decks)
            return
        self._open_decks()

    def _open_decks(self) -> None:
        self.app.open_scene("decks", deck=self.app.settings.last_deck or None)

    def _stats(self) -> None:
        self.app.open_scene("stats")

    def _rules(self) -> None:
        self.app.open_scene("rules", deck=self._deck().id)

    def _settings(self) -> None:
        self.app.open_scene("settings")

    def back(self) -> None:
        # Esc while asking means "keep it"; otherwise it never quits by surprise: it moves
        # to the Quit button.
        if self.confirming:
            self._keep()
            return
        self.ui.focus(self.quit_button)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            self.app.quit()
            return
        super().handle(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        self._lay_out_column()  # the text size may have changed in the settings
        from scenes.online import hosting

        if hosting.running_server() is not None and not hosting.live_tables():
            hosting.stop_server()  # the hosted match that outlived the online screens is over
        self.intro.update(dt)
        self.fan_in.update(dt)

    def close(self) -> None:
        from scenes.online import hosting

        hosting.stop_server()  # the app closes: a hosted table waits on disk for Rejoin

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        a = float(self.intro.value_at(self.alpha))
        lang = self.app.language
        # Title block.
        rise = round((1 - a) * 18)
        name = self.t("app.title")
        tsize = theme.fit(name, "serif_bold", 72, TITLE_W, 40, tracking_ratio=14 / 72, caps=True)
        title = theme.text(name, "serif_bold", tsize, theme.CREAM, tracking=14 * tsize / 72, caps=True, shadow=3)
        title_layer = title
        if a < 1:
            title_layer = title.copy()
            title_layer.set_alpha(int(255 * a))
        tw = title.get_width() - 20
        surface.blit(theme.ornament(tw), (LEFT, 196 + rise))
        tagline = self.t("app.tagline")  # the games' names: as wide as the title, however many
        size = theme.fit(tagline, "cond_bold", 16, tw, min_size=11, tracking_ratio=0.16, caps=True)
        subtitle = self.t("app.subtitle")
        self.title_rects = [
            surface.blit(title_layer, (LEFT - 4, 104 + rise)),
            theme.small_caps(surface, tagline, (LEFT + 2, 222 + rise), size, theme.BRASS),
            theme.blit_text(
                surface,
                subtitle,
                (LEFT + 2, 252 + rise),
                "serif",
                theme.fit(subtitle, "serif", 17, tw, 12),
                theme.CREAM_DIM,
            ),
        ]
        # Hero fan of the featured deck.
        deck = self._deck()
        # With a match to continue the fan is a little smaller and higher, above the offer.
        saved = self.saved is not None
        fan = card_fan(deck, sample_codes(deck, 5), 200 if saved else 250, lang, spread=32 if saved else 38)
        f = float(self.fan_in.value_at(self.alpha))
        cx, cy = 930, (206 if saved else 312) + round((1 - f) * 60)
        spot = theme.spotlight((820, 600), (40, 34, 20), 1.4)
        surface.blit(spot, spot.get_rect(center=(cx, cy + 10)), special_flags=pygame.BLEND_RGB_ADD)
        fan_img = fan
        if f < 1:
            fan_img = fan.copy()
            fan_img.set_alpha(int(255 * max(0.0, min(1.0, f))))
        self.fan_rect = surface.blit(fan_img, fan_img.get_rect(center=(cx, cy)))
        caption = self.t("menu.featured", deck=deck.name.get(lang, deck.name["en"]))
        theme.small_caps(surface, caption, (cx, cy + fan.get_height() // 2 + 18), 13, theme.BRASS, anchor="midtop")
        region = deck.region.get(lang, deck.region["en"])
        theme.blit_text(
            surface, region, (cx, cy + fan.get_height() // 2 + 40), "serif", 15, theme.CREAM_DIM, anchor="midtop"
        )
        if saved:
            self._draw_offer(surface, a)
        elif self.second_window_note():
            self._draw_note(surface, self.second_window_note() or "")
        if self.online_last is not None:
            self._draw_online(surface)
        # Bottom bar of global controls.
        surface.blit(theme.shadow(BAR.size, 14, 8, 110), (BAR.x - 8, BAR.y - 8 + 4))
        surface.blit(theme.panel(BAR.size, 14), BAR)
        self.ui.draw(surface)
        theme.blit_text(surface, self.t("hint.menu"), (640, 574), "sans", 13, theme.CREAM_FAINT, anchor="midbottom")
        # The version at the foot, under the bar: what a player names in a bug report.
        self.version_rect = theme.blit_text(
            surface,
            self.t("menu.version", version=version()),
            (BAR.right - 8, 703),
            "sans",
            11,
            theme.CREAM_FAINT,
            anchor="bottomright",
        )

    def offer_lines(self) -> tuple[str, str]:
        """The offer's two lines: "Scopa · Piacentine · 2 players" and "Deal 3 — You 5 · North 3";
        a count that runs down (the Bummerl) says what is still needed: "Schnapsen · German
        suits · 2 players" and "Deal 4 — You need 5 more game points, North 4"."""
        from scenes.names import game_and_deck, team_names

        m = self.saved
        if m is None:
            return "", ""
        cfg, lang = self.app.config, self.app.language
        game = cfg.games[m.game].name.get(lang, m.game) if m.game in cfg.games else m.game
        deck = cfg.decks[m.deck].name.get(lang, m.deck) if m.deck in cfg.decks else m.deck
        head = f"{game_and_deck(game, deck)} · {self.t('resume.players', count=m.players)}"
        rules = self._rules_of(m)
        names = team_names(self.t, m.players, m.human_seat, team_of=None if rules is None else rules.team_of)
        if (
            rules is not None
            and rules.totals_count_down
            and rules.match_goal()[0] != "single"
            and m.human_seat is not None
            and len(m.totals) == len(names)
        ):
            # What is left is what each still needs: the player's first, then the others'.
            mine = rules.team_of(m.human_seat)
            others = [f"{n} {v}" for i, (n, v) in enumerate(zip(names, m.totals)) if i != mine]
            score = ", ".join([self.t("resume.you_need", count=m.totals[mine]), *others])
        else:
            score = "  ·  ".join(f"{n} {v}" for n, v in zip(names, m.totals))
        return head, f"{self.t('resume.deal', number=m.deal)}  —  {score}"

    @staticmethod
    def _rules_of(m: SavedMatch) -> GameRules | None:
        """The saved match's rules (their facts, never the game's name), or None."""
        from game.rulesets import make_rules

        try:
            return make_rules(m.game, m.deck, m.players, m.options)
        except (KeyError, ValueError, TypeError):
            return None

    def offer_variant(self) -> str | None:
        """The saved match's house rules by name ("Scopone scientifico", "Custom: Fifteen"),
        None for the rules as written or a game rules.yaml no longer has."""
        from game.variants import variant_name

        m = self.saved
        cfg = self.app.config
        if m is None or m.game not in cfg.games:
            return None
        return variant_name(self.app.i18n, cfg.games[m.game], m.options, m.players)

    def _draw_offer(self, surface: pygame.Surface, a: float) -> None:
        r = RESUME.move(0, round((1 - a) * 14))
        surface.blit(theme.shadow(r.size, 14, 8, 120), (r.x - 8, r.y - 4))
        surface.blit(theme.panel(r.size, 14, (10, 30, 20, 236), theme.BRASS), r)
        inner = r.w - 48
        if self.confirming:
            lines = theme.wrap(self.t("resume.confirm"), "serif_bold", 17, inner, max_lines=3)
            for i, line in enumerate(lines):
                theme.blit_text(
                    surface, line, (r.centerx, r.y + 14 + i * 22), "serif_bold", 17, theme.BRASS_LIGHT, anchor="midtop"
                )
            return
        title = self.t("resume.title")
        tsize = theme.fit(title, "cond_bold", 13, inner, 9, 0.16, True)
        theme.small_caps(surface, title, (r.x + 24, r.y + 14), tsize, theme.BRASS)
        head, score = self.offer_lines()
        variant = self.offer_variant()
        y = r.y + (34 if variant else 40)
        theme.blit_text(
            surface, head, (r.x + 24, y), "serif_bold", theme.fit(head, "serif_bold", 19, inner, 12), theme.CREAM
        )
        if variant:  # the house rules, under the game's name
            variant, size = panels.fit_or_cut(variant, "sans_bold", 14, inner, 10)
            theme.blit_text(surface, variant, (r.x + 24, y + 25), "sans_bold", size, theme.BRASS_LIGHT)
        theme.blit_text(
            surface,
            score,
            (r.x + 24, y + (46 if variant else 30)),
            "sans",
            theme.fit(score, "sans", 15, inner, 10),
            theme.CREAM_DIM,
        )

    def _draw_note(self, surface: pygame.Surface, text: str) -> None:
        r = pygame.Rect(RESUME.x, RESUME.bottom - 56, RESUME.w, 56)
        surface.blit(theme.panel(r.size, 12, (10, 30, 20, 220), theme.BRASS_DARK), r)
        lines = theme.wrap(text, "sans", 14, r.w - 36, max_lines=2)
        for i, line in enumerate(lines):
            theme.blit_text(
                surface, line, (r.x + 18, r.y + (19 if len(lines) == 1 else 10) + 18 * i), "sans", 14, theme.CREAM_DIM
            )

    def _draw_online(self, surface: pygame.Surface) -> None:
        from scenes.online import rejoin

        r = ONLINE
        surface.blit(theme.shadow(r.size, 12, 6, 110), (r.x - 6, r.y - 3))
        surface.blit(theme.panel(r.size, 12, (10, 30, 20, 236), theme.BRASS), r)
        room = r.w - 18 - 150 - 14 - 14
        lines = theme.wrap(rejoin.menu_line(self.app, self.online_last or {}), "sans_bold", 14, room, max_lines=2)
        for i, line in enumerate(lines):
            theme.blit_text(
                surface, line, (r.x + 18, r.y + (20 if len(lines) == 1 else 11) + 18 * i), "sans_bold", 14, theme.CREAM
            )


def create(app: AppServices, **params: object) -> MenuScene:
    return MenuScene(app)
