"""The table scene: the model, the motion, the controller and the views put together, and
the keyboard and the mouse mapped to the controller's operations.

Keys: ←/→ or 1–9, 0 and the two keys after 0 pick a card, Enter plays it; with several captures Tab cycles them and
Enter takes the highlighted one (or click table cards to build the set); P places only
(games that allow declining a capture); C closes the stock (asked first: Enter confirms, Esc
cancels), X exchanges the trump card, R toggles "declare the marriage" (games with those
decisions); G suggests a move; Ctrl+Z takes back your last move; H toggles hints; Esc pauses.
L opens the play log, T the last trick or capture, S the score sheet; a finished trick waits
for any click or key (Settings). The mouse: a click chooses a card, a second click on it
plays it; a click on your pile shows your cards, on another pile what it took last.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame

from scenes import names
from scenes.scene import Scene
from scenes.table import assist, board, buttons, hud
from scenes.table.controller import TableController
from scenes.table.model import TableModel, new_model
from scenes.table.motion import TableMotion
from scenes.table.online import OnlineTable, fixed_names
from scenes.table.story import TableStory
from sprites import table_layout as TL
from sprites import theme, tween
from sprites.table_draw import WARN, CardPainter, banner
from sprites.table_layout import TableLayout
from sprites.tween import Smooth, Tween
from sprites.widgets import UI, card_art

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
#: Keys for the decisions beyond playing a card, offered when the game has them.
DECISION_KEYS = {pygame.K_c: "close", pygame.K_x: "exchange", pygame.K_r: "marriage"}
#: Suggest a move (the normal level's choice); Ctrl+ this key takes back your last move.
SUGGEST_KEY = pygame.K_g
UNDO_KEY = pygame.K_z
#: Recall the cards the other seats drew face up (Tressette for two), as a player remembers them.
RECALL_KEY = pygame.K_k


#: What ``--overlay NAME`` shows over a table (screenshots, checks): name -> what the scene
#: does to show it. Other aids add their own entries.
OVERLAYS: dict[str, Callable[[Any], None]] = {
    "suggest": lambda scene: scene.controller.suggest(),
    # The story's panels (scenes.table.story): the play log, the last trick or capture, your
    # pile and the score sheet.
    **{kind: (lambda scene, kind=kind: scene.story.open(kind)) for kind in ("log", "review", "pile", "sheet")},
}


class _Via:
    """An attribute of the scene that lives in one of its parts (model, motion, controller):
    the tests, the pause overlay and the views read the table through the scene."""

    def __init__(self, part: str):
        self.part = part

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        return self if obj is None else getattr(getattr(obj, self.part), self.name)

    def __set__(self, obj: Any, value: Any) -> None:
        setattr(getattr(obj, self.part), self.name, value)


class TableScene(Scene):
    #: Toasts start below the top row of buttons (Scores, Log, Menu), over the felt's free top.
    toast_top = TL.TABLE_AREA.y
    # ---- the model: what the table shows
    hand = _Via("model")
    table = _Via("model")
    trick = _Via("model")
    totals = _Via("model")
    card_points = _Via("model")
    won_cards = _Via("model")
    piles = _Via("model")
    bonus_count = _Via("model")
    match_over = _Via("model")
    # ---- the motion: sprites and the events still to show
    sprites = _Via("motion")
    backs = _Via("motion")
    lifts = _Via("motion")
    queue = _Via("motion")
    callouts = _Via("motion")
    summary = _Via("motion")
    awaiting_results = _Via("motion")
    idle = _Via("motion")
    # ---- the controller: the human's choice
    cursor = _Via("controller")
    selected = _Via("controller")
    mode = _Via("controller")
    cands = _Via("controller")
    cand_i = _Via("controller")
    built = _Via("controller")
    marriage_toggle = _Via("controller")
    submitted = _Via("controller")
    can_act = _Via("controller")
    spectator = _Via("controller")
    finished = _Via("controller")
    confirming = _Via("controller")
    suggestion = _Via("controller")

    def __init__(self, app: Any, session: Any, *, fresh: bool = True, preselect: bool = False):
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
        self.layout = TableLayout(self.players, self.deck.aspect, self.rules, self.human)
        self.time = 0.0
        self.painter: CardPainter | None = None
        self.model: TableModel = new_model(self.rules, self.human)
        self.motion = TableMotion(self)
        self.controller = TableController(self, session)
        self.final_panel = False
        self.refusal: tuple[str, Tween] | None = None
        self.hover_code: str | None = None
        self.active_glow = {s: Smooth(0.0, 8) for s in range(self.players)}
        self.ui = UI()
        self.online = OnlineTable(self)  # an online table's extras: quick messages, a dropped seat's countdown
        self.buttons, self.menu_button, self.ask_buttons = buttons.build(self, self.ui)
        self.story = TableStory(self, self.ui)  # L, T, S, the piles, a finished trick's click
        self._load(fresh, preselect)

    def _load(self, fresh: bool, preselect: bool) -> None:
        """Show the match as it stands: a new one animates its deal; a resumed one (or a
        screenshot's fast-forward) is rebuilt from its record instantly."""
        if fresh and not self.session.match.events:
            self.session.start()
            self.controller.pull()
            return
        if self.controller.remote and not self.session.match.decisions:
            self.controller.pull()  # an online match just begun: its first deal is dealt as at home
            return
        self.session.take_events()  # already in the record, which is replayed below
        self.motion.fast_forward(list(self.session.match.events),
                                 getattr(self.app.settings, "animation_speed", "normal"))
        if preselect:
            self.controller.preselect()
            for code in self.hand:
                self.lifts.setdefault(code, Smooth(0.0, 18)).snap(board.lift_target(self, code))

    # ================================================================== what the parts ask for
    def t(self, key: str, **params: Any) -> str:
        return self.app.t(key, **params)

    @property
    def lang(self) -> str:
        return self.app.language

    def given_names(self) -> dict[int, str]:
        """Friends' own names at an online table, by seat (the viewer is always "You")."""
        names_of = getattr(self.session, "seat_names", None)
        given = fixed_names(self, names_of()) if callable(names_of) else {}
        return {k: v for k, v in given.items() if k != self.human}

    def seat_name(self, seat: int, subject: bool = False) -> str:
        given = self.given_names().get(seat) if getattr(self.session, "remote", False) else None
        if given:
            return given
        """The seat's label; ``subject``: as a sentence's subject ("Il compagno sta pensando…")."""
        return names.seat_name(self.t, seat, self.human, self.players, subject, self.rules.team_of)

    def team_name(self, team: int) -> str:
        if self.players != 4:  # a team is a seat: a friend online by their name
            return self.seat_name(team)
        return names.team_name(self.t, team, self.human, self.players, team_of=self.rules.team_of)

    def card_name(self, code: str) -> str:
        return names.card_name(self.t, self.deck, self.lang, code)

    def known_cards_text(self) -> str:
        """What every player saw drawn and is still in the other seats' hands, in words."""
        from scenes.names import rank_name

        m, lines = self.model, []
        for seat in range(m.players):
            if seat == m.viewer:
                continue
            name = self.seat_name(seat)
            known = sorted(m.known[seat], key=m.sort_key) if m.sort_key else list(m.known[seat])
            groups: dict[str, list[str]] = {}
            for code in known:  # "Ace, 7 of Swords · King of Coins"
                groups.setdefault(code[-1], []).append(rank_name(self.t, self.deck, self.lang, code[:-1]))
            cards = " · ".join(self.t("table.ranks_of_suit", ranks=", ".join(ranks), suit=self.deck.suit_name(suit, self.lang))
                               for suit, ranks in groups.items())
            if known:
                lines.append(self.t("table.known_cards", name=name, cards=cards))
            else:
                lines.append(self.t("table.known_none", name=name))
        return " ".join(lines)

    def recall_known(self) -> None:
        self.app.toast(self.known_cards_text())

    def refused(self, text: str) -> None:
        """The controller's refusal: a banner over the hand, and a click."""
        self.refusal = (text, tween.Tween(0.0, 1.0, 3.2, lambda x: x))
        self.app.sound("click")

    def accepted(self) -> None:
        self.refusal = None

    def asked_marriage(self) -> None:
        buttons.place_ask_buttons(self)

    def hand_codes(self) -> list[str]:
        return list(self.hand)

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
        self.motion = TableMotion(self)
        self.refusal = None
        self.motion.fast_forward(list(self.session.match.events),
                                 getattr(self.app.settings, "animation_speed", "normal"))

    # The controller's operations, under the names the tests and the buttons use.
    def _legal(self) -> list:
        return self.controller.legal()

    def candidates_for(self, code: str) -> list:
        return self.controller.candidates_for(code)

    def select(self, code: str) -> None:
        self.controller.select(code)

    def confirm(self) -> None:
        self.controller.confirm()

    def cycle(self, step: int = 1) -> None:
        self.controller.cycle(step)

    def place_only(self) -> None:
        self.controller.place_only()

    def toggle_marriage(self) -> None:
        self.controller.toggle_marriage()

    def click_table_card(self, code: str) -> None:
        self.controller.click_table_card(code)

    def _submit(self, action: Any) -> bool:
        return self.controller.submit(action)

    def _clear_choice(self) -> None:
        self.controller.clear_choice()

    def refusal_text(self, e: Any) -> str:
        return self.controller.refusal_text(e)

    def _highlights(self) -> dict:
        return board.highlights_of(self)

    def card_rect(self, code: str) -> pygame.Rect | None:
        return board.card_rect(self, code)

    # ================================================================== the loop
    def update(self, dt: float) -> None:
        self.time += dt
        self.ui.update(dt)
        self.motion.advance(dt)
        active = self._active_seat()
        for s in range(self.players):
            g = self.active_glow[s]
            g.target = 1.0 if active == s else 0.0
            g.update(dt)
        for code, sm in self.lifts.items():
            sm.target = board.lift_target(self, code)
            sm.update(dt)
        if self.refusal is not None:
            self.refusal[1].update(dt)
            if self.refusal[1].done:
                self.refusal = None
        if self.summary is not None:
            text, left = self.summary
            left -= dt
            self.summary = None if left <= 0 else (text, left)
        self.online.update(dt)
        self.controller.tick()

    def _active_seat(self) -> int | None:
        if self.session.over or self.final_panel:
            return None
        if not self.idle:
            return self.motion.acting  # the seat whose play is being shown
        return self.session.to_act


    def enter(self) -> None:
        # Back from the results screen (or the pause menu): the table carries on.
        if self.awaiting_results:
            self.awaiting_results = False
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
        if self.online.handle(event):  # Q: quick messages (also "Good game" once it is over)
            return
        if self.final_panel:
            self._handle_final(event)
            return
        if self.story.handle(event):
            return
        if event.type == pygame.KEYDOWN:
            self._key(event.key, getattr(event, "mod", 0), getattr(event, "scancode", 0))
            return
        if event.type == pygame.MOUSEMOTION:
            self.ui.handle(event)
            self.hover_code = board.hand_card_at(self, event.pos) if self.can_act else None
            if self.hover_code is not None and self.selected is None:
                self.cursor = self.hand.index(self.hover_code)
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
        decision = DECISION_KEYS.get(key)
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            c.move_cursor(1 if key == pygame.K_RIGHT else -1)
        elif card_number(key, scancode) is not None:
            c.point_at(card_number(key, scancode) - 1)
        elif key == pygame.K_TAB:
            if c.mode is not None:
                c.cycle(-1 if mod & pygame.KMOD_SHIFT else 1)
        elif key in ENTER_KEYS:
            c.confirm()
        elif key == pygame.K_p and self.capture_game:
            c.place_only()
        elif key == SUGGEST_KEY and not mod & pygame.KMOD_CTRL:
            c.suggest()
        elif decision is not None and decision in self.rules.decisions:
            if decision == "marriage":
                c.toggle_marriage()
            else:
                c.ask_decision(decision)

    def _click(self, pos: tuple[int, int]) -> None:
        c = self.controller
        if not c.can_act:
            return
        code = board.hand_card_at(self, pos)
        if code is not None:
            if code == c.selected:
                c.confirm()  # the second click on the chosen card plays it
            else:
                c.pick(code)
            return
        for tc in reversed(self.table):
            r = self.card_rect(tc)
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
        if self.controller.remote:
            self.close()
            self.app.stack.pop_to("online")
            return
        s = self.session
        self.app.stack.replace("table", deck=self.deck.id, game=self.game, players=self.players,
                               options=dict(self.rules.options), ai_level=s.bot_name,
                               seed=random.randrange(1, 2 ** 31), threaded=s.threaded)

    def to_menu(self) -> None:
        """Leave for the menu (the match is saved unless it is over)."""
        self.close()
        self.app.stack.pop_to("menu")

    # ================================================================== drawing
    def _painter(self) -> CardPainter:
        if self.painter is None or self.painter.lang != self.lang:
            self.painter = CardPainter(card_art(self.deck), self.deck.aspect, self.lang)
        return self.painter

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(theme.table_background(), (0, 0))
        hud.draw_hud(surface, self)
        board.draw_cards(surface, self, self._painter())
        hud.draw_status(surface, self)
        self.ui.draw(surface)
        assist.draw(surface, self)
        for c in self.callouts:
            c.draw(surface, (TL.TABLE_AREA.centerx, TL.TABLE_AREA.centery - 10))
        if self.refusal is not None:
            text, tw = self.refusal
            p = float(tw.value)
            a = min(1.0, p / 0.06) * min(1.0, (1 - p) / 0.2)
            banner(surface, text, (640, 478 - round((1 - min(1.0, p / 0.06)) * 10)), WARN, a)
        if self.summary is not None:
            banner(surface, self.summary[0], (640, 300), theme.BRASS, 1.0)
        if self.final_panel:
            hud.draw_final(surface, self)
        self.online.draw(surface)


__all__ = ["TableScene", "NUMBER_KEYS", "ROW_SCANCODES", "ENTER_KEYS", "card_number", "OVERLAYS"]
