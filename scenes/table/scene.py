"""The table scene: the model, the motion, the controller and the views put together, and
the keyboard and the mouse mapped to the controller's operations.

Keys: ←/→ or 1–9, 0 and the two keys after 0 pick a card, Enter plays it; with several captures Tab cycles them and
Enter takes the highlighted one (or click table cards to build the set); P places only
(games that allow declining a capture); a game's own decisions have the keys it declares
(Schnapsen: C closes the stock — asked first: Enter confirms, Esc cancels —, X exchanges the
trump card, R toggles "declare the marriage"); G suggests a move; Ctrl+Z takes back your last move; H toggles hints; Esc pauses.
L opens the play log, T the last trick or capture, S the score sheet; a finished trick waits
for any click or key (Settings). Reading aloud (scenes.table.reading): A, D, F, V, W, E, I,
O, ↑/↓ and F1. The mouse: a click chooses a card, a second click on it
plays it; a click on your pile shows your cards, on another pile what it took last.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, cast

import pygame

from game.rules.vocabulary import DecisionKind
from game.services.table_session import TableSession
from scenes.scene import AppServices, Scene
from scenes.table import assist, board, buttons, chooser_view, hud
from scenes.table.animate import animation
from scenes.table.club import ClubTable
from scenes.table.controller import TableController
from scenes.table.model import TableModel, new_model
from scenes.table.motion import TableMotion
from scenes.table.online import OnlineTable, fixed_names
from scenes.table.phrases import plate_words
from scenes.table.reading import TableReader
from scenes.table.story import TableStory
from scenes.table.view import TableNames, TableView
from sprites import table_layout as TL
from sprites import theme, tween
from sprites.table_draw import WARN, CardPainter, banner
from sprites.table_layout import TableLayout
from sprites.tween import Smooth, Tween

if TYPE_CHECKING:
    from game.services.session import Session
from sprites.widgets import UI, Button, card_art

NUMBER_KEYS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}
NUMBER_KEYS.update({getattr(pygame, f"K_KP{i}"): i for i in range(1, 10)})
NUMBER_KEYS.update({pygame.K_0: 10, pygame.K_KP0: 10})
#: The two keys right of 0 on the top row, by position whatever they are labelled ("-" and
#: "=" in English, "ß" and "´" in German; the hint names them): the 11th and 12th cards.
ROW_SCANCODES = {pygame.KSCAN_MINUS: 11, pygame.KSCAN_EQUALS: 12}


def card_number(key: int, scancode: int = 0) -> int | None:
    """The hand position (1 = leftmost) a key picks, or None: 1–9, 0 for the 10th, then the
    two keys after 0, so every card of a twelve-card hand has its key."""
    return NUMBER_KEYS.get(key) or ROW_SCANCODES.get(scancode)


ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


def decision_keys(kinds: Iterable[DecisionKind]) -> dict[int, str]:
    """The keys of the decisions beyond playing a card, as the game declares them (a key's
    letter -> the decision's name)."""
    out: dict[int, str] = {}
    for kind in kinds:
        if kind.key:
            try:
                out[pygame.key.key_code(kind.key)] = kind.name
            except ValueError:  # not a key's name: the decision keeps its button only
                continue
    return out


#: Suggest a move (the normal level's choice); Ctrl+ this key takes back your last move.
SUGGEST_KEY = pygame.K_g
UNDO_KEY = pygame.K_z
#: Recall the cards the other seats drew face up (Tressette for two), as a player remembers them.
RECALL_KEY = pygame.K_k


def _story_panel(kind: str) -> Callable[[TableScene], None]:
    """The overlay that opens the story's ``kind`` panel."""

    def show(scene: TableScene) -> None:
        scene.story.open(kind)

    return show


def _suggest(scene: TableScene) -> None:
    scene.controller.suggest()


#: What ``--overlay NAME`` shows over a table (screenshots, checks): name -> what the scene
#: does to show it. Other aids add their own entries.
OVERLAYS: dict[str, Callable[[TableScene], None]] = {
    "suggest": _suggest,
    # The story's panels (scenes.table.story): the play log, the last trick or capture, your
    # pile and the score sheet.
    **{kind: _story_panel(kind) for kind in ("log", "review", "pile", "sheet")},
}


class TableScene(Scene):
    """The table: its parts (``model``, ``motion``, ``controller``, ``story``, ``online``) are
    reached by name; the views get :meth:`view`, the controller and the animation their
    declared hosts (scenes.table.view)."""

    #: Toasts start below the top row of buttons (Scores, Log, Menu), over the felt's free top.
    toast_top = TL.TABLE_AREA.y

    def __init__(self, app: AppServices, session: TableSession, *, fresh: bool = True, preselect: bool = False):
        super().__init__(app)
        self.session = session
        self.rules = session.rules
        self.game = self.rules.game_id
        self.deck = self.rules.deck
        self.players = self.rules.players
        self.human = session.human_seat if session.human_seat is not None else 0
        self.human_team = self.rules.team_of(self.human)
        self.teams = self.rules.teams
        self.capture_game = self.rules.is_capture_game
        self.layout = self._new_layout()
        # Online, every seat by the same name on every screen (the computer's by number).
        self.names = TableNames(
            app, self.rules, self.human, session, fix=lambda given: fixed_names(session, app.t, given)
        )
        self.time = 0.0
        self.painter: CardPainter | None = None
        self.model: TableModel = new_model(self.rules, self.human)
        self.controller = TableController(self, app, session)
        #: The game's own decisions by their declared keys (C closes the stock …).
        self.decision_keys = decision_keys(self.controller.kinds.values())
        self.motion = self._new_motion()
        self.refusal: tuple[str, Tween] | None = None
        self.hover_code: str | None = None
        self.chooser_hover: tuple[int, int] | None = None
        self.active_glow = {s: Smooth(0.0, 8) for s in range(self.players)}
        self.ui = UI()
        # An online table's extras: quick messages, a dropped seat's countdown.
        self.online = OnlineTable(self, self.controller, session, self.names, self.layout)
        self.buttons: dict[str, Button] = {}
        self.buttons, self.menu_button, self.ask_buttons = buttons.build(
            self.ui, self.view, self.controller, self.open_pause, self.online.toggle_menu
        )
        self.online.buttons = self.buttons
        self.club = ClubTable(self, session)  # a club table: watchers, chat, the Players panel (R)
        self.story = TableStory(self, self.ui)  # L, T, S, the piles, a finished trick's click
        self.reader = TableReader(self)  # the reading keys, the words for a screen reader
        self._load(fresh, preselect)

    def _new_layout(self) -> TableLayout:
        size = getattr(self.app.settings, "card_size", "normal")
        return TableLayout(self.players, self.deck.aspect, self.rules, self.human, card_size=size)

    def _follow_card_size(self) -> None:
        """The card size changed in Settings: lay the table out again, the cards fly there."""
        if getattr(self.app.settings, "card_size", "normal") == self.layout.card_size:
            return
        self.layout = self.motion.layout = self.online.layout = self._new_layout()
        self.motion.relayout()

    def _new_motion(self) -> TableMotion:
        return TableMotion(self.model, self.layout, self.rules, self.names, self.app, self.controller, animation)

    def view(self) -> TableView:
        """This frame of the table, read-only, for the views (scenes.table.view)."""
        c = self.controller
        return TableView(
            app=self.app,
            rules=self.rules,
            layout=self.layout,
            session=self.session,
            names=self.names,
            model=self.model,
            motion=self.motion,
            choice=c,
            human=self.human,
            time=self.time,
            alpha=self.alpha,
            active_glow=self.active_glow,
            hover_code=self.hover_code,
            refusal=self.refusal,
            buttons=self.buttons,
            caption_hidden=assist.shows_line(c),
        )

    def on_stack(self) -> bool:
        return self in self.app.stack.scenes

    def _load(self, fresh: bool, preselect: bool) -> None:
        """Show the match as it stands: a new one animates its deal; a resumed one (or a
        screenshot's fast-forward) is rebuilt from its record instantly."""
        if fresh and not self.session.match.events:
            self.session.start()
            self.controller.pull()
            return
        if self.session.capabilities.streamed and not self.session.match.decisions:
            self.controller.pull()  # an online match just begun: its first deal is dealt as at home
            return
        self.session.take_events()  # already in the record, which is replayed below
        self.motion.fast_forward(
            list(self.session.match.events), getattr(self.app.settings, "animation_speed", "normal")
        )
        if preselect:
            self.controller.preselect()
            v = self.view()
            card_now = board.plays_a_card(v)
            for code in self.model.hand:
                self.motion.lifts.setdefault(code, Smooth(0.0, 18)).snap(board.lift_target(v, code, card_now))

    # ================================================================== what the parts ask for
    def t(self, key: str, **params: object) -> str:
        return self.app.t(key, **params)

    def known_cards_text(self) -> str:
        """What every player saw drawn and is still in the other seats' hands, in words."""
        from scenes.names import rank_name

        m, lines, lang = self.model, [], self.app.language
        for seat in range(m.players):
            if seat == m.viewer:
                continue
            name = self.names.seat_name(seat)
            known = sorted(m.known[seat], key=m.sort_key) if m.sort_key else list(m.known[seat])
            groups: dict[str, list[str]] = {}
            for code in known:  # "Ace, 7 of Swords · King of Coins"
                groups.setdefault(code[-1], []).append(rank_name(self.t, self.deck, lang, code[:-1]))
            cards = " · ".join(
                self.t("table.ranks_of_suit", ranks=", ".join(ranks), suit=self.deck.suit_name(suit, lang))
                for suit, ranks in groups.items()
            )
            if known:
                lines.append(self.t("table.known_cards", name=name, cards=cards))
            else:
                lines.append(self.t("table.known_none", name=name))
        return " ".join(lines)

    def recall_known(self) -> None:
        self.app.toast(self.known_cards_text())

    # ---- scenes.table.view.ControllerHost
    def refused(self, text: str) -> None:
        """The controller's refusal: a banner over the hand, and a click."""
        self.refusal = (text, tween.Tween(0.0, 1.0, 3.2, lambda x: x))
        self.app.sound("click")
        self.app.say(text, interrupt=True)

    def accepted(self) -> None:
        self.refusal = None

    def asked_toggle(self) -> None:
        buttons.place_ask_buttons(self.view(), self.ask_buttons)

    def show_overlay(self, name: str | None) -> None:
        """Show one of :data:`OVERLAYS` (``--overlay``); an unknown name shows nothing."""
        fn = OVERLAYS.get(name) if name else None
        if fn is not None:
            fn(self)

    def redraw(self) -> None:
        """The session was rewound under the table (undo): show its position from the record
        at once, as a resumed match is shown."""
        self.session.take_events()
        self.model = new_model(self.rules, self.human)
        self.motion = self._new_motion()
        self.refusal = None
        self.motion.fast_forward(
            list(self.session.match.events), getattr(self.app.settings, "animation_speed", "normal")
        )

    # ================================================================== the loop
    def update(self, dt: float) -> None:
        self._follow_card_size()
        self.motion.retell()  # the language changed in Settings: the words follow it
        self.time += dt
        self.ui.update(dt)
        self.motion.advance(dt)
        active = self._active_seat()
        for s in range(self.players):
            g = self.active_glow[s]
            g.target = 1.0 if active == s else 0.0
            g.update(dt)
        v = self.view()
        card_now = board.plays_a_card(v) if self.motion.lifts else False
        for code, sm in self.motion.lifts.items():
            sm.target = board.lift_target(v, code, card_now)
            sm.update(dt)
        if self.refusal is not None:
            self.refusal[1].update(dt)
            if self.refusal[1].done:
                self.refusal = None
        motion = self.motion
        if motion.summary is not None:
            text, left = motion.summary
            left -= dt
            motion.summary = None if left <= 0 else (text, left)
        self.online.update(dt)
        self.club.update(dt)
        self.controller.tick()
        self.reader.update()

    # ---- what a screen reader is told (scenes.speak)
    def speech_opening(self) -> list[str]:
        return self.reader.opening()

    def speech_focus(self) -> str:
        return self.reader.focus()

    def _active_seat(self) -> int | None:
        if self.session.over or self.controller.final_panel:
            return None
        if not self.motion.idle:
            return self.motion.acting  # the seat whose play is being shown
        return self.session.to_act

    def enter(self) -> None:
        # Back from the results screen (or the pause menu): the table carries on.
        if self.motion.awaiting_results:
            self.motion.awaiting_results = False
        self.story.entered()  # a panel asked for before the table was shown (--overlay)

    def leave(self) -> None:
        if self not in self.app.stack.scenes:
            self.close()

    def close(self) -> None:
        """Leaving the table for good: keep the match, stop any thinking bot, hush."""
        self.controller.close()
        if self.app.audio is not None:
            self.app.audio.stop()

    # ================================================================== input
    def open_pause(self) -> None:
        self.app.open_scene("pause", table=self)

    def handle(self, event: pygame.event.Event) -> None:
        if self.online.take_over(event):  # the computer played for you: any key takes your seat back
            return
        if self._chooser_input(event):  # a bid's rank and points, a called card: before the reading keys
            return
        if self.reader.handle(event):  # A, D, F, V, W, E, I, O, ↑/↓, F1: read aloud
            return
        if self.online.handle(event) or self.club.handle(event):  # Q: quick messages; R: the players
            return
        if self.controller.final_panel:
            self._handle_final(event)
            return
        if self.story.handle(event):
            return
        if event.type == pygame.KEYDOWN:
            self._key(event.key, getattr(event, "mod", 0), getattr(event, "scancode", 0))
            return
        if event.type == pygame.MOUSEMOTION:
            self.ui.handle(event)
            c = self.controller
            self.hover_code = board.hand_card_at(self.view(), event.pos) if c.can_act else None
            if self.hover_code is not None and c.selected is None:
                c.cursor = self.model.hand.index(self.hover_code)
            return
        if event.type == pygame.MOUSEBUTTONDOWN:
            if event.button == 8:
                self.open_pause()
                return
            if self.ui.handle(event):
                return
            if event.button == 1:
                self._click(event.pos)
            elif event.button == 3:
                self.controller.cancel()
            return
        if event.type == pygame.MOUSEBUTTONUP:
            self.ui.handle(event)

    def chooser_bottom(self) -> int:
        """The chooser's bottom edge: just above the hand's raised cards."""
        hand = self.layout.hand(max(1, len(self.model.hand)))
        top = min((p.y - p.h / 2 for p in hand), default=560)
        return round(top - TL.LIFT - 4)

    def chooser_summary(self) -> str:
        """What the chooser's values name, in the plate's short words ("2 at 75", "2 of
        Swords"): its decision's line as the table would tell it ("" where it has none)."""
        ch = self.controller.chooser
        action = ch.action if ch is not None else None
        if action is None:
            return ""
        line: dict[str, object] = {"event": action.kind}
        for name, value in action.args:
            line[name] = getattr(value, "code", value)  # a card by its code, as the record writes it
        return plate_words(self.t, {0: line}, 0, self.motion.narrator.fields)

    def _chooser_input(self, event: pygame.event.Event) -> bool:
        """The chooser's keys and clicks (scenes.table.chooser); True when it took the event.
        Keys it has no use for (the reading keys, Esc's pause once closed) go on."""
        c = self.controller
        ch = c.chooser
        if ch is None or not c.can_act:
            return False
        said: str | None = None
        if event.type == pygame.KEYDOWN:
            said = chooser_view.key(ch, event.key, getattr(event, "mod", 0))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            what = chooser_view.hit(ch, self.deck.aspect, self.chooser_bottom(), event.pos)
            if what == ("outside",):
                return False  # the decisions' buttons (Pass) and the rest of the table
            said = chooser_view.click(ch, what) or "inside"
        elif event.type == pygame.MOUSEMOTION:
            self.chooser_hover = event.pos
            return False
        if said is None:
            return False
        if said == "confirm":
            c.confirm()
        elif said == "cancel":
            c.cancel()
        elif said == "changed":
            self.app.say(ch.focus_text(self.t, self.deck, self.app.language), interrupt=True)
        return True

    def _key(self, key: int, mod: int, scancode: int = 0) -> None:
        c = self.controller
        if key == pygame.K_ESCAPE:
            if not c.cancel():
                self.open_pause()
            return
        if key == UNDO_KEY and mod & pygame.KMOD_CTRL:
            c.take_back()  # also while the computer plays on: its plays are taken back too
            return
        if key == pygame.K_h:
            self.app.set_setting("hints", not self.app.settings.hints)
            self.app.toast(self.t("table.hints_on" if self.app.settings.hints else "table.hints_off"))
            return
        if key == RECALL_KEY and self.rules.draws_public:
            self.recall_known()
            return
        if not c.can_act:
            return
        decision = self.decision_keys.get(key)
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            c.move_cursor(1 if key == pygame.K_RIGHT else -1)
        elif (number := card_number(key, scancode)) is not None:
            c.point_at(number - 1)
        elif key == pygame.K_TAB:
            if c.mode is not None:
                c.cycle(-1 if mod & pygame.KMOD_SHIFT else 1)
        elif key in ENTER_KEYS:
            c.confirm()
        elif key == pygame.K_p and self.capture_game:
            c.place_only()
        elif key == SUGGEST_KEY and not mod & pygame.KMOD_CTRL:
            c.suggest()
        elif decision is not None:
            c.decide(decision)

    def _click(self, pos: tuple[int, int]) -> None:
        c = self.controller
        if not c.can_act:
            return
        v = self.view()
        code = board.hand_card_at(v, pos)
        if code is not None:
            if code == c.selected:
                c.confirm()  # the second click on the chosen card plays it
            else:
                c.pick(code)
            return
        for tc in reversed(self.model.table):
            r = board.card_rect(v, tc)
            if r is not None and r.collidepoint(pos):
                c.click_table_card(tc)
                return
        if c.selected is not None and self.capture_game and self.layout.table_area().collidepoint(pos):
            c.place_only()  # put it down on the felt
            return
        c.clear_choice()

    def _handle_final(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in ENTER_KEYS + (pygame.K_n,):
            self.play_again()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_m):
            self.to_menu()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            a, b = hud.final_buttons()
            if a.collidepoint(event.pos):
                self.play_again()
            elif b.collidepoint(event.pos):
                self.to_menu()

    def play_again(self) -> None:
        """A new match of the same game, options and players: it replaces this table. Online:
        back to hosting or joining a table."""
        if self.session.capabilities.again == "another_table":
            self.close()
            self.app.stack.pop_to("online")
            return
        s = cast("Session", self.session)  # a rematch: the match was played here (game.services.session)
        self.app.stack.replace(
            "table",
            deck=self.deck.id,
            game=self.game,
            players=self.players,
            options=dict(self.rules.options),
            ai_level=s.bot_name,
            seed=random.randrange(1, 2**31),
            threaded=s.threaded,
        )

    def to_menu(self) -> None:
        """Leave for the menu (the match is saved unless it is over)."""
        self.close()
        self.app.stack.pop_to("menu")

    # ================================================================== drawing
    def _painter(self) -> CardPainter:
        lang = self.app.language
        art = card_art(self.deck)  # a new one when the clear suits are switched
        if self.painter is None or self.painter.lang != lang or self.painter.art is not art:
            self.painter = CardPainter(art, self.deck.aspect, lang)
        return self.painter

    def draw(self, surface: pygame.Surface) -> None:
        self.motion.retell()  # also drawn under the settings, where the language is switched
        surface.blit(theme.table_background(), (0, 0))
        v = self.view()
        hud.draw_hud(surface, v)
        board.draw_cards(surface, v, self._painter())
        hud.draw_status(surface, v)
        self.ui.draw(surface)
        ch = self.controller.chooser
        if ch is not None and self.controller.can_act:
            chooser_view.draw(
                surface,
                ch,
                self.t,
                self.deck,
                self.app.language,
                lambda code, h: self._painter().image(code, h),
                self.deck.aspect,
                self.chooser_bottom(),
                self.chooser_hover,
                self.chooser_summary(),
            )
        assist.draw(surface, v)
        for c in self.motion.callouts:
            c.draw(surface, (TL.TABLE_AREA.centerx, TL.TABLE_AREA.centery - 10))
        if self.refusal is not None:
            text, tw = self.refusal
            p = float(tw.value)
            a = min(1.0, p / 0.06) * min(1.0, (1 - p) / 0.2)
            banner(surface, text, (640, 478 - round((1 - min(1.0, p / 0.06)) * 10)), WARN, a)
        if self.motion.summary is not None:
            banner(surface, self.motion.summary[0], (640, 300), theme.BRASS, 1.0)
        if self.controller.final_panel:
            hud.draw_final(surface, v)
        self.online.draw(surface)
        self.club.draw(surface)


__all__ = ["TableScene", "NUMBER_KEYS", "ROW_SCANCODES", "ENTER_KEYS", "card_number", "OVERLAYS"]
